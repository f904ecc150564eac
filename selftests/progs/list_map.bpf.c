// SPDX-License-Identifier: GPL-2.0
/* bpf_list_heads in map values and global data: the maps get created. */
#include "list_types.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct list_value);
} array_lists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct list_value);
} hash_lists SEC(".maps");

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_list_head ghead __contains(node_data, node);
private(A) long gcount;

long counted;

static int bump(void *map)
{
	struct list_value *v;
	int key = 0;

	v = bpf_map_lookup_elem(map, &key);
	if (!v)
		return 1;
	bpf_spin_lock(&v->lock);
	v->count++;
	bpf_spin_unlock(&v->lock);
	counted += v->count;
	return 0;
}

SEC("tc")
__success __retval(0) __global_eq(counted, 2)
int list_head_in_map_values(struct __sk_buff *skb)
{
	struct list_value zero = {};
	int key = 0;

	use_node_data();
	if (bpf_map_update_elem(&hash_lists, &key, &zero, BPF_ANY))
		return 1;
	if (bump(&array_lists) || bump(&hash_lists))
		return 1;
	/* Replacing the element drains its (empty) list. */
	if (bpf_map_update_elem(&hash_lists, &key, &zero, BPF_ANY))
		return 1;
	return 0;
}

SEC("tc")
__success __retval(0) __global_eq(gcount, 3)
int list_head_in_global_data(struct __sk_buff *skb)
{
	use_node_data();
	bpf_spin_lock(&glock);
	gcount = 3;
	bpf_spin_unlock(&glock);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
