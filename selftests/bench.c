// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's "bench" mode, for ./run_tests.sh --rbtree-bench:
 *
 *   loader REPORT NAME OBJECT bench N[,N...]
 *
 * For each N: BPF_PROG_TEST_RUN of rbtree_bench_add (N adds) and of
 * rbtree_bench_remove (N first + remove), timed by the kernel, and the
 * same work in C with the same keys (kunit/graph_bench.c, debugfs
 * bpf_graph_bench), three times each; prints the best ns per operation of
 * each and their ratio. The BPF times are net of a run with N = 0 (the
 * test run's own cost: context, packet, program entry), which would
 * otherwise count as per-operation cost at small N.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include "bench.h"

#define C_BENCH	"/sys/kernel/debug/bpf_graph_bench"
#define ROUNDS	3
#define SEED	2463534242u

static const unsigned char frame[64];

static int run_bpf(int fd, unsigned long n, double *ns)
{
	struct __sk_buff ctx = { .mark = n, .priority = SEED };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = sizeof(frame),
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = 1);

	if (bpf_prog_test_run_opts(fd, &opts))
		return -errno;
	*ns = opts.duration;
	return 0;
}

static int run_c(unsigned long n, double *add, double *rem)
{
	unsigned long long a, r, got;
	FILE *f = fopen(C_BENCH, "w");

	if (!f)
		return -errno;
	fprintf(f, "%lu %u\n", n, SEED);
	if (fclose(f))
		return -errno;
	f = fopen(C_BENCH, "r");
	if (!f)
		return -errno;
	if (fscanf(f, "n %llu add_ns %llu remove_ns %llu", &got, &a, &r) != 3 || got != n) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	*add = a;
	*rem = r;
	return 0;
}

static double best(double a, double b)
{
	return a < b ? a : b;
}

int run_bench(struct bpf_object *obj, const char *sizes, void (*say)(const char *fmt, ...))
{
	struct bpf_program *add = bpf_object__find_program_by_name(obj, "rbtree_bench_add");
	struct bpf_program *rem = bpf_object__find_program_by_name(obj, "rbtree_bench_remove");
	char *list = strdup(sizes), *tok, *save;
	double base = 1e30, t;
	int err = 0, round;

	if (!add || !rem || !list) {
		say("FAIL: bench: needs rbtree_bench_add and rbtree_bench_remove");
		return 1;
	}
	for (round = 0; round < 2 * ROUNDS && !err; round++) {
		err = run_bpf(bpf_program__fd(add), 0, &t);
		base = best(base, t);
	}
	say("bench: a test run with N = 0 takes %.0f ns (not counted)", base);
	say("bench: %8s %12s %12s %6s %12s %12s %6s", "N", "BPF add", "C add", "ratio",
	    "BPF remove", "C remove", "ratio");
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long n = strtoul(tok, NULL, 0);
		double ba = 1e30, br = 1e30, ca = 1e30, cr = 1e30, t1, t2;

		for (round = 0; round < ROUNDS && !err; round++) {
			err = run_bpf(bpf_program__fd(add), n, &t1) ?:
			      run_bpf(bpf_program__fd(rem), n, &t2);
			ba = best(ba, t1);
			br = best(br, t2);
			if (!err)
				err = run_c(n, &t1, &t2);
			ca = best(ca, t1);
			cr = best(cr, t2);
		}
		if (err) {
			say("FAIL: bench: N=%lu: %s", n, strerror(-err));
			break;
		}
		ba -= base;
		br -= base;
		say("bench: %8lu %12.1f %12.1f %6.2f %12.1f %12.1f %6.2f (ns/op)", n,
		    ba / n, ca / n, ba / ca, br / n, cr / n, br / cr);
	}
	free(list);
	return !!err;
}
