/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "bench" mode (bench.c). */
#ifndef __BENCH_H
#define __BENCH_H

#include <bpf/libbpf.h>

int run_bench(struct bpf_object *obj, const char *sizes, void (*say)(const char *fmt, ...));

#endif
