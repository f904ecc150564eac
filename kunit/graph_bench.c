// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of ./run_tests.sh --rbtree-bench: the work the BPF program
 * rbtree_bench_add/_remove does (selftests/progs/rbtree_bench.bpf.c), with
 * the same keys, three times in C: natively (kmalloc, rb_add_cached() with
 * an inlined less(), kfree); with the BPF allocator (bpf_obj_new_impl(),
 * bpf_obj_drop_impl(), migration disabled); and with that and the tree
 * through the series' kfunc bodies (bpf_rbtree_add() calling less()
 * through a pointer, bpf_rbtree_first(), bpf_rbtree_remove()). They split
 * the BPF program's cost into the allocator's, the kfuncs' and the BPF
 * runtime's (bpf_loop(), the helper calls, the JITed less()). Writing
 * "N SEED" to debugfs bpf_graph_bench runs them; reading gives the
 * nanoseconds the N adds and the N removals took in each. A benchmark for
 * test kernels, no test.
 */
#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/rbtree.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include "graph_kunit.h"

struct bench_node {
	long key;
	struct rb_node rb;
};

/* what a program allocates: struct bnode of rbtree_bench.bpf.c */
struct bench_obj {
	long key;
	struct bpf_rb_node rb;
};

static DEFINE_MUTEX(bench_mutex);
static u64 add_ns, remove_ns, alloc_add_ns, alloc_remove_ns, kfunc_add_ns, kfunc_remove_ns;
static u64 bench_n;

/* The keys of rbtree_bench.bpf.c: xorshift32 from the seed. */
static u32 next_key(u32 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

/* The key is the first member of struct bench_node and struct bench_obj. */
static bool bench_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct bench_node, rb)->key <
	       rb_entry(b, struct bench_node, rb)->key;
}

static bool bench_obj_less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct bench_obj, rb)->key <
	       container_of(b, struct bench_obj, rb)->key;
}

/* C with the BPF allocator; with @kfuncs the tree through the kfunc
 * bodies too, which call less() through its pointer, as a program's.
 */
static int bench_run_bpf_parts(u64 n, u32 seed, bool kfuncs, u64 *add, u64 *rem)
{
	struct rb_root_cached tree = RB_ROOT_CACHED;
	struct bpf_rb_root *root = (struct bpf_rb_root *)&tree;
	DEFINE_SPINLOCK(lock);
	struct bench_obj *obj;
	struct rb_node *rb;
	unsigned long flags;
	u64 i, t0, t1, t2;

	migrate_disable();	/* as for a program */
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		obj = bpf_obj_new_impl(sizeof(*obj), NULL);
		if (!obj)
			break;
		obj->key = next_key(&seed);
		spin_lock_irqsave(&lock, flags);
		if (kfuncs)
			bpf_rbtree_add(root, &obj->rb, bench_obj_less);
		else
			rb_add_cached((struct rb_node *)&obj->rb, &tree, bench_less);
		spin_unlock_irqrestore(&lock, flags);
	}
	t1 = ktime_get_ns();
	for (;;) {
		spin_lock_irqsave(&lock, flags);
		if (kfuncs) {
			rb = (struct rb_node *)bpf_rbtree_first(root);
			if (rb)
				bpf_rbtree_remove(root, (struct bpf_rb_node *)rb);
		} else {
			rb = rb_first_cached(&tree);
			if (rb)
				rb_erase_cached(rb, &tree);
		}
		spin_unlock_irqrestore(&lock, flags);
		if (!rb)
			break;
		bpf_obj_drop_impl(container_of((struct bpf_rb_node *)rb, struct bench_obj, rb), NULL);
	}
	t2 = ktime_get_ns();
	migrate_enable();
	if (i < n)
		return -ENOMEM;
	*add = t1 - t0;
	*rem = t2 - t1;
	return 0;
}

static int bench_run(u64 n, u32 seed)
{
	struct rb_root_cached root = RB_ROOT_CACHED;
	DEFINE_SPINLOCK(lock);
	struct bench_node *node;
	struct rb_node *rb;
	unsigned long flags;
	u64 i, t0, t1, t2;

	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		node = kmalloc(sizeof(*node), GFP_ATOMIC);
		if (!node)
			break;
		node->key = next_key(&seed);
		spin_lock_irqsave(&lock, flags);
		rb_add_cached(&node->rb, &root, bench_less);
		spin_unlock_irqrestore(&lock, flags);
	}
	t1 = ktime_get_ns();
	for (;;) {
		spin_lock_irqsave(&lock, flags);
		rb = rb_first_cached(&root);
		if (rb)
			rb_erase_cached(rb, &root);
		spin_unlock_irqrestore(&lock, flags);
		if (!rb)
			break;
		kfree(rb_entry(rb, struct bench_node, rb));
	}
	t2 = ktime_get_ns();
	if (i < n)
		return -ENOMEM;
	add_ns = t1 - t0;
	remove_ns = t2 - t1;
	bench_n = n;
	return 0;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[64];
	u64 n;
	u32 seed;
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%llu %u", &n, &seed) != 2 || !n || !seed)
		return -EINVAL;
	mutex_lock(&bench_mutex);
	err = bench_run(n, seed) ?:
	      bench_run_bpf_parts(n, seed, false, &alloc_add_ns, &alloc_remove_ns) ?:
	      bench_run_bpf_parts(n, seed, true, &kfunc_add_ns, &kfunc_remove_ns);
	mutex_unlock(&bench_mutex);
	return err ?: len;
}

static ssize_t bench_read(struct file *file, char __user *ubuf, size_t len, loff_t *ppos)
{
	char buf[256];
	int n;

	mutex_lock(&bench_mutex);
	n = scnprintf(buf, sizeof(buf),
		      "n %llu\nadd_ns %llu\nremove_ns %llu\nalloc_add_ns %llu\nalloc_remove_ns %llu\n"
		      "kfunc_add_ns %llu\nkfunc_remove_ns %llu\n", bench_n, add_ns, remove_ns,
		      alloc_add_ns, alloc_remove_ns, kfunc_add_ns, kfunc_remove_ns);
	mutex_unlock(&bench_mutex);
	return simple_read_from_buffer(ubuf, len, ppos, buf, n);
}

static const struct file_operations bench_fops = {
	.write = bench_write,
	.read = bench_read,
	.llseek = default_llseek,
};

static int __init graph_bench_init(void)
{
	debugfs_create_file("bpf_graph_bench", 0600, NULL, NULL, &bench_fops);
	return 0;
}
late_initcall(graph_bench_init);
