#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The public names of include/cutelayout/*.h can share a file with OpenCL's
headers and CuTe's (issue 12, CONTRACT.md "Names").

    names_audit.py --headers DIR [--opencl DIR | --cc CC...] [--cute DIR] [--list]
    names_audit.py --self-test

A public name is one our headers put in a user's translation unit: every
macro they define or test (`#define X`, `#ifdef X`), and every identifier
they declare at file scope (functions, static inline helpers, typedefs,
struct/union/enum tags, enum constants).  Checked:

  - every public name starts with `cl_`, `CL_` or `CUTELAYOUT_`, and no
    identifier of our headers starts with `CUTE_` (CuTe's macros);
  - with --opencl (the directory holding CL/opencl.h): no public name is an
    identifier anywhere in OpenCL's headers (all of them, every #if branch:
    a superset of what OpenCL defines), and no macro OpenCL defines is an
    identifier of ours (a parameter or member name included), since it
    would rewrite our declarations;
  - with --cute (a CUTLASS checkout's include/): no macro of ours is an
    identifier of CuTe's or CUTLASS's headers, and none of theirs of ours.

--cc finds OpenCL's headers where that compiler finds <CL/opencl.h>.  Exit
77 (skipped) when OpenCL's headers were asked for and are not there, so a
machine without opencl-c-headers skips rather than passes silently.
--self-test runs the audit on made-up headers with one clash of each kind.
"""
import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

SKIP = 77

C_KEYWORDS = set('''
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic
    _Imaginary _Noreturn _Static_assert _Thread_local
    defined __cplusplus extern __attribute__ __declspec __inline__ __restrict__
'''.split())

PUBLIC_PREFIXES = ('cl_', 'CL_', 'CUTELAYOUT_')
# Other libraries' macros that our headers test: DLPack's include guard and
# version (tensor.h uses DLPack's DLTensor when dlpack.h came first).  Names
# starting with '_' (_WIN32, __GNUC__) belong to the implementation.
FOREIGN_MACROS = {'DLPACK_DLPACK_H_', 'DLPACK_VERSION'}
IDENT = re.compile(r'[A-Za-z_]\w*')
# The argument of a compiler query in #if names an attribute, a builtin or a
# header, not a macro: `#if __has_attribute(noplt)` reads no macro noplt.
COMPILER_QUERY = re.compile(r'\b__has_(?:attribute|c_attribute|cpp_attribute|builtin|feature|extension|include)'
                            r'\s*\([^()]*\)')
TOKEN = re.compile(r'[A-Za-z_]\w*|\d\w*|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|\S')


def strip_comments(text):
    """The text with comments and string/char literals blanked (line breaks kept)."""
    def blank(m):
        s = m.group(0)
        if s.startswith('/'):
            return re.sub(r'[^\n]', ' ', s)
        return s[0] + ' ' * (len(s) - 2) + s[-1]
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', blank, text,
                  flags=re.S)


def join_continuations(text):
    return re.sub(r'\\\n', ' ', text)


def read(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        return join_continuations(strip_comments(f.read()))


def identifiers(text):
    return {t for t in IDENT.findall(text) if t not in C_KEYWORDS}


def directives(text):
    """(directive, rest of line) for each preprocessor line."""
    for m in re.finditer(r'^[ \t]*#[ \t]*(\w+)(.*)$', text, flags=re.M):
        yield m.group(1), m.group(2)


def defined_macros(text):
    return {rest.split('(')[0].split()[0] for d, rest in directives(text)
            if d == 'define' and rest.strip()}


def tested_macros(text):
    """Macros a header reads (#if, #ifdef, #ifndef, #elif) that are neither the
    implementation's nor another library's: a user or a build may define them."""
    names = set()
    for d, rest in directives(text):
        if d in ('if', 'ifdef', 'ifndef', 'elif'):
            names |= identifiers(COMPILER_QUERY.sub('', rest))
    return {n for n in names if not n.startswith('_') and n not in FOREIGN_MACROS}


def file_scope_names(text):
    """Identifiers a header declares at file scope: tags (what follows struct,
    union or enum), enum constants, and the declarator of each declaration (a
    function or static inline helper, a typedef, a variable).  Function bodies
    and struct members are not file scope; `extern "C" {` is transparent."""
    code = re.sub(r'^[ \t]*#.*$', ' ', text, flags=re.M)
    tokens = TOKEN.findall(code)
    names = set()
    depth = 0              # braces, not counting extern "C"
    statement = []         # tokens of the current file-scope declaration
    body = None            # 'function', 'record' or 'enum': what the depth-1 braces hold
    expect_constant = False
    for i, tok in enumerate(tokens):
        # A tag is file scope outside function bodies (in C, inside a struct too).
        if (tok in ('struct', 'union', 'enum') and i + 1 < len(tokens) and IDENT.fullmatch(tokens[i + 1])
                and (depth == 0 or body != 'function')):
            names.add(tokens[i + 1])
        if tok == '{':
            if depth == 0 and statement[:1] == ['extern'] and len(statement) == 2:
                statement = []  # extern "C" {
                continue
            if depth == 0:
                kind = next((t for t in reversed(statement) if t in ('struct', 'union', 'enum', ')')), None)
                body = {'enum': 'enum', 'struct': 'record', 'union': 'record'}.get(kind, 'function')
                expect_constant = body == 'enum'
                if body == 'function':
                    declarator(statement, names)
            depth += 1
            continue
        if tok == '}':
            if depth == 0:
                continue  # the end of extern "C"
            depth -= 1
            if depth == 0 and body == 'function':
                statement = []
            continue
        if depth == 1 and body == 'enum':
            if expect_constant and IDENT.fullmatch(tok):
                names.add(tok)
                expect_constant = False
            elif tok == ',':
                expect_constant = True
        if depth > 0:
            continue
        if tok == ';':
            declarator(statement, names)
            statement = []
        else:
            statement.append(tok)
    return names


def declarator(statement, names):
    """The name a file-scope declaration declares: `(*name)` in a typedef (a
    function pointer type), else the identifier before its first top-level
    '(' (a function), else its last identifier (a typedef or a variable)."""
    if statement[:1] == ['typedef']:
        for k in range(len(statement) - 2):
            if statement[k:k + 2] == ['(', '*'] and IDENT.fullmatch(statement[k + 2]):
                names.add(statement[k + 2])
                return
    last = None
    for tok in statement:
        if tok == '(' and last is not None:
            names.add(last)
            return
        if tok in ('(', ')', '[', ']', '=', ','):
            break
        if IDENT.fullmatch(tok) and tok not in C_KEYWORDS:
            last = tok
    if last is not None and len(statement) > 1:
        names.add(last)


def headers_in(directory, pattern):
    return sorted(glob.glob(os.path.join(directory, pattern)))


def foreign_names(paths):
    """(every identifier, every macro defined) of another library's headers."""
    texts = [read(p) for p in paths]
    return set().union(*map(identifiers, texts)), set().union(*map(defined_macros, texts))


def audit(headers_dir, opencl_dir=None, cute_dir=None):
    """(problems, {public name: header}, what was checked besides the prefixes)."""
    where, our_macros, our_idents = {}, set(), set()
    for path in headers_in(headers_dir, '*.h'):
        text = read(path)
        macros = defined_macros(text)
        for n in macros | tested_macros(text) | file_scope_names(text):
            where.setdefault(n, os.path.basename(path))
        our_macros |= macros
        our_idents |= identifiers(text)
    # The C library's names our headers declare with (size_t, int64_t) are not ours,
    # nor the tag of CUDA's stream, which cuda.h names as CUDA does
    # (cudaStream_t is struct CUstream_st *; NCCL's ncclComm_t, which
    # nccl.h names, struct ncclComm *).
    for n in [n for n in where if re.fullmatch(r'u?int\d+_t|size_t|ptrdiff_t|u?intptr_t|bool|CUstream_st|ncclComm', n)]:
        del where[n]

    problems = [f'{where[n]}: public name {n} does not start with cl_, CL_ or CUTELAYOUT_'
                for n in sorted(where) if not n.startswith(PUBLIC_PREFIXES)]
    problems += [f'{n} starts with CUTE_, the prefix of CuTe\'s macros'
                 for n in sorted(our_idents) if n.startswith('CUTE_')]
    checked = []
    if opencl_dir and os.path.isfile(os.path.join(opencl_dir, 'CL', 'opencl.h')):
        paths = headers_in(os.path.join(opencl_dir, 'CL'), '*.h')
        cl_idents, cl_macros = foreign_names(paths)
        problems += [f'{where[n]}: {n} is also a name in OpenCL\'s headers'
                     for n in sorted(set(where) & cl_idents)]
        problems += [f'OpenCL\'s headers define the macro {n}, an identifier of ours'
                     for n in sorted(cl_macros & our_idents)]
        checked.append(f'OpenCL ({len(paths)} headers)')
    if cute_dir:
        paths = [p for sub in ('cute', 'cutlass')
                 for p in glob.glob(os.path.join(cute_dir, sub, '**', '*.h*'), recursive=True)]
        if not paths:
            problems.append(f'no CuTe headers under {cute_dir}')
        cute_idents, cute_macros = foreign_names(paths)
        problems += [f'our macro {n} is an identifier of CuTe\'s or CUTLASS\'s headers'
                     for n in sorted(our_macros & cute_idents)]
        problems += [f'CuTe or CUTLASS define the macro {n}, an identifier of ours'
                     for n in sorted(cute_macros & our_idents)]
        checked.append(f'CuTe ({len(paths)} headers)')
    return problems, where, checked


SELF_TEST_OURS = {
    'common.h': """
        #ifndef CUTELAYOUT_COMMON_H
        #define CUTELAYOUT_COMMON_H
        #define CL_VERSION_MAJOR 0      /* OpenCL's macro */
        #define CUTE_HOST_DEVICE        /* CuTe's prefix */
        #if defined(_WIN32) && defined(CL_BUILDING_X)
        #endif
        #if defined(__has_attribute) && __has_attribute(noplt) && NOT_OURS
        #endif
        extern "C" {
        typedef struct cl_mem cl_mem_t; /* tag is OpenCL's */
        typedef enum cl_state { CL_FINE = 0, CL_SUCCESS_X, CL_SUCCESS = 1 } cl_state;
        typedef void (*cl_context)(void *user_data);  /* OpenCL's type */
        const char *cl_version(void);   /* OpenCL's type */
        static inline int helper_sum(int a) { struct cl_local_t { int x; } v = {a}; return v.x; }
        int cl_fine(int CL_CALLBACK);   /* parameter named as OpenCL's macro */
        int cl_uses_cute(int CUTLASS_HOST_DEVICE);
        }
        #endif
    """,
}
SELF_TEST_OPENCL = """
    #define CL_VERSION_MAJOR(v) ((v) >> 22)
    #define CL_CALLBACK
    typedef struct _cl_mem *cl_mem;
    typedef void *cl_context;
    typedef unsigned cl_version;
    #define CL_SUCCESS 0
"""
SELF_TEST_CUTE = "#define CUTLASS_HOST_DEVICE\nint CUTELAYOUT_COMMON_H;\n"
SELF_TEST_EXPECTED = {
    'public name helper_sum does not start',
    'public name NOT_OURS does not start',
    'CUTE_HOST_DEVICE starts with CUTE_',
    'public name CUTE_HOST_DEVICE does not start',
    'CL_VERSION_MAJOR is also a name in OpenCL',
    'cl_mem is also a name in OpenCL',
    'cl_context is also a name in OpenCL',
    'cl_version is also a name in OpenCL',
    'CL_SUCCESS is also a name in OpenCL',
    'define the macro CL_VERSION_MAJOR, an identifier of ours',
    'define the macro CL_SUCCESS, an identifier of ours',
    'define the macro CL_CALLBACK, an identifier of ours',
    'define the macro CUTLASS_HOST_DEVICE, an identifier of ours',
    'our macro CUTELAYOUT_COMMON_H is an identifier of CuTe',
}


def self_test():
    """The audit finds each kind of clash in a small made-up header set, and
    nothing else (not cl_state, CL_FINE, cl_local_t's member, cl_fine)."""
    with tempfile.TemporaryDirectory() as tmp:
        for sub, files in (('ours', SELF_TEST_OURS), ('opencl/CL', {'opencl.h': SELF_TEST_OPENCL}),
                           ('cute/cute', {'config.hpp': SELF_TEST_CUTE})):
            os.makedirs(os.path.join(tmp, sub))
            for name, text in files.items():
                with open(os.path.join(tmp, sub, name), 'w', encoding='utf-8') as f:
                    f.write(text)
        problems, public, _ = audit(os.path.join(tmp, 'ours'), os.path.join(tmp, 'opencl'),
                                    os.path.join(tmp, 'cute'))
    missed = [e for e in SELF_TEST_EXPECTED if not any(e in p for p in problems)]
    extra = [p for p in problems if not any(e in p for e in SELF_TEST_EXPECTED)]
    wanted = {'cl_state', 'CL_FINE', 'CL_SUCCESS_X', 'cl_fine', 'cl_mem_t', 'CL_BUILDING_X', 'helper_sum'}
    unseen = sorted(wanted - set(public))
    leaked = sorted({'cl_local_t', 'x', 'v', 'a', 'user_data', '_WIN32'} & set(public))
    for what, items in (('missed', missed), ('reported wrongly', extra),
                        ('not seen as public', unseen), ('taken for public', leaked)):
        for item in items:
            print(f'self-test: {what}: {item}')
    return 0 if not (missed or extra or unseen or leaked) else 1


def opencl_dir_of(cc):
    """The include directory where the compiler finds CL/opencl.h, or None."""
    proc = subprocess.run(cc + ['-x', 'c', '-M', '-'], input='#include <CL/opencl.h>\n',
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True)
    for path in proc.stdout.replace('\\\n', ' ').split():
        if proc.returncode == 0 and path.endswith('/CL/opencl.h'):
            return os.path.dirname(os.path.dirname(path))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--headers', help='include/cutelayout')
    ap.add_argument('--opencl', help='an include directory with CL/opencl.h (e.g. /usr/include)')
    ap.add_argument('--cc', nargs='+', help='find OpenCL\'s headers where this compiler does')
    ap.add_argument('--cute', help="a CUTLASS checkout's include directory")
    ap.add_argument('--list', action='store_true', help='print the public names found')
    ap.add_argument('--self-test', action='store_true', help='check the audit on made-up headers')
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if not args.headers or not headers_in(args.headers, '*.h'):
        print(f'no headers in {args.headers}')
        return 1

    opencl = args.opencl or (opencl_dir_of(args.cc) if args.cc else None)
    problems, public, checked = audit(args.headers, opencl, args.cute)
    if args.list:
        for n in sorted(public):
            print(f'{public[n]}: {n}')
    for p in problems:
        print(p)
    if problems:
        return 1
    print(f'{len(public)} public names checked: prefixes' + ''.join(', ' + c for c in checked))
    if (args.opencl or args.cc) and not any(c.startswith('OpenCL') for c in checked):
        print('OpenCL\'s headers not found (Debian: opencl-c-headers): skipping')
        return SKIP
    return 0


if __name__ == '__main__':
    sys.exit(main())
