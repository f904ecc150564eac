// SPDX-License-Identifier: GPL-2.0
/*
 * Map creation fails: 'contains' names a member the struct does not have.
 * libbpf then retries without BTF, and the verifier refuses the program
 * for want of it.
 */
#include "list_types.h"

struct map_value {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, no_such_node);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct map_value);
} lists SEC(".maps");

SEC("tc")
int list_btf_fail__no_such_field(struct __sk_buff *skb)
{
	struct map_value *v;
	int key = 0;

	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&v->lock);
	use_node_data();
	return 0;
}

char _license[] SEC("license") = "GPL";
