"""The KTAP of a run, clean: what a KTAP consumer reads, nothing else.

Usage: ktap.py KUNIT_TOOL_DIR CONSOLE_LOG > ktap.txt

kunit.py's own parser (tools/testing/kunit/kunit_parser.py of the tree)
finds the KTAP in the console and strips the console's prefix; of what
follows, only KTAP lines are kept (version, plan, result and diagnostic
lines), not the kernel messages printed between them. A console without
KTAP (a guest that did not boot) gives an empty file.
"""
import re
import sys

KTAP_LINE = re.compile(r'^\s*(KTAP version \d+|TAP version \d+|\d+\.\.\d+|(not )?ok \d+|#)')


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.path.insert(0, sys.argv[1])
    import kunit_parser
    try:
        with open(sys.argv[2], errors='replace') as f:
            console = f.readlines()
    except OSError:
        console = []
    for line in kunit_parser.extract_tap_lines(console):
        if KTAP_LINE.match(line):
            print(line.rstrip())
    return 0


if __name__ == '__main__':
    sys.exit(main())
