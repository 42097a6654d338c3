#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Compile several C sources with ONE emcc run, writing each object (and the
run's merged depfile) into one folder.

Why: emcc is a Python program that starts an interpreter and its toolchain
checks on every call, about a second of CPU per source before clang starts;
the playground's 70 sources cost more CPU than the whole native build.  One
call per batch pays that once.  emcc refuses `-o` with several sources, so the
objects are written to the current folder (named after each source), which
is why this runs emcc inside the output folder.

    emcc_batch.py EMCC OUTDIR DEPFILE ARG... -- SOURCE...

DEPFILE names the batch's first object as the target and every header any
source of the batch read, so ninja recompiles the batch when one changes."""
import os
import subprocess
import sys


def read_depfile(path):
    """The prerequisites of a make-style depfile (one target)."""
    with open(path, encoding='utf-8') as f:
        text = f.read().replace('\\\n', ' ')
    _, _, deps = text.partition(': ')
    return deps.split()


def main(argv):
    emcc, outdir, depfile = argv[1:4]
    sep = argv.index('--')
    args, sources = argv[4:sep], [os.path.abspath(s) for s in argv[sep + 1:]]
    depfile = os.path.abspath(depfile)
    # Relative include paths and sources are the build folder's: absolute
    # before changing folder.
    args = ['-I' + os.path.abspath(a[2:]) if a.startswith('-I') else a for a in args]
    os.makedirs(outdir, exist_ok=True)
    status = subprocess.call([emcc] + args + ['-MD', '-c'] + sources, cwd=outdir)
    if status != 0:
        return status
    stems = [os.path.splitext(os.path.basename(s))[0] for s in sources]
    deps = []
    for stem in stems:
        deps += read_depfile(os.path.join(outdir, stem + '.d'))
    first = os.path.join(outdir, stems[0] + '.o')
    with open(depfile, 'w', encoding='utf-8') as f:
        f.write(first + ': ' + ' \\\n  '.join(dict.fromkeys(deps)) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
