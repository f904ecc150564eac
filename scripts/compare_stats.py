#!/usr/bin/env python3
"""Compare the verifier statistics of a run with a baseline.

Usage: compare_stats.py BASE.csv NEW.csv [MANIFEST]
Prints a table of the programs whose verdict, instructions processed or
states differ (with the change in percent), and fails (exit 1) when a
program's verdict changed or a program of the baseline is missing. With
the run's MANIFEST (a run of some tests), only the baseline's programs
that the run selected can be missing.
Verification time is shown but never compared: it is TCG wall clock.
"""
import csv
import sys

COMPARED = ('insns', 'total_states', 'peak_states')


def read(path):
    with open(path) as f:
        return {row['program']: row for row in csv.DictReader(f)}


def change(old, new):
    if old == new:
        return None
    if not old or not new:
        return f'{old or "-"} -> {new or "-"}'
    pct = (int(new) - int(old)) * 100.0 / max(int(old), 1)
    return f'{old} -> {new} ({pct:+.1f}%)'


def main():
    base, new = read(sys.argv[1]), read(sys.argv[2])
    if len(sys.argv) > 3:
        with open(sys.argv[3]) as f:
            selected = {line.split()[0] for line in f if line.strip() and not line.startswith('#')}
        base = {prog: row for prog, row in base.items() if prog in selected}
    failed, lines = 0, []
    for prog in sorted(set(base) | set(new)):
        if prog not in new:
            lines.append(f'{prog:40} missing from this run')
            failed = 1
            continue
        if prog not in base:
            lines.append(f'{prog:40} new: {new[prog]["verdict"]}, {new[prog]["insns"]} insns')
            continue
        b, n = base[prog], new[prog]
        if b['verdict'] != n['verdict']:
            lines.append(f'{prog:40} VERDICT {b["verdict"]} -> {n["verdict"]}')
            failed = 1
        diffs = [f'{k} {c}' for k in COMPARED if (c := change(b[k], n[k]))]
        if diffs:
            lines.append(f'{prog:40} ' + ', '.join(diffs))
    print('\n'.join(lines) if lines else 'compare: no differences in verdicts, insns or states')
    print(f'compare: {len(new)} programs, {len(lines)} differ, '
          f'{"FAILED: a verdict changed or a program is missing" if failed else "verdicts unchanged"}')
    return failed


if __name__ == '__main__':
    sys.exit(main())
