#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""run_examples.py can fail: on a page whose examples are deliberately wrong
it reports each wrong one at its line, passes the right ones, skips the
marked one, and exits 1; on the right ones alone it exits 0.

    selftest.py RUN_EXAMPLES.PY [ARGUMENTS OF run_examples.py but the files]
"""
import os
import subprocess
import sys
import tempfile

# (page text, what the runner must say about the block at the line of each
# opening fence); the line numbers are those of the fences below.
PAGE = """# A page of examples, some wrong

```console
$ cute-layout eval 'size((2,(3,4)))'
24
$ echo $?
0
```

```console
$ cute-layout eval 'coalesce((2,(1,6)):(1,(6,2)))'
12:2
```

```c
#include <stdio.h>
#include <cutelayout/cutelayout.h>
int main(void) { printf("%s\\n", cl_status_string(CL_OK)); return 0; }
```

```text
not what it prints
```

```python
import cutelayout
raise SystemExit(3)
```

<!-- not run: a reason -->
```sh
false
```

```sh
true
```

```
$ cute-layout eval 8
```
"""
EXPECTED = {
    3: 'ok  ',     # right output, and $? carried from one command to the next
    10: 'FAIL',    # 12:1 is printed, not 12:2
    15: 'FAIL',    # the program prints "success"
    25: 'FAIL',    # exit status 3
    31: 'skip',
}
MISTAKES = (35, 39)  # an unmarked sh block; `$ ` commands in a block without a language


def run(runner, args, page):
    with tempfile.TemporaryDirectory() as work:
        path = os.path.join(work, 'page.md')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(page)
        r = subprocess.run([sys.executable, runner] + args + [path], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True, check=False)
        return r.returncode, r.stdout.replace(path, 'page.md')


def main():
    runner, args = sys.argv[1], sys.argv[2:]
    status, out = run(runner, args, PAGE)
    print(out)
    problems = []
    if status != 1:
        problems.append(f'exit status {status} on the wrong page, not 1')
    for line, verdict in EXPECTED.items():
        if not any(s.startswith(f'{verdict} page.md:{line} ') for s in out.splitlines()):
            problems.append(f'the block at line {line} is not reported as {verdict.strip()}')
    for line in MISTAKES:
        if f'page.md:{line}: a ' not in out:
            problems.append(f'the block at line {line} is not reported as breaking the convention')
    if 'expected:' not in out or '12:2' not in out or 'cute-layout eval' not in out:
        problems.append('a mismatch does not show the command, expected and actual output')
    right = PAGE[:PAGE.index('```console\n$ cute-layout eval \'coalesce')]
    status, out = run(runner, args, right)
    if status != 0:
        problems.append(f'exit status {status} on the right examples alone:\n{out}')
    for p in problems:
        print('selftest: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
