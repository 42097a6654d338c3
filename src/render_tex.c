/* SPDX-License-Identifier: BSD-3-Clause */
/* render_tex.c: a cl_picture as a standalone LaTeX document with one TikZ
 * picture: the same cells, colours, labels, tile lines, margin coordinates,
 * title and notes as the SVG of render_svg.c.  One unit of the picture is one
 * cell (x to the right, y downwards), so every coordinate is a cell number.
 * Compile with `pdflatex FILE.tex` (classes and packages: standalone, tikz,
 * fontenc; all in TeX Live's standard collections). */
#include <string.h>

#include "render_impl.h"

static int64_t cell_height(const cl_picture *p) { return p->tv ? 100 : 80; }

/* Text in TeX's argument context: its special characters escaped. */
static void tex_text(cl_sink *o, const char *s) {
  for (; *s; s++) {
    if (s[0] == '-' && s[1] == '>') { /* the notes' arrow */
      cl_sink_puts(o, "$\\to$");
      s++;
      continue;
    }
    switch (*s) {
    case '\\': cl_sink_puts(o, "\\textbackslash{}"); break;
    case '{': case '}': case '$': case '&': case '#': case '_': case '%':
      cl_sink_printf(o, "\\%c", *s);
      break;
    case '^': cl_sink_puts(o, "\\textasciicircum{}"); break;
    case '~': cl_sink_puts(o, "\\textasciitilde{}"); break;
    case '\n': case '\r': cl_sink_puts(o, " "); break;
    default: cl_sink_printf(o, "%c", *s);
    }
  }
}

static void tex_colour(cl_sink *o, cl_rgb c) {
  cl_sink_printf(o, "{rgb,255:red,%d;green,%d;blue,%d}", c.r, c.g, c.b);
}

/* Lines of one weight along one axis, as one \draw. */
static void tex_rules(cl_sink *o, const cl_picture *p, uint8_t weight, const char *style) {
  bool any = false;
  for (int axis = 0; axis < 2; axis++) {
    int64_t count = axis == 0 ? p->rows : p->cols;
    const uint8_t *rule = axis == 0 ? p->row_rule : p->col_rule;
    for (int64_t k = 1; k < count; k++) {
      if (rule[k] != weight && !(weight == 0 && rule[k] != 255))
        continue;
      if (!any)
        cl_sink_printf(o, "\\draw[%s]", style);
      any = true;
      if (axis == 0)
        cl_sink_printf(o, " (0,%lld) -- (%lld,%lld)", (long long)k, (long long)p->cols, (long long)k);
      else
        cl_sink_printf(o, " (%lld,0) -- (%lld,%lld)", (long long)k, (long long)k, (long long)p->rows);
    }
  }
  if (any)
    cl_sink_puts(o, ";\n");
}

/* Cell size in hundredths of a cm: wide enough for the longest label in
 * \small (plain) or \scriptsize (TV) typewriter type. */
static int64_t cell_width(const cl_picture *p) {
  int64_t cw = p->tv ? 30 + 16 * (int64_t)cl_tv_line_width(p) : 30 + 17 * (int64_t)p->label_width;
  return cw < cell_height(p) ? cell_height(p) : cw;
}

/* One panel, its top left cell at the origin of the current scope (one
 * unit one cell of cw x ch). */
static void tex_panel(cl_sink *o, const cl_picture *p) {
  cl_sink_puts(o, "\\node[anchor=base west,inner sep=0pt,font=\\ttfamily\\large] at (0,-0.9) {");
  tex_text(o, p->title);
  cl_sink_puts(o, "};\n% cells\n");
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      cl_sink_puts(o, "\\fill[fill=");
      tex_colour(o, cl_cell_colour(p, m, n));
      cl_sink_printf(o, "] (%lld,%lld) rectangle +(1,1);\n", (long long)n, (long long)m);
    }
  cl_sink_puts(o, "% grid and tiles\n");
  tex_rules(o, p, 0, "black!45,line width=0.3pt");
  tex_rules(o, p, 1, "black,line width=1pt");
  tex_rules(o, p, 2, "black,line width=1.6pt");
  tex_rules(o, p, 3, "black,line width=2.2pt");
  cl_sink_printf(o, "\\draw[black,line width=1.2pt] (0,0) rectangle (%lld,%lld);\n", (long long)p->cols,
                 (long long)p->rows);
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++)
      if (cl_cell_at(p, m, n)->hits > 1)
        cl_sink_printf(o, "\\fill[black!85] (%lld,%lld) -- +(-0.2,0) -- +(0,0.2) -- cycle;\n", (long long)(n + 1),
                       (long long)m);
  if (p->hl_row >= 0)
    cl_sink_printf(o, "\\draw[{rgb,255:red,209;green,0;blue,93},line width=2.4pt] (%lld,%lld) rectangle +(1,1);\n",
                   (long long)p->hl_col, (long long)p->hl_row);
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++)
      if (cl_cell_at(p, m, n)->marked)
        cl_sink_printf(o, "\\draw[black!90,line width=1.6pt,dashed] (%lld.1,%lld.1) rectangle +(0.8,0.8);\n",
                       (long long)n, (long long)m);
  cl_sink_printf(o, "%% labels\n\\begin{scope}[every node/.style={font=\\ttfamily%s,align=center}]\n",
                 p->tv ? "\\scriptsize" : "\\small");
  for (int64_t m = 0; m < p->rows; m++)
    for (int64_t n = 0; n < p->cols; n++) {
      const cl_cell *c = cl_cell_at(p, m, n);
      const char *fill = cl_label_colour(p, m, n);
      const char *text = fill == NULL ? "" : fill[1] == 'f' ? "[text=white]" : "[text=black!55]";
      cl_sink_printf(o, "\\node%s at (%lld.5,%lld.5) {", text, (long long)n, (long long)m);
      if (p->tv && c->hits > 0)
        cl_sink_printf(o, "T%lld\\\\V%lld", (long long)c->value, (long long)c->vid);
      else {
        char label[32];
        cl_cell_label(p, c, label);
        cl_sink_puts(o, label);
      }
      cl_sink_puts(o, "};\n");
    }
  cl_sink_puts(o, "\\end{scope}\n% coordinates\n"
                  "\\begin{scope}[every node/.style={font=\\ttfamily\\scriptsize,text=black!70,inner sep=2pt}]\n");
  for (int64_t m = 0; m < p->rows; m++)
    cl_sink_printf(o, "\\node[anchor=east] at (0,%lld.5) {%lld};\n", (long long)m, (long long)m);
  for (int64_t n = 0; n < p->cols; n++)
    cl_sink_printf(o, "\\node[anchor=south] at (%lld.5,0) {%lld};\n", (long long)n, (long long)n);
  cl_sink_puts(o, "\\end{scope}\n");
  for (int k = 0; k < p->nnotes; k++) {
    cl_sink_puts(o, "\\node[anchor=base west,inner sep=0pt,font=\\small] at (0,");
    cl_sink_hundredths(o, p->rows * 100 + 75 + 50 * k);
    cl_sink_puts(o, ") {");
    tex_text(o, p->notes[k]);
    cl_sink_puts(o, "};\n");
  }
}

/* Where the panel after p starts, in cells: past p's grid, title and
 * notes (a character of \small typewriter is about 0.2 cm), and a gap. */
static int64_t panel_span(const cl_picture *p, int64_t cw) {
  int64_t span = p->cols * cw, text = 0;
  for (int j = 0; j < p->nnotes; j++)
    text = (int64_t)strlen(p->notes[j]) > text ? (int64_t)strlen(p->notes[j]) : text;
  text = (text > (int64_t)strlen(p->title) ? text : (int64_t)strlen(p->title) + 2) * 20;
  span = span > text ? span : text;
  return (span + cw - 1) / cw + 2;
}

/* CL_PANELS_MMA, as print_latex places them: B (panel 1) above C (panel
 * 2), A (panel 0) at C's left, in cells; below B room for its notes and
 * C's title. */
static void mma_place(const cl_figure *f, size_t k, int64_t cw, int64_t *x, int64_t *y) {
  const cl_picture *a = &f->panels[0], *b = &f->panels[1];
  int64_t right = panel_span(a, cw), lower = b->rows + 3 + (b->nnotes + 1) / 2;
  *x = k == 0 ? 0 : right;
  *y = k == 1 ? 0 : lower;
}

void cl_figure_write_tex(cl_sink *o, const cl_figure *f) {
  /* One cell size for every panel, so that they line up. */
  int64_t cw = 0, ch = 0;
  for (size_t k = 0; k < f->count; k++) {
    int64_t w = cell_width(&f->panels[k]), h = cell_height(&f->panels[k]);
    cw = w > cw ? w : cw;
    ch = h > ch ? h : ch;
  }
  cl_sink_puts(o, "% cute-layout picture: ");
  tex_text(o, f->caption != NULL ? f->caption : f->panels[0].title);
  cl_sink_puts(o, "\n\\documentclass[tikz,border=6pt]{standalone}\n\\usepackage[T1]{fontenc}\n"
                  "\\begin{document}\n\\begin{tikzpicture}[x=");
  cl_sink_hundredths(o, cw);
  cl_sink_puts(o, "cm,y=-");
  cl_sink_hundredths(o, ch);
  cl_sink_puts(o, "cm]\n");
  if (f->caption != NULL) {
    cl_sink_puts(o, "\\node[anchor=base west,inner sep=0pt,font=\\ttfamily\\large\\bfseries] at (0,-1.9) {");
    tex_text(o, f->caption);
    cl_sink_puts(o, "};\n");
  }
  int64_t x = 0, y = 0;
  for (size_t k = 0; k < f->count; k++) {
    const cl_picture *p = &f->panels[k];
    if (f->arrangement == CL_PANELS_MMA)
      mma_place(f, k, cw, &x, &y);
    if (f->count > 1)
      cl_sink_printf(o, "%% panel %zu\n\\begin{scope}[shift={(%lld,%lld)}]\n", k + 1, (long long)x, (long long)y);
    tex_panel(o, p);
    if (f->count > 1)
      cl_sink_puts(o, "\\end{scope}\n");
    x += panel_span(p, cw);
  }
  cl_sink_puts(o, "\\end{tikzpicture}\n\\end{document}\n");
}
