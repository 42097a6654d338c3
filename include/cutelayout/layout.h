/* SPDX-License-Identifier: BSD-3-Clause */
/* layout.h: the layout handle, CuTe's Layout<Shape,Stride>.
 *
 * A layout is a function from coordinates to indices: a shape and a stride
 * that are congruent IntTuples, `(2,(2,2)):(4,(2,1))`.  A cl_layout_t is
 * immutable and lives in one allocation; any number of threads may read it.
 *
 * A stride may also hold CuTe's scaled bases (`1@0`, tuple.h): such a
 * *coordinate layout* maps coordinates to coordinates, as CuTe's
 * make_identity_layout((4,8)) = (4,8):(1@0,1@1) maps each coordinate to
 * itself.  Its values are tuples (cl_layout_eval_tuple); the functions that
 * answer an integer index fail on it with CL_E_TYPE.
 *
 * Every constructor returns a fresh handle through its last parameter (NULL
 * on failure); free it with cl_layout_free().  Inputs are never modified. */
#ifndef CUTELAYOUT_LAYOUT_H
#define CUTELAYOUT_LAYOUT_H

#include "common.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Common to every function below: a NULL handle or out-parameter is
 * CL_E_NULL, an allocation failure CL_E_NOMEM, a result outside int64_t
 * CL_E_OVERFLOW, a result beyond CL_MAX_RANK / CL_MAX_DEPTH CL_E_LIMIT.
 * Where CuTe rejects a call at compile time the function fails and
 * cl_last_error() names the broken precondition. */

/* ---- text (CONTRACT.md: `(2,(2,2)):(4,(2,1))`, `8:1`) ---- */
/* Parses SHAPE:STRIDE (white space allowed between tokens).  CL_E_PARSE with
 * the column in cl_last_error() for bad text, for text that is not a layout,
 * or for a stride not congruent with the shape. */
CL_API cl_status cl_layout_parse(const char *text, cl_layout_t **out);
/* snprintf-style: writes at most cap bytes (NUL included) and returns the
 * length of the whole text, or CL_E_NULL for a NULL layout or a NULL buf
 * with cap > 0. */
CL_API int64_t cl_layout_format(const cl_layout_t *layout, char *buf, size_t cap);
/* Frees a layout; NULL is a no-op. */
CL_API void cl_layout_free(cl_layout_t *layout);
/* A copy of layout (a new handle to free). */
CL_API cl_status cl_layout_copy(const cl_layout_t *layout, cl_layout_t **out);

/* ---- construction ---- */
/* make_layout(shape, stride): an int tuple shape and a congruent stride
 * (CL_E_RANK otherwise) of integers and scaled bases (else CL_E_TYPE).  A
 * NULL stride means LayoutLeft. */
CL_API cl_status cl_layout_make(const cl_tuple_t *shape, const cl_tuple_t *stride, cl_layout_t **out);
/* make_layout(shape, LayoutLeft) / make_layout(shape, LayoutRight): compact
 * column-major / row-major strides (cl_compact_col_major / _row_major). */
CL_API cl_status cl_layout_make_left(const cl_tuple_t *shape, cl_layout_t **out);
CL_API cl_status cl_layout_make_right(const cl_tuple_t *shape, cl_layout_t **out);
/* make_ordered_layout(shape, order): compact strides in the order of `order`
 * (cl_compact_order; ties share a stride; CL_E_RANK unless order is weakly
 * congruent with shape). */
CL_API cl_status cl_layout_make_ordered(const cl_tuple_t *shape, const cl_tuple_t *order, cl_layout_t **out);
/* make_layout(L0, L1, ...): the layout whose n modes are the given layouts,
 * ((S0,S1,...):(D0,D1,...)); n == 1 wraps, (S0):(D0); n == 0 gives ():(). */
CL_API cl_status cl_layout_concat(const cl_layout_t *const *layouts, int64_t n, cl_layout_t **out);
/* make_layout_like(L): L's shape with compact strides in the order of L's
 * strides, where stride-0 modes keep stride 0 (CuTe's
 * compact_order(filter_zeros(stride, shape), stride)).
 * make_fragment_like(L): for rank <= 1, make_layout(shape(L)); otherwise
 * CuTe's tiled_product of mode 0 made compact column-major (its stride-0
 * leaves kept 0) with make_ordered_layout of the other modes: the result is
 * (shape<0>, shape<1>, ..., shape<R-1>), or (shape<0>, (shape<1>)) for rank
 * 2, as CuTe prints it.  A mode 0 without elements is CL_E_DOMAIN (CuTe
 * divides by zero). */
/* make_identity_layout(shape): CuTe's make_layout(shape,
 * make_basis_like(shape)), the coordinate layout that maps each coordinate
 * of shape to itself: the leaf at get<i,j,...> gets the unit basis E<i,j,...>,
 * so (4,8) gives (4,8):(1@0,1@1) and ((2,2),4) gives
 * ((2,2),4):((1@0@0,1@1@0),1@1).  An integer shape n gives n:1 (CuTe's E<>,
 * the integer 1).  shape must be an int tuple (CL_E_TYPE). */
CL_API cl_status cl_make_identity_layout(const cl_tuple_t *shape, cl_layout_t **out);
/* Nonzero when layout's strides hold a scaled basis (its values are
 * coordinates); 0 for an integer layout or NULL. */
CL_API int cl_layout_is_coordinate(const cl_layout_t *layout);
CL_API cl_status cl_make_layout_like(const cl_layout_t *layout, cl_layout_t **out);
CL_API cl_status cl_make_fragment_like(const cl_layout_t *layout, cl_layout_t **out);

/* ---- queries ---- */
/* shape(L), stride(L): new tuples. */
CL_API cl_status cl_layout_shape(const cl_layout_t *layout, cl_tuple_t **out);
CL_API cl_status cl_layout_stride(const cl_layout_t *layout, cl_tuple_t **out);
/* size: the product of the shape.  cosize: CuTe's size(coshape), that is
 * 1 + sum of (extent - 1) * |stride| over the leaves (L(size-1) + 1 for
 * non-negative strides); for a coordinate layout, the product of its
 * coshape.  These two return the value or, on failure, a
 * negative status; a size can itself be negative (a negative extent), so use
 * the _checked forms where that matters. */
CL_API int64_t cl_layout_size(const cl_layout_t *layout);
CL_API int64_t cl_layout_cosize(const cl_layout_t *layout);
CL_API cl_status cl_layout_size_checked(const cl_layout_t *layout, int64_t *out);
CL_API cl_status cl_layout_cosize_checked(const cl_layout_t *layout, int64_t *out);
/* coshape(L): for an integer layout, the cosize as an integer leaf; for a
 * coordinate layout, CuTe's coordinate bound: the inner product of the
 * extents minus 1 with the strides' absolute values as an arithmetic tuple,
 * plus 1 at every leaf (coshape((4,8):(1@0,1@1)) is (4,8), coshape(4:1@1)
 * is (1,4)).  CL_E_TYPE where CuTe cannot add the terms (an integer stride
 * beside a basis: coshape((2,2):(1@1,2))). */
CL_API cl_status cl_layout_coshape(const cl_layout_t *layout, cl_tuple_t **out);
/* rank and depth of the shape (cl_tuple_rank / cl_tuple_depth); a negative
 * status on failure (depth: CL_E_DOMAIN when the shape holds ()). */
CL_API int64_t cl_layout_rank(const cl_layout_t *layout);
CL_API int64_t cl_layout_depth(const cl_layout_t *layout);
/* get<i0,i1,...>(L): the sub-layout at a path of n mode indices (a leaf is
 * its own mode 0); an index out of range is CL_E_DOMAIN. */
CL_API cl_status cl_layout_get(const cl_layout_t *layout, const int64_t *path, int64_t n, cl_layout_t **out);
/* Nonzero when a and b have the same shape and stride (both non-NULL). */
CL_API int cl_layout_equal(const cl_layout_t *a, const cl_layout_t *b);

/* ---- evaluation ---- */
/* layout(i) for a linear coordinate i: i is split colexicographically over
 * the shape, the last mode taking whatever is left (so i need not be below
 * the size; a negative i follows C division), and the coordinates are summed
 * times the strides.  Evaluating through an empty tuple () is CL_E_DOMAIN; a
 * coordinate layout has no integer values (CL_E_TYPE): see
 * cl_layout_eval_tuple. */
CL_API CL_NOPLT cl_status cl_layout_eval(const cl_layout_t *layout, int64_t i, int64_t *index);
/* layout(crd) for an integer or hierarchical coordinate: cl_crd2idx(crd,
 * shape, stride), CuTe's crd2idx(crd, L) ('_' counts as 0). */
CL_API cl_status cl_layout_eval_coord(const cl_layout_t *layout, const cl_tuple_t *crd, int64_t *index);
/* layout(i) and layout(crd) as a value, for any layout: an integer leaf for
 * an integer layout (as cl_layout_eval / cl_layout_eval_coord), and for a
 * coordinate layout the value CuTe computes and prints, in its three forms:
 * an integer where no basis is reached, a scaled basis where one term is
 * (crd2idx(3, 8:2@1) is 6@1), an arithmetic tuple (a tuple) where bases add
 * up (crd2idx(5, (4,8):(1@0,1@1)) is (1,1)).  CuTe's sums are followed
 * exactly, in its order: a nonzero integer added to a basis or a tuple is
 * CL_E_TYPE, as CuTe's static_assert ("op+ error") rejects it
 * (crd2idx(5, (4,8):(1@0,16))). */
CL_API cl_status cl_layout_eval_tuple(const cl_layout_t *layout, int64_t i, cl_tuple_t **out);
CL_API cl_status cl_layout_eval_coord_tuple(const cl_layout_t *layout, const cl_tuple_t *crd, cl_tuple_t **out);

/* ---- slicing and rearranging modes ---- */
/* slice(crd, L): the sub-layout over the `_` positions of crd, their modes
 * gathered into one tuple; integer positions are dropped (an all-integer crd
 * gives ():()), and crd == `_` gives L itself.  crd's tuples must match L's
 * ranks (CL_E_RANK).  slice_and_offset also gives the offset L(crd) with
 * each `_` read as 0 (0 on failure). */
CL_API cl_status cl_layout_slice(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out);
CL_API cl_status cl_layout_slice_and_offset(const cl_tuple_t *crd, const cl_layout_t *layout,
                                            cl_layout_t **out, int64_t *offset);
/* slice_and_offset for any layout: the offset as a value
 * (cl_layout_eval_coord_tuple), a new tuple to free.  Both out-parameters
 * are set together, or both NULL on failure. */
CL_API cl_status cl_layout_slice_and_offset_tuple(const cl_tuple_t *crd, const cl_layout_t *layout,
                                                  cl_layout_t **out, cl_tuple_t **offset);
/* dice(crd, L): the complement of slice, the sub-layout over the integer
 * positions of crd (crd an integer: L itself; crd `_`: ():()).  Errors as
 * slice. */
CL_API cl_status cl_layout_dice(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out);
/* slice(crd, t) and dice(crd, t) of tuples (CuTe's underscore.hpp): the
 * elements of t at the `_` (slice) or integer (dice) positions of crd,
 * gathered into one flat tuple; crd `_` slices all of t and dices nothing,
 * an integer crd the opposite.  Errors as cl_layout_slice. */
CL_API cl_status cl_tuple_slice(const cl_tuple_t *crd, const cl_tuple_t *t, cl_tuple_t **out);
CL_API cl_status cl_tuple_dice(const cl_tuple_t *crd, const cl_tuple_t *t, cl_tuple_t **out);
/* domain_offset(crd, L): CuTe's (L, L(crd)), the layout unchanged and the
 * offset of crd ('_' counting as 0); *offset is 0 on failure. */
CL_API cl_status cl_domain_offset(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out, int64_t *offset);
/* flatten(L): shape and stride flattened; unflatten(L, profile): L's modes
 * (an integer shape counts as one) folded into profile's structure, CL_E_RANK
 * unless there are as many modes as profile has leaves. */
CL_API cl_status cl_layout_flatten(const cl_layout_t *layout, cl_layout_t **out);
CL_API cl_status cl_layout_unflatten(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out);
/* group<b,e>(L): modes [b, e) become one mode (nothing changes for b == e);
 * e == -1 stands for the rank, as in CuTe.  A range outside the modes is
 * CL_E_DOMAIN. */
CL_API cl_status cl_layout_group(const cl_layout_t *layout, int64_t begin, int64_t end, cl_layout_t **out);
/* take<b,e>(L): modes [b, e), which must be non-empty and inside the modes
 * (CL_E_DOMAIN).  select<i...>(L): the listed modes, in order, repeats
 * allowed (n == 0 gives ():()); an index out of range is CL_E_DOMAIN. */
CL_API cl_status cl_layout_take(const cl_layout_t *layout, int64_t begin, int64_t end, cl_layout_t **out);
CL_API cl_status cl_layout_select(const cl_layout_t *layout, const int64_t *modes, int64_t n, cl_layout_t **out);
/* append(L, X) / prepend(L, X): X as a new last / first mode (an integer-
 * shaped L counts as one mode).  X NULL means 1:0, CuTe's default. */
CL_API cl_status cl_layout_append(const cl_layout_t *layout, const cl_layout_t *x, cl_layout_t **out);
CL_API cl_status cl_layout_prepend(const cl_layout_t *layout, const cl_layout_t *x, cl_layout_t **out);
/* append<n>(L, X) / prepend<n>(L, X): L's modes padded at the end / front
 * with copies of X up to n modes (n == rank(L): L itself; an integer-shaped
 * L is one mode).  X NULL means 1:0.  CL_E_DOMAIN for n < rank(L),
 * CL_E_LIMIT beyond CL_MAX_RANK. */
CL_API cl_status cl_layout_append_to(const cl_layout_t *layout, const cl_layout_t *x, int64_t n, cl_layout_t **out);
CL_API cl_status cl_layout_prepend_to(const cl_layout_t *layout, const cl_layout_t *x, int64_t n, cl_layout_t **out);
/* replace<i>(L, X): L with mode i replaced by X (an integer-shaped L is its
 * own mode 0).  CL_E_DOMAIN for i outside [0, rank(L)). */
CL_API cl_status cl_layout_replace(const cl_layout_t *layout, int64_t i, const cl_layout_t *x, cl_layout_t **out);
/* coprofile(L): a tuple of 0s congruent with the values of L, which for
 * integer strides is the integer 0. */
CL_API cl_status cl_layout_coprofile(const cl_layout_t *layout, cl_tuple_t **out);
/* zip(L): transposes a layout whose modes are tuples of one rank,
 * ((a,b),(c,d)) -> ((a,c),(b,d)); a layout whose first mode is an integer is
 * wrapped, (a,b) -> ((a,b)); an integer-shaped layout is itself.  Modes of
 * different ranks, or ():(), are CL_E_RANK. */
CL_API cl_status cl_layout_zip(const cl_layout_t *layout, cl_layout_t **out);

#ifdef __cplusplus
}
#endif
#endif
