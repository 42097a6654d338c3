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
/* The tint of a thread (and of a value number). */
cl_rgb cl_thread_colour(int64_t thread);
/* The colour of shared-memory bank 0..31. */
cl_rgb cl_bank_colour(int64_t bank);

/* ---- the picture ---- */
typedef struct cl_cell {
  int64_t value; /* the index shown; for a TV picture the thread */
  int64_t vid;   /* TV: the value number */
  int64_t hits;  /* TV: how many (thr,val) pairs reach the cell (0: none) */
  bool marked;   /* one of the options' marks */
} cl_cell;

#define CL_PICTURE_MAX_NOTES 6

/* One panel of a figure: a map's grid or a TV tile, every cell computed. */
typedef struct cl_picture {
  bool tv;
  bool transposed;      /* TV: cell (m,n) shows the tile's (n,m) */
  int64_t rows, cols;
  cl_cell *cells;       /* rows * cols, row by row */
  int64_t cells_before; /* of the panels before this one in its figure */
  uint8_t *row_rule;    /* rows + 1: weight of the line above row m (0 thin) */
  uint8_t *col_rule;    /* cols + 1: weight of the line left of column n */
  /* Smallest and largest cell index (cl_cell_index) of the whole figure:
   * one index has one colour in every panel. */
  int64_t lo, hi;
  cl_colour_scheme colour; /* never CL_COLOUR_AUTO */
  int64_t element_bytes;   /* CL_COLOUR_BANK */
  int64_t hl_row, hl_col;  /* the outlined cell, or -1 */
  int64_t marked;          /* cells marked (cl_cell.marked) */
  int label_width;      /* longest label, in characters */
  /* The shapes whose colexicographic coordinates are the rows and columns
   * (NULL: a plain coordinate), for the natural coordinates of tooltips. */
  const cl_node *row_shape, *col_shape;
  cl_builder rest;      /* (mode 1, ..., mode r-1) of a rank r > 2 layout */
  /* A coordinate-valued map's picture: the value of each cell, one tree
   * after the other (a cell's vid is where its tree starts, its value the
   * coordinate's colexicographic rank among the values drawn). */
  bool coordinates;
  cl_builder labels;
  cl_fnmap fn;          /* what is drawn: a layout, a composed layout, ... */
  int64_t threads;      /* TV: size of the thread mode, for the tooltips */
  cl_index_map_fn map;
  void *map_ctx;
  char *title;          /* owned */
  int nnotes;
  char notes[CL_PICTURE_MAX_NOTES][160];
} cl_picture;

/* What the writers draw: panels side by side, and a caption above them. */
typedef struct cl_figure {
  cl_picture *panels;
  size_t count;
  const char *caption; /* NULL: none */
  cl_panel_arrangement arrangement;
} cl_figure;

static inline cl_cell *cl_cell_at(const cl_picture *p, int64_t m, int64_t n) {
  return &p->cells[m * p->cols + n];
}
/* The label of a cell ("12", "T3V1", "-", a coordinate "(2,5)"),
 * NUL-terminated, into buf[32] (a longer coordinate is cut short). */
int cl_cell_label(const cl_picture *p, const cl_cell *c, char buf[32]);
/* A TV cell's index in its tile: m + rows * n, or n + cols * m when the
 * panel is drawn transposed. */
int64_t cl_tile_index(const cl_picture *p, int64_t m, int64_t n);
/* The index a cell stands for, which the index and bank colours show: the
 * map's value, or for a TV picture the tile index m + rows * n. */
int64_t cl_cell_index(const cl_picture *p, int64_t m, int64_t n);
/* The fill of cell (m,n) in the picture's colour scheme; light grey for a
 * TV cell that no (thr,val) reaches. */
cl_rgb cl_cell_colour(const cl_picture *p, int64_t m, int64_t n);
/* The label colour on that fill: "#ffffff", "#777777" (TV cell that no pair
 * reaches) or NULL (the default black). */
const char *cl_label_colour(const cl_picture *p, int64_t m, int64_t n);
/* TV pictures: the longest of the "T{thr}" and "V{val}" lines of a label. */
int cl_tv_line_width(const cl_picture *p);
/* The cell's natural coordinate and contents, for a tooltip. */
void cl_cell_describe(cl_sink *o, const cl_picture *p, int64_t m, int64_t n, bool xml);
/* One sentence saying what a panel shows, for SVG's <desc>. */
void cl_picture_summary(cl_sink *o, const cl_picture *p);

/* One panel to draw: any map (map_impl.h), on its grid or, when tile_rows
 * and tile_cols are not both 0, as a TV layout on that tile; the index map
 * applies after it (NULL: none); highlight as in cl_picture_panel. */
typedef struct cl_panel_spec {
  cl_fnmap fn;
  const char *title; /* NULL: the map's text */
  cl_index_map_fn map;
  void *map_ctx;
  int64_t tile_rows, tile_cols;
  int64_t highlight;
} cl_panel_spec;

/* The figure of `count` panels (1 or more) side by side, with options's
 * title as the caption when `caption` (otherwise the caller has put it in
 * the panel), every cell computed and checked before the first byte is
 * written: the length, or a failure. */
int64_t cl_render_figure(const cl_panel_spec *panels, size_t count, const cl_picture_options *options, bool caption,
                         cl_sink *o);

/* The pictures of render.h, of any map (map_impl.h): cl_render_layout and
 * cl_render_tv are these for the map of a layout. */
int64_t cl_render_map(const cl_fnmap *fn, const cl_picture_options *options, cl_sink *o);
int64_t cl_render_map_tv(const cl_fnmap *fn, int64_t tile_rows, int64_t tile_cols, const cl_picture_options *options,
                         cl_sink *o);

/* The SVG; CL_E_NOMEM (before any byte is written) when a compact
 * figure's tables cannot be allocated. */
cl_status cl_figure_write_svg(cl_sink *o, const cl_figure *f);
void cl_figure_write_tex(cl_sink *o, const cl_figure *f);

/* Lengths in the writers are int64_t hundredths of a pixel (or of a TikZ
 * unit), printed without trailing zeros: integer arithmetic keeps the output
 * identical on every machine and independent of the C locale. */
void cl_sink_hundredths(cl_sink *o, int64_t v);

#endif
