/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_swizzle.c: swizzles and composed layouts in the eval language.
 *
 * `Swizzle(b,m,s)` (and the literal `Sw<b,m,s>`) makes a swizzle value;
 * `A o offset o B` and make_composed_layout make composed layouts.  This
 * table comes after the algebra's in eval.c, so its entries take over the
 * algebra's names: each one handles the forms with a swizzle or a composed
 * layout among its arguments and hands every other call to the builtin it
 * shadows, so that plain layouts behave exactly as without this module. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"

/* ------------------------------------------------------------ values */

static value value_of_swizzle(cl_swizzle_t sw) {
  return (value){.kind = V_SWIZZLE, .num = {sw.bits, sw.base, sw.shift}};
}

static value value_of_composed(cl_composed_t *c) { return (value){.kind = V_COMPOSED, .composed = c}; }

static bool is_swizzle(const value *v) { return v->kind == V_SWIZZLE; }
static bool is_composed(const value *v) { return v->kind == V_COMPOSED; }

/* A V_SWIZZLE value holds a validated swizzle (only Swizzle() makes them). */
static cl_swizzle_t swizzle_of(const value *v) {
  return (cl_swizzle_t){(int32_t)v->num[0], (int32_t)v->num[1], (int32_t)v->num[2]};
}

static const cl_composed_t *composed_of(const value *v) { return v->composed; }

/* Value hooks of value.c: composed values own a cl_composed_t. */
void cli_swizzle_free_composed(void *composed) { cl_composed_free(composed); }

char *cli_swizzle_format_composed(const void *composed) {
  char *s = NULL;
  if (cl_composed_to_string(composed, &s) != CL_OK)
    return NULL;
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (copy != NULL)
    memcpy(copy, s, n);
  cl_string_free(s);
  return copy;
}

/* An either-or library result (swizzle.h) as a value.  The handles are read
 * through pointers, after the call that fills them has run. */
static cl_status either_result(cl_status s, cl_layout_t *const *l, cl_composed_t *const *c, value *out) {
  if (s != CL_OK)
    return s;
  *out = *l != NULL ? value_of_layout(*l) : value_of_composed(*c);
  return CL_OK;
}

static cl_status swizzle_result(cl_status s, const cl_swizzle_t *sw, value *out) {
  if (s == CL_OK)
    *out = value_of_swizzle(*sw);
  return s;
}

static cl_status int_result(cl_status s, int64_t v, value *out) { return s == CL_OK ? value_of_int(v, out) : s; }

/* A layout or a swizzle argument, as the library's borrowed view. */
static bool as_fn(const value *v, cl_fn *f) {
  if (is_layout(v))
    *f = cl_fn_layout(v->layout);
  else if (is_swizzle(v))
    *f = cl_fn_swizzle(swizzle_of(v));
  else
    return false;
  return true;
}

/* A layout, a swizzle or a composed layout argument, which can stand on a
 * side of a composed layout. */
static bool as_side(const value *v, cl_layout_fn_t *f) {
  cl_fn fn;
  if (is_composed(v))
    *f = cl_layout_fn_composed(composed_of(v));
  else if (as_fn(v, &fn))
    *f = cl_layout_fn_of(fn);
  else
    return false;
  return true;
}

/* A tiler argument (algebra.h): a tuple value, or a layout as a tuple leaf
 * (*owned, to be freed by the caller). */
static cl_status tiler_arg(const char *name, const value *a, int i, const cl_tuple_t **tiler, cl_tuple_t **owned) {
  *owned = NULL;
  if (is_layout(&a[i])) {
    TRY(cl_tuple_from_layout(a[i].layout, owned));
    *tiler = *owned;
    return CL_OK;
  }
  if (a[i].kind != V_TUPLE)
    return cli_fail(CL_E_TYPE, "%s: argument %d must be a layout or a tiler", name, i + 1);
  *tiler = a[i].tuple;
  return CL_OK;
}

static bool any_of_ours(const value *a, int n) {
  for (int i = 0; i < n; i++)
    if (is_swizzle(&a[i]) || is_composed(&a[i]))
      return true;
  return false;
}

/* ------------------------------------------------------------ delegation */

extern const builtin cli_builtins_swizzle[];

/* Calls the builtin of the same name that this module's entry shadows. */
static cl_status delegate(const char *name, const value *a, int n, value *out) {
  if (builtin_find_before(cli_builtins_swizzle, name) == NULL)
    return cli_fail(CL_E_TYPE, "%s: needs a swizzle or a composed layout among its arguments", name);
  return builtin_delegate(cli_builtins_swizzle, name, a, n, out);
}

/* ------------------------------------------------------------ swizzles */

/* Swizzle(b,m,s): CuTe's Swizzle<B,M,S>. */
static cl_status fn_swizzle(const char *name, const value *a, int n, value *out) {
  int64_t v[3];
  for (int i = 0; i < 3; i++)
    TRY(arg_int(name, a, i, &v[i]));
  cl_swizzle_t sw;
  return swizzle_result(cl_swizzle_make(v[0], v[1], v[2], &sw), &sw, out);
}

/* make_swizzle(Y,Z): the swizzle with these yyy and zzz masks. */
static cl_status fn_make_swizzle(const char *name, const value *a, int n, value *out) {
  int64_t y, z;
  TRY(arg_int(name, a, 0, &y));
  TRY(arg_int(name, a, 1, &z));
  cl_swizzle_t sw;
  return swizzle_result(cl_make_swizzle(y, z, &sw), &sw, out);
}

/* make_composed_layout(A, offset, B), and `A o offset o B` / `A o B`. */
static cl_status fn_make_composed_layout(const char *name, const value *a, int n, value *out) {
  cl_layout_fn_t outer, inner;
  int64_t offset = 0;
  if (!as_side(&a[0], &outer))
    return cli_fail(CL_E_TYPE, "%s: the outer function (argument 1) must be a layout, a swizzle or a composed layout", name);
  if (n == 3)
    TRY(arg_int(name, a, 1, &offset));
  if (!as_side(&a[n - 1], &inner))
    return cli_fail(CL_E_TYPE, "%s: the inner function (argument %d) must be a layout, a swizzle or a composed layout", name,
                    n);
  cl_composed_t *c = NULL;
  TRY(cl_make_composed_nested(outer, offset, inner, &c));
  *out = value_of_composed(c);
  return CL_OK;
}

/* composition(Sw, L), composition(Sw, offset, L), composition(L, Sw),
 * composition(Sw, Sw), composition(A, offset, B) for layouts and swizzles. */
static cl_status fn_composition(const char *name, const value *a, int n, value *out) {
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  cl_fn outer, inner;
  if (n == 3) {
    int64_t offset;
    TRY(arg_int(name, a, 1, &offset));
    if (as_fn(&a[0], &outer) && as_fn(&a[2], &inner))
      return either_result(cl_composition_offset(outer, offset, inner, &l, &c), &l, &c, out);
    /* A composed side: CuTe's composition(A, O, B) is ComposedLayout{A, O, B}. */
    cl_layout_fn_t outer_side, inner_side;
    if (!as_side(&a[0], &outer_side) || !as_side(&a[2], &inner_side))
      return cli_fail(CL_E_TYPE, "%s: composition(A, offset, B) takes layouts, swizzles or composed layouts as A and B",
                      name);
    TRY(cl_make_composed_nested(outer_side, offset, inner_side, &c));
    *out = value_of_composed(c);
    return CL_OK;
  }
  if (!any_of_ours(a, n))
    return delegate(name, a, n, out);
  if (is_swizzle(&a[0]) && is_swizzle(&a[1])) {
    cl_swizzle_t sw;
    return swizzle_result(cl_swizzle_composition(swizzle_of(&a[0]), swizzle_of(&a[1]), &sw), &sw, out);
  }
  if (is_swizzle(&a[0]) && is_layout(&a[1]))
    return either_result(cl_composition_offset(cl_fn_swizzle(swizzle_of(&a[0])), 0, cl_fn_layout(a[1].layout), &l, &c),
                         &l, &c, out);
  if (is_layout(&a[0]) && is_swizzle(&a[1]))
    return either_result(cl_composition_with_swizzle(a[0].layout, swizzle_of(&a[1]), &l, &c), &l, &c, out);
  if (is_layout(&a[0]) && is_composed(&a[1]))
    return either_result(cl_composition_with_composed(a[0].layout, composed_of(&a[1]), &l, &c), &l, &c, out);
  if (is_composed(&a[0]) && is_composed(&a[1]))
    return either_result(cl_composed_composition_with_composed(composed_of(&a[0]), composed_of(&a[1]), &l, &c), &l, &c,
                         out);
  if (is_composed(&a[0]) && !is_swizzle(&a[1]) && !is_composed(&a[1])) {
    cl_tuple_t *owned = NULL;
    const cl_tuple_t *tiler;
    TRY(tiler_arg(name, a, 1, &tiler, &owned));
    cl_status s = cl_composed_composition(composed_of(&a[0]), tiler, &l, &c);
    cl_tuple_free(owned);
    return either_result(s, &l, &c, out);
  }
  return cli_fail(CL_E_UNSUPPORTED, "%s: CuTe has no composition of these arguments", name);
}

/* make_layout(Sw) is CuTe's composition(Sw, (M+B+|S|):1). */
static cl_status fn_make_layout(const char *name, const value *a, int n, value *out) {
  if (n == 1 && is_swizzle(&a[0])) {
    cl_layout_t *l = NULL;
    cl_composed_t *c = NULL;
    return either_result(cl_make_layout_from_swizzle(swizzle_of(&a[0]), &l, &c), &l, &c, out);
  }
  if (any_of_ours(a, n))
    return cli_fail(CL_E_UNSUPPORTED, "%s: takes a single swizzle, or shapes, strides and layouts", name);
  return delegate(name, a, n, out);
}

/* ------------------------------------------------------------ queries */

/* The composed layout in argument i, or a message. */
static cl_status arg_composed(const char *name, const value *a, int i, const cl_composed_t **out) {
  if (!is_composed(&a[i]))
    return cli_fail(CL_E_TYPE, "%s: argument %d must be a composed layout", name, i + 1);
  *out = composed_of(&a[i]);
  return CL_OK;
}

typedef cl_status (*composed_count)(const cl_composed_t *, int64_t *);

static cl_status count_query(const char *name, const value *a, int n, composed_count f, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  if (n != 1)
    return cli_fail(CL_E_RANK, "%s: takes one composed layout", name);
  int64_t v = 0;
  cl_status s = f(composed_of(&a[0]), &v);
  return int_result(s, v, out);
}

static cl_status rank_of(const cl_composed_t *c, int64_t *v) {
  *v = cl_composed_rank(c);
  return *v < 0 ? (cl_status)*v : CL_OK;
}
static cl_status depth_of(const cl_composed_t *c, int64_t *v) {
  *v = cl_composed_depth(c);
  return *v < 0 ? (cl_status)*v : CL_OK;
}

static cl_status fn_size(const char *name, const value *a, int n, value *out) { return count_query(name, a, n, cl_composed_size, out); }
static cl_status fn_cosize(const char *name, const value *a, int n, value *out) { return count_query(name, a, n, cl_composed_cosize, out); }
static cl_status fn_rank(const char *name, const value *a, int n, value *out) { return count_query(name, a, n, rank_of, out); }
static cl_status fn_depth(const char *name, const value *a, int n, value *out) { return count_query(name, a, n, depth_of, out); }

static cl_status fn_shape(const char *name, const value *a, int n, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  cl_tuple_t *t = NULL;
  TRY(cl_composed_shape(composed_of(&a[0]), &t));
  *out = value_of_tuple(t);
  return CL_OK;
}

/* crd2idx(crd, C) is CuTe's C(crd). */
static cl_status fn_crd2idx(const char *name, const value *a, int n, value *out) {
  if (n != 2 || !is_composed(&a[1]))
    return delegate(name, a, n, out);
  const cl_tuple_t *crd;
  TRY(arg_tuple(name, a, 0, &crd));
  int64_t v = 0;
  cl_status s = cl_composed_eval_coord(composed_of(&a[1]), crd, &v);
  return int_result(s, v, out);
}

/* ------------------------------------------------------------ slicing */

/* A pair (X, offset) as CuTe prints it.  With a plain layout it is a tuple
 * value; a tuple cannot hold a composed layout, so then it is its text. */
cl_status cli_pair_result(cl_layout_t *l, cl_composed_t *c, int64_t offset, value *out) {
  cl_status s;
  if (l != NULL) {
    cl_tuple_t *parts[2] = {NULL, NULL}, *pair = NULL;
    s = cl_tuple_from_layout(l, &parts[0]);
    if (s == CL_OK)
      s = cl_tuple_int(offset, &parts[1]);
    if (s == CL_OK)
      s = cl_tuple_make((const cl_tuple_t *const *)parts, 2, &pair);
    cl_tuple_free(parts[0]);
    cl_tuple_free(parts[1]);
    cl_layout_free(l);
    if (s == CL_OK)
      *out = value_of_tuple(pair);
    return s;
  }
  char *text = cli_swizzle_format_composed(c);
  cl_composed_free(c);
  if (text == NULL)
    return cli_fail(CL_E_NOMEM, "out of memory");
  size_t n = strlen(text);
  char *pair = malloc(n + 32);
  if (pair == NULL) {
    free(text);
    return cli_fail(CL_E_NOMEM, "out of memory");
  }
  snprintf(pair, n + 32, "(%s,%lld)", text, (long long)offset);
  free(text);
  *out = value_of_text(pair);
  return CL_OK;
}

static cl_status fn_slice(const char *name, const value *a, int n, value *out) {
  if (n != 2 || !is_composed(&a[1]))
    return delegate(name, a, n, out);
  const cl_tuple_t *crd;
  TRY(arg_tuple(name, a, 0, &crd));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  return either_result(cl_composed_slice(crd, composed_of(&a[1]), &l, &c), &l, &c, out);
}

static cl_status fn_slice_and_offset(const char *name, const value *a, int n, value *out) {
  if (n != 2 || !is_composed(&a[1]))
    return delegate(name, a, n, out);
  const cl_tuple_t *crd;
  TRY(arg_tuple(name, a, 0, &crd));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  int64_t offset = 0;
  TRY(cl_composed_slice_and_offset(crd, composed_of(&a[1]), &l, &c, &offset));
  return cli_pair_result(l, c, offset, out);
}

/* ------------------------------------------------------------ modes */

static cl_status fn_get(const char *name, const value *a, int n, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  int64_t path[64];
  for (int i = 1; i < n; i++)
    TRY(arg_int(name, a, i, &path[i - 1]));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  return either_result(cl_composed_get(composed_of(&a[0]), path, n - 1, &l, &c), &l, &c, out);
}

typedef cl_status (*composed_range_op)(const cl_composed_t *, int64_t, int64_t, cl_layout_t **, cl_composed_t **);

static cl_status by_range(const char *name, const value *a, int n, composed_range_op f, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  int64_t b, e;
  if (n != 3)
    return cli_fail(CL_E_RANK, "%s: takes (C, begin, end)", name);
  TRY(arg_int(name, a, 1, &b));
  TRY(arg_int(name, a, 2, &e));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  return either_result(f(composed_of(&a[0]), b, e, &l, &c), &l, &c, out);
}

static cl_status fn_take(const char *name, const value *a, int n, value *out) { return by_range(name, a, n, cl_composed_take, out); }
static cl_status fn_group(const char *name, const value *a, int n, value *out) { return by_range(name, a, n, cl_composed_group, out); }

typedef cl_status (*composed_unary_op)(const cl_composed_t *, cl_layout_t **, cl_composed_t **);

static cl_status unary(const char *name, const value *a, int n, composed_unary_op f, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  if (n != 1)
    return cli_fail(CL_E_RANK, "%s: takes one composed layout", name);
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  return either_result(f(composed_of(&a[0]), &l, &c), &l, &c, out);
}

static cl_status fn_flatten(const char *name, const value *a, int n, value *out) { return unary(name, a, n, cl_composed_flatten, out); }
static cl_status fn_zip(const char *name, const value *a, int n, value *out) { return unary(name, a, n, cl_composed_zip, out); }

typedef cl_status (*composed_to_layout)(const cl_composed_t *, cl_layout_t **);

static cl_status to_layout(const char *name, const value *a, int n, composed_to_layout f, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  if (n != 1)
    return cli_fail(CL_E_RANK, "%s: takes one composed layout", name);
  cl_layout_t *l = NULL;
  TRY(f(composed_of(&a[0]), &l));
  *out = value_of_layout(l);
  return CL_OK;
}

static cl_status fn_make_fragment_like(const char *name, const value *a, int n, value *out) {
  return to_layout(name, a, n, cl_composed_make_fragment_like, out);
}
static cl_status fn_nullspace(const char *name, const value *a, int n, value *out) {
  return to_layout(name, a, n, cl_composed_nullspace, out);
}

/* ------------------------------------------------------------ algebra */

typedef cl_status (*composed_tiler_op)(const cl_composed_t *, const cl_tuple_t *, cl_layout_t **, cl_composed_t **);
typedef cl_status (*with_composed_op)(const cl_layout_t *, const cl_composed_t *, cl_layout_t **, cl_composed_t **);

/* f(C, tiler), or g(L, C) where CuTe has it (g NULL: it does not). */
static cl_status by_tiler(const char *name, const value *a, int n, composed_tiler_op f, with_composed_op g, value *out) {
  if (!any_of_ours(a, n))
    return delegate(name, a, n, out);
  if (n != 2)
    return cli_fail(CL_E_RANK, "%s: takes two arguments", name);
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  if (is_composed(&a[0]) && !is_swizzle(&a[1]) && !is_composed(&a[1])) {
    cl_tuple_t *owned = NULL;
    const cl_tuple_t *tiler;
    TRY(tiler_arg(name, a, 1, &tiler, &owned));
    cl_status s = f(composed_of(&a[0]), tiler, &l, &c);
    cl_tuple_free(owned);
    return either_result(s, &l, &c, out);
  }
  if (g != NULL && is_layout(&a[0]) && is_composed(&a[1]))
    return either_result(g(a[0].layout, composed_of(&a[1]), &l, &c), &l, &c, out);
  return cli_fail(CL_E_UNSUPPORTED, "%s: CuTe has no %s of these arguments", name, name);
}

#define TILER_BUILTIN(fn, with)                                                       \
  static cl_status fn_##fn(const char *name, const value *a, int n, value *out) {     \
    return by_tiler(name, a, n, cl_composed_##fn, with, out);                         \
  }
TILER_BUILTIN(logical_divide, NULL)
TILER_BUILTIN(zipped_divide, NULL)
TILER_BUILTIN(tiled_divide, NULL)
TILER_BUILTIN(flat_divide, NULL)
TILER_BUILTIN(logical_product, cl_logical_product_with_composed)
TILER_BUILTIN(zipped_product, cl_zipped_product_with_composed)
TILER_BUILTIN(tiled_product, cl_tiled_product_with_composed)
TILER_BUILTIN(flat_product, cl_flat_product_with_composed)

typedef cl_status (*composed_layout_op)(const cl_composed_t *, const cl_layout_t *, cl_layout_t **, cl_composed_t **);

/* blocked_product(C, L) and raked_product(C, L): CuTe has them for a layout
 * tiler only. */
static cl_status by_layout(const char *name, const value *a, int n, composed_layout_op f, value *out) {
  if (!any_of_ours(a, n))
    return delegate(name, a, n, out);
  if (n != 2 || !is_composed(&a[0]) || !is_layout(&a[1]))
    return cli_fail(CL_E_UNSUPPORTED, "%s: CuTe has %s(C, L) for a composed C and a layout L only", name, name);
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  return either_result(f(composed_of(&a[0]), a[1].layout, &l, &c), &l, &c, out);
}

static cl_status fn_blocked_product(const char *name, const value *a, int n, value *out) {
  return by_layout(name, a, n, cl_composed_blocked_product, out);
}
static cl_status fn_raked_product(const char *name, const value *a, int n, value *out) {
  return by_layout(name, a, n, cl_composed_raked_product, out);
}

/* tile_to_shape(C, shape[, order | LayoutLeft | LayoutRight]).  The product
 * shape is flat, so LayoutRight is the order (R-1, ..., 1, 0). */
static cl_status fn_tile_to_shape(const char *name, const value *a, int n, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  if (n < 2 || n > 3)
    return cli_fail(CL_E_RANK, "%s: takes (C, shape[, order])", name);
  const cl_tuple_t *shape, *order = NULL;
  cl_tuple_t *reversed = NULL;
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
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  cl_status s = cl_composed_tile_to_shape(composed_of(&a[0]), shape, order, &l, &c);
  cl_tuple_free(reversed);
  return either_result(s, &l, &c, out);
}

typedef cl_status (*composed_profile_op)(const cl_composed_t *, const cl_tuple_t *, cl_layout_t **, cl_composed_t **);

static cl_status with_profile(const char *name, const value *a, int n, composed_profile_op f, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  if (n > 2)
    return cli_fail(CL_E_RANK, "%s: takes (C[, profile])", name);
  const cl_tuple_t *profile = NULL;
  if (n == 2)
    TRY(arg_tuple(name, a, 1, &profile));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  return either_result(f(composed_of(&a[0]), profile, &l, &c), &l, &c, out);
}

static cl_status fn_coalesce(const char *name, const value *a, int n, value *out) {
  return with_profile(name, a, n, cl_composed_coalesce, out);
}
static cl_status fn_filter(const char *name, const value *a, int n, value *out) {
  return with_profile(name, a, n, cl_composed_filter, out);
}

static cl_status fn_complement(const char *name, const value *a, int n, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  if (n > 2)
    return cli_fail(CL_E_RANK, "%s: takes (C[, cotarget])", name);
  const cl_tuple_t *cotarget = NULL;
  if (n == 2)
    TRY(arg_tuple(name, a, 1, &cotarget));
  cl_layout_t *l = NULL;
  TRY(cl_composed_complement(composed_of(&a[0]), cotarget, &l));
  *out = value_of_layout(l);
  return CL_OK;
}

/* right_inverse / left_inverse; of Sw o 0 o Sw2, CuTe's answer is the single
 * swizzle composition(Sw2, Sw). */
static cl_status inverse(const char *name, const value *a, int n, composed_unary_op f, value *out) {
  if (is_swizzle(&a[0]) && n == 1) {
    *out = a[0]; /* a swizzle is its own inverse; values are plain data */
    return CL_OK;
  }
  if (is_composed(&a[0]) && n == 1) {
    cl_fn outer, inner;
    int64_t offset;
    TRY(cl_composed_parts(composed_of(&a[0]), &outer, &offset, &inner));
    if (outer.kind == CL_FN_SWIZZLE && inner.kind == CL_FN_SWIZZLE && offset == 0) {
      cl_swizzle_t sw;
      return swizzle_result(cl_swizzle_composition(inner.swizzle, outer.swizzle, &sw), &sw, out);
    }
  }
  return unary(name, a, n, f, out);
}

static cl_status fn_right_inverse(const char *name, const value *a, int n, value *out) {
  return inverse(name, a, n, cl_composed_right_inverse, out);
}
static cl_status fn_left_inverse(const char *name, const value *a, int n, value *out) {
  return inverse(name, a, n, cl_composed_left_inverse, out);
}

typedef cl_status (*composed_cast_op)(const cl_composed_t *, int64_t, cl_layout_t **, cl_composed_t **);
typedef cl_status (*swizzle_cast_op)(cl_swizzle_t, int64_t, cl_swizzle_t *);

static cl_status cast(const char *name, const value *a, int n, composed_cast_op f, swizzle_cast_op g, value *out) {
  if (!any_of_ours(a, n))
    return delegate(name, a, n, out);
  int64_t factor;
  if (n != 2)
    return cli_fail(CL_E_RANK, "%s: takes (C, n)", name);
  TRY(arg_int(name, a, 1, &factor));
  if (is_swizzle(&a[0])) {
    cl_swizzle_t sw;
    return swizzle_result(g(swizzle_of(&a[0]), factor, &sw), &sw, out);
  }
  const cl_composed_t *composed = NULL;
  TRY(arg_composed(name, a, 0, &composed));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  return either_result(f(composed, factor, &l, &c), &l, &c, out);
}

static cl_status fn_upcast(const char *name, const value *a, int n, value *out) {
  return cast(name, a, n, cl_composed_upcast, cl_swizzle_upcast, out);
}
static cl_status fn_downcast(const char *name, const value *a, int n, value *out) {
  return cast(name, a, n, cl_composed_downcast, cl_swizzle_downcast, out);
}

/* max_common_vector and max_common_layout are symmetric in CuTe. */
static cl_status fn_max_common_vector(const char *name, const value *a, int n, value *out) {
  if (!any_of_ours(a, n))
    return delegate(name, a, n, out);
  if (n != 2)
    return cli_fail(CL_E_RANK, "%s: takes two arguments", name);
  int64_t v = 0;
  cl_status s;
  if (is_composed(&a[0]) && is_composed(&a[1]))
    s = cl_composed_max_common_vector2(composed_of(&a[0]), composed_of(&a[1]), &v);
  else if (is_composed(&a[0]) && is_layout(&a[1]))
    s = cl_composed_max_common_vector(composed_of(&a[0]), a[1].layout, &v);
  else if (is_layout(&a[0]) && is_composed(&a[1]))
    s = cl_composed_max_common_vector(composed_of(&a[1]), a[0].layout, &v);
  else
    return cli_fail(CL_E_UNSUPPORTED, "%s: takes layouts and composed layouts", name);
  return int_result(s, v, out);
}

static cl_status fn_max_common_layout(const char *name, const value *a, int n, value *out) {
  if (!any_of_ours(a, n))
    return delegate(name, a, n, out);
  if (n != 2)
    return cli_fail(CL_E_RANK, "%s: takes two arguments", name);
  cl_layout_t *l = NULL;
  if (is_composed(&a[0]) && is_layout(&a[1]))
    TRY(cl_composed_max_common_layout(composed_of(&a[0]), a[1].layout, &l));
  else if (is_layout(&a[0]) && is_composed(&a[1]))
    TRY(cl_composed_max_common_layout(composed_of(&a[1]), a[0].layout, &l));
  else
    return cli_fail(CL_E_UNSUPPORTED, "%s: CuTe has it for a swizzled composed layout and a layout", name);
  *out = value_of_layout(l);
  return CL_OK;
}

/* ------------------------------------------------------------ pictures */

typedef int64_t (*composed_printer)(const cl_composed_t *, char *, size_t);

static cl_status picture(const char *name, const value *a, int n, composed_printer f, bool strip_newline, value *out) {
  if (!is_composed(&a[0]))
    return delegate(name, a, n, out);
  const cl_composed_t *c = composed_of(&a[0]);
  int64_t len = f(c, NULL, 0);
  if (len < 0)
    return (cl_status)len;
  char *text = malloc((size_t)len + 1);
  if (text == NULL)
    return cli_fail(CL_E_NOMEM, "out of memory");
  f(c, text, (size_t)len + 1);
  if (strip_newline && len > 0 && text[len - 1] == '\n')
    text[len - 1] = '\0';
  *out = value_of_text(text);
  return CL_OK;
}

static cl_status fn_print_layout(const char *name, const value *a, int n, value *out) {
  return picture(name, a, n, cl_composed_print_layout, true, out);
}
static cl_status fn_print1d(const char *name, const value *a, int n, value *out) {
  return picture(name, a, n, cl_composed_print_1d, false, out);
}

/* ------------------------------------------------------------ table */

const builtin cli_builtins_swizzle[] = {
  {"Swizzle", 3, 3, fn_swizzle, "Swizzle(b,m,s)"},
  {"make_swizzle", 2, 2, fn_make_swizzle, "make_swizzle(yyy_mask,zzz_mask)"},
  {"make_composed_layout", 2, 3, fn_make_composed_layout, "make_composed_layout(A,offset,B) | A o offset o B"},
  {"composition", 2, 3, fn_composition,
   "composition(A,B) | composition(Sw,L) | composition(L,Sw) | composition(C,tiler) | composition(A,offset,B)"},
  {"make_layout", 1, 64, fn_make_layout, "make_layout(shape[,stride|LayoutLeft|LayoutRight]) | make_layout(L0,L1,...) | make_layout(Sw)"},
  {"size", 1, 64, fn_size, "size(t) | size(L) | size(C)"},
  {"cosize", 1, 64, fn_cosize, "cosize(L) | cosize(C)"},
  {"rank", 1, 64, fn_rank, "rank(t) | rank(L) | rank(C)"},
  {"depth", 1, 64, fn_depth, "depth(t) | depth(L) | depth(C)"},
  {"shape", 1, 64, fn_shape, "shape(L) | shape(C)"},
  {"crd2idx", 1, 64, fn_crd2idx, "crd2idx(crd,shape) | crd2idx(crd,shape,stride) | crd2idx(crd,L) | crd2idx(crd,C)"},
  {"slice", 1, 64, fn_slice, "slice(crd,L) | slice(crd,C)"},
  {"slice_and_offset", 1, 64, fn_slice_and_offset, "slice_and_offset(crd,L) | slice_and_offset(crd,C)"},
  {"get", 1, 64, fn_get, "get(t,i...) | get(L,i...) | get(C,i...)"},
  {"take", 1, 64, fn_take, "take(L,b,e) | take(C,b,e)"},
  {"group", 1, 64, fn_group, "group(L,b,e) | group(C,b,e)"},
  {"flatten", 1, 64, fn_flatten, "flatten(t) | flatten(L) | flatten(C)"},
  {"zip", 1, 64, fn_zip, "zip(L) | zip(C)"},
  {"make_fragment_like", 1, 64, fn_make_fragment_like, "make_fragment_like(L) | make_fragment_like(C)"},
  {"nullspace", 1, 64, fn_nullspace, "nullspace(L) | nullspace(C)"},
  {"coalesce", 1, 64, fn_coalesce, "coalesce(L[,profile]) | coalesce(C[,profile])"},
  {"filter", 1, 64, fn_filter, "filter(L[,profile]) | filter(C,profile)"},
  {"complement", 1, 64, fn_complement, "complement(L[,cotarget]) | complement(C[,cotarget])"},
  {"right_inverse", 1, 64, fn_right_inverse, "right_inverse(L) | right_inverse(C)"},
  {"left_inverse", 1, 64, fn_left_inverse, "left_inverse(L) | left_inverse(C)"},
  {"logical_divide", 1, 64, fn_logical_divide, "logical_divide(A,tiler) | logical_divide(C,tiler)"},
  {"zipped_divide", 1, 64, fn_zipped_divide, "zipped_divide(A,tiler) | zipped_divide(C,tiler)"},
  {"tiled_divide", 1, 64, fn_tiled_divide, "tiled_divide(A,tiler) | tiled_divide(C,tiler)"},
  {"flat_divide", 1, 64, fn_flat_divide, "flat_divide(A,tiler) | flat_divide(C,tiler)"},
  {"logical_product", 1, 64, fn_logical_product, "logical_product(A,tiler) | logical_product(C,tiler) | logical_product(L,C)"},
  {"zipped_product", 1, 64, fn_zipped_product, "zipped_product(A,tiler) | zipped_product(C,tiler) | zipped_product(L,C)"},
  {"tiled_product", 1, 64, fn_tiled_product, "tiled_product(A,tiler) | tiled_product(C,tiler) | tiled_product(L,C)"},
  {"flat_product", 1, 64, fn_flat_product, "flat_product(A,tiler) | flat_product(C,tiler) | flat_product(L,C)"},
  {"blocked_product", 1, 64, fn_blocked_product, "blocked_product(A,B) | blocked_product(C,B)"},
  {"raked_product", 1, 64, fn_raked_product, "raked_product(A,B) | raked_product(C,B)"},
  {"tile_to_shape", 1, 64, fn_tile_to_shape, "tile_to_shape(L,shape[,order]) | tile_to_shape(C,shape[,order])"},
  {"upcast", 1, 64, fn_upcast, "upcast(L,n) | upcast(C,n) | upcast(Sw,n)"},
  {"downcast", 1, 64, fn_downcast, "downcast(L,n) | downcast(C,n) | downcast(Sw,n)"},
  {"max_common_vector", 1, 64, fn_max_common_vector, "max_common_vector(A,B), A and B layouts or composed layouts"},
  {"max_common_layout", 1, 64, fn_max_common_layout, "max_common_layout(A,B), A and B layouts or composed layouts"},
  {"print_layout", 1, 64, fn_print_layout, "print_layout(L) | print_layout(C)"},
  {"print1D", 1, 64, fn_print1d, "print1D(L) | print1D(C)"},
  {NULL, 0, 0, NULL, NULL},
};
