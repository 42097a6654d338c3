// SPDX-License-Identifier: BSD-3-Clause
// playground.js: the page's behaviour.  Every answer comes from the
// cute-layout tool compiled to WebAssembly (cute-layout.js): the page calls
// its main() with the arguments one would type, `eval EXPR` for the value,
// `draw EXPR ...` for the picture (the library's SVG) and `draw ... -f txt`
// for the table, so the page shows what the command line prints.
//
// The address's fragment holds the state, e.g.
//   index.html#expr=logical_divide(make_layout((8%2C8))%2C(2%2C4))&colour=bank
// (CONTRACT.md: #expr=<percent-encoded expression>); the page rewrites it as
// the user types and reads it again when it changes (a gallery link, the
// back button, an edited address).
'use strict';

(function () {
  // A picture of more cells than this is not put into the page (the library
  // draws up to 2^20, which a browser would take long to show).
  const MAX_PAGE_CELLS = 16384;
  const DEFAULTS = {expr: '', b: '(4,3):(3,1)', mode: 'layout', rows: 16, cols: 8, colour: 'auto', bytes: 4, hl: -1,
                    atom: 'SM80_16x8x16_F32F16F16F32_TN', layout: '(2,2,1)', perm: '', thr: 0};
  const MODES = ['layout', 'tv', 'composition', 'copy', 'banks', 'mma'];

  // Examples from CuTe's documentation (media/docs/cpp/cute: 01_layout,
  // 02_layout_algebra, 0x_gemm_tutorial) and the shared-memory swizzles of
  // its GEMMs.
  const EXAMPLES = [
    // (The tiled mma.sync example is last: the browser test finds the TV
    // example by the first title that holds "MMA".)
    {title: 'Column-major', text: 'make_layout((4,8)): going down adds 1, going right adds 4 (LayoutLeft, CuTe\'s default).',
     state: {expr: 'make_layout((4,8))'}},
    {title: 'Row-major', text: 'make_layout((4,8),LayoutRight): going right adds 1, going down adds 8.',
     state: {expr: 'make_layout((4,8),LayoutRight)'}},
    {title: 'A hierarchical layout', text: '(2,(2,2)):(4,(2,1)), the nested mode drawn with heavier lines between its tiles.',
     state: {expr: '(2,(2,2)):(4,(2,1))'}},
    {title: 'logical_divide into 2x4 tiles', text: 'the same function as the 8x8 layout, each mode split into (inside a tile, which tile).',
     state: {expr: 'logical_divide(make_layout((8,8)),(2,4))'}},
    {title: 'zipped_divide', text: 'the tile modes gathered in mode 0: column n lists the 8 indices of tile n.',
     state: {expr: 'zipped_divide(make_layout((8,8)),(2,4))'}},
    {title: 'blocked_product', text: 'a 2x2 tile repeated as blocks over a 3x4 grid.',
     state: {expr: 'blocked_product(make_layout((2,2),LayoutRight),make_layout((3,4)))'}},
    {title: 'raked_product', text: 'the same tile raked (interleaved) over the grid, as thread-value layouts spread a thread\'s values.',
     state: {expr: 'raked_product(make_layout((2,2),LayoutRight),make_layout((3,4)))'}},
    {title: 'Shared memory, row-major, by bank', text: '8 rows of 32 floats: every column is one bank (an 8-way conflict for a column read).',
     state: {expr: 'make_layout((8,32),LayoutRight)', colour: 'bank'}},
    {title: 'Swizzled shared memory, by bank', text: 'Sw<3,2,3> XORs each row\'s 16-byte chunks with the row number: every row and every column touches distinct banks.',
     state: {expr: 'composition(Swizzle(3,2,3),make_layout((8,32),LayoutRight))', colour: 'bank'}},
    {title: 'Swizzled half-precision tile', text: 'Sw<3,3,3> o (8,64):(64,1), 2-byte elements: the layout of CuTe\'s SM80 GEMM shared memory.',
     state: {expr: 'composition(Swizzle(3,3,3),make_layout((8,64),LayoutRight))', colour: 'bank', bytes: 2}},
    {title: 'An MMA thread-value layout', text: 'the accumulators of SM80 mma.sync m16n8: thread t holds rows t/4 and t/4+8, columns 2(t%4) and 2(t%4)+1.',
     state: {expr: '((4,8),(2,2)):((32,1),(16,8))', mode: 'tv', rows: 16, cols: 8}},
    {title: 'composition(A,B), element by element', text: 'A o B (c) = A(B(c)): the outlined cells are one element in all three pictures.',
     state: {expr: '(6,2):(8,2)', b: '(4,3):(3,1)', mode: 'composition', hl: 5}},
    {title: 'A copy that transposes', text: 'a column-major source copied to a row-major destination, by bank: element 9 is outlined in both.',
     state: {expr: '(4,8):(1,4)', b: '(4,8):(8,1)', mode: 'copy', colour: 'bank', hl: 9}},
    {title: 'Bank conflicts of ldmatrix rows', text: 'lanes 0-7 read a column of 16-byte chunks of rows of 64 halves: every row in the same banks, 8 wavefronts a matrix (the 64 cells of the conflicting quarter-warp marked).',
     state: {expr: '(8,64):(64,1)', b: '((8,4),8):((1,64),8)', mode: 'banks', bytes: 2}},
    {title: 'The same rows, swizzled', text: 'swizzle_search finds Sw<3,3,3>: the chunks of a column land in 8 different bank groups, 1 wavefront a matrix.',
     state: {expr: 'composition(Swizzle(3,3,3),(8,64):(64,1))', b: '((8,4),8):((1,64),8)', mode: 'banks', bytes: 2}},
    {title: 'A tiled mma.sync from the atom catalog', text: 'SM80_16x8x16_F32F16F16F32_TN on 2x2 warps, as CuTe\'s print_latex lays it out: A at the left, B on top, C in the middle, and thread 0\'s partitions.',
     state: {mode: 'mma', expr: 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1))'}}
  ];

  const $ = id => document.getElementById(id);
  const playground = window.playground = {ready: false, renderedKey: null, key: null, run: null};

  // ---------------------------------------------------------------- the tool

  let captured = null;
  async function loadTool() {
    const module = await createCuteLayout({
      print: line => { if (captured) captured.out.push(line); },
      printErr: line => { if (captured) captured.err.push(line); },
    });
    // One run of `cute-layout ARGS...`: its exit status and what it printed.
    return args => {
      captured = {out: [], err: []};
      let status;
      try {
        status = module.callMain(args);
      } catch (e) {
        status = 1;
        captured.err.push('cute-layout: ' + e);
      }
      const result = {status: status, out: captured.out.join('\n'), err: captured.err.join('\n')};
      captured = null;
      return result;
    };
  }

  // ---------------------------------------------------------------- state and the address

  // ---------------------------------------------------------------- tiled MMAs of the catalog

  // The MMA operations of the catalog (`cute-layout functions --atoms`).
  let catalog = [];
  // The atom the picker has chosen (it may be filtered out of the list).
  let chosenAtom = DEFAULTS.atom;

  // The tiled MMA of the picker's fields, as `cute-layout eval` takes it.
  function mmaExpr(s) {
    const args = [s.atom];
    if (s.layout || s.perm) args.push(s.layout || '(1,1,1)');
    if (s.perm) args.push(s.perm);
    return 'make_tiled_mma(' + args.join(',') + ')';
  }

  // The arguments of a call, split at its top-level commas (a GMMA name's
  // template arguments hold commas too).
  function splitArguments(text) {
    const parts = [];
    let depth = 0, start = 0;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i];
      if (ch === '(' || ch === '<') depth++;
      else if (ch === ')' || ch === '>') depth--;
      else if (ch === ',' && depth === 0) {
        parts.push(text.slice(start, i));
        start = i + 1;
      }
    }
    parts.push(text.slice(start));
    return parts;
  }

  // The picker's fields of a make_tiled_mma(...) expression, or null.
  function mmaFields(expr) {
    const m = /^make_tiled_mma\((.*)\)$/.exec(expr.replace(/\s+/g, ''));
    if (!m) return null;
    const args = splitArguments(m[1]);
    if (args.length > 3 || !args[0]) return null;
    return {atom: args[0], layout: args[1] || '', perm: args[2] || ''};
  }

  // The picker's list: the names holding every word of the filter.
  function fillAtoms() {
    const words = $('atom-filter').value.toLowerCase().split(/\s+/).filter(Boolean);
    const names = catalog.filter(n => words.every(w => n.toLowerCase().includes(w)));
    const select = $('atom');
    select.textContent = '';
    for (const name of names) {
      const option = document.createElement('option');
      option.value = option.textContent = name;
      select.append(option);
    }
    select.value = names.includes(chosenAtom) ? chosenAtom : '';
    $('atom-count').textContent = names.length + ' of ' + catalog.length + ' MMA atoms';
    $('atom-chosen').textContent = chosenAtom;
  }

  // (M,N,K) of a tiled MMA, or null.
  function tileShape(expr) {
    const m = /^\(([0-9]+),([0-9]+),([0-9]+)\)$/.exec(evalLine('tile_shape(' + expr + ')'));
    return m ? m.slice(1).map(Number) : null;
  }

  // The thread's partitions of the A, B and C tiles: their values, and the
  // picture of each slice's layout.
  function showPartitions(s) {
    const part = $('partitions-part'), box = $('partitions');
    box.textContent = '';
    $('partitions-values').textContent = '';
    const mnk = s.mode === 'mma' ? tileShape(s.expr) : null;
    part.hidden = !mnk;
    if (!mnk) return;
    const [M, N, K] = mnk;
    $('partitions-thread').textContent = String(s.thr);
    const lines = [];
    for (const [name, rows, cols] of [['A', M, K], ['B', N, K], ['C', M, N]]) {
      const slice = 'partition_' + name + '(' + s.expr + ',' + s.thr + ',make_layout((' + rows + ',' + cols + ')))';
      const line = evalLine(slice);
      lines.push('partition_' + name + ' = ' + line);
      if (line.startsWith('error:')) continue;
      const drawn = playground.run(['draw', 'get(' + slice + ',0)']);
      if (drawn.status !== 0) continue;
      const figure = document.createElement('div');
      figure.className = 'partition';
      figure.innerHTML = drawn.out.replace(/^<\?xml[^>]*>\s*/, '');
      box.append(figure);
    }
    $('partitions-values').textContent = lines.join('\n');
  }

  // ---------------------------------------------------------------- state and the address (continued)

  function readControls() {
    const s = {
      expr: $('expr').value.trim(),
      b: $('b').value.trim(),
      mode: document.querySelector('input[name=mode]:checked').value,
      rows: Number($('tile-rows').value) || 1,
      cols: Number($('tile-cols').value) || 1,
      colour: $('colour').value,
      bytes: Number($('bytes').value) || 4,
      hl: state.hl,
      atom: chosenAtom,
      layout: $('atom-layout').value.trim(),
      perm: $('permutation').value.trim(),
      thr: Math.max(0, Math.floor(Number($('thread').value) || 0)),
    };
    if (s.mode === 'mma') {
      s.expr = mmaExpr(s);
      s.hl = -1; // a tiled MMA is drawn on its own tiles, without an outline
      $('expr').value = s.expr;
    }
    return s;
  }

  function writeControls(s) {
    $('expr').value = s.expr;
    $('b').value = s.b;
    document.querySelector('input[name=mode][value=' + s.mode + ']').checked = true;
    $('tile-rows').value = s.rows;
    $('tile-cols').value = s.cols;
    $('colour').value = s.colour;
    $('bytes').value = s.bytes;
    chosenAtom = s.atom;
    $('atom-layout').value = s.layout;
    $('permutation').value = s.perm;
    $('thread').value = s.thr;
    if (catalog.length) fillAtoms();
    showModeFields(s);
  }

  function twoExpressions(s) { return s.mode === 'composition' || s.mode === 'copy'; }
  // The second field: B, a copy's destination, or the access whose banks are drawn.
  function usesB(s) { return twoExpressions(s) || s.mode === 'banks'; }
  function byBank(s) { return s.colour === 'bank' || s.mode === 'banks'; }

  function fragmentOf(s) {
    const parts = ['expr=' + encodeURIComponent(s.expr)];
    if (s.mode !== 'layout') parts.push('mode=' + s.mode);
    if (usesB(s)) parts.push('b=' + encodeURIComponent(s.b));
    if (s.mode === 'tv') parts.push('tile=' + s.rows + ',' + s.cols);
    if (s.colour !== 'auto') parts.push('colour=' + s.colour);
    if (byBank(s) && s.bytes !== 4) parts.push('bytes=' + s.bytes);
    if (s.hl >= 0) parts.push('hl=' + s.hl);
    if (s.mode === 'mma' && s.thr > 0) parts.push('thr=' + s.thr);
    return '#' + parts.join('&');
  }

  // The state a fragment names (unknown keys and bad values are ignored).
  function stateOf(fragment) {
    const s = Object.assign({}, DEFAULTS);
    for (const part of fragment.replace(/^#/, '').split('&')) {
      const eq = part.indexOf('=');
      if (eq < 0) continue;
      let value;
      try {
        value = decodeURIComponent(part.slice(eq + 1));
      } catch (e) {
        continue;
      }
      const key = part.slice(0, eq);
      if (key === 'expr' || key === 'b') s[key] = value;
      else if (key === 'mode' && MODES.includes(value)) s.mode = value;
      else if (key === 'colour' && ['auto', 'index', 'bank', 'thread', 'value'].includes(value)) s.colour = value;
      else if (key === 'bytes' && /^[0-9]+$/.test(value)) s.bytes = Number(value);
      else if (key === 'hl' && /^[0-9]+$/.test(value)) s.hl = Number(value);
      else if (key === 'tile' && /^[0-9]+,[0-9]+$/.test(value)) [s.rows, s.cols] = value.split(',').map(Number);
      else if (key === 'thr' && /^[0-9]+$/.test(value)) s.thr = Number(value);
    }
    // A tiled MMA's expression sets the picker's fields.
    const fields = s.mode === 'mma' ? mmaFields(s.expr) : null;
    if (fields) Object.assign(s, fields);
    else if (s.mode === 'mma') s.expr = mmaExpr(s);
    return s;
  }

  let state = Object.assign({}, DEFAULTS);

  function showModeFields(s) {
    $('b-field').hidden = !usesB(s);
    $('tile-options').hidden = s.mode !== 'tv';
    $('bytes-field').hidden = !byBank(s);
    $('mma-options').hidden = s.mode !== 'mma';
    $('expr-field').hidden = s.mode === 'mma';
    $('expr-label').textContent = s.mode === 'composition' ? 'A' : s.mode === 'copy' ? 'Source'
      : s.mode === 'banks' ? 'Shared-memory layout' : 'Expression';
    $('b-field').firstElementChild.textContent = s.mode === 'copy' ? 'Destination'
      : s.mode === 'banks' ? 'Access (TV layout)' : 'B';
  }

  // ---------------------------------------------------------------- the tool's answers

  // The arguments of `cute-layout draw` for the state.
  function drawArgs(s) {
    const args = ['draw'];
    if (twoExpressions(s)) args.push('--side-by-side=' + s.mode, s.expr, s.b);
    else args.push(s.expr);
    if (s.mode === 'banks') {
      args.push('--banks', s.b);
      if (s.bytes !== 4) args.push('--element-bytes', String(s.bytes));
      return args;
    }
    if (s.mode === 'tv') args.push('--tv', s.rows + ',' + s.cols);
    if (s.colour !== 'auto') args.push('--colour', s.colour);
    if (s.colour === 'bank' && s.bytes !== 4) args.push('--element-bytes', String(s.bytes));
    if (s.hl >= 0) args.push('--highlight', String(s.hl));
    return args;
  }

  function shellWord(w) { return /^[-A-Za-z0-9_.,=/:]+$/.test(w) ? w : "'" + w.replace(/'/g, "'\\''") + "'"; }

  function evalLine(expr) { return playground.run(['eval', expr]).out; }

  // How many cells the picture would have, or 0 if unknown.
  function cellsOf(s) {
    if (s.mode === 'tv') return s.rows * s.cols;
    if (s.mode === 'mma') {
      const mnk = tileShape(s.expr);
      return mnk ? mnk[0] * mnk[2] + mnk[1] * mnk[2] + mnk[0] * mnk[1] : 0;
    }
    const size = e => { const n = Number(evalLine('size(' + e + ')')); return Number.isFinite(n) ? n : 0; };
    if (s.mode === 'composition') return size(s.expr) + 2 * size(s.b);
    if (s.mode === 'copy') return size(s.expr) + size(s.b);
    if (s.mode === 'banks') return size(s.expr);
    return size(s.expr);
  }

  // ---------------------------------------------------------------- showing

  // "error: column N: ..." with the expression below it, column N marked.
  function showError(which, expr, line) {
    const box = $('error');
    box.textContent = '';
    box.append(line + '\n');
    const m = /^error: column ([0-9]+):/.exec(line);
    if (m) {
      const col = Number(m[1]) - 1;
      const mark = document.createElement('mark');
      mark.textContent = expr.slice(col, col + 1) || ' ';
      box.append(expr.slice(0, col), mark, expr.slice(col + 1) + '\n' + ' '.repeat(col) + '^');
    }
    box.hidden = false;
    $(which).setAttribute('aria-invalid', 'true');
  }

  function clearError() {
    $('error').hidden = true;
    $('error').textContent = '';
    $('expr').removeAttribute('aria-invalid');
    $('b').removeAttribute('aria-invalid');
  }

  function showPicture(svg, note) {
    const picture = $('picture');
    // The SVG document without its XML declaration, as inline SVG.
    picture.innerHTML = svg.replace(/^<\?xml[^>]*>\s*/, '');
    // Larger than its natural size where the page has room (up to 1.6
    // times: cells of 48 pixels), never smaller; the viewBox keeps it sharp.
    const drawing = picture.querySelector('svg');
    if (drawing) {
      const width = Number(drawing.getAttribute('width')), height = Number(drawing.getAttribute('height'));
      const scale = Math.max(1, Math.min(1.6, picture.clientWidth / width));
      drawing.setAttribute('width', Math.floor(width * scale));
      drawing.setAttribute('height', Math.floor(height * scale));
    }
    $('picture-note').hidden = !note;
    $('picture-note').textContent = note || '';
    const link = $('download');
    if (link.href.startsWith('blob:')) URL.revokeObjectURL(link.href);
    if (svg)
      link.href = URL.createObjectURL(new Blob([svg], {type: 'image/svg+xml'}));
    else
      link.removeAttribute('href');
    $('download-part').hidden = !svg;
  }

  function showCommand(text) {
    $('command').textContent = text;
    $('links').hidden = !text;
  }

  function clearOutputs() {
    $('partitions-part').hidden = true;
    $('value').textContent = '';
    $('table').textContent = '';
    showCommand('');
    showPicture('', '');
    showExplanation(null);
  }

  // The explanation of an expression that calls an operation of the algebra
  // (`cute-layout explain EXPR`, whose steps end with the failing one when
  // the operation fails); none for any other expression.
  function showExplanation(s) {
    const explained = s && s.mode === 'layout' ? playground.run(['explain', s.expr]) : null;
    const shown = explained !== null && explained.out !== '';
    $('explanation').textContent = shown ? explained.out.replace(/\n$/, '') : '';
    $('explanation-part').hidden = !shown;
  }

  // The values: one line, or A, B (and composition(A,B)) named.  Shows the
  // first error and returns false when there is one.
  function showValues(s) {
    const named = twoExpressions(s)
      ? [['expr', s.mode === 'copy' ? 'source' : 'A', s.expr], ['b', s.mode === 'copy' ? 'destination' : 'B', s.b]]
      : [['expr', null, s.expr]];
    if (s.mode === 'composition') named.push([null, 'composition(A,B)', 'composition(' + s.expr + ',' + s.b + ')']);
    if (s.mode === 'mma') {
      named[0][1] = 'tiled MMA';
      named.push([null, 'tile_shape', 'tile_shape(' + s.expr + ')']);
      named.push([null, 'thr_layout_vmnk', 'thr_layout_vmnk(' + s.expr + ')']);
    }
    if (s.mode === 'banks') {
      named.push(['b', 'access', s.b]);
      named.push([null, 'bank_conflicts', 'bank_conflicts(' + s.b + ',' + s.expr + ',' + 8 * s.bytes + ')']);
    }
    const lines = [];
    for (const [field, name, expr] of named) {
      const line = evalLine(expr);
      if (line.startsWith('error:')) {
        if (field) showError(field, expr, line);
        else showError('expr', '', line);
        $('value').textContent = name ? name + ': ' + line : line;
        return false;
      }
      lines.push(name ? name + ' = ' + line : line);
    }
    $('value').textContent = lines.join('\n');
    return true;
  }

  function renderNow() {
    state = readControls();
    const key = fragmentOf(state);
    playground.key = key;
    if (location.hash !== key) history.replaceState(null, '', key);
    showModeFields(state);
    clearError();
    if (!state.expr || (usesB(state) && !state.b)) {
      clearOutputs();
      playground.renderedKey = key;
      return;
    }
    showExplanation(state);
    $('partitions-part').hidden = true;
    if (!showValues(state)) {
      $('table').textContent = '';
      showCommand('');
      showPicture('', '');
      playground.renderedKey = key;
      return;
    }
    let args = drawArgs(state);
    showCommand('cute-layout ' + args.map(shellWord).join(' '));
    const cells = cellsOf(state);
    if (cells > MAX_PAGE_CELLS) {
      showPicture('', 'The picture has ' + cells + ' cells, more than the ' + MAX_PAGE_CELLS +
                  ' this page shows: draw it with the command below.');
      $('table').textContent = '';
      playground.renderedKey = key;
      return;
    }
    let drawn = playground.run(args);
    if (drawn.status !== 0 && state.hl >= 0) {
      // An outline left over from an earlier expression: drop it.
      state.hl = -1;
      args = drawArgs(state);
      drawn = playground.run(args);
      history.replaceState(null, '', fragmentOf(state));
      playground.key = fragmentOf(state);
      showCommand('cute-layout ' + args.map(shellWord).join(' '));
    }
    showPartitions(state);
    if (drawn.status === 0) {
      showPicture(drawn.out, '');
      $('table').textContent = playground.run(args.concat(['--format', 'txt'])).out;
    } else {
      showPicture('', 'No picture: ' + drawn.err.replace(/^cute-layout: draw: /, '').split('\n')[0]);
      $('table').textContent = '';
    }
    playground.renderedKey = playground.key;
  }

  let pending = null;
  // Whether a render is waiting for a pause in typing (for the browser test).
  playground.busy = () => pending !== null;
  function renderSoon() {
    if (pending !== null) clearTimeout(pending);
    pending = setTimeout(() => { pending = null; renderNow(); }, 60);
  }

  // ---------------------------------------------------------------- outlining a cell

  // A click on a cell outlines it: the cell's linear coordinate in its
  // panel (cells are in row-major order, coordinate m + rows * n), in every
  // panel that holds the same element.
  function onPictureClick(event) {
    if (state.mode === 'mma') return; // drawn on its own tiles, no outline
    const target = event.target.closest('text.cell, rect');
    const panel = target && target.closest('g.panel');
    if (!panel) return;
    const cells = target.tagName === 'text'
      ? Array.from(panel.querySelectorAll('text.cell'))
      : Array.from(panel.querySelectorAll('rect')).filter(r => r.querySelector('title'));
    const k = cells.indexOf(target);
    if (k < 0) return;
    const rows = Number(panel.dataset.rows), cols = Number(panel.dataset.cols);
    const coordinate = Math.floor(k / cols) + rows * (k % cols);
    const panels = Array.from($('picture').querySelectorAll('g.panel'));
    // In A, B, A o B only B's and A o B's coordinates name the element.
    if (state.mode === 'composition' && panels.indexOf(panel) === 0) return;
    state.hl = state.hl === coordinate ? -1 : coordinate;
    renderNow();
  }

  // ---------------------------------------------------------------- start

  function loadFragment() {
    const s = stateOf(location.hash);
    if (!s.expr) s.expr = $('expr').value.trim();
    state = s;
    writeControls(s);
    renderNow();
  }

  function buildGallery() {
    const list = $('examples');
    for (const example of EXAMPLES) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = fragmentOf(Object.assign({}, DEFAULTS, example.state));
      link.textContent = example.title;
      item.append(link, ': ' + example.text);
      list.append(item);
    }
  }

  async function start() {
    buildGallery();
    try {
      playground.run = await loadTool();
    } catch (e) {
      $('status').textContent = 'The WebAssembly module did not load: ' + e;
      return;
    }
    $('status').textContent = playground.run(['--version']).out + ', running in this page as WebAssembly.';
    catalog = playground.run(['functions', '--atoms']).out.split('\n').filter(l => l.startsWith('mma '))
      .map(l => l.slice(4));
    fillAtoms();
    $('atom-filter').addEventListener('input', fillAtoms);
    $('atom').addEventListener('change', () => {
      if (!$('atom').value) return;
      chosenAtom = $('atom').value;
      $('atom-chosen').textContent = chosenAtom;
      renderNow();
    });
    for (const id of ['atom-layout', 'permutation', 'thread'])
      $(id).addEventListener('input', renderSoon);
    for (const id of ['expr', 'b', 'tile-rows', 'tile-cols', 'bytes'])
      $(id).addEventListener('input', () => { state.hl = -1; renderSoon(); });
    for (const radio of document.querySelectorAll('input[name=mode]'))
      radio.addEventListener('change', () => { state.hl = -1; renderNow(); });
    $('colour').addEventListener('change', renderNow);
    $('picture').addEventListener('click', onPictureClick);
    window.addEventListener('hashchange', () => { if (location.hash !== playground.key) loadFragment(); });
    loadFragment();
    playground.ready = true;
  }

  start();
})();
