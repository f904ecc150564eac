/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __BPF_GRAPH_LOADER_RUN_H
#define __BPF_GRAPH_LOADER_RUN_H

#include <kunit/test.h>

#define SELFTEST_DIR	"/selftests"
#define LOADER		SELFTEST_DIR "/loader"
#define LOADER_MAX_ARGS	16

/* jiffies when the bpf_graph_kmemleak_begin suite ran (debug kernels) */
extern unsigned long kmemleak_tests_start;

/* @path's content, NUL-terminated, vmalloc()ed; ERR_PTR(-errno) on failure */
char *read_text_file(const char *path, size_t max_size);

void run_loader(struct kunit *test, const char *name, char *const *args,
		int nr_args);
void run_loader_timeout(struct kunit *test, const char *name, char *const *args,
			int nr_args, int timeout_s);

#endif
