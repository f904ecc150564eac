// SPDX-License-Identifier: GPL-2.0
/* Programs may not touch a bpf_list_head directly. */
#include "list_types.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct list_value);
} lists SEC(".maps");

SEC("tc")
__failure
int list_head_direct_read(struct __sk_buff *skb)
{
	struct list_value *v;
	int key = 0;

	use_node_data();
	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
	return *(volatile long *)((void *)&v->head + 8) != 0;
}

SEC("tc")
__failure
int list_head_direct_write(struct __sk_buff *skb)
{
	struct list_value *v;
	int key = 0;

	use_node_data();
	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
	*(volatile long *)&v->head = 0;
	return 0;
}

char _license[] SEC("license") = "GPL";
