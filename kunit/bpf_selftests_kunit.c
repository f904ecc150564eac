// SPDX-License-Identifier: GPL-2.0
/*
 * Bridge from KUnit to the project's BPF selftests.
 *
 * The selftests are BPF objects in the initramfs together with a static
 * loader and a manifest (one selftest a line). The parameterized case reads
 * the manifest at run time, so adding a selftest never rebuilds the kernel,
 * and runs the loader once per line as a usermode helper. The loader loads
 * and runs or expects rejection, then writes a report that this case copies
 * into the KTAP diagnostics; its exit status is the verdict.
 *
 * Manifest lines: see scripts/derive_manifest.py, which writes the manifest
 * from the programs' annotations.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "loader_run.h"

#define MANIFEST	SELFTEST_DIR "/tests.list"
#define MAX_FILE_SIZE	(1 << 20)

struct bpf_selftest {
	int err;			/* manifest could not be read or parsed */
	int argc;
	char *argv[LOADER_MAX_ARGS];		/* argv[0] is the program name */
};

static struct bpf_selftest *selftests;
static int nr_selftests;
static char *manifest;

static void free_manifest(void)
{
	vfree(manifest);
	manifest = NULL;
	kfree(selftests);
	selftests = NULL;
	nr_selftests = 0;
}

/* Split the manifest in place into selftests; returns 0 or -errno. */
static int parse_manifest(char *text)
{
	char *line, *tok;
	int n = 0;

	for (line = text; *line; line++)
		n += *line == '\n';
	selftests = kcalloc(n + 1, sizeof(*selftests), GFP_KERNEL);
	if (!selftests)
		return -ENOMEM;

	while ((line = strsep(&text, "\n"))) {
		struct bpf_selftest *t = &selftests[nr_selftests];

		while ((tok = strsep(&line, " \t"))) {
			if (!*tok)
				continue;
			if (*tok == '#')
				break;
			if (t->argc == LOADER_MAX_ARGS)
				return -E2BIG;
			t->argv[t->argc++] = tok;
		}
		if (!t->argc)
			continue;
		if (t->argc < 3)
			return -EINVAL;
		nr_selftests++;
	}
	return nr_selftests ? 0 : -ENODATA;
}

static int load_manifest(void)
{
	int err;

	free_manifest();
	manifest = read_text_file(MANIFEST, MAX_FILE_SIZE);
	if (IS_ERR(manifest)) {
		err = PTR_ERR(manifest);
		manifest = NULL;
		return err;
	}
	err = parse_manifest(manifest);
	if (err)
		free_manifest();
	return err;
}

/* One error entry, so that an unreadable manifest fails instead of running nothing. */
static struct bpf_selftest manifest_error;

static const void *bpf_selftest_gen(const void *prev, char *desc)
{
	const struct bpf_selftest *t = prev;
	int err;

	if (!prev) {
		err = load_manifest();
		if (err) {
			manifest_error.err = err;
			strscpy(desc, "manifest", KUNIT_PARAM_DESC_SIZE);
			return &manifest_error;
		}
		t = selftests;
	} else if (t == &manifest_error || ++t == selftests + nr_selftests) {
		return NULL;
	}
	strscpy(desc, t->argv[0], KUNIT_PARAM_DESC_SIZE);
	return t;
}

static void bpf_prog(struct kunit *test)
{
	const struct bpf_selftest *t = test->param_value;

	KUNIT_ASSERT_EQ_MSG(test, t->err, 0, "cannot use manifest %s", MANIFEST);
	run_loader(test, t->argv[0], t->argv, t->argc);
}

static void bpf_selftests_exit(struct kunit_suite *suite)
{
	free_manifest();
}

static struct kunit_case bpf_selftests_cases[] = {
	KUNIT_CASE_PARAM(bpf_prog, bpf_selftest_gen),
	{}
};

static struct kunit_suite bpf_selftests_suite = {
	.name = "bpf_graph_progs",
	.suite_exit = bpf_selftests_exit,
	.test_cases = bpf_selftests_cases,
};

kunit_test_suites(&bpf_selftests_suite);

MODULE_LICENSE("GPL");
