// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the bpf_list kfunc bodies and for bpf_list_head_free(),
 * the path that empties a list head of a map value when its element is
 * deleted or overwritten, or the map is freed. Nodes come from
 * bpf_obj_new_impl(), like a program's, and each free path must free all of
 * them (the count of live objects says so in every run); under --debug
 * KASAN catches a double free and kmemleak a node left behind.
 */
#include <kunit/test.h>
#include <linux/list.h>
#include <linux/slab.h>

#include "graph_kunit.h"

struct knode {
	long key;
	struct list_head node;	/* where a struct bpf_list_node sits */
	long data;
};

struct kvalue {
	struct bpf_spin_lock lock;
	struct list_head head;	/* where a struct bpf_list_head sits */
};

static const struct bpf_map_graph_root root = {
	.offset = offsetof(struct kvalue, head),
	.node_offset = offsetof(struct knode, node),
};

/* Put @n nodes on @v's list, as bpf_list_push_back() would. */
static void fill(struct kunit *test, struct kvalue *v, int n)
{
	struct knode *kn;
	int i;

	INIT_LIST_HEAD(&v->head);
	for (i = 0; i < n; i++) {
		kn = graph_obj_new(sizeof(*kn));
		KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, kn, "node %d", i);
		kn->key = i;
		list_add_tail(&kn->node, &v->head);
	}
}

static void drain_and_check(struct kunit *test, int n)
{
	long live = graph_objs_live();
	struct kvalue v = {};

	fill(test, &v, n);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&v.head), (size_t)n);
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, n);
	graph_root_free(&root, &v, &v.lock);
	KUNIT_EXPECT_TRUE(test, list_empty(&v.head));
	KUNIT_EXPECT_EQ(test, v.lock.val, 0);
	KUNIT_EXPECT_EQ_MSG(test, graph_objs_live() - live, 0, "objects left of %d", n);
}

static void list_free_empty(struct kunit *test)
{
	drain_and_check(test, 0);
}

static void list_free_one(struct kunit *test)
{
	drain_and_check(test, 1);
}

static void list_free_thousands(struct kunit *test)
{
	drain_and_check(test, 5000);
}

/* A head nobody used is all zeroes: it counts as empty and is initialized. */
static void list_free_zeroed_head(struct kunit *test)
{
	struct kvalue v = {};

	graph_root_free(&root, &v, &v.lock);
	KUNIT_EXPECT_PTR_EQ(test, v.head.next, &v.head);
	KUNIT_EXPECT_PTR_EQ(test, v.head.prev, &v.head);
}

/* Freeing twice is harmless: the second call finds an empty list. */
static void list_free_twice(struct kunit *test)
{
	long live = graph_objs_live();
	struct kvalue v = {};

	fill(test, &v, 3);
	graph_root_free(&root, &v, &v.lock);
	graph_root_free(&root, &v, &v.lock);
	KUNIT_EXPECT_TRUE(test, list_empty(&v.head));
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, 0);
}

static struct bpf_list_node *as_node(struct knode *kn)
{
	return (struct bpf_list_node *)&kn->node;
}

static long pop_key(struct kunit *test, struct kvalue *v, bool front)
{
	struct bpf_list_head *h = (struct bpf_list_head *)&v->head;
	struct bpf_list_node *n = front ? bpf_list_pop_front(h) : bpf_list_pop_back(h);
	struct knode *kn;
	long key;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, n);
	kn = container_of((struct list_head *)n, struct knode, node);
	key = kn->key;
	kfree(kn);
	return key;
}

/* back 1, 2, 3, front 4 on a zeroed head: 4 1 2 3; pops from both ends. */
static void list_push_pop_order(struct kunit *test)
{
	struct bpf_list_head *h;
	struct kvalue v = {};
	struct knode *kn;
	int i;

	h = (struct bpf_list_head *)&v.head;
	for (i = 1; i <= 4; i++) {
		kn = kzalloc(sizeof(*kn), GFP_KERNEL);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, kn);
		kn->key = i;
		if (i < 4)
			bpf_list_push_back(h, as_node(kn));
		else
			bpf_list_push_front(h, as_node(kn));
	}
	KUNIT_EXPECT_EQ(test, pop_key(test, &v, true), 4);
	KUNIT_EXPECT_EQ(test, pop_key(test, &v, false), 3);
	KUNIT_EXPECT_EQ(test, pop_key(test, &v, true), 1);
	KUNIT_EXPECT_EQ(test, pop_key(test, &v, false), 2);
	KUNIT_EXPECT_PTR_EQ(test, bpf_list_pop_front(h), NULL);
	KUNIT_EXPECT_PTR_EQ(test, bpf_list_pop_back(h), NULL);
}

/* A popped node is unlinked: its list_head points to itself. */
static void list_pop_unlinks(struct kunit *test)
{
	struct kvalue v = {};
	struct knode kn = {};
	struct bpf_list_node *n;

	bpf_list_push_front((struct bpf_list_head *)&v.head, as_node(&kn));
	n = bpf_list_pop_back((struct bpf_list_head *)&v.head);
	KUNIT_EXPECT_PTR_EQ(test, n, as_node(&kn));
	KUNIT_EXPECT_TRUE(test, list_empty(&kn.node));
	KUNIT_EXPECT_TRUE(test, list_empty(&v.head));
}

static struct kunit_case bpf_list_cases[] = {
	KUNIT_CASE(list_push_pop_order),
	KUNIT_CASE(list_pop_unlinks),
	KUNIT_CASE(list_free_empty),
	KUNIT_CASE(list_free_one),
	KUNIT_CASE(list_free_thousands),
	KUNIT_CASE(list_free_zeroed_head),
	KUNIT_CASE(list_free_twice),
	{}
};

static struct kunit_suite bpf_list_suite = {
	.name = "bpf_graph_list",
	.test_cases = bpf_list_cases,
};

kunit_test_suites(&bpf_list_suite);

MODULE_LICENSE("GPL");
