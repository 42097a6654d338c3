/* SPDX-License-Identifier: BSD-3-Clause */
/* test_render.c: the pictures of render.h (cl_render_layout, cl_render_tv,
 * cl_render_panels).
 *
 * Properties, checked on every layout of a generated family: the SVG has
 * exactly one <text class="cell"> per cell (CONTRACT.md) in row-major
 * order, and the text of cell (m,n) is L(m,n) computed independently with
 * cl_layout_eval_coord; the TikZ document has a node with that label at
 * that cell; the console table of a rank-2 layout is print_layout's.  TV
 * pictures label each cell with the first (thr,val) that reaches it.  Then
 * tile lines, rank 0/1/3 pictures, the index map, lettering as <text>,
 * colour schemes by property (one colour per bank, and a swizzled
 * shared-memory layout touching every bank once per row and column),
 * figures of several panels (cl_render_panels), snprintf semantics,
 * streams, and every error status, including allocation failure. */
#include "test_util.h"

/* ------------------------------------------------------------ helpers */

static char *render_layout(const cl_layout_t *l, cl_picture_format format, const cl_picture_options *given) {
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  if (given != NULL)
    o = *given;
  o.format = format;
  int64_t n = cl_render_layout(l, &o, NULL, 0);
  if (n < 0)
    fail_msg("cl_render_layout(%s) = %lld: %s", layout_text(l), (long long)n, cl_last_error());
  char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(cl_render_layout(l, &o, buf, (size_t)n + 1), n);
  assert_int_equal(strlen(buf), (size_t)n);
  return buf;
}

static char *render_tv(const cl_layout_t *l, int64_t rows, int64_t cols, cl_picture_format format) {
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.format = format;
  int64_t n = cl_render_tv(l, rows, cols, &o, NULL, 0);
  if (n < 0)
    fail_msg("cl_render_tv(%s) = %lld: %s", layout_text(l), (long long)n, cl_last_error());
  char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(cl_render_tv(l, rows, cols, &o, buf, (size_t)n + 1), n);
  return buf;
}

/* Each cell's label is one of these (CONTRACT.md); titles, axes and notes
 * are other <text> elements. */
#define CELL_TEXT "<text class=\"cell\""

static int64_t count_of(const char *s, const char *needle) {
  int64_t n = 0;
  for (const char *p = strstr(s, needle); p != NULL; p = strstr(p + 1, needle))
    n++;
  return n;
}

/* The character data of the k-th <text class="cell"> element (markup of
 * children such as <tspan> left out), in a static buffer; NULL if there is
 * none. */
static const char *text_element(const char *svg, int64_t k) {
  static char label[256];
  const char *p = svg;
  for (int64_t i = 0; i <= k; i++) {
    p = strstr(p, CELL_TEXT);
    if (p == NULL)
      return NULL;
    p += strlen(CELL_TEXT);
  }
  p = strchr(p, '>');
  assert_non_null(p);
  p++;
  size_t len = 0;
  while (strncmp(p, "</text>", 7) != 0) {
    assert_true(*p != '\0');
    if (*p == '<') {
      p = strchr(p, '>') + 1;
      continue;
    }
    assert_true(len + 1 < sizeof label);
    label[len++] = *p++;
  }
  label[len] = '\0';
  return label;
}

/* The data of the <path> whose attributes start with `attrs`, e.g.
 * `stroke-width="1.8"`: how many line segments (M commands) it holds. */
static int64_t segments_of(const char *svg, const char *attrs) {
  char start[128];
  snprintf(start, sizeof start, "<path %s d=\"", attrs);
  const char *p = strstr(svg, start);
  if (p == NULL)
    return 0;
  p += strlen(start);
  int64_t n = 0;
  for (; *p != '"'; p++)
    n += *p == 'M';
  return n;
}

static int64_t eval_at(const cl_layout_t *l, int64_t m, int64_t n) {
  int64_t crd[2] = {m, n}, index;
  cl_tuple_t *t = NULL;
  assert_int_equal(cl_tuple_from_ints(crd, 2, &t), CL_OK);
  assert_int_equal(cl_layout_eval_coord(l, t, &index), CL_OK);
  cl_tuple_free(t);
  return index;
}

static int64_t mode_size(const cl_layout_t *l, int64_t i) {
  cl_layout_t *mode = NULL;
  assert_int_equal(cl_layout_get(l, &i, 1, &mode), CL_OK);
  int64_t size = cl_layout_size(mode);
  cl_layout_free(mode);
  return size;
}

/* Every picture format of a rank-2 layout shows L(m,n) at cell (m,n). */
static void check_rank2(const cl_layout_t *l) {
  int64_t rows = mode_size(l, 0), cols = mode_size(l, 1);
  char *svg = render_layout(l, CL_PICTURE_SVG, NULL);
  char *tex = render_layout(l, CL_PICTURE_TEX, NULL);
  assert_int_equal(count_of(svg, CELL_TEXT), rows * cols);
  assert_int_equal(count_of(svg, "<rect x="), rows * cols);
  for (int64_t m = 0; m < rows; m++)
    for (int64_t n = 0; n < cols; n++) {
      char want[64], at[160];
      snprintf(want, sizeof want, "%lld", (long long)eval_at(l, m, n));
      const char *got = text_element(svg, m * cols + n);
      if (got == NULL || strcmp(got, want) != 0)
        fail_msg("%s: SVG cell (%lld,%lld) is '%s', expected %s", layout_text(l), (long long)m, (long long)n,
                 got ? got : "(none)", want);
      snprintf(at, sizeof at, " at (%lld.5,%lld.5) {%s};", (long long)n, (long long)m, want);
      if (strstr(tex, at) == NULL)
        fail_msg("%s: TikZ has no '%s'", layout_text(l), at);
    }
  /* The title, escaped, and nothing after the document. */
  char title[300];
  snprintf(title, sizeof title, "<title>%s</title>", layout_text(l));
  assert_non_null(strstr(svg, title));
  assert_string_equal(svg + strlen(svg) - 7, "</svg>\n");
  assert_non_null(strstr(tex, "\\begin{tikzpicture}"));
  assert_string_equal(tex + strlen(tex) - 15, "\\end{document}\n");
  /* The table is print_layout's, to the byte. */
  char *txt = render_layout(l, CL_PICTURE_TXT, NULL);
  char table[65536];
  int64_t len = cl_print_layout(l, table, sizeof table);
  assert_true(len > 0 && (size_t)len < sizeof table);
  assert_string_equal(txt, table);
  free(svg);
  free(tex);
  free(txt);
}

/* ------------------------------------------------------------ properties */

static void test_every_cell_of_generated_layouts(void **state) {
  (void)state;
  static const char *modes[] = {"1", "2", "3", "4", "(2,2)", "(2,3)", "(2,(2,2))", "((3,1),2)"};
  int checked = 0;
  for (size_t a = 0; a < COUNT_OF(modes); a++)
    for (size_t b = 0; b < COUNT_OF(modes); b++) {
      char text[64];
      snprintf(text, sizeof text, "(%s,%s)", modes[a], modes[b]);
      cl_tuple_t *shape = tup(text);
      cl_layout_t *left = NULL, *right = NULL;
      assert_int_equal(cl_layout_make_left(shape, &left), CL_OK);
      assert_int_equal(cl_layout_make_right(shape, &right), CL_OK);
      check_rank2(left);
      check_rank2(right);
      checked += 2;
      cl_layout_free(left);
      cl_layout_free(right);
      cl_tuple_free(shape);
    }
  /* Strides CuTe allows beyond compact ones: zero, negative, gaps. */
  static const char *others[] = {"(4,3):(0,1)", "(3,3):(-1,-3)", "(4,2):(-1,4)", "(2,(2,2)):(4,(2,1))",
                                 "((2,2),(2,2)):((1,4),(2,8))", "(3,4):(100,7)", "(1,1):(0,0)", "(2,3):(3,1)"};
  for (size_t k = 0; k < COUNT_OF(others); k++) {
    cl_layout_t *l = lay(others[k]);
    check_rank2(l);
    cl_layout_free(l);
    checked++;
  }
  assert_int_equal(checked, 2 * 64 + 8);
}

/* TV pictures: cell (idx % M, idx / M) shows the first (t,v), thread-major,
 * with L(t,v) = idx. */
static void check_tv(const char *text, int64_t rows, int64_t cols) {
  cl_layout_t *l = lay(text);
  char *svg = render_tv(l, rows, cols, CL_PICTURE_SVG);
  char *tex = render_tv(l, rows, cols, CL_PICTURE_TEX);
  char *txt = render_tv(l, rows, cols, CL_PICTURE_TXT);
  assert_int_equal(count_of(svg, CELL_TEXT), rows * cols);
  int64_t threads = mode_size(l, 0), values = mode_size(l, 1);
  char (*want)[48] = calloc((size_t)(rows * cols), sizeof *want);
  assert_non_null(want);
  for (int64_t t = 0; t < threads; t++)
    for (int64_t v = 0; v < values; v++) {
      int64_t idx = eval_at(l, t, v);
      assert_true(idx >= 0 && idx < rows * cols);
      int64_t m = idx % rows, n = idx / rows;
      if (want[m * cols + n][0] == '\0')
        snprintf(want[m * cols + n], sizeof *want, "T%lldV%lld", (long long)t, (long long)v);
    }
  int width = 1;
  for (int64_t k = 0; k < rows * cols; k++)
    width = (int)strlen(want[k]) > width ? (int)strlen(want[k]) : width;
  for (int64_t m = 0; m < rows; m++) {
    /* The table's row, every label right-aligned in the widest one's width. */
    char line[4096];
    int len = snprintf(line, sizeof line, "\n%2lld  ", (long long)m);
    for (int64_t n = 0; n < cols; n++)
      len += snprintf(line + len, sizeof line - (size_t)len, "| %*s ", width,
                      want[m * cols + n][0] ? want[m * cols + n] : "-");
    snprintf(line + len, sizeof line - (size_t)len, "|\n");
    if (strstr(txt, line) == NULL)
      fail_msg("%s: no table row '%s' in\n%s", text, line, txt);
    for (int64_t n = 0; n < cols; n++) {
      const char *expected = want[m * cols + n][0] ? want[m * cols + n] : "-";
      const char *got = text_element(svg, m * cols + n);
      if (got == NULL || strcmp(got, expected) != 0)
        fail_msg("%s: SVG cell (%lld,%lld) is '%s', expected %s", text, (long long)m, (long long)n,
                 got ? got : "(none)", expected);
      if (expected[0] == 'T') {
        /* TikZ stacks T and V: "T3\\V1". */
        char at[96], stacked[40];
        snprintf(stacked, sizeof stacked, "%s", expected);
        char *vpos = strchr(stacked, 'V');
        *vpos = '\0';
        snprintf(at, sizeof at, " at (%lld.5,%lld.5) {%s\\\\V%s};", (long long)n, (long long)m, stacked,
                 strchr(expected, 'V') + 1);
        if (strstr(tex, at) == NULL)
          fail_msg("%s: TikZ has no '%s'", text, at);
      }
    }
  }
  free(want);
  free(svg);
  free(tex);
  free(txt);
  cl_layout_free(l);
}

static void test_tv_pictures(void **state) {
  (void)state;
  check_tv("((4,8),2):((2,8),1)", 8, 8);      /* 32 threads, 2 values each */
  check_tv("(4,2):(2,1)", 4, 2);
  check_tv("((2,2),(2,2)):((1,8),(4,2))", 4, 4);
  check_tv("(2,2):(0,1)", 2, 2);              /* both threads hold the same values */
  check_tv("(3,1):(2,0)", 3, 2);              /* half the tile is never reached */
  check_tv("(32,4):(1,32)", 32, 4);
}

static void test_tv_shared_and_uncovered_cells(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,2):(0,1)");
  char *svg = render_tv(l, 2, 2, CL_PICTURE_SVG);
  /* Cells 0 and 1 are reached by T0 and T1: marked; 2 and 3 by nobody. */
  assert_non_null(strstr(svg, "(0,0) index 0: T0V0 and 1 more"));
  assert_non_null(strstr(svg, "(1,0) index 1: T0V1 and 1 more"));
  assert_non_null(strstr(svg, "(0,1) index 2: no (thr,val)"));
  assert_int_equal(count_of(svg, "h8v8z"), 2);
  assert_non_null(strstr(svg, "2 of 4 cells reached by no (thr,val)"));
  assert_non_null(strstr(svg, "2 cells reached by several (thr,val)"));
  char *txt = render_tv(l, 2, 2, CL_PICTURE_TXT);
  assert_string_equal(txt,
                      "(2,2):(0,1)\n"
                      "TV layout: (thr,val) -> index in a 2x2 tile, column-major\n"
                      "2 of 4 cells reached by no (thr,val): shown as -\n"
                      "2 cells reached by several (thr,val): the first shown, corner marked\n"
                      "         0      1 \n"
                      "    +------+------+\n"
                      " 0  | T0V0 |    - |\n"
                      "    +------+------+\n"
                      " 1  | T0V1 |    - |\n"
                      "    +------+------+\n");
  free(svg);
  free(txt);
  cl_layout_free(l);
  /* A rank-1 TV layout: one value per thread; rank 3: values are modes 1..2. */
  l = lay("4:2");
  txt = render_tv(l, 8, 1, CL_PICTURE_TXT);
  assert_non_null(strstr(txt, "rank 1: one value per thread"));
  assert_non_null(strstr(txt, "| T1V0 |"));
  free(txt);
  cl_layout_free(l);
  l = lay("(2,2,2):(1,2,4)");
  txt = render_tv(l, 8, 1, CL_PICTURE_TXT);
  assert_non_null(strstr(txt, "rank 3: values are (modes 1..2)"));
  assert_non_null(strstr(txt, " 7  | T1V3 |"));
  free(txt);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ shapes of pictures */

static void test_tile_lines(void **state) {
  (void)state;
  /* logical_divide((8,8), (2,4)): tiles of 2 rows and 4 columns. */
  cl_layout_t *l = lay("((2,4),(4,2)):((1,2),(8,32))");
  char *svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_int_equal(segments_of(svg, "stroke-width=\"0.6\" stroke-opacity=\"0.55\""), 7 + 7);
  assert_int_equal(segments_of(svg, "stroke-width=\"1.8\""), 3 + 1);
  assert_int_equal(segments_of(svg, "stroke-width=\"2.8\""), 0);
  free(svg);
  cl_layout_free(l);
  /* Three levels: lines every 2 rows, heavier every 4. */
  l = lay("((2,2,2),8):((1,2,4),8)");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_int_equal(segments_of(svg, "stroke-width=\"1.8\""), 2);
  assert_int_equal(segments_of(svg, "stroke-width=\"2.8\""), 1);
  free(svg);
  cl_layout_free(l);
  /* An extent-1 leaf starts no tile of its own. */
  l = lay("((2,1,2),3):((1,0,2),4)");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_int_equal(segments_of(svg, "stroke-width=\"1.8\""), 1);
  assert_null(strstr(svg, "stroke-width=\"2.8\""));
  char *tex = render_layout(l, CL_PICTURE_TEX, NULL);
  assert_non_null(strstr(tex, "\\draw[black,line width=1pt] (0,2) -- (3,2);"));
  free(svg);
  free(tex);
  cl_layout_free(l);
  /* A flat layout has thin lines only. */
  l = lay("(4,8):(8,1)");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_null(strstr(svg, "stroke-width=\"1.8\""));
  free(svg);
  cl_layout_free(l);
}

static void test_other_ranks(void **state) {
  (void)state;
  /* Rank 1: one row, cell n is L(n). */
  cl_layout_t *l = lay("((4,2)):((2,1))");
  char *svg = render_layout(l, CL_PICTURE_SVG, NULL);
  static const char *row[] = {"0", "2", "4", "6", "1", "3", "5", "7"};
  assert_int_equal(count_of(svg, CELL_TEXT), 8);
  for (int64_t n = 0; n < 8; n++)
    assert_string_equal(text_element(svg, n), row[n]);
  assert_non_null(strstr(svg, "rank 1: one row"));
  assert_non_null(strstr(svg, "<title>(5) = (1,1) -&gt; 3</title>"));
  free(svg);
  char *txt = render_layout(l, CL_PICTURE_TXT, NULL);
  assert_non_null(strstr(txt, " 0  | 0 | 2 | 4 | 6 | 1 | 3 | 5 | 7 |\n"));
  free(txt);
  cl_layout_free(l);
  /* Rank 3: (mode 0, (mode 1, mode 2)), cell (m,n) = L(m + 2n). */
  l = lay("(2,3,4):(1,2,-6)");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_int_equal(count_of(svg, CELL_TEXT), 24);
  for (int64_t m = 0; m < 2; m++)
    for (int64_t n = 0; n < 12; n++) {
      char want[32];
      snprintf(want, sizeof want, "%lld", (long long)(m + 2 * (n % 3) - 6 * (n / 3)));
      assert_string_equal(text_element(svg, m * 12 + n), want);
    }
  assert_non_null(strstr(svg, "Note: rank 3: drawn as (mode 0, (modes 1..2))."));
  assert_non_null(strstr(svg, "<title>(1,7) = (1,(1,2)) -&gt; -9</title>"));
  assert_int_equal(segments_of(svg, "stroke-width=\"1.8\""), 3);
  free(svg);
  cl_layout_free(l);
  /* Rank 0: one cell. */
  l = lay("():()");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_int_equal(count_of(svg, CELL_TEXT), 1);
  assert_string_equal(text_element(svg, 0), "0");
  free(svg);
  cl_layout_free(l);
  /* Indices spanning almost all of int64_t still get colours. */
  l = lay("(2,2):(4611686018427387903,-4611686018427387904)");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_string_equal(text_element(svg, 3), "-1");
  assert_non_null(strstr(svg, "fill=\"#433e7b\"")); /* the darkest, for -2^62 */
  free(svg);
  cl_layout_free(l);
  /* An integer layout is rank 1 too. */
  l = lay("5:3");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  assert_int_equal(count_of(svg, CELL_TEXT), 5);
  assert_string_equal(text_element(svg, 4), "12");
  free(svg);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ options */

static cl_status odd_map(void *ctx, int64_t index, int64_t *out) {
  int *calls = ctx;
  ++*calls;
  *out = 2 * index + 1;
  return CL_OK;
}

static cl_status failing_map(void *ctx, int64_t index, int64_t *out) {
  (void)ctx;
  (void)out;
  return index == 5 ? CL_E_BOUNDS : odd_map(&(int){0}, index, out);
}

static cl_status positive_map(void *ctx, int64_t index, int64_t *out) {
  (void)ctx;
  *out = index;
  return index == 3 ? 1 : CL_OK;
}

static void test_index_map_and_title(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,3):(3,1)");
  int calls = 0;
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.map = odd_map;
  o.map_ctx = &calls;
  o.title = "Sw<1,0,1> o 0 o (2,3):(3,1) & more";
  char *svg = render_layout(l, CL_PICTURE_SVG, &o);
  assert_true(calls >= 6);
  for (int64_t m = 0; m < 2; m++)
    for (int64_t n = 0; n < 3; n++) {
      char want[16];
      snprintf(want, sizeof want, "%lld", (long long)(2 * (3 * m + n) + 1));
      assert_string_equal(text_element(svg, m * 3 + n), want);
    }
  assert_non_null(strstr(svg, "<title>Sw&lt;1,0,1&gt; o 0 o (2,3):(3,1) &amp; more</title>"));
  /* With a map the table is drawn by the picture code, same labels. */
  char *txt = render_layout(l, CL_PICTURE_TXT, &o);
  assert_non_null(strstr(txt, "Sw<1,0,1> o 0 o (2,3):(3,1) & more\n"));
  assert_non_null(strstr(txt, " 1  | 7 | 9 | 11 |") || strstr(txt, " 1  |  7 |  9 | 11 |"));
  char *tex = render_layout(l, CL_PICTURE_TEX, &o);
  assert_non_null(strstr(tex, "Sw<1,0,1> o 0 o (2,3):(3,1) \\& more"));
  free(svg);
  free(txt);
  free(tex);
  /* A failing map: its status; a positive return counts as CL_E_DOMAIN. */
  o.map = failing_map;
  char buf[64];
  assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_BOUNDS);
  o.map = positive_map;
  assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "index map failed on 3"));
  /* TeX specials in a title are escaped. */
  o.map = NULL;
  o.title = "a_b%c#d{e}\\f^g~h$";
  tex = render_layout(l, CL_PICTURE_TEX, &o);
  assert_non_null(strstr(tex, "{a\\_b\\%c\\#d\\{e\\}\\textbackslash{}f\\textasciicircum{}g\\textasciitilde{}h\\$}"));
  free(tex);
  cl_layout_free(l);
}

static void test_options_are_checked(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,2):(1,2)");
  char buf[16];
  /* NULL options: an SVG. */
  int64_t n = cl_render_layout(l, NULL, NULL, 0);
  assert_true(n > 0);
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.size = sizeof(size_t);
  assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_render_tv(l, 2, 2, &o, buf, sizeof buf), CL_E_DOMAIN);
  o.size = sizeof o;
  o.format = (cl_picture_format)7;
  assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "unknown format 7"));
  /* A newer caller's larger struct is accepted. */
  struct {
    cl_picture_options base;
    int64_t future;
  } bigger = {CL_PICTURE_OPTIONS_INIT, 0};
  bigger.base.size = sizeof bigger;
  assert_int_equal(cl_render_layout(l, &bigger.base, NULL, 0), n);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ lettering */

/* The character data of the elements <text class="CLS">, in order, joined
 * by '|', into out. */
static void texts_of_class(const char *svg, const char *cls, char *out, size_t cap) {
  char start[64];
  snprintf(start, sizeof start, "<text class=\"%s\"", cls);
  size_t len = 0;
  out[0] = '\0';
  for (const char *p = strstr(svg, start); p != NULL; p = strstr(p + 1, start)) {
    const char *body = strchr(p, '>') + 1, *end = strstr(body, "</text>");
    assert_non_null(end);
    len += (size_t)snprintf(out + len, cap - len, "%s%.*s", len ? "|" : "", (int)(end - body), body);
    assert_true(len < cap);
  }
}

static void test_lettering_is_text(void **state) {
  (void)state;
  /* Title, coordinates and notes are <text> elements a reader can select,
   * each of its class; the stroke font of earlier versions is gone. */
  cl_layout_t *l = lay("(2,3,2):(1,2,-6)");
  char *svg = render_layout(l, CL_PICTURE_SVG, NULL);
  char got[1024];
  texts_of_class(svg, "title", got, sizeof got);
  assert_string_equal(got, "(2,3,2):(1,2,-6)");
  texts_of_class(svg, "axis", got, sizeof got);
  assert_string_equal(got, "0|1|0|1|2|3|4|5");
  texts_of_class(svg, "note", got, sizeof got);
  assert_string_equal(got, "rank 3: drawn as (mode 0, (modes 1..2))");
  assert_int_equal(count_of(svg, "<text"), 1 + 2 + 6 + 1 + 12);
  assert_null(strstr(svg, "stroke-linecap=\"round\""));
  free(svg);
  /* Titles are escaped as XML text. */
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.title = "Sw<1,0,1> o 0 o (2,3):(3,1) & more";
  svg = render_layout(l, CL_PICTURE_SVG, &o);
  texts_of_class(svg, "title", got, sizeof got);
  assert_string_equal(got, "Sw&lt;1,0,1&gt; o 0 o (2,3):(3,1) &amp; more");
  free(svg);
  cl_layout_free(l);
  /* The document is as wide as its longest line of text, in a font whose
   * characters advance 0.602 em: a long title widens it. */
  l = lay("2:1");
  svg = render_layout(l, CL_PICTURE_SVG, NULL);
  int width = 0;
  assert_int_equal(sscanf(strstr(svg, "<svg "), "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\"",
                          &width), 1);
  o.title = "a title of sixty characters, much wider than a two-cell grid";
  char *wide = render_layout(l, CL_PICTURE_SVG, &o);
  int wide_width = 0;
  assert_int_equal(sscanf(strstr(wide, "<svg "), "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\"",
                          &wide_width), 1);
  assert_true(wide_width >= 60 * 14 * 602 / 1000 && wide_width > width);
  free(svg);
  free(wide);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ colour schemes */

/* The fill of the k-th cell (row-major, panel by panel) of an SVG picture,
 * "#rrggbb": cells are the <rect>s with a <title> tooltip. */
static const char *cell_fill(const char *svg, int64_t k) {
  static char fill[8];
  const char *p = svg - 1;
  for (int64_t i = 0; i <= k; i++) {
    p = strstr(p + 1, " fill=\"#");
    while (p != NULL && strncmp(p + 14, "\"><title>", 9) != 0)
      p = strstr(p + 1, " fill=\"#");
    assert_non_null(p);
  }
  memcpy(fill, p + 7, 7);
  fill[7] = '\0';
  return fill;
}

/* The bank of the word holding the first byte of element `index` of a
 * 128-byte-aligned array (below it, for negative indices). */
static int64_t bank_of(int64_t index, int64_t element_bytes) {
  return ((index * element_bytes) % 128 + 128) % 128 / 4;
}

/* The picture of L with bank colours, each cell's fill read back: a fill
 * determines the bank and the bank the fill (one colour per bank), the
 * bank being computed here from the index, independently. */
static char *bank_picture(const cl_layout_t *l, int64_t rows, int64_t cols, int64_t element_bytes,
                          cl_picture_options *o, int64_t (*bank_at)[64]) {
  o->colour = CL_COLOUR_BANK;
  o->element_bytes = element_bytes;
  char *svg = render_layout(l, CL_PICTURE_SVG, o);
  assert_int_equal(count_of(svg, CELL_TEXT), rows * cols);
  char fills[32][8] = {{0}};
  for (int64_t m = 0; m < rows; m++)
    for (int64_t n = 0; n < cols; n++) {
      int64_t index = atoll(text_element(svg, m * cols + n));
      int64_t bank = bank_of(index, element_bytes);
      const char *fill = cell_fill(svg, m * cols + n);
      if (fills[bank][0] == '\0') {
        for (int b = 0; b < 32; b++)
          if (strcmp(fills[b], fill) == 0)
            fail_msg("banks %d and %lld have one colour, %s", b, (long long)bank, fill);
        strcpy(fills[bank], fill);
      } else if (strcmp(fills[bank], fill) != 0) {
        fail_msg("bank %lld has two colours, %s and %s", (long long)bank, fills[bank], fill);
      }
      bank_at[m][n] = bank;
    }
  return svg;
}

static int distinct_banks(const int64_t *banks, int count, int step) {
  bool seen[32] = {false};
  int distinct = 0;
  for (int k = 0; k < count; k++)
    if (!seen[banks[k * step]]) {
      seen[banks[k * step]] = true;
      distinct++;
    }
  return distinct;
}

static cl_status swizzle_map(void *ctx, int64_t index, int64_t *out) {
  return cl_swizzle_apply(*(const cl_swizzle_t *)ctx, index, out);
}

static void test_bank_colours(void **state) {
  (void)state;
  static int64_t bank[8][64];
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  /* Shared memory as 8 rows of 128 bytes, 32 floats a row, row-major: every
   * row touches every bank once, but a column is one bank 8 times over (an
   * 8-way conflict for a column read). */
  cl_layout_t *rows = lay("(8,32):(32,1)");
  char *svg = bank_picture(rows, 8, 32, 4, &o, bank);
  for (int m = 0; m < 8; m++)
    assert_int_equal(distinct_banks(bank[m], 32, 1), 32);
  for (int n = 0; n < 32; n++)
    assert_int_equal(distinct_banks(&bank[0][n], 8, 64), 1);
  cl_layout_free(rows);
  assert_non_null(strstr(svg, "colour: shared-memory bank, (index x 4 bytes / 4) mod 32"));
  assert_non_null(strstr(svg, "(2,5) -&gt; 69, bank 5</title>"));
  free(svg);
  /* Swizzled shared-memory layouts of 8 rows of 128 bytes, each with the
   * number of banks a row and a column touch (a column read is
   * conflict-free when its 8 elements start in 8 banks). */
  static const struct {
    const char *layout;
    int64_t cols, element_bytes, bits, base, shift;
    int row_banks, column_banks;
  } swizzled[] = {
    /* floats, Sw<3,2,3>: the 16-byte chunks of a row XORed with the row
     * number; still every bank once per row, now 8 banks in every column */
    {"(8,32):(32,1)", 32, 4, 3, 2, 3, 32, 8},
    /* halves, Sw<3,3,3>: two to a word, so each bank twice a row */
    {"(8,64):(64,1)", 64, 2, 3, 3, 3, 32, 8},
    /* CuTe's 8x8 of 16-byte chunks, Sw<3,0,3>: a chunk covers 4 banks and
     * the picture shows the first; the 8 chunks of a row and of a column
     * start in 8 different groups of 4, so each covers every bank once */
    {"(8,8):(8,1)", 8, 16, 3, 0, 3, 8, 8},
  };
  cl_swizzle_t sw;
  o.map = swizzle_map;
  o.map_ctx = &sw;
  for (size_t k = 0; k < COUNT_OF(swizzled); k++) {
    rows = lay(swizzled[k].layout);
    assert_int_equal(cl_swizzle_make(swizzled[k].bits, swizzled[k].base, swizzled[k].shift, &sw), CL_OK);
    int cols = (int)swizzled[k].cols;
    svg = bank_picture(rows, 8, cols, swizzled[k].element_bytes, &o, bank);
    for (int m = 0; m < 8; m++)
      assert_int_equal(distinct_banks(bank[m], cols, 1), swizzled[k].row_banks);
    for (int n = 0; n < cols; n++)
      assert_int_equal(distinct_banks(&bank[0][n], 8, 64), swizzled[k].column_banks);
    free(svg);
    cl_layout_free(rows);
  }
  /* One byte per element: four elements to a bank; negative indices wrap
   * like addresses below the base. */
  o.map = NULL;
  cl_layout_t *bytes = lay("(4,8):(-1,-4)");
  svg = bank_picture(bytes, 4, 8, 1, &o, bank);
  assert_int_equal(bank[1][0], 31);  /* index -1: byte 127 of 128 */
  assert_int_equal(bank[3][7], 24);  /* index -31: byte 97 */
  free(svg);
  cl_layout_free(bytes);
}

static void test_tv_colour_schemes(void **state) {
  (void)state;
  /* SM80 m16n8 accumulators: 32 threads, 4 values each. */
  cl_layout_t *l = lay("((4,8),(2,2)):((32,1),(16,8))");
  static const cl_colour_scheme schemes[4] = {CL_COLOUR_AUTO, CL_COLOUR_VALUE, CL_COLOUR_INDEX, CL_COLOUR_BANK};
  char *svgs[4];
  static char fills[4][128][8];
  long thread[128], value[128];
  for (int k = 0; k < 4; k++) {
    cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
    o.colour = schemes[k];
    int64_t n = cl_render_tv(l, 16, 8, &o, NULL, 0);
    assert_true(n > 0);
    svgs[k] = malloc((size_t)n + 1);
    assert_int_equal(cl_render_tv(l, 16, 8, &o, svgs[k], (size_t)n + 1), n);
    for (int c = 0; c < 128; c++)
      strcpy(fills[k][c], cell_fill(svgs[k], c));
  }
  for (int c = 0; c < 128; c++)
    assert_int_equal(sscanf(text_element(svgs[0], c), "T%ldV%ld", &thread[c], &value[c]), 2);
  /* Two cells have one colour exactly when they have one thread (auto; 16
   * tints, so threads 16 apart share one), one value number (value), one
   * tile index (index: never), one bank.  Row-major cell c is
   * (c / 8, c % 8), tile index c / 8 + 16 (c % 8). */
  for (int a = 0; a < 128; a++)
    for (int b = a + 1; b < 128; b++) {
      assert_int_equal(strcmp(fills[0][a], fills[0][b]) == 0, thread[a] % 16 == thread[b] % 16);
      assert_int_equal(strcmp(fills[1][a], fills[1][b]) == 0, value[a] == value[b]);
      assert_string_not_equal(fills[2][a], fills[2][b]);
      assert_int_equal(strcmp(fills[3][a], fills[3][b]) == 0,
                       bank_of(a / 8 + 16 * (a % 8), 4) == bank_of(b / 8 + 16 * (b % 8), 4));
    }
  char *by_thread = svgs[0], *by_value = svgs[1], *by_index = svgs[2], *by_bank = svgs[3];
  assert_null(strstr(by_thread, "colour:"));
  assert_non_null(strstr(by_value, "colour: value number"));
  assert_non_null(strstr(by_index, "colour: tile index"));
  assert_non_null(strstr(by_bank, "colour: shared-memory bank, (tile index x 4 bytes / 4) mod 32"));
  assert_non_null(strstr(by_bank, "(1,2) index 33: T5V0, bank 1</title>"));
  free(by_thread);
  free(by_value);
  free(by_index);
  free(by_bank);
  cl_layout_free(l);
}

static void test_colour_options_are_checked(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,2):(1,2)");
  char buf[16];
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  /* Thread and value colours belong to TV pictures, in every format. */
  for (int f = CL_PICTURE_SVG; f <= CL_PICTURE_TXT; f++) {
    o.format = (cl_picture_format)f;
    o.colour = CL_COLOUR_THREAD;
    assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_DOMAIN);
    assert_non_null(strstr(cl_last_error(), "colour by thread needs a thread-value picture"));
    o.colour = CL_COLOUR_VALUE;
    assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_DOMAIN);
    assert_true(cl_render_tv(l, 2, 2, &o, NULL, 0) > 0);
  }
  o.format = CL_PICTURE_SVG;
  o.colour = (cl_colour_scheme)5;
  assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "unknown colour scheme 5"));
  o.colour = (cl_colour_scheme)-1;
  assert_int_equal(cl_render_tv(l, 2, 2, &o, buf, sizeof buf), CL_E_DOMAIN);
  o.colour = CL_COLOUR_BANK;
  static const int64_t bad_sizes[] = {-1, -4, ((int64_t)1 << 20) + 1, INT64_MAX, INT64_MIN};
  for (size_t k = 0; k < COUNT_OF(bad_sizes); k++) {
    o.element_bytes = bad_sizes[k];
    assert_int_equal(cl_render_layout(l, &o, buf, sizeof buf), CL_E_DOMAIN);
    assert_non_null(strstr(cl_last_error(), "element_bytes"));
  }
  /* 0 is 4 bytes; the largest size is accepted. */
  o.element_bytes = 0;
  int64_t n = cl_render_layout(l, &o, NULL, 0);
  o.element_bytes = 4;
  assert_int_equal(cl_render_layout(l, &o, NULL, 0), n);
  o.element_bytes = (int64_t)1 << 20;
  assert_true(cl_render_layout(l, &o, NULL, 0) > 0);
  /* A caller built before the colour fields existed passes a smaller size:
   * whatever lies past it is not read. */
  cl_picture_options old = CL_PICTURE_OPTIONS_INIT;
  int64_t plain = cl_render_layout(l, &old, NULL, 0);
  old.size = offsetof(cl_picture_options, colour);
  old.colour = (cl_colour_scheme)99;
  old.element_bytes = -7;
  assert_int_equal(cl_render_layout(l, &old, NULL, 0), plain);
  cl_layout_free(l);
}

/* Marks: each marked coordinate's cell, where the picture draws it, gets a
 * dashed ring (SVG, TikZ) or a '*' (txt) and the note counts them; a
 * repeated mark counts once; a TV picture's marks are tile indices; marks
 * outside the grid, a negative count or NULL marks fail; a caller built
 * before the fields passes a size that leaves them unread. */
static void test_marks(void **state) {
  (void)state;
  cl_layout_t *l = NULL;
  assert_int_equal(cl_layout_parse("(4,8):(8,1)", &l), CL_OK);
  const int64_t marks[] = {0, 5, 5, 31};
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.marks = marks;
  o.mark_count = 4;
  char *txt = render_layout(l, CL_PICTURE_TXT, &o);
  assert_non_null(strstr(txt, "marked (*): 3 cells\n"));
  /* coordinate c is cell (c % 4, c / 4), labelled L(c): 0, 5 -> (1,1) = 9, 31 -> (3,7) = 31 */
  assert_int_equal(count_of(txt, "*"), 4); /* three cells and the note */
  assert_non_null(strstr(txt, "|  *0 "));
  assert_non_null(strstr(txt, "|  *9 "));
  assert_non_null(strstr(txt, "| *31 "));
  free(txt);
  char *svg = render_layout(l, CL_PICTURE_SVG, &o);
  const char *g = strstr(svg, "<g class=\"marks\"");
  assert_non_null(g);
  assert_int_equal(count_of(g, "<rect") - count_of(strstr(g, "</g>"), "<rect"), 3);
  free(svg);
  char *tex = render_layout(l, CL_PICTURE_TEX, &o);
  assert_int_equal(count_of(tex, "dashed"), 3);
  assert_non_null(strstr(tex, "(1.1,1.1) rectangle"));
  free(tex);
  /* no marks, no note; the print_layout table is kept */
  o.mark_count = 0;
  txt = render_layout(l, CL_PICTURE_TXT, &o);
  assert_null(strstr(txt, "marked"));
  free(txt);
  /* a TV picture: tile index 9 of a 4x4 tile is cell (1,2) */
  cl_layout_t *tv = NULL;
  assert_int_equal(cl_layout_parse("(4,4):(1,4)", &tv), CL_OK);
  const int64_t nine = 9;
  o.marks = &nine;
  o.mark_count = 1;
  o.format = CL_PICTURE_TXT;
  int64_t n = cl_render_tv(tv, 4, 4, &o, NULL, 0);
  assert_true(n > 0);
  char *tvtxt = malloc((size_t)n + 1);
  assert_int_equal(cl_render_tv(tv, 4, 4, &o, tvtxt, (size_t)n + 1), n);
  assert_non_null(strstr(tvtxt, "*T1V2"));
  assert_non_null(strstr(tvtxt, "marked (*): 1 cell\n"));
  free(tvtxt);
  /* errors */
  const int64_t outside = 32;
  o.marks = &outside;
  assert_int_equal(cl_render_layout(l, &o, NULL, 0), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "outside the 4x8 grid"));
  o.mark_count = -1;
  assert_int_equal(cl_render_layout(l, &o, NULL, 0), CL_E_DOMAIN);
  o.mark_count = 2;
  o.marks = NULL;
  assert_int_equal(cl_render_layout(l, &o, NULL, 0), CL_E_NULL);
  /* an older caller's size ends before the marks: they are not read */
  cl_picture_options old = CL_PICTURE_OPTIONS_INIT, plain = CL_PICTURE_OPTIONS_INIT;
  old.size = offsetof(cl_picture_options, marks);
  old.mark_count = -5;
  assert_int_equal(cl_render_layout(l, &old, NULL, 0), cl_render_layout(l, &plain, NULL, 0));
  cl_layout_free(tv);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ side by side */

static char *render_panels(const cl_picture_panel *panels, size_t count, const cl_picture_options *given) {
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  if (given != NULL)
    o = *given;
  int64_t n = cl_render_panels(panels, count, &o, NULL, 0);
  if (n < 0)
    fail_msg("cl_render_panels = %lld: %s", (long long)n, cl_last_error());
  char *buf = malloc((size_t)n + 1);
  assert_non_null(buf);
  assert_int_equal(cl_render_panels(panels, count, &o, buf, (size_t)n + 1), n);
  assert_int_equal(strlen(buf), (size_t)n);
  return buf;
}

/* The <g class="panel"> elements of a figure, from the k-th on. */
static const char *panel_start(const char *svg, int k) {
  const char *p = svg;
  for (int i = 0; i <= k; i++) {
    p = strstr(p + (i > 0), "<g class=\"panel\"");
    assert_non_null(p);
  }
  return p;
}

static void test_composition_side_by_side(void **state) {
  (void)state;
  /* A, B and A o B: A o B(c) = A(B(c)) for each coordinate c of B. */
  cl_layout_t *a = lay("(6,2):(8,2)"), *b = lay("(4,3):(3,1)"), *ab = NULL;
  assert_int_equal(cl_composition(a, b, &ab), CL_OK);
  int64_t c = 5, bc = 0, abc = 0, ac = 0;
  assert_int_equal(cl_layout_eval(b, c, &bc), CL_OK);
  assert_int_equal(cl_layout_eval(ab, c, &abc), CL_OK);
  assert_int_equal(cl_layout_eval(a, bc, &ac), CL_OK);
  assert_int_equal(abc, ac);
  cl_picture_panel panels[3] = {{a, NULL, "A", 0, 0, bc},
                                {b, NULL, "B", 0, 0, c},
                                {ab, NULL, NULL, 0, 0, c}};
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.title = "composition(A,B)";
  char *svg = render_panels(panels, 3, &o);
  /* One <text class="cell"> per cell of each panel, in panel order. */
  assert_int_equal(count_of(svg, CELL_TEXT), 12 + 12 + 12);
  assert_int_equal(count_of(svg, "<g class=\"panel\""), 3);
  assert_non_null(strstr(svg, "<g class=\"panel\" data-rows=\"4\" data-cols=\"3\">"));
  for (int p = 0; p < 3; p++) {
    const cl_layout_t *l = p == 0 ? a : p == 1 ? b : ab;
    int64_t cols = mode_size(l, 1);
    for (int64_t k = 0; k < 12; k++) {
      char want[32];
      snprintf(want, sizeof want, "%lld", (long long)eval_at(l, k / cols, k % cols));
      assert_string_equal(text_element(svg, 12 * p + k), want);
    }
  }
  char got[256];
  texts_of_class(svg, "caption", got, sizeof got);
  assert_string_equal(got, "composition(A,B)");
  texts_of_class(svg, "title", got, sizeof got);
  char want[256];
  snprintf(want, sizeof want, "A|B|%s", layout_text(ab));
  assert_string_equal(got, want);
  /* The same coordinate outlined in B and A o B, and B(c) in A. */
  assert_int_equal(count_of(svg, "<g class=\"highlight\""), 3);
  snprintf(want, sizeof want, "outlined: (%lld,%lld) -&gt; %lld", (long long)(bc % 6), (long long)(bc / 6),
           (long long)ac);
  assert_non_null(strstr(panel_start(svg, 0), want));
  snprintf(want, sizeof want, "outlined: (1,1) -&gt; %lld", (long long)bc);
  assert_non_null(strstr(panel_start(svg, 1), want));
  snprintf(want, sizeof want, "outlined: (1,1) = ((1,0),1) -&gt; %lld", (long long)abc);
  assert_string_equal(layout_text(ab), "((2,2),3):((24,2),8)");
  assert_non_null(strstr(panel_start(svg, 2), want));
  /* One ramp for all: the cells of A and A o B showing one index have one
   * colour. */
  int shared = 0;
  for (int64_t k = 0; k < 12; k++)
    for (int64_t j = 0; j < 12; j++) {
      char label[32];
      strcpy(label, text_element(svg, k));
      if (strcmp(label, text_element(svg, 24 + j)) == 0) {
        char fill[8];
        strcpy(fill, cell_fill(svg, k));
        assert_string_equal(fill, cell_fill(svg, 24 + j));
        shared++;
      }
    }
  assert_true(shared >= 6);
  free(svg);
  /* The table: caption, then each panel's table after a blank line. */
  o.format = CL_PICTURE_TXT;
  char *txt = render_panels(panels, 3, &o);
  assert_true(strncmp(txt, "composition(A,B)\n\nA\noutlined: ", 30) == 0);
  assert_int_equal(count_of(txt, "\n\n"), 3);
  assert_non_null(strstr(txt, "\nB\noutlined: (1,1) -> "));
  free(txt);
  /* TikZ: a scope per panel, shifted right past the one before. */
  o.format = CL_PICTURE_TEX;
  char *tex = render_panels(panels, 3, &o);
  assert_int_equal(count_of(tex, "\\begin{scope}[shift={("), 3);
  assert_non_null(strstr(tex, "\\begin{scope}[shift={(0,0)}]"));
  assert_int_equal(count_of(tex, "line width=2.4pt] ("), 3);
  assert_non_null(strstr(tex, "{composition(A,B)}"));
  free(tex);
  cl_layout_free(a);
  cl_layout_free(b);
  cl_layout_free(ab);
}

static void test_copy_side_by_side(void **state) {
  (void)state;
  /* A transpose: element (m,n) of source and destination, outlined in
   * both; a TV panel may stand beside them. */
  cl_layout_t *src = lay("(4,8):(1,4)"), *dst = lay("(4,8):(8,1)"), *tv = lay("(4,2):(2,1)");
  int64_t element = 9; /* coordinate (1,2) */
  cl_picture_panel panels[3] = {{src, NULL, "source", 0, 0, element},
                                {dst, NULL, "destination", 0, 0, element},
                                {tv, NULL, NULL, 4, 2, 6}};
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.colour = CL_COLOUR_BANK;
  char *svg = render_panels(panels, 3, &o);
  assert_int_equal(count_of(svg, CELL_TEXT), 32 + 32 + 8);
  assert_non_null(strstr(svg, "outlined: (1,2) -&gt; 9, bank 9"));
  assert_non_null(strstr(svg, "outlined: (1,2) -&gt; 10, bank 10"));
  assert_non_null(strstr(svg, "outlined: (2,1) index 6: T3V0, bank 6"));
  assert_non_null(strstr(svg, "<title>source | destination | (4,2):(2,1)</title>"));
  assert_null(strstr(svg, "class=\"caption\""));
  free(svg);
  /* A single panel without outline is cl_render_layout's picture. */
  panels[0].highlight = -1;
  panels[0].title = NULL;
  o.colour = CL_COLOUR_AUTO;
  for (int f = CL_PICTURE_SVG; f <= CL_PICTURE_TXT; f++) {
    o.format = (cl_picture_format)f;
    char *one = render_panels(panels, 1, &o);
    char *plain = render_layout(src, o.format, NULL);
    assert_string_equal(one, plain);
    free(one);
    free(plain);
  }
  cl_layout_free(src);
  cl_layout_free(dst);
  cl_layout_free(tv);
}

static void test_panel_errors(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,3):(1,2)");
  char buf[16] = "unchanged";
  cl_picture_panel panels[CL_PICTURE_MAX_PANELS + 1];
  for (int k = 0; k <= CL_PICTURE_MAX_PANELS; k++)
    panels[k] = (cl_picture_panel){l, NULL, NULL, 0, 0, -1};
  assert_true(cl_render_panels(panels, CL_PICTURE_MAX_PANELS, NULL, NULL, 0) > 0);
  assert_int_equal(cl_render_panels(panels, CL_PICTURE_MAX_PANELS + 1, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_render_panels(panels, 0, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_render_panels(NULL, 1, NULL, buf, sizeof buf), CL_E_NULL);
  assert_int_equal(cl_render_panels(panels, 1, NULL, NULL, 4), CL_E_NULL);
  assert_int_equal(cl_render_panels_file(panels, 1, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_render_panels_file(NULL, 1, NULL, stdout), CL_E_NULL);
  panels[1].layout = NULL;
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_NULL);
  panels[1].layout = l;
  /* Outlines inside the panel only: 0..5 here; -1 is none. */
  panels[1].highlight = 6;
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "the highlighted coordinate 6 is outside the 2x3 grid"));
  panels[1].highlight = -2;
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  panels[1].highlight = INT64_MAX;
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  panels[1].highlight = 5;
  assert_true(cl_render_panels(panels, 2, NULL, NULL, 0) > 0);
  /* A TV panel: a tile with both sides positive; its indices inside it. */
  panels[1] = (cl_picture_panel){l, NULL, NULL, 0, 3, -1};
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  panels[1] = (cl_picture_panel){l, NULL, NULL, 3, 2, 6};
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "outside the 3x2 tile"));
  panels[1].highlight = 5;
  assert_true(cl_render_panels(panels, 2, NULL, NULL, 0) > 0);
  /* Thread colours need every panel to be TV. */
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.colour = CL_COLOUR_THREAD;
  assert_int_equal(cl_render_panels(panels, 2, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_true(cl_render_panels(panels + 1, 1, &o, NULL, 0) > 0);
  /* The figure's options have no map; old-size options are refused. */
  o = (cl_picture_options)CL_PICTURE_OPTIONS_INIT;
  o.map = odd_map;
  assert_int_equal(cl_render_panels(panels, 2, &o, buf, sizeof buf), CL_E_DOMAIN);
  o.map = NULL;
  o.size = 4;
  assert_int_equal(cl_render_panels(panels, 2, &o, buf, sizeof buf), CL_E_DOMAIN);
  /* A panel is a layout or a composed layout, not both nor neither; a
   * composed layout whose inner function is a swizzle has no grid. */
  cl_composed_t *swizzled = NULL, *inner_swizzle = NULL;
  assert_int_equal(cl_composed_parse("Sw<1,0,1> o 0 o (2,3):(1,2)", &swizzled), CL_OK);
  assert_int_equal(cl_composed_parse("(4,2):(1,4) o 0 o Sw<1,0,1>", &inner_swizzle), CL_OK);
  panels[0].composed = swizzled;
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_NULL);
  panels[0].layout = NULL;
  panels[0].composed = NULL;
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_NULL);
  panels[0].composed = inner_swizzle;
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_UNSUPPORTED);
  assert_string_equal(buf, "unchanged");
  panels[0].composed = swizzled;
  o = (cl_picture_options)CL_PICTURE_OPTIONS_INIT;
  o.format = CL_PICTURE_TXT;
  char *txt = render_panels(panels, 1, &o);
  /* cl_render_composed's picture: the composed function's values. */
  int64_t n = cl_render_composed(swizzled, &o, NULL, 0);
  char *composed_txt = malloc((size_t)n + 1);
  assert_int_equal(cl_render_composed(swizzled, &o, composed_txt, (size_t)n + 1), n);
  assert_string_equal(txt, composed_txt);
  assert_non_null(strstr(txt, "Sw<1,0,1> o 0 o (2,3):(1,2)"));
  free(txt);
  free(composed_txt);
  panels[0].layout = l;
  panels[0].composed = NULL;
  cl_composed_free(swizzled);
  cl_composed_free(inner_swizzle);
  /* Panels of at most CL_PICTURE_MAX_CELLS cells in all. */
  cl_layout_t *big = lay("(1024,1024):(1,1024)");
  panels[1] = (cl_picture_panel){big, NULL, NULL, 0, 0, -1};
  assert_int_equal(cl_render_panels(panels, 2, NULL, buf, sizeof buf), CL_E_LIMIT);
  assert_non_null(strstr(cl_last_error(), "1048582 cells in all"));
  panels[1] = panels[0];
  cl_layout_free(big);
  /* Streams: the same bytes; a failing one is CL_E_DOMAIN. */
  FILE *f = tmpfile();
  assert_non_null(f);
  n = cl_render_panels(panels, 2, NULL, NULL, 0);
  assert_int_equal(cl_render_panels_file(panels, 2, NULL, f), n);
  fclose(f);
  f = fopen("/dev/full", "w");
  if (f != NULL) {
    setvbuf(f, NULL, _IONBF, 0);
    assert_int_equal(cl_render_panels_file(panels, 2, NULL, f), CL_E_DOMAIN);
    fclose(f);
  }
  cl_layout_free(l);
}

/* ------------------------------------------------------------ buffers and streams */

static void test_snprintf_semantics(void **state) {
  (void)state;
  cl_layout_t *l = lay("((2,2),3):((1,6),2)");
  char *full = render_layout(l, CL_PICTURE_SVG, NULL);
  int64_t n = (int64_t)strlen(full);
  for (size_t cap = 1; cap < 40; cap += 7) {
    char buf[48];
    memset(buf, 'x', sizeof buf);
    assert_int_equal(cl_render_layout(l, NULL, buf, cap), n);
    assert_int_equal(strlen(buf), cap - 1);
    assert_memory_equal(buf, full, cap - 1);
    assert_int_equal(buf[cap], 'x');
  }
  /* The stream gets the same bytes. */
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(cl_render_layout_file(l, NULL, f), n);
  rewind(f);
  char *back = malloc((size_t)n + 1);
  assert_int_equal(fread(back, 1, (size_t)n + 1, f), (size_t)n);
  back[n] = '\0';
  assert_string_equal(back, full);
  fclose(f);
  /* TV pictures and tables too. */
  f = tmpfile();
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.format = CL_PICTURE_TXT;
  int64_t m = cl_render_tv_file(l, 6, 2, &o, f);
  assert_true(m > 0);
  assert_int_equal(cl_render_tv(l, 6, 2, &o, NULL, 0), m);
  assert_int_equal(cl_render_layout_file(l, &o, f), cl_print_layout(l, NULL, 0));
  fclose(f);
  free(back);
  free(full);
  cl_layout_free(l);
}

static void test_failing_stream(void **state) {
  (void)state;
  FILE *f = fopen("/dev/full", "w");
  if (f == NULL)
    skip();
  setvbuf(f, NULL, _IONBF, 0);
  cl_layout_t *l = lay("(4,4):(4,1)");
  assert_int_equal(cl_render_layout_file(l, NULL, f), CL_E_DOMAIN);
  assert_int_equal(cl_render_tv_file(l, 4, 4, NULL, f), CL_E_DOMAIN);
  fclose(f);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ errors */

static void test_errors(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,2):(1,2)");
  char buf[16] = "unchanged";
  assert_int_equal(cl_render_layout(NULL, NULL, buf, sizeof buf), CL_E_NULL);
  assert_int_equal(cl_render_layout(l, NULL, NULL, 8), CL_E_NULL);
  assert_int_equal(cl_render_layout_file(l, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_render_layout_file(NULL, NULL, stdout), CL_E_NULL);
  assert_int_equal(cl_render_tv(NULL, 2, 2, NULL, buf, sizeof buf), CL_E_NULL);
  assert_int_equal(cl_render_tv(l, 2, 2, NULL, NULL, 8), CL_E_NULL);
  assert_int_equal(cl_render_tv_file(l, 2, 2, NULL, NULL), CL_E_NULL);
  assert_string_equal(buf, "unchanged");
  /* Tiles must have cells, and every index must land in the tile. */
  assert_int_equal(cl_render_tv(l, 0, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_render_tv(l, 2, -1, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_render_tv(l, 2, 1, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "T0V1 maps to index 2, outside the 2x1 tile"));
  cl_layout_t *negative = lay("(2,2):(-1,1)");
  assert_int_equal(cl_render_tv(negative, 2, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  cl_layout_free(negative);
  /* Too many cells. */
  cl_layout_t *huge = lay("(1024,1025):(1,1024)");
  assert_int_equal(cl_render_layout(huge, NULL, buf, sizeof buf), CL_E_LIMIT);
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.format = CL_PICTURE_TXT;
  assert_int_equal(cl_render_layout(huge, &o, buf, sizeof buf), CL_E_LIMIT);
  assert_non_null(strstr(cl_last_error(), "has 1024 x 1025 entries"));
  /* The (thr,val) pairs are limited apart from the cells: 2^20 pairs
   * onto one cell is a picture (CuTe's GMMA A and B have many threads on
   * each element), more than CL_PICTURE_MAX_PAIRS is not. */
  cl_layout_t *crowd = lay("(1024,1024):(0,0)"), *mob = lay("(8192,8193):(0,0)");
  assert_true(cl_render_tv(crowd, 1, 1, NULL, NULL, 0) > 0);
  assert_int_equal(cl_render_tv(mob, 1, 1, NULL, buf, sizeof buf), CL_E_LIMIT);
  assert_non_null(strstr(cl_last_error(), "has 8192 x 8193 entries, more than the 67108864"));
  cl_layout_free(crowd);
  cl_layout_free(mob);
  assert_int_equal(cl_render_tv(l, 2048, 1024, NULL, buf, sizeof buf), CL_E_LIMIT);
  assert_int_equal(cl_render_tv(l, INT64_MAX, 2, NULL, buf, sizeof buf), CL_E_LIMIT);
  cl_layout_free(huge);
  /* An empty grid is limited along each axis too: its margins and rules span
   * it (a 0 x 2^40 grid used to allocate a rule of 2^40 bytes). */
  static const char *const long_axes[] = {"(0,1099511627776):(1,1)", "(1099511627776,0):(1,1)",
                                          "(0,(4611686018427387904,1)):(1,(1,0))"};
  for (size_t i = 0; i < COUNT_OF(long_axes); i++) {
    huge = lay(long_axes[i]);
    for (int f = CL_PICTURE_SVG; f <= CL_PICTURE_TXT; f++) {
      o.format = (cl_picture_format)f;
      assert_int_equal(cl_render_layout(huge, &o, buf, sizeof buf), CL_E_LIMIT);
      assert_non_null(strstr(cl_last_error(), "more than the 1048576 a picture shows"));
    }
    assert_int_equal(cl_render_tv(huge, 1, 1, NULL, buf, sizeof buf), CL_E_LIMIT);
    cl_layout_free(huge);
  }
  /* Empty extents have an empty grid. */
  cl_layout_t *odd = lay("((2,0),3):((1,2),4)");
  char *svg = render_layout(odd, CL_PICTURE_SVG, NULL);
  assert_int_equal(count_of(svg, CELL_TEXT), 0);
  free(svg);
  cl_layout_free(odd);
  /* An index that does not fit in 64 bits. */
  cl_layout_t *big = lay("(2,2):(4611686018427387904,4611686018427387904)");
  assert_int_equal(cl_render_layout(big, NULL, buf, sizeof buf), CL_E_OVERFLOW);
  cl_layout_free(big);
  cl_layout_free(l);
}

/* Fails the k-th allocation for every k: no crash, no leak, no partial
 * result. */
typedef struct budget {
  long live, total, left; /* left < 0: unlimited */
} budget;

static void *budget_alloc(void *ctx, size_t size) {
  budget *b = ctx;
  if (b->left == 0)
    return NULL;
  if (b->left > 0)
    b->left--;
  void *p = malloc(size);
  b->live += p != NULL;
  b->total += p != NULL;
  return p;
}
static void *budget_realloc(void *ctx, void *ptr, size_t size) {
  budget *b = ctx;
  if (b->left == 0)
    return NULL;
  if (b->left > 0)
    b->left--;
  void *p = realloc(ptr, size);
  if (p != NULL && ptr == NULL) {
    b->live++;
    b->total++;
  }
  return p;
}
static void budget_free(void *ctx, void *ptr) {
  budget *b = ctx;
  b->live -= ptr != NULL;
  free(ptr);
}

static int render_all(const cl_layout_t *rank3, const cl_layout_t *tv) {
  int failures = 0;
  for (int format = 0; format < 3; format++) {
    cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
    o.format = (cl_picture_format)format;
    int64_t n = cl_render_layout(rank3, &o, NULL, 0);
    assert_true(n > 0 || n == CL_E_NOMEM);
    failures += n < 0;
    n = cl_render_tv(tv, 8, 8, &o, NULL, 0);
    assert_true(n > 0 || n == CL_E_NOMEM);
    failures += n < 0;
  }
  return failures;
}

static void test_allocation_failures(void **state) {
  (void)state;
  cl_layout_t *rank3 = lay("((2,2),3,(2,2)):((1,2),4,(12,24))");
  cl_layout_t *tv = lay("((4,8),2):((2,8),1)");
  budget b = {0, 0, -1};
  cl_allocator hook = {budget_alloc, budget_realloc, budget_free, &b};
  assert_int_equal(cl_set_allocator(&hook), CL_OK);
  assert_int_equal(render_all(rank3, tv), 0);
  assert_int_equal(b.live, 0);
  long needed = b.total;
  assert_true(needed >= 6);
  for (long k = 0; k < needed; k++) {
    b = (budget){0, 0, k};
    assert_true(render_all(rank3, tv) > 0);
    assert_int_equal(b.live, 0);
  }
  assert_int_equal(cl_set_allocator(NULL), CL_OK);
  cl_layout_free(rank3);
  cl_layout_free(tv);
}

/* ---- a tiled MMA's figure (CL_PANELS_MMA) ---- */

/* The x of the first <text class="cell"> after `from`. */
static long first_cell_x(const char *from) {
  const char *p = strstr(from, CELL_TEXT " x=\"");
  assert_non_null(p);
  return strtol(p + strlen(CELL_TEXT " x=\""), NULL, 10);
}

/* Panel k of an SVG figure. */
static const char *panel_at(const char *svg, int k) {
  const char *p = svg;
  for (int i = 0; i <= k; i++) {
    p = strstr(p + 1, "<g class=\"panel\"");
    assert_non_null(p);
  }
  return p;
}

/* The y of the first cell's fill in a panel. */
static long first_fill_y(const char *panel) {
  const char *p = strstr(panel, "<rect x=\"");
  assert_non_null(p);
  return strtol(strstr(p, "y=\"") + 3, NULL, 10);
}

static void test_mma_arrangement(void **state) {
  (void)state;
  /* M = 8, N = 8, K = 4.  B (N x K) is (thr,val) -> 8 thr + val: tile
   * index i = n + 8 k is T(i/8)V(i%8), so drawn K x N its row k column n
   * reads T{k}V{n}. */
  cl_layout_t *a = lay("(4,8):(8,1)"), *b = lay("(4,8):(8,1)"), *c = lay("(8,8):(1,8)");
  cl_picture_panel panels[3] = {{a, NULL, "A", 8, 4, -1}, {b, NULL, "B", 8, 4, -1}, {c, NULL, "C", 8, 8, -1}};
  cl_picture_options o = CL_PICTURE_OPTIONS_INIT;
  o.arrangement = CL_PANELS_MMA;
  char *svg = render_panels(panels, 3, &o);
  assert_int_equal(count_of(svg, CELL_TEXT), 32 + 32 + 64);
  const char *pa = panel_at(svg, 0), *pb = panel_at(svg, 1), *pc = panel_at(svg, 2);
  assert_true(strncmp(pb, "<g class=\"panel\" data-rows=\"4\" data-cols=\"8\">", 44) == 0);
  for (int64_t k = 0; k < 32; k++) {
    char want[32];
    snprintf(want, sizeof want, "T%lldV%lld", (long long)(k / 8), (long long)(k % 8));
    assert_string_equal(text_element(svg, 32 + k), want);
  }
  /* The tooltip names the tile's coordinate (n,k). */
  assert_non_null(strstr(pb, "<title>(2,1) index 10: T1V2</title>"));
  assert_non_null(strstr(pb, "drawn transposed: row k, column n"));
  /* B's columns stand above C's (one cell width), A's rows beside C's. */
  assert_int_equal(first_cell_x(pb), first_cell_x(pc));
  assert_int_equal(first_fill_y(pa), first_fill_y(pc));
  assert_true(first_fill_y(pb) < first_fill_y(pc));
  /* A and C as they are side by side: the same cells. */
  cl_picture_options row = CL_PICTURE_OPTIONS_INIT;
  char *plain = render_panels(panels, 3, &row);
  for (int64_t k = 0; k < 128; k++) {
    if (k == 32)
      k = 64;
    char mine[256];
    snprintf(mine, sizeof mine, "%s", text_element(svg, k));
    assert_string_equal(mine, text_element(plain, k));
  }
  /* An older caller's options, which end before the arrangement, get the
   * row. */
  row.size = offsetof(cl_picture_options, arrangement);
  row.arrangement = CL_PANELS_MMA;
  char *old = render_panels(panels, 3, &row);
  assert_string_equal(old, plain);
  free(old);
  free(plain);
  free(svg);
  /* TikZ: B's scope above C's, A's beside it. */
  o.format = CL_PICTURE_TEX;
  char *tex = render_panels(panels, 3, &o);
  long x[3], y[3];
  const char *q = tex;
  for (int k = 0; k < 3; k++) {
    q = strstr(q, "\\begin{scope}[shift={(");
    assert_non_null(q);
    q += strlen("\\begin{scope}[shift={(");
    assert_int_equal(sscanf(q, "%ld,%ld", &x[k], &y[k]), 2);
  }
  assert_true(x[0] == 0 && y[1] == 0);
  assert_int_equal(x[1], x[2]);
  assert_int_equal(y[0], y[2]);
  assert_true(x[2] > 4 && y[2] > 4);
  free(tex);
  /* What an MMA figure is not. */
  char buf[16] = "unchanged";
  o.format = CL_PICTURE_SVG;
  assert_int_equal(cl_render_panels(panels, 2, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "three panels (A, B, C), not 2"));
  panels[1].tile_rows = panels[1].tile_cols = 0;
  assert_int_equal(cl_render_panels(panels, 3, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "panel 2 is not a TV tile"));
  panels[1] = (cl_picture_panel){b, NULL, "B", 4, 8, -1};
  assert_int_equal(cl_render_panels(panels, 3, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "not 8x4, 4x8 and 8x8"));
  o.arrangement = (cl_panel_arrangement)7;
  assert_int_equal(cl_render_panels(panels, 3, &o, buf, sizeof buf), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "unknown panel arrangement 7"));
  assert_string_equal(buf, "unchanged");
  /* Out of memory at each allocation, the transposed B's among them. */
  panels[1] = (cl_picture_panel){b, NULL, "B", 8, 4, -1};
  o.arrangement = CL_PANELS_MMA;
  budget bud = {0, 0, -1};
  cl_allocator hook = {budget_alloc, budget_realloc, budget_free, &bud};
  assert_int_equal(cl_set_allocator(&hook), CL_OK);
  assert_true(cl_render_panels(panels, 3, &o, NULL, 0) > 0);
  long needed = bud.total;
  for (long k = 0; k < needed; k++) {
    bud = (budget){0, 0, k};
    assert_int_equal(cl_render_panels(panels, 3, &o, NULL, 0), CL_E_NOMEM);
    assert_int_equal(bud.live, 0);
  }
  assert_int_equal(cl_set_allocator(NULL), CL_OK);
  cl_layout_free(a);
  cl_layout_free(b);
  cl_layout_free(c);
}

/* A figure of more than 16384 cells: every cell still one <text
 * class="cell"> with its label, the fills one stroked path per colour
 * whose class the <style> defines, no tooltips. */
static void test_compact_figure(void **state) {
  (void)state;
  cl_layout_t *tv = lay("(128,256):(1,128)"); /* T{m}V{n} at (m,n) */
  char *svg = render_tv(tv, 128, 256, CL_PICTURE_SVG);
  assert_int_equal(count_of(svg, CELL_TEXT), 128 * 256);
  assert_int_equal(count_of(svg, "<title>"), 1);
  assert_int_equal(count_of(svg, "<rect x="), 0);
  const char *p = svg;
  for (int64_t k = 0; k < 128 * 256; k++) {
    p = strstr(p, CELL_TEXT);
    const char *label = strchr(p, '>') + 1;
    char want[32];
    int w = snprintf(want, sizeof want, "T%lldV%lld</text>", (long long)(k / 256), (long long)(k % 256));
    if (strncmp(label, want, (size_t)w) != 0)
      fail_msg("cell %lld: %.20s, not %s", (long long)k, label, want);
    p = label;
  }
  /* 16 thread tints, one path each, each class defined. */
  assert_int_equal(count_of(svg, "<path class=\"c"), 16);
  for (const char *q = strstr(svg, "<path class=\"c"); q != NULL; q = strstr(q + 1, "<path class=\"c")) {
    char rule[32];
    snprintf(rule, sizeof rule, ".%.7s{stroke:#%.6s}", q + 13, q + 14);
    assert_non_null(strstr(svg, rule));
  }
  /* Thread 0 fills rows 0, 16, 32, ...: one stroke of 256 cells each. */
  assert_non_null(strstr(svg, "d=\"M0 0.5h256m-256 16h256"));
  assert_true(strlen(svg) < 48 * 128 * 256);
  free(svg);
  /* A grid by index: hundreds of colours, still one class each. */
  svg = render_layout(tv, CL_PICTURE_SVG, NULL);
  assert_int_equal(count_of(svg, CELL_TEXT), 128 * 256);
  int64_t paths = count_of(svg, "<path class=\"c");
  assert_true(paths > 100);
  assert_int_equal(count_of(svg, "{stroke:#"), paths);
  for (const char *q = strstr(svg, "<path class=\"c"); q != NULL; q = strstr(q + 1, "<path class=\"c")) {
    char rule[32];
    snprintf(rule, sizeof rule, ".%.7s{stroke:#%.6s}", q + 13, q + 14);
    assert_non_null(strstr(svg, rule));
  }
  free(svg);
  /* Out of memory at each allocation: a clean failure, nothing left. */
  budget b = {0, 0, -1};
  cl_allocator hook = {budget_alloc, budget_realloc, budget_free, &b};
  assert_int_equal(cl_set_allocator(&hook), CL_OK);
  assert_true(cl_render_tv(tv, 128, 256, NULL, NULL, 0) > 0);
  long needed = b.total;
  for (long k = 0; k < needed; k++) {
    b = (budget){0, 0, k};
    assert_int_equal(cl_render_tv(tv, 128, 256, NULL, NULL, 0), CL_E_NOMEM);
    assert_int_equal(b.live, 0);
  }
  assert_int_equal(cl_set_allocator(NULL), CL_OK);
  cl_layout_free(tv);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_cell_of_generated_layouts),
    cmocka_unit_test(test_tv_pictures),
    cmocka_unit_test(test_tv_shared_and_uncovered_cells),
    cmocka_unit_test(test_tile_lines),
    cmocka_unit_test(test_other_ranks),
    cmocka_unit_test(test_index_map_and_title),
    cmocka_unit_test(test_options_are_checked),
    cmocka_unit_test(test_lettering_is_text),
    cmocka_unit_test(test_bank_colours),
    cmocka_unit_test(test_tv_colour_schemes),
    cmocka_unit_test(test_colour_options_are_checked),
    cmocka_unit_test(test_composition_side_by_side),
    cmocka_unit_test(test_copy_side_by_side),
    cmocka_unit_test(test_panel_errors),
    cmocka_unit_test(test_snprintf_semantics),
    cmocka_unit_test(test_failing_stream),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_marks),
    cmocka_unit_test(test_allocation_failures),
    cmocka_unit_test(test_mma_arrangement),
    cmocka_unit_test(test_compact_figure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
