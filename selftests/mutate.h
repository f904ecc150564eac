/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "mutate" mode (mutate.c). */
#ifndef __MUTATE_H
#define __MUTATE_H

#include <stdbool.h>
#include <bpf/libbpf.h>

/* What mutate.c needs from the loader. */
struct mutate_env {
	void (*say)(const char *fmt, ...);
	void (*quiet)(bool on);		/* drop libbpf's messages (thousands of loads) */
	int (*all_freed)(void);		/* 0 if every graph object is freed; else reports */
};

int run_mutants(const char *path, unsigned int seed, int count,
		const struct mutate_env *env);

#endif
