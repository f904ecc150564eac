// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the kfunc bodies behind bpf_obj_new() and bpf_obj_drop(),
 * called directly as the verifier's rewrite leaves them: the size in
 * place of the type id, a NULL meta. The count of live objects checks that
 * every object went back; under --debug, KASAN checks every byte written
 * and kmemleak that nothing was left behind.
 */
#include <kunit/test.h>
#include <linux/bpf_mem_alloc.h>
#include <linux/list.h>
#include <linux/poison.h>
#include <linux/rbtree.h>
#include <linux/slab.h>

#include "graph_kunit.h"

#define NR_OBJS		10000
#define MAX_OBJ_SIZE	4088	/* bpf_mem_alloc's largest bucket less its header */

static void obj_new_sizes_are_usable(struct kunit *test)
{
	static const u64 sizes[] = { 1, 8, 16, 24, 56, 96, 192, 1000, 2048, MAX_OBJ_SIZE };
	unsigned int i;
	u8 *p;

	KUNIT_ASSERT_TRUE(test, bpf_global_ma_set);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		p = graph_obj_new(sizes[i]);
		KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, p, "size %llu", sizes[i]);
		memset(p, 0xa5, sizes[i]);
		KUNIT_EXPECT_EQ(test, p[sizes[i] - 1], 0xa5);
		graph_obj_drop(p);
	}
}

static void obj_new_too_large_is_null(struct kunit *test)
{
	long live = graph_objs_live();

	KUNIT_EXPECT_PTR_EQ(test, graph_obj_new(MAX_OBJ_SIZE + 1), NULL);
	KUNIT_EXPECT_PTR_EQ(test, graph_obj_new(1ULL << 32), NULL);
	KUNIT_EXPECT_EQ_MSG(test, graph_objs_live() - live, 0, "a failed allocation counted");
}

/* An empty struct must get an object bpf_obj_drop() can free. */
static void obj_new_empty_struct(struct kunit *test)
{
	void *p = graph_obj_new(0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_EXPECT_PTR_NE(test, p, (void *)ZERO_SIZE_PTR);
	graph_obj_drop(p);
}

/* Many live objects at once are distinct, keep their contents, free cleanly. */
static void obj_new_many_live_objects(struct kunit *test)
{
	u64 **objs;
	int i;

	long live = graph_objs_live();

	objs = kunit_kcalloc(test, NR_OBJS, sizeof(*objs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, objs);
	for (i = 0; i < NR_OBJS; i++) {
		objs[i] = graph_obj_new(sizeof(u64) * 3);
		KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, objs[i], "object %d", i);
		objs[i][0] = i;
		objs[i][2] = ~(u64)i;
	}
	for (i = 0; i < NR_OBJS; i++) {
		KUNIT_EXPECT_EQ(test, objs[i][0], (u64)i);
		KUNIT_EXPECT_EQ(test, objs[i][2], ~(u64)i);
		if (i)
			KUNIT_EXPECT_PTR_NE(test, objs[i], objs[i - 1]);
	}
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, NR_OBJS);
	for (i = 0; i < NR_OBJS; i++)
		graph_obj_drop(objs[i]);
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, 0);
}

static bool meta_covers(const struct btf_struct_meta *meta, int i)
{
	u32 f;

	for (f = 0; f < meta->nr_fields; f++)
		if (i >= meta->fields[f].offset && i < meta->fields[f].offset + meta->fields[f].size)
			return true;
	return false;
}

/*
 * With a struct meta, bpf_obj_new_impl() zeroes exactly the special fields
 * of @meta: allocate, scribble, free, and allocate again from this CPU's
 * free list.
 */
static void check_zeroes_special_fields(struct kunit *test, const struct btf_struct_meta *meta)
{
	u8 *p1, *p2;
	int i;

	migrate_disable();
	p1 = bpf_obj_new_impl(96, NULL);
	if (p1) {
		memset(p1, 0xa5, 96);
		bpf_obj_drop_impl(p1, NULL);
	}
	p2 = bpf_obj_new_impl(96, (void *)meta);
	migrate_enable();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p1);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p2);
	/* From the slab (a debug kernel), a freed object waits in KASAN's
	 * quarantine: only the special fields have a known content.
	 */
	if (!IS_ENABLED(CONFIG_BPF_GRAPH_OBJ_SLAB))
		KUNIT_ASSERT_PTR_EQ_MSG(test, p2, p1, "not recycled from this CPU's free list");
	for (i = 0; i < 96; i++) {
		bool special = meta_covers(meta, i);
		u8 left = bpf_graph_obj_poison ? POISON_FREE : 0xa5;

		if (special || p2 == p1)
			KUNIT_EXPECT_EQ_MSG(test, p2[i], special ? 0 : left, "byte %d", i);
	}
	graph_obj_drop(p2);
}

static void obj_new_meta_zeroes_special_fields(struct kunit *test)
{
	static const struct btf_struct_meta meta = {
		.nr_fields = 2,
		.fields = { { .offset = 8, .size = 16 }, { .offset = 40, .size = 4 } },
	};

	check_zeroes_special_fields(test, &meta);
}

/*
 * The most special fields a struct has, its meta followed by another in
 * the table (as btf_find_struct_meta() finds them): the loop must stop at
 * the last field, not read the next meta's words as one more (which here
 * would zero the object's first 8 bytes).
 */
static void obj_new_meta_zeroes_most_special_fields(struct kunit *test)
{
	static const struct btf_struct_meta metas[2] = {
		{
			.nr_fields = BTF_STRUCT_META_FIELDS_MAX,
			.fields = { { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 40, 8 },
				    { 48, 8 }, { 56, 8 }, { 64, 8 }, { 80, 8 } },
		},
		{ .btf_id = 8, .spin_lock_off = 8 },
	};

	BUILD_BUG_ON(BTF_STRUCT_META_FIELDS_MAX != 9);
	check_zeroes_special_fields(test, &metas[0]);
}

struct kcontainer {
	struct bpf_spin_lock lock;
	struct list_head head;
	struct rb_root_cached tree;
};

struct kelem {
	long key;
	struct list_head node;
	struct rb_node rb;
};

static bool kelem_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct kelem, rb)->key < rb_entry(b, struct kelem, rb)->key;
}

/* Dropping an object that owns a list and a tree frees the nodes in both,
 * by the struct meta the object got from bpf_obj_new() (the drop's own
 * argument is NULL, as a merged call of a program may pass another type's):
 * the count of live objects says all of them, KASAN and kmemleak say
 * exactly once under --debug.
 */
static void obj_drop_frees_owned_list_and_tree(struct kunit *test)
{
	static struct bpf_map_graph_roots roots = {
		.cnt = 2,
		.root = { { .offset = offsetof(struct kcontainer, head),
			    .kind = BPF_GRAPH_LIST,
			    .node_offset = offsetof(struct kelem, node) },
			  { .offset = offsetof(struct kcontainer, tree),
			    .kind = BPF_GRAPH_RBTREE,
			    .node_offset = offsetof(struct kelem, rb) } },
	};
	static const struct btf_struct_meta meta = {
		.spin_lock_off = offsetof(struct kcontainer, lock),
		.roots = &roots,
		.nr_fields = 3,
		.fields = { { .offset = offsetof(struct kcontainer, lock),
			      .size = sizeof(struct bpf_spin_lock) },
			    { .offset = offsetof(struct kcontainer, head),
			      .size = sizeof(struct list_head) },
			    { .offset = offsetof(struct kcontainer, tree),
			      .size = sizeof(struct rb_root_cached) } },
	};
	long live = graph_objs_live();
	struct kcontainer *c;
	struct kelem *e;
	int i;

	c = graph_obj_new_meta(sizeof(*c), &meta);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	INIT_LIST_HEAD(&c->head);
	for (i = 0; i < 1000; i++) {
		e = graph_obj_new(sizeof(*e));
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, e);
		e->key = (i * 7919L) % 1000;
		if (i % 2)
			list_add_tail(&e->node, &c->head);
		else
			rb_add_cached(&e->rb, &c->tree, kelem_less);
	}
	KUNIT_EXPECT_EQ(test, list_count_nodes(&c->head), (size_t)500);
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, 1001);
	graph_obj_drop(c);
	KUNIT_EXPECT_EQ_MSG(test, graph_objs_live() - live, 0,
			    "objects left of a container with 500 + 500 nodes");
}

#define ROUND_OBJS	100

/* An object of @ma (@size 0: of 48 bytes, a 64-byte unit). A refill runs
 * in irq_work, at once on x86; a few tries give it the time elsewhere.
 */
static void *round_alloc(struct bpf_mem_alloc *ma, int size)
{
	void *p = NULL;
	int tries;

	for (tries = 0; !p && tries < 1000; tries++) {
		p = size ? bpf_mem_cache_alloc(ma) : bpf_mem_alloc(ma, 48);
		if (!p)
			cpu_relax();
	}
	return p;
}

/* Four rounds of ROUND_OBJS allocations of one CPU's free list, each
 * freed before the next round; returns how many objects of the last
 * round the round before had freed (-ENOMEM: an allocation failed).
 */
static int rounds_reused(struct kunit *test, int size)
{
	unsigned long *objs = kunit_kcalloc(test, 2 * ROUND_OBJS, sizeof(*objs), GFP_KERNEL);
	unsigned long *freed = objs + ROUND_OBJS;
	int round, i, j, got = 0, reused = 0;
	struct bpf_mem_alloc ma;
	void *p;

	KUNIT_ASSERT_NOT_NULL(test, objs);
	KUNIT_ASSERT_EQ(test, bpf_mem_alloc_init(&ma, size, false), 0);
	migrate_disable();	/* one CPU's free list, as a program's */
	for (round = 0; round < 4 && got == ROUND_OBJS * round; round++) {
		memcpy(freed, objs, ROUND_OBJS * sizeof(*objs));
		for (i = 0; i < ROUND_OBJS; i++) {
			p = round_alloc(&ma, size);
			if (!p)
				break;
			objs[i] = (unsigned long)p;
		}
		got += i;
		while (i--) {
			if (size)
				bpf_mem_cache_free(&ma, (void *)objs[i]);
			else
				bpf_mem_free(&ma, (void *)objs[i]);
		}
	}
	migrate_enable();
	bpf_mem_alloc_destroy(&ma);
	if (got < 4 * ROUND_OBJS)
		return -ENOMEM;
	for (i = 0; i < ROUND_OBJS; i++)
		for (j = 0; j < ROUND_OBJS; j++)
			reused += objs[i] == freed[j];
	return reused;
}

/*
 * Patch 38: the free lists of bpf_obj_new()'s allocator (one of size 0)
 * keep 128 to 384 objects of 64 bytes. A program that fills a tree of a
 * hundred such nodes and empties it again gets back, at every round, the
 * very objects it freed at the round before: none went back to the slab
 * and none came from it. With 6.3's 32 to 96, every round trims the list
 * and refills it through irq_work, with new objects. The test's own
 * allocator of size 0 has the same free lists, without other users.
 */
static void obj_alloc_hundred_rounds_reuse_the_free_list(struct kunit *test)
{
	KUNIT_EXPECT_EQ_MSG(test, rounds_reused(test, 0), ROUND_OBJS,
			    "objects of the last round that the round before freed");
}

/* ... and a hash map's allocator (of one size) keeps 6.1's 32 to 96. */
static void map_alloc_hundred_rounds_trim_the_free_list(struct kunit *test)
{
	int reused = rounds_reused(test, 48);

	KUNIT_EXPECT_GE_MSG(test, reused, 0, "an allocation failed");
	KUNIT_EXPECT_LT_MSG(test, reused, ROUND_OBJS,
			    "objects of the last round that the round before freed");
}

static struct kunit_case bpf_obj_cases[] = {
	KUNIT_CASE(obj_new_meta_zeroes_special_fields),
	KUNIT_CASE(obj_new_meta_zeroes_most_special_fields),
	KUNIT_CASE(obj_drop_frees_owned_list_and_tree),
	KUNIT_CASE(obj_new_sizes_are_usable),
	KUNIT_CASE(obj_new_too_large_is_null),
	KUNIT_CASE(obj_new_empty_struct),
	KUNIT_CASE(obj_new_many_live_objects),
	KUNIT_CASE(obj_alloc_hundred_rounds_reuse_the_free_list),
	KUNIT_CASE(map_alloc_hundred_rounds_trim_the_free_list),
	{}
};

static struct kunit_suite bpf_obj_suite = {
	.name = "bpf_graph_obj",
	.test_cases = bpf_obj_cases,
};

kunit_test_suites(&bpf_obj_suite);

MODULE_LICENSE("GPL");
