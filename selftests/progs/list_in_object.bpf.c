// SPDX-License-Identifier: GPL-2.0
/* A bpf_list_head and its lock inside an object from bpf_obj_new(). */
#include "list_types.h"
#include "bpf_misc.h"

struct container {
	long tag;
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, node);
};

long first_key;

static int push(struct container *c, long key)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 1;
	n->key = key;
	bpf_spin_lock(&c->lock);
	bpf_list_push_back(&c->head, &n->node);
	bpf_spin_unlock(&c->lock);
	return 0;
}

/* Three nodes in, one out; dropping the container frees the other two. */
SEC("tc")
__success __retval(0) __global_eq(first_key, 17) __failslab(2000)
int list_in_allocated_object(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);
	struct bpf_list_node *ln;
	struct node_data *n;

	if (!c)
		return 1;
	c->tag = 7;
	if (push(c, 10) || push(c, 20) || push(c, 30)) {
		bpf_obj_drop(c);
		return 2;
	}
	bpf_spin_lock(&c->lock);
	ln = bpf_list_pop_front(&c->head);
	bpf_spin_unlock(&c->lock);
	if (ln) {
		n = container_of(ln, struct node_data, node);
		first_key = n->key + c->tag;
		bpf_obj_drop(n);
	}
	bpf_obj_drop(c);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
