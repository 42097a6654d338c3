/* SPDX-License-Identifier: BSD-3-Clause */
/* render_svg.c: a cl_picture as a standalone SVG document.
 *
 * What the document holds, in drawing order:
 *   <title> and <desc>  the picture's title (the layout's text) and notes;
 *   a white background;
 *   one <rect> per cell, filled with its colour, with a <title> tooltip
 *     giving the cell's natural coordinate and contents;
 *   the grid: thin lines between all cells, heavier lines where an outer
 *     coordinate of a hierarchical mode changes, a frame;
 *   exactly one <text> per cell, its label;
 *   the title, the margin coordinates and the notes as stroked paths
 *     (render_font.c), so that the count of <text> elements is the count
 *     of cells, as CONTRACT.md says.
 * All geometry is integer pixels or hundredths of a pixel. */
#include <string.h>

#include "render_impl.h"

enum {
  PAD = 16,
  TITLE_CAP = 13,   /* capital height of the title, pixels */
  TITLE_GAP = 18,   /* from the title's baseline to the column labels' top */
  MARGIN_CAP = 8,   /* capital height of the coordinates on the margins */
  MARGIN_GAP = 7,   /* from a margin label to the grid */
  NOTE_CAP = 9,
  NOTE_LINE = 17,
  CELL_FONT = 12,   /* font size of an index label */
  TV_FONT = 11      /* font size of a T{thr}V{val} label */
};

/* The width of n characters of a monospace font of size px (DejaVu Sans
 * Mono and its kin advance 0.602 em), rounded up, in pixels. */
static int64_t mono_width(int64_t n, int64_t px) { return (n * px * 602 + 999) / 1000; }

typedef struct geometry {
  int64_t cw, ch;           /* cell size */
  int64_t gx, gy;           /* top left corner of the grid */
  int64_t width, height;    /* of the document */
  int64_t title_baseline;
  int64_t notes_baseline;   /* of the first note */
} geometry;

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static geometry measure(const cl_picture *p) {
  geometry g;
  if (p->tv) {
    g.cw = max64(40, mono_width(p->label_width, TV_FONT) + 10);
    g.ch = 30;
  } else {
    g.cw = max64(30, mono_width(p->label_width, CELL_FONT) + 12);
    g.ch = 30;
  }
  char widest_row[32];
  snprintf(widest_row, sizeof widest_row, "%lld", (long long)(p->rows - 1));
  int64_t row_labels = (cl_font_width(widest_row, MARGIN_CAP) + 99) / 100;
  g.title_baseline = PAD + TITLE_CAP;
  g.gx = PAD + row_labels + MARGIN_GAP;
  g.gy = g.title_baseline + TITLE_GAP + MARGIN_CAP + MARGIN_GAP;
  int64_t right = g.gx + p->cols * g.cw;
  right = max64(right, PAD + (cl_font_width(p->title, TITLE_CAP) + 99) / 100);
  g.notes_baseline = g.gy + p->rows * g.ch + 14 + NOTE_CAP;
  int64_t bottom = g.gy + p->rows * g.ch;
  for (int k = 0; k < p->nnotes; k++) {
    right = max64(right, g.gx + (cl_font_width(p->notes[k], NOTE_CAP) + 99) / 100);
    bottom = g.notes_baseline + k * NOTE_LINE + 4;
  }
  g.width = right + PAD;
  g.height = bottom + PAD;
  return g;
}

static void fill_colour(cl_sink *o, cl_rgb c) { cl_sink_printf(o, "#%02x%02x%02x", c.r, c.g, c.b); }

static void write_cells(cl_sink *o, const cl_picture *p, const geometry *g) {
  cl_sink_puts(o, "<g stroke=\"none\">\n");
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      cl_sink_printf(o, "<rect x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%lld\" fill=\"", (long long)(g->gx + n * g->cw),
                     (long long)(g->gy + m * g->ch), (long long)g->cw, (long long)g->ch);
      fill_colour(o, cl_cell_colour(p, cl_cell_at(p, m, n)));
      cl_sink_puts(o, "\"><title>");
      cl_cell_describe(o, p, m, n, true);
      cl_sink_puts(o, "</title></rect>\n");
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

/* The corner mark of a TV cell that several (thr,val) reach. */
static void write_shared_marks(cl_sink *o, const cl_picture *p, const geometry *g) {
  bool any = false;
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      if (cl_cell_at(p, m, n)->hits < 2)
        continue;
      if (!any)
        cl_sink_puts(o, "<path fill=\"#1a1a1a\" d=\"");
      any = true;
      int64_t right = g->gx + (n + 1) * g->cw, top = g->gy + m * g->ch;
      cl_sink_printf(o, "M%lld %lldh8v8z", (long long)(right - 9), (long long)(top + 1));
    }
  if (any)
    cl_sink_puts(o, "\"/>\n");
}

static void write_labels(cl_sink *o, const cl_picture *p, const geometry *g) {
  cl_sink_printf(o,
                 "<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"%d\" "
                 "text-anchor=\"middle\" fill=\"#000000\">\n",
                 p->tv ? TV_FONT : CELL_FONT);
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      const cl_cell *c = cl_cell_at(p, m, n);
      int64_t cx = g->gx + n * g->cw + g->cw / 2, top = g->gy + m * g->ch;
      cl_rgb colour = cl_cell_colour(p, c);
      const char *fill = colour.white_text ? " fill=\"#ffffff\"" : p->tv && c->hits == 0 ? " fill=\"#777777\"" : "";
      /* The label is the element's only character data (no <tspan>), so
       * that any XML reader gets "T3V1" or "12" from the element itself. */
      char label[32];
      cl_cell_label(p, c, label);
      cl_sink_printf(o, "<text x=\"%lld\" y=\"%lld\"%s>%s</text>\n", (long long)cx, (long long)(top + g->ch / 2 + 4),
                     fill, label);
    }
  cl_sink_puts(o, "</g>\n");
}

/* One line of stroke-font text as the data of the current path. */
static void font_line(cl_sink *o, const char *s, int64_t x, int64_t baseline, int64_t cap) {
  cl_font_path(o, s, x * 100, baseline * 100, cap);
}

static void write_lettering(cl_sink *o, const cl_picture *p, const geometry *g) {
  cl_sink_puts(o, "<g fill=\"none\" stroke=\"#111111\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n");
  /* The title. */
  cl_sink_puts(o, "<path stroke-width=\"1.5\" d=\"");
  font_line(o, p->title, PAD, g->title_baseline, TITLE_CAP);
  cl_sink_puts(o, "\"/>\n");
  /* Row coordinates, right-aligned; column coordinates, centred. */
  cl_sink_puts(o, "<path stroke-width=\"0.95\" stroke=\"#444444\" d=\"");
  for (int64_t m = 0; m < p->rows; m++) {
    char label[32];
    snprintf(label, sizeof label, "%lld", (long long)m);
    int64_t right = (g->gx - MARGIN_GAP) * 100;
    cl_font_path(o, label, right - cl_font_width(label, MARGIN_CAP),
                 (g->gy + m * g->ch + g->ch / 2) * 100 + MARGIN_CAP * 50, MARGIN_CAP);
  }
  for (int64_t n = 0; n < p->cols; n++) {
    char label[32];
    snprintf(label, sizeof label, "%lld", (long long)n);
    int64_t centre = (g->gx + n * g->cw) * 100 + g->cw * 50;
    cl_font_path(o, label, centre - cl_font_width(label, MARGIN_CAP) / 2, (g->gy - MARGIN_GAP) * 100, MARGIN_CAP);
  }
  cl_sink_puts(o, "\"/>\n");
  if (p->nnotes > 0) {
    cl_sink_puts(o, "<path stroke-width=\"1.05\" stroke=\"#333333\" d=\"");
    for (int k = 0; k < p->nnotes; k++)
      font_line(o, p->notes[k], g->gx, g->notes_baseline + k * NOTE_LINE, NOTE_CAP);
    cl_sink_puts(o, "\"/>\n");
  }
  cl_sink_puts(o, "</g>\n");
}

void cl_picture_write_svg(cl_sink *o, const cl_picture *p) {
  geometry g = measure(p);
  cl_sink_puts(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  cl_sink_printf(o,
                 "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%lld\" height=\"%lld\" "
                 "viewBox=\"0 0 %lld %lld\">\n",
                 (long long)g.width, (long long)g.height, (long long)g.width, (long long)g.height);
  cl_sink_puts(o, "<title>");
  cl_sink_xml(o, p->title);
  cl_sink_puts(o, "</title>\n<desc>");
  if (p->tv)
    cl_sink_printf(o, "cute-layout picture: a %lldx%lld tile, each cell labelled with the first (thread,value) "
                   "that reaches it and coloured by thread.", (long long)p->rows, (long long)p->cols);
  else
    cl_sink_printf(o, "cute-layout picture: a %lldx%lld grid, cell (m,n) labelled with the index L(m,n) and "
                   "coloured by it; heavier lines where a hierarchical mode starts a new tile.",
                   (long long)p->rows, (long long)p->cols);
  for (int k = 0; k < p->nnotes; k++) {
    cl_sink_puts(o, " Note: ");
    cl_sink_xml(o, p->notes[k]);
    cl_sink_puts(o, ".");
  }
  cl_sink_puts(o, "</desc>\n");
  cl_sink_printf(o, "<rect width=\"%lld\" height=\"%lld\" fill=\"#ffffff\"/>\n", (long long)g.width,
                 (long long)g.height);
  write_cells(o, p, &g);
  write_grid(o, p, &g);
  write_shared_marks(o, p, &g);
  write_labels(o, p, &g);
  write_lettering(o, p, &g);
  cl_sink_puts(o, "</svg>\n");
}
