// SPDX-License-Identifier: GPL-2.0
/* Misuse of bpf_obj_new()/bpf_obj_drop() the verifier must refuse. */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct point {
	long x;
	int y;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct point);
} points SEC(".maps");

__u64 not_constant;

SEC("tc")
__failure
int obj_new_leak(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (!p)
		return 0;
	p->x = 1;
	return 0;
}

SEC("tc")
__failure
int obj_new_use_after_drop(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (!p)
		return 0;
	bpf_obj_drop(p);
	p->x = 1;
	return 0;
}

SEC("tc")
__failure
int obj_drop_twice(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (!p)
		return 0;
	bpf_obj_drop(p);
	bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__failure
int obj_drop_map_value(struct __sk_buff *skb)
{
	int key = 0;
	struct point *v = bpf_map_lookup_elem(&points, &key);

	if (!v)
		return 0;
	bpf_obj_drop(v);
	return 0;
}

SEC("tc")
__failure
int obj_drop_at_offset(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (!p)
		return 0;
	bpf_obj_drop(&p->y);
	return 0;
}

SEC("tc")
__failure
int obj_new_not_a_struct(struct __sk_buff *skb)
{
	long *p = bpf_obj_new_impl(bpf_core_type_id_local(long), NULL);

	if (p)
		bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__failure
int obj_new_type_id_too_big(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new_impl(1ULL << 32, NULL);

	if (p)
		bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__failure
int obj_new_type_id_not_constant(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new_impl(not_constant, NULL);

	if (p)
		bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__failure
int obj_new_access_past_end(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (!p)
		return 0;
	((long *)p)[2] = 1;
	bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__failure
int obj_new_no_null_check(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	p->x = 1;
	bpf_obj_drop(p);
	return 0;
}

/* A pointer member holds whatever the program stored there: it reads back
 * as a scalar, which can be neither followed nor stored through.
 */
struct linked {
	long key;
	struct linked *next;
};

SEC("tc")
__failure __msg("invalid mem access 'scalar'")
int obj_ptr_member_deref(struct __sk_buff *skb)
{
	struct linked *p = bpf_obj_new(struct linked);
	struct linked *forged;
	long key;

	if (!p)
		return 0;
	*(volatile long *)&p->next = 0x1000;
	forged = *(struct linked *volatile *)&p->next;
	key = forged->key;
	bpf_obj_drop(p);
	return key;
}

SEC("tc")
__failure __msg("invalid mem access 'scalar'")
int obj_ptr_member_store_through(struct __sk_buff *skb)
{
	struct linked *p = bpf_obj_new(struct linked);
	struct linked *forged;

	if (!p)
		return 0;
	*(volatile long *)&p->next = 0x1000;
	forged = *(struct linked *volatile *)&p->next;
	forged->key = 1;
	bpf_obj_drop(p);
	return 0;
}

/* As upstream's linked_list_fail ptr_walk_scalar: a helper that wants a
 * per-CPU pointer is given the scalar read from a pointer member.
 */
SEC("tc")
__failure __msg("type=scalar expected=percpu_ptr_")
int ptr_walk_scalar(struct __sk_buff *skb)
{
	struct linked *p = bpf_obj_new(struct linked);

	if (!p)
		return 0;
	bpf_this_cpu_ptr(p->next);
	bpf_obj_drop(p);
	return 0;
}

/* The object is as large as its struct: a flexible array member ends
 * there, at any index.
 */
struct flex {
	long len;
	long data[];
};

SEC("tc")
__failure __msg("access beyond struct flex at off 4104 size 8")
int obj_flex_write_past_end(struct __sk_buff *skb)
{
	struct flex *p = bpf_obj_new(struct flex);

	if (!p)
		return 0;
	((volatile long *)p->data)[512] = 1;
	bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__failure __msg("access beyond struct flex at off 8 size 8")
int obj_flex_read_first(struct __sk_buff *skb)
{
	struct flex *p = bpf_obj_new(struct flex);
	long v;

	if (!p)
		return 0;
	v = ((volatile long *)p->data)[0];
	bpf_obj_drop(p);
	return v;
}

/* The offset is checked before the type, as for any kfunc argument. */
SEC("tc")
__failure
int obj_drop_modified_ctx(struct __sk_buff *skb)
{
	bpf_obj_drop((void *)skb + 8);
	return 0;
}

union either {
	long a;
	int b;
};

SEC("tc")
__failure __msg("bpf_obj_new type ID argument must be of a struct")
int obj_new_union(struct __sk_buff *skb)
{
	union either *p = bpf_obj_new(union either);

	if (p)
		bpf_obj_drop(p);
	return 0;
}

/* Without CAP_PERFMON an object's bytes are not the program's to read:
 * those it has not written are what the allocator's last user left.
 */
SEC("tc")
__failure __caps_only("bpf net_admin")
__msg("'struct point' access is allowed only to CAP_PERFMON and CAP_SYS_ADMIN")
int obj_new_read_without_perfmon(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);
	long x;

	if (!p)
		return 0;
	x = p->x;
	bpf_obj_drop(p);
	return x;
}

struct swap_ctx {
	struct point *a;
	struct point *b;
};

static long swap_slots(__u32 i, struct swap_ctx *c)
{
	struct point *t = c->a;

	c->a = c->b;
	c->b = t;
	return 0;
}

/* The callback is verified once but runs twice: the verifier would take
 * c.b for the object, where the run leaves the map value there, and
 * bpf_obj_drop() would free a map value.
 */
SEC("tc")
__failure
__msg("bpf_loop#{{[0-9]+}}: allocated object spilled at fp{{-[0-9]+}} of frame 0, which its callback may reach")
int obj_new_swapped_by_callback(struct __sk_buff *skb)
{
	struct swap_ctx c;
	int key = 0;

	c.a = bpf_obj_new(struct point);
	if (!c.a)
		return 0;
	c.b = bpf_map_lookup_elem(&points, &key);
	if (!c.b) {
		bpf_obj_drop(c.a);
		return 0;
	}
	bpf_loop(2, swap_slots, &c, 0);
	bpf_obj_drop(c.b);
	return 0;
}

char _license[] SEC("license") __mutants(1, 3) = "GPL";
