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
 *   and the syscalls that copy that value (value_bytes.c).
 *
 *   loader REPORT PROG OBJECT stress DRAIN OPS
 *     load PROG and DRAIN, run PROG OPS times on every CPU at once while
 *     map elements holding its roots come and go, then drain the roots
 *     with DRAIN and check that no node was lost (stress.c).
 *
 *   loader REPORT NAME OBJECT mutate SEED COUNT
 *     COUNT seeded random mutants of each SEC("tc") program of OBJECT
 *     are loaded, and run if the verifier accepts them; none may leak
 *     (mutate.c).
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
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/vfs.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "btf_cases.h"
#include "caps.h"
#include "table_msgs.h"
#include "iter_attach.h"
#include "log_check.h"
#include "value_bytes.h"
#include "bench.h"
#include "failslab.h"
#include "gen.h"
#include "mutate.h"
#include "report.h"
#include "stress.h"
#include "test_verifier_run.h"

#define SELFTEST_DIR	"/selftests"
#define DEBUGFS		"/sys/kernel/debug"
#define GRAPH_OBJS	DEBUGFS "/bpf_graph_objs"
#define FREE_TIMEOUT_MS	10000

/* The verifier log asked for with __log_level, checked by __msg. */
static char level_log[1 << 20];

/*
 * A program's annotations (bpf_misc.h): its decl tags "comment:test_KEY=..."
 * in the object's BTF, in source order. Returns the number found, at most
 * @max, the values in @vals.
 */
static int prog_tags(struct bpf_object *obj, const char *prog, const char *key,
		     const char **vals, int max)
{
	struct btf *btf = bpf_object__btf(obj);
	size_t klen = strlen(key);
	int id, n = 0;

	for (id = 1; btf && id < (int)btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id), *target;
		const char *tag;

		if (!btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1)
			continue;
		target = btf__type_by_id(btf, t->type);
		if (!btf_is_func(target) ||
		    strcmp(btf__name_by_offset(btf, target->name_off), prog))
			continue;
		tag = btf__name_by_offset(btf, t->name_off);
		if (strncmp(tag, "comment:test_", 13) || strncmp(tag + 13, key, klen) ||
		    tag[13 + klen] != '=')
			continue;
		if (n < max)
			vals[n] = tag + 14 + klen;
		n++;
	}
	return n;
}

#define MAX_MSGS 32

/*
 * A program expected to fail: its __msg annotations into @msgs, and its
 * __log_level, if any, set on @prog with level_log as the buffer.
 */
static int fail_annotations(struct bpf_object *obj, struct bpf_program *prog,
			    const char **msgs, int *nr_msgs)
{
	const char *name = bpf_program__name(prog), *level;

	*nr_msgs = prog_tags(obj, name, "expect_msg", msgs, MAX_MSGS);
	if (*nr_msgs > MAX_MSGS) {
		say("FAIL: %s has %d __msg, at most %d are read", name, *nr_msgs, MAX_MSGS);
		return 1;
	}
	if (prog_tags(obj, name, "log_level", &level, 1) != 1)
		return 0;
	if (bpf_program__set_log_buf(prog, level_log, sizeof(level_log)) ||
	    bpf_program__set_log_level(prog, atoi(level))) {
		say("FAIL: cannot set log level %s", level);
		return 1;
	}
	return 0;
}

/* __flag(FLAG): the BPF_F_* program flags it names, added to the load's. */
static int set_prog_flags(struct bpf_object *obj, struct bpf_program *prog)
{
	static const struct {
		const char *name;
		__u32 flag;
	} known[] = {
		{ "BPF_F_STRICT_ALIGNMENT", BPF_F_STRICT_ALIGNMENT },
		{ "BPF_F_ANY_ALIGNMENT", BPF_F_ANY_ALIGNMENT },
		{ "BPF_F_TEST_STATE_FREQ", BPF_F_TEST_STATE_FREQ },
	};
	const char *flags[4];
	int n = prog_tags(obj, bpf_program__name(prog), "prog_flags", flags, 4), i;
	unsigned int k;

	for (i = 0; i < n && i < 4; i++) {
		for (k = 0; k < sizeof(known) / sizeof(known[0]); k++)
			if (!strcmp(flags[i], known[k].name))
				break;
		if (k == sizeof(known) / sizeof(known[0])) {
			say("FAIL: __flag(%s): not a flag the loader knows", flags[i]);
			return 1;
		}
		bpf_program__set_flags(prog, bpf_program__flags(prog) | known[k].flag);
	}
	return 0;
}

/* Ethernet + IPv4 + TCP, 54 bytes: enough for any tc program. */
static const unsigned char packet[54] = {
	0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 1, 0x08, 0x00,
	0x45, 0, 0, 40, 0, 1, 0, 0, 64, 6, 0, 0, 127, 0, 0, 1, 127, 0, 0, 1,
	0x30, 0x39, 0, 80, 0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x02, 0x20, 0, 0, 0, 0, 0,
};

/* Find global variable @name in the object's data sections and read it. */
static int read_global(struct bpf_object *obj, const char *name, long long *val)
{
	struct btf *btf = bpf_object__btf(obj);
	struct bpf_map *map;

	bpf_object__for_each_map(map, obj) {
		const struct btf_var_secinfo *vs;
		const struct btf_type *sec;
		unsigned char *value;
		int i, key = 0;

		if (!bpf_map__is_internal(map) || !btf)
			continue;
		sec = btf__type_by_id(btf, bpf_map__btf_value_type_id(map));
		if (!sec || !btf_is_datasec(sec))
			continue;
		vs = btf_var_secinfos(sec);
		for (i = 0; i < btf_vlen(sec); i++, vs++) {
			const struct btf_type *var = btf__type_by_id(btf, vs->type);

			if (strcmp(btf__name_by_offset(btf, var->name_off), name))
				continue;
			value = calloc(1, bpf_map__value_size(map));
			if (!value || bpf_map_lookup_elem(bpf_map__fd(map), &key, value))
				return -errno;
			switch (vs->size) {
			case 1: *val = *(signed char *)(value + vs->offset); break;
			case 2: *val = *(short *)(value + vs->offset); break;
			case 4: *val = *(int *)(value + vs->offset); break;
			case 8: *val = *(long long *)(value + vs->offset); break;
			default: free(value); return -EINVAL;
			}
			free(value);
			return 0;
		}
	}
	return -ENOENT;
}

/* A usermode helper starts without debugfs; returns 0 or 1 (reported). */
static int mount_debugfs(void)
{
	struct statfs fs;

	mkdir(DEBUGFS, 0755);
	if ((statfs(DEBUGFS, &fs) || fs.f_type != DEBUGFS_MAGIC) &&
	    mount("debugfs", DEBUGFS, "debugfs", 0, NULL)) {
		say("FAIL: mounting debugfs: %s", strerror(errno));
		return 1;
	}
	return 0;
}

struct graph_objs {
	long allocated;
	long freed;
};

static struct graph_objs at_load;	/* the counts before the object was opened */
static int read_graph_objs(struct graph_objs *c)
{
	FILE *f;
	int n;

	f = fopen(GRAPH_OBJS, "r");
	if (!f) {
		say("FAIL: cannot read %s (the harness's graph_obj_hooks.c): %s",
		    GRAPH_OBJS, strerror(errno));
		return 1;
	}
	n = fscanf(f, "allocated %ld freed %ld", &c->allocated, &c->freed);
	fclose(f);
	if (n != 2) {
		say("FAIL: %s: unexpected format", GRAPH_OBJS);
		return 1;
	}
	return 0;
}

/* The objects allocated and freed since the load, from one read. */
static int read_since_load(struct graph_objs *since)
{
	if (read_graph_objs(since))
		return 1;
	since->allocated -= at_load.allocated;
	since->freed -= at_load.freed;
	return 0;
}

/* @allocated and @live, counted since the load; 0 or -errno. */
static int read_graph_count(const char *name, long long *val)
{
	struct graph_objs since;

	if (read_since_load(&since))
		return -EIO;
	if (!strcmp(name, "@allocated"))
		*val = since.allocated;
	else if (!strcmp(name, "@live"))
		*val = since.allocated - since.freed;
	else
		return -ENOENT;
	return 0;
}

/*
 * @allocated, or @live once it has come down to @want: objects freed after
 * an RCU grace period (a deleted hash element's nodes) are counted late,
 * and after the run @live can only fall. A count above @want after
 * FREE_TIMEOUT_MS, or below it, is the count.
 */
static int settled_graph_count(const char *name, long long want, long long *val)
{
	int ms, err = read_graph_count(name, val);

	for (ms = 0; !err && !strcmp(name, "@live") && *val > want && ms < FREE_TIMEOUT_MS;
	     ms += 10) {
		usleep(10000);
		err = read_graph_count(name, val);
	}
	return err;
}

/*
 * The object is closed: its maps go, and with them every graph object
 * still in them. Map free runs in a worker after an RCU grace period, so
 * give it time.
 */
#define BPF_LOG_STATS_LEVEL	4
static char stats_log[1 << 16];

/* The numbers of "processed N insns (limit L) max_states_per_insn M
 * total_states T peak_states P mark_read R" and "verification time U usec"
 * in @log, as one "stats:" line for check_results.py's CSV.
 */
static void say_stats(const char *prog, int err, const char *log)
{
	long insns = -1, total = -1, peak = -1, usec = -1;
	const char *at;

	if (log && (at = strstr(log, "processed ")))
		sscanf(at, "processed %ld insns (limit %*d) max_states_per_insn %*d "
		       "total_states %ld peak_states %ld", &insns, &total, &peak);
	if (log && (at = strstr(log, "verification time ")))
		sscanf(at, "verification time %ld usec", &usec);
	say("stats: %s verdict=%s insns=%ld total_states=%ld peak_states=%ld time_us=%ld",
	    prog, err ? "refused" : "accepted", insns, total, peak, usec);
}

static int wait_all_freed(bool verbose)
{
	struct graph_objs since;
	long live = 0;
	int ms;

	for (ms = 0; ms <= FREE_TIMEOUT_MS; ms += 10) {
		if (read_since_load(&since))
			return 1;
		live = since.allocated - since.freed;
		if (!live) {
			if (verbose)
				say("ok: closed, the %ld graph object(s) allocated since the load are freed",
				    since.allocated);
			return 0;
		}
		usleep(10000);
	}
	say("FAIL: %ld graph object(s) not freed %d ms after the object was closed "
	    "(expected @live == 0 after close, actual %ld)", live, FREE_TIMEOUT_MS, live);
	return 1;
}

static int check_all_freed(void)
{
	return wait_all_freed(true);
}

static int all_freed_quietly(void)
{
	return wait_all_freed(false);
}

/* for the modes that load many programs */
static const struct loader_env many_loads_env = {
	.say = say, .quiet = set_libbpf_quiet, .all_freed = all_freed_quietly,
};

static int run_prog(struct bpf_object *obj, struct bpf_program *prog,
		    int nr_checks, char **checks)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet,
		    .data_size_in = sizeof(packet), .repeat = 1);
	long long want_ret = 0;
	int i, err, failed = 0;

	for (i = 0; i < nr_checks; i++)
		if (!strncmp(checks[i], "@retval=", 8))
			want_ret = strtoll(checks[i] + 8, NULL, 0);
	err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
	if (err) {
		say("FAIL: BPF_PROG_TEST_RUN: %s", strerror(errno));
		return 1;
	}
	if ((int)opts.retval != want_ret) {
		say("FAIL: expected return value %lld, actual %d", want_ret, (int)opts.retval);
		failed = 1;
	}
	for (i = 0; i < nr_checks; i++) {
		char *eq = strchr(checks[i], '=');
		long long want, got = 0;

		if (!strncmp(checks[i], "@retval=", 8))
			continue;
		if (!eq) {
			say("FAIL: bad check '%s' (want GLOBAL=VALUE)", checks[i]);
			return 1;
		}
		*eq = '\0';
		want = strtoll(eq + 1, NULL, 0);
		if (checks[i][0] == '@')
			err = settled_graph_count(checks[i], want, &got);
		else
			err = read_global(obj, checks[i], &got);
		if (err) {
			say("FAIL: cannot read global %s: %s", checks[i], strerror(-err));
			failed = 1;
		} else if (got != want) {
			say("FAIL: expected %s == %lld, actual %lld", checks[i], want, got);
			failed = 1;
		} else {
			say("ok: %s == %lld", checks[i], got);
		}
	}
	if (!failed)
		say("ok: ran once, returned %lld, in %u ns", want_ret, opts.duration);
	return failed;
}

/* libbpf needs kernel BTF from sysfs; a usermode helper starts without it. */
static void mount_sysfs(void)
{
	if (!access("/sys/kernel/btf/vmlinux", R_OK))
		return;
	mkdir("/sys", 0755);
	if (mount("sysfs", "/sys", "sysfs", 0, NULL))
		say("warning: mounting sysfs: %s", strerror(errno));
}

/*
 * Print the kmemleak suspects allocated at or after jiffies @since; return
 * how many. Older ones are boot-time leaks of the stock kernel (early ACPI
 * caches), which may turn unreferenced only after the first scan.
 */
static int report_leaks(char *text, unsigned long since)
{
	char *obj = strstr(text, "unreferenced object"), *next, *j;
	int leaks = 0, old = 0;

	while (obj) {
		next = strstr(obj + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		j = strstr(obj, "jiffies ");
		if (j && strtoul(j + 8, NULL, 10) < since) {
			old++;
		} else {
			if (!leaks++)
				say("FAIL: kmemleak found leaks:");
			say("%s", obj);
		}
		obj = next;
	}
	say("kmemleak: %d suspect(s) from the tests, %d from boot ignored", leaks, old);
	return leaks;
}

static int kmemleak_cmd(const char *ctl, const char *cmd)
{
	FILE *f = fopen(ctl, "w");

	if (!f || fputs(cmd, f) < 0 || fclose(f)) {
		say("FAIL: writing '%s' to %s: %s", cmd, ctl, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * begin: scan and clear the suspects from boot. end SINCE: scan and fail
 * on any suspect allocated since jiffies SINCE. kmemleak reports only
 * objects older than 5 s, so wait that long before each scan.
 */
static int kmemleak(const char *phase, const char *since)
{
	const char *ctl = DEBUGFS "/kmemleak";
	char *suspects = NULL;
	size_t len = 0;
	FILE *f;

	if (mount_debugfs())
		return 1;
	sleep(6);
	if (kmemleak_cmd(ctl, "scan"))
		return 1;
	if (!strcmp(phase, "begin")) {
		if (kmemleak_cmd(ctl, "clear"))
			return 1;
		say("ok: kmemleak suspects from boot cleared");
		return 0;
	}
	if (!since) {
		say("FAIL: kmemleak end needs the jiffies the tests began at");
		return 1;
	}
	f = fopen(ctl, "r");
	if (!f) {
		say("FAIL: cannot read %s: %s", ctl, strerror(errno));
		return 1;
	}
	if (getdelim(&suspects, &len, '\0', f) < 0 || !*suspects) {
		say("ok: kmemleak found no leak");
		return 0;
	}
	return report_leaks(suspects, strtoul(since, NULL, 10)) ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct bpf_program *prog, *p, *drain;
	const char *msgs[MAX_MSGS], *name, *caps = NULL;
	struct bpf_object *obj;
	int nr_msgs = 0, tabled = -1;
	char path[256];
	int err, ret = 0;

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
	if (argc < 5 || (strcmp(argv[4], "pass") && strcmp(argv[4], "fail") &&
			 strcmp(argv[4], "load") && strcmp(argv[4], "btf") &&
			 strcmp(argv[4], "stress") && strcmp(argv[4], "mutate") &&
			 strcmp(argv[4], "failslab") && strcmp(argv[4], "bench") &&
			 strcmp(argv[4], "gen")))
		return 2;
	if (!strcmp(argv[4], "stress") && argc != 7) {
		say("FAIL: stress needs DRAIN and OPS");
		return 1;
	}
	libbpf_set_print(libbpf_log);
	if (!strcmp(argv[4], "btf")) {
		say("BTF case: %s, expect: %s", argv[2], argc > 5 ? argv[5] : "?");
		return run_btf_case(argv[2], argc > 5 ? argv[5] : "?", say);
	}

	snprintf(path, sizeof(path), SELFTEST_DIR "/%s", argv[3]);
	/* the test NAME:PROG of a file of upstream's (derive_manifest.py) */
	name = strrchr(argv[2], ':');
	name = name ? name + 1 : argv[2];
	say("object: %s, program: %s, expect: %s", path, name, argv[4]);
	if (mount_debugfs() || read_graph_objs(&at_load))
		return 1;
	if (!strcmp(argv[4], "bench")) {
		obj = bpf_object__open_file(path, NULL);
		if (argc != 6 || !obj || bpf_object__load(obj)) {
			say("FAIL: bench: cannot load %s (bench needs N[,N...])", path);
			return 1;
		}
		ret = run_bench(obj, argv[5], say);
		bpf_object__close(obj);
		return check_all_freed() ? 1 : ret;
	}
	if (!strcmp(argv[4], "failslab")) {
		if (argc != 7) {
			say("FAIL: failslab needs PROG and MAX");
			return 1;
		}
		ret = run_failslab(path, argv[5], atoi(argv[6]), &many_loads_env);
		return check_all_freed() ? 1 : ret;
	}
	if (!strcmp(argv[4], "gen")) {
		if (argc != 7) {
			say("FAIL: gen needs SEED and COUNT");
			return 1;
		}
		ret = run_gen(strtoul(argv[5], NULL, 0), atoi(argv[6]), &many_loads_env);
		return check_all_freed() ? 1 : ret;
	}
	if (!strcmp(argv[4], "mutate")) {
		if (argc != 7) {
			say("FAIL: mutate needs SEED and COUNT");
			return 1;
		}
		ret = run_mutants(path, strtoul(argv[5], NULL, 0), atoi(argv[6]), &many_loads_env);
		return check_all_freed() ? 1 : ret;
	}
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		say("FAIL: cannot open %s: %s", path, strerror(errno));
		return 1;
	}
	prog = bpf_object__find_program_by_name(obj, name);
	if (!prog) {
		say("FAIL: program %s not found in %s", name, path);
		return 1;
	}
	drain = !strcmp(argv[4], "stress") ? bpf_object__find_program_by_name(obj, argv[5]) : NULL;
	if (!strcmp(argv[4], "stress") && !drain) {
		say("FAIL: program %s not found in %s", argv[5], path);
		return 1;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog || p == drain);
	/* the verifier's statistics of a program expected to load; a failing
	 * one logs at level 1 (libbpf's retry), which has them too
	 */
	if (strcmp(argv[4], "fail"))
		bpf_program__set_log_buf(prog, stats_log, sizeof(stats_log)) ?:
		bpf_program__set_log_level(prog, BPF_LOG_STATS_LEVEL);
	else
		ret = fail_annotations(obj, prog, msgs, &nr_msgs);
	if (ret)
		return ret;
	if (!strcmp(argv[4], "fail") && !nr_msgs) {
		tabled = table_msgs(EXPECTED_DIR, argv[2], msgs, MAX_MSGS);
		nr_msgs = tabled < 0 ? 0 : tabled;
	}

	if (set_prog_flags(obj, prog))
		return 1;
	if (prog_tags(obj, name, "caps_only", &caps, 1) == 1 && caps_narrow(caps, say))
		return 1;
	err = bpf_object__load(obj);
	if (caps && caps_restore()) {
		say("FAIL: cannot restore the loader's capabilities");
		return 1;
	}
	if (err && level_log[0])	/* libbpf prints only a log of its own */
		append_log("prog '%s': -- BEGIN PROG LOAD LOG --\n%s-- END PROG LOAD LOG --\n",
			   name, level_log);
	say_stats(argv[2], err, strcmp(argv[4], "fail") ? stats_log : libbpf_log_text());
	if (err && strcmp(argv[4], "fail")) {
		/* for the report: the verifier's words, at level 1 */
		bpf_object__close(obj);
		obj = bpf_object__open_file(path, NULL);
		if (obj) {
			prog = bpf_object__find_program_by_name(obj, name);
			bpf_object__for_each_program(p, obj)
				bpf_program__set_autoload(p, p == prog || p == drain);
			bpf_object__load(obj);
		}
	}
	if (!strcmp(argv[4], "fail")) {
		if (!err) {
			say("FAIL: expected the load to fail, but it succeeded");
			ret = 1;
		} else {
			ret = check_log(argv[2], msgs, nr_msgs, libbpf_log_text(), tabled >= 0);
		}
	} else if (err) {
		say("FAIL: load failed: %s", strerror(-err));
		say_load_errors();
		ret = 1;
	} else if (!strcmp(argv[4], "load")) {
		const char *iter;

		say("ok: loaded (a load test: the program is not run)");
		if (prog_tags(obj, name, "iter_attach", &iter, 1) == 1)
			ret = iter_attach_check(obj, prog, iter, say);
	} else if (drain) {
		struct stress_env env = {
			.say = say, .read_global = read_global,
			.read_graph_count = read_graph_count,
		};

		ret = run_stress(obj, prog, drain, strtol(argv[6], NULL, 0), &env);
	} else {
		const char *bytes_map;
		bool bytes = prog_tags(obj, name, "value_bytes", &bytes_map, 1) == 1;

		ret = bytes ? value_bytes_seed(obj, bytes_map, say) : 0;
		ret = ret ?: run_prog(obj, prog, argc - 5, argv + 5);
		if (!ret && bytes)
			ret = value_bytes_check(obj, bytes_map, say);
	}
	bpf_object__close(obj);
	return check_all_freed() ? 1 : ret;
}
