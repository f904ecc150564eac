"""Unit tests for scripts/test_verifier_expected.py on a synthetic corpus."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), '..', 'scripts', 'test_verifier_expected.py')
CASES = '0\tu\tfirst case\n1\t-\tsecond case\n'
BASE = '# header\n0/u\tfirst case\tOK\n0/p\tfirst case\tOK\n1/p\tsecond case\tSKIP\n'


class Expected(unittest.TestCase):
    def run_script(self, changes, run_cases=CASES, base=BASE, *prefix):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, text in (('cases', CASES), ('run', run_cases), ('base', base),
                               ('changes', changes)):
                paths.append(os.path.join(d, name))
                with open(paths[-1], 'w') as f:
                    f.write(text)
            return subprocess.run([sys.executable, SCRIPT] + paths + list(prefix),
                                  capture_output=True, text=True)

    def test_baseline_with_a_listed_change(self):
        r = self.run_script('# header\n\n# the message is 6.2\'s\n0/p\tfirst case\t0004\tFAIL x\n')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '0/u\tOK\n0/p\tFAIL x\n1/p\tSKIP\n')

    def test_a_change_before_its_patch_is_not_expected(self):
        changes = '# why\n0/p\tfirst case\t0004\tFAIL x\n'
        r = self.run_script(changes, CASES, BASE, '3')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '0/u\tOK\n0/p\tOK\n1/p\tSKIP\n')
        r = self.run_script(changes, CASES, BASE, '4')
        self.assertIn('0/p\tFAIL x\n', r.stdout)

    def test_a_change_without_its_patch_is_refused(self):
        r = self.run_script('# why\n0/p\tfirst case\tFAIL x\n')
        self.assertEqual(r.returncode, 2)
        self.assertIn('not "N/x<TAB>descr<TAB>NNNN<TAB>signature"', r.stderr)

    def test_a_range_of_the_corpus(self):
        r = self.run_script('', run_cases='1\t-\tsecond case\n')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '1/p\tSKIP\n')

    def test_one_reason_for_a_group_of_changes(self):
        r = self.run_script('# why\n0/u\tfirst case\t0004\tFAIL x\n0/p\tfirst case\t0004\tFAIL x\n')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '0/u\tFAIL x\n0/p\tFAIL x\n1/p\tSKIP\n')

    def test_a_change_without_reason_is_refused(self):
        r = self.run_script('# header\n\n0/p\tfirst case\t0004\tFAIL x\n')
        self.assertEqual(r.returncode, 2)
        self.assertIn('0/p has no reason', r.stderr)

    def test_a_change_of_another_corpus_is_refused(self):
        r = self.run_script('# why\n0/p\tanother case\t0004\tFAIL x\n')
        self.assertEqual(r.returncode, 2)
        self.assertIn('is no case of this test_verifier', r.stderr)

    def test_a_change_that_changes_nothing_is_refused(self):
        r = self.run_script('# why\n1/p\tsecond case\t0004\tSKIP\n')
        self.assertEqual(r.returncode, 2)
        self.assertIn('already reports', r.stderr)

    def test_a_baseline_that_misses_a_variant_is_refused(self):
        r = self.run_script('', base=BASE.replace('0/u\tfirst case\tOK\n', ''))
        self.assertEqual(r.returncode, 2)
        self.assertIn('no baseline for 1 case variant(s), first 0/u', r.stderr)


if __name__ == '__main__':
    unittest.main()
