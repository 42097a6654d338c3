/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_tuple.c: the "int tuple" functions of the eval language, and the
 * queries shared by int tuples and layouts (size, rank, depth, get, flatten,
 * crd2idx), which dispatch on their argument. */
#include <stdlib.h>

#include "builtins.h"

/* Turns a library result into a value, or passes the failure on. */
/* The result pointer is read only after the call that fills it has run. */
static cl_status tuple_result(cl_status s, cl_tuple_t *const *t, value *out) {
  if (s == CL_OK)
    *out = value_of_tuple(*t);
  return s;
}

static cl_status layout_result(cl_status s, cl_layout_t *const *l, value *out) {
  if (s == CL_OK)
    *out = value_of_layout(*l);
  return s;
}

static cl_status int_result(cl_status s, const int64_t *v, value *out) {
  return s == CL_OK ? value_of_int(*v, out) : s;
}

static cl_status fn_size(const char *name, const value *a, int n, value *out) {
  int64_t v = 0;
  if (is_layout(&a[0]))
    return int_result(cl_layout_size_checked(a[0].layout, &v), &v, out);
  const cl_tuple_t *t;
  TRY(arg_tuple(name, a, 0, &t));
  /* CuTe's product of an integral is itself, and '_' is integral there. */
  if (cl_tuple_kind(t) == CL_KIND_UNDERSCORE) {
    cl_tuple_t *u = NULL;
    return tuple_result(cl_tuple_copy(t, &u), &u, out);
  }
  return int_result(cl_tuple_product(t, &v), &v, out);
}

static cl_status fn_sum(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *t;
  int64_t v = 0;
  TRY(arg_tuple(name, a, 0, &t));
  return int_result(cl_tuple_sum(t, &v), &v, out);
}

static cl_status fn_rank(const char *name, const value *a, int n, value *out) {
  if (is_layout(&a[0]))
    return value_of_int(cl_layout_rank(a[0].layout), out);
  const cl_tuple_t *t;
  TRY(arg_tuple(name, a, 0, &t));
  return value_of_int(cl_tuple_rank(t), out);
}

static cl_status fn_depth(const char *name, const value *a, int n, value *out) {
  int64_t depth;
  if (is_layout(&a[0])) {
    depth = cl_layout_depth(a[0].layout);
  } else {
    const cl_tuple_t *t;
    TRY(arg_tuple(name, a, 0, &t));
    depth = cl_tuple_depth(t);
  }
  /* A negative depth is the status of a failure (an empty tuple). */
  return depth < 0 ? (cl_status)depth : value_of_int(depth, out);
}

static cl_status fn_inner_product(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *x, *y;
  int64_t v = 0;
  TRY(arg_tuple(name, a, 0, &x));
  TRY(arg_tuple(name, a, 1, &y));
  return int_result(cl_tuple_inner_product(x, y, &v), &v, out);
}

typedef cl_status (*tuple_binary)(const cl_tuple_t *, const cl_tuple_t *, cl_tuple_t **);

static cl_status binary(const char *name, const value *a, tuple_binary f, value *out) {
  const cl_tuple_t *x, *y;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &x));
  TRY(arg_tuple(name, a, 1, &y));
  return tuple_result(f(x, y, &r), &r, out);
}

static cl_status fn_shape_div(const char *name, const value *a, int n, value *out) { return binary(name, a, cl_tuple_shape_div, out); }
static cl_status fn_ceil_div(const char *name, const value *a, int n, value *out) { return binary(name, a, cl_tuple_ceil_div, out); }
static cl_status fn_elem_scale(const char *name, const value *a, int n, value *out) { return binary(name, a, cl_tuple_elem_scale, out); }
static cl_status fn_unflatten(const char *name, const value *a, int n, value *out) {
  if (is_layout(&a[0])) {
    const cl_tuple_t *profile;
    cl_layout_t *l = NULL;
    TRY(arg_tuple(name, a, 1, &profile));
    return layout_result(cl_layout_unflatten(a[0].layout, profile, &l), &l, out);
  }
  return binary(name, a, cl_tuple_unflatten, out);
}
static cl_status fn_prefix_product(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *t;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &t));
  return tuple_result(cl_tuple_prefix_product(t, &r), &r, out);
}

static cl_status fn_flatten(const char *name, const value *a, int n, value *out) {
  if (is_layout(&a[0])) {
    cl_layout_t *l = NULL;
    return layout_result(cl_layout_flatten(a[0].layout, &l), &l, out);
  }
  const cl_tuple_t *t;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &t));
  return tuple_result(cl_tuple_flatten(t, &r), &r, out);
}

typedef cl_status (*tuple_predicate)(const cl_tuple_t *, const cl_tuple_t *, int *);

/* Profiles of layouts are those of their shapes. */
static cl_status profile_arg(const char *name, const value *a, int i, const cl_tuple_t **t, cl_tuple_t **owned) {
  *owned = NULL;
  if (is_layout(&a[i])) {
    TRY(cl_layout_shape(a[i].layout, owned));
    *t = *owned;
    return CL_OK;
  }
  return arg_tuple(name, a, i, t);
}

static cl_status predicate(const char *name, const value *a, tuple_predicate f, value *out) {
  const cl_tuple_t *x, *y;
  cl_tuple_t *ox = NULL, *oy = NULL;
  int r = 0;
  /* CuTe's weakly_congruent and compatible see a layout as neither an
   * integer nor a tuple, and answer false against an integer before they
   * would look at the layout's shape. */
  if (f != cl_tuple_congruent && is_layout(&a[0]) && is_int(&a[1])) {
    *out = value_of_bool(false);
    return CL_OK;
  }
  cl_status s = profile_arg(name, a, 0, &x, &ox);
  if (s == CL_OK)
    s = profile_arg(name, a, 1, &y, &oy);
  if (s == CL_OK)
    s = f(x, y, &r);
  cl_tuple_free(ox);
  cl_tuple_free(oy);
  if (s == CL_OK)
    *out = value_of_bool(r);
  return s;
}

static cl_status fn_congruent(const char *name, const value *a, int n, value *out) { return predicate(name, a, cl_tuple_congruent, out); }
static cl_status fn_weakly_congruent(const char *name, const value *a, int n, value *out) { return predicate(name, a, cl_tuple_weakly_congruent, out); }
static cl_status fn_compatible(const char *name, const value *a, int n, value *out) { return predicate(name, a, cl_tuple_compatible, out); }

/* get(x, i0, i1, ...): the element (or mode) at a path. */
static cl_status fn_get(const char *name, const value *a, int n, value *out) {
  int64_t path[64];
  for (int i = 1; i < n; i++)
    TRY(arg_int(name, a, i, &path[i - 1]));
  if (is_layout(&a[0])) {
    cl_layout_t *l = NULL;
    return layout_result(cl_layout_get(a[0].layout, path, n - 1, &l), &l, out);
  }
  const cl_tuple_t *t;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &t));
  TRY(cl_tuple_get(t, path, n - 1, &r));
  if (cl_tuple_kind(r) == CL_KIND_LAYOUT) {
    cl_layout_t *l = NULL;
    cl_status s = cl_tuple_layout(r, &l);
    cl_tuple_free(r);
    return layout_result(s, &l, out);
  }
  *out = value_of_tuple(r);
  return CL_OK;
}

static cl_status fn_idx2crd(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *idx, *shape, *stride;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &idx));
  TRY(arg_tuple(name, a, 1, &shape));
  if (n == 2)
    return tuple_result(cl_idx2crd(idx, shape, &r), &r, out);
  TRY(arg_tuple(name, a, 2, &stride));
  return tuple_result(cl_idx2crd_strided(idx, shape, stride, &r), &r, out);
}

/* Whether a tuple holds '_' anywhere. */
static cl_status holds_underscore(const cl_tuple_t *t, bool *out) {
  cl_tuple_t *flat = NULL;
  TRY(cl_tuple_flatten(t, &flat));
  *out = false;
  cl_status s = CL_OK;
  int64_t rank = cl_tuple_kind(flat) == CL_KIND_TUPLE ? cl_tuple_rank(flat) : 0;
  if (rank == 0)
    *out = cl_tuple_kind(flat) == CL_KIND_UNDERSCORE;
  for (int64_t k = 0; k < rank && s == CL_OK && !*out; k++) {
    cl_tuple_t *leaf = NULL;
    s = cl_tuple_get(flat, &k, 1, &leaf);
    *out = s == CL_OK && cl_tuple_kind(leaf) == CL_KIND_UNDERSCORE;
    cl_tuple_free(leaf);
  }
  cl_tuple_free(flat);
  return s;
}

static cl_status fn_crd2idx(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *crd, *shape, *stride;
  int64_t v = 0;
  TRY(arg_tuple(name, a, 0, &crd));
  if (n == 2 && is_layout(&a[1])) {
    /* crd2idx(crd, L) is CuTe's L(crd) (CONTRACT.md), which slices when crd
     * holds '_': that is no index. */
    bool slicing = false;
    TRY(holds_underscore(crd, &slicing));
    if (slicing)
      return cli_fail(CL_E_TYPE, "crd2idx: the coordinate holds '_', so L(crd) is a slice, not an index (use slice or slice_and_offset)");
    /* A coordinate layout's value is a coordinate: a tuple value. */
    cl_tuple_t *r = NULL;
    return tuple_result(cl_layout_eval_coord_tuple(a[1].layout, crd, &r), &r, out);
  }
  TRY(arg_tuple(name, a, 1, &shape));
  if (n == 2)
    return int_result(cl_crd2idx_shape(crd, shape, &v), &v, out);
  TRY(arg_tuple(name, a, 2, &stride));
  cl_status s = cl_crd2idx(crd, shape, stride, &v);
  if (s != CL_E_TYPE)
    return int_result(s, &v, out);
  /* Strides holding scaled bases: the value of the layout shape:stride. */
  cl_layout_t *l = NULL;
  cl_tuple_t *r = NULL;
  if (cl_layout_make(shape, stride, &l) != CL_OK || !cl_layout_is_coordinate(l)) {
    cl_layout_free(l);
    return int_result(cl_crd2idx(crd, shape, stride, &v), &v, out);
  }
  s = cl_layout_eval_coord_tuple(l, crd, &r);
  cl_layout_free(l);
  return tuple_result(s, &r, out);
}

static cl_status fn_crd2crd(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *crd, *from, *to;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &crd));
  TRY(arg_tuple(name, a, 1, &from));
  TRY(arg_tuple(name, a, 2, &to));
  return tuple_result(cl_crd2crd(crd, from, to, &r), &r, out);
}

static cl_status fn_compact(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *shape;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &shape));
  bool row = name[8] == 'r'; /* compact_row_major */
  return tuple_result(row ? cl_compact_row_major(shape, &r) : cl_compact_col_major(shape, &r), &r, out);
}

static cl_status fn_compact_order(const char *name, const value *a, int n, value *out) {
  return binary(name, a, cl_compact_order, out);
}

const builtin cli_builtins_tuple[] = {
  {"size", 1, 1, fn_size, "size(t) | size(L)"},
  {"product", 1, 1, fn_size, "product(t)"},
  {"sum", 1, 1, fn_sum, "sum(t)"},
  {"rank", 1, 1, fn_rank, "rank(t) | rank(L)"},
  {"depth", 1, 1, fn_depth, "depth(t) | depth(L)"},
  {"inner_product", 2, 2, fn_inner_product, "inner_product(a,b)"},
  {"shape_div", 2, 2, fn_shape_div, "shape_div(a,b)"},
  {"ceil_div", 2, 2, fn_ceil_div, "ceil_div(a,b)"},
  {"elem_scale", 2, 2, fn_elem_scale, "elem_scale(a,b)"},
  {"prefix_product", 1, 1, fn_prefix_product, "prefix_product(t)"},
  {"flatten", 1, 1, fn_flatten, "flatten(t) | flatten(L)"},
  {"unflatten", 2, 2, fn_unflatten, "unflatten(t,profile) | unflatten(L,profile)"},
  {"congruent", 2, 2, fn_congruent, "congruent(a,b)"},
  {"weakly_congruent", 2, 2, fn_weakly_congruent, "weakly_congruent(a,b)"},
  {"compatible", 2, 2, fn_compatible, "compatible(a,b)"},
  {"get", 2, 64, fn_get, "get(t,i...) | get(L,i...)"},
  {"idx2crd", 2, 3, fn_idx2crd, "idx2crd(idx,shape) | idx2crd(idx,shape,stride)"},
  {"crd2idx", 2, 3, fn_crd2idx, "crd2idx(crd,shape) | crd2idx(crd,shape,stride) | crd2idx(crd,L)"},
  {"crd2crd", 3, 3, fn_crd2crd, "crd2crd(crd,shape,shape)"},
  {"compact_col_major", 1, 1, fn_compact, "compact_col_major(shape)"},
  {"compact_row_major", 1, 1, fn_compact, "compact_row_major(shape)"},
  {"compact_order", 2, 2, fn_compact_order, "compact_order(shape,order)"},
  {NULL, 0, 0, NULL, NULL},
};
