/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What libbpf printed while loading, and the checks of a refused load
 * against its expected messages (log_check.c).
 */
#ifndef __LOG_CHECK_H
#define __LOG_CHECK_H

#include <stdbool.h>
#include <stdarg.h>
#include <bpf/libbpf.h>

/* Where the guest finds the expected logs (and upstream's tables). */
#define EXPECTED_DIR	"/expected-logs"

/* libbpf's print callback: keeps what libbpf prints, but its debug lines. */
int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap);
/* Keep nothing libbpf prints (thousands of loads) while @on. */
void set_libbpf_quiet(bool on);
/* Add a line to the log as if libbpf had printed it. */
void append_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Everything kept so far ("" if nothing). */
const char *libbpf_log_text(void);

/*
 * A refused program: its @msgs (__msg annotations, or upstream's table if
 * @tabled) must match @checked in order, and the lines of its expected log
 * EXPECTED_DIR/@prog.log, if there is one, must be whole lines of the log,
 * in order. 0 if they do, 1 if not (reported), 2 on an internal error.
 */
int check_log(const char *prog, const char **msgs, int nr_msgs, const char *checked,
	      bool tabled);
/* A load that should have succeeded: the errors and the log's tail. */
void say_load_errors(void);

#endif
