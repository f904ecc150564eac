// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF side of ./run_tests.sh --rbtree-bench (selftests/bench.c): N
 * (skb->mark) x (bpf_obj_new, lock, bpf_rbtree_add, unlock) with xorshift32
 * keys from skb->priority, then N x (lock, bpf_rbtree_first,
 * bpf_rbtree_remove, unlock, bpf_obj_drop). kunit/graph_bench.c does the
 * same in C with the same keys.
 */
#include "bpf_experimental.h"

struct bnode {
	long key;
	struct bpf_rb_node rb;
};

private(B) struct bpf_spin_lock block;
private(B) struct bpf_rb_root broot __contains(bnode, rb);

long no_memory;

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct bnode, rb)->key < container_of(b, struct bnode, rb)->key;
}

struct keys {
	__u32 x;
};

static long add_one(__u32 i, void *data)
{
	struct keys *k = data;
	struct bnode *n;
	__u32 x = k->x;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	k->x = x;
	n = bpf_obj_new(typeof(*n));
	if (!n) {
		no_memory++;
		return 1;
	}
	n->key = x;
	bpf_spin_lock(&block);
	bpf_rbtree_add(&broot, &n->rb, less);
	bpf_spin_unlock(&block);
	return 0;
}

static long remove_one(__u32 i, void *data)
{
	struct bpf_rb_node *rb;

	bpf_spin_lock(&block);
	rb = bpf_rbtree_first(&broot);
	if (!rb) {
		bpf_spin_unlock(&block);
		return 1;
	}
	rb = bpf_rbtree_remove(&broot, rb);
	bpf_spin_unlock(&block);
	bpf_obj_drop(container_of(rb, struct bnode, rb));
	return 0;
}

SEC("tc")
int rbtree_bench_add(struct __sk_buff *skb)
{
	struct keys k = { .x = skb->priority };

	bpf_loop(skb->mark, add_one, &k, 0);
	return 0;
}

SEC("tc")
int rbtree_bench_remove(struct __sk_buff *skb)
{
	bpf_loop(skb->mark, remove_one, NULL, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
