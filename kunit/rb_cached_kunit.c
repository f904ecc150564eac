// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the rb_root_cached operations that the BPF rbtree kfuncs
 * wrap: rb_add_cached() ordered by a comparator, rb_first_cached(),
 * rb_erase_cached() keeping the cached leftmost node right, and the
 * postorder walk the free path uses to release every node once.
 */
#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/rbtree.h>
#include <linux/slab.h>

#define NR_KEYS		3000
#define KEY_RANGE	64	/* small range: many equal keys */

struct knode {
	struct rb_node rb;
	u32 key;
	u32 seq;	/* insertion order, to check stability on equal keys */
	u32 visits;
};

static bool knode_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct knode, rb)->key <
	       rb_entry(b, struct knode, rb)->key;
}

/* Fill @nodes with seeded random keys and add them all to @root. */
static struct knode *build_tree(struct kunit *test, struct rb_root_cached *root,
				u32 range)
{
	struct rnd_state rs;
	struct knode *nodes;
	u32 i;

	nodes = kunit_kcalloc(test, NR_KEYS, sizeof(*nodes), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, nodes);
	prandom_seed_state(&rs, 0x5eed);
	*root = RB_ROOT_CACHED;
	for (i = 0; i < NR_KEYS; i++) {
		nodes[i].key = prandom_u32_state(&rs) % range;
		nodes[i].seq = i;
		rb_add_cached(&nodes[i].rb, root, knode_less);
	}
	return nodes;
}

/* Walk @root in order; check it is sorted and return the node count. */
static u32 check_sorted(struct kunit *test, struct rb_root_cached *root)
{
	struct knode *prev = NULL, *cur;
	struct rb_node *rb;
	u32 n = 0;

	for (rb = rb_first_cached(root); rb; rb = rb_next(rb), n++) {
		cur = rb_entry(rb, struct knode, rb);
		if (prev) {
			KUNIT_EXPECT_LE(test, prev->key, cur->key);
			if (prev->key == cur->key)
				KUNIT_EXPECT_LT(test, prev->seq, cur->seq);
		}
		prev = cur;
	}
	return n;
}

static void rb_add_cached_orders_keys(struct kunit *test)
{
	struct rb_root_cached root;

	build_tree(test, &root, U32_MAX);
	KUNIT_EXPECT_EQ(test, check_sorted(test, &root), NR_KEYS);
}

static void rb_add_cached_equal_keys_keep_insertion_order(struct kunit *test)
{
	struct rb_root_cached root;

	build_tree(test, &root, KEY_RANGE);
	KUNIT_EXPECT_EQ(test, check_sorted(test, &root), NR_KEYS);
}

static void rb_add_cached_returns_new_leftmost(struct kunit *test)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct knode n[3] = { { .key = 5 }, { .key = 9 }, { .key = 1 } };

	KUNIT_EXPECT_PTR_EQ(test, rb_add_cached(&n[0].rb, &root, knode_less),
			    &n[0].rb);
	KUNIT_EXPECT_PTR_EQ(test, rb_add_cached(&n[1].rb, &root, knode_less),
			    NULL);
	KUNIT_EXPECT_PTR_EQ(test, rb_add_cached(&n[2].rb, &root, knode_less),
			    &n[2].rb);
	KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&root), &n[2].rb);
}

static void rb_first_cached_is_minimum(struct kunit *test)
{
	struct rb_root_cached root;
	struct knode *nodes, *first;
	u32 i, lowest = U32_MAX;

	KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&(struct rb_root_cached)RB_ROOT_CACHED),
			    NULL);
	nodes = build_tree(test, &root, U32_MAX);
	for (i = 0; i < NR_KEYS; i++)
		lowest = min(lowest, nodes[i].key);
	first = rb_entry(rb_first_cached(&root), struct knode, rb);
	KUNIT_EXPECT_EQ(test, first->key, lowest);
	KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&root), rb_first(&root.rb_root));
}

/*
 * Erase nodes in random order (every third erase takes the leftmost one) and
 * check after each erase that the cache still names the real leftmost node.
 */
static void rb_erase_cached_keeps_leftmost(struct kunit *test)
{
	struct rb_root_cached root;
	struct knode *nodes;
	struct rb_node *victim;
	struct rnd_state rs;
	u32 i, left = NR_KEYS;

	nodes = build_tree(test, &root, KEY_RANGE);
	prandom_seed_state(&rs, 0xe7a5e);
	for (i = 0; i < NR_KEYS; i++) {
		if (i % 3 == 0) {
			victim = rb_first_cached(&root);
		} else {
			u32 j = prandom_u32_state(&rs) % NR_KEYS;

			while (RB_EMPTY_NODE(&nodes[j].rb))
				j = (j + 1) % NR_KEYS;
			victim = &nodes[j].rb;
		}
		rb_erase_cached(victim, &root);
		RB_CLEAR_NODE(victim);
		left--;
		KUNIT_ASSERT_PTR_EQ(test, rb_first_cached(&root),
				    rb_first(&root.rb_root));
		if (i % 500 == 0)
			KUNIT_ASSERT_EQ(test, check_sorted(test, &root), left);
	}
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&root.rb_root));
	KUNIT_EXPECT_PTR_EQ(test, rb_first_cached(&root), NULL);
}

/*
 * The free path walks the tree in postorder and frees each node as it goes:
 * every node must be visited exactly once, children before their parent.
 */
static void rb_postorder_visits_each_node_once(struct kunit *test)
{
	struct rb_root_cached root;
	struct knode *nodes, *pos, *n;
	struct rb_node *child;
	u32 i, count = 0;

	nodes = build_tree(test, &root, U32_MAX);
	rbtree_postorder_for_each_entry_safe(pos, n, &root.rb_root, rb) {
		child = pos->rb.rb_left;
		if (child)
			KUNIT_EXPECT_EQ(test, rb_entry(child, struct knode, rb)->visits, 1);
		child = pos->rb.rb_right;
		if (child)
			KUNIT_EXPECT_EQ(test, rb_entry(child, struct knode, rb)->visits, 1);
		pos->visits++;
		count++;
	}
	KUNIT_EXPECT_EQ(test, count, NR_KEYS);
	for (i = 0; i < NR_KEYS; i++)
		KUNIT_EXPECT_EQ_MSG(test, nodes[i].visits, 1, "node %u", i);
}

/* The same walk with real frees, as the map free path does (KASAN checks it). */
static void rb_postorder_frees_every_node(struct kunit *test)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	struct rb_node *rb, *next;
	struct knode *kn;
	u32 i, freed = 0;

	for (i = 0; i < NR_KEYS; i++) {
		kn = kzalloc(sizeof(*kn), GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, kn);
		kn->key = (i * 7919) % NR_KEYS;
		rb_add_cached(&kn->rb, &root, knode_less);
	}
	rb = rb_first_postorder(&root.rb_root);
	while (rb) {
		next = rb_next_postorder(rb);
		kfree(rb_entry(rb, struct knode, rb));
		freed++;
		rb = next;
	}
	KUNIT_EXPECT_EQ(test, freed, NR_KEYS);
}

static struct kunit_case rb_cached_cases[] = {
	KUNIT_CASE(rb_add_cached_orders_keys),
	KUNIT_CASE(rb_add_cached_equal_keys_keep_insertion_order),
	KUNIT_CASE(rb_add_cached_returns_new_leftmost),
	KUNIT_CASE(rb_first_cached_is_minimum),
	KUNIT_CASE(rb_erase_cached_keeps_leftmost),
	KUNIT_CASE(rb_postorder_visits_each_node_once),
	KUNIT_CASE(rb_postorder_frees_every_node),
	{}
};

static struct kunit_suite rb_cached_suite = {
	.name = "bpf_graph_rb_cached",
	.test_cases = rb_cached_cases,
};

kunit_test_suites(&rb_cached_suite);

MODULE_LICENSE("GPL");
