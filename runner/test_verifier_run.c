// SPDX-License-Identifier: GPL-2.0
/*
 * Run 6.1's own test_verifier in the guest and reduce what it prints to one
 * signature per case variant ("N/u" unprivileged, "N/p" privileged): the
 * outcome test_verifier printed on the case's first line (OK, SKIP, a failed
 * test run), or for a plain FAIL its reason, the expected message and the
 * verifier's last line. Those are what a changed verdict or message changes.
 *
 * DIR/cases (test_verifier --list, made on the host, or a range of it) names
 * the variants in the order test_verifier runs them. With DIR/expected ("N/x<TAB>signature",
 * the pristine kernel's signatures with the series' listed changes) every
 * variant's "N/x descr<TAB>expected<TAB>actual" goes to VERDICTS, which the
 * KUnit suite bpf_test_verifier turns into one test each. Without it (the
 * baseline run on the pristine kernel) every signature goes to the report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "test_verifier_run.h"

#define VERDICTS	"/tmp/test_verifier.verdicts"
#define OUTPUT		"/tmp/test_verifier.out"
#define UNPRIV_SYSCTL	"/proc/sys/kernel/unprivileged_bpf_disabled"
#define MAX_SIG		400	/* a verifier log line can be long */

struct variant {
	char key[16];		/* "N/u" or "N/p" */
	const char *descr;
	char *prefix;		/* "#N/x descr ": where its output begins */
	char *sig;
	const char *expected;
};

static char *read_all(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (getdelim(&text, &len, '\0', f) < 0) {
		free(text);
		text = strdup("");
	}
	fclose(f);
	return text;
}

/* DIR/cases: "N<TAB>u|-<TAB>descr" -> the variants in run order */
static struct variant *read_cases(char *text, int *nr)
{
	struct variant *v = NULL;
	char *line, *n, *u;
	int cnt = 0;

	while ((line = strsep(&text, "\n"))) {
		n = strsep(&line, "\t");
		u = strsep(&line, "\t");
		if (!line)
			continue;
		v = realloc(v, (cnt + 2) * sizeof(*v));
		if (!v)
			return NULL;
		for (const char *x = *u == 'u' ? "up" : "p"; *x; x++, cnt++) {
			memset(&v[cnt], 0, sizeof(v[cnt]));
			snprintf(v[cnt].key, sizeof(v[cnt].key), "%s/%c", n, *x);
			v[cnt].descr = line;
			if (asprintf(&v[cnt].prefix, "#%s %s ", v[cnt].key, line) < 0)
				return NULL;
		}
	}
	*nr = cnt;
	return v;
}

static void clean(char *s)
{
	size_t n = strlen(s);

	for (char *p = s; *p; p++)
		if (*p == '\t')
			*p = ' ';
	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
}

static void (*say)(const char *fmt, ...);

/* The line that gives a variant's outcome; the lines before it are notes. */
static bool is_outcome(const char *line)
{
	char *end = strchr(line, '\0');

	while (end > line && end[-1] == ' ')
		end--;
	return !strncmp(line, "FAIL", 4) || !strncmp(line, "SKIP", 4) ||
	       (end - line >= 2 && !strncmp(end - 2, "OK", 2)) || strstr(line, "OK (NOTE");
}

/* what the verifier logs after its verdict (BPF_LOG_STATS) */
static bool is_statistics(const char *line)
{
	return !strncmp(line, "processed ", 10) || !strncmp(line, "stack depth ", 12) ||
	       !strncmp(line, "verification time ", 18);
}

/*
 * The signature of one variant's output (lines[0] is what follows its
 * prefix): the notes test_verifier printed before the outcome ("Failed to
 * load BTF spec ..."), then the outcome line; for a bare FAIL, its reason
 * and, when the reason is about the verifier's words, the part of the
 * expected message that did not match and the verifier's last line before
 * its statistics ("processed N insns ...", which a series may change). A log
 * of a program that loaded is left out: its statistics are no verdict.
 */
static char *signature(char **lines, int nr)
{
	const char *last = "", *exp = "", *reason, *sep;
	char *notes = strdup(""), *sig, *tmp;
	int i, r, n;

	for (r = 0; r < nr && !is_outcome(lines[r]); r++) {
		n = asprintf(&tmp, "%s%s / ", notes, lines[r]);
		free(notes);
		if (n < 0)
			return NULL;
		notes = tmp;
	}
	if (r == nr) {
		n = asprintf(&sig, "%s(no outcome)", notes);
	} else if (strcmp(lines[r], "FAIL")) {
		n = asprintf(&sig, "%s%s", notes, lines[r]);
	} else {
		reason = r + 1 < nr ? lines[r + 1] : "";
		if (r + 2 < nr && strstr(lines[r + 2], "EXP: "))
			exp = lines[r + 2];
		/* the verifier's last words, before its statistics */
		for (i = nr - 1; i > r + 1 && !*last; i--)
			if (!is_statistics(lines[i]))
				last = lines[i];
		sep = *last ? " | " : "";
		if (strncmp(reason, "Unexpected verifier log!", 24) &&
		    strncmp(reason, "Unexpected error message!", 25) &&
		    strncmp(reason, "Failed to load prog", 19))
			exp = last = sep = "";
		n = asprintf(&sig, "%sFAIL %s%s%s%s%s", notes, reason, *exp ? " " : "",
			     exp + strspn(exp, "\t"), sep, last);
	}
	free(notes);
	if (n < 0)
		return NULL;
	clean(sig);
	if (strlen(sig) > MAX_SIG)
		strcpy(sig + MAX_SIG - 3, "...");
	return sig;
}

/*
 * Cut test_verifier's output into the variants' outputs and sign each.
 * Returns 1 if the output ends with test_verifier's summary, else 0.
 */
static int digest(char *out, struct variant *v, int nr)
{
	char **lines = NULL, *line;
	int nr_lines = 0, cur = -1, next = 0, done = 0;

	for (;;) {
		bool starts, ends;

		line = strsep(&out, "\n");
		starts = line && next < nr &&
			 !strncmp(line, v[next].prefix, strlen(v[next].prefix));
		ends = !line || starts || !strncmp(line, "Summary: ", 9);
		if (ends && cur >= 0) {
			v[cur].sig = signature(lines, nr_lines);
			nr_lines = 0;
			cur = -1;
		}
		if (!line)
			break;
		if (!strncmp(line, "Summary: ", 9)) {
			say("test_verifier: %s", line);
			done = 1;
			continue;
		}
		if (starts) {
			cur = next++;
			line += strlen(v[cur].prefix);
		}
		if (cur < 0)
			continue;
		lines = realloc(lines, (nr_lines + 1) * sizeof(*lines));
		if (!lines)
			return 0;
		lines[nr_lines++] = line;
	}
	free(lines);
	return done;
}

/*
 * Run DIR/test_verifier on cases FROM..TO with its output in OUTPUT; its
 * exit status or -1.
 */
static int run(const char *dir, const char *from, const char *to)
{
	char path[256];
	int status, fd;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/test_verifier", dir);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		fd = open(OUTPUT, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
			_exit(127);
		/* no orphan loading programs if the loader is killed (timeout) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execl(path, path, from, to, NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	if (WIFSIGNALED(status)) {
		say("FAIL: test_verifier killed by signal %d", WTERMSIG(status));
		return -1;
	}
	return WEXITSTATUS(status);
}

/*
 * The unprivileged variants run only with unprivileged BPF enabled; the
 * guest boots with it at 2 (CONFIG_BPF_UNPRIV_DEFAULT_OFF), which may be
 * set to 0 and back.
 */
static int set_unpriv(const char *value, char *old, size_t len)
{
	FILE *f;

	if (access(UNPRIV_SYSCTL, F_OK)) {
		mkdir("/proc", 0755);
		if (mount("proc", "/proc", "proc", 0, NULL))
			return -errno;
	}
	f = fopen(UNPRIV_SYSCTL, "r+");
	if (!f)
		return -errno;
	if (old && !fgets(old, len, f)) {
		fclose(f);
		return -EIO;
	}
	rewind(f);
	if (fputs(value, f) < 0 || fclose(f))
		return -errno;
	return 0;
}

/* DIR/expected: "N/x<TAB>signature", in any order */
static void read_expected(char *text, struct variant *v, int nr)
{
	char *line, *key;
	int i, hint = 0;

	while ((line = strsep(&text, "\n"))) {
		key = strsep(&line, "\t");
		if (!line)
			continue;
		for (i = 0; i < nr; i++) {
			int k = (hint + i) % nr;

			if (!strcmp(v[k].key, key)) {
				v[k].expected = line;
				hint = k + 1;
				break;
			}
		}
	}
}

int run_test_verifier(const char *dir, void (*say_fn)(const char *fmt, ...))
{
	char path[256], old[16] = "2\n", from[16], to[16], *cases, *expected, *out;
	struct variant *v;
	int i, nr = 0, rc, differ = 0, err;
	FILE *f;

	say = say_fn;
	snprintf(path, sizeof(path), "%s/cases", dir);
	cases = read_all(path);
	v = cases ? read_cases(cases, &nr) : NULL;
	if (!v || !nr) {
		say("FAIL: no cases in %s", path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/expected", dir);
	expected = read_all(path);
	if (expected)
		read_expected(expected, v, nr);

	err = set_unpriv("0", old, sizeof(old));
	if (err) {
		say("FAIL: cannot enable unprivileged BPF (%s): %s", UNPRIV_SYSCTL, strerror(-err));
		return 1;
	}
	/* DIR/cases may be a range of the corpus (TEST_VERIFIER_CASES) */
	snprintf(from, sizeof(from), "%.*s", (int)strcspn(v[0].key, "/"), v[0].key);
	snprintf(to, sizeof(to), "%.*s", (int)strcspn(v[nr - 1].key, "/"), v[nr - 1].key);
	rc = run(dir, from, to);
	err = set_unpriv(old, NULL, 0);
	if (err)
		say("FAIL: cannot set %s back to %s", UNPRIV_SYSCTL, old);
	out = read_all(OUTPUT);
	if (rc < 0 || rc > 1 || !out || !digest(out, v, nr)) {
		say("FAIL: test_verifier did not run to its summary (exit %d); its output is in %s",
		    rc, OUTPUT);
		err = 1;
	}

	if (!expected) {
		/* the baseline run: scripts/test_verifier_baseline.sh reads this */
		for (i = 0; i < nr; i++)
			say("baseline\t%s\t%s\t%s", v[i].key, v[i].descr,
			    v[i].sig ?: "(no output)");
		return err ? 1 : 0;
	}
	f = fopen(VERDICTS, "w");
	if (!f) {
		say("FAIL: cannot write %s: %s", VERDICTS, strerror(errno));
		return 1;
	}
	for (i = 0; i < nr; i++) {
		const char *want = v[i].expected ?: "(not in the baseline)";
		const char *got = v[i].sig ?: "(no output)";

		differ += !!strcmp(want, got);
		fprintf(f, "%s %s\t%s\t%s\n", v[i].key, v[i].descr, want, got);
	}
	if (fclose(f)) {
		say("FAIL: cannot write %s: %s", VERDICTS, strerror(errno));
		return 1;
	}
	say("test_verifier: %d case variants, %d differ from what tests/test_verifier/ expects",
	    nr, differ);
	return err ? 1 : 0;
}
