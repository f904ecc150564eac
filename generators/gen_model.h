/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The "gen" mode's programs as lists of operations, and the model of the
 * ownership rules that predicts the verifier's verdict on them (gen_model.c).
 */
#ifndef __GEN_MODEL_H
#define __GEN_MODEL_H

#include <stdbool.h>

/* Where a program keeps its pointers: r6-r9, then fp-8 .. fp-32 */
#define NR_REGS		4
#define NR_SLOTS	8
#define MAX_OBJS	96
#define MAX_PATHS	8
#define MAX_CLEANUP	(NR_SLOTS + 1)
#define NR_KEYS		2	/* elements of the map the program looks up */

/* the trees' node type, the list's, and a struct like the first that no root takes */
enum node_type { T_RB, T_LIST, T_RB_OTHER, NR_TYPES };
/* The graph roots of the map value: two trees and a list */
enum { ROOT_RB0, ROOT_RB1, ROOT_LIST };
/* bpf_loop() callbacks */
enum { CB_FIRST, CB_POP_DROP, CB_LEAK_LOCK };

enum op_kind {
	OP_NEW,		/* a = slot, b = type: bpf_obj_new(), NULL checked */
	OP_NEW_UNCHECKED, /* the same, not NULL checked */
	OP_LOCK, OP_UNLOCK,
	OP_ADD,		/* a = slot, b = tree, c = 1: a less() that returns 2 */
	OP_PUSH,	/* a = slot, b = back */
	OP_FIRST,	/* a = slot, b = tree */
	OP_REMOVE,	/* a = slot of the node, b = tree, c = slot of the result */
	OP_POP,		/* a = slot, b = back */
	OP_DROP,	/* a = slot (a stack slot too) */
	OP_READ, OP_WRITE, /* a = slot, b = value: the key */
	OP_SPECIAL,	/* a = slot, b = offset: a node's field or past the end */
	OP_SPILL,	/* a = register slot, b = stack slot */
	OP_FILL,	/* a = stack slot, b = register slot */
	OP_MOV,		/* a = from, b = to (registers) */
	OP_SUB_READ,	/* a = slot, passed to a subprogram that reads it */
	OP_SUB_DROP,	/* a = slot, passed to a subprogram that drops it */
	OP_LOOP,	/* a = callback, b = iterations */
	OP_LOOKUP,	/* a = register slot, b = key: an element, NULL checked */
	OP_VLOCK, OP_VUNLOCK, /* a = slot: the lock of the element it names */
	OP_VADD,	/* a = slot of the node, b = slot of the element: to its tree */
	OP_SUB_PAIR,	/* a, b = slots: a subprogram locks a's element, unlocks b's */
	OP_BRANCH,	/* a = immediate: if (skb->len > a) then arm A else arm B */
	OP_ELSE, OP_END,
	OP_EXIT,
	NR_OP_KINDS
};

/* What a NULL check's failing branch runs before it returns */
enum { UNLOCK_NONE, UNLOCK_GLOBAL, UNLOCK_SLOT };	/* UNLOCK_SLOT + slot */
struct cleanup {
	unsigned char unlock, nr;
	unsigned char drop[MAX_CLEANUP];	/* slots */
};

struct op {
	unsigned char kind, a, b, c;
	struct cleanup cleanup;			/* OP_NEW, OP_FIRST, OP_POP */
};

/* V_VAL: a map element, obj[] holding which lookup it came from */
enum { V_UNINIT, V_SCALAR, V_PTR, V_VAL };
/* The lock a path holds: none, the global value's, or LOCK_VAL + lookup */
enum { LOCK_NONE, LOCK_GLOBAL, LOCK_VAL };
enum { O_OWNED, O_NON_OWNING, O_GONE };
enum lost_by { LOST_DROP, LOST_UNLOCK, LOST_REMOVE, NR_LOST };

/* One path through the program so far */
struct path {
	unsigned char lock;			/* LOCK_* */
	bool refused;
	unsigned char arm;			/* 0, or the arm of a branch it is in */
	unsigned char val[NR_SLOTS], obj[NR_SLOTS];
	struct {
		unsigned char state, type, root, lost;	/* lost: enum lost_by */
		bool maybe_null;
	} objs[MAX_OBJS];
};

struct model {
	int nr_paths, nr_objs, nr_vals, arm;	/* nr_vals: lookups so far */
	bool refused;
	char why[128];				/* the first rule a path broke */
	struct path path[MAX_PATHS];
};

void model_init(struct model *m);
void model_apply(struct model *m, const struct op *op);
/* Would @op keep every path of @m accepted, and able to end? If not, and
 * @why is not NULL, the rule it breaks.
 */
bool model_allows(const struct model *m, const struct op *op, char *why);
/* Would @op be refused on some of the paths it is on, and not on others?
 * The verifier must then explore each of them, whatever it saw first.
 */
bool model_refuses_some_paths(const struct model *m, const struct op *op);
/* What to release before returning from the first path (for a NULL check
 * or the end): the lock, then every owned object through one of its slots.
 */
void model_cleanup(const struct model *m, struct cleanup *c);
int op_format(const struct op *op, char *buf, int len);

#endif
