// SPDX-License-Identifier: GPL-2.0
/* bpf_spin_lock in a map value, as 6.1 already supports it. */
#include "bpf_progs.h"
#include "bpf_misc.h"

struct counter {
	struct bpf_spin_lock lock;
	int value;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct counter);
} counters SEC(".maps");

int counter_after;
int loop_sum;

static int add_index(__u32 index, void *ctx)
{
	loop_sum += index;
	return 0;
}

SEC("tc")
__success __retval(0) __global_eq(counter_after, 3) __global_eq(loop_sum, 45)
int spin_lock_counter(struct __sk_buff *skb)
{
	struct counter *c;
	int key = 0;

	c = bpf_map_lookup_elem(&counters, &key);
	if (!c)
		return 1;
	bpf_spin_lock(&c->lock);
	c->value += 3;
	bpf_spin_unlock(&c->lock);
	counter_after = c->value;
	bpf_loop(10, add_index, NULL, 0);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
