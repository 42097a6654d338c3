# SPDX-License-Identifier: BSD-3-Clause
"""Finding libcutelayout and the cute-layout tool.

The library is loaded, in this order, from:
  1. $CUTELAYOUT_LIBRARY, a path, when it is set (and then only there);
  2. libcutelayout.so.<ABI major> beside this file (inside the package
     directory: where `pip install .` puts it);
  3. the library directory this file was configured with: the build tree's
     src/ for the copy meson writes to <build>/bindings/python/cutelayout/,
     the installed libdir for the copy `meson install` puts in Python's path
     (relative to this file, so a moved prefix or a DESTDIR still works);
  4. the system's search (LD_LIBRARY_PATH, ldconfig's cache, ctypes.util.find_library);
  5. the libdir that `pkg-config --variable=libdir cute-layout` reports
     (a prefix under /usr/local before `ldconfig` has run, or one under
     $HOME named by PKG_CONFIG_PATH).
The tool (`python3 -m cutelayout`) is looked for the same way: beside this
file, in the configured bindir, then on PATH.
"""
import ctypes
import ctypes.util
import os
import shutil
import subprocess

from . import _capi

ABI_VERSION = _capi.CONSTANTS['CL_ABI_VERSION']
ABI_MINOR = _capi.CONSTANTS['CL_ABI_MINOR']
SONAME = 'libcutelayout.so.%d' % ABI_VERSION
TOOL = 'cute-layout'

# Meson replaces these with the library's and the tool's directories relative
# to this file's (bindings/python/cutelayout/meson.build); in the source tree
# they stay as they are.
_CONFIGURED_LIBDIR = '@LIBDIR_FROM_MODULE@'
_CONFIGURED_BINDIR = '@BINDIR_FROM_MODULE@'

_HERE = os.path.dirname(os.path.abspath(__file__))


def _configured(directory):
    return None if directory.startswith('@') else os.path.normpath(os.path.join(_HERE, directory))


def _pkg_config_libdir():
    pkg_config = shutil.which('pkg-config') or shutil.which('pkgconf')
    if pkg_config is None:
        return None
    try:
        out = subprocess.run([pkg_config, '--variable=libdir', 'cute-layout'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def _candidates():
    """(where, what to load) in the order of the module's docstring; each
    `what` is a path, or a bare name for the dynamic linker's search."""
    yield 'beside the module', os.path.join(_HERE, SONAME)
    libdir = _configured(_CONFIGURED_LIBDIR)
    if libdir:
        yield 'the configured libdir', os.path.join(libdir, SONAME)
    yield "the system's library path", SONAME
    found = ctypes.util.find_library('cutelayout')
    if found:
        yield 'ctypes.util.find_library', found
    libdir = _pkg_config_libdir()
    if libdir:
        yield "pkg-config's libdir", os.path.join(libdir, SONAME)


def load():
    """The loaded library (a ctypes.CDLL), or ImportError saying where it looked."""
    path = os.environ.get('CUTELAYOUT_LIBRARY')
    if path:
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            raise ImportError('cannot load CUTELAYOUT_LIBRARY=%s: %s' % (path, e)) from None
    tried = []
    for where, what in _candidates():
        if os.sep in what and not os.path.exists(what):
            tried.append('%s (%s)' % (what, where))
            continue
        try:
            return ctypes.CDLL(what)
        except OSError:
            tried.append('%s (%s)' % (what, where))
    raise ImportError('%s not found; tried %s.  Install cute-layout (`pip install .` in its source tree, or '
                      '`meson install -C build`, and `sudo ldconfig` after installing under /usr/local), set '
                      'PKG_CONFIG_PATH to the pkgconfig directory of its prefix, or set CUTELAYOUT_LIBRARY to '
                      'the path of %s' % (SONAME, ', '.join(tried), SONAME))


def tool():
    """The path of the cute-layout tool, or None."""
    for directory in (_HERE, _configured(_CONFIGURED_BINDIR)):
        if directory:
            path = os.path.join(directory, TOOL)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    return shutil.which(TOOL)
