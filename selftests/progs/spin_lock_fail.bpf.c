// SPDX-License-Identifier: GPL-2.0
/* bpf_spin_lock misuse the verifier refuses, in upstream 6.3's words; one program each. */
#include "bpf_progs.h"
#include "bpf_misc.h"

struct locked {
	struct bpf_spin_lock lock;
	int value;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct locked);
} locked_map SEC(".maps");

struct plain {
	int a, b;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct plain);
} plain_map SEC(".maps");

static struct locked *lookup(int key)
{
	return bpf_map_lookup_elem(&locked_map, &key);
}

SEC("tc")
__failure
int spin_lock_missing_unlock(struct __sk_buff *skb)
{
	struct locked *v = lookup(0);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->value++;
	return 0;
}

SEC("tc")
__failure
int spin_lock_call_in_cs(struct __sk_buff *skb)
{
	struct locked *v = lookup(0);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->value = bpf_get_prandom_u32();
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
__failure
int spin_lock_twice(struct __sk_buff *skb)
{
	struct locked *a = lookup(0), *b = lookup(1);

	if (!a || !b)
		return 0;
	bpf_spin_lock(&a->lock);
	bpf_spin_lock(&b->lock);
	bpf_spin_unlock(&b->lock);
	bpf_spin_unlock(&a->lock);
	return 0;
}

SEC("tc")
__failure
int spin_unlock_without_lock(struct __sk_buff *skb)
{
	struct locked *v = lookup(0);

	if (!v)
		return 0;
	bpf_spin_unlock(&v->lock);
	return 0;
}

SEC("tc")
__failure
int spin_lock_direct_access(struct __sk_buff *skb)
{
	struct locked *v = lookup(0);

	if (!v)
		return 0;
	return *(volatile __u32 *)&v->lock;
}

SEC("tc")
__failure
int spin_lock_map_without_lock(struct __sk_buff *skb)
{
	int key = 0;
	struct plain *v = bpf_map_lookup_elem(&plain_map, &key);

	if (!v)
		return 0;
	bpf_spin_lock((struct bpf_spin_lock *)v);
	bpf_spin_unlock((struct bpf_spin_lock *)v);
	return 0;
}

SEC("tc")
__failure
int spin_lock_wrong_offset(struct __sk_buff *skb)
{
	struct locked *v = lookup(0);

	if (!v)
		return 0;
	bpf_spin_lock((struct bpf_spin_lock *)&v->value);
	bpf_spin_unlock((struct bpf_spin_lock *)&v->value);
	return 0;
}

char _license[] SEC("license") = "GPL";
