// SPDX-License-Identifier: GPL-2.0
/* Misuse of the bpf_list kfuncs the verifier must refuse. */
#include "list_types.h"
#include "bpf_misc.h"

struct node_data2 {
	long key;
	struct bpf_list_node node;
};

struct two_nodes {
	struct bpf_list_node a;
	struct bpf_list_node b;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct list_value);
} lists SEC(".maps");

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_list_head ghead __contains(node_data, node);
private(A) struct bpf_list_head ghead_b __contains(two_nodes, b);

long var_index;

SEC("tc")
__failure
int list_push_without_lock(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_list_push_front(&ghead, &n->node);
	return 0;
}

SEC("tc")
__failure
int list_pop_without_lock(struct __sk_buff *skb)
{
	struct bpf_list_node *ln = bpf_list_pop_front(&ghead);

	if (ln)
		bpf_obj_drop(container_of(ln, struct node_data, node));
	return 0;
}

SEC("tc")
__failure
int list_push_wrong_type(struct __sk_buff *skb)
{
	struct node_data2 *n = bpf_obj_new(struct node_data2);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &n->node);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
int list_push_wrong_node(struct __sk_buff *skb)
{
	struct two_nodes *t = bpf_obj_new(struct two_nodes);

	if (!t)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead_b, &t->a);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
int list_head_variable_offset(struct __sk_buff *skb)
{
	struct node_data *n;
	struct list_value *v;
	int key = 0;

	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_list_push_front((void *)&v->head + (var_index & 8), &n->node);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
__failure
int list_head_wrong_offset(struct __sk_buff *skb)
{
	struct node_data *n;
	struct list_value *v;
	int key = 0;

	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_list_push_front((void *)&v->count, &n->node);
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
__failure
int list_head_on_stack(struct __sk_buff *skb)
{
	struct bpf_list_head head = {};
	struct bpf_list_node *ln;

	bpf_spin_lock(&glock);
	ln = bpf_list_pop_front(&head);
	bpf_spin_unlock(&glock);
	if (ln)
		bpf_obj_drop(container_of(ln, struct node_data, node));
	return 0;
}

SEC("tc")
__failure
int list_push_twice(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &n->node);
	bpf_list_push_back(&ghead, &n->node);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
int list_node_use_after_unlock(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &n->node);
	bpf_spin_unlock(&glock);
	n->data = 1;
	return 0;
}

/* A linked node belongs to its list: no writes through the reference. */
SEC("tc")
__failure
int list_node_write_after_push(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &n->node);
	*(volatile long *)&n->node = 0;
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
int list_node_read(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);
	long v;

	if (!n)
		return 0;
	v = *(volatile long *)((void *)&n->node + 8);
	bpf_obj_drop(n);
	return v != 0;
}

SEC("tc")
__failure
int list_push_map_value(struct __sk_buff *skb)
{
	struct list_value *v;
	int key = 0;

	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, (void *)&v->count);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
int list_pop_leak(struct __sk_buff *skb)
{
	struct bpf_list_node *ln;

	bpf_spin_lock(&glock);
	ln = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	return ln != NULL;
}

SEC("tc")
__failure
int list_drop_under_lock(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_obj_drop(n);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
int list_exit_with_lock(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &n->node);
	return 0;
}

SEC("tc")
__failure
int list_lock_of_other_value(struct __sk_buff *skb)
{
	struct list_value *v0, *v1;
	struct node_data *n;
	int k0 = 0, k1 = 1;

	v0 = bpf_map_lookup_elem(&lists, &k0);
	v1 = bpf_map_lookup_elem(&lists, &k1);
	if (!v0 || !v1)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (!n)
		return 0;
	bpf_spin_lock(&v0->lock);
	bpf_list_push_front(&v1->head, &n->node);
	bpf_spin_unlock(&v0->lock);
	return 0;
}

struct container {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, node);
};

SEC("tc")
__failure
int list_object_push_without_lock(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);
	struct node_data *n;

	if (!c)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (n)
		bpf_list_push_front(&c->head, &n->node);
	bpf_obj_drop(c);
	return 0;
}

SEC("tc")
__failure
int list_object_under_other_lock(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);
	struct node_data *n;

	if (!c)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (n) {
		bpf_spin_lock(&glock);
		bpf_list_push_front(&c->head, &n->node);
		bpf_spin_unlock(&glock);
	}
	bpf_obj_drop(c);
	return 0;
}

SEC("tc")
__failure
int obj_lock_without_lock_field(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock((struct bpf_spin_lock *)&n->data);
	bpf_spin_unlock((struct bpf_spin_lock *)&n->data);
	bpf_obj_drop(n);
	return 0;
}

SEC("kprobe/bpf_fentry_test1")
__failure
int list_head_in_tracing_prog(void *ctx)
{
	bpf_spin_lock(&glock);
	bpf_spin_unlock(&glock);
	return 0;
}

/* The node argument's own struct must have a node at its offset. */
SEC("tc")
__failure
int list_node_not_found(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, (struct bpf_list_node *)&n->data);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__failure
int list_node_variable_offset(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, (void *)&n->node + (skb->len & 8));
	bpf_spin_unlock(&glock);
	return 0;
}

/* An object on a list, which owns a list itself. */
struct list_owner_node {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, node);
	struct bpf_list_node node;
};

private(C) struct bpf_spin_lock owners_lock;
private(C) struct bpf_list_head owners __contains(list_owner_node, node);

/* Once pushed, the owner is a non-owning reference: no root of it may be
 * used, not even under the lock that protects it in the list.
 */
SEC("tc")
__failure
int list_head_in_non_owning_object(struct __sk_buff *skb)
{
	struct list_owner_node *o = bpf_obj_new(struct list_owner_node);
	struct node_data *n;

	if (!o)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (!n) {
		bpf_obj_drop(o);
		return 0;
	}
	bpf_spin_lock(&owners_lock);
	bpf_list_push_front(&owners, &o->node);
	bpf_list_push_front(&o->head, &n->node);
	bpf_spin_unlock(&owners_lock);
	return 0;
}

char _license[] SEC("license") __mutants(1, 3) = "GPL";
