/* SPDX-License-Identifier: BSD-3-Clause */
/* test_coord_tensor.c: coordinate tensors, CuTe's identity tensors, and the
 * predication pattern of CuTe's 0y_predication.md through the C API.
 *
 * Expected shapes come from the examples in CuTe's tensor_impl.hpp; the
 * predication property (every coordinate of the data is reached by exactly
 * one thread of one tile, and only coordinates outside it fail elem_less)
 * is checked over whole grids. */
#include "test_util.h"

static cl_coord_tensor_t *identity(const char *shape) {
  cl_tuple_t *s = tup(shape);
  cl_coord_tensor_t *t = NULL;
  assert_int_equal(cl_make_identity_tensor(s, &t), CL_OK);
  cl_tuple_free(s);
  return t;
}

static const char *tensor_text(const cl_coord_tensor_t *t) {
  static char buf[1024];
  int64_t n = cl_coord_tensor_format(t, buf, sizeof buf);
  assert_true(n >= 0 && (size_t)n < sizeof buf);
  return buf;
}

static void assert_tensor_is(const cl_coord_tensor_t *t, const char *expected) {
  assert_non_null(t);
  assert_string_equal(tensor_text(t), expected);
}

static void expect_element(const cl_coord_tensor_t *t, int64_t i, const char *expected) {
  cl_tuple_t *v = NULL;
  cl_status s = cl_coord_tensor_eval(t, i, &v);
  if (s != CL_OK)
    fail_msg("%s at %lld failed: %s", tensor_text(t), (long long)i, cl_last_error());
  assert_tuple_is(v, expected);
  cl_tuple_free(v);
}

static cl_coord_tensor_t *tile(const cl_coord_tensor_t *t, const char *tiler, const char *coord, const char *proj) {
  cl_tuple_t *a = tup(tiler), *b = tup(coord), *p = proj ? tup(proj) : NULL;
  cl_coord_tensor_t *r = NULL;
  cl_status s = cl_coord_local_tile(t, a, b, p, &r);
  if (s != CL_OK)
    fail_msg("local_tile(%s, %s, %s) failed: %s", tensor_text(t), tiler, coord, cl_last_error());
  cl_tuple_free(a);
  cl_tuple_free(b);
  cl_tuple_free(p);
  return r;
}

static cl_coord_tensor_t *partition(const cl_coord_tensor_t *t, const char *thr, int64_t index, const char *proj) {
  cl_layout_t *l = lay(thr);
  cl_tuple_t *p = proj ? tup(proj) : NULL;
  cl_coord_tensor_t *r = NULL;
  cl_status s = cl_coord_local_partition(t, l, index, p, &r);
  if (s != CL_OK)
    fail_msg("local_partition(%s, %s, %lld) failed: %s", tensor_text(t), thr, (long long)index, cl_last_error());
  cl_layout_free(l);
  cl_tuple_free(p);
  return r;
}

static void assert_shape(const cl_coord_tensor_t *t, const char *expected) {
  cl_tuple_t *shape = NULL;
  assert_int_equal(cl_layout_shape(cl_coord_tensor_layout(t), &shape), CL_OK);
  assert_tuple_is(shape, expected);
  cl_tuple_free(shape);
}

/* ------------------------------------------------------------ making */

static void test_identity_tensor(void **state) {
  (void)state;
  cl_coord_tensor_t *t = identity("(4,8)");
  assert_tensor_is(t, "ArithTuple(0,0) o (4,8):(1@0,1@1)");
  assert_tuple_is(cl_coord_tensor_origin(t), "(0,0)");
  assert_layout_is(cl_coord_tensor_layout(t), "(4,8):(1@0,1@1)");
  expect_element(t, 0, "(0,0)");
  expect_element(t, 13, "(1,3)");
  cl_tuple_t *crd = tup("(3,7)"), *v = NULL;
  assert_int_equal(cl_coord_tensor_eval_coord(t, crd, &v), CL_OK);
  assert_tuple_is(v, "(3,7)");
  cl_tuple_free(v);
  cl_tuple_free(crd);
  cl_coord_tensor_free(t);

  t = identity("((2,2),4)"); /* the origin is shaped like the coordinates */
  assert_tensor_is(t, "ArithTuple((0,0),0) o ((2,2),4):((1@0@0,1@1@0),1@1)");
  expect_element(t, 7, "((1,1),1)");
  cl_coord_tensor_free(t);

  /* make_coord_tensor: the origin is the layout's coprofile. */
  static const char *const cases[][2] = {
    {"(4,8):(2@1,1@0)", "ArithTuple(0,0) o (4,8):(2@1,1@0)"},
    {"(4,8):(1@0,4@0)", "ArithTuple(0) o (4,8):(1@0,4@0)"},
    {"(4,8):(1,4)", "ArithTuple0 o (4,8):(1,4)"},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    cl_layout_t *l = lay(cases[k][0]);
    assert_int_equal(cl_make_coord_tensor(l, &t), CL_OK);
    assert_tensor_is(t, cases[k][1]);
    cl_coord_tensor_free(t);
    cl_layout_free(l);
  }
  cl_layout_t *l = lay("(4,8):(1@0,16)");
  t = (cl_coord_tensor_t *)l;
  assert_int_equal(cl_make_coord_tensor(l, &t), CL_E_TYPE); /* 1@0 + 16 */
  assert_null(t);
  cl_layout_free(l);

  /* An origin and a layout of one's own, and errors. */
  cl_tuple_t *origin = tup("(3,(4,5))"), *bad = tup("(1,_)"), *shape = tup("(2,_)");
  l = lay("(2,2):(1@0,1@1@1)");
  assert_int_equal(cl_coord_tensor_new(origin, l, &t), CL_OK);
  assert_tensor_is(t, "ArithTuple(3,(4,5)) o (2,2):(1@0,1@1@1)");
  expect_element(t, 3, "(4,(4,6))");
  cl_coord_tensor_t *u = NULL;
  assert_int_equal(cl_coord_tensor_with_layout(t, l, &u), CL_OK);
  assert_tensor_is(u, tensor_text(t));
  cl_coord_tensor_free(u);
  assert_int_equal(cl_coord_tensor_new(bad, l, &u), CL_E_TYPE);
  assert_null(u);
  assert_int_equal(cl_make_identity_tensor(shape, &u), CL_E_TYPE);
  assert_int_equal(cl_coord_tensor_new(NULL, l, &u), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_new(origin, NULL, &u), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_new(origin, l, NULL), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_with_layout(NULL, l, &u), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_with_layout(t, NULL, &u), CL_E_NULL);
  assert_int_equal(cl_make_coord_tensor(NULL, &u), CL_E_NULL);
  assert_int_equal(cl_make_identity_tensor(NULL, &u), CL_E_NULL);
  assert_null(cl_coord_tensor_origin(NULL));
  assert_null(cl_coord_tensor_layout(NULL));
  assert_int_equal(cl_coord_tensor_format(NULL, NULL, 0), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_format(t, NULL, 8), CL_E_NULL);
  char small[8];
  assert_int_equal(cl_coord_tensor_format(t, small, sizeof small), (int64_t)strlen(tensor_text(t)));
  assert_string_equal(small, "ArithTu");
  v = NULL;
  crd = tup("(1,1,1)");
  assert_int_equal(cl_coord_tensor_eval(NULL, 0, &v), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_eval(t, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_eval_coord(t, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_eval_coord(t, crd, &v), CL_E_RANK);
  assert_null(v);
  cl_tuple_free(crd);
  cl_coord_tensor_free(t);
  cl_coord_tensor_free(NULL);
  cl_layout_free(l);
  cl_tuple_free(origin);
  cl_tuple_free(bad);
  cl_tuple_free(shape);

  /* An integer origin cannot take a coordinate (CuTe: _0 + ... works, 5 + 1@0 does not). */
  origin = tup("5");
  l = lay("(4,8):(1@0,1@1)");
  assert_int_equal(cl_coord_tensor_new(origin, l, &t), CL_OK);
  assert_int_equal(cl_coord_tensor_eval(t, 1, &v), CL_E_TYPE);
  cl_coord_tensor_free(t);
  cl_tuple_free(origin);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ partitions */

static void test_slices_and_partitions(void **state) {
  (void)state;
  cl_coord_tensor_t *t = identity("(8,8)"), *r;
  r = tile(t, "(4,4)", "(1,1)", NULL);
  assert_tensor_is(r, "ArithTuple(4,4) o (4,4):(1@0,1@1)");
  cl_coord_tensor_free(r);
  r = tile(t, "(4,4)", "1", NULL); /* an integer coordinate indexes the rest modes linearly */
  assert_tensor_is(r, "ArithTuple(4,0) o (4,4):(1@0,1@1)");
  cl_coord_tensor_free(r);
  r = partition(t, "(2,2):(1,2)", 3, NULL);
  assert_tensor_is(r, "ArithTuple(1,1) o (4,4):(2@0,2@1)");
  cl_coord_tensor_free(r);
  r = partition(t, "(2,2):(2,1)", 1, NULL);
  assert_tensor_is(r, "ArithTuple(0,1) o (4,4):(2@0,2@1)");
  cl_coord_tensor_free(r);
  cl_tuple_t *tiler = tup("(2,2)"), *coord = tup("(1,0)");
  assert_int_equal(cl_coord_outer_partition(t, tiler, coord, &r), CL_OK);
  assert_tensor_is(r, "ArithTuple(1,0) o (4,4):(2@0,2@1)");
  cl_coord_tensor_free(r);
  cl_tuple_t *crd = tup("(_,3)");
  assert_int_equal(cl_coord_tensor_slice(t, crd, &r), CL_OK);
  assert_tensor_is(r, "ArithTuple(0,3) o (8):(1@0)");
  cl_coord_tensor_free(r);
  cl_tuple_free(crd);

  /* Errors: NULLs, a coordinate of the wrong rank, a thread layout with
   * coordinate strides. */
  r = (cl_coord_tensor_t *)t;
  crd = tup("(1,2,3)");
  assert_int_equal(cl_coord_tensor_slice(t, crd, &r), CL_E_RANK);
  assert_null(r);
  assert_int_equal(cl_coord_tensor_slice(NULL, crd, &r), CL_E_NULL);
  assert_int_equal(cl_coord_tensor_slice(t, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_coord_local_tile(t, tiler, crd, NULL, &r), CL_E_RANK);
  assert_int_equal(cl_coord_local_tile(NULL, tiler, coord, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_coord_local_tile(t, NULL, coord, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_coord_local_tile(t, tiler, NULL, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_coord_local_tile(t, tiler, coord, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_coord_outer_partition(NULL, tiler, coord, &r), CL_E_NULL);
  assert_int_equal(cl_coord_outer_partition(t, NULL, coord, &r), CL_E_NULL);
  assert_int_equal(cl_coord_outer_partition(t, tiler, NULL, &r), CL_E_NULL);
  cl_layout_t *thr = lay("(2,2):(1@0,1@1)"), *flat = lay("(2,2):(1,0)");
  assert_int_equal(cl_coord_local_partition(t, thr, 1, NULL, &r), CL_E_TYPE);
  assert_int_equal(cl_coord_local_partition(t, flat, 1, NULL, &r), CL_E_DOMAIN); /* no stride to find thread 1 by */
  assert_int_equal(cl_coord_local_partition(NULL, flat, 1, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_coord_local_partition(t, NULL, 1, NULL, &r), CL_E_NULL);
  cl_tuple_t *proj = tup("(1,_,1)");
  assert_int_equal(cl_coord_local_partition(t, flat, 0, proj, &r), CL_E_RANK); /* dice: mismatched ranks */
  assert_int_equal(cl_coord_local_tile(t, tiler, coord, proj, &r), CL_E_RANK);
  cl_tuple_free(proj);
  cl_layout_free(thr);
  cl_layout_free(flat);
  cl_tuple_free(crd);
  cl_tuple_free(tiler);
  cl_tuple_free(coord);
  cl_coord_tensor_free(t);
}

/* The examples of CuTe's tensor_impl.hpp: projections of one tiler onto A
 * (M,K), B (N,K) and C (M,N). */
static void test_projections(void **state) {
  (void)state;
  cl_coord_tensor_t *a = identity("(128,16)"), *b = identity("(256,16)"), *c = identity("(128,256)"), *r;
  /* cta_tiler (32,64,4), cta_coord (1,2,_) */
  r = tile(a, "(32,64,4)", "(1,2,_)", "(1,_,1)"); /* (_32,_4,k) */
  assert_shape(r, "(32,4,4)");
  expect_element(r, 0, "(32,0)");
  cl_coord_tensor_free(r);
  r = tile(b, "(32,64,4)", "(1,2,_)", "(_,1,1)"); /* (_64,_4,k) */
  assert_shape(r, "(64,4,4)");
  expect_element(r, 0, "(128,0)");
  cl_coord_tensor_free(r);
  r = tile(c, "(32,64,4)", "(1,2,_)", "(1,1,_)"); /* (_32,_64) */
  assert_shape(r, "(32,64)");
  expect_element(r, 0, "(32,128)");
  cl_coord_tensor_free(r);
  /* local_partition(data (16,64), Layout<Shape<_2,_16>>, thr_idx): (_8,_4) */
  cl_coord_tensor_t *d = identity("(16,64)");
  r = partition(d, "(2,16):(1,2)", 5, NULL);
  assert_shape(r, "(8,4)");
  expect_element(r, 0, "(1,2)");
  cl_coord_tensor_free(r);
  /* thr_layout (2,16,1):(16,1,0), Step<_1,X,_1>: (M/2,K/1) of A */
  r = partition(a, "(2,16,1):(16,1,0)", 17, "(1,_,1)");
  assert_shape(r, "(64,16)");
  expect_element(r, 0, "(1,0)");
  cl_coord_tensor_free(r);
  cl_coord_tensor_free(a);
  cl_coord_tensor_free(b);
  cl_coord_tensor_free(c);
  cl_coord_tensor_free(d);
}

/* CUTLASS's predicated epilogue (0y_predication.md): each CTA tiles the
 * identity tensor of C's shape, each thread partitions its tile, and
 * elem_less(coordinate, shape) keeps the elements inside C.  Over all tiles
 * and threads every coordinate of C is kept exactly once. */
static void check_predication(const char *shape_text, const char *tiler_text, const char *thr_text) {
  cl_tuple_t *shape = tup(shape_text), *tiler = tup(tiler_text);
  cl_layout_t *thr = lay(thr_text);
  cl_coord_tensor_t *c = identity(shape_text);
  int64_t m = 0, n = 0, bm = 0, bn = 0, path[1];
  cl_tuple_t *e = NULL;
  path[0] = 0;
  assert_int_equal(cl_tuple_get(shape, path, 1, &e), CL_OK);
  cl_tuple_value(e, &m);
  cl_tuple_free(e);
  path[0] = 1;
  assert_int_equal(cl_tuple_get(shape, path, 1, &e), CL_OK);
  cl_tuple_value(e, &n);
  cl_tuple_free(e);
  path[0] = 0;
  assert_int_equal(cl_tuple_get(tiler, path, 1, &e), CL_OK);
  cl_tuple_value(e, &bm);
  cl_tuple_free(e);
  path[0] = 1;
  assert_int_equal(cl_tuple_get(tiler, path, 1, &e), CL_OK);
  cl_tuple_value(e, &bn);
  cl_tuple_free(e);
  int *seen = calloc((size_t)(m * n), sizeof *seen);
  assert_non_null(seen);
  int64_t threads = cl_layout_size(thr), outside = 0;
  for (int64_t x = 0; x < (m + bm - 1) / bm; x++)
    for (int64_t y = 0; y < (n + bn - 1) / bn; y++) {
      char coord[64];
      snprintf(coord, sizeof coord, "(%lld,%lld)", (long long)x, (long long)y);
      cl_coord_tensor_t *cta = tile(c, tiler_text, coord, NULL);
      for (int64_t t = 0; t < threads; t++) {
        cl_coord_tensor_t *mine = partition(cta, thr_text, t, NULL);
        int64_t size = cl_layout_size(cl_coord_tensor_layout(mine));
        for (int64_t i = 0; i < size; i++) {
          cl_tuple_t *crd = NULL, *ci = NULL, *cj = NULL;
          int in = -1;
          assert_int_equal(cl_coord_tensor_eval(mine, i, &crd), CL_OK);
          assert_int_equal(cl_elem_less(crd, shape, &in), CL_OK);
          int64_t i0 = 0, j0 = 0, k0 = 0, k1 = 1;
          assert_int_equal(cl_tuple_get(crd, &k0, 1, &ci), CL_OK);
          assert_int_equal(cl_tuple_get(crd, &k1, 1, &cj), CL_OK);
          cl_tuple_value(ci, &i0);
          cl_tuple_value(cj, &j0);
          assert_int_equal(in, i0 < m && j0 < n);
          if (in)
            seen[i0 + m * j0]++;
          else
            outside++;
          cl_tuple_free(crd);
          cl_tuple_free(ci);
          cl_tuple_free(cj);
        }
        cl_coord_tensor_free(mine);
      }
      cl_coord_tensor_free(cta);
    }
  for (int64_t k = 0; k < m * n; k++)
    if (seen[k] != 1)
      fail_msg("%s by %s and %s: coordinate (%lld,%lld) kept %d times", shape_text, tiler_text, thr_text,
               (long long)(k % m), (long long)(k / m), seen[k]);
  int64_t tiles = ((m + bm - 1) / bm) * ((n + bn - 1) / bn);
  assert_int_equal(outside, tiles * bm * bn - m * n); /* the rounded-up part, and nothing else */
  free(seen);
  cl_coord_tensor_free(c);
  cl_layout_free(thr);
  cl_tuple_free(shape);
  cl_tuple_free(tiler);
}

static void test_predication(void **state) {
  (void)state;
  check_predication("(41,55)", "(16,16)", "(4,8):(8,1)");
  check_predication("(41,55)", "(8,16)", "(2,4):(1,2)");
  check_predication("(32,32)", "(16,8)", "(4,2):(2,1)");
  check_predication("(5,7)", "(4,4)", "(2,2):(1,2)");
}

/* ------------------------------------------------------------ pictures */

static void test_pictures(void **state) {
  (void)state;
  cl_coord_tensor_t *t = identity("(8,8)"), *mine = partition(t, "(2,2):(1,2)", 3, NULL);
  cl_picture_options opt = CL_PICTURE_OPTIONS_INIT;
  opt.format = CL_PICTURE_TXT;
  char buf[4096];
  int64_t n = cl_render_coord_tensor(mine, &opt, buf, sizeof buf);
  assert_true(n > 0 && (size_t)n < sizeof buf);
  assert_non_null(strstr(buf, "ArithTuple(1,1) o (4,4):(2@0,2@1)"));
  assert_non_null(strstr(buf, "| (1,1) | (1,3) | (1,5) | (1,7) |")); /* row 0: the thread's global coordinates */
  assert_non_null(strstr(buf, "| (7,1) | (7,3) | (7,5) | (7,7) |"));
  /* SVG: one <text class="cell"> per cell, labelled with its coordinate. */
  static char svg[1 << 16];
  n = cl_render_coord_tensor(mine, NULL, svg, sizeof svg);
  assert_true(n > 0 && (size_t)n < sizeof svg);
  int cells = 0;
  for (const char *p = svg; (p = strstr(p, "class=\"cell\"")) != NULL; p++)
    cells++;
  assert_int_equal(cells, 16);
  assert_non_null(strstr(svg, ">(5,3)<"));
  /* An identity layout draws the same, with origin 0. */
  cl_layout_t *id = lay("(2,3):(1@0,1@1)");
  n = cl_render_layout(id, &opt, buf, sizeof buf);
  assert_true(n > 0);
  assert_non_null(strstr(buf, "| (1,0) | (1,1) | (1,2) |"));
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_true(cl_render_coord_tensor_file(mine, &opt, f) > 0);
  fclose(f);
  /* No thread-value or index-mapped picture of coordinates; NULLs. */
  assert_true(cl_render_tv(id, 2, 3, NULL, buf, sizeof buf) == CL_E_TYPE);
  assert_int_equal(cl_render_coord_tensor(NULL, NULL, buf, sizeof buf), CL_E_NULL);
  assert_int_equal(cl_render_coord_tensor(mine, NULL, NULL, 8), CL_E_NULL);
  assert_int_equal(cl_render_coord_tensor_file(mine, NULL, NULL), CL_E_NULL);
  cl_layout_free(id);
  cl_coord_tensor_free(mine);
  cl_coord_tensor_free(t);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_identity_tensor),
    cmocka_unit_test(test_slices_and_partitions),
    cmocka_unit_test(test_projections),
    cmocka_unit_test(test_predication),
    cmocka_unit_test(test_pictures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
