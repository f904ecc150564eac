/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations for the graph data structure kfuncs of the patched 6.1 kernel. */
#ifndef __BPF_EXPERIMENTAL__
#define __BPF_EXPERIMENTAL__

#ifdef __VMLINUX_H__		/* a program built against bpftool's vmlinux.h */
#include <bpf/bpf_helpers.h>
#else
#include "bpf_progs.h"
#endif
#include <bpf/bpf_core_read.h>

/* Declared here too, so that a program that does not use them builds
 * against a UAPI header that lacks them (./run_tests.sh --each-patch).
 */
struct bpf_list_head;
struct bpf_list_node;
struct bpf_rb_root;
struct bpf_rb_node;

/* Description
 *	Allocates an object of the type represented by 'local_type_id' in
 *	program BTF. Use bpf_obj_new() to pass the type id of a struct.
 *
 *	'local_type_id' must be a known constant; 'meta' is a hidden
 *	argument that the verifier fills in.
 * Returns
 *	A pointer to an object of that type, or NULL on failure. The program
 *	owns it and must hand it to bpf_obj_drop().
 */
extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta) __ksym;

#define bpf_obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))

/* Description
 *	Frees an object allocated by bpf_obj_new(). 'meta' is a hidden
 *	argument that the verifier fills in.
 */
extern void bpf_obj_drop_impl(void *kptr, void *meta) __ksym;

#define bpf_obj_drop(kptr) bpf_obj_drop_impl(kptr, NULL)

/* Description
 *	Add 'node' to the front (or back) of the list at 'head'. The lock that
 *	protects 'head' must be held, and 'node' must be an object the program
 *	owns. Afterwards the list owns it; the program may still use it until
 *	it releases the lock.
 */
extern void bpf_list_push_front(struct bpf_list_head *head, struct bpf_list_node *node) __ksym;
extern void bpf_list_push_back(struct bpf_list_head *head, struct bpf_list_node *node) __ksym;

/* Description
 *	Remove the first (or last) node of the list at 'head', whose lock must
 *	be held.
 * Returns
 *	The node, owned by the program again (use container_of() to reach its
 *	struct), or NULL if the list is empty.
 */
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head) __ksym;

/* Description
 *	Add 'node' to the tree at 'root', whose lock must be held, ordered by
 *	'less': a static function of the program that gets two nodes of the
 *	tree (non-owning references), runs with the lock held and returns
 *	true when 'a' goes before 'b'; equal keys keep the order of their
 *	adding. 'node' must be an object the program owns; afterwards the
 *	tree owns it, and the program may still use it until it releases the
 *	lock or removes a node.
 */
extern void bpf_rbtree_add(struct bpf_rb_root *root, struct bpf_rb_node *node,
			   bool (less)(struct bpf_rb_node *a, const struct bpf_rb_node *b)) __ksym;

/* Description
 *	Remove 'node' from the tree at 'root', whose lock must be held. 'node'
 *	must be a non-owning reference to a node of that very tree, as
 *	bpf_rbtree_add() or bpf_rbtree_first() leave behind. All non-owning
 *	references to nodes are gone afterwards.
 * Returns
 *	The node, owned by the program again (use container_of() to reach its
 *	struct).
 */
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root,
					     struct bpf_rb_node *node) __ksym;

/* Description
 *	The first (leftmost, least) node of the tree at 'root', whose lock
 *	must be held. The tree keeps it: the result is a non-owning reference.
 * Returns
 *	The node, or NULL if the tree is empty.
 */
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __ksym;

#ifndef container_of
#define container_of(ptr, type, member)				\
	((type *)((void *)(ptr) - __builtin_offsetof(type, member)))
#endif

/* Names what a bpf_list_head or bpf_rb_root contains: struct TYPE, linked
 * through its node FIELD.
 */
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))

#endif
