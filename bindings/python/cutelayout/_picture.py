# SPDX-License-Identifier: BSD-3-Clause
"""Pictures of layouts (render.h): SVG, LaTeX/TikZ or console tables, as text."""
import ctypes
from ctypes import sizeof

from ._atoms import MmaAtom, TiledCopy, TiledMMA
from ._ffi import CuteLayoutError, capi, cl_index_map_fn, cl_picture_options, cl_picture_panel, snprintf_text
from ._coord import CoordTensor
from ._layout import ComposedLayout, _as_fn

_FORMATS = {'svg': capi.CL_PICTURE_SVG, 'tex': capi.CL_PICTURE_TEX, 'txt': capi.CL_PICTURE_TXT}
_ARRANGEMENTS = {'row': capi.CL_PANELS_ROW, 'mma': capi.CL_PANELS_MMA}
_COLOURS = {'auto': capi.CL_COLOUR_AUTO, 'index': capi.CL_COLOUR_INDEX, 'bank': capi.CL_COLOUR_BANK,
            'thread': capi.CL_COLOUR_THREAD, 'value': capi.CL_COLOUR_VALUE}


class Picture(str):
    """The text of a picture (a str), which Jupyter shows as the picture:
    `_repr_svg_` for SVG, `_repr_latex_` for TikZ (format 'tex'); a
    console table ('txt') shows as text."""

    def __new__(cls, text, format):
        self = super().__new__(cls, text)
        self.format = format
        return self

    def _repr_svg_(self):
        return str(self) if self.format == 'svg' else None

    def _repr_latex_(self):
        return str(self) if self.format == 'tex' else None


def _choice(table, value, what):
    try:
        return table[value]
    except KeyError:
        raise ValueError('%s must be one of %s, not %r' % (what, ', '.join(table), value)) from None


class _Options:
    """cl_picture_options for the keyword arguments of draw(); holds the map
    callback (and any exception it raised) for the call's duration."""

    def __init__(self, format='svg', title=None, colour='auto', element_bytes=None, map=None, arrangement='row'):
        self.error = None
        self.format = format
        self.struct = cl_picture_options(sizeof(cl_picture_options), _choice(_FORMATS, format, 'format'),
                                         None if title is None else title.encode(), cl_index_map_fn(),
                                         None, _choice(_COLOURS, colour, 'colour'), element_bytes or 0,
                                         arrangement=_choice(_ARRANGEMENTS, arrangement, 'arrangement'))
        if map is not None:
            def call(ctx, index, out):
                try:
                    out[0] = map(index)
                    return capi.CL_OK
                except Exception as e:  # re-raised by draw() after the C call
                    self.error = e
                    return capi.CL_E_DOMAIN
            self.callback = cl_index_map_fn(call)
            self.struct.map = self.callback

    def render(self, fn, *args):
        try:
            return Picture(snprintf_text(fn, *args, ctypes.byref(self.struct)), self.format)
        except CuteLayoutError:
            if self.error is not None:
                raise self.error from None
            raise


def draw(x, tv=None, format='svg', title=None, colour='auto', element_bytes=None, map=None):
    """The picture of a layout or composed layout as text: a Picture, a
    str that Jupyter shows as the picture.

    tv=(M, N) draws x as a thread-value layout (thr,val) -> index into an M x N
    tile, each cell labelled T{thr}V{val}; otherwise the grid of x, each cell
    (m,n) labelled x(m,n).  format: 'svg' (default), 'tex' (TikZ) or 'txt'
    (CuTe's print_layout table).  colour: 'auto', 'index', 'bank' (shared-memory
    bank of the index, for element_bytes-byte elements), and for TV pictures
    'thread' or 'value'.  title: instead of the layout's text.  map: a function
    index -> int shown instead of the index.  A coordinate tensor's cells
    show its coordinates.  A TiledMMA (or MmaAtom) is drawn as CuTe's
    print_latex lays it out, A at the left, B on top (K x N), C in the middle;
    a TiledCopy as its source and destination side by side."""
    if isinstance(x, (TiledMMA, MmaAtom, TiledCopy)):
        if tv is not None or map is not None:
            raise ValueError('a tiled MMA or copy is drawn on its own tiles: no tv or map')
        return _draw_tiled(x, format, title, colour, element_bytes)
    options = _Options(format, title, colour, element_bytes, map)
    if isinstance(x, CoordTensor):
        if tv is not None:
            raise ValueError('a coordinate tensor has no thread-value picture')
        return options.render(capi.cl_render_coord_tensor, x)
    x = _as_fn(x)
    tile = () if tv is None else tuple(tv)
    if tile and len(tile) != 2:
        raise ValueError('tv is (rows, columns) of the tile')
    if isinstance(x, ComposedLayout):
        return options.render(capi.cl_render_composed_tv if tile else capi.cl_render_composed, x, *tile)
    return options.render(capi.cl_render_tv if tile else capi.cl_render_layout, x, *tile)


def _extent(mode):
    """The size of a mode of a tile shape (an integer or a nested tuple)."""
    if isinstance(mode, int):
        return mode
    n = 1
    for m in mode:
        n *= _extent(m)
    return n


def _draw_tiled(x, format, title, colour, element_bytes):
    if isinstance(x, TiledCopy):
        m, n = (_extent(e) for e in x.tiler_mn())
        panels = [Panel(x.side_tv('S'), 'source (layoutS_TV)', (m, n)),
                  Panel(x.side_tv('D'), 'destination (layoutD_TV)', (m, n))]
        arrangement = 'row'
    else:
        mma = TiledMMA(x) if isinstance(x, MmaAtom) else x
        m, n, k = (_extent(e) for e in mma.tile_shape())
        panels = [Panel(mma.layout_tv('A'), 'A (M,K): layoutA_TV', (m, k)),
                  Panel(mma.layout_tv('B'), 'B (N,K): layoutB_TV', (n, k)),
                  Panel(mma.layout_tv('C'), 'C (M,N): layoutC_TV', (m, n))]
        arrangement = 'mma'
    return draw_panels(*panels, format=format, title=str(x) if title is None else title, colour=colour,
                       element_bytes=element_bytes, arrangement=arrangement)


class Panel:
    """One picture of draw_panels(): a layout or composed layout, its title,
    tv=(M, N) for a thread-value picture, and the cell to outline
    (highlight: a linear coordinate, or for a TV panel a tile index)."""

    def __init__(self, layout, title=None, tv=None, highlight=None):
        self.layout = _as_fn(layout)
        self.title = title
        self.tv = (0, 0) if tv is None else tuple(tv)
        self.highlight = -1 if highlight is None else highlight


def draw_panels(*panels, format='svg', title=None, colour='auto', element_bytes=None, arrangement='row'):
    """Several pictures side by side in one document (e.g. A, B and
    composition(A, B)); each panel a Layout, ComposedLayout, text, or Panel.
    The colours span all panels, so one index has one colour throughout.
    arrangement='mma': three TV panels A (M x K), B (N x K) and C (M x N)
    laid out as CuTe's print_latex does (B above C, drawn K x N; A at C's
    left)."""
    panels = [p if isinstance(p, Panel) else Panel(p) for p in panels]
    array = (cl_picture_panel * max(len(panels), 1))()
    for c, p in zip(array, panels):
        if isinstance(p.layout, ComposedLayout):
            c.composed = p.layout._as_parameter_
        else:
            c.layout = p.layout._as_parameter_
        c.title = None if p.title is None else p.title.encode()
        c.tile_rows, c.tile_cols = p.tv
        c.highlight = p.highlight
    return _Options(format, title, colour, element_bytes, arrangement=arrangement).render(
        capi.cl_render_panels, array, len(panels))


def print_layout(x):
    """CuTe's print_layout: the text, then the table of x(m,n) of a rank-2 layout."""
    x = _as_fn(x)
    fn = capi.cl_composed_print_layout if isinstance(x, ComposedLayout) else capi.cl_print_layout
    return snprintf_text(fn, x)


def print1d(x):
    """CuTe's print1D: x(0) x(1) ... x(size-1), separated by single spaces."""
    x = _as_fn(x)
    fn = capi.cl_composed_print_1d if isinstance(x, ComposedLayout) else capi.cl_print_1d
    return snprintf_text(fn, x)


print1D = print1d
