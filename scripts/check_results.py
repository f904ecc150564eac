#!/usr/bin/env python3
"""Turn the guest's console log into the harness verdict.

kunit.py's own parser (tools/testing/kunit/kunit_parser.py of the tree,
--kunit-tool) reads the console as kunit.py exec does: each test's status
and log come from it, named and counted as in kunit.py's JSON.

kunit.py counts a skipped test as a success and cannot know which suites or
selftests should have run; this script fails the run for any test that did
not pass, for every KUnit suite of kunit/ the kernel was configured to
build that did not report, for every manifest entry that did not report,
and for any kernel splat in the console log that the allowlist does not
explain. It prints one closing line,
"results: N passed, N failed, N skipped", and exits 0 when all passed, 1
when a test failed and 2 when no test ran at all.
With --first-patch (./run_tests.sh --each-patch, a prefix of the series)
a test that fails or does not build is not counted against a prefix
before the first patch it needs. With --bless it rewrites expected-logs/ with the loader's "bless-line:"
proposal: the actual errors (failed BTF loads and map creations, then the
verifier's error line) and the old expected lines that still matched.
"""
import argparse
import fnmatch
import json
import os
import re
import sys

from manifest import read as read_manifest, read_first_patches, suites_of

SELFTEST_CASE = ('bpf_graph_progs', 'bpf_prog')
TV_CASE = ('bpf_test_verifier', 'tv_verdict')  # one test per test_verifier case variant
# kunit.py's JSON statuses of kunit_parser's (kunit_json.py); any other is FAIL
STATUS = {'SUCCESS': 'PASS', 'SKIPPED': 'SKIP', 'TEST_CRASHED': 'ERROR'}
# In a selftest's report (the loader's lines, runner/report.c): what the
# loader proposes for the expected log (the actual errors and the expected
# lines that still matched, in log order); that __msg states the message,
# so there is no expected log to bless; the verifier's statistics
# (runner/prog_test.c, say_stats()).
BLESS_LINE = 'bless-line: '
BLESS_SKIP = 'bless-skip: '
STATS_RE = re.compile(r'^stats: (\S+) verdict=(\w+) insns=(-?\d+) '
                      r'total_states=(-?\d+) peak_states=(-?\d+) time_us=(-?\d+)')
# veristat's CSV columns (veristat -C reads two such files); verification
# time stays in the console's stats lines: wall clock under TCG
STATS_FIELDS = ('file_name', 'prog_name', 'verdict', 'total_insns', 'total_states', 'peak_states')
VERDICTS = {'accepted': 'success', 'refused': 'failure'}
SPLAT_RE = re.compile(r'BUG:|WARNING:|KASAN:|Kernel panic|general protection fault|Oops|'
                      r'possible circular locking|inconsistent lock state|'
                      r'possible recursive locking|suspicious RCU usage|'
                      r'DEBUG_LOCKS_WARN_ON|rcu: INFO:|detected stall|'
                      r'blocked for more than|unreferenced object')
MAKE_OBJ_RE = re.compile(r'^obj-\$\((CONFIG_\w+)\)\s*\+=\s*(\w+)\.o')


def parse_console(kunit_tool, console):
    """kunit.py's parse of @console: [(path, status, log)] for every test
    case, a test without subtests as kunit.py's JSON has it, and every log
    line the parse gave to any test, in order."""
    sys.path.insert(0, kunit_tool)
    import kunit_parser
    kunit_parser.stdout._output = open(os.devnull, 'w')    # its progress lines
    root = kunit_parser.parse_run_tests(kunit_parser.extract_tap_lines(console))
    cases, lines = [], []

    def walk(test, path):
        lines.extend(test.log)
        for sub in test.subtests:
            if sub.subtests:
                walk(sub, path + (sub.name,))
            else:
                lines.extend(sub.log)
                cases.append((path + (sub.name,), STATUS.get(sub.status.name, 'FAIL'), sub.log))
    walk(root, ())
    return cases, lines


def report_of(lines, name):
    """The loader's report lines of selftest @name, as the bridge logged them."""
    tag = f'# bpf_prog: {name}: '
    return [line.split(tag, 1)[1].rstrip('\r') for line in lines if tag in line]


def expected_suites(kunit_dir, kconfig):
    """The suites of kunit/*.c that kunit/Makefile builds under @kconfig.

    A file listed as obj-$(CONFIG_Y) inside "ifdef CONFIG_X" is built only
    when the kernel's .config sets CONFIG_X and CONFIG_Y.
    """
    with open(kconfig) as f:
        enabled = {line.split('=', 1)[0] for line in f if re.match(r'CONFIG_\w+=[ym]', line)}
    built, cond = [], []
    with open(os.path.join(kunit_dir, 'Makefile')) as f:
        for line in f:
            words = line.split()
            if words[:1] == ['ifdef']:
                cond.append(words[1])
            elif words[:1] == ['endif']:
                cond.pop()
            elif (m := MAKE_OBJ_RE.match(line)) and all(c in enabled for c in cond + [m[1]]):
                built.append(m[2] + '.c')
    suites = []
    for name in built:
        with open(os.path.join(kunit_dir, name)) as f:
            suites += suites_of(f.read())
    return suites


def read_allowlist(path):
    """(pattern, reason) per line "REGEX  # reason"; a line without a reason is an error."""
    entries, bad = [], []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            pattern, _, reason = line.rstrip('\n').partition('#')
            if not pattern.strip() or not reason.strip():
                bad.append(f'{path}:{n}: an allowlist entry needs a pattern and "# reason"')
                continue
            entries.append((re.compile(pattern.strip()), reason.strip()))
    return entries, bad


def test_name(path):
    """bpf_graph_progs.bpf_prog.PROG is PROG; a KUnit case is SUITE.CASE."""
    return path[-1] if path[:2] == SELFTEST_CASE else '.'.join(path)


def glob_selects(glob, suite, case):
    if not glob:
        return True
    suite_glob, _, case_glob = glob.partition('.')
    return fnmatch.fnmatch(suite, suite_glob) and fnmatch.fnmatch(case, case_glob or '*')


def bless(reports, manifest, expected_dir):
    changed = 0
    for prog, kind in manifest:
        report = reports.get(prog, [])
        proposed = [line[len(BLESS_LINE):] for line in report if line.startswith(BLESS_LINE)]
        if kind != 'fail' or any(line.startswith(BLESS_SKIP) for line in report):
            continue
        if not proposed:
            print(f'bless: no actual error for {prog}; {prog}.log left as it is')
            continue
        path = os.path.join(expected_dir, prog + '.log')
        new = ''.join(line + '\n' for line in proposed)
        old = open(path).read() if os.path.exists(path) else None
        if old != new:
            with open(path, 'w') as f:
                f.write(new)
            print(f'bless: wrote {path}')
            changed += 1
    print(f'bless: {changed} expected log(s) changed')


def record(name, kind, status, reason, log=None):
    """A tests.json record of something beside the tests' own statuses."""
    rec = {'name': name, 'kind': kind, 'status': status, 'reason': reason}
    if log:
        rec['log'] = log
    return rec


def write_records(tests, manifest, reports, path, extra):
    """One JSON record per test: name, status (pass, fail, error = crash,
    miss = never reported, timeout, skip), duration in ms when known, and for
    a test that did not pass the expected and actual lines and a log excerpt;
    then @extra, the records of what failed or left out the run beside the
    tests (a splat, a suite that never reported, a denylisted selftest), each
    with its reason.
    """
    status_of = {'PASS': 'pass', 'FAIL': 'fail', 'SKIP': 'skip', 'ERROR': 'error'}
    records, seen = [], set()
    for p, status, test_log in tests:
        name = test_name(p)
        seen.add(name)
        selftest = p[:2] == SELFTEST_CASE
        log = reports[name] if selftest else [line.strip() for line in test_log]
        rec = {'name': name, 'kind': 'selftest' if selftest else 'kunit',
               'status': status_of.get(status, status.lower())}
        if selftest and any('timed out after' in line for line in log):
            rec['status'] = 'timeout'
        for line in log:
            m = re.search(r'loader ran for (\d+) ms', line)
            if m:
                rec['duration_ms'] = int(m.group(1))
        if rec['status'] != 'pass':
            rec['expected'] = [line for line in log if re.search(r'\bexpected\b|^Expected', line, re.I)]
            rec['actual'] = [line for line in log if re.search(r'\bactual\b|actual-error:|==', line)]
            rec['log'] = log[-25:]
        records.append(rec)
    for name, _ in manifest:
        if name not in seen:
            records.append({'name': name, 'kind': 'selftest', 'status': 'miss',
                            'reason': 'did not report (crash, timeout or missing)',
                            'log': reports.get(name, [])[-25:]})
    records += extra
    with open(path, 'w') as f:
        json.dump(records, f, indent=1)
        f.write('\n')


def write_stats(reports, objects, path):
    """One CSV row per selftest program that reported its verifier
    statistics, in veristat's schema (0 where the load stopped before the
    verifier, as veristat writes); @objects: {test: object file}."""
    rows = {}
    for m in (STATS_RE.match(line) for report in reports.values() for line in report):
        if m:
            name, verdict, insns, total, peak, _ = m.groups()
            rows[name] = (objects.get(name, '-'), name, VERDICTS.get(verdict, verdict),
                          insns, total, peak)
    with open(path, 'w') as f:
        f.write(','.join(STATS_FIELDS) + '\n')
        for name in sorted(rows):
            f.write(','.join(v if v != '-1' else '0' for v in rows[name]) + '\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kunit-tool', required=True, help="the tree's tools/testing/kunit")
    ap.add_argument('--console', required=True)
    ap.add_argument('--manifest', required=True)
    ap.add_argument('--glob', default='')
    ap.add_argument('--kunit-dir', help='kunit/ of the repo: the suites that must report')
    ap.add_argument('--kconfig', help="the kernel's .config, for kunit/Makefile's ifdefs")
    ap.add_argument('--allowlist', help='kernel splats to tolerate, each with its reason')
    ap.add_argument('--bless', metavar='EXPECTED_DIR')
    ap.add_argument('--statuses', help='write "TEST STATUS" per test to this file')
    ap.add_argument('--stats-csv', help="write the verifier's statistics per program here")
    ap.add_argument('--records', help='write one JSON record per test here')
    ap.add_argument('--first-patch', help='tests/first-patch.list (with --prefix, --last)')
    ap.add_argument('--prefix', type=int, help='the number of patches applied')
    ap.add_argument('--last', type=int, help='the number of patches in the series')
    ap.add_argument('--not-built', help='selftests whose object did not build, one a line')
    ap.add_argument('--tv-expected', help="test_verifier's expected results: each must report")
    ap.add_argument('--denied', help='the denylisted selftests of the run, "NAME<TAB>REASON"')
    args = ap.parse_args()

    problems, extra = [], []
    try:
        with open(args.console, errors='replace') as f:
            console = f.read().splitlines()
    except OSError as e:
        console = []
        problems.append(f'no console log ({e})')
        extra.append(record('console.log', 'harness', 'error', f'no console log ({e})'))
    tests, logged = parse_console(args.kunit_tool, console)
    entries = read_manifest(args.manifest)
    manifest = [(e.name, e.mode) for e in entries]
    # each selftest's report from its own log; one that never reported
    # may have begun to: its lines from wherever the parse put them
    reports = {test_name(p): report_of(log, p[-1]) for p, _, log in tests if p[:2] == SELFTEST_CASE}
    for name, _ in manifest:
        if name not in reports:
            reports[name] = report_of(logged, name)

    # a prefix of the series: a test before its first patch may fail
    not_yet = lambda name: False
    if args.first_patch:
        firsts = read_first_patches(args.first_patch)
        # test_verifier's expectations are exact at every prefix
        not_yet = lambda name: not name.startswith('.'.join(TV_CASE) + '.') and \
            firsts.get(name, args.last) > args.prefix
    not_built = []
    if args.not_built:
        with open(args.not_built) as f:
            not_built = f.read().split()
    early = 0
    for name in not_built:
        if not not_yet(name):
            problems.append(f'selftest {name}: its object does not build')
            extra.append(record(name, 'selftest', 'error', 'its object does not build'))
    if args.statuses:
        with open(args.statuses, 'w') as f:
            f.writelines(f'{test_name(p)} {s}\n' for p, s, _ in tests)
            f.writelines(f'{name} NOBUILD\n' for name in not_built)

    passed = sum(1 for _, s, _ in tests if s == 'PASS')
    for path, status, _ in tests:
        if status != 'PASS' and not_yet(test_name(path)):
            early += 1
        elif status != 'PASS':
            problems.append(f'{".".join(path)}: {status}')

    if args.kunit_dir:
        try:
            suites = expected_suites(args.kunit_dir, args.kconfig)
        except OSError as e:
            suites = []
            problems.append(f'cannot tell which suites must run ({e})')
            extra.append(record('kunit.suites', 'harness', 'error', f'cannot tell which suites must run ({e})'))
        reported = {p[0] for p, _, _ in tests}
        for suite in suites:
            if glob_selects(args.glob, suite, '*') and suite not in reported:
                problems.append(f'suite {suite}: built from kunit/ but did not report')
                extra.append(record(suite, 'kunit', 'miss', 'built from kunit/ but did not report'))

    if glob_selects(args.glob, *SELFTEST_CASE):
        ran = [p[-1] for p, _, _ in tests if p[:2] == SELFTEST_CASE]
        for prog, _ in manifest:
            if prog not in ran:
                problems.append(f'selftest {prog}: did not report (crash, timeout or missing)')
        for prog in ran:
            if prog not in dict(manifest):
                problems.append(f'selftest {prog}: reported but not in the manifest')
                extra.append(record(prog, 'selftest', 'error', 'reported but not in the manifest'))
    if args.tv_expected and glob_selects(args.glob, *TV_CASE):
        with open(args.tv_expected) as f:
            want = sum(1 for line in f if line.strip())
        ran = sum(1 for p, _, _ in tests if p[:2] == TV_CASE)
        if ran != want:
            problems.append(f'{".".join(TV_CASE)}: {ran} of {want} test_verifier case variants reported')
            extra.append(record('.'.join(TV_CASE), 'kunit', 'miss',
                                f'{ran} of {want} test_verifier case variants reported'))
    if not tests:
        problems.append('no test ran')
        extra.append(record('run', 'harness', 'error', 'no test ran'))

    allowed = []
    if args.allowlist:
        allowed, bad = read_allowlist(args.allowlist)
        problems += bad
        extra += [record('splat-allowlist', 'harness', 'error', b) for b in bad]
    # a splat is told on the test in whose log the parse put it, if any
    splat_test = {line.strip(): test_name(p) for p, _, log in tests for line in log
                  if SPLAT_RE.search(line)}
    for line in console:
        if SPLAT_RE.search(line) and not any(p.search(line) for p, _ in allowed):
            problems.append(f'kernel splat: {line.strip()}')
            rec = record('kernel.splat', 'kernel', 'fail', 'splat', [line.strip()])
            rec['test'] = next((t for text, t in splat_test.items() if line.strip().endswith(text)),
                               None)
            extra.append(rec)

    if args.denied:
        with open(args.denied) as f:
            for line in f:
                name, _, reason = line.rstrip('\n').partition('\t')
                extra.append(record(name, 'selftest', 'skip', f'denylisted: {reason}'))

    if args.bless:
        bless(reports, manifest, args.bless)
    if args.stats_csv:
        objects = {e.name: e.obj for e in entries}
        write_stats(reports, objects, args.stats_csv)
    if args.records:
        write_records(tests, manifest, reports, args.records, extra)

    for p in problems:
        print(f'FAILED: {p}')
    failed = sum(1 for p, s, _ in tests if s in ('FAIL', 'ERROR') and not not_yet(test_name(p))) + \
        (len(problems) - sum(1 for p, s, _ in tests if s != 'PASS' and not not_yet(test_name(p))))
    skipped = sum(1 for p, s, _ in tests if s == 'SKIP' and not not_yet(test_name(p)))
    line = f'results: {passed} passed, {failed} failed, {skipped} skipped'
    if args.first_patch:
        line += f', {early + len(not_built) - sum(1 for n in not_built if not not_yet(n))}' \
            ' not yet (before their first patch)'
    print(line)
    if not tests:
        return 2    # nothing ran: the harness, not a test, failed
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
