// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the bpf_rbtree kfunc bodies, called with a C comparator,
 * and for bpf_rb_root_free(), the path that empties a bpf_rb_root of a map
 * value when its element is deleted or overwritten, the map is freed, or
 * the object that owns the root is dropped. Freed nodes come from
 * bpf_obj_new_impl(), like a program's, and each free path must free all of
 * them (the count of live objects says so in every run); under --debug
 * KASAN catches a node freed twice or touched after its free, and kmemleak
 * a node left behind.
 */
#include <kunit/test.h>
#include <linux/list.h>
#include <linux/rbtree.h>

#include "graph_kunit.h"

/* A tree node that owns a list, as a program BTF struct would. */
struct knode {
	long key;
	struct rb_node rb;		/* where a struct bpf_rb_node sits */
	struct bpf_spin_lock lock;
	struct list_head items;		/* where a struct bpf_list_head sits */
};

struct kitem {
	long key;
	struct list_head node;		/* where a struct bpf_list_node sits */
};

struct kvalue {
	struct bpf_spin_lock lock;
	struct rb_root_cached root;	/* where a struct bpf_rb_root sits */
};

static struct bpf_map_graph_roots knode_roots = {
	.cnt = 1,
	.root[0] = {
		.offset = offsetof(struct knode, items),
		.kind = BPF_GRAPH_LIST,
		.node_offset = offsetof(struct kitem, node),
	},
};

static const struct btf_struct_meta knode_meta = {
	.spin_lock_off = offsetof(struct knode, lock),
	.roots = &knode_roots,
};

static const struct bpf_map_graph_root tree_root = {
	.offset = offsetof(struct kvalue, root),
	.kind = BPF_GRAPH_RBTREE,
	.node_offset = offsetof(struct knode, rb),
};

static const struct bpf_map_graph_root owning_tree_root = {
	.offset = offsetof(struct kvalue, root),
	.kind = BPF_GRAPH_RBTREE,
	.node_offset = offsetof(struct knode, rb),
	.value_meta = &knode_meta,
};

static bool knode_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct knode, rb)->key < rb_entry(b, struct knode, rb)->key;
}

static void *obj_new(struct kunit *test, size_t size)
{
	void *p = graph_obj_new(size);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	memset(p, 0, size);
	return p;
}

/* Add @n nodes with keys in a scrambled order, each owning @items items. */
static void fill(struct kunit *test, struct kvalue *v, int n, int items)
{
	struct knode *kn;
	struct kitem *it;
	int i, j;

	for (i = 0; i < n; i++) {
		kn = obj_new(test, sizeof(*kn));
		kn->key = (i * 7919L) % n;
		INIT_LIST_HEAD(&kn->items);
		for (j = 0; j < items; j++) {
			it = obj_new(test, sizeof(*it));
			it->key = j;
			list_add_tail(&it->node, &kn->items);
		}
		rb_add_cached(&kn->rb, &v->root, knode_less);
	}
}

static int count(struct rb_root_cached *root)
{
	struct rb_node *pos;
	int n = 0;

	for (pos = rb_first_cached(root); pos; pos = rb_next(pos))
		n++;
	return n;
}

static void free_and_check(struct kunit *test, const struct bpf_map_graph_root *root,
			   int n, int items)
{
	struct kvalue v = { .root = RB_ROOT_CACHED };
	long live = graph_objs_live();

	fill(test, &v, n, items);
	KUNIT_ASSERT_EQ(test, count(&v.root), n);
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, n * (1 + items));
	graph_root_free(root, &v, &v.lock);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&v.root.rb_root));
	KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&v.root), NULL);
	KUNIT_EXPECT_EQ(test, v.lock.val, 0);
	KUNIT_EXPECT_EQ_MSG(test, graph_objs_live() - live, 0,
			    "objects left of %d nodes owning %d each", n, items);
}

static void rb_root_free_empty(struct kunit *test)
{
	free_and_check(test, &tree_root, 0, 0);
}

static void rb_root_free_one(struct kunit *test)
{
	free_and_check(test, &tree_root, 1, 0);
}

static void rb_root_free_ten_thousand(struct kunit *test)
{
	free_and_check(test, &tree_root, 10000, 0);
}

/* Each node's own list is drained before the node goes. */
static void rb_root_free_nodes_owning_lists(struct kunit *test)
{
	free_and_check(test, &owning_tree_root, 100, 3);
}

/* A tree node that owns a tree of knodes. */
struct ktree_node {
	long key;
	struct rb_node rb;
	struct bpf_spin_lock lock;
	struct rb_root_cached tree;	/* where a struct bpf_rb_root sits */
};

static struct bpf_map_graph_roots ktree_node_roots = {
	.cnt = 1,
	.root[0] = {
		.offset = offsetof(struct ktree_node, tree),
		.kind = BPF_GRAPH_RBTREE,
		.node_offset = offsetof(struct knode, rb),
	},
};

static const struct btf_struct_meta ktree_node_meta = {
	.spin_lock_off = offsetof(struct ktree_node, lock),
	.roots = &ktree_node_roots,
};

static const struct bpf_map_graph_root tree_of_trees_root = {
	.offset = offsetof(struct kvalue, root),
	.kind = BPF_GRAPH_RBTREE,
	.node_offset = offsetof(struct ktree_node, rb),
	.value_meta = &ktree_node_meta,
};

static bool ktree_node_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct ktree_node, rb)->key <
	       rb_entry(b, struct ktree_node, rb)->key;
}

/* Each node's own tree is emptied before the node goes. */
static void rb_root_free_nodes_owning_trees(struct kunit *test)
{
	struct kvalue v = { .root = RB_ROOT_CACHED };
	long live = graph_objs_live();
	struct ktree_node *tn;
	struct knode *kn;
	int i, j;

	for (i = 0; i < 50; i++) {
		tn = obj_new(test, sizeof(*tn));
		tn->key = (i * 31L) % 50;
		tn->tree = RB_ROOT_CACHED;
		for (j = 0; j < i % 5; j++) {
			kn = obj_new(test, sizeof(*kn));
			kn->key = j;
			rb_add_cached(&kn->rb, &tn->tree, knode_less);
		}
		rb_add_cached(&tn->rb, &v.root, ktree_node_less);
	}
	/* 50 nodes, each owning 0-4 nodes: 10 * (0 + 1 + 2 + 3 + 4) */
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, 50 + 100);
	graph_root_free(&tree_of_trees_root, &v, &v.lock);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&v.root.rb_root));
	KUNIT_EXPECT_EQ_MSG(test, graph_objs_live() - live, 0,
			    "objects left of 50 nodes owning trees");
}

/* A root nobody used is all zeroes: an empty tree; freeing twice is harmless. */
static void rb_root_free_zeroed_twice(struct kunit *test)
{
	long live = graph_objs_live();
	struct kvalue v = {};

	graph_root_free(&tree_root, &v, &v.lock);
	fill(test, &v, 3, 0);
	graph_root_free(&tree_root, &v, &v.lock);
	graph_root_free(&tree_root, &v, &v.lock);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&v.root.rb_root));
	KUNIT_EXPECT_PTR_EQ(test, v.root.rb_leftmost, NULL);
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, 0);
}

/* The kfunc bodies, on nodes the test owns. */
#define NR_ADD	500

static bool bpf_knode_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return knode_less((struct rb_node *)a, (const struct rb_node *)b);
}

static struct bpf_rb_node *as_bpf(struct knode *kn)
{
	return (struct bpf_rb_node *)&kn->rb;
}

static long key_of(struct bpf_rb_node *n)
{
	return rb_entry((struct rb_node *)n, struct knode, rb)->key;
}

/* @n nodes with keys (i * 7) % 50: many equal keys, added in array order */
static struct knode *add_nodes(struct kunit *test, struct kvalue *v, int n)
{
	struct knode *kn = kunit_kcalloc(test, n, sizeof(*kn), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, kn);
	for (i = 0; i < n; i++) {
		kn[i].key = (i * 7L) % 50;
		bpf_rbtree_add((struct bpf_rb_root *)&v->root, as_bpf(&kn[i]), bpf_knode_less);
	}
	return kn;
}

/* In order: keys never decrease, and equal keys keep the order of adding. */
static void rbtree_add_orders_keys(struct kunit *test)
{
	struct kvalue v = {};
	struct knode *kn, *prev = NULL, *cur;
	struct rb_node *pos;
	int n = 0;

	kn = add_nodes(test, &v, NR_ADD);
	for (pos = rb_first_cached(&v.root); pos; pos = rb_next(pos), n++) {
		cur = rb_entry(pos, struct knode, rb);
		if (prev) {
			KUNIT_EXPECT_LE(test, prev->key, cur->key);
			if (prev->key == cur->key)
				KUNIT_EXPECT_LT(test, prev - kn, cur - kn);
		}
		prev = cur;
	}
	KUNIT_EXPECT_EQ(test, n, NR_ADD);
}

static void rbtree_first_empty_and_not(struct kunit *test)
{
	struct kvalue v = {};
	struct bpf_rb_root *root = (struct bpf_rb_root *)&v.root;
	struct knode *kn;

	KUNIT_EXPECT_PTR_EQ(test, bpf_rbtree_first(root), NULL);
	kn = add_nodes(test, &v, NR_ADD);
	KUNIT_ASSERT_NOT_NULL(test, bpf_rbtree_first(root));
	KUNIT_EXPECT_EQ(test, key_of(bpf_rbtree_first(root)), 0);
	/* the first of the equal least keys: the first added */
	KUNIT_EXPECT_PTR_EQ(test, bpf_rbtree_first(root), as_bpf(&kn[0]));
}

/* Removing keeps the cached leftmost right, and unlinks the node. */
static void rbtree_remove_keeps_leftmost(struct kunit *test)
{
	struct kvalue v = {};
	struct bpf_rb_root *root = (struct bpf_rb_root *)&v.root;
	struct bpf_rb_node *first, *res;
	long prev = -1;
	struct knode *kn;
	int i;

	kn = add_nodes(test, &v, NR_ADD);
	/* a node that is not the leftmost: the leftmost stays */
	first = bpf_rbtree_first(root);
	res = bpf_rbtree_remove(root, as_bpf(&kn[NR_ADD / 2]));
	KUNIT_EXPECT_PTR_EQ(test, res, as_bpf(&kn[NR_ADD / 2]));
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE(&kn[NR_ADD / 2].rb));
	KUNIT_EXPECT_PTR_EQ(test, bpf_rbtree_first(root), first);
	/* the leftmost, again and again: the cache follows, keys come sorted */
	for (i = 0; i < NR_ADD - 1; i++) {
		first = bpf_rbtree_first(root);
		KUNIT_ASSERT_NOT_NULL(test, first);
		KUNIT_EXPECT_PTR_EQ(test, (struct rb_node *)first, rb_first(&v.root.rb_root));
		KUNIT_EXPECT_LE(test, prev, key_of(first));
		prev = key_of(first);
		res = bpf_rbtree_remove(root, first);
		KUNIT_EXPECT_PTR_EQ(test, res, first);
		KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE((struct rb_node *)res));
	}
	KUNIT_EXPECT_PTR_EQ(test, bpf_rbtree_first(root), NULL);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&v.root.rb_root));
}

static struct kunit_case bpf_rbtree_cases[] = {
	KUNIT_CASE(rbtree_add_orders_keys),
	KUNIT_CASE(rbtree_first_empty_and_not),
	KUNIT_CASE(rbtree_remove_keeps_leftmost),
	KUNIT_CASE(rb_root_free_empty),
	KUNIT_CASE(rb_root_free_one),
	KUNIT_CASE(rb_root_free_ten_thousand),
	KUNIT_CASE(rb_root_free_nodes_owning_lists),
	KUNIT_CASE(rb_root_free_nodes_owning_trees),
	KUNIT_CASE(rb_root_free_zeroed_twice),
	{}
};

static struct kunit_suite bpf_rbtree_suite = {
	.name = "bpf_graph_rbtree",
	.test_cases = bpf_rbtree_cases,
};

kunit_test_suites(&bpf_rbtree_suite);

MODULE_LICENSE("GPL");
