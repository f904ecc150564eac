// SPDX-License-Identifier: GPL-2.0
/* The graph objects a test leaves behind (graph_objs.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "graph_objs.h"
#include "mounts.h"
#include "report.h"

#define GRAPH_OBJS	DEBUGFS "/bpf_graph_objs"
#define FREE_TIMEOUT_MS	10000

struct graph_objs {
	long allocated;
	long freed;
};

static struct graph_objs at_begin;

static int read_graph_objs(struct graph_objs *c)
{
	FILE *f;
	int n;

	f = fopen(GRAPH_OBJS, "r");
	if (!f) {
		say("FAIL: cannot read %s (the harness's graph_obj_hooks.c): %s",
		    GRAPH_OBJS, strerror(errno));
		return 1;
	}
	n = fscanf(f, "allocated %ld freed %ld", &c->allocated, &c->freed);
	fclose(f);
	if (n != 2) {
		say("FAIL: %s: unexpected format", GRAPH_OBJS);
		return 1;
	}
	return 0;
}

int graph_objs_begin(void)
{
	return mount_debugfs() || read_graph_objs(&at_begin);
}

/* The objects allocated and freed since the begin, from one read. */
static int read_since_begin(struct graph_objs *since)
{
	if (read_graph_objs(since))
		return 1;
	since->allocated -= at_begin.allocated;
	since->freed -= at_begin.freed;
	return 0;
}

int graph_objs_count(const char *name, long long *val)
{
	struct graph_objs since;

	if (read_since_begin(&since))
		return -EIO;
	if (!strcmp(name, "@allocated"))
		*val = since.allocated;
	else if (!strcmp(name, "@live"))
		*val = since.allocated - since.freed;
	else
		return -ENOENT;
	return 0;
}

/*
 * Objects freed after an RCU grace period (a deleted hash element's nodes)
 * are counted late, and after the run @live can only fall. A count above
 * @want after FREE_TIMEOUT_MS, or below it, is the count.
 */
int graph_objs_settled(const char *name, long long want, long long *val)
{
	int ms, err = graph_objs_count(name, val);

	for (ms = 0; !err && !strcmp(name, "@live") && *val > want && ms < FREE_TIMEOUT_MS;
	     ms += 10) {
		usleep(10000);
		err = graph_objs_count(name, val);
	}
	return err;
}

/*
 * The object is closed: its maps go, and with them every graph object
 * still in them. Map free runs in a worker after an RCU grace period, so
 * give it time.
 */
static int wait_all_freed(bool verbose)
{
	struct graph_objs since;
	long live = 0;
	int ms;

	for (ms = 0; ms <= FREE_TIMEOUT_MS; ms += 10) {
		if (read_since_begin(&since))
			return 1;
		live = since.allocated - since.freed;
		if (!live) {
			if (verbose)
				say("ok: closed, the %ld graph object(s) allocated since the load are freed",
				    since.allocated);
			return 0;
		}
		usleep(10000);
	}
	say("FAIL: %ld graph object(s) not freed %d ms after the object was closed "
	    "(expected @live == 0 after close, actual %ld)", live, FREE_TIMEOUT_MS, live);
	return 1;
}

int graph_objs_all_freed(void)
{
	return wait_all_freed(true);
}

int graph_objs_all_freed_quietly(void)
{
	return wait_all_freed(false);
}
