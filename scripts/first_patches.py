#!/usr/bin/env python3
"""Write tests/first-patch.list from the statuses of an --each-patch run.

Usage: first_patches.py OUTPUT STATUSES...   (one STATUSES file per prefix,
NNNN-*/statuses, in series order, the whole series). A test's first patch
is the first prefix from which it passes at every later prefix; a test
that passes only with the whole series is left out (that is the default).
"""
import os
import sys


def main():
    out, files = sys.argv[1], sys.argv[2:]
    runs = []
    for path in files:
        prefix = int(os.path.basename(os.path.dirname(path))[:4], 10)
        with open(path) as f:
            runs.append((prefix, dict(line.rsplit(None, 1) for line in f if line.strip())))
    runs.sort(key=lambda run: run[0])
    prefixes = [prefix for prefix, _ in runs]
    if len(set(prefixes)) != len(prefixes):
        sys.exit('first_patches.py: two statuses files for one prefix: ' + ' '.join(files))
    last, final = runs[-1]
    firsts = {}
    for name, status in final.items():
        # test_verifier's cases are checked exactly at every prefix
        if status != 'PASS' or name.startswith('bpf_test_verifier.'):
            continue
        first = last
        for prefix, statuses in reversed(runs[:-1]):
            if statuses.get(name) != 'PASS':
                break
            first = prefix
        if first < last:
            firsts[name] = first
    with open(out, 'w') as f:
        f.write('# The first patch each test passes with, at that prefix and every later\n'
                '# one (./run_tests.sh --each-patch); a test not listed needs the whole\n'
                '# series. Written by ./run_tests.sh --each-patch --bless; review the diff.\n')
        for name in sorted(firsts, key=lambda n: (firsts[n], n)):
            f.write(f'{name} {firsts[name]:04d}\n')
    print(f'first-patch: {len(firsts)} tests apply before the last patch, written to {out}')


if __name__ == '__main__':
    main()
