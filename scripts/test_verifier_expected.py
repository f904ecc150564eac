#!/usr/bin/env python3
"""What each test_verifier case variant must report on the patched kernel.

  test_verifier_expected.py CASES RUN-CASES BASELINE CHANGES [PREFIX] > EXPECTED

CASES: `test_verifier --list` ("N<TAB>u|-<TAB>descr"); RUN-CASES: those
the guest runs (all, or a range). BASELINE: the
pristine kernel's signatures ("N/x<TAB>descr<TAB>signature",
scripts/test_verifier_baseline.sh). CHANGES: the verdicts and messages the
series changes on purpose: "N/x<TAB>descr<TAB>NNNN<TAB>signature" lines (NNNN:
the patch that changes it), each group of them after "# " lines that give its
reason (a blank line ends a group);
with PREFIX (--each-patch: the number of patches applied) a change whose
patch is not applied yet is not expected. EXPECTED: "N/x<TAB>signature" for the
guest (runner/test_verifier_run.c). Exits 2 naming the line when the
files disagree with the cases or with each other.
"""
import re
import sys


def fail(msg):
    print(f'error: {msg}', file=sys.stderr)
    sys.exit(2)


def variants(path):
    """{key: descr} in run order"""
    out = {}
    with open(path) as f:
        for line in f:
            n, u, descr = line.rstrip('\n').split('\t', 2)
            for x in ('u', 'p') if u == 'u' else ('p',):
                out[f'{n}/{x}'] = descr
    return out


def entries(path, cases, changes):
    """{key: (first patch, signature)}, each entry checked against the cases"""
    out, reason = {}, []
    form = 'N/x<TAB>descr<TAB>NNNN<TAB>signature' if changes else 'N/x<TAB>descr<TAB>signature'
    with open(path) as f:
        for no, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if line.startswith('#'):
                reason.append(line)
                continue
            if not line.strip():
                reason = []
                continue
            parts = line.split('\t')
            if len(parts) != (4 if changes else 3) or \
               (changes and not re.fullmatch(r'[0-9]{4}', parts[2])):
                fail(f'{path}:{no}: not "{form}"')
            key, descr, sig = parts[0], parts[1], parts[-1]
            first = int(parts[2], 10) if changes else 0
            if cases.get(key) != descr:
                fail(f'{path}:{no}: {key} "{descr}" is no case of this test_verifier '
                     f'(it has {cases.get(key)!r}): made for another corpus?')
            if changes and not reason:
                fail(f'{path}:{no}: {key} has no reason ("# " lines above it)')
            if key in out:
                fail(f'{path}:{no}: {key} listed twice')
            out[key] = (first, sig)
    return out


def main():
    if len(sys.argv) not in (5, 6):
        fail('usage: ' + __doc__.strip().splitlines()[2].strip())
    cases_path, run_path, base_path, changes_path = sys.argv[1:5]
    prefix = int(sys.argv[5]) if len(sys.argv) == 6 else None
    cases = variants(cases_path)
    base = {k: sig for k, (_, sig) in entries(base_path, cases, False).items()}
    changes = entries(changes_path, cases, True)
    missing = [k for k in cases if k not in base]
    if missing:
        fail(f'{base_path}: no baseline for {len(missing)} case variant(s), '
             f'first {missing[0]}: made for another corpus?')
    for key, (first, sig) in changes.items():
        if sig == base[key]:
            fail(f'{changes_path}: {key} lists what the pristine kernel already reports')
        if prefix is None or first <= prefix:
            base[key] = sig
    for key in variants(run_path):
        print(f'{key}\t{base[key]}')


if __name__ == '__main__':
    main()
