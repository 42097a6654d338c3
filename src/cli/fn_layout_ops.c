/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_layout_ops.c: the rest of CuTe's layout.hpp, layout_composed.hpp and
 * swizzle_layout.hpp free functions in the eval language: dice, slice of
 * tuples, domain_offset, replace, coprofile, max_alignment, recast_layout,
 * domain_distribute, tile_unzip, append of composed layouts and the
 * swizzle/non-swizzle portions; and the whitepaper's algebra: layout_add,
 * greatest_common_domain, common_refinement, common_coarsening, coalesce_z
 * and the mode-targeted calls op[mode](...) (the parser calls the builtin
 * `op[]` with the mode's indices after the arguments).  This table comes last, so where a name is
 * also an earlier table's (slice, append) its entry takes the new forms and
 * hands every other call to the entry it extends. */
#include "builtins.h"

extern const builtin cli_builtins_layout_ops[];

static cl_status delegate(const char *name, const value *a, int n, value *out) {
  return builtin_delegate(cli_builtins_layout_ops, name, a, n, out);
}

static bool is_composed(const value *v) { return v->kind == V_COMPOSED; }
static bool is_swizzle(const value *v) { return v->kind == V_SWIZZLE; }

static cl_status either_result(cl_status s, cl_layout_t *const *l, cl_composed_t *const *c, value *out) {
  if (s != CL_OK)
    return s;
  if (*l != NULL)
    *out = value_of_layout(*l);
  else
    *out = (value){.kind = V_COMPOSED, .composed = *c};
  return CL_OK;
}

static cl_status layout_result(cl_status s, cl_layout_t *const *l, value *out) {
  if (s == CL_OK)
    *out = value_of_layout(*l);
  return s;
}

static cl_status tuple_result(cl_status s, cl_tuple_t *const *t, value *out) {
  if (s == CL_OK)
    *out = value_of_tuple(*t);
  return s;
}

/* slice(crd, t) and dice(crd, t) of tuples; dice(crd, L) of layouts. */
static cl_status fn_slice(const char *name, const value *a, int n, value *out) {
  if (n != 2 || a[1].kind != V_TUPLE)
    return delegate(name, a, n, out);
  const cl_tuple_t *crd;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &crd));
  return tuple_result(cl_tuple_slice(crd, a[1].tuple, &r), &r, out);
}

static cl_status fn_dice(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *crd;
  TRY(arg_tuple(name, a, 0, &crd));
  if (is_layout(&a[1])) {
    cl_layout_t *l = NULL;
    return layout_result(cl_layout_dice(crd, a[1].layout, &l), &l, out);
  }
  const cl_tuple_t *t;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 1, &t));
  return tuple_result(cl_tuple_dice(crd, t, &r), &r, out);
}

/* domain_offset(crd, L) = (L, L(crd)); domain_offset(crd, C) moves the
 * offset into C: (A o (offset + B(crd)) o B, 0). */
static cl_status fn_domain_offset(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *crd;
  TRY(arg_tuple(name, a, 0, &crd));
  int64_t offset = 0;
  if (is_composed(&a[1])) {
    cl_composed_t *c = NULL;
    TRY(cl_composed_domain_offset(crd, a[1].composed, &c, &offset));
    return cli_pair_result(NULL, c, offset, out);
  }
  const cl_layout_t *l;
  TRY(arg_layout(name, a, 1, &l));
  cl_layout_t *r = NULL;
  TRY(cl_domain_offset(crd, l, &r, &offset));
  return cli_pair_result(r, NULL, offset, out);
}

/* replace<i>(L, X) is replace(L, X, i): template arguments come last. */
static cl_status fn_replace(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l, *x;
  int64_t i;
  TRY(arg_layout(name, a, 0, &l));
  TRY(arg_layout(name, a, 1, &x));
  TRY(arg_int(name, a, 2, &i));
  cl_layout_t *r = NULL;
  return layout_result(cl_layout_replace(l, i, x, &r), &r, out);
}

static cl_status fn_coprofile(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  TRY(arg_layout(name, a, 0, &l));
  cl_tuple_t *r = NULL;
  return tuple_result(cl_layout_coprofile(l, &r), &r, out);
}

static cl_status fn_max_alignment(const char *name, const value *a, int n, value *out) {
  int64_t v = 0;
  if (is_swizzle(&a[0])) {
    cl_swizzle_t sw = {(int32_t)a[0].num[0], (int32_t)a[0].num[1], (int32_t)a[0].num[2]};
    v = cl_swizzle_max_alignment(sw);
  } else if (is_composed(&a[0])) {
    TRY(cl_composed_max_alignment(a[0].composed, &v));
  } else {
    const cl_layout_t *l;
    TRY(arg_layout(name, a, 0, &l));
    TRY(cl_max_alignment(l, &v));
  }
  return value_of_int(v, out);
}

/* recast_layout<Old,New>(L) is recast_layout(L, old_bits, new_bits). */
static cl_status fn_recast_layout(const char *name, const value *a, int n, value *out) {
  int64_t from, to;
  TRY(arg_int(name, a, 1, &from));
  TRY(arg_int(name, a, 2, &to));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  if (is_composed(&a[0]))
    return either_result(cl_composed_recast_layout(a[0].composed, from, to, &l, &c), &l, &c, out);
  const cl_layout_t *x;
  TRY(arg_layout(name, a, 0, &x));
  return layout_result(cl_recast_layout(x, from, to, &l), &l, out);
}

/* domain_distribute(shape, n); a layout stands for its shape, as in CuTe. */
static cl_status fn_domain_distribute(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *shape, *count;
  cl_tuple_t *owned = NULL;
  if (is_layout(&a[0])) {
    TRY(cl_layout_shape(a[0].layout, &owned));
    shape = owned;
  } else {
    TRY(arg_tuple(name, a, 0, &shape));
  }
  cl_status s = arg_tuple(name, a, 1, &count);
  cl_layout_t *l = NULL;
  if (s == CL_OK)
    s = cl_domain_distribute(shape, count, &l);
  cl_tuple_free(owned);
  return layout_result(s, &l, out);
}

/* A tiler argument: a tuple, or a layout as a tuple leaf (*owned). */
static cl_status tiler_arg(const char *name, const value *a, int i, const cl_tuple_t **tiler, cl_tuple_t **owned) {
  *owned = NULL;
  if (is_layout(&a[i])) {
    TRY(cl_tuple_from_layout(a[i].layout, owned));
    *tiler = *owned;
    return CL_OK;
  }
  return arg_tuple(name, a, i, tiler);
}

static cl_status fn_tile_unzip(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *tiler;
  cl_tuple_t *owned = NULL;
  TRY(tiler_arg(name, a, 1, &tiler, &owned));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  cl_status s;
  if (is_composed(&a[0])) {
    s = cl_composed_tile_unzip(a[0].composed, tiler, &l, &c);
  } else {
    const cl_layout_t *x;
    s = arg_layout(name, a, 0, &x);
    if (s == CL_OK)
      s = cl_tile_unzip(x, tiler, &l);
  }
  cl_tuple_free(owned);
  return either_result(s, &l, &c, out);
}

/* append<N>(L, X) is append(L, X, N) (prepend likewise); CuTe's composed
 * layouts have only that form, append(C, X, N).  Other forms are the
 * layouts' append(L[,X]). */
static cl_status fn_append(const char *name, const value *a, int n, value *out) {
  bool front = name[0] == 'p';
  if (n < 3) {
    if (is_composed(&a[0]))
      return cli_fail(CL_E_UNSUPPORTED, "%s: CuTe appends to a composed layout only up to a rank: append(C,X,N)", name);
    return delegate(name, a, n, out);
  }
  const cl_layout_t *x;
  int64_t rank;
  TRY(arg_layout(name, a, 1, &x));
  TRY(arg_int(name, a, 2, &rank));
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  if (is_composed(&a[0])) {
    if (front)
      return cli_fail(CL_E_UNSUPPORTED, "%s: CuTe has no prepend of a composed layout", name);
    return either_result(cl_composed_append(a[0].composed, x, rank, &l, &c), &l, &c, out);
  }
  const cl_layout_t *base;
  TRY(arg_layout(name, a, 0, &base));
  return layout_result(front ? cl_layout_prepend_to(base, x, rank, &l) : cl_layout_append_to(base, x, rank, &l), &l, out);
}

/* get_swizzle_portion(C): the swizzle of Sw o offset o B, and Sw<0,4,3> (the
 * identity) for a layout; get_nonswizzle_portion(C): B, and a layout itself. */
static cl_status fn_swizzle_portion(const char *name, const value *a, int n, value *out) {
  bool swizzle_part = name[4] == 's'; /* get_swizzle_portion */
  if (is_layout(&a[0])) {
    if (swizzle_part) {
      *out = (value){.kind = V_SWIZZLE, .num = {0, 4, 3}};
      return CL_OK;
    }
    cl_layout_t *l = NULL;
    return layout_result(cl_layout_copy(a[0].layout, &l), &l, out);
  }
  cl_fn outer, inner;
  if (!is_composed(&a[0]))
    return cli_fail(CL_E_TYPE, "%s: takes a layout or a swizzled composed layout", name);
  TRY(cl_composed_parts(a[0].composed, &outer, NULL, &inner));
  if (outer.kind != CL_FN_SWIZZLE || inner.kind != CL_FN_LAYOUT)
    return cli_fail(CL_E_UNSUPPORTED, "%s: CuTe defines it for Sw o offset o L only", name);
  if (swizzle_part) {
    *out = (value){.kind = V_SWIZZLE, .num = {outer.swizzle.bits, outer.swizzle.base, outer.swizzle.shift}};
    return CL_OK;
  }
  cl_layout_t *l = NULL;
  return layout_result(cl_layout_copy(inner.layout, &l), &l, out);
}

/* ---- the whitepaper's algebra ---- */

/* A shape argument: an int tuple, or a layout's shape (*owned). */
static cl_status shape_arg(const char *name, const value *a, int i, const cl_tuple_t **shape, cl_tuple_t **owned) {
  *owned = NULL;
  if (is_layout(&a[i])) {
    TRY(cl_layout_shape(a[i].layout, owned));
    *shape = *owned;
    return CL_OK;
  }
  return arg_tuple(name, a, i, shape);
}

static cl_status fn_greatest_common_domain(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *x = NULL, *y = NULL;
  cl_tuple_t *ox = NULL, *oy = NULL;
  cl_layout_t *l = NULL;
  cl_status s = shape_arg(name, a, 0, &x, &ox);
  if (s == CL_OK)
    s = shape_arg(name, a, 1, &y, &oy);
  if (s == CL_OK)
    s = cl_greatest_common_domain(x, y, &l);
  cl_tuple_free(ox);
  cl_tuple_free(oy);
  return layout_result(s, &l, out);
}

typedef cl_status (*shape_binary)(const cl_tuple_t *, const cl_tuple_t *, cl_tuple_t **);

static cl_status lattice(const char *name, const value *a, shape_binary f, value *out) {
  const cl_tuple_t *x = NULL, *y = NULL;
  cl_tuple_t *ox = NULL, *oy = NULL, *r = NULL;
  cl_status s = shape_arg(name, a, 0, &x, &ox);
  if (s == CL_OK)
    s = shape_arg(name, a, 1, &y, &oy);
  if (s == CL_OK)
    s = f(x, y, &r);
  cl_tuple_free(ox);
  cl_tuple_free(oy);
  return tuple_result(s, &r, out);
}

static cl_status fn_common_refinement(const char *name, const value *a, int n, value *out) {
  return lattice(name, a, cl_common_refinement, out);
}
static cl_status fn_common_coarsening(const char *name, const value *a, int n, value *out) {
  return lattice(name, a, cl_common_coarsening, out);
}

static cl_status fn_layout_add(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *x, *y;
  TRY(arg_layout(name, a, 0, &x));
  TRY(arg_layout(name, a, 1, &y));
  cl_layout_t *l = NULL;
  return layout_result(cl_layout_add(x, y, &l), &l, out);
}

static cl_status fn_coalesce_z(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *x;
  TRY(arg_layout(name, a, 0, &x));
  cl_layout_t *l = NULL;
  if (n == 1)
    return layout_result(cl_coalesce_z(x, &l), &l, out);
  const cl_tuple_t *profile;
  TRY(arg_tuple(name, a, 1, &profile));
  return layout_result(cl_coalesce_z_profile(x, profile, &l), &l, out);
}

/* op[mode...](A[, B]) arrives as `op[]` with the arguments, then the mode. */
typedef cl_status (*mode_tiler_op)(const cl_layout_t *, const cl_tuple_t *, const int64_t *, int64_t, cl_layout_t **);
typedef cl_status (*mode_unary_op)(const cl_layout_t *, const int64_t *, int64_t, cl_layout_t **);

static cl_status mode_path(const char *name, const value *a, int first, int n, int64_t *path) {
  for (int i = first; i < n; i++)
    TRY(arg_int(name, a, i, &path[i - first]));
  return CL_OK;
}

static cl_status targeted_tiler(const char *name, const value *a, int n, mode_tiler_op f, value *out) {
  const cl_layout_t *x;
  const cl_tuple_t *tiler;
  cl_tuple_t *owned = NULL;
  int64_t path[64];
  TRY(arg_layout(name, a, 0, &x));
  TRY(mode_path(name, a, 2, n, path));
  TRY(tiler_arg(name, a, 1, &tiler, &owned));
  cl_layout_t *l = NULL;
  cl_status s = f(x, tiler, path, n - 2, &l);
  cl_tuple_free(owned);
  return layout_result(s, &l, out);
}

static cl_status targeted_unary(const char *name, const value *a, int n, mode_unary_op f, value *out) {
  const cl_layout_t *x;
  int64_t path[64];
  TRY(arg_layout(name, a, 0, &x));
  TRY(mode_path(name, a, 1, n, path));
  cl_layout_t *l = NULL;
  return layout_result(f(x, path, n - 1, &l), &l, out);
}

static cl_status fn_composition_at(const char *name, const value *a, int n, value *out) {
  return targeted_tiler(name, a, n, cl_composition_mode, out);
}
static cl_status fn_logical_divide_at(const char *name, const value *a, int n, value *out) {
  return targeted_tiler(name, a, n, cl_logical_divide_mode, out);
}
static cl_status fn_zipped_divide_at(const char *name, const value *a, int n, value *out) {
  return targeted_tiler(name, a, n, cl_zipped_divide_mode, out);
}
static cl_status fn_logical_product_at(const char *name, const value *a, int n, value *out) {
  return targeted_tiler(name, a, n, cl_logical_product_mode, out);
}
static cl_status fn_coalesce_at(const char *name, const value *a, int n, value *out) {
  return targeted_unary(name, a, n, cl_coalesce_mode, out);
}
static cl_status fn_coalesce_z_at(const char *name, const value *a, int n, value *out) {
  return targeted_unary(name, a, n, cl_coalesce_z_mode, out);
}

const builtin cli_builtins_layout_ops[] = {
  {"slice", 2, 2, fn_slice, "slice(crd,t) | slice(crd,L) | slice(crd,C)"},
  {"dice", 2, 2, fn_dice, "dice(crd,t) | dice(crd,L)"},
  {"domain_offset", 2, 2, fn_domain_offset, "domain_offset(crd,L) | domain_offset(crd,C)"},
  {"replace", 3, 3, fn_replace, "replace(L,X,i)"},
  {"coprofile", 1, 1, fn_coprofile, "coprofile(L)"},
  {"max_alignment", 1, 1, fn_max_alignment, "max_alignment(L) | max_alignment(C) | max_alignment(Sw)"},
  {"recast_layout", 3, 3, fn_recast_layout, "recast_layout(L,old_bits,new_bits) | recast_layout(C,old_bits,new_bits)"},
  {"domain_distribute", 2, 2, fn_domain_distribute, "domain_distribute(shape,n)"},
  {"tile_unzip", 2, 2, fn_tile_unzip, "tile_unzip(L,tiler) | tile_unzip(C,tiler)"},
  {"append", 1, 3, fn_append, "append(L[,X]) | append(L,X,N) | append(C,X,N)"},
  {"prepend", 1, 3, fn_append, "prepend(L[,X]) | prepend(L,X,N)"},
  {"get_swizzle_portion", 1, 1, fn_swizzle_portion, "get_swizzle_portion(C) | get_swizzle_portion(L)"},
  {"get_nonswizzle_portion", 1, 1, fn_swizzle_portion, "get_nonswizzle_portion(C) | get_nonswizzle_portion(L)"},
  {"layout_add", 2, 2, fn_layout_add, "layout_add(A,B)"},
  {"greatest_common_domain", 2, 2, fn_greatest_common_domain, "greatest_common_domain(A,B), A and B shapes or layouts"},
  {"common_refinement", 2, 2, fn_common_refinement, "common_refinement(a,b)"},
  {"common_coarsening", 2, 2, fn_common_coarsening, "common_coarsening(a,b)"},
  {"coalesce_z", 1, 2, fn_coalesce_z, "coalesce_z(L[,profile])"},
  {"composition[]", 3, 64, fn_composition_at, "composition[mode...](A,tiler)"},
  {"logical_divide[]", 3, 64, fn_logical_divide_at, "logical_divide[mode...](A,tiler)"},
  {"zipped_divide[]", 3, 64, fn_zipped_divide_at, "zipped_divide[mode...](A,tiler)"},
  {"logical_product[]", 3, 64, fn_logical_product_at, "logical_product[mode...](A,tiler)"},
  {"coalesce[]", 2, 64, fn_coalesce_at, "coalesce[mode...](L)"},
  {"coalesce_z[]", 2, 64, fn_coalesce_z_at, "coalesce_z[mode...](L)"},
  {NULL, 0, 0, NULL, NULL},
};
