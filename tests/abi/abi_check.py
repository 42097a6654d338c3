#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The ABI check: compare the freshly built libcutelayout.so with the committed
baseline abi/libcutelayout.abi.xml (libabigail's abidw XML), or regenerate it.

    abi_check.py check  --library LIB --headers DIR --baseline XML
    abi_check.py update --library LIB --headers DIR --baseline XML

`check` fails on any change that can break a program built against the
baseline: a removed function or variable (abidiff's ABIDIFF_ABI_INCOMPATIBLE_CHANGE
bit) and also any changed one (a changed parameter, return or struct type, which
abidiff reports only as ABIDIFF_ABI_CHANGE because it cannot prove the change
incompatible).  Added functions and appended enumerators pass.  Exit 77 (meson's
"skipped") when the tools are missing, the library has no debug information,
or the machine's architecture is not the baseline's.

`update` rewrites the baseline on purpose (meson run_target `abi-baseline`) and
prints what changed against the old one.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77

# Everything that depends on where and by whom the library was built is left
# out, so that the committed XML changes only when the ABI does.
ABIDW_FLAGS = ['--no-corpus-path', '--no-comp-dir-path', '--no-show-locs',
               '--type-id-style', 'hash', '--drop-private-types']


def dump(abidw, library, headers, out):
    subprocess.run([abidw, *ABIDW_FLAGS, '--headers-dir', headers,
                    '--out-file', out, library], check=True)
    with open(out, encoding='utf-8') as f:
        return f.read()


def architecture(xml):
    m = re.search(r"architecture='([^']*)'", xml)
    return m.group(1) if m else None


def harmful_changes(report):
    """The summary lines of an abidiff report that name a removal or change."""
    bad = []
    for line in report.splitlines():
        if 'changes summary:' in line:
            # "Functions changes summary: 1 Removed, 2 Changed (3 filtered out), 4 Added functions"
            removed = re.search(r'(\d+) Removed', line)
            changed = re.search(r'(\d+) Changed', line)
            if (removed and int(removed.group(1))) or (changed and int(changed.group(1))):
                bad.append(line.strip())
        elif 'SONAME changed' in line:
            bad.append(line.strip())
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('mode', choices=['check', 'update'])
    ap.add_argument('--library', required=True)
    ap.add_argument('--headers', required=True, help='the public headers, include/cutelayout')
    ap.add_argument('--baseline', required=True)
    ap.add_argument('--abidw', default='abidw')
    ap.add_argument('--abidiff', default='abidiff')
    args = ap.parse_args()

    abidw = shutil.which(args.abidw)
    abidiff = shutil.which(args.abidiff)
    if abidw is None or abidiff is None:
        print('abidw/abidiff not found (Debian: apt install abigail-tools); skipping')
        return SKIP

    with tempfile.TemporaryDirectory(prefix='cl-abi-') as tmp:
        current_path = os.path.join(tmp, 'current.abi.xml')
        current = dump(abidw, args.library, args.headers, current_path)
        if '<abi-instr' not in current:
            print(f'{args.library} has no debug information (build with -g, e.g. the default '
                  'buildtype=debugoptimized); the ABI check needs the types: skipping')
            return SKIP

        if args.mode == 'update':
            if os.path.exists(args.baseline):
                report = subprocess.run([abidiff, args.baseline, current_path],
                                        stdout=subprocess.PIPE, universal_newlines=True).stdout
                print('Changes against the previous baseline:\n' + report)
            os.makedirs(os.path.dirname(os.path.abspath(args.baseline)), exist_ok=True)
            shutil.copyfile(current_path, args.baseline)
            print(f'wrote {args.baseline}; review it and commit it with a message saying why the ABI changed')
            return 0

        if not os.path.exists(args.baseline):
            print(f'no baseline at {args.baseline}: run `ninja -C <builddir> abi-baseline` and commit it')
            return 1
        with open(args.baseline, encoding='utf-8') as f:
            baseline = f.read()
        if architecture(baseline) != architecture(current):
            print(f'the baseline is for {architecture(baseline)}, this build is for '
                  f'{architecture(current)}: skipping')
            return SKIP

        proc = subprocess.run([abidiff, args.baseline, current_path],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              universal_newlines=True)
        print(f'abidiff {args.baseline} <fresh {os.path.basename(args.library)}>: exit {proc.returncode}')
        print(proc.stdout)
        # abidiff's exit status is a bit field: 1 error, 2 usage error,
        # 4 ABI change, 8 incompatible ABI change.
        failed = []
        if proc.returncode & 3:
            failed.append('abidiff itself failed')
        if proc.returncode & 8:
            failed.append('incompatible ABI change (a symbol was removed)')
        failed += harmful_changes(proc.stdout)
        if failed:
            print('ABI CHECK FAILED:\n  ' + '\n  '.join(failed))
            print('A program built against the baseline could break with this library.  If the\n'
                  'change is deliberate (a new SONAME major, or a field appended to a struct\n'
                  'that carries struct_size), regenerate the baseline with\n'
                  '    ninja -C <builddir> abi-baseline\n'
                  'and commit abi/libcutelayout.abi.xml saying why.  Otherwise restore the old\n'
                  'signature and add a new function instead.')
            return 1
        if proc.returncode & 4:
            print('ABI additions only: compatible.  Refresh the baseline when they are final '
                  '(ninja -C <builddir> abi-baseline).')
        return 0


if __name__ == '__main__':
    sys.exit(main())
