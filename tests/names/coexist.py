#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compile a program that includes our headers together with another
library's, in both orders, with -Wall -Wextra -Werror, link it against the
built library and run it (issue 12: OpenCL's and CuTe's headers).

    coexist.py --source FILE --requires HEADER --compiler CC... --std STD
               --include DIR --library LIB --builddir DIR
               [--system-include DIR]... [--sanitize S]

The source includes ours first when CUTELAYOUT_FIRST is 1, theirs first when
it is 0.  Exit 77 (skipped) when there is no compiler for the source's
language or HEADER cannot be included (the other library is not installed).
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
WARNINGS = ['-Wall', '-Wextra', '-Werror']


def run(cmd):
    print('$ ' + ' '.join(shlex.quote(c) for c in cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if proc.stdout:
        print(proc.stdout, end='' if proc.stdout.endswith('\n') else '\n')
    return proc.returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--source', required=True)
    ap.add_argument('--requires', required=True, help='the other library\'s header, e.g. CL/opencl.h')
    ap.add_argument('--compiler', nargs='+', default=[])
    ap.add_argument('--std', required=True)
    ap.add_argument('--include', required=True, help='the directory holding cutelayout/')
    ap.add_argument('--library', required=True, help='the built libcutelayout')
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--system-include', action='append', default=[])
    ap.add_argument('--sanitize', default='none', help="meson's b_sanitize")
    args = ap.parse_args()

    if not args.compiler:
        print(f'no compiler for {os.path.basename(args.source)}; skipping')
        return SKIP
    flags = ['-std=' + args.std, '-I' + args.include]
    for d in args.system_include:
        flags += ['-isystem', d]
    if args.sanitize not in ('', 'none'):
        flags.append('-fsanitize=' + args.sanitize)
    link = [args.library]
    if '.so' in os.path.basename(args.library):
        link.append('-Wl,-rpath,' + os.path.dirname(os.path.abspath(args.library)))

    work = tempfile.mkdtemp(prefix='coexist-tmp-', dir=args.builddir)
    try:
        probe = os.path.join(work, 'probe' + os.path.splitext(args.source)[1])
        with open(probe, 'w', encoding='utf-8') as f:
            f.write(f'#include <{args.requires}>\n')
        if not run(args.compiler + flags + ['-fsyntax-only', probe]):
            print(f'<{args.requires}> cannot be included: skipping')
            return SKIP
        for first in (1, 0):
            exe = os.path.join(work, f'first{first}')
            if not run(args.compiler + flags + WARNINGS + [f'-DCUTELAYOUT_FIRST={first}', args.source,
                                                           '-o', exe] + link):
                print(f'FAILED: {os.path.basename(args.source)} does not compile with '
                      f'{"ours" if first else "<" + args.requires + ">"} included first')
                return 1
            if not run([exe]):
                print(f'FAILED: {exe} did not succeed')
                return 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
