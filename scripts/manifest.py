"""The selftest manifest and the KUnit suites, read in one place.

A manifest (tests.list, written by derive_manifest.py, whose header lists
the modes) has one test a line: NAME OBJECT MODE [ARGS...]; '#' starts a
comment. A KUnit suite is a "struct kunit_suite" of a kunit/*.c file, its cases the
KUNIT_CASE*() of that file.
tests/first-patch.list names the first patch of the series a test needs.
"""
import re
from typing import NamedTuple

SUITE_RE = re.compile(r'struct kunit_suite\s+\w+\s*=\s*{\s*\.name\s*=\s*"([^"]+)"')
CASE_RE = re.compile(r'\bKUNIT_CASE\w*\(\s*(\w+)')


class Entry(NamedTuple):
    line: int  # index of the line in the manifest, from 0
    name: str
    obj: str   # '-' for a test that is not a program of an object
    mode: str
    args: list


def parse(lines):
    """The entries of the manifest lines @lines, in order."""
    for i, line in enumerate(lines):
        words = line.split('#', 1)[0].split()
        if words:
            if len(words) < 3:
                raise ValueError(f'manifest line {i + 1}: NAME OBJECT MODE expected: {line.strip()}')
            yield Entry(i, words[0], words[1], words[2], words[3:])


def read(path):
    """The entries of the manifest file @path."""
    with open(path) as f:
        return list(parse(f))


def suites_of(source):
    """The names of the KUnit suites the C source text @source defines."""
    return SUITE_RE.findall(source)


def cases_of(source):
    """The names of the KUnit cases (KUNIT_CASE*) the C source text @source
    defines."""
    return CASE_RE.findall(source)


def read_first_patches(path):
    """{test: first patch} from tests/first-patch.list ("NAME NNNN" lines)."""
    firsts = {}
    with open(path) as f:
        for line in f:
            words = line.split('#', 1)[0].rsplit(None, 1)
            if words:
                firsts[words[0]] = int(words[1], 10)
    return firsts
