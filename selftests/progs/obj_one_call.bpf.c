// SPDX-License-Identifier: GPL-2.0
/*
 * One bpf_obj_new() or bpf_obj_drop() call instruction reached with two
 * types, as clang compiles ordinary C: each path must get its own type's
 * size and special fields. The objects keep their struct meta, and a
 * merged bpf_obj_new() looks its type id up at run time.
 *
 * Each program's object code has one call instruction where its comment
 * says so (llvm-objdump -d obj_one_call.bpf.o).
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

/* A tree_holder's size, so that the allocator recycles one for the
 * other: a lock and a tree where there were ~0 bytes.
 */
struct plain24 {
	long w[3];
};

long new_flag, dropped, first_null;

/*
 * Sizes 8 and 512 through one call (the type is the only difference of the
 * two calls: clang makes them one, whose R1 is the type id the path chose):
 * the big object's last word is in it. The test run's packet is 64 bytes
 * long: the big one; the verifier knows the type from @len on each path.
 */
SEC("tc")
__success __retval(0) __global_eq(new_flag, 1) __allocated(1) __live(0)
int obj_new_two_sizes_one_call(struct __sk_buff *skb)
{
	__u64 len = skb->len;
	struct big *b;

	if (len < 100)
		b = bpf_obj_new(struct big);
	else
		b = (void *)bpf_obj_new(struct small);
	/* clang may not thread the second test into the first: one call */
	__sink(len);
	if (!b)
		return 1;
	if (len < 100) {
		b->pad[62] = 1;
		new_flag = b->pad[62];
	}
	bpf_obj_drop(b);
	return 0;
}

/*
 * A tree holder and a plain object of its size through one call, after a
 * plain object full of ~0 was freed on this CPU: the holder must come back
 * with its lock and tree zeroed, whatever the other path's type.
 */
SEC("tc")
__success __retval(0) __global_eq(first_null, 1) __allocated(2) __live(0)
int obj_new_holder_and_plain_one_call(struct __sk_buff *skb)
{
	struct plain24 *p = bpf_obj_new(struct plain24);
	__u64 len = skb->len;
	struct tree_holder *h;
	struct bpf_rb_node *res;

	if (!p)
		return 1;
	p->w[0] = p->w[1] = p->w[2] = -1;
	bpf_obj_drop(p);

	if (len < 100)
		h = bpf_obj_new(struct tree_holder);
	else
		h = (void *)bpf_obj_new(struct plain24);
	__sink(len);
	if (!h)
		return 1;
	if (len < 100) {
		bpf_spin_lock(&h->lock);
		res = bpf_rbtree_first(&h->root);
		bpf_spin_unlock(&h->lock);
		first_null = !res;
	}
	bpf_obj_drop(h);
	/* node_data, what the holder's tree contains, must be in the BTF */
	return !bpf_core_type_id_local(struct node_data);
}

/*
 * What clang makes of an error path: the drop of a tree holder whose tree
 * has a node and the drop of a plain object become one call. The node
 * must go with its holder, and the plain object's bytes must not be read
 * as a tree.
 */
SEC("tc")
__success __retval(0) __global_eq(dropped, 3) __allocated(3) __live(0)
int obj_drop_holder_and_plain_one_call(struct __sk_buff *skb)
{
	struct tree_holder *h = bpf_obj_new(struct tree_holder);
	struct plain24 *p;
	struct node_data *n;

	if (!h)
		return 1;
	n = new_node(1, 0);
	if (!n) {
		bpf_obj_drop(h);
		return 1;
	}
	bpf_spin_lock(&h->lock);
	bpf_rbtree_add(&h->root, &n->node, less);
	bpf_spin_unlock(&h->lock);
	p = bpf_obj_new(struct plain24);
	if (!p) {
		bpf_obj_drop(h);
		return 1;
	}
	p->w[0] = p->w[1] = p->w[2] = -1;
	/* one call for either object, in an order the verifier cannot know */
	if (skb->len > 100) {
		bpf_obj_drop(p);
		bpf_obj_drop(h);
	} else {
		bpf_obj_drop(h);
		bpf_obj_drop(p);
	}
	dropped = 3;
	return 0;
}

/* Two types without special fields dropped by one call. */
SEC("tc")
__success __retval(0) __global_eq(dropped, 2) __allocated(2) __live(0)
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
	if (skb->len > 100) {
		bpf_obj_drop(s);
		bpf_obj_drop(b);
	} else {
		bpf_obj_drop(b);
		bpf_obj_drop(s);
	}
	dropped = 2;
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
