/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "failslab" mode (failslab.c). */
#ifndef __FAILSLAB_H
#define __FAILSLAB_H

#include "loader_env.h"

int run_failslab(const char *path, const char *name, int max,
		 const struct loader_env *env);

#endif
