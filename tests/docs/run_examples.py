#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Run every example of the manual (README.md and docs/*.md) and compare what
it prints with what the page shows, so that no example can rot.

The convention (docs/index.md, "Examples are tested"):

  - a ```console block: each line starting with `$ ` is a command (a line
    ending in a backslash continues on the next), run by bash in a fresh
    temporary directory with the build's `cute-layout` and a `python3` that
    imports the build's package first on PATH; the lines after a command, up
    to the next `$ ` line or the block's end, are its exact standard output.
    The commands of one block run in one shell, in order, so `echo $?` sees
    the previous command's exit status and files persist between them.
  - a ```c, ```cpp or ```python block is a complete program, compiled against
    the build tree's headers and library and run; when the very next block is
    a ```text block, that is its exact standard output, otherwise the program
    only has to exit with status 0.  A Python example that fails importing a
    module other than cutelayout (numpy) is skipped, and says so, unless
    CUTE_LAYOUT_REQUIRE_BINDINGS=1 (CI) makes it a failure.
  - a block immediately preceded by the line `<!-- not run: REASON -->` is
    skipped, and listed with its reason.
  - ```text blocks and blocks without a language are pictures of output (a
    synopsis, a table) and are not run.  Any other language (sh, rust, julia,
    cuda, a file's contents in ini or meson, ...) needs the not-run marker,
    and a block without a language must not hold `$ ` commands (label it
    console): either mistake fails the test, so that no example is left out
    silently.

    run_examples.py --tool PATH --python PATH --pythonpath DIR --library FILE
                    --include DIR --cc 'CC' [--cxx 'CXX'] (FILE.md | DIR)...

Exit status 0 when every example printed what its page shows, 1 otherwise;
a mismatch prints the file, line, command, expected and actual output.
"""
import argparse
import concurrent.futures
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r'^```(\S*)\s*$')
NOT_RUN = re.compile(r'^<!--\s*not run:\s*(\S.*?)\s*-->\s*$')
PROGRAM_LANGS = ('c', 'cpp', 'python')
DISPLAY_LANGS = ('text', '')
TIMEOUT = 120
# An example that imports an optional module (numpy) is skipped where that
# module is missing, except where every binding's tools must be there (CI).
MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '([\w.]+)'")
REQUIRE_MODULES = os.environ.get('CUTE_LAYOUT_REQUIRE_BINDINGS') == '1'


class Skip(Exception):
    """An example that cannot run here, and why."""


class Block:
    """One fenced block: its file, the line of its opening fence, its
    language, its lines and, when the line before the fence says so, why it
    is not run."""

    def __init__(self, path, line, lang, lines, not_run):
        self.path, self.line, self.lang, self.lines, self.not_run = path, line, lang, lines, not_run

    def where(self):
        return f'{self.path}:{self.line}'


def read_blocks(path):
    """The fenced blocks of a Markdown file, in order."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        marker = NOT_RUN.match(lines[i - 1]) if i > 0 else None
        start = i
        i += 1
        body = []
        while i < len(lines) and lines[i].rstrip() != '```':
            body.append(lines[i])
            i += 1
        if i == len(lines):
            raise SystemExit(f'{path}:{start + 1}: the block opened here is never closed')
        blocks.append(Block(path, start + 1, m.group(1), body, marker.group(1) if marker else None))
        i += 1
    return blocks


def console_commands(block):
    """The (line, command, expected stdout) triples of a console block."""
    commands = []
    lines = block.lines
    i = 0
    if lines and not lines[0].startswith('$ '):
        raise ValueError(f'{block.where()}: a console block must start with a `$ ` command line')
    while i < len(lines):
        line_no = block.line + 1 + i
        command = lines[i][2:]
        while command.endswith('\\') and i + 1 < len(lines):
            i += 1
            command = command + '\n' + lines[i]
        i += 1
        expected = []
        while i < len(lines) and not lines[i].startswith('$ '):
            expected.append(lines[i])
            i += 1
        commands.append((line_no, command, ''.join(s + '\n' for s in expected)))
    return commands


class Runner:
    def __init__(self, args):
        self.args = args
        self.env = dict(os.environ)
        self.env.update({
            'CUTELAYOUT_LIBRARY': os.path.abspath(args.library),
            'PYTHONPATH': os.path.abspath(args.pythonpath),
            'PYTHONDONTWRITEBYTECODE': '1',
            'LC_ALL': 'C.UTF-8',
        })
        self.libdir = os.path.dirname(os.path.abspath(args.library))

    def fresh_dir(self):
        """A temporary directory whose bin/ holds the build's tool and the
        Python that imports the build's package, first on PATH."""
        work = tempfile.mkdtemp(prefix='cute-layout-docs-')
        bindir = os.path.join(work, '.bin')
        os.mkdir(bindir)
        os.symlink(os.path.abspath(self.args.tool), os.path.join(bindir, 'cute-layout'))
        os.symlink(self.args.python, os.path.join(bindir, 'python3'))
        env = dict(self.env)
        env['PATH'] = bindir + os.pathsep + env.get('PATH', '')
        return work, env

    def run_console(self, block):
        """Runs a console block's commands in one bash, each with its
        standard output and error captured apart; returns failure texts."""
        commands = console_commands(block)
        work, env = self.fresh_dir()
        try:
            script = ['cd "$1"']
            for k, (_, command, _) in enumerate(commands):
                script.append(f'{{ {command}\n}} >"$1/.out{k}" 2>"$1/.err{k}"')
                script.append(f'echo $? >"$1/.rc{k}"; (exit "$(cat "$1/.rc{k}")")')
            subprocess.run(['bash', '-c', '\n'.join(script), 'bash', work], env=env, timeout=TIMEOUT,
                           stdin=subprocess.DEVNULL, check=False)
            failures = []
            for k, (line_no, command, expected) in enumerate(commands):
                actual = read_or(os.path.join(work, f'.out{k}'), '')
                errors = read_or(os.path.join(work, f'.err{k}'), '')
                status = read_or(os.path.join(work, f'.rc{k}'), 'not run').strip()
                if actual != expected or status in ('126', '127', 'not run'):
                    failures.append(mismatch(f'{block.path}:{line_no}', f'$ {command}', expected, actual,
                                             errors, status))
            return failures
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def run_program(self, block, expected):
        """Compiles (C, C++) and runs a program block; returns failure texts."""
        work, env = self.fresh_dir()
        try:
            source = '\n'.join(block.lines) + '\n'
            ext = {'c': 'c', 'cpp': 'cpp', 'python': 'py'}[block.lang]
            path = os.path.join(work, 'example.' + ext)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(source)
            if block.lang == 'python':
                command = [self.args.python, path]
            else:
                compiler = self.args.cc if block.lang == 'c' else self.args.cxx
                if not compiler:
                    return [f'{block.where()}: no C++ compiler to build this example (--cxx)']
                std = '-std=c11' if block.lang == 'c' else '-std=c++17'
                exe = os.path.join(work, 'example')
                build = compiler + [std, '-Wall', '-Wextra', '-Werror', '-I', os.path.abspath(self.args.include), path,
                                    '-L', self.libdir, '-lcutelayout', '-Wl,-rpath,' + self.libdir, '-o', exe]
                r = subprocess.run(build, env=env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   universal_newlines=True, timeout=TIMEOUT, check=False)
                if r.returncode != 0:
                    return [f'{block.where()}: the {block.lang} example does not compile:\n'
                            f'$ {" ".join(build)}\n{r.stdout}']
                command = [exe]
            r = subprocess.run(command, env=env, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, universal_newlines=True, timeout=TIMEOUT, check=False)
            missing = MISSING_MODULE.search(r.stderr) if block.lang == 'python' else None
            if r.returncode != 0 and missing and missing.group(1) != 'cutelayout' and not REQUIRE_MODULES:
                raise Skip(f'needs the Python module {missing.group(1)}, which is not installed '
                           '(CUTE_LAYOUT_REQUIRE_BINDINGS=1 makes that a failure)')
            if r.returncode != 0 or (expected is not None and r.stdout != expected):
                return [mismatch(block.where(), f'the {block.lang} program', expected, r.stdout, r.stderr,
                                 str(r.returncode))]
            return []
        finally:
            shutil.rmtree(work, ignore_errors=True)


def read_or(path, default):
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            return f.read()
    except FileNotFoundError:
        return default


def mismatch(where, what, expected, actual, errors, status):
    text = [f'{where}: {what}', f'  exit status {status}']
    if expected is not None and expected != actual:
        text.append('  expected:')
        text += ['    | ' + s for s in expected.splitlines()]
        text.append('  actual:')
        text += ['    | ' + s for s in actual.splitlines()]
        diff = difflib.unified_diff(expected.splitlines(), actual.splitlines(), 'expected', 'actual', lineterm='')
        text += ['  ' + s for s in diff]
    if errors:
        text.append('  standard error:')
        text += ['    | ' + s for s in errors.splitlines()]
    return '\n'.join(text)


def markdown_files(paths):
    """The files named, a directory standing for the .md files in it."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            files += sorted(os.path.join(path, name) for name in os.listdir(path) if name.endswith('.md'))
        else:
            files.append(path)
    return files


def plan(paths):
    """The examples to run, the skipped blocks with their reasons, and the
    mistakes of the convention."""
    jobs, skipped, mistakes = [], [], []
    for path in paths:
        blocks = read_blocks(path)
        for k, block in enumerate(blocks):
            if block.not_run is not None:
                skipped.append(block)
            elif block.lang == 'console':
                jobs.append(('console', block, None))
            elif block.lang in PROGRAM_LANGS:
                after = blocks[k + 1] if k + 1 < len(blocks) else None
                expected = None
                if after is not None and after.lang == 'text' and after.not_run is None:
                    expected = ''.join(s + '\n' for s in after.lines)
                jobs.append(('program', block, expected))
            elif block.lang in DISPLAY_LANGS:
                if block.lang == '' and any(s.startswith('$ ') for s in block.lines):
                    mistakes.append(f'{block.where()}: a block without a language holds `$ ` commands: '
                                    'label it console so that it runs')
            else:
                mistakes.append(f'{block.where()}: a {block.lang} block is not run: make it a console, c, cpp '
                                'or python example, or mark it <!-- not run: REASON -->')
    return jobs, skipped, mistakes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--tool', required=True)
    ap.add_argument('--python', required=True)
    ap.add_argument('--pythonpath', required=True)
    ap.add_argument('--library', required=True)
    ap.add_argument('--include', required=True)
    ap.add_argument('--cc', type=shlex.split, required=True, help='the C compiler command, one string')
    ap.add_argument('--cxx', type=shlex.split, default=None, help='the C++ compiler command (default: c++)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1)
    ap.add_argument('files', nargs='+', help='Markdown files, or directories of them')
    args = ap.parse_args()
    if args.cxx is None and shutil.which('c++'):
        args.cxx = [shutil.which('c++')]

    jobs, skipped, mistakes = plan(markdown_files(args.files))
    runner = Runner(args)

    def run(job):
        kind, block, expected = job
        try:
            if kind == 'console':
                return runner.run_console(block)
            return runner.run_program(block, expected)
        except Skip as e:
            block.not_run = str(e)
            return None
        except (ValueError, subprocess.TimeoutExpired) as e:
            return [f'{block.where()}: {e}']

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(run, jobs))
    ran = [(block, r) for (_, block, _), r in zip(jobs, results) if r is not None]
    skipped += [block for (_, block, _), r in zip(jobs, results) if r is None]
    failures = mistakes + [f for _, r in ran for f in r]
    for block, r in ran:
        print(f'{"FAIL" if r else "ok  "} {block.where()} {block.lang}')
    for block in skipped:
        print(f'skip {block.where()} {block.lang or "(no language)"}: {block.not_run}')
    for f in failures:
        print('\n' + f)
    print(f'\n{len(ran)} examples run, {sum(1 for _, r in ran if r)} failed, {len(skipped)} not run, '
          f'{len(mistakes)} blocks break the convention')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
