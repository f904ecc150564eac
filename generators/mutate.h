/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "mutate" mode (mutate.c). */
#ifndef __MUTATE_H
#define __MUTATE_H

#include "loader_env.h"

int run_mutants(const char *path, unsigned int seed, int count,
		const struct loader_env *env);

#endif
