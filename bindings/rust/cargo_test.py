#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Builds and tests the Rust crates offline against the freshly built library
(meson test runs this; by hand: python3 cargo_test.py --lib-dir BUILD/src --work BUILD/rust).

The crates are copied into the work directory first, so cargo writes its
Cargo.lock, target/ and CARGO_HOME there and never into the source tree
(which may be read-only, e.g. an unpacked `meson dist` tarball).  No crate
comes from a registry: both crates are local and --offline is enforced.
Exit 77 (skipped) when cargo is not installed.
"""
import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--lib-dir', required=True, help='directory of the built libcutelayout.so')
    ap.add_argument('--work', required=True, help='scratch directory (inside the build directory)')
    ap.add_argument('--cargo', default='cargo')
    ap.add_argument('--version', help='the expected library version')
    ap.add_argument('--skip', metavar='REASON', help='skip (exit 77), saying why')
    args = ap.parse_args()

    if args.skip:
        print('skipping the Rust binding tests: ' + args.skip)
        return SKIP

    cargo = shutil.which(args.cargo)
    if cargo is None:
        print('cargo not found (Debian: apt install cargo); skipping the Rust binding tests')
        return SKIP

    here = os.path.dirname(os.path.abspath(__file__))
    crates = os.path.join(args.work, 'crates')
    if os.path.exists(crates):
        shutil.rmtree(crates)
    shutil.copytree(here, crates, ignore=shutil.ignore_patterns('target', 'Cargo.lock', '*.py'))

    env = dict(os.environ)
    env.update(CARGO_HOME=os.path.join(args.work, 'cargo-home'),
               CARGO_TARGET_DIR=os.path.join(args.work, 'target'),
               CARGO_NET_OFFLINE='true',
               CARGO_TERM_COLOR='never',
               CUTELAYOUT_LIB_DIR=os.path.abspath(args.lib_dir))
    # No LD_LIBRARY_PATH: the build scripts give the tests an rpath to the
    # library's directory, and this proves that they do.
    env.pop('LD_LIBRARY_PATH', None)
    if args.version:
        env['CUTELAYOUT_EXPECTED_VERSION'] = args.version
    # rustup's proxies look for their toolchains under RUSTUP_HOME, which
    # defaults to ~/.rustup and does not move with CARGO_HOME.
    cmd = [cargo, 'test', '--offline', '--workspace']
    print('$ ' + ' '.join(cmd), flush=True)
    status = subprocess.call(cmd, cwd=crates, env=env)
    if status != 0:
        return status
    # Both crates package as they would be published (the path dependency
    # carries its version).  --no-verify: verifying would fetch
    # cutelayout-sys from a registry, and there is none offline.
    # (--workspace: packaged together, newer cargos take cutelayout-sys from
    # the workspace instead of looking for it in a registry.)
    cmd = [cargo, 'package', '--offline', '--no-verify', '--allow-dirty', '--workspace']
    print('$ ' + ' '.join(cmd), flush=True)
    return subprocess.call(cmd, cwd=crates, env=env)


if __name__ == '__main__':
    sys.exit(main())
