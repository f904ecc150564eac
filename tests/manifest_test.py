"""Unit tests for scripts/manifest.py: manifest lines and KUnit suite names."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'scripts'))
import manifest  # noqa: E402


class Parse(unittest.TestCase):
    def test_entries_skip_comments_and_keep_their_line(self):
        lines = ['# header\n', '\n', 'a a.bpf.o pass @retval=0 x=1  # note\n', 'b - btf EINVAL\n']
        self.assertEqual(list(manifest.parse(lines)),
                         [manifest.Entry(2, 'a', 'a.bpf.o', 'pass', ['@retval=0', 'x=1']),
                          manifest.Entry(3, 'b', '-', 'btf', ['EINVAL'])])

    def test_a_line_without_a_mode_is_refused(self):
        with self.assertRaisesRegex(ValueError, 'manifest line 1: NAME OBJECT MODE expected'):
            list(manifest.parse(['a a.bpf.o\n']))

    def test_suites_of_a_source(self):
        src = 'static struct kunit_suite s1 = {\n\t.name = "bpf_graph_obj",\n};\n' \
              'static struct kunit_suite s2 = { .name = "two" };\n'
        self.assertEqual(manifest.suites_of(src), ['bpf_graph_obj', 'two'])


if __name__ == '__main__':
    unittest.main()
