// SPDX-License-Identifier: GPL-2.0
/*
 * The loader's "gen" mode: random programs over the graph API against the
 * verifier, with the ownership model of gen_model.c as the oracle.
 *
 *   loader REPORT NAME - gen SEED COUNT
 *
 * COUNT programs (within a time budget), each from SEED and its index: a
 * random list of operations (bpf_obj_new, lock, unlock, push, pop, add with
 * a verified less(), first, remove, drop, reads and writes of the key and
 * of node fields, NULL checks, branches, spills and fills, subprogram
 * calls, bpf_loop() callbacks) on two trees and a list in an array map's
 * value, assembled into a SCHED_CLS program with BTF built here. Half
 * the programs use only operations the model allows on every path, three
 * in eight end with one it refuses, the rest take any (see enum gen_mode).
 * Each is loaded; the model predicts the verdict, and a program on which
 * they disagree is a finding, reported with its operations and the
 * verifier's words. Accepted programs run three times. At the end the map
 * is freed, and every graph object the programs allocated must be freed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "gen.h"
#include "gen_model.h"

#define BUDGET_S	20	/* the bridge kills a loader after 30 s */
#define MAX_OPS		24
#define MAX_INSNS	4096
#define LEN_OFF		(-40)	/* skb->len, spilled by the prologue */
#define KEY_OFF		(-48)	/* the key of a lookup */
#define NODE_OFF	8	/* the node follows the key in both node types */
#define REPORT_MAX	5

/* The map value: struct gval { lock; rb_root root0, root1; list_head head; } */
static const int root_off[] = { [ROOT_RB0] = 8, [ROOT_RB1] = 24, [ROOT_LIST] = 40 };
#define GVAL_SIZE	56

enum kfunc { K_NEW, K_DROP, K_PUSH_FRONT, K_PUSH_BACK, K_POP_FRONT, K_POP_BACK,
	     K_ADD, K_REMOVE, K_FIRST, NR_KFUNCS };
static const char *const kfunc_names[NR_KFUNCS] = {
	"bpf_obj_new_impl", "bpf_obj_drop_impl", "bpf_list_push_front",
	"bpf_list_push_back", "bpf_list_pop_front", "bpf_list_pop_back",
	"bpf_rbtree_add", "bpf_rbtree_remove", "bpf_rbtree_first",
};

enum sub { S_LESS, S_LESS_BAD, S_READ, S_DROP, S_CB_FIRST, S_CB_POP, S_CB_LEAK, S_PAIR,
	   NR_SUBS };
static const char *const sub_names[NR_SUBS] = {
	"less", "less_bad", "sub_read", "sub_drop", "cb_first", "cb_pop", "cb_leak",
	"sub_pair",
};

static struct {
	int kfunc[NR_KFUNCS];		/* vmlinux BTF ids */
	int btf_fd, map_fd, elems_fd;	/* the global value's map; the looked up one */
	int type_id[NR_TYPES];		/* struct rnode, lnode, rnode_other */
	int func_id[NR_SUBS + 1];	/* BTF FUNCs: the subprograms, then main */
} k;

static struct bpf_insn insn[MAX_INSNS];
static int nr_insns;
static struct { int at, sub; } fixup[MAX_INSNS / 2];
static int nr_fixups;
static unsigned int rnd;

static unsigned int next(void)
{
	rnd ^= rnd << 13;
	rnd ^= rnd >> 17;
	rnd ^= rnd << 5;
	return rnd;
}

static void emit(struct bpf_insn i)
{
	if (nr_insns < MAX_INSNS)
		insn[nr_insns] = i;
	nr_insns++;
}

#define I(c, d, s, o, im) ((struct bpf_insn){ .code = (c), .dst_reg = (d), \
					      .src_reg = (s), .off = (o), .imm = (im) })
#define MOV_IMM(d, im)	I(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, im)
#define MOV_REG(d, s)	I(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD_IMM(d, im)	I(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, im)
#define LDX(d, s, o)	I(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define STX(d, s, o)	I(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define JMP_IMM(op, d, im, o) I(BPF_JMP | (op) | BPF_K, d, 0, o, im)
#define JA(o)		I(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define EXIT()		I(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static void ld_map_value(int reg, int off)
{
	emit(I(BPF_LD | BPF_DW | BPF_IMM, reg, BPF_PSEUDO_MAP_VALUE, 0, k.map_fd));
	emit(I(0, 0, 0, 0, off));
}

static void call_helper(int id)
{
	emit(I(BPF_JMP | BPF_CALL, 0, 0, 0, id));
}

static void call_kfunc(enum kfunc f)
{
	emit(I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, k.kfunc[f]));
}

/* A call of, or a pointer to, a subprogram: its offset once it is placed */
static void call_sub(enum sub s)
{
	fixup[nr_fixups].at = nr_insns;
	fixup[nr_fixups++].sub = s;
	emit(I(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0));
}

static void ld_sub(int reg, enum sub s)
{
	fixup[nr_fixups].at = nr_insns;
	fixup[nr_fixups++].sub = s;
	emit(I(BPF_LD | BPF_DW | BPF_IMM, reg, BPF_PSEUDO_FUNC, 0, 0));
	emit(I(0, 0, 0, 0, 0));
}

static int reg_of(int slot)
{
	return BPF_REG_6 + slot;
}

static int stack_off(int slot)
{
	return -8 * (slot - NR_REGS + 1);
}

/* r1 = the pointer in @slot */
static void load_r1(int slot)
{
	if (slot < NR_REGS)
		emit(MOV_REG(BPF_REG_1, reg_of(slot)));
	else
		emit(LDX(BPF_REG_1, BPF_REG_10, stack_off(slot)));
}

static void emit_lock(bool lock)
{
	ld_map_value(BPF_REG_1, 0);
	call_helper(lock ? BPF_FUNC_spin_lock : BPF_FUNC_spin_unlock);
}

/* The lock of the map element in @slot */
static void emit_vlock(bool lock, int slot)
{
	load_r1(slot);
	call_helper(lock ? BPF_FUNC_spin_lock : BPF_FUNC_spin_unlock);
}

static void emit_drop(int slot)
{
	load_r1(slot);
	emit(MOV_IMM(BPF_REG_2, 0));
	call_kfunc(K_DROP);
}

static void emit_return(const struct cleanup *c)
{
	if (c->unlock == UNLOCK_GLOBAL)
		emit_lock(false);
	else if (c->unlock >= UNLOCK_SLOT)
		emit_vlock(false, c->unlock - UNLOCK_SLOT);
	for (int i = 0; i < c->nr; i++)
		emit_drop(c->drop[i]);
	emit(MOV_IMM(BPF_REG_0, 0));
	emit(EXIT());
}

/* if r0 == NULL: clean up and return; else r0 -= @adjust, into @slot */
static void emit_null_check(const struct cleanup *c, int adjust, int slot)
{
	int at = nr_insns;

	emit(JMP_IMM(BPF_JNE, BPF_REG_0, 0, 0));
	emit_return(c);
	insn[at].off = nr_insns - at - 1;
	if (adjust)
		emit(ADD_IMM(BPF_REG_0, -adjust));
	emit(MOV_REG(reg_of(slot), BPF_REG_0));
}

static void emit_node_arg(int root, int slot)
{
	ld_map_value(BPF_REG_1, root_off[root]);
	emit(MOV_REG(BPF_REG_2, reg_of(slot)));
	emit(ADD_IMM(BPF_REG_2, NODE_OFF));
}

static int branch_at[2];

static void emit_op(const struct op *op)
{
	int r = op->a < NR_REGS ? reg_of(op->a) : 0;

	switch (op->kind) {
	case OP_NEW:
	case OP_NEW_UNCHECKED:
		emit(MOV_IMM(BPF_REG_1, k.type_id[op->b]));
		emit(MOV_IMM(BPF_REG_2, 0));
		call_kfunc(K_NEW);
		if (op->kind == OP_NEW)
			emit_null_check(&op->cleanup, 0, op->a);
		else
			emit(MOV_REG(r, BPF_REG_0));
		break;
	case OP_LOCK:
	case OP_UNLOCK:
		emit_lock(op->kind == OP_LOCK);
		break;
	case OP_ADD:
		emit_node_arg(op->b, op->a);
		ld_sub(BPF_REG_3, op->c ? S_LESS_BAD : S_LESS);
		call_kfunc(K_ADD);
		break;
	case OP_PUSH:
		emit_node_arg(ROOT_LIST, op->a);
		call_kfunc(op->b ? K_PUSH_BACK : K_PUSH_FRONT);
		break;
	case OP_FIRST:
		ld_map_value(BPF_REG_1, root_off[op->b]);
		call_kfunc(K_FIRST);
		emit_null_check(&op->cleanup, NODE_OFF, op->a);
		break;
	case OP_REMOVE:
		emit_node_arg(op->b, op->a);
		call_kfunc(K_REMOVE);
		emit(ADD_IMM(BPF_REG_0, -NODE_OFF));
		emit(MOV_REG(reg_of(op->c), BPF_REG_0));
		break;
	case OP_POP:
		ld_map_value(BPF_REG_1, root_off[ROOT_LIST]);
		call_kfunc(op->b ? K_POP_BACK : K_POP_FRONT);
		emit_null_check(&op->cleanup, NODE_OFF, op->a);
		break;
	case OP_DROP:
		emit_drop(op->a);
		break;
	case OP_READ:
		emit(LDX(BPF_REG_0, r, 0));
		break;
	case OP_WRITE:
		emit(MOV_IMM(BPF_REG_1, op->b));
		emit(STX(r, BPF_REG_1, 0));
		break;
	case OP_SPECIAL:
		emit(LDX(BPF_REG_0, r, op->b));
		break;
	case OP_SPILL:
		emit(STX(BPF_REG_10, r, stack_off(op->b)));
		break;
	case OP_FILL:
		emit(LDX(reg_of(op->b), BPF_REG_10, stack_off(op->a)));
		break;
	case OP_MOV:
		emit(MOV_REG(reg_of(op->b), r));
		break;
	case OP_SUB_READ:
	case OP_SUB_DROP:
		emit(MOV_REG(BPF_REG_1, r));
		call_sub(op->kind == OP_SUB_READ ? S_READ : S_DROP);
		break;
	case OP_LOOP:
		emit(MOV_IMM(BPF_REG_1, op->b));
		ld_sub(BPF_REG_2, S_CB_FIRST + op->a);
		emit(MOV_IMM(BPF_REG_3, 0));
		emit(MOV_IMM(BPF_REG_4, 0));
		call_helper(BPF_FUNC_loop);
		break;
	case OP_LOOKUP:
		emit(MOV_IMM(BPF_REG_1, op->b));
		emit(I(BPF_STX | BPF_MEM | BPF_W, BPF_REG_10, BPF_REG_1, KEY_OFF, 0));
		emit(I(BPF_LD | BPF_DW | BPF_IMM, BPF_REG_1, BPF_PSEUDO_MAP_FD, 0, k.elems_fd));
		emit(I(0, 0, 0, 0, 0));
		emit(MOV_REG(BPF_REG_2, BPF_REG_10));
		emit(ADD_IMM(BPF_REG_2, KEY_OFF));
		call_helper(BPF_FUNC_map_lookup_elem);
		emit_null_check(&op->cleanup, 0, op->a);
		break;
	case OP_VLOCK:
	case OP_VUNLOCK:
		emit_vlock(op->kind == OP_VLOCK, op->a);
		break;
	case OP_VADD:
		load_r1(op->b);
		emit(ADD_IMM(BPF_REG_1, root_off[ROOT_RB0]));
		emit(MOV_REG(BPF_REG_2, reg_of(op->a)));
		emit(ADD_IMM(BPF_REG_2, NODE_OFF));
		ld_sub(BPF_REG_3, S_LESS);
		call_kfunc(K_ADD);
		break;
	case OP_SUB_PAIR:
		emit(MOV_REG(BPF_REG_1, reg_of(op->a)));
		emit(MOV_REG(BPF_REG_2, reg_of(op->b)));
		call_sub(S_PAIR);
		break;
	case OP_BRANCH:
		emit(LDX(BPF_REG_0, BPF_REG_10, LEN_OFF));
		branch_at[0] = nr_insns;
		emit(JMP_IMM(BPF_JGT, BPF_REG_0, op->a, 0));
		break;
	case OP_ELSE:
		branch_at[1] = nr_insns;
		emit(JA(0));
		insn[branch_at[0]].off = nr_insns - branch_at[0] - 1;
		break;
	case OP_END:
		insn[branch_at[1]].off = nr_insns - branch_at[1] - 1;
		break;
	case OP_EXIT:
		emit_return(&op->cleanup);
		break;
	}
}

/* The subprograms, each placed once after main if it is used */
static void emit_sub(enum sub s)
{
	switch (s) {
	case S_LESS:		/* less(a, b): a->key < b->key */
		emit(LDX(BPF_REG_3, BPF_REG_1, -NODE_OFF));
		emit(LDX(BPF_REG_4, BPF_REG_2, -NODE_OFF));
		emit(MOV_IMM(BPF_REG_0, 1));
		emit(I(BPF_JMP | BPF_JLT | BPF_X, BPF_REG_3, BPF_REG_4, 1, 0));
		emit(MOV_IMM(BPF_REG_0, 0));
		break;
	case S_LESS_BAD:
		emit(MOV_IMM(BPF_REG_0, 2));
		break;
	case S_READ:
		emit(LDX(BPF_REG_0, BPF_REG_1, 0));
		emit(MOV_IMM(BPF_REG_0, 0));
		break;
	case S_DROP:
		emit(MOV_IMM(BPF_REG_2, 0));
		call_kfunc(K_DROP);
		emit(MOV_IMM(BPF_REG_0, 0));
		break;
	case S_CB_FIRST:	/* lock; if (first) read its key; unlock */
		emit_lock(true);
		ld_map_value(BPF_REG_1, root_off[ROOT_RB0]);
		call_kfunc(K_FIRST);
		emit(JMP_IMM(BPF_JEQ, BPF_REG_0, 0, 1));
		emit(LDX(BPF_REG_1, BPF_REG_0, -NODE_OFF));
		emit_lock(false);
		emit(MOV_IMM(BPF_REG_0, 0));
		break;
	case S_CB_POP:		/* lock; pop; unlock; drop it */
		emit_lock(true);
		ld_map_value(BPF_REG_1, root_off[ROOT_LIST]);
		call_kfunc(K_POP_FRONT);
		emit(MOV_REG(BPF_REG_6, BPF_REG_0));
		emit_lock(false);
		emit(JMP_IMM(BPF_JEQ, BPF_REG_6, 0, 4));
		emit(MOV_REG(BPF_REG_1, BPF_REG_6));
		emit(ADD_IMM(BPF_REG_1, -NODE_OFF));
		emit(MOV_IMM(BPF_REG_2, 0));
		call_kfunc(K_DROP);
		emit(MOV_IMM(BPF_REG_0, 0));
		break;
	case S_CB_LEAK:
		emit_lock(true);
		emit(MOV_IMM(BPF_REG_0, 0));
		break;
	case S_PAIR:		/* lock r1's element, unlock r2's */
		emit(MOV_REG(BPF_REG_6, BPF_REG_2));
		call_helper(BPF_FUNC_spin_lock);
		emit(MOV_REG(BPF_REG_1, BPF_REG_6));
		call_helper(BPF_FUNC_spin_unlock);
		emit(MOV_IMM(BPF_REG_0, 0));
		break;
	default:
		break;
	}
	emit(EXIT());
}

/* Places the used subprograms, resolves the calls; fills @info */
static int link_subs(struct bpf_func_info *info)
{
	int start[NR_SUBS], nr = 1, i;

	info[0].insn_off = 0;
	info[0].type_id = k.func_id[NR_SUBS];
	for (int s = 0; s < NR_SUBS; s++) {
		start[s] = -1;
		for (i = 0; i < nr_fixups && fixup[i].sub != s; i++)
			;
		if (i == nr_fixups)
			continue;
		start[s] = nr_insns;
		info[nr].insn_off = nr_insns;
		info[nr++].type_id = k.func_id[s];
		emit_sub(s);
	}
	for (i = 0; i < nr_fixups; i++)
		insn[fixup[i].at].imm = start[fixup[i].sub] - fixup[i].at - 1;
	return nr;
}

/* The program's BTF: node types, the map value, one FUNC per subprogram */
static int build_btf(void)
{
	struct btf *btf = btf__new_empty();
	int lng, u32, lock, head, lnode_t, root, rnode_t, rnode, lnode, gval, proto, err;

	if (!btf)
		return -ENOMEM;
	lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	u32 = btf__add_int(btf, "unsigned int", 4, 0);
	lock = btf__add_struct(btf, "bpf_spin_lock", 4);
	btf__add_field(btf, "val", u32, 0, 0);
	head = btf__add_struct(btf, "bpf_list_head", 16);
	lnode_t = btf__add_struct(btf, "bpf_list_node", 16);
	root = btf__add_struct(btf, "bpf_rb_root", 16);
	rnode_t = btf__add_struct(btf, "bpf_rb_node", 24);
	rnode = btf__add_struct(btf, "rnode", 32);
	btf__add_field(btf, "key", lng, 0, 0);
	btf__add_field(btf, "n", rnode_t, NODE_OFF * 8, 0);
	lnode = btf__add_struct(btf, "lnode", 24);
	btf__add_field(btf, "key", lng, 0, 0);
	btf__add_field(btf, "n", lnode_t, NODE_OFF * 8, 0);
	k.type_id[T_RB_OTHER] = btf__add_struct(btf, "rnode_other", 32);
	btf__add_field(btf, "key", lng, 0, 0);
	btf__add_field(btf, "n", rnode_t, NODE_OFF * 8, 0);
	gval = btf__add_struct(btf, "gval", GVAL_SIZE);
	btf__add_field(btf, "lock", lock, 0, 0);
	btf__add_field(btf, "root0", root, root_off[ROOT_RB0] * 8, 0);
	btf__add_field(btf, "root1", root, root_off[ROOT_RB1] * 8, 0);
	btf__add_field(btf, "head", head, root_off[ROOT_LIST] * 8, 0);
	btf__add_decl_tag(btf, "contains:rnode:n", gval, 1);
	btf__add_decl_tag(btf, "contains:rnode:n", gval, 2);
	btf__add_decl_tag(btf, "contains:lnode:n", gval, 3);
	proto = btf__add_func_proto(btf, u32);
	for (int s = 0; s < NR_SUBS; s++)
		k.func_id[s] = btf__add_func(btf, sub_names[s], BTF_FUNC_STATIC, proto);
	k.func_id[NR_SUBS] = btf__add_func(btf, "gen_main", BTF_FUNC_GLOBAL, proto);
	k.type_id[T_RB] = rnode;
	k.type_id[T_LIST] = lnode;
	err = btf__load_into_kernel(btf);
	k.btf_fd = err ? -1 : dup(btf__fd(btf));
	btf__free(btf);
	if (err)
		return err;
	LIBBPF_OPTS(bpf_map_create_opts, opts, .btf_fd = k.btf_fd,
		    .btf_key_type_id = u32, .btf_value_type_id = gval);
	k.map_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "gen_val", 4, GVAL_SIZE, 1, &opts);
	if (k.map_fd < 0)
		return -errno;
	k.elems_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "gen_elems", 4, GVAL_SIZE, NR_KEYS,
				    &opts);
	return k.elems_fd < 0 ? -errno : 0;
}

static int find_kfuncs(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();

	if (!vmlinux)
		return -errno;
	for (int i = 0; i < NR_KFUNCS; i++) {
		k.kfunc[i] = btf__find_by_name_kind(vmlinux, kfunc_names[i], BTF_KIND_FUNC);
		if (k.kfunc[i] < 0) {
			btf__free(vmlinux);
			return -ENOENT;
		}
	}
	btf__free(vmlinux);
	return 0;
}

/*
 * Mostly a register that holds a map element on some path (else any): the
 * operations on elements go through the slots that alias one, so that the
 * paths of a branch that chose different elements meet them.
 */
static int value_slot(const struct model *m)
{
	int s = next() % NR_REGS;

	for (int i = 0; i < NR_REGS && next() % 4; i++, s = (s + 1) % NR_REGS)
		for (int p = 0; p < m->nr_paths; p++)
			if (m->path[p].val[s] == V_VAL)
				return s;
	return s;
}

static int ops_since_join = 99;	/* operations chosen since the last join */

/* A random operation; a register slot for pointers the program uses */
static void random_op(struct op *op, const struct model *m, bool in_arm)
{
	static const unsigned char kinds[] = {
		OP_NEW, OP_NEW, OP_NEW, OP_LOCK, OP_LOCK, OP_UNLOCK, OP_UNLOCK, OP_ADD, OP_ADD,
		OP_PUSH, OP_PUSH, OP_FIRST, OP_FIRST, OP_REMOVE, OP_REMOVE, OP_POP, OP_POP,
		OP_DROP, OP_DROP, OP_READ, OP_WRITE, OP_SPILL, OP_FILL, OP_MOV, OP_SUB_READ,
		OP_SUB_DROP, OP_LOOP, OP_BRANCH, OP_NEW_UNCHECKED, OP_SPECIAL,
		OP_LOOKUP, OP_LOOKUP, OP_VLOCK, OP_VLOCK, OP_VUNLOCK, OP_VUNLOCK, OP_VADD,
		OP_SUB_PAIR, OP_MOV,
	};
	/* what an arm does differently: locks, and which pointer a slot holds */
	static const unsigned char arm_kinds[] = {
		OP_READ, OP_WRITE, OP_SPILL, OP_LOCK, OP_UNLOCK, OP_MOV, OP_MOV, OP_MOV,
		OP_FILL, OP_LOOKUP, OP_LOOKUP,
	};
	/* right after a join: the elements the arms chose, through their slots */
	static const unsigned char join_kinds[] = {
		OP_VLOCK, OP_VLOCK, OP_VUNLOCK, OP_VUNLOCK, OP_SUB_PAIR, OP_VADD,
	};

	memset(op, 0, sizeof(*op));
	if (in_arm)
		op->kind = arm_kinds[next() % sizeof(arm_kinds)];
	else if (ops_since_join < 3 && next() % 2)
		op->kind = join_kinds[next() % sizeof(join_kinds)];
	else
		op->kind = kinds[next() % sizeof(kinds)];
	op->a = next() % NR_REGS;
	switch (op->kind) {
	case OP_NEW:
	case OP_NEW_UNCHECKED:
		op->b = next() % NR_TYPES;
		break;
	case OP_PUSH:
	case OP_POP:
		op->b = next() % 2;
		break;
	case OP_ADD:
		op->b = next() % 2;
		op->c = next() % 16 == 0;
		break;
	case OP_FIRST:
		op->b = next() % 2;
		break;
	case OP_REMOVE:		/* the result elsewhere: the node's slot goes stale */
		op->b = next() % 2;
		op->c = (op->a + 1 + next() % (NR_REGS - 1)) % NR_REGS;
		break;
	case OP_DROP:
		op->a = next() % NR_SLOTS;
		break;
	case OP_WRITE:
		op->b = next() % 1000;
		break;
	case OP_SPECIAL:
		op->b = 8 + 8 * (next() % 4);
		break;
	case OP_SPILL:
		op->b = NR_REGS + next() % (NR_SLOTS - NR_REGS);
		break;
	case OP_FILL:
		op->a = NR_REGS + next() % (NR_SLOTS - NR_REGS);
		op->b = next() % NR_REGS;
		break;
	case OP_MOV:
		op->b = next() % NR_REGS;
		break;
	case OP_LOOP:
		op->a = next() % 8 == 0 ? CB_LEAK_LOCK : next() % 2;
		op->b = 1 + next() % 3;
		break;
	case OP_BRANCH:
		op->a = next() % 100;
		break;
	case OP_LOOKUP:
		op->b = next() % NR_KEYS;
		break;
	case OP_VLOCK:
	case OP_VUNLOCK:
		op->a = value_slot(m);
		break;
	case OP_VADD:
		op->b = value_slot(m);
		break;
	case OP_SUB_PAIR:
		op->a = value_slot(m);
		op->b = value_slot(m);
		break;
	}
	/* in an arm, an element's pointer copied over, or another element
	 * looked up into, a slot that holds one: one path aliases it
	 */
	if (in_arm && (op->kind == OP_MOV || op->kind == OP_LOOKUP) && next() % 2) {
		op->a = value_slot(m);
		if (op->kind == OP_MOV)
			op->b = value_slot(m);
	}
	if (op->kind == OP_NEW || op->kind == OP_FIRST || op->kind == OP_POP ||
	    op->kind == OP_LOOKUP)
		model_cleanup(m, &op->cleanup);
}

/*
 * How a program's operations are chosen: only what the model allows on every
 * path (the verifier should accept it); the same up to one operation the
 * model refuses, then the end (the verifier must refuse it there: the rule
 * that operation breaks is tested alone); or any operation.
 */
enum gen_mode { GEN_ALLOWED, GEN_ONE_REFUSED, GEN_ANY, NR_GEN_MODES };
static const char *const mode_names[NR_GEN_MODES] = { "allowed", "one refused", "any" };

static bool pick(struct op *op, const struct model *m, int arm)
{
	for (int tries = 0; tries < 64; tries++) {
		random_op(op, m, arm);
		if (op->kind == OP_BRANCH && m->nr_paths * 2 > MAX_PATHS)
			continue;
		if (model_allows(m, op, NULL))
			return true;
	}
	return false;
}

/* The rule a reason names: its words without the numbers */
static void rule_of(const char *why, char *rule)
{
	for (; *why; why++)
		if (*why < '0' || *why > '9')
			*rule++ = *why;
	*rule = '\0';
}

/*
 * An operation the model refuses, of a rule drawn evenly from the rules the
 * candidates break (else the commonest, a slot never written, would crowd
 * out rare ones such as a node of the wrong struct type).
 */
static bool pick_refused(struct op *op, const struct model *m)
{
	static struct op cand[64];
	static char rules[64][128];
	char why[128];
	int nr = 0, nr_rules = 0, nr_split = 0, split[64], i, j, r;

	for (int tries = 0; tries < 64; tries++) {
		random_op(&cand[nr], m, 0);
		if (cand[nr].kind == OP_BRANCH || model_allows(m, &cand[nr], why))
			continue;
		rule_of(why, rules[nr]);
		nr++;
	}
	if (!nr)
		return false;
	/* Half the time, one refused on some paths only, if there is one:
	 * the verifier must not take the paths it did not explore for the
	 * ones it did (state pruning).
	 */
	for (i = 0; i < nr; i++)
		if (model_refuses_some_paths(m, &cand[i]))
			split[nr_split++] = i;
	if (nr_split && next() % 2) {
		*op = cand[split[next() % nr_split]];
		return true;
	}
	for (i = 0; i < nr; i++) {	/* count the distinct rules */
		for (j = 0; j < i && strcmp(rules[i], rules[j]); j++)
			;
		nr_rules += j == i;
	}
	r = next() % nr_rules;
	for (i = 0; i < nr; i++) {	/* the first candidate of rule r */
		for (j = 0; j < i && strcmp(rules[i], rules[j]); j++)
			;
		if (j == i && r-- == 0)
			break;
	}
	*op = cand[i];
	return true;
}

/* One program: operations chosen, applied to the model, emitted */
static void generate(struct model *m, enum gen_mode mode, char *trace, int len)
{
	int nr_ops = 1 + next() % MAX_OPS, n = 0, arm = 0, arm_ops = 0;
	int refused_at = mode == GEN_ONE_REFUSED ? next() % nr_ops : -1;
	struct op op;

	model_init(m);
	nr_insns = nr_fixups = 0;
	ops_since_join = 99;
	emit(I(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_1, 0, 0)); /* skb->len */
	emit(STX(BPF_REG_10, BPF_REG_2, LEN_OFF));
	trace[0] = '\0';
	for (int i = 0; i < nr_ops || arm; i++) {
		memset(&op, 0, sizeof(op));
		if (arm && arm_ops-- <= 0) {
			op.kind = arm == 1 ? OP_ELSE : OP_END;
			arm = arm == 1 ? 2 : 0;
			arm_ops = next() % 3;
		} else if (mode == GEN_ANY) {
			random_op(&op, m, arm);
			if (op.kind == OP_BRANCH && m->nr_paths * 2 > MAX_PATHS)
				op.kind = OP_READ;
		} else if (i >= refused_at && refused_at >= 0 && !arm) {
			if (pick_refused(&op, m))
				nr_ops = i + 1;		/* then the end */
			else if (!pick(&op, m, arm))
				break;
		} else if (!pick(&op, m, arm)) {
			break;
		}
		if (op.kind == OP_BRANCH) {
			arm = 1;
			arm_ops = next() % 3;
		}
		ops_since_join = op.kind == OP_END ? 0 : ops_since_join + 1;
		model_apply(m, &op);
		emit_op(&op);
		n += op_format(&op, trace + n, len - n);
		if (n >= len)
			n = len - 1;
	}
	memset(&op, 0, sizeof(op));
	op.kind = OP_EXIT;
	if (mode != GEN_ANY || next() % 2)
		model_cleanup(m, &op.cleanup);
	model_apply(m, &op);
	emit_op(&op);
	snprintf(trace + n, len - n, "exit(unlock %d, drop %d)", op.cleanup.unlock, op.cleanup.nr);
}

static char vlog[1 << 20];

/* The verifier's last words: the line before "processed N insns", or the last */
static const char *verifier_error(void)
{
	char *end = strstr(vlog, "\nprocessed "), *line;

	if (!end)
		end = vlog + strlen(vlog);
	while (end > vlog && end[-1] == '\n')
		end--;
	*end = '\0';
	line = strrchr(vlog, '\n');
	return line ? line + 1 : vlog;
}

static int load(int log_level)
{
	static struct bpf_func_info info[NR_SUBS + 1];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_btf_fd = k.btf_fd,
		    .func_info = info, .func_info_rec_size = sizeof(info[0]),
		    .log_level = log_level, .log_buf = log_level ? vlog : NULL,
		    .log_size = log_level ? sizeof(vlog) : 0);
	int saved = nr_insns;

	opts.func_info_cnt = link_subs(info);
	if (nr_insns > MAX_INSNS) {
		nr_insns = saved;
		errno = E2BIG;
		return -1;
	}
	vlog[0] = '\0';
	int fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "gen", "GPL", insn, nr_insns, &opts);

	nr_insns = saved;	/* the subprograms are placed anew on a reload */
	return fd;
}

/* Each run: its name, seed and number of programs. */
static const struct {
	const char *name;
	unsigned int seed;
	int count;
} gen_runs[] = {
	{ "gen_ownership_1", 1, 10000 },
	{ "gen_ownership_2", 2, 10000 },
};

void list_gen_runs(FILE *out)
{
	unsigned int i;

	for (i = 0; i < sizeof(gen_runs) / sizeof(gen_runs[0]); i++)
		fprintf(out, "%s - gen %u %d\n", gen_runs[i].name, gen_runs[i].seed,
			gen_runs[i].count);
}

int run_gen(unsigned int seed, int count, const struct loader_env *env)
{
	static const unsigned char frame[64];
	long accepted = 0, refused = 0, runs = 0, disagree = 0, by_mode[NR_GEN_MODES] = {};
	static struct model m;
	static char trace[4096];
	time_t start = time(NULL);
	int i, err;

	err = find_kfuncs() ?: build_btf();
	if (err) {
		env->say("FAIL: gen: cannot set up the kfunc ids, BTF and map: %s", strerror(-err));
		return 1;
	}
	for (i = 0; i < count && time(NULL) - start < BUDGET_S; i++) {
		enum gen_mode mode;
		bool want, got;
		int fd;

		rnd = seed * 2654435761u + i * 40503u + 1;
		mode = next() % 8;	/* 4 in 8 allowed, 3 one refused, 1 any */
		mode = mode < 4 ? GEN_ALLOWED : mode < 7 ? GEN_ONE_REFUSED : GEN_ANY;
		by_mode[mode]++;
		generate(&m, mode, trace, sizeof(trace));
		fd = load(0);
		got = fd >= 0;
		want = !m.refused;
		got ? accepted++ : refused++;
		/* a program the model refuses is never run: it may hang the CPU */
		if (got && !want) {
			close(fd);
		} else if (got) {
			for (int r = 0; r < 3; r++) {
				LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame,
					    .data_size_in = sizeof(frame), .repeat = 1);

				if (!bpf_prog_test_run_opts(fd, &opts))
					runs++;
			}
			close(fd);
		}
		if (got == want)
			continue;
		if (disagree++ < REPORT_MAX) {
			fd = load(1);
			if (fd >= 0)
				close(fd);
			env->say("FAIL: gen: seed %u program %d (%s): the model %s it (%s), the verifier %s it: %s",
				 seed, i, mode_names[mode], want ? "accepts" : "refuses", want ? "-" : m.why,
				 got ? "accepts" : "refuses", got ? "-" : verifier_error());
			env->say("  operations: %s", trace);
		}
	}
	close(k.map_fd);
	close(k.elems_fd);
	close(k.btf_fd);
	env->say("%s: gen: %d programs (%ld allowed, %ld one refused, %ld any): %ld accepted, %ld refused, %ld disagreements; %ld runs%s",
		 disagree ? "FAIL" : "ok", i, by_mode[GEN_ALLOWED], by_mode[GEN_ONE_REFUSED],
		 by_mode[GEN_ANY], accepted, refused, disagree, runs,
		 i < count ? " (time budget reached)" : "");
	if (env->all_freed()) {
		env->say("FAIL: gen: seed %u leaks graph objects", seed);
		return 1;
	}
	return disagree != 0;
}
