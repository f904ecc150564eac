// SPDX-License-Identifier: GPL-2.0
/*
 * The root's 'contains' names a bpf_list_node: the kernel refuses the
 * object's BTF and its log says why; libbpf then goes on without BTF and
 * the verifier refuses the lock for want of it.
 */
#include "bpf_experimental.h"
#include "bpf_misc.h"

struct node_data {
	long key;
	long data;
	struct bpf_list_node node;
};

private(A) struct bpf_spin_lock glock;
private(A) struct bpf_rb_root groot __contains(node_data, node);

SEC("tc")
__failure
long rbtree_btf_fail__wrong_node_type(void *ctx)
{
	struct node_data *n = bpf_obj_new(struct node_data);

	if (!n)
		return 1;
	bpf_obj_drop(n);
	bpf_spin_lock(&glock);
	bpf_spin_unlock(&glock);
	return 0;
}

char _license[] SEC("license") = "GPL";
