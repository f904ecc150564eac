"""Unit tests for scripts/gen_mutants.py: its operators on single lines, and
a whole run over a two-commit repository (pristine, applied)."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'scripts'))
import gen_mutants  # noqa: E402


def ops(line):
    return dict(gen_mutants.line_mutants(line))


class Operators(unittest.TestCase):
    def test_if_is_dropped_and_negated(self):
        m = ops('\tif (a && (b || c)) {')
        self.assertEqual(m['cond-drop'], '\tif (false && (a && (b || c))) {')
        self.assertEqual(m['cond-negate'], '\tif (!(a && (b || c))) {')

    def test_if_spanning_lines_is_left_alone(self):
        self.assertNotIn('cond-drop', ops('\tif (a &&'))

    def test_error_return_becomes_success(self):
        self.assertEqual(ops('\t\treturn -EINVAL;')['err-success'], '\t\treturn 0;')

    def test_comparison_off_by_one_not_in_arrows_or_comments(self):
        self.assertEqual(ops('\tfor (i = 0; i < n; i++)')['off-by-one'],
                         '\tfor (i = 0; i <= n; i++)')
        self.assertNotIn('off-by-one', ops('\tx = p->next;'))
        self.assertEqual(ops('\tint off;\t/* < 0: none */'), {})

    def test_or_assign_sibling_size_offset(self):
        self.assertEqual(ops('\tnode |= f(x);')['or-assign'], '\tnode = f(x);')
        self.assertEqual(ops('\tmemset(p, 0, sizeof(struct bpf_rb_root));')['sibling-size'],
                         '\tmemset(p, 0, sizeof(struct bpf_rb_node));')
        self.assertEqual(ops('\tq = (void *)pos - root->node_offset;')['offset-zero'],
                         '\tq = (void *)pos - 0;')
        self.assertNotIn('offset-zero', ops('\tx = reg->off + reg->var_off.value;'))

    def test_strings_and_comments_are_not_code(self):
        self.assertEqual(ops('\tverbose(env, "if (x < 1)\\n");'), {})
        self.assertEqual(ops(' * if (a) return -EINVAL;'), {})

    def test_free_statements_swap_but_declarations_do_not(self):
        self.assertEqual(gen_mutants.pair_mutants('\tdrain(p);', '\tkfree(p);'),
                         [('swap-free', '\tkfree(p);', '\tdrain(p);')])
        self.assertEqual(gen_mutants.pair_mutants('\tLIST_HEAD(drain);', '\tkfree(p);'), [])
        self.assertEqual(gen_mutants.pair_mutants('\ta = 1;', '\tb = 2;'), [])


def make_repo(d, before, after):
    """A prepared tree in d/src: kernel/f.c as before (pristine), then after."""
    src = os.path.join(d, 'src')
    os.makedirs(os.path.join(src, 'kernel'))
    git = ['git', '-C', src, '-c', 'user.name=t', '-c', 'user.email=t@t']
    path = os.path.join(src, 'kernel', 'f.c')
    with open(path, 'w') as f:
        f.write(before)
    subprocess.run(['git', 'init', '-q', src], check=True)
    subprocess.run(git + ['add', '.'], check=True)
    subprocess.run(git + ['commit', '-qm', 'base'], check=True)
    subprocess.run(git + ['tag', 'pristine'], check=True)
    with open(path, 'w') as f:
        f.write(after)
    subprocess.run(git + ['commit', '-qam', 'bpf: series'], check=True)
    subprocess.run(git + ['commit', '-q', '--allow-empty', '-m', 'harness: x'], check=True)
    subprocess.run(git + ['tag', 'applied'], check=True)
    return src


class Equivalents(unittest.TestCase):
    AFTER = ('int f(int a)\n{\n\tif (a)\n\t\treturn -EINVAL;\n'
             '\tif (a > 2)\n\t\treturn -EINVAL;\n\treturn 1;\n}\n')

    def run_with(self, d, rows):
        src, out = make_repo(d, 'int f(int a)\n{\n\treturn 1;\n}\n', self.AFTER), \
            os.path.join(d, 'out')
        tsv = os.path.join(d, 'eq.tsv')
        with open(tsv, 'w') as f:
            f.write(''.join('\t'.join(r) + '\n' for r in rows))
        gen_mutants.main(src, out, tsv=tsv)
        marked = set()
        for name in os.listdir(out):
            with open(os.path.join(out, name)) as f:
                if f.read().splitlines()[1].startswith('Equivalent: '):
                    marked.add(name)
        return marked

    def test_line_above_tells_identical_lines_apart(self):
        with tempfile.TemporaryDirectory() as d:
            marked = self.run_with(d, [('err-success', 'kernel/f.c', 'return -EINVAL;', 'why',
                                        'if (a > 2)')])
            self.assertEqual(marked, {'gen-f_c-L6-err-success.diff'})

    def test_text_that_marks_two_mutants_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            with self.assertRaises(SystemExit) as e:
                self.run_with(d, [('err-success', 'kernel/f.c', 'return -EINVAL;', 'why')])
            self.assertIn('marks 2 mutants', str(e.exception))


class WholeRun(unittest.TestCase):
    def test_mutants_of_added_lines_only_and_they_apply(self):
        with tempfile.TemporaryDirectory() as d:
            src, out = os.path.join(d, 'src'), os.path.join(d, 'out')
            os.makedirs(os.path.join(src, 'kernel'))
            git = ['git', '-C', src, '-c', 'user.name=t', '-c', 'user.email=t@t']
            path = os.path.join(src, 'kernel', 'f.c')
            with open(path, 'w') as f:
                f.write('int f(int a)\n{\n\tif (a)\n\t\treturn -EINVAL;\n\treturn 1;\n}\n')
            subprocess.run(['git', 'init', '-q', src], check=True)
            subprocess.run(git + ['add', '.'], check=True)
            subprocess.run(git + ['commit', '-qm', 'base'], check=True)
            subprocess.run(git + ['tag', 'pristine'], check=True)
            with open(path, 'w') as f:
                f.write('int f(int a)\n{\n\tif (a)\n\t\treturn -EINVAL;\n'
                        '\tif (a > 2)\n\t\treturn -E2BIG;\n\treturn 1;\n}\n')
            subprocess.run(git + ['commit', '-qam', 'bpf: series'], check=True)
            subprocess.run(git + ['commit', '-q', '--allow-empty', '-m', 'harness: x'],
                           check=True)
            subprocess.run(git + ['tag', 'applied'], check=True)
            subprocess.run([sys.executable, gen_mutants.__file__, src, out], check=True,
                           capture_output=True)
            names = sorted(os.listdir(out))
            self.assertEqual(names, ['gen-f_c-L5-cond-drop.diff', 'gen-f_c-L5-cond-negate.diff',
                                     'gen-f_c-L5-off-by-one.diff',
                                     'gen-f_c-L6-err-success.diff'])
            for name in names:
                with open(os.path.join(out, name)) as f:
                    self.assertTrue(f.readline().startswith('Reason: generated: '))
                    diff = f.read()
                subprocess.run(['git', '-C', src, 'apply', '--check', '-'], input=diff,
                               text=True, check=True)
            # a sample is a subset of the same names, and the same one each time
            samples = []
            for _ in range(2):
                subprocess.run([sys.executable, gen_mutants.__file__, src, out, '2'],
                               check=True, capture_output=True)
                samples.append(sorted(os.listdir(out)))
            self.assertEqual(len(samples[0]), 2)
            self.assertTrue(set(samples[0]) <= set(names))
            self.assertEqual(samples[0], samples[1])
            # a listed equivalent gets its line, by the line's text; a bad row stops
            tsv = os.path.join(d, 'eq.tsv')
            with open(tsv, 'w') as f:
                f.write('# op, file, line, why\n'
                        'err-success\tkernel/f.c\treturn -E2BIG;\tnothing calls f\n')
            gen_mutants.main(src, out, tsv=tsv)
            for name in os.listdir(out):
                with open(os.path.join(out, name)) as f:
                    second = f.read().splitlines()[1]
                self.assertEqual(second.startswith('Equivalent: '), 'err-success' in name, name)
                if 'err-success' in name:
                    self.assertEqual(second, 'Equivalent: nothing calls f')
            with open(tsv, 'a') as f:
                f.write('off-by-one\tkernel/f.c\n')
            with self.assertRaises(SystemExit) as e:
                gen_mutants.main(src, out, tsv=tsv)
            self.assertIn('eq.tsv:3', str(e.exception))


if __name__ == '__main__':
    unittest.main()
