#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The release check: `meson dist` makes the tarball from the committed tree,
then configures, builds, tests and installs that tarball on its own.

    dist_check.py --meson MESON... --builddir B --srcdir S

`meson dist` packs the last commit, so it is only meaningful (and only allowed)
on a clean git checkout: on a tree with uncommitted changes to tracked files,
outside git (e.g. inside the unpacked tarball itself), or while a dist check is
already running above us, this test is skipped (exit 77).  CI runs it on a
fresh clone, where it always applies; there CUTE_LAYOUT_REQUIRE_DIST=1 turns
"skipped" into "failed", so that a release check cannot silently vanish.
"""
import argparse
import os
import shutil
import subprocess
import sys

SKIP = 77
GUARD = 'CUTE_LAYOUT_DIST_CHECK'  # set for the tarball's own test run


def skip(reason):
    if os.environ.get('CUTE_LAYOUT_REQUIRE_DIST') == '1':
        print('CUTE_LAYOUT_REQUIRE_DIST=1 but the dist check cannot run: ' + reason)
        return 1
    print(reason + ': skipping')
    return SKIP


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--meson', required=True, nargs='+')
    ap.add_argument('--builddir', required=True)
    ap.add_argument('--srcdir', required=True)
    args = ap.parse_args()

    if os.environ.get(GUARD):
        print('inside a dist check already (the tarball\'s own tests): skipping')
        return SKIP
    git = shutil.which('git')
    if git is None:
        return skip('git is not installed')
    if not os.path.exists(os.path.join(args.srcdir, '.git')):
        return skip('the source tree is not a git checkout')
    env = dict(os.environ)
    env[GUARD] = '1'
    # A CI job may run as another user than the one owning the checkout; git
    # refuses such a repository unless it is marked safe (as `git -c` would).
    n = int(env.get('GIT_CONFIG_COUNT', '0'))
    env.update({'GIT_CONFIG_COUNT': str(n + 1), 'GIT_CONFIG_KEY_%d' % n: 'safe.directory',
                'GIT_CONFIG_VALUE_%d' % n: os.path.abspath(args.srcdir)})
    status = subprocess.run([git, '-C', args.srcdir, 'status', '--porcelain', '--untracked-files=no'],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True, env=env)
    if status.returncode != 0:
        return skip('`git status` failed: ' + status.stdout.strip())
    if status.stdout.strip():
        return skip(status.stdout + 'uncommitted changes to tracked files, and `meson dist` packs only the '
                    'last commit; the check runs on a clean checkout (CI)')

    cmd = args.meson + ['dist', '-C', args.builddir, '--formats', 'xztar']
    print('$ ' + ' '.join(cmd), flush=True)
    return subprocess.call(cmd, env=env)


if __name__ == '__main__':
    sys.exit(main())
