// SPDX-License-Identifier: GPL-2.0
/* The loader's report file (report.h). */
#include <stdarg.h>
#include <stdio.h>
#include "report.h"

static FILE *report;

int report_open(const char *path)
{
	report = fopen(path, "w");
	if (!report)
		return -1;
	setvbuf(report, NULL, _IOLBF, 0);
	return 0;
}

void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(report, fmt, ap);
	va_end(ap);
	fputc('\n', report);
}
