/* SPDX-License-Identifier: BSD-3-Clause */
/* test_render.c: the pictures of render.h (cl_render_layout, cl_render_tv).
 *
 * Properties, checked on every layout of a generated family: the SVG has
 * exactly one <text> per cell (CONTRACT.md) in row-major order, and the
 * text of cell (m,n) is L(m,n) computed independently with
 * cl_layout_eval_coord; the TikZ document has a node with that label at
 * that cell; the console table of a rank-2 layout is print_layout's.  TV
 * pictures label each cell with the first (thr,val) that reaches it.  Then
 * tile lines, rank 0/1/3 pictures, the index map, snprintf semantics,
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

static int64_t count_of(const char *s, const char *needle) {
  int64_t n = 0;
  for (const char *p = strstr(s, needle); p != NULL; p = strstr(p + 1, needle))
    n++;
  return n;
}

/* The character data of the k-th <text> element (markup of children such as
 * <tspan> left out), in a static buffer; NULL if there is none. */
static const char *text_element(const char *svg, int64_t k) {
  static char label[256];
  const char *p = svg;
  for (int64_t i = 0; i <= k; i++) {
    p = strstr(p, "<text");
    if (p == NULL)
      return NULL;
    p += 5;
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
  assert_int_equal(count_of(svg, "<text"), rows * cols);
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
  assert_int_equal(count_of(svg, "<text"), rows * cols);
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
  assert_int_equal(count_of(svg, "<text"), 8);
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
  assert_int_equal(count_of(svg, "<text"), 24);
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
  assert_int_equal(count_of(svg, "<text"), 1);
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
  assert_int_equal(count_of(svg, "<text"), 5);
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
  assert_int_equal(cl_render_tv(huge, 1, 1, NULL, buf, sizeof buf), CL_E_LIMIT);
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
  /* Negative extents have no picture; empty ones have an empty grid. */
  cl_layout_t *odd = lay("(-2,3):(1,2)");
  assert_int_equal(cl_render_layout(odd, NULL, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_render_tv(odd, 2, 2, NULL, buf, sizeof buf), CL_E_DOMAIN);
  cl_layout_free(odd);
  odd = lay("((2,0),3):((1,2),4)");
  char *svg = render_layout(odd, CL_PICTURE_SVG, NULL);
  assert_int_equal(count_of(svg, "<text"), 0);
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

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_every_cell_of_generated_layouts),
    cmocka_unit_test(test_tv_pictures),
    cmocka_unit_test(test_tv_shared_and_uncovered_cells),
    cmocka_unit_test(test_tile_lines),
    cmocka_unit_test(test_other_ranks),
    cmocka_unit_test(test_index_map_and_title),
    cmocka_unit_test(test_options_are_checked),
    cmocka_unit_test(test_snprintf_semantics),
    cmocka_unit_test(test_failing_stream),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
