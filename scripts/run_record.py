#!/usr/bin/env python3
"""Keep $RESULTS_DIR/run.json, the record of one run_tests.sh run.

  run_record.py FILE start BASE   the run began: base version, harness, toolchain
  run_record.py FILE step NAME    a step began (the one before it ended)
  run_record.py FILE set KEY VAL  a fact learnt on the way (e.g. tree_id)
  run_record.py FILE end RC [REASON]   the run ended with exit status RC

status: running, then passed (0), failed (1: a test failed) or error (2:
the harness could not run the tests, REASON says why); step: the step
reached; steps: each step's duration in seconds.
"""
import hashlib
import json
import os
import subprocess
import sys
import time

TARBALL = os.environ.get('LINUX_SOURCE_TARBALL') or '/usr/src/linux-source-6.1.tar.xz'
TOOLS = {   # the first line each prints of its version
    'gcc': ['gcc', '--version'], 'clang': ['clang', '--version'],
    'bpftool': ['bpftool', 'version'], 'qemu': ['qemu-system-x86_64', '--version'],
}


def out(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              timeout=60).stdout.strip().splitlines()[0]
    except (OSError, IndexError, subprocess.SubprocessError):
        return None


def sha256(path):
    h = hashlib.sha256()
    try:
        with open(path, 'rb') as f:
            for block in iter(lambda: f.read(1 << 20), b''):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def start(repo, base_version):
    commit = out(['git', '-C', repo, 'rev-parse', 'HEAD'])
    dirty = out(['git', '-C', repo, 'status', '--porcelain', '--untracked-files=no'])
    versions = {name: out(cmd) for name, cmd in TOOLS.items()}
    versions['libbpf'] = out(['dpkg-query', '-W', '-f=${Version}\n', 'libbpf-dev'])
    return {
        'status': 'running', 'step': 'start', 'exit_code': None, 'exit_reason': None,
        'base_version': base_version,
        'base_tarball_sha256': sha256(TARBALL),
        'harness_commit': commit and commit + ('-dirty' if dirty else ''),
        'toolchain': versions, 'steps': {}, 'started': time.time(),
        'step_started': time.time(),
    }


def main():
    path, what, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    now = time.time()
    if what == 'start':
        rec = start(os.path.join(os.path.dirname(__file__), '..'), args[0])
    else:
        with open(path) as f:
            rec = json.load(f)
    if what in ('step', 'end') and rec['step'] != 'start':
        rec['steps'][rec['step']] = round(now - rec['step_started'], 1)
    if what == 'step':
        rec['step'], rec['step_started'] = args[0], now
    elif what == 'set':
        rec[args[0]] = args[1]
    elif what == 'end':
        rc = int(args[0])
        rec['exit_code'] = rc
        rec['status'] = {0: 'passed', 1: 'failed'}.get(rc, 'error')
        rec['exit_reason'] = args[1] if len(args) > 1 and args[1] else rec['exit_reason']
        rec['duration'] = round(now - rec['started'], 1)
    with open(path + '.tmp', 'w') as f:
        json.dump(rec, f, indent=1)
        f.write('\n')
    os.replace(path + '.tmp', path)


if __name__ == '__main__':
    main()
