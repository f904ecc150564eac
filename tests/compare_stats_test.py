"""Unit tests for scripts/compare_stats.py: what fails a comparison, what --bless writes."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), '..', 'scripts', 'compare_stats.py')
HEADER = 'file_name,prog_name,verdict,total_insns,total_states,peak_states\n'
BASE = HEADER + 'a.bpf.o,a,success,10,1,1\nb.bpf.o,b,failure,3,0,0\n'


class Compare(unittest.TestCase):
    def compare(self, new, manifest=None, *flags):
        with tempfile.TemporaryDirectory() as d:
            args = []
            for name, text in (('base.csv', BASE), ('new.csv', new), ('tests.list', manifest)):
                if text is None:
                    continue
                args.append(os.path.join(d, name))
                with open(args[-1], 'w') as f:
                    f.write(text)
            r = subprocess.run([sys.executable, SCRIPT] + list(flags) + args,
                               capture_output=True, text=True)
            with open(args[0]) as f:
                r.base_after = f.read()
            return r

    def test_same(self):
        self.assertEqual(self.compare(BASE).returncode, 0)

    def test_verdict_changed(self):
        r = self.compare(HEADER + 'a.bpf.o,a,success,10,1,1\nb.bpf.o,b,success,3,0,0\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn('VERDICT failure -> success', r.stdout)

    def test_missing_program(self):
        r = self.compare(HEADER + 'a.bpf.o,a,success,10,1,1\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn('b' + ' ' * 39 + ' missing from this run', r.stdout)

    def test_new_program_fails_until_blessed(self):
        new = BASE + 'c.bpf.o,c,success,7,1,1\n'
        r = self.compare(new)
        self.assertEqual(r.returncode, 1)
        self.assertIn('not in the baseline', r.stdout)
        r = self.compare(new, None, '--bless')
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(r.base_after, new)

    def test_bless_of_a_filtered_run_keeps_the_others(self):
        r = self.compare(HEADER + 'a.bpf.o,a,success,12,1,1\n', 'a a.bpf.o pass\n', '--bless')
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertEqual(r.base_after, HEADER + 'a.bpf.o,a,success,12,1,1\nb.bpf.o,b,failure,3,0,0\n')

    def test_program_the_run_did_not_select(self):
        r = self.compare(HEADER + 'a.bpf.o,a,success,12,1,1\n', '# manifest\na a.bpf.o pass\n')
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertNotIn('missing', r.stdout)
        self.assertIn('total_insns 10 -> 12', r.stdout)

    def test_selected_program_missing(self):
        r = self.compare(HEADER + 'a.bpf.o,a,success,10,1,1\n', 'a a.bpf.o pass\nb b.bpf.o fail\n')
        self.assertEqual(r.returncode, 1)

    def test_other_schema_is_refused(self):
        with tempfile.NamedTemporaryFile('w', suffix='.csv') as f:
            f.write('program,verdict,insns\na,accepted,1\n')
            f.flush()
            r = subprocess.run([sys.executable, SCRIPT, f.name, f.name], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('not file_name,prog_name', r.stderr)


if __name__ == '__main__':
    unittest.main()
