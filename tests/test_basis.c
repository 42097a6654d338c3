/* SPDX-License-Identifier: BSD-3-Clause */
/* test_basis.c: scaled bases (CuTe's E<i...>) and coordinate layouts: the
 * values they map to, CuTe's rules for adding them, and the algebra on them.
 *
 * Expected values come from CuTe's documentation (make_identity_layout,
 * 0y_predication.md) and its arithmetic_tuple.hpp rules worked by hand; the
 * properties are checked exhaustively over families of small layouts. */
#include "test_util.h"

/* ------------------------------------------------------------ helpers */

static cl_tuple_t *value_at(const cl_layout_t *l, int64_t i) {
  cl_tuple_t *v = NULL;
  cl_status s = cl_layout_eval_tuple(l, i, &v);
  if (s != CL_OK)
    fail_msg("%s at %lld failed with %d: %s", layout_text(l), (long long)i, s, cl_last_error());
  return v;
}

static void value_is(const char *layout, const char *crd, const char *expected) {
  cl_layout_t *l = lay(layout);
  cl_tuple_t *c = tup(crd), *v = NULL;
  cl_status s = cl_layout_eval_coord_tuple(l, c, &v);
  if (s != CL_OK)
    fail_msg("%s(%s) failed with %d: %s (expected %s)", layout, crd, s, cl_last_error(), expected);
  assert_tuple_is(v, expected);
  cl_tuple_free(v);
  cl_tuple_free(c);
  cl_layout_free(l);
}

static void value_fails(const char *layout, const char *crd, cl_status status, const char *message_part) {
  cl_layout_t *l = lay(layout);
  cl_tuple_t *c = tup(crd), *v = (cl_tuple_t *)c;
  cl_status s = cl_layout_eval_coord_tuple(l, c, &v);
  if (s != status)
    fail_msg("%s(%s) = %d, expected %d", layout, crd, s, status);
  assert_null(v);
  if (strstr(cl_last_error(), message_part) == NULL)
    fail_msg("%s(%s): message \"%s\" lacks \"%s\"", layout, crd, cl_last_error(), message_part);
  cl_tuple_free(c);
  cl_layout_free(l);
}

/* A value (an integer, a scaled basis or an arithmetic tuple) read as the
 * coordinate it stands for, congruent with shape: a basis k@...@j@i is k at
 * get<i,j,...>, a tuple element by element, anything missing 0.  NULL when
 * the value does not fit the shape. */
static cl_tuple_t *coordinate_of(const cl_tuple_t *v, const cl_tuple_t *shape);

static cl_tuple_t *zero_like(const cl_tuple_t *shape) {
  cl_tuple_t *z = NULL;
  if (cl_tuple_kind(shape) != CL_KIND_TUPLE) {
    assert_int_equal(cl_tuple_int(0, &z), CL_OK);
    return z;
  }
  int64_t r = cl_tuple_rank(shape);
  cl_tuple_t *elems[16];
  assert_true(r <= 16);
  for (int64_t k = 0; k < r; k++) {
    cl_tuple_t *sk = NULL;
    assert_int_equal(cl_tuple_get(shape, &k, 1, &sk), CL_OK);
    elems[k] = zero_like(sk);
    cl_tuple_free(sk);
  }
  assert_int_equal(cl_tuple_make((const cl_tuple_t *const *)elems, r, &z), CL_OK);
  for (int64_t k = 0; k < r; k++)
    cl_tuple_free(elems[k]);
  return z;
}

/* Element k of a value read as an arithmetic tuple (NULL: 0). */
static cl_tuple_t *element_of(const cl_tuple_t *v, int64_t k) {
  cl_tuple_t *e = NULL;
  if (cl_tuple_kind(v) == CL_KIND_TUPLE) {
    if (k < cl_tuple_rank(v))
      assert_int_equal(cl_tuple_get(v, &k, 1, &e), CL_OK);
    return e;
  }
  if (cl_tuple_kind(v) == CL_KIND_BASIS) {
    int64_t scale, path[64], n;
    assert_int_equal(cl_tuple_basis_parts(v, &scale, path, 64, &n), CL_OK);
    if (path[0] != k)
      return NULL;
    if (n == 1)
      assert_int_equal(cl_tuple_int(scale, &e), CL_OK);
    else
      assert_int_equal(cl_tuple_basis(scale, path + 1, n - 1, &e), CL_OK);
    return e;
  }
  return NULL;
}

static cl_tuple_t *coordinate_of(const cl_tuple_t *v, const cl_tuple_t *shape) {
  if (v == NULL)
    return zero_like(shape);
  if (cl_tuple_kind(shape) != CL_KIND_TUPLE) {
    cl_tuple_t *c = NULL;
    if (cl_tuple_kind(v) == CL_KIND_INT)
      assert_int_equal(cl_tuple_copy(v, &c), CL_OK);
    return c;
  }
  if (cl_tuple_kind(v) == CL_KIND_INT) { /* only 0 stands for a tuple */
    int64_t x = 0;
    cl_tuple_value(v, &x);
    return x == 0 ? zero_like(shape) : NULL;
  }
  int64_t r = cl_tuple_rank(shape);
  if (cl_tuple_kind(v) == CL_KIND_TUPLE && cl_tuple_rank(v) > r)
    return NULL;
  cl_tuple_t *elems[16];
  bool ok = true;
  for (int64_t k = 0; k < r; k++) {
    cl_tuple_t *sk = NULL, *vk = element_of(v, k);
    assert_int_equal(cl_tuple_get(shape, &k, 1, &sk), CL_OK);
    elems[k] = coordinate_of(vk, sk);
    ok &= elems[k] != NULL;
    cl_tuple_free(sk);
    cl_tuple_free(vk);
  }
  cl_tuple_t *c = NULL;
  if (ok)
    assert_int_equal(cl_tuple_make((const cl_tuple_t *const *)elems, r, &c), CL_OK);
  for (int64_t k = 0; k < r; k++)
    cl_tuple_free(elems[k]);
  return c;
}

static void assert_same_coordinate(const cl_tuple_t *a, const cl_tuple_t *b, const cl_tuple_t *shape, const char *what) {
  if (cl_tuple_kind(a) == CL_KIND_INT && cl_tuple_kind(b) == CL_KIND_INT) {
    if (!cl_tuple_equal(a, b))
      fail_msg("%s: the indices differ", what);
    return;
  }
  cl_tuple_t *ca = coordinate_of(a, shape), *cb = coordinate_of(b, shape);
  char ta[256], tb[256];
  cl_tuple_format(a, ta, sizeof ta);
  cl_tuple_format(b, tb, sizeof tb);
  if (ca == NULL || cb == NULL || !cl_tuple_equal(ca, cb))
    fail_msg("%s: %s and %s are not the same coordinate of %s", what, ta, tb, tuple_text(shape));
  cl_tuple_free(ca);
  cl_tuple_free(cb);
}

/* ------------------------------------------------------------ bases */

static void test_basis_values(void **state) {
  (void)state;
  int64_t path[] = {1, 0};
  cl_tuple_t *t = NULL;
  assert_int_equal(cl_tuple_basis(1, path, 2, &t), CL_OK);
  assert_tuple_is(t, "1@0@1"); /* CuTe prints E<1,0> innermost index first */
  assert_int_equal(cl_tuple_kind(t), CL_KIND_BASIS);
  assert_int_equal(cl_tuple_rank(t), 1);
  assert_int_equal(cl_tuple_depth(t), 0);
  int64_t v = 0, got[1] = {-1}, n = 0;
  assert_int_equal(cl_tuple_value(t, &v), CL_E_TYPE); /* not an integer */
  assert_int_equal(cl_tuple_basis_parts(t, &v, got, 1, &n), CL_OK); /* a short buffer gets the first indices */
  assert_int_equal(v, 1);
  assert_int_equal(n, 2);
  assert_int_equal(got[0], 1);
  assert_int_equal(cl_tuple_basis_parts(t, &v, NULL, 0, &n), CL_OK);
  assert_int_equal(n, 2);
  cl_tuple_t *u = tup("1@0@1"), *w = tup("1@1@0"), *x = tup("2@0@1");
  assert_true(cl_tuple_equal(t, u));
  assert_false(cl_tuple_equal(t, w));
  assert_false(cl_tuple_equal(t, x));
  cl_tuple_free(u);
  cl_tuple_free(w);
  cl_tuple_free(x);
  cl_tuple_free(t);

  /* Error paths: no indices (CuTe's E<> is the integer 1), too many, out of
   * range, NULLs, and parts of something else. */
  t = (cl_tuple_t *)path;
  assert_int_equal(cl_tuple_basis(1, path, 0, &t), CL_E_DOMAIN);
  assert_null(t);
  int64_t many[CL_MAX_DEPTH + 1] = {0}, bad[] = {0, -1}, big[] = {CL_MAX_RANK};
  assert_int_equal(cl_tuple_basis(1, many, CL_MAX_DEPTH + 1, &t), CL_E_LIMIT);
  assert_int_equal(cl_tuple_basis(1, many, CL_MAX_DEPTH, &t), CL_OK);
  cl_tuple_free(t);
  assert_int_equal(cl_tuple_basis(1, bad, 2, &t), CL_E_DOMAIN);
  assert_int_equal(cl_tuple_basis(1, big, 1, &t), CL_E_DOMAIN);
  assert_int_equal(cl_tuple_basis(1, NULL, 1, &t), CL_E_NULL);
  assert_int_equal(cl_tuple_basis(1, path, 1, NULL), CL_E_NULL);
  t = tup("(1@0)");
  assert_int_equal(cl_tuple_basis_parts(t, &v, got, 1, &n), CL_E_TYPE);
  assert_int_equal(cl_tuple_basis_parts(t, &v, NULL, 1, &n), CL_E_NULL);
  assert_int_equal(cl_tuple_basis_parts(NULL, &v, got, 1, &n), CL_E_NULL);
  assert_int_equal(cl_tuple_basis_parts(t, NULL, got, 1, &n), CL_E_NULL);
  assert_int_equal(cl_tuple_basis_parts(t, &v, got, 1, NULL), CL_E_NULL);
  cl_tuple_free(t);

  /* A basis is no integer to the int-tuple functions. */
  expect_tuple2_fails(cl_tuple_shape_div, "(2,1@0)", "2", CL_E_TYPE);
  t = tup("(1@0,2)");
  assert_int_equal(cl_tuple_product(t, &v), CL_E_TYPE);
  assert_int_equal(cl_tuple_sum(t, &v), CL_E_TYPE);
  cl_tuple_free(t);
}

/* ------------------------------------------------------------ identity layouts */

static void expect_identity(const char *shape, const char *expected) {
  cl_tuple_t *s = tup(shape);
  cl_layout_t *l = NULL;
  assert_int_equal(cl_make_identity_layout(s, &l), CL_OK);
  assert_layout_is(l, expected);
  assert_int_equal(cl_layout_is_coordinate(l), strchr(expected, '@') != NULL);
  cl_layout_free(l);
  cl_tuple_free(s);
}

static void test_identity_layout(void **state) {
  (void)state;
  /* CuTe's make_identity_layout = make_layout(shape, make_basis_like(shape)). */
  expect_identity("(4,8)", "(4,8):(1@0,1@1)");
  expect_identity("((2,2),(4,2))", "((2,2),(4,2)):((1@0@0,1@1@0),(1@0@1,1@1@1))");
  expect_identity("((2,2),4)", "((2,2),4):((1@0@0,1@1@0),1@1)");
  expect_identity("(8)", "(8):(1@0)");
  expect_identity("8", "8:1"); /* E<> is the integer 1 */
  expect_identity("()", "():()");
  cl_tuple_t *s = tup("(2,_)");
  cl_layout_t *l = (cl_layout_t *)s;
  assert_int_equal(cl_make_identity_layout(s, &l), CL_E_TYPE);
  assert_null(l);
  assert_int_equal(cl_make_identity_layout(NULL, &l), CL_E_NULL);
  assert_int_equal(cl_make_identity_layout(s, NULL), CL_E_NULL);
  cl_tuple_free(s);
  assert_false(cl_layout_is_coordinate(NULL));
  l = lay("(4,8):(8,1)");
  assert_false(cl_layout_is_coordinate(l));
  cl_layout_free(l);
}

/* Every coordinate of every small shape maps to itself, as a linear index
 * and as a hierarchical coordinate: identity(S)(i) == idx2crd(i, S). */
static void test_identity_maps_each_coordinate_to_itself(void **state) {
  (void)state;
  static const char *const shapes[] = {"(2,3)", "(4,(2,3))", "((2,2),(3,2))", "(3,(2,(2,2)))", "(1,4,1)", "((5),(1,2))",
                                       "(2,2,2,2)"};
  for (size_t k = 0; k < COUNT_OF(shapes); k++) {
    cl_tuple_t *shape = tup(shapes[k]);
    cl_layout_t *id = NULL;
    int64_t size = 0;
    assert_int_equal(cl_make_identity_layout(shape, &id), CL_OK);
    assert_int_equal(cl_layout_size_checked(id, &size), CL_OK);
    for (int64_t i = 0; i < size; i++) {
      cl_tuple_t *idx = NULL, *crd = NULL, *v = value_at(id, i), *w = NULL;
      assert_int_equal(cl_tuple_int(i, &idx), CL_OK);
      assert_int_equal(cl_idx2crd(idx, shape, &crd), CL_OK);
      /* With two leaves or more the value is an arithmetic tuple, and it is
       * the coordinate itself, zeros included. */
      if (!cl_tuple_equal(v, crd))
        fail_msg("identity%s(%lld) = %s, expected %s", shapes[k], (long long)i, tuple_text(v), tuple_text(crd));
      assert_int_equal(cl_layout_eval_coord_tuple(id, crd, &w), CL_OK);
      assert_true(cl_tuple_equal(w, crd));
      cl_tuple_free(w);
      cl_tuple_free(v);
      cl_tuple_free(crd);
      cl_tuple_free(idx);
    }
    cl_tuple_t *coshape = NULL;
    assert_int_equal(cl_layout_coshape(id, &coshape), CL_OK);
    assert_true(cl_tuple_equal(coshape, shape)); /* coshape(identity(S)) == S */
    int64_t cosize = 0;
    assert_int_equal(cl_layout_cosize_checked(id, &cosize), CL_OK);
    assert_int_equal(cosize, size);
    cl_tuple_free(coshape);
    cl_layout_free(id);
    cl_tuple_free(shape);
  }
}

/* ------------------------------------------------------------ values */

static void test_value_forms(void **state) {
  (void)state;
  /* One basis term is a scaled basis; several add up to an arithmetic tuple. */
  value_is("(4,8):(1@0,1@1)", "5", "(1,1)");
  value_is("(4,8):(1@0,1@1)", "(3,7)", "(3,7)");
  value_is("(4,8):(1@0,1@1)", "0", "(0,0)");
  value_is("8:2@1", "3", "6@1");
  value_is("8:2@1", "0", "0@1"); /* _0 * E<1> is still a basis */
  value_is("(4,8):(1@0,4@0)", "5", "(5)");
  value_is("(2,2):(1@0,1@0@1)", "3", "(1,(1))");
  value_is("2:1@0@1", "1", "1@0@1");
  value_is("((2,2),(4,2)):((1@0,2@0),(1@1,4@1))", "7", "(3,1)");
  value_is("(4,8):(1@0,1@1)", "-3", "(-3,0)");
  value_is("(4,8):(1@0,1@1)", "(_,2)", "(0,2)"); /* '_' counts as 0 */
  /* An integer stride adds only where its term is 0 (CuTe: C<0> + basis). */
  value_is("(4,8):(1@0,16)", "1", "1@0");
  value_is("(4,8):(1@0,16)", "0", "0@0");
  value_fails("(4,8):(1@0,16)", "5", CL_E_TYPE, "the integer 16 cannot be added to a coordinate");
  value_fails("(2,2):(1@1,1@0@1)", "3", CL_E_TYPE, "the integer 1 cannot be added");
  /* CuTe adds an integer coordinate's terms from the right, so the integers
   * 2 and -2 meet the basis one by one... */
  value_fails("(2,2,2):(1@0,-2,2)", "3", CL_E_TYPE, "the integer -2 cannot be added");
  /* ...and a tuple coordinate's from the left, where -2 + 2 is 0 first. */
  value_is("(2,2,2):(-2,2,1@0)", "(1,1,1)", "1@0");
  value_is("(2,2,2):(1@0,-2,2)", "6", "0@0");
  /* Integer layouts answer integers. */
  value_is("(4,8):(8,1)", "(1,2)", "10");
  value_is("(4,8):(8,1)", "5", "9");
  value_fails("(2,3):(1@0,1@1)", "(1,2,3)", CL_E_RANK, "coordinate of rank 3");
  value_fails("():()", "0", CL_E_DOMAIN, "empty tuple");
  value_fails("8:1@0", "(1,2)", CL_E_RANK, "tuple coordinate for an integer shape");
  value_fails("(2,3):(1@0,1@1)", "(1@0,2)", CL_E_TYPE, "the coordinate must hold integers");
  value_fails("(2,3):(1@0,4611686018427387904@1)", "5", CL_E_OVERFLOW, "overflow");

  cl_layout_t *l = lay("(4,8):(1@0,1@1)");
  cl_tuple_t *v = (cl_tuple_t *)l, *crd = tup("(1,2)");
  int64_t index = 7, range[4] = {1, 2, 3, 4};
  assert_int_equal(cl_layout_eval(l, 5, &index), CL_E_TYPE); /* no integer value */
  assert_non_null(strstr(cl_last_error(), "values are coordinates"));
  assert_int_equal(cl_layout_eval_coord(l, crd, &index), CL_E_TYPE);
  assert_int_equal(cl_layout_eval_range(l, 0, 4, range), CL_E_TYPE);
  assert_int_equal(range[0] | range[1] | range[2] | range[3], 0);
  assert_int_equal(cl_layout_eval_tuple(NULL, 0, &v), CL_E_NULL);
  assert_null(v);
  assert_int_equal(cl_layout_eval_tuple(l, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_eval_coord_tuple(l, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_layout_eval_coord_tuple(NULL, crd, &v), CL_E_NULL);
  assert_int_equal(cl_layout_eval_coord_tuple(l, crd, NULL), CL_E_NULL);
  cl_tuple_free(crd);
  cl_layout_free(l);
}

static void test_slice_and_offset_tuple(void **state) {
  (void)state;
  static const char *const cases[][4] = {
    {"(4,8):(1@0,1@1)", "(_,1)", "(4):(1@0)", "(0,1)"},
    {"(4,8):(1@0,1@1)", "(1,_)", "(8):(1@1)", "(1,0)"},
    {"(4,8):(1@0,1@1)", "(1,2)", "():()", "(1,2)"},
    {"(4,8):(1@0,1@1)", "_", "(4,8):(1@0,1@1)", "(0,0)"},
    {"(4,8):(8,1)", "(_,2)", "(4):(8)", "2"},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    cl_layout_t *l = lay(cases[k][0]), *sub = NULL;
    cl_tuple_t *crd = tup(cases[k][1]), *offset = NULL;
    assert_int_equal(cl_layout_slice_and_offset_tuple(crd, l, &sub, &offset), CL_OK);
    assert_layout_is(sub, cases[k][2]);
    assert_tuple_is(offset, cases[k][3]);
    cl_layout_free(sub);
    cl_tuple_free(offset);
    cl_tuple_free(crd);
    cl_layout_free(l);
  }
  cl_layout_t *l = lay("(4,8):(1@0,16)"), *sub = (cl_layout_t *)l;
  cl_tuple_t *crd = tup("(1,_)"), *offset = (cl_tuple_t *)l;
  assert_int_equal(cl_layout_slice_and_offset_tuple(crd, l, &sub, &offset), CL_OK); /* 1@0 + _0 * 16 */
  assert_tuple_is(offset, "1@0");
  cl_layout_free(sub);
  cl_tuple_free(offset);
  cl_tuple_free(crd);
  crd = tup("(1,1)");
  assert_int_equal(cl_layout_slice_and_offset_tuple(crd, l, &sub, &offset), CL_E_TYPE);
  assert_null(sub);
  assert_null(offset);
  assert_int_equal(cl_layout_slice_and_offset_tuple(crd, l, NULL, &offset), CL_E_NULL);
  assert_int_equal(cl_layout_slice_and_offset_tuple(crd, l, &sub, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_slice_and_offset_tuple(NULL, l, &sub, &offset), CL_E_NULL);
  assert_int_equal(cl_layout_slice_and_offset_tuple(crd, NULL, &sub, &offset), CL_E_NULL);
  cl_tuple_free(crd);
  crd = tup("(1,_,2)");
  assert_int_equal(cl_layout_slice_and_offset_tuple(crd, l, &sub, &offset), CL_E_RANK);
  cl_tuple_free(crd);
  cl_layout_free(l);
}

static void expect_coshape(const char *layout, const char *coshape, int64_t cosize) {
  cl_layout_t *l = lay(layout);
  cl_tuple_t *c = NULL;
  int64_t n = 0;
  assert_int_equal(cl_layout_coshape(l, &c), CL_OK);
  assert_tuple_is(c, coshape);
  assert_int_equal(cl_layout_cosize_checked(l, &n), CL_OK);
  assert_int_equal(n, cosize);
  assert_int_equal(cl_layout_cosize(l), cosize);
  cl_tuple_free(c);
  cl_layout_free(l);
}

static void test_coshape(void **state) {
  (void)state;
  /* coshape = as_arithmetic_tuple(sum of (s - 1) * |d|) + 1 at each leaf. */
  expect_coshape("(4,8):(1@0,1@1)", "(4,8)", 32);
  expect_coshape("4:1@1", "(1,4)", 4);
  expect_coshape("4:-1@1", "(1,4)", 4);
  expect_coshape("(2,3):(2@1,1@1)", "(1,5)", 5);
  expect_coshape("(2,2):(1@0@1,1@0)", "(2,(2))", 4);
  expect_coshape("(1,2):(1@1,1@0)", "(2,1)", 2);
  expect_coshape("(2,2):(0@1,1@0)", "(2,1)", 2);
  expect_coshape("(4,8):(8,1)", "32", 32);
  cl_layout_t *l = lay("(2,2):(1@1,2)");
  cl_tuple_t *c = (cl_tuple_t *)l;
  int64_t n = 0;
  assert_int_equal(cl_layout_coshape(l, &c), CL_E_TYPE);
  assert_null(c);
  assert_int_equal(cl_layout_cosize_checked(l, &n), CL_E_TYPE);
  assert_int_equal(cl_layout_cosize(l), CL_E_TYPE);
  cl_layout_free(l);
  l = lay("(3,2):(4611686018427387904@1,1@0)");
  assert_int_equal(cl_layout_coshape(l, &c), CL_E_OVERFLOW);
  cl_layout_free(l);
  l = lay("(2,2):(-9223372036854775808@1,1@0)");
  assert_int_equal(cl_layout_coshape(l, &c), CL_E_OVERFLOW);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ algebra */

/* The layouts of a family: every small shape with each leaf's stride an
 * integer or a scaled basis on mode 0 or 1. */
typedef void (*layout_check)(const cl_layout_t *l);

static void for_each_coordinate_layout(layout_check f, bool powers_of_two) {
  static const char *const shapes[] = {"%d", "(%d,%d)", "(%d,(%d,%d))", "((%d,%d),%d)"};
  const int extents[] = {1, 2, powers_of_two ? 4 : 3};
  static const char *const strides[] = {"1@0", "2@0", "1@1", "3@1", "0@1", "1", "0", "4@0"};
  /* With power-of-two extents CuTe's divisibility conditions are exact, so
   * composition's post-condition holds wherever it succeeds. */
  for (size_t f_i = 0; f_i < COUNT_OF(shapes); f_i++) {
    int leaves = form_leaves(shapes[f_i]);
    int combos = 1;
    for (int k = 0; k < leaves; k++)
      combos *= (int)(3 * COUNT_OF(strides));
    for (int c = 0; c < combos; c++) {
      int ev[3];
      const char *dv[3];
      int rest = c;
      for (int k = 0; k < leaves; k++) {
        ev[k] = extents[rest % 3];
        rest /= 3;
        dv[k] = strides[rest % (int)COUNT_OF(strides)];
        rest /= (int)COUNT_OF(strides);
      }
      char shape[64], stride[64], text[160];
      fill_form(shape, sizeof shape, shapes[f_i], ev);
      /* the stride form with %s in place of %d */
      size_t len = 0;
      int k = 0;
      for (const char *p = shapes[f_i]; *p; p++) {
        if (p[0] == '%' && p[1] == 'd') {
          len += (size_t)snprintf(stride + len, sizeof stride - len, "%s", dv[k++]);
          p++;
        } else {
          stride[len++] = *p;
        }
      }
      stride[len] = '\0';
      snprintf(text, sizeof text, "%s:%s", shape, stride);
      cl_layout_t *l = lay(text);
      f(l);
      cl_layout_free(l);
    }
  }
}

/* Does every value of l exist (CuTe adds its terms)? */
static bool all_values_exist(const cl_layout_t *l) {
  int64_t size = cl_layout_size(l);
  for (int64_t i = 0; i < size; i++) {
    cl_tuple_t *v = NULL;
    if (cl_layout_eval_tuple(l, i, &v) != CL_OK)
      return false;
    cl_tuple_free(v);
  }
  return true;
}

/* A shape whose coordinates hold every value of the family's layouts (their
 * bases are on modes 0 and 1). */
static cl_tuple_t *codomain_shape(void) { return tup("(99,99)"); }

static void check_coalesce(const cl_layout_t *l) {
  if (!all_values_exist(l))
    return;
  cl_layout_t *c = NULL;
  assert_int_equal(cl_coalesce(l, &c), CL_OK);
  cl_tuple_t *codomain = codomain_shape();
  int64_t size = cl_layout_size(l);
  assert_int_equal(cl_layout_size(c), size);
  for (int64_t i = 0; i < size; i++) {
    cl_tuple_t *a = value_at(l, i), *b = value_at(c, i);
    assert_same_coordinate(a, b, codomain, "coalesce(L)(i) == L(i)");
    cl_tuple_free(a);
    cl_tuple_free(b);
  }
  cl_tuple_free(codomain);
  cl_layout_free(c);
}

/* coalesce keeps the function on the domain (CuTe's @post), merging only
 * along one basis. */
static void test_coalesce_keeps_the_function(void **state) {
  (void)state;
  for_each_coordinate_layout(check_coalesce, false);
  expect_layout1(cl_coalesce, "(4,8):(1@0,4@0)", "32:1@0");
  expect_layout1(cl_coalesce, "(4,8):(1@0,1@1)", "(4,8):(1@0,1@1)");
  expect_layout1(cl_coalesce, "(4,8):(1@0,4)", "(4,8):(1@0,4)"); /* 4 == 4@0 is false */
  expect_layout1(cl_coalesce, "(1,8):(1@0,1@1)", "8:1@1");
  expect_layout1(cl_coalesce, "(2,4):(1@1@0,2@1@0)", "8:1@1@0");
  expect_layout1(cl_coalesce, "(2,4):(1@1@0,2@0@0)", "(2,4):(1@1@0,2@0@0)");
  expect_layout1(cl_filter, "(4,1,8):(1@0,0,1@1)", "(4,8):(1@0,1@1)");
  expect_layout1(cl_filter, "(4,8):(0@0,1@1)", "(4,8):(0@0,1@1)"); /* 0@0 is no zero to CuTe */
  expect_layout1(cl_filter_zeros, "(4,8):(0,0@1)", "(1,8):(0,0@1)");
  expect_layout1(cl_nullspace, "(4,8):(0@0,1@1)", "1:0");
  expect_layout1(cl_nullspace, "(4,8):(0,1@1)", "4:1");
}

static void check_composition(const cl_layout_t *l) {
  static const char *const rhs[] = {"2:1", "4:2", "(2,2):(1,2)", "(2,4):(4,1)", "4:0", "(2,2):(2,4)", "8:1"};
  cl_tuple_t *codomain = codomain_shape();
  for (size_t k = 0; k < COUNT_OF(rhs); k++) {
    cl_layout_t *b = lay(rhs[k]), *c = NULL;
    /* The post-condition holds inside L's domain: B's image must be in it. */
    int64_t reach = 0;
    assert_int_equal(cl_layout_cosize_checked(b, &reach), CL_OK);
    if (reach <= cl_layout_size(l) && cl_composition(l, b, &c) == CL_OK) {
      int64_t size = cl_layout_size(b);
      for (int64_t i = 0; i < size; i++) {
        int64_t j = 0;
        cl_tuple_t *lj = NULL;
        assert_int_equal(cl_layout_eval(b, i, &j), CL_OK);
        if (cl_layout_eval_tuple(l, j, &lj) != CL_OK)
          continue;
        cl_tuple_t *ci = value_at(c, i);
        char what[300];
        snprintf(what, sizeof what, "composition(%s, %s)(%lld) == L(B(i))", layout_text(l), rhs[k], (long long)i);
        assert_same_coordinate(ci, lj, codomain, what);
        cl_tuple_free(ci);
        cl_tuple_free(lj);
      }
      cl_layout_free(c);
    }
    cl_layout_free(b);
  }
  cl_tuple_free(codomain);
}

static void check_composition_with_identity(const cl_layout_t *l) {
  /* composition(A, make_identity_layout(shape(A))) == A for an integer A:
   * every basis E<i,j,...> picks its own leaf of A. */
  cl_tuple_t *shape = NULL;
  assert_int_equal(cl_layout_shape(l, &shape), CL_OK);
  cl_layout_t *a = NULL, *id = NULL, *c = NULL;
  assert_int_equal(cl_layout_make_left(shape, &a), CL_OK);
  assert_int_equal(cl_make_identity_layout(shape, &id), CL_OK);
  assert_int_equal(cl_composition(a, id, &c), CL_OK);
  assert_layout_is(c, layout_text(a));
  cl_layout_free(c);
  cl_layout_free(a);
  cl_layout_free(id);
  cl_tuple_free(shape);
}

static void expect_composition(const char *a, const char *b, const char *expected) {
  cl_layout_t *x = lay(a), *y = lay(b), *r = NULL;
  cl_status s = cl_composition(x, y, &r);
  if (s != CL_OK)
    fail_msg("composition(%s, %s) failed with %d: %s", a, b, s, cl_last_error());
  assert_layout_is(r, expected);
  cl_layout_free(r);
  cl_layout_free(x);
  cl_layout_free(y);
}

static void expect_composition_fails(const char *a, const char *b, cl_status status) {
  cl_layout_t *x = lay(a), *y = lay(b), *r = x;
  cl_status s = cl_composition(x, y, &r);
  if (s != status)
    fail_msg("composition(%s, %s) = %d, expected %d", a, b, s, status);
  assert_null(r);
  cl_layout_free(x);
  cl_layout_free(y);
}

static void test_composition(void **state) {
  (void)state;
  for_each_coordinate_layout(check_composition, true);
  for_each_coordinate_layout(check_composition_with_identity, false);
  /* The left-hand side's bases are scaled. */
  expect_composition("(4,8):(1@0,1@1)", "(2,2):(2,8)", "(2,2):(2@0,2@1)");
  expect_composition("(8,3):(1@0,1@1)", "6:4", "(2,3):(4@0,1@1)");
  /* A right-hand basis E<i> composes with mode i of the left-hand side, which
   * is coalesced by the right-hand side's coprofile first. */
  expect_composition("(4,8):(8,1)", "(2,2):(1@1,1@0)", "(2,2):(1,8)");
  expect_composition("(4,8):(8,1)", "(4,8):(1@0,1@1)", "(4,8):(8,1)");
  expect_composition("((2,4),2):((1,2),8)", "(4):(1@0)", "(4):(1)");
  expect_composition("(2,1,8):(8,0,1)", "(2,1,8):(1@0,1@1,1@2)", "(2,1,8):(8,0,1)");
  expect_composition("(4,8):(8,1)", "(4,2):(1@0,0)", "(4,2):(8,0)");
  expect_composition("(4,8):(8,1)", "(4,2):(0@1,1@0)", "(4,2):(0,8)");
  /* CuTe cannot sum a basis with a nonzero integer stride (coprofile), nor
   * reach past the left-hand side's modes. */
  expect_composition_fails("(4,8):(8,1)", "(4,2):(1@0,4)", CL_E_TYPE);
  expect_composition_fails("(8,2):(2,1)", "(2,8,6):(1@0,1@1,1@2)", CL_E_RANK);
  expect_composition_fails("8:1", "(2,2):(1@0,1@1)", CL_E_RANK);
  expect_composition("(4,8):(8,1)", "(2,2):(1@0,1@0@1)", "(2,2):(8,1)"); /* mode 1 wrapped by the profile (0,(0)) */
  expect_composition_fails("(4,8):(8,1)", "(2,2):(1@1,1@0@1)", CL_E_TYPE);
}

static void expect_refused(layout_fn1 f, const char *a, cl_status status, const char *part) {
  cl_layout_t *x = lay(a), *r = x;
  cl_status s = f(x, &r);
  if (s != status)
    fail_msg("%s: %d, expected %d", a, s, status);
  assert_null(r);
  if (strstr(cl_last_error(), part) == NULL)
    fail_msg("%s: message \"%s\" lacks \"%s\"", a, cl_last_error(), part);
  cl_layout_free(x);
}

static cl_status upcast2(const cl_layout_t *l, cl_layout_t **out) { return cl_upcast(l, 2, out); }
static cl_status downcast2(const cl_layout_t *l, cl_layout_t **out) { return cl_downcast(l, 2, out); }

/* Where CuTe orders or divides strides, a basis does not compile. */
static void test_operations_that_need_integer_strides(void **state) {
  (void)state;
  expect_refused(cl_complement_full, "(4,8):(1@0,1@1)", CL_E_TYPE, "complement: the stride 1@0");
  expect_refused(cl_right_inverse, "(4,8):(1@0,1@1)", CL_E_TYPE, "right_inverse: the stride");
  expect_refused(cl_left_inverse, "8:2@1", CL_E_TYPE, "left_inverse: the stride 2@1");
  expect_refused(upcast2, "(4,8):(0,1@1)", CL_E_TYPE, "upcast");
  expect_refused(cl_make_layout_like, "(4,8):(1,1@1)", CL_E_TYPE, "make_layout_like");
  expect_refused(cl_make_fragment_like, "(4,8):(1@0,1@1)", CL_E_TYPE, "compact_order");
  /* ...unless coalescing (or filtering) drops the basis first. */
  expect_layout1(cl_right_inverse, "(1,4):(1@0,1)", "4:1");
  expect_layout1(cl_complement_full, "(1,4):(1@0,2)", "2:1");
  /* downcast scales a basis like any stride that is not 1. */
  expect_layout1(downcast2, "(4,8):(1,1@1)", "(8,8):(1,2@1)");
  expect_refused(downcast2, "(4,8):(1@0,1@1)", CL_E_DOMAIN, "adjacent");
  expect_layout1(cl_make_fragment_like, "(4,8):(1@0,1)", "(4,(8)):(1,(4))");
}

/* CuTe's predication (0y_predication.md): tiling an identity layout the way
 * the data is tiled gives, at each position of the tiled data, the data's
 * coordinate: data(logical_divide(identity(S), T)(i)) is
 * logical_divide(data, T)(i), for the data's compact layout, inside the
 * rounded-up tiles too; there the coordinate falls outside S, which
 * elem_less(coordinate, S) tells. */
static void test_predication(void **state) {
  (void)state;
  static const char *const cases[][2] = {
    {"1000", "128"}, {"(41,55)", "(4,8)"}, {"(6,10)", "(4,4)"}, {"(8,8)", "(2:1,4:2)"}, {"(4,(2,3))", "(2,_)"},
    {"(41,55)", "(4:1,8:2)"},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    cl_tuple_t *shape = tup(cases[k][0]), *tiler = tup(cases[k][1]);
    cl_layout_t *id = NULL, *data = NULL, *id_tiled = NULL, *data_tiled = NULL;
    assert_int_equal(cl_make_identity_layout(shape, &id), CL_OK);
    assert_int_equal(cl_layout_make_left(shape, &data), CL_OK);
    assert_int_equal(cl_logical_divide_tiler(id, tiler, &id_tiled), CL_OK);
    assert_int_equal(cl_logical_divide_tiler(data, tiler, &data_tiled), CL_OK);
    int64_t size = cl_layout_size(data_tiled), inside = 0, total = 1;
    assert_int_equal(cl_layout_size(id_tiled), size);
    for (int64_t i = 0; i < size; i++) {
      int64_t j = 0, at = -1;
      assert_int_equal(cl_layout_eval(data_tiled, i, &j), CL_OK);
      cl_tuple_t *v = value_at(id_tiled, i), *crd = coordinate_of(v, shape);
      assert_non_null(crd);
      assert_int_equal(cl_layout_eval_coord(data, crd, &at), CL_OK);
      if (at != j)
        fail_msg("data(%s) = %lld, but the data tiled has %lld at %lld", tuple_text(crd), (long long)at, (long long)j,
                 (long long)i);
      int in_bounds = -1;
      assert_int_equal(cl_elem_less(crd, shape, &in_bounds), CL_OK);
      inside += in_bounds;
      cl_tuple_free(v);
      cl_tuple_free(crd);
    }
    assert_int_equal(cl_tuple_product(shape, &total), CL_OK);
    assert_int_equal(inside, total); /* exactly the data's elements are in bounds */
    cl_layout_free(id);
    cl_layout_free(data);
    cl_layout_free(id_tiled);
    cl_layout_free(data_tiled);
    cl_tuple_free(shape);
    cl_tuple_free(tiler);
  }
}

static void expect_elem_less(const char *a, const char *b, int expected) {
  cl_tuple_t *x = tup(a), *y = tup(b);
  int r = -1;
  assert_int_equal(cl_elem_less(x, y, &r), CL_OK);
  if (r != expected)
    fail_msg("elem_less(%s, %s) = %d", a, b, r);
  cl_tuple_free(x);
  cl_tuple_free(y);
}

static void expect_elem_less_fails(const char *a, const char *b, cl_status status) {
  cl_tuple_t *x = tup(a), *y = tup(b);
  int r = -1;
  assert_int_equal(cl_elem_less(x, y, &r), status);
  assert_int_equal(r, 0);
  cl_tuple_free(x);
  cl_tuple_free(y);
}

static void test_elem_less(void **state) {
  (void)state;
  expect_elem_less("(1,2)", "(4,8)", 1);
  expect_elem_less("(4,2)", "(4,8)", 0);
  expect_elem_less("(1,(2,3))", "(4,(3,4))", 1);
  expect_elem_less("(1,(2,3))", "(4,(3,3))", 0);
  expect_elem_less("(1,2)", "(4)", 0); /* b has no element for a's second */
  expect_elem_less("(1)", "(4,8)", 1);
  expect_elem_less("()", "(4,8)", 1);
  expect_elem_less("-1", "4", 1);
  expect_elem_less("(_,3)", "(1,4)", 1);
  expect_elem_less_fails("(1,2)", "4", CL_E_RANK);
  expect_elem_less_fails("(5,(2,3))", "(4,8)", CL_E_RANK); /* compared past the first false */
  expect_elem_less_fails("(1,1@0)", "(4,8)", CL_E_TYPE);
  expect_elem_less_fails("(1,(2:1))", "(4,(8))", CL_E_TYPE);
  cl_tuple_t *x = tup("1");
  int r = 0;
  assert_int_equal(cl_elem_less(NULL, x, &r), CL_E_NULL);
  assert_int_equal(cl_elem_less(x, NULL, &r), CL_E_NULL);
  assert_int_equal(cl_elem_less(x, x, NULL), CL_E_NULL);
  cl_tuple_free(x);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_basis_values),
    cmocka_unit_test(test_identity_layout),
    cmocka_unit_test(test_identity_maps_each_coordinate_to_itself),
    cmocka_unit_test(test_value_forms),
    cmocka_unit_test(test_slice_and_offset_tuple),
    cmocka_unit_test(test_coshape),
    cmocka_unit_test(test_coalesce_keeps_the_function),
    cmocka_unit_test(test_composition),
    cmocka_unit_test(test_operations_that_need_integer_strides),
    cmocka_unit_test(test_predication),
    cmocka_unit_test(test_elem_less),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
