/* SPDX-License-Identifier: GPL-2.0 */
/* An extension program's target, loaded first (freplace.c). */
#ifndef __FREPLACE_H
#define __FREPLACE_H

#include <bpf/libbpf.h>

int freplace_attach(struct bpf_object *target_obj, struct bpf_program *ext, const char *spec,
		    void (*say)(const char *fmt, ...));
struct bpf_object *freplace_target(const char *path, struct bpf_program *ext, const char *spec,
				   void (*say)(const char *fmt, ...));

#endif
