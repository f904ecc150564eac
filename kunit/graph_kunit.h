/* SPDX-License-Identifier: GPL-2.0 */
/* What the graph KUnit suites share: a way to allocate and free as a BPF
 * program does, and the count of live objects.
 */
#ifndef _GRAPH_KUNIT_H
#define _GRAPH_KUNIT_H

#include <linux/bpf.h>
#include <linux/preempt.h>

struct bpf_list_head;
struct bpf_list_node;
struct bpf_rb_root;
struct bpf_rb_node;
struct btf_struct_meta;

/* The kfuncs are declared in <linux/bpf.h> from patch 29 on. The prefixes
 * before it (./run_tests.sh --each-patch) need these; with both in scope
 * the compiler checks that they agree.
 */
void *bpf_obj_new_impl(u64 local_type_id__k, void *meta__ign);
void bpf_obj_drop_impl(void *p__alloc, void *meta__ign);
void bpf_list_push_front(struct bpf_list_head *head, struct bpf_list_node *node);
void bpf_list_push_back(struct bpf_list_head *head, struct bpf_list_node *node);
struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head);
struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head);
void bpf_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
		    bool (less)(struct bpf_rb_node *a, const struct bpf_rb_node *b));
struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root, struct bpf_rb_node *node);
struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root);

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
static inline void *graph_obj_new(u64 size)
{
	void *p;

	migrate_disable();
	p = bpf_obj_new_impl(size, NULL);
	migrate_enable();
	return p;
}

static inline void graph_obj_drop(void *p, const struct btf_struct_meta *meta)
{
	migrate_disable();
	bpf_obj_drop_impl(p, (void *)meta);
	migrate_enable();
}

#endif
