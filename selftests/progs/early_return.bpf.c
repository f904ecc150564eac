// SPDX-License-Identifier: GPL-2.0
/*
 * A tail call taken in a static subprogram, and an LD_ABS that fails there,
 * leave the subprogram early and return to its caller (the JIT unwinds the
 * subprogram's frame), R0 holding the tail-called program's return value
 * (or 0). The caller goes on with the objects it holds and must still free
 * them, while an object the subprogram allocated itself would leak on that
 * path (patch 36); the caller sees that return value, its stack as it was
 * at the tail call, and packet pointers the tail-called program may have
 * invalidated (patch 40).
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct point {
	long x;
	int y;
};

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} jump_table SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, long[2]);
} pair SEC(".maps");

/* LLVM's LD_ABS intrinsic: R6 is the skb, a failed load returns 0 from
 * the function it is in
 */
unsigned long long load_word(void *skb, unsigned long long off) asm("llvm.bpf.load.word");

int target_ran, caller_went_on;

/* @v where the compiler cannot see it: it would fold a subprogram's
 * constant return value into its callers, as if a tail call returned
 */
static __always_inline int opaque(int v)
{
	asm volatile("" : "+r"(v));
	return v;
}

SEC("tc")
int tail_target(struct __sk_buff *skb)
{
	target_ran++;
	return 7;
}

/* 7 from tail_target when the tail call is taken, which ends this
 * function: never 1
 */
static __noinline int sub_tail_call(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jump_table, 0);
	return opaque(1);
}

/* 0 when the load fails (the test packet is shorter than 4,000 bytes),
 * which ends this function: never the 100 and more of a load that worked
 */
static __noinline int sub_ld_abs(struct __sk_buff *skb)
{
	return load_word(skb, 4000) + 100;
}

SEC("tc")
__success __retval(7) __tail_call(jump_table, tail_target)
__global_eq(target_ran, 1) __global_eq(caller_went_on, 1) __live(0)
int tail_call_keeps_callers_object(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);
	int ret;

	if (!p)
		return 0;
	ret = sub_tail_call(skb);
	caller_went_on = 1;
	bpf_obj_drop(p);
	return ret;
}

/* The object of a subprogram that calls the one that tail-calls: that
 * subprogram is the caller the tail call returns to.
 */
static __noinline int sub_holds_object(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);
	int ret;

	if (!p)
		return 0;
	ret = sub_tail_call(skb);
	bpf_obj_drop(p);
	return ret + 1;
}

SEC("tc")
__success __retval(8) __tail_call(jump_table, tail_target)
__global_eq(target_ran, 1) __live(0)
int tail_call_keeps_middle_object(struct __sk_buff *skb)
{
	return sub_holds_object(skb);
}

SEC("tc")
__success __retval(5) __global_eq(caller_went_on, 1) __live(0)
int ld_abs_keeps_callers_object(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);
	int ret;

	if (!p)
		return 0;
	ret = sub_ld_abs(skb);
	caller_went_on = 1;
	bpf_obj_drop(p);
	return ret + 5;
}

static __noinline int sub_tail_call_own_object(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);

	if (!p)
		return 0;
	bpf_tail_call(skb, &jump_table, 0);
	bpf_obj_drop(p);
	return 0;
}

/* The tail call leaves the subprogram with its own object held. */
SEC("tc")
__failure
__msg("Unreleased reference id={{[0-9]+}} alloc_insn={{[0-9]+}}")
__msg("tail_call would lead to reference leak")
int tail_call_leaks_subprogs_object(struct __sk_buff *skb)
{
	return sub_tail_call_own_object(skb);
}

static __noinline int sub_ld_abs_own_object(struct __sk_buff *skb)
{
	struct point *p = bpf_obj_new(struct point);
	int ret;

	if (!p)
		return 0;
	ret = load_word(skb, 4000);
	bpf_obj_drop(p);
	return ret;
}

/* A failed load leaves the subprogram with its own object held. */
SEC("tc")
__failure
__msg("Unreleased reference id={{[0-9]+}} alloc_insn={{[0-9]+}}")
__msg("BPF_LD_[ABS|IND] cannot be mixed with socket references")
int ld_abs_leaks_subprogs_object(struct __sk_buff *skb)
{
	return sub_ld_abs_own_object(skb);
}

/* 0 when it returns, whatever the tail-called program returned when it
 * does not
 */
static __noinline int sub_tail_call_zero(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jump_table, 0);
	return opaque(0);
}

/* The subprogram's return value indexes a pair: 0 on its own return, the
 * tail-called program's (7 from tail_target) on the early one.
 */
SEC("tc")
__failure
__msg("math between map_value pointer and register with unbounded min value is not allowed")
int tail_call_result_indexes_pair(struct __sk_buff *skb)
{
	int key = 0, ret = sub_tail_call_zero(skb);
	long *v = bpf_map_lookup_elem(&pair, &key);

	if (v)
		v[ret] = 1;
	return 0;
}

/* *idx is 100 at the tail call, 0 when the subprogram returns itself. */
static __noinline int sub_sets_index_late(struct __sk_buff *skb, int *idx)
{
	*idx = 100;
	bpf_tail_call(skb, &jump_table, 0);
	*idx = 0;
	return 0;
}

/* The early return leaves the caller's stack as it was at the tail call. */
SEC("tc")
__failure
__msg("invalid access to map value, value_size=16 off=800 size=8")
int tail_call_leaves_index_unset(struct __sk_buff *skb)
{
	int key = 0, idx = 0;
	long *v;

	sub_sets_index_late(skb, &idx);
	v = bpf_map_lookup_elem(&pair, &key);
	if (v)
		v[idx] = 1;
	return 0;
}

SEC("tc")
__success __retval(100) __tail_call(jump_table, tail_target) __global_eq(target_ran, 1)
int tail_call_returns_with_index_unset(struct __sk_buff *skb)
{
	int idx = 5;

	sub_sets_index_late(skb, &idx);
	return idx;
}

/* The tail-called program may have pulled or resized the packet. */
SEC("tc")
__failure
__msg("invalid mem access")
int tail_call_invalidates_pkt_pointers(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	sub_tail_call_zero(skb);
	return *p;
}

/* The main program's tail call never returns: its packet pointers stay. */
SEC("tc")
__success __retval(1)
int tail_call_in_main_keeps_pkt_pointers(struct __sk_buff *skb)
{
	__u32 *p = pkt_word(skb);

	if (!p)
		return 0;
	bpf_tail_call(skb, &jump_table, 0);
	return *p != 0x12345678;
}

struct skb_holder {
	struct __sk_buff *skb;
};

static long tail_call_cb(__u32 i, struct skb_holder *h)
{
	bpf_tail_call(h->skb, &jump_table, 0);
	return 0;
}

/* A callback's early return goes back to the helper, which takes any
 * value for one of the callback's range.
 */
SEC("tc")
__success
int tail_call_in_callback(struct __sk_buff *skb)
{
	struct skb_holder h = { .skb = skb };

	bpf_loop(1, tail_call_cb, &h, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
