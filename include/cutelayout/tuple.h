/* SPDX-License-Identifier: BSD-3-Clause */
/* tuple.h: IntTuples, CuTe's hierarchical integers.
 *
 * A cl_tuple_t is an immutable tree whose leaves are integers, underscores
 * (`_`, CuTe's slicing wildcard), scaled bases (`1@0`, CuTe's E<i...> times
 * an integer) or layouts, and whose inner nodes are tuples: `8`, `(2,(3,4))`,
 * `(1,_)`, `(1@0,1@1)`, `(2:3,(2,3):(1,8))`.  Most functions below want an
 * *int tuple* (integer leaves only) and fail with CL_E_TYPE otherwise.
 *
 * Ownership: every function that makes a tuple returns a fresh handle through
 * its last parameter; the caller frees it with cl_tuple_free().  On failure the
 * out-parameter is set to NULL.  Inputs are never modified, and a handle may be
 * read by any number of threads at once.
 *
 * Arithmetic is in int64_t; any overflow is CL_E_OVERFLOW, never a wrapped value. */
#ifndef CUTELAYOUT_TUPLE_H
#define CUTELAYOUT_TUPLE_H

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cl_tuple cl_tuple_t;
typedef struct cl_layout cl_layout_t;

typedef enum cl_kind {
  CL_KIND_INT = 0,
  CL_KIND_TUPLE = 1,
  CL_KIND_UNDERSCORE = 2,
  CL_KIND_LAYOUT = 3,
  CL_KIND_BASIS = 4
} cl_kind;

/* Common to every function below: a NULL handle or out-parameter is
 * CL_E_NULL; a result that does not fit in int64_t is CL_E_OVERFLOW; an
 * allocation failure is CL_E_NOMEM; a tuple with more than CL_MAX_RANK
 * elements or deeper than CL_MAX_DEPTH is CL_E_LIMIT.  "Int tuple" means a
 * tuple whose leaves are integers; an argument that must be one and holds a
 * layout (or, where stated, '_') is CL_E_TYPE.  Wherever CuTe rejects a call
 * at compile time (static_assert "Mismatched Ranks", "Divisibility
 * Condition", "Index out of range", a division by zero), the function fails
 * and cl_last_error() names the broken precondition. */

/* ---- making and freeing ---- */
/* The integer `value` as a tuple leaf. */
CL_API cl_status cl_tuple_int(int64_t value, cl_tuple_t **out);
/* CuTe's slicing wildcard `_`. */
CL_API cl_status cl_tuple_underscore(cl_tuple_t **out);
/* The flat tuple (values[0],...,values[n-1]); n == 0 gives `()` and needs no
 * values.  n < 0 is CL_E_DOMAIN; n > CL_MAX_RANK is CL_E_LIMIT. */
CL_API cl_status cl_tuple_from_ints(const int64_t *values, int64_t n, cl_tuple_t **out);
/* The tuple (elems[0],...,elems[n-1]), each element copied (CuTe's
 * make_tuple).  A NULL element is CL_E_NULL, n < 0 CL_E_DOMAIN. */
CL_API cl_status cl_tuple_make(const cl_tuple_t *const *elems, int64_t n, cl_tuple_t **out);
/* A leaf holding a copy of a layout, for tilers such as `(2:3,(2,3):(1,8))`. */
CL_API cl_status cl_tuple_from_layout(const cl_layout_t *layout, cl_tuple_t **out);
/* CuTe's scaled basis ScaledBasis<scale, path[0], ..., path[n-1]>, that is
 * E<path...>{} * scale: the coordinate that holds `scale` at
 * get<path[0], ..., path[n-1]> and 0 everywhere else.  As CuTe prints it,
 * its text is the scale followed by the indices innermost first:
 * cl_tuple_basis(1, {1, 0}, 2) is `1@0@1`, CuTe's E<1,0>.  It is the stride
 * of a coordinate layout such as make_identity_layout((4,8)) =
 * (4,8):(1@0,1@1).  Indices are 0 <= path[k] < CL_MAX_RANK (else
 * CL_E_DOMAIN); 1 <= n <= CL_MAX_DEPTH (n == 0, CuTe's E<>, is its scale,
 * an integer: use cl_tuple_int; else CL_E_DOMAIN / CL_E_LIMIT). */
CL_API cl_status cl_tuple_basis(int64_t scale, const int64_t *path, int64_t n, cl_tuple_t **out);
/* The parts of a scaled-basis leaf: its scale, and its path in CuTe's
 * order (the reverse of the text): *n is the path's length, and its first
 * min(*n, cap) indices are stored into path (which may be NULL when cap is
 * 0).  CL_E_TYPE when t is not a scaled basis. */
CL_API cl_status cl_tuple_basis_parts(const cl_tuple_t *t, int64_t *scale, int64_t *path, int64_t cap, int64_t *n);
/* A copy of t (a new handle to free). */
CL_API cl_status cl_tuple_copy(const cl_tuple_t *t, cl_tuple_t **out);
/* Frees a tuple; NULL is a no-op. */
CL_API void cl_tuple_free(cl_tuple_t *t);

/* ---- text ---- */
/* Parses the canonical text (white space allowed between tokens):
 * integers, `_`, scaled bases `k@i@...`, layouts `S:D` (scaled bases only
 * in the stride) and parenthesised tuples of these.
 * CL_E_PARSE with cl_last_error() naming the column and what was expected on
 * bad text; CL_E_OVERFLOW for an integer outside int64_t; CL_E_LIMIT beyond
 * CL_MAX_RANK / CL_MAX_DEPTH. */
CL_API cl_status cl_tuple_parse(const char *text, cl_tuple_t **out);
/* snprintf-style: writes at most cap bytes (NUL included, so cap 0 writes
 * nothing and buf may then be NULL) and returns the length of the whole text,
 * or CL_E_NULL for a NULL tuple or a NULL buf with cap > 0. */
CL_API int64_t cl_tuple_format(const cl_tuple_t *t, char *buf, size_t cap);

/* ---- inspecting ---- */
/* What the root of t is: an integer, a tuple, '_', a layout or a scaled
 * basis.  (NULL gives CL_KIND_INT, so check for NULL first.) */
CL_API cl_kind cl_tuple_kind(const cl_tuple_t *t);
/* The integer of an integer leaf; CL_E_TYPE for anything else. */
CL_API cl_status cl_tuple_value(const cl_tuple_t *t, int64_t *value);
/* The layout held by a layout leaf (a new handle); CL_E_TYPE otherwise. */
CL_API cl_status cl_tuple_layout(const cl_tuple_t *t, cl_layout_t **out);
/* CuTe's rank: the number of elements of a tuple, 1 for a leaf;
 * CL_E_NULL (negative) for NULL. */
CL_API int64_t cl_tuple_rank(const cl_tuple_t *t);
/* CuTe's depth: 0 for a leaf, 1 + the largest depth of the elements.  A tree
 * holding an empty tuple () has none (CuTe's max over no elements does not
 * compile): CL_E_DOMAIN.  Failures are returned as negative statuses. */
CL_API int64_t cl_tuple_depth(const cl_tuple_t *t);
/* CuTe's get<i0,i1,...>(t) = get<i1,...>(get<i0>(t)) for the n indices of
 * path (n == 0 gives a copy of t).  A leaf admits index 0 (get<0> of an
 * integer is the integer itself); any other index out of range is
 * CL_E_DOMAIN. */
CL_API cl_status cl_tuple_get(const cl_tuple_t *t, const int64_t *path, int64_t n, cl_tuple_t **out);
/* Nonzero when a and b are the same value (both non-NULL). */
CL_API int cl_tuple_equal(const cl_tuple_t *a, const cl_tuple_t *b);

/* ---- int_tuple.hpp ---- */
/* CuTe's product (= size) and sum of all leaves: 1 and 0 for `()`.  As in
 * CuTe, where Underscore is an Int<0>, a '_' leaf counts as 0; a layout
 * leaf is CL_E_TYPE. */
CL_API cl_status cl_tuple_product(const cl_tuple_t *t, int64_t *out);
CL_API cl_status cl_tuple_sum(const cl_tuple_t *t, int64_t *out);
/* CuTe's inner_product: sum of a_i * b_i over congruent int tuples, or a * b
 * for two integers.  Different ranks, or an integer against a tuple, are
 * CL_E_RANK. */
CL_API cl_status cl_tuple_inner_product(const cl_tuple_t *a, const cl_tuple_t *b, int64_t *out);
/* CuTe's flatten: the leaves of a tuple as a flat tuple; a leaf stays itself. */
CL_API cl_status cl_tuple_flatten(const cl_tuple_t *t, cl_tuple_t **out);
/* CuTe's unflatten: the elements of `flat` (an integer counts as a rank-1
 * tuple) folded, in order, into the profile of `profile`.  CL_E_RANK unless
 * flat has exactly as many elements as profile has leaves. */
CL_API cl_status cl_tuple_unflatten(const cl_tuple_t *flat, const cl_tuple_t *profile, cl_tuple_t **out);
/* Profiles, answered in *out (0 or 1):
 * congruent: a and b have the same tree structure;
 * weakly_congruent: a's structure is a prefix of b's (a leaf of a may stand
 *   for a subtree of b);
 * compatible: every leaf of a equals the size of b's subtree there (so any
 *   coordinate of a is one of b); '_' counts as 0, a layout is CL_E_TYPE. */
CL_API cl_status cl_tuple_congruent(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
CL_API cl_status cl_tuple_weakly_congruent(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
CL_API cl_status cl_tuple_compatible(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
/* The whitepaper's lattice of shapes under compatibility (a coarsens b when
 * compatible(a, b)):
 * common_refinement(a, b): the least shape that both coarsen (same ranks
 *   mode by mode; an integer against a tuple of its size is the tuple).
 *   CL_E_DOMAIN when there is none (different sizes, or profiles that do not
 *   nest: (2,(3,5)) and ((3,2),5)).
 * common_coarsening(a, b): the greatest shape that coarsens both: mode by
 *   mode where both are tuples of one rank, else the size, so
 *   common_coarsening((2,(3,5)),((3,2),5)) is 30.  CL_E_DOMAIN when the
 *   sizes differ.
 * Both are symmetric; the shapes must be int tuples (CL_E_TYPE). */
CL_API cl_status cl_common_refinement(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
CL_API cl_status cl_common_coarsening(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* CuTe's shape_div(a, b): tuples of one rank mode by mode; a tuple by an
 * integer folds the divisor across a's modes (a_i / rest, then rest / a_i);
 * an integer by a tuple divides by its product.  Each integer step needs
 * a % b == 0 or b % a == 0 ("Divisibility Condition": CL_E_DIVISIBILITY) and
 * rounds up.  Different ranks: CL_E_RANK; a division by 0: CL_E_DOMAIN. */
CL_API cl_status cl_tuple_shape_div(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* CuTe's ceil_div(a, b): as shape_div without the divisibility condition;
 * b may have fewer modes than a (the missing ones are 1), more is CL_E_RANK. */
CL_API cl_status cl_tuple_ceil_div(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* CuTe's elem_scale(a, b): each leaf of a times the product of b's mode
 * there; a tuple a needs b to be a tuple of its rank (CL_E_RANK). */
CL_API cl_status cl_tuple_elem_scale(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* CuTe's elem_less(a, b), the bounds test of predication (is a coordinate
 * inside a shape?): for two integers a < b; for two tuples, elem_less of
 * each element of a with the element of b at its position, all true, and
 * false when b has fewer elements.  The values of a coordinate layout are
 * tuples (arithmetic tuples), so elem_less(L(i), shape) is CUTLASS's
 * predicate.  '_' counts as 0.  An integer against a tuple is CL_E_RANK and
 * a scaled basis or a layout CL_E_TYPE, wherever they are: CuTe compiles
 * every comparison it would make (all pairs up to the end of b).  *out is 1
 * or 0 (0 on failure). */
CL_API cl_status cl_elem_less(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
/* The exclusive prefix products of a, congruent with a: (2,(3,4),5) gives
 * (1,(2,6),24).  (Not one of CuTe's free functions today; compact_col_major
 * differs from it only at extent-1 modes.) */
CL_API cl_status cl_tuple_prefix_product(const cl_tuple_t *a, cl_tuple_t **out);

/* CuTe's max(t), min(t) and gcd(t): over every integer of t (an integer is
 * itself).  gcd follows CuTe's Euclid loop in C arithmetic, folded from the
 * right, so negative operands can give a negative result (gcd((4,-6)) is
 * -2).  An empty tuple anywhere is CL_E_DOMAIN (CuTe's call with no
 * arguments does not compile); '_' or a layout is CL_E_TYPE; gcd((INT64_MIN,
 * -1)) is -1. */
CL_API cl_status cl_tuple_max(const cl_tuple_t *t, int64_t *out);
CL_API cl_status cl_tuple_min(const cl_tuple_t *t, int64_t *out);
CL_API cl_status cl_tuple_gcd(const cl_tuple_t *t, int64_t *out);
/* CuTe's product_each(t): the tuple of the products of t's elements (an
 * integer is wrapped first: product_each(6) is (6)).  A lone '_' element
 * stays '_' (CuTe's Underscore is its own product); inside a product it
 * counts as 0. */
CL_API cl_status cl_tuple_product_each(const cl_tuple_t *t, cl_tuple_t **out);
/* CuTe's product_like(t, guide): congruent with guide, each leaf the product
 * of t's subtree there.  guide's profile must be a coarsening of t's
 * (CL_E_RANK). */
CL_API cl_status cl_tuple_product_like(const cl_tuple_t *t, const cl_tuple_t *guide, cl_tuple_t **out);
/* CuTe's round_up(a, b): a rounded up to a multiple of b, ((a+b-1)/b)*b;
 * tuples mode by mode, b's missing trailing modes being 1 (more modes in b:
 * CL_E_RANK); an integer against a tuple is CL_E_RANK; b == 0 CL_E_DOMAIN. */
CL_API cl_status cl_tuple_round_up(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* CuTe's filter_zeros(a, b) on int tuples: b with each subtree that stands at
 * a 0 leaf of a replaced by 1s of its profile.  a's profile must be a
 * coarsening of b's (CL_E_RANK).  CuTe's one-argument filter_zeros(t) is
 * cl_tuple_filter_zeros(t, t). */
CL_API cl_status cl_tuple_filter_zeros(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* CuTe's evenly_divides(shape, tiler), in *out (0 or 1): whether the tiler
 * divides the shape without a remainder tile, i.e. for an integer tiler n,
 * size(shape) == n * size(ceil_div(shape, n)); for a tuple tiler, false when
 * it has more modes than shape, else each of its modes against the shape's
 * mode there.  The shape must be an int tuple.  A layout L in the tiler
 * divides as CuTe's ceil_div(shape, L) does, by the rest of logical_divide:
 * size(shape) == size(L) * size(complement(L, shape)).  A 0 or a '_' (CuTe's
 * Int<0>) in the tiler is a division by zero, CL_E_DOMAIN. */
CL_API cl_status cl_evenly_divides(const cl_tuple_t *shape, const cl_tuple_t *tiler, int *out);
/* CuTe's lex_less and colex_less, in *out (0 or 1), the orders of the
 * coordinates of row-major and column-major layouts: integers compare with <
 * ('_' counting as 0); tuples of any ranks element by element, from the
 * first elements (lex) or the last ones (colex): the first pair that differs
 * decides, and a proper prefix is less.  As for cl_elem_less, a pair CuTe
 * cannot compare anywhere in the common prefix fails the call: an integer
 * against a tuple CL_E_RANK, a scaled basis or a layout CL_E_TYPE.  CuTe's
 * _leq, _gtr and _geq of all three orders are !less(b,a), less(b,a) and
 * !less(a,b) (so elem_leq(a,b) is "not all of b below a", not "all of a at
 * most b"); the eval language offers them under those names. */
CL_API cl_status cl_lex_less(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
CL_API cl_status cl_colex_less(const cl_tuple_t *a, const cl_tuple_t *b, int *out);

/* ---- stride.hpp ---- */
/* Compact strides for an int tuple shape: column-major (LayoutLeft, first
 * mode fastest), row-major (LayoutRight, last mode fastest), or ordered by
 * `order` (weakly congruent with shape, else CL_E_RANK): a leaf of order o
 * covering a subtree of shape starts at the product of the extents whose
 * order is less than o, so equal orders share a start.  As in CuTe with
 * static extents, an extent-1 mode gets stride 0. */
CL_API cl_status cl_compact_col_major(const cl_tuple_t *shape, cl_tuple_t **out);
CL_API cl_status cl_compact_row_major(const cl_tuple_t *shape, cl_tuple_t **out);
CL_API cl_status cl_compact_order(const cl_tuple_t *shape, const cl_tuple_t *order, cl_tuple_t **out);
/* CuTe's two-argument compact_col_major(shape, current) and
 * compact_row_major(shape, current): the compact strides starting at
 * `current` instead of 1 (compact_col_major((2,3),5) is (5,10)).  A tuple
 * current needs a tuple shape of its rank (CL_E_RANK) and applies mode by
 * mode; its leaves must be integers (CL_E_TYPE). */
CL_API cl_status cl_compact_col_major_from(const cl_tuple_t *shape, const cl_tuple_t *current, cl_tuple_t **out);
CL_API cl_status cl_compact_row_major_from(const cl_tuple_t *shape, const cl_tuple_t *current, cl_tuple_t **out);
/* CuTe's crd2idx(crd, shape, stride): a tuple coordinate maps mode by mode
 * (ranks must match, CL_E_RANK); an integer coordinate is split
 * colexicographically over a tuple shape, each mode but the last taking
 * crd % size(mode), the last taking the rest (so it need not be below the
 * size, and may be negative: C division); then the sum of coordinate *
 * stride.  '_' counts as 0.  A shape holding () is CL_E_DOMAIN. */
CL_API cl_status cl_crd2idx(const cl_tuple_t *crd, const cl_tuple_t *shape, const cl_tuple_t *stride, int64_t *out);
/* CuTe's crd2idx(crd, shape): an integer coordinate is its own index; a tuple
 * coordinate (of shape's rank) is flattened and read colexicographically
 * against the sizes of shape's modes (Horner's rule).  A coordinate with no
 * integer in it is CL_E_DOMAIN. */
CL_API cl_status cl_crd2idx_shape(const cl_tuple_t *crd, const cl_tuple_t *shape, int64_t *out);
/* CuTe's idx2crd(idx, shape): the coordinate of index idx in shape,
 * congruent with shape, split colexicographically (the last mode keeps the
 * rest).  A tuple idx maps mode by mode.  Splitting over () is CL_E_DOMAIN,
 * dividing by an extent 0 is CL_E_DOMAIN. */
CL_API cl_status cl_idx2crd(const cl_tuple_t *idx, const cl_tuple_t *shape, cl_tuple_t **out);
/* CuTe's idx2crd(idx, shape, stride): each leaf is (idx / stride) % extent,
 * extent-1 leaves 0.  An integer stride for a tuple shape stands for the
 * compact column-major strides starting there.  A stride 0 at a leaf of
 * extent other than 1 divides by zero: CL_E_DOMAIN. */
CL_API cl_status cl_idx2crd_strided(const cl_tuple_t *idx, const cl_tuple_t *shape, const cl_tuple_t *stride, cl_tuple_t **out);
/* CuTe's crd2crd(crd, src_shape, dst_shape), in CuTe's argument order:
 * where crd and both shapes are tuples of one rank, mode by mode (else
 * CL_E_RANK); otherwise idx2crd(crd2idx(crd, src_shape), dst_shape). */
CL_API cl_status cl_crd2crd(const cl_tuple_t *crd, const cl_tuple_t *from_shape, const cl_tuple_t *to_shape, cl_tuple_t **out);

#ifdef __cplusplus
}
#endif
#endif
