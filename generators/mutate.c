// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's "mutate" mode: selftest programs, mutated instruction by
 * instruction, against the verifier.
 *
 *   loader REPORT - OBJECT mutate SEED COUNT
 *
 * For each program of OBJECT in turn (alone), COUNT times: open the
 * object, and right before libbpf hands the program to the kernel (its
 * instructions final: relocated, subprograms appended) apply one seeded
 * random mutation: drop an instruction, swap two, change a register, an
 * offset or an immediate (SEC("tc") programs, which can run here). Load it. The verifier may refuse it; a mutant
 * it accepts is run with BPF_PROG_TEST_RUN three times. Then the object is
 * closed and every graph object allocated since must be freed. Crashes,
 * hangs and splats show up in the console and fail the run there; here a
 * mutant fails only if it leaks. A mutant that fails is named by program,
 * seed and index, so it can be reproduced and kept as a selftest.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mutate.h"

#define BUDGET_S	20	/* the bridge kills a loader after 30 s */

static const unsigned char frame[64];
static const char *target;		/* the program being mutated */
static unsigned int rnd;		/* the mutation's random state */
static char mutation[96];		/* what was done, for the report */

static unsigned int next(void)
{
	rnd = rnd * 1103515245 + 12345;
	return rnd >> 8;
}

static void mutate(struct bpf_insn *insn, size_t *cnt)
{
	size_t i = next() % *cnt, j = next() % *cnt;
	struct bpf_insn tmp;

	switch (next() % 6) {
	case 0:
		memmove(insn + i, insn + i + 1, (*cnt - i - 1) * sizeof(*insn));
		(*cnt)--;
		snprintf(mutation, sizeof(mutation), "drop insn %zu", i);
		break;
	case 1:
		tmp = insn[i];
		insn[i] = insn[j];
		insn[j] = tmp;
		snprintf(mutation, sizeof(mutation), "swap insns %zu and %zu", i, j);
		break;
	case 2:
		insn[i].dst_reg = next() % 11;
		snprintf(mutation, sizeof(mutation), "insn %zu: dst_reg r%u", i, insn[i].dst_reg);
		break;
	case 3:
		insn[i].src_reg = next() % 11;
		snprintf(mutation, sizeof(mutation), "insn %zu: src_reg r%u", i, insn[i].src_reg);
		break;
	case 4:
		insn[i].off += (int)(next() % 17) - 8;
		snprintf(mutation, sizeof(mutation), "insn %zu: off %d", i, insn[i].off);
		break;
	default:
		insn[i].imm += (int)(next() % 17) - 8;
		snprintf(mutation, sizeof(mutation), "insn %zu: imm %d", i, insn[i].imm);
		break;
	}
}

static int prepare(struct bpf_program *prog, struct bpf_prog_load_opts *opts, long cookie)
{
	size_t cnt = bpf_program__insn_cnt(prog);
	struct bpf_insn *insn;

	if (strcmp(bpf_program__name(prog), target) || cnt < 2)
		return 0;
	insn = malloc(cnt * sizeof(*insn));
	if (!insn)
		return -ENOMEM;
	memcpy(insn, bpf_program__insns(prog), cnt * sizeof(*insn));
	mutate(insn, &cnt);
	return bpf_program__set_insns(prog, insn, cnt);	/* libbpf takes a copy */
}

int run_mutants(const char *path, unsigned int seed, int count,
		const struct loader_env *env)
{
	LIBBPF_OPTS(libbpf_prog_handler_opts, handler, .prog_prepare_load_fn = prepare);
	long loaded = 0, refused = 0, ran = 0;
	struct bpf_object *obj;
	struct bpf_program *p;
	char **names = NULL;
	int nr = 0, i, k, failed = 0;
	time_t start = time(NULL);
	bool out_of_time = false;

	/* SEC("tc") with the callback; programs of other types are left out
	 * (libbpf's handlers for tracing programs find their attach target)
	 */
	if (libbpf_register_prog_handler("tc", BPF_PROG_TYPE_SCHED_CLS, 0, &handler) < 0) {
		env->say("FAIL: mutate: cannot register a handler for SEC(\"tc\")");
		return 1;
	}
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		env->say("FAIL: cannot open %s: %s", path, strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(p, obj) {
		if (strcmp(bpf_program__section_name(p), "tc"))
			continue;
		names = realloc(names, (nr + 1) * sizeof(*names));
		names[nr++] = strdup(bpf_program__name(p));
	}
	bpf_object__close(obj);

	for (i = 0; i < nr && !out_of_time; i++) {
		target = names[i];
		for (k = 0; k < count; k++) {
			struct bpf_program *prog;
			int err;

			if (time(NULL) - start >= BUDGET_S) {
				out_of_time = true;
				break;
			}
			rnd = seed + i * 7919u + k;
			obj = bpf_object__open_file(path, NULL);
			if (!obj)
				continue;
			prog = bpf_object__find_program_by_name(obj, target);
			bpf_object__for_each_program(p, obj)
				bpf_program__set_autoload(p, p == prog);
			env->quiet(true);
			err = bpf_object__load(obj);
			env->quiet(false);
			if (err) {
				refused++;
			} else {
				loaded++;
				for (int r = 0; r < 3; r++) {
					LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
						    .data_size_in = sizeof(frame), .repeat = 1);

					if (!bpf_prog_test_run_opts(bpf_program__fd(prog), &opts))
						ran++;
				}
			}
			bpf_object__close(obj);
			if (env->all_freed()) {
				env->say("FAIL: mutate: %s, seed %u, mutant %d (%s, %s) leaks",
					 target, seed, k, mutation, err ? "refused" : "loaded");
				failed = 1;
			}
		}
	}
	env->say("%s: mutate: %d program(s), %ld mutants loaded, %ld refused, %ld runs%s",
		 failed ? "FAIL" : "ok", nr, loaded, refused, ran,
		 out_of_time ? " (time budget reached)" : "");
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return failed;
}
