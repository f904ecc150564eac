/* SPDX-License-Identifier: GPL-2.0 */
/* What the loader's modes that load many programs need from the loader. */
#ifndef __LOADER_ENV_H
#define __LOADER_ENV_H

#include <stdbool.h>

struct loader_env {
	void (*say)(const char *fmt, ...);
	void (*quiet)(bool on);		/* drop libbpf's messages (thousands of loads) */
	int (*all_freed)(void);		/* 0 if every graph object is freed; else reports */
};

#endif
