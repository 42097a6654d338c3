/* test_tuple.c: IntTuples: text round trips, int_tuple.hpp operations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <cutelayout/cutelayout.h>

static cl_tuple_t *parse(const char *text) {
  cl_tuple_t *t = NULL;
  assert_int_equal(cl_tuple_parse(text, &t), CL_OK);
  return t;
}

static void assert_text(const cl_tuple_t *t, const char *expected) {
  char buf[256];
  assert_int_equal(cl_tuple_format(t, buf, sizeof buf), (int64_t)strlen(expected));
  assert_string_equal(buf, expected);
}

static void test_round_trip(void **state) {
  (void)state;
  const char *texts[] = {"8", "-3", "()", "(8)", "(2,(3,4))", "((1,_),2)", "(2:3,(2,3):(1,8))", "((2,3):(1,8),5)"};
  for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
    cl_tuple_t *t = parse(texts[i]);
    assert_text(t, texts[i]);
    cl_tuple_free(t);
  }
}

static void test_shape_div(void **state) {
  (void)state;
  cl_tuple_t *a = parse("(4,5,6)"), *b = parse("40"), *r = NULL;
  assert_int_equal(cl_tuple_shape_div(a, b, &r), CL_OK);
  assert_text(r, "(1,1,3)");
  cl_tuple_free(r);
  cl_tuple_free(a);
  cl_tuple_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_round_trip),
    cmocka_unit_test(test_shape_div),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
