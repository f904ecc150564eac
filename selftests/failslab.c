// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's "failslab" mode: every slab allocation of a load, failed in
 * turn.
 *
 *   loader REPORT NAME OBJECT failslab PROG MAX
 *
 * For N = 1..MAX: with the kernel's fault injection (CONFIG_FAILSLAB,
 * task-filtered to this process through /proc/self/make-it-fail) set to
 * fail one slab allocation among the next N (interval N, once: the
 * kernel's count runs on, so each N hits another allocation), open OBJECT
 * and load PROG: BTF load, struct metas, map creation with graph roots,
 * the verifier's own allocations. If it loads, run it once (a failed
 * allocation there is bpf_obj_new() returning NULL, which the program
 * must handle). Close it and require every graph object allocated to be
 * freed. A load may fail with any error; nothing may crash, splat or leak
 * (with --debug, KASAN and kmemleak watch the error paths too).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include "failslab.h"

#define FAILSLAB	"/sys/kernel/debug/failslab/"

static const unsigned char frame[64];

static int write_file(const char *path, const char *val)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(val, f) < 0 || fclose(f))
		return -errno ?: -EIO;
	return 0;
}

static int setup(const struct failslab_env *env)
{
	static const char *const knobs[][2] = {
		{ FAILSLAB "task-filter", "Y" },	/* only tasks with make-it-fail */
		{ FAILSLAB "ignore-gfp-wait", "N" },	/* GFP_KERNEL too */
		{ FAILSLAB "probability", "100" },
		{ FAILSLAB "verbose", "0" },
		{ FAILSLAB "space", "0" },
	};
	unsigned int i;
	int err;

	/* a usermode helper starts without /proc */
	mkdir("/proc", 0555);
	if (access("/proc/self/make-it-fail", F_OK) && mount("proc", "/proc", "proc", 0, NULL)) {
		env->say("FAIL: failslab: mounting /proc: %s", strerror(errno));
		return -errno;
	}
	for (i = 0; i < sizeof(knobs) / sizeof(*knobs); i++) {
		err = write_file(knobs[i][0], knobs[i][1]);
		if (err) {
			env->say("FAIL: failslab: writing %s: %s (CONFIG_FAILSLAB, "
				 "CONFIG_FAULT_INJECTION_DEBUG_FS)", knobs[i][0], strerror(-err));
			return err;
		}
	}
	return 0;
}

/* Fail one slab allocation of this task among the next @n (0: none). The
 * write that disarms may itself be the one that fails: then try again,
 * the fault is spent.
 */
static int arm(int n)
{
	char buf[16];
	int err;

	if (!n) {
		err = write_file("/proc/self/make-it-fail", "0");
		return err ? write_file("/proc/self/make-it-fail", "0") : 0;
	}
	snprintf(buf, sizeof(buf), "%d", n);
	err = write_file(FAILSLAB "interval", buf) ?: write_file(FAILSLAB "times", "1");
	return err ?: write_file("/proc/self/make-it-fail", "1");
}

/* Whether the fault was injected: "times" counts down to 0 when it was. */
static bool injected(void)
{
	FILE *f = fopen(FAILSLAB "times", "r");
	int left = -1;

	if (f) {
		if (fscanf(f, "%d", &left) != 1)
			left = -1;
		fclose(f);
	}
	return left == 0;
}

int run_failslab(const char *path, const char *name, int max,
		 const struct failslab_env *env)
{
	int n, hit = 0, loads_failed = 0, runs = 0, failed = 0, err;

	if (setup(env))
		return 1;
	for (n = 1; n <= max; n++) {
		struct bpf_object *obj = NULL;
		struct bpf_program *prog, *p;

		env->quiet(true);
		err = arm(n);
		if (!err)
			obj = bpf_object__open_file(path, NULL);
		prog = obj ? bpf_object__find_program_by_name(obj, name) : NULL;
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
		err = arm(0) ?: err;
		env->quiet(false);
		if (err) {
			env->say("FAIL: failslab: arming the fault (N=%d): %s", n, strerror(-err));
			return 1;
		}
		hit += injected();
		bpf_object__close(obj);
		if (env->all_freed()) {
			env->say("FAIL: failslab: %s: a failed slab allocation (N=%d) leaks "
				 "graph objects", name, n);
			failed = 1;
		}
	}
	env->say("%s: failslab: %s: %d attempts, %d with a failed allocation: "
		 "%d loads failed, %d loaded and ran", failed ? "FAIL" : "ok", name, max,
		 hit, loads_failed, runs);
	return failed;
}
