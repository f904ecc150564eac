// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_loop() callback is verified for one run: on it the callback stores
 * one tree holder's pointer into two of its caller's slots, and on a later
 * run another holder's into one of them. The verifier believes the two
 * slots one element (one lock, one tree), so the caller would remove a
 * node of one element's tree through the other's root, with the first
 * element's lock held; the map's free path would then free the node a
 * second time. Patch 35 refuses the callback's store. (Found by a
 * red-team review of the series.)
 */
#include "rbtree_types.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct tree_holder);
} trees SEC(".maps");

struct pair {
	struct tree_holder *a;
	struct tree_holder *b;
};

/* One node in element 1's tree; its own frame, so that no value with roots
 * stays spilled in the caller when bpf_loop() is called.
 */
static __attribute__((noinline)) int seed(void)
{
	struct tree_holder *t;
	struct node_data *n;
	int k1 = 1;

	t = bpf_map_lookup_elem(&trees, &k1);
	if (!t)
		return 1;
	n = new_node(1, 1);
	if (!n)
		return 1;
	bpf_spin_lock(&t->lock);
	bpf_rbtree_add(&t->root, &n->node, less);
	bpf_spin_unlock(&t->lock);
	return 0;
}

/* run 0: a = b = e0; run 1: a = e1. Verified once: a == b. */
static long stash(__u32 idx, struct pair *c)
{
	struct tree_holder *v;
	int key = idx;

	v = bpf_map_lookup_elem(&trees, &key);
	if (!v)
		return 1;
	c->a = v;
	if (idx == 0)
		c->b = v;
	return 0;
}

SEC("tc")
__failure
__msg("map value with graph roots stored at fp{{-[0-9]+}} of frame 0 by a callback, which runs more often than it is verified")
long callback_stores_aliased_roots(void *ctx)
{
	struct pair c = {};
	struct tree_holder *a, *b;
	struct bpf_rb_node *m;

	if (seed())
		return 1;
	bpf_loop(2, stash, &c, 0);
	a = c.a;
	b = c.b;
	if (!a || !b)
		return 2;
	bpf_spin_lock(&a->lock);		/* run time: e1's lock */
	m = bpf_rbtree_first(&a->root);		/* N, in e1's tree */
	if (!m) {
		bpf_spin_unlock(&a->lock);
		return 3;
	}
	m = bpf_rbtree_remove(&b->root, m);	/* erased from e0's tree */
	bpf_spin_unlock(&a->lock);
	bpf_obj_drop(container_of(m, struct node_data, node)); /* e1 keeps N */
	return 0;
}

char _license[] SEC("license") = "GPL";
