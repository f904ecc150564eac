// SPDX-License-Identifier: GPL-2.0
/*
 * The object's BTF is refused, one way per object (built with
 * -DVARIANT=name and -DVARIANT_name): libbpf then goes on without BTF, and
 * the verifier refuses the program for want of it.
 *   no_lock:         a bpf_list_head without a bpf_spin_lock beside it
 *   missing_type:    'contains' names a struct that does not exist
 *   wrong_node_kind: 'contains' names a member that is not a bpf_list_node
 *   no_such_field:   'contains' names a member the struct does not have
 *   cycle:           a struct on a list contains its own type (-ELOOP);
 *                    bpf_obj_new() then finds no program BTF
 *   too_deep:        a struct on a list owns structs that own lists
 *                    themselves (-ELOOP): one level of nesting only
 */
#include "list_types.h"
#include "bpf_misc.h"

#if defined(VARIANT_no_lock)
#define HEAD_CONTAINS	__contains(node_data, node)
#elif defined(VARIANT_missing_type)
#define HEAD_CONTAINS	__contains(no_such_type, node)
#elif defined(VARIANT_wrong_node_kind)
#define HEAD_CONTAINS	__contains(node_data, data)
#elif defined(VARIANT_no_such_field)
#define HEAD_CONTAINS	__contains(node_data, no_such_node)
#elif defined(VARIANT_cycle)
#define HEAD_CONTAINS	__contains(node_loop, node)
#elif defined(VARIANT_too_deep)
#define HEAD_CONTAINS	__contains(deep_b, node)
#else
#error "unknown VARIANT"
#endif

struct node_loop {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_loop, node);
	struct bpf_list_node node;
};

struct deep_c {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, node);
	struct bpf_list_node node;
};

struct deep_b {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(deep_c, node);
	struct bpf_list_node node;
};

struct map_value {
#ifdef VARIANT_no_lock
	struct bpf_timer timer;	/* needs BTF too, so the retry fails */
#else
	struct bpf_spin_lock lock;
#endif
	struct bpf_list_head head HEAD_CONTAINS;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct map_value);
} lists SEC(".maps");

#define __prog_name(variant) list_btf_fail__##variant
#define prog_name(variant) __prog_name(variant)

SEC("tc")
__failure
int prog_name(VARIANT)(struct __sk_buff *skb)
{
	struct map_value *v;
	int key = 0;

#if defined(VARIANT_cycle)
	struct node_loop *n = bpf_obj_new(struct node_loop);

	if (n)
		bpf_obj_drop(n);
#elif defined(VARIANT_too_deep)
	struct deep_b *n = bpf_obj_new(struct deep_b);
	struct deep_c *m = bpf_obj_new(struct deep_c);

	if (n)
		bpf_obj_drop(n);
	if (m)
		bpf_obj_drop(m);
#endif
	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
#ifdef VARIANT_no_lock
	bpf_timer_init(&v->timer, &lists, 0);
#else
	bpf_spin_lock(&v->lock);
	bpf_spin_unlock(&v->lock);
#endif
	use_node_data();
	return 0;
}

char _license[] SEC("license") = "GPL";
