// SPDX-License-Identifier: GPL-2.0
/*
 * A model of the verifier's rules for the graph API, written from the rules
 * (Documentation/bpf/graph_ds_impl.rst and the series' beyond-upstream
 * rules), not from the verifier: it follows every path of a generated
 * program and predicts accept or refuse. Each path knows, for every place a
 * program keeps a pointer, which object it points to, and for every object
 * whether the program owns it, holds a non-owning reference into a graph,
 * or has lost it (dropped, given away, or invalidated).
 *
 * The rules:
 * - bpf_obj_new(), bpf_obj_drop(), helper and subprogram calls need the
 *   lock free; graph kfuncs need the lock of their root's value held (one
 *   lock at a time, taken once);
 * - a map element the program looks up has a lock and a tree of its own;
 *   two lookups name two elements as far as the verifier knows, whatever
 *   the key, and copies of one pointer name one: bpf_spin_unlock() must
 *   name the element whose lock is held, in this frame or a subprogram's;
 * - push and add take an owned, NULL-checked node of the root's type and
 *   leave non-owning references; first() returns one; remove() takes one of
 *   that very tree, returns an owned node and invalidates every non-owning
 *   reference, as bpf_spin_unlock() does; pop() returns an owned node;
 * - drop takes an owned object; reads and writes of the key need an owned
 *   or non-owning pointer, any access to a node's field or past the end is
 *   refused; a less() that returns 2 is refused;
 * - one bpf_obj_drop() call may be reached with objects of several types:
 *   each frees by its own type (beyond upstream); the loader's count of
 *   live objects after the run shows a drop that freed by another's;
 * - one load or store is not reached with an object on one path and a
 *   non-owning reference or a map element on another;
 * - a bpf_loop() callback may not return with the lock held;
 * - at exit the lock is free and nothing is owned.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "gen_model.h"

void model_init(struct model *m)
{
	memset(m, 0, sizeof(*m));
	m->nr_paths = 1;
}

static void refuse(struct model *m, struct path *p, const char *fmt, ...)
{
	va_list ap;

	p->refused = true;
	if (m->refused)
		return;
	m->refused = true;
	va_start(ap, fmt);
	vsnprintf(m->why, sizeof(m->why), fmt, ap);
	va_end(ap);
}

/* The object @slot points to, or -1 when it holds no usable pointer */
static int ptr(const struct path *p, int slot)
{
	if (p->val[slot] != V_PTR || p->objs[p->obj[slot]].state == O_GONE)
		return -1;
	return p->obj[slot];
}

/* Why @slot holds no usable pointer: never one, or one the program lost */
static const char *no_ptr(const struct path *p, int slot)
{
	static const char *const lost[NR_LOST] = {
		[LOST_DROP] = "a pointer to a dropped object",
		[LOST_UNLOCK] = "a non-owning reference lost at unlock",
		[LOST_REMOVE] = "a non-owning reference lost at remove",
	};

	if (p->val[slot] == V_VAL)
		return "a map element";
	return p->val[slot] == V_PTR ? lost[p->objs[p->obj[slot]].lost] : "no pointer";
}

/*
 * An owned, NULL-checked object of @type (any type when @type < 0). Refused
 * or not, the object it points to, if any: the operation takes effect in
 * the model either way, so that a program that breaks one rule breaks no
 * other because of it (a verifier without that rule must accept it).
 */
static int owned(struct model *m, struct path *p, int slot, int type, const char *what)
{
	static const char *const names[NR_TYPES] = { "rnode", "lnode", "rnode_other" };
	int o = ptr(p, slot);

	if (o < 0)
		refuse(m, p, "%s: slot %d holds %s", what, slot, no_ptr(p, slot));
	else if (p->objs[o].state != O_OWNED)
		refuse(m, p, "%s: slot %d holds a non-owning reference", what, slot);
	else if (p->objs[o].maybe_null)
		refuse(m, p, "%s: slot %d may be NULL", what, slot);
	else if (type >= 0 && p->objs[o].type != type)
		refuse(m, p, "%s: slot %d holds a struct %s", what, slot, names[p->objs[o].type]);
	return o;
}

static int new_obj(struct model *m, struct path *p, int state, int type, int root)
{
	int o = m->nr_objs;

	p->objs[o].state = state;
	p->objs[o].type = type;
	p->objs[o].root = root;
	p->objs[o].maybe_null = false;
	return o;
}

static void set_slot(struct path *p, int slot, int o)
{
	p->val[slot] = V_PTR;
	p->obj[slot] = o;
}

static void lose_non_owning(struct path *p, int nr_objs, enum lost_by why)
{
	for (int o = 0; o < nr_objs; o++)
		if (p->objs[o].state == O_NON_OWNING) {
			p->objs[o].state = O_GONE;
			p->objs[o].lost = why;
		}
}

/* @held: the global value's lock must be held, else no lock may be */
static void need_lock(struct model *m, struct path *p, bool held, const char *what)
{
	if (held && p->lock != LOCK_GLOBAL)
		refuse(m, p, "%s %s", what, p->lock ? "under a map element's lock" : "without the lock");
	else if (!held && p->lock)
		refuse(m, p, "%s with a lock held", what);
}

/* The lookup a slot's map element came from, or -1 */
static int val(const struct path *p, int slot)
{
	return p->val[slot] == V_VAL ? p->obj[slot] : -1;
}

/* bpf_spin_lock() / bpf_spin_unlock() of the element in @slot */
static void vlock(struct model *m, struct path *p, int slot, const char *what)
{
	if (val(p, slot) < 0)
		refuse(m, p, "%s: slot %d holds %s", what, slot, no_ptr(p, slot));
	need_lock(m, p, false, what);
	if (val(p, slot) >= 0)
		p->lock = LOCK_VAL + val(p, slot);
}

static void vunlock(struct model *m, struct path *p, int slot, const char *what)
{
	if (val(p, slot) < 0)
		refuse(m, p, "%s: slot %d holds %s", what, slot, no_ptr(p, slot));
	else if (p->lock != LOCK_VAL + val(p, slot))
		refuse(m, p, "%s: slot %d names another element than the locked one", what, slot);
	p->lock = LOCK_NONE;
	lose_non_owning(p, m->nr_objs, LOST_UNLOCK);
}

static void drop(struct model *m, struct path *p, int slot, const char *what)
{
	int o;

	need_lock(m, p, false, what);
	o = owned(m, p, slot, -1, what);
	if (o >= 0) {
		p->objs[o].state = O_GONE;
		p->objs[o].lost = LOST_DROP;
	}
}

static void unlock(struct model *m, struct path *p)
{
	need_lock(m, p, true, "bpf_spin_unlock");
	p->lock = LOCK_NONE;
	lose_non_owning(p, m->nr_objs, LOST_UNLOCK);
}

static void check_exit(struct model *m, struct path *p)
{
	if (p->lock)
		refuse(m, p, "exit with a lock held");
	for (int o = 0; o < m->nr_objs && !p->refused; o++)
		if (p->objs[o].state == O_OWNED)
			refuse(m, p, "exit with object %d owned", o);
}

/* Release what @c names, and return */
static void finish(struct model *m, struct path *p, const struct cleanup *c)
{
	if (c->unlock == UNLOCK_GLOBAL)
		unlock(m, p);
	else if (c->unlock >= UNLOCK_SLOT)
		vunlock(m, p, c->unlock - UNLOCK_SLOT, "cleanup unlock");
	for (int i = 0; i < c->nr; i++)
		drop(m, p, c->drop[i], "cleanup drop");
	check_exit(m, p);
}

/* The failing branch of a NULL check */
static void null_branch(struct model *m, struct path *p, const struct cleanup *c)
{
	struct path q = *p;

	finish(m, &q, c);
	if (q.refused)
		p->refused = true;
}

static void apply(struct model *m, struct path *p, const struct op *op)
{
	int o;

	switch (op->kind) {
	case OP_NEW:
	case OP_NEW_UNCHECKED:
		need_lock(m, p, false, "bpf_obj_new");
		if (op->kind == OP_NEW)
			null_branch(m, p, &op->cleanup);
		o = new_obj(m, p, O_OWNED, op->b, 0);
		p->objs[o].maybe_null = op->kind == OP_NEW_UNCHECKED;
		set_slot(p, op->a, o);
		break;
	case OP_LOCK:
		need_lock(m, p, false, "bpf_spin_lock");
		p->lock = LOCK_GLOBAL;
		break;
	case OP_LOOKUP:
		need_lock(m, p, false, "bpf_map_lookup_elem");
		null_branch(m, p, &op->cleanup);
		p->val[op->a] = V_VAL;
		p->obj[op->a] = m->nr_vals;
		break;
	case OP_VLOCK:
		vlock(m, p, op->a, "element lock");
		break;
	case OP_VUNLOCK:
		vunlock(m, p, op->a, "element unlock");
		break;
	case OP_VADD:
		if (val(p, op->b) < 0)
			refuse(m, p, "element add: slot %d holds %s", op->b, no_ptr(p, op->b));
		else if (p->lock != LOCK_VAL + val(p, op->b))
			refuse(m, p, "element add: the lock of slot %d's element is not held", op->b);
		o = owned(m, p, op->a, T_RB, "element add");
		if (o >= 0) {
			p->objs[o].state = O_NON_OWNING;
			p->objs[o].root = ROOT_RB0;
		}
		break;
	case OP_SUB_PAIR:
		need_lock(m, p, false, "subprogram call");
		vlock(m, p, op->a, "subprogram lock");
		vunlock(m, p, op->b, "subprogram unlock");
		break;
	case OP_UNLOCK:
		unlock(m, p);
		break;
	case OP_ADD:
	case OP_PUSH:
		need_lock(m, p, true, op->kind == OP_ADD ? "add" : "push");
		o = owned(m, p, op->a, op->kind == OP_ADD ? T_RB : T_LIST,
			  op->kind == OP_ADD ? "add" : "push");
		if (op->kind == OP_ADD && op->c)
			refuse(m, p, "less() returns 2");
		if (o >= 0) {
			p->objs[o].state = O_NON_OWNING;
			p->objs[o].root = op->kind == OP_ADD ? op->b : ROOT_LIST;
		}
		break;
	case OP_FIRST:
		need_lock(m, p, true, "bpf_rbtree_first");
		null_branch(m, p, &op->cleanup);
		set_slot(p, op->a, new_obj(m, p, O_NON_OWNING, T_RB, op->b));
		break;
	case OP_REMOVE:
		need_lock(m, p, true, "bpf_rbtree_remove");
		o = ptr(p, op->a);
		if (o < 0)
			refuse(m, p, "remove: slot %d holds %s", op->a, no_ptr(p, op->a));
		else if (p->objs[o].state != O_NON_OWNING || p->objs[o].type != T_RB)
			refuse(m, p, "remove: slot %d is no non-owning tree node", op->a);
		else if (p->objs[o].root != op->b)
			refuse(m, p, "remove: the node is in the other tree");
		lose_non_owning(p, m->nr_objs, LOST_REMOVE);
		set_slot(p, op->c, new_obj(m, p, O_OWNED, T_RB, 0));
		break;
	case OP_POP:
		need_lock(m, p, true, "bpf_list_pop");
		null_branch(m, p, &op->cleanup);
		set_slot(p, op->a, new_obj(m, p, O_OWNED, T_LIST, 0));
		break;
	case OP_DROP:
		drop(m, p, op->a, "bpf_obj_drop");
		break;
	case OP_READ:
	case OP_WRITE:
		o = ptr(p, op->a);
		if (o < 0)
			refuse(m, p, "key access: slot %d holds %s", op->a, no_ptr(p, op->a));
		else if (p->objs[o].maybe_null)
			refuse(m, p, "key access: slot %d may be NULL", op->a);
		break;
	case OP_SPECIAL:
		refuse(m, p, "access at offset %d", op->b);
		break;
	case OP_SPILL:
	case OP_MOV:
		if (p->val[op->a] == V_UNINIT)
			refuse(m, p, "slot %d read before it is written", op->a);
		p->val[op->b] = p->val[op->a];
		p->obj[op->b] = p->obj[op->a];
		break;
	case OP_FILL:
		/* root may read stack it never wrote: an unknown scalar */
		p->val[op->b] = p->val[op->a] == V_UNINIT ? V_SCALAR : p->val[op->a];
		p->obj[op->b] = p->obj[op->a];
		break;
	case OP_SUB_READ:
		need_lock(m, p, false, "subprogram call");
		owned(m, p, op->a, -1, "subprogram read");
		break;
	case OP_SUB_DROP:
		need_lock(m, p, false, "subprogram call");
		o = owned(m, p, op->a, -1, "subprogram drop");
		if (o < 0)
			break;
		p->objs[o].state = O_GONE;
		p->objs[o].lost = LOST_DROP;
		break;
	case OP_LOOP:
		need_lock(m, p, false, "bpf_loop");
		if (op->a == CB_LEAK_LOCK)
			refuse(m, p, "a callback returns with the lock held");
		break;
	case OP_EXIT:
		finish(m, p, &op->cleanup);
		break;
	}
}

/* The verifier's type of what @slot holds, as far as loads and stores care */
static int ptr_kind(const struct path *p, int slot)
{
	if (p->val[slot] == V_VAL)
		return 3;
	if (ptr(p, slot) < 0)
		return 0;
	return p->objs[p->obj[slot]].state == O_OWNED ? 1 : 2;
}

/*
 * One load or store instruction may not see an object on one path and
 * another kind of pointer (a non-owning reference, a map element) on
 * another: the verifier rewrites each such instruction for one kind.
 */
static void one_kind_per_insn(struct model *m, int slot)
{
	int kinds = 0, i;

	for (i = 0; i < m->nr_paths; i++)
		if (m->path[i].arm == m->arm && !m->path[i].refused)
			kinds |= 1 << ptr_kind(&m->path[i], slot);
	kinds &= ~1;
	if (!(kinds & (kinds - 1)) || !(kinds & 6))
		return;
	for (i = 0; i < m->nr_paths; i++)
		if (m->path[i].arm == m->arm)
			refuse(m, &m->path[i], "slot %d: one access to an object and another pointer",
			       slot);
}

void model_apply(struct model *m, const struct op *op)
{
	int i, n = m->nr_paths;

	if (op->kind == OP_READ || op->kind == OP_WRITE || op->kind == OP_SPECIAL)
		one_kind_per_insn(m, op->a);

	switch (op->kind) {
	case OP_BRANCH:
		for (i = 0; i < n && m->nr_paths < MAX_PATHS; i++) {
			m->path[m->nr_paths] = m->path[i];
			m->path[m->nr_paths++].arm = 1;	/* arm A, taken first */
			m->path[i].arm = 2;		/* arm B */
		}
		m->arm = 1;
		return;
	case OP_ELSE:
		m->arm = 2;
		return;
	case OP_END:
		for (i = 0; i < n; i++)
			m->path[i].arm = 0;
		m->arm = 0;
		return;
	}
	/* refused paths go on too: see owned() */
	for (i = 0; i < n; i++)
		if (m->path[i].arm == m->arm)
			apply(m, &m->path[i], op);
	if (op->kind == OP_NEW || op->kind == OP_NEW_UNCHECKED || op->kind == OP_FIRST ||
	    op->kind == OP_REMOVE || op->kind == OP_POP)
		m->nr_objs++;
	if (op->kind == OP_LOOKUP)
		m->nr_vals++;
}

bool model_allows(const struct model *m, const struct op *op, char *why)
{
	static struct model copy;

	if (m->nr_objs >= MAX_OBJS - 1 || m->nr_vals >= 200)
		return false;
	copy = *m;
	model_apply(&copy, op);
	if (!copy.refused && !copy.arm) {	/* and the program can still end */
		struct op exit = { .kind = OP_EXIT };

		model_cleanup(&copy, &exit.cleanup);
		model_apply(&copy, &exit);
	}
	if (copy.refused && why)
		strcpy(why, copy.why);
	return !copy.refused;
}

bool model_refuses_some_paths(const struct model *m, const struct op *op)
{
	static struct model copy;
	int refused = 0, n = 0;

	copy = *m;
	model_apply(&copy, op);
	for (int i = 0; i < copy.nr_paths; i++)
		if (copy.path[i].arm == m->arm) {
			n++;
			refused += copy.path[i].refused;
		}
	return refused && refused < n;
}

void model_cleanup(const struct model *m, struct cleanup *c)
{
	const struct path *p = &m->path[0];
	int o, s, best;

	for (int i = 0; i < m->nr_paths; i++)
		if (m->path[i].arm == m->arm) {
			p = &m->path[i];
			break;
		}
	memset(c, 0, sizeof(*c));
	if (p->lock == LOCK_GLOBAL)
		c->unlock = UNLOCK_GLOBAL;
	for (s = NR_SLOTS - 1; s >= 0 && p->lock >= LOCK_VAL; s--)
		if (val(p, s) == p->lock - LOCK_VAL)
			c->unlock = UNLOCK_SLOT + s;	/* a register if there is one */
	for (o = 0; o < m->nr_objs; o++) {
		if (p->objs[o].state != O_OWNED || p->objs[o].maybe_null)
			continue;
		best = -1;
		for (s = NR_SLOTS - 1; s >= 0; s--)	/* a register if there is one */
			if (ptr(p, s) == o)
				best = s;
		if (best >= 0 && c->nr < MAX_CLEANUP)
			c->drop[c->nr++] = best;
	}
}

static const char *const names[NR_OP_KINDS] = {
	[OP_NEW] = "new", [OP_NEW_UNCHECKED] = "new_unchecked", [OP_LOCK] = "lock",
	[OP_UNLOCK] = "unlock", [OP_ADD] = "add", [OP_PUSH] = "push", [OP_FIRST] = "first",
	[OP_REMOVE] = "remove", [OP_POP] = "pop", [OP_DROP] = "drop", [OP_READ] = "read",
	[OP_WRITE] = "write", [OP_SPECIAL] = "special", [OP_SPILL] = "spill",
	[OP_FILL] = "fill", [OP_MOV] = "mov", [OP_SUB_READ] = "sub_read",
	[OP_SUB_DROP] = "sub_drop", [OP_LOOP] = "loop", [OP_BRANCH] = "if",
	[OP_ELSE] = "else", [OP_END] = "end", [OP_EXIT] = "exit", [OP_LOOKUP] = "lookup",
	[OP_VLOCK] = "vlock", [OP_VUNLOCK] = "vunlock", [OP_VADD] = "vadd",
	[OP_SUB_PAIR] = "sub_pair",
};

int op_format(const struct op *op, char *buf, int len)
{
	return snprintf(buf, len, "%s(%d,%d,%d) ", names[op->kind], op->a, op->b, op->c);
}
