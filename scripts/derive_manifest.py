#!/usr/bin/env python3
"""Derive the selftest manifest from the objects' annotations.

Usage: derive_manifest.py [--expected-logs DIR] LOADER OBJECT... > tests.list

Each program's expectations are BTF decl tags written with the macros of
selftests/bpf_misc.h; `bpftool btf dump` shows them. LOADER --list-builtin
adds the tests that are not programs of an object (hand-built BTF cases,
generated programs). A bad combination of annotations stops with its reason:
a test that cannot fail is not written into the manifest.

With --expected-logs DIR, a failing program states its message once: a
program with __msg may not have DIR/PROG.log as well, and a log of no
failing program (an orphan) stops the manifest too.
"""
import json
import os
import subprocess
import sys

PREFIX = 'comment:test_'
HEADER = """\
# Derived by scripts/derive_manifest.py from the annotations of the objects
# (selftests/bpf_misc.h) and the loader's built-in tests; do not edit.
# <program> <object> pass [@retval=N] [<global>=<value> ...]   __success __retval(N)
#   (a program of vmlinux/NAME.c, a file of upstream's, is NAME:<program>)
#   (@allocated / @live: graph objects allocated / not yet freed since the load)
# <program> <object> load                  __success: must load, not run
# <program> <object> fail                  __failure: __msg and expected-logs/<program>.log
# <program> <object> stress <drain> <ops>  __stress(drain, ops)
# mutate_<object> <object> mutate <seed> <count>        __mutants(seed, count)
# failslab_<object> <object> failslab <program> <max>   __failslab(max)
# <case> - btf <ERRNO>                     runner/btf_cases.c
# <name> - gen <seed> <count>              generators/gen.c
"""


class Bad(Exception):
    pass


MSG_PROGS = set()   # failing programs whose __msg states their message


def tags_of(path):
    """{(kind, name): [(key, value), ...]} of the test tags in @path's BTF."""
    try:
        out = subprocess.run(['bpftool', '-j', 'btf', 'dump', 'file', path],
                             check=True, capture_output=True, text=True).stdout
    except subprocess.CalledProcessError as e:
        raise Bad(f'bpftool cannot read the BTF: {e.stderr.strip()}')
    types = {t['id']: t for t in json.loads(out)['types']}
    tags = {}
    for t in types.values():
        if t['kind'] != 'DECL_TAG' or not t['name'].startswith(PREFIX):
            continue
        target = types[t['type_id']]
        if t['component_idx'] != -1:
            raise Bad(f'{target["name"]}: a test annotation on a member or argument')
        key, _, value = t['name'][len(PREFIX):].partition('=')
        tags.setdefault((target['kind'], target['name']), []).append((key, value))
    return tags


def one(tags, key, default=None):
    values = [v for k, v in tags if k == key]
    if len(values) > 1:
        raise Bad(f'more than one __{key}')
    return values[0] if values else default


def program_entries(prog, obj, base, tags):
    keys = {k for k, _ in tags}
    known = {'expect_failure', 'expect_success', 'expect_msg', 'log_level', 'retval',
             'global', 'allocated', 'live', 'stress', 'failslab', 'description',
             'caps_only', 'iter_attach', 'prog_flags', 'value_bytes', 'tail_call',
             'replaces'}
    if keys - known:
        raise Bad(f'unknown annotation(s) {", ".join(sorted(keys - known))}')
    checks = [f'{v}' for k, v in tags if k == 'global']
    for count in ('allocated', 'live'):
        if one(tags, count) is not None:
            checks.append(f'@{count}={one(tags, count)}')
    retval = one(tags, 'retval')
    if 'expect_failure' in keys and 'expect_success' in keys:
        raise Bad('both __failure and __success')
    if 'iter_attach' in keys and ('expect_success' not in keys or retval is not None):
        raise Bad('__iter_attach needs __success without __retval: a load test')
    for key in ('value_bytes', 'tail_call'):
        if key in keys and retval is None:
            raise Bad(f'__{key} needs __retval(N): the program must run')
    if 'replaces' in keys and retval is not None:
        raise Bad('__replaces takes no __retval: an extension program is loaded, not run')
    if keys & {'expect_msg', 'log_level'} and 'expect_failure' not in keys:
        raise Bad('__msg and __log_level are checked only with __failure')
    if (checks or retval is not None) and 'expect_success' not in keys:
        raise Bad('__retval and checks after the run need __success')
    if checks and retval is None:
        raise Bad('checks after the run need __retval(N): the program must run')
    if 'expect_failure' in keys:
        if 'expect_msg' in keys:
            MSG_PROGS.add(prog)
        yield f'{prog} {obj} fail'
    elif retval is not None:
        ret = [] if retval == '0' else [f'@retval={retval}']
        yield ' '.join([prog, obj, 'pass'] + ret + checks)
    elif 'expect_success' in keys:
        yield f'{prog} {obj} load'
    if one(tags, 'stress'):
        yield f'{prog} {obj} stress {one(tags, "stress")}'
    if one(tags, 'failslab'):
        yield f'failslab_{base} {obj} failslab {prog} {one(tags, "failslab")}'


def object_entries(path):
    obj = os.path.basename(path)
    base = obj[:-len('.bpf.o')] if obj.endswith('.bpf.o') else obj
    # NAME.c.bpf.o is a file of upstream's selftests under its own name
    # (selftests/Makefile): its tests are NAME:PROGRAM, apart from the
    # suite's programs of the same names; a program that says nothing of
    # itself would be a file that tests nothing.
    upstream = base[:-len('.c')] + ':' if base.endswith('.c') else ''
    tagged = tags_of(path).items()
    if upstream and not any(kind == 'FUNC' for (kind, _), _ in tagged):
        raise Bad('no program has a test annotation: a file of upstream\'s selftests '
                  'runs here only with __success or __failure (bpf_misc.h)')
    for (kind, name), tags in tagged:
        try:
            if kind == 'FUNC':
                yield from (upstream + entry for entry in program_entries(name, obj, base, tags))
            elif kind == 'VAR' and {k for k, _ in tags} == {'mutants'}:
                yield f'mutate_{base} {obj} mutate {one(tags, "mutants")}'
            else:
                raise Bad(f'test annotations on {kind.lower()} (programs only; __mutants on _license)')
        except Bad as e:
            raise Bad(f'{name}: {e}')


def check_logs(logs, failing):
    """One source per message: no log beside a __msg, no log of nothing."""
    bad = []
    for name in sorted(os.listdir(logs)):
        prog = name[:-len('.log')]
        if not name.endswith('.log'):
            continue
        if prog in MSG_PROGS:
            bad.append(f'{prog}: both __msg and {logs}/{name}; keep one')
        elif prog not in failing:
            bad.append(f'{logs}/{name}: no failing program {prog} (an orphan)')
    if bad:
        sys.exit('\n'.join(bad))


def main():
    args = sys.argv[1:]
    logs = None
    if args[:1] == ['--expected-logs']:
        logs, args = args[1], args[2:]
    if not args:
        sys.exit(__doc__)
    lines = []
    for path in args[1:]:
        try:
            lines += object_entries(path)
        except Bad as e:
            sys.exit(f'{path}: {e}')
    lines += subprocess.run([args[0], '--list-builtin'], check=True,
                            capture_output=True, text=True).stdout.splitlines()
    if logs:
        check_logs(logs, {line.split()[0] for line in lines if line.split()[2] == 'fail'})
    names = [line.split()[0] for line in lines]
    dups = sorted({n for n in names if names.count(n) > 1})
    if dups:
        sys.exit(f'tests named twice: {", ".join(dups)}')
    sys.stdout.write(HEADER + ''.join(f'{line}\n' for line in lines))


if __name__ == '__main__':
    main()
