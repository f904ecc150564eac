// SPDX-License-Identifier: GPL-2.0
/*
 * 6.1's own verifier corpus against this kernel: "run" has the loader run
 * test_verifier from the initramfs (runner/test_verifier_run.c), which
 * writes one line per case variant: "N/x descr<TAB>expected<TAB>actual",
 * the expected signature being the pristine kernel's or a change the
 * project lists with its reason (tests/test_verifier/). "verdict" is one
 * test per line: the series may change no verdict and no message that it
 * does not list.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "loader_run.h"

#define TV_DIR		"/test_verifier"
#define VERDICTS	"/tmp/test_verifier.verdicts"
#define MAX_VERDICTS_SIZE	(4 << 20)
/* about 2,000 loads and test runs: 21 s under QEMU's TCG, more with KASAN */
#define TV_TIMEOUT_S	600

struct tv_verdict {
	const char *name, *expected, *actual;
};

static struct tv_verdict *verdicts;
static int nr_verdicts;
static char *verdicts_text;
static int verdicts_err;

static void tv_run(struct kunit *test)
{
	char *args[] = { "--test-verifier", TV_DIR };

	run_loader_timeout(test, "test_verifier", args, ARRAY_SIZE(args), TV_TIMEOUT_S);
}

static int tv_parse(char *text)
{
	char *line;
	int n = 0;

	for (line = text; *line; line++)
		n += *line == '\n';
	verdicts = kcalloc(n + 1, sizeof(*verdicts), GFP_KERNEL);
	if (!verdicts)
		return -ENOMEM;
	while ((line = strsep(&text, "\n"))) {
		struct tv_verdict *v = &verdicts[nr_verdicts];

		if (!*line)
			continue;
		v->name = strsep(&line, "\t");
		v->expected = strsep(&line, "\t");
		v->actual = line;
		if (!v->expected || !v->actual)
			return -EINVAL;
		nr_verdicts++;
	}
	return nr_verdicts ? 0 : -ENODATA;
}

static int tv_load(void)
{
	verdicts_text = read_text_file(VERDICTS, MAX_VERDICTS_SIZE);
	if (IS_ERR(verdicts_text)) {
		int err = PTR_ERR(verdicts_text);

		verdicts_text = NULL;
		return err;
	}
	return tv_parse(verdicts_text);
}

/* One error entry, so that missing verdicts fail instead of running nothing. */
static struct tv_verdict tv_error;

static const void *tv_gen(const void *prev, char *desc)
{
	const struct tv_verdict *v = prev;
	char *p;

	if (!prev) {
		verdicts_err = tv_load();
		if (verdicts_err) {
			strscpy(desc, "verdicts", KUNIT_PARAM_DESC_SIZE);
			return &tv_error;
		}
		v = verdicts;
	} else if (v == &tv_error || ++v == verdicts + nr_verdicts) {
		return NULL;
	}
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
	/* KTAP reads "#" as the start of a directive */
	for (p = desc; (p = strchr(p, '#')); )
		*p = ' ';
	return v;
}

static void tv_verdict(struct kunit *test)
{
	const struct tv_verdict *v = test->param_value;

	KUNIT_ASSERT_EQ_MSG(test, verdicts_err, 0,
			    "no verdicts in %s: test_verifier did not run (see the run case)",
			    VERDICTS);
	KUNIT_EXPECT_STREQ_MSG(test, v->actual, v->expected,
			       "%s: a verdict or message the series changes; list it with its reason in tests/test_verifier/changes.txt, or fix the series",
			       v->name);
}

static void tv_exit(struct kunit_suite *suite)
{
	vfree(verdicts_text);
	verdicts_text = NULL;
	kfree(verdicts);
	verdicts = NULL;
	nr_verdicts = 0;
}

static struct kunit_case tv_cases[] = {
	KUNIT_CASE(tv_run),
	KUNIT_CASE_PARAM(tv_verdict, tv_gen),
	{}
};

static struct kunit_suite tv_suite = {
	.name = "bpf_test_verifier",
	.test_cases = tv_cases,
	.suite_exit = tv_exit,
};

kunit_test_suites(&tv_suite);

MODULE_LICENSE("GPL");
