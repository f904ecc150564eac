// SPDX-License-Identifier: GPL-2.0
/*
 * Trees in array, hash (preallocated or not) and LRU hash map values, and
 * trees owned by tree nodes. Each program leaves a known number of nodes behind: the loader
 * checks the graph objects allocated (@allocated) and still live (@live)
 * after the run, so a free path that forgets nodes (element delete,
 * replace or eviction, object drop) fails the test, and that every node
 * left is freed with the maps when the object is closed.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "rbtree_types.h"
#include "bpf_misc.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct tree_holder);
} array_trees SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct tree_holder);
} hash_trees SEC(".maps");

/* elements allocated on update and freed on delete, not preallocated */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct tree_holder);
} malloc_hash_trees SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct tree_holder);
} lru_trees SEC(".maps");

/* A tree node that owns a tree of node_data. */
struct tree_node {
	long key;
	struct bpf_rb_node node;
	struct bpf_spin_lock lock;
	struct bpf_rb_root root __contains(node_data, node);
};

private(T) struct bpf_spin_lock glock;
private(T) struct bpf_rb_root groot __contains(tree_node, node);

long added = -1;
long present = -1;
long dropped_key = -1;

/* Add @n nodes to the tree of @map's element @key; 0 or 1. */
static int add_to(void *map, int key, int n)
{
	struct tree_holder *v;
	struct node_data *d;
	int i;

	for (i = 0; i < n && i < 8; i++) {
		v = bpf_map_lookup_elem(map, &key);
		if (!v)
			return 1;
		d = new_node(i, key);
		if (!d)
			return 1;
		bpf_spin_lock(&v->lock);
		bpf_rbtree_add(&v->root, &d->node, less);
		bpf_spin_unlock(&v->lock);
		added++;
	}
	return 0;
}

/* Replacing an array element frees its nodes; the rest go with the map. */
SEC("tc")
__success __retval(0) __global_eq(added, 5) __allocated(5) __live(3)
long rbtree_in_array_map(void *ctx)
{
	struct tree_holder zero = {};
	int k1 = 1;

	added = 0;
	if (add_to(&array_trees, 0, 3) || add_to(&array_trees, 1, 2))
		return 1;
	if (bpf_map_update_elem(&array_trees, &k1, &zero, BPF_ANY))
		return 2;
	return 0;
}

/*
 * Values of 4096 bytes that end with their tree, 8 of them: more than
 * kmalloc serves, so the array is vmalloc'ed and its last value ends on
 * the page before vmalloc's guard page. A free path that walks one value
 * too far faults there; one that stops a value early leaves the last
 * value's nodes behind (the loader checks every node is freed at close).
 */
struct edge_holder {
	struct bpf_spin_lock lock;
	char pad[4096 - 4 - 16];
	struct bpf_rb_root root __contains(node_data, node);
};

_Static_assert(sizeof(struct edge_holder) == 4096, "the tree ends the value");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 8);
	__type(key, int);
	__type(value, struct edge_holder);
} array_edge_trees SEC(".maps");

static int add_edge(int key)
{
	struct edge_holder *v;
	struct node_data *d;

	v = bpf_map_lookup_elem(&array_edge_trees, &key);
	if (!v)
		return 1;
	d = new_node(key, added);
	if (!d)
		return 1;
	bpf_spin_lock(&v->lock);
	bpf_rbtree_add(&v->root, &d->node, less);
	bpf_spin_unlock(&v->lock);
	added++;
	return 0;
}

/* Two nodes in the last value, one in the first; all go with the map. */
SEC("tc")
__success __retval(0) __global_eq(added, 3) __allocated(3) __live(3)
long rbtree_in_array_map_edge(void *ctx)
{
	added = 0;
	if (add_edge(7) || add_edge(7) || add_edge(0))
		return 1;
	return 0;
}

/* Deleting or replacing a hash element frees its nodes: 6 added, 1 left. */
static long hash_delete_and_replace(void *map)
{
	struct tree_holder zero = {};
	int k0 = 0, k1 = 1;

	added = 0;
	if (bpf_map_update_elem(map, &k0, &zero, BPF_NOEXIST) ||
	    bpf_map_update_elem(map, &k1, &zero, BPF_NOEXIST))
		return 1;
	if (add_to(map, 0, 3) || add_to(map, 1, 2))
		return 2;
	if (bpf_map_delete_elem(map, &k0))
		return 3;
	if (bpf_map_update_elem(map, &k1, &zero, BPF_EXIST) || add_to(map, 1, 1))
		return 4;
	return 0;
}

SEC("tc")
__success __retval(0) __global_eq(added, 6) __allocated(6) __live(1) __failslab(2000)
long rbtree_in_hash_map(void *ctx)
{
	return hash_delete_and_replace(&hash_trees);
}

SEC("tc")
__success __retval(0) __global_eq(added, 6) __allocated(6) __live(1)
long rbtree_in_malloc_hash_map(void *ctx)
{
	return hash_delete_and_replace(&malloc_hash_trees);
}

/*
 * A program that deleted an element keeps its pointer and may go on adding
 * to its tree; the key is then taken again by a new element. The nodes
 * added after the delete go with the deleted element once no program can
 * reach it (an RCU grace period later): none is left.
 */
SEC("tc")
__success __retval(0) __global_eq(added, 4) __allocated(4) __live(0)
long rbtree_add_after_delete(void *ctx)
{
	struct tree_holder zero = {}, *v;
	struct node_data *d;
	int k0 = 0, i;

	added = 0;
	if (bpf_map_update_elem(&malloc_hash_trees, &k0, &zero, BPF_NOEXIST))
		return 1;
	v = bpf_map_lookup_elem(&malloc_hash_trees, &k0);
	if (!v)
		return 2;
	if (bpf_map_delete_elem(&malloc_hash_trees, &k0))
		return 3;
	for (i = 0; i < 4; i++) {
		d = new_node(i, 0);
		if (!d)
			return 4;
		bpf_spin_lock(&v->lock);
		bpf_rbtree_add(&v->root, &d->node, less);
		bpf_spin_unlock(&v->lock);
		added++;
	}
	if (bpf_map_update_elem(&malloc_hash_trees, &k0, &zero, BPF_NOEXIST))
		return 5;
	return 0;
}

/*
 * LRU hash elements: replaced, evicted or deleted, their nodes go with
 * them. Keys 0 and 1 end with two nodes each, so whichever the third key
 * evicts, two nodes stay.
 */
SEC("tc")
__success __retval(0) __global_eq(added, 11) __global_eq(present, 1) __allocated(11) __live(2)
long rbtree_in_lru_hash(void *ctx)
{
	struct tree_holder zero = {};
	int k0 = 0, k1 = 1, k2 = 2;

	added = 0;
	if (bpf_map_update_elem(&lru_trees, &k0, &zero, BPF_ANY) || add_to(&lru_trees, 0, 2))
		return 1;
	if (bpf_map_update_elem(&lru_trees, &k1, &zero, BPF_ANY) || add_to(&lru_trees, 1, 3))
		return 2;
	/* replace: three nodes go */
	if (bpf_map_update_elem(&lru_trees, &k1, &zero, BPF_ANY) || add_to(&lru_trees, 1, 2))
		return 3;
	/* a third key in a two-entry map evicts one of the others */
	if (bpf_map_update_elem(&lru_trees, &k2, &zero, BPF_ANY) || add_to(&lru_trees, 2, 4))
		return 4;
	present = !!bpf_map_lookup_elem(&lru_trees, &k0) + !!bpf_map_lookup_elem(&lru_trees, &k1);
	if (bpf_map_delete_elem(&lru_trees, &k2))
		return 5;
	return 0;
}

static bool tree_node_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct tree_node, node)->key <
	       container_of(b, struct tree_node, node)->key;
}

/* A tree_node with @key owning @n nodes; 0 or 1. */
static int add_tree_node(long key, int n)
{
	struct tree_node *t = bpf_obj_new(struct tree_node);
	struct node_data *d;
	int i;

	if (!t)
		return 1;
	t->key = key;
	added++;
	for (i = 0; i < n && i < 8; i++) {
		d = new_node(i, key);
		if (!d) {
			bpf_obj_drop(t);
			return 1;
		}
		bpf_spin_lock(&t->lock);
		bpf_rbtree_add(&t->root, &d->node, less);
		bpf_spin_unlock(&t->lock);
		added++;
	}
	bpf_spin_lock(&glock);
	bpf_rbtree_add(&groot, &t->node, tree_node_less);
	bpf_spin_unlock(&glock);
	return 0;
}

/* Three nodes owning 1, 2, 3 nodes; the first is removed and dropped with
 * the node it owns, the others stay for the free path of global data.
 */
SEC("tc")
__success __retval(0) __global_eq(added, 9) __global_eq(dropped_key, 1) __allocated(9) __live(7)
long rbtree_nodes_owning_trees(void *ctx)
{
	struct bpf_rb_node *res;
	struct tree_node *t;

	added = 0;
	if (add_tree_node(3, 3) || add_tree_node(1, 1) || add_tree_node(2, 2))
		return 1;
	bpf_spin_lock(&glock);
	res = bpf_rbtree_first(&groot);
	if (!res) {
		bpf_spin_unlock(&glock);
		return 2;
	}
	/* as in 6.3, remove of a node in the tree never returns NULL */
	res = bpf_rbtree_remove(&groot, res);
	bpf_spin_unlock(&glock);
	t = container_of(res, struct tree_node, node);
	dropped_key = t->key;
	bpf_obj_drop(t);
	return 0;
}

char _license[] SEC("license") __mutants(1, 10) = "GPL";
