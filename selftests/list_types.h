/* SPDX-License-Identifier: GPL-2.0 */
/* The node type the list selftests share. */
#ifndef __LIST_TYPES_H
#define __LIST_TYPES_H

#include "bpf_experimental.h"

struct node_data {
	long key;
	struct bpf_list_node node;
	long data;
};

/* A map value holding a list of node_data and the lock that protects it. */
struct list_value {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, node);
	long count;
};

/* A type reaches the object's BTF only if code uses it, and a map's
 * "contains:node_data:..." must find node_data there.
 */
static __always_inline void use_node_data(void)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (n)
		bpf_obj_drop(n);
}

#endif
