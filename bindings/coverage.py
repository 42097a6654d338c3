#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Does a binding cover the whole C API?  Lists the functions the public
headers export (every CL_API declaration of the headers cutelayout.h
includes) and fails when a binding's sources never name one that its
exclusion list does not name either.

    python3 bindings/coverage.py python|cpp|rust

Each binding keeps its exclusions in a `not-bound.txt` beside its sources:
one function per line, then why it has no spelling in that language
(`#` starts a comment).  A function both excluded and named in the sources,
or excluded but not in the headers, is an error too: the list stays true.
So a function added to a header fails this test until each binding wraps
it or says why not.
"""
import argparse
import glob
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, 'python'))
import gen_capi  # noqa: E402

BINDINGS = {
    # name: (source files, exclusion list)
    'python': (['python/cutelayout/*.py'], 'python/not-bound.txt', ['_capi.py']),
    'cpp': (['../include/cutelayout/cutelayout.hpp'], 'cpp/not-bound.txt', []),
    'rust': (['rust/cutelayout/src/*.rs'], 'rust/cutelayout/not-bound.txt', []),
}


def public_functions():
    text = ''
    header_dir = os.path.join(ROOT, 'include', 'cutelayout')
    for header in gen_capi.umbrella_headers(header_dir):
        with open(os.path.join(header_dir, header), encoding='utf-8') as f:
            text += gen_capi.strip_comments(f.read()) + '\n'
    return set(gen_capi.functions(text))


def read_exclusions(path):
    out = {}
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            name, _, why = line.partition(' ')
            if not why.strip():
                raise SystemExit('%s:%d: %s needs a reason' % (path, number, name))
            out[name] = why.strip()
    return out


def named_in(patterns, skip):
    names = set()
    for pattern in patterns:
        for path in glob.glob(os.path.join(HERE, pattern)):
            if os.path.basename(path) in skip:
                continue
            with open(path, encoding='utf-8') as f:
                names |= set(re.findall(r'\b(cl_\w+)\b', f.read()))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('binding', choices=sorted(BINDINGS))
    args = ap.parse_args()
    patterns, exclusion_file, skip = BINDINGS[args.binding]
    exclusion_file = os.path.join(HERE, exclusion_file)
    api = public_functions()
    used = named_in(patterns, skip) & api
    excluded = read_exclusions(exclusion_file)
    errors = []
    for name in sorted(api - used - set(excluded)):
        errors.append('%s is not bound: wrap it, or list it in %s with the reason' % (name, exclusion_file))
    for name in sorted(set(excluded) & used):
        errors.append('%s is listed in %s but the binding uses it: remove it from the list' % (name, exclusion_file))
    for name in sorted(set(excluded) - api):
        errors.append('%s is listed in %s but no header declares it' % (name, exclusion_file))
    for e in errors:
        print(e)
    print('%s: %d of %d functions bound, %d excluded with a reason' % (args.binding, len(used), len(api), len(excluded)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
