// SPDX-License-Identifier: GPL-2.0
/* The root contains node_data; the program adds a node_data2. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "rbtree_types.h"
#include "bpf_misc.h"

struct node_data2 {
	long key;
	struct bpf_rb_node node;
	long data;
};

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(node_data, node);

static bool less2(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data2 *node_a = container_of(a, struct node_data2, node);
	struct node_data2 *node_b = container_of(b, struct node_data2, node);

	return node_a->key < node_b->key;
}

SEC("tc")
__failure
long rbtree_btf_fail__add_wrong_type(void *ctx)
{
	struct node_data *m = new_node(1, 0);
	struct node_data2 *n;

	if (m)
		bpf_obj_drop(m);	/* node_data reaches the BTF */
	n = bpf_obj_new(struct node_data2);
	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &n->node, less2);
	bpf_spin_unlock(&glock);
	return 0;
}

char _license[] SEC("license") = "GPL";
