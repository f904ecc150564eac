// SPDX-License-Identifier: GPL-2.0
/*
 * One bpf_obj_new() or bpf_obj_drop() call instruction reached with two
 * types. The call's hidden argument (size, special fields) is one per
 * instruction: the verifier accepts two types only where it is the same.
 */
#include "rbtree_types.h"
#include "bpf_misc.h"

struct small {
	long x;
};

struct big {
	long x;
	long pad[63];
};

struct other_small {
	long y;
};

long new_flag, dropped;

/* Each of the two drop calls is reached with either object. */
static __always_inline void drop_both_in_some_order(struct __sk_buff *skb, void *a, void *b)
{
	void *first = a, *second = b;

	if (skb->len > 100) {
		first = b;
		second = a;
	}
	bpf_obj_drop(first);
	bpf_obj_drop(second);
}

/* Sizes 8 and 512 through one call. */
SEC("tc")
__failure
int obj_new_two_sizes_one_call(struct __sk_buff *skb)
{
	struct small *s;

	s = bpf_obj_new_impl(skb->len > 100 ? bpf_core_type_id_local(struct big) :
			     bpf_core_type_id_local(struct small), NULL);
	if (!s)
		return 0;
	s->x = 1;
	bpf_obj_drop(s);
	return 0;
}

/* Two types of one size without special fields: one call serves both. */
SEC("tc")
__success __retval(0) __global_eq(new_flag, 1)
int obj_new_same_size_one_call(struct __sk_buff *skb)
{
	struct small *s;

	s = bpf_obj_new_impl(skb->len > 100 ? bpf_core_type_id_local(struct other_small) :
			     bpf_core_type_id_local(struct small), NULL);
	if (!s)
		return 1;
	s->x = 1;
	new_flag = s->x;
	bpf_obj_drop(s);
	return 0;
}

/*
 * What clang makes of an error path: the drop of a tree holder and the drop
 * of a plain object become one call, whose hidden argument can only be
 * right for one of them.
 */
SEC("tc")
__failure
int obj_drop_holder_and_plain_one_call(struct __sk_buff *skb)
{
	struct tree_holder *h = bpf_obj_new(struct tree_holder);
	struct small *s;

	if (!h)
		return 0;
	s = bpf_obj_new(struct small);
	if (!s) {
		bpf_obj_drop(h);
		return 0;
	}
	drop_both_in_some_order(skb, h, s);
	/* node_data, what the holder's tree contains, must be in the BTF */
	return !bpf_core_type_id_local(struct node_data);
}

/* Two types without special fields dropped by one call. */
SEC("tc")
__success __retval(0) __global_eq(dropped, 2)
int obj_drop_plain_types_one_call(struct __sk_buff *skb)
{
	struct small *s = bpf_obj_new(struct small);
	struct big *b;

	if (!s)
		return 1;
	b = bpf_obj_new(struct big);
	if (!b) {
		bpf_obj_drop(s);
		return 1;
	}
	drop_both_in_some_order(skb, b, s);
	dropped = 2;
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
