// SPDX-License-Identifier: GPL-2.0
/*
 * __value_bytes(MAP) on a program that runs: before the run, key 0 of MAP
 * is written from user space with a pattern in every byte; the program
 * then fills the value's graph roots. After the run, every syscall that
 * copies a value out or in must move the bytes around the special fields
 * (lock, timer, list heads, rb roots) and never the fields themselves:
 * lookup (and with BPF_F_LOCK), batch lookup, update with another pattern
 * (and with BPF_F_LOCK, and as a batch), and for hash maps lookup-and-delete
 * (and as a batch).
 * A special field reads as zeroes; every other byte as last written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "value_bytes.h"

struct value_map {
	struct bpf_map *map;
	int fd;
	__u32 size;
	unsigned char *special;	/* 1 where a special field is */
	unsigned char *want, *got;
};

static const char *const special_structs[] = {
	"bpf_spin_lock", "bpf_timer", "bpf_list_head", "bpf_rb_root",
};

/* Mark the bytes of the special fields among the value's members. */
static int mark_special(const struct btf *btf, __u32 type_id, unsigned char *special)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	const struct btf_member *m;
	unsigned int i, k, n = 0;

	if (!t || !btf_is_struct(t))
		return -1;
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		__u32 mid = btf__resolve_type(btf, m->type);
		const struct btf_type *mt = btf__type_by_id(btf, mid);
		const char *name = btf__name_by_offset(btf, mt->name_off);

		if (!btf_is_struct(mt))
			continue;
		for (k = 0; k < sizeof(special_structs) / sizeof(special_structs[0]); k++)
			if (!strcmp(name, special_structs[k])) {
				memset(special + btf_member_bit_offset(t, i) / 8, 1, mt->size);
				n++;
			}
	}
	return n;
}

static void fill(struct value_map *v, unsigned char seed)
{
	__u32 i;

	for (i = 0; i < v->size; i++)
		v->want[i] = v->special[i] ? 0 : (unsigned char)(seed + i * 7) | 1;
}

/* The first byte of @v->got that differs from @v->want, said with @how. */
static int check(struct value_map *v, const char *how, void (*say)(const char *fmt, ...))
{
	__u32 i;

	for (i = 0; i < v->size; i++)
		if (v->got[i] != v->want[i]) {
			say("FAIL: %s of %s: byte %u (%s): expected 0x%02x, actual 0x%02x", how,
			    bpf_map__name(v->map), i, v->special[i] ? "special field" : "data",
			    v->want[i], v->got[i]);
			return 1;
		}
	say("ok: %s of %s: %u bytes as expected", how, bpf_map__name(v->map), v->size);
	return 0;
}

static int open_value_map(struct bpf_object *obj, const char *name, struct value_map *v,
			  void (*say)(const char *fmt, ...))
{
	struct btf *btf = bpf_object__btf(obj);

	v->map = bpf_object__find_map_by_name(obj, name);
	if (!v->map || !btf || bpf_map__key_size(v->map) != 4) {
		say("FAIL: __value_bytes: no map %s with an int key and BTF", name);
		return 1;
	}
	v->fd = bpf_map__fd(v->map);
	v->size = bpf_map__value_size(v->map);
	v->special = calloc(1, v->size);
	v->want = calloc(1, v->size);
	v->got = calloc(1, v->size);
	if (!v->special || !v->want || !v->got ||
	    mark_special(btf, bpf_map__btf_value_type_id(v->map), v->special) <= 0) {
		say("FAIL: __value_bytes: the value of %s has no special field", name);
		return 1;
	}
	return 0;
}

static void close_value_map(struct value_map *v)
{
	free(v->special);
	free(v->want);
	free(v->got);
}

int value_bytes_seed(struct bpf_object *obj, const char *map, void (*say)(const char *fmt, ...))
{
	struct value_map v = {};
	int key = 0, ret;

	ret = open_value_map(obj, map, &v, say);
	if (!ret) {
		fill(&v, 0x11);
		ret = bpf_map_update_elem(v.fd, &key, v.want, BPF_ANY);
		if (ret)
			say("FAIL: __value_bytes: update of %s: %s", map, strerror(errno));
	}
	close_value_map(&v);
	return !!ret;
}

static int lookup(struct value_map *v, __u64 flags, const char *how, void (*say)(const char *fmt, ...))
{
	int key = 0;

	memset(v->got, 0xee, v->size);
	if (bpf_map_lookup_elem_flags(v->fd, &key, v->got, flags)) {
		say("FAIL: %s of %s: %s", how, bpf_map__name(v->map), strerror(errno));
		return 1;
	}
	return check(v, how, say);
}

static int lookup_batch(struct value_map *v, void (*say)(const char *fmt, ...))
{
	__u32 count = bpf_map__max_entries(v->map), i, batch = 0;
	int *keys = calloc(count, sizeof(*keys)), ret = 1;
	unsigned char *values = calloc(count, v->size);

	if (!keys || !values)
		goto out;
	/* all of it in one batch: ENOENT says there is no more */
	if (bpf_map_lookup_batch(v->fd, NULL, &batch, keys, values, &count, NULL) &&
	    errno != ENOENT) {
		say("FAIL: batch lookup of %s: %s", bpf_map__name(v->map), strerror(errno));
		goto out;
	}
	for (i = 0; i < count && keys[i]; i++)
		;
	if (i == count) {
		say("FAIL: batch lookup of %s: key 0 not among %u", bpf_map__name(v->map), count);
		goto out;
	}
	memcpy(v->got, values + i * v->size, v->size);
	ret = check(v, "batch lookup", say);
out:
	free(keys);
	free(values);
	return ret;
}

/* Write key 0 with a pattern from @seed (@batch: a one-element batch
 * update; @flags: BPF_F_LOCK or 0), then read it back.
 */
static int update(struct value_map *v, unsigned char seed, __u64 flags, bool batch,
		  const char *how, void (*say)(const char *fmt, ...))
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = flags);
	char after[64];
	__u32 count = 1;
	int key = 0;

	fill(v, seed);
	if (batch ? bpf_map_update_batch(v->fd, &key, v->want, &count, &opts) :
		    bpf_map_update_elem(v->fd, &key, v->want, flags)) {
		say("FAIL: %s of %s: %s", how, bpf_map__name(v->map), strerror(errno));
		return 1;
	}
	snprintf(after, sizeof(after), "lookup after %s", how);
	return lookup(v, 0, after, say);
}

/* Delete key 0 and check the value it gives back (@batch: through a
 * lookup-and-delete batch, in which key 0 must be the only element).
 */
static int take(struct value_map *v, bool batch, void (*say)(const char *fmt, ...))
{
	const char *how = batch ? "batch lookup and delete" : "lookup and delete";
	__u32 count = 1, out_batch;
	int key = 0;

	memset(v->got, 0xee, v->size);
	if (batch ? bpf_map_lookup_and_delete_batch(v->fd, NULL, &out_batch, &key, v->got,
						    &count, NULL) && errno != ENOENT :
		    bpf_map_lookup_and_delete_elem(v->fd, &key, v->got)) {
		say("FAIL: %s of %s: %s", how, bpf_map__name(v->map), strerror(errno));
		return 1;
	}
	if (count != 1 || key != 0) {
		say("FAIL: %s of %s: %u elements, key %d", how, bpf_map__name(v->map), count, key);
		return 1;
	}
	return check(v, how, say);
}

int value_bytes_check(struct bpf_object *obj, const char *map, void (*say)(const char *fmt, ...))
{
	struct value_map v = {};
	int ret;

	ret = open_value_map(obj, map, &v, say);
	if (ret)
		goto out;
	/* what the seed wrote, around the roots the program filled */
	fill(&v, 0x11);
	ret = lookup(&v, 0, "lookup", say) ||
	      lookup(&v, BPF_F_LOCK, "BPF_F_LOCK lookup", say) ||
	      lookup_batch(&v, say) ||
	      update(&v, 0x52, 0, false, "update", say) ||
	      /* BPF_F_LOCK updates are not for LRU maps */
	      (bpf_map__type(v.map) != BPF_MAP_TYPE_LRU_HASH &&
	       update(&v, 0x93, BPF_F_LOCK, false, "BPF_F_LOCK update", say)) ||
	      update(&v, 0x27, 0, true, "batch update", say);
	if (ret || bpf_map__type(v.map) == BPF_MAP_TYPE_ARRAY)
		goto out;
	/* hash maps give the value back as they delete it */
	ret = take(&v, false, say) ||
	      update(&v, 0x3c, 0, false, "update", say) ||
	      take(&v, true, say);
out:
	close_value_map(&v);
	return ret;
}
