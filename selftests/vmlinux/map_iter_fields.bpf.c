// SPDX-License-Identifier: GPL-2.0
/*
 * A map element iterator sees each value as plain bytes. It may not reach
 * the value's special fields (a lock, graph roots, kptrs), which no program
 * may read or write directly: attaching one that does fails with EACCES.
 * One that reads only the bytes before them, or no value at all, attaches
 * and runs. Every iterator over map values is such a door: hash and array
 * maps, and socket storage (whose values may hold a lock). (Per-CPU
 * arrays may hold kptrs, which clang 14 cannot declare: no BTF type tags.)
 */
#include "vmlinux.h"
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct iter_node {
	long key;
	struct bpf_rb_node node;
};

/* data first, then the lock and the tree */
struct iter_value {
	long data;
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(iter_node, node);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct iter_value);
} tree_values SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct iter_value);
} tree_hash SEC(".maps");

struct sk_value {
	long data;
	struct bpf_spin_lock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct sk_value);
} lock_sk SEC(".maps");

struct iter_node *map_iter_fields_node_type;
long seen, sum;

SEC("iter/bpf_map_elem")
__success __iter_attach(tree_values, "EACCES")
int iter_reads_root(struct bpf_iter__bpf_map_elem *ctx)
{
	__u64 *v = ctx->value;

	if (v)
		sum += v[2];	/* the root's first word */
	return 0;
}

SEC("iter/bpf_map_elem")
__success __iter_attach(tree_hash, "EACCES")
int iter_writes_root(struct bpf_iter__bpf_map_elem *ctx)
{
	__u64 *v = ctx->value;

	if (v)
		v[3] = 0xdead;	/* the root's second word */
	return 0;
}

SEC("iter/bpf_map_elem")
__success __iter_attach(tree_values, "EACCES")
int iter_reads_lock(struct bpf_iter__bpf_map_elem *ctx)
{
	__u32 *v = ctx->value;

	if (v)
		sum += v[2];	/* the lock */
	return 0;
}

SEC("iter/bpf_map_elem")
__success __iter_attach(tree_values, "0")
int iter_reads_data(struct bpf_iter__bpf_map_elem *ctx)
{
	struct iter_value *v = ctx->value;

	if (v)
		sum += v->data;
	return 0;
}

SEC("iter/bpf_map_elem")
__success __iter_attach(tree_hash, "0")
int iter_counts(struct bpf_iter__bpf_map_elem *ctx)
{
	if (ctx->value)
		seen++;
	return 0;
}

SEC("iter/bpf_sk_storage_map")
__success __iter_attach(lock_sk, "EACCES")
int iter_writes_sk_lock(struct bpf_iter__bpf_sk_storage_map *ctx)
{
	__u32 *v = ctx->value;

	if (v)
		v[2] = 1;	/* the lock: held for ever */
	return 0;
}

SEC("iter/bpf_sk_storage_map")
__success __iter_attach(lock_sk, "0")
int iter_reads_sk_data(struct bpf_iter__bpf_sk_storage_map *ctx)
{
	struct sk_value *v = ctx->value;

	if (v)
		sum += v->data;
	return 0;
}

/* no special field: an iterator may read to the value's last byte */
struct plain_value {
	long a;
	long b;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct plain_value);
} plain_values SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct plain_value);
} plain_sk SEC(".maps");

SEC("iter/bpf_map_elem")
__success __iter_attach(plain_values, "0")
int iter_reads_last_word(struct bpf_iter__bpf_map_elem *ctx)
{
	struct plain_value *v = ctx->value;

	if (v)
		sum += v->b;
	return 0;
}

SEC("iter/bpf_sk_storage_map")
__success __iter_attach(plain_sk, "0")
int iter_reads_sk_last_word(struct bpf_iter__bpf_sk_storage_map *ctx)
{
	struct plain_value *v = ctx->value;

	if (v)
		sum += v->b;
	return 0;
}

char _license[] SEC("license") = "GPL";
