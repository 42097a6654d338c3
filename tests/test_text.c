/* SPDX-License-Identifier: BSD-3-Clause */
/* test_text.c: the canonical text form (CONTRACT.md): parsing, formatting,
 * round trips, white space, error columns and limits. */
#include "test_util.h"

static void assert_parse_error(const char *text, cl_status status, const char *message_part) {
  cl_tuple_t *t = (cl_tuple_t *)1;
  cl_status s = cl_tuple_parse(text, &t);
  if (s != status)
    fail_msg("cl_tuple_parse(\"%s\") = %d, expected %d", text, s, status);
  assert_null(t);
  if (strstr(cl_last_error(), message_part) == NULL)
    fail_msg("cl_tuple_parse(\"%s\"): message \"%s\" lacks \"%s\"", text, cl_last_error(), message_part);
}

static void test_tuple_round_trip(void **state) {
  (void)state;
  static const char *const texts[] = {
    "0", "8", "-3", "9223372036854775807", "-9223372036854775808", "_", "()", "(8)", "((8))", "(())", "((),())",
    "(2,(3,4))", "((1,_),2)", "(_,_)", "(2:3,(2,3):(1,8))", "((2,3):(1,8),5)", "8:1", "(8):(1)", "():()",
    "(2,(2,2)):(4,(2,1))", "(1,(0,7)):(0,(-1,-2))", "(1,2,3,4,5,6,7,8,9,10)", "(((((((((1)))))))))",
  };
  for (size_t i = 0; i < COUNT_OF(texts); i++) {
    cl_tuple_t *t = tup(texts[i]);
    assert_tuple_is(t, texts[i]);
    char *s = NULL;
    assert_int_equal(cl_tuple_to_string(t, &s), CL_OK);
    assert_string_equal(s, texts[i]);
    cl_string_free(s);
    cl_tuple_free(t);
  }
}

static void test_layout_round_trip(void **state) {
  (void)state;
  static const char *const texts[] = {
    "8:1", "1:0", "4:-2", "():()", "(8):(1)", "((8)):((1))", "(2,(2,2)):(4,(2,1))", "((2,2),(2,2)):((1,4),(2,8))",
    "(4,2):(-1,4)", "(((),2)):(((),1))",
  };
  for (size_t i = 0; i < COUNT_OF(texts); i++) {
    cl_layout_t *l = lay(texts[i]);
    assert_layout_is(l, texts[i]);
    char *s = NULL;
    assert_int_equal(cl_layout_to_string(l, &s), CL_OK);
    assert_string_equal(s, texts[i]);
    cl_string_free(s);
    cl_layout_free(l);
  }
}

static void test_white_space(void **state) {
  (void)state;
  static const char *const pairs[][2] = {
    {" 8 ", "8"},
    {"\t(\n2 ,\r( 3 , 4 ) )\n", "(2,(3,4))"},
    {" ( 2 , 3 ) : ( 1 , 2 ) ", "(2,3):(1,2)"},
    {"( )", "()"},
    {"( _ , 1 )", "(_,1)"},
    {"(2 :3, 4)", "(2:3,4)"},
    {"-0", "0"},
    {"007", "7"},
  };
  for (size_t i = 0; i < COUNT_OF(pairs); i++) {
    cl_tuple_t *t = tup(pairs[i][0]);
    assert_tuple_is(t, pairs[i][1]);
    cl_tuple_free(t);
  }
  cl_layout_t *l = lay("  ( 2 , ( 2 , 2 ) ) :\n( 4 , ( 2 , 1 ) )  ");
  assert_layout_is(l, "(2,(2,2)):(4,(2,1))");
  cl_layout_free(l);
}

static void test_parse_errors_name_the_column(void **state) {
  (void)state;
  assert_parse_error("", CL_E_PARSE, "column 1: expected an integer, '_' or '(', found the end");
  assert_parse_error("   ", CL_E_PARSE, "column 4:");
  assert_parse_error("(1,2", CL_E_PARSE, "column 5: expected ',' or ')'");
  assert_parse_error("(1,,2)", CL_E_PARSE, "column 4:");
  assert_parse_error("(1 2)", CL_E_PARSE, "column 4: expected ',' or ')', found '2'");
  assert_parse_error("(1,2))", CL_E_PARSE, "column 6: expected the end of the text");
  assert_parse_error("2:", CL_E_PARSE, "column 3:");
  assert_parse_error("abc", CL_E_PARSE, "column 1:");
  assert_parse_error("-", CL_E_PARSE, "column 2: expected a digit");
  assert_parse_error("- 3", CL_E_PARSE, "column 2: expected a digit");
  assert_parse_error("+3", CL_E_PARSE, "column 1:");
  assert_parse_error("(1,2,)", CL_E_PARSE, "column 6:");
  assert_parse_error("(,)", CL_E_PARSE, "column 2:");
  assert_parse_error("1.5", CL_E_PARSE, "column 2:");
  assert_parse_error("(1;2)", CL_E_PARSE, "column 3: expected ',' or ')', found ';'");
  assert_parse_error("(1,\x01)", CL_E_PARSE, "column 4: expected an integer, '_' or '(', found byte 0x01");
  assert_parse_error("2:3:4", CL_E_PARSE, "column 4:");
  assert_parse_error("(2,3):(1)", CL_E_PARSE, "column 7: the stride is not congruent");
  assert_parse_error("(2,3):((1,1),2)", CL_E_PARSE, "not congruent");
  assert_parse_error("(2,_):(1,2)", CL_E_PARSE, "column 1: a layout's shape holds integers only, its stride integers and scaled bases");
  assert_parse_error("(1,(2:1):(1))", CL_E_PARSE, "integers only");
  assert_parse_error("8:_", CL_E_PARSE, "integers only");
}

/* CuTe's scaled bases: k@i@j is E<j,i> * k, printed innermost index first,
 * so that text and path are each other's reverse. */
static void test_scaled_bases(void **state) {
  (void)state;
  static const char *const texts[] = {
    "1@0", "3@1", "0@2", "-2@0", "1@0@1", "1@1@0@2", "(1@0,1@1)", "(1@0,(2,0@1))", "(4,8):(1@0,1@1)",
    "((2,2),(4,2)):((1@0,2@0),(1@1,4@1))", "(4,8):(1@0,16)", "((2,2),4):((1@0@0,1@1@0),1@1)",
    "9223372036854775807@4095", "-9223372036854775808@0",
  };
  for (size_t i = 0; i < COUNT_OF(texts); i++) {
    cl_tuple_t *t = tup(texts[i]);
    assert_tuple_is(t, texts[i]);
    cl_tuple_free(t);
  }
  cl_tuple_t *t = tup(" 2 @ 0 @\t1 ");
  assert_tuple_is(t, "2@0@1");
  assert_int_equal(cl_tuple_kind(t), CL_KIND_BASIS);
  int64_t scale = 0, path[4] = {0}, n = 0;
  assert_int_equal(cl_tuple_basis_parts(t, &scale, path, 4, &n), CL_OK);
  assert_int_equal(scale, 2);
  assert_int_equal(n, 2);
  assert_int_equal(path[0], 1); /* E<1,0>: get<1> first */
  assert_int_equal(path[1], 0);
  cl_tuple_free(t);
  cl_layout_t *l = lay("(4, 8) : (1@0, 1 @ 1)");
  assert_layout_is(l, "(4,8):(1@0,1@1)");
  cl_layout_free(l);
  assert_parse_error("1@", CL_E_PARSE, "column 3: expected a basis index");
  assert_parse_error("1@-1", CL_E_PARSE, "column 3: expected a basis index (a non-negative integer), found '-'");
  assert_parse_error("1@x", CL_E_PARSE, "column 3:");
  assert_parse_error("_@1", CL_E_PARSE, "column 2: expected the end of the text");
  assert_parse_error("(1@0,2):(1,1)", CL_E_PARSE, "column 1: a layout's shape holds integers only");
  assert_parse_error("1@4096", CL_E_LIMIT, "column 3: a scaled basis has at most 64 indices, each below 4096");
  assert_parse_error("1@0@99999999999999999999", CL_E_OVERFLOW, "column 5: integer does not fit");
  char deep[4 + 2 * 65 + 1] = "1";
  for (int k = 0; k < 65; k++)
    strcat(deep, "@0");
  assert_parse_error(deep, CL_E_LIMIT, "column 131: a scaled basis has at most 64 indices");
  deep[strlen(deep) - 2] = '\0'; /* 64 indices is the most */
  t = tup(deep);
  assert_tuple_is(t, deep);
  cl_tuple_free(t);
}

static void test_integer_limits(void **state) {
  (void)state;
  cl_tuple_t *t = tup("(9223372036854775807,-9223372036854775808)");
  assert_tuple_is(t, "(9223372036854775807,-9223372036854775808)");
  cl_tuple_free(t);
  assert_parse_error("9223372036854775808", CL_E_OVERFLOW, "column 1: integer does not fit in 64 bits");
  assert_parse_error("(1, -9223372036854775809)", CL_E_OVERFLOW, "column 5:");
  assert_parse_error("(1,99999999999999999999999999)", CL_E_OVERFLOW, "column 4:");
}

/* Builds n nested parentheses around 1. */
static char *nested(int n) {
  char *s = malloc((size_t)(2 * n + 2));
  assert_non_null(s);
  memset(s, '(', (size_t)n);
  s[n] = '1';
  memset(s + n + 1, ')', (size_t)n);
  s[2 * n + 1] = '\0';
  return s;
}

static void test_depth_limit(void **state) {
  (void)state;
  char *ok = nested(CL_MAX_DEPTH), *deep = nested(CL_MAX_DEPTH + 1), *very_deep = nested(100000);
  cl_tuple_t *t = tup(ok);
  assert_int_equal(cl_tuple_depth(t), CL_MAX_DEPTH);
  assert_tuple_is(t, ok);
  cl_tuple_free(t);
  assert_parse_error(deep, CL_E_LIMIT, "nesting deeper than 64 levels");
  assert_parse_error(very_deep, CL_E_LIMIT, "column 65:");
  free(ok);
  free(deep);
  free(very_deep);
}

/* Hostile text of a hundred megabytes' kind, through both parsers: an error
 * naming the limit or the column, found without reading (or building) the
 * rest.  A tuple of millions of elements used to be built whole before its
 * rank was checked. */
static void test_huge_text(void **state) {
  (void)state;
  size_t n = 1000000;
  char *text = malloc(4 * n + 16);
  assert_non_null(text);
  cl_layout_t *l = (cl_layout_t *)1;
  /* A million nested parentheses, as a tuple and as a layout's stride. */
  memset(text, '(', n);
  text[n] = '\0';
  assert_parse_error(text, CL_E_LIMIT, "column 65: nesting deeper than 64 levels");
  memcpy(text, "8:", 2);
  assert_int_equal(cl_layout_parse(text, &l), CL_E_LIMIT);
  assert_null(l);
  /* (1,1,...,1) with a million elements, wrapped or not in a layout. */
  size_t len = 0;
  text[len++] = '(';
  for (size_t i = 0; i < n; i++) {
    text[len++] = '1';
    text[len++] = ',';
  }
  text[len - 1] = ')';
  text[len] = '\0';
  assert_parse_error(text, CL_E_LIMIT, "column 8194: a tuple of more than 4096 elements");
  memcpy(text + len, ":1", 3);
  assert_int_equal(cl_layout_parse(text, &l), CL_E_LIMIT);
  assert_null(l);
  /* A million digits, and a million spaces before a value. */
  memset(text, '9', n);
  text[n] = '\0';
  assert_parse_error(text, CL_E_OVERFLOW, "column 1: integer does not fit in 64 bits");
  memset(text, ' ', n);
  memcpy(text + n, "(1,", 4);
  assert_parse_error(text, CL_E_PARSE, "column 1000004: expected an integer");
  free(text);
}

static void test_rank_limit(void **state) {
  (void)state;
  size_t cap = 4 * (CL_MAX_RANK + 2);
  char *text = malloc(cap);
  assert_non_null(text);
  size_t len = 0;
  text[len++] = '(';
  for (int i = 0; i < CL_MAX_RANK; i++) {
    text[len++] = i ? ',' : ' ';
    text[len++] = '7';
  }
  text[len++] = ')';
  text[len] = '\0';
  cl_tuple_t *t = tup(text);
  assert_int_equal(cl_tuple_rank(t), CL_MAX_RANK);
  cl_tuple_free(t);
  memcpy(text + len - 1, ",7)", 4);
  assert_parse_error(text, CL_E_LIMIT, "at most 4096");
  free(text);
}

static void test_layout_parse(void **state) {
  (void)state;
  cl_layout_t *l = (cl_layout_t *)1;
  assert_int_equal(cl_layout_parse("8", &l), CL_E_PARSE);
  assert_null(l);
  assert_non_null(strstr(cl_last_error(), "column 2: expected ':' and a stride"));
  assert_int_equal(cl_layout_parse("(2:1,3)", &l), CL_E_PARSE);
  assert_null(l);
  assert_int_equal(cl_layout_parse("(2,3):(1", &l), CL_E_PARSE);
  assert_non_null(strstr(cl_last_error(), "column 9"));
  assert_int_equal(cl_layout_parse("(2,3):(1,2) x", &l), CL_E_PARSE);
  assert_non_null(strstr(cl_last_error(), "column 13"));
  /* A layout held by a tuple parse is a layout leaf. */
  cl_tuple_t *t = tup("(2,3):(1,2)");
  assert_int_equal(cl_tuple_kind(t), CL_KIND_LAYOUT);
  cl_tuple_free(t);
}

static void test_format_is_snprintf_like(void **state) {
  (void)state;
  cl_tuple_t *t = tup("(2,(3,4))");
  cl_layout_t *l = lay("(2,3):(1,2)");
  assert_int_equal(cl_tuple_format(t, NULL, 0), 9);
  assert_int_equal(cl_layout_format(l, NULL, 0), 11);
  char buf[16];
  memset(buf, 'x', sizeof buf);
  assert_int_equal(cl_tuple_format(t, buf, 5), 9);
  assert_string_equal(buf, "(2,(");
  assert_int_equal(buf[5], 'x');
  assert_int_equal(cl_tuple_format(t, buf, 1), 9);
  assert_string_equal(buf, "");
  assert_int_equal(cl_tuple_format(t, buf, 10), 9);
  assert_string_equal(buf, "(2,(3,4))");
  assert_int_equal(cl_layout_format(l, buf, 11), 11);
  assert_string_equal(buf, "(2,3):(1,2");
  assert_int_equal(cl_layout_format(l, buf, sizeof buf), 11);
  assert_string_equal(buf, "(2,3):(1,2)");
  cl_tuple_free(t);
  cl_layout_free(l);
}

static void test_null_arguments(void **state) {
  (void)state;
  cl_tuple_t *t = (cl_tuple_t *)1;
  cl_layout_t *l = (cl_layout_t *)1;
  char *s = (char *)1, buf[8];
  assert_int_equal(cl_tuple_parse(NULL, &t), CL_E_NULL);
  assert_null(t);
  assert_int_equal(cl_tuple_parse("1", NULL), CL_E_NULL);
  assert_int_equal(cl_layout_parse(NULL, &l), CL_E_NULL);
  assert_null(l);
  assert_int_equal(cl_layout_parse("1:1", NULL), CL_E_NULL);
  assert_int_equal(cl_tuple_format(NULL, buf, sizeof buf), CL_E_NULL);
  assert_int_equal(cl_layout_format(NULL, buf, sizeof buf), CL_E_NULL);
  cl_tuple_t *x = tup("(1,2)");
  cl_layout_t *y = lay("1:2");
  assert_int_equal(cl_tuple_format(x, NULL, 4), CL_E_NULL);
  assert_int_equal(cl_layout_format(y, NULL, 4), CL_E_NULL);
  assert_int_equal(cl_tuple_to_string(NULL, &s), CL_E_NULL);
  assert_null(s);
  assert_int_equal(cl_tuple_to_string(x, NULL), CL_E_NULL);
  s = (char *)1;
  assert_int_equal(cl_layout_to_string(NULL, &s), CL_E_NULL);
  assert_null(s);
  assert_int_equal(cl_layout_to_string(y, NULL), CL_E_NULL);
  cl_string_free(NULL);
  cl_tuple_free(x);
  cl_layout_free(y);
}

/* Random short texts over the grammar's alphabet: every one either parses
 * (and then formats to a text that parses back to the same value) or fails
 * with CL_E_PARSE/CL_E_OVERFLOW and a column in the message. */
static void test_random_texts(void **state) {
  (void)state;
  static const char alphabet[] = "()(),,::_-0123456789   ";
  uint64_t seed = 0x9e3779b97f4a7c15u;
  int parsed = 0;
  for (int iter = 0; iter < 200000; iter++) {
    char text[16];
    seed = seed * 6364136223846793005u + 1442695040888963407u;
    int len = (int)((seed >> 33) % 14);
    for (int k = 0; k < len; k++) {
      seed = seed * 6364136223846793005u + 1442695040888963407u;
      text[k] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
    }
    text[len] = '\0';
    cl_tuple_t *t = NULL;
    cl_status s = cl_tuple_parse(text, &t);
    if (s == CL_OK) {
      parsed++;
      char *canonical = NULL;
      assert_int_equal(cl_tuple_to_string(t, &canonical), CL_OK);
      cl_tuple_t *again = tup(canonical);
      assert_true(cl_tuple_equal(t, again));
      assert_tuple_is(again, canonical);
      cl_string_free(canonical);
      cl_tuple_free(again);
      cl_tuple_free(t);
    } else {
      assert_null(t);
      assert_true(s == CL_E_PARSE || s == CL_E_OVERFLOW || s == CL_E_DOMAIN); /* DOMAIN: a negative extent */
      assert_non_null(strstr(cl_last_error(), "column "));
    }
  }
  assert_true(parsed > 1000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_tuple_round_trip),
    cmocka_unit_test(test_huge_text),
    cmocka_unit_test(test_layout_round_trip),
    cmocka_unit_test(test_white_space),
    cmocka_unit_test(test_parse_errors_name_the_column),
    cmocka_unit_test(test_scaled_bases),
    cmocka_unit_test(test_integer_limits),
    cmocka_unit_test(test_depth_limit),
    cmocka_unit_test(test_rank_limit),
    cmocka_unit_test(test_layout_parse),
    cmocka_unit_test(test_format_is_snprintf_like),
    cmocka_unit_test(test_null_arguments),
    cmocka_unit_test(test_random_texts),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
