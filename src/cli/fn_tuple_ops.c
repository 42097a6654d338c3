/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_tuple_ops.c: the rest of CuTe's int_tuple.hpp and stride.hpp in the
 * eval language: max, min, gcd, product_each, product_like, round_up,
 * filter_zeros of int tuples, evenly_divides, the lex/colex comparisons
 * and elem_leq/_gtr/_geq (elem_less is fn_coord.c's), and the two-argument
 * compact strides.  Its table comes after
 * fn_tuple.c's and fn_algebra.c's, so compact_col_major, compact_row_major
 * and filter_zeros here answer every form of those names. */
#include <string.h>

#include "builtins.h"

static cl_status tuple_result(cl_status s, cl_tuple_t *const *t, value *out) {
  if (s == CL_OK)
    *out = value_of_tuple(*t);
  return s;
}

/* max(t...), min(t...), gcd(t...): CuTe folds its arguments from the right,
 * each a tuple standing for the reduction of its elements, which is the
 * reduction of the tuple of the arguments. */
typedef cl_status (*tuple_reduction)(const cl_tuple_t *, int64_t *);

static cl_status reduce_args(const char *name, const value *a, int n, tuple_reduction f, value *out) {
  const cl_tuple_t *args[64];
  for (int i = 0; i < n; i++)
    TRY(arg_tuple(name, a, i, &args[i]));
  int64_t v = 0;
  if (n == 1)
    TRY(f(args[0], &v));
  else {
    cl_tuple_t *all = NULL;
    TRY(cl_tuple_make(args, n, &all));
    cl_status s = f(all, &v);
    cl_tuple_free(all);
    TRY(s);
  }
  return value_of_int(v, out);
}

static cl_status fn_max(const char *name, const value *a, int n, value *out) { return reduce_args(name, a, n, cl_tuple_max, out); }
static cl_status fn_min(const char *name, const value *a, int n, value *out) { return reduce_args(name, a, n, cl_tuple_min, out); }
static cl_status fn_gcd(const char *name, const value *a, int n, value *out) { return reduce_args(name, a, n, cl_tuple_gcd, out); }

static cl_status fn_product_each(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *t;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &t));
  return tuple_result(cl_tuple_product_each(t, &r), &r, out);
}

typedef cl_status (*tuple_binary)(const cl_tuple_t *, const cl_tuple_t *, cl_tuple_t **);

static cl_status binary(const char *name, const value *a, tuple_binary f, value *out) {
  const cl_tuple_t *x, *y;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &x));
  TRY(arg_tuple(name, a, 1, &y));
  return tuple_result(f(x, y, &r), &r, out);
}

static cl_status fn_product_like(const char *name, const value *a, int n, value *out) {
  return binary(name, a, cl_tuple_product_like, out);
}
static cl_status fn_round_up(const char *name, const value *a, int n, value *out) {
  return binary(name, a, cl_tuple_round_up, out);
}

/* filter_zeros(L) of a layout (algebra.h), filter_zeros(t) and
 * filter_zeros(a, t) of int tuples. */
static cl_status fn_filter_zeros(const char *name, const value *a, int n, value *out) {
  if (is_layout(&a[0])) {
    if (n != 1)
      return cli_fail(CL_E_RANK, "%s: takes one layout, or int tuples (a[,t])", name);
    cl_layout_t *l = NULL;
    TRY(cl_filter_zeros(a[0].layout, &l));
    *out = value_of_layout(l);
    return CL_OK;
  }
  const cl_tuple_t *x, *y;
  cl_tuple_t *r = NULL;
  TRY(arg_tuple(name, a, 0, &x));
  TRY(arg_tuple(name, a, n - 1, &y));
  return tuple_result(cl_tuple_filter_zeros(x, y, &r), &r, out);
}

typedef cl_status (*tuple_predicate)(const cl_tuple_t *, const cl_tuple_t *, int *);

static cl_status predicate(const char *name, const value *a, tuple_predicate f, bool swap, bool negate, value *out) {
  const cl_tuple_t *x, *y;
  TRY(arg_tuple(name, a, swap ? 1 : 0, &x));
  TRY(arg_tuple(name, a, swap ? 0 : 1, &y));
  int r = 0;
  TRY(f(x, y, &r));
  *out = value_of_bool(negate ? !r : r);
  return CL_OK;
}

/* evenly_divides(shape, tiler): a layout tiler is a layout leaf, as in a tuple. */
static cl_status fn_evenly_divides(const char *name, const value *a, int n, value *out) {
  (void)n;
  if (!is_layout(&a[1]))
    return predicate(name, a, cl_evenly_divides, false, false, out);
  const cl_tuple_t *shape;
  TRY(arg_tuple(name, a, 0, &shape));
  cl_tuple_t *tiler = NULL;
  TRY(cl_tuple_from_layout(a[1].layout, &tiler));
  int even = 0;
  cl_status s = cl_evenly_divides(shape, tiler, &even);
  cl_tuple_free(tiler);
  TRY(s);
  *out = value_of_bool(even);
  return CL_OK;
}

/* X_less(a,b), X_leq(a,b) = !X_less(b,a), X_gtr(a,b) = X_less(b,a),
 * X_geq(a,b) = !X_less(a,b), as CuTe defines them. */
static tuple_predicate order_of(const char *name) {
  if (strncmp(name, "lex_", 4) == 0)
    return cl_lex_less;
  if (strncmp(name, "colex_", 6) == 0)
    return cl_colex_less;
  return cl_elem_less;
}

static cl_status fn_compare(const char *name, const value *a, int n, value *out) {
  const char *rel = strchr(name, '_') + 1;
  bool swap = strcmp(rel, "leq") == 0 || strcmp(rel, "gtr") == 0;
  bool negate = strcmp(rel, "leq") == 0 || strcmp(rel, "geq") == 0;
  return predicate(name, a, order_of(name), swap, negate, out);
}

/* compact_col_major(shape[, current]) and compact_row_major(shape[, current]). */
static cl_status fn_compact(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *shape, *current;
  cl_tuple_t *r = NULL;
  bool row = name[8] == 'r'; /* compact_row_major */
  TRY(arg_tuple(name, a, 0, &shape));
  if (n == 1)
    return tuple_result(row ? cl_compact_row_major(shape, &r) : cl_compact_col_major(shape, &r), &r, out);
  TRY(arg_tuple(name, a, 1, &current));
  return tuple_result(row ? cl_compact_row_major_from(shape, current, &r) : cl_compact_col_major_from(shape, current, &r),
                      &r, out);
}

const builtin cli_builtins_tuple_ops[] = {
  {"max", 1, 64, fn_max, "max(t...)"},
  {"min", 1, 64, fn_min, "min(t...)"},
  {"gcd", 1, 64, fn_gcd, "gcd(t...)"},
  {"product_each", 1, 1, fn_product_each, "product_each(t)"},
  {"product_like", 2, 2, fn_product_like, "product_like(t,guide)"},
  {"round_up", 2, 2, fn_round_up, "round_up(a,b)"},
  {"filter_zeros", 1, 2, fn_filter_zeros, "filter_zeros(L) | filter_zeros(t) | filter_zeros(a,t)"},
  {"evenly_divides", 2, 2, fn_evenly_divides, "evenly_divides(shape,tiler)"},
  {"elem_leq", 2, 2, fn_compare, "elem_leq(a,b)"},
  {"elem_gtr", 2, 2, fn_compare, "elem_gtr(a,b)"},
  {"elem_geq", 2, 2, fn_compare, "elem_geq(a,b)"},
  {"lex_less", 2, 2, fn_compare, "lex_less(a,b)"},
  {"lex_leq", 2, 2, fn_compare, "lex_leq(a,b)"},
  {"lex_gtr", 2, 2, fn_compare, "lex_gtr(a,b)"},
  {"lex_geq", 2, 2, fn_compare, "lex_geq(a,b)"},
  {"colex_less", 2, 2, fn_compare, "colex_less(a,b)"},
  {"colex_leq", 2, 2, fn_compare, "colex_leq(a,b)"},
  {"colex_gtr", 2, 2, fn_compare, "colex_gtr(a,b)"},
  {"colex_geq", 2, 2, fn_compare, "colex_geq(a,b)"},
  {"compact_col_major", 1, 2, fn_compact, "compact_col_major(shape[,current])"},
  {"compact_row_major", 1, 2, fn_compact, "compact_row_major(shape[,current])"},
  {NULL, 0, 0, NULL, NULL},
};
