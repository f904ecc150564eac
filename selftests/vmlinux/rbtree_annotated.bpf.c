// SPDX-License-Identifier: GPL-2.0
/*
 * Programs written the way upstream's selftests are (vmlinux.h, "?tc"
 * sections, bpf_misc.h annotations): their __msg annotations alone say
 * what the verifier must answer; expected-logs/ keeps the blessed record.
 */
#include <vmlinux.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct item {
	long key;
	struct bpf_rb_node rb;
};

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root troot __contains(item, rb);

static bool item_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct item, rb)->key <
	       container_of(b, struct item, rb)->key;
}

/* The lock's offset depends on how the compiler lays out the section. */
SEC("?tc")
__failure __msg("bpf_spin_lock at off={{[0-9]+}} must be held for bpf_rb_root")
long annotated_first_without_lock(void *ctx)
{
	bpf_rbtree_first(&troot);
	return 0;
}

/* A removed node the program keeps: the ids are the verifier's choice. */
SEC("?tc")
__failure __msg("Unreleased reference id={{[0-9]+}} alloc_insn={{[0-9]+}}")
long annotated_removed_node_kept(void *ctx)
{
	struct bpf_rb_node *res;

	bpf_spin_lock(&tlock);
	res = bpf_rbtree_first(&troot);
	if (!res) {
		bpf_spin_unlock(&tlock);
		return 1;
	}
	res = bpf_rbtree_remove(&troot, res);
	bpf_spin_unlock(&tlock);
	__sink(res);
	return 0;
}

/* Two messages of the instruction-level log, in the order they come. */
SEC("?tc")
__failure __log_level(2)
__msg("call bpf_obj_new_impl#{{[0-9]+}}")
__msg("Unreleased reference")
long annotated_new_leaked(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));

	__sink(n);
	return 0;
}

/* A program that must load, run once and return 7. */
SEC("?tc")
__success __retval(7)
long annotated_add_and_drain(void *ctx)
{
	struct item *n = bpf_obj_new(typeof(*n));
	struct bpf_rb_node *res;
	long key;

	if (!n)
		return 1;
	n->key = 7;
	bpf_spin_lock(&tlock);
	bpf_rbtree_add(&troot, &n->rb, item_less);
	res = bpf_rbtree_first(&troot);
	if (!res) {
		bpf_spin_unlock(&tlock);
		return 2;
	}
	/* the node is in the tree: remove returns it, never NULL */
	res = bpf_rbtree_remove(&troot, res);
	bpf_spin_unlock(&tlock);
	n = container_of(res, struct item, rb);
	key = n->key;
	bpf_obj_drop(n);
	return key;
}

char _license[] SEC("license") = "GPL";
