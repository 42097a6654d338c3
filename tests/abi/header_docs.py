#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every public function has a doc comment in its header (STYLE.md: what it
computes in CuTe terms, preconditions, error statuses, ownership).

    header_docs.py [--known FILE] HEADER...

A CL_API declaration counts as documented when a comment ends just above it,
or just above the run of declarations it belongs to (related functions under
one comment, no blank line between them), or follows it on the same line.
Section banners (`/* ---- name ---- */`, `/* ==== name ==== */`) do not count.

FILE lists functions known to lack documentation (one name a line, `#`
comments): they are reported but do not fail the test, and a name that has
been documented since must be removed from the list, so it only shrinks.
"""
import argparse
import re
import sys

DECL = re.compile(r'^\s*CL_API\b[^;]*?\b(cl_\w+)\s*\(')
BANNER = re.compile(r'^/\*\s*(?:={3,}|-{3,}).*\*/$')


def undocumented(path):
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, line in enumerate(lines):
        m = DECL.match(line)
        if not m or re.search(r';\s*/\*', line):
            continue
        k = n - 1
        while k >= 0 and lines[k].strip() and not lines[k].strip().endswith('*/'):
            k -= 1  # up through the declarations of this group
        above = lines[k].strip() if k >= 0 else ''
        if not above.endswith('*/') or BANNER.match(above):
            yield n + 1, m.group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--known', help='functions known to be undocumented')
    ap.add_argument('headers', nargs='+')
    args = ap.parse_args()
    known = set()
    if args.known:
        with open(args.known, encoding='utf-8') as f:
            known = {line.split('#')[0].strip() for line in f} - {''}

    failed = False
    found = set()
    for path in args.headers:
        for n, name in undocumented(path):
            found.add(name)
            tag = 'known, still' if name in known else 'NEW:'
            failed |= name not in known
            print(f'{path}:{n}: {tag} {name} has no doc comment')
    for name in sorted(known - found):
        print(f'{name} is documented now: remove it from {args.known}')
        failed = True
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
