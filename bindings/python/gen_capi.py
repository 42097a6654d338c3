#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes cutelayout/_capi.py, the C API as data, from the public headers.

    python3 bindings/python/gen_capi.py            rewrite the committed file
    python3 bindings/python/gen_capi.py --check    exit 1 when it differs

_capi.py holds every exported function (its return type and parameter
types, as the header spells them), every integer constant (enum values and
#defines) and the members of every struct of the headers that
<cutelayout/cutelayout.h> includes.  The
Python binding declares its ctypes functions from it, so a function added to
a header reaches Python by running this script; the test suite runs it with
--check and fails when the committed file is stale.

The headers follow one style (STYLE.md): each function is one declaration
`CL_API <return type> <name>(<parameters>);`, possibly over several lines;
enums are `typedef enum name { A = 0, ... } name;`.  Anything else is not
read.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
HEADERS = os.path.join(ROOT, 'include', 'cutelayout')
OUTPUT = os.path.join(HERE, 'cutelayout', '_capi.py')


def umbrella_headers(header_dir):
    """The headers cutelayout.h includes, in its order."""
    with open(os.path.join(header_dir, 'cutelayout.h'), encoding='utf-8') as f:
        return re.findall(r'^#include "([^"]+)"', f.read(), re.M)


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    return re.sub(r'//[^\n]*', ' ', text)


def normalize_type(c_type):
    """'const cl_layout_t*' and 'const  cl_layout_t *' -> 'const cl_layout_t *'."""
    c_type = re.sub(r'\s*\*\s*', ' *', c_type.strip())
    c_type = re.sub(r'\s+', ' ', c_type)
    return c_type.replace('* *', '**').replace('*const *', '*const *').strip()


def split_declarator(param):
    """'const int64_t *path' -> ('const int64_t *', 'path'); 'void' -> None."""
    param = ' '.join(param.split())
    if param in ('void', ''):
        return None
    m = re.match(r'^(.*?)(\w+)$', param)
    if not m or not m.group(1).strip():
        raise SystemExit('cannot read the parameter %r' % param)
    return normalize_type(m.group(1)), m.group(2)


def functions(text):
    """{name: (return type, (parameter types...))} for each CL_API declaration."""
    out = {}
    for decl in re.findall(r'\bCL_API\s+([^;{]*?\))\s*;', text, re.S):
        decl = re.sub(r'\bCL_NOPLT\b', '', decl)  # how a program calls it, not what it is
        m = re.match(r'^(.*?)\b(cl_\w+)\s*\((.*)\)$', ' '.join(decl.split()), re.S)
        if not m:
            raise SystemExit('cannot read the declaration %r' % decl)
        ret, name, params = normalize_type(m.group(1)), m.group(2), m.group(3)
        types = tuple(p[0] for p in (split_declarator(x) for x in params.split(',')) if p)
        out[name] = (ret, types)
    return out


def evaluate(expr, known):
    """The value of a #define: an integer expression of literals and earlier
    constants, or a string literal; None for anything else."""
    expr = re.sub(r'\((?:u?int\d+_t|size_t|int|long)\)', '', expr.strip())
    expr = re.sub(r'\b(\d+)[uUlL]+\b', r'\1', expr)  # 1u, 1ULL
    if re.fullmatch(r'"[^"]*"', expr):
        return expr[1:-1]
    tokens = re.findall(r'\w+|<<|[()+*-]|\S', expr)
    if not tokens:
        return None
    for tok in tokens:
        if not (tok.isdigit() or tok in known or tok in ('<<', '(', ')', '+', '*', '-')):
            return None
    value = eval(' '.join(str(known.get(t, t)) for t in tokens), {'__builtins__': {}})  # noqa: S307 (digits and operators only)
    return value if isinstance(value, int) else None


def constants(text):
    out = {}
    for body in re.findall(r'typedef\s+enum\s+\w*\s*\{(.*?)\}', text, re.S):
        value = -1
        for item in body.split(','):
            m = re.match(r'\s*(\w+)\s*(?:=\s*(.+?))?\s*$', item, re.S)
            if not m:
                continue
            value = evaluate(m.group(2), out) if m.group(2) else value + 1
            out[m.group(1)] = value
    for name, expr in re.findall(r'^#define\s+((?:CL|CUTELAYOUT)_\w+)[ \t]+(.+)$', text, re.M):
        value = evaluate(expr, out)
        if value is not None:
            out[name] = value
    return out


def structs(text):
    """{typedef name: (member names...)} for each `typedef struct tag {...} name;`."""
    out = {}
    for body, name in re.findall(r'typedef\s+struct\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;', text, re.S):
        members = []
        for decl in body.split(';'):
            decl = ' '.join(decl.split())
            if not decl:
                continue
            pointer_to_function = re.search(r'\(\s*\*\s*(\w+)\s*\)', decl)
            if pointer_to_function:
                members.append(pointer_to_function.group(1))
                continue
            # `int64_t tile_rows, tile_cols` declares two; `uint8_t shift[N]` one.
            first, *more = decl.split(',')
            for declarator in [first] + more:
                members.append(re.findall(r'(\w+)\s*(?:\[[^\]]*\])?\s*$', declarator)[0])
        out[name] = tuple(members)
    return out


def generate(header_dir):
    text = ''
    for header in umbrella_headers(header_dir):
        with open(os.path.join(header_dir, header), encoding='utf-8') as f:
            text += strip_comments(f.read()) + '\n'
    lines = ['# SPDX-License-Identifier: BSD-3-Clause',
             '# The C API of <cutelayout/cutelayout.h> as data: generated by',
             '# bindings/python/gen_capi.py from the headers.  Do not edit: run',
             '#     python3 bindings/python/gen_capi.py',
             '# after changing a public header (the test python-capi fails until then).',
             '',
             '# Integer and string constants: enum values and #defines.',
             'CONSTANTS = {']
    for name, value in sorted(constants(text).items()):
        lines.append('    %r: %r,' % (name, value))
    lines += ['}', '',
              '# Exported functions: name -> (return type, parameter types), as declared.',
              'FUNCTIONS = {']
    for name, (ret, params) in sorted(functions(text).items()):
        lines.append('    %r: (%r, %r),' % (name, ret, params))
    lines += ['}', '', '# Structs: typedef name -> member names, in order.', 'STRUCTS = {']
    for name, members in sorted(structs(text).items()):
        lines.append('    %r: %r,' % (name, members))
    lines.append('}')
    return '\n'.join(lines) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--check', action='store_true', help='compare with the committed file instead of writing it')
    ap.add_argument('--headers', default=HEADERS, help='directory of the public headers')
    ap.add_argument('--output', default=OUTPUT)
    args = ap.parse_args()
    new = generate(args.headers)
    if args.check:
        with open(args.output, encoding='utf-8') as f:
            old = f.read()
        if old != new:
            import difflib
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       'committed ' + os.path.basename(args.output),
                                                       'from the headers'))
            print('\n%s is stale: run python3 bindings/python/gen_capi.py' % args.output)
            return 1
        print('%s matches the headers (%d functions)' % (args.output, new.count('\n    \'cl_')))
        return 0
    with open(args.output, 'w', encoding='utf-8') as f:
        f.write(new)
    return 0


if __name__ == '__main__':
    sys.exit(main())
