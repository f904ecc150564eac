/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "failslab" mode (failslab.c). */
#ifndef __FAILSLAB_H
#define __FAILSLAB_H

#include <stdbool.h>
#include <bpf/libbpf.h>

/* What failslab.c needs from the loader. */
struct failslab_env {
	void (*say)(const char *fmt, ...);
	void (*quiet)(bool on);		/* drop libbpf's messages of failed loads */
	int (*all_freed)(void);		/* 0 if every graph object is freed; else reports */
};

int run_failslab(const char *path, const char *name, int max,
		 const struct failslab_env *env);

#endif
