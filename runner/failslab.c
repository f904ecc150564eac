// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's "failslab" mode: every slab and page allocation of a load,
 * failed in turn.
 *
 *   loader REPORT NAME OBJECT failslab PROG MAX
 *
 * For N = 1, 2, ...: with the kernel's fault injection set to fail the
 * N-th slab or page allocation of this thread from here on
 * (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC, /proc/thread-self/fail-nth,
 * which counts the calls of every enabled fault injection point), open
 * OBJECT and load PROG: BTF load, struct metas, map creation with graph
 * roots, the verifier's own allocations. If
 * it loads, run it once (a failed allocation there is bpf_obj_new()
 * returning NULL, which the program must handle). Close it and require
 * every graph object allocated to be freed. A load may fail with any
 * error; nothing may crash, splat or leak (with --debug, KASAN and kmemleak
 * watch the error paths too). Stops at the first N that the whole load and
 * run did not reach: each of its allocations has then failed once.
 * MAX and an 8 s budget bound N.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "failslab.h"

#define FAILSLAB	"/sys/kernel/debug/failslab/"
#define FAIL_PAGE	"/sys/kernel/debug/fail_page_alloc/"
#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define BUDGET_S	8	/* every run: keep it short; the bridge kills at 30 s */

static const unsigned char frame[64];

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(val, f) < 0 || fclose(f))
		return -errno ?: -EIO;
	return 0;
}

static int setup(const struct loader_env *env)
{
	static const char *const knobs[][2] = {
		{ FAILSLAB "ignore-gfp-wait", "N" },	/* GFP_KERNEL too */
		{ FAILSLAB "verbose", "0" },
		{ FAIL_PAGE "ignore-gfp-wait", "N" },
		{ FAIL_PAGE "ignore-gfp-highmem", "N" },
		{ FAIL_PAGE "min-order", "0" },		/* single pages too */
		{ FAIL_PAGE "verbose", "0" },
	};
	unsigned int i;
	int err;

	/* a usermode helper starts without /proc */
	mkdir("/proc", 0555);
	if (access(FAIL_NTH, F_OK) && mount("proc", "/proc", "proc", 0, NULL)) {
		env->say("FAIL: failslab: mounting /proc: %s", strerror(errno));
		return -errno;
	}
	for (i = 0; i < sizeof(knobs) / sizeof(*knobs); i++) {
		err = write_file(knobs[i][0], knobs[i][1]);
		if (err) {
			env->say("FAIL: failslab: writing %s: %s (CONFIG_FAILSLAB, "
				 "CONFIG_FAIL_PAGE_ALLOC, CONFIG_FAULT_INJECTION_DEBUG_FS)", knobs[i][0], strerror(-err));
			return err;
		}
	}
	return 0;
}

/* Fail the @n-th slab or page allocation of this thread from now on (0: none). */
static int arm(int n)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", n);
	return write_file(FAIL_NTH, buf);
}

/* What is left of the armed count: 0 once the fault was injected. If this
 * open is the allocation that fails, the load did not reach it: 1.
 */
static int injected(void)
{
	int left = -1, fd = open(FAIL_NTH, O_RDONLY);
	char buf[16] = "";

	if (fd < 0)
		return errno == ENOMEM ? 1 : -1;
	if (read(fd, buf, sizeof(buf) - 1) > 0)
		left = atoi(buf);
	close(fd);
	return left;
}

int run_failslab(const char *path, const char *name, int max,
		 const struct loader_env *env)
{
	int n, loads_failed = 0, runs = 0, failed = 0, left = 0;
	time_t start = time(NULL);
	bool out_of_time = false;

	if (setup(env))
		return 1;
	for (n = 1; n <= max; n++) {
		if (time(NULL) - start >= BUDGET_S) {
			out_of_time = true;
			break;
		}
		struct bpf_object *obj = NULL;
		struct bpf_program *prog = NULL, *p;
		int err;

		env->quiet(true);
		err = arm(n);
		if (!err)
			obj = bpf_object__open_file(path, NULL);
		if (obj)
			prog = bpf_object__find_program_by_name(obj, name);
		if (prog) {
			bpf_object__for_each_program(p, obj)
				bpf_program__set_autoload(p, p == prog);
			if (bpf_object__load(obj)) {
				loads_failed++;
			} else {
				LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
					    .data_size_in = sizeof(frame), .repeat = 1);

				if (!bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
					runs++;
			}
		}
		left = injected();
		arm(0);
		env->quiet(false);
		if (err || left < 0) {
			env->say("FAIL: failslab: %s " FAIL_NTH " (N=%d): %s", err ? "arming" : "reading",
				 n, strerror(err ? -err : EIO));
			return 1;
		}
		bpf_object__close(obj);
		if (env->all_freed()) {
			env->say("FAIL: failslab: %s: failing allocation %d leaks graph objects",
				 name, n);
			failed = 1;
		}
		if (left)
			break;	/* the load and run needed fewer than n allocations */
	}
	if (!left && !out_of_time) {
		env->say("FAIL: failslab: %s needs more than %d allocations; raise MAX", name, max);
		failed = 1;
	}
	env->say("%s: failslab: %s: %s %d allocations failed once: "
		 "%d loads failed, %d loaded and ran", failed ? "FAIL" : "ok", name,
		 left ? "each of its" : "the first", n - 1, loads_failed, runs);
	return failed;
}
