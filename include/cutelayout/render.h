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
  /* A standalone SVG 1.1 document.  It holds exactly one <text> element per
   * cell of the grid, whose character data is the cell's label; the title,
   * the margin coordinates and the notes are drawn as paths (and repeated in
   * <title> and <desc>), and each cell's <rect> carries a <title> tooltip
   * with its natural (hierarchical) coordinate. */
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
} cl_picture_options;

#define CL_PICTURE_OPTIONS_INIT {sizeof(cl_picture_options), CL_PICTURE_SVG, NULL, NULL, NULL}

/* Pictures never draw more cells than CL_PICTURE_MAX_CELLS (common.h), nor
 * more rows or columns (CL_E_LIMIT): a 1024 x 1024 grid is already a 100 MB
 * SVG. */

/* The picture of a layout L as a grid:
 *  - rank 2: an M x N grid, M = size(mode 0), N = size(mode 1), cell (m,n)
 *    labelled L(m,n).  Where a mode is hierarchical, thicker lines mark where
 *    an outer coordinate of it changes, so the tiles are visible;
 *  - rank 1: one row, cell (0,n) = L(n);
 *  - rank 0: one cell, L(0);
 *  - rank r > 2: the rank-2 picture of (mode 0, (mode 1, ..., mode r-1)),
 *    with a note saying so.
 * Cells are coloured by index on a perceptually even ramp from the smallest
 * to the largest index shown, with labels in black or white, whichever
 * contrasts more.
 * Errors: CL_E_NULL (layout, or buf with cap > 0), CL_E_DOMAIN (bad
 * options), CL_E_LIMIT (more than CL_PICTURE_MAX_CELLS cells), CL_E_OVERFLOW
 * from evaluating L, or the map's status. */
CL_API int64_t cl_render_layout(const cl_layout_t *layout, const cl_picture_options *options, char *buf, size_t cap);
CL_API int64_t cl_render_layout_file(const cl_layout_t *layout, const cl_picture_options *options, FILE *f);

/* The picture of a thread-value layout: layout_tv maps (thr,val) to an index
 * into a tile_rows x tile_cols tile, read column-major (index i is the cell
 * (i % tile_rows, i / tile_rows)), as CuTe's TV layouts do.  Each cell shows
 * the first (thr,val) that reaches it, thread-major, as T{thr}V{val}, and is
 * coloured by thread; a cell that several pairs reach is marked in its
 * corner and lists them in its tooltip; a cell no pair reaches shows "-".
 * Threads are mode 0 and values mode 1; a rank-1 layout has one value per
 * thread, and a rank r > 2 layout takes modes 1..r-1 as the values (noted).
 * Errors: those of cl_render_layout, CL_E_DOMAIN for a tile dimension < 1
 * or an index outside the tile (naming the pair), CL_E_LIMIT when the tile
 * or the layout has more than CL_PICTURE_MAX_CELLS elements. */
CL_API int64_t cl_render_tv(const cl_layout_t *layout_tv, int64_t tile_rows, int64_t tile_cols,
                            const cl_picture_options *options, char *buf, size_t cap);
CL_API int64_t cl_render_tv_file(const cl_layout_t *layout_tv, int64_t tile_rows, int64_t tile_cols,
                                 const cl_picture_options *options, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
