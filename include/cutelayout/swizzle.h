/* SPDX-License-Identifier: BSD-3-Clause */
/* swizzle.h: CuTe's Swizzle<B,M,S> functions on indices and its
 * ComposedLayout<A,Offset,B> (swizzle.hpp, swizzle_layout.hpp,
 * layout_composed.hpp).
 *
 * A swizzle is a small value (three integers), validated as CuTe's
 * static_asserts and 32-bit `int` masks require.  A composed layout is the
 * function i -> A(offset + B(i)): an immutable handle, freed with
 * cl_composed_free(), that any number of threads may read.
 *
 * Either-or results.  Where CuTe returns a plain Layout for some inputs and a
 * ComposedLayout for others (composition(Swizzle<0,M,S>, 0, L) is L itself;
 * slicing a swizzled layout may decay to a plain layout), a function has two
 * out-parameters, `layout` and `composed`: on success exactly one of them is
 * set to a fresh handle, on failure both are NULL. */
#ifndef CUTELAYOUT_SWIZZLE_H
#define CUTELAYOUT_SWIZZLE_H

#include "common.h"
#include "tuple.h"
#include "layout.h"
#include "render.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==================================================================== swizzle */

/* Swizzle<B,M,S>: keeps the low M bits, and XORs the B bits at position
 * M + max(0,S) (the "yyy" bits) into the B bits at position M - min(0,S)
 * (the "zzz" bits):  f(x) = x ^ shiftr(x & yyy_msk, S).  Printed Sw<B,M,S>. */
typedef struct cl_swizzle {
  int32_t bits;  /* B: number of bits in each mask */
  int32_t base;  /* M: number of least significant bits kept constant */
  int32_t shift; /* S: distance from yyy to zzz (negative: yyy below zzz) */
} cl_swizzle_t;

/* Swizzle<bits,base,shift>, validated as CuTe does at compile time:
 * bits >= 0, base >= 0, |shift| >= bits, and both masks must be values of a
 * 32-bit int: base + |shift| <= 31, and bits + base + |shift| <= 32 unless
 * bits is 0.  CL_E_DOMAIN (naming the condition) otherwise, and *out is
 * zeroed. */
CL_API cl_status cl_swizzle_make(int64_t bits, int64_t base, int64_t shift, cl_swizzle_t *out);
/* CL_OK if sw satisfies the conditions of cl_swizzle_make, else CL_E_DOMAIN. */
CL_API cl_status cl_swizzle_validate(cl_swizzle_t sw);

/* The swizzle function at an index: offset ^ shiftr(offset & yyy_msk, S),
 * where shiftr shifts right by S (left by -S when S < 0).  The masks are
 * CuTe's `int` masks widened to 64 bits, so any int64_t offset is accepted
 * (as CuTe applies a swizzle to a 64-bit offset; cl_composed_eval works on
 * CuTe's int instead). */
CL_API CL_NOPLT cl_status cl_swizzle_apply(cl_swizzle_t sw, int64_t offset, int64_t *out);
/* CuTe's yyy_msk and zzz_msk (either pointer may be NULL). */
CL_API cl_status cl_swizzle_masks(cl_swizzle_t sw, int64_t *yyy, int64_t *zzz);
/* make_swizzle<Y,Z>(): the swizzle whose yyy mask is Y and zzz mask is Z
 * (each an unsigned 32-bit value).  CL_E_DOMAIN when Y and Z differ in
 * popcount or are not the masks of any valid swizzle. */
CL_API cl_status cl_make_swizzle(int64_t yyy, int64_t zzz, cl_swizzle_t *out);
/* composition(Swizzle, Swizzle): the swizzle with masks yyy0^yyy1 and
 * zzz0^zzz1.  CL_E_DOMAIN unless both shifts are equal (CuTe: "Can only merge
 * swizzles of the same shift") and the merged masks make a swizzle. */
CL_API cl_status cl_swizzle_composition(cl_swizzle_t a, cl_swizzle_t b, cl_swizzle_t *out);
/* upcast<n>(Swizzle) / downcast<n>(Swizzle): the swizzle on indices of
 * elements n times larger / smaller.  n must be a power of two (CL_E_DOMAIN). */
CL_API cl_status cl_swizzle_upcast(cl_swizzle_t sw, int64_t n, cl_swizzle_t *out);
CL_API cl_status cl_swizzle_downcast(cl_swizzle_t sw, int64_t n, cl_swizzle_t *out);
/* max_alignment(Swizzle) = 2^M: the largest aligned run it leaves in place. */
CL_API int64_t cl_swizzle_max_alignment(cl_swizzle_t sw);
/* 1 when a and b have the same B, M and S, else 0. */
CL_API int cl_swizzle_equal(cl_swizzle_t a, cl_swizzle_t b);

/* Text: `Sw<B,M,S>` (white space allowed between tokens).  cl_swizzle_parse
 * fails with CL_E_PARSE naming the column, or CL_E_DOMAIN for an invalid
 * swizzle.  cl_swizzle_format is snprintf-style. */
CL_API cl_status cl_swizzle_parse(const char *text, cl_swizzle_t *out);
CL_API int64_t cl_swizzle_format(cl_swizzle_t sw, char *buf, size_t cap);

/* ============================================================ composed layout */

typedef struct cl_composed cl_composed_t;

/* The functions that stand on either side of a composed layout.  A side
 * may itself be a composed layout (CuTe's ComposedLayout<A,O,B> nests: A
 * and B are any layout functions); cl_composed_parts reports such a side as
 * CL_FN_COMPOSED, and cl_composed_sides hands out its handle. */
typedef enum cl_fn_kind {
  CL_FN_LAYOUT = 0,
  CL_FN_SWIZZLE = 1,
  CL_FN_COMPOSED = 2
} cl_fn_kind;

/* A borrowed view of a layout or a swizzle: the argument type of the
 * constructors and what cl_composed_parts hands out. */
typedef struct cl_fn {
  cl_fn_kind kind;
  cl_swizzle_t swizzle;      /* CL_FN_SWIZZLE */
  const cl_layout_t *layout; /* CL_FN_LAYOUT; borrowed, never freed through a cl_fn */
} cl_fn;

static inline cl_fn cl_fn_layout(const cl_layout_t *layout) {
  cl_fn f = {CL_FN_LAYOUT, {0, 0, 0}, layout};
  return f;
}
static inline cl_fn cl_fn_swizzle(cl_swizzle_t swizzle) {
  cl_fn f = {CL_FN_SWIZZLE, swizzle, NULL};
  return f;
}

/* Any function that can stand on a side of a composed layout: a layout or a
 * swizzle (fn, when composed is NULL), or a composed layout (composed,
 * borrowed), which then nests. */
typedef struct cl_layout_fn {
  cl_fn fn;
  const cl_composed_t *composed;
} cl_layout_fn_t;

static inline cl_layout_fn_t cl_layout_fn_of(cl_fn fn) {
  cl_layout_fn_t f = {fn, NULL};
  return f;
}
static inline cl_layout_fn_t cl_layout_fn_composed(const cl_composed_t *composed) {
  cl_layout_fn_t f = {{CL_FN_COMPOSED, {0, 0, 0}, NULL}, composed};
  return f;
}

/* ---- making, text, freeing ---- */

/* make_composed_layout(outer, offset, inner): the function
 * i -> outer(offset + inner(i)), always a ComposedLayout (no simplification).
 * Either side may be a layout or a swizzle (a swizzle is validated:
 * CL_E_DOMAIN); the layouts are copied. */
CL_API cl_status cl_make_composed_layout(cl_fn outer, int64_t offset, cl_fn inner, cl_composed_t **out);
/* make_composed_layout(outer, offset, inner) where either side may be a
 * composed layout (copied), as CuTe's ComposedLayout nests:
 * i -> outer(offset + inner(i)).  Errors as cl_make_composed_layout;
 * CL_E_NULL for a side with neither a composed layout nor a function. */
CL_API cl_status cl_make_composed_nested(cl_layout_fn_t outer, int64_t offset, cl_layout_fn_t inner, cl_composed_t **out);
/* NULL is a no-op. */
CL_API void cl_composed_free(cl_composed_t *composed);
/* A fresh handle equal to composed (handles are immutable; this is for
 * callers that want to own one). */
CL_API cl_status cl_composed_copy(const cl_composed_t *composed, cl_composed_t **out);
/* The three parts.  The layouts in *outer / *inner are borrowed from composed
 * and live as long as it.  Any out pointer may be NULL.  A side that is
 * itself a composed layout comes out as kind CL_FN_COMPOSED (no layout):
 * cl_composed_sides gives it. */
CL_API cl_status cl_composed_parts(const cl_composed_t *composed, cl_fn *outer, int64_t *offset, cl_fn *inner);
/* The three parts, nested composed layouts included (borrowed from
 * composed, living as long as it).  Any out pointer may be NULL. */
CL_API cl_status cl_composed_sides(const cl_composed_t *composed, cl_layout_fn_t *outer, int64_t *offset,
                                   cl_layout_fn_t *inner);
/* 1 when both have equal parts and offsets (CuTe's operator==), else 0
 * (also when either is NULL). */
CL_API int cl_composed_equal(const cl_composed_t *a, const cl_composed_t *b);

/* Text as CuTe prints a ComposedLayout: `Sw<3,3,3> o 0 o (8,8):(8,1)`
 * (CONTRACT.md; each side a layout or a swizzle, the offset an integer).
 * A nested composed layout prints as CuTe prints it, without parentheses:
 * `Sw<1,0,2> o 0 o Sw<1,0,2> o 0 o 16:1`.  The parser reads a longer chain
 * F0 o K1 o F1 o K2 o F2 ... nested to the right, F0 o K1 o (F1 o K2 o
 * (F2 ...)), as CuTe's composition(C, X) builds them; either nesting is the
 * same function.  It also accepts white space anywhere between tokens and
 * the short form `A o B` for offset 0.  CL_E_PARSE names the column on bad
 * text. */
CL_API cl_status cl_composed_parse(const char *text, cl_composed_t **out);
/* snprintf-style: returns the full length of the text, or a negative status. */
CL_API int64_t cl_composed_format(const cl_composed_t *composed, char *buf, size_t cap);
/* The text in a fresh string, freed with cl_string_free(). */
CL_API cl_status cl_composed_to_string(const cl_composed_t *composed, char **out);

/* ---- queries (CuTe answers them from the inner layout, which defines the
 * domain, looking through nested composed layouts to the innermost function;
 * CL_E_UNSUPPORTED when that is a swizzle) ---- */
CL_API cl_status cl_composed_size(const cl_composed_t *composed, int64_t *out);
CL_API cl_status cl_composed_cosize(const cl_composed_t *composed, int64_t *out);
CL_API cl_status cl_composed_shape(const cl_composed_t *composed, cl_tuple_t **out);
/* rank / depth of the inner layout, or a negative status. */
CL_API int64_t cl_composed_rank(const cl_composed_t *composed);
CL_API int64_t cl_composed_depth(const cl_composed_t *composed);

/* ---- evaluation ---- */
/* outer(offset + inner(i)) for a linear coordinate i.  As in CuTe, where
 * indices are ints, a swizzle acts on an index that fits in an int in 32-bit
 * arithmetic (this matters only for masks that reach bit 31), and after
 * upcast/downcast the offset is an unsigned int: sums wrap modulo 2^32. */
CL_API CL_NOPLT cl_status cl_composed_eval(const cl_composed_t *composed, int64_t i, int64_t *index);
/* outer(offset + inner(crd)) for an integer or hierarchical coordinate of the
 * inner layout (an integer only, when the inner function is a swizzle). */
CL_API cl_status cl_composed_eval_coord(const cl_composed_t *composed, const cl_tuple_t *crd, int64_t *index);

/* ---- composition with swizzles ---- */

/* composition(A, offset, B): CuTe's three-argument composition.  It is
 * make_composed_layout(A, offset, B), except that composition(Swizzle<0,M,S>,
 * 0, L) is L itself (the identity swizzle), returned as a plain layout.
 * Either-or result (see the top of this file). */
CL_API cl_status cl_composition_offset(cl_fn outer, int64_t offset, cl_fn inner, cl_layout_t **layout,
                                       cl_composed_t **composed);
/* composition(L, Swizzle): the swizzle moved through L, i.e.
 * composition(make_swizzle<L(yyy_msk), L(zzz_msk)>(), L).  CL_E_DOMAIN when
 * those images are not the masks of a swizzle.  Either-or result. */
CL_API cl_status cl_composition_with_swizzle(const cl_layout_t *layout, cl_swizzle_t swizzle, cl_layout_t **out_layout,
                                             cl_composed_t **out_composed);
/* make_layout(Swizzle<B,M,S>) = composition(Sw, 0, (M+B+|S|):1), as CuTe
 * defines it.  Either-or result. */
CL_API cl_status cl_make_layout_from_swizzle(cl_swizzle_t swizzle, cl_layout_t **layout, cl_composed_t **composed);

/* ---- slicing ---- */

/* slice_and_offset(crd, C), CuTe's (layout_composed.hpp, swizzle_layout.hpp):
 *  - outer layout: (A o (offset + B(crd)) o slice(crd, B), 0): the offset of
 *    the fixed coordinates folds into the composed layout;
 *  - outer swizzle, crd all '_': (composition(Sw, offset, slice(crd, B)), 0);
 *  - outer swizzle otherwise: the fixed coordinates' bits that the swizzle
 *    mixes join the composed offset, the others are returned in *offset; and
 *    when the rest of B does not reach both the yyy and the zzz bits, the
 *    result decays to a plain layout whose strides carry the swizzle.
 *    CuTe assumes the offset's bits lie apart from those the layout reaches
 *    (it XORs them where C(crd) adds); otherwise the result is CuTe's, which
 *    is not the function restricted to the slice.
 * Errors: CL_E_RANK / CL_E_TYPE for a coordinate that does not fit B, the
 * algebra's errors for the compositions CuTe performs (e.g.
 * CL_E_DIVISIBILITY), CL_E_DOMAIN where CuTe rejects the projection (no '_'
 * left, or bits that are not powers of two), CL_E_UNSUPPORTED for a swizzle
 * inside.  Either-or result; *offset is 0 on failure. */
CL_API cl_status cl_composed_slice_and_offset(const cl_tuple_t *crd, const cl_composed_t *composed, cl_layout_t **layout,
                                              cl_composed_t **out_composed, int64_t *offset);
/* slice(crd, C): the first part of slice_and_offset (the offset dropped). */
CL_API cl_status cl_composed_slice(const cl_tuple_t *crd, const cl_composed_t *composed, cl_layout_t **layout,
                                   cl_composed_t **out_composed);

/* ---- modes: composition(A, offset, f(B)) with f of layout.h ----
 * get(C, i...), take(C, b, e), group(C, b, e), flatten(C), zip(C).  Errors
 * as the layout function's; CL_E_UNSUPPORTED for a swizzle inside.
 * Either-or results. */
CL_API cl_status cl_composed_get(const cl_composed_t *composed, const int64_t *path, int64_t n, cl_layout_t **layout,
                                 cl_composed_t **out_composed);
CL_API cl_status cl_composed_take(const cl_composed_t *composed, int64_t begin, int64_t end, cl_layout_t **layout,
                                  cl_composed_t **out_composed);
CL_API cl_status cl_composed_group(const cl_composed_t *composed, int64_t begin, int64_t end, cl_layout_t **layout,
                                   cl_composed_t **out_composed);
CL_API cl_status cl_composed_flatten(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed);
CL_API cl_status cl_composed_zip(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed);

/* ---- the layout algebra (algebra.h) on composed layouts ----
 * CuTe applies these to the inner layout B, which defines the domain, and
 * composes the outer function back: composition(A, offset, f(B)), with the
 * three-argument composition's simplification of an identity swizzle.
 * Tilers are algebra.h's (a layout leaf, an integer, '_', or a tuple of
 * these, mode by mode).  Errors: the algebra's, and CL_E_UNSUPPORTED when the
 * inner function is a swizzle.  Either-or results. */
CL_API cl_status cl_composed_composition(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                         cl_composed_t **out_composed);
CL_API cl_status cl_composed_logical_divide(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                            cl_composed_t **out_composed);
CL_API cl_status cl_composed_zipped_divide(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                           cl_composed_t **out_composed);
CL_API cl_status cl_composed_tiled_divide(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                          cl_composed_t **out_composed);
CL_API cl_status cl_composed_flat_divide(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                         cl_composed_t **out_composed);
CL_API cl_status cl_composed_logical_product(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                             cl_composed_t **out_composed);
CL_API cl_status cl_composed_zipped_product(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                            cl_composed_t **out_composed);
CL_API cl_status cl_composed_tiled_product(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                           cl_composed_t **out_composed);
CL_API cl_status cl_composed_flat_product(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                          cl_composed_t **out_composed);
/* tile_unzip(C, tiler) (algebra.h's cl_tile_unzip on B). */
CL_API cl_status cl_composed_tile_unzip(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,
                                        cl_composed_t **out_composed);
/* append<n>(C, X) = composition(A, offset, append<n>(B, X)) (CuTe has no
 * append of a composed layout without n). */
CL_API cl_status cl_composed_append(const cl_composed_t *composed, const cl_layout_t *x, int64_t n, cl_layout_t **layout,
                                    cl_composed_t **out_composed);
/* blocked_product / raked_product take a layout, as in CuTe. */
CL_API cl_status cl_composed_blocked_product(const cl_composed_t *composed, const cl_layout_t *tiler, cl_layout_t **layout,
                                             cl_composed_t **out_composed);
CL_API cl_status cl_composed_raked_product(const cl_composed_t *composed, const cl_layout_t *tiler, cl_layout_t **layout,
                                           cl_composed_t **out_composed);
/* tile_to_shape(C, shape, order); order NULL is column-major. */
CL_API cl_status cl_composed_tile_to_shape(const cl_composed_t *composed, const cl_tuple_t *shape, const cl_tuple_t *order,
                                           cl_layout_t **layout, cl_composed_t **out_composed);
/* coalesce(C) (profile NULL) and coalesce(C, profile); filter(C, profile)
 * (CuTe has no one-argument filter of a composed layout: CL_E_UNSUPPORTED
 * for a NULL profile). */
CL_API cl_status cl_composed_coalesce(const cl_composed_t *composed, const cl_tuple_t *profile, cl_layout_t **layout,
                                      cl_composed_t **out_composed);
CL_API cl_status cl_composed_filter(const cl_composed_t *composed, const cl_tuple_t *profile, cl_layout_t **layout,
                                    cl_composed_t **out_composed);

/* complement(C, cotarget) = complement(B, cotarget) (an integer or a shape);
 * cotarget NULL: complement(B, cosize(C)).  A plain layout. */
CL_API cl_status cl_composed_complement(const cl_composed_t *composed, const cl_tuple_t *cotarget, cl_layout_t **out);

/* right_inverse(C) / left_inverse(C), as CuTe:
 *  - Sw o 0 o B:       composition(inverse(B), Sw), the swizzle moved
 *                      through the inverse (cl_composition_with_swizzle);
 *  - Sw o offset o B:  inverse(B) o -offset o Sw;
 *  - A o offset o B:   inverse(B) o -offset o inverse(A) (a swizzle is its
 *                      own inverse).
 * CL_E_UNSUPPORTED for Sw o 0 o Sw2, whose inverse CuTe gives as the single
 * swizzle cl_swizzle_composition(Sw2, Sw).  Either-or results. */
CL_API cl_status cl_composed_right_inverse(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed);
CL_API cl_status cl_composed_left_inverse(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed);

/* upcast<n>(C) = composition(upcast<n>(A), offset / n, upcast<n>(B)) and
 * downcast<n>(C) = composition(downcast<n>(A), offset * n, downcast<n>(B)),
 * each side a layout (algebra.h) or a swizzle (a power of two n).  CuTe
 * requires n to divide the offset (CL_E_DIVISIBILITY).  Either-or. */
CL_API cl_status cl_composed_upcast(const cl_composed_t *composed, int64_t n, cl_layout_t **layout, cl_composed_t **out_composed);
CL_API cl_status cl_composed_downcast(const cl_composed_t *composed, int64_t n, cl_layout_t **layout,
                                      cl_composed_t **out_composed);

/* composition(L, C), CuTe's composition(composition(L, A), B) for a composed
 * layout C with offset 0 (CL_E_DOMAIN otherwise).  Either-or. */
CL_API cl_status cl_composition_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                              cl_composed_t **out_composed);
/* composition(C1, C2) = composition(A1, offset1, composition(B1, C2)),
 * supported where that is not a composed layout nested in another (CuTe
 * nests them; CL_E_UNSUPPORTED here).  Either-or. */
CL_API cl_status cl_composed_composition_with_composed(const cl_composed_t *a, const cl_composed_t *b, cl_layout_t **layout,
                                                       cl_composed_t **out_composed);
/* logical_product(L, Sw o 0 o B) and the zipped / tiled / flat products
 * built on it: the product of L with B, under the swizzle that acts on it as
 * Sw acts on B (swizzle_layout.hpp).  CL_E_DOMAIN for a nonzero offset or
 * when the moved masks are not a swizzle; CL_E_UNSUPPORTED for an outer
 * layout (CuTe has no such product).  Either-or. */
CL_API cl_status cl_logical_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed,
                                                  cl_layout_t **out_layout, cl_composed_t **out_composed);
CL_API cl_status cl_zipped_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed,
                                                 cl_layout_t **out_layout, cl_composed_t **out_composed);
CL_API cl_status cl_tiled_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed,
                                                cl_layout_t **out_layout, cl_composed_t **out_composed);
CL_API cl_status cl_flat_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed,
                                               cl_layout_t **out_layout, cl_composed_t **out_composed);

/* max_common_vector(C, L) = min(max_common_vector(B, L), 2^M) for a swizzled
 * C (CuTe's is symmetric in its arguments); for two swizzled layouts,
 * max_common_vector(B0, B1), bounded by 2^M0 and 2^M1 unless the swizzles
 * are equal.  max_common_layout(C, L): max_common_layout(B, L), cut to its
 * first 2^M elements.  CL_E_UNSUPPORTED for an outer layout. */
CL_API cl_status cl_composed_max_common_vector(const cl_composed_t *composed, const cl_layout_t *layout, int64_t *out);
CL_API cl_status cl_composed_max_common_vector2(const cl_composed_t *a, const cl_composed_t *b, int64_t *out);
CL_API cl_status cl_composed_max_common_layout(const cl_composed_t *composed, const cl_layout_t *layout, cl_layout_t **out);

/* domain_offset(crd, C): CuTe moves the offset of crd into the composed
 * layout, (A o (offset + B(crd)) o B, 0), always a composed layout;
 * *offset is 0.  Errors as cl_layout_eval_coord on B, CL_E_UNSUPPORTED for
 * a swizzle inside. */
CL_API cl_status cl_composed_domain_offset(const cl_tuple_t *crd, const cl_composed_t *composed, cl_composed_t **out,
                                           int64_t *offset);
/* max_alignment(C): gcd(2^M, offset, max_alignment(B)) for Sw<B,M,S> o
 * offset o B (CuTe's gcd, folded from the right); 1 for any other composed
 * layout, which CuTe does not attempt. */
CL_API cl_status cl_composed_max_alignment(const cl_composed_t *composed, int64_t *out);
/* recast_layout(C, old_bits, new_bits): as cl_recast_layout, with the casts
 * of composed layouts (cl_composed_upcast / _downcast).  Either-or. */
CL_API cl_status cl_composed_recast_layout(const cl_composed_t *composed, int64_t old_bits, int64_t new_bits,
                                           cl_layout_t **layout, cl_composed_t **out_composed);

/* ---- other queries ---- */
/* make_fragment_like(Sw o offset o B) = make_fragment_like(B) (outer
 * swizzle only; CL_E_UNSUPPORTED otherwise, as in CuTe). */
CL_API cl_status cl_composed_make_fragment_like(const cl_composed_t *composed, cl_layout_t **out);
/* nullspace(C): CuTe does not attempt it for composed layouts and answers 1:0. */
CL_API cl_status cl_composed_nullspace(const cl_composed_t *composed, cl_layout_t **out);

/* ---- pictures (render.h's functions for composed layouts) ---- */
/* CuTe's print_layout: the text, then the table of composed(m,n) for the
 * rank-2 inner layout (CL_E_RANK otherwise); column width from cosize.
 * Both take at most CL_PICTURE_MAX_CELLS entries (CL_E_LIMIT), as
 * cl_print_layout and cl_print_1d do. */
CL_API int64_t cl_composed_print_layout(const cl_composed_t *composed, char *buf, size_t cap);
/* composed(0) composed(1) ... composed(size-1), separated by single spaces. */
CL_API int64_t cl_composed_print_1d(const cl_composed_t *composed, char *buf, size_t cap);
/* render.h's pictures of a composed layout: the grid (or the TV tile) of
 * its inner layout's domain, each cell showing the composed function's
 * value, titled with the composed layout's text.  Options, limits and errors
 * as cl_render_layout / cl_render_tv, and CL_E_UNSUPPORTED for an inner
 * swizzle (which has no grid).  An options.map applies after the composed
 * function. */
CL_API int64_t cl_render_composed(const cl_composed_t *composed, const cl_picture_options *options, char *buf, size_t cap);
CL_API int64_t cl_render_composed_file(const cl_composed_t *composed, const cl_picture_options *options, FILE *f);
CL_API int64_t cl_render_composed_tv(const cl_composed_t *composed, int64_t tile_rows, int64_t tile_cols,
                                     const cl_picture_options *options, char *buf, size_t cap);
CL_API int64_t cl_render_composed_tv_file(const cl_composed_t *composed, int64_t tile_rows, int64_t tile_cols,
                                          const cl_picture_options *options, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
