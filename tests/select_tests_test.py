"""Unit tests for scripts/select_tests.py: a glob that names nothing is
refused; a prefix of the series runs the tests that apply to it."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), '..', 'scripts', 'select_tests.py')


class Select(unittest.TestCase):
    def run_glob(self, glob, *extra, unbuilt=None):
        """(exit code, stderr, the run's kunit glob) of a selection with
        @glob and the options @extra; @unbuilt: the text of a vmlinux/ source
        given to --unbuilt"""
        with tempfile.TemporaryDirectory() as d:
            manifest = os.path.join(d, 'tests.list')
            with open(manifest, 'w') as f:
                f.write('rbtree_add rbtree.bpf.o pass\nlist_push list.bpf.o fail\n')
            os.makedirs(os.path.join(d, 'kunit'))
            with open(os.path.join(d, 'kunit', 'a_kunit.c'), 'w') as f:
                f.write('static struct kunit_case c[] = {\n\tKUNIT_CASE(push_front),\n'
                        '\tKUNIT_CASE_PARAM(pop_back, gen),\n\t{}\n};\n'
                        'static struct kunit_suite s = {\n\t.name = "bpf_graph_list",\n};\n')
            if unbuilt is not None:
                src = os.path.join(d, 'rbtree_vm.bpf.c')
                with open(src, 'w') as f:
                    f.write(unbuilt)
                extra += ('--unbuilt', src)
            out, kglob = os.path.join(d, 'out'), os.path.join(d, 'kglob')
            r = subprocess.run([sys.executable, SCRIPT, '--manifest', manifest, '--kunit-dir',
                                os.path.join(d, 'kunit'), '--glob', glob, '--out', out,
                                '--kunit-glob-out', kglob, *extra], capture_output=True, text=True)
            k = open(kglob).read() if os.path.exists(kglob) else None
            return r.returncode, r.stderr, k

    def test_selftest_glob_selects_the_bridge(self):
        self.assertEqual(self.run_glob('rbtree_*')[::2], (0, 'bpf_graph_progs.bpf_prog'))

    def test_kunit_suite_and_case_globs_pass_through(self):
        self.assertEqual(self.run_glob('bpf_graph_list')[::2], (0, 'bpf_graph_list'))
        self.assertEqual(self.run_glob('bpf_graph_list.push_*')[::2], (0, 'bpf_graph_list.push_*'))
        self.assertEqual(self.run_glob('bpf_graph_list.pop_back')[::2],
                         (0, 'bpf_graph_list.pop_back'))

    def test_glob_that_names_nothing_is_refused(self):
        rc, err, kglob = self.run_glob('no_such_test')
        self.assertEqual(rc, 2)
        self.assertIn('no selftest and no KUnit suite matches no_such_test', err)
        self.assertIsNone(kglob)

    def test_case_glob_that_names_no_case_is_refused(self):
        rc, err, _ = self.run_glob('bpf_graph_list.no_such_case')
        self.assertEqual(rc, 2)
        self.assertIn('matches bpf_graph_list.no_such_case', err)

    def test_empty_case_glob_is_refused(self):
        self.assertEqual(self.run_glob('bpf_graph_list.')[0], 2)

    def test_check_lets_a_name_of_an_unbuilt_upstream_file_through(self):
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, 'rbtree_fail.c')
            with open(src, 'w') as f:
                f.write('int rbtree_api_nolock(void *ctx);\n')
            self.assertEqual(self.run_glob('rbtree_fail:rbtree_api_*', '--check',
                                           '--unbuilt', src)[0], 0)
            self.assertEqual(self.run_glob('rbtree_api_*', '--check', '--unbuilt', src)[0], 2)

    def test_check_refuses_before_the_build(self):
        rc, err, kglob = self.run_glob('no_such_test', '--check', unbuilt='int prog_a(void);\n')
        self.assertEqual(rc, 2)
        self.assertIn('no selftest and no KUnit suite matches no_such_test', err)
        self.assertIsNone(kglob)

    def test_check_lets_a_name_of_an_unbuilt_source_through(self):
        self.assertEqual(self.run_glob('prog_*', '--check', unbuilt='int prog_a(void);\n')[:2],
                         (0, ''))
        self.assertEqual(self.run_glob('list_push', '--check', unbuilt='')[:2], (0, ''))


class Prefix(unittest.TestCase):
    MANIFEST = ('# header\n'
                'early a.bpf.o pass\n'          # first patch 3
                'late a.bpf.o pass\n'           # first patch 7
                'unlisted a.bpf.o fail\n'       # the last patch (9)
                'unbuilt b.bpf.o pass\n'        # first patch 2, no object
                'btf_case - btf EINVAL\n'       # first patch 1, no object needed
                'mutate_a a.bpf.o mutate 1 2\n')  # whole-series only

    def select(self, prefix, *extra):
        """(names run, names not built) at @prefix of 9 patches"""
        with tempfile.TemporaryDirectory() as d:
            paths = {n: os.path.join(d, n) for n in ('tests.list', 'firsts', 'out', 'kglob', 'nb')}
            with open(paths['tests.list'], 'w') as f:
                f.write(self.MANIFEST)
            with open(paths['firsts'], 'w') as f:
                f.write('# c\nbtf_case 0001\nunbuilt 0002\nearly 0003\nlate 0007\n')
            open(os.path.join(d, 'a.bpf.o'), 'w').close()
            r = subprocess.run([sys.executable, SCRIPT, '--manifest', paths['tests.list'],
                                '--out', paths['out'], '--kunit-glob-out', paths['kglob'],
                                '--prefix', str(prefix), '--last', '9',
                                '--first-patch', paths['firsts'], '--objects', d,
                                '--not-built-out', paths['nb']] + list(extra),
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(paths['out']) as f:
                run = [line.split()[0] for line in f if not line.startswith('#')]
            with open(paths['nb']) as f:
                return run, f.read().split()

    def test_a_test_runs_from_its_first_patch(self):
        self.assertEqual(self.select(3), (['early', 'btf_case'], ['unbuilt']))
        self.assertEqual(self.select(1), (['btf_case'], []))

    def test_the_last_patch_runs_everything_that_built(self):
        self.assertEqual(self.select(9), (['early', 'late', 'unlisted', 'btf_case', 'mutate_a'],
                                          ['unbuilt']))

    def test_every_test_runs_those_still_to_come(self):
        self.assertEqual(self.select(3, '--every-test'),
                         (['early', 'late', 'unlisted', 'btf_case'], ['unbuilt']))


if __name__ == '__main__':
    unittest.main()
