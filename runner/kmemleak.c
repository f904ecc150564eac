// SPDX-License-Identifier: GPL-2.0
/* The loader's --kmemleak mode (kmemleak.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kmemleak.h"
#include "mounts.h"
#include "report.h"

/*
 * Print the kmemleak suspects allocated at or after jiffies @since; return
 * how many. Older ones are boot-time leaks of the stock kernel (early ACPI
 * caches), which may turn unreferenced only after the first scan.
 */
static int report_leaks(char *text, unsigned long since)
{
	char *obj = strstr(text, "unreferenced object"), *next, *j;
	int leaks = 0, old = 0;

	while (obj) {
		next = strstr(obj + 1, "unreferenced object");
		if (next)
			next[-1] = '\0';
		j = strstr(obj, "jiffies ");
		if (j && strtoul(j + 8, NULL, 10) < since) {
			old++;
		} else {
			if (!leaks++)
				say("FAIL: kmemleak found leaks:");
			say("%s", obj);
		}
		obj = next;
	}
	say("kmemleak: %d suspect(s) from the tests, %d from boot ignored", leaks, old);
	return leaks;
}

static int kmemleak_cmd(const char *ctl, const char *cmd)
{
	FILE *f = fopen(ctl, "w");

	if (!f || fputs(cmd, f) < 0 || fclose(f)) {
		say("FAIL: writing '%s' to %s: %s", cmd, ctl, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * begin: scan and clear the suspects from boot. end SINCE: scan and fail
 * on any suspect allocated since jiffies SINCE. kmemleak reports only
 * objects older than 5 s, so wait that long before each scan.
 */
int kmemleak(const char *phase, const char *since)
{
	const char *ctl = DEBUGFS "/kmemleak";
	char *suspects = NULL;
	size_t len = 0;
	FILE *f;

	if (mount_debugfs())
		return 1;
	sleep(6);
	if (kmemleak_cmd(ctl, "scan"))
		return 1;
	if (!strcmp(phase, "begin")) {
		if (kmemleak_cmd(ctl, "clear"))
			return 1;
		say("ok: kmemleak suspects from boot cleared");
		return 0;
	}
	if (!since) {
		say("FAIL: kmemleak end needs the jiffies the tests began at");
		return 1;
	}
	f = fopen(ctl, "r");
	if (!f) {
		say("FAIL: cannot read %s: %s", ctl, strerror(errno));
		return 1;
	}
	if (getdelim(&suspects, &len, '\0', f) < 0 || !*suspects) {
		say("ok: kmemleak found no leak");
		return 0;
	}
	return report_leaks(suspects, strtoul(since, NULL, 10)) ? 1 : 0;
}
