"""Unit tests for scripts/upstream_manifest.py's reading of prog_tests tables."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'scripts'))
from upstream_manifest import table_messages  # noqa: E402

# The shape of 6.3's prog_tests/linked_list.c: a table built with a macro,
# braces and a "}" inside its strings, and a table of something else.
RUNNER = r'''
static struct {
	const char *prog_name;
	const char *err_msg;
} linked_list_fail_tests[] = {
#define TEST(test, off) \
	{ #test "_missing_lock_push_front", \
	  "bpf_spin_lock at off=" #off " must be held for bpf_list_head" },
	TEST(kptr, 32)
	TEST(global, 16)
#undef TEST
	{ "map_compat_kprobe", "tracing progs cannot use bpf_{list_head,rb_root} yet" },
	{ "odd", "a } alone, and a \\\" quote" },
};

static struct {
	int a;
	const char *b;
} other[] = { { 1, "x" } };

void test_linked_list(void) { }
'''


class Tables(unittest.TestCase):
    def test_macro_table(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'linked_list.c')
            with open(path, 'w') as f:
                f.write(RUNNER)
            msgs = table_messages(path)
        self.assertEqual(msgs, {
            'kptr_missing_lock_push_front': 'bpf_spin_lock at off=32 must be held for bpf_list_head',
            'global_missing_lock_push_front': 'bpf_spin_lock at off=16 must be held for bpf_list_head',
            'map_compat_kprobe': 'tracing progs cannot use bpf_{list_head,rb_root} yet',
            'odd': 'a } alone, and a \\" quote',
        })


if __name__ == '__main__':
    unittest.main()
