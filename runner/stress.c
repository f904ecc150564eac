// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's "stress" mode, for progs/stress.bpf.c:
 *
 *   loader REPORT OP OBJECT stress DRAIN OPS
 *
 * One thread per online CPU, pinned to it, runs program OP (a random add,
 * remove, push or pop on one of the object's 13 roots) OPS times with
 * BPF_PROG_TEST_RUN, while another thread replaces array elements,
 * deletes and re-adds hash elements and forces LRU evictions, all of
 * elements whose values hold roots. Then DRAIN empties every root still
 * reachable, one node a run. Checks:
 *   - for the roots no element operation touches (global data, array and
 *     hash keys 0 and 1), the nodes drained are the nodes the holder
 *     counted in, under its lock;
 *   - every object the programs allocated is one the kernel counted
 *     (@allocated), and no more were taken out than went in;
 *   - (the loader, after close) every graph object is freed.
 * Reports ops/s per CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "stress.h"

#define NR_ROOTS	13	/* stress.bpf.c: 0 global, 1-4 array, 5-8 hash, 9-12 LRU */
#define NR_KEYS		4
#define BATCH		64	/* runs per BPF_PROG_TEST_RUN */
#define DRAIN_MAX	10000000

/* stress.bpf.c's struct holder, as user space sees a map value */
struct holder {
	unsigned int lock;
	unsigned int pad;
	unsigned long long tree[2];
	unsigned long long list[2];
	long long nr_tree;
	long long nr_list;
};

struct worker {
	pthread_t thread;
	int cpu;
	int prog_fd;
	long ops;
	int err;		/* errno of a failed BPF_PROG_TEST_RUN */
};

static const unsigned char frame[64];	/* tc programs need an Ethernet header */
static volatile bool stop;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	cpu_set_t set;
	long done;

	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		w->err = errno;
		return NULL;
	}
	for (done = 0; done < w->ops; done += BATCH) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
			    .data_size_in = sizeof(frame),
			    .repeat = w->ops - done < BATCH ? w->ops - done : BATCH);

		if (bpf_prog_test_run_opts(w->prog_fd, &opts)) {
			w->err = errno;
			break;
		}
	}
	return NULL;
}

struct maps {
	int arr, hash, lru;
};

/* Replace array elements 2-3, delete and re-add hash elements 2-3, and add
 * LRU keys 4-7 so that keys 0-3 get evicted, then put those back.
 */
static void *mutate(void *arg)
{
	const struct maps *m = arg;
	struct holder zero = {};
	long *count = calloc(1, sizeof(*count));
	int key;

	while (count && !stop) {
		key = 2 + (*count & 1);
		switch (*count % 3) {
		case 0:
			bpf_map_update_elem(m->arr, &key, &zero, BPF_ANY);
			break;
		case 1:
			bpf_map_delete_elem(m->hash, &key);
			bpf_map_update_elem(m->hash, &key, &zero, BPF_NOEXIST);
			break;
		default:
			key = 4 + (*count / 3) % NR_KEYS;
			bpf_map_update_elem(m->lru, &key, &zero, BPF_ANY);
			for (key = 0; key < NR_KEYS; key++)
				bpf_map_update_elem(m->lru, &key, &zero, BPF_NOEXIST);
			break;
		}
		(*count)++;
	}
	return count;
}

static int fill(int fd, int first, int last)
{
	struct holder zero = {};
	int key;

	for (key = first; key <= last; key++)
		if (bpf_map_update_elem(fd, &key, &zero, BPF_ANY))
			return -errno;
	return 0;
}

/* The element behind root @root, or -ENOENT; global data: 0. */
static int root_value(const struct maps *m, int root, struct holder *v)
{
	int key = (root - 1) % NR_KEYS;
	int fd = root <= 4 ? m->arr : root <= 8 ? m->hash : m->lru;

	if (!root)
		return 0;
	return bpf_map_lookup_elem(fd, &key, v) ? -errno : 0;
}

/* Run DRAIN on @root until it is empty; counts nodes by kind. */
static int drain_root(int fd, int root, long long *tree, long long *list)
{
	struct __sk_buff ctx = { .mark = root };
	long i;

	*tree = *list = 0;
	for (i = 0; i < DRAIN_MAX; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
			    .data_size_in = sizeof(frame), .ctx_in = &ctx,
			    .ctx_size_in = sizeof(ctx), .repeat = 1);

		if (bpf_prog_test_run_opts(fd, &opts))
			return -errno;
		if (opts.retval == 1)
			(*tree)++;
		else if (opts.retval == 2)
			(*list)++;
		else
			return 0;
	}
	return -E2BIG;
}

static bool stable_root(int root)
{
	return root == 0 || root == 1 || root == 2 || root == 5 || root == 6;
}

int run_stress(struct bpf_object *obj, struct bpf_program *op,
	       struct bpf_program *drain, long ops_per_cpu,
	       const struct stress_env *env)
{
	long long added, removed, pushed, popped, allocated, tree, list;
	long long out = 0, total_tree = 0, total_list = 0;
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), i, err, failed = 0;
	struct maps m = {
		.arr = bpf_object__find_map_fd_by_name(obj, "arr"),
		.hash = bpf_object__find_map_fd_by_name(obj, "hash"),
		.lru = bpf_object__find_map_fd_by_name(obj, "lru"),
	};
	struct worker *w = calloc(ncpu, sizeof(*w));
	pthread_t mutator;
	long *mutations = NULL;
	double t0, secs;
	struct holder v;

	if (!w || m.arr < 0 || m.hash < 0 || m.lru < 0) {
		env->say("FAIL: stress: the object needs maps arr, hash and lru");
		return 1;
	}
	if (bpf_map__value_size(bpf_object__find_map_by_name(obj, "arr")) != sizeof(v)) {
		env->say("FAIL: stress: struct holder is %u bytes, the loader expects %zu",
			 bpf_map__value_size(bpf_object__find_map_by_name(obj, "arr")), sizeof(v));
		return 1;
	}
	err = fill(m.hash, 0, NR_KEYS - 1) ?: fill(m.lru, 0, NR_KEYS - 1);
	if (err) {
		env->say("FAIL: stress: adding map elements: %s", strerror(-err));
		return 1;
	}

	t0 = now();
	for (i = 0; i < ncpu; i++) {
		w[i] = (struct worker){ .cpu = i, .prog_fd = bpf_program__fd(op),
					.ops = ops_per_cpu };
		if (pthread_create(&w[i].thread, NULL, work, &w[i])) {
			env->say("FAIL: stress: cannot start thread %d", i);
			return 1;
		}
	}
	if (pthread_create(&mutator, NULL, mutate, &m)) {
		env->say("FAIL: stress: cannot start the mutator thread");
		return 1;
	}
	for (i = 0; i < ncpu; i++)
		pthread_join(w[i].thread, NULL);
	secs = now() - t0;
	stop = true;
	pthread_join(mutator, (void **)&mutations);
	for (i = 0; i < ncpu; i++) {
		if (w[i].err) {
			env->say("FAIL: stress: CPU %d: BPF_PROG_TEST_RUN: %s", i,
				 strerror(w[i].err));
			failed = 1;
		}
	}

	/* before draining: DRAIN counts its removals there too */
	if (env->read_global(obj, "added", &added) || env->read_global(obj, "removed", &removed) ||
	    env->read_global(obj, "pushed", &pushed) || env->read_global(obj, "popped", &popped)) {
		env->say("FAIL: stress: cannot read the programs' counts");
		return 1;
	}
	for (i = 0; i < NR_ROOTS; i++) {
		if (root_value(&m, i, &v))
			continue;	/* an element the mutator had just deleted */
		if (!i && (env->read_global(obj, "g_nr_tree", &v.nr_tree) ||
			   env->read_global(obj, "g_nr_list", &v.nr_list))) {
			env->say("FAIL: stress: cannot read the global roots' counts");
			return 1;
		}
		err = drain_root(bpf_program__fd(drain), i, &tree, &list);
		if (err) {
			env->say("FAIL: stress: draining root %d: %s", i, strerror(-err));
			return 1;
		}
		total_tree += tree;
		total_list += list;
		if (stable_root(i) && (tree != v.nr_tree || list != v.nr_list)) {
			env->say("FAIL: stress: root %d: expected %lld tree and %lld list nodes "
				 "(counted under its lock), actual %lld and %lld drained",
				 i, v.nr_tree, v.nr_list, tree, list);
			failed = 1;
		}
	}

	out = removed + popped + total_tree + total_list;
	if (out > added + pushed) {
		env->say("FAIL: stress: expected at most %lld nodes out, actual %lld",
			 added + pushed, out);
		failed = 1;
	}
	if (env->read_graph_count && !env->read_graph_count("@allocated", &allocated) &&
	    allocated != added + pushed) {
		env->say("FAIL: stress: expected @allocated == %lld (added + pushed), actual %lld",
			 added + pushed, allocated);
		failed = 1;
	}
	env->say("%s: stress: %d CPU(s) x %ld ops in %.2f s: %.0f ops/s per CPU; "
		 "%lld added, %lld removed, %lld pushed, %lld popped, %lld drained, "
		 "%lld freed with their map elements; %ld element operations",
		 failed ? "FAIL" : "ok", ncpu, ops_per_cpu, secs, ops_per_cpu / secs,
		 added, removed, pushed, popped, total_tree + total_list,
		 added + pushed - out, mutations ? *mutations : -1L);
	free(mutations);
	free(w);
	return failed;
}
