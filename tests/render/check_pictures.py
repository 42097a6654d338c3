#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""`cute-layout draw` end to end (meson tests 'pictures', 'pictures-png',
'pictures-pdf').

    check_pictures.py xml  --tool T            every SVG of CASES is well-formed
                                               XML with one <text class="cell">
                                               per cell holding its label, and
                                               the title as a <text>
    check_pictures.py golden --tool T --dir D  the outputs of D/pictures.tsv are
                                               the committed files, byte for byte
    check_pictures.py update --tool T --dir D  rewrites those files (on purpose)
    check_pictures.py png  --tool T --dir D    rsvg-convert renders the golden
                                               SVGs at their declared size
    check_pictures.py pdf  --tool T --dir D    pdflatex compiles the golden .tex

png and pdf exit 77 (meson's "skipped") when the program is not installed.
"""
import argparse
import collections
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SKIP = 77
SVG = '{http://www.w3.org/2000/svg}'

# (expression, extra arguments, number of cells or None for size(L)).
CASES = [
    ('make_layout((4,8))', [], None),
    ('make_layout((4,8),LayoutRight)', [], None),
    ('(2,(2,2)):(4,(2,1))', [], None),
    ('logical_divide(make_layout((8,8)),(2,4))', [], None),
    ('zipped_divide(make_layout((8,8)),(2,4))', [], None),
    ('raked_product(make_layout((2,2)),make_layout((3,2)))', [], None),
    ('blocked_product(make_layout((2,2)),make_layout((3,2)))', [], None),
    ('(2,3,4):(1,2,-6)', [], None),
    ('((4,2)):((2,1))', [], None),
    ('8:3', [], None),
    ('():()', [], 1),
    ('composition(Swizzle(3,0,3),make_layout((8,8),LayoutRight))', [], 64),
    ('composition(Swizzle(2,1,2),3,make_layout((4,8),LayoutRight))', [], 32),
    ('((4,8),2):((2,8),1)', ['--tv', '8,8'], 64),
    ('(2,2):(0,1)', ['--tv', '2,2'], 4),
    ('(4,2):(2,1)', ['--tv', '(4,2)'], 8),
    ('composition(Swizzle(3,2,3),make_layout((8,32),LayoutRight))', ['--colour', 'bank'], 256),
    ('(8,4):(4,1)', ['-c', 'bank', '--element-bytes', '2', '--highlight', '5'], None),
    ('((4,8),(2,2)):((32,1),(16,8))', ['--tv', '16,8', '--colour=value', '--highlight', '17'], 128),
]

# Figures of several panels: (draw arguments, the expression of each panel).
FIGURES = [
    (['--side-by-side=composition', '(6,2):(8,2)', '(4,3):(3,1)', '--highlight', '5'],
     ['(6,2):(8,2)', '(4,3):(3,1)', 'composition((6,2):(8,2),(4,3):(3,1))']),
    (['--side-by-side=copy', '(4,8):(1,4)', '(4,8):(8,1)', '-c', 'bank'], ['(4,8):(1,4)', '(4,8):(8,1)']),
    (['--side-by-side=copy', 'composition(Swizzle(3,0,3),make_layout((8,8),LayoutRight))', 'make_layout((8,8))',
      '--highlight=63'],
     ['composition(Swizzle(3,0,3),make_layout((8,8),LayoutRight))', 'make_layout((8,8))']),
]


def run(tool, args, check=True):
    r = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise SystemExit('%s %s: exit %d\n%s' % (tool, ' '.join(args), r.returncode, r.stderr.decode()))
    return r


def eval_one(tool, expr):
    return run(tool, ['eval', expr]).stdout.decode().strip()


# The classes of the <text> elements that are not cell labels.
LETTERING = {'title', 'axis', 'note', 'caption'}


def labels_of(svg_bytes):
    """The labels of the cells: the <text class="cell"> elements (CONTRACT.md),
    each cell's label its own character data, without child elements."""
    root = ET.fromstring(svg_bytes)  # raises on malformed XML
    if root.tag != SVG + 'svg':
        raise SystemExit('root element is %s, not svg' % root.tag)
    texts = list(root.iter(SVG + 'text'))
    if any(len(t) for t in texts):
        raise SystemExit('a <text> element has child elements')
    others = {t.get('class') for t in texts} - LETTERING - {'cell'}
    if others:
        raise SystemExit('<text> elements of unexpected classes %s' % sorted(others, key=str))
    return root, [t.text or '' for t in texts if t.get('class') == 'cell']


def lettering_of(root, cls):
    return [t.text or '' for t in root.iter(SVG + 'text') if t.get('class') == cls]


def check_xml(tool):
    failures = 0
    for expr, extra, cells in CASES:
        svg = run(tool, ['draw', expr] + extra).stdout
        root, labels = labels_of(svg)
        if cells is None:
            cells = int(eval_one(tool, 'size(%s)' % expr))
        if len(labels) != cells:
            print('FAIL %s %s: %d <text class="cell"> elements for %d cells' % (expr, extra, len(labels), cells))
            failures += 1
            continue
        # The title is the value's text, as `eval` prints it, in a <text>.
        if lettering_of(root, 'title') != [eval_one(tool, expr)]:
            print('FAIL %s: title %s' % (expr, lettering_of(root, 'title')))
            failures += 1
            continue
        if '--tv' not in extra and expr != '():()':  # print1D(():()) is an error of its own
            # The labels are the layout's values: those print1D lists.
            want = collections.Counter(eval_one(tool, 'print1D(%s)' % expr).split())
            if collections.Counter(labels) != want:
                print('FAIL %s: labels %s, print1D %s' % (expr, sorted(labels), sorted(want.elements())))
                failures += 1
                continue
        if '--tv' in extra and not all(l == '-' or (l.startswith('T') and 'V' in l) for l in labels):
            print('FAIL %s: TV labels %s' % (expr, labels))
            failures += 1
            continue
        # The txt picture of a rank-2 value is print_layout's table.
        if '--tv' not in extra and eval_one(tool, 'rank(%s)' % expr) == '2':
            table = run(tool, ['draw', expr, '--format', 'txt']).stdout.decode()
            if table.rstrip('\n') != eval_one(tool, 'print_layout(%s)' % expr):
                print('FAIL %s: txt differs from print_layout' % expr)
                failures += 1
                continue
        print('ok   %s %s: %d cells' % (expr, ' '.join(extra), cells))
    failures += check_figures(tool)
    # Errors: exit 1 and a message, no output file left behind.
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'x.svg')
        for args, status in [(['draw', '(8,8)', '-o', out], 1), (['draw', 'make_layout(', '-o', out], 1),
                             (['draw', '8:1', '--tv', '2,2', '-o', out], 1), (['draw'], 2),
                             (['draw', '8:1', '--format', 'png'], 2), (['draw', '8:1', '--tv', '0,4'], 2),
                             (['draw', '8:1', '9:1'], 2)]:
            r = run(tool, args, check=False)
            if r.returncode != status or not r.stderr or os.path.exists(out):
                print('FAIL %s: exit %d (want %d), stderr %r' % (args, r.returncode, status, r.stderr))
                failures += 1
        r = run(tool, ['draw', 'make_layout((2,3))', '-o', out])
        with open(out, 'rb') as f:
            if f.read() != run(tool, ['draw', 'make_layout((2,3))']).stdout or r.stdout:
                print('FAIL -o writes what standard output gets')
                failures += 1
    print('%d passed, %d failed' % (len(CASES) + len(FIGURES) + 8 - failures, failures))
    return 1 if failures else 0


def check_figures(tool):
    """Each panel of a side-by-side figure is a <g class="panel"> holding one
    <text class="cell"> per element of its expression, labelled with its
    values; --highlight outlines one cell in each panel."""
    failures = 0
    for args, panels in FIGURES:
        root, _ = labels_of(run(tool, ['draw'] + args).stdout)
        groups = [g for g in root.iter(SVG + 'g') if g.get('class') == 'panel']
        got = [[t.text for t in g.iter(SVG + 'text') if t.get('class') == 'cell'] for g in groups]
        want = [eval_one(tool, 'print1D(%s)' % e).split() for e in panels]
        outlines = [len([h for h in g.iter(SVG + 'g') if h.get('class') == 'highlight']) for g in groups]
        if len(got) != len(want) or any(collections.Counter(g) != collections.Counter(w) for g, w in zip(got, want)):
            print('FAIL draw %s: panels %s, want the values %s' % (' '.join(args), got, want))
            failures += 1
        elif outlines != [1 if any(a.startswith('--highlight') for a in args) else 0] * len(want):
            print('FAIL draw %s: outlines %s' % (' '.join(args), outlines))
            failures += 1
        else:
            print('ok   draw %s: %s cells' % (' '.join(args), '+'.join(str(len(g)) for g in got)))
    return failures


def golden_cases(directory):
    with open(os.path.join(directory, 'pictures.tsv'), encoding='utf-8') as f:
        for line in f:
            line = line.rstrip('\n')
            if line and not line.startswith('#'):
                name, *args = line.split('\t')
                yield name, args


def check_golden(tool, directory, update):
    failures = count = 0
    for name, args in golden_cases(directory):
        count += 1
        got = run(tool, ['draw'] + args).stdout
        path = os.path.join(directory, name)
        if update:
            with open(path, 'wb') as f:
                f.write(got)
            print('wrote', path)
            continue
        with open(path, 'rb') as f:
            want = f.read()
        if got != want:
            print('FAIL %s: `cute-layout draw %s` differs from the golden file' % (name, ' '.join(args)))
            failures += 1
        else:
            print('ok   %s' % name)
    if not update:
        print('%d passed, %d failed' % (count - failures, failures))
    return 1 if failures else 0


def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    if head[:8] != b'\x89PNG\r\n\x1a\n' or head[12:16] != b'IHDR':
        raise SystemExit('%s is not a PNG' % path)
    return struct.unpack('>II', head[16:24])


def check_png(directory):
    rsvg = shutil.which('rsvg-convert')
    if rsvg is None:
        print('rsvg-convert is not installed (apt-get install librsvg2-bin): skipped')
        return SKIP
    failures = count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, _ in golden_cases(directory):
            if not name.endswith('.svg'):
                continue
            count += 1
            svg = os.path.join(directory, name)
            root = ET.parse(svg).getroot()
            want = (int(root.get('width')), int(root.get('height')))
            png = os.path.join(tmp, name + '.png')
            subprocess.run([rsvg, svg, '-o', png], check=True)
            got = png_size(png)
            # A blank picture compresses to almost nothing.
            if got != want or os.path.getsize(png) < 2000:
                print('FAIL %s: PNG %s, %d bytes; SVG says %s' % (name, got, os.path.getsize(png), want))
                failures += 1
            else:
                print('ok   %s: %dx%d PNG' % (name, got[0], got[1]))
    print('%d passed, %d failed' % (count - failures, failures))
    return 1 if failures else 0


def check_pdf(directory):
    pdflatex = shutil.which('pdflatex')
    if pdflatex is None:
        print('pdflatex is not installed: skipped')
        return SKIP
    failures = count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, _ in golden_cases(directory):
            if not name.endswith('.tex'):
                continue
            count += 1
            shutil.copy(os.path.join(directory, name), tmp)
            r = subprocess.run([pdflatex, '-interaction=nonstopmode', '-halt-on-error', name], cwd=tmp,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            pdf = os.path.join(tmp, name[:-4] + '.pdf')
            if r.returncode != 0 or not os.path.exists(pdf):
                print('FAIL %s: pdflatex exit %d\n%s' % (name, r.returncode, r.stdout.decode()[-2000:]))
                failures += 1
            else:
                print('ok   %s: %d-byte PDF' % (name, os.path.getsize(pdf)))
    print('%d passed, %d failed' % (count - failures, failures))
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['xml', 'golden', 'update', 'png', 'pdf'])
    ap.add_argument('--tool', required=True)
    ap.add_argument('--dir')
    a = ap.parse_args()
    if a.mode == 'xml':
        return check_xml(a.tool)
    if a.mode in ('golden', 'update'):
        return check_golden(a.tool, a.dir, a.mode == 'update')
    return check_png(a.dir) if a.mode == 'png' else check_pdf(a.dir)


if __name__ == '__main__':
    sys.exit(main())
