// SPDX-License-Identifier: GPL-2.0
/*
 * An inner map goes into a map-in-map only if its value has the special
 * fields of the outer map's template: the same lock and the same graph
 * roots (kind, offset, contained type and node). One mismatch per object
 * (built with -DVARIANT=name and -DVARIANT_name); libbpf's initialisation
 * of the outer map's slot 0 must fail with -EINVAL.
 *   plain_template: a lock and roots in the inner value, plain template
 *   plain_inner:    a lock and roots in the template, plain inner value
 *   other_node:     the tree contains another node type of the same layout
 * And the same kinds and sizes in another place (layouts compared by
 * offset, not by presence):
 *   lock_moved:     lock and root swapped
 *   root_moved:     the lock in place, the root after the data
 *   lock_only_moved: values with only a lock, before or after the data
 *   other_node_field: the same contained type, through its other node
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct rnode {
	long key;
	struct bpf_rb_node node;
};

struct rnode2 {
	long key;
	struct bpf_rb_node node;
};

struct holder {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(rnode, node);
};

struct holder2 {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(rnode2, node);
};

struct rnode_two {
	long key;
	struct bpf_rb_node a;
	struct bpf_rb_node b;
};

struct holder_swapped {
	struct bpf_rb_root root __contains(rnode, node);
	struct bpf_spin_lock lock;
};

struct holder_data_last {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(rnode, node);
	long data;
};

struct holder_data_middle {
	struct bpf_spin_lock lock;
	long data;
	struct bpf_rb_root root __contains(rnode, node);
};

struct lock_first {
	struct bpf_spin_lock lock;
	long data;
};

struct lock_last {
	long data;
	struct bpf_spin_lock lock;
};

struct holder_a {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(rnode_two, a);
};

struct holder_b {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(rnode_two, b);
};

/* As large as a holder, without special fields. */
struct plain {
	long a, b, c;
};

#if defined(VARIANT_plain_template)
#define TEMPLATE_VALUE	struct plain
#define INNER_VALUE	struct holder
#elif defined(VARIANT_plain_inner)
#define TEMPLATE_VALUE	struct holder
#define INNER_VALUE	struct plain
#elif defined(VARIANT_other_node)
#define TEMPLATE_VALUE	struct holder
#define INNER_VALUE	struct holder2
#elif defined(VARIANT_lock_moved)
#define TEMPLATE_VALUE	struct holder
#define INNER_VALUE	struct holder_swapped
#elif defined(VARIANT_root_moved)
#define TEMPLATE_VALUE	struct holder_data_last
#define INNER_VALUE	struct holder_data_middle
#elif defined(VARIANT_lock_only_moved)
#define TEMPLATE_VALUE	struct lock_first
#define INNER_VALUE	struct lock_last
#elif defined(VARIANT_other_node_field)
#define TEMPLATE_VALUE	struct holder_a
#define INNER_VALUE	struct holder_b
#else
#error "unknown VARIANT"
#endif

struct inner_map {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, INNER_VALUE);
} inner SEC(".maps");

struct template {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, TEMPLATE_VALUE);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, int);
	__array(values, struct template);
} outer SEC(".maps") = {
	.values = { (void *)&inner },
};

#define __prog_name(variant) inner_map_mismatch__##variant
#define prog_name(variant) __prog_name(variant)

/* Types reach the BTF complete only when code uses them. */
SEC("tc")
__failure
int prog_name(VARIANT)(void *ctx)
{
	return !(bpf_core_type_id_local(struct plain) + bpf_core_type_id_local(struct holder) +
		 bpf_core_type_id_local(struct holder2) + bpf_core_type_id_local(struct rnode) +
		 bpf_core_type_id_local(struct rnode2) + bpf_core_type_id_local(struct rnode_two) +
		 bpf_core_type_id_local(struct holder_swapped) +
		 bpf_core_type_id_local(struct holder_data_last) +
		 bpf_core_type_id_local(struct holder_data_middle) +
		 bpf_core_type_id_local(struct lock_first) + bpf_core_type_id_local(struct lock_last) +
		 bpf_core_type_id_local(struct holder_a) + bpf_core_type_id_local(struct holder_b));
}

char _license[] SEC("license") = "GPL";
