// SPDX-License-Identifier: GPL-2.0
/*
 * __replaces(TARGET, FUNC) on an extension program (SEC("freplace/FUNC")):
 * the object's program TARGET is loaded first, from a second instance of
 * the object, and the extension is then loaded to replace TARGET's global
 * function FUNC (the kernel checks an extension against a loaded target).
 * The target stays loaded for the report's second load of a refused one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "freplace.h"

/* Sets @ext to replace FUNC of TARGET in @target_obj (loaded). */
int freplace_attach(struct bpf_object *target_obj, struct bpf_program *ext, const char *spec,
		    void (*say)(const char *fmt, ...))
{
	char target[64], func[64];
	struct bpf_program *prog;
	int err;

	if (sscanf(spec, "%63s %63s", target, func) != 2) {
		say("FAIL: __replaces(\"%s\"): want \"TARGET FUNC\"", spec);
		return 1;
	}
	if (bpf_program__type(ext) != BPF_PROG_TYPE_EXT) {
		say("FAIL: __replaces on %s, not an extension (SEC(\"freplace/FUNC\"))",
		    bpf_program__name(ext));
		return 1;
	}
	prog = bpf_object__find_program_by_name(target_obj, target);
	err = bpf_program__set_attach_target(ext, bpf_program__fd(prog), func);
	if (err) {
		say("FAIL: __replaces: cannot replace %s's %s: %s", target, func, strerror(-err));
		return 1;
	}
	return 0;
}

struct bpf_object *freplace_target(const char *path, struct bpf_program *ext, const char *spec,
				   void (*say)(const char *fmt, ...))
{
	char target[64];
	struct bpf_program *p, *prog;
	struct bpf_object *obj;
	int err;

	if (sscanf(spec, "%63s", target) != 1) {
		say("FAIL: __replaces(\"%s\"): want \"TARGET FUNC\"", spec);
		return NULL;
	}
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		say("FAIL: cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	prog = bpf_object__find_program_by_name(obj, target);
	if (!prog) {
		say("FAIL: __replaces: no program %s in the object", target);
		goto fail;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, p == prog);
	err = bpf_object__load(obj);
	if (err) {
		say("FAIL: __replaces: the target %s does not load: %s", target, strerror(-err));
		goto fail;
	}
	if (freplace_attach(obj, ext, spec, say))
		goto fail;
	return obj;
fail:
	bpf_object__close(obj);
	return NULL;
}
