// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes right before and after each special field of a map value, as
 * user space reads and writes them: each program fills the graph roots of
 * key 0 (which user space wrote with a pattern first), then every syscall
 * that copies the value must keep the pattern around the fields and read
 * the fields as zeroes (__value_bytes, value_bytes.c). One map per kind
 * that may hold graph roots.
 */
#include "rbtree_types.h"
#include "bpf_misc.h"

struct lnode {
	long key;
	struct bpf_list_node node;
};

/* data on both sides of every special field, odd sizes between them */
struct value {
	long a;
	struct bpf_spin_lock lock;
	int b;
	struct bpf_rb_root root __contains(node_data, node);
	char c;
	struct bpf_list_head head __contains(lnode, node);
	short d;
};

#define VALUE_MAP(name, map_type, flags)		\
	struct {					\
		__uint(type, map_type);			\
		__uint(map_flags, flags);		\
		__uint(max_entries, 4);			\
		__type(key, int);			\
		__type(value, struct value);		\
	} name SEC(".maps")

VALUE_MAP(bytes_array, BPF_MAP_TYPE_ARRAY, 0);
VALUE_MAP(bytes_hash, BPF_MAP_TYPE_HASH, 0);
VALUE_MAP(bytes_hash_no_prealloc, BPF_MAP_TYPE_HASH, BPF_F_NO_PREALLOC);
VALUE_MAP(bytes_lru_hash, BPF_MAP_TYPE_LRU_HASH, 0);

static __always_inline int add_tree_node(struct value *v, long key)
{
	struct node_data *n = new_node(key, 0);

	if (!n)
		return 1;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &n->node, less);
	bpf_spin_unlock(&v->lock);
	return 0;
}

static __always_inline int add_list_node(struct value *v, long key)
{
	struct lnode *n = bpf_obj_new(typeof(*n));

	if (!n)
		return 1;
	n->key = key;
	bpf_spin_lock(&v->lock);
	bpf_list_push_back(&v->head, &n->node);
	bpf_spin_unlock(&v->lock);
	return 0;
}

/* Two nodes in key 0's tree and two on its list. */
static __always_inline int fill_graphs(void *map)
{
	int key = 0;
	struct value *v = bpf_map_lookup_elem(map, &key);

	if (!v)
		return 1;
	return add_tree_node(v, 1) || add_tree_node(v, 2) ||
	       add_list_node(v, 1) || add_list_node(v, 2);
}

SEC("tc")
__success __retval(0) __value_bytes(bytes_array)
int value_bytes_array(void *ctx)
{
	return fill_graphs(&bytes_array);
}

SEC("tc")
__success __retval(0) __value_bytes(bytes_hash)
int value_bytes_hash(void *ctx)
{
	return fill_graphs(&bytes_hash);
}

SEC("tc")
__success __retval(0) __value_bytes(bytes_hash_no_prealloc)
int value_bytes_hash_no_prealloc(void *ctx)
{
	return fill_graphs(&bytes_hash_no_prealloc);
}

SEC("tc")
__success __retval(0) __value_bytes(bytes_lru_hash)
int value_bytes_lru_hash(void *ctx)
{
	return fill_graphs(&bytes_lru_hash);
}

char _license[] SEC("license") = "GPL";
