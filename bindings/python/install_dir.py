#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Where `meson install` puts the cutelayout package, and the ways from it
to the library and the tool (bindings/python/meson.build runs this with the
Python it found).

    install_dir.py PREFIX LIBDIR BINDIR FALLBACK

Prints three lines: a directory under PREFIX that this Python already
searches for modules (on Debian /usr/local/lib/python3.X/dist-packages for
/usr/local, /usr/lib/python3/dist-packages for /usr, the user site
~/.local/lib/python3.X/site-packages for ~/.local), else FALLBACK (Meson's
choice, which Python may not search); then LIBDIR and BINDIR (absolute, or
relative to PREFIX) relative to the package's directory inside it.
"""
import os
import site
import sys


def searched_dir_under(prefix):
    user_site = site.getusersitepackages() if site.ENABLE_USER_SITE is not False else None
    for path in sys.path + ([user_site] if user_site else []):
        rel = os.path.relpath(path, prefix) if os.path.isabs(path) else '..'
        if rel.split(os.sep)[0] in ('lib', 'lib64') and os.path.basename(path) in ('dist-packages',
                                                                                     'site-packages'):
            return path
    return None


def main():
    prefix, libdir, bindir, fallback = sys.argv[1:5]
    module_dir = searched_dir_under(prefix) or fallback
    package_dir = os.path.join(module_dir, 'cutelayout')
    print(module_dir)
    print(os.path.relpath(os.path.join(prefix, libdir), package_dir))
    print(os.path.relpath(os.path.join(prefix, bindir), package_dir))


if __name__ == '__main__':
    main()
