// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_rbtree_add/remove/first that the verifier accepts; each program runs
 * once and leaves what it saw in global data for the loader to check.
 * Nodes left in a tree are freed with the map.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "rbtree_types.h"
#include "bpf_misc.h"

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(node_data, node);

long less_callback_ran = -1;
long removed_key = -1;
long first_data = -1;
long first_data_after = -1;
long first_key = -1;
long empty_first_null = -1;
long obj_first_key = -1;
long added = -1;
long drained = -1;
long out_of_order = -1;

static bool less_mark_ran(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	less_callback_ran = 1;
	return less(a, b);
}

/* Keys 5 and 1 in one critical section, 3 in another. */
SEC("tc")
__success __retval(0) __global_eq(less_callback_ran, 1) __global_eq(first_key, 1)
long rbtree_add_nodes(void *ctx)
{
	struct node_data *n, *m;
	struct bpf_rb_node *res;

	n = new_node(5, 0);
	if (!n)
		return 1;
	m = new_node(1, 0);
	if (!m) {
		bpf_obj_drop(n);
		return 1;
	}
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less_mark_ran);
	bpf_rbtree_add(&groot, &m->node, less_mark_ran);
	bpf_spin_unlock(&glock);

	n = new_node(3, 0);
	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less_mark_ran);
	res = bpf_rbtree_first(&groot);
	if (res)
		first_key = container_of(res, struct node_data, node)->key;
	bpf_spin_unlock(&glock);
	return 0;
}

/* Remove the key-5 node through the reference that add left behind. */
SEC("tc")
__success __retval(0) __global_eq(removed_key, 5)
long rbtree_add_and_remove(void *ctx)
{
	struct node_data *n, *m;
	struct bpf_rb_node *res;

	n = new_node(5, 0);
	if (!n)
		return 1;
	m = new_node(3, 0);
	if (!m) {
		bpf_obj_drop(n);
		return 1;
	}
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_rbtree_add(&groot, &m->node, less);
	res = bpf_rbtree_remove(&groot, &n->node);
	bpf_spin_unlock(&glock);

	n = container_of(res, struct node_data, node);
	removed_key = n->key;
	bpf_obj_drop(n);
	return 0;
}

/* (3, 4), (5, 6), (1, 2): first is data 2, then after removing it, 4. */
SEC("tc")
__success __retval(0) __global_eq(first_data, 2) __global_eq(removed_key, 1)
__global_eq(first_data_after, 4)
long rbtree_first_and_remove(void *ctx)
{
	struct node_data *a, *b, *c, *o;
	struct bpf_rb_node *res;

	a = new_node(3, 4);
	if (!a)
		return 1;
	b = new_node(5, 6);
	if (!b) {
		bpf_obj_drop(a);
		return 1;
	}
	c = new_node(1, 2);
	if (!c) {
		bpf_obj_drop(a);
		bpf_obj_drop(b);
		return 1;
	}

	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &a->node, less);
	bpf_rbtree_add(&groot, &b->node, less);
	bpf_rbtree_add(&groot, &c->node, less);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 2;
	}
	o = container_of(res, struct node_data, node);
	first_data = o->data;
	res = bpf_rbtree_remove(&groot, &o->node);
	bpf_spin_unlock(&glock);

	o = container_of(res, struct node_data, node);
	removed_key = o->key;
	bpf_obj_drop(o);

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 3;
	}
	first_data_after = container_of(res, struct node_data, node)->data;
	bpf_spin_unlock(&glock);
	return 0;
}

/* Through the reference add left behind, the node's fields are writable. */
SEC("tc")
__success __retval(0) __global_eq(first_data, 42)
long rbtree_non_owning_ref_write(void *ctx)
{
	struct bpf_rb_node *res;
	struct node_data *n;

	n = new_node(2, 0);
	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	n->data = 42;
	res = bpf_rbtree_first(&groot);
	if (res)
		first_data = container_of(res, struct node_data, node)->data;
	bpf_spin_unlock(&glock);
	return 0;
}

/* first on a tree nobody added to */
SEC("tc")
__success __retval(0) __global_eq(empty_first_null, 1)
long rbtree_first_empty(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	bpf_spin_unlock(&glock);
	empty_first_null = !res;
	return 0;
}

/* A tree inside an allocated object, freed with the object. */
SEC("tc")
__success __retval(0) __global_eq(obj_first_key, 4)
long rbtree_root_in_object(void *ctx)
{
	struct tree_holder *h;
	struct bpf_rb_node *res;
	struct node_data *n, *m;

	h = bpf_obj_new(struct tree_holder);
	if (!h)
		return 1;
	n = new_node(7, 0);
	if (!n) {
		bpf_obj_drop(h);
		return 1;
	}
	m = new_node(4, 0);
	if (!m) {
		bpf_obj_drop(n);
		bpf_obj_drop(h);
		return 1;
	}
	bpf_spin_lock(&h->lock);
	bpf_rbtree_add(&h->root, &n->node, less);
	bpf_rbtree_add(&h->root, &m->node, less);
	res = bpf_rbtree_first(&h->root);
	if (res)
		obj_first_key = container_of(res, struct node_data, node)->key;
	bpf_spin_unlock(&h->lock);
	bpf_obj_drop(h);
	return 0;
}

#define NR_NODES 1000

static int add_one(__u32 i, void *ctx)
{
	/* a permutation of 0..NR_NODES-1: 7919 is prime */
	struct node_data *n = new_node((i * 7919) % NR_NODES, i);

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);
	added++;
	return 0;
}

static int remove_first(__u32 i, void *ctx)
{
	long *prev = ctx;
	struct bpf_rb_node *res;
	struct node_data *n;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 1;
	}
	res = bpf_rbtree_remove(&groot, res);
	bpf_spin_unlock(&glock);

	n = container_of(res, struct node_data, node);
	if (n->key < *prev)
		out_of_order++;
	*prev = n->key;
	bpf_obj_drop(n);
	drained++;
	return 0;
}

/* A thousand nodes in, drained with first/remove: the keys come out sorted. */
SEC("tc")
__success __retval(0) __global_eq(added, 1000) __global_eq(drained, 1000)
__global_eq(out_of_order, 0)
long rbtree_thousand_sorted(void *ctx)
{
	long prev = -1;

	added = 0;
	drained = 0;
	out_of_order = 0;
	bpf_loop(NR_NODES, add_one, NULL, 0);
	bpf_loop(NR_NODES + 1, remove_first, &prev, 0);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
