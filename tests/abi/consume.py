#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Install and consume: `meson install --destdir` into a temporary root, then
build and run programs against the installed tree, knowing the library only
through `pkg-config --cflags --libs cute-layout`.

  - every installed public header compiles alone as C99 -pedantic, C11 and C++17;
  - consume.c (C11) and consume.cpp (C++17) link against the shared library and
    run with only the installed libdir on LD_LIBRARY_PATH;
  - consume.c links statically (`pkg-config --static`, `-static`) and runs;
  - the installed tool runs, and its man page and cute-layout.pc are in place;
  - with no variable naming a library path (no LD_LIBRARY_PATH,
    CUTELAYOUT_LIBRARY, PKG_CONFIG_PATH), the tool carries exactly the
    RUNPATH meson was configured with ($ORIGIN/../<libdir> for any prefix
    but /usr, none for /usr: Debian packages must not have one) and, where
    it has one, runs; and the installed Python package imports and loads the
    library installed in the temporary root (its configured path is relative
    to itself: the temporary root is a moved prefix).

The temporary root acts as the sysroot of the installed prefix
(PKG_CONFIG_SYSROOT_DIR), so the .pc file is the one a distribution would ship.

With --installed the same checks run on what is installed in the system
itself (Debian's packages, tests/packaging/deb_test.sh): no `meson install`,
the system's pkg-config search path and library path.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# The Python binding's test of how the module finds the library: a clean
# environment and an import that says which library file it loaded.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'bindings', 'python', 'tests'))
from test_find_library import clean_env, import_module  # noqa: E402

SKIP = 77
WARNINGS = ['-Wall', '-Wextra', '-pedantic', '-Werror']


class Failure(Exception):
    pass


def run(cmd, env=None, cwd=None):
    print('$ ' + ' '.join(shlex.quote(c) for c in cmd), flush=True)
    proc = subprocess.run(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True)
    if proc.stdout:
        print(proc.stdout, end='' if proc.stdout.endswith('\n') else '\n')
    if proc.returncode != 0:
        raise Failure(f'exit status {proc.returncode}: {cmd[0]}')
    return proc.stdout


def under(root, prefix, directory):
    """The installed location of an install directory option, inside root."""
    path = directory if os.path.isabs(directory) else os.path.join(prefix, directory)
    return os.path.join(root, path.lstrip('/'))


def runpath(program):
    """The RPATH and RUNPATH entries of a program, by readelf."""
    out = subprocess.run(['readelf', '--dynamic', '--wide', program], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    return re.findall(r'\((?:RPATH|RUNPATH)\)\s+Library (?:rpath|runpath): \[([^\]]*)\]', out)


def check_tool_runpath(tool, rpath):
    found = runpath(tool)
    expected = [rpath] if rpath else []
    if found != expected:
        raise Failure(f'the installed tool has RUNPATH {found}, meson was configured for {expected}')
    if rpath:
        out = run([tool, 'eval', 'size((2,(2,2)):(4,(2,1)))'], env=clean_env())
        if out.strip() != '8':
            raise Failure('the installed tool evaluated size(...) wrongly without LD_LIBRARY_PATH')
    else:
        print('no RUNPATH, as configured: the tool relies on the system search path')


def check_python_module(python, module_dir, libdir):
    if not os.path.isfile(os.path.join(module_dir, 'cutelayout', '__init__.py')):
        raise Failure(f'the cutelayout package is not installed in {module_dir}')
    status, loaded = import_module(module_dir, clean_env(), python=python)
    print(loaded)
    if status != 0:
        raise Failure('the installed Python module does not import with a clean environment')
    if os.path.realpath(os.path.dirname(loaded)) != os.path.realpath(libdir):
        raise Failure(f'the installed module loaded {loaded}, not the library installed in {libdir}')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--meson', nargs='+', help='needed unless --installed')
    ap.add_argument('--builddir', help='needed unless --installed')
    ap.add_argument('--installed', action='store_true',
                    help='check the installation in / instead of installing the build into a temporary root')
    ap.add_argument('--srcdir', required=True, help='tests/abi, where consume.c lives')
    ap.add_argument('--prefix', required=True)
    for d in ('libdir', 'includedir', 'bindir', 'mandir'):
        ap.add_argument('--' + d, required=True)
    ap.add_argument('--version', required=True)
    ap.add_argument('--headers', required=True, nargs='+', help='names of the public headers')
    ap.add_argument('--cc', required=True, nargs='+')
    ap.add_argument('--cxx', nargs='+', default=[])
    ap.add_argument('--pkg-config', default='pkg-config')
    ap.add_argument('--sanitize', default='none', help="meson's b_sanitize")
    ap.add_argument('--static', action='store_true', help='a static library is installed')
    ap.add_argument('--rpath', default='', help="the tool's configured install_rpath ('' for none)")
    ap.add_argument('--python-module-dir', default='', help="where the cutelayout package is installed ('' if not)")
    ap.add_argument('--python', default=sys.executable, help='the Python meson installed the module for')
    args = ap.parse_args()
    if not args.installed and not (args.meson and args.builddir):
        ap.error('--meson and --builddir are needed unless --installed')

    pkg_config = shutil.which(args.pkg_config)
    if pkg_config is None:
        print('pkg-config not found; skipping')
        return SKIP

    work = tempfile.mkdtemp(prefix='consume-tmp-', dir=args.builddir)
    try:
        if args.installed:
            root = '/'
        else:
            root = os.path.join(work, 'root')
            run(args.meson + ['install', '-C', args.builddir, '--no-rebuild', '--quiet',
                              '--destdir', root])
        libdir = under(root, args.prefix, args.libdir)
        includedir = under(root, args.prefix, args.includedir)
        bindir = under(root, args.prefix, args.bindir)
        mandir = under(root, args.prefix, args.mandir)
        pcdir = os.path.join(libdir, 'pkgconfig')

        for name in args.headers + ['pkgconfig/cute-layout.pc']:
            where = includedir + '/cutelayout' if name.endswith('.h') else libdir
            if not os.path.isfile(os.path.join(where, name)):
                raise Failure(f'{name} is not installed in {where}')
        man_page = os.path.join(mandir, 'man1', 'cute-layout.1')
        if not any(os.path.isfile(man_page + ext) for ext in ('', '.gz')):  # distributions compress it
            raise Failure('the man page cute-layout.1 is not installed')

        env = dict(os.environ)
        if args.installed:
            found = run([pkg_config, '--variable=pcfiledir', 'cute-layout'], env=env).strip()
            if os.path.realpath(found) != os.path.realpath(pcdir):
                raise Failure(f'pkg-config finds cute-layout.pc in {found}, not in {pcdir}')
        else:
            env.update(PKG_CONFIG_PATH=pcdir, PKG_CONFIG_LIBDIR=pcdir, PKG_CONFIG_SYSROOT_DIR=root,
                       PKG_CONFIG_ALLOW_SYSTEM_CFLAGS='1', PKG_CONFIG_ALLOW_SYSTEM_LIBS='1')
        modversion = run([pkg_config, '--modversion', 'cute-layout'], env=env).strip()
        if modversion != args.version:
            raise Failure(f'cute-layout.pc says Version {modversion}, the project is {args.version}')
        flags = shlex.split(run([pkg_config, '--cflags', '--libs', 'cute-layout'], env=env))
        cflags = shlex.split(run([pkg_config, '--cflags', 'cute-layout'], env=env))
        static_flags = shlex.split(run([pkg_config, '--static', '--cflags', '--libs', 'cute-layout'], env=env))
        sanitize = [] if args.sanitize in ('', 'none') else ['-fsanitize=' + args.sanitize]
        run_env = dict(os.environ, LD_LIBRARY_PATH='' if args.installed else libdir)

        # Each header on its own, in each language docs/abi-and-packaging.md promises.
        languages = [('c', args.cc, ['-std=c99'], 'c99'), ('c', args.cc, ['-std=c11'], 'c11')]
        if args.cxx:
            languages.append(('c++', args.cxx, ['-std=c++17'], 'c++17'))
        for header in args.headers:
            for lang, compiler, std, tag in languages:
                unit = os.path.join(work, f'{header}.{tag}.{"c" if lang == "c" else "cpp"}')
                with open(unit, 'w', encoding='utf-8') as f:
                    # twice: the include guard works
                    f.write(f'#include <cutelayout/{header}>\n' * 2 +
                            ('int main(void) { return 0; }\n' if lang == 'c' else 'int main() { return 0; }\n'))
                run(compiler + std + WARNINGS + cflags + ['-fsyntax-only', unit])

        # Dynamic linking, C11 and C++17.
        c11 = os.path.join(work, 'consume_c11')
        run(args.cc + ['-std=c11'] + WARNINGS + sanitize +
            [os.path.join(args.srcdir, 'consume.c'), '-o', c11] + flags)
        run([c11], env=run_env)
        if args.cxx:
            cxx17 = os.path.join(work, 'consume_cxx17')
            run(args.cxx + ['-std=c++17'] + WARNINGS + sanitize +
                [os.path.join(args.srcdir, 'consume.cpp'), '-o', cxx17] + flags)
            run([cxx17], env=run_env)
        else:
            print('no C++ compiler: the C++17 consumer was not built')

        # Static linking: everything from the .a and Libs.private, no libcutelayout.so at run time.
        if args.static and not sanitize:
            probe = os.path.join(work, 'probe.c')
            with open(probe, 'w', encoding='utf-8') as f:
                f.write('int main(void) { return 0; }\n')
            try:
                run(args.cc + [probe, '-static', '-o', probe + '.out'])
                can_static = True
            except Failure:
                can_static = False
                print('the toolchain cannot link -static programs (no static libc): static consumer skipped')
            if can_static:
                c11_static = os.path.join(work, 'consume_c11_static')
                run(args.cc + ['-std=c11'] + WARNINGS +
                    [os.path.join(args.srcdir, 'consume.c'), '-o', c11_static, '-static'] + static_flags)
                run([c11_static], env=dict(os.environ, LD_LIBRARY_PATH=''))
        elif args.static:
            print('sanitizer build: static consumer skipped')

        # The installed tool.
        tool = os.path.join(bindir, 'cute-layout')
        out = run([tool, '--version'], env=run_env)
        if args.version not in out:
            raise Failure(f'`cute-layout --version` does not mention {args.version}')
        out = run([tool, 'eval', 'size((2,(2,2)):(4,(2,1)))'], env=run_env)
        if out.strip() != '8':
            raise Failure('the installed tool evaluated size(...) wrongly')

        # No variable names a library path: the tool through its RUNPATH, the
        # Python module through its configured libdir.
        check_tool_runpath(tool, args.rpath)
        if args.python_module_dir and not sanitize:
            check_python_module(args.python, under(root, args.prefix, args.python_module_dir), libdir)
        elif args.python_module_dir:
            print('sanitizer build: the installed Python module is not imported')
    except Failure as e:
        print(f'INSTALL-AND-CONSUME FAILED: {e}\n(the temporary tree is kept in {work})')
        return 1
    shutil.rmtree(work)
    print('installed tree consumed successfully')
    return 0


if __name__ == '__main__':
    sys.exit(main())
