// SPDX-License-Identifier: GPL-2.0
/*
 * A global function is verified on its own; a call of one that may change
 * the packet (a helper that does, a tail call) invalidates its caller's
 * packet pointers, as a call of such a helper does (patch 41). A call of
 * one that only reads keeps them. Such a function cannot take a packet
 * pointer either: inside it, the pointer is plain memory that the change
 * does not invalidate. An extension program that may change
 * the packet cannot replace a global function that may not: its callers
 * were verified keeping their packet pointers.
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jump_table SEC(".maps");

__noinline int global_pulls(struct __sk_buff *skb)
{
	return bpf_skb_pull_data(skb, 0);
}

/* through a static subprogram it calls */
static __noinline int static_pulls(struct __sk_buff *skb)
{
	return bpf_skb_pull_data(skb, 0);
}

__noinline int global_calls_puller(struct __sk_buff *skb)
{
	return static_pulls(skb);
}

__noinline int global_tail_calls(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jump_table, 0);
	return 0;
}

__noinline int global_reads_len(struct __sk_buff *skb)
{
	return skb ? skb->len : 0;
}

SEC("tc")
__failure
__msg("invalid mem access")
int global_pull_invalidates_pkt_pointers(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	global_pulls(skb);
	return *p;
}

SEC("tc")
__failure
__msg("invalid mem access")
int global_callee_pull_invalidates_pkt_pointers(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	global_calls_puller(skb);
	return *p;
}

SEC("tc")
__failure
__msg("invalid mem access")
int global_tail_call_invalidates_pkt_pointers(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	global_tail_calls(skb);
	return *p;
}

int len_seen;

SEC("tc")
__success __retval(1) __global_eq(len_seen, 54)
int global_reader_keeps_pkt_pointers(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	len_seen = global_reads_len(skb);
	return *p != 0x12345678;
}

SEC("tc")
__success __retval(1)
int global_puller_reloads_pkt_pointers(struct __sk_buff *skb)
{
	__u32 *p;

	global_pulls(skb);
	p = pkt_word(skb);
	if (!p)
		return 0;
	return *p != 0x12345678;
}

/* takes a word of the packet as memory, then pulls the packet */
__noinline int global_pulls_then_writes(struct __sk_buff *skb, __u32 *word)
{
	if (!word)
		return 0;
	bpf_skb_pull_data(skb, 0);
	*word = 0x41414141;
	return 0;
}

__noinline int global_reads_word(__u32 *word)
{
	return word ? *word : 0;
}

SEC("tc")
__failure
__msg("R2 is a packet pointer; global func#{{[0-9]+}} may change the packet")
int global_puller_gets_pkt_pointer(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	return global_pulls_then_writes(skb, p);
}

SEC("tc")
__success __retval(1)
int global_reader_gets_pkt_pointer(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	return global_reads_word(p) != 0x12345678;
}

SEC("freplace/global_reads_len")
__failure __replaces(global_reader_keeps_pkt_pointers, global_reads_len)
__msg("Extension program changes packet data, while original does not")
int freplace_pull_for_reader(struct __sk_buff *skb)
{
	return bpf_skb_pull_data(skb, 0);
}

SEC("freplace/global_pulls")
__success __replaces(global_puller_reloads_pkt_pointers, global_pulls)
int freplace_reader_for_puller(struct __sk_buff *skb)
{
	return skb ? skb->len : 0;
}

char _license[] SEC("license") = "GPL";
