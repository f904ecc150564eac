// SPDX-License-Identifier: GPL-2.0
/*
 * One bpf_obj_new() or bpf_obj_drop() call instruction reached with two
 * types, as clang compiles ordinary C: each path must get its own type's
 * size and special fields. The objects keep their struct meta, so a merged
 * bpf_obj_drop() frees each by its own; a merged bpf_obj_new() serves
 * types of one size without special fields, and is refused for others:
 * the type id in R1 at run time need not be the one the verifier saw.
 *
 * Each program's object code has one call instruction where its comment
 * says so (llvm-objdump -d obj_one_call.bpf.o).
 */
#include "rbtree_types.h"
#include "bpf_misc.h"

struct small {
	long x;
};

struct small2 {
	long y;
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
 * refused, the call cannot serve both.
 */
SEC("tc")
__failure __msg("bpf_obj_new of struct {{(small|big)}}: another path allocates struct {{(small|big)}} at this call, of another size or special fields")
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
 * A tree holder and a plain object of its size through one call: the same
 * size, other special fields (the holder's lock and tree must be zeroed,
 * and its drop must free the tree): refused.
 */
SEC("tc")
__failure __msg("bpf_obj_new of struct {{(tree_holder|plain24)}}: another path allocates struct {{(tree_holder|plain24)}} at this call, of another size or special fields")
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
 * Two types of one size without special fields through one call: the
 * call serves both, whatever R1 holds at run time.
 */
SEC("tc")
__success __retval(0) __global_eq(new_flag, 2) __allocated(1) __live(0)
int obj_new_same_size_types_one_call(struct __sk_buff *skb)
{
	__u64 len = skb->len;
	struct small2 *b;

	if (len < 100)
		b = bpf_obj_new(struct small2);
	else
		b = (void *)bpf_obj_new(struct small);
	/* clang may not thread the second test into the first: one call */
	__sink(len);
	if (!b)
		return 1;
	b->y = 2;
	new_flag = b->y;
	bpf_obj_drop(b);
	return 0;
}

/*
 * One bpf_obj_new() in a static subprogram, reached with struct small from
 * the program and with struct big from a bpf_loop() callback, which is
 * verified for one of its runs: the type id the callback reads from its
 * context is what its previous run left there (0x7fffffff, no type, at
 * the second run). Refused: the call has two types.
 */
struct tid_ctx {
	__u64 tid;
};

static __attribute__((noinline)) void *alloc_by_id(__u64 tid)
{
	return bpf_obj_new_impl(tid, NULL);
}

static long alloc_cb(__u32 i, struct tid_ctx *c)
{
	__u64 tid = c->tid;
	void *p;

	c->tid = 0x7fffffff;
	p = alloc_by_id(tid);
	if (p)
		bpf_obj_drop(p);
	return 0;
}

SEC("tc")
__failure __msg("bpf_obj_new of struct {{(small|big)}}: another path allocates struct {{(small|big)}} at this call, of another size or special fields")
int obj_new_one_call_in_callback(void *ctx)
{
	struct tid_ctx c = { .tid = bpf_core_type_id_local(struct big) };
	struct small *s;

	s = alloc_by_id(bpf_core_type_id_local(struct small));
	if (s)
		bpf_obj_drop(s);
	bpf_loop(2, alloc_cb, &c, 0);
	return 0;
}

/*
 * The type id of one call read back through another register than R10:
 * 6.1 does not track that fill for precision, so a path that puts a value
 * no path verified (the last one) can be pruned against one that put a
 * struct. The two verified types are refused; the pruned one then cannot
 * reach a call that trusts R1.
 */
int sel;

SEC("tc")
__failure __flag(BPF_F_TEST_STATE_FREQ)
__msg("bpf_obj_new of struct {{(small|big)}}: another path allocates struct {{(small|big)}} at this call, of another size or special fields")
int obj_new_one_call_after_fill(struct __sk_buff *skb)
{
	volatile __u64 slot;
	__u64 *p = (__u64 *)&slot;
	void *keep = skb;
	void *o;
	int s = sel;

	if (s > 1) {
		slot = bpf_core_type_id_local(struct big);
		keep = 0;
	} else if (s == 1) {
		slot = bpf_core_type_id_local(struct small);
	} else {
		slot = 0x7fffffff;
		keep = 0;
	}
	asm volatile("" : "+r"(p));	/* the load goes through a non-R10 pointer */
	o = bpf_obj_new_impl(*p, NULL);
	if (o)
		bpf_obj_drop(o);
	if (keep)
		new_flag++;
	return 0;
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
