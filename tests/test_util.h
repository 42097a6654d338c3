/* SPDX-License-Identifier: BSD-3-Clause */
/* test_util.h: helpers shared by the cmocka tests: values from text, and
 * checks that compare results with their canonical text.
 *
 * Every helper asserts, so a test reads as a list of facts:
 *   expect_tuple2(cl_tuple_shape_div, "(4,5,6)", "40", "(1,1,3)");
 *   expect_tuple2_fails(cl_tuple_shape_div, "3", "2", CL_E_DIVISIBILITY);
 * Included by exactly one .c file per test program. */
#ifndef CUTELAYOUT_TEST_UTIL_H
#define CUTELAYOUT_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cutelayout/cutelayout.h>

#define COUNT_OF(a) (sizeof(a) / sizeof *(a))

static inline cl_tuple_t *tup(const char *text) {
  cl_tuple_t *t = NULL;
  cl_status s = cl_tuple_parse(text, &t);
  if (s != CL_OK)
    fail_msg("cl_tuple_parse(\"%s\") = %d: %s", text, s, cl_last_error());
  return t;
}

static inline cl_layout_t *lay(const char *text) {
  cl_layout_t *l = NULL;
  cl_status s = cl_layout_parse(text, &l);
  if (s != CL_OK)
    fail_msg("cl_layout_parse(\"%s\") = %d: %s", text, s, cl_last_error());
  return l;
}

/* A small deterministic generator (xorshift64*), so that failures
 * reproduce across platforms. */
static inline uint64_t rnd(void) {
  static uint64_t state = 0x9e3779b97f4a7c15ull;
  state ^= state >> 12;
  state ^= state << 25;
  state ^= state >> 27;
  return state * 2685821657736338717ull;
}
static inline int64_t rnd_below(int64_t n) { return (int64_t)(rnd() % (uint64_t)n); }

/* A tensor view of data over a layout given as text: typed (elem 0), or
 * untyped elements of elem bytes (dtype CL_DTYPE_NONE). */
static inline cl_tensor_t *tensor_of(void *data, size_t elem, cl_dtype dtype, const char *layout) {
  cl_layout_t *l = lay(layout);
  cl_tensor_t *t = NULL;
  cl_tensor_desc desc = {sizeof desc, data, elem, dtype, NULL, 0};
  cl_status s = cl_tensor_create(&desc, l, &t);
  if (s != CL_OK)
    fail_msg("cl_tensor_create(%s) = %d: %s", layout, s, cl_last_error());
  cl_layout_free(l);
  return t;
}
static inline cl_tensor_t *tensor(void *data, cl_dtype dtype, const char *layout) {
  return tensor_of(data, 0, dtype, layout);
}
static inline cl_tensor_t *raw_tensor(void *data, size_t elem, const char *layout) {
  return tensor_of(data, elem, CL_DTYPE_NONE, layout);
}

/* Helpers kept out of line, so that the compiler does not see the size of
 * their static buffers at every caller (-Wformat-truncation). */
#if defined(__GNUC__)
#define TEST_UTIL_OUT_OF_LINE __attribute__((noinline, unused))
#else
#define TEST_UTIL_OUT_OF_LINE
#endif

/* The canonical text of a value, in a static buffer (valid until the next call). */
TEST_UTIL_OUT_OF_LINE static const char *tuple_text(const cl_tuple_t *t) {
  static char buf[4096];
  int64_t n = cl_tuple_format(t, buf, sizeof buf);
  assert_true(n >= 0 && (size_t)n < sizeof buf);
  return buf;
}

TEST_UTIL_OUT_OF_LINE static const char *layout_text(const cl_layout_t *l) {
  static char buf[4096];
  int64_t n = cl_layout_format(l, buf, sizeof buf);
  assert_true(n >= 0 && (size_t)n < sizeof buf);
  return buf;
}

static inline void assert_tuple_is(const cl_tuple_t *t, const char *expected) {
  assert_non_null(t);
  assert_string_equal(tuple_text(t), expected);
}

static inline void assert_layout_is(const cl_layout_t *l, const char *expected) {
  assert_non_null(l);
  assert_string_equal(layout_text(l), expected);
}

/* ---- tuple -> tuple functions ---- */
typedef cl_status (*tuple_fn1)(const cl_tuple_t *, cl_tuple_t **);
typedef cl_status (*tuple_fn2)(const cl_tuple_t *, const cl_tuple_t *, cl_tuple_t **);

static inline void expect_tuple1(tuple_fn1 f, const char *a, const char *expected) {
  cl_tuple_t *x = tup(a), *r = NULL;
  cl_status s = f(x, &r);
  if (s != CL_OK)
    fail_msg("f(%s) failed with %d: %s (expected %s)", a, s, cl_last_error(), expected);
  assert_tuple_is(r, expected);
  cl_tuple_free(r);
  cl_tuple_free(x);
}

static inline void expect_tuple1_fails(tuple_fn1 f, const char *a, cl_status status) {
  cl_tuple_t *x = tup(a), *r = (cl_tuple_t *)x;
  cl_status s = f(x, &r);
  if (s != status)
    fail_msg("f(%s) = %d, expected status %d", a, s, status);
  assert_null(r);
  assert_true(cl_last_error()[0] != '\0');
  cl_tuple_free(x);
}

static inline void expect_tuple2(tuple_fn2 f, const char *a, const char *b, const char *expected) {
  cl_tuple_t *x = tup(a), *y = tup(b), *r = NULL;
  cl_status s = f(x, y, &r);
  if (s != CL_OK)
    fail_msg("f(%s, %s) failed with %d: %s (expected %s)", a, b, s, cl_last_error(), expected);
  assert_tuple_is(r, expected);
  cl_tuple_free(r);
  cl_tuple_free(x);
  cl_tuple_free(y);
}

static inline void expect_tuple2_fails(tuple_fn2 f, const char *a, const char *b, cl_status status) {
  cl_tuple_t *x = tup(a), *y = tup(b), *r = (cl_tuple_t *)x;
  cl_status s = f(x, y, &r);
  if (s != status)
    fail_msg("f(%s, %s) = %d, expected status %d (%s)", a, b, s, status, cl_last_error());
  assert_null(r);
  assert_true(cl_last_error()[0] != '\0');
  cl_tuple_free(x);
  cl_tuple_free(y);
}

/* ---- layout -> layout functions ---- */
typedef cl_status (*layout_fn1)(const cl_layout_t *, cl_layout_t **);

static inline void expect_layout1(layout_fn1 f, const char *a, const char *expected) {
  cl_layout_t *x = lay(a), *r = NULL;
  cl_status s = f(x, &r);
  if (s != CL_OK)
    fail_msg("f(%s) failed with %d: %s (expected %s)", a, s, cl_last_error(), expected);
  assert_layout_is(r, expected);
  cl_layout_free(r);
  cl_layout_free(x);
}

static inline void expect_layout1_fails(layout_fn1 f, const char *a, cl_status status) {
  cl_layout_t *x = lay(a), *r = (cl_layout_t *)x;
  cl_status s = f(x, &r);
  if (s != status)
    fail_msg("f(%s) = %d, expected status %d", a, s, status);
  assert_null(r);
  assert_true(cl_last_error()[0] != '\0');
  cl_layout_free(x);
}

/* ---- generated families of small values ---- */

static inline int form_leaves(const char *form) {
  int n = 0;
  for (const char *c = form; *c; c++)
    n += (*c == '%');
  return n;
}

/* Writes form with the given leaf values. */
static inline void fill_form(char *buf, size_t cap, const char *form, const int *v) {
  size_t len = 0;
  int k = 0;
  for (const char *c = form; *c && len + 24 < cap; c++) {
    if (c[0] == '%' && c[1] == 'd') {
      len += (size_t)snprintf(buf + len, cap - len, "%d", v[k++]);
      c++;
    } else {
      buf[len++] = *c;
    }
  }
  buf[len] = '\0';
}

/* Calls f(layout_text, ctx) for every layout of every form whose extents are
 * drawn from `extents` and strides from `strides`. Returns the count. */
static inline int for_each_small_layout(const int *extents, int ne, const int *strides, int nd,
                                 void (*f)(const char *text, void *ctx), void *ctx) {
  /* Shapes with up to three leaves in each tree form. */
  static const char *const shape_forms[] = {"%d", "(%d)", "(%d,%d)", "(%d,(%d))", "(%d,%d,%d)", "(%d,(%d,%d))",
                                            "((%d,%d),%d)", "((%d),(%d,(%d)))"};
  int count = 0;
  for (size_t fi = 0; fi < COUNT_OF(shape_forms); fi++) {
    int leaves = form_leaves(shape_forms[fi]);
    int combos_e = 1, combos_d = 1;
    for (int k = 0; k < leaves; k++) {
      combos_e *= ne;
      combos_d *= nd;
    }
    for (int ce = 0; ce < combos_e; ce++) {
      for (int cd = 0; cd < combos_d; cd++) {
        int ev[3], dv[3], re = ce, rd = cd;
        for (int k = 0; k < leaves; k++) {
          ev[k] = extents[re % ne];
          re /= ne;
          dv[k] = strides[rd % nd];
          rd /= nd;
        }
        char shape[128], stride[128], text[260];
        fill_form(shape, sizeof shape, shape_forms[fi], ev);
        fill_form(stride, sizeof stride, shape_forms[fi], dv);
        snprintf(text, sizeof text, "%s:%s", shape, stride);
        f(text, ctx);
        count++;
      }
    }
  }
  return count;
}

#endif
