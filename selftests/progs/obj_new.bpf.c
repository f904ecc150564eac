// SPDX-License-Identifier: GPL-2.0
/* Program-allocated objects: allocate, write, read, drop. */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct point {
	long x;
	int y;
	char tag[20];
};

long sum;
int allocated;

SEC("tc")
__success __retval(0) __global_eq(sum, 49)
int obj_new_write_read_drop(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (!p)
		return 1;
	p->x = 40;
	p->y = 2;
	p->tag[19] = 7;
	sum = p->x + p->y + p->tag[19];
	bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__success __retval(0) __global_eq(allocated, 32) __global_eq(sum, 3696)
int obj_new_two_live_objects(struct __sk_buff *skb)
{
	struct point *a, *b;
	int i;

	for (i = 0; i < 32; i++) {
		a = bpf_obj_new(struct point);
		if (!a)
			return 1;
		b = bpf_obj_new(struct point);
		if (!b) {
			bpf_obj_drop(a);
			return 1;
		}
		a->x = i;
		b->x = 100;
		allocated += a != b;
		sum += a->x + b->x;
		bpf_obj_drop(b);
		bpf_obj_drop(a);
	}
	return 0;
}

struct empty {
};

/* Two objects of an empty struct are two objects: bpf_mem_alloc() would
 * give both the same ZERO_SIZE_PTR for size 0.
 */
SEC("tc")
__success __retval(0)
int obj_new_empty_struct(struct __sk_buff *skb)
{
	struct empty *a = bpf_obj_new(struct empty);
	struct empty *b;
	int ret = 0;

	if (!a)
		return 1;
	b = bpf_obj_new(struct empty);
	if (!b) {
		bpf_obj_drop(a);
		return 1;
	}
	if (a == b)
		ret = 2;
	bpf_obj_drop(a);
	bpf_obj_drop(b);
	return ret;
}

struct linked {
	long key;
	struct linked *next;
};

/* A pointer member reads back as the number the program stored in it. */
SEC("tc")
__success __retval(0) __global_eq(sum, 4097)
int obj_ptr_member_is_scalar(struct __sk_buff *skb)
{
	struct linked *p = bpf_obj_new(struct linked);

	if (!p)
		return 1;
	*(volatile long *)&p->next = 4097;
	sum = (long)*(struct linked *volatile *)&p->next;
	bpf_obj_drop(p);
	return 0;
}

/* The largest object the allocator serves: allocated, all of it usable. */
struct largest {
	char bytes[4088];
};

SEC("tc")
__success __retval(0) __global_eq(sum, 2)
int obj_new_largest_struct(struct __sk_buff *skb)
{
	struct largest *p = bpf_obj_new(struct largest);

	if (!p)
		return 1;
	p->bytes[0] = 1;
	p->bytes[4087] = 1;
	sum = p->bytes[0] + p->bytes[4087];
	bpf_obj_drop(p);
	return 0;
}

/* What needs no access to the object's bytes needs no CAP_PERFMON. */
SEC("tc")
__success __retval(0) __caps_only("bpf net_admin")
int obj_new_drop_without_perfmon(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (p)
		bpf_obj_drop(p);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
