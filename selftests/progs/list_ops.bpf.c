// SPDX-License-Identifier: GPL-2.0
/* bpf_list_push_{front,back} and bpf_list_pop_{front,back} at work. */
#include "list_types.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct list_value);
} array_lists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct list_value);
} hash_lists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct list_value);
} lru_lists SEC(".maps");

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_list_head ghead __contains(node_data, node);

long order;		/* popped keys as decimal digits, in pop order */
long popped_data;
int empty_pop_null;

static int push(long key, bool front)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 1;
	n->key = key;
	bpf_spin_lock(&glock);
	if (front)
		bpf_list_push_front(&ghead, &n->node);
	else
		bpf_list_push_back(&ghead, &n->node);
	bpf_spin_unlock(&glock);
	return 0;
}

static int pop(bool front)
{
	struct bpf_list_node *ln;
	struct node_data *n;

	bpf_spin_lock(&glock);
	ln = front ? bpf_list_pop_front(&ghead) : bpf_list_pop_back(&ghead);
	bpf_spin_unlock(&glock);
	if (!ln)
		return 1;
	n = container_of(ln, struct node_data, node);
	order = order * 10 + n->key;
	bpf_obj_drop(n);
	return 0;
}

/* back 1, 2, 3, front 4: the list is 4 1 2 3 */
SEC("tc")
__success __retval(0) __global_eq(order, 4312) __global_eq(empty_pop_null, 1)
int list_push_pop_order(struct __sk_buff *skb)
{
	struct bpf_list_node *ln;

	if (push(1, false) || push(2, false) || push(3, false) || push(4, true))
		return 1;
	if (pop(true) || pop(false) || pop(true) || pop(false))
		return 2;
	bpf_spin_lock(&glock);
	ln = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	if (ln) {
		bpf_obj_drop(container_of(ln, struct node_data, node));
		return 3;
	}
	empty_pop_null = 1;
	return 0;
}

/* The reference push leaves behind is usable until the unlock. */
SEC("tc")
__success __retval(0) __global_eq(popped_data, 42)
int list_non_owning_ref_write(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);
	struct bpf_list_node *ln;

	if (!n)
		return 1;
	bpf_spin_lock(&glock);
	bpf_list_push_back(&ghead, &n->node);
	n->data = 42;
	ln = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	if (!ln)
		return 2;
	n = container_of(ln, struct node_data, node);
	popped_data = n->data;
	bpf_obj_drop(n);
	return 0;
}

static int push_into_key(void *map, int key)
{
	struct node_data *n;
	struct list_value *v;

	v = bpf_map_lookup_elem(map, &key);
	if (!v)
		return 1;
	n = bpf_obj_new(struct node_data);
	if (!n)
		return 1;
	bpf_spin_lock(&v->lock);
	bpf_list_push_front(&v->head, &n->node);
	bpf_spin_unlock(&v->lock);
	return 0;
}

static int push_into(void *map)
{
	return push_into_key(map, 0);
}

/* Nodes left on lists are freed with the element or the map. */
SEC("tc")
__success __retval(0) __allocated(7) __live(4)
int list_left_in_maps(struct __sk_buff *skb)
{
	struct list_value zero = {};
	int key = 0, i;

	if (bpf_map_update_elem(&hash_lists, &key, &zero, BPF_ANY))
		return 1;
	for (i = 0; i < 3; i++)
		if (push_into(&array_lists) || push_into(&hash_lists))
			return 2;
	/* deleting the hash element drains its three nodes */
	if (bpf_map_delete_elem(&hash_lists, &key))
		return 3;
	if (bpf_map_update_elem(&hash_lists, &key, &zero, BPF_ANY) || push_into(&hash_lists))
		return 4;
	return 0;
}

/* LRU hash elements hold lists too: replaced, evicted or deleted, their
 * nodes go with them (kmemleak checks it under --debug).
 */
SEC("tc")
__success __retval(0) __allocated(4) __live(1)
int list_in_lru_hash(struct __sk_buff *skb)
{
	struct list_value zero = {};
	int k0 = 0, k1 = 1, k2 = 2;

	if (bpf_map_update_elem(&lru_lists, &k0, &zero, BPF_ANY) ||
	    push_into_key(&lru_lists, k0))
		return 1;
	if (bpf_map_update_elem(&lru_lists, &k1, &zero, BPF_ANY) ||
	    push_into_key(&lru_lists, k1))
		return 2;
	/* replacing an element drains its node */
	if (bpf_map_update_elem(&lru_lists, &k1, &zero, BPF_ANY) ||
	    push_into_key(&lru_lists, k1))
		return 3;
	/* a third key in a two-entry map may evict one with its node */
	if (bpf_map_update_elem(&lru_lists, &k2, &zero, BPF_ANY) ||
	    push_into_key(&lru_lists, k2))
		return 4;
	if (bpf_map_delete_elem(&lru_lists, &k2))
		return 5;
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
