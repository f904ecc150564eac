#!/usr/bin/env python3
"""Unit tests of scripts/derive_manifest.py: BPF objects built with clang
from small sources with selftests/bpf_misc.h annotations (no kernel needed)."""
import os
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DERIVE = os.path.join(REPO, 'scripts', 'derive_manifest.py')

PRELUDE = '#include "bpf_misc.h"\n#define SEC(s) __attribute__((section(s), used))\nint g;\n'


class DeriveManifest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def derive(self, *sources, names=()):
        """Build one object per source (o0.bpf.o, ..., or NAME.bpf.o of
        @names) and derive; (rc, out, err)."""
        objs = []
        for i, body in enumerate(sources):
            name = names[i] if i < len(names) else f'o{i}'
            src = os.path.join(self.dir.name, f'{name}.bpf.c')
            with open(src, 'w') as f:
                f.write(PRELUDE + body)
            objs.append(src[:-2] + '.o')
            subprocess.run(['clang', '-g', '-O2', '-target', 'bpf', '-I',
                            os.path.join(REPO, 'selftests'), '-c', src, '-o', objs[-1]],
                           check=True)
        p = subprocess.run([sys.executable, DERIVE, 'true'] + objs,
                           capture_output=True, text=True)
        lines = [line for line in p.stdout.splitlines() if not line.startswith('#')]
        return p.returncode, lines, p.stderr

    def test_failure(self):
        rc, lines, _ = self.derive('SEC("?tc") __description("d") __failure __msg("x")\n'
                                   'int p(void *c) { return 0; }\n')
        self.assertEqual((rc, lines), (0, ['p o0.bpf.o fail']))

    def test_success_kinds(self):
        rc, lines, _ = self.derive(
            'SEC("tc") __success int l(void *c) { return 0; }\n'
            'SEC("tc") __success __retval(0) __global_eq(g, 1) __live(2) int r(void *c) { return 0; }\n'
            'SEC("tc") __success __retval(3) int t(void *c) { return 3; }\n')
        self.assertEqual(rc, 0)
        self.assertEqual(sorted(lines), ['l o0.bpf.o load', 'r o0.bpf.o pass g=1 @live=2',
                                         't o0.bpf.o pass @retval=3'])

    def test_other_kinds(self):
        rc, lines, _ = self.derive(
            'SEC("tc") __stress(d, 5) int s(void *c) { return 0; }\n'
            'SEC("tc") __success __failslab(9) int f(void *c) { return 0; }\n'
            'char _license[] SEC("license") __mutants(1, 2) = "GPL";\n')
        self.assertEqual(rc, 0)
        self.assertEqual(sorted(lines), ['f o0.bpf.o load', 'failslab_o0 o0.bpf.o failslab f 9',
                                         'mutate_o0 o0.bpf.o mutate 1 2',
                                         's o0.bpf.o stress d 5'])

    def test_refused(self):
        cases = {
            '__success __global_eq(g, 1)': 'checks after the run need __retval',
            '__failure __retval(0)': '__retval and checks after the run need __success',
            '__success __msg("x")': '__msg and __log_level are checked only with __failure',
            '__failure __success': 'both __failure and __success',
            '__success __retval(0) __retval(1)': 'more than one __retval',
            '__attribute__((btf_decl_tag("comment:test_expect_falure")))': 'unknown annotation',
            '__success __tail_call(m, t)': '__tail_call needs __retval(N)',
            '__success __retval(0) __replaces(t, f)': '__replaces takes no __retval',
        }
        for tags, reason in cases.items():
            with self.subTest(tags=tags):
                rc, lines, err = self.derive(f'SEC("tc") {tags} int p(void *c) {{ return 0; }}\n')
                self.assertNotEqual(rc, 0, f'accepted: {lines}')
                self.assertIn(f'p: {reason}', err)

    def test_same_name_twice(self):
        src = 'SEC("tc") __failure int p(void *c) { return 0; }\n'
        rc, _, err = self.derive(src, src)
        self.assertNotEqual(rc, 0)
        self.assertIn('tests named twice: p', err)

    def test_upstream_file_named_apart(self):
        # vmlinux/rbtree_fail.c, a file of upstream's, builds rbtree_fail.c.bpf.o
        src = 'SEC("?tc") __failure __msg("x") int p(void *c) { return 0; }\n'
        rc, lines, err = self.derive(src, src, names=('rbtree_fail', 'rbtree_fail.c'))
        self.assertEqual((rc, err), (0, ''))
        self.assertEqual(sorted(lines), ['p rbtree_fail.bpf.o fail',
                                         'rbtree_fail:p rbtree_fail.c.bpf.o fail'])

    def test_upstream_file_without_annotations(self):
        rc, lines, err = self.derive('SEC("tc") int p(void *c) { return 0; }\n',
                                     names=('rbtree.c',))
        self.assertNotEqual(rc, 0, f'accepted: {lines}')
        self.assertIn('rbtree.c.bpf.o: no program has a test annotation', err)


class OneSourcePerMessage(unittest.TestCase):
    """check_logs(): a log beside a __msg, or of no failing program, stops the manifest."""

    def check(self, logs, msg_progs, failing):
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'scripts'))
        import derive_manifest
        derive_manifest.MSG_PROGS.clear()
        derive_manifest.MSG_PROGS.update(msg_progs)
        with tempfile.TemporaryDirectory() as d:
            for name in logs:
                open(os.path.join(d, name + '.log'), 'w').close()
            try:
                derive_manifest.check_logs(d, set(failing))
            except SystemExit as e:
                return str(e)
        return None

    def test_log_of_a_program_without_msg(self):
        self.assertIsNone(self.check(['a'], [], ['a', 'b']))

    def test_log_beside_msg(self):
        self.assertIn('a: both __msg and', self.check(['a'], ['a'], ['a']))

    def test_orphan_log(self):
        self.assertIn('no failing program gone (an orphan)', self.check(['gone'], [], ['a']))


if __name__ == '__main__':
    unittest.main()
