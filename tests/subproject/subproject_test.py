#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""cute-layout as a Meson subproject: a consumer project (consumer/, plus
tests/abi/consume.c) with this source tree linked in as
subprojects/cute-layout is configured, built and tested.

    subproject_test.py --meson MESON... --source ROOT --consumer DIR --consume-c FILE --work DIR

Checks that dependency('cute-layout') (shared and static) and
find_program('cute-layout') resolve to the subproject's overrides, that the
consumer's programs build with its -Werror and pass, that the tool runs as a
build step, that only the library and the tool are built by default, and that
the test suite and the benchmark are built when the parent asks for them.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys


class Failure(Exception):
    pass


def run(cmd):
    print('$ ' + ' '.join(shlex.quote(c) for c in cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    print(proc.stdout, end='' if proc.stdout.endswith('\n') else '\n')
    if proc.returncode != 0:
        raise Failure(f'exit status {proc.returncode}: {" ".join(cmd)}')
    return proc.stdout


def subproject_targets(meson, build):
    """Names of the targets that the subproject cute-layout defines."""
    proc = subprocess.run(meson + ['introspect', '--targets', build], stdout=subprocess.PIPE,
                          universal_newlines=True, check=True)
    return {t['name'] for t in json.loads(proc.stdout) if t['subproject'] == 'cute-layout'}


def needed_libraries(program):
    """The DT_NEEDED entries of an ELF program, or None without readelf."""
    readelf = shutil.which('readelf')
    if readelf is None:
        return None
    out = subprocess.run([readelf, '-d', program], stdout=subprocess.PIPE, universal_newlines=True,
                         check=True).stdout
    return [line.split('[', 1)[1].rstrip(']') for line in out.splitlines() if '(NEEDED)' in line]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--meson', required=True, nargs='+')
    ap.add_argument('--source', required=True, help='the cute-layout source tree')
    ap.add_argument('--consumer', required=True, help='the consumer project (tests/subproject/consumer)')
    ap.add_argument('--consume-c', required=True, help='tests/abi/consume.c')
    ap.add_argument('--work', required=True, help='a scratch directory, emptied first')
    args = ap.parse_args()

    shutil.rmtree(args.work, ignore_errors=True)
    project = os.path.join(args.work, 'project')
    build = os.path.join(args.work, 'build')
    try:
        shutil.copytree(args.consumer, project)
        shutil.copy(args.consume_c, project)
        os.symlink(os.path.abspath(args.source), os.path.join(project, 'subprojects', 'cute-layout'))

        # --force-fallback-for: an installed cute-layout (pkg-config) must not be taken instead.
        run(args.meson + ['setup', '--wrap-mode=nodownload', '--force-fallback-for=cute-layout', build, project])
        built = subproject_targets(args.meson, build)
        if not {'cutelayout', 'cute-layout'} <= built:
            raise Failure(f'the subproject does not define the library and the tool: {sorted(built)}')
        extra = built - {'cutelayout', 'cute-layout', 'cute-layout-cli'}
        if extra:
            raise Failure(f'as a subproject, cute-layout builds more than the library and the tool: {sorted(extra)}')

        run(args.meson + ['compile', '-C', build])
        run(args.meson + ['test', '-C', build, '--print-errorlogs'])
        with open(os.path.join(build, 'size.txt'), encoding='utf-8') as f:
            answer = f.read().strip()
        if answer != '24':
            raise Failure(f'the tool, run as a build step, answered {answer!r} for size((2,(3,4))), not 24')
        needed = needed_libraries(os.path.join(build, 'consume-static'))
        if needed is not None and any(n.startswith('libcutelayout') for n in needed):
            raise Failure(f"dependency('cute-layout', static : true) linked the shared library: {needed}")
        needed = needed_libraries(os.path.join(build, 'consume'))
        if needed is not None and 'libcutelayout.so.1' not in needed:
            raise Failure(f"dependency('cute-layout') did not link libcutelayout.so.1: {needed}")

        # Asked for, the test suite and the benchmark are there (configured, not built).
        run(args.meson + ['configure', build, '-Dcute-layout:tests=enabled', '-Dcute-layout:bench=enabled'])
        run(args.meson + ['setup', '--reconfigure', build, project])
        built = subproject_targets(args.meson, build)
        for wanted in ('cute-layout-bench', 'test_layout'):
            if wanted not in built:
                raise Failure(f'-Dcute-layout:tests=enabled -Dcute-layout:bench=enabled did not define {wanted}')
    except (Failure, OSError, subprocess.CalledProcessError) as e:
        print(f'SUBPROJECT TEST FAILED: {e}\n(the project and its build are kept in {args.work})')
        return 1
    shutil.rmtree(args.work)
    print('cute-layout works as a subproject')
    return 0


if __name__ == '__main__':
    sys.exit(main())
