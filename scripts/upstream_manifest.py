"""Manifest lines for upstream's graph selftests (UPSTREAM_SELFTESTS).

Usage: upstream_manifest.py DIR MSGDIR OBJECT... > tests.list

DIR is tools/testing/selftests/bpf of a Linux 6.3 tree; each OBJECT is
NAME.c.bpf.o, its progs/NAME.c compiled unchanged (selftests/Makefile).
A file with test annotations (6.3's rbtree_fail.c) runs by them, as the
suite's own files do. The others run as 6.3's prog_tests/ runners run
them: a program of a NAME_fail.c must be refused with the message that a
table of prog_tests/ gives it (written to MSGDIR/NAME:PROG.msg; a program
no table names must only be refused, as upstream asserts of the
rbtree_btf_fail__ files), and any other program must load and return 0
(6.3's runners check some globals after the run too; this does not).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from derive_manifest import Bad, object_entries, tags_of  # noqa: E402

TABLE = re.compile(r'(?:static\s+)?(?:const\s+)?struct\s*\{([^{}]*)\}\s*(\w+)\s*\[\s*\]\s*=\s*\{')


def closing_brace(text, at):
    """Index just past the brace that closes the one before @at."""
    depth, i = 1, at
    while depth:
        c = text[i]
        if c == '"':
            i = text.index('"', i + 1)
            while text[i - 1] == '\\':
                i = text.index('"', i + 1)
        elif c == '{':
            depth += 1
        elif c == '}':
            depth -= 1
        i += 1
    return i


def table_messages(source):
    """{program: message} from the tables of (name, message) in @source,
    evaluated by the C compiler: they are built with macros."""
    text = open(source).read()
    msgs = {}
    for m in TABLE.finditer(text):
        fields = re.findall(r'const\s+char\s*\*\s*(\w+)\s*;', m.group(1))
        if len(fields) != 2:
            continue
        end = closing_brace(text, m.end())
        decl = text[m.start():end] + ';'
        prog = ('#include <stdio.h>\n' + decl + '\nint main(void)\n{\n'
                f'\tfor (unsigned long i = 0; i < sizeof({m.group(2)}) / sizeof({m.group(2)}[0]); i++)\n'
                f'\t\tprintf("%s\\x1f%s\\n", {m.group(2)}[i].{fields[0]}, {m.group(2)}[i].{fields[1]});\n'
                '\treturn 0;\n}\n')
        with tempfile.TemporaryDirectory() as tmp:
            c, exe = os.path.join(tmp, 't.c'), os.path.join(tmp, 't')
            open(c, 'w').write(prog)
            subprocess.run(['gcc', '-w', '-o', exe, c], check=True)
            out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
        for line in out.splitlines():
            name, _, msg = line.partition('\x1f')
            msgs[name] = msg
    return msgs


def programs(path):
    """The programs of @path: its global functions."""
    out = subprocess.run(['bpftool', '-j', 'btf', 'dump', 'file', path],
                         check=True, capture_output=True, text=True).stdout
    return [t['name'] for t in json.loads(out)['types']
            if t['kind'] == 'FUNC' and t.get('linkage') == 'global']


def entries(upstream, msgdir, path):
    obj = os.path.basename(path)
    base = obj[:-len('.c.bpf.o')]
    if any(kind == 'FUNC' for kind, _ in tags_of(path)):
        yield from object_entries(path)
        return
    if '_fail' not in base:
        for prog in programs(path):
            yield f'{base}:{prog} {obj} pass @retval=0'
        return
    runner = os.path.join(upstream, 'prog_tests', base.split('_fail')[0] + '.c')
    msgs = table_messages(runner) if os.path.exists(runner) else {}
    for prog in programs(path):
        with open(os.path.join(msgdir, f'{base}:{prog}.msg'), 'w') as f:
            if prog in msgs:
                f.write(msgs[prog] + '\n')
        yield f'{base}:{prog} {obj} fail'


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    upstream, msgdir = sys.argv[1:3]
    os.makedirs(msgdir, exist_ok=True)
    for path in sys.argv[3:]:
        try:
            lines = list(entries(upstream, msgdir, path))
        except Bad as e:
            sys.exit(f'{path}: {e}')
        print(''.join(f'{line}\n' for line in lines), end='')


if __name__ == '__main__':
    main()
