/* SPDX-License-Identifier: BSD-3-Clause */
/* render_svg.c: a cl_figure as a standalone SVG document.
 *
 * What the document holds, in drawing order:
 *   <title> and <desc>  the figure's title (the layout's text) and notes;
 *   a white background;
 *   the caption of a figure of several panels, a <text class="caption">;
 *   per panel, a <g class="panel"> holding
 *     one <rect> per cell, filled with its colour, with a <title> tooltip
 *       giving the cell's natural coordinate and contents;
 *     the grid: thin lines between all cells, heavier lines where an outer
 *       coordinate of a hierarchical mode changes, a frame;
 *     the outline of the highlighted cell;
 *     exactly one <text class="cell"> per cell, its label (CONTRACT.md);
 *     the title (<text class="title">), the row and column coordinates
 *       (<text class="axis">) and the notes (<text class="note">), real
 *       text that a reader can select and search.
 * A figure of more than COMPACT_CELLS cells is drawn compactly, so that a
 * 128x256x16 tiled MMA (38912 cells) stays under 2 MiB: no tooltips; the
 * fills one path per colour, each run of cells of one row one stroke of
 * the cell's height (a <style> names each colour's class after the colour
 * itself, so two pictures on one page never disagree); the labels of a row
 * in one group that carries their y; corner marks as relative moves.
 * A tiled MMA (CL_PANELS_MMA) is laid out as CuTe's print_latex lays it
 * out: B above C, A at C's left, every cell of one size so that C's rows
 * continue A's and its columns B's.
 * All geometry is integer pixels; text widths are estimated for a
 * monospace font (every character advances 0.602 em in DejaVu Sans Mono
 * and its kin), so that nothing depends on the fonts of the machine that
 * draws. */
#include <string.h>

#include "render_impl.h"

enum {
  PAD = 16,
  PANEL_GAP = 28,   /* between two panels */
  CAPTION_FONT = 16, /* a figure's caption, above its panels' titles */
  TITLE_FONT = 14,
  TITLE_GAP = 12,   /* from the title's baseline to the top of the column labels */
  AXIS_FONT = 10,   /* the coordinates on the margins */
  AXIS_GAP = 6,     /* from a margin label to the grid */
  NOTE_FONT = 11,
  NOTE_LINE = 16,
  CELL_FONT = 12,   /* font size of an index label */
  TV_FONT = 11,     /* font size of a T{thr}V{val} label */
  COMPACT_CELLS = 16384
};

static const char font_family[] = "DejaVu Sans Mono, Menlo, Consolas, monospace";

/* The width of n characters of a monospace font of size px, rounded up, in
 * pixels. */
static int64_t mono_width(int64_t n, int64_t px) { return (n * px * 602 + 999) / 1000; }
static int64_t text_width(const char *s, int64_t px) { return mono_width((int64_t)strlen(s), px); }

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* Where one panel goes, relative to the document. */
typedef struct geometry {
  int64_t x0;               /* left edge of the panel */
  int64_t cw, ch;           /* cell size */
  int64_t gx, gy;           /* top left corner of the grid */
  int64_t width, height;    /* of the panel, from x0 and from the document's top */
  int64_t title_baseline;
  int64_t notes_baseline;   /* of the first note */
} geometry;

static int64_t digits_of(int64_t v) {
  char s[32];
  return snprintf(s, sizeof s, "%lld", (long long)v);
}

static int64_t cell_width(const cl_picture *p) {
  return p->tv ? max64(40, mono_width(p->label_width, TV_FONT) + 10)
               : max64(30, mono_width(p->label_width, CELL_FONT) + 12);
}

/* Panel p's place with its top left corner at (x0, top) and cells cw wide. */
static geometry measure(const cl_picture *p, int64_t x0, int64_t top, int64_t cw) {
  geometry g;
  g.x0 = x0;
  g.cw = cw;
  g.ch = 30;
  int64_t row_labels = mono_width(digits_of(p->rows > 0 ? p->rows - 1 : 0), AXIS_FONT);
  g.title_baseline = top + TITLE_FONT;
  g.gx = x0 + row_labels + AXIS_GAP;
  g.gy = g.title_baseline + TITLE_GAP + AXIS_FONT + AXIS_GAP;
  int64_t right = max64(g.gx + p->cols * g.cw, x0 + text_width(p->title, TITLE_FONT));
  g.notes_baseline = g.gy + p->rows * g.ch + 8 + NOTE_FONT;
  int64_t bottom = g.gy + p->rows * g.ch;
  for (int k = 0; k < p->nnotes; k++) {
    right = max64(right, g.gx + text_width(p->notes[k], NOTE_FONT));
    bottom = g.notes_baseline + k * NOTE_LINE + 4;
  }
  g.width = right - x0;
  g.height = bottom;
  return g;
}

static void fill_colour(cl_sink *o, cl_rgb c) { cl_sink_printf(o, "#%02x%02x%02x", c.r, c.g, c.b); }

static void write_cells(cl_sink *o, const cl_picture *p, const geometry *g) {
  cl_sink_puts(o, "<g stroke=\"none\">\n");
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      cl_sink_printf(o, "<rect x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%lld\" fill=\"", (long long)(g->gx + n * g->cw),
                     (long long)(g->gy + m * g->ch), (long long)g->cw, (long long)g->ch);
      fill_colour(o, cl_cell_colour(p, m, n));
      cl_sink_puts(o, "\"><title>");
      cl_cell_describe(o, p, m, n, true);
      cl_sink_puts(o, "</title></rect>\n");
    }
  cl_sink_puts(o, "</g>\n");
}

/* ---- compact figures ---- */

/* The colours of a picture's cells as small numbers: an open-addressing
 * table from the 24-bit colour to its number, and each cell's number. */
typedef struct palette {
  uint32_t *key;   /* colour + 1, 0: empty slot */
  int32_t *number; /* of the slot's colour */
  int64_t slots;   /* a power of two, at least twice the cells */
  int32_t count;
  uint32_t *colour_of; /* number -> colour */
  int32_t *cell;       /* cell (row-major) -> number */
  /* The cells of colour c, in row-major order: order[start[c] ..
   * start[c + 1]) (a counting sort). */
  int64_t *start, *order;
} palette;

static uint32_t rgb24(cl_rgb c) { return (uint32_t)c.r << 16 | (uint32_t)c.g << 8 | c.b; }

static void palette_release(palette *t) {
  cl_dealloc(t->key);
  cl_dealloc(t->number);
  cl_dealloc(t->colour_of);
  cl_dealloc(t->cell);
  cl_dealloc(t->start);
  cl_dealloc(t->order);
}

/* Fills t for picture p; false when out of memory. */
static bool palette_of(const cl_picture *p, palette *t) {
  int64_t cells = p->rows * p->cols;
  *t = (palette){0};
  t->slots = 16;
  while (t->slots < 2 * cells)
    t->slots *= 2;
  t->key = cl_alloc(sizeof *t->key * (size_t)t->slots);
  t->number = cl_alloc(sizeof *t->number * (size_t)t->slots);
  t->colour_of = cl_alloc(sizeof *t->colour_of * (size_t)(cells + 1));
  t->cell = cl_alloc(sizeof *t->cell * (size_t)(cells + 1));
  if (t->key == NULL || t->number == NULL || t->colour_of == NULL || t->cell == NULL) {
    palette_release(t);
    return false;
  }
  memset(t->key, 0, sizeof *t->key * (size_t)t->slots);
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      uint32_t c = rgb24(cl_cell_colour(p, m, n));
      int64_t slot = (int64_t)((c * 2654435761u) & (uint32_t)(t->slots - 1));
      while (t->key[slot] != 0 && t->key[slot] != c + 1)
        slot = (slot + 1) & (t->slots - 1);
      if (t->key[slot] == 0) {
        t->key[slot] = c + 1;
        t->number[slot] = t->count;
        t->colour_of[t->count++] = c;
      }
      t->cell[m * p->cols + n] = t->number[slot];
    }
  t->start = cl_alloc(sizeof *t->start * (size_t)(t->count + 1));
  t->order = cl_alloc(sizeof *t->order * (size_t)(cells + 1));
  if (t->start == NULL || t->order == NULL) {
    palette_release(t);
    return false;
  }
  memset(t->start, 0, sizeof *t->start * (size_t)(t->count + 1));
  for (int64_t k = 0; k < cells; k++)
    t->start[t->cell[k] + 1]++;
  for (int32_t c = 0; c < t->count; c++)
    t->start[c + 1] += t->start[c];
  for (int64_t k = 0; k < cells; k++)
    t->order[t->start[t->cell[k]]++] = k;
  /* start[c] is now where colour c's cells end: shift back. */
  for (int32_t c = t->count; c > 0; c--)
    t->start[c] = t->start[c - 1];
  t->start[0] = 0;
  return true;
}

/* The CSS class of a colour: its hex digits, so that a class means one
 * colour in every picture. */
static void colour_class(cl_sink *o, uint32_t c) { cl_sink_printf(o, "c%06x", (unsigned)c); }

/* The fills of a compact panel: per colour one path of horizontal strokes
 * as high as a cell, in a group where one unit is one cell. */
static void write_cells_compact(cl_sink *o, const cl_picture *p, const geometry *g, const palette *t) {
  const int64_t *start = t->start + 1, *order = t->order;
  cl_sink_printf(o,
                 "<g fill=\"none\" stroke-width=\"1\" transform=\"translate(%lld %lld) scale(%lld %lld)\">\n",
                 (long long)g->gx, (long long)g->gy, (long long)g->cw, (long long)g->ch);
  int64_t k = 0;
  for (int32_t c = 0; c < t->count; c++) {
    cl_sink_puts(o, "<path class=\"");
    colour_class(o, t->colour_of[c]);
    cl_sink_puts(o, "\" d=\"");
    /* The pen starts at (0,0.5), the middle of row 0's left edge. */
    int64_t x = 0, y = 0;
    bool first = true;
    while (k < start[c]) {
      int64_t m = order[k] / p->cols, n = order[k] % p->cols, run = 1;
      while (k + run < start[c] && order[k + run] == order[k] + run && (order[k] + run) % p->cols != 0)
        run++;
      if (first)
        cl_sink_printf(o, "M%lld %lld.5h%lld", (long long)n, (long long)m, (long long)run);
      else
        cl_sink_printf(o, "m%lld %lldh%lld", (long long)(n - x), (long long)(m - y), (long long)run);
      first = false;
      x = n + run;
      y = m;
      k += run;
    }
    cl_sink_puts(o, "\"/>\n");
  }
  cl_sink_puts(o, "</g>\n");
}

static int64_t rule_width(uint8_t weight) {
  /* hundredths of a pixel: thin, tile levels 1..3, the frame */
  return weight == 255 ? 220 : weight == 0 ? 60 : 80 + 100 * weight;
}

/* Lines along one axis whose weight is `weight`: horizontal ones (between
 * rows) or vertical ones (between columns). */
static void rule_segments(cl_sink *o, const cl_picture *p, const geometry *g, bool horizontal, uint8_t weight) {
  int64_t count = horizontal ? p->rows : p->cols;
  const uint8_t *rule = horizontal ? p->row_rule : p->col_rule;
  for (int64_t k = 1; k < count; k++) {
    if (rule[k] != weight && !(weight == 0 && rule[k] != 255))
      continue;
    if (horizontal)
      cl_sink_printf(o, "M%lld %lldH%lld", (long long)g->gx, (long long)(g->gy + k * g->ch),
                     (long long)(g->gx + p->cols * g->cw));
    else
      cl_sink_printf(o, "M%lld %lldV%lld", (long long)(g->gx + k * g->cw), (long long)g->gy,
                     (long long)(g->gy + p->rows * g->ch));
  }
}

static bool has_weight(const cl_picture *p, uint8_t weight) {
  for (int64_t k = 1; k < p->rows; k++)
    if (p->row_rule[k] == weight)
      return true;
  for (int64_t k = 1; k < p->cols; k++)
    if (p->col_rule[k] == weight)
      return true;
  return false;
}

static void write_grid(cl_sink *o, const cl_picture *p, const geometry *g) {
  cl_sink_puts(o, "<g fill=\"none\" stroke=\"#1a1a1a\" stroke-linecap=\"square\">\n");
  /* Every inner line thin first, then each tile level over it. */
  for (int weight = 0; weight <= 3; weight++) {
    if (weight > 0 && !has_weight(p, (uint8_t)weight))
      continue;
    if (weight == 0 && p->rows < 2 && p->cols < 2)
      continue;
    cl_sink_puts(o, "<path stroke-width=\"");
    cl_sink_hundredths(o, rule_width((uint8_t)weight));
    cl_sink_puts(o, weight == 0 ? "\" stroke-opacity=\"0.55\" d=\"" : "\" d=\"");
    rule_segments(o, p, g, true, (uint8_t)weight);
    rule_segments(o, p, g, false, (uint8_t)weight);
    cl_sink_puts(o, "\"/>\n");
  }
  cl_sink_puts(o, "<rect stroke-width=\"");
  cl_sink_hundredths(o, rule_width(255));
  cl_sink_printf(o, "\" x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%lld\"/>\n", (long long)g->gx,
                 (long long)g->gy, (long long)(p->cols * g->cw), (long long)(p->rows * g->ch));
  cl_sink_puts(o, "</g>\n");
}

/* The corner mark of a TV cell that several (thr,val) reach; each after
 * the first a move relative to the one before (where a closed subpath
 * leaves the pen). */
static void write_shared_marks(cl_sink *o, const cl_picture *p, const geometry *g) {
  bool any = false;
  int64_t x = 0, y = 0;
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      if (cl_cell_at(p, m, n)->hits < 2)
        continue;
      int64_t right = g->gx + (n + 1) * g->cw, top = g->gy + m * g->ch;
      if (!any)
        cl_sink_printf(o, "<path fill=\"#1a1a1a\" d=\"M%lld %lldh8v8z", (long long)(right - 9), (long long)(top + 1));
      else
        cl_sink_printf(o, "m%lld %lldh8v8z", (long long)(right - 9 - x), (long long)(top + 1 - y));
      any = true;
      x = right - 9;
      y = top + 1;
    }
  if (any)
    cl_sink_puts(o, "\"/>\n");
}

/* The highlighted cell: a dark ring with a white one inside, visible on
 * every fill. */
static void write_highlight(cl_sink *o, const cl_picture *p, const geometry *g) {
  if (p->hl_row < 0)
    return;
  int64_t x = g->gx + p->hl_col * g->cw, y = g->gy + p->hl_row * g->ch;
  cl_sink_printf(o,
                 "<g class=\"highlight\" fill=\"none\">"
                 "<rect x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%lld\" stroke=\"#d1005d\" stroke-width=\"4\"/>"
                 "<rect x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%lld\" stroke=\"#ffffff\" stroke-width=\"1.5\"/>"
                 "</g>\n",
                 (long long)(x - 1), (long long)(y - 1), (long long)(g->cw + 2), (long long)(g->ch + 2),
                 (long long)(x + 2), (long long)(y + 2), (long long)(g->cw - 4), (long long)(g->ch - 4));
}

/* The marked cells: a dashed dark ring each, inside the cell so that
 * neighbours stay apart. */
static void write_marks(cl_sink *o, const cl_picture *p, const geometry *g) {
  if (p->marked == 0)
    return;
  cl_sink_puts(o, "<g class=\"marks\" fill=\"none\" stroke=\"#1a1a1a\" stroke-width=\"3\" stroke-dasharray=\"6 3\">");
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++)
      if (cl_cell_at(p, m, n)->marked)
        cl_sink_printf(o, "<rect x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%lld\"/>",
                       (long long)(g->gx + n * g->cw + 3), (long long)(g->gy + m * g->ch + 3),
                       (long long)(g->cw - 6), (long long)(g->ch - 6));
  cl_sink_puts(o, "</g>\n");
}

/* A compact panel's labels: a row's in one group placed at its baseline,
 * each label only its x. */
static void write_labels_compact(cl_sink *o, const cl_picture *p, const geometry *g) {
  for (int64_t m = 0; m < p->rows; m++) {
    cl_sink_printf(o, "<g transform=\"translate(0 %lld)\">", (long long)(g->gy + m * g->ch + g->ch / 2 + 4));
    for (int64_t n = 0; n < p->cols; n++) {
      const char *fill = cl_label_colour(p, m, n);
      char label[32];
      cl_cell_label(p, cl_cell_at(p, m, n), label);
      cl_sink_printf(o, "<text class=\"cell\" x=\"%lld\"%s%s%s>%s</text>", (long long)(g->gx + n * g->cw + g->cw / 2),
                     fill ? " fill=\"" : "", fill ? fill : "", fill ? "\"" : "", label);
    }
    cl_sink_puts(o, "</g>\n");
  }
}

static void write_labels(cl_sink *o, const cl_picture *p, const geometry *g, bool compact) {
  cl_sink_printf(o, "<g font-family=\"%s\" font-size=\"%d\" text-anchor=\"middle\" fill=\"#000000\">\n", font_family,
                 p->tv ? TV_FONT : CELL_FONT);
  if (compact) {
    write_labels_compact(o, p, g);
    cl_sink_puts(o, "</g>\n");
    return;
  }
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      int64_t cx = g->gx + n * g->cw + g->cw / 2, top = g->gy + m * g->ch;
      const char *fill = cl_label_colour(p, m, n);
      /* The label is the element's only character data (no <tspan>), so
       * that any XML reader gets "T3V1" or "12" from the element itself. */
      char label[32];
      cl_cell_label(p, cl_cell_at(p, m, n), label);
      cl_sink_printf(o, "<text class=\"cell\" x=\"%lld\" y=\"%lld\"%s%s%s>%s</text>\n", (long long)cx,
                     (long long)(top + g->ch / 2 + 4), fill ? " fill=\"" : "", fill ? fill : "", fill ? "\"" : "",
                     label);
    }
  cl_sink_puts(o, "</g>\n");
}

static void write_text(cl_sink *o, const char *cls, int64_t x, int64_t y, const char *s) {
  cl_sink_printf(o, "<text class=\"%s\" x=\"%lld\" y=\"%lld\">", cls, (long long)x, (long long)y);
  cl_sink_xml(o, s);
  cl_sink_puts(o, "</text>\n");
}

/* The title, the coordinates on the margins and the notes. */
static void write_lettering(cl_sink *o, const cl_picture *p, const geometry *g) {
  cl_sink_printf(o, "<g font-family=\"%s\" font-size=\"%d\" font-weight=\"bold\" fill=\"#111111\">\n", font_family,
                 TITLE_FONT);
  write_text(o, "title", g->x0, g->title_baseline, p->title);
  cl_sink_puts(o, "</g>\n");
  /* Row coordinates, right-aligned; column coordinates, centred. */
  cl_sink_printf(o, "<g font-family=\"%s\" font-size=\"%d\" fill=\"#555555\" text-anchor=\"end\">\n", font_family,
                 AXIS_FONT);
  for (int64_t m = 0; m < p->rows; m++) {
    char label[32];
    snprintf(label, sizeof label, "%lld", (long long)m);
    write_text(o, "axis", g->gx - AXIS_GAP, g->gy + m * g->ch + g->ch / 2 + AXIS_FONT * 35 / 100, label);
  }
  cl_sink_puts(o, "</g>\n");
  cl_sink_printf(o, "<g font-family=\"%s\" font-size=\"%d\" fill=\"#555555\" text-anchor=\"middle\">\n", font_family,
                 AXIS_FONT);
  for (int64_t n = 0; n < p->cols; n++) {
    char label[32];
    snprintf(label, sizeof label, "%lld", (long long)n);
    write_text(o, "axis", g->gx + n * g->cw + g->cw / 2, g->gy - AXIS_GAP, label);
  }
  cl_sink_puts(o, "</g>\n");
  if (p->nnotes > 0) {
    cl_sink_printf(o, "<g font-family=\"%s\" font-size=\"%d\" fill=\"#333333\">\n", font_family, NOTE_FONT);
    for (int k = 0; k < p->nnotes; k++)
      write_text(o, "note", g->gx, g->notes_baseline + k * NOTE_LINE, p->notes[k]);
    cl_sink_puts(o, "</g>\n");
  }
}

static void write_panel(cl_sink *o, const cl_picture *p, const geometry *g, const palette *compact) {
  /* The panel's extent, for scripts that pick a cell by its place: cells
   * are in row-major order, rows x cols of them. */
  cl_sink_printf(o, "<g class=\"panel\" data-rows=\"%lld\" data-cols=\"%lld\">\n", (long long)p->rows,
                 (long long)p->cols);
  if (compact != NULL)
    write_cells_compact(o, p, g, compact);
  else
    write_cells(o, p, g);
  write_grid(o, p, g);
  write_shared_marks(o, p, g);
  write_highlight(o, p, g);
  write_marks(o, p, g);
  write_labels(o, p, g, compact != NULL);
  write_lettering(o, p, g);
  cl_sink_puts(o, "</g>\n");
}

/* <title>: the caption, or the panels' titles. */
static void write_document_title(cl_sink *o, const cl_figure *f) {
  cl_sink_puts(o, "<title>");
  if (f->caption != NULL)
    cl_sink_xml(o, f->caption);
  for (size_t k = 0; f->caption == NULL && k < f->count; k++) {
    if (k > 0)
      cl_sink_puts(o, " | ");
    cl_sink_xml(o, f->panels[k].title);
  }
  cl_sink_puts(o, "</title>\n");
}

static void write_desc(cl_sink *o, const cl_figure *f) {
  cl_sink_puts(o, "<desc>cute-layout picture: ");
  for (size_t k = 0; k < f->count; k++) {
    const cl_picture *p = &f->panels[k];
    if (f->count > 1) {
      cl_sink_printf(o, "%sPanel %zu, ", k ? " " : "", k + 1);
      cl_sink_xml(o, p->title);
      cl_sink_puts(o, ": ");
    }
    cl_picture_summary(o, p);
    for (int j = 0; j < p->nnotes; j++) {
      cl_sink_puts(o, " Note: ");
      cl_sink_xml(o, p->notes[j]);
      cl_sink_puts(o, ".");
    }
  }
  cl_sink_puts(o, "</desc>\n");
}

/* Where each panel goes (g[k] for panel k), under the caption's band. */
static void place_panels(const cl_figure *f, geometry *g) {
  int64_t top = PAD + (f->caption != NULL ? CAPTION_FONT + 16 : 0);
  if (f->arrangement == CL_PANELS_MMA) {
    /* A (0) and C (2) in the lower row, B (1) above C: one cell width for
     * all three, so that C's columns are B's and its rows A's. */
    int64_t cw = max64(cell_width(&f->panels[0]), max64(cell_width(&f->panels[1]), cell_width(&f->panels[2])));
    geometry b = measure(&f->panels[1], 0, top, cw);
    int64_t lower = b.height + PANEL_GAP;
    g[0] = measure(&f->panels[0], PAD, lower, cw);
    g[2] = measure(&f->panels[2], g[0].x0 + g[0].width + PANEL_GAP, lower, cw);
    g[1] = measure(&f->panels[1], g[2].gx - b.gx, top, cw);
    return;
  }
  int64_t x = PAD;
  for (size_t k = 0; k < f->count; k++) {
    g[k] = measure(&f->panels[k], x, top, cell_width(&f->panels[k]));
    x += g[k].width + PANEL_GAP;
  }
}

/* The classes of every colour a compact figure's fills use. */
static void write_style(cl_sink *o, const cl_figure *f, const palette *t) {
  cl_sink_puts(o, "<style>");
  for (size_t k = 0; k < f->count; k++)
    for (int32_t c = 0; c < t[k].count; c++) {
      /* A colour used by several panels gets several equal rules: harmless,
       * and cheaper than another table. */
      cl_sink_puts(o, ".");
      colour_class(o, t[k].colour_of[c]);
      cl_sink_printf(o, "{stroke:#%06x}", (unsigned)t[k].colour_of[c]);
    }
  cl_sink_puts(o, "</style>\n");
}

cl_status cl_figure_write_svg(cl_sink *o, const cl_figure *f) {
  geometry g[CL_PICTURE_MAX_PANELS];
  place_panels(f, g);
  int64_t width = f->caption != NULL ? PAD + text_width(f->caption, CAPTION_FONT) : 0, height = 0, cells = 0;
  for (size_t k = 0; k < f->count; k++) {
    width = max64(width, g[k].x0 + g[k].width);
    height = max64(height, g[k].height);
    cells += f->panels[k].rows * f->panels[k].cols;
  }
  width += PAD;
  height += PAD;
  palette compact[CL_PICTURE_MAX_PANELS];
  bool is_compact = cells > COMPACT_CELLS;
  for (size_t k = 0; is_compact && k < f->count; k++)
    if (!palette_of(&f->panels[k], &compact[k])) {
      while (k-- > 0)
        palette_release(&compact[k]);
      return cl_fail(CL_E_NOMEM, "picture: out of memory");
    }
  cl_sink_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  cl_sink_printf(o,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%lld\" height=\"%lld\" "
                 "viewBox=\"0 0 %lld %lld\">\n",
                 (long long)width, (long long)height, (long long)width, (long long)height);
  write_document_title(o, f);
  write_desc(o, f);
  if (is_compact)
    write_style(o, f, compact);
  cl_sink_printf(o, "<rect width=\"%lld\" height=\"%lld\" fill=\"#ffffff\"/>\n", (long long)width, (long long)height);
  if (f->caption != NULL) {
    cl_sink_printf(o, "<g font-family=\"%s\" font-size=\"%d\" font-weight=\"bold\" fill=\"#000000\">\n", font_family,
                   CAPTION_FONT);
    write_text(o, "caption", PAD, PAD + CAPTION_FONT, f->caption);
    cl_sink_puts(o, "</g>\n");
  }
  for (size_t k = 0; k < f->count; k++)
    write_panel(o, &f->panels[k], &g[k], is_compact ? &compact[k] : NULL);
  cl_sink_puts(o, "</svg>\n");
  for (size_t k = 0; is_compact && k < f->count; k++)
    palette_release(&compact[k]);
  return CL_OK;
}
