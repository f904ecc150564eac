/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "gen" mode (gen.c). */
#ifndef __GEN_H
#define __GEN_H

#include "loader_env.h"

int run_gen(unsigned int seed, int count, const struct loader_env *env);

#endif
