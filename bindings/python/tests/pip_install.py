# SPDX-License-Identifier: BSD-3-Clause
"""`pip install .` as a user does it, into a fresh virtual environment, then
the package's tests against the installed copy.

    python3 pip_install.py --source SRCDIR --work DIR

A copy of SRCDIR (without build directories) is installed with
`pip install --no-build-isolation --no-index` (offline: meson-python and
numpy come from the system, Debian's python3-mesonpy and python3-numpy,
through --system-site-packages).  Then, in a clean environment (no
PYTHONPATH, CUTELAYOUT_LIBRARY or LD_LIBRARY_PATH) and outside the source
tree: the package imports from the environment, loads the library inside
it and its compiled extension, `python -m cutelayout` runs the tool inside
it, and the package's suite passes: tests/test_<name>.py for each --suite
name (meson passes the names of the suite it runs on the build's package;
by default all of them).  Last, `pip uninstall` removes every file it
installed.

Exit 77 (skipped) without python3-venv or meson-python, unless
CUTE_LAYOUT_REQUIRE_BINDINGS=1 (CI), where that is a failure.
"""
import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = ['cutelayout', 'pythonic', 'tensor', 'coord', 'cuda', 'native', 'pycute', 'fuzz', 'explain', 'atoms', 'banks']
KEPT = ('PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'CUTELAYOUT_EXPECTED_VERSION', 'PYCUTE_PATH')

WHICH = r'''
import cutelayout, os
from cutelayout import _handles
with open('/proc/self/maps') as maps:
    libs = sorted({line.split()[-1] for line in maps if 'libcutelayout' in line})
print(os.path.dirname(cutelayout.__file__))
print(libs[0])
print(len(libs))
print(_handles.native.__file__ if _handles.native else '')
'''


def missing_tools(python):
    for module, package in (('venv', 'python3-venv'), ('ensurepip', 'python3-venv'), ('mesonpy', 'python3-mesonpy'),
                            ('pyproject_metadata', 'python3-pyproject-metadata')):
        if subprocess.call([python, '-c', 'import ' + module], stderr=subprocess.DEVNULL) != 0:
            return '%s is not importable (Debian: apt install %s)' % (module, package)
    if shutil.which('patchelf') is None:
        # meson-python only recommends it, and fails without it.
        return 'patchelf is not installed (Debian: apt install patchelf)'
    return None


def run(cmd, **kwargs):
    print('$ ' + ' '.join(cmd), flush=True)
    return subprocess.run(cmd, check=True, **kwargs)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--source', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--suite', nargs='+', default=SUITE, metavar='NAME', help='run tests/test_NAME.py (default: all)')
    args = ap.parse_args()

    python = sys.executable
    why = missing_tools(python)
    if why:
        print('skipping the pip install test: ' + why)
        return 1 if os.environ.get('CUTE_LAYOUT_REQUIRE_BINDINGS') == '1' else SKIP

    if os.path.exists(args.work):
        shutil.rmtree(args.work)
    source = os.path.join(args.work, 'cute-layout')
    by_name = shutil.ignore_patterns('build*', '.git', '.mesonpy*', '__pycache__', 'target', 'Cargo.lock',
                                     'packagecache')

    def ignored(directory, names):
        # Build directories of any name (a Debian package build's obj-*
        # lies inside the source tree, and so does this test's work
        # directory) are not part of the source.
        return set(by_name(directory, names)) | {
            n for n in names if os.path.isdir(os.path.join(directory, n, 'meson-private'))
            or os.path.abspath(os.path.join(directory, n)) == os.path.abspath(args.work)}
    shutil.copytree(args.source, source, symlinks=True, ignore=ignored)
    venv = os.path.join(args.work, 'venv')
    run([python, '-m', 'venv', '--system-site-packages', venv])
    vpython = os.path.join(venv, 'bin', 'python')
    env = {k: v for k, v in os.environ.items() if k in KEPT}
    env.update(PYTHONDONTWRITEBYTECODE='1', PIP_DISABLE_PIP_VERSION_CHECK='1', PIP_NO_CACHE_DIR='1')
    run([vpython, '-m', 'pip', 'install', '--no-build-isolation', '--no-index', '--no-deps', source], env=env)

    # Import from the environment, outside the source tree.
    out = run([vpython, '-c', WHICH], env=env, cwd=args.work, stdout=subprocess.PIPE,
              universal_newlines=True).stdout.split('\n')
    package, library, libraries, native = out[0], out[1], int(out[2]), out[3]
    print('imported %s, loaded %s, extension %s' % (package, library, native or '(none)'))
    # The compiled extension is in the package and links the package's own
    # library (one copy loaded), and no CUDA module came along: the package
    # would never load it from where Meson installs it.
    if libraries != 1:
        raise SystemExit('%d copies of libcutelayout loaded' % libraries)
    if os.path.dirname(native) != package:
        raise SystemExit('the compiled extension is not in use: %r' % native)
    for directory, _, files in os.walk(venv):
        cuda = [f for f in files if f.startswith('libcutelayout-cuda')]
        if cuda:
            raise SystemExit('the wheel installed %s in %s' % (cuda, directory))
    if not package.startswith(os.path.realpath(venv)) and not package.startswith(venv):
        raise SystemExit('the package was imported from %s, not from the virtual environment' % package)
    if os.path.dirname(os.path.realpath(library)) != os.path.realpath(package):
        raise SystemExit('the package loaded %s, not the library installed inside it' % library)
    for name in ('libcutelayout.so.1', 'cute-layout', 'py.typed'):
        if not os.path.isfile(os.path.join(package, name)):
            raise SystemExit('%s is not installed in %s' % (name, package))
    tool = run([vpython, '-m', 'cutelayout', 'eval', 'composition((6,2):(8,2),(4,3):(3,1))'], env=env,
               cwd=args.work, stdout=subprocess.PIPE, universal_newlines=True).stdout
    if tool != '((2,2),3):((24,2),8)\n':
        raise SystemExit('python -m cutelayout eval printed %r' % tool)

    failed = []
    suite_env = dict(env, CUTELAYOUT_REQUIRE_EXTENSION='1')  # (checked above: the installed extension loads)
    for name in args.suite:
        test = 'test_%s.py' % name
        if subprocess.call([vpython, os.path.join(HERE, test)], env=suite_env, cwd=args.work) != 0:
            failed.append(test)
    if failed:
        raise SystemExit('failed against the installed package: ' + ', '.join(failed))

    run([vpython, '-m', 'pip', 'uninstall', '-y', 'cutelayout'], env=env)
    if os.path.exists(package):
        raise SystemExit('pip uninstall left %s behind: %s' % (package, os.listdir(package)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
