// SPDX-License-Identifier: GPL-2.0
/* The log of a load and the checks of a refused load (log_check.h). */
#define _GNU_SOURCE
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log_check.h"
#include "report.h"

#define LOG_TAIL	25

static char *log_text;		/* everything libbpf printed, verifier log included */
static size_t log_len;
static bool libbpf_quiet;	/* mutate: thousands of loads, no log kept */

void set_libbpf_quiet(bool on)
{
	libbpf_quiet = on;
}

/* Add to the log what libbpf printed, or what it would have printed. */
static int append_logv(const char *fmt, va_list ap)
{
	char *line;
	int n;

	n = vasprintf(&line, fmt, ap);
	if (n < 0)
		return n;
	log_text = realloc(log_text, log_len + n + 1);
	if (!log_text) {
		say("out of memory for the log");
		exit(2);
	}
	memcpy(log_text + log_len, line, n + 1);
	log_len += n;
	free(line);
	return n;
}

void append_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	append_logv(fmt, ap);
	va_end(ap);
}

int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG || libbpf_quiet)
		return 0;
	return append_logv(fmt, ap);
}

const char *libbpf_log_text(void)
{
	return log_text ? log_text : "";
}

/* The log as an array of lines (split in place). */
static char **split_lines(char *text, int *nr)
{
	char **lines = NULL, *save = NULL, *l;
	int n = 0;

	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		lines = realloc(lines, (n + 1) * sizeof(*lines));
		if (!lines)
			exit(2);
		lines[n++] = l;
	}
	*nr = n;
	return lines;
}

/*
 * The verifier's message is the last line before its statistics line
 * ("processed N insns ..."); without a verifier log (BTF or map creation
 * failed) it is the first line libbpf printed.
 */
static const char *error_line(char **lines, int nr)
{
	int i;

	for (i = 1; i < nr; i++)
		if (!strncmp(lines[i], "processed ", 10))
			return lines[i - 1];
	return nr ? lines[0] : "";
}

/* A failed BTF load or map creation: libbpf goes on without BTF, and the
 * verifier then fails for want of it, so these errors are the ones that
 * matter: libbpf's, and the kernel's reason, the BTF log's last line.
 */
static bool is_btf_or_map_error(char **lines, int nr, int i)
{
	return !strncmp(lines[i], "libbpf: Error in bpf_create_map_xattr(", 38) ||
	       !strncmp(lines[i], "libbpf: Error loading .BTF into kernel: ", 40) ||
	       (i + 1 < nr && !strcmp(lines[i + 1], "-- END BTF LOAD LOG --"));
}

/* The "actual-error:" lines: BTF/map errors, then the error. */
static void say_actual_errors(char **lines, int nr)
{
	const char *err = error_line(lines, nr);
	int i;

	for (i = 0; i < nr; i++)
		if (is_btf_or_map_error(lines, nr, i) && lines[i] != err)
			say("actual-error: %s", lines[i]);
	say("actual-error: %s", err);
}

/*
 * The "bless-line:" lines that --bless writes, in log order: the actual
 * errors, and the lines of the expected log that were found (@found[i]:
 * the expected line that log line @i matched), as written there, so that
 * lines added by hand, and {{ }} patterns, survive blessing while they
 * still match.
 */
static void say_bless_lines(char **lines, int nr, char **found)
{
	const char *err = error_line(lines, nr);
	int i;

	for (i = 0; i < nr; i++)
		if (found[i] || lines[i] == err || is_btf_or_map_error(lines, nr, i))
			say("bless-line: %s", found[i] ? found[i] : lines[i]);
	if (!nr)
		say("bless-line: %s", err);
}

static void print_tail(char **lines, int nr)
{
	int i = nr > LOG_TAIL ? nr - LOG_TAIL : 0;

	say("log tail (%d of %d lines):", nr - i, nr);
	for (; i < nr; i++)
		say("  | %s", lines[i]);
}

/* @msg as one extended regex: text outside {{ }} matches itself. */
static char *msg_regex(const char *msg)
{
	char *re = malloc(2 * strlen(msg) + 1), *o = re;
	const char *end;

	if (!re)
		return NULL;
	while (*msg) {
		if (!strncmp(msg, "{{", 2) && (end = strstr(msg + 2, "}}"))) {
			memcpy(o, msg + 2, end - msg - 2);
			o += end - msg - 2;
			msg = end + 2;
			continue;
		}
		if (strchr(".[]{}()\\*+?|^$", *msg))
			*o++ = '\\';
		*o++ = *msg++;
	}
	*o = '\0';
	return re;
}

/*
 * Does log line @got match expected line @want? A line with {{regex}} in
 * it (for what the compiler chooses: registers, instruction indices,
 * reference ids) must match as a whole line; any other is compared as is.
 */
static bool line_matches(const char *want, const char *got)
{
	char *pattern, *anchored;
	regex_t re;
	bool ok;

	if (!strstr(want, "{{"))
		return !strcmp(want, got);
	pattern = msg_regex(want);
	if (!pattern || asprintf(&anchored, "^%s$", pattern) < 0) {
		free(pattern);
		return false;
	}
	ok = !regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB);
	if (ok) {
		ok = !regexec(&re, got, 0, NULL, 0);
		regfree(&re);
	} else {
		say("expected line is not a valid pattern: %s", want);
	}
	free(anchored);
	free(pattern);
	return ok;
}

/*
 * @log without the lines that name the test's own annotations: a refused
 * BTF is dumped into the log, decl tags and their __msg texts included,
 * and a __msg must not match itself there.
 */
static char *without_annotations(const char *log)
{
	char *out = malloc(strlen(log) + 1), *o = out;
	const char *line = log, *end;

	if (!out)
		return NULL;
	for (; *line; line = end) {
		end = strchrnul(line, '\n');
		if (*end)
			end++;
		if (memmem(line, end - line, "comment:test_", 13))
			continue;
		memcpy(o, line, end - line);
		o += end - line;
	}
	*o = '\0';
	return out;
}

/* Every __msg, in order, each after the previous one's match; 0 or 1. */
static int check_msgs(const char *full_log, const char **msgs, int nr)
{
	char *log = without_annotations(full_log);
	const char *at = log;
	regmatch_t m;
	regex_t re;
	int i, bad;

	if (!log)
		return 1;

	for (i = 0; i < nr; i++) {
		char *pattern = msg_regex(msgs[i]);

		if (!pattern || regcomp(&re, pattern, REG_EXTENDED | REG_NEWLINE)) {
			say("FAIL: __msg(\"%s\") is not a valid pattern", msgs[i]);
			free(pattern);
			free(log);
			return 1;
		}
		bad = regexec(&re, at, 1, &m, 0);
		regfree(&re);
		free(pattern);
		if (bad) {
			say("FAIL: __msg %d not found in the log%s", i + 1,
			    i ? " after the previous one" : "");
			say("expected: %s", msgs[i]);
			free(log);
			return 1;
		}
		at += m.rm_eo;
	}
	free(log);
	return 0;
}

/*
 * A refused program: its __msg annotations must match @checked (the log
 * at its __log_level, else libbpf's) and the lines of its expected log,
 * if it has one, must be whole lines of libbpf's log, in order, the
 * verifier's error among them. One of the two must exist: a refusal with
 * nothing expected proves nothing.
 */
int check_log(const char *prog, const char **msgs, int nr_msgs, const char *checked,
	      bool tabled)
{
	char path[256], *expected = NULL, **want = NULL, **got, *text, **found;
	const char *err;
	int nr_want = 0, nr_got, i, j = 0, ret = 1;
	size_t len = 0;
	FILE *f;

	text = strdup(libbpf_log_text());
	got = split_lines(text, &nr_got);
	found = calloc(nr_got + 1, sizeof(*found));
	if (!text || !found)
		return 2;
	say_actual_errors(got, nr_got);

	if (check_msgs(checked, msgs, nr_msgs)) {
		say("actual:   %s", error_line(got, nr_got));
		print_tail(got, nr_got);
		goto out;
	}
	snprintf(path, sizeof(path), EXPECTED_DIR "/%s.log", prog);
	f = fopen(path, "r");
	if (!f && tabled) {
		say("ok: load failed with the %d message(s) of upstream's test table", nr_msgs);
		ret = 0;
		goto out;
	}
	if (!f && nr_msgs) {
		say("ok: load failed with the %d __msg(s) (no expected log: --bless writes it)",
		    nr_msgs);
		ret = 0;
		goto out;
	}
	if (!f) {
		say("FAIL: no expected log %s and no __msg (./run_tests.sh --bless writes the log)",
		    path);
		print_tail(got, nr_got);
		goto out;
	}
	if (getdelim(&expected, &len, '\0', f) >= 0)
		want = split_lines(expected, &nr_want);
	fclose(f);
	if (!nr_want) {
		say("FAIL: expected log %s is empty", path);
		goto out;
	}

	for (i = 0; i < nr_want; i++) {
		while (j < nr_got && !line_matches(want[i], got[j]))
			j++;
		if (j == nr_got) {
			say("FAIL: expected line %d of %s not found in the log%s",
			    i + 1, path, i ? " after the previous one" : "");
			say("expected: %s", want[i]);
			say("actual:   %s", error_line(got, nr_got));
			print_tail(got, nr_got);
			goto out;
		}
		found[j++] = want[i];
	}
	/* The load must fail for what the log expects: the verifier's error
	 * is one of the expected lines, not a line after them (a check that
	 * logs its message and goes on would pass otherwise).
	 */
	err = error_line(got, nr_got);
	for (i = 0; i < nr_got && got[i] != err; i++)
		;
	if (i < nr_got && !found[i]) {
		say("FAIL: the verifier's error is not a line of %s", path);
		say("expected: %s", want[nr_want - 1]);
		say("actual:   %s", got[i]);
		print_tail(got, nr_got);
		goto out;
	}
	say("ok: load failed with the %d expected line(s) and %d __msg(s)", nr_want, nr_msgs);
	ret = 0;
out:
	/* one source per message: __msg, or upstream's table, is the expectation */
	if (nr_msgs || tabled)
		say("bless-skip: its message is stated by __msg or upstream's table");
	else
		say_bless_lines(got, nr_got, found);
	return ret;
}

void say_load_errors(void)
{
	char *text = strdup(libbpf_log_text()), **lines;
	int nr;

	if (!text)
		return;
	lines = split_lines(text, &nr);
	say_actual_errors(lines, nr);
	print_tail(lines, nr);
	free(lines);
	free(text);
}
