/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations for the graph data structure kfuncs of the patched 6.1 kernel. */
#ifndef __BPF_EXPERIMENTAL__
#define __BPF_EXPERIMENTAL__

#include <bpf/bpf_core_read.h>
#include "bpf_progs.h"

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

/* Names what a bpf_list_head contains: struct TYPE, linked through FIELD. */
#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))

#endif
