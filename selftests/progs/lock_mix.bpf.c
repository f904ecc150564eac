// SPDX-License-Identifier: GPL-2.0
/*
 * Every pairing of a lock holder with a root holder, for every graph kfunc.
 * A holder is an allocated object, global data, an array map value or an
 * inner map's value, each with a lock, a list head and a tree. With the lock
 * of one holder held, a kfunc on a root of another holder, even one of the
 * same kind and type, must be refused (mix_LOCK_ROOT_OP); on the roots of
 * the holder whose lock is held, every kfunc runs (same_KIND).
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct lnode {
	long key;
	struct bpf_list_node node;
};

struct rnode {
	long key;
	struct bpf_rb_node node;
};

struct holder {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(lnode, node);
	struct bpf_rb_root root __contains(rnode, node);
};

#define __unused __attribute__((unused))

/* Two holders of each kind: instance 0 and instance 1. */
private(G0) struct bpf_spin_lock g0_lock;
private(G0) struct bpf_list_head g0_head __contains(lnode, node);
private(G0) struct bpf_rb_root g0_root __contains(rnode, node);
private(G1) struct bpf_spin_lock g1_lock;
private(G1) struct bpf_list_head g1_head __contains(lnode, node);
private(G1) struct bpf_rb_root g1_root __contains(rnode, node);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct holder);
} values SEC(".maps");

struct inner_array {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct holder);
} inner0 SEC(".maps"), inner1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, int);
	__array(values, struct inner_array);
} outer SEC(".maps") = {
	.values = { &inner0, &inner1 },
};

/* What the same_KIND programs got: 1 + 2 + 3 + 3 when all went well. */
long got_obj = -1, got_glob = -1, got_map = -1, got_inner = -1, got_inner_kept = -1;

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct rnode, node)->key <
	       container_of(b, struct rnode, node)->key;
}

static __always_inline struct holder *map_value(int key)
{
	return bpf_map_lookup_elem(&values, &key);
}

static __always_inline struct holder *inner_value(int key)
{
	int zero = 0;
	void *inner = bpf_map_lookup_elem(&outer, &key);

	return inner ? bpf_map_lookup_elem(inner, &zero) : NULL;
}

/*
 * A holder V: its lock, head and root, and the object to drop (objects
 * only). FETCH_KIND(V, I) points V at instance I of KIND and is false
 * when there is none.
 */
#define HOLDER(V)							\
	__unused struct bpf_spin_lock *V##_lock;			\
	__unused struct bpf_list_head *V##_head;			\
	__unused struct bpf_rb_root *V##_root;				\
	__unused struct holder *V##_obj = NULL, *V##_val

#define POINT(V, p) (V##_lock = &(p)->lock, V##_head = &(p)->head, V##_root = &(p)->root, 1)
#define FETCH_obj(V, I) ((V##_obj = bpf_obj_new(struct holder)) && POINT(V, V##_obj))
#define FETCH_map(V, I) ((V##_val = map_value(I)) && POINT(V, V##_val))
#define FETCH_inner(V, I) ((V##_val = inner_value(I)) && POINT(V, V##_val))
#define FETCH_glob(V, I) (V##_lock = &g##I##_lock, V##_head = &g##I##_head, \
			  V##_root = &g##I##_root, 1)
#define PUT(V)								\
	do {								\
		if (V##_obj)						\
			bpf_obj_drop(V##_obj);				\
	} while (0)

/*
 * One kfunc on R's roots with L's lock held; what it took out of a list or
 * a tree goes back to the allocator and its key is added to @got.
 */
#define OP_push_front(L, R, got)					\
	do {								\
		struct lnode *n = bpf_obj_new(struct lnode);		\
		if (n) {						\
			n->key = 1;					\
			bpf_spin_lock(L##_lock);			\
			bpf_list_push_front(R##_head, &n->node);	\
			bpf_spin_unlock(L##_lock);			\
		}							\
	} while (0)

#define OP_push_back(L, R, got)						\
	do {								\
		struct lnode *n = bpf_obj_new(struct lnode);		\
		if (n) {						\
			n->key = 2;					\
			bpf_spin_lock(L##_lock);			\
			bpf_list_push_back(R##_head, &n->node);		\
			bpf_spin_unlock(L##_lock);			\
		}							\
	} while (0)

#define OP_POP(L, R, got, pop)						\
	do {								\
		struct bpf_list_node *ln;				\
		bpf_spin_lock(L##_lock);				\
		ln = pop(R##_head);					\
		bpf_spin_unlock(L##_lock);				\
		if (ln) {						\
			got += container_of(ln, struct lnode, node)->key; \
			bpf_obj_drop(container_of(ln, struct lnode, node)); \
		}							\
	} while (0)
#define OP_pop_front(L, R, got) OP_POP(L, R, got, bpf_list_pop_front)
#define OP_pop_back(L, R, got) OP_POP(L, R, got, bpf_list_pop_back)

#define OP_rbtree_add(L, R, got)					\
	do {								\
		struct rnode *n = bpf_obj_new(struct rnode);		\
		if (n) {						\
			n->key = 3;					\
			bpf_spin_lock(L##_lock);			\
			bpf_rbtree_add(R##_root, &n->node, less);	\
			bpf_spin_unlock(L##_lock);			\
		}							\
	} while (0)

#define OP_rbtree_first(L, R, got)					\
	do {								\
		struct bpf_rb_node *f;					\
		bpf_spin_lock(L##_lock);				\
		f = bpf_rbtree_first(R##_root);				\
		if (f)							\
			got += container_of(f, struct rnode, node)->key; \
		bpf_spin_unlock(L##_lock);				\
	} while (0)

/* The node to remove is the first of L's own tree. */
#define OP_rbtree_remove(L, R, got)					\
	do {								\
		struct bpf_rb_node *f;					\
		bpf_spin_lock(L##_lock);				\
		f = bpf_rbtree_first(L##_root);				\
		if (!f) {						\
			bpf_spin_unlock(L##_lock);			\
			break;						\
		}							\
		f = bpf_rbtree_remove(R##_root, f);			\
		bpf_spin_unlock(L##_lock);				\
		got += container_of(f, struct rnode, node)->key;	\
		bpf_obj_drop(container_of(f, struct rnode, node));	\
	} while (0)

/* OP on instance 1 of ROOT with the lock of instance 0 of LOCK. */
#define MIX(LOCK, ROOT, OP)						\
SEC("tc")								\
__failure								\
int mix_##LOCK##_##ROOT##_##OP(void *ctx)				\
{									\
	long got = 0;							\
	HOLDER(l);							\
	HOLDER(r);							\
									\
	if (FETCH_##LOCK(l, 0) && FETCH_##ROOT(r, 1))			\
		OP_##OP(l, r, got);					\
	PUT(r);								\
	PUT(l);								\
	return got;							\
}

#define MIX_OPS(LOCK, ROOT)						\
	MIX(LOCK, ROOT, push_front)					\
	MIX(LOCK, ROOT, push_back)					\
	MIX(LOCK, ROOT, pop_front)					\
	MIX(LOCK, ROOT, pop_back)					\
	MIX(LOCK, ROOT, rbtree_add)					\
	MIX(LOCK, ROOT, rbtree_first)					\
	MIX(LOCK, ROOT, rbtree_remove)

#define MIX_ROOTS(LOCK)							\
	MIX_OPS(LOCK, obj)						\
	MIX_OPS(LOCK, glob)						\
	MIX_OPS(LOCK, map)						\
	MIX_OPS(LOCK, inner)

MIX_ROOTS(obj)
MIX_ROOTS(glob)
MIX_ROOTS(map)
MIX_ROOTS(inner)

/* Every kfunc on one holder of KIND, under its own lock. */
#define SAME(KIND)							\
SEC("tc")								\
__success __retval(0) __global_eq(got_##KIND, 9)			\
int same_##KIND(void *ctx)						\
{									\
	long got = 0;							\
	HOLDER(h);							\
									\
	if (!FETCH_##KIND(h, 0))					\
		return 1;						\
	OP_push_front(h, h, got);					\
	OP_push_back(h, h, got);					\
	OP_pop_front(h, h, got);					\
	OP_pop_back(h, h, got);						\
	OP_rbtree_add(h, h, got);					\
	OP_rbtree_first(h, h, got);					\
	OP_rbtree_remove(h, h, got);					\
	PUT(h);								\
	got_##KIND = got;						\
	return 0;							\
}

SAME(obj)
SAME(glob)
SAME(map)
SAME(inner)

/* A node in the list and one in the tree of an inner map's value, left
 * there: they are freed when the outer map lets go of the inner map.
 */
SEC("tc")
__success __retval(0) __global_eq(got_inner_kept, 3)
int inner_map_keeps_nodes(void *ctx)
{
	long got = 0;
	HOLDER(h);

	if (!FETCH_inner(h, 1))
		return 1;
	OP_push_back(h, h, got);
	OP_rbtree_add(h, h, got);
	OP_rbtree_first(h, h, got);
	got_inner_kept = got;
	return 0;
}

char _license[] SEC("license") __mutants(1, 1) = "GPL";
