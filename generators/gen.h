/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's "gen" mode (gen.c). */
#ifndef __GEN_H
#define __GEN_H

#include "loader_env.h"

#include <stdio.h>

/* Print the manifest's gen entries: "NAME - gen SEED COUNT". */
void list_gen_runs(FILE *out);

int run_gen(unsigned int seed, int count, const struct loader_env *env);

#endif
