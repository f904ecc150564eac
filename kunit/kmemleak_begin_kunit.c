// SPDX-License-Identifier: GPL-2.0
/*
 * Debug kernels only, linked first: forget the leak suspects that exist
 * before the tests (the stock kernel leaks a few ACPI objects at boot), so
 * that bpf_graph_kmemleak_end reports only what the suites leaked.
 */
#include <linux/jiffies.h>

#include "loader_run.h"

unsigned long kmemleak_tests_start;

static void kmemleak_clear_boot_suspects(struct kunit *test)
{
	char *args[] = { "--kmemleak", "begin" };

	kmemleak_tests_start = jiffies;
	run_loader(test, "kmemleak_begin", args, ARRAY_SIZE(args));
}

static struct kunit_case kmemleak_begin_cases[] = {
	KUNIT_CASE(kmemleak_clear_boot_suspects),
	{}
};

static struct kunit_suite kmemleak_begin_suite = {
	.name = "bpf_graph_kmemleak_begin",
	.test_cases = kmemleak_begin_cases,
};

kunit_test_suites(&kmemleak_begin_suite);

MODULE_LICENSE("GPL");
