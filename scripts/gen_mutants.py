#!/usr/bin/env python3
"""Mutants generated from the series itself, one per applicable site.

    gen_mutants.py SRC_DIR OUT_DIR [SAMPLE]

SRC_DIR is the prepared tree (scripts/tree.sh): the lines the series adds
are those of `git diff pristine applied` under kernel/, include/, net/ and
lib/. Each mutant is one edit of one such line (or of two neighbouring
ones), written to OUT_DIR/gen-FILE-LLINE-OP.diff in the format of
mutants/*.diff ("Reason:" line, then a diff against the applied tree), for
scripts/mutants.sh (MUTANTS_DIR=OUT_DIR). With SAMPLE, only a random
sample of that many is written, the same one every time (a fixed seed), so
that a partial pass still measures the whole set. Operators:

  cond-drop    if (C)  ->  if (false && (C))     a check removed
  cond-negate  if (C)  ->  if (!(C))             a condition negated
  or-assign    a |= b  ->  a = b
  err-success  return -EXXX;  ->  return 0;      an error turned into success
  off-by-one   <  <=  >  >=  ->  <=  <  >=  >
  sibling-size sizeof(struct bpf_rb_root) <-> sizeof(struct bpf_rb_node)
               (not bpf_list_head <-> bpf_list_node: both are 16 bytes, so
               every such mutant is equivalent)
  offset-zero  + x->y_off  ->  + 0               an offset replaced by 0
  swap-free    two neighbouring statements of which one frees or drains,
               swapped

A mutant listed in mutants/generated-equivalent.tsv (OP, FILE, the line's
text, why, and for a line whose text is not unique the text of the line
above it; by text, not line number, so that a series that moves lines
keeps the list) gets an "Equivalent: why" line: scripts/mutants.sh runs
it but counts it only if it is killed after all.
"""
import difflib
import os
import random
import re
import subprocess
import sys

DIRS = ['kernel', 'include', 'net', 'lib']
EQUIVALENTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'mutants',
                           'generated-equivalent.tsv')
IF_RE = re.compile(r'^(\s*(?:\}\s*else\s+)?if\s*)\((.*)\)(\s*\{?\s*)$')
ERR_RE = re.compile(r'\breturn\s+-E[A-Z0-9]+\s*;')
CMP_RE = re.compile(r'(?<=\s)(<=|>=|<|>)(?=\s)')
CMP_SWAP = {'<': '<=', '<=': '<', '>': '>=', '>=': '>'}
SIBLINGS = [('struct bpf_rb_root', 'struct bpf_rb_node')]
OFFSET_RE = re.compile(r'([+-]\s*)([A-Za-z_]\w*(?:->|\.)\w*off(?:set)?\w*)(?![\w.]|->)')
FREES = re.compile(r'\b\w*(free|drop|drain|put)\w*\s*\(')
DECL_RE = re.compile(r'^(struct|union|enum|const|unsigned|signed|int|long|char|bool|void|'
                     r'u8|u16|u32|u64|s8|s16|s32|s64|size_t|LIST_HEAD)\b')


def balanced(s):
    depth = 0
    for c in s:
        depth += c == '('
        depth -= c == ')'
        if depth < 0:
            return False
    return depth == 0


def is_code(line):
    s = line.strip()
    return bool(s) and not s.startswith(('/*', '*', '//', '#')) and '"' not in s


def line_mutants(line):
    """(op, new line) for every operator that applies to one line."""
    if not is_code(line):
        return []
    # the code before a trailing comment; the comment is kept as it is
    cut = min([i for i in (line.find('/*'), line.find('//')) if i >= 0], default=len(line))
    return [(op, new + line[cut:]) for op, new in code_mutants(line[:cut])]


def code_mutants(line):
    out = []
    m = IF_RE.match(line)
    if m and balanced(m.group(2)):
        head, cond, tail = m.groups()
        out.append(('cond-drop', f'{head}(false && ({cond})){tail}'))
        out.append(('cond-negate', f'{head}(!({cond})){tail}'))
    if '|=' in line:
        out.append(('or-assign', line.replace('|=', '=', 1)))
    if ERR_RE.search(line):
        out.append(('err-success', ERR_RE.sub('return 0;', line, count=1)))
    m = CMP_RE.search(line)
    if m and '->' not in line[m.start() - 1:m.end() + 1]:
        op = m.group(1)
        out.append(('off-by-one', line[:m.start()] + CMP_SWAP[op] + line[m.end():]))
    for a, b in SIBLINGS:
        for x, y in ((a, b), (b, a)):
            if f'sizeof({x})' in line:
                out.append(('sibling-size', line.replace(f'sizeof({x})', f'sizeof({y})', 1)))
    m = OFFSET_RE.search(line)
    if m:
        out.append(('offset-zero', line[:m.start(2)] + '0' + line[m.end(2):]))
    return out


def statement(line):
    """A statement that can move: no declaration, no jump."""
    s = line.strip()
    return is_code(line) and s.endswith(';') and not DECL_RE.match(s) and \
        not s.startswith(('return', 'break', 'goto', 'continue'))


def pair_mutants(a, b):
    """(op, new a, new b) for two neighbouring lines."""
    if statement(a) and statement(b) and (FREES.search(a) or FREES.search(b)) and \
            a.strip() != b.strip() and a[:len(a) - len(a.lstrip())] == b[:len(b) - len(b.lstrip())]:
        return [('swap-free', b, a)]
    return []


def git(src, *args):
    return subprocess.run(['git', '-C', src, *args], check=True, capture_output=True,
                          text=True).stdout


def series_top(src):
    """The series' last commit: the applied tree without the harness commit."""
    for line in git(src, 'log', '--format=%H %s', 'pristine..applied').splitlines():
        commit, subject = line.split(' ', 1)
        if not subject.startswith('harness:'):
            return commit
    sys.exit('gen_mutants.py: no series commit between pristine and applied')


def added_lines(src):
    """{path: sorted line numbers (1-based) the series adds, in the applied tree}

    Files the harness commit touches (kernel/bpf/memalloc.c's hooks) are
    left out: there the series' line numbers are not the applied tree's.
    """
    top = series_top(src)
    harness = set(git(src, 'diff', '--name-only', top, 'applied').split())
    diff = git(src, 'diff', '-U0', 'pristine', top, '--',
               *DIRS, *[f':!{p}' for p in sorted(harness)])
    added, path = {}, None
    for line in diff.splitlines():
        if line.startswith('+++ '):
            path = line[6:] if line.startswith('+++ b/') else None
        elif line.startswith('@@') and path and path.endswith(('.c', '.h')):
            m = re.match(r'@@ -\S+ \+(\d+)(?:,(\d+))? @@', line)
            start, count = int(m.group(1)), int(m.group(2) or 1)
            added.setdefault(path, []).extend(range(start, start + count))
    return added


def equivalents(tsv=EQUIVALENTS):
    """(op, file, line text, line above or '') -> why, from the list of
    equivalent mutants."""
    known = {}
    with open(tsv) as f:
        for n, row in enumerate(f, 1):
            if row.startswith('#') or not row.strip():
                continue
            fields = row.rstrip('\n').split('\t')
            if len(fields) not in (4, 5) or not all(fields):
                sys.exit(f'{tsv}:{n}: want OP, FILE, LINE, WHY[, LINE ABOVE] separated by tabs')
            known[(*fields[:3], fields[4] if len(fields) == 5 else '')] = fields[3]
    return known


def listed_key(known, path, lines, at, op, orig):
    """The key of the list that names this mutant (by the line above, else
    by its text alone), or None."""
    above = lines[at - 2].strip() if at > 1 else ''
    for key in ((op, path, orig.strip(), above), (op, path, orig.strip(), '')):
        if key in known:
            return key
    return None


def write(out, name, path, lines, new, n, op, orig, why=None):
    diff = difflib.unified_diff([l + '\n' for l in lines], [l + '\n' for l in new],
                                f'a/{path}', f'b/{path}', n=3)
    with open(os.path.join(out, name + '.diff'), 'w') as f:
        f.write(f'Reason: generated: {op} at {path}:{n}: {orig.strip()}\n')
        if why:
            f.write(f'Equivalent: {why}\n')
        f.writelines(diff)


def main(src, out, sample=None, tsv=EQUIVALENTS):
    known = equivalents(tsv)
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):  # an earlier generation's mutants go
        if old.startswith('gen-') and old.endswith('.diff'):
            os.remove(os.path.join(out, old))
    mutants = {}  # name -> arguments of write(); names do not depend on the sample
    for path, numbers in sorted(added_lines(src).items()):
        lines = git(src, 'show', f'applied:{path}').splitlines()
        series = set(numbers)
        for n in numbers:
            orig = lines[n - 1]
            sites = [(op, n, [orig_new]) for op, orig_new in line_mutants(orig)]
            if n + 1 in series:
                sites += [(op, n, [na, nb]) for op, na, nb in pair_mutants(orig, lines[n])]
            for op, at, repl in sites:
                new = lines[:at - 1] + repl + lines[at - 1 + len(repl):]
                base = f'gen-{os.path.basename(path).replace(".", "_")}-L{at}-{op}'
                name, k = base, 2
                while name in mutants:  # two of one op on a line
                    name, k = f'{base}{k}', k + 1
                mutants[name] = (path, lines, new, at, op, orig)
    hits = {}  # a listed key -> the mutants (of the whole set) it marks
    for name, (path, lines, _, at, op, orig) in mutants.items():
        key = listed_key(known, path, lines, at, op, orig)
        if key:
            hits.setdefault(key, []).append(name)
    for key, names in sorted(hits.items()):
        if len(names) > 1:
            sys.exit(f'{tsv}: "{key[2]}" marks {len(names)} mutants ({", ".join(sorted(names))}):'
                     ' add the line above as a fifth column')
    names = sorted(mutants)
    if sample is not None and sample < len(names):
        names = sorted(random.Random(29).sample(names, sample))
    counts, marked = {}, 0
    for name in names:
        path, lines, _, at, op, orig = mutants[name]
        key = listed_key(known, path, lines, at, op, orig)
        why = known[key] if key else None
        marked += why is not None
        write(out, name, *mutants[name], why=why)
        counts[op] = counts.get(op, 0) + 1
    print(f'{len(names)} of {len(mutants)} mutants in {out} ({marked} marked equivalent): ' +
          ', '.join(f'{op} {c}' for op, c in sorted(counts.items())))


if __name__ == '__main__':
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and not sys.argv[3].isdigit()):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]) if len(sys.argv) == 4 else None)
