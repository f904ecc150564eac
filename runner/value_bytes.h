/* SPDX-License-Identifier: GPL-2.0 */
/* __value_bytes(MAP): the bytes around special fields, as syscalls copy them (value_bytes.c). */
#ifndef __VALUE_BYTES_H
#define __VALUE_BYTES_H

#include <bpf/libbpf.h>

/* Before the run: write key 0 of @map with a pattern; 0 or 1 (said why). */
int value_bytes_seed(struct bpf_object *obj, const char *map, void (*say)(const char *fmt, ...));

/* After the run: every syscall copy of key 0's value; 0 or 1 (said why). */
int value_bytes_check(struct bpf_object *obj, const char *map, void (*say)(const char *fmt, ...));

#endif
