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
		 bpf_core_type_id_local(struct rnode2));
}

char _license[] SEC("license") = "GPL";
