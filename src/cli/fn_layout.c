/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_layout.c: the "layout basics" functions of the eval language. */
#include "builtins.h"

static cl_status layout_result(cl_status s, cl_layout_t *const *l, value *out) {
  if (s == CL_OK)
    *out = value_of_layout(*l);
  return s;
}

/* The result pointer is read only after the call that fills it has run. */
static cl_status tuple_result(cl_status s, cl_tuple_t *const *t, value *out) {
  if (s == CL_OK)
    *out = value_of_tuple(*t);
  return s;
}

/* make_layout(shape), make_layout(shape, stride | LayoutLeft | LayoutRight),
 * make_layout(L0, L1, ...). */
static cl_status fn_make_layout(const char *name, const value *a, int n, value *out) {
  cl_layout_t *l = NULL;
  if (is_layout(&a[0])) {
    const cl_layout_t *parts[64];
    for (int i = 0; i < n; i++)
      TRY(arg_layout(name, a, i, &parts[i]));
    return layout_result(cl_layout_concat(parts, n, &l), &l, out);
  }
  const cl_tuple_t *shape, *stride;
  TRY(arg_tuple(name, a, 0, &shape));
  if (n == 1)
    return layout_result(cl_layout_make_left(shape, &l), &l, out);
  if (n > 2)
    return cli_fail(CL_E_RANK, "make_layout: takes (shape), (shape, stride), (shape, LayoutLeft|LayoutRight) or layouts");
  if (a[1].kind == V_TAG)
    return layout_result(a[1].num[0] ? cl_layout_make_right(shape, &l) : cl_layout_make_left(shape, &l), &l, out);
  TRY(arg_tuple(name, a, 1, &stride));
  return layout_result(cl_layout_make(shape, stride, &l), &l, out);
}

static cl_status fn_make_ordered_layout(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *shape, *order;
  cl_layout_t *l = NULL;
  TRY(arg_tuple(name, a, 0, &shape));
  TRY(arg_tuple(name, a, 1, &order));
  return layout_result(cl_layout_make_ordered(shape, order, &l), &l, out);
}

static cl_status fn_shape(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  cl_tuple_t *t = NULL;
  if (a[0].kind == V_TUPLE) /* CuTe's shape(IntTuple) is the tuple itself */
    return cl_tuple_copy(a[0].tuple, &t) == CL_OK ? (*out = value_of_tuple(t), CL_OK) : CL_E_NOMEM;
  TRY(arg_layout(name, a, 0, &l));
  return tuple_result(cl_layout_shape(l, &t), &t, out);
}

static cl_status fn_stride(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  cl_tuple_t *t = NULL;
  TRY(arg_layout(name, a, 0, &l));
  return tuple_result(cl_layout_stride(l, &t), &t, out);
}

static cl_status fn_cosize(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  int64_t v = 0;
  TRY(arg_layout(name, a, 0, &l));
  TRY(cl_layout_cosize_checked(l, &v));
  return value_of_int(v, out);
}

static cl_status fn_coshape(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  cl_tuple_t *t = NULL;
  TRY(arg_layout(name, a, 0, &l));
  return tuple_result(cl_layout_coshape(l, &t), &t, out);
}

static cl_status fn_slice(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *crd;
  const cl_layout_t *l;
  cl_layout_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &crd));
  TRY(arg_layout(name, a, 1, &l));
  return layout_result(cl_layout_slice(crd, l, &r), &r, out);
}

/* slice_and_offset(crd, L) = (slice(crd, L), L(crd)). */
static cl_status fn_slice_and_offset(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *crd;
  const cl_layout_t *l;
  cl_layout_t *sliced = NULL;
  cl_tuple_t *offset = NULL;
  TRY(arg_tuple(name, a, 0, &crd));
  TRY(arg_layout(name, a, 1, &l));
  TRY(cl_layout_slice_and_offset_tuple(crd, l, &sliced, &offset));
  cl_tuple_t *parts[2] = {NULL, offset}, *pair = NULL;
  cl_status s = cl_tuple_from_layout(sliced, &parts[0]);
  if (s == CL_OK)
    s = cl_tuple_make((const cl_tuple_t *const *)parts, 2, &pair);
  cl_layout_free(sliced);
  cl_tuple_free(parts[0]);
  cl_tuple_free(parts[1]);
  return tuple_result(s, &pair, out);
}

typedef cl_status (*range_op)(const cl_layout_t *, int64_t, int64_t, cl_layout_t **);

static cl_status by_range(const char *name, const value *a, range_op f, value *out) {
  const cl_layout_t *l;
  int64_t b, e;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  TRY(arg_int(name, a, 1, &b));
  TRY(arg_int(name, a, 2, &e));
  return layout_result(f(l, b, e, &r), &r, out);
}

static cl_status fn_group(const char *name, const value *a, int n, value *out) { return by_range(name, a, cl_layout_group, out); }
static cl_status fn_take(const char *name, const value *a, int n, value *out) { return by_range(name, a, cl_layout_take, out); }

static cl_status fn_select(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  int64_t modes[64];
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  for (int i = 1; i < n; i++)
    TRY(arg_int(name, a, i, &modes[i - 1]));
  return layout_result(cl_layout_select(l, modes, n - 1, &r), &r, out);
}

/* append(L, X) / prepend(L, X).  With X not a layout, CuTe's generic tuple
 * append applies to the layout as a whole: (L, X) or (X, L). */
static cl_status extend(const char *name, const value *a, int n, bool front, value *out) {
  const cl_layout_t *l, *x = NULL;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  if (n > 1 && a[1].kind == V_TUPLE) {
    cl_tuple_t *lt = NULL, *pair = NULL;
    cl_status s = cl_tuple_from_layout(l, &lt);
    if (s == CL_OK) {
      const cl_tuple_t *parts[2] = {front ? a[1].tuple : lt, front ? lt : a[1].tuple};
      s = cl_tuple_make(parts, 2, &pair);
    }
    cl_tuple_free(lt);
    return tuple_result(s, &pair, out);
  }
  if (n > 1)
    TRY(arg_layout(name, a, 1, &x));
  return layout_result(front ? cl_layout_prepend(l, x, &r) : cl_layout_append(l, x, &r), &r, out);
}

static cl_status fn_append(const char *name, const value *a, int n, value *out) { return extend(name, a, n, false, out); }
static cl_status fn_prepend(const char *name, const value *a, int n, value *out) { return extend(name, a, n, true, out); }

typedef cl_status (*unary_op)(const cl_layout_t *, cl_layout_t **);

static cl_status unary(const char *name, const value *a, unary_op f, value *out) {
  const cl_layout_t *l;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  return layout_result(f(l, &r), &r, out);
}

static cl_status fn_zip(const char *name, const value *a, int n, value *out) { return unary(name, a, cl_layout_zip, out); }
static cl_status fn_make_layout_like(const char *name, const value *a, int n, value *out) {
  return unary(name, a, cl_make_layout_like, out);
}

/* make_fragment_like(L), or make_fragment_like(shape) = make_layout(shape). */
static cl_status fn_make_fragment_like(const char *name, const value *a, int n, value *out) {
  cl_layout_t *l = NULL;
  if (a[0].kind == V_TUPLE)
    return layout_result(cl_layout_make_left(a[0].tuple, &l), &l, out);
  return unary(name, a, cl_make_fragment_like, out);
}

const builtin cli_builtins_layout[] = {
  {"make_layout", 1, 64, fn_make_layout, "make_layout(shape[,stride|LayoutLeft|LayoutRight]) | make_layout(L0,L1,...)"},
  {"make_ordered_layout", 2, 2, fn_make_ordered_layout, "make_ordered_layout(shape,order)"},
  {"shape", 1, 1, fn_shape, "shape(L)"},
  {"stride", 1, 1, fn_stride, "stride(L)"},
  {"cosize", 1, 1, fn_cosize, "cosize(L)"},
  {"coshape", 1, 1, fn_coshape, "coshape(L)"},
  {"slice", 2, 2, fn_slice, "slice(crd,L)"},
  {"slice_and_offset", 2, 2, fn_slice_and_offset, "slice_and_offset(crd,L)"},
  {"group", 3, 3, fn_group, "group(L,b,e)"},
  {"take", 3, 3, fn_take, "take(L,b,e)"},
  {"select", 1, 64, fn_select, "select(L,i...)"},
  {"append", 1, 2, fn_append, "append(L[,L2])"},
  {"prepend", 1, 2, fn_prepend, "prepend(L[,L2])"},
  {"zip", 1, 1, fn_zip, "zip(L)"},
  {"make_layout_like", 1, 1, fn_make_layout_like, "make_layout_like(L)"},
  {"make_fragment_like", 1, 1, fn_make_fragment_like, "make_fragment_like(L) | make_fragment_like(shape)"},
  {NULL, 0, 0, NULL, NULL},
};
