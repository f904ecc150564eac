// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's modes that load one program (prog_test.h): pass, load,
 * fail and stress.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "caps.h"
#include "freplace.h"
#include "graph_objs.h"
#include "iter_attach.h"
#include "tail_call.h"
#include "log_check.h"
#include "prog_test.h"
#include "report.h"
#include "stress.h"
#include "table_msgs.h"
#include "value_bytes.h"

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
			err = graph_objs_settled(checks[i], want, &got);
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

int run_prog_test(const char *path, int argc, char **argv)
{
	const char *msgs[MAX_MSGS], *name, *caps = NULL, *tail_call = NULL, *replaces = NULL;
	struct bpf_program *prog, *p, *drain, *target = NULL;
	struct bpf_object *obj, *replaced = NULL;
	int nr_msgs = 0, tabled = -1;
	int err, ret = 0;

	/* the test NAME:PROG of a file of upstream's (derive_manifest.py) */
	name = strrchr(argv[2], ':');
	name = name ? name + 1 : argv[2];
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
	if (prog_tags(obj, name, "tail_call", &tail_call, 1) == 1) {
		target = tail_call_target(obj, tail_call, say);
		if (!target)
			return 1;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog || p == drain || p == target);
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
	if (prog_tags(obj, name, "replaces", &replaces, 1) == 1) {
		replaced = freplace_target(path, prog, replaces, say);
		if (!replaced) {
			bpf_object__close(obj);
			return 1;
		}
	}
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
			target = tail_call ? tail_call_target(obj, tail_call, say) : NULL;
			drain = drain ? bpf_object__find_program_by_name(obj, argv[5]) : NULL;
			bpf_object__for_each_program(p, obj)
				bpf_program__set_autoload(p, p == prog || p == drain || p == target);
			if (!replaced || !freplace_attach(replaced, prog, replaces, say))
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
			.read_graph_count = graph_objs_count,
		};

		ret = run_stress(obj, prog, drain, strtol(argv[6], NULL, 0), &env);
	} else {
		const char *bytes_map;
		bool bytes = prog_tags(obj, name, "value_bytes", &bytes_map, 1) == 1;

		ret = bytes ? value_bytes_seed(obj, bytes_map, say) : 0;
		ret = ret ?: target ? tail_call_fill(obj, tail_call, target, say) : 0;
		ret = ret ?: run_prog(obj, prog, argc - 5, argv + 5);
		if (!ret && bytes)
			ret = value_bytes_check(obj, bytes_map, say);
	}
	bpf_object__close(obj);
	bpf_object__close(replaced);
	return ret;
}
