/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_algebra.c: the "layout algebra" functions of the eval language
 * (CONTRACT.md), each a call of algebra.h.
 *
 * Argument forms: where CuTe takes a Layout or a Tiler, a layout value calls
 * the layout function and a tuple value (an integer, '_', a shape, or a tuple
 * mixing layouts and integers such as `(2:3,(2,3):(1,8))`) calls its _tiler
 * variant. */
#include "builtins.h"

static cl_status layout_result(cl_status s, cl_layout_t *const *l, value *out) {
  if (s == CL_OK)
    *out = value_of_layout(*l);
  return s;
}

typedef cl_status (*unary_fn)(const cl_layout_t *, cl_layout_t **);
typedef cl_status (*profile_fn)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);
typedef cl_status (*binary_fn)(const cl_layout_t *, const cl_layout_t *, cl_layout_t **);
typedef cl_status (*tiler_fn)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);

static cl_status unary(const char *name, const value *a, unary_fn f, value *out) {
  const cl_layout_t *l;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  return layout_result(f(l, &r), &r, out);
}

/* f(L) or f(L, profile). */
static cl_status with_profile(const char *name, const value *a, int n, unary_fn f, profile_fn fp, value *out) {
  if (n == 1)
    return unary(name, a, f, out);
  const cl_layout_t *l;
  const cl_tuple_t *profile;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  TRY(arg_tuple(name, a, 1, &profile));
  return layout_result(fp(l, profile, &r), &r, out);
}

/* f(A, B) for a layout B, or f_tiler(A, T) for any tuple value T. */
static cl_status by_tiler(const char *name, const value *a, binary_fn f, tiler_fn ft, value *out) {
  const cl_layout_t *l;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  if (is_layout(&a[1]))
    return layout_result(f(l, a[1].layout, &r), &r, out);
  const cl_tuple_t *tiler;
  TRY(arg_tuple(name, a, 1, &tiler));
  return layout_result(ft(l, tiler, &r), &r, out);
}

static cl_status fn_coalesce(const char *name, const value *a, int n, value *out) {
  return with_profile(name, a, n, cl_coalesce, cl_coalesce_profile, out);
}
static cl_status fn_filter(const char *name, const value *a, int n, value *out) {
  return with_profile(name, a, n, cl_filter, cl_filter_profile, out);
}
static cl_status fn_filter_zeros(const char *name, const value *a, int n, value *out) {
  return unary(name, a, cl_filter_zeros, out);
}
static cl_status fn_right_inverse(const char *name, const value *a, int n, value *out) {
  return unary(name, a, cl_right_inverse, out);
}
static cl_status fn_left_inverse(const char *name, const value *a, int n, value *out) {
  return unary(name, a, cl_left_inverse, out);
}
static cl_status fn_nullspace(const char *name, const value *a, int n, value *out) { return unary(name, a, cl_nullspace, out); }

static cl_status fn_composition(const char *name, const value *a, int n, value *out) {
  if (n != 2)
    return cli_fail(CL_E_RANK, "%s: composition(A, offset, B) needs a swizzle or composed layout", name);
  return by_tiler(name, a, cl_composition, cl_composition_tiler, out);
}

/* complement(L), complement(L, cotarget) for an integer or a shape cotarget. */
static cl_status fn_complement(const char *name, const value *a, int n, value *out) {
  if (n == 1)
    return unary(name, a, cl_complement_full, out);
  const cl_layout_t *l;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  if (is_int(&a[1])) {
    int64_t cotarget;
    TRY(arg_int(name, a, 1, &cotarget));
    return layout_result(cl_complement(l, cotarget, &r), &r, out);
  }
  const cl_tuple_t *cotarget;
  TRY(arg_tuple(name, a, 1, &cotarget));
  return layout_result(cl_complement_shape(l, cotarget, &r), &r, out);
}

#define TILING_BUILTIN(fn)                                                        \
  static cl_status fn_##fn(const char *name, const value *a, int n, value *out) { \
    return by_tiler(name, a, cl_##fn, cl_##fn##_tiler, out);                      \
  }
TILING_BUILTIN(logical_divide)
TILING_BUILTIN(zipped_divide)
TILING_BUILTIN(tiled_divide)
TILING_BUILTIN(flat_divide)
TILING_BUILTIN(logical_product)
TILING_BUILTIN(zipped_product)
TILING_BUILTIN(tiled_product)
TILING_BUILTIN(flat_product)

/* blocked_product and raked_product: CuTe has them for two layouts only. */
static cl_status two_layouts(const char *name, const value *a, binary_fn f, value *out) {
  const cl_layout_t *block, *tiler;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &block));
  TRY(arg_layout(name, a, 1, &tiler));
  return layout_result(f(block, tiler, &r), &r, out);
}
static cl_status fn_blocked_product(const char *name, const value *a, int n, value *out) {
  return two_layouts(name, a, cl_blocked_product, out);
}
static cl_status fn_raked_product(const char *name, const value *a, int n, value *out) {
  return two_layouts(name, a, cl_raked_product, out);
}

/* tile_to_shape(L, shape[, order | LayoutLeft | LayoutRight]).  The product
 * shape is flat, so LayoutRight is the order (R-1, ..., 1, 0). */
static cl_status fn_tile_to_shape(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  const cl_tuple_t *shape, *order = NULL;
  cl_tuple_t *reversed = NULL;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  TRY(arg_tuple(name, a, 1, &shape));
  if (n == 3 && a[2].kind == V_TAG && a[2].num[0]) {
    int64_t rank = cl_tuple_rank(shape), steps[64];
    if (rank > 64)
      return cli_fail(CL_E_LIMIT, "%s: LayoutRight order for more than 64 modes", name);
    for (int64_t i = 0; i < rank; i++)
      steps[i] = rank - 1 - i;
    TRY(cl_tuple_from_ints(steps, rank, &reversed));
    order = reversed;
  } else if (n == 3 && a[2].kind != V_TAG) {
    TRY(arg_tuple(name, a, 2, &order));
  }
  cl_status s = cl_tile_to_shape(l, shape, order, &r);
  cl_tuple_free(reversed);
  return layout_result(s, &r, out);
}

static cl_status fn_max_common_vector(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *x, *y;
  int64_t v = 0;
  TRY(arg_layout(name, a, 0, &x));
  TRY(arg_layout(name, a, 1, &y));
  TRY(cl_max_common_vector(x, y, &v));
  return value_of_int(v, out);
}

static cl_status fn_max_common_layout(const char *name, const value *a, int n, value *out) {
  return two_layouts(name, a, cl_max_common_layout, out);
}

typedef cl_status (*cast_fn)(const cl_layout_t *, int64_t, cl_layout_t **);

static cl_status cast(const char *name, const value *a, cast_fn f, value *out) {
  const cl_layout_t *l;
  int64_t factor;
  cl_layout_t *r = NULL;
  TRY(arg_layout(name, a, 0, &l));
  TRY(arg_int(name, a, 1, &factor));
  return layout_result(f(l, factor, &r), &r, out);
}
static cl_status fn_upcast(const char *name, const value *a, int n, value *out) { return cast(name, a, cl_upcast, out); }
static cl_status fn_downcast(const char *name, const value *a, int n, value *out) { return cast(name, a, cl_downcast, out); }

const builtin cli_builtins_algebra[] = {
  {"coalesce", 1, 2, fn_coalesce, "coalesce(L[,profile])"},
  {"filter", 1, 2, fn_filter, "filter(L[,profile])"},
  {"filter_zeros", 1, 1, fn_filter_zeros, "filter_zeros(L)"},
  {"composition", 2, 3, fn_composition, "composition(A,B) with B a layout, an integer, a shape or a tuple of layouts"},
  {"complement", 1, 2, fn_complement, "complement(L[,cotarget])"},
  {"right_inverse", 1, 1, fn_right_inverse, "right_inverse(L)"},
  {"left_inverse", 1, 1, fn_left_inverse, "left_inverse(L)"},
  {"logical_divide", 2, 2, fn_logical_divide, "logical_divide(A,tiler)"},
  {"zipped_divide", 2, 2, fn_zipped_divide, "zipped_divide(A,tiler)"},
  {"tiled_divide", 2, 2, fn_tiled_divide, "tiled_divide(A,tiler)"},
  {"flat_divide", 2, 2, fn_flat_divide, "flat_divide(A,tiler)"},
  {"logical_product", 2, 2, fn_logical_product, "logical_product(A,tiler)"},
  {"zipped_product", 2, 2, fn_zipped_product, "zipped_product(A,tiler)"},
  {"tiled_product", 2, 2, fn_tiled_product, "tiled_product(A,tiler)"},
  {"flat_product", 2, 2, fn_flat_product, "flat_product(A,tiler)"},
  {"blocked_product", 2, 2, fn_blocked_product, "blocked_product(A,B)"},
  {"raked_product", 2, 2, fn_raked_product, "raked_product(A,B)"},
  {"tile_to_shape", 2, 3, fn_tile_to_shape, "tile_to_shape(L,shape[,order])"},
  {"max_common_vector", 2, 2, fn_max_common_vector, "max_common_vector(A,B)"},
  {"max_common_layout", 2, 2, fn_max_common_layout, "max_common_layout(A,B)"},
  {"nullspace", 1, 1, fn_nullspace, "nullspace(L)"},
  {"upcast", 2, 2, fn_upcast, "upcast(L,n)"},
  {"downcast", 2, 2, fn_downcast, "downcast(L,n)"},
  {NULL, 0, 0, NULL, NULL},
};
