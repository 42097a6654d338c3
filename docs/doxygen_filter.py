#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Doxygen input filter for the public headers (docs/Doxyfile.in): the headers
are commented in plain C (`/* ... */`, STYLE.md), which Doxygen ignores, so
this turns them into Doxygen comments on the fly without touching the files:

  - the file's opening comment becomes its @file description;
  - a comment after code on the same line documents that member (`/**<`);
  - any other comment documents what follows it (`/**`);
  - section banners (`/* ==== x ==== */`, `/* ---- x ---- */`) stay plain.

Usage (by Doxygen): doxygen_filter.py FILE, writing the result to stdout.
"""
import re
import sys

BANNER = re.compile(r'/\*\s*(?:={3,}|-{3,})')


def convert(text):
    out = []
    i = 0
    first = True
    while True:
        j = text.find('/*', i)
        if j < 0:
            out.append(text[i:])
            break
        out.append(text[i:j])
        end = text.find('*/', j + 2)
        end = len(text) if end < 0 else end + 2
        comment = text[j:end]
        line_start = text.rfind('\n', 0, j) + 1
        before = text[line_start:j]
        if comment.startswith(('/**', '/*!')) or BANNER.match(comment):
            pass
        elif first and not text[:j].strip():
            comment = '/** @file\n' + comment[2:]
        elif before.strip():
            comment = '/**<' + comment[2:]
        else:
            comment = '/**' + comment[2:]
        first = False
        out.append(comment)
        i = end
    return ''.join(out)


if __name__ == '__main__':
    with open(sys.argv[1], encoding='utf-8') as f:
        sys.stdout.write(convert(f.read()))
