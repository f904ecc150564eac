/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "stress" mode (stress.c). */
#ifndef __STRESS_H
#define __STRESS_H

#include <bpf/libbpf.h>

/* What stress.c needs from the loader. */
struct stress_env {
	void (*say)(const char *fmt, ...);
	int (*read_global)(struct bpf_object *obj, const char *name, long long *val);
	/* @allocated since the load; NULL if the kernel does not count */
	int (*read_graph_count)(const char *name, long long *val);
};

int run_stress(struct bpf_object *obj, struct bpf_program *op,
	       struct bpf_program *drain, long ops_per_cpu,
	       const struct stress_env *env);

#endif
