// SPDX-License-Identifier: GPL-2.0
/* Objects on a list that own lists themselves: one level of nesting. */
#include "list_types.h"
#include "bpf_misc.h"

struct outer {
	long key;
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, node);
	struct bpf_list_node node;
};

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_list_head ghead __contains(outer, node);

long popped;

static int add_outer(long key)
{
	struct outer *o = bpf_obj_new(struct outer);
	struct node_data *n;
	int j;

	if (!o)
		return 1;
	o->key = key;
	for (j = 1; j <= 3; j++) {
		n = bpf_obj_new(struct node_data);
		if (!n) {
			bpf_obj_drop(o);
			return 1;
		}
		n->key = j;
		bpf_spin_lock(&o->lock);
		bpf_list_push_back(&o->head, &n->node);
		bpf_spin_unlock(&o->lock);
	}
	bpf_spin_lock(&glock);
	bpf_list_push_back(&ghead, &o->node);
	bpf_spin_unlock(&glock);
	return 0;
}

/* Two outers with three nodes each; one comes back and is dropped with
 * its two remaining nodes, the other stays for the map's free path.
 */
SEC("tc")
__success __retval(0) __global_eq(popped, 101)
int list_nested_ownership(struct __sk_buff *skb)
{
	struct bpf_list_node *ln;
	struct node_data *n;
	struct outer *o;

	if (add_outer(1) || add_outer(2))
		return 1;
	bpf_spin_lock(&glock);
	ln = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	if (!ln)
		return 2;
	o = container_of(ln, struct outer, node);
	bpf_spin_lock(&o->lock);
	ln = bpf_list_pop_front(&o->head);
	bpf_spin_unlock(&o->lock);
	if (ln) {
		n = container_of(ln, struct node_data, node);
		popped = o->key * 100 + n->key;
		bpf_obj_drop(n);
	}
	bpf_obj_drop(o);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
