/* SPDX-License-Identifier: GPL-2.0 */
/* Test hooks on the objects of bpf_obj_new(), called from kernel/bpf/memalloc.c
 * by the harness's scripts/graph_obj_hooks.diff (see graph_obj_hooks.c).
 */
#ifndef _GRAPH_OBJ_HOOKS_H
#define _GRAPH_OBJ_HOOKS_H

#include <linux/types.h>

struct bpf_mem_alloc;

/* @ma is the global allocator of bpf_obj_new(), and the hooks are on. */
bool bpf_graph_obj_hooked(const struct bpf_mem_alloc *ma);
/* CONFIG_BPF_GRAPH_OBJ_SLAB: objects from kmalloc(), freed with kfree(). */
bool bpf_graph_obj_from_slab(void);
void *bpf_graph_obj_slab_alloc(size_t size);
/* Count @obj (NULL: nothing) as allocated; returns @obj. */
void *bpf_graph_obj_note_alloc(void *obj);
/* Count @obj as freed and poison it; true when it went back to the slab. */
bool bpf_graph_obj_hook_free(void *obj);
/* Objects bpf_obj_new() handed out and objects freed, since boot. */
void bpf_graph_objs_count(long *allocated, long *freed);

#endif
