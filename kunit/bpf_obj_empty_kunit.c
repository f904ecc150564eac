// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite for bpf_obj_new() of an empty struct. A suite of its own:
 * before the patch that gives such an object a real allocation, the drop
 * oopses, and --each-patch builds this file only from that patch on
 * (kunit/Makefile), so the earlier prefixes keep their other suites.
 */
#include <kunit/test.h>
#include <linux/slab.h>

#include "graph_kunit.h"

/* An empty struct must get an object bpf_obj_drop() can free. */
static void obj_new_empty_struct(struct kunit *test)
{
	long live = graph_objs_live();
	void *p = graph_obj_new(0);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	KUNIT_EXPECT_PTR_NE(test, p, (void *)ZERO_SIZE_PTR);
	graph_obj_drop(p, NULL);
	KUNIT_EXPECT_EQ_MSG(test, graph_objs_live() - live, 0, "the empty object was not freed");
}

static struct kunit_case bpf_obj_empty_cases[] = {
	KUNIT_CASE(obj_new_empty_struct),
	{}
};

static struct kunit_suite bpf_obj_empty_suite = {
	.name = "bpf_graph_obj_empty",
	.test_cases = bpf_obj_empty_cases,
};

kunit_test_suites(&bpf_obj_empty_suite);

MODULE_LICENSE("GPL");
