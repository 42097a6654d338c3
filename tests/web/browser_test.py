#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The playground page in a real browser (meson test 'browser', suite 'web').

    browser_test.py --page BUILD/web --tool CUTE_LAYOUT --chromium CHROMIUM --out DIR

Serves the built page from a static server on 127.0.0.1 (a free port),
drives headless Chromium through the DevTools protocol over a pipe
(--remote-debugging-pipe: no network, no npm, nothing downloaded), types
expressions into the page and checks what it shows against the
command-line tool: the value is `cute-layout eval`'s line, the picture's
cells (<text class="cell">, CONTRACT.md) and their labels are those of
`cute-layout draw` with the same options, the table is `draw --format txt`,
a tiled MMA picked from the atom catalog (filtered as one types) shows the
tool's A, B, C and a thread's partitions and lives in the address,
an error shows eval's `error: ...` line with its column marked, the address
keeps the expression, and the gallery's examples are one click away.  A
screenshot (DIR/playground.png) must not be blank.

Exit 77 (meson's "skipped") when the page was not built (no emcc) or no
Chromium is installed, unless CUTE_LAYOUT_REQUIRE_WEB=1 (CI), when that
is a failure.
"""
import argparse
import base64
import functools
import http.server
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET
import zlib

SKIP = 77
SVG = '{http://www.w3.org/2000/svg}'
CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
                  '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars',
                  '--window-size=1280,1600', '--remote-debugging-pipe']


# ---------------------------------------------------------------- the static server

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def start_server(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)  # port 0: a free one
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# ---------------------------------------------------------------- the browser

class Browser:
    """Chromium driven over --remote-debugging-pipe: commands are JSON
    messages ended by a NUL byte, written to its fd 3, answers read from
    its fd 4."""

    def __init__(self, chromium, profile):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()

        def pipes_as_3_and_4():
            a, b = os.dup(to_browser_r), os.dup(from_browser_w)  # above 4, whatever they were
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen([chromium] + CHROMIUM_FLAGS + ['--user-data-dir=' + profile, 'about:blank'],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(3, 4), preexec_fn=pipes_as_3_and_4)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b''
        self.next_id = 0
        self.session = None

    def send(self, method, params=None, session=True, timeout=60):
        self.next_id += 1
        message = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session and self.session:
            message['sessionId'] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b'\0')
        deadline = time.monotonic() + timeout
        while True:
            while b'\0' not in self.buffer:
                if time.monotonic() > deadline:
                    raise SystemExit('FAIL: no answer from Chromium to %s in %d s' % (method, timeout))
                chunk = os.read(self.from_browser, 1 << 16)
                if not chunk:
                    raise SystemExit('FAIL: Chromium closed the pipe (exit %s)' % self.proc.poll())
                self.buffer += chunk
            raw, self.buffer = self.buffer.split(b'\0', 1)
            answer = json.loads(raw)
            if answer.get('id') == self.next_id:  # anything else is an event
                if 'error' in answer:
                    raise SystemExit('FAIL: %s: %s' % (method, answer['error']))
                return answer['result']

    def open(self, url):
        target = self.send('Target.createTarget', {'url': 'about:blank'}, session=False)['targetId']
        self.session = self.send('Target.attachToTarget', {'targetId': target, 'flatten': True},
                                 session=False)['sessionId']
        self.navigate(url)

    def navigate(self, url):
        self.send('Page.navigate', {'url': url})

    def js(self, expression):
        result = self.send('Runtime.evaluate', {'expression': expression, 'returnByValue': True,
                                                'awaitPromise': True})
        if 'exceptionDetails' in result:
            raise SystemExit('FAIL: %s: %s' % (expression, result['exceptionDetails']))
        return result['result'].get('value')

    def wait_for(self, expression, what, timeout=60):
        deadline = time.monotonic() + timeout
        while not self.js(expression):
            if time.monotonic() > deadline:
                raise SystemExit('FAIL: waited %d s for %s' % (timeout, what))
            time.sleep(0.05)

    def close(self):
        try:
            self.send('Browser.close', session=False, timeout=10)
        except SystemExit:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_browser)
        os.close(self.from_browser)


# ---------------------------------------------------------------- the page

class Page:
    def __init__(self, browser, base):
        self.b = browser
        self.base = base

    def load(self, fragment=''):
        self.b.navigate(self.base + fragment)
        self.b.wait_for('window.playground !== undefined && playground.ready', 'the WebAssembly module')
        self.settle()

    def settle(self):
        self.b.wait_for('!playground.busy() && playground.renderedKey !== null && '
                        'playground.renderedKey === playground.key && location.hash === playground.key',
                        'the page to show what it was given')

    def type_into(self, field, text):
        """Replaces the field's text as a user would: focus, select all, type."""
        self.b.js('(() => { const e = document.getElementById(%s); e.focus(); e.select(); })()' % json.dumps(field))
        self.b.send('Input.insertText', {'text': text})
        self.b.wait_for('document.getElementById(%s).value === %s' % (json.dumps(field), json.dumps(text)),
                        'the typed text')
        self.settle()

    def set_value(self, field, text):
        """A number field: its value set and an input event, as its arrows do."""
        self.b.js('(() => { const e = document.getElementById(%s); e.value = %s; '
                  'e.dispatchEvent(new Event("input")); })()' % (json.dumps(field), json.dumps(text)))
        self.settle()

    def click_cell(self, panel, k):
        """A click on the k-th cell label of the panel-th panel."""
        self.b.js('document.querySelectorAll("#picture g.panel")[%d].querySelectorAll("text.cell")[%d]'
                  '.dispatchEvent(new MouseEvent("click", {bubbles: true}))' % (panel, k))
        self.settle()

    def click(self, selector):
        self.b.js('document.querySelector(%s).click()' % json.dumps(selector))
        self.settle()

    def choose(self, select_id, value):
        self.b.js('(() => { const e = document.getElementById(%s); e.value = %s; '
                  'e.dispatchEvent(new Event("change")); })()' % (json.dumps(select_id), json.dumps(value)))
        self.settle()

    def text(self, element_id):
        return self.b.js('document.getElementById(%s).textContent' % json.dumps(element_id))

    def visible(self, element_id):
        return self.b.js('!document.getElementById(%s).hidden' % json.dumps(element_id))

    def cells(self):
        """The labels of <text class="cell">, panel by panel."""
        return self.b.js('Array.from(document.querySelectorAll("#picture g.panel")).map('
                         'g => Array.from(g.querySelectorAll("text.cell")).map(t => t.textContent))')

    def fills(self):
        return self.b.js('Array.from(document.querySelectorAll("#picture rect")).filter('
                         'r => r.querySelector("title")).map(r => r.getAttribute("fill"))')

    def screenshot(self, path):
        data = base64.b64decode(self.b.send('Page.captureScreenshot', {'format': 'png'})['data'])
        with open(path, 'wb') as f:
            f.write(data)
        return data


# ---------------------------------------------------------------- the tool's answers

def tool_run(tool, args):
    r = subprocess.run([tool] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return r.returncode, r.stdout, r.stderr


def tool_cells(tool, args):
    """The labels of `cute-layout draw ARGS`, panel by panel, and the fills."""
    status, svg, err = tool_run(tool, ['draw'] + args)
    if status != 0:
        raise SystemExit('FAIL: cute-layout draw %s: %s' % (args, err))
    root = ET.fromstring(svg)
    panels = [g for g in root.iter(SVG + 'g') if g.get('class') == 'panel']
    labels = [[t.text for t in g.iter(SVG + 'text') if t.get('class') == 'cell'] for g in panels]
    fills = [r.get('fill') for r in root.iter(SVG + 'rect') if r.find(SVG + 'title') is not None]
    return labels, fills


# ---------------------------------------------------------------- the screenshot

def png_pixels(data):
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced PNG."""
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        raise SystemExit('FAIL: the screenshot is not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour_type, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    if depth != 8 or colour_type not in (2, 6) or interlace:
        raise SystemExit('FAIL: a PNG this check does not read (depth %d, colour type %d)' % (depth, colour_type))
    bpp = 3 if colour_type == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # undo the PNG filter of the line
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def not_blank(data):
    """Many colours, and a good share of pixels that are not the background."""
    width, height, bpp, rows = png_pixels(data)
    colours, inked = set(), 0
    for y in range(0, height, 2):
        row = rows[y]
        for x in range(0, width, 2):
            pixel = row[x * bpp:x * bpp + 3]
            colours.add(pixel)
            inked += pixel != b'\xff\xff\xff'
    share = inked / ((height // 2) * (width // 2))
    return len(colours) >= 32 and share >= 0.05, len(colours), share


# ---------------------------------------------------------------- the checks

class Checks:
    def __init__(self, page, tool):
        self.page, self.tool, self.failures, self.count = page, tool, 0, 0

    def expect(self, ok, what, detail=''):
        self.count += 1
        if ok:
            print('ok   ' + what)
        else:
            print('FAIL %s%s' % (what, ': ' + detail if detail else ''))
            self.failures += 1

    def same_as_tool(self, what, draw_args, eval_exprs):
        """The page shows eval's lines, draw's cells and labels, and draw's table."""
        page = self.page
        want_labels, want_fills = tool_cells(self.tool, draw_args)
        got_labels = page.cells()
        self.expect(got_labels == want_labels, what + ': the cells and labels of `cute-layout draw`',
                    'page %s, tool %s' % ([len(p) for p in got_labels], [len(p) for p in want_labels]))
        self.expect(page.fills() == want_fills, what + ': the colours of `cute-layout draw`')
        values = [tool_run(self.tool, ['eval', e])[1].rstrip('\n') for e in eval_exprs]
        shown = page.text('value').split('\n')
        self.expect(len(shown) == len(values) and all(s.endswith(v) for s, v in zip(shown, values)),
                    what + ': the value is `cute-layout eval`\'s', '%r, %r' % (shown, values))
        table = tool_run(self.tool, ['draw'] + draw_args + ['--format', 'txt'])[1]
        self.expect(page.text('table') == table.rstrip('\n'), what + ': the table is `draw --format txt`\'s')


LAYOUTS = [
    'logical_divide(make_layout((8,8)),(2,4))',
    'make_layout((4,8),LayoutRight)',
    '(2,(2,2)):(4,(2,1))',
    'blocked_product(make_layout((2,2),LayoutRight),make_layout((3,4)))',
    'composition(Swizzle(3,3,3),make_layout((8,8),LayoutRight))',
    '(2,3,4):(1,2,-6)',
    '8:3',
]


def run_checks(page, tool, out):
    c = Checks(page, tool)
    # A shared address shows its expression at once.
    expr = 'zipped_divide(make_layout((8,8)),(2,4))'
    page.load('#expr=' + urllib.parse.quote(expr, safe=''))
    c.expect(page.b.js('document.getElementById("expr").value') == expr, 'the address\'s expression is loaded')
    c.same_as_tool('loaded from the address', [expr], [expr])

    # Typed expressions: the page follows, and keeps the address up to date.
    for expr in LAYOUTS:
        page.type_into('expr', expr)
        c.expect(page.b.js('location.hash') == page.b.js('"#expr=" + encodeURIComponent(%s)' % json.dumps(expr)),
                 expr + ': the address holds the expression')
        c.same_as_tool(expr, [expr], [expr])

    # The screenshot of the tiled layout docs/pictures.md draws first.
    page.type_into('expr', 'logical_divide(make_layout((8,8)),(2,4))')
    shot = page.screenshot(os.path.join(out, 'playground.png'))
    ok, colours, share = not_blank(shot)
    c.expect(ok, 'the screenshot is not blank (%d colours, %.0f%% inked; %s)' % (colours, 100 * share,
                                                                                os.path.join(out, 'playground.png')))

    # An error: eval's line, the column marked, no picture.
    for bad in ['make_layout((4,8)', 'composition((6,2):(2,1),(4,2):(2,1))']:
        page.type_into('expr', bad)
        want = tool_run(tool, ['eval', bad])[1].rstrip('\n')
        shown = page.text('error') if page.visible('error') else ''
        c.expect(want.startswith('error: ') and shown.split('\n')[0] == want, bad + ': shows ' + want, repr(shown))
        c.expect(page.cells() == [], bad + ': no picture')
        marked = page.b.js('document.querySelectorAll("#error mark").length')
        c.expect(marked == (1 if 'column' in want else 0), bad + ': the column is marked when the error names one')
    # A value that is not a layout: the value, and why there is no picture.
    page.type_into('expr', 'size((4,8))')
    c.expect(page.text('value') == '32' and page.cells() == [] and 'not a layout' in page.text('picture-note'),
             'size((4,8)): the value 32 and a note instead of a picture', page.text('picture-note'))

    c.expect(not page.visible('explanation-part'), 'size((4,8)): no explanation (not an operation of the algebra)')

    # The explanation of an operation of the algebra: `cute-layout explain`'s
    # text, also when the operation fails (up to the failing step).
    for explained in ['zipped_divide(make_layout((8,8)),(2,4))', 'composition((6,2):(2,1),(4,2):(2,1))']:
        page.type_into('expr', explained)
        want = tool_run(tool, ['explain', explained])[1].rstrip('\n')
        c.expect(page.visible('explanation-part') and page.text('explanation') == want,
                 explained + ': the explanation is `cute-layout explain`\'s', page.text('explanation')[:200])

    # Options: TV on a tile, a colour scheme, side by side, an outlined cell.
    mma = '((4,8),(2,2)):((32,1),(16,8))'
    page.type_into('expr', mma)
    page.click('input[name=mode][value=tv]')
    page.set_value('tile-rows', '16')
    page.set_value('tile-cols', '8')
    c.same_as_tool('TV 16x8', [mma, '--tv', '16,8'], [mma])
    page.choose('colour', 'value')
    c.same_as_tool('TV by value', [mma, '--tv', '16,8', '--colour', 'value'], [mma])
    page.click('input[name=mode][value=layout]')
    swizzled = 'composition(Swizzle(3,3,3),make_layout((8,64),LayoutRight))'
    page.type_into('expr', swizzled)
    page.choose('colour', 'bank')
    page.set_value('bytes', '2')
    c.same_as_tool('bank colours of 2-byte elements', [swizzled, '--colour', 'bank', '--element-bytes', '2'],
                   [swizzled])
    page.choose('colour', 'auto')
    page.click('input[name=mode][value=composition]')
    page.type_into('expr', '(6,2):(8,2)')
    page.type_into('b', '(4,3):(3,1)')
    c.same_as_tool('A, B and composition(A,B)', ['--side-by-side=composition', '(6,2):(8,2)', '(4,3):(3,1)'],
                   ['(6,2):(8,2)', '(4,3):(3,1)', 'composition((6,2):(8,2),(4,3):(3,1))'])
    # A click on a cell of B outlines that element in all three panels.
    page.click_cell(1, 4)
    c.expect(page.b.js('document.querySelectorAll("#picture g.highlight").length') == 3 and
             'hl=' in page.b.js('location.hash'), 'a click outlines one element in A, B and A o B')
    hl = page.b.js('location.hash').split('hl=')[1]
    c.same_as_tool('the outline is draw --highlight\'s',
                   ['--side-by-side=composition', '(6,2):(8,2)', '(4,3):(3,1)', '--highlight', hl],
                   ['(6,2):(8,2)', '(4,3):(3,1)', 'composition((6,2):(8,2),(4,3):(3,1))'])
    page.click('input[name=mode][value=copy]')
    page.type_into('b', '(4,3):(1,4)')
    c.same_as_tool('a copy', ['--side-by-side=copy', '(6,2):(8,2)', '(4,3):(1,4)'], ['(6,2):(8,2)', '(4,3):(1,4)'])

    # The banks of an access: draw --banks, the access and its bank_conflicts
    # shown as eval gives them.
    page.click('input[name=mode][value=banks]')
    page.type_into('b', '((8,4),8):((1,64),8)')
    page.type_into('expr', '(8,64):(64,1)')
    page.set_value('bytes', '2')
    c.same_as_tool('the banks of an access',
                   ['(8,64):(64,1)', '--banks', '((8,4),8):((1,64),8)', '--element-bytes', '2'],
                   ['(8,64):(64,1)', '((8,4),8):((1,64),8)', 'bank_conflicts(((8,4),8):((1,64),8),(8,64):(64,1),16)'])
    c.expect(page.b.js('document.querySelectorAll("#picture g.marks rect").length') == 64,
             'the banks picture marks the 64 cells of the conflicting quarter-warp')

    # The gallery: CuTe's examples, each one click away.
    titles = page.b.js('Array.from(document.querySelectorAll("#examples a")).map(a => a.textContent)')
    for needed in ['Column-major', 'Row-major', 'logical_divide', 'blocked_product', 'raked_product', 'Swizzled',
                   'MMA', 'Bank conflicts']:
        c.expect(any(needed in t for t in titles), 'the gallery has ' + needed)
    page.b.js('Array.from(document.querySelectorAll("#examples a")).find(a => a.textContent.includes("MMA"))'
              '.click()')
    page.b.wait_for('playground.key === location.hash && location.hash.includes("mode=tv")', 'the MMA example')
    page.settle()
    c.same_as_tool('the MMA example', [mma, '--tv', '16,8'], [mma])

    # A tiled MMA of the catalog: the picker lists `functions --atoms`'s MMA
    # names, filtered as one types; the atom, atom layout and permutation
    # make the expression the address keeps; A, B and C, and the chosen
    # thread's partitions, are the tool's pictures.
    page.click('input[name=mode][value=mma]')
    catalog = [line[4:] for line in tool_run(tool, ['functions', '--atoms'])[1].splitlines()
               if line.startswith('mma ')]
    listed = lambda: page.b.js('Array.from(document.getElementById("atom").options).map(o => o.value)')
    c.expect(len(catalog) > 50 and listed() == catalog, 'the picker lists the catalog\'s %d MMA atoms' % len(catalog))
    page.type_into('atom-filter', 'sm80 16x8x16 F32F16')
    want = [n for n in catalog if all(w in n.lower() for w in ['sm80', '16x8x16', 'f32f16'])]
    c.expect(0 < len(want) < len(catalog) and listed() == want, 'the picker filters as one types', repr(listed()))
    page.choose('atom', 'SM80_16x8x16_F32F16F16F32_TN')
    page.type_into('atom-layout', '(2,2,1)')
    page.type_into('permutation', '(_,_,_)')
    tiled = 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1),(_,_,_))'
    c.expect(page.b.js('location.hash') == '#expr=' + urllib.parse.quote(tiled, safe='(),_') + '&mode=mma' or
             page.b.js('location.hash') == page.b.js('"#expr=" + encodeURIComponent(%s) + "&mode=mma"'
                                                     % json.dumps(tiled)),
             'the address holds the tiled MMA', page.b.js('location.hash'))
    c.same_as_tool('a tiled MMA of the catalog', [tiled], [tiled, 'tile_shape(%s)' % tiled, 'thr_layout_vmnk(%s)' % tiled])
    panels = page.b.js('Array.from(document.querySelectorAll("#picture g.panel")).map(g => g.dataset.rows + "x" + g.dataset.cols)')
    c.expect(panels == ['32x16', '16x16', '32x16'], 'A (32x16), B drawn K x N (16x16) and C (32x16)', repr(panels))
    page.set_value('thread', '5')
    c.expect('thr=5' in page.b.js('location.hash'), 'the address holds the thread')
    slices = [['get(partition_%s(%s,5,make_layout((%d,%d))),0)' % (x, tiled, r, k)] for x, r, k in
              [('A', 32, 16), ('B', 16, 16), ('C', 32, 16)]]
    want = [tool_cells(tool, s)[0][0] for s in slices]
    got = page.b.js('Array.from(document.querySelectorAll("#partitions g.panel")).map('
                    'g => Array.from(g.querySelectorAll("text.cell")).map(t => t.textContent))')
    c.expect(got == want, 'thread 5\'s partitions are the tool\'s pictures', repr(got)[:200])
    lines = page.text('partitions-values').split('\n')
    c.expect(lines == ['partition_%s = %s' % (x, tool_run(tool, ['eval', s[0][4:-3]])[1].rstrip('\n'))
                       for x, s in zip('ABC', slices)], 'thread 5\'s partitions are eval\'s', repr(lines))
    # The address alone brings it all back.
    shared = page.b.js('location.hash')
    page.load('#expr=' + urllib.parse.quote('make_layout((4,8))', safe=''))
    page.load(shared)
    c.expect([page.b.js('document.getElementById(%s).value' % json.dumps(f)) for f in
              ['atom-layout', 'permutation', 'thread']] == ['(2,2,1)', '(_,_,_)', '5'] and
             page.text('atom-chosen') == 'SM80_16x8x16_F32F16F16F32_TN', 'the address restores the picker')
    c.same_as_tool('the tiled MMA from the address', [tiled], [tiled, 'tile_shape(%s)' % tiled,
                                                               'thr_layout_vmnk(%s)' % tiled])

    print('%d passed, %d failed' % (c.count - c.failures, c.failures))
    return 1 if c.failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--page', default='', help='the built page, BUILD/web ("" when it was not built)')
    ap.add_argument('--tool', required=True)
    ap.add_argument('--chromium', default='')
    ap.add_argument('--out', required=True, help='where the screenshot goes')
    a = ap.parse_args()
    required = os.environ.get('CUTE_LAYOUT_REQUIRE_WEB') == '1'
    chromium = a.chromium or shutil.which('chromium') or ''
    missing = []
    if not a.page or not os.path.exists(os.path.join(a.page, 'index.html')):
        missing.append('the page (no emcc: apt-get install emscripten, then meson setup --reconfigure)')
    if not chromium:
        missing.append('Chromium (apt-get install chromium)')
    if missing:
        print('not here: ' + '; '.join(missing))
        return 1 if required else SKIP
    os.makedirs(a.out, exist_ok=True)
    server = start_server(a.page)
    profile = tempfile.mkdtemp(prefix='cl-chromium-')
    browser = Browser(chromium, profile)
    try:
        browser.open('about:blank')
        page = Page(browser, 'http://127.0.0.1:%d/index.html' % server.server_address[1])
        return run_checks(page, a.tool, a.out)
    finally:
        browser.close()
        server.shutdown()
        server.server_close()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
