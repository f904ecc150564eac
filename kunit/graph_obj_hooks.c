// SPDX-License-Identifier: GPL-2.0
/*
 * Test hooks on the objects of bpf_obj_new() (harness only: the series has
 * none of this). scripts/graph_obj_hooks.diff calls them from
 * bpf_mem_alloc() and bpf_mem_free() for the global allocator, the one
 * bpf_obj_new() and the graph free paths use:
 *
 * - every object handed out and given back is counted, and debugfs'
 *   bpf_graph_objs shows both counts, so that a test can check that every
 *   object it created was freed (a free path that forgets a list or a tree
 *   leaves no other trace: the root is empty afterwards either way);
 * - a freed object is filled with POISON_FREE, so that a use after free
 *   turns a default run red (a GP fault on 0x6b6b... or a stuck lock)
 *   where the per-CPU free lists would hand back the old bytes;
 * - with CONFIG_BPF_GRAPH_OBJ_SLAB (debug runs) objects come from kmalloc()
 *   and go back with kfree() at once, so that KASAN sees every use after
 *   free and kmemleak every leak; the word in front of an object is kept,
 *   as bpf_mem_alloc() has it (the object's owner word).
 *
 * bpf_graph_obj_hooks=0 on the kernel command line turns all of it off:
 * the kernel then runs the series' own code (--rbtree-bench);
 * bpf_graph_obj_poison=0 turns off the poisoning alone.
 */
#include <linux/bpf.h>
#include <linux/bpf_mem_alloc.h>
#include <linux/debugfs.h>
#include <linux/moduleparam.h>
#include <linux/poison.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include "graph_obj_hooks.h"

/* Weak: a prefix of the series before bpf_obj_new() has no global
 * allocator, and nothing is hooked there.
 */
extern struct bpf_mem_alloc bpf_global_ma __weak;

static bool bpf_graph_obj_hooks __read_mostly = true;
core_param(bpf_graph_obj_hooks, bpf_graph_obj_hooks, bool, 0444);
bool bpf_graph_obj_poison __read_mostly = true;
core_param(bpf_graph_obj_poison, bpf_graph_obj_poison, bool, 0644);

static atomic_long_t bpf_graph_objs_allocated;
static atomic_long_t bpf_graph_objs_freed;

/* As bpf_mem_alloc(): 4096-byte buckets, the link word included. */
#define GRAPH_OBJ_SLAB_MAX_SIZE	(4096 - sizeof(void *))

bool bpf_graph_obj_hooked(const struct bpf_mem_alloc *ma)
{
	return bpf_graph_obj_hooks && &bpf_global_ma && ma == &bpf_global_ma;
}

bool bpf_graph_obj_from_slab(void)
{
	return IS_ENABLED(CONFIG_BPF_GRAPH_OBJ_SLAB);
}

void *bpf_graph_obj_slab_alloc(size_t size)
{
	void *p;

	if (size > GRAPH_OBJ_SLAB_MAX_SIZE)
		return NULL;
	p = kmalloc(sizeof(void *) + size, GFP_NOWAIT | __GFP_NOWARN);
	return p ? p + sizeof(void *) : NULL;
}

void *bpf_graph_obj_note_alloc(void *obj)
{
	if (obj)
		atomic_long_inc(&bpf_graph_objs_allocated);
	return obj;
}

bool bpf_graph_obj_hook_free(void *obj)
{
	/* bpf_mem_alloc()'s answer to a zero size: nothing was counted, and
	 * bpf_mem_free() finds no cache for it (an empty struct before the
	 * series gives it a real object)
	 */
	if (ZERO_OR_NULL_PTR(obj))
		return false;
	atomic_long_inc(&bpf_graph_objs_freed);
	if (bpf_graph_obj_from_slab()) {
		kfree(obj - sizeof(void *));
		return true;
	}
	if (bpf_graph_obj_poison)
		memset(obj, POISON_FREE, ksize(obj - sizeof(void *)) - sizeof(void *));
	return false;
}

void bpf_graph_objs_count(long *allocated, long *freed)
{
	*freed = atomic_long_read(&bpf_graph_objs_freed);
	*allocated = atomic_long_read(&bpf_graph_objs_allocated);
}

static int bpf_graph_objs_show(struct seq_file *m, void *unused)
{
	long allocated, freed;

	bpf_graph_objs_count(&allocated, &freed);
	seq_printf(m, "allocated %ld\nfreed %ld\n", allocated, freed);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bpf_graph_objs);

static int __init bpf_graph_objs_debugfs_init(void)
{
	debugfs_create_file("bpf_graph_objs", 0444, NULL, NULL, &bpf_graph_objs_fops);
	return 0;
}
late_initcall(bpf_graph_objs_debugfs_init);
