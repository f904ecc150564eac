// SPDX-License-Identifier: GPL-2.0
/*
 * Run the initramfs loader as a usermode helper and turn its report and exit
 * status into KUnit diagnostics and expectations. The loader writes its
 * report to /tmp/NAME.report: a helper has no stdout to read. A loader
 * that runs longer than its timeout (bpf_graph_loader_timeout= seconds on
 * the guest's command line, default 60, unless the caller gives one) is
 * killed and its test fails as timed out, and the run goes on.
 */
#include <linux/kernel_read_file.h>
#include <linux/ktime.h>
#include <linux/pid.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/umh.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

#include "loader_run.h"

#define MAX_REPORT_SIZE	(1 << 20)

/* run_tests.sh sets it from TEST_TIMEOUT (and longer under --debug). The
 * slowest selftest takes 14 s on the project's machine: 60 leaves room for
 * a machine half as fast.
 */
static unsigned int bpf_graph_loader_timeout = 60;
core_param(bpf_graph_loader_timeout, bpf_graph_loader_timeout, uint, 0444);

struct loader_watch {
	struct pid *pid;		/* the helper's, once it runs */
	bool timed_out;
	struct delayed_work timeout;
};

/* The helper's process, before it execs the loader. */
static int loader_started(struct subprocess_info *info, struct cred *new)
{
	struct loader_watch *w = info->data;

	smp_store_release(&w->pid, get_pid(task_pid(current)));
	return 0;
}

static void loader_timed_out(struct work_struct *work)
{
	struct loader_watch *w = container_of(work, struct loader_watch, timeout.work);
	struct pid *pid = smp_load_acquire(&w->pid);

	WRITE_ONCE(w->timed_out, true);
	if (pid)
		kill_pid(pid, SIGKILL, 1);
}

char *read_text_file(const char *path, size_t max_size)
{
	void *buf = NULL;
	ssize_t len;
	char *text;

	len = kernel_read_file_from_path(path, 0, &buf, max_size - 1, NULL,
					 READING_UNKNOWN);
	if (len < 0)
		return ERR_PTR(len);
	text = vmalloc(len + 1);
	if (text) {
		memcpy(text, buf, len);
		text[len] = '\0';
	}
	vfree(buf);
	return text ?: ERR_PTR(-ENOMEM);
}

/* Copy the report into the KTAP diagnostics, a line each. */
static int print_report(struct kunit *test, const char *name, const char *path)
{
	char *line, *text, *cursor;

	text = read_text_file(path, MAX_REPORT_SIZE);
	if (IS_ERR(text))
		return PTR_ERR(text);
	cursor = text;
	while ((line = strsep(&cursor, "\n")))
		if (*line)
			kunit_info(test, "%s: %s\n", name, line);
	vfree(text);
	return 0;
}

void run_loader(struct kunit *test, const char *name, char *const *args,
		int nr_args)
{
	run_loader_timeout(test, name, args, nr_args, bpf_graph_loader_timeout);
}

void run_loader_timeout(struct kunit *test, const char *name, char *const *args,
			int nr_args, int timeout_s)
{
	static char *envp[] = { "HOME=/", "PATH=/sbin:/bin", NULL };
	char *argv[LOADER_MAX_ARGS + 3];
	struct subprocess_info *info;
	struct loader_watch w = { };
	char report[128];
	int i, status, err;
	ktime_t start;

	KUNIT_ASSERT_LE(test, nr_args, LOADER_MAX_ARGS);
	snprintf(report, sizeof(report), "/tmp/%s.report", name);
	argv[0] = LOADER;
	argv[1] = report;
	for (i = 0; i < nr_args; i++)
		argv[i + 2] = args[i];
	argv[nr_args + 2] = NULL;

	info = call_usermodehelper_setup(LOADER, argv, envp, GFP_KERNEL,
					 loader_started, NULL, &w);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, info);
	INIT_DELAYED_WORK_ONSTACK(&w.timeout, loader_timed_out);
	start = ktime_get();
	schedule_delayed_work(&w.timeout, timeout_s * HZ);
	status = call_usermodehelper_exec(info, UMH_WAIT_PROC);
	cancel_delayed_work_sync(&w.timeout);
	destroy_delayed_work_on_stack(&w.timeout);
	put_pid(w.pid);

	err = print_report(test, name, report);
	/* for the results file (check_results.py) */
	kunit_info(test, "%s: loader ran for %lld ms\n", name,
		   ktime_ms_delta(ktime_get(), start));
	if (w.timed_out)
		kunit_info(test, "%s: timed out after %d s, killed\n", name, timeout_s);
	KUNIT_ASSERT_GE_MSG(test, status, 0, "cannot run %s", LOADER);
	KUNIT_ASSERT_FALSE_MSG(test, w.timed_out, "%s: timed out after %d s, killed",
			       name, timeout_s);
	KUNIT_EXPECT_EQ_MSG(test, status & 0x7f, 0,
			    "%s killed by signal %d", LOADER, status & 0x7f);
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "no report from %s at %s", LOADER, report);
	KUNIT_EXPECT_EQ_MSG(test, (status >> 8) & 0xff, 0,
			    "%s: failed (report above)", name);
}
