/* SPDX-License-Identifier: GPL-2.0 */
/* What the graph KUnit suites share: a way to allocate and free as a BPF
 * program does, and the count of live objects.
 */
#ifndef _GRAPH_KUNIT_H
#define _GRAPH_KUNIT_H

#include <linux/bpf.h>
#include <linux/preempt.h>
#include "graph_obj_hooks.h"

struct btf_struct_meta;
/* Declared here too: the list suites build from patch 10, before the
 * series adds the rbtree's types (patch 13).
 */
struct bpf_rb_root;
struct bpf_rb_node;

/* The graph kfuncs (kernel/bpf/helpers.c): BPF programs find them through
 * BTF, the kernel has no prototypes of them.
 */
void *bpf_obj_new_impl(u64 local_type_id__k, void *meta__ign);
void bpf_obj_drop_impl(void *p__alloc, void *meta__ign);
void bpf_list_push_front(struct bpf_list_head *head, struct bpf_list_node *node);
void bpf_list_push_back(struct bpf_list_head *head, struct bpf_list_node *node);
struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head);
struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head);
void bpf_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
		    bool (*less)(struct bpf_rb_node *a, const struct bpf_rb_node *b));
struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root, struct bpf_rb_node *node);
struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root);

/* Freed objects read as POISON_FREE unless bpf_graph_obj_poison=0 is on
 * the kernel command line (graph_obj_hooks.c).
 */
extern bool bpf_graph_obj_poison;

/* Empty graph root @root of map value @value, whose lock is @lock, as the
 * free paths of a map do: bpf_map_free_graph_roots() of a map with that
 * one root.
 */
static inline void graph_root_free(const struct bpf_map_graph_root *root,
				   void *value, struct bpf_spin_lock *lock)
{
	struct bpf_map_graph_roots roots = { .cnt = 1, .root[0] = *root };
	struct bpf_map map = { .graph_roots = &roots };

	map.spin_lock_off = (void *)lock - value;
	bpf_map_free_graph_roots(&map, value);
}

/* Objects bpf_obj_new_impl() handed out and not freed yet (graph_obj_hooks.c). */
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
