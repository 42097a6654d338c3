# SPDX-License-Identifier: BSD-3-Clause
"""python3 -m cutelayout ARGS...: the cute-layout tool (eval, draw, copy,
help) installed with this package, e.g.

    python3 -m cutelayout eval 'composition((6,2):(8,2),(4,3):(3,1))'
"""
import os
import subprocess
import sys

from . import _library


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    tool = _library.tool()
    if tool is None:
        sys.stderr.write('python3 -m cutelayout: the %s tool is not installed with this package and not on PATH '
                         '(install cute-layout with `pip install .` or `meson install`)\n' % _library.TOOL)
        return 127
    if os.name == 'posix':
        sys.stdout.flush()
        os.execv(tool, [tool] + list(argv))
    return subprocess.call([tool] + list(argv))


if __name__ == '__main__':
    sys.exit(main())
