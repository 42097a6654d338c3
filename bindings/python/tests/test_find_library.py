# SPDX-License-Identifier: BSD-3-Clause
"""How the cutelayout package finds libcutelayout, each way on its own
(cutelayout/_library.py lists them in order), in a fresh interpreter whose environment
names no library path (no CUTELAYOUT_LIBRARY, LD_LIBRARY_PATH, PKG_CONFIG_PATH
or PYTHONPATH unless the case sets it).  tests/abi/consume.py checks the
installed module the same way.

    python3 test_find_library.py --library LIB --build-module DIR

LIB is the built libcutelayout.so.N, DIR holds the package meson configured
for the build tree (DIR/cutelayout/).  Where a case must not find the library in the system's
search path (pkg-config's libdir, nothing at all), the child makes that
search fail, as on a machine where the library is not installed or ldconfig
has not run; the system's search itself is its own case.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_PACKAGE = os.path.join(os.path.dirname(HERE), 'cutelayout')
ARGS = None

# Run in the child: import the module and print the file the dynamic linker
# mapped for libcutelayout (the truth, whatever name ctypes was given).
IMPORT_AND_SAY_WHICH = r'''
import os, sys
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == 'no-system':
    import ctypes, ctypes.util
    real_cdll = ctypes.CDLL
    def cdll(name, *args, **kwargs):
        if os.sep not in name:
            raise OSError(name + ': not in the system search path (test)')
        return real_cdll(name, *args, **kwargs)
    ctypes.CDLL = cdll
    ctypes.util.find_library = lambda name: None
import cutelayout
assert str(cutelayout.Layout('(2,4):(1,2)')) == '(2,4):(1,2)'
with open('/proc/self/maps') as maps:
    print(sorted({line.split()[-1] for line in maps if 'libcutelayout' in line})[0])
'''

# What a clean environment keeps: nothing that says where a library is.
KEPT = ('PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'LD_PRELOAD', 'ASAN_OPTIONS', 'UBSAN_OPTIONS')


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k in KEPT}
    env['PYTHONDONTWRITEBYTECODE'] = '1'
    env.update(extra)
    return env


def import_module(module_dir, env, system=True, python=sys.executable):
    """(exit status, the library file the module loaded or the error's text)."""
    proc = subprocess.run([python, '-c', IMPORT_AND_SAY_WHICH, module_dir,
                           'system' if system else 'no-system'],
                          env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return proc.returncode, (proc.stdout.strip() if proc.returncode == 0 else proc.stderr)


class FindLibrary(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix='find-library-')
        self.soname = 'libcutelayout.so.' + cl_abi_major()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def place(self, *parts, module=False, library=False):
        """A directory under the temporary one, with a copy of the source
        package in it and/or of the library (under its SONAME) in that
        package's directory (or, without one, in the directory itself)."""
        d = os.path.join(self.tmp, *parts)
        os.makedirs(d, exist_ok=True)
        if module:
            shutil.copytree(SOURCE_PACKAGE, os.path.join(d, 'cutelayout'),
                            ignore=shutil.ignore_patterns('__pycache__'))
        if library:
            shutil.copy(ARGS.library, os.path.join(d, 'cutelayout' if module else '', self.soname))
        return d

    def assertLoads(self, module_dir, expected_dir, env, system=True):
        status, out = import_module(module_dir, env, system)
        self.assertEqual(status, 0, out)
        self.assertEqual(os.path.realpath(os.path.dirname(out)), os.path.realpath(expected_dir), out)

    def test_build_tree_module_loads_the_build_library(self):
        self.assertLoads(ARGS.build_module, os.path.dirname(ARGS.library), clean_env(), system=False)

    def test_variable_overrides_everything(self):
        other = self.place('other', library=True)
        self.assertLoads(ARGS.build_module, other,
                         clean_env(CUTELAYOUT_LIBRARY=os.path.join(other, self.soname)))

    def test_variable_naming_no_library_is_an_error(self):
        missing = os.path.join(self.tmp, 'nothing', self.soname)
        status, err = import_module(ARGS.build_module, clean_env(CUTELAYOUT_LIBRARY=missing))
        self.assertNotEqual(status, 0)
        self.assertIn('ImportError: cannot load CUTELAYOUT_LIBRARY=' + missing, err)

    def test_library_beside_the_module(self):
        d = self.place('beside', module=True, library=True)
        self.assertLoads(d, os.path.join(d, 'cutelayout'), clean_env(), system=False)

    def test_library_beside_comes_before_the_configured_one(self):
        # A copy of the build tree's layout: the configured package leads to
        # tree/src/, and a second library sits beside its modules.
        self.place('tree', 'src', library=True)
        module = self.place('tree', 'bindings', 'python')
        shutil.copytree(os.path.join(ARGS.build_module, 'cutelayout'), os.path.join(module, 'cutelayout'),
                        ignore=shutil.ignore_patterns('__pycache__'))
        package = os.path.join(module, 'cutelayout')
        shutil.copy(ARGS.library, os.path.join(package, self.soname))
        self.assertLoads(module, package, clean_env(), system=False)
        os.remove(os.path.join(package, self.soname))
        self.assertLoads(module, os.path.join(self.tmp, 'tree', 'src'), clean_env(), system=False)

    def test_system_search_path(self):
        module = self.place('alone', module=True)
        libs = self.place('libs', library=True)
        self.assertLoads(module, libs, clean_env(LD_LIBRARY_PATH=libs))

    def test_pkg_config_libdir(self):
        if not (shutil.which('pkg-config') or shutil.which('pkgconf')):
            self.skipTest('no pkg-config')
        module = self.place('alone', module=True)
        prefix = os.path.join(self.tmp, 'prefix')
        libdir = self.place('prefix', 'lib', 'x86_64-linux-gnu', library=True)
        pcdir = self.place('prefix', 'lib', 'x86_64-linux-gnu', 'pkgconfig')
        with open(os.path.join(pcdir, 'cute-layout.pc'), 'w', encoding='utf-8') as f:
            f.write(f'prefix={prefix}\nlibdir=${{prefix}}/lib/x86_64-linux-gnu\n'
                    'Name: cute-layout\nDescription: test\nVersion: 0\nLibs: -L${libdir} -lcutelayout\n')
        self.assertLoads(module, libdir, clean_env(PKG_CONFIG_PATH=pcdir), system=False)

    def test_nothing_found_says_what_to_do(self):
        module = self.place('alone', module=True)
        empty = self.place('empty')
        status, err = import_module(module, clean_env(PKG_CONFIG_PATH=empty, PKG_CONFIG_LIBDIR=empty),
                                    system=False)
        self.assertNotEqual(status, 0)
        self.assertIn('ImportError: ' + self.soname + ' not found; tried ' +
                      os.path.join(module, 'cutelayout', self.soname) + ' (beside the module)', err)
        for advice in ('pip install .', 'meson install', 'sudo ldconfig', 'PKG_CONFIG_PATH', 'CUTELAYOUT_LIBRARY'):
            self.assertIn(advice, err)


def cl_abi_major():
    with open(os.path.join(SOURCE_PACKAGE, '_capi.py'), encoding='utf-8') as f:
        for line in f:
            if line.strip().startswith("'CL_ABI_VERSION': "):
                return line.split(':')[1].strip(' ,\n')
    raise AssertionError('no CL_ABI_VERSION in cutelayout/_capi.py')


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--library', required=True)
    ap.add_argument('--build-module', required=True)
    ARGS, rest = ap.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
