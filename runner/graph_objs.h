/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The graph objects a test leaves behind: bpf_obj_new()'s objects counted
 * by the harness (kunit/graph_obj_hooks.c, debugfs bpf_graph_objs), since
 * the test's object was opened.
 */
#ifndef __GRAPH_OBJS_H
#define __GRAPH_OBJS_H

/* Mount debugfs and take the counts before the object is opened; 0 or 1. */
int graph_objs_begin(void);
/* @allocated or @live since graph_objs_begin(); 0 or -errno. */
int graph_objs_count(const char *name, long long *val);
/* The same, @live waited for until it has come down to @want. */
int graph_objs_settled(const char *name, long long want, long long *val);
/* 0 once every object allocated since the begin is freed; else 1, reported. */
int graph_objs_all_freed(void);
/* The same, silent when it passes (the modes that load many programs). */
int graph_objs_all_freed_quietly(void);

#endif
