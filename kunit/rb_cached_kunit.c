// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for what the series does with an rb_root_cached, the tree
 * behind a struct bpf_rb_root: bpf_rbtree_add()'s open-coded insert and
 * bpf_rbtree_remove() against lib/rbtree's rb_add_cached() and
 * rb_erase_cached() as the oracle (the same keys, many of them equal, into
 * two trees that must agree node for node, leftmost included, after every
 * step), and bpf_rb_root_free()'s postorder walk over a tree that
 * bpf_rbtree_add() built (every node freed once: the count of live graph
 * objects goes back to where it was).
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/rbtree.h>
#include <linux/slab.h>

#include "graph_kunit.h"

#define NR_KEYS		3000
#define KEY_RANGE	64	/* small range: many equal keys */

/* One key in both trees: @oracle for lib/rbtree, @node for the kfuncs. */
struct knode {
	long key;
	struct rb_node node;	/* where a struct bpf_rb_node sits */
	struct rb_node oracle;
};

static bool oracle_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct knode, oracle)->key < rb_entry(b, struct knode, oracle)->key;
}

static bool node_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of((struct rb_node *)a, struct knode, node)->key <
	       container_of((struct rb_node *)b, struct knode, node)->key;
}

static struct bpf_rb_root *as_root(struct rb_root_cached *tree)
{
	return (struct bpf_rb_root *)tree;
}

static struct knode *node_of(struct bpf_rb_node *n)
{
	return n ? container_of((struct rb_node *)n, struct knode, node) : NULL;
}

static struct knode *oracle_of(struct rb_node *n)
{
	return n ? rb_entry(n, struct knode, oracle) : NULL;
}

/* The trees hold the same nodes in the same order, and agree on the first. */
static void expect_same(struct kunit *test, struct rb_root_cached *tree,
			struct rb_root_cached *oracle)
{
	struct rb_node *a = rb_first(&tree->rb_root), *b = rb_first(&oracle->rb_root);

	KUNIT_EXPECT_PTR_EQ(test, node_of(bpf_rbtree_first(as_root(tree))),
			    oracle_of(rb_first_cached(oracle)));
	for (; a && b; a = rb_next(a), b = rb_next(b))
		KUNIT_ASSERT_PTR_EQ(test, container_of(a, struct knode, node), oracle_of(b));
	KUNIT_EXPECT_TRUE(test, !a && !b);
}

/* NR_KEYS nodes with seeded random keys, added to both trees in turn; with
 * @check_each the trees must agree on the first node after every add.
 */
static struct knode *make_nodes(struct kunit *test, struct rb_root_cached *tree,
				struct rb_root_cached *oracle, bool check_each)
{
	struct rnd_state rs;
	struct knode *nodes;
	u32 i;

	nodes = kunit_kcalloc(test, NR_KEYS, sizeof(*nodes), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nodes);
	prandom_seed_state(&rs, 0x5eed);
	*tree = RB_ROOT_CACHED;
	*oracle = RB_ROOT_CACHED;
	for (i = 0; i < NR_KEYS; i++) {
		nodes[i].key = prandom_u32_state(&rs) % KEY_RANGE;
		bpf_rbtree_add(as_root(tree), (struct bpf_rb_node *)&nodes[i].node, node_less);
		rb_add_cached(&nodes[i].oracle, oracle, oracle_less);
		if (check_each)
			KUNIT_ASSERT_PTR_EQ(test, node_of(bpf_rbtree_first(as_root(tree))),
					    oracle_of(rb_first_cached(oracle)));
	}
	return nodes;
}

static void rbtree_add_matches_rb_add_cached(struct kunit *test)
{
	struct rb_root_cached tree, oracle;

	make_nodes(test, &tree, &oracle, false);
	expect_same(test, &tree, &oracle);
}

static void rbtree_add_keeps_leftmost_at_every_step(struct kunit *test)
{
	struct rb_root_cached tree, oracle;

	make_nodes(test, &tree, &oracle, true);
}

/* Remove a random half, first at every step, then compare the rest. */
static void rbtree_remove_matches_rb_erase_cached(struct kunit *test)
{
	struct rb_root_cached tree, oracle;
	struct bpf_rb_node *got;
	struct knode *nodes;
	struct rnd_state rs;
	u32 i, k;

	nodes = make_nodes(test, &tree, &oracle, false);
	prandom_seed_state(&rs, 0xe4a5e);
	for (i = 0; i < NR_KEYS / 2; i++) {
		k = prandom_u32_state(&rs) % NR_KEYS;
		if (RB_EMPTY_NODE(&nodes[k].node))
			continue;	/* removed already */
		got = bpf_rbtree_remove(as_root(&tree), (struct bpf_rb_node *)&nodes[k].node);
		rb_erase_cached(&nodes[k].oracle, &oracle);
		KUNIT_EXPECT_PTR_EQ(test, node_of(got), &nodes[k]);
		/* cleared: the node can be added again (and a second remove of
		 * it would corrupt the tree: stop here)
		 */
		KUNIT_ASSERT_TRUE(test, RB_EMPTY_NODE(&nodes[k].node));
		KUNIT_ASSERT_PTR_EQ(test, node_of(bpf_rbtree_first(as_root(&tree))),
				    oracle_of(rb_first_cached(&oracle)));
	}
	expect_same(test, &tree, &oracle);
	/* and the first ones, until both are empty */
	while ((got = bpf_rbtree_first(as_root(&tree)))) {
		KUNIT_ASSERT_PTR_EQ(test, node_of(got), oracle_of(rb_first_cached(&oracle)));
		bpf_rbtree_remove(as_root(&tree), got);
		rb_erase_cached(rb_first_cached(&oracle), &oracle);
	}
	KUNIT_EXPECT_NULL(test, rb_first_cached(&oracle));
}

/* A map value's tree, as the free path gets it */
struct kvalue {
	struct bpf_spin_lock lock;
	struct rb_root_cached root;
};

struct kobj {
	long key;
	struct rb_node node;
};

static const struct bpf_map_graph_root value_root = {
	.offset = offsetof(struct kvalue, root),
	.kind = BPF_GRAPH_RBTREE,
	.node_offset = offsetof(struct kobj, node),
};

static bool kobj_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of((struct rb_node *)a, struct kobj, node)->key <
	       container_of((struct rb_node *)b, struct kobj, node)->key;
}

static void rb_root_free_frees_what_rbtree_add_built(struct kunit *test)
{
	struct kvalue v = { .root = RB_ROOT_CACHED };
	long live = graph_objs_live();
	struct rnd_state rs;
	struct kobj *o;
	u32 i;

	prandom_seed_state(&rs, 0xf4ee);
	for (i = 0; i < NR_KEYS; i++) {
		o = graph_obj_new(sizeof(*o));
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, o);
		o->key = prandom_u32_state(&rs) % KEY_RANGE;
		bpf_rbtree_add(as_root(&v.root), (struct bpf_rb_node *)&o->node, kobj_less);
	}
	KUNIT_ASSERT_EQ(test, graph_objs_live(), live + NR_KEYS);
	graph_root_free(&value_root, &v, &v.lock);
	KUNIT_EXPECT_EQ(test, graph_objs_live(), live);
	KUNIT_EXPECT_NULL(test, rb_first_cached(&v.root));
}

static struct kunit_case rb_cached_cases[] = {
	KUNIT_CASE(rbtree_add_matches_rb_add_cached),
	KUNIT_CASE(rbtree_add_keeps_leftmost_at_every_step),
	KUNIT_CASE(rbtree_remove_matches_rb_erase_cached),
	KUNIT_CASE(rb_root_free_frees_what_rbtree_add_built),
	{}
};

static struct kunit_suite rb_cached_suite = {
	.name = "bpf_graph_rb_cached",
	.test_cases = rb_cached_cases,
};

kunit_test_suite(rb_cached_suite);

MODULE_LICENSE("GPL");
