// SPDX-License-Identifier: GPL-2.0
/* The file systems a usermode helper starts without (mounts.h). */
#include <errno.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include "mounts.h"
#include "report.h"

void mount_sysfs(void)
{
	if (!access("/sys/kernel/btf/vmlinux", R_OK))
		return;
	mkdir("/sys", 0755);
	if (mount("sysfs", "/sys", "sysfs", 0, NULL))
		say("warning: mounting sysfs: %s", strerror(errno));
}

int mount_debugfs(void)
{
	struct statfs fs;

	mkdir(DEBUGFS, 0755);
	if ((statfs(DEBUGFS, &fs) || fs.f_type != DEBUGFS_MAGIC) &&
	    mount("debugfs", DEBUGFS, "debugfs", 0, NULL)) {
		say("FAIL: mounting debugfs: %s", strerror(errno));
		return 1;
	}
	return 0;
}
