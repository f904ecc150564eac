/* SPDX-License-Identifier: GPL-2.0 */
/* The loader's report file: what a test says, one line at a time. */
#ifndef __REPORT_H
#define __REPORT_H

/* Open REPORT (line buffered); 0, or -1 if it cannot be written. */
int report_open(const char *path);
/* One line of the report. */
void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
