// SPDX-License-Identifier: GPL-2.0
/* Misuse of bpf_spin_locks in global data and in callback arguments. */
#include "bpf_progs.h"
#include "bpf_misc.h"

private(A) struct bpf_spin_lock glock_a;
private(A) long count_a;
private(B) struct bpf_spin_lock glock_b;
private(B) long count_b;

struct locked {
	struct bpf_spin_lock lock;
	int value;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct locked);
} locked_map SEC(".maps");

SEC("tc")
__failure
int global_lock_missing_unlock(struct __sk_buff *skb)
{
	bpf_spin_lock(&glock_a);
	count_a++;
	return 0;
}

SEC("tc")
__failure
int global_lock_unlock_other(struct __sk_buff *skb)
{
	bpf_spin_lock(&glock_a);
	count_a++;
	bpf_spin_unlock(&glock_b);
	return 0;
}

SEC("tc")
__failure
int global_lock_call_in_cs(struct __sk_buff *skb)
{
	bpf_spin_lock(&glock_b);
	count_b = bpf_get_prandom_u32();
	bpf_spin_unlock(&glock_b);
	return 0;
}

/* Stock 6.1 accepts this and the second run deadlocks on the held lock. */
static long lock_and_leave(void *map, int *key, struct locked *val,
			   void *ctx)
{
	bpf_spin_lock(&val->lock);
	return 0;
}

SEC("tc")
__failure
int for_each_cb_lock_leak(struct __sk_buff *skb)
{
	bpf_for_each_map_elem(&locked_map, lock_and_leave, NULL, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
