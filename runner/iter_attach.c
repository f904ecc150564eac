// SPDX-License-Identifier: GPL-2.0
/*
 * __iter_attach(MAP, ERRNO) on a map iterator program (iter/bpf_map_elem or
 * iter/bpf_sk_storage_map): once loaded, it is attached to the object's map
 * MAP; the attach must fail with ERRNO, or, for "0", succeed, and the
 * iterator is then read to its end (the program runs on every element).
 */
#define _GNU_SOURCE		/* strerrorname_np() */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "iter_attach.h"

int iter_attach_check(struct bpf_object *obj, struct bpf_program *prog, const char *spec,
		      void (*say)(const char *fmt, ...))
{
	DECLARE_LIBBPF_OPTS(bpf_iter_attach_opts, opts);
	union bpf_iter_link_info linfo = {};
	char map_name[64], want[16], buf[64];
	struct bpf_link *link;
	struct bpf_map *map;
	int err, fd;

	if (sscanf(spec, "%63s %15s", map_name, want) != 2) {
		say("FAIL: __iter_attach(\"%s\"): want \"MAP ERRNO\"", spec);
		return 1;
	}
	map = bpf_object__find_map_by_name(obj, map_name);
	if (!map) {
		say("FAIL: __iter_attach: no map %s in the object", map_name);
		return 1;
	}
	linfo.map.map_fd = bpf_map__fd(map);
	opts.link_info = &linfo;
	opts.link_info_len = sizeof(linfo);
	link = bpf_program__attach_iter(prog, &opts);
	err = link ? 0 : errno;
	if (strcmp(want, err ? strerrorname_np(err) : "0")) {
		say("FAIL: attaching the iterator to %s: expected %s, actual %s", map_name, want,
		    err ? strerrorname_np(err) : "0");
		say("actual-error: iterator attach %s", err ? strerrorname_np(err) : "0");
		bpf_link__destroy(link);
		return 1;
	}
	if (!link) {
		say("ok: attaching the iterator to %s fails with %s", map_name, want);
		return 0;
	}
	fd = bpf_iter_create(bpf_link__fd(link));
	if (fd < 0) {
		say("FAIL: bpf_iter_create: %s", strerror(errno));
		bpf_link__destroy(link);
		return 1;
	}
	while ((err = read(fd, buf, sizeof(buf))) > 0)
		;
	close(fd);
	bpf_link__destroy(link);
	if (err < 0) {
		say("FAIL: reading the iterator: %s", strerror(errno));
		return 1;
	}
	say("ok: the iterator attaches to %s and runs", map_name);
	return 0;
}
