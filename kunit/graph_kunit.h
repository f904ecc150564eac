/* SPDX-License-Identifier: GPL-2.0 */
/* What the graph KUnit suites share: a way to allocate and free as a BPF
 * program does, and the count of live objects.
 */
#ifndef _GRAPH_KUNIT_H
#define _GRAPH_KUNIT_H

#include <linux/bpf.h>
#include <linux/preempt.h>

#ifndef CONFIG_BPF_GRAPH_OBJ_ACCOUNTING
#error "the graph KUnit suites count objects: they need CONFIG_BPF_GRAPH_OBJ_ACCOUNTING=y (kunitconfig)"
#endif

struct btf_struct_meta;

/* Freed objects read as POISON_FREE unless bpf_graph_obj_poison=0 is on
 * the kernel command line (the harness's scripts/poison_freed_objects.diff).
 */
extern bool bpf_graph_obj_poison;

/* Objects bpf_obj_new_impl() handed out and not freed yet
 * (CONFIG_BPF_GRAPH_OBJ_ACCOUNTING, which every run's kunitconfig sets).
 */
static inline long graph_objs_live(void)
{
	long allocated, freed;

	bpf_graph_objs_count(&allocated, &freed);
	return allocated - freed;
}

/* BPF programs run with migration disabled; so must direct callers. */
static inline void *graph_obj_new_meta(u64 size, const struct btf_struct_meta *meta)
{
	void *p;

	migrate_disable();
	p = bpf_obj_new_impl(size, (void *)meta);
	migrate_enable();
	return p;
}

static inline void *graph_obj_new(u64 size)
{
	return graph_obj_new_meta(size, NULL);
}

/* The object knows its struct meta: bpf_obj_drop() ignores its argument,
 * as it does for a program, so pass NULL here.
 */
static inline void graph_obj_drop(void *p)
{
	migrate_disable();
	bpf_obj_drop_impl(p, NULL);
	migrate_enable();
}

#endif
