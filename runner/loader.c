// SPDX-License-Identifier: GPL-2.0
/*
 * Selftest loader, run in the guest by the bpf_graph_progs KUnit suite as a
 * usermode helper (no open fds, no /sys): loads one program of one BPF
 * object and either runs it or checks that loading fails as expected.
 *
 * The manifest lines are derived from the programs' annotations
 * (bpf_misc.h, scripts/derive_manifest.py); --list-builtin prints those of
 * the tests that are not programs (btf, gen).
 *
 *   loader REPORT PROG OBJECT pass [@retval=N] [GLOBAL=VALUE ...]
 *     load PROG alone, run it once with BPF_PROG_TEST_RUN on a small IPv4
 *     packet, require return value N (default 0) and each GLOBAL (a
 *     variable in the object's global data) to equal VALUE. Two names are
 *     counts of graph objects since the load instead: @allocated (handed
 *     out by bpf_obj_new) and @live (handed out and not freed yet).
 *   loader REPORT PROG OBJECT load
 *     require PROG to load, for program types that BPF_PROG_TEST_RUN cannot
 *     run here (fentry needs an attached trampoline): the verifier's verdict
 *     is the test.
 *   loader REPORT PROG OBJECT fail
 *     require the load to fail, each of PROG's __msg annotations to match
 *     the log in order (at its __log_level, if any), and every line of
 *     /expected-logs/PROG.log, if there is one, to appear, in order, as a
 *     whole line of the log (libbpf's messages and the verifier log). A
 *     program without __msg of a file of upstream's takes the messages of
 *     upstream's test table from /expected-logs/PROG.msg (table_msgs.c).
 *
 *   A program annotated __caps_only(NAMES) is loaded with only those
 *   capabilities effective (caps.c); a load test annotated
 *   __iter_attach(MAP, ERRNO) is attached as a map element iterator to
 *   MAP, which must end in ERRNO (iter_attach.c). A program annotated
 *   __value_bytes(MAP) runs between a write of MAP's key 0 from user space
 *   and the syscalls that copy that value (value_bytes.c); one annotated
 *   __tail_call(MAP, TARGET) runs with the object's program TARGET at
 *   index 0 of its prog array MAP (tail_call.c); an extension program
 *   annotated __replaces(TARGET, FUNC) replaces the global function FUNC
 *   of the object's program TARGET, loaded first (freplace.c).
 *
 *   loader REPORT PROG OBJECT stress DRAIN OPS
 *     load PROG and DRAIN, run PROG OPS times on every CPU at once while
 *     map elements holding its roots come and go, then drain the roots
 *     with DRAIN and check that no node was lost (stress.c).
 *
 *   loader REPORT NAME OBJECT mutate SEED COUNT
 *     COUNT seeded random mutants of each SEC("tc") program of OBJECT
 *     are loaded, and run if the verifier accepts them; none may leak
 *     (generators/mutate.c).
 *
 *   loader REPORT NAME OBJECT failslab PROG MAX
 *     MAX loads of PROG, each with one of its slab allocations failed by
 *     the kernel's fault injection; none may leak (failslab.c).
 *
 *   loader REPORT NAME OBJECT bench N[,N...]
 *     the BPF rbtree against the same tree in C, in ns per operation
 *     (bench.c; ./run_tests.sh --rbtree-bench).
 *
 *   loader REPORT CASE - btf ERRNO
 *     build BTF case CASE by hand (btf_cases.c) and require
 *     btf__load_into_kernel() to end in ERRNO (a name such as ENOENT, or 0).
 *
 *   loader REPORT --kmemleak begin | end SINCE
 *     (debug kernels) begin: forget the leak suspects from boot; end: fail
 *     on any leak suspect allocated since jiffies SINCE.
 *
 *   loader REPORT --test-verifier DIR
 *     run 6.1's test_verifier from DIR, one signature per case variant
 *     (test_verifier_run.c; the KUnit suite bpf_test_verifier).
 *
 * After pass, load and fail, the object is closed, and every graph object
 * allocated since the load must be freed with its maps within
 * FREE_TIMEOUT_MS (the count is the harness's, kunit/graph_obj_hooks.c).
 *
 * Everything goes to REPORT; the exit status is the verdict (0 = passed).
 * "actual-error: " lines name the actual errors; "bless-line: " lines are what
 * ./run_tests.sh --bless writes into the expected log.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "btf_cases.h"
#include "failslab.h"
#include "gen.h"
#include "graph_objs.h"
#include "kmemleak.h"
#include "log_check.h"
#include "mounts.h"
#include "mutate.h"
#include "prog_test.h"
#include "report.h"
#include "test_verifier_run.h"

#define SELFTEST_DIR	"/selftests"

/* for the modes that load many programs */
static const struct loader_env many_loads_env = {
	.say = say, .quiet = set_libbpf_quiet, .all_freed = graph_objs_all_freed_quietly,
};

static int btf_mode(const char *path, int argc, char **argv)
{
	const char *expect = argc > 5 ? argv[5] : "?";

	say("BTF case: %s, expect: %s", argv[2], expect);
	return run_btf_case(argv[2], expect, say);
}

static int bench_mode(const char *path, int argc, char **argv)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	int ret;

	if (!obj || bpf_object__load(obj)) {
		say("FAIL: bench: cannot load %s", path);
		return 1;
	}
	ret = run_bench(obj, argv[5], say);
	bpf_object__close(obj);
	return ret;
}

static int failslab_mode(const char *path, int argc, char **argv)
{
	return run_failslab(path, argv[5], atoi(argv[6]), &many_loads_env);
}

static int gen_mode(const char *path, int argc, char **argv)
{
	return run_gen(strtoul(argv[5], NULL, 0), atoi(argv[6]), &many_loads_env);
}

static int mutate_mode(const char *path, int argc, char **argv)
{
	return run_mutants(path, strtoul(argv[5], NULL, 0), atoi(argv[6]), &many_loads_env);
}

/*
 * The modes of "loader REPORT NAME OBJECT MODE ARGS...": @nargs ARGS
 * (-1: any number), named @args in the message when they are not; a mode
 * that @counts graph objects fails when one it allocated is not freed.
 */
static const struct mode {
	const char *name;
	int nargs;
	const char *args;
	bool counts;
	int (*run)(const char *path, int argc, char **argv);
} modes[] = {
	{ "pass",	-1, NULL,		true,	run_prog_test },
	{ "load",	-1, NULL,		true,	run_prog_test },
	{ "fail",	-1, NULL,		true,	run_prog_test },
	{ "stress",	2, "DRAIN and OPS",	true,	run_prog_test },
	{ "btf",	-1, NULL,		false,	btf_mode },
	{ "bench",	1, "N[,N...]",		true,	bench_mode },
	{ "failslab",	2, "PROG and MAX",	true,	failslab_mode },
	{ "gen",	2, "SEED and COUNT",	true,	gen_mode },
	{ "mutate",	2, "SEED and COUNT",	true,	mutate_mode },
};

int main(int argc, char **argv)
{
	const struct mode *m = NULL;
	const char *name;
	char path[256];
	unsigned int i;
	int ret;

	if (argc == 2 && !strcmp(argv[1], "--list-builtin")) {
		/* the tests that are not programs in an object */
		list_btf_cases(stdout);
		list_gen_runs(stdout);
		return 0;
	}
	if (argc < 4)
		return 2;
	if (report_open(argv[1]))
		return 2;
	mount_sysfs();
	if (!strcmp(argv[2], "--kmemleak"))
		return kmemleak(argv[3], argc > 4 ? argv[4] : NULL);
	if (!strcmp(argv[2], "--test-verifier"))
		return run_test_verifier(argv[3], say);
	for (i = 0; argc >= 5 && i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[4], modes[i].name))
			m = &modes[i];
	if (!m)
		return 2;
	if (m->nargs >= 0 && argc != 5 + m->nargs) {
		say("FAIL: %s needs %s", m->name, m->args);
		return 1;
	}
	libbpf_set_print(libbpf_log);
	snprintf(path, sizeof(path), SELFTEST_DIR "/%s", argv[3]);
	if (!m->counts)
		return m->run(path, argc, argv);
	name = strrchr(argv[2], ':');
	say("object: %s, program: %s, expect: %s", path, name ? name + 1 : argv[2], argv[4]);
	if (graph_objs_begin())
		return 1;
	ret = m->run(path, argc, argv);
	return graph_objs_all_freed() ? 1 : ret;
}
