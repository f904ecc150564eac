// SPDX-License-Identifier: GPL-2.0
/*
 * References in callbacks and the static subprograms they call: an object
 * a subprogram allocates for a bpf_loop() callback belongs to the callback,
 * which must release it before it returns (its references do not go back
 * to the helper's caller); a callback that tests a pointer its caller
 * acquired for NULL is refused without a kernel warning.
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct point {
	long x;
	int y;
};

long dropped;

/* NULL or not: a second NULL test of a pointer already tested would be
 * taken as possibly true (6.1 does not know allocated objects non-NULL)
 */
static __attribute__((noinline)) struct point *new_point(void)
{
	return bpf_obj_new(struct point);
}

static long drop_new_point(__u32 i, void *ctx)
{
	struct point *p = new_point();

	if (!p)
		return 1;
	p->x = i;
	dropped += p->x + 1;
	bpf_obj_drop(p);
	return 0;
}

/* 6.3 refuses the drop: it takes the object for the caller's */
SEC("tc")
__success __retval(0) __global_eq(dropped, 10)
int callback_drops_subprog_object(struct __sk_buff *skb)
{
	dropped = 0;
	bpf_loop(4, drop_new_point, NULL, 0);
	return 0;
}

static long keep_new_point(__u32 i, void *ctx)
{
	struct point *p = new_point();

	return p ? 0 : 1;
}

/* 6.3 accepts it, and every iteration leaks an object */
SEC("tc")
__failure __msg("Unreleased reference id={{[0-9]+}} alloc_insn={{[0-9]+}}")
int callback_leaks_subprog_object(struct __sk_buff *skb)
{
	bpf_loop(4, keep_new_point, NULL, 0);
	return 0;
}

struct sock_ctx {
	struct bpf_sock *sk;
};

static long test_callers_sock(__u32 i, struct sock_ctx *c)
{
	return c->sk ? 1 : 0;
}

/* The callback's NULL test of the caller's socket released the caller's
 * reference in the callback: a kernel warning (6.1, 6.3). It is refused
 * without one: the caller must keep its reference (the callback, verified
 * once, may see the socket NULL on one run and not on the next), which it
 * can no longer release where the callback saw NULL.
 */
SEC("tc")
__failure __msg("Unreleased reference id={{[0-9]+}} alloc_insn={{[0-9]+}}")
int callback_tests_callers_sock(struct __sk_buff *skb)
{
	struct bpf_sock_tuple tuple = {};
	struct sock_ctx c;

	c.sk = bpf_sk_lookup_tcp(skb, &tuple, sizeof(tuple.ipv4), BPF_F_CURRENT_NETNS, 0);
	bpf_loop(1, test_callers_sock, &c, 0);
	if (c.sk)
		bpf_sk_release(c.sk);
	return 0;
}

char _license[] SEC("license") = "GPL";
