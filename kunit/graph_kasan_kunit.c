// SPDX-License-Identifier: GPL-2.0
/*
 * Debug kernels only (CONFIG_KASAN_KUNIT_TEST, which makes KASAN tell the
 * running KUnit test of a report, and CONFIG_BPF_GRAPH_OBJ_SLAB), linked last:
 * prove that KASAN sees a graph object after its bpf_obj_drop(). Without
 * that, a use after free in the kfuncs or the free paths would read a
 * recycled object and every --debug run would stay green.
 *
 * The report this provokes taints the kernel and turns lockdep off, so no
 * suite may run after this one; scripts/splat-allowlist names its line.
 */
#include <kunit/resource.h>
#include <kunit/test.h>

#include "../../../mm/kasan/kasan.h"
#include "graph_kunit.h"

/* Not inlined: the allowlist names this function in KASAN's report. */
static noinline u8 graph_obj_read_after_drop(u8 *p)
{
	return READ_ONCE(p[16]);
}

static void dropped_object_read_is_reported(struct kunit *test)
{
	/* KASAN records its report in the resource of this name. */
	static struct kunit_kasan_status status;
	static struct kunit_resource resource;
	u8 *p;

	KUNIT_ASSERT_EQ(test, kunit_add_named_resource(test, NULL, NULL, &resource,
						       "kasan_status", &status), 0);
	p = graph_obj_new(64);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p);
	graph_obj_drop(p);
	KUNIT_EXPECT_FALSE(test, READ_ONCE(status.report_found));
	graph_obj_read_after_drop(p);
	KUNIT_EXPECT_TRUE_MSG(test, READ_ONCE(status.report_found),
			      "KASAN did not report a read of a dropped graph object");
}

static struct kunit_case graph_kasan_cases[] = {
	KUNIT_CASE(dropped_object_read_is_reported),
	{}
};

static struct kunit_suite graph_kasan_suite = {
	.name = "bpf_graph_kasan",
	.test_cases = graph_kasan_cases,
};

kunit_test_suites(&graph_kasan_suite);

MODULE_LICENSE("GPL");
