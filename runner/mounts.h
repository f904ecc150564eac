/* SPDX-License-Identifier: GPL-2.0 */
/* The file systems the loader needs and a usermode helper starts without. */
#ifndef __MOUNTS_H
#define __MOUNTS_H

#define DEBUGFS	"/sys/kernel/debug"

/* libbpf reads kernel BTF from sysfs; a failure is only a warning. */
void mount_sysfs(void);
/* 0, or 1 (reported). */
int mount_debugfs(void);

#endif
