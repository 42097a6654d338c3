/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_coord.c: coordinate layouts and tensors in the eval language: scaled
 * bases (the literal k@i@j and E(i,j,...)), make_identity_layout,
 * elem_less, and coordinate tensors (make_identity_tensor, local_tile,
 * local_partition, ...), printed as CuTe prints them:
 * ArithTuple(0,0) o (4,8):(1@0,1@1).
 *
 * This table comes last in eval.c: the entries that also name layout
 * functions (size, logical_divide, crd2idx, ...) handle a coordinate tensor
 * and hand every other call to the builtin they shadow.  A layout function
 * applied to a coordinate tensor is applied to its layout, and a layout
 * result keeps the tensor's origin, as CuTe's make_tensor(t.data(),
 * f(t.layout())) does. */
#include <stdlib.h>

#include "builtins.h"

extern const builtin cli_builtins_coord[];

/* The builtin an entry of this table shadows, called with the same arguments. */
static cl_status delegate(const char *name, const value *a, int n, value *out) {
  if (builtin_find_before(cli_builtins_coord, name) == NULL)
    return cli_fail(CL_E_TYPE, "%s: argument 1 must be a coordinate tensor", name);
  return builtin_delegate(cli_builtins_coord, name, a, n, out);
}

static cl_status tensor_result(cl_status s, cl_coord_tensor_t *const *t, value *out) {
  if (s == CL_OK)
    *out = value_of_coord_tensor(*t);
  return s;
}

static cl_status arg_coord_tensor(const char *fn, const value *a, int i, const cl_coord_tensor_t **out) {
  if (!is_coord_tensor(&a[i]))
    return cli_fail(CL_E_TYPE, "%s: argument %d must be a coordinate tensor", fn, i + 1);
  *out = a[i].ctensor;
  return CL_OK;
}

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

/* ------------------------------------------------------------ tensors */

static cl_status fn_make_identity_tensor(const char *name, const value *a, int n, value *out) {
  const cl_tuple_t *shape;
  cl_coord_tensor_t *t = NULL;
  TRY(arg_tuple(name, a, 0, &shape));
  return tensor_result(cl_make_identity_tensor(shape, &t), &t, out);
}

static cl_status fn_make_coord_tensor(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l;
  cl_coord_tensor_t *t = NULL;
  TRY(arg_layout(name, a, 0, &l));
  return tensor_result(cl_make_coord_tensor(l, &t), &t, out);
}

/* The optional projection (CuTe's Step<_1,X,...>) at argument i. */
static cl_status arg_projection(const char *name, const value *a, int n, int i, const cl_tuple_t **proj) {
  *proj = NULL;
  return n > i ? arg_tuple(name, a, i, proj) : CL_OK;
}

/* local_tile(T, tiler, coord[, proj]) */
static cl_status fn_local_tile(const char *name, const value *a, int n, value *out) {
  if (!is_coord_tensor(&a[0]))
    return delegate(name, a, n, out);
  const cl_tuple_t *tiler, *coord, *proj;
  cl_coord_tensor_t *t = NULL;
  TRY(arg_tuple(name, a, 1, &tiler));
  TRY(arg_tuple(name, a, 2, &coord));
  TRY(arg_projection(name, a, n, 3, &proj));
  return tensor_result(cl_coord_local_tile(a[0].ctensor, tiler, coord, proj, &t), &t, out);
}

/* outer_partition(T, tiler, coord) */
static cl_status fn_outer_partition(const char *name, const value *a, int n, value *out) {
  const cl_coord_tensor_t *src = NULL;
  const cl_tuple_t *tiler, *coord;
  cl_coord_tensor_t *t = NULL;
  TRY(arg_coord_tensor(name, a, 0, &src));
  TRY(arg_tuple(name, a, 1, &tiler));
  TRY(arg_tuple(name, a, 2, &coord));
  return tensor_result(cl_coord_outer_partition(src, tiler, coord, &t), &t, out);
}

/* local_partition(T, thr_layout, index[, proj]) */
static cl_status fn_local_partition(const char *name, const value *a, int n, value *out) {
  const cl_coord_tensor_t *src = NULL;
  const cl_layout_t *thr;
  const cl_tuple_t *proj;
  int64_t index;
  cl_coord_tensor_t *t = NULL;
  TRY(arg_coord_tensor(name, a, 0, &src));
  TRY(arg_layout(name, a, 1, &thr));
  TRY(arg_int(name, a, 2, &index));
  TRY(arg_projection(name, a, n, 3, &proj));
  return tensor_result(cl_coord_local_partition(src, thr, index, proj, &t), &t, out);
}

/* crd2idx(crd, T) is CuTe's T(crd): the element, a coordinate; slice(crd, T)
 * its tensor(crd) with '_'. */
static cl_status fn_crd2idx(const char *name, const value *a, int n, value *out) {
  if (n != 2 || !is_coord_tensor(&a[1]))
    return delegate(name, a, n, out);
  const cl_tuple_t *crd;
  cl_tuple_t *v = NULL;
  TRY(arg_tuple(name, a, 0, &crd));
  TRY(cl_coord_tensor_eval_coord(a[1].ctensor, crd, &v));
  *out = value_of_tuple(v);
  return CL_OK;
}

static cl_status fn_slice(const char *name, const value *a, int n, value *out) {
  if (n != 2 || !is_coord_tensor(&a[1]))
    return delegate(name, a, n, out);
  const cl_tuple_t *crd;
  cl_coord_tensor_t *t = NULL;
  TRY(arg_tuple(name, a, 0, &crd));
  return tensor_result(cl_coord_tensor_slice(a[1].ctensor, crd, &t), &t, out);
}

/* layout(T): the tensor's layout (CuTe's layout(L) is L itself). */
static cl_status fn_layout(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *l = NULL;
  if (is_coord_tensor(&a[0]))
    l = cl_coord_tensor_layout(a[0].ctensor);
  else
    TRY(arg_layout(name, a, 0, &l));
  cl_layout_t *copy = NULL;
  TRY(cl_layout_copy(l, &copy));
  *out = value_of_layout(copy);
  return CL_OK;
}

/* Any layout function of the tensor's layout (its first argument): a layout
 * result keeps the tensor's origin, anything else (a size, a shape) is the
 * answer itself. */
static cl_status on_layout(const char *name, const value *a, int n, value *out) {
  if (n == 0 || !is_coord_tensor(&a[0]))
    return delegate(name, a, n, out);
  value args[64];
  for (int i = 0; i < n && i < 64; i++)
    args[i] = a[i];
  args[0] = (value){.kind = V_LAYOUT, .layout = (cl_layout_t *)cl_coord_tensor_layout(a[0].ctensor)};
  value r = {0};
  TRY(delegate(name, args, n, &r));
  if (r.kind != V_LAYOUT) {
    *out = r;
    return CL_OK;
  }
  cl_coord_tensor_t *t = NULL;
  cl_status s = cl_coord_tensor_with_layout(a[0].ctensor, r.layout, &t);
  value_free(&r);
  return tensor_result(s, &t, out);
}

const builtin cli_builtins_coord[] = {
  {"E", 0, 64, fn_E, "E(i...)"},
  {"make_identity_layout", 1, 1, fn_make_identity_layout, "make_identity_layout(shape)"},
  {"elem_less", 2, 2, fn_elem_less, "elem_less(a,b)"},
  {"make_identity_tensor", 1, 1, fn_make_identity_tensor, "make_identity_tensor(shape)"},
  {"make_coord_tensor", 1, 1, fn_make_coord_tensor, "make_coord_tensor(L)"},
  {"local_tile", 3, 4, fn_local_tile, "local_tile(T,tiler,coord[,proj])"},
  {"inner_partition", 3, 3, fn_local_tile, "inner_partition(T,tiler,coord)"},
  {"outer_partition", 3, 3, fn_outer_partition, "outer_partition(T,tiler,coord)"},
  {"local_partition", 3, 4, fn_local_partition, "local_partition(T,thr_layout,index[,proj])"},
  {"crd2idx", 1, 64, fn_crd2idx, "crd2idx(crd,shape) | crd2idx(crd,shape,stride) | crd2idx(crd,L) | crd2idx(crd,C) | crd2idx(crd,T)"},
  {"slice", 1, 64, fn_slice, "slice(crd,L) | slice(crd,C) | slice(crd,T)"},
  {"layout", 1, 1, fn_layout, "layout(L) | layout(T)"},
  {"shape", 1, 64, on_layout, "shape(L) | shape(C) | shape(T)"},
  {"stride", 1, 64, on_layout, "stride(L) | stride(T)"},
  {"size", 1, 64, on_layout, "size(t) | size(L) | size(C) | size(T)"},
  {"rank", 1, 64, on_layout, "rank(t) | rank(L) | rank(C) | rank(T)"},
  {"depth", 1, 64, on_layout, "depth(t) | depth(L) | depth(C) | depth(T)"},
  {"flatten", 1, 64, on_layout, "flatten(t) | flatten(L) | flatten(C) | flatten(T)"},
  {"coalesce", 1, 64, on_layout, "coalesce(L[,profile]) | coalesce(C[,profile]) | coalesce(T[,profile])"},
  {"filter", 1, 64, on_layout, "filter(L[,profile]) | filter(C,profile) | filter(T)"},
  {"filter_zeros", 1, 64, on_layout, "filter_zeros(L) | filter_zeros(T)"},
  {"group", 1, 64, on_layout, "group(L,b,e) | group(C,b,e) | group(T,b,e)"},
  {"take", 1, 64, on_layout, "take(L,b,e) | take(C,b,e) | take(T,b,e)"},
  {"composition", 1, 64, on_layout,
   "composition(A,B) | composition(Sw,L) | composition(L,Sw) | composition(C,tiler) | composition(A,offset,B) | composition(T,tiler)"},
  {"logical_divide", 1, 64, on_layout, "logical_divide(A,tiler) | logical_divide(C,tiler) | logical_divide(T,tiler)"},
  {"zipped_divide", 1, 64, on_layout, "zipped_divide(A,tiler) | zipped_divide(C,tiler) | zipped_divide(T,tiler)"},
  {"tiled_divide", 1, 64, on_layout, "tiled_divide(A,tiler) | tiled_divide(C,tiler) | tiled_divide(T,tiler)"},
  {"flat_divide", 1, 64, on_layout, "flat_divide(A,tiler) | flat_divide(C,tiler) | flat_divide(T,tiler)"},
  {NULL, 0, 0, NULL, NULL},
};
