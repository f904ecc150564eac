// SPDX-License-Identifier: GPL-2.0
/*
 * Locks and roots the verifier cannot prove to be in one allocation: two
 * objects of one type, and a map's elements seen by nested
 * bpf_for_each_map_elem() callbacks. Mixing them must be refused; a map
 * element's own lock still serves its own tree in a nested callback.
 */
#include "rbtree_types.h"
#include "bpf_misc.h"

struct elem {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(node_data, node);
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct elem);
} elems SEC(".maps");

long nested_added;

/* The outer callback's element, for the inner callback. */
struct nest_ctx {
	struct elem *outer;
	struct node_data *n;
};

SEC("tc")
__failure
int obj_unlock_other_object(void *ctx)
{
	struct tree_holder *a = bpf_obj_new(struct tree_holder);
	struct tree_holder *b = bpf_obj_new(struct tree_holder);

	if (a && b) {
		bpf_spin_lock(&a->lock);
		bpf_spin_unlock(&b->lock);
	}
	if (a)
		bpf_obj_drop(a);
	if (b)
		bpf_obj_drop(b);
	return 0;
}

static long unlock_inner(void *map, int *key, struct elem *val,
			 struct nest_ctx *c)
{
	bpf_spin_lock(&c->outer->lock);
	bpf_spin_unlock(&val->lock);
	return 0;
}

static long nest_unlock(void *map, int *key, struct elem *val, void *ctx)
{
	struct nest_ctx c = { .outer = val };

	bpf_for_each_map_elem(&elems, unlock_inner, &c, 0);
	return 0;
}

SEC("tc")
__failure
int for_each_nested_unlock_other_elem(void *ctx)
{
	bpf_for_each_map_elem(&elems, nest_unlock, NULL, 0);
	return 0;
}

static long add_to_inner(void *map, int *key, struct elem *val,
			 struct nest_ctx *c)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 1;
	bpf_spin_lock(&c->outer->lock);
	bpf_rbtree_add(&val->root, &n->node, less);
	bpf_spin_unlock(&c->outer->lock);
	return 0;
}

static long nest_add(void *map, int *key, struct elem *val, void *ctx)
{
	struct nest_ctx c = { .outer = val };

	bpf_for_each_map_elem(&elems, add_to_inner, &c, 0);
	return 0;
}

SEC("tc")
__failure
int for_each_nested_add_other_elem(void *ctx)
{
	bpf_for_each_map_elem(&elems, nest_add, NULL, 0);
	return 0;
}

static long add_own(void *map, int *key, struct elem *val, void *ctx)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 1;
	n->key = *key;
	bpf_spin_lock(&val->lock);
	bpf_rbtree_add(&val->root, &n->node, less);
	bpf_spin_unlock(&val->lock);
	nested_added++;
	return 0;
}

static long nest_own(void *map, int *key, struct elem *val, void *ctx)
{
	bpf_for_each_map_elem(&elems, add_own, NULL, 0);
	return 0;
}

/* 2 x 2 nodes, freed with the map. */
SEC("tc")
__success __retval(0) __global_eq(nested_added, 4)
int for_each_nested_add_own_elem(void *ctx)
{
	bpf_for_each_map_elem(&elems, nest_own, NULL, 0);
	return 0;
}

/*
 * Two elements of one map, and a pointer to one or the other: the path
 * where it is the locked element is verified first and is safe; the other
 * path must not be pruned as equivalent to it.
 */
static __always_inline struct elem *elem_at(int key)
{
	return bpf_map_lookup_elem(&elems, &key);
}

SEC("tc")
__failure
int map_values_pruned_unlock_other(struct __sk_buff *skb)
{
	struct elem *a = elem_at(0), *b = elem_at(1), *v;

	if (!a || !b)
		return 0;
	bpf_spin_lock(&a->lock);
	v = a;
	if (skb->len > 100)
		v = b;
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
__failure
int map_values_pruned_add_other(struct __sk_buff *skb)
{
	struct elem *a = elem_at(0), *b = elem_at(1), *v;
	struct node_data *n;

	if (!a || !b)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (!n)
		return 0;
	/* two jumps: enough for the verifier to keep the state at the join */
	if (skb->len == 1)
		skb->mark = 1;
	if (skb->len == 2)
		skb->mark = 2;
	bpf_spin_lock(&a->lock);
	v = a;
	if (skb->len > 100)
		v = b;
	bpf_rbtree_add(&v->root, &n->node, less);
	bpf_spin_unlock(&a->lock);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
