/* SPDX-License-Identifier: GPL-2.0 */
/* The node type and comparator the rbtree selftests share. */
#ifndef __RBTREE_TYPES_H
#define __RBTREE_TYPES_H

#include "bpf_experimental.h"

struct node_data {
	long key;
	long data;
	struct bpf_rb_node node;
};

/* A tree and its lock: a map value, or an allocated object. */
struct tree_holder {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(node_data, node);
};

/* Order by key. */
static __attribute__((unused)) bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	struct node_data *node_a = container_of(a, struct node_data, node);
	struct node_data *node_b = container_of(b, struct node_data, node);

	return node_a->key < node_b->key;
}

/* A new node_data with @key and @data, or NULL. */
static __always_inline struct node_data *new_node(long key, long data)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (n) {
		n->key = key;
		n->data = data;
	}
	return n;
}

#endif
