"""Unit tests for scripts/compare_stats.py: what fails a comparison."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), '..', 'scripts', 'compare_stats.py')
HEADER = 'program,verdict,insns,total_states,peak_states,time_us\n'
BASE = HEADER + 'a,accepted,10,1,1,5\nb,refused,3,0,0,\n'


class Compare(unittest.TestCase):
    def compare(self, new, manifest=None):
        with tempfile.TemporaryDirectory() as d:
            args = []
            for name, text in (('base.csv', BASE), ('new.csv', new), ('tests.list', manifest)):
                if text is None:
                    continue
                args.append(os.path.join(d, name))
                with open(args[-1], 'w') as f:
                    f.write(text)
            return subprocess.run([sys.executable, SCRIPT] + args, capture_output=True, text=True)

    def test_same(self):
        self.assertEqual(self.compare(BASE).returncode, 0)

    def test_verdict_changed(self):
        r = self.compare(HEADER + 'a,accepted,10,1,1,5\nb,accepted,3,0,0,9\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn('VERDICT refused -> accepted', r.stdout)

    def test_missing_program(self):
        r = self.compare(HEADER + 'a,accepted,10,1,1,5\n')
        self.assertEqual(r.returncode, 1)
        self.assertIn('b' + ' ' * 39 + ' missing from this run', r.stdout)

    def test_program_the_run_did_not_select(self):
        r = self.compare(HEADER + 'a,accepted,12,1,1,5\n', '# manifest\na a.bpf.o pass\n')
        self.assertEqual(r.returncode, 0, r.stdout)
        self.assertNotIn('missing', r.stdout)
        self.assertIn('insns 10 -> 12', r.stdout)

    def test_selected_program_missing(self):
        r = self.compare(HEADER + 'a,accepted,10,1,1,5\n', 'a a.bpf.o pass\nb b.bpf.o fail\n')
        self.assertEqual(r.returncode, 1)


if __name__ == '__main__':
    unittest.main()
