// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream's failing programs without __msg annotations (6.3's
 * linked_list_fail.c) have their messages in a table of prog_tests/, which
 * scripts/upstream_manifest.py turns into DIR/TEST.msg: one message a line,
 * each to be found in the log after the previous one, as 6.3's runner
 * looks for them. An empty file: upstream asserts only that the load fails.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "table_msgs.h"

/* @test's messages into @msgs (pointing into a buffer kept until the
 * next call): how many, or -1 when DIR/TEST.msg does not exist.
 */
int table_msgs(const char *dir, const char *test, const char **msgs, int max)
{
	static char *text;
	char path[256], *line, *next;
	size_t len = 0;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.msg", dir, test);
	f = fopen(path, "r");
	if (!f)
		return -1;
	free(text);
	text = NULL;
	if (getdelim(&text, &len, '\0', f) < 0) {
		fclose(f);
		return 0;
	}
	fclose(f);
	for (line = text; *line && n < max; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (*line)
			msgs[n++] = line;
	}
	return n;
}
