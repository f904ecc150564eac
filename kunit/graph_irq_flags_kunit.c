// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for the IRQ flags of a program's critical section. The free
 * paths of graph roots take the roots' bpf_spin_lock, and may run inside a
 * program's critical section (a tracing program on a function called there
 * deletes a map element) or in NMI. They must leave alone the IRQ flags
 * that the program's bpf_spin_lock() saved for its bpf_spin_unlock(), or
 * the program's unlock returns to the kernel with IRQs disabled.
 */
#include <kunit/test.h>
#include <linux/irqflags.h>
#include <linux/list.h>
#include <linux/rbtree.h>

#include "graph_kunit.h"

struct knode {
	long key;
	struct list_head node;		/* where a struct bpf_list_node sits */
	struct rb_node rb;		/* where a struct bpf_rb_node sits */
};

struct kvalue {
	struct bpf_spin_lock lock;
	struct list_head head;		/* where a struct bpf_list_head sits */
	struct rb_root_cached root;	/* where a struct bpf_rb_root sits */
};

static const struct bpf_map_graph_root list_root = {
	.offset = offsetof(struct kvalue, head),
	.kind = BPF_GRAPH_LIST,
	.node_offset = offsetof(struct knode, node),
};

static const struct bpf_map_graph_root tree_root = {
	.offset = offsetof(struct kvalue, root),
	.kind = BPF_GRAPH_RBTREE,
	.node_offset = offsetof(struct knode, rb),
};

static bool knode_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct knode, rb)->key < rb_entry(b, struct knode, rb)->key;
}

/* Two nodes on @v's list or in its tree, as a program would add them. */
static void fill(struct kunit *test, struct kvalue *v, bool tree)
{
	struct knode *kn;
	int i;

	INIT_LIST_HEAD(&v->head);
	v->root = RB_ROOT_CACHED;
	for (i = 0; i < 2; i++) {
		kn = graph_obj_new(sizeof(*kn));
		KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, kn, "node %d", i);
		kn->key = i;
		if (tree)
			rb_add_cached(&kn->rb, &v->root, knode_less);
		else
			list_add_tail(&kn->node, &v->head);
	}
}

/* Free @root of a filled value between a program's lock and unlock. */
static void free_in_prog_section(struct kunit *test, const struct bpf_map_graph_root *root,
				 bool tree)
{
	struct bpf_spin_lock prog_lock = {};
	long live = graph_objs_live();
	struct kvalue v = {};
	bool disabled;

	fill(test, &v, tree);
	KUNIT_ASSERT_FALSE_MSG(test, irqs_disabled(), "IRQs disabled before the test");
	bpf_spin_lock_proto.func((u64)(long)&prog_lock, 0, 0, 0, 0);
	graph_root_free(root, &v, &v.lock);
	bpf_spin_unlock_proto.func((u64)(long)&prog_lock, 0, 0, 0, 0);
	disabled = irqs_disabled();
	if (disabled)
		local_irq_enable();
	KUNIT_EXPECT_FALSE_MSG(test, disabled,
			       "IRQs disabled after the program's bpf_spin_unlock(): the free path's lock overwrote its flags");
	KUNIT_EXPECT_EQ(test, graph_objs_live() - live, 0);
}

static void list_free_keeps_prog_irq_flags(struct kunit *test)
{
	free_in_prog_section(test, &list_root, false);
}

static void rb_root_free_keeps_prog_irq_flags(struct kunit *test)
{
	free_in_prog_section(test, &tree_root, true);
}

static struct kunit_case graph_irq_flags_cases[] = {
	KUNIT_CASE(list_free_keeps_prog_irq_flags),
	KUNIT_CASE(rb_root_free_keeps_prog_irq_flags),
	{}
};

static struct kunit_suite graph_irq_flags_suite = {
	.name = "bpf_graph_irq_flags",
	.test_cases = graph_irq_flags_cases,
};

kunit_test_suite(graph_irq_flags_suite);
