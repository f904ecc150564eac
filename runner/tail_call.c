// SPDX-License-Identifier: GPL-2.0
/*
 * __tail_call(MAP, TARGET) on a program that runs: the object's program
 * TARGET is loaded with it and put at index 0 of the object's
 * BPF_MAP_TYPE_PROG_ARRAY MAP before the run, so that the program's tail
 * calls through MAP are taken (a jump table left empty only tests the path
 * on which they fail).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include "tail_call.h"

struct bpf_program *tail_call_target(struct bpf_object *obj, const char *spec,
				     void (*say)(const char *fmt, ...))
{
	char map_name[64], target[64];
	struct bpf_program *prog;

	if (sscanf(spec, "%63s %63s", map_name, target) != 2) {
		say("FAIL: __tail_call(\"%s\"): want \"MAP TARGET\"", spec);
		return NULL;
	}
	prog = bpf_object__find_program_by_name(obj, target);
	if (!prog)
		say("FAIL: __tail_call: no program %s in the object", target);
	return prog;
}

int tail_call_fill(struct bpf_object *obj, const char *spec, struct bpf_program *target,
		   void (*say)(const char *fmt, ...))
{
	char map_name[64];
	struct bpf_map *map;
	int key = 0, fd;

	sscanf(spec, "%63s", map_name);
	map = bpf_object__find_map_by_name(obj, map_name);
	if (!map || bpf_map__type(map) != BPF_MAP_TYPE_PROG_ARRAY) {
		say("FAIL: __tail_call: no BPF_MAP_TYPE_PROG_ARRAY %s in the object", map_name);
		return 1;
	}
	fd = bpf_program__fd(target);
	if (bpf_map_update_elem(bpf_map__fd(map), &key, &fd, BPF_ANY)) {
		say("FAIL: __tail_call: putting %s into %s: %s", bpf_program__name(target),
		    map_name, strerror(errno));
		return 1;
	}
	say("ok: %s[0] is %s", map_name, bpf_program__name(target));
	return 0;
}
