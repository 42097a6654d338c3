#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Builds bindings/cpp/test_cutelayout.cpp with each C++ compiler (g++ and
clang++) against the built library, as C++17 with -Wall -Wextra -Werror
-pedantic and, where the compiler can link them, AddressSanitizer and
UndefinedBehaviorSanitizer (which also find a handle the header leaks), and
runs it.

    python3 cxx_test.py --include DIR --lib-dir DIR --work DIR [--compiler CXX]...

Exit 77 (skipped) when no compiler is found, unless
CUTE_LAYOUT_REQUIRE_BINDINGS=1 (CI), where every compiler named must be there.
"""
import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
FLAGS = ['-std=c++17', '-Wall', '-Wextra', '-Werror', '-pedantic', '-g', '-O1']
SANITIZERS = ['-fsanitize=address,undefined', '-fno-sanitize-recover=all', '-fno-omit-frame-pointer']


def build(cxx, args, out, extra):
    cmd = [cxx] + FLAGS + extra + ['-I', args.include, os.path.join(HERE, 'test_cutelayout.cpp'), '-o', out,
                                    '-L', args.lib_dir, '-lcutelayout', '-Wl,-rpath,' + args.lib_dir]
    print('$ ' + ' '.join(cmd), flush=True)
    return subprocess.call(cmd) == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--include', required=True)
    ap.add_argument('--lib-dir', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--compiler', action='append', default=None)
    ap.add_argument('--no-sanitizers', action='store_true', help='for a library built with sanitizers already')
    args = ap.parse_args()
    required = os.environ.get('CUTE_LAYOUT_REQUIRE_BINDINGS') == '1'
    os.makedirs(args.work, exist_ok=True)
    ran, failed = 0, []
    for cxx in args.compiler or ['g++', 'clang++']:
        if shutil.which(cxx) is None:
            print('%s not found%s' % (cxx, ': a failure (CUTE_LAYOUT_REQUIRE_BINDINGS=1)' if required else ', skipped'))
            if required:
                failed.append(cxx)
            continue
        exe = os.path.join(args.work, 'test_cutelayout_' + os.path.basename(cxx).replace('+', 'x'))
        extra = [] if args.no_sanitizers else SANITIZERS
        if extra and not build(cxx, args, exe, extra):
            print('%s cannot build with the sanitizers; building without them' % cxx, flush=True)
            extra = []
        if not extra and not build(cxx, args, exe, []):
            failed.append(cxx)
            continue
        env = dict(os.environ, ASAN_OPTIONS='detect_leaks=1', UBSAN_OPTIONS='print_stacktrace=1')
        print('$ ' + exe, flush=True)
        if subprocess.call([exe], env=env) != 0:
            failed.append(cxx)
        ran += 1
    if failed:
        print('failed: ' + ', '.join(failed))
        return 1
    return 0 if ran else SKIP


if __name__ == '__main__':
    sys.exit(main())
