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

/* The lock and list head of an allocated object are the kernel's too. */
SEC("tc")
__failure __msg("direct access to bpf_spin_lock is disallowed")
int obj_lock_direct_read(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);
	int v;

	if (!c)
		return 0;
	v = *(volatile int *)&c->lock;
	bpf_obj_drop(c);
	return v;
}

SEC("tc")
__failure __msg("direct access to bpf_spin_lock is disallowed")
int obj_lock_direct_write(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);

	if (!c)
		return 0;
	*(volatile int *)&c->lock = 1;
	bpf_obj_drop(c);
	return 0;
}

SEC("tc")
__failure __msg("direct access to bpf_list_head is disallowed")
int obj_head_direct_read(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);
	long v;

	if (!c)
		return 0;
	v = *(volatile long *)((void *)&c->head + 8);
	bpf_obj_drop(c);
	return v != 0;
}

SEC("tc")
__failure __msg("direct access to bpf_list_head is disallowed")
int obj_head_direct_write(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);

	if (!c)
		return 0;
	*(volatile long *)&c->head = 0;
	bpf_obj_drop(c);
	return 0;
}

/* A head in an object must sit at a constant offset. */
SEC("tc")
__failure __msg("variable ptr_ access var_off=({{.*}}) disallowed")
int obj_head_variable_offset(struct __sk_buff *skb)
{
	struct container *c = bpf_obj_new(struct container);
	struct node_data *n;

	if (!c)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (n) {
		bpf_spin_lock(&c->lock);
		bpf_list_push_front((void *)&c->head + (var_index & 8), &n->node);
		bpf_spin_unlock(&c->lock);
	}
	bpf_obj_drop(c);
	return 0;
}

/* An object without a list head has none to push to. */
SEC("tc")
__failure __msg("bpf_list_head not found at offset=0")
int obj_without_head(struct __sk_buff *skb)
{
	struct node_data2 *o = bpf_obj_new(struct node_data2);
	struct node_data *n;

	if (!o)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (n) {
		bpf_spin_lock(&glock);
		bpf_list_push_front((void *)o, &n->node);
		bpf_spin_unlock(&glock);
	}
	bpf_obj_drop(o);
	return 0;
}

/* A map value's head needs that value's lock held. */
SEC("tc")
__failure __msg("bpf_spin_lock at off=0 must be held for bpf_list_head")
int list_map_value_push_without_lock(struct __sk_buff *skb)
{
	struct node_data *n;
	struct list_value *v;
	int key = 0;

	v = bpf_map_lookup_elem(&lists, &key);
	if (!v)
		return 0;
	n = bpf_obj_new(struct node_data);
	if (n)
		bpf_list_push_back(&v->head, &n->node);
	return 0;
}

/* After the unlock, a pushed node is nobody's: any access is refused. */
SEC("tc")
__failure __msg("invalid mem access 'scalar'")
int list_node_use_after_unlock_push_back(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_back(&ghead, &n->node);
	bpf_spin_unlock(&glock);
	return n->data;
}

/* A popped node may be NULL, and points at its node, not its struct. */
SEC("tc")
__failure __msg("R1 type=ptr_or_null_ expected=percpu_ptr_")
int list_pop_front_not_null_checked(struct __sk_buff *skb)
{
	struct bpf_list_node *ln;

	bpf_spin_lock(&glock);
	ln = bpf_list_pop_front(&ghead);
	bpf_spin_unlock(&glock);
	bpf_this_cpu_ptr(ln);
	return 0;
}

SEC("tc")
__failure __msg("R1 type=ptr_or_null_ expected=percpu_ptr_")
int list_pop_back_not_null_checked(struct __sk_buff *skb)
{
	struct bpf_list_node *ln;

	bpf_spin_lock(&glock);
	ln = bpf_list_pop_back(&ghead);
	bpf_spin_unlock(&glock);
	bpf_this_cpu_ptr(ln);
	return 0;
}

/* Every tracing program type is refused, not only kprobes. */
SEC("tp/syscalls/sys_enter_nanosleep")
__failure __msg("tracing progs cannot use bpf_{list_head,rb_root} yet")
int list_head_in_tracepoint_prog(void *ctx)
{
	bpf_spin_lock(&glock);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("raw_tp/sys_enter")
__failure __msg("tracing progs cannot use bpf_{list_head,rb_root} yet")
int list_head_in_raw_tp_prog(void *ctx)
{
	bpf_spin_lock(&glock);
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("perf_event")
__failure __msg("tracing progs cannot use bpf_{list_head,rb_root} yet")
int list_head_in_perf_event_prog(void *ctx)
{
	bpf_spin_lock(&glock);
	bpf_spin_unlock(&glock);
	return 0;
}

/* A pushed node's pointer dies at the unlock. Without CAP_PERFMON what is
 * left of it may not be read: it is the node's kernel address.
 */
SEC("tc")
__failure __caps_only("bpf net_admin")
__msg("{{R[0-9]}} !read_ok")
int list_dead_node_addr_without_perfmon(struct __sk_buff *skb)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&glock);
	bpf_list_push_front(&ghead, &n->node);
	bpf_spin_unlock(&glock);
	var_index = (long)n;
	return 0;
}

char _license[] SEC("license") __mutants(1, 3) = "GPL";
