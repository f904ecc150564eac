/* SPDX-License-Identifier: GPL-2.0 */
/* Hand-built BTF cases of the loader (see btf_cases.c). */
#ifndef __BTF_CASES_H
#define __BTF_CASES_H

#include <stdio.h>

/* Print each case as a manifest line: "NAME - btf ERRNO". */
void list_btf_cases(FILE *out);

/* Load BTF case @name; 0 if the load ends in errno @expect ("0" = loads). */
int run_btf_case(const char *name, const char *expect, void (*say)(const char *fmt, ...));

/* How long a BTF of @n structs with a root takes to load (ns), or -errno */
long long btf_roots_load_ns(unsigned int n);

#endif
