// SPDX-License-Identifier: GPL-2.0
/*
 * A list head's offset chosen on two arms, kept in a stack slot, and read
 * back through another register than R10 after the arms join: through a
 * copy of R10, or in a subprogram through a pointer into its caller's
 * frame. Precision backtracking follows fills through R10 only, so before
 * patch 39 the slot stayed imprecise at the join, the second arm was
 * pruned, and on it the node was pushed onto the value's plain words
 * (whose address user space then reads, and whose next/prev it writes).
 * Each program takes the arms in one order (the verifier explores the
 * fall-through first); every one must be refused on the plain offset.
 */
#include "list_types.h"
#include "bpf_misc.h"

struct elem {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(node_data, node);	/* off 8 */
	__u64 plain[2];						/* off 24 */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct elem);
} elems SEC(".maps");

int sel;
__u64 leaked;

/* the slot: one arm stores the head's offset, the other the plain words' */
static __always_inline void pick_off(volatile __u64 *slot, bool head_first)
{
	__u64 head_off = __builtin_offsetof(struct elem, head);
	__u64 plain_off = __builtin_offsetof(struct elem, plain);

	/* from registers: an immediate stored to the stack is not a spill */
	asm volatile("" : "+r"(head_off), "+r"(plain_off));
	if (head_first) {
		if (sel)
			*slot = head_off;
		else
			*slot = plain_off;
	} else {
		if (!sel)
			*slot = plain_off;
		else
			*slot = head_off;
	}
}

static __always_inline int push_at(struct elem *v, __u64 *off)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 0;
	bpf_spin_lock(&v->lock);
	bpf_list_push_front((struct bpf_list_head *)((void *)v + *off), &n->node);
	bpf_spin_unlock(&v->lock);
	leaked = v->plain[0];
	return 0;
}

static __always_inline int fill_through_copy(bool head_first)
{
	volatile __u64 slot;
	__u64 *p = (__u64 *)&slot;
	struct elem *v;
	int k = 0;

	pick_off(&slot, head_first);
	asm volatile("" : "+r"(p));	/* the fill goes through a copy of R10 */
	use_node_data();
	v = bpf_map_lookup_elem(&elems, &k);
	return v ? push_at(v, p) : 0;
}

/* the fill of the caller's slot happens here, through R2 */
static __noinline int push_at_callers_off(struct elem *v, __u64 *off)
{
	return v ? push_at(v, off) : 0;
}

static __always_inline int fill_in_callee(bool head_first)
{
	volatile __u64 slot;
	struct elem *v;
	int k = 0;

	pick_off(&slot, head_first);
	use_node_data();
	v = bpf_map_lookup_elem(&elems, &k);
	return push_at_callers_off(v, (__u64 *)&slot);
}

SEC("tc")
__failure __flag(BPF_F_TEST_STATE_FREQ) __msg("bpf_list_head not found at offset=24")
int fill_offset_through_copy_1(struct __sk_buff *skb)
{
	return fill_through_copy(true);
}

SEC("tc")
__failure __flag(BPF_F_TEST_STATE_FREQ) __msg("bpf_list_head not found at offset=24")
int fill_offset_through_copy_2(struct __sk_buff *skb)
{
	return fill_through_copy(false);
}

SEC("tc")
__failure __flag(BPF_F_TEST_STATE_FREQ) __msg("bpf_list_head not found at offset=24")
int fill_offset_in_callee_1(struct __sk_buff *skb)
{
	return fill_in_callee(true);
}

SEC("tc")
__failure __flag(BPF_F_TEST_STATE_FREQ) __msg("bpf_list_head not found at offset=24")
int fill_offset_in_callee_2(struct __sk_buff *skb)
{
	return fill_in_callee(false);
}

char _license[] SEC("license") = "GPL";
