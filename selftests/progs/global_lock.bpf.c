// SPDX-License-Identifier: GPL-2.0
/* A bpf_spin_lock in global data protects the variables beside it. */
#include "bpf_progs.h"
#include "bpf_misc.h"

long gcount_seen;

private(A) struct bpf_spin_lock glock;
private(A) long gcount;

SEC("tc")
__success __retval(0) __global_eq(gcount_seen, 5)
int global_lock_counter(struct __sk_buff *skb)
{
	bpf_spin_lock(&glock);
	gcount += 5;
	bpf_spin_unlock(&glock);

	bpf_spin_lock(&glock);
	gcount_seen = gcount;
	bpf_spin_unlock(&glock);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
