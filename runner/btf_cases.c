// SPDX-License-Identifier: GPL-2.0
/*
 * BTF the kernel must refuse, built by hand with libbpf's btf__add_*() so
 * that each case breaks exactly the rules it names, in the order it needs,
 * and loaded with btf__load_into_kernel(): the errno is the verdict. A case
 * that names a map value type must load, and the errno is that of creating
 * an array map with that value.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "btf_cases.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Type ids of the special structs every case starts with */
enum { INT = 1, SPIN_LOCK, LIST_HEAD, LIST_NODE, RB_ROOT, RB_NODE, TIMER, TASK, KPTR_TAG,
       KPTR, FIRST_FREE };

static struct btf *base_btf(void)
{
	struct btf *btf = btf__new_empty();

	if (!btf)
		return NULL;
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(btf, "bpf_spin_lock", 4);
	btf__add_field(btf, "val", INT, 0, 0);
	btf__add_struct(btf, "bpf_list_head", 16);
	btf__add_struct(btf, "bpf_list_node", 16);
	btf__add_struct(btf, "bpf_rb_root", 16);
	btf__add_struct(btf, "bpf_rb_node", 24);
	btf__add_struct(btf, "bpf_timer", 16);
	/* a kptr: pointer to a type tagged "kptr" of a kernel struct */
	btf__add_struct(btf, "task_struct", 0);
	btf__add_type_tag(btf, "kptr", TASK);
	btf__add_ptr(btf, KPTR_TAG);
	return btf;
}

/* struct NAME { ... } with FIELDS (name, type, bit offset); a list head
 * or rb root member at index I gets the tag CONTAINS[I] when not NULL.
 */
struct field {
	const char *name;
	int type;
	int bit_off;
	const char *contains;
};

static int add_struct(struct btf *btf, const char *name, int size,
		      const struct field *fields, int nr)
{
	int id = btf__add_struct(btf, name, size), i;

	for (i = 0; i < nr; i++)
		btf__add_field(btf, fields[i].name, fields[i].type, fields[i].bit_off, 0);
	for (i = 0; i < nr; i++)
		if (fields[i].contains)
			btf__add_decl_tag(btf, fields[i].contains, id, i);
	return id;
}

#define STRUCT(btf, name, size, ...)						\
	({									\
		const struct field __f[] = { __VA_ARGS__ };			\
		add_struct(btf, name, size, __f, ARRAY_SIZE(__f));		\
	})

/* A list node type: struct bar { struct bpf_list_node node; } */
static void add_bar(struct btf *btf)
{
	STRUCT(btf, "bar", 16, { "node", LIST_NODE, 0 });
}

static void too_many_locks(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "a", SPIN_LOCK, 0 }, { "b", SPIN_LOCK, 32 },
	       { "c", LIST_HEAD, 64 });
}

static void missing_lock(struct btf *btf)
{
	STRUCT(btf, "foo", 16, { "head", LIST_HEAD, 0, "contains:bar:node" });
	add_bar(btf);
}

static void fields_overlap(struct btf *btf)
{
	STRUCT(btf, "foo", 16, { "a", LIST_HEAD, 0, "contains:bar:node" },
	       { "b", LIST_NODE, 0 }, { "c", SPIN_LOCK, 0 });
	add_bar(btf);
}

static void missing_contains(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 }, { "head", LIST_HEAD, 64 });
}

static void missing_struct(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:no_such_struct:node" });
}

static void missing_node(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:no_such_node" });
	add_bar(btf);
}

/* A tag that is not contains:TYPE:FIELD: no FIELD, or an empty one that an
 * anonymous node member would otherwise match
 */
static void contains_no_field(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar" });
	add_bar(btf);
}

static void contains_empty_field(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:" });
	STRUCT(btf, "bar", 16, { "", LIST_NODE, 0 });
}

static void node_wrong_type(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:key" });
	STRUCT(btf, "bar", 24, { "key", INT, 0 }, { "node", LIST_NODE, 64 });
}

static void two_nodes_one_name(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" });
	STRUCT(btf, "bar", 32, { "node", LIST_NODE, 0 }, { "node", LIST_NODE, 128 });
}

static void list_and_rb_node(struct btf *btf)
{
	STRUCT(btf, "bar", 40, { "l", LIST_NODE, 0 }, { "r", RB_NODE, 128 });
}

/* A type on its own list: ownership cycle */
static void own_type(struct btf *btf)
{
	STRUCT(btf, "foo", 40, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:foo:node" }, { "node", LIST_NODE, 192 });
}

/* Two types on each other's lists: an ownership cycle through two */
static void own_each_other(struct btf *btf)
{
	STRUCT(btf, "foo", 40, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" }, { "node", LIST_NODE, 192 });
	STRUCT(btf, "bar", 40, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:foo:node" }, { "node", LIST_NODE, 192 });
}

/* The cycle of own_type() without the lock: the lock is checked first. */
static void own_type_missing_lock(struct btf *btf)
{
	STRUCT(btf, "foo", 32, { "head", LIST_HEAD, 0, "contains:foo:node" },
	       { "node", LIST_NODE, 128 });
}

/* Five roots in one struct, one more than a value may have */
static void too_many_roots(struct btf *btf)
{
	STRUCT(btf, "foo", 88, { "lock", SPIN_LOCK, 0 },
	       { "h0", LIST_HEAD, 64, "contains:bar:node" },
	       { "h1", LIST_HEAD, 192, "contains:bar:node" },
	       { "h2", LIST_HEAD, 320, "contains:bar:node" },
	       { "h3", LIST_HEAD, 448, "contains:bar:node" },
	       { "h4", LIST_HEAD, 576, "contains:bar:node" });
	add_bar(btf);
}

/* A list node type that owns a list, before the type it contains, whose
 * own root is refused: the refusal is that of the contained type.
 */
static void owner_before_refused_type(struct btf *btf)
{
	STRUCT(btf, "outer", 40, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:inner:node" }, { "node", LIST_NODE, 192 });
	STRUCT(btf, "inner", 40, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:no_such_struct:node" },
	       { "node", LIST_NODE, 192 });
}

/* A lock at an offset that is no multiple of its alignment */
static void lock_misaligned(struct btf *btf)
{
	STRUCT(btf, "foo", 8, { "c", INT, 0 }, { "lock", SPIN_LOCK, 8 });
}

/* The node a head contains at an offset that is no multiple of 8 */
static void node_misaligned(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" });
	STRUCT(btf, "bar", 20, { "key", INT, 0 }, { "node", LIST_NODE, 32 });
}

/* Misaligned where no root names them: a struct's own list or rb node, a
 * root (each kind of special field has its own check)
 */
static void list_node_misaligned_unnamed(struct btf *btf)
{
	STRUCT(btf, "bar", 20, { "key", INT, 0 }, { "node", LIST_NODE, 32 });
}

static void rb_node_misaligned_unnamed(struct btf *btf)
{
	STRUCT(btf, "bar", 28, { "key", INT, 0 }, { "node", RB_NODE, 32 });
}

static void head_misaligned(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 32, "contains:bar:node" });
	add_bar(btf);
}

static void rb_root_misaligned(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "root", RB_ROOT, 32, "contains:bar:node" });
	STRUCT(btf, "bar", 24, { "node", RB_NODE, 0 });
}

/* Map values whose list head shares bytes with a kptr or a timer */
static void head_over_kptr(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" }, { "p", KPTR, 128 });
	add_bar(btf);
}

static void head_over_timer(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" }, { "t", TIMER, 64 });
	add_bar(btf);
}

/* Special fields of a map value never share bytes, whatever their kinds */
static void lock_over_timer(struct btf *btf)
{
	STRUCT(btf, "foo", 16, { "lock", SPIN_LOCK, 0 }, { "t", TIMER, 0 });
}

static void kptr_over_lock(struct btf *btf)
{
	STRUCT(btf, "foo", 8, { "lock", SPIN_LOCK, 0 }, { "p", KPTR, 0 });
}

static void kptr_over_timer(struct btf *btf)
{
	STRUCT(btf, "foo", 16, { "t", TIMER, 0 }, { "p", KPTR, 64 });
}

/*
 * A member with two contains: tags, or a TYPE that two structs are named:
 * the one of the lower type id counts, as a walk over the types finds it.
 */
static void two_tags(struct btf *btf, const char *first, const char *second)
{
	int id = STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 }, { "head", LIST_HEAD, 64 });

	btf__add_decl_tag(btf, first, id, 1);
	btf__add_decl_tag(btf, second, id, 1);
	add_bar(btf);
}

static void first_tag_valid(struct btf *btf)
{
	two_tags(btf, "contains:bar:node", "contains:bar:no_such_node");
}

static void first_tag_invalid(struct btf *btf)
{
	two_tags(btf, "contains:bar:no_such_node", "contains:bar:node");
}

static void first_bar_has_node(struct btf *btf)
{
	add_bar(btf);
	STRUCT(btf, "bar", 8, { "key", INT, 0 });
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" });
}

static void first_bar_has_no_node(struct btf *btf)
{
	STRUCT(btf, "bar", 8, { "key", INT, 0 });
	add_bar(btf);
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" });
}

/* What must load: a lock alone, and a list of nodes next to its lock */
static void lock_only(struct btf *btf)
{
	STRUCT(btf, "foo", 8, { "lock", SPIN_LOCK, 0 }, { "data", INT, 32 });
}

static void owner_and_owned(struct btf *btf)
{
	STRUCT(btf, "foo", 24, { "lock", SPIN_LOCK, 0 },
	       { "head", LIST_HEAD, 64, "contains:bar:node" });
	add_bar(btf);
}

/* Structs for bpf_obj_new(): as large as BTF allows (its size would wrap
 * into a tiny allocation), one byte too large, and the largest object the
 * allocator serves. Each has a long at 0; and the program's FUNC.
 */
static void add_sized(struct btf *btf, __u32 size)
{
	int lng = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);

	STRUCT(btf, "obj", size, { "x", lng, 0 });
	btf__add_func(btf, "prog", BTF_FUNC_GLOBAL, btf__add_func_proto(btf, INT));
}

static void obj_near_4g(struct btf *btf)
{
	add_sized(btf, 0xfffffff8);
}

static void obj_too_big(struct btf *btf)
{
	add_sized(btf, 4089);
}

static void obj_largest(struct btf *btf)
{
	add_sized(btf, 4088);
}

/*
 * Ownership rules must hold wherever a member sits. Each rule below names
 * the members of its structs once; a case is built for every order of
 * them ("btf_pos_RULE_ORDER", ORDER the members' indices in layout order,
 * the same order for each struct of the rule), members 8-byte aligned.
 */
struct member {
	const char *name;
	int type;
	int size;
	const char *contains;
};

#define MAX_MEMBERS 3
#define MAX_STRUCTS 4

static const struct pos_rule {
	const char *name;
	const char *expect;
	const char *structs[MAX_STRUCTS];
	struct member m[MAX_STRUCTS][MAX_MEMBERS];
} pos_rules[] = {
	{ "own_type", "ELOOP", { "foo" },
	  { { { "lock", SPIN_LOCK, 4 }, { "head", LIST_HEAD, 16, "contains:foo:node" },
	      { "node", LIST_NODE, 16 } } } },
	{ "own_type_rb", "ELOOP", { "foo" },
	  { { { "lock", SPIN_LOCK, 4 }, { "root", RB_ROOT, 16, "contains:foo:node" },
	      { "node", RB_NODE, 24 } } } },
	{ "own_each_other", "ELOOP", { "foo", "bar" },
	  { { { "lock", SPIN_LOCK, 4 }, { "head", LIST_HEAD, 16, "contains:bar:node" },
	      { "node", LIST_NODE, 16 } },
	    { { "lock", SPIN_LOCK, 4 }, { "head", LIST_HEAD, 16, "contains:foo:node" },
	      { "node", LIST_NODE, 16 } } } },
	/* a node type may own graphs only of types that own none */
	{ "three_levels", "ELOOP", { "foo", "bar", "baz", "qux" },
	  { { { "lock", SPIN_LOCK, 4 }, { "head", LIST_HEAD, 16, "contains:bar:node" },
	      { "data", INT, 4 } },
	    { { "lock", SPIN_LOCK, 4 }, { "head", LIST_HEAD, 16, "contains:baz:node" },
	      { "node", LIST_NODE, 16 } },
	    { { "lock", SPIN_LOCK, 4 }, { "root", RB_ROOT, 16, "contains:qux:node" },
	      { "node", LIST_NODE, 16 } },
	    { { "key", INT, 4 }, { "node", RB_NODE, 24 }, { "data", INT, 4 } } } },
	{ "list_and_rb_node", "EINVAL", { "bar" },
	  { { { "l", LIST_NODE, 16 }, { "r", RB_NODE, 24 }, { "key", INT, 4 } } } },
	/* and what must load, in every order */
	{ "two_levels", "0", { "foo", "bar", "baz" },
	  { { { "lock", SPIN_LOCK, 4 }, { "head", LIST_HEAD, 16, "contains:bar:node" },
	      { "data", INT, 4 } },
	    { { "lock", SPIN_LOCK, 4 }, { "root", RB_ROOT, 16, "contains:baz:node" },
	      { "node", LIST_NODE, 16 } },
	    { { "key", INT, 4 }, { "node", RB_NODE, 24 }, { "data", INT, 4 } } } },
};

static const char *const orders[] = { "012", "021", "102", "120", "201", "210" };

static void add_pos_rule(struct btf *btf, const struct pos_rule *r, const char *order)
{
	struct field f[MAX_MEMBERS];
	int s, i, off;

	for (s = 0; s < MAX_STRUCTS && r->structs[s]; s++) {
		for (i = 0, off = 0; i < MAX_MEMBERS; i++) {
			const struct member *m = &r->m[s][order[i] - '0'];

			f[i] = (struct field){ m->name, m->type, off * 8, m->contains };
			off += (m->size + 7) & ~7;
		}
		add_struct(btf, r->structs[s], off, f, MAX_MEMBERS);
	}
}

/* The rule and order of case @name, or NULL */
static const struct pos_rule *pos_case(const char *name, const char **order)
{
	unsigned int i, o;
	char buf[64];

	for (i = 0; i < ARRAY_SIZE(pos_rules); i++)
		for (o = 0; o < ARRAY_SIZE(orders); o++) {
			snprintf(buf, sizeof(buf), "btf_pos_%s_%s", pos_rules[i].name, orders[o]);
			if (!strcmp(buf, name)) {
				*order = orders[o];
				return &pos_rules[i];
			}
		}
	return NULL;
}

static const struct {
	const char *name;
	const char *expect;	/* the errno of the load, or "0" */
	void (*build)(struct btf *btf);
	const char *map_value;	/* create an array map of this struct */
	__u32 map_flags;	/* with these flags */
	bool freeze;		/* and freeze it */
	bool obj_new;		/* load a program: bpf_obj_new() of struct obj */
	bool repeat;		/* create it LEAK_ROUNDS times more: nothing kept */
} cases[] = {
	{ "btf_too_many_locks", "E2BIG", too_many_locks },
	{ "btf_missing_lock", "EINVAL", missing_lock },
	{ "btf_fields_overlap", "EEXIST", fields_overlap },
	{ "btf_missing_contains", "EINVAL", missing_contains },
	{ "btf_missing_struct", "ENOENT", missing_struct },
	{ "btf_missing_node", "ENOENT", missing_node },
	{ "btf_contains_no_field", "EINVAL", contains_no_field },
	{ "btf_contains_empty_field", "EINVAL", contains_empty_field },
	{ "btf_node_wrong_type", "EINVAL", node_wrong_type },
	{ "btf_two_nodes_one_name", "EINVAL", two_nodes_one_name },
	{ "btf_list_and_rb_node", "EINVAL", list_and_rb_node },
	{ "btf_own_type", "ELOOP", own_type },
	{ "btf_own_each_other", "ELOOP", own_each_other },
	{ "btf_own_type_missing_lock", "EINVAL", own_type_missing_lock },
	{ "btf_too_many_roots", "E2BIG", too_many_roots },
	{ "btf_owner_before_refused_type", "ENOENT", owner_before_refused_type },
	{ "btf_lock_misaligned", "EINVAL", lock_misaligned },
	{ "btf_node_misaligned", "EINVAL", node_misaligned },
	{ "btf_list_node_misaligned_unnamed", "EINVAL", list_node_misaligned_unnamed },
	{ "btf_rb_node_misaligned_unnamed", "EINVAL", rb_node_misaligned_unnamed },
	{ "btf_head_misaligned", "EINVAL", head_misaligned },
	{ "btf_rb_root_misaligned", "EINVAL", rb_root_misaligned },
	{ "btf_map_head_over_kptr", "EEXIST", head_over_kptr, "foo" },
	{ "btf_map_head_over_timer", "EEXIST", head_over_timer, "foo" },
	{ "btf_map_lock_over_timer", "EEXIST", lock_over_timer, "foo" },
	{ "btf_map_kptr_over_lock", "EEXIST", kptr_over_lock, "foo" },
	{ "btf_map_kptr_over_timer", "EEXIST", kptr_over_timer, "foo" },
	{ "btf_first_tag_valid", "0", first_tag_valid },
	{ "btf_first_tag_invalid", "ENOENT", first_tag_invalid },
	{ "btf_first_struct_has_node", "0", first_bar_has_node },
	{ "btf_first_struct_has_no_node", "ENOENT", first_bar_has_no_node },
	{ "btf_lock_only", "0", lock_only },
	{ "btf_owner_and_owned", "0", owner_and_owned },
	{ "btf_map_roots_owned", "0", owner_and_owned, "foo" },
	/* 6.3's rules for a map whose values hold graph roots */
	{ "btf_map_roots_rdonly_prog", "EACCES", owner_and_owned, "foo", BPF_F_RDONLY_PROG },
	{ "btf_map_roots_wronly_prog", "EACCES", owner_and_owned, "foo", BPF_F_WRONLY_PROG },
	{ "btf_map_roots_freeze", "ENOTSUPP", owner_and_owned, "foo", 0, true },
	/* what map creation allocated for the roots goes, refused or not */
	{ "btf_map_roots_refused_repeatedly", "EACCES", owner_and_owned, "foo",
	  BPF_F_RDONLY_PROG, .repeat = true },
	{ "btf_map_head_over_kptr_repeatedly", "EEXIST", head_over_kptr, "foo", .repeat = true },
	{ "btf_map_roots_created_repeatedly", "0", owner_and_owned, "foo", .repeat = true },
	/* sizes bpf_obj_new() cannot serve are refused, the largest it can runs */
	{ "btf_obj_new_near_4g", "E2BIG", obj_near_4g, .obj_new = true },
	{ "btf_obj_new_too_big", "E2BIG", obj_too_big, .obj_new = true },
	{ "btf_obj_new_largest", "0", obj_largest, .obj_new = true },
};

static const struct {
	const char *name;
	int err;
} errnos[] = {
	{ "0", 0 }, { "EINVAL", EINVAL }, { "ENOENT", ENOENT }, { "EEXIST", EEXIST },
	{ "E2BIG", E2BIG }, { "ELOOP", ELOOP }, { "EACCES", EACCES },
	{ "ENOTSUPP", 524 },	/* the kernel's, not in user space's errno.h */
};

static const char *errno_name(int err)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(errnos); i++)
		if (errnos[i].err == err)
			return errnos[i].name;
	return strerror(err);
}

/* Create a one-element array map of struct @value with @flags, and freeze
 * it if @freeze; the errno of the first step that fails, or 0.
 */
static int create_map(struct btf *btf, const char *value, __u32 flags, bool freeze)
{
	int id = btf__find_by_name_kind(btf, value, BTF_KIND_STRUCT);
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		.btf_fd = btf__fd(btf),
		.btf_key_type_id = INT,
		.btf_value_type_id = id,
		.map_flags = flags,
	);
	int fd, err = 0;

	if (id < 0)
		return ENOENT;
	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, value, 4,
			    btf__type_by_id(btf, id)->size, 1, &opts);
	if (fd < 0)
		return errno;
	if (freeze && bpf_map_freeze(fd))
		err = errno;
	close(fd);
	return err;
}

/*
 * A map's graph roots table is a kmalloc() no graph object accounts for:
 * a path that forgets it leaks LEAK_ROUNDS of them (at least 136 bytes
 * each), which the unreclaimable slab shows well above LEAK_KB.
 */
#define LEAK_ROUNDS 20000
#define LEAK_KB 1024

/* The unreclaimable slab in kB (/proc/meminfo), or -1 */
static long sunreclaim_kb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long kb = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "SUnreclaim: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

/* Create the map of case @i LEAK_ROUNDS times more, with the verdict of the
 * first; 0 when every one had it and the slab kept no more than LEAK_KB.
 */
static int create_map_repeatedly(struct btf *btf, unsigned int i, int err,
				 void (*say)(const char *fmt, ...))
{
	long before = sunreclaim_kb(), after = before;
	unsigned int n, tries;

	if (before < 0) {
		say("FAIL: cannot read SUnreclaim from /proc/meminfo");
		return 1;
	}
	for (n = 0; n < LEAK_ROUNDS; n++) {
		int again = create_map(btf, cases[i].map_value, cases[i].map_flags, false);

		if (again != err) {
			say("FAIL: map creation %u: expected %s, actual %s", n + 2,
			    errno_name(err), errno_name(again));
			return 1;
		}
	}
	/* maps are freed from a workqueue: give it a second to catch up */
	for (tries = 0; tries < 10; tries++) {
		after = sunreclaim_kb();
		if (after - before <= LEAK_KB)
			break;
		usleep(100000);
	}
	if (after - before > LEAK_KB) {
		say("FAIL: after %u more map creations: unreclaimable slab grew by %ld kB, expected at most %d kB",
		    LEAK_ROUNDS, after - before, LEAK_KB);
		return 1;
	}
	say("ok: %u more map creations, unreclaimable slab %+ld kB", LEAK_ROUNDS, after - before);
	return 0;
}

/* A tc program: p = bpf_obj_new(struct obj); p->x = 1; bpf_obj_drop(p);
 * loaded with @btf as its BTF, and run once if it loads. The errno of the
 * load (or of the run), or 0.
 */
static int load_obj_new(struct btf *btf)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	int id = btf__find_by_name_kind(btf, "obj", BTF_KIND_STRUCT);
	int func = btf__find_by_name_kind(btf, "prog", BTF_KIND_FUNC);
	int obj_new = -1, obj_drop = -1, fd, err = 0;
	struct bpf_func_info info = { .insn_off = 0 };
	unsigned char frame[64] = {};

	if (vmlinux) {
		obj_new = btf__find_by_name_kind(vmlinux, "bpf_obj_new_impl", BTF_KIND_FUNC);
		obj_drop = btf__find_by_name_kind(vmlinux, "bpf_obj_drop_impl", BTF_KIND_FUNC);
		btf__free(vmlinux);
	}
	if (id < 0 || func < 0 || obj_new < 0 || obj_drop < 0)
		return ENOENT;
	info.type_id = func;
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = id },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2 },
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = obj_new },
		{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = BPF_REG_0, .off = 5 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1, .imm = 1 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = BPF_REG_0, .src_reg = BPF_REG_1 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = BPF_REG_1, .src_reg = BPF_REG_0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_2 },
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = obj_drop },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_btf_fd = btf__fd(btf),
		    .func_info = &info, .func_info_rec_size = sizeof(info), .func_info_cnt = 1);
	LIBBPF_OPTS(bpf_test_run_opts, run, .data_in = frame, .data_size_in = sizeof(frame));

	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "obj_new", "GPL", insns,
			   ARRAY_SIZE(insns), &opts);
	if (fd < 0)
		return errno;
	if (bpf_prog_test_run_opts(fd, &run))
		err = errno;
	close(fd);
	return err;
}

/* The manifest's lines of the BTF cases (scripts/derive_manifest.py). */
void list_btf_cases(FILE *out)
{
	unsigned int i, o;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		fprintf(out, "%s - btf %s\n", cases[i].name, cases[i].expect);
	for (i = 0; i < ARRAY_SIZE(pos_rules); i++)
		for (o = 0; o < ARRAY_SIZE(orders); o++)
			fprintf(out, "btf_pos_%s_%s - btf %s\n", pos_rules[i].name, orders[o],
				pos_rules[i].expect);
}

int run_btf_case(const char *name, const char *expect, void (*say)(const char *fmt, ...))
{
	const struct pos_rule *pos;
	const char *what, *order;
	unsigned int i, e;
	struct btf *btf;
	int err;

	for (e = 0; e < ARRAY_SIZE(errnos); e++)
		if (!strcmp(errnos[e].name, expect))
			break;
	if (e == ARRAY_SIZE(errnos)) {
		say("FAIL: unknown errno %s", expect);
		return 1;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		if (!strcmp(cases[i].name, name))
			break;
	pos = i == ARRAY_SIZE(cases) ? pos_case(name, &order) : NULL;
	if (i == ARRAY_SIZE(cases) && !pos) {
		say("FAIL: no BTF case %s in the loader", name);
		return 1;
	}
	what = pos ? "BTF load" :
	       cases[i].obj_new ? "bpf_obj_new program load" :
	       !cases[i].map_value ? "BTF load" :
	       cases[i].freeze ? "map creation and freeze" : "map creation";
	btf = base_btf();
	if (!btf || btf__type_cnt(btf) != FIRST_FREE) {
		say("FAIL: cannot build the base BTF");
		return 1;
	}
	if (pos)
		add_pos_rule(btf, pos, order);
	else
		cases[i].build(btf);
	err = -btf__load_into_kernel(btf);
	if (!err && !pos && cases[i].map_value)
		err = create_map(btf, cases[i].map_value, cases[i].map_flags,
				 cases[i].freeze);
	if (!err && !pos && cases[i].obj_new)
		err = load_obj_new(btf);
	if (err != errnos[e].err) {
		btf__free(btf);
		say("FAIL: %s: expected %s, actual %s", what, expect, errno_name(err));
		say("actual-error: %s %s", what, errno_name(err));
		return 1;
	}
	if (!pos && cases[i].repeat && create_map_repeatedly(btf, i, err, say)) {
		btf__free(btf);
		return 1;
	}
	btf__free(btf);
	say("ok: %s %s", what, expect);
	return 0;
}

/*
 * For ./run_tests.sh --rbtree-bench: a BTF of @n structs, each with a lock
 * and a root tagged contains:bar:node, and struct bar last, where a walk
 * over all types per root finds it last. Returns how long loading it took
 * (ns), or a negative errno.
 */
long long btf_roots_load_ns(unsigned int n)
{
	struct btf *btf = base_btf();
	struct timespec t0, t1;
	unsigned int i;
	char name[32];
	int err;

	if (!btf)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "owner%u", i);
		STRUCT(btf, name, 24, { "lock", SPIN_LOCK, 0 },
		       { "root", RB_ROOT, 64, "contains:bar:node" });
	}
	STRUCT(btf, "bar", 24, { "node", RB_NODE, 0 });
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = btf__load_into_kernel(btf);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	btf__free(btf);
	if (err)
		return err;
	return (t1.tv_sec - t0.tv_sec) * 1000000000LL + t1.tv_nsec - t0.tv_nsec;
}
