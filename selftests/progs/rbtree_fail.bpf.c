// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_rbtree_add/remove/first that the verifier refuses; each program's
 * expected message is in expected-logs/<program>.log.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "rbtree_types.h"
#include "bpf_misc.h"

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(node_data, node);
private(A) struct bpf_rb_root groot2 __contains(node_data, node);

/* A node with a pointer member, for less() callbacks that follow it. */
struct linked_node {
	long key;
	struct linked_node *next;
	struct bpf_rb_node node;
};

private(L) struct bpf_spin_lock llock;
private(L) struct bpf_rb_root lroot __contains(linked_node, node);

typedef bool (*less_fn)(struct bpf_rb_node *a, const struct bpf_rb_node *b);

long sink;

SEC("tc")
__failure
long rbtree_api_nolock_add(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	bpf_rbtree_add(&groot, &n->node, less);
	return 0;
}

SEC("tc")
__failure
long rbtree_api_nolock_remove(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);
	bpf_rbtree_remove(&groot, &n->node);
	return 0;
}

SEC("tc")
__failure
long rbtree_api_nolock_first(void *ctx)
{
	bpf_rbtree_first(&groot);
	return 0;
}

static bool less__bad_fn_call_add(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *node_a = container_of(a, struct node_data, node);

	bpf_rbtree_add(&groot, &node_a->node, less);
	return less(a, b);
}

static bool less__bad_fn_call_remove(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *node_a = container_of(a, struct node_data, node);

	bpf_rbtree_remove(&groot, &node_a->node);
	return less(a, b);
}

static bool less__bad_fn_call_first_unlock_after(struct bpf_rb_node *a,
						 const struct bpf_rb_node *b)
{
	bpf_rbtree_first(&groot);
	bpf_spin_unlock(&glock);
	return less(a, b);
}

/* add one node with callback @cb; used by the bad callback programs */
static __always_inline long add_with(less_fn cb)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, cb);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
long rbtree_api_add_bad_cb_bad_fn_call_add(void *ctx)
{
	return add_with(less__bad_fn_call_add);
}

SEC("tc")
__failure
long rbtree_api_add_bad_cb_bad_fn_call_remove(void *ctx)
{
	return add_with(less__bad_fn_call_remove);
}

SEC("tc")
__failure
long rbtree_api_add_bad_cb_bad_fn_call_first_unlock_after(void *ctx)
{
	return add_with(less__bad_fn_call_first_unlock_after);
}

SEC("tc")
__failure
long rbtree_api_remove_unadded_node(void *ctx)
{
	struct node_data *n, *m;
	struct bpf_rb_node *res, *res2;

	n = new_node(1, 0);
	if (!n)
		return 1;
	m = new_node(2, 0);
	if (!m) {
		bpf_obj_drop(n);
		return 1;
	}
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	res = bpf_rbtree_remove(&groot, &n->node);	/* accepted */
	res2 = bpf_rbtree_remove(&groot, &m->node);	/* m was never added */
	bpf_spin_unlock(&glock);
	bpf_obj_drop(container_of(res, struct node_data, node));
	bpf_obj_drop(container_of(res2, struct node_data, node));
	return 0;
}

SEC("tc")
__failure
long rbtree_api_add_to_multiple_trees(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_rbtree_add(&groot2, &n->node, less);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
long rbtree_api_add_release_unlock_escape(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	bpf_spin_unlock(&glock);

	bpf_spin_lock(&glock);
	bpf_rbtree_remove(&groot, &n->node);	/* n died at the unlock */
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
long rbtree_api_first_release_unlock_escape(void *ctx)
{
	struct bpf_rb_node *res;
	struct node_data *n;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 1;
	}
	n = container_of(res, struct node_data, node);
	bpf_spin_unlock(&glock);

	bpf_spin_lock(&glock);
	bpf_rbtree_remove(&groot, &n->node);	/* n died at the unlock */
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
long rbtree_api_remove_no_drop(void *ctx)
{
	struct bpf_rb_node *res;
	struct node_data *n;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 1;
	}
	res = bpf_rbtree_remove(&groot, res);
	n = container_of(res, struct node_data, node);
	bpf_spin_unlock(&glock);
	sink = n->key;
	return 0;	/* bpf_obj_drop(n) is missing */
}

SEC("tc")
__failure
long rbtree_api_release_aliasing(void *ctx)
{
	struct bpf_rb_node *res, *res2;
	struct node_data *n, *m;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res)
		goto unlock;
	n = container_of(res, struct node_data, node);
	res = bpf_rbtree_first(&groot);
	if (!res)
		goto unlock;
	m = container_of(res, struct node_data, node);
	/* n and m are the same node; the first remove ends both */
	res = bpf_rbtree_remove(&groot, &m->node);
	res2 = bpf_rbtree_remove(&groot, &n->node);
	bpf_spin_unlock(&glock);
	bpf_obj_drop(container_of(res, struct node_data, node));
	bpf_obj_drop(container_of(res2, struct node_data, node));
	return 0;
unlock:
	bpf_spin_unlock(&glock);
	return 1;
}

SEC("tc")
__failure
long rbtree_node_direct_read(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	sink = *(volatile long *)&n->node;
	bpf_obj_drop(n);
	return 0;
}

SEC("tc")
__failure
long rbtree_node_direct_write(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	*(volatile long *)&n->node = 0;
	bpf_obj_drop(n);
	return 0;
}

SEC("tc")
__failure
long rbtree_non_owning_node_write(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	*(volatile long *)&n->node = 0;
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
long rbtree_drop_under_lock(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (res) {
		res = bpf_rbtree_remove(&groot, res);
		bpf_obj_drop(container_of(res, struct node_data, node));
	}
	bpf_spin_unlock(&glock);
	return 0;
}

static long less_returns_two(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return 2;
}

SEC("tc")
__failure
long rbtree_less_returns_two(void *ctx)
{
	return add_with((less_fn)(void *)less_returns_two);
}

static bool less_three_args(struct bpf_rb_node *a, const struct bpf_rb_node *b, long c)
{
	return c > 0;
}

SEC("tc")
__failure
long rbtree_less_wrong_prototype(void *ctx)
{
	return add_with((less_fn)(void *)less_three_args);
}

/* The kernel calls less() at its first instruction: a pointer past it
 * would run the middle of the JITed program.
 */
SEC("tc")
__failure
long rbtree_less_ptr_plus_const(void *ctx)
{
	less_fn cb = less;

	asm volatile ("%[cb] += 17" : [cb] "+r"(cb));
	return add_with(cb);
}

SEC("tc")
__failure
long rbtree_less_ptr_plus_var(void *ctx)
{
	long off = bpf_get_prandom_u32() & 0xf;

	return add_with((less_fn)((long)less + off));
}

SEC("tc")
__failure
long rbtree_first_no_null_check(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	sink = container_of(res, struct node_data, node)->key;
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
long rbtree_exit_with_lock(void *ctx)
{
	struct node_data *n = new_node(1, 0);

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	return 0;
}

SEC("tc")
__failure
long rbtree_ctx_as_node(void *ctx)
{
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, ctx, less);
	bpf_spin_unlock(&glock);
	return 0;
}

/* A global function is verified once, on its own arguments; as less()
 * it would run with the lock held and its return value unchecked, and
 * it could write the rb_node it is given.
 */
__noinline bool less_global(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	if (a)
		*(volatile long *)a = 0;
	return false;
}

SEC("tc")
__failure
long rbtree_less_global(void *ctx)
{
	return add_with(less_global);
}

/* Beyond upstream: a node may only be removed from the tree it is in. */
SEC("tc")
__failure
long rbtree_remove_other_root(void *ctx)
{
	struct bpf_rb_node *res;
	struct node_data *n;

	n = new_node(1, 0);
	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less);
	res = bpf_rbtree_remove(&groot2, &n->node);
	bpf_spin_unlock(&glock);
	bpf_obj_drop(container_of(res, struct node_data, node));
	return 0;
}


static bool less_follows_next(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct linked_node *la = container_of(a, struct linked_node, node);
	struct linked_node *lb = container_of(b, struct linked_node, node);

	return la->next->key < lb->key;
}

SEC("tc")
__failure __msg("invalid mem access 'scalar'")
long rbtree_less_follows_pointer(void *ctx)
{
	struct linked_node *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 0;
	n->key = 1;
	n->next = 0;
	bpf_spin_lock(&llock);
	bpf_rbtree_add(&lroot, &n->node, less_follows_next);
	bpf_spin_unlock(&llock);
	return 0;
}

char _license[] SEC("license") __mutants(1, 3) = "GPL";
