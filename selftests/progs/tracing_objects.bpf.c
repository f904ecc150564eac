// SPDX-License-Identifier: GPL-2.0
/*
 * Allocated objects and a tree inside one, in a tracing (fentry) program.
 * BPF_PROG_TEST_RUN only runs fentry programs through an attached
 * trampoline, which the test kernel lacks: these are load tests.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "rbtree_types.h"
#include "bpf_misc.h"

SEC("fentry/bpf_fentry_test1")
__success
int obj_new_in_fentry(void *ctx)
{
	struct node_data *n = new_node(1, 2);

	if (n)
		bpf_obj_drop(n);
	return 0;
}

SEC("fentry/bpf_fentry_test1")
__success
int rbtree_in_object_in_fentry(void *ctx)
{
	struct tree_holder *h = bpf_obj_new(struct tree_holder);
	struct node_data *n;

	if (!h)
		return 0;
	n = new_node(1, 2);
	if (!n) {
		bpf_obj_drop(h);
		return 0;
	}
	bpf_spin_lock(&h->lock);
	bpf_rbtree_add(&h->root, &n->node, less);
	bpf_rbtree_first(&h->root);
	bpf_spin_unlock(&h->lock);
	bpf_obj_drop(h);
	return 0;
}

char _license[] SEC("license") = "GPL";
