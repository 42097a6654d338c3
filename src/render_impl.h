/* SPDX-License-Identifier: BSD-3-Clause */
/* render_impl.h: what the picture writers (render_svg.c, render_tex.c) share
 * with render.c, which turns a layout into a `picture`: a grid of cells whose
 * contents are all computed before any byte is written. */
#ifndef CUTELAYOUT_RENDER_IMPL_H
#define CUTELAYOUT_RENDER_IMPL_H

#include <stdbool.h>
#include <stdio.h>

#include "map_impl.h"
#include "sink_impl.h"
#include "tuple_impl.h"
#include "cutelayout/render.h"

/* ---- output (sink_impl.h) ---- */
void cl_sink_xml(cl_sink *o, const char *s);

/* ---- colours ---- */
typedef struct cl_rgb {
  uint8_t r, g, b;
  uint8_t white_text; /* white labels contrast more than black ones */
} cl_rgb;
/* The index ramp at position value in [lo, hi] (perceptually even). */
cl_rgb cl_index_colour(int64_t value, int64_t lo, int64_t hi);
/* The tint of a thread. */
cl_rgb cl_thread_colour(int64_t thread);

/* ---- the picture ---- */
typedef struct cl_cell {
  int64_t value; /* the index shown; for a TV picture the thread */
  int64_t vid;   /* TV: the value number */
  int64_t hits;  /* TV: how many (thr,val) pairs reach the cell (0: none) */
} cl_cell;

#define CL_PICTURE_MAX_NOTES 4

typedef struct cl_picture {
  bool tv;
  int64_t rows, cols;
  cl_cell *cells;      /* rows * cols, row by row */
  uint8_t *row_rule;   /* rows + 1: weight of the line above row m (0 thin) */
  uint8_t *col_rule;   /* cols + 1: weight of the line left of column n */
  int64_t lo, hi;      /* smallest and largest value shown (colour ramp) */
  int label_width;     /* longest label, in characters */
  /* The shapes whose colexicographic coordinates are the rows and columns
   * (NULL: a plain coordinate), for the natural coordinates of tooltips. */
  const cl_node *row_shape, *col_shape;
  cl_builder rest;     /* (mode 1, ..., mode r-1) of a rank r > 2 layout */
  cl_fnmap fn;         /* what is drawn: a layout, a composed layout, ... */
  int64_t threads;     /* TV: size of the thread mode, for the tooltips */
  cl_index_map_fn map;
  void *map_ctx;
  char *title;         /* owned */
  int nnotes;
  char notes[CL_PICTURE_MAX_NOTES][160];
} cl_picture;

static inline cl_cell *cl_cell_at(const cl_picture *p, int64_t m, int64_t n) {
  return &p->cells[m * p->cols + n];
}
/* The label of a cell ("12", "T3V1", "-"), NUL-terminated, into buf[32]. */
int cl_cell_label(const cl_picture *p, const cl_cell *c, char buf[32]);
/* The fill of a cell: the index ramp, a thread's tint, or light grey for a
 * TV cell that no (thr,val) reaches. */
cl_rgb cl_cell_colour(const cl_picture *p, const cl_cell *c);
/* TV pictures: the longest of the "T{thr}" and "V{val}" lines of a label. */
int cl_tv_line_width(const cl_picture *p);
/* The cell's natural coordinate and contents, for a tooltip. */
void cl_cell_describe(cl_sink *o, const cl_picture *p, int64_t m, int64_t n, bool xml);

/* The pictures of render.h, of any map (map_impl.h): cl_render_layout and
 * cl_render_tv are these for the map of a layout. */
int64_t cl_render_map(const cl_fnmap *fn, const cl_picture_options *options, cl_sink *o);
int64_t cl_render_map_tv(const cl_fnmap *fn, int64_t tile_rows, int64_t tile_cols, const cl_picture_options *options,
                         cl_sink *o);

void cl_picture_write_svg(cl_sink *o, const cl_picture *p);
void cl_picture_write_tex(cl_sink *o, const cl_picture *p);

/* ---- the stroke font of render_font.c ----
 * Glyphs on a grid 8 units wide, capitals 12 units tall with the baseline at
 * y = 12 (y grows downwards), advancing 11 units per character. */
#define CL_FONT_ADVANCE 11
#define CL_FONT_CAP 12
/* Lengths in the writers are int64_t hundredths of a pixel (or of a TikZ
 * unit), printed without trailing zeros: integer arithmetic keeps the output
 * identical on every machine and independent of the C locale. */
void cl_sink_hundredths(cl_sink *o, int64_t v);
/* Appends the path data ("M.. L..") of s, scaled so that capitals are cap
 * pixels tall, with the baseline's left end at (x, y) (hundredths). */
void cl_font_path(cl_sink *o, const char *s, int64_t x, int64_t y, int64_t cap);
/* Width of s at capital height cap pixels, in hundredths of a pixel. */
int64_t cl_font_width(const char *s, int64_t cap);

#endif
