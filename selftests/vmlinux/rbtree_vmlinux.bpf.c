// SPDX-License-Identifier: GPL-2.0
/*
 * Built as most BPF programs are, against a vmlinux.h that bpftool dumps
 * from the test kernel's BTF (not against the UAPI header). Debian 12's
 * bpftool 7.1 writes no alignment attribute for a struct whose BTF does
 * not show one: bpf_rb_node must be 8-aligned by its own members, or a
 * node after an int lands at offset 4 and the program cannot load.
 */
#include "vmlinux.h"
#include "bpf_experimental.h"
#include "bpf_misc.h"

#define private(name) SEC(".data." #name) __hidden __attribute__((aligned(8)))

struct int_key_node {
	int key;
	struct bpf_rb_node rb;
};

_Static_assert(__builtin_offsetof(struct int_key_node, rb) == 8,
	       "vmlinux.h declares struct bpf_rb_node without its 8-byte alignment");

private(V) struct bpf_spin_lock vlock;
private(V) struct bpf_rb_root vroot __contains(int_key_node, rb);

long first_key = -1;

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct int_key_node, rb)->key <
	       container_of(b, struct int_key_node, rb)->key;
}

static int add(int key)
{
	struct int_key_node *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 1;
	n->key = key;
	bpf_spin_lock(&vlock);
	bpf_rbtree_add(&vroot, &n->rb, less);
	bpf_spin_unlock(&vlock);
	return 0;
}

/* Add 3, 1, 2; take the first out: key 1. */
SEC("tc")
__success __retval(0) __global_eq(first_key, 1) __live(2)
int rbtree_vmlinux_h(struct __sk_buff *skb)
{
	struct bpf_rb_node *rb;

	if (add(3) || add(1) || add(2))
		return 1;
	bpf_spin_lock(&vlock);
	rb = bpf_rbtree_first(&vroot);
	if (!rb) {
		bpf_spin_unlock(&vlock);
		return 2;
	}
	rb = bpf_rbtree_remove(&vroot, rb);
	bpf_spin_unlock(&vlock);
	first_key = container_of(rb, struct int_key_node, rb)->key;
	bpf_obj_drop(container_of(rb, struct int_key_node, rb));
	return 0;
}

char _license[] SEC("license") = "GPL";
