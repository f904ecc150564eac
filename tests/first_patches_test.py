"""Unit tests for scripts/first_patches.py on synthetic --each-patch statuses."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(__file__), '..', 'scripts', 'first_patches.py')


class FirstPatches(unittest.TestCase):
    def bless(self, old_list, runs):
        """Run first_patches.py over {prefix: {test: status}}; the new list."""
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'first-patch.list')
            with open(out, 'w') as f:
                f.write(old_list)
            files = []
            for prefix, statuses in runs.items():
                os.makedirs(os.path.join(d, f'{prefix:04d}-p'))
                path = os.path.join(d, f'{prefix:04d}-p', 'statuses')
                with open(path, 'w') as f:
                    f.write(''.join(f'{t} {s}\n' for t, s in statuses.items()))
                files.append(path)
            subprocess.run([sys.executable, SCRIPT, out] + files, check=True,
                           capture_output=True)
            with open(out) as f:
                return [line for line in f.read().splitlines() if not line.startswith('#')]

    def test_first_prefix_of_an_unbroken_run_of_passes(self):
        lines = self.bless('', {1: {'a': 'FAIL', 'b': 'PASS'},
                                2: {'a': 'PASS', 'b': 'FAIL'},
                                3: {'a': 'PASS', 'b': 'PASS'}})
        self.assertEqual(lines, ['a 0002'])     # b needs the whole series

    def test_two_statuses_files_of_one_prefix_are_refused(self):
        # results of a renamed patch left behind next to the current ones
        with tempfile.TemporaryDirectory() as d:
            files = []
            for name in ('0001-old-name', '0001-new-name'):
                os.makedirs(os.path.join(d, name))
                files.append(os.path.join(d, name, 'statuses'))
                with open(files[-1], 'w') as f:
                    f.write('a PASS\n')
            p = subprocess.run([sys.executable, SCRIPT, os.path.join(d, 'out')] + files,
                               capture_output=True, text=True)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn('two statuses files for one prefix', p.stderr)


if __name__ == '__main__':
    unittest.main()
