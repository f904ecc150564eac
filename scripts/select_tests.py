#!/usr/bin/env python3
"""Choose the tests of a run, or list them.

  select_tests.py --manifest M [--denylist D] [--glob G] --out OUT --kunit-glob-out F
      Write to OUT the manifest M without the selftests of the denylist D
      (each reported with its reason) and, when G matches names of
      selftests, only those; write to F the kunit.py filter glob of the
      run: the bridge's case when G chose selftests, else G. With
      --kunit-dir K, a G that matches no selftest and no KUnit suite of
      K/*.c (SUITE or SUITE.CASE) is refused (exit 2).
      With --prefix N --last L --first-patch F --objects O --not-built-out B
      (a prefix of the series, patches 1..N of L: --each-patch), only the
      tests that apply there: before the last patch not the mutated and
      generated programs (whole-series tests) and not the tests whose first
      patch in F is still to come (--every-test keeps them, to find where
      each starts to pass); a test whose object is not in O did not build,
      its name goes to B.
  select_tests.py --check --kunit-dir K --manifest M --glob G [--unbuilt SRC...]
      Before the kernel is built: exit 2 when G matches no selftest of M
      (the programs built without a kernel), no KUnit suite of K and no
      name that the C sources SRC (programs still to build, vmlinux/) could
      define: any of their identifiers, NAME:identifier for a file NAME.c
      of upstream's.
  select_tests.py --list --kunit-dir K --manifest M [--glob G]
      Print the KUnit suites of K/*.c and the selftests of M (matching G).
"""
import argparse
import fnmatch
import glob as globmod
import os
import re
import sys

import manifest

BRIDGE_GLOB = 'bpf_graph_progs.bpf_prog'


def kunit_suites(kunit_dir, glob=''):
    """The names of the KUnit suites of kunit_dir/*.c; with glob SUITE[.CASE]
    those matching SUITE that have a case matching CASE (as kunit.py's
    filter_glob: a suite's cases are the KUNIT_CASE*() of its file)"""
    suite_glob, dot, case_glob = glob.partition('.')
    if dot and not case_glob:
        return  # "SUITE.": kunit.py matches no case against ""
    for path in sorted(globmod.glob(os.path.join(kunit_dir, '*.c'))):
        with open(path) as f:
            source = f.read()
        cases = manifest.cases_of(source)
        for suite in manifest.suites_of(source):
            if not glob or fnmatch.fnmatch(suite, suite_glob) and \
                    (not case_glob or fnmatch.filter(cases, case_glob)):
                yield suite


IDENT_RE = re.compile(r'\b[A-Za-z_]\w*')


def names_in_sources(paths):
    """Every name a program of the C sources @paths could have: each
    identifier, as NAME:identifier for NAME.c, a file of upstream's."""
    for path in paths:
        with open(path) as f:
            idents = set(IDENT_RE.findall(f.read()))
        base = os.path.basename(path)
        upstream = '' if base.endswith('.bpf.c') else base[:-len('.c')] + ':'
        yield from (upstream + ident for ident in idents)


def no_match(glob):
    print(f'error: no selftest and no KUnit suite matches {glob} '
          '(./run_tests.sh --list shows the names)', file=sys.stderr)
    return 2


def read_denylist(path):
    deny = {}
    if not path or not os.path.exists(path):
        return deny
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            name, _, reason = line.partition('#')
            if not name.strip() or not reason.strip():
                sys.exit(f'{path}:{n}: a denylist entry needs a name and "# reason"')
            deny[name.strip()] = reason.strip()
    return deny


def prefix_lines(args, lines, entries):
    """@lines without the tests that do not apply at prefix --prefix."""
    firsts = manifest.read_first_patches(args.first_patch)
    whole = args.prefix == args.last
    drop, not_built = set(), []
    for e in entries:
        if not whole and (e.mode in ('mutate', 'gen') or
                          not args.every_test and firsts.get(e.name, args.last) > args.prefix):
            drop.add(e.line)
        elif e.obj != '-' and not os.path.exists(os.path.join(args.objects, e.obj)):
            drop.add(e.line)
            not_built.append(e.name + '\n')
    with open(args.not_built_out, 'w') as f:
        f.writelines(not_built)
    return [line for i, line in enumerate(lines) if i not in drop]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--manifest', required=True)
    ap.add_argument('--denylist')
    ap.add_argument('--glob', default='')
    ap.add_argument('--out')
    ap.add_argument('--kunit-glob-out')
    ap.add_argument('--denied-out', help='write "NAME<TAB>REASON" per denylisted selftest here')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('--check', action='store_true',
                    help='only refuse a --glob that nothing can match (exit 2)')
    ap.add_argument('--unbuilt', nargs='*', default=[],
                    help='with --check: C sources of programs not built yet')
    ap.add_argument('--prefix', type=int, help='the series applied up to this patch')
    ap.add_argument('--last', type=int, help='with --prefix: the number of patches')
    ap.add_argument('--first-patch', help='with --prefix: tests/first-patch.list')
    ap.add_argument('--every-test', action='store_true',
                    help='with --prefix: also the tests whose first patch is to come')
    ap.add_argument('--objects', help='with --prefix: the directory of the built objects')
    ap.add_argument('--not-built-out', help='with --prefix: the tests whose object did not build')
    ap.add_argument('--kunit-dir')
    args = ap.parse_args()

    with open(args.manifest) as f:
        lines = f.readlines()
    entries = list(manifest.parse(lines))
    if args.prefix:
        lines = prefix_lines(args, lines, entries)
        entries = list(manifest.parse(lines))
    tests = [(e.line, e.name, e.mode) for e in entries]

    if args.list:
        for suite in kunit_suites(args.kunit_dir, args.glob):
            print(f'kunit     {suite}')
        for _, name, mode in tests:
            if not args.glob or fnmatch.fnmatch(name, args.glob):
                print(f'selftest  {name} ({mode})')
        return 0

    chosen = {name for _, name, _ in tests if args.glob and fnmatch.fnmatch(name, args.glob)}
    if args.glob and not chosen and args.kunit_dir and \
            not any(kunit_suites(args.kunit_dir, args.glob)):
        if not args.check or \
                not fnmatch.filter(names_in_sources(args.unbuilt), args.glob):
            return no_match(args.glob)
    if args.check:
        return 0
    kunit_glob = BRIDGE_GLOB if chosen else args.glob
    deny = read_denylist(args.denylist)
    drop, denied = set(), []
    for i, name, _ in tests:
        if chosen and name not in chosen:
            drop.add(i)
        elif name in deny:
            print(f'denylisted: {name}: {deny[name]}')
            drop.add(i)
            denied.append(f'{name}\t{deny[name]}\n')
    if args.denied_out:
        with open(args.denied_out, 'w') as f:
            f.writelines(denied)
    if chosen:
        print(f'selected: {len(chosen)} selftest(s) matching {args.glob}')
    with open(args.out, 'w') as f:
        f.writelines(line for i, line in enumerate(lines) if i not in drop)
    with open(args.kunit_glob_out, 'w') as f:
        f.write(kunit_glob)
    return 0


if __name__ == '__main__':
    sys.exit(main())
