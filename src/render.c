/* SPDX-License-Identifier: BSD-3-Clause */
/* render.c: pictures of layouts: CuTe's print_layout table and print1D, and
 * the pictures of render.h (the SVG and TikZ writers are render_svg.c and
 * render_tex.c). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "tuple_impl.h"
#include "cutelayout/layout.h"
#include "cutelayout/render.h"
#include "map_impl.h"
#include "render_impl.h"

/* CuTe's num_digits: decimal digits of a non-negative int, at most 10. */
static int num_digits(int64_t x) {
  int d = 1;
  while (x >= 10 && d < 10) {
    x /= 10;
    d++;
  }
  return d;
}

char *cl_fnmap_text(const cl_fnmap *m) {
  cl_sink count = cl_sink_buffer(NULL, 0);
  m->text(m->self, &count);
  char *text = cl_alloc(count.len + 1);
  if (text == NULL)
    return NULL;
  cl_sink o = cl_sink_buffer(text, count.len + 1);
  m->text(m->self, &o);
  cl_sink_finish(&o, "text");
  return text;
}

/* Border line between rows: "    +----+----+\n".  One segment per column, not
 * one call per character: a table may be 2^20 cells wide. */
static void emit_rule(cl_sink *o, int64_t columns, int width) {
  char segment[16] = "+"; /* width <= 12: num_digits is at most 10 */
  memset(segment + 1, '-', (size_t)width);
  cl_sink_puts(o, "    ");
  for (int64_t n = 0; n < columns; n++)
    cl_sink_write(o, segment, (size_t)width + 1);
  cl_sink_puts(o, "+\n");
}

/* The entry of print_layout's table at (m,n): the map at the linear
 * coordinate that splits into m for mode 0 and n for mode 1. */
static cl_status table_entry(const cl_fnmap *m, int64_t rows, int64_t r, int64_t c, int64_t *value) {
  CL_TRY(m->at(m->self, r + rows * c, value));
  if (m->int_cells)
    *value = (int32_t)*value;
  return CL_OK;
}

int64_t cl_print_layout_map(const cl_fnmap *m, cl_sink *o) {
  const cl_node *shape = m->shape;
  if (m->at == NULL)
    return cl_fail(CL_E_TYPE, "print_layout: the layout's values are coordinates, and CuTe's table holds integers "
                              "(print1D lists them, a picture draws them)");
  if (cl_rank_of(shape) != 2 || !cl_is_tuple(shape))
    return cl_fail(CL_E_RANK, "print_layout: the layout must have rank 2, not %lld", (long long)cl_rank_of(shape));
  int64_t rows, cols, cosize, value;
  CL_TRY(cl_tree_product(cl_child(shape, 0), &rows));
  CL_TRY(cl_tree_product(cl_child(shape, 1), &cols));
  CL_TRY(cl_check_picture(rows, cols, "print_layout: the layout"));
  CL_TRY(m->cosize(m->self, &cosize));
  /* Every entry is computed before anything is written, so that a failure
   * leaves no partial table. */
  for (int64_t r = 0; r < rows; r++)
    for (int64_t c = 0; c < cols; c++)
      CL_TRY(table_entry(m, rows, r, c, &value));
  int width = num_digits(cosize) + 2;
  m->text(m->self, o);
  cl_sink_puts(o, "\n    ");
  for (int64_t c = 0; c < cols; c++)
    cl_sink_printf(o, "  %*lld ", width - 2, (long long)c);
  cl_sink_puts(o, "\n");
  for (int64_t r = 0; r < rows; r++) {
    emit_rule(o, cols, width);
    cl_sink_printf(o, "%2lld  ", (long long)r);
    for (int64_t c = 0; c < cols; c++) {
      table_entry(m, rows, r, c, &value);
      cl_sink_printf(o, "| %*lld ", width - 2, (long long)value);
    }
    cl_sink_puts(o, "|\n");
  }
  emit_rule(o, cols, width);
  return cl_sink_finish(o, "print_layout");
}

/* print1D of a coordinate-valued map: each value as CuTe prints it, all of
 * them computed (one tree after the other in one builder) before a byte is
 * written. */
static int64_t print_1d_values(const cl_fnmap *m, int64_t size, cl_sink *o) {
  cl_builder values;
  cl_b_init(&values);
  for (int64_t i = 0; i < size && values.status == CL_OK; i++)
    m->value(m->self, i, &values);
  cl_status s = values.status;
  for (int32_t at = 0; s == CL_OK && at < values.count; at += values.nodes[at].span) {
    if (at > 0)
      cl_sink_write(o, " ", 1);
    cl_sink_tree(o, values.nodes + at);
  }
  cl_b_release(&values);
  return s == CL_OK ? cl_sink_finish(o, "print1D") : s;
}

int64_t cl_print_1d_map(const cl_fnmap *m, cl_sink *o) {
  int64_t size, value;
  CL_TRY(cl_tree_product(m->shape, &size));
  CL_TRY(cl_check_picture(1, size, "print1D: the layout"));
  if (m->at == NULL)
    return print_1d_values(m, size, o);
  for (int64_t i = 0; i < size; i++)
    CL_TRY(m->at(m->self, i, &value));
  for (int64_t i = 0; i < size; i++) {
    m->at(m->self, i, &value);
    if (i > 0)
      cl_sink_write(o, " ", 1);
    cl_sink_int(o, value);
  }
  return cl_sink_finish(o, "print1D");
}

typedef int64_t (*map_printer)(const cl_fnmap *m, cl_sink *o);

static int64_t print_layout_by(map_printer print, const char *what, const cl_layout_t *layout, char *buf, size_t cap) {
  if (layout == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "%s: NULL argument", what);
  cl_fnmap m = cl_fnmap_of_layout(layout);
  cl_sink o = cl_sink_buffer(buf, cap);
  return print(&m, &o);
}

int64_t cl_print_layout(const cl_layout_t *layout, char *buf, size_t cap) {
  return print_layout_by(cl_print_layout_map, "print_layout", layout, buf, cap);
}

int64_t cl_print_1d(const cl_layout_t *layout, char *buf, size_t cap) {
  return print_layout_by(cl_print_1d_map, "print1D", layout, buf, cap);
}

/* ======================================================================
 * Pictures (render.h's cl_render_*): a layout becomes a cl_picture, a grid
 * whose every cell is computed (and every failure found) before the writers
 * of render_svg.c, render_tex.c or write_txt below emit a byte.
 * ==================================================================== */

/* ---- text ---- */

void cl_sink_hundredths(cl_sink *o, int64_t v) {
  if (v < 0) {
    cl_sink_puts(o, "-");
    v = -v;
  }
  int64_t frac = v % 100;
  if (frac == 0)
    cl_sink_printf(o, "%lld", (long long)(v / 100));
  else if (frac % 10 == 0)
    cl_sink_printf(o, "%lld.%lld", (long long)(v / 100), (long long)(frac / 10));
  else
    cl_sink_printf(o, "%lld.%02lld", (long long)(v / 100), (long long)frac);
}

void cl_sink_xml(cl_sink *o, const char *s) {
  for (; *s; s++) {
    switch (*s) {
    case '<': cl_sink_puts(o, "&lt;"); break;
    case '>': cl_sink_puts(o, "&gt;"); break;
    case '&': cl_sink_puts(o, "&amp;"); break;
    case '"': cl_sink_puts(o, "&quot;"); break;
    case '\'': cl_sink_puts(o, "&apos;"); break;
    default:
      /* XML 1.0 forbids most control characters even when escaped. */
      cl_sink_printf(o, "%c", ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n') ? '?' : *s);
    }
  }
}

/* ---- colours (tables generated by tools/palette.py) ---- */

/* Generated by tools/palette.py: index ramp, dark to light. */
static const cl_rgb index_ramp[33] = {
  { 67,  62, 123, 1},
  { 65,  68, 130, 1},
  { 63,  74, 137, 1},
  { 59,  81, 144, 1},
  { 54,  87, 150, 1},
  { 47,  94, 156, 1},
  { 38, 101, 161, 1},
  { 25, 108, 165, 1},
  {  3, 116, 168, 1},
  {  1, 122, 167, 1},
  {  9, 129, 166, 0},
  {  5, 135, 166, 0},
  {  9, 142, 166, 0},
  {  8, 148, 166, 0},
  { 14, 154, 166, 0},
  { 14, 161, 165, 0},
  {  9, 167, 164, 0},
  { 14, 174, 163, 0},
  { 15, 180, 160, 0},
  { 15, 187, 157, 0},
  {  4, 194, 151, 0},
  { 33, 200, 144, 0},
  { 65, 205, 137, 0},
  { 89, 209, 130, 0},
  {110, 213, 122, 0},
  {130, 217, 113, 0},
  {149, 220, 104, 0},
  {168, 223,  95, 0},
  {186, 225,  86, 0},
  {205, 227,  76, 0},
  {222, 228,  67, 0},
  {240, 229,  58, 0},
  {255, 230,  78, 0},
};
/* Generated by tools/palette.py: thread tints. */
static const cl_rgb thread_tints[16] = {
  {162, 207, 255, 0},
  {255, 181, 171, 0},
  {145, 222, 188, 0},
  {214, 189, 252, 0},
  {234, 197, 134, 0},
  {131, 217, 241, 0},
  {250, 178, 205, 0},
  {180, 216, 155, 0},
  {223, 231, 254, 0},
  {254, 225, 211, 0},
  {160, 252, 240, 0},
  {251, 220, 254, 0},
  {245, 234, 164, 0},
  {209, 236, 255, 0},
  {254, 223, 224, 0},
  {186, 250, 203, 0},
};
/* Generated by tools/palette.py: bank colours. */
static const cl_rgb bank_colours[32] = {
  {221, 118, 111, 0},
  {255, 182, 162, 0},
  {216, 125,  77, 0},
  {255, 186, 132, 0},
  {203, 136,  46, 0},
  {245, 193,  95, 0},
  {181, 149,  33, 0},
  {217, 206,  99, 0},
  {150, 161,  54, 0},
  {181, 218, 122, 0},
  {111, 171,  88, 0},
  {139, 226, 155, 0},
  { 61, 176, 124, 0},
  { 96, 230, 192, 0},
  { 12, 176, 158, 0},
  { 65, 229, 227, 0},
  {  1, 172, 186, 0},
  { 86, 222, 254, 0},
  { 13, 167, 214, 0},
  {148, 211, 254, 0},
  { 84, 157, 229, 0},
  {174, 204, 254, 0},
  {125, 146, 232, 0},
  {195, 196, 255, 0},
  {158, 135, 224, 0},
  {219, 186, 254, 0},
  {185, 125, 205, 0},
  {249, 171, 244, 0},
  {205, 118, 177, 0},
  {254, 175, 210, 0},
  {217, 116, 145, 0},
  {254, 179, 185, 0},
};

cl_rgb cl_index_colour(int64_t value, int64_t lo, int64_t hi) {
  if (hi <= lo)
    return index_ramp[0];
  /* Position on the 32 segments of the ramp in 1/256 steps, rounded, in
   * unsigned integers (hi - lo may exceed INT64_MAX; floating point could
   * round differently on another machine and change the golden files). */
  uint64_t span = (uint64_t)hi - (uint64_t)lo, offset = (uint64_t)value - (uint64_t)lo;
  while (span > (UINT64_MAX >> 13)) {
    span >>= 1;
    offset >>= 1;
  }
  int64_t pos = (int64_t)((offset * 8192 + span / 2) / span);
  if (pos > 32 * 256)
    pos = 32 * 256;
  int64_t k = pos / 256, f = pos % 256;
  if (k == 32)
    return index_ramp[32];
  const cl_rgb a = index_ramp[k], b = index_ramp[k + 1];
  cl_rgb c = {(uint8_t)((a.r * (256 - f) + b.r * f) / 256), (uint8_t)((a.g * (256 - f) + b.g * f) / 256),
              (uint8_t)((a.b * (256 - f) + b.b * f) / 256), f < 128 ? a.white_text : b.white_text};
  return c;
}

cl_rgb cl_thread_colour(int64_t thread) {
  int64_t k = thread % 16;
  return thread_tints[k < 0 ? k + 16 : k];
}

cl_rgb cl_bank_colour(int64_t bank) {
  int64_t k = bank % 32;
  return bank_colours[k < 0 ? k + 32 : k];
}

/* ---- building the picture ---- */

static cl_status read_options(const cl_picture_options *given, cl_picture_options *result) {
  cl_picture_options defaults = CL_PICTURE_OPTIONS_INIT;
  *result = defaults;
  if (given == NULL)
    return CL_OK;
  /* A caller built against this header has at least these fields; a newer
   * caller's extra fields are beyond what this library knows and are left
   * alone (their zero value means "as before"). */
  if (given->size < offsetof(cl_picture_options, map_ctx) + sizeof given->map_ctx)
    return cl_fail(CL_E_DOMAIN, "picture options: size is %zu; initialise them with CL_PICTURE_OPTIONS_INIT",
                   given->size);
  result->format = given->format;
  result->title = given->title;
  result->map = given->map;
  result->map_ctx = given->map_ctx;
  if (given->size >= offsetof(cl_picture_options, element_bytes) + sizeof given->element_bytes) {
    result->colour = given->colour;
    result->element_bytes = given->element_bytes;
  }
  if (given->size >= offsetof(cl_picture_options, mark_count) + sizeof given->mark_count) {
    result->marks = given->marks;
    result->mark_count = given->mark_count;
  }
  if (result->mark_count < 0)
    return cl_fail(CL_E_DOMAIN, "picture options: mark_count is %lld", (long long)result->mark_count);
  if (result->mark_count > 0 && result->marks == NULL)
    return cl_fail(CL_E_NULL, "picture options: %lld marks, but marks is NULL", (long long)result->mark_count);
  if (given->size >= offsetof(cl_picture_options, arrangement) + sizeof given->arrangement)
    result->arrangement = given->arrangement;
  if (result->arrangement != CL_PANELS_ROW && result->arrangement != CL_PANELS_MMA)
    return cl_fail(CL_E_DOMAIN, "picture options: unknown panel arrangement %d", (int)result->arrangement);
  if (result->format != CL_PICTURE_SVG && result->format != CL_PICTURE_TEX && result->format != CL_PICTURE_TXT)
    return cl_fail(CL_E_DOMAIN, "picture options: unknown format %d", (int)result->format);
  if (result->colour < CL_COLOUR_AUTO || result->colour > CL_COLOUR_VALUE)
    return cl_fail(CL_E_DOMAIN, "picture options: unknown colour scheme %d", (int)result->colour);
  if (result->element_bytes == 0)
    result->element_bytes = 4;
  if (result->element_bytes < 1 || result->element_bytes > ((int64_t)1 << 20))
    return cl_fail(CL_E_DOMAIN, "picture options: element_bytes is %lld; it must be 1 to 1048576 (0: 4)",
                   (long long)result->element_bytes);
  return CL_OK;
}

static void picture_release(cl_picture *p) {
  cl_dealloc(p->cells);
  cl_dealloc(p->row_rule);
  cl_dealloc(p->col_rule);
  cl_dealloc(p->title);
  cl_b_release(&p->rest);
  cl_b_release(&p->labels);
}

static void add_note(cl_picture *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void add_note(cl_picture *p, const char *fmt, ...) {
  if (p->nnotes >= CL_PICTURE_MAX_NOTES)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->notes[p->nnotes++], sizeof p->notes[0], fmt, ap);
  va_end(ap);
}

static cl_status set_title(cl_picture *p, const char *title) {
  if (title == NULL) {
    p->title = cl_fnmap_text(&p->fn);
  } else {
    size_t n = strlen(title);
    p->title = cl_alloc(n + 1);
    if (p->title != NULL)
      memcpy(p->title, title, n + 1);
  }
  return p->title != NULL ? CL_OK : cl_fail(CL_E_NOMEM, "picture: out of memory");
}

/* The two axes of a picture: a layout of rank r is read as (mode 0, rest),
 * rest being mode 1 for r = 2 and the tuple (mode 1, ..., mode r-1) for
 * r > 2 (built in p->rest).  *first / *second are NULL where the axis has
 * no shape of its own (rank 0 and 1 pictures have one row). */
static cl_status split_modes(cl_picture *p, const cl_node *shape, const cl_node **first, const cl_node **second) {
  int64_t rank = cl_rank_of(shape);
  *first = *second = NULL;
  if (cl_is_tuple(shape) && rank == 0)
    return CL_OK;
  if (rank == 1) {
    *second = cl_child(shape, 0);
    return CL_OK;
  }
  *first = cl_child(shape, 0);
  if (rank == 2) {
    *second = cl_child(shape, 1);
    return CL_OK;
  }
  int32_t at = cl_b_open(&p->rest, CL_KIND_TUPLE);
  for (const cl_node *c = cl_next(*first); c < shape + shape->span; c = cl_next(c))
    cl_b_copy(&p->rest, c);
  cl_b_close(&p->rest, at);
  CL_TRY(p->rest.status);
  *second = cl_b_root(&p->rest);
  return CL_OK;
}

static bool has_negative_leaf(const cl_node *t) {
  if (!cl_is_tuple(t))
    return cl_is_int(t) && t->value < 0;
  CL_FOR_EACH_CHILD(c, t) {
    if (has_negative_leaf(c))
      return true;
  }
  return false;
}

static cl_status extent_of(const cl_node *axis, int64_t *result) {
  *result = 1;
  if (axis == NULL)
    return CL_OK;
  /* Every extent counts cells: negative ones, whose product could still be
   * positive, have no picture. */
  if (has_negative_leaf(axis))
    return cl_fail(CL_E_DOMAIN, "picture: the layout has a negative extent");
  return cl_tree_product(axis, result);
}

/* Line weights along one axis of `extent` cells whose coordinate is
 * colexicographic in `axis`: the line before cell k is as heavy as the
 * number of distinct inner extents (prefix products of the flattened shape,
 * below the whole extent) that divide k, i.e. how many levels of the
 * hierarchy start a new tile there.  The two outer lines get 255. */
static cl_status axis_rules(const cl_node *axis, int64_t extent, uint8_t **result) {
  uint8_t *rule = cl_alloc((size_t)extent + 1);
  if (rule == NULL)
    return cl_fail(CL_E_NOMEM, "picture: out of memory");
  memset(rule, 0, (size_t)extent + 1);
  rule[0] = rule[extent] = 255;
  *result = rule;
  if (axis == NULL || !cl_is_tuple(axis))
    return CL_OK;
  int64_t leaves = cl_tree_leaf_count(axis);
  const cl_node **leaf = cl_alloc(sizeof *leaf * (size_t)leaves);
  if (leaf == NULL)
    return cl_fail(CL_E_NOMEM, "picture: out of memory");
  cl_tree_leaves(axis, leaf);
  int64_t tile = 1;
  for (int64_t j = 0; j + 1 < leaves; j++) {
    int64_t next = tile * leaf[j]->value; /* no overflow: a divisor of extent */
    if (next != tile && next < extent)
      for (int64_t k = next; k < extent; k += next)
        if (rule[k] < 3)
          rule[k]++;
    tile = next;
  }
  cl_dealloc(leaf);
  return CL_OK;
}

static int label_length(const cl_picture *p, const cl_cell *c) {
  char buf[32];
  return cl_cell_label(p, c, buf);
}

int cl_cell_label(const cl_picture *p, const cl_cell *c, char buf[32]) {
  if (p->coordinates) {
    int64_t n = cl_format_tree(p->labels.nodes + c->vid, buf, 32);
    return n < 31 ? (int)n : 31;
  }
  if (!p->tv)
    return snprintf(buf, 32, "%lld", (long long)c->value);
  if (c->hits == 0)
    return snprintf(buf, 32, "-");
  return snprintf(buf, 32, "T%lldV%lld", (long long)c->value, (long long)c->vid);
}

int64_t cl_tile_index(const cl_picture *p, int64_t m, int64_t n) {
  return p->transposed ? n + p->cols * m : m + p->rows * n;
}

int64_t cl_cell_index(const cl_picture *p, int64_t m, int64_t n) {
  return p->tv ? cl_tile_index(p, m, n) : cl_cell_at(p, m, n)->value;
}

/* The bank of the 4-byte word that holds the first byte of element `index`:
 * (index * element_bytes / 4) mod 32, computed modulo 128 bytes so that it
 * cannot overflow (the floor division by 4 commutes with reducing modulo
 * 128, a multiple of 4; negative indices wrap like the addresses below a
 * base pointer). */
static int64_t cell_bank(int64_t index, int64_t element_bytes) {
  int64_t byte = ((index % 128) * (element_bytes % 128)) % 128;
  if (byte < 0)
    byte += 128;
  return byte / 4;
}

cl_rgb cl_cell_colour(const cl_picture *p, int64_t m, int64_t n) {
  const cl_cell *c = cl_cell_at(p, m, n);
  if (p->tv && c->hits == 0 && p->colour != CL_COLOUR_BANK && p->colour != CL_COLOUR_INDEX) {
    cl_rgb none = {242, 242, 242, 0};
    return none;
  }
  switch (p->colour) {
  case CL_COLOUR_BANK: return cl_bank_colour(cell_bank(cl_cell_index(p, m, n), p->element_bytes));
  case CL_COLOUR_THREAD: return cl_thread_colour(c->value);
  case CL_COLOUR_VALUE: return cl_thread_colour(c->vid);
  default: return cl_index_colour(cl_cell_index(p, m, n), p->lo, p->hi);
  }
}

const char *cl_label_colour(const cl_picture *p, int64_t m, int64_t n) {
  if (cl_cell_colour(p, m, n).white_text)
    return "#ffffff";
  return p->tv && cl_cell_at(p, m, n)->hits == 0 ? "#777777" : NULL;
}

int cl_tv_line_width(const cl_picture *p) {
  int width = 1;
  for (int64_t k = 0; k < p->rows * p->cols; k++) {
    const cl_cell *c = &p->cells[k];
    char line[32];
    if (c->hits == 0)
      continue;
    int t = snprintf(line, sizeof line, "T%lld", (long long)c->value);
    int v = snprintf(line, sizeof line, "V%lld", (long long)c->vid);
    width = t > width ? t : width;
    width = v > width ? v : width;
  }
  return width;
}

static cl_status mapped(const cl_picture *p, int64_t i, int64_t *index) {
  const cl_node *shape = p->fn.shape;
  /* A rank-0 layout ():() is the empty sum, 0, at its one coordinate. */
  if (cl_is_tuple(shape) && shape->rank == 0)
    *index = 0;
  else if (p->fn.at == NULL)
    return cl_fail(CL_E_TYPE, "picture: a thread-value picture of a coordinate layout (its values are not indices "
                              "into a tile)");
  else
    CL_TRY(p->fn.at(p->fn.self, i, index));
  if (p->map != NULL) {
    int64_t raw = *index;
    cl_clear_error();
    cl_status s = p->map(p->map_ctx, raw, index);
    if (s != CL_OK) {
      if (s > 0)
        s = CL_E_DOMAIN;
      /* Keep the map's own message if it left one. */
      return cl_last_error()[0] ? s : cl_fail(s, "picture: the index map failed on %lld: %s", (long long)raw,
                                              cl_status_string(s));
    }
  }
  return CL_OK;
}

static cl_status check_cells(int64_t rows, int64_t cols, const char *what) {
  if (rows < 0 || cols < 0)
    return cl_fail(CL_E_DOMAIN, "picture: %s has a negative extent (%lld x %lld)", what, (long long)rows,
                   (long long)cols);
  /* Each axis too: the margins and rules of an empty grid still span it. */
  char name[64];
  snprintf(name, sizeof name, "picture: %s", what);
  return cl_check_picture(rows, cols, name);
}

/* A figure's panels share the limit on cells: this panel's grid, checked
 * (check_cells) before its cells are computed, is refused when the panels
 * before it leave no room for it. */
static cl_status check_figure_cells(const cl_picture *p) {
  int64_t cells = p->cells_before + p->rows * p->cols; /* each term at most 2^20 */
  if (cells > CL_PICTURE_MAX_CELLS)
    return cl_fail(CL_E_LIMIT, "picture: the panels have %lld cells in all, more than the %lld a picture shows",
                   (long long)cells, (long long)CL_PICTURE_MAX_CELLS);
  return CL_OK;
}

static cl_status alloc_cells(cl_picture *p) {
  p->cells = cl_alloc(sizeof *p->cells * (size_t)(p->rows * p->cols));
  if (p->cells == NULL)
    return cl_fail(CL_E_NOMEM, "picture: out of memory");
  memset(p->cells, 0, sizeof *p->cells * (size_t)(p->rows * p->cols));
  return CL_OK;
}

static void finish_labels(cl_picture *p) {
  p->label_width = 1;
  for (int64_t k = 0; k < p->rows * p->cols; k++) {
    int w = label_length(p, &p->cells[k]);
    if (w > p->label_width)
      p->label_width = w;
  }
}

/* The cells of a coordinate-valued map: each labelled with its value (an
 * integer, a scaled basis or an arithmetic tuple, as CuTe prints it) and
 * coloured by the value's colexicographic rank in the box of values drawn,
 * so that an identity layout looks like the compact layout of its shape. */
static cl_status coordinate_cells(cl_picture *p) {
  if (p->map != NULL)
    return cl_fail(CL_E_TYPE, "picture: an index map applies to indices, and the layout's values are coordinates");
  p->coordinates = true;
  for (int64_t n = 0; n < p->cols; n++)
    for (int64_t m = 0; m < p->rows; m++) {
      cl_cell *c = cl_cell_at(p, m, n);
      c->vid = p->labels.count;
      c->hits = 1;
      if (cl_is_tuple(p->fn.shape) && p->fn.shape->rank == 0)
        cl_b_int(&p->labels, 0); /* ():() is the empty sum */
      else
        p->fn.value(p->fn.self, m + p->rows * n, &p->labels);
      CL_TRY(p->labels.status);
    }
  /* The values as arithmetic tuples (a basis 3@1 is (0,3)), their leaves
   * in order, a missing leaf 0; each leaf position's range; the rank. */
  cl_builder arith;
  cl_b_init(&arith);
  int64_t ncells = p->rows * p->cols, width = 0;
  for (int64_t k = 0; k < ncells; k++) {
    p->cells[k].value = arith.count; /* for now: where the cell's arithmetic form starts */
    cl_b_as_arith(&arith, p->labels.nodes + p->cells[k].vid);
  }
  cl_status s = arith.status;
  for (int64_t k = 0; s == CL_OK && k < ncells; k++) {
    int64_t leaves = cl_tree_leaf_count(arith.nodes + p->cells[k].value);
    width = leaves > width ? leaves : width;
  }
  int64_t *range = NULL, *leaf = NULL; /* range: lo[0..width) then hi[0..width) */
  if (s == CL_OK && (range = cl_alloc(3 * (size_t)(width + 1) * sizeof *range)) == NULL)
    s = cl_fail(CL_E_NOMEM, "picture: out of memory");
  if (s == CL_OK) {
    memset(range, 0, 2 * (size_t)(width + 1) * sizeof *range);
    leaf = range + 2 * (width + 1);
  }
  for (int64_t pass = 0; s == CL_OK && pass < 2; pass++)
    for (int64_t k = 0; k < ncells; k++) {
      const cl_node *v = arith.nodes + p->cells[k].value, *end = v + v->span;
      int64_t j = 0;
      memset(leaf, 0, (size_t)(width + 1) * sizeof *leaf);
      for (const cl_node *x = v; x < end; x++)
        if (!cl_is_tuple(x))
          leaf[j++] = x->value;
      int64_t key = 0, scale = 1, extent, term;
      bool exact = true;
      for (j = 0; j < width; j++) {
        int64_t *lo = &range[j], *hi = &range[width + 1 + j];
        if (pass == 0) {
          *lo = leaf[j] < *lo ? leaf[j] : *lo;
          *hi = leaf[j] > *hi ? leaf[j] : *hi;
          continue;
        }
        exact = exact && !__builtin_sub_overflow(leaf[j], *lo, &term) && !__builtin_mul_overflow(term, scale, &term) &&
                !__builtin_add_overflow(key, term, &key) && !__builtin_sub_overflow(*hi, *lo, &extent) &&
                !__builtin_add_overflow(extent, 1, &extent) && !__builtin_mul_overflow(scale, extent, &scale);
      }
      if (pass == 1)
        p->cells[k].value = exact ? key : k; /* a box too large to rank: the cell's place */
    }
  cl_dealloc(range);
  cl_b_release(&arith);
  return s;
}

/* The grid picture of cl_render_layout. */
static cl_status build_layout_picture(cl_picture *p, const cl_panel_spec *panel) {
  const cl_node *shape = panel->fn.shape;
  int64_t rank = cl_rank_of(shape);
  p->fn = panel->fn;
  p->map = panel->map;
  p->map_ctx = panel->map_ctx;
  CL_TRY(set_title(p, panel->title));
  CL_TRY(split_modes(p, shape, &p->row_shape, &p->col_shape));
  CL_TRY(extent_of(p->row_shape, &p->rows));
  CL_TRY(extent_of(p->col_shape, &p->cols));
  CL_TRY(check_cells(p->rows, p->cols, "the layout"));
  CL_TRY(check_figure_cells(p));
  if (cl_is_tuple(shape) && rank == 0)
    add_note(p, "rank 0: one cell, L(0)");
  else if (rank == 1)
    add_note(p, "rank 1: one row, cell n shows L(n)");
  else if (rank > 2)
    add_note(p, "rank %lld: drawn as (mode 0, (modes 1..%lld))", (long long)rank, (long long)(rank - 1));
  CL_TRY(alloc_cells(p));
  /* Cell (m,n) is L(m + rows * n): the colexicographic linear coordinate
   * that splits into m for mode 0 and n for the rest. */
  if (p->fn.at == NULL)
    CL_TRY(coordinate_cells(p));
  for (int64_t n = 0; n < p->cols && !p->coordinates; n++)
    for (int64_t m = 0; m < p->rows; m++) {
      cl_cell *c = cl_cell_at(p, m, n);
      CL_TRY(mapped(p, m + p->rows * n, &c->value));
      c->hits = 1;
    }
  CL_TRY(axis_rules(p->row_shape, p->rows, &p->row_rule));
  CL_TRY(axis_rules(p->col_shape, p->cols, &p->col_rule));
  finish_labels(p);
  return CL_OK;
}

static cl_status check_tile(int64_t tile_rows, int64_t tile_cols) {
  if (tile_rows < 1 || tile_cols < 1)
    return cl_fail(CL_E_DOMAIN, "TV picture: the tile %lldx%lld is empty", (long long)tile_rows, (long long)tile_cols);
  return CL_OK;
}

/* The (thr,val) pairs a TV picture visits: each once, in order, so the
 * work is linear in their number, which may exceed the cells (several
 * threads reaching one element, as all 128 of a GMMA warpgroup reach each
 * element of its shared-memory A and B). */
static cl_status check_pairs(int64_t threads, int64_t values) {
  int64_t pairs;
  /* Each axis too: an empty one would still be walked along the other. */
  if (threads < 0 || values < 0 || threads > CL_PICTURE_MAX_PAIRS || values > CL_PICTURE_MAX_PAIRS ||
      __builtin_mul_overflow(threads, values, &pairs) || pairs > CL_PICTURE_MAX_PAIRS)
    return cl_fail(CL_E_LIMIT, "picture: the TV layout has %lld x %lld entries, more than the %lld a picture visits",
                   (long long)threads, (long long)values, (long long)CL_PICTURE_MAX_PAIRS);
  return CL_OK;
}

/* The tile picture of cl_render_tv. */
static cl_status build_tv_picture(cl_picture *p, const cl_panel_spec *panel) {
  int64_t tile_rows = panel->tile_rows, tile_cols = panel->tile_cols;
  const cl_node *shape = panel->fn.shape;
  int64_t rank = cl_rank_of(shape);
  p->tv = true;
  p->fn = panel->fn;
  p->map = panel->map;
  p->map_ctx = panel->map_ctx;
  CL_TRY(check_tile(tile_rows, tile_cols));
  p->rows = tile_rows;
  p->cols = tile_cols;
  CL_TRY(check_cells(p->rows, p->cols, "the tile"));
  CL_TRY(check_figure_cells(p));
  CL_TRY(set_title(p, panel->title));
  /* Threads are mode 0 and values the rest; a rank-1 layout is all threads. */
  const cl_node *thr_shape, *val_shape;
  int64_t threads, values;
  CL_TRY(split_modes(p, shape, &thr_shape, &val_shape));
  if (rank == 1) {
    thr_shape = val_shape;
    val_shape = NULL;
  }
  CL_TRY(extent_of(thr_shape, &threads));
  CL_TRY(extent_of(val_shape, &values));
  CL_TRY(check_pairs(threads, values));
  p->threads = threads;
  add_note(p, "TV layout: (thr,val) -> index in a %lldx%lld tile, column-major", (long long)tile_rows,
           (long long)tile_cols);
  if (rank == 1)
    add_note(p, "rank 1: one value per thread");
  else if (rank > 2)
    add_note(p, "rank %lld: values are (modes 1..%lld)", (long long)rank, (long long)(rank - 1));
  CL_TRY(alloc_cells(p));
  int64_t tile = tile_rows * tile_cols, shared = 0, covered = 0;
  for (int64_t t = 0; t < threads; t++)
    for (int64_t v = 0; v < values; v++) {
      int64_t idx;
      CL_TRY(mapped(p, t + threads * v, &idx));
      if (idx < 0 || idx >= tile)
        return cl_fail(CL_E_DOMAIN, "TV picture: T%lldV%lld maps to index %lld, outside the %lldx%lld tile",
                       (long long)t, (long long)v, (long long)idx, (long long)tile_rows, (long long)tile_cols);
      cl_cell *c = cl_cell_at(p, idx % tile_rows, idx / tile_rows);
      if (c->hits == 0) {
        c->value = t;
        c->vid = v;
        covered++;
      } else if (c->hits == 1) {
        shared++;
      }
      c->hits++;
    }
  if (covered < tile)
    add_note(p, "%lld of %lld cells reached by no (thr,val): shown as -", (long long)(tile - covered), (long long)tile);
  if (shared > 0)
    add_note(p, "%lld cells reached by several (thr,val): the first shown, corner marked", (long long)shared);
  CL_TRY(axis_rules(NULL, p->rows, &p->row_rule));
  CL_TRY(axis_rules(NULL, p->cols, &p->col_rule));
  finish_labels(p);
  return CL_OK;
}

/* ---- tooltips ---- */

/* The natural coordinate of linear coordinate i in shape (CuTe's idx2crd:
 * colexicographic, the last mode taking the rest). */
static void emit_natural(cl_sink *o, const cl_node *shape, int64_t i) {
  if (!cl_is_tuple(shape)) {
    cl_sink_printf(o, "%lld", (long long)i);
    return;
  }
  cl_sink_puts(o, "(");
  int64_t k = 0;
  CL_FOR_EACH_CHILD(c, shape) {
    int64_t size = 1;
    if (cl_tree_product(c, &size) != CL_OK || size < 1)
      size = 1;
    bool last = cl_next(c) >= shape + shape->span;
    if (k++)
      cl_sink_puts(o, ",");
    emit_natural(o, c, last ? i : i % size);
    i /= size;
  }
  cl_sink_puts(o, ")");
}

void cl_cell_describe(cl_sink *o, const cl_picture *p, int64_t m, int64_t n, bool xml) {
  const cl_cell *c = cl_cell_at(p, m, n);
  const char *to = xml ? " -&gt; " : " -> ";
  if (p->tv) {
    /* A transposed panel's cell (m,n) is the tile's (n,m). */
    int64_t row = p->transposed ? n : m, col = p->transposed ? m : n;
    cl_sink_printf(o, "(%lld,%lld) index %lld: ", (long long)row, (long long)col, (long long)cl_tile_index(p, m, n));
    if (c->hits == 0)
      cl_sink_puts(o, "no (thr,val)");
    else
      cl_sink_printf(o, "T%lldV%lld", (long long)c->value, (long long)c->vid);
    if (c->hits > 1)
      cl_sink_printf(o, " and %lld more", (long long)(c->hits - 1));
    if (p->colour == CL_COLOUR_BANK)
      cl_sink_printf(o, ", bank %lld", (long long)cell_bank(cl_tile_index(p, m, n), p->element_bytes));
    return;
  }
  bool hierarchical = (p->row_shape && cl_is_tuple(p->row_shape)) || (p->col_shape && cl_is_tuple(p->col_shape));
  if (p->row_shape == NULL) {
    cl_sink_printf(o, "(%lld)", (long long)n);
    if (hierarchical) {
      cl_sink_puts(o, " = ");
      emit_natural(o, p->col_shape, n);
    }
  } else {
    cl_sink_printf(o, "(%lld,%lld)", (long long)m, (long long)n);
    if (hierarchical) {
      cl_sink_puts(o, " = (");
      emit_natural(o, p->row_shape, m);
      cl_sink_puts(o, ",");
      emit_natural(o, p->col_shape, n);
      cl_sink_puts(o, ")");
    }
  }
  if (p->coordinates) {
    cl_sink_puts(o, to);
    cl_sink_tree(o, p->labels.nodes + c->vid);
    return;
  }
  cl_sink_printf(o, "%s%lld", to, (long long)c->value);
  if (p->colour == CL_COLOUR_BANK)
    cl_sink_printf(o, ", bank %lld", (long long)cell_bank(c->value, p->element_bytes));
}

void cl_picture_summary(cl_sink *o, const cl_picture *p) {
  static const char *const colour_words[] = {"", "its index", "the shared-memory bank of its index",
                                             "the thread that reaches it", "that pair's value number"};
  if (p->tv)
    cl_sink_printf(o, "a %lldx%lld tile, each cell labelled with the first (thread,value) that reaches it and "
                   "coloured by %s.", (long long)p->rows, (long long)p->cols,
                   p->colour == CL_COLOUR_INDEX ? "its tile index"
                   : p->colour == CL_COLOUR_BANK ? "the shared-memory bank of its tile index"
                                                 : colour_words[p->colour]);
  else
    cl_sink_printf(o, "a %lldx%lld grid, cell (m,n) labelled with the index L(m,n) and coloured by %s; heavier "
                   "lines where a hierarchical mode starts a new tile.", (long long)p->rows, (long long)p->cols,
                   colour_words[p->colour]);
}

/* ---- the console table ---- */

static void txt_rule(cl_sink *o, int64_t cols, int width) {
  cl_sink_puts(o, "    ");
  for (int64_t n = 0; n < cols; n++) {
    cl_sink_puts(o, "+");
    for (int k = 0; k < width + 2; k++)
      cl_sink_puts(o, "-");
  }
  cl_sink_puts(o, "+\n");
}

/* print_layout's table, with labels of any width and the notes after the
 * title line. */
static void write_txt(cl_sink *o, const cl_picture *p) {
  int w = p->label_width + (p->marked > 0); /* room for a mark's '*' */
  cl_sink_printf(o, "%s\n", p->title);
  for (int k = 0; k < p->nnotes; k++)
    cl_sink_printf(o, "%s\n", p->notes[k]);
  cl_sink_puts(o, "    ");
  for (int64_t n = 0; n < p->cols; n++)
    cl_sink_printf(o, "  %*lld ", w, (long long)n);
  cl_sink_puts(o, "\n");
  for (int64_t m = 0; m < p->rows; m++) {
    txt_rule(o, p->cols, w);
    cl_sink_printf(o, "%2lld  ", (long long)m);
    for (int64_t n = 0; n < p->cols; n++) {
      char label[33];
      const cl_cell *c = cl_cell_at(p, m, n);
      label[0] = '*';
      cl_cell_label(p, c, label + 1);
      cl_sink_printf(o, "| %*s ", w, c->marked ? label : label + 1);
    }
    cl_sink_puts(o, "|\n");
  }
  txt_rule(o, p->cols, w);
}

/* The tables one after the other, a blank line between them. */
static void write_figure_txt(cl_sink *o, const cl_figure *f) {
  if (f->caption != NULL)
    cl_sink_printf(o, "%s\n\n", f->caption);
  for (size_t k = 0; k < f->count; k++) {
    if (k > 0)
      cl_sink_puts(o, "\n");
    write_txt(o, &f->panels[k]);
  }
}

/* ---- figures: panels side by side ---- */

/* The colour scheme a panel is drawn in, and the note that says what its
 * colours mean (none for the default of its kind). */
static cl_status set_colours(cl_picture *p, const cl_picture_options *opt) {
  p->colour = opt->colour != CL_COLOUR_AUTO ? opt->colour : p->tv ? CL_COLOUR_THREAD : CL_COLOUR_INDEX;
  p->element_bytes = opt->element_bytes;
  if (!p->tv && (p->colour == CL_COLOUR_THREAD || p->colour == CL_COLOUR_VALUE))
    return cl_fail(CL_E_DOMAIN, "picture: colour by %s needs a thread-value picture (a tile)",
                   p->colour == CL_COLOUR_THREAD ? "thread" : "value");
  if (p->colour == CL_COLOUR_BANK)
    add_note(p, "colour: shared-memory bank, (%s x %lld bytes / 4) mod 32", p->tv ? "tile index" : "index",
             (long long)p->element_bytes);
  else if (p->colour == CL_COLOUR_VALUE)
    add_note(p, "colour: value number");
  else if (p->tv && p->colour == CL_COLOUR_INDEX)
    add_note(p, "colour: tile index");
  return CL_OK;
}

/* The outline of panel->highlight: cell (h % rows, h / rows) of the grid or
 * the tile, where the colexicographic coordinate h is drawn. */
static cl_status set_highlight(cl_picture *p, int64_t highlight) {
  p->hl_row = p->hl_col = -1;
  if (highlight == -1)
    return CL_OK;
  if (highlight < 0 || p->rows == 0 || highlight / p->rows >= p->cols)
    return cl_fail(CL_E_DOMAIN, "picture: the highlighted coordinate %lld is outside the %lldx%lld %s",
                   (long long)highlight, (long long)p->rows, (long long)p->cols, p->tv ? "tile" : "grid");
  p->hl_row = highlight % p->rows;
  p->hl_col = highlight / p->rows;
  char line[sizeof p->notes[0]];
  cl_sink o = cl_sink_buffer(line, sizeof line);
  cl_cell_describe(&o, p, p->hl_row, p->hl_col, false);
  add_note(p, "outlined: %s", line);
  return CL_OK;
}

/* The options' marks, on the first panel: each cell where its coordinate
 * is drawn, as set_highlight places the outline. */
static cl_status set_marks(cl_picture *p, const cl_picture_options *opt) {
  p->marked = 0;
  for (int64_t k = 0; k < opt->mark_count; k++) {
    int64_t c = opt->marks[k];
    if (c < 0 || p->rows == 0 || c / p->rows >= p->cols)
      return cl_fail(CL_E_DOMAIN, "picture: mark %lld, coordinate %lld, is outside the %lldx%lld %s", (long long)k,
                     (long long)c, (long long)p->rows, (long long)p->cols, p->tv ? "tile" : "grid");
    cl_cell *cell = cl_cell_at(p, c % p->rows, c / p->rows);
    p->marked += !cell->marked;
    cell->marked = true;
  }
  if (p->marked > 0)
    add_note(p, "marked%s: %lld cell%s", opt->format == CL_PICTURE_TXT ? " (*)" : "", (long long)p->marked,
             p->marked == 1 ? "" : "s");
  return CL_OK;
}

static cl_status build_panel(cl_picture *p, const cl_panel_spec *panel, const cl_picture_options *opt, bool first) {
  if (panel->tile_rows != 0 || panel->tile_cols != 0)
    CL_TRY(build_tv_picture(p, panel));
  else
    CL_TRY(build_layout_picture(p, panel));
  CL_TRY(set_colours(p, opt));
  CL_TRY(set_highlight(p, panel->highlight));
  return first ? set_marks(p, opt) : CL_OK;
}

/* The index ramp spans every panel's cell indices. */
static void set_index_range(cl_figure *f) {
  bool any = false;
  int64_t lo = 0, hi = 0;
  for (size_t k = 0; k < f->count; k++) {
    const cl_picture *p = &f->panels[k];
    for (int64_t m = 0; m < p->rows; m++)
      for (int64_t n = 0; n < p->cols; n++) {
        int64_t index = cl_cell_index(p, m, n);
        lo = !any || index < lo ? index : lo;
        hi = !any || index > hi ? index : hi;
        any = true;
      }
  }
  for (size_t k = 0; k < f->count; k++) {
    f->panels[k].lo = lo;
    f->panels[k].hi = hi;
  }
}

/* Draws a TV panel's tile transposed, its row m column m of the picture,
 * as print_latex draws an MMA's B (N x K) above C: K rows of N cells. */
static cl_status transpose_panel(cl_picture *p) {
  int64_t rows = p->rows, cols = p->cols;
  cl_cell *cells = cl_alloc(sizeof *cells * (size_t)(rows * cols));
  if (cells == NULL)
    return cl_fail(CL_E_NOMEM, "picture: out of memory");
  for (int64_t m = 0; m < rows; m++)
    for (int64_t n = 0; n < cols; n++)
      cells[m + rows * n] = p->cells[m * cols + n];
  cl_dealloc(p->cells);
  p->cells = cells;
  p->rows = cols;
  p->cols = rows;
  uint8_t *rule = p->row_rule;
  p->row_rule = p->col_rule;
  p->col_rule = rule;
  int64_t hl = p->hl_row;
  p->hl_row = p->hl_col;
  p->hl_col = hl;
  p->transposed = true;
  add_note(p, "drawn transposed: row k, column n");
  return CL_OK;
}

/* CL_PANELS_MMA: A (M x K), B (N x K), C (M x N) as TV panels, B then
 * turned to K x N so that its columns stand above C's. */
static cl_status arrange_mma(cl_figure *f, const cl_panel_spec *panels, size_t count) {
  if (count != 3)
    return cl_fail(CL_E_DOMAIN, "picture: an MMA figure has three panels (A, B, C), not %zu", count);
  for (size_t k = 0; k < 3; k++)
    if (panels[k].tile_rows == 0)
      return cl_fail(CL_E_DOMAIN, "picture: an MMA figure's panel %zu is not a TV tile", k + 1);
  const cl_panel_spec *a = &panels[0], *b = &panels[1], *c = &panels[2];
  if (a->tile_rows != c->tile_rows || b->tile_rows != c->tile_cols || a->tile_cols != b->tile_cols)
    return cl_fail(CL_E_DOMAIN,
                   "picture: an MMA figure's tiles are M x K, N x K and M x N, not %lldx%lld, %lldx%lld and %lldx%lld",
                   (long long)a->tile_rows, (long long)a->tile_cols, (long long)b->tile_rows, (long long)b->tile_cols,
                   (long long)c->tile_rows, (long long)c->tile_cols);
  return transpose_panel(&f->panels[1]);
}

static void figure_release(cl_figure *f) {
  for (size_t k = 0; k < f->count; k++)
    picture_release(&f->panels[k]);
  cl_dealloc(f->panels);
}

/* Every panel of the figure, computed and checked before any output. */
static cl_status build_figure(cl_figure *f, const cl_panel_spec *panels, size_t count,
                              const cl_picture_options *opt) {
  f->panels = cl_alloc(sizeof *f->panels * count);
  if (f->panels == NULL)
    return cl_fail(CL_E_NOMEM, "picture: out of memory");
  memset(f->panels, 0, sizeof *f->panels * count);
  int64_t cells = 0;
  for (size_t k = 0; k < count; k++) {
    cl_picture *p = &f->panels[f->count++];
    cl_b_init(&p->rest);
    cl_b_init(&p->labels);
    p->cells_before = cells;
    CL_TRY(build_panel(p, &panels[k], opt, k == 0));
    cells += p->rows * p->cols;
  }
  f->arrangement = opt->arrangement;
  if (f->arrangement == CL_PANELS_MMA)
    CL_TRY(arrange_mma(f, panels, count));
  set_index_range(f);
  return CL_OK;
}

/* ---- entry points ---- */

/* print_layout's table, to the byte, is the txt picture of a plain rank-2
 * function: one grid panel without title, map or outline. */
static bool is_print_layout(const cl_panel_spec *panels, size_t count, const cl_picture_options *opt, bool caption) {
  if (opt->format != CL_PICTURE_TXT || count != 1 || (caption && opt->title != NULL) || opt->mark_count > 0)
    return false;
  const cl_panel_spec *p = &panels[0];
  if (p->map != NULL || p->title != NULL || p->highlight != -1 || p->tile_rows != 0 || p->tile_cols != 0)
    return false;
  /* A coordinate-valued map has no print_layout (CuTe's table holds
   * integers): its txt picture is the grid of coordinates. */
  return cl_is_tuple(p->fn.shape) && p->fn.shape->rank == 2 && p->fn.at != NULL;
}

int64_t cl_render_figure(const cl_panel_spec *panels, size_t count, const cl_picture_options *options, bool caption,
                         cl_sink *o) {
  cl_picture_options opt;
  CL_TRY(read_options(options, &opt));
  if (is_print_layout(panels, count, &opt, caption)) {
    /* The checks of every picture: a thread colour is wrong here too. */
    if (opt.colour == CL_COLOUR_THREAD || opt.colour == CL_COLOUR_VALUE)
      return cl_fail(CL_E_DOMAIN, "picture: colour by %s needs a thread-value picture (a tile)",
                     opt.colour == CL_COLOUR_THREAD ? "thread" : "value");
    return cl_print_layout_map(&panels[0].fn, o);
  }
  cl_figure f = {NULL, 0, caption ? opt.title : NULL, CL_PANELS_ROW};
  cl_status s = build_figure(&f, panels, count, &opt);
  int64_t n = s;
  if (s == CL_OK) {
    switch (opt.format) {
    case CL_PICTURE_SVG: s = cl_figure_write_svg(o, &f); break;
    case CL_PICTURE_TEX: cl_figure_write_tex(o, &f); break;
    case CL_PICTURE_TXT: write_figure_txt(o, &f); break;
    }
    n = s == CL_OK ? cl_sink_finish(o, "picture") : s;
  }
  figure_release(&f);
  return n;
}

/* One panel with the title and map of the options. */
static int64_t render_one(const cl_fnmap *fn, int64_t tile_rows, int64_t tile_cols, const cl_picture_options *options,
                          cl_sink *o) {
  cl_picture_options opt;
  CL_TRY(read_options(options, &opt));
  cl_panel_spec panel = {*fn, opt.title, opt.map, opt.map_ctx, tile_rows, tile_cols, -1};
  return cl_render_figure(&panel, 1, options, false, o);
}

int64_t cl_render_map(const cl_fnmap *fn, const cl_picture_options *options, cl_sink *o) {
  return render_one(fn, 0, 0, options, o);
}

int64_t cl_render_map_tv(const cl_fnmap *fn, int64_t tile_rows, int64_t tile_cols, const cl_picture_options *options,
                         cl_sink *o) {
  /* 0 x 0 would be a grid to the figure; as a tile it is empty. */
  CL_TRY(check_tile(tile_rows, tile_cols));
  return render_one(fn, tile_rows, tile_cols, options, o);
}
static int64_t render_layout(const cl_layout_t *layout, const cl_picture_options *options, cl_sink *o) {
  if (layout == NULL) {
    cl_picture_options opt;
    CL_TRY(read_options(options, &opt));
    return cl_fail(CL_E_NULL, "render: the layout is NULL");
  }
  cl_fnmap fn = cl_fnmap_of_layout(layout);
  return cl_render_map(&fn, options, o);
}

static int64_t render_tv(const cl_layout_t *layout, int64_t rows, int64_t cols, const cl_picture_options *options,
                         cl_sink *o) {
  if (layout == NULL) {
    cl_picture_options opt;
    CL_TRY(read_options(options, &opt));
    return cl_fail(CL_E_NULL, "render: the layout is NULL");
  }
  cl_fnmap fn = cl_fnmap_of_layout(layout);
  return cl_render_map_tv(&fn, rows, cols, options, o);
}

int64_t cl_render_layout(const cl_layout_t *layout, const cl_picture_options *options, char *buf, size_t cap) {
  if (buf == NULL && cap > 0)
    return cl_fail(CL_E_NULL, "render: buf is NULL");
  cl_sink o = cl_sink_buffer(buf, cap);
  return render_layout(layout, options, &o);
}

int64_t cl_render_layout_file(const cl_layout_t *layout, const cl_picture_options *options, FILE *f) {
  if (f == NULL)
    return cl_fail(CL_E_NULL, "render: the stream is NULL");
  cl_sink o = cl_sink_stream(f);
  return render_layout(layout, options, &o);
}

int64_t cl_render_tv(const cl_layout_t *layout_tv, int64_t tile_rows, int64_t tile_cols,
                     const cl_picture_options *options, char *buf, size_t cap) {
  if (buf == NULL && cap > 0)
    return cl_fail(CL_E_NULL, "render: buf is NULL");
  cl_sink o = cl_sink_buffer(buf, cap);
  return render_tv(layout_tv, tile_rows, tile_cols, options, &o);
}

int64_t cl_render_tv_file(const cl_layout_t *layout_tv, int64_t tile_rows, int64_t tile_cols,
                          const cl_picture_options *options, FILE *f) {
  if (f == NULL)
    return cl_fail(CL_E_NULL, "render: the stream is NULL");
  cl_sink o = cl_sink_stream(f);
  return render_tv(layout_tv, tile_rows, tile_cols, options, &o);
}
