// SPDX-License-Identifier: GPL-2.0
/*
 * A bpf_loop() callback is verified for one run: given the caller's stack,
 * it can swap two map value pointers, and after the call the verifier
 * believes them swapped where two runs swapped them back. With a value
 * that has graph roots the caller could then take one value's lock and
 * push onto the other's list, or read (a kernel address) and forge (a
 * pop then writes through it) a list head's words as a plain value's.
 * With a value that has only a lock, it could take one value's lock and
 * release the other's, which the verifier takes for the same lock: the
 * first stays held. Patch 35 refuses the call while a pointer to a value
 * with roots, or to such a map, is spilled, and a callback that stores
 * one, or a pointer to a value or map with a lock, into its caller's
 * stack, where it could differ on every run.
 * (Found by three red-team reviews of the series.)
 */
#include "list_types.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct list_value);
} lists SEC(".maps");

/* Same size as struct list_value (32 bytes), no special fields. */
struct plain {
	__u64 w[4];
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct plain);
} plains SEC(".maps"), plains2 SEC(".maps");

/* A value with a lock and nothing else of the graph. */
struct lock_only {
	struct bpf_spin_lock lock;
	int pad;
	__u64 data;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct lock_only);
} locks SEC(".maps");

struct swap_ctx {
	void *x;
	void *y;
};

__u64 leaked_next;
__u64 leaked_prev;

/* One simulated iteration swaps; two real iterations swap back. */
static long swap_cb(__u32 idx, struct swap_ctx *c)
{
	void *t = c->x;

	c->x = c->y;
	c->y = t;
	return 0;
}

/* What the verifier believes y is after two swaps, verified as one: x. */
static __attribute__((noinline)) void *swapped_twice(void *x, void *y)
{
	struct swap_ctx c = { .x = x, .y = y };

	bpf_loop(2, swap_cb, &c, 0);
	return c.y;
}

SEC("tc")
__failure
__msg("bpf_loop#{{[0-9]+}}: map value with graph roots spilled at fp{{-[0-9]+}} of frame {{[0-9]+}}, which its callback may reach")
long callback_swap_lock_identity(void *ctx)
{
	struct list_value *v0, *v1, *locked;
	struct node_data *n;
	int k0 = 0, k1 = 1;

	use_node_data();
	v0 = bpf_map_lookup_elem(&lists, &k0);
	v1 = bpf_map_lookup_elem(&lists, &k1);
	if (!v0 || !v1)
		return 0;
	locked = swapped_twice(v0, v1);	/* the verifier: v0; run time: v1 */
	n = bpf_obj_new(struct node_data);
	if (!n)
		return 0;
	bpf_spin_lock(&locked->lock);		/* run time: v1's lock */
	bpf_list_push_front(&v0->head, &n->node);	/* v0's list, v0 unlocked */
	bpf_spin_unlock(&locked->lock);
	return 0;
}

SEC("tc")
__failure
__msg("bpf_loop#{{[0-9]+}}: map value with graph roots spilled at fp{{-[0-9]+}} of frame {{[0-9]+}}, which its callback may reach")
long callback_swap_reads_root(void *ctx)
{
	struct list_value *t;
	struct node_data *n;
	struct plain *p, *q;
	int k0 = 0;

	t = bpf_map_lookup_elem(&lists, &k0);
	p = bpf_map_lookup_elem(&plains, &k0);
	if (!t || !p)
		return 0;
	/* put a node on the list so that head.next is a heap address */
	n = bpf_obj_new(struct node_data);
	if (!n)
		return 0;
	bpf_spin_lock(&t->lock);
	bpf_list_push_front(&t->head, &n->node);
	bpf_spin_unlock(&t->lock);

	q = swapped_twice(p, t);	/* the verifier: p; run time: t */
	leaked_next = q->w[1];	/* bpf_list_head.next: kernel address */
	leaked_prev = q->w[2];	/* bpf_list_head.prev */
	return 0;
}

SEC("tc")
__failure
__msg("bpf_loop#{{[0-9]+}}: map value with graph roots spilled at fp{{-[0-9]+}} of frame {{[0-9]+}}, which its callback may reach")
long callback_swap_forges_root(void *ctx)
{
	struct bpf_list_node *ln;
	struct list_value *t;
	struct plain *p, *q;
	int k0 = 0;

	t = bpf_map_lookup_elem(&lists, &k0);
	p = bpf_map_lookup_elem(&plains, &k0);
	if (!t || !p)
		return 0;
	q = swapped_twice(p, t);	/* the verifier: p; run time: t */
	q->w[1] = 0xdead000000000100ULL;	/* forged head.next */
	q->w[2] = 0xdead000000000200ULL;	/* forged head.prev */

	bpf_spin_lock(&t->lock);
	ln = bpf_list_pop_front(&t->head);	/* list_del_init(forged) */
	bpf_spin_unlock(&t->lock);
	if (ln)
		bpf_obj_drop(container_of(ln, struct node_data, node));
	return 0;
}

/*
 * The callback reads its caller's slot as a plain value and leaves a list
 * value's pointer there: from its second run on, it reads (and forges)
 * the list head's words as plain data. Refused where it stores.
 */
struct next_ctx {
	struct plain *p;
	__u64 forge;
};

static long next_run_cb(__u32 idx, struct next_ctx *c)
{
	struct plain *p = c->p;
	struct list_value *l;
	int k = 0;

	if (p->w[1])
		leaked_next = p->w[1];
	if (c->forge && idx == 2) {
		p->w[1] = 0xdead000000000100ULL;
		p->w[2] = 0xdead000000000200ULL;
	}
	l = bpf_map_lookup_elem(&lists, &k);
	if (!l)
		return 1;
	c->p = (void *)l;
	return 0;
}

SEC("tc")
__failure
__msg("map value with graph roots stored at fp{{-[0-9]+}} of frame 0 by a callback, which runs more often than it is verified")
long callback_next_run_reads_root(void *ctx)
{
	struct next_ctx c = { .forge = 1 };
	int k = 0;

	c.p = bpf_map_lookup_elem(&plains, &k);
	if (!c.p)
		return 1;
	bpf_loop(3, next_run_cb, &c, 0);
	return 0;
}

/*
 * Two map pointers swapped: a lookup in what the verifier takes for the
 * plain map gives a list value at run time. Refused at the call.
 */
SEC("tc")
__failure
__msg("bpf_loop#{{[0-9]+}}: map with graph roots spilled at fp{{-[0-9]+}} of frame {{[0-9]+}}, which its callback may reach")
long callback_swaps_map_ptrs(void *ctx)
{
	void *x = &plains, *y = &lists;
	struct plain *q;
	int k = 0;

	__sink(x);	/* ld_imm64 map pointers, not a .rodata copy */
	__sink(y);
	q = bpf_map_lookup_elem(swapped_twice(x, y), &k);	/* run time: lists */
	if (!q)
		return 1;
	leaked_next = q->w[1];
	return 0;
}

/*
 * Two values with a lock swapped: the verifier takes the lock through one
 * pointer and the unlock through the other for the same lock (map, id);
 * at run time element 1's lock is taken and element 0's written unlocked,
 * and element 1's stays held. Refused where the callback stores.
 */
SEC("tc")
__failure
__msg("map value with a bpf_spin_lock stored at fp{{-[0-9]+}} of frame {{[0-9]+}} by a callback, which runs more often than it is verified")
long callback_swap_lock_only_values(void *ctx)
{
	struct lock_only *v0, *v1, *locked;
	int k0 = 0, k1 = 1;

	v0 = bpf_map_lookup_elem(&locks, &k0);
	v1 = bpf_map_lookup_elem(&locks, &k1);
	if (!v0 || !v1)
		return 0;
	locked = swapped_twice(v0, v1);	/* the verifier: v0; run time: v1 */
	bpf_spin_lock(&locked->lock);
	locked->data = 1;
	bpf_spin_unlock(&v0->lock);
	return 0;
}

/*
 * A bpf_for_each_map_elem() callback that keeps an element with a lock in
 * its caller's stack: which one differs from run to run. Refused where it
 * stores.
 */
struct found_ctx {
	struct lock_only *found;
};

static long find_cb(void *map, int *key, struct lock_only *v, struct found_ctx *c)
{
	if (*key == 1)
		c->found = v;
	return 0;
}

SEC("tc")
__failure
__msg("map value with a bpf_spin_lock stored at fp{{-[0-9]+}} of frame 0 by a callback, which runs more often than it is verified")
long callback_keeps_lock_value(void *ctx)
{
	struct found_ctx c = {};

	bpf_for_each_map_elem(&locks, find_cb, &c, 0);
	if (!c.found)
		return 0;
	bpf_spin_lock(&c.found->lock);
	c.found->data++;
	bpf_spin_unlock(&c.found->lock);
	return 0;
}

/* Two map pointers swapped, one map's values with a lock. */
SEC("tc")
__failure
__msg("map with a bpf_spin_lock stored at fp{{-[0-9]+}} of frame {{[0-9]+}} by a callback, which runs more often than it is verified")
long callback_swaps_lock_map_ptrs(void *ctx)
{
	void *x = &plains, *y = &locks;
	struct plain *q;
	int k = 0;

	__sink(x);
	__sink(y);
	q = bpf_map_lookup_elem(swapped_twice(x, y), &k);	/* run time: locks */
	if (!q)
		return 1;
	q->w[0] = 0;	/* the lock's word, written as plain data */
	return 0;
}

/* Two plain values swapped: the general hole of 6.1 and 6.3, which
 * touches no lock or graph root; loaded and run as before (returning 1: at run
 * time the second value comes back, where the verifier believes the
 * first).
 */
SEC("tc")
__success __retval(1)
long callback_swap_plain_values(void *ctx)
{
	struct plain *p, *q;
	int k0 = 0;

	p = bpf_map_lookup_elem(&plains, &k0);
	q = bpf_map_lookup_elem(&plains2, &k0);
	if (!p || !q)
		return 1;
	return swapped_twice(p, q) != p;
}

char _license[] SEC("license") = "GPL";
