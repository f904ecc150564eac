// SPDX-License-Identifier: GPL-2.0
/*
 * Locks and roots the verifier cannot prove to be in one allocation: two
 * objects of one type, and a map's elements seen by nested
 * bpf_for_each_map_elem() callbacks. Mixing them must be refused; a map
 * element's own lock still serves its own tree in a nested callback.
 * The outer element reaches the inner callback through its context on the
 * stack: from patch 35 on, that call is refused first (a value with graph
 * roots spilled where a callback may reach it); patch 22's own rule is
 * then tested by the lock-only map of for_each_nested_lock_only_*() below.
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

/*
 * The same for values that hold only a lock, behind some data: nested
 * callbacks must tell the two elements' locks apart without any graph
 * root to go by.
 */
struct lock_elem {
	long data;
	struct bpf_spin_lock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct lock_elem);
} lock_elems SEC(".maps");

long lock_only_counted;

struct lock_nest_ctx {
	struct lock_elem *outer;
};

static long lock_only_unlock_inner(void *map, int *key, struct lock_elem *val,
				   struct lock_nest_ctx *c)
{
	bpf_spin_lock(&c->outer->lock);
	bpf_spin_unlock(&val->lock);
	return 0;
}

static long lock_only_nest_unlock(void *map, int *key, struct lock_elem *val, void *ctx)
{
	struct lock_nest_ctx c = { .outer = val };

	bpf_for_each_map_elem(&lock_elems, lock_only_unlock_inner, &c, 0);
	return 0;
}

SEC("tc")
__failure
int for_each_nested_lock_only_unlock_other(void *ctx)
{
	bpf_for_each_map_elem(&lock_elems, lock_only_nest_unlock, NULL, 0);
	return 0;
}

static long lock_only_count_inner(void *map, int *key, struct lock_elem *val,
				  struct lock_nest_ctx *c)
{
	bpf_spin_lock(&c->outer->lock);
	c->outer->data++;
	bpf_spin_unlock(&c->outer->lock);
	bpf_spin_lock(&val->lock);
	val->data++;
	bpf_spin_unlock(&val->lock);
	return 0;
}

static long lock_only_nest_count(void *map, int *key, struct lock_elem *val, void *ctx)
{
	struct lock_nest_ctx c = { .outer = val };

	bpf_for_each_map_elem(&lock_elems, lock_only_count_inner, &c, 0);
	lock_only_counted += val->data;
	return 0;
}

/* Each outer visit adds 2 to its element and 1 to the other's: the
 * element visited first holds 3 after its visit, the second 4.
 */
SEC("tc")
__success __retval(0) __global_eq(lock_only_counted, 7)
int for_each_nested_lock_only_own_locks(void *ctx)
{
	struct lock_elem zero = {};
	int k0 = 0, k1 = 1;

	if (bpf_map_update_elem(&lock_elems, &k0, &zero, 0) ||
	    bpf_map_update_elem(&lock_elems, &k1, &zero, 0))
		return 1;
	bpf_for_each_map_elem(&lock_elems, lock_only_nest_count, NULL, 0);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
