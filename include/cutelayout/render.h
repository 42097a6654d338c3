/* SPDX-License-Identifier: BSD-3-Clause */
/* render.h: pictures of layouts.
 *
 * Two kinds of picture, each as SVG, LaTeX/TikZ or a console table:
 *  - cl_render_layout: the grid of a layout L, each cell (m,n) labelled with
 *    the index L(m,n) and coloured by it, like CuTe's print_layout /
 *    print_latex;
 *  - cl_render_tv: a thread-value layout (thr,val) -> index into an M x N
 *    tile, each cell of the tile labelled T{thr}V{val} and coloured by
 *    thread, like CuTe's print_latex_tv.
 *
 * Every function writes snprintf-style into a caller's buffer: at most cap
 * bytes (NUL included), returning the length of the whole text, or a
 * negative status on failure (nothing useful is written then).  The _file
 * variants write the same text to a stream and return the number of bytes
 * written.  All the checks and evaluations happen before the first byte is
 * written, so a failure never leaves a partial picture (except that a
 * stream may fail part-way: CL_E_DOMAIN). */
#ifndef CUTELAYOUT_RENDER_H
#define CUTELAYOUT_RENDER_H

#include <stdio.h>

#include "common.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CuTe's print_layout: the layout's text, then an M x N table of L(m,n)
 * with row and column numbers.  The layout must have rank 2 (CL_E_RANK);
 * M, N and M * N must be at most CL_PICTURE_MAX_CELLS (CL_E_LIMIT);
 * CL_E_OVERFLOW when its cosize (which sets the column width, as in CuTe)
 * does not fit in int64_t. */
CL_API int64_t cl_print_layout(const cl_layout_t *layout, char *buf, size_t cap);

/* print1D: L(0) L(1) ... L(size-1), separated by single spaces.  The size
 * must be at most CL_PICTURE_MAX_CELLS (CL_E_LIMIT); CL_E_OVERFLOW when
 * some L(i) does not fit in int64_t. */
CL_API int64_t cl_print_1d(const cl_layout_t *layout, char *buf, size_t cap);

/* ------------------------------------------------------------- pictures */

typedef enum cl_picture_format {
  /* A standalone SVG 1.1 document.  Each cell of the grid has exactly one
   * <text class="cell"> element, whose character data is the cell's label;
   * the title, the margin coordinates and the notes are other <text>
   * elements (classes "title", "axis", "note"; also in <title> and <desc>),
   * and each cell's <rect> carries a <title> tooltip with its natural
   * (hierarchical) coordinate. */
  CL_PICTURE_SVG = 0,
  /* A standalone LaTeX document (class standalone, package tikz) with the
   * same content; pdflatex turns it into a one-page PDF. */
  CL_PICTURE_TEX = 1,
  /* A console table.  For a rank-2 layout without map or title it is
   * exactly cl_print_layout's text. */
  CL_PICTURE_TXT = 2
} cl_picture_format;

/* An index map: the picture shows map(ctx, L(crd)) instead of L(crd).  It
 * draws functions that are a plain layout followed by something else, e.g. a
 * composed layout Sw o offset o B is B drawn with map(i) = Sw(offset + i).
 * A failure status from the map is returned by the render call. */
typedef cl_status (*cl_index_map_fn)(void *ctx, int64_t index, int64_t *out);

/* What the colour of a cell says. */
typedef enum cl_colour_scheme {
  /* By index for a layout's grid, by thread for a TV picture. */
  CL_COLOUR_AUTO = 0,
  /* The index shown, on a perceptually even ramp from the smallest index of
   * the picture (dark) to the largest (light). */
  CL_COLOUR_INDEX = 1,
  /* The shared-memory bank of the index: (index * element_bytes / 4) mod
   * 32, 32 distinct colours around a colour wheel, so that the banks a row
   * or column of a shared-memory layout touches can be read off (a
   * conflict-free access shows 32 different colours).  For a TV picture the
   * index is the tile index of the cell. */
  CL_COLOUR_BANK = 2,
  /* TV pictures only: the thread that reaches the cell first. */
  CL_COLOUR_THREAD = 3,
  /* TV pictures only: the value number of that (thr,val). */
  CL_COLOUR_VALUE = 4
} cl_colour_scheme;

/* Where the panels of a figure (cl_render_panels) go. */
typedef enum cl_panel_arrangement {
  /* Side by side, left to right. */
  CL_PANELS_ROW = 0,
  /* A tiled MMA as CuTe's print_latex lays it out: three TV panels, A on an
   * M x K tile, B on an N x K tile and C on an M x N tile, in that order;
   * C in the middle, A at its left (its rows C's rows), B above it drawn
   * transposed, K x N (its columns C's columns). */
  CL_PANELS_MMA = 1
} cl_panel_arrangement;

/* How to draw.  Initialise with CL_PICTURE_OPTIONS_INIT, then set fields:
 *     cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
 *     o.format = CL_PICTURE_TEX;
 * `size` lets later versions append fields: a library reads only the fields
 * that fit in `size`, and a new field's zero value keeps the old behaviour.
 * A NULL options pointer means all defaults. */
typedef struct cl_picture_options {
  size_t size;              /* sizeof(cl_picture_options) */
  cl_picture_format format; /* default CL_PICTURE_SVG */
  const char *title;        /* NULL: the layout's canonical text */
  cl_index_map_fn map;      /* NULL: the identity */
  void *map_ctx;            /* passed to map */
  /* Appended after the first version: a caller whose `size` ends before a
   * field gets its zero value. */
  cl_colour_scheme colour;  /* default CL_COLOUR_AUTO */
  int64_t element_bytes;    /* CL_COLOUR_BANK: bytes per element, 1 to 2^20 (0: 4) */
  /* Cells to mark in the first panel (the only one of a single picture):
   * marks[0 .. mark_count) are linear coordinates as cl_picture_panel's
   * highlight is (a TV panel: tile indices).  Marked cells get a dashed
   * ring (SVG, TikZ) or a '*' before their label (txt), and a note says how
   * many there are: e.g. the cells one instruction asks of one bank.  NULL
   * and 0: none. */
  const int64_t *marks;
  int64_t mark_count;
  cl_panel_arrangement arrangement; /* cl_render_panels; default CL_PANELS_ROW */
} cl_picture_options;

#define CL_PICTURE_OPTIONS_INIT \
  {sizeof(cl_picture_options), CL_PICTURE_SVG, NULL, NULL, NULL, CL_COLOUR_AUTO, 0, NULL, 0, CL_PANELS_ROW}

/* Pictures never draw more cells than CL_PICTURE_MAX_CELLS (common.h), nor
 * more rows or columns (CL_E_LIMIT): a 1024 x 1024 grid is already a 100 MB
 * SVG.  A TV picture visits at most CL_PICTURE_MAX_PAIRS (thr,val) pairs
 * (2^26: the A and B of a 128x256x64 GMMA tiled MMA, whose 128 threads
 * all reach every element, have 2^22).  A figure of more than 16384 cells
 * is drawn compactly in SVG: no tooltip per cell, the fills one path per
 * colour; every cell still has its one <text class="cell">. */
#define CL_PICTURE_MAX_PAIRS ((int64_t)1 << 26)

/* The picture of a layout L as a grid:
 *  - rank 2: an M x N grid, M = size(mode 0), N = size(mode 1), cell (m,n)
 *    labelled L(m,n).  Where a mode is hierarchical, thicker lines mark where
 *    an outer coordinate of it changes, so the tiles are visible;
 *  - rank 1: one row, cell (0,n) = L(n);
 *  - rank 0: one cell, L(0);
 *  - rank r > 2: the rank-2 picture of (mode 0, (mode 1, ..., mode r-1)),
 *    with a note saying so.
 * Cells are coloured as options->colour says, by default by index on a
 * perceptually even ramp from the smallest to the largest index shown, with
 * labels in black or white, whichever contrasts more; a scheme other than
 * the default adds a note saying what the colours mean.
 * Errors: CL_E_NULL (layout, or buf with cap > 0), CL_E_DOMAIN (bad
 * options, or a thread or value colour scheme, which only TV pictures
 * have), CL_E_LIMIT (more than CL_PICTURE_MAX_CELLS cells), CL_E_OVERFLOW
 * from evaluating L, or the map's status. */
CL_API int64_t cl_render_layout(const cl_layout_t *layout, const cl_picture_options *options, char *buf, size_t cap);
CL_API int64_t cl_render_layout_file(const cl_layout_t *layout, const cl_picture_options *options, FILE *f);

/* The picture of a thread-value layout: layout_tv maps (thr,val) to an index
 * into a tile_rows x tile_cols tile, read column-major (index i is the cell
 * (i % tile_rows, i / tile_rows)), as CuTe's TV layouts do.  Each cell shows
 * the first (thr,val) that reaches it, thread-major, as T{thr}V{val}, and is
 * coloured by thread (or as options->colour says); a cell that several pairs reach is marked in its
 * corner and lists them in its tooltip; a cell no pair reaches shows "-".
 * Threads are mode 0 and values mode 1; a rank-1 layout has one value per
 * thread, and a rank r > 2 layout takes modes 1..r-1 as the values (noted).
 * Errors: those of cl_render_layout, CL_E_DOMAIN for a tile dimension < 1
 * or an index outside the tile (naming the pair), CL_E_LIMIT when the tile
 * has more than CL_PICTURE_MAX_CELLS elements or the layout more than
 * CL_PICTURE_MAX_PAIRS. */
CL_API int64_t cl_render_tv(const cl_layout_t *layout_tv, int64_t tile_rows, int64_t tile_cols,
                            const cl_picture_options *options, char *buf, size_t cap);
CL_API int64_t cl_render_tv_file(const cl_layout_t *layout_tv, int64_t tile_rows, int64_t tile_cols,
                                 const cl_picture_options *options, FILE *f);

/* ------------------------------------------------------ side by side */

/* One picture of a figure of several (cl_render_panels): a layout, or a
 * composed layout (swizzle.h) drawn as cl_render_composed draws it, on its
 * grid as cl_render_layout draws it or, when tile_rows > 0, as a TV layout
 * on a tile_rows x tile_cols tile as cl_render_tv draws it.  Set every
 * field (a panel has no size field: the struct is final). */
typedef struct cl_picture_panel {
  const cl_layout_t *layout;          /* what is drawn, or NULL and ... */
  const struct cl_composed *composed; /* ... a cl_composed_t (swizzle.h) */
  const char *title;                  /* NULL: the layout's canonical text */
  int64_t tile_rows, tile_cols;       /* both 0: the grid; both > 0: a TV tile */
  /* The cell to outline: a linear coordinate of the layout's domain (its
   * grid cell is where cl_render_layout draws L(highlight)), or for a TV
   * panel a tile index; -1 for none. */
  int64_t highlight;
} cl_picture_panel;

/* Most panels in one figure. */
#define CL_PICTURE_MAX_PANELS 8

/* Several pictures side by side, left to right (or as
 * options->arrangement says), in one document: e.g. A, B
 * and composition(A,B) (highlighting coordinate c of B and of A o B and
 * coordinate B(c) of A), or the source and destination of a copy
 * (highlighting one element in both).  options->title, when not NULL, is a
 * caption above them all; options->map must be NULL (each panel has its
 * own).  The colour scheme and element size apply to every panel, and the
 * index ramp spans the indices of all panels, so one index has one colour
 * throughout.  SVG: each panel is a <g class="panel"> with one <text
 * class="cell"> per cell; txt: the tables one after the other.
 * Errors: CL_E_NULL (panels, a panel with neither or both of layout and
 * composed, or buf with cap > 0), CL_E_DOMAIN (count 0 or above
 * CL_PICTURE_MAX_PANELS, bad options or tile, a highlight outside its
 * panel, a thread/value colour scheme for a panel that is not TV, or
 * CL_PANELS_MMA with other than three TV panels whose tiles are M x K,
 * N x K and M x N),
 * CL_E_UNSUPPORTED (a composed layout whose inner function is a swizzle),
 * CL_E_LIMIT (more than CL_PICTURE_MAX_CELLS cells in all), and the errors
 * of cl_render_layout / cl_render_tv for each panel. */
CL_API int64_t cl_render_panels(const cl_picture_panel *panels, size_t count, const cl_picture_options *options,
                                char *buf, size_t cap);
CL_API int64_t cl_render_panels_file(const cl_picture_panel *panels, size_t count,
                                     const cl_picture_options *options, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
