// SPDX-License-Identifier: GPL-2.0
/*
 * A tracing program may not use a map whose values hold a bpf_spin_lock
 * or graph roots (from a kprobe or NMI it could interrupt the lock's
 * holder on the same CPU), and reaching those values through an outer map
 * is no way around it: the inner map template is checked like a map the
 * program names. The tc programs show that the same lookups load where
 * locks are allowed.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "rbtree_types.h"
#include "bpf_misc.h"

struct lock_only {
	struct bpf_spin_lock lock;
	long data;
};

struct tree_elems {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct tree_holder);
} tree_inner SEC(".maps");

struct lock_elems {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct lock_only);
} lock_inner SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, int);
	__array(values, struct tree_elems);
} tree_outer SEC(".maps") = {
	.values = { &tree_inner },
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 1);
	__type(key, int);
	__array(values, struct lock_elems);
} lock_outer SEC(".maps") = {
	.values = { &lock_inner },
};

/* The node type the roots hold, for the BTF. */
struct node_data *inner_map_tracing_node_type;

static __always_inline void *inner_value(void *outer)
{
	int key = 0;
	void *inner = bpf_map_lookup_elem(outer, &key);

	return inner ? bpf_map_lookup_elem(inner, &key) : NULL;
}

static __always_inline int add_one(void)
{
	struct tree_holder *v = inner_value(&tree_outer);
	struct node_data *n;

	if (!v)
		return 0;
	n = new_node(1, 1);
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &n->node, less);
	bpf_spin_unlock(&v->lock);
	return 0;
}

static __always_inline int lock_unlock(void)
{
	struct lock_only *v = inner_value(&lock_outer);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->data++;
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("raw_tp/sys_enter")
__failure __msg("tracing progs cannot use bpf_{list_head,rb_root} yet")
int inner_tree_in_raw_tp(void *ctx)
{
	return add_one();
}

SEC("kprobe/bpf_fentry_test1")
__failure __msg("tracing progs cannot use bpf_spin_lock yet")
int inner_lock_in_kprobe(void *ctx)
{
	return lock_unlock();
}

SEC("perf_event")
__failure __msg("tracing progs cannot use bpf_spin_lock yet")
int inner_lock_in_perf_event(void *ctx)
{
	return lock_unlock();
}

SEC("tc")
__success __retval(0)
int inner_tree_in_tc(void *ctx)
{
	return add_one();
}

SEC("tc")
__success __retval(0)
int inner_lock_in_tc(void *ctx)
{
	return lock_unlock();
}

char _license[] SEC("license") = "GPL";
