// SPDX-License-Identifier: GPL-2.0
/*
 * A struct that is a node of a list and of a tree at once: the kernel
 * refuses the object's BTF (upstream 6.3's rule: a non-owning reference
 * could not tell which graph its node is in) and its log says why; libbpf
 * then goes on without BTF and the verifier refuses bpf_obj_new() for want
 * of it.
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct node_both {
	long key;
	struct bpf_rb_node rb;
	struct bpf_list_node ln;
};

private(B) struct bpf_spin_lock block;
private(B) struct bpf_rb_root broot __contains(node_both, rb);
private(B) struct bpf_list_head bhead __contains(node_both, ln);

/* Would remove a node that is in the list, not in the tree. */
SEC("tc")
__failure
long rbtree_btf_fail__list_and_rb_node(void *ctx)
{
	struct node_both *n = bpf_obj_new(struct node_both);
	struct bpf_rb_node *res;

	if (!n)
		return 1;
	bpf_spin_lock(&block);
	bpf_list_push_front(&bhead, &n->ln);
	res = bpf_rbtree_remove(&broot, &n->rb);
	bpf_spin_unlock(&block);
	bpf_obj_drop(container_of(res, struct node_both, rb));
	return 0;
}

char _license[] SEC("license") = "GPL";
