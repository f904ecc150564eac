// SPDX-License-Identifier: GPL-2.0
/*
 * __caps_only(NAMES): the program is loaded with only the capabilities
 * NAMES (space-separated: bpf, perfmon, net_admin, sys_admin) in the
 * effective set, as a program's loader without CAP_PERFMON would be. The
 * permitted set stays, so the loader gets its own capabilities back after
 * the load (to read debugfs, to run the program).
 */
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include "caps.h"

static const struct {
	const char *name;
	int cap;
} cap_names[] = {
	{ "net_admin", CAP_NET_ADMIN },
	{ "sys_admin", CAP_SYS_ADMIN },
	{ "perfmon", 38 },	/* CAP_PERFMON, CAP_BPF: newer than some headers */
	{ "bpf", 39 },
};

static struct __user_cap_data_struct saved[_LINUX_CAPABILITY_U32S_3];

static int capset_data(struct __user_cap_data_struct *data)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capset, &hdr, data);
}

int caps_narrow(const char *names, void (*say)(const char *fmt, ...))
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	char copy[128], *name, *save;
	unsigned int i;

	if (syscall(SYS_capget, &hdr, saved)) {
		say("FAIL: capget: %m");
		return -1;
	}
	memcpy(data, saved, sizeof(data));
	data[0].effective = data[1].effective = 0;
	strncpy(copy, names, sizeof(copy) - 1);
	copy[sizeof(copy) - 1] = '\0';
	for (name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
		for (i = 0; i < sizeof(cap_names) / sizeof(cap_names[0]); i++)
			if (!strcmp(name, cap_names[i].name))
				break;
		if (i == sizeof(cap_names) / sizeof(cap_names[0])) {
			say("FAIL: __caps_only: unknown capability '%s'", name);
			return -1;
		}
		data[cap_names[i].cap / 32].effective |= 1u << (cap_names[i].cap % 32);
	}
	if (capset_data(data)) {
		say("FAIL: capset: %m");
		return -1;
	}
	say("capabilities for the load: %s", names);
	return 0;
}

int caps_restore(void)
{
	return capset_data(saved);
}
