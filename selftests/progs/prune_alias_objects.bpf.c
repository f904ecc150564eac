// SPDX-License-Identifier: GPL-2.0
/*
 * State pruning and the identity of allocated objects and non-owning
 * references: a pointer names object a on one path and object b (or a
 * node of another tree) on the other, the paths join, and the program then
 * uses it as if it were a. The path where it is a is safe; the other must
 * be explored, and refused, whichever the verifier sees first. Each test
 * comes in two programs that swap the branch's arms: whichever way clang
 * lays them out, one explores the safe path first and the other the
 * unsafe one (the verifier explores a branch's fall-through first). With
 * BPF_F_TEST_STATE_FREQ the verifier keeps a state at the join.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "rbtree_types.h"
#include "bpf_misc.h"


private(P) struct bpf_spin_lock glock;
private(P) struct bpf_rb_root groot0 __contains(node_data, node);
private(P) struct bpf_rb_root groot1 __contains(node_data, node);

/* Add to the tree of v under a's lock: v is a on one path, b on the other.
 * Each pointer is NULL-checked once: the verifier does not know an object
 * it checked before to be non-NULL.
 */
static __always_inline int obj_add(struct __sk_buff *skb, bool swap)
{
	struct tree_holder *a, *b, *v;
	struct node_data *n;

	a = bpf_obj_new(struct tree_holder);
	if (!a)
		return 0;
	b = bpf_obj_new(struct tree_holder);
	if (!b) {
		bpf_obj_drop(a);
		return 0;
	}
	n = new_node(1, 1);
	if (!n) {
		bpf_obj_drop(a);
		bpf_obj_drop(b);
		return 0;
	}
	if (swap) {
		v = b;
		if (skb->len > 100)
			v = a;
	} else {
		v = a;
		if (skb->len > 100)
			v = b;
	}
	bpf_spin_lock(&a->lock);
	bpf_rbtree_add(&v->root, &n->node, less);
	bpf_spin_unlock(&a->lock);
	bpf_obj_drop(a);
	bpf_obj_drop(b);
	return 0;
}

SEC("tc")
__failure __msg("held lock and object are not in the same allocation") __flag(BPF_F_TEST_STATE_FREQ)
int prune_obj_arms_1(struct __sk_buff *skb)
{
	return obj_add(skb, true);
}

SEC("tc")
__failure __msg("held lock and object are not in the same allocation") __flag(BPF_F_TEST_STATE_FREQ)
int prune_obj_arms_2(struct __sk_buff *skb)
{
	return obj_add(skb, false);
}

/*
 * Two nodes added, one to each tree: a non-owning reference names the
 * node of groot0 on one path and that of groot1 on the other; removing it
 * through groot0 is right on one path only.
 */
static __always_inline int non_own_remove(struct __sk_buff *skb, bool swap)
{
	struct node_data *m, *n, *r;
	struct bpf_rb_node *res;

	m = new_node(1, 1);
	if (!m)
		return 0;
	n = new_node(2, 2);
	if (!n) {
		bpf_obj_drop(m);
		return 0;
	}
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot0, &m->node, less);
	bpf_rbtree_add(&groot1, &n->node, less);
	if (swap) {
		r = n;
		if (skb->len > 100)
			r = m;
	} else {
		r = m;
		if (skb->len > 100)
			r = n;
	}
	res = bpf_rbtree_remove(&groot0, &r->node);
	bpf_spin_unlock(&glock);
	bpf_obj_drop(container_of(res, struct node_data, node));
	return 0;
}

SEC("tc")
__failure __msg("rbtree_remove node is in bpf_rb_root groot1") __flag(BPF_F_TEST_STATE_FREQ)
int prune_non_own_arms_1(struct __sk_buff *skb)
{
	return non_own_remove(skb, true);
}

SEC("tc")
__failure __msg("rbtree_remove node is in bpf_rb_root groot1") __flag(BPF_F_TEST_STATE_FREQ)
int prune_non_own_arms_2(struct __sk_buff *skb)
{
	return non_own_remove(skb, false);
}

char _license[] SEC("license") = "GPL";
