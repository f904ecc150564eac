"""Unit tests for scripts/select_tests.py: a glob that names nothing is refused."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), '..', 'scripts', 'select_tests.py')


class Select(unittest.TestCase):
    def run_glob(self, glob):
        """(exit code, stderr, the run's kunit glob) of a selection with @glob"""
        with tempfile.TemporaryDirectory() as d:
            manifest = os.path.join(d, 'tests.list')
            with open(manifest, 'w') as f:
                f.write('rbtree_add rbtree.bpf.o pass\nlist_push list.bpf.o fail\n')
            os.makedirs(os.path.join(d, 'kunit'))
            with open(os.path.join(d, 'kunit', 'a_kunit.c'), 'w') as f:
                f.write('static struct kunit_suite s = {\n\t.name = "bpf_graph_list",\n};\n')
            out, kglob = os.path.join(d, 'out'), os.path.join(d, 'kglob')
            r = subprocess.run([sys.executable, SCRIPT, '--manifest', manifest, '--kunit-dir',
                                os.path.join(d, 'kunit'), '--glob', glob, '--out', out,
                                '--kunit-glob-out', kglob], capture_output=True, text=True)
            k = open(kglob).read() if os.path.exists(kglob) else None
            return r.returncode, r.stderr, k

    def test_selftest_glob_selects_the_bridge(self):
        self.assertEqual(self.run_glob('rbtree_*')[::2], (0, 'bpf_graph_progs.bpf_prog'))

    def test_kunit_suite_and_case_globs_pass_through(self):
        self.assertEqual(self.run_glob('bpf_graph_list')[::2], (0, 'bpf_graph_list'))
        self.assertEqual(self.run_glob('bpf_graph_list.push_*')[::2], (0, 'bpf_graph_list.push_*'))

    def test_glob_that_names_nothing_is_refused(self):
        rc, err, kglob = self.run_glob('no_such_test')
        self.assertEqual(rc, 2)
        self.assertIn('no selftest and no KUnit suite matches no_such_test', err)
        self.assertIsNone(kglob)


if __name__ == '__main__':
    unittest.main()
