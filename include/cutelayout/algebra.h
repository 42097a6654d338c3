/* SPDX-License-Identifier: BSD-3-Clause */
/* algebra.h: CuTe's layout algebra (layout.hpp) on run-time layouts.
 *
 * Every function gives the layout CuTe computes when all of its integers are
 * static (Int<N>), and fails where CuTe rejects the input (a static_assert):
 *
 *   CL_E_DIVISIBILITY   a divisibility condition (composition's stride and
 *                       shape conditions, left_inverse, upcast, tile_to_shape)
 *   CL_E_NOT_INJECTIVE  complement found the layout not injective
 *   CL_E_RANK           a tiler or profile with more modes than the layout,
 *                       or modes that must have matching ranks do not
 *   CL_E_DOMAIN         a division by zero, or an empty tuple where CuTe
 *                       needs a mode
 *   CL_E_TYPE           a tuple argument holding a value of the wrong kind
 *   CL_E_OVERFLOW       a result outside int64_t
 *   CL_E_NULL, CL_E_NOMEM
 *
 * cl_last_error() then names the broken condition and its numbers.
 *
 * Ownership: each function returns a fresh handle through its last
 * parameter, which the caller frees with cl_layout_free(); on failure the
 * out-parameter is NULL.  Inputs are never modified.
 *
 * Tilers.  The `_tiler` variants take a cl_tuple_t whose leaves are layouts,
 * integers and underscores, as CuTe's Tiler: a layout leaf is that layout; an
 * integer n is a plain stride-1 tile of n (in composition n:1; in the divides
 * and products CuTe's make_layout(n), which is n:1, or 1:0 when n is 1); '_'
 * keeps the mode as it is; a tuple applies its elements mode by mode.  A
 * tiler whose root is a single leaf acts on the whole layout.
 *
 * Not here: swizzles and composed layouts (swizzle.h). */
#ifndef CUTELAYOUT_ALGEBRA_H
#define CUTELAYOUT_ALGEBRA_H

#include "common.h"
#include "tuple.h"
#include "layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================ coalesce */

/* coalesce(L): the same function on [0, size(L)) with as few modes as
 * possible.  L is flattened, size-1 modes are dropped, and adjacent modes
 * s0:d0, s1:d1 with d1 == s0*d0 merge into s0*s1:d0.  The result has depth
 * <= 1: an integral layout `s:d` when one mode is left, `1:0` when none.
 * CL_E_DOMAIN for a layout with no integers (`():()`). */
CL_API cl_status cl_coalesce(const cl_layout_t *layout, cl_layout_t **out);

/* coalesce(L, profile): coalesce applied at the leaves of `profile`, mode by
 * mode where the profile is a tuple; modes of L past the profile's rank are
 * kept unchanged (CuTe's transform_layout).  Only the profile's tree
 * matters, not its integers.  CL_E_RANK when a tuple of the profile has more
 * elements than the corresponding mode of L. */
CL_API cl_status cl_coalesce_profile(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out);

/* filter_zeros(L): L with the extent of every stride-0 leaf replaced by 1
 * (strides and profile unchanged). */
CL_API cl_status cl_filter_zeros(const cl_layout_t *layout, cl_layout_t **out);

/* filter(L) = coalesce(filter_zeros(L)): L without its stride-0 and size-1
 * modes, coalesced; `1:0` when nothing is left. */
CL_API cl_status cl_filter(const cl_layout_t *layout, cl_layout_t **out);

/* filter(L, profile): filter at the leaves of the profile, as
 * cl_coalesce_profile does for coalesce. */
CL_API cl_status cl_filter_profile(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out);

/* ============================================================= composition */

/* composition(A, B) = A o B: the layout R, congruent with B down to B's
 * leaves (each leaf may become a tuple), with R(c) == A(B(c)) for every
 * coordinate c of B.  A is first coalesced; each mode s:d of B then takes
 * its elements from A's modes: d must be a multiple of the shape of each mode
 * it steps over, or less than it (CuTe's "Stride Divisibility Condition"),
 * and what is left of s must be a multiple of the part of the mode it
 * reaches ("Shape Divisibility Condition"); CL_E_DIVISIBILITY names the
 * numbers.  Stride-0 modes of B stay s:0.  CL_E_DOMAIN for an empty tuple in
 * B. */
CL_API cl_status cl_composition(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);

/* composition(A, tiler): with a tuple tiler, mode i of A is composed with
 * element i (recursively), and the modes of A past the tiler's rank are
 * dropped (as CuTe does); an integer n composes with n:1; '_' keeps the mode;
 * a layout leaf is cl_composition.  CL_E_RANK when a tuple of the tiler has
 * more elements than the corresponding mode of A. */
CL_API cl_status cl_composition_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);

/* ============================================================== complement */

/* complement(L, cotarget): the layout C, ordered and disjoint from L, such
 * that (L, C) covers [0, cotarget) as CuTe constructs it: with L filtered,
 * its modes taken by increasing stride d (each of shape s), every gap
 * d / (what the smaller modes cover) becomes a mode of C, and the rest
 * ceil_div(cotarget, d_max * s_max) repeats it all; the result is coalesced.
 * CL_E_NOT_INJECTIVE when a gap is 0 (CuTe's "Non-injective Layout detected
 * in complement"); CuTe checks nothing else, so for other non-injective or
 * negative-stride layouts the result is CuTe's, whatever it means.
 * CL_E_DOMAIN on a division by zero (a shape 0). */
CL_API cl_status cl_complement(const cl_layout_t *layout, int64_t cotarget, cl_layout_t **out);

/* complement(L, cotarget) for a cotarget shape (an integer or an int tuple,
 * as CuTe accepts; the rest mode is the product of CuTe's ceil_div of the
 * shape).  CL_E_TYPE unless an int tuple; CL_E_DOMAIN for `()`. */
CL_API cl_status cl_complement_shape(const cl_layout_t *layout, const cl_tuple_t *cotarget, cl_layout_t **out);

/* complement(L) = complement(L, cosize(filter(L))): the holes of L inside
 * its own codomain. */
CL_API cl_status cl_complement_full(const cl_layout_t *layout, cl_layout_t **out);

/* ================================================================ inverses */

/* right_inverse(L): the layout R with L(R(i)) == i for every i < size(R),
 * the largest such that CuTe finds: the coalesced modes of L taken by
 * increasing stride for as long as each stride equals the extent covered so
 * far.  `1:0` when L has no stride-1 mode.  Coalesced. */
CL_API cl_status cl_right_inverse(const cl_layout_t *layout, cl_layout_t **out);

/* left_inverse(L): the layout R with R(L(i)) == i for every i < size(L)
 * when L is injective.  Each nonzero stride, in increasing order, must be a
 * multiple of the size gathered so far (CuTe's "Left inverse divisibility
 * condition", CL_E_DIVISIBILITY).  Coalesced. */
CL_API cl_status cl_left_inverse(const cl_layout_t *layout, cl_layout_t **out);

/* ================================================================= divides */

/* logical_divide(A, B) = composition(A, make_layout(B, complement(B, shape(coalesce(A))))):
 * a rank-2 layout (tile, rest), the tile B of A and the layout of its
 * repetitions.  Errors as composition and complement. */
CL_API cl_status cl_logical_divide(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
/* logical_divide by a tiler: by mode for a tuple (modes of A past the
 * tiler's rank are kept), n as make_layout(n), '_' keeps the mode.
 * CL_E_RANK for a tuple with more elements than A's mode has. */
CL_API cl_status cl_logical_divide_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);

/* zipped_divide: the logical divide with the tiles and the rests gathered
 * (CuTe's tile_unzip): ((tile modes...), (rest modes..., other modes...)).
 * CL_E_RANK when a mode at a tiler leaf does not have rank 2 (a '_' leaf
 * keeps a mode that CuTe then requires to be of rank 2). */
CL_API cl_status cl_zipped_divide(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
CL_API cl_status cl_zipped_divide_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);

/* tiled_divide: zipped_divide with the second mode unpacked:
 * ((tile modes...), rest modes..., other modes...).  (A second mode of rank 1
 * stays one mode, as CuTe's slice with a single '_' leaves it.) */
CL_API cl_status cl_tiled_divide(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
CL_API cl_status cl_tiled_divide_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);

/* flat_divide: zipped_divide with both modes unpacked:
 * (tile modes..., rest modes..., other modes...). */
CL_API cl_status cl_flat_divide(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
CL_API cl_status cl_flat_divide_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);

/* ================================================================ products */

/* logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B)):
 * a rank-2 layout (block, product), B's arrangement of copies of A.
 * Errors as composition and complement. */
CL_API cl_status cl_logical_product(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
/* logical_product by a tiler, by mode as cl_logical_divide_tiler. */
CL_API cl_status cl_logical_product_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);

/* zipped_product, tiled_product, flat_product: the logical product arranged
 * as zipped_divide, tiled_divide and flat_divide arrange the logical divide. */
CL_API cl_status cl_zipped_product(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
CL_API cl_status cl_zipped_product_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);
CL_API cl_status cl_tiled_product(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
CL_API cl_status cl_tiled_product_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);
CL_API cl_status cl_flat_product(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);
CL_API cl_status cl_flat_product_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out);

/* blocked_product(A, B): with both padded to R = max(rank(A), rank(B))
 * modes by 1:0, the logical product's block and product modes zipped mode
 * by mode: ((a0,p0),(a1,p1),...), each mode of B repeating the block; for R
 * = 1 and an integral A, ((A,P)).  raked_product zips the other way,
 * ((p0,a0),...), interleaving the copies.  CL_E_RANK where CuTe's zip finds
 * mismatched ranks. */
CL_API cl_status cl_blocked_product(const cl_layout_t *block, const cl_layout_t *tiler, cl_layout_t **out);
CL_API cl_status cl_raked_product(const cl_layout_t *block, const cl_layout_t *tiler, cl_layout_t **out);

/* tile_to_shape(L, shape, order): blocked_product of L (padded to
 * rank(shape)) with the compact layout of ceil_div(product_each(shape),
 * product_each(L)) in the given order of modes (make_ordered_layout; NULL is
 * CuTe's default, column-major).  CL_E_RANK when rank(L) > rank(shape) or the
 * order does not match; CL_E_DIVISIBILITY when a mode of L does not divide
 * the target's mode. */
CL_API cl_status cl_tile_to_shape(const cl_layout_t *block, const cl_tuple_t *shape, const cl_tuple_t *order,
                                  cl_layout_t **out);

/* =============================================================== utilities */

/* max_common_vector(A, B): the number N >= 1 of elements that A and B
 * both map contiguously, CuTe's
 * size of the first mode of coalesce(composition(A, right_inverse(B))) when
 * its stride is 1, else 1.  Errors as composition. */
CL_API cl_status cl_max_common_vector(const cl_layout_t *a, const cl_layout_t *b, int64_t *out);

/* max_common_layout(A, B): the layout R of that common vector, with
 * A(R(i)) == i and B(R(i)) == i: composition(right_inverse(B), N:1), or 1:0. */
CL_API cl_status cl_max_common_layout(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);

/* nullspace(L): the flattened modes of L with stride 0, each with its stride
 * in the compact column-major layout of L's flattened shape, so that
 * L(R(i)) == 0; 1:0 when L has none. */
CL_API cl_status cl_nullspace(const cl_layout_t *layout, cl_layout_t **out);

/* upcast<n>(L): L over elements n times larger.  Mode by mode: a stride-0
 * leaf stays; otherwise the stride d and n must divide one another
 * (CL_E_DIVISIBILITY), and s:d becomes
 * ceil_div(s, ceil_div(n, |d|)) : sign(d) * ceil_div(|d|, n).
 * CL_E_DOMAIN for n == 0 where a stride is not 0. */
CL_API cl_status cl_upcast(const cl_layout_t *layout, int64_t n, cl_layout_t **out);

/* downcast<n>(L): L over elements n times smaller: a unit-stride (1 or -1)
 * leaf has its shape multiplied by n, every other leaf its stride.
 * CL_E_DOMAIN unless some stride is 1 (CuTe: "Downcast requires adjacent
 * elements"). */
CL_API cl_status cl_downcast(const cl_layout_t *layout, int64_t n, cl_layout_t **out);

/* recast_layout<OldType,NewType>(L), with the element types given by their
 * sizes in bits: with new/old reduced to up/down, L upcast by up, then
 * downcast by down (recast_layout(L, 16, 32) is upcast<2>(L)).  Sizes must be
 * positive (CL_E_DOMAIN); the casts' errors otherwise. */
CL_API cl_status cl_recast_layout(const cl_layout_t *layout, int64_t old_bits, int64_t new_bits, cl_layout_t **out);

/* max_alignment(L): the largest N for which upcast<N>(L) succeeds, as CuTe
 * computes it: with C = coalesce(L) divided by its right inverse,
 * gcd(size of mode 0, the strides of mode 1) (CuTe's gcd: the sign of a
 * negative stride can carry through).  Errors as coalesce and
 * logical_divide. */
CL_API cl_status cl_max_alignment(const cl_layout_t *layout, int64_t *out);

/* domain_distribute(shape, n): a layout of n elements of the domain of shape
 * (its leaves in order each give gcd(leaf, what is left of n)), with the
 * strides of the compact column-major layout of shape, coalesced; its size
 * may be less than n when the leaves do not have the factors
 * (domain_distribute((15,14), 6) is (3,2):(1,15)).  The shape must be an int
 * tuple and n an integer (CL_E_TYPE); the errors of coalesce otherwise. */
CL_API cl_status cl_domain_distribute(const cl_tuple_t *shape, const cl_tuple_t *n, cl_layout_t **out);

/* tile_unzip(L, tiler): the rank-2 modes of L at the leaves of the tiler
 * (as a logical divide or product leaves them) gathered into
 * ((tiles...), (rests..., modes past the tiler)), following the tiler's
 * tree; a tiler that is one leaf leaves a rank-2 L as it is.  Only the
 * tiler's profile matters.  CL_E_RANK where a mode at a leaf does not have
 * rank 2 or the tiler has more modes than L. */
CL_API cl_status cl_tile_unzip(const cl_layout_t *layout, const cl_tuple_t *tiler, cl_layout_t **out);

/* ================================================ the whitepaper's algebra
 * Operations that the CuTe whitepaper (Cecka, "CuTe Layout Representation
 * and Algebra", arXiv:2603.02298) defines and CuTe C++ does not have; each
 * answers the whitepaper's definition. */

/* coalesce_z(L): like coalesce, the same function with as few modes as
 * possible, but for every integer i, also past size(L), where the last mode
 * takes the excess coordinate: so a last mode of extent 1 stays unless it
 * merges ((2,1,6,1):(1,7,8,0) is (2,6,1):(1,8,0), (2,6,1):(1,8,16) is
 * (2,6):(1,8)).  Depth <= 1, same size; scaled-basis strides merge along
 * one basis.  CL_E_DOMAIN for ():(). */
CL_API cl_status cl_coalesce_z(const cl_layout_t *layout, cl_layout_t **out);
/* coalesce_z(L, profile): coalesce_z at each integer leaf of the profile,
 * mode by mode where it is a tuple; a '_' leaf keeps its mode, and modes
 * past the profile's rank are kept.  CL_E_RANK for a profile with more modes
 * than L's mode there. */
CL_API cl_status cl_coalesce_z_profile(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out);

/* greatest_common_domain(a, b) of two shapes: a depth-1 layout whose shape
 * is the largest ordered factorization that both shapes have in order, at
 * the same places of the domain, and whose strides are the domain offsets
 * where those factors start; (1):(0) when there is none.  So
 * composition(make_layout(a), G) and composition(make_layout(b), G) are
 * admissible, size(G) divides gcd(size(a), size(b)), and G is symmetric in
 * a and b: greatest_common_domain((5,3,4),(10,6)) is (5,2):(1,30).
 * CL_E_TYPE unless both are int tuples, CL_E_DOMAIN for an extent < 1. */
CL_API cl_status cl_greatest_common_domain(const cl_tuple_t *a, const cl_tuple_t *b, cl_layout_t **out);

/* layout_add(A, B): the layout R with R(i) == A(i) + B(i) on [0, size),
 * which exists when the coalesced layouts have a common domain of the whole
 * size (the greatest common domain); it has that domain's shape and the
 * strides A(d) + B(d), coalesced.  layout_add((4,3):(1,4), (4,3):(3,1)) is
 * (4,3):(4,5).  CL_E_DOMAIN when the sizes differ or no such R exists,
 * CL_E_TYPE for scaled-basis strides, CL_E_OVERFLOW. */
CL_API cl_status cl_layout_add(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out);

/* The whitepaper's mode-targeted operations, op[mode](A, B): A with its mode
 * at `mode` (a path of n indices, as cl_layout_get takes; n == 0 is A
 * itself) replaced by op(that mode, B), every other mode unchanged:
 * composition[1]((4,6):(1,4), 3:2) is (4,3):(1,8).  Tilers as the `_tiler`
 * functions.  Errors: cl_layout_get's for the path, then the operation's. */
CL_API cl_status cl_composition_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                                     cl_layout_t **out);
CL_API cl_status cl_logical_divide_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                                        cl_layout_t **out);
CL_API cl_status cl_zipped_divide_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                                       cl_layout_t **out);
CL_API cl_status cl_logical_product_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                                         cl_layout_t **out);
CL_API cl_status cl_coalesce_mode(const cl_layout_t *a, const int64_t *mode, int64_t n, cl_layout_t **out);
CL_API cl_status cl_coalesce_z_mode(const cl_layout_t *a, const int64_t *mode, int64_t n, cl_layout_t **out);

#ifdef __cplusplus
}
#endif
#endif
