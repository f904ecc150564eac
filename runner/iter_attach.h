/* SPDX-License-Identifier: GPL-2.0 */
/* Attaching a map element iterator (iter_attach.c). */
#ifndef __ITER_ATTACH_H
#define __ITER_ATTACH_H

#include <bpf/libbpf.h>

int iter_attach_check(struct bpf_object *obj, struct bpf_program *prog, const char *spec,
		      void (*say)(const char *fmt, ...));

#endif
