/* SPDX-License-Identifier: BSD-3-Clause */
/* algebra_impl.h: the steps that the layout algebra (algebra.c) and its
 * divides and products (algebra_products.c) share.
 *
 * Two working forms of a layout:
 *  - a view, cl_lview: a layout's shape and stride trees, read in place (a
 *    handle, a layout leaf of a tiler, or a builder's result);
 *  - a flat list of modes, cl_flat: the leaves s:d in order, for the steps
 *    that CuTe performs on flattened layouts (coalesce, complement, the
 *    inverses).  It keeps a few modes inline so that small layouts need no
 *    allocation, and, like the builder, has a sticky status.
 *
 * Every function that appends to a cl_lbuilder appends exactly one mode
 * (a leaf or a tuple), so that callers can build tuples of results the way
 * CuTe's make_layout(L0, L1, ...) does.  Failures of the algebra are returned
 * as a status (with cl_fail's message); allocation failures of the builder
 * stay sticky in the builder and surface at cl_lb_finish. */
#ifndef CUTELAYOUT_ALGEBRA_IMPL_H
#define CUTELAYOUT_ALGEBRA_IMPL_H

#include "tuple_impl.h"

/* ---- views ---- */
typedef struct cl_lview {
  const cl_node *shape, *stride;
} cl_lview;

static inline cl_lview cl_view_of(const cl_layout_t *l) {
  cl_lview v = {cl_lshape(cl_lroot(l)), cl_lstride(cl_lroot(l))};
  return v;
}
/* A CL_KIND_LAYOUT node (a handle's root or a tiler's layout leaf). */
static inline cl_lview cl_view_of_node(const cl_node *layout_node) {
  cl_lview v = {cl_lshape(layout_node), cl_lstride(layout_node)};
  return v;
}
/* The result of a layout builder (its status must be CL_OK). */
static inline cl_lview cl_view_of_builder(const cl_lbuilder *lb) {
  cl_lview v = {lb->shape.nodes, lb->stride.nodes};
  return v;
}
/* CuTe's rank: a layout with an integer shape has rank 1. */
static inline int64_t cl_view_rank(cl_lview v) { return cl_rank_of(v.shape); }
/* Mode i (i < rank); a layout with an integer shape is its own mode 0. */
static inline cl_lview cl_view_mode(cl_lview v, int64_t i) {
  cl_lview m = {cl_child(v.shape, i), cl_child(v.stride, i)};
  return m;
}
static inline void cl_lb_view(cl_lbuilder *lb, cl_lview v) { cl_lb_copy(lb, v.shape, v.stride); }

/* ---- flat lists of modes ----
 * A mode's stride is the integer `stride`, or, when `basis` is set, the
 * scaled basis stride@path with the path of that basis leaf (which lives in
 * the trees the operation reads, and only its path is used). */
typedef struct cl_mode {
  int64_t shape, stride;
  const cl_node *basis;
} cl_mode;

/* Strides equal as CuTe's == finds them for static values: integers of one
 * value, or scaled bases of one path and one scale (an integer is never
 * equal to a basis, even 0 to 0@i). */
static inline bool cl_mode_stride_equal(int64_t a, const cl_node *abasis, int64_t b, const cl_node *bbasis) {
  if ((abasis == NULL) != (bbasis == NULL))
    return false;
  return a == b && (abasis == NULL || cl_basis_same(abasis, bbasis));
}
/* CuTe's is_constant<0>(stride): an integer 0, never a basis. */
static inline bool cl_mode_stride_zero(const cl_mode *m) { return m->basis == NULL && m->stride == 0; }

#define CL_FLAT_INLINE 16
typedef struct cl_flat {
  cl_mode *m;
  int64_t n, cap;
  cl_status status;
  cl_mode inline_m[CL_FLAT_INLINE];
} cl_flat;

void cl_flat_init(cl_flat *f);
void cl_flat_release(cl_flat *f);
/* The slow path of cl_flat_push: grows the list (or records the failure). */
void cl_flat_grow(cl_flat *f, cl_mode m);
static inline void cl_flat_push_mode(cl_flat *f, cl_mode m) {
  if (f->n < f->cap && f->status == CL_OK) {
    f->m[f->n++] = m;
    return;
  }
  cl_flat_grow(f, m);
}
/* An integer-strided mode. */
static inline void cl_flat_push(cl_flat *f, int64_t shape, int64_t stride) {
  cl_mode m = {shape, stride, NULL};
  cl_flat_push_mode(f, m);
}
/* Whether any mode's stride is a scaled basis. */
bool cl_flat_has_basis(const cl_flat *f);
/* The leaves of a view, in order (CuTe's flatten). */
void cl_flat_of_view(cl_flat *f, cl_lview v);
/* Appends f as one mode: a leaf when it has one mode (CuTe's integral
 * layouts), else a flat tuple. */
void cl_lb_flat(cl_lbuilder *lb, const cl_flat *f);
/* The layout of f (as cl_lb_flat makes it) as a new handle. */
cl_status cl_layout_of_flat(const cl_flat *f, cl_layout_t **out);

/* ---- C's integer division as CuTe uses it ----
 * The fast paths stay inline; anything unusual (a zero divisor, an overflow)
 * goes to the shared functions of common.c, which name the failure. */
static inline cl_status cl_al_div(int64_t a, int64_t b, int64_t *r) {
  if (b == 0 || (b == -1 && a == INT64_MIN))
    return cl_div(a, b, r);
  *r = a / b;
  return CL_OK;
}
static inline cl_status cl_al_mod(int64_t a, int64_t b, int64_t *r) {
  if (b == 0 || b == -1)
    return cl_mod(a, b, r);
  *r = a % b;
  return CL_OK;
}
/* CuTe's ceil_div on integers: (a + b - 1) / b. */
static inline cl_status cl_al_ceil_div(int64_t a, int64_t b, int64_t *r) {
  int64_t t;
  if (b == 0 || b == -1 || __builtin_add_overflow(a, b, &t) || __builtin_sub_overflow(t, 1, &t))
    return cl_ceil_div_int(a, b, r);
  *r = t / b;
  return CL_OK;
}

/* ---- the algebra's named steps ---- */
/* CuTe's coalesce of flat modes (bw_coalesce).  With beyond_domain it is
 * CuTe's detail::coalesce_x, which keeps the function the same for indices
 * past the size (composition's left-hand side). */
cl_status cl_coalesce_flat(const cl_flat *in, bool beyond_domain, cl_flat *out);
/* filter(L) = coalesce(filter_zeros(L)), flat. */
cl_status cl_filter_flat(cl_lview v, cl_flat *out);
/* cosize of flat integer modes: 1 + sum of (s - 1) * |d|. */
cl_status cl_flat_cosize(const cl_flat *f, int64_t *out);
/* cosize of a layout, with scaled bases too: CuTe's size(coshape(L)). */
cl_status cl_view_cosize(cl_lview v, int64_t *out);
/* detail::complement on a filtered layout, for a cotarget (an integer or an
 * int tuple); the result is coalesced. */
cl_status cl_complement_flat(const cl_flat *filtered, const cl_node *cotarget, cl_flat *out);
/* complement(L, cotarget) of a view into out, an initialised empty list (a
 * small integer layout with an integer cotarget takes a fast path). */
cl_status cl_complement_view(cl_lview v, const cl_node *cotarget, cl_flat *out);
/* A mode s:d of a layout builder, d an integer or a scaled basis. */
void cl_lb_mode(cl_lbuilder *lb, cl_mode m);
/* composition(lhs, rhs) for layouts: appends one mode, congruent with rhs
 * down to its leaves. */
cl_status cl_composition_into(cl_lbuilder *lb, cl_lview lhs, cl_lview rhs);
/* composition(lhs, rhs) for a left-hand side given as flat modes. */
cl_status cl_composition_flat_into(cl_lbuilder *lb, const cl_flat *lhs, cl_lview rhs);
/* composition(lhs, tiler) for a tiler node: an integer n (n:1), '_', a
 * layout leaf, or a tuple of these (by mode; lhs modes past the tiler's rank
 * are dropped, as CuTe does). */
cl_status cl_composition_tiler_into(cl_lbuilder *lb, cl_lview lhs, const cl_node *tiler);

/* recast_layout's casts for elements of old_bits -> new_bits: upcast by
 * *up, then downcast by *down (CL_E_DOMAIN for sizes <= 0). */
cl_status cl_recast_ratio(int64_t old_bits, int64_t new_bits, int64_t *up, int64_t *down);

/* Emits a builder's result as a handle, or passes on the first failure (the
 * algebra's `status`, else the builder's); releases the builder either way. */
cl_status cl_lb_result(cl_lbuilder *lb, cl_status status, cl_layout_t **out);

#endif
