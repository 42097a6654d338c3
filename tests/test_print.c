/* SPDX-License-Identifier: BSD-3-Clause */
/* test_print.c: pictures of layouts (render.h): CuTe's print_layout table
 * character for character, print1D, snprintf-style buffers, and errors. */
#include "test_util.h"

/* Tables printed by CuTe's print_layout for the same layouts (static
 * integers, so without the '_' marks). */
static const struct {
  const char *layout, *table;
} tables[] = {
  {"(2,3):(3,1)",
   "(2,3):(3,1)\n"
   "      0   1   2 \n"
   "    +---+---+---+\n"
   " 0  | 0 | 1 | 2 |\n"
   "    +---+---+---+\n"
   " 1  | 3 | 4 | 5 |\n"
   "    +---+---+---+\n"},
  {"(2,(2,2)):(4,(2,1))",
   "(2,(2,2)):(4,(2,1))\n"
   "      0   1   2   3 \n"
   "    +---+---+---+---+\n"
   " 0  | 0 | 2 | 1 | 3 |\n"
   "    +---+---+---+---+\n"
   " 1  | 4 | 6 | 5 | 7 |\n"
   "    +---+---+---+---+\n"},
  {"((2,2),(2,2)):((1,4),(2,8))",
   "((2,2),(2,2)):((1,4),(2,8))\n"
   "       0    1    2    3 \n"
   "    +----+----+----+----+\n"
   " 0  |  0 |  2 |  8 | 10 |\n"
   "    +----+----+----+----+\n"
   " 1  |  1 |  3 |  9 | 11 |\n"
   "    +----+----+----+----+\n"
   " 2  |  4 |  6 | 12 | 14 |\n"
   "    +----+----+----+----+\n"
   " 3  |  5 |  7 | 13 | 15 |\n"
   "    +----+----+----+----+\n"},
  {"(4,2):(-1,4)",
   "(4,2):(-1,4)\n"
   "      0   1 \n"
   "    +---+---+\n"
   " 0  | 0 | 4 |\n"
   "    +---+---+\n"
   " 1  | -1 | 3 |\n"
   "    +---+---+\n"
   " 2  | -2 | 2 |\n"
   "    +---+---+\n"
   " 3  | -3 | 1 |\n"
   "    +---+---+\n"},
  {"(3,3):(-1,-3)",
   "(3,3):(-1,-3)\n"
   "      0   1   2 \n"
   "    +---+---+---+\n"
   " 0  | 0 | -3 | -6 |\n"
   "    +---+---+---+\n"
   " 1  | -1 | -4 | -7 |\n"
   "    +---+---+---+\n"
   " 2  | -2 | -5 | -8 |\n"
   "    +---+---+---+\n"},
  {"(1,1):(0,0)",
   "(1,1):(0,0)\n"
   "      0 \n"
   "    +---+\n"
   " 0  | 0 |\n"
   "    +---+\n"},
  {"(2,3):(100,1)",
   "(2,3):(100,1)\n"
   "        0     1     2 \n"
   "    +-----+-----+-----+\n"
   " 0  |   0 |   1 |   2 |\n"
   "    +-----+-----+-----+\n"
   " 1  | 100 | 101 | 102 |\n"
   "    +-----+-----+-----+\n"},
  {"(2,2):(99999,1)",
   "(2,2):(99999,1)\n"
   "           0        1 \n"
   "    +--------+--------+\n"
   " 0  |      0 |      1 |\n"
   "    +--------+--------+\n"
   " 1  |  99999 | 100000 |\n"
   "    +--------+--------+\n"},
  {"(11,11):(11,1)",
   "(11,11):(11,1)\n"
   "        0     1     2     3     4     5     6     7     8     9    10 \n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 0  |   0 |   1 |   2 |   3 |   4 |   5 |   6 |   7 |   8 |   9 |  10 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 1  |  11 |  12 |  13 |  14 |  15 |  16 |  17 |  18 |  19 |  20 |  21 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 2  |  22 |  23 |  24 |  25 |  26 |  27 |  28 |  29 |  30 |  31 |  32 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 3  |  33 |  34 |  35 |  36 |  37 |  38 |  39 |  40 |  41 |  42 |  43 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 4  |  44 |  45 |  46 |  47 |  48 |  49 |  50 |  51 |  52 |  53 |  54 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 5  |  55 |  56 |  57 |  58 |  59 |  60 |  61 |  62 |  63 |  64 |  65 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 6  |  66 |  67 |  68 |  69 |  70 |  71 |  72 |  73 |  74 |  75 |  76 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 7  |  77 |  78 |  79 |  80 |  81 |  82 |  83 |  84 |  85 |  86 |  87 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 8  |  88 |  89 |  90 |  91 |  92 |  93 |  94 |  95 |  96 |  97 |  98 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   " 9  |  99 | 100 | 101 | 102 | 103 | 104 | 105 | 106 | 107 | 108 | 109 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"
   "10  | 110 | 111 | 112 | 113 | 114 | 115 | 116 | 117 | 118 | 119 | 120 |\n"
   "    +-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+-----+\n"},
  {"(2,(3,0)):(1,(2,5))",
   "(2,(3,0)):(1,(2,5))\n"
   "    \n"
   "    +\n"
   " 0  |\n"
   "    +\n"
   " 1  |\n"
   "    +\n"},
  {"(0,3):(1,1)",
   "(0,3):(1,1)\n"
   "      0   1   2 \n"
   "    +---+---+---+\n"},
  {"(4,(2,3)):(-6,(-1,8))",
   "(4,(2,3)):(-6,(-1,8))\n"
   "       0    1    2    3    4    5 \n"
   "    +----+----+----+----+----+----+\n"
   " 0  |  0 | -1 |  8 |  7 | 16 | 15 |\n"
   "    +----+----+----+----+----+----+\n"
   " 1  | -6 | -7 |  2 |  1 | 10 |  9 |\n"
   "    +----+----+----+----+----+----+\n"
   " 2  | -12 | -13 | -4 | -5 |  4 |  3 |\n"
   "    +----+----+----+----+----+----+\n"
   " 3  | -18 | -19 | -10 | -11 | -2 | -3 |\n"
   "    +----+----+----+----+----+----+\n"},
  {"(3,(1,(2,2))):(1,(0,(3,6)))",
   "(3,(1,(2,2))):(1,(0,(3,6)))\n"
   "       0    1    2    3 \n"
   "    +----+----+----+----+\n"
   " 0  |  0 |  3 |  6 |  9 |\n"
   "    +----+----+----+----+\n"
   " 1  |  1 |  4 |  7 | 10 |\n"
   "    +----+----+----+----+\n"
   " 2  |  2 |  5 |  8 | 11 |\n"
   "    +----+----+----+----+\n"},
};

static const struct {
  const char *layout, *line;
} lines[] = {
  {"8:2", "0 2 4 6 8 10 12 14"},
  {"4:0", "0 0 0 0"},
  {"(2,(2,2)):(4,(2,1))", "0 4 2 6 1 5 3 7"},
  {"(4,2):(-1,4)", "0 -1 -2 -3 4 3 2 1"},
  {"(2,2,2,2):(0,2,4,1)", "0 0 2 2 4 4 6 6 1 1 3 3 5 5 7 7"},
  {"((2,2),3):((0,6),2)", "0 0 6 6 2 2 8 8 4 4 10 10"},
  {"(4,(2,3)):(-6,(-1,8))", "0 -6 -12 -18 -1 -7 -13 -19 8 2 -4 -10 7 1 -5 -11 16 10 4 -2 15 9 3 -3"},
  {"(1,1):(0,0)", "0"},
  {"(0,3):(1,1)", ""},
};

typedef int64_t (*printer)(const cl_layout_t *, char *, size_t);

/* The whole picture in a fresh malloc'ed string (sized by a first call). */
static char *picture(printer f, const cl_layout_t *l) {
  int64_t n = f(l, NULL, 0);
  assert_true(n >= 0);
  char *s = malloc((size_t)n + 1);
  assert_non_null(s);
  assert_int_equal(f(l, s, (size_t)n + 1), n);
  assert_int_equal(strlen(s), (size_t)n);
  return s;
}

static void test_print_layout_is_cutes_table(void **state) {
  (void)state;
  for (size_t i = 0; i < COUNT_OF(tables); i++) {
    cl_layout_t *l = lay(tables[i].layout);
    char *s = picture(cl_print_layout, l);
    if (strcmp(s, tables[i].table) != 0)
      fail_msg("print_layout(%s):\n%s\nCuTe:\n%s", tables[i].layout, s, tables[i].table);
    free(s);
    cl_layout_free(l);
  }
}

static void test_print1d(void **state) {
  (void)state;
  for (size_t i = 0; i < COUNT_OF(lines); i++) {
    cl_layout_t *l = lay(lines[i].layout);
    char *s = picture(cl_print_1d, l);
    assert_string_equal(s, lines[i].line);
    free(s);
    cl_layout_free(l);
  }
}

/* Both printers write at most cap bytes, always NUL-terminated, and return
 * the length of the whole text whatever cap is. */
static void test_snprintf_contract(void **state) {
  (void)state;
  cl_layout_t *l = lay("(2,3):(3,1)");
  printer printers[] = {cl_print_layout, cl_print_1d};
  for (int p = 0; p < 2; p++) {
    char *full = picture(printers[p], l);
    int64_t n = (int64_t)strlen(full);
    for (size_t cap = 1; cap <= (size_t)n + 2; cap++) {
      char buf[256];
      memset(buf, '#', sizeof buf);
      assert_int_equal(printers[p](l, buf, cap), n);
      size_t kept = cap - 1 < (size_t)n ? cap - 1 : (size_t)n;
      assert_memory_equal(buf, full, kept);
      assert_int_equal(buf[kept], '\0');
      assert_int_equal(buf[cap], '#');
    }
    free(full);
  }
  cl_layout_free(l);
}

static void test_errors(void **state) {
  (void)state;
  char buf[64];
  static const char *const not_rank2[] = {"8:1", "(8):(1)", "(2,3,4):(1,2,6)", "():()", "((2,3)):((1,2))"};
  for (size_t i = 0; i < COUNT_OF(not_rank2); i++) {
    cl_layout_t *l = lay(not_rank2[i]);
    assert_int_equal(cl_print_layout(l, buf, sizeof buf), CL_E_RANK);
    assert_non_null(strstr(cl_last_error(), "rank 2"));
    cl_layout_free(l);
  }
  cl_layout_t *l = lay("(2,3):(1,2)"), *empty = lay("(2,(3,())):(1,(2,()))");
  cl_layout_t *far = lay("(2,2):(9223372036854775807,1)");
  assert_int_equal(cl_print_layout(NULL, buf, sizeof buf), CL_E_NULL);
  assert_int_equal(cl_print_1d(NULL, buf, sizeof buf), CL_E_NULL);
  assert_int_equal(cl_print_layout(l, NULL, 8), CL_E_NULL);
  assert_int_equal(cl_print_1d(l, NULL, 8), CL_E_NULL);
  assert_int_equal(cl_print_layout(empty, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_print_1d(empty, buf, sizeof buf), CL_E_DOMAIN);
  assert_int_equal(cl_print_1d(far, buf, sizeof buf), CL_E_OVERFLOW);
  assert_int_equal(cl_print_layout(far, buf, sizeof buf), CL_E_OVERFLOW);
  cl_layout_free(l);
  cl_layout_free(empty);
  cl_layout_free(far);
}

/* Pictures have a documented size limit, CL_PICTURE_MAX_CELLS entries and as
 * many per axis: beyond it CL_E_LIMIT at once (a layout of 2^40 or 2^62
 * elements used to be printed element by element, for hours), up to it the
 * whole picture; an entry that overflows fails before anything is written. */
static void test_limits(void **state) {
  (void)state;
  char buf[64];
  static const char *const too_big_1d[] = {"1048577:1", "1099511627776:1", "(4611686018427387904,1):(0,1)",
                                           "(2,(1024,1024)):(0,(1,1024))"};
  for (size_t i = 0; i < COUNT_OF(too_big_1d); i++) {
    cl_layout_t *l = lay(too_big_1d[i]);
    assert_int_equal(cl_print_1d(l, buf, sizeof buf), CL_E_LIMIT);
    assert_non_null(strstr(cl_last_error(), "more than the 1048576 a picture shows"));
    cl_layout_free(l);
  }
  /* print_layout: the whole table, and each axis (an empty axis still has
   * its header or its row numbers). */
  static const char *const too_big_2d[] = {"(1048576,1048576):(1,1048576)", "(1024,1025):(1,1024)",
                                           "(0,4611686018427387904):(1,1)", "(4611686018427387904,0):(1,1)",
                                           "(1048577,0):(1,1)", "(3037000500,3037000500):(1,3037000500)"};
  for (size_t i = 0; i < COUNT_OF(too_big_2d); i++) {
    cl_layout_t *l = lay(too_big_2d[i]);
    assert_int_equal(cl_print_layout(l, buf, sizeof buf), CL_E_LIMIT);
    assert_non_null(strstr(cl_last_error(), "print_layout: the layout has"));
    cl_layout_free(l);
  }
  /* Exactly at the limit: still printed. */
  cl_layout_t *most = lay("1048576:1"), *square = lay("(1024,1024):(1024,1)");
  assert_true(cl_print_1d(most, NULL, 0) > 1048576 * 2);
  assert_true(cl_print_layout(square, NULL, 0) > 1048576 * 4);
  cl_layout_free(most);
  cl_layout_free(square);
  /* The largest indices print exactly; one more overflows without a partial
   * list in the buffer. */
  cl_layout_t *top = lay("2:9223372036854775807"), *bottom = lay("(2,2):(1,-9223372036854775807)");
  assert_int_equal(cl_print_1d(top, buf, sizeof buf), 21);
  assert_string_equal(buf, "0 9223372036854775807");
  assert_int_equal(cl_print_1d(bottom, buf, sizeof buf), 45);
  assert_string_equal(buf, "0 1 -9223372036854775807 -9223372036854775806");
  cl_layout_free(top);
  cl_layout_free(bottom);
  cl_layout_t *past = lay("(2,2):(1,9223372036854775807)");
  memcpy(buf, "unchanged", 10);
  assert_int_equal(cl_print_1d(past, buf, sizeof buf), CL_E_OVERFLOW);
  assert_string_equal(buf, "unchanged");
  assert_int_equal(cl_print_layout(past, buf, sizeof buf), CL_E_OVERFLOW); /* its cosize, as CuTe's width */
  assert_string_equal(buf, "unchanged");
  cl_layout_free(past);
}

/* Reads the integers of one table row " m  | a | b | ... |". */
static int row_values(const char *line, int64_t *out, int max) {
  int n = 0;
  for (const char *c = strchr(line, '|'); c != NULL && c[1] != '\n' && c[1] != '\0' && n < max; c = strchr(c + 1, '|'))
    out[n++] = strtoll(c + 1, NULL, 10);
  return n;
}

typedef struct {
  int layouts;
} stats;

/* For every rank-2 layout: cell (m, n) of the table is L(m, n), the column
 * header counts 0..N-1, each row is numbered, and print1D lists L(0..size-1). */
static void check_pictures(const char *text, void *ctx) {
  stats *st = ctx;
  cl_layout_t *l = lay(text);
  char *one = picture(cl_print_1d, l);
  const char *c = one;
  for (int64_t i = 0; i < cl_layout_size(l); i++) {
    int64_t want = 0;
    char *end;
    assert_int_equal(cl_layout_eval(l, i, &want), CL_OK);
    assert_int_equal(strtoll(c, &end, 10), want);
    c = end;
  }
  assert_int_equal(*c, '\0');
  free(one);
  if (cl_layout_rank(l) == 2) {
    char *table = picture(cl_print_layout, l);
    cl_layout_t *m0 = NULL, *m1 = NULL;
    int64_t zero = 0, one_ = 1;
    assert_int_equal(cl_layout_get(l, &zero, 1, &m0), CL_OK);
    assert_int_equal(cl_layout_get(l, &one_, 1, &m1), CL_OK);
    int64_t rows = cl_layout_size(m0), cols = cl_layout_size(m1);
    assert_true(strncmp(table, text, strlen(text)) == 0);
    const char *line = strchr(table, '\n') + 1; /* the column numbers */
    line = strchr(line, '\n') + 1;
    for (int64_t m = 0; m < rows; m++) {
      line = strchr(line, '\n') + 1; /* the rule */
      assert_int_equal(strtoll(line, NULL, 10), m);
      int64_t cells[16];
      assert_int_equal(row_values(line, cells, 16), cols);
      for (int64_t n = 0; n < cols; n++) {
        char crd[64];
        snprintf(crd, sizeof crd, "(%lld,%lld)", (long long)m, (long long)n);
        cl_tuple_t *t = tup(crd);
        int64_t want = 0;
        assert_int_equal(cl_layout_eval_coord(l, t, &want), CL_OK);
        assert_int_equal(cells[n], want);
        cl_tuple_free(t);
      }
      line = strchr(line, '\n') + 1;
    }
    cl_layout_free(m0);
    cl_layout_free(m1);
    free(table);
  }
  cl_layout_free(l);
  st->layouts++;
}

static void test_picture_properties(void **state) {
  (void)state;
  static const int extents[] = {1, 2, 3};
  static const int strides[] = {0, 1, -4, 11};
  stats st = {0};
  for_each_small_layout(extents, 3, strides, 4, check_pictures, &st);
  assert_true(st.layouts > 5000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_print_layout_is_cutes_table),
    cmocka_unit_test(test_print1d),
    cmocka_unit_test(test_snprintf_contract),
    cmocka_unit_test(test_errors),
    cmocka_unit_test(test_limits),
    cmocka_unit_test(test_picture_properties),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
