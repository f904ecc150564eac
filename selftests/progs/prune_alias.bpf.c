// SPDX-License-Identifier: GPL-2.0
/*
 * State pruning must keep which object a register names. Each program
 * makes two registers name ONE map value on one path and TWO values on
 * the other, joins the paths, then takes the lock through one register and
 * releases it through the other. Written in assembly so that the order in
 * which the verifier explores the paths is the program's, not clang's:
 * the fall-through path of a jump is explored first.
 *
 * "aliased_first": the safe path is explored first and its state kept at
 * the join (BPF_F_TEST_STATE_FREQ: a state at every prune point, not only
 * where 6.1's heuristic would keep one); the other path must not be pruned
 * against it (6.1 without the
 * series' id map pruned it: an equal register was taken as safe without
 * mapping its id, the map value's id was not compared, and each call frame
 * had an id map of its own). "distinct_first": the unsafe path comes
 * first and is refused before any pruning can hide it.
 */
#include "rbtree_types.h"
#include "bpf_misc.h"

struct elem {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(node_data, node);
};

struct elems {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct elem);
} elems SEC(".maps"), inner0 SEC(".maps"), inner1 SEC(".maps");

/* The node type the roots hold, for the BTF. */
struct node_data *prune_alias_node_type;

/* Two inner maps of one template: their values differ only by their id. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, int);
	__array(values, struct elems);
} outer SEC(".maps") = {
	.values = { &inner0, &inner1 },
};

/* r0 = &MAP[KEY] or exit: a map value with a fresh id. */
#define LOOKUP(map, key)					\
	"r1 = " #key ";"					\
	"*(u32 *)(r10 - 4) = r1;"				\
	"r1 = %[" #map "] ll;"					\
	"r2 = r10;"						\
	"r2 += -4;"						\
	"call %[lookup];"					\
	"if r0 == 0 goto out_%=;"

/* r0 = &inner map OUTER[KEY][0] or exit. */
#define LOOKUP_INNER(key)					\
	"r1 = " #key ";"					\
	"*(u32 *)(r10 - 4) = r1;"				\
	"r1 = %[outer] ll;"					\
	"r2 = r10;"						\
	"r2 += -4;"						\
	"call %[lookup];"					\
	"if r0 == 0 goto out_%=;"				\
	"r1 = 0;"						\
	"*(u32 *)(r10 - 4) = r1;"				\
	"r1 = r0;"						\
	"r2 = r10;"						\
	"r2 += -4;"						\
	"call %[lookup];"					\
	"if r0 == 0 goto out_%=;"

/*
 * With r7 and r8 two values, r9 = r7 on the first path and r8 on the
 * second (ALIASED_FIRST) or the other way round; then lock r7, unlock r9.
 */
#define JOIN_LOCK_UNLOCK(first, second)				\
	"r9 = " #first ";"					\
	"r1 = *(u32 *)(r6 + 0);"				\
	"if r1 > 100 goto second_%=;"				\
"join_%=:"							\
	"r1 = r7;"						\
	"call %[spin_lock];"					\
	"r1 = r9;"						\
	"call %[spin_unlock];"					\
"out_%=:"							\
	"r0 = 0;"						\
	"exit;"							\
"second_%=:"							\
	"r9 = " #second ";"					\
	"goto join_%=;"

#define IMMS								\
	[elems] "i"(&elems), [outer] "i"(&outer),			\
	[lookup] "i"(BPF_FUNC_map_lookup_elem),				\
	[spin_lock] "i"(BPF_FUNC_spin_lock),				\
	[spin_unlock] "i"(BPF_FUNC_spin_unlock),			\
	[for_each] "i"(BPF_FUNC_for_each_map_elem)

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_value_aliased_first(void)
{
	asm volatile ("r6 = r1;"
		      LOOKUP(elems, 0) "r7 = r0;"
		      LOOKUP(elems, 1) "r8 = r0;"
		      JOIN_LOCK_UNLOCK(r7, r8)
		      :: IMMS : "memory");
}

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_value_distinct_first(void)
{
	asm volatile ("r6 = r1;"
		      LOOKUP(elems, 0) "r7 = r0;"
		      LOOKUP(elems, 1) "r8 = r0;"
		      JOIN_LOCK_UNLOCK(r8, r7)
		      :: IMMS : "memory");
}

/* The same through a stack slot: a spilled value keeps its id too. */
SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_value_spilled_aliased_first(void)
{
	asm volatile ("r6 = r1;"
		      LOOKUP(elems, 0) "r7 = r0;"
		      LOOKUP(elems, 1) "r8 = r0;"
		      "*(u64 *)(r10 - 16) = r7;"
		      "r1 = *(u32 *)(r6 + 0);"
		      "if r1 > 100 goto second_%=;"
	"join_%=:"
		      "r1 = r7;"
		      "call %[spin_lock];"
		      "r1 = *(u64 *)(r10 - 16);"
		      "call %[spin_unlock];"
	"out_%=:"
		      "r0 = 0;"
		      "exit;"
	"second_%=:"
		      "*(u64 *)(r10 - 16) = r8;"
		      "goto join_%=;"
		      :: IMMS : "memory");
}

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_inner_value_aliased_first(void)
{
	asm volatile ("r6 = r1;"
		      LOOKUP_INNER(0) "r7 = r0;"
		      LOOKUP_INNER(1) "r8 = r0;"
		      JOIN_LOCK_UNLOCK(r7, r8)
		      :: IMMS : "memory");
}

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_inner_value_distinct_first(void)
{
	asm volatile ("r6 = r1;"
		      LOOKUP_INNER(0) "r7 = r0;"
		      LOOKUP_INNER(1) "r8 = r0;"
		      JOIN_LOCK_UNLOCK(r8, r7)
		      :: IMMS : "memory");
}

/*
 * Across a call frame: the caller keeps value a in r7, the callee returns
 * a or b from a join of its own. The caller's r7 and the callee's r0 must
 * be compared through one id map.
 */
__attribute__((naked, noinline, used)) static int pick_aliased_first(void)
{
	asm volatile ("r0 = r1;"
		      "if r3 > 100 goto second_%=;"
	"join_%=:"
		      "exit;"
	"second_%=:"
		      "r0 = r2;"
		      "goto join_%=;"
		      ::: "memory");
}

__attribute__((naked, noinline, used)) static int pick_distinct_first(void)
{
	asm volatile ("r0 = r2;"
		      "if r3 > 100 goto second_%=;"
	"join_%=:"
		      "exit;"
	"second_%=:"
		      "r0 = r1;"
		      "goto join_%=;"
		      ::: "memory");
}

#define CALL_PICK(pick)						\
	"r6 = r1;"						\
	LOOKUP(elems, 0) "r7 = r0;"				\
	LOOKUP(elems, 1) "r8 = r0;"				\
	"r1 = r7;"						\
	"r2 = r8;"						\
	"r3 = *(u32 *)(r6 + 0);"				\
	"call " #pick ";"					\
	"r9 = r0;"						\
	"r1 = r7;"						\
	"call %[spin_lock];"					\
	"r1 = r9;"						\
	"call %[spin_unlock];"					\
"out_%=:"							\
	"r0 = 0;"						\
	"exit;"

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_callee_value_aliased_first(void)
{
	asm volatile (CALL_PICK(pick_aliased_first) :: IMMS : "memory");
}

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_callee_value_distinct_first(void)
{
	asm volatile (CALL_PICK(pick_distinct_first) :: IMMS : "memory");
}

/*
 * A bpf_for_each_map_elem() callback's element (r3) against an element the
 * callback looks up itself; r6 points at the caller's copy of skb->len,
 * where the other programs keep the skb.
 */
__attribute__((naked, noinline, used)) static int cb_aliased_first(void)
{
	asm volatile ("r6 = r4;"
		      "r7 = r3;"
		      LOOKUP(elems, 1) "r8 = r0;"
		      JOIN_LOCK_UNLOCK(r7, r8)
		      :: IMMS : "memory");
}

__attribute__((naked, noinline, used)) static int cb_distinct_first(void)
{
	asm volatile ("r6 = r4;"
		      "r7 = r3;"
		      LOOKUP(elems, 1) "r8 = r0;"
		      JOIN_LOCK_UNLOCK(r8, r7)
		      :: IMMS : "memory");
}

/* The callback's context: skb->len, on the caller's stack. */
#define FOR_EACH(cb)						\
	"r2 = *(u32 *)(r1 + 0);"				\
	"*(u64 *)(r10 - 8) = r2;"				\
	"r1 = %[elems] ll;"					\
	"r2 = " #cb " ll;"					\
	"r3 = r10;"						\
	"r3 += -8;"						\
	"r4 = 0;"						\
	"call %[for_each];"					\
	"r0 = 0;"						\
	"exit;"

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_callback_elem_aliased_first(void)
{
	asm volatile (FOR_EACH(cb_aliased_first)
		      :: IMMS : "memory");
}

SEC("tc")
__failure __msg("bpf_spin_unlock of different lock") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_callback_elem_distinct_first(void)
{
	asm volatile (FOR_EACH(cb_distinct_first)
		      :: IMMS : "memory");
}

/* Both paths name the same value: pruned, and accepted. */
SEC("tc")
__success __retval(0) __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_value_same_both_paths(void)
{
	asm volatile ("r6 = r1;"
		      LOOKUP(elems, 0) "r7 = r0;"
		      LOOKUP(elems, 1) "r8 = r0;"
		      JOIN_LOCK_UNLOCK(r7, r7)
		      :: IMMS : "memory");
}

/*
 * A pointer with no reference (skb->sk) against a socket the program holds
 * a reference to: on the path kept first r9 is skb->sk, on the other a copy
 * of the looked-up socket, which the program releases after the join and
 * then reads through r9. A reference id of 0 is no reference: matching it
 * with the socket's would prune the second path and let the read through.
 */
SEC("tc")
__failure __msg("R9 invalid mem access") __flag(BPF_F_TEST_STATE_FREQ)
__attribute__((naked)) int prune_unreferenced_sock_first(void)
{
	asm volatile ("r6 = r1;"
		      "r1 = 0;"
		      "*(u64 *)(r10 - 16) = r1;"
		      "*(u32 *)(r10 - 8) = r1;"
		      "r1 = r6;"
		      "r2 = r10;"
		      "r2 += -16;"
		      "r3 = 12;"
		      "r4 = -1;"
		      "r5 = 0;"
		      "call %[skc_lookup_tcp];"
		      "if r0 == 0 goto out_%=;"
		      "r7 = r0;"
		      "r9 = *(u64 *)(r6 + %[sk_off]);"
		      "if r9 == 0 goto release_%=;"
		      "r1 = *(u32 *)(r6 + 0);"
		      "if r1 > 100 goto second_%=;"
		"join_%=:"
		      "r1 = r7;"
		      "call %[sk_release];"
		      "r0 = *(u32 *)(r9 + 4);"
		      "r0 = 0;"
		      "exit;"
		"second_%=:"
		      "r9 = r7;"
		      "goto join_%=;"
		"release_%=:"
		      "r1 = r7;"
		      "call %[sk_release];"
		"out_%=:"
		      "r0 = 0;"
		      "exit;"
		      :: [skc_lookup_tcp] "i"(BPF_FUNC_skc_lookup_tcp),
			 [sk_release] "i"(BPF_FUNC_sk_release),
			 [sk_off] "i"(__builtin_offsetof(struct __sk_buff, sk))
		      : "memory");
}

char _license[] SEC("license") = "GPL";
