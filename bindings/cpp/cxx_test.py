#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Builds bindings/cpp/test_cutelayout.cpp with each C++ compiler (g++ and
clang++) against the built library, as C++17 with -Wall -Wextra -Werror
-pedantic and, where the compiler can link them, AddressSanitizer and
UndefinedBehaviorSanitizer (which also find a handle the header leaks), and
runs it.

    python3 cxx_test.py --include DIR --lib-dir DIR --work DIR [--compiler CXX]...
                        [--library-sanitize SANITIZERS]

A library built with sanitizers (Meson's b_sanitize, passed as
--library-sanitize) needs its sanitizer runtime in the program that loads it:
the program is then built with those sanitizers, by the compiler named (the
one of the library's own compiler family, whose runtime the library was built
against), and no other.

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
# -O0: the sanitized build of the test took 28 s at -O1 and 10 s at -O0 (the
# program runs in a fraction of a second either way), and this test is the
# longest of the quick suite; the release suite builds it with the other
# compiler as well.
FLAGS = ['-std=c++17', '-Wall', '-Wextra', '-Werror', '-pedantic', '-g', '-O0']
SANITIZERS = ['-fsanitize=address,undefined', '-fno-sanitize-recover=all', '-fno-omit-frame-pointer']


def build(cxx, args, out, extra):
    cmd = [cxx] + FLAGS + extra + ['-I', args.include, os.path.join(HERE, 'test_cutelayout.cpp'), '-o', out,
                                    '-L', args.lib_dir, '-lcutelayout', '-Wl,-rpath,' + args.lib_dir]
    print('$ ' + ' '.join(cmd), flush=True)
    return subprocess.call(cmd) == 0


def sanitizer_flags(b_sanitize):
    """The compiler flags of Meson's b_sanitize value (e.g. 'address,undefined')."""
    flags = ['-fsanitize=' + b_sanitize, '-fno-omit-frame-pointer']
    if 'undefined' in b_sanitize.split(','):
        flags.append('-fno-sanitize-recover=all')
    return flags


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--include', required=True)
    ap.add_argument('--lib-dir', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--compiler', action='append', default=None)
    ap.add_argument('--library-sanitize', default='none',
                    help="the library's b_sanitize: the program is built with the same sanitizers")
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
        if args.library_sanitize != 'none':
            # Not optional here: without the runtime the program cannot load the library.
            built = build(cxx, args, exe, sanitizer_flags(args.library_sanitize))
        else:
            built = build(cxx, args, exe, SANITIZERS)
            if not built:
                print('%s cannot build with the sanitizers; building without them' % cxx, flush=True)
                built = build(cxx, args, exe, [])
        if not built:
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
