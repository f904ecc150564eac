// SPDX-License-Identifier: GPL-2.0
/* Debug kernels only, linked after the suites: fail on any leak they left behind. */
#include "loader_run.h"

static void kmemleak_no_new_leaks(struct kunit *test)
{
	char since[24];
	char *args[] = { "--kmemleak", "end", since };

	KUNIT_ASSERT_NE_MSG(test, kmemleak_tests_start, 0,
			    "bpf_graph_kmemleak_begin did not run first");
	snprintf(since, sizeof(since), "%lu", kmemleak_tests_start);
	run_loader(test, "kmemleak_end", args, ARRAY_SIZE(args));
}

static struct kunit_case kmemleak_end_cases[] = {
	KUNIT_CASE(kmemleak_no_new_leaks),
	{}
};

static struct kunit_suite kmemleak_end_suite = {
	.name = "bpf_graph_kmemleak_end",
	.test_cases = kmemleak_end_cases,
};

kunit_test_suites(&kmemleak_end_suite);

MODULE_LICENSE("GPL");
