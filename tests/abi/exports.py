#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""What libcutelayout.so exports, checked against the public headers.

    exports.py --library LIB --headers DIR --abi-major N

- every exported symbol starts with cl_ and carries a version node
  CUTELAYOUT_<N>.<minor> of this ABI major (src/cutelayout.map);
- every function a public header declares with CL_API is exported (a
  declaration without a definition links for nobody);
- every exported symbol is declared in a public header (nothing leaks from a
  missing `static` or a stray CL_API);
- the SONAME is libcutelayout.so.<N>.

Exit 77 (skipped) where readelf is missing or the library is not ELF.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

SKIP = 77

# `CL_API <return type> name(` with the declaration possibly spread over lines.
DECLARATION = re.compile(r'\bCL_API\b[^;{}()]*?\b(cl_\w+)\s*\(')


def declared_functions(headers_dir):
    names = {}
    for path in sorted(glob.glob(os.path.join(headers_dir, '*.h'))):
        with open(path, encoding='utf-8') as f:
            text = f.read()
        text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)  # comments may say "CL_API"
        text = re.sub(r'^\s*#\s*define\b.*$', ' ', text, flags=re.M)
        for m in DECLARATION.finditer(text):
            names.setdefault(m.group(1), os.path.basename(path))
    return names


def exported_symbols(readelf, library):
    """{name: version} of the defined global symbols of the dynamic table."""
    out = subprocess.run([readelf, '--dyn-syms', '--wide', library], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    symbols = {}
    for line in out.splitlines():
        fields = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(fields) < 8 or not fields[0].rstrip(':').isdigit():
            continue
        sym_type, bind, ndx, name = fields[3], fields[4], fields[6], fields[7]
        if ndx == 'UND' or bind == 'LOCAL':
            continue
        if ndx == 'ABS' and sym_type == 'OBJECT' and '@' not in name:
            continue  # the definition of a version node itself
        base, _, version = name.partition('@')
        symbols[base] = version.lstrip('@')
    return symbols


def soname(readelf, library):
    out = subprocess.run([readelf, '--dynamic', '--wide', library], check=True,
                         stdout=subprocess.PIPE, universal_newlines=True).stdout
    m = re.search(r'\(SONAME\)\s+Library soname: \[([^\]]+)\]', out)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--library', required=True)
    ap.add_argument('--headers', required=True)
    ap.add_argument('--abi-major', required=True, type=int)
    ap.add_argument('--readelf', default='readelf')
    args = ap.parse_args()

    readelf = shutil.which(args.readelf)
    if readelf is None:
        print('readelf not found (binutils); skipping')
        return SKIP
    with open(args.library, 'rb') as f:
        if f.read(4) != b'\x7fELF':
            print(f'{args.library} is not an ELF file; skipping')
            return SKIP

    problems = []
    declared = declared_functions(args.headers)
    exported = exported_symbols(readelf, args.library)
    node = re.compile(r'CUTELAYOUT_%d\.\d+$' % args.abi_major)

    for name, version in sorted(exported.items()):
        if not name.startswith('cl_'):
            problems.append(f'{name} is exported but lacks the cl_ prefix')
        if not node.match(version):
            problems.append(f'{name} has version node {version or "(none)"}, '
                            f'expected CUTELAYOUT_{args.abi_major}.<minor> (src/cutelayout.map)')
        if name not in declared:
            problems.append(f'{name} is exported but declared in no public header')
    for name, header in sorted(declared.items()):
        if name not in exported:
            problems.append(f'{name} is declared CL_API in {header} but the library does not export it')

    expected_soname = f'libcutelayout.so.{args.abi_major}'
    actual_soname = soname(readelf, args.library)
    if actual_soname != expected_soname:
        problems.append(f'SONAME is {actual_soname}, expected {expected_soname}')

    print(f'{len(exported)} exported symbols, {len(declared)} CL_API declarations, SONAME {actual_soname}')
    if problems:
        print('\n'.join(problems))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
