/* SPDX-License-Identifier: GPL-2.0 */
/* A program's tail calls taken (tail_call.c). */
#ifndef __TAIL_CALL_H
#define __TAIL_CALL_H

#include <bpf/libbpf.h>

struct bpf_program *tail_call_target(struct bpf_object *obj, const char *spec,
				     void (*say)(const char *fmt, ...));
int tail_call_fill(struct bpf_object *obj, const char *spec, struct bpf_program *target,
		   void (*say)(const char *fmt, ...));

#endif
