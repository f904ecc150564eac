#!/usr/bin/env python3
"""Compare the verifier statistics of a run with a baseline.

Usage: compare_stats.py [--bless] BASE.csv NEW.csv [MANIFEST]

Both files are in veristat's CSV schema (file_name, prog_name, verdict,
total_insns, total_states, peak_states), so `veristat -C BASE.csv NEW.csv`
reads them too. Prints the programs whose verdict, instructions processed
or states differ (with the change in percent), and fails (exit 1) when a
program's verdict changed, a program of the baseline is missing, or a
program is not in the baseline yet. With the run's MANIFEST (a run of
some tests), only the baseline's programs that the run selected count.
--bless writes the run's rows into BASE.csv instead (the programs the run
did not select keep theirs) and passes.
"""
import csv
import sys

FIELDS = ('file_name', 'prog_name', 'verdict', 'total_insns', 'total_states', 'peak_states')
COMPARED = ('total_insns', 'total_states', 'peak_states')


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if rows and tuple(rows[0]) != FIELDS:
        sys.exit(f'{path}: columns {",".join(rows[0])}, not {",".join(FIELDS)}')
    return {row['prog_name']: row for row in rows}


def change(old, new):
    if old == new:
        return None
    if not old or not new:
        return f'{old or "-"} -> {new or "-"}'
    pct = (int(new) - int(old)) * 100.0 / max(int(old), 1)
    return f'{old} -> {new} ({pct:+.1f}%)'


def write(path, rows):
    with open(path, 'w') as f:
        w = csv.DictWriter(f, FIELDS, lineterminator='\n')
        w.writeheader()
        w.writerows(rows[prog] for prog in sorted(rows))


def main():
    args = sys.argv[1:]
    bless = args[:1] == ['--bless']
    args = args[1:] if bless else args
    if len(args) not in (2, 3):
        sys.exit(__doc__)
    base, new = read(args[0]), read(args[1])
    selected = set(base) | set(new)
    if len(args) > 2:
        with open(args[2]) as f:
            selected = {w[0] for w in (line.split('#', 1)[0].split() for line in f) if w}
    if bless:
        kept = {prog: row for prog, row in base.items() if prog not in selected}
        write(args[0], {**kept, **new})
        print(f'compare: {args[0]} blessed with the {len(new)} programs of this run')
        return 0
    base = {prog: row for prog, row in base.items() if prog in selected}
    failed, lines = 0, []
    for prog in sorted(set(base) | set(new)):
        if prog not in new:
            lines.append(f'{prog:40} missing from this run')
            failed = 1
            continue
        if prog not in base:
            lines.append(f'{prog:40} new: {new[prog]["verdict"]}, {new[prog]["total_insns"]} insns '
                         '(not in the baseline: --bless --compare BASE.csv adds it)')
            failed = 1
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
          f'{"FAILED: a verdict changed, or a program is missing or new" if failed else "verdicts unchanged"}')
    return failed


if __name__ == '__main__':
    sys.exit(main())
