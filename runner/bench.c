// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's "bench" mode, for ./run_tests.sh --rbtree-bench:
 *
 *   loader REPORT NAME OBJECT bench N[,N...]
 *
 * For each N: BPF_PROG_TEST_RUN of rbtree_bench_add (N adds) and of
 * rbtree_bench_remove (N first + remove), timed by the kernel, and the
 * same work in C with the same keys: natively, with the BPF allocator, and
 * with that and the tree through the kfunc bodies (kunit/graph_bench.c,
 * debugfs bpf_graph_bench), three times each; prints the best ns per
 * operation of each (add, rm, and "all": both, a node's whole life, where
 * costs one phase defers to the other, such as the allocator's refills
 * and trims, are counted whichever phase they land in), the ratio BPF/C
 * and the factors it is the product of:
 * alloc/C (the allocator), kfuncs/alloc (the tree kfuncs and their
 * indirect less()), BPF/kfuncs (the BPF runtime). The BPF times are net of a run with N = 0 (the
 * test run's own cost: context, packet, program entry), which would
 * otherwise count as per-operation cost at small N.
 *
 * Then BTF load time against the number of structs with a graph root
 * (btf_roots_load_ns()), best of three: the time per struct stays flat
 * when loading is linear.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "btf_cases.h"

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

/* ns of the N adds and removals: C natively [0], with the BPF allocator
 * [1], and the tree through the kfuncs too [2]
 */
static int run_c(unsigned long n, double add[3], double rem[3])
{
	unsigned long long a, r, aa, ar, ka, kr, got;
	FILE *f = fopen(C_BENCH, "w");

	if (!f)
		return -errno;
	fprintf(f, "%lu %u\n", n, SEED);
	if (fclose(f))
		return -errno;
	f = fopen(C_BENCH, "r");
	if (!f)
		return -errno;
	if (fscanf(f, "n %llu add_ns %llu remove_ns %llu alloc_add_ns %llu alloc_remove_ns %llu "
		   "kfunc_add_ns %llu kfunc_remove_ns %llu", &got, &a, &r, &aa, &ar, &ka, &kr) != 7 ||
	    got != n) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	add[0] = a;
	rem[0] = r;
	add[1] = aa;
	rem[1] = ar;
	add[2] = ka;
	rem[2] = kr;
	return 0;
}

static double best(double a, double b)
{
	return a < b ? a : b;
}

static const unsigned int btf_sizes[] = { 1000, 2000, 4000, 8000 };

static int run_btf_bench(void (*say)(const char *fmt, ...))
{
	unsigned int i, round;

	for (i = 0; i < sizeof(btf_sizes) / sizeof(btf_sizes[0]); i++) {
		double ns = 1e30;

		for (round = 0; round < ROUNDS; round++) {
			long long t = btf_roots_load_ns(btf_sizes[i]);

			if (t < 0) {
				say("FAIL: bench: BTF of %u structs with a root: %s",
				    btf_sizes[i], strerror(-t));
				return 1;
			}
			ns = best(ns, t);
		}
		say("bench: BTF load, %5u structs with a root: %9.0f us, %6.2f us/struct",
		    btf_sizes[i], ns / 1000, ns / 1000 / btf_sizes[i]);
	}
	return 0;
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
	say("bench: %7s %3s %7s %7s %7s %7s %6s = %7s x %7s x %7s", "N", "op", "BPF", "kfuncs",
	    "alloc", "C", "BPF/C", "alloc/C", "kf/alloc", "BPF/kf");
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		unsigned long n = strtoul(tok, NULL, 0);
		double b[3] = { 1e30, 1e30, 1e30 }, c[3][3], t1, t2, ca[3], cr[3];
		int op, k;

		for (k = 0; k < 3; k++)
			c[0][k] = c[1][k] = c[2][k] = 1e30;
		for (round = 0; round < ROUNDS && !err; round++) {
			err = run_bpf(bpf_program__fd(add), n, &t1) ?:
			      run_bpf(bpf_program__fd(rem), n, &t2) ?:
			      run_c(n, ca, cr);
			b[0] = best(b[0], t1);
			b[1] = best(b[1], t2);
			b[2] = best(b[2], t1 + t2 - base);
			for (k = 0; k < 3 && !err; k++) {
				c[0][k] = best(c[0][k], ca[k]);
				c[1][k] = best(c[1][k], cr[k]);
				c[2][k] = best(c[2][k], ca[k] + cr[k]);
			}
		}
		if (err) {
			say("FAIL: bench: N=%lu: %s", n, strerror(-err));
			break;
		}
		for (op = 0; op < 3; op++) {	/* add, first+remove, the two */
			double bpf = (b[op] - base) / n, nat = c[op][0] / n;
			double alloc = c[op][1] / n, kf = c[op][2] / n;

			say("bench: %7lu %3s %7.1f %7.1f %7.1f %7.1f %6.2f = %7.2f x %8.2f x %7.2f (ns/op)",
			    n, (const char *[]){ "add", "rm", "all" }[op], bpf, kf, alloc, nat,
			    bpf / nat, alloc / nat,
			    kf / alloc, bpf / kf);
		}
	}
	free(list);
	return err ? 1 : run_btf_bench(say);
}
