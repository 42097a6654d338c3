/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_coord.c: coordinate layouts in the eval language: scaled bases (the
 * literal k@i@j and E(i,j,...)), make_identity_layout and elem_less. */
#include "builtins.h"

/* E(i...) is CuTe's E<i...>{}, the unit basis 1@...@i; E() is CuTe's E<>,
 * which is the integer 1 (it prints as 1 and adds as an integer). */
static cl_status fn_E(const char *name, const value *a, int n, value *out) {
  int64_t path[64];
  for (int i = 0; i < n; i++)
    TRY(arg_int(name, a, i, &path[i]));
  if (n == 0)
    return value_of_int(1, out);
  cl_tuple_t *t = NULL;
  TRY(cl_tuple_basis(1, path, n, &t));
  *out = value_of_tuple(t);
  return CL_OK;
}

static cl_status fn_make_identity_layout(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *shape;
  cl_layout_t *l = NULL;
  TRY(arg_tuple(name, a, 0, &shape));
  TRY(cl_make_identity_layout(shape, &l));
  *out = value_of_layout(l);
  return CL_OK;
}

/* elem_less(a, b): CuTe's bounds test, true when each element of a is below
 * b's (a coordinate inside a shape). */
static cl_status fn_elem_less(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *x, *y;
  int less = 0;
  TRY(arg_tuple(name, a, 0, &x));
  TRY(arg_tuple(name, a, 1, &y));
  TRY(cl_elem_less(x, y, &less));
  *out = value_of_bool(less);
  return CL_OK;
}

const builtin cli_builtins_coord[] = {
  {"E", 0, 64, fn_E, "E(i...)"},
  {"make_identity_layout", 1, 1, fn_make_identity_layout, "make_identity_layout(shape)"},
  {"elem_less", 2, 2, fn_elem_less, "elem_less(a,b)"},
  {NULL, 0, 0, NULL, NULL},
};
