// SPDX-License-Identifier: GPL-2.0
/*
 * Shared trees and lists under load (manifest mode "stress", see
 * selftests/stress.c): the loader runs stress_op on every CPU at once
 * while another thread replaces, deletes and evicts the map elements that
 * hold roots, then drains every root with stress_drain.
 *
 * A root is chosen by a number (the skb mark of stress_drain, a random
 * one in stress_op): 0 the roots in global data, 1-4 the array map's
 * elements, 5-8 the hash map's, 9-12 the LRU hash map's (keys 0-3; the
 * loader also adds keys 4-7 there to force evictions). Each holder counts
 * its nodes under its lock, so the loader can check, root by root, that
 * the nodes drained are the nodes that stayed.
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

#define NR_ROOTS	13

struct tnode {
	long key;
	struct bpf_rb_node rb;
};

struct lnode {
	long key;
	struct bpf_list_node l;
};

struct holder {
	struct bpf_spin_lock lock;
	struct bpf_rb_root tree __contains(tnode, rb);
	struct bpf_list_head list __contains(lnode, l);
	long nr_tree;	/* nodes in tree, counted under lock */
	long nr_list;	/* nodes in list, counted under lock */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct holder);
} arr SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct holder);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct holder);
} lru SEC(".maps");

private(G) struct bpf_spin_lock glock;
private(G) struct bpf_rb_root gtree __contains(tnode, rb);
private(G) struct bpf_list_head glist __contains(lnode, l);
private(G) long g_nr_tree;
private(G) long g_nr_list;

/* what the programs did, over all roots */
long added, removed, pushed, popped, no_memory, no_element;

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct tnode, rb)->key <
	       container_of(b, struct tnode, rb)->key;
}

/* One operation (@op 0-3: add, remove the first, push, pop) on @tree and
 * @list under @lock, which count their nodes in @nr_tree and @nr_list.
 * Returns 1 if a node went in or out, else 0.
 */
static __always_inline int op_graphs(struct bpf_spin_lock *lock, struct bpf_rb_root *tree,
				     struct bpf_list_head *list, long *nr_tree, long *nr_list,
				     int op, long key)
{
	struct bpf_rb_node *rb;
	struct bpf_list_node *l;
	struct tnode *t;
	struct lnode *n;

	switch (op) {
	case 0:
		t = bpf_obj_new(typeof(*t));
		if (!t) {
			__sync_fetch_and_add(&no_memory, 1);
			return 0;
		}
		t->key = key;
		bpf_spin_lock(lock);
		bpf_rbtree_add(tree, &t->rb, less);
		(*nr_tree)++;
		bpf_spin_unlock(lock);
		__sync_fetch_and_add(&added, 1);
		return 1;
	case 1:
		bpf_spin_lock(lock);
		rb = bpf_rbtree_first(tree);
		if (!rb) {
			bpf_spin_unlock(lock);
			return 0;
		}
		rb = bpf_rbtree_remove(tree, rb);
		(*nr_tree)--;
		bpf_spin_unlock(lock);
		bpf_obj_drop(container_of(rb, struct tnode, rb));
		__sync_fetch_and_add(&removed, 1);
		return 1;
	case 2:
		n = bpf_obj_new(typeof(*n));
		if (!n) {
			__sync_fetch_and_add(&no_memory, 1);
			return 0;
		}
		n->key = key;
		bpf_spin_lock(lock);
		bpf_list_push_back(list, &n->l);
		(*nr_list)++;
		bpf_spin_unlock(lock);
		__sync_fetch_and_add(&pushed, 1);
		return 1;
	default:
		bpf_spin_lock(lock);
		l = bpf_list_pop_front(list);
		if (!l) {
			bpf_spin_unlock(lock);
			return 0;
		}
		(*nr_list)--;
		bpf_spin_unlock(lock);
		bpf_obj_drop(container_of(l, struct lnode, l));
		__sync_fetch_and_add(&popped, 1);
		return 1;
	}
}

/* Operation @op on root number @root; 1 if a node went in or out. */
static __always_inline int op_root(__u32 root, int op, long key)
{
	struct holder *h;
	int k;

	if (root == 0)
		return op_graphs(&glock, &gtree, &glist, &g_nr_tree, &g_nr_list, op, key);
	k = (root - 1) & 3;
	if (root <= 4)
		h = bpf_map_lookup_elem(&arr, &k);
	else if (root <= 8)
		h = bpf_map_lookup_elem(&hash, &k);
	else
		h = bpf_map_lookup_elem(&lru, &k);
	if (!h) {
		__sync_fetch_and_add(&no_element, 1);
		return 0;
	}
	return op_graphs(&h->lock, &h->tree, &h->list, &h->nr_tree, &h->nr_list, op, key);
}

/* A random operation on a random root; additions twice as likely as
 * removals, so that the roots hold nodes when their elements go.
 */
SEC("tc")
__stress(stress_drain, 20000)
int stress_op(struct __sk_buff *skb)
{
	__u32 r = bpf_get_prandom_u32();
	__u32 root = r % NR_ROOTS;

	switch ((r >> 8) % 6) {
	case 0:
	case 1:
		op_root(root, 0, r >> 16);	/* add */
		break;
	case 2:
		op_root(root, 1, 0);		/* remove the first */
		break;
	case 3:
	case 4:
		op_root(root, 2, r >> 16);	/* push */
		break;
	default:
		op_root(root, 3, 0);		/* pop */
		break;
	}
	return 0;
}

/* Take one node out of root number skb->mark (whose element the loader
 * knows is there): returns 1 for a tree node, 2 for a list node, 0 when
 * both are empty.
 */
SEC("tc")
int stress_drain(struct __sk_buff *skb)
{
	__u32 root = skb->mark;

	if (root >= NR_ROOTS)
		return 0;
	if (op_root(root, 1, 0))
		return 1;
	return op_root(root, 3, 0) ? 2 : 0;
}

char _license[] SEC("license") = "GPL";
