/* tuple.h: IntTuples, CuTe's hierarchical integers.
 *
 * A cl_tuple_t is an immutable tree whose leaves are integers, underscores
 * (`_`, CuTe's slicing wildcard) or layouts, and whose inner nodes are tuples:
 * `8`, `(2,(3,4))`, `(1,_)`, `(2:3,(2,3):(1,8))`.  Most functions below want
 * an *int tuple* (integer leaves only) and fail with CL_E_TYPE otherwise.
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
  CL_KIND_LAYOUT = 3
} cl_kind;

/* ---- making and freeing ---- */
CL_API cl_status cl_tuple_int(int64_t value, cl_tuple_t **out);
CL_API cl_status cl_tuple_underscore(cl_tuple_t **out);
/* A flat tuple of n integers; n == 0 gives `()`. */
CL_API cl_status cl_tuple_from_ints(const int64_t *values, int64_t n, cl_tuple_t **out);
/* A tuple of the n given elements (each copied). */
CL_API cl_status cl_tuple_make(const cl_tuple_t *const *elems, int64_t n, cl_tuple_t **out);
/* A leaf holding a copy of a layout (an element of a tiler). */
CL_API cl_status cl_tuple_from_layout(const cl_layout_t *layout, cl_tuple_t **out);
CL_API cl_status cl_tuple_copy(const cl_tuple_t *t, cl_tuple_t **out);
/* NULL is a no-op. */
CL_API void cl_tuple_free(cl_tuple_t *t);

/* ---- text ---- */
/* Parses the canonical text (white space allowed between tokens):
 * integers, `_`, layouts `S:D` and parenthesised tuples of these.
 * CL_E_PARSE with cl_last_error() naming the column on bad text. */
CL_API cl_status cl_tuple_parse(const char *text, cl_tuple_t **out);
/* snprintf-style: writes at most cap bytes (NUL included) and returns the
 * length of the whole text, or a negative status. */
CL_API int64_t cl_tuple_format(const cl_tuple_t *t, char *buf, size_t cap);

/* ---- inspecting ---- */
CL_API cl_kind cl_tuple_kind(const cl_tuple_t *t);           /* CL_KIND_INT for NULL */
CL_API cl_status cl_tuple_value(const cl_tuple_t *t, int64_t *value); /* CL_E_TYPE unless an integer */
/* The layout held by a layout leaf (a new handle). */
CL_API cl_status cl_tuple_layout(const cl_tuple_t *t, cl_layout_t **out);
/* CuTe's rank: the number of elements of a tuple, 1 for a leaf. */
CL_API int64_t cl_tuple_rank(const cl_tuple_t *t);
/* CuTe's depth: 0 for a leaf, 1 + the largest depth of the elements. */
CL_API int64_t cl_tuple_depth(const cl_tuple_t *t);
/* Element by path: get(t, i0, i1, ...) = get(get(t,i0), i1, ...).  A leaf
 * admits index 0 (CuTe's get<0> of an integer is the integer itself). */
CL_API cl_status cl_tuple_get(const cl_tuple_t *t, const int64_t *path, int64_t n, cl_tuple_t **out);
CL_API int cl_tuple_equal(const cl_tuple_t *a, const cl_tuple_t *b);

/* ---- int_tuple.hpp ---- */
CL_API cl_status cl_tuple_product(const cl_tuple_t *t, int64_t *out); /* = size */
CL_API cl_status cl_tuple_sum(const cl_tuple_t *t, int64_t *out);
CL_API cl_status cl_tuple_inner_product(const cl_tuple_t *a, const cl_tuple_t *b, int64_t *out);
CL_API cl_status cl_tuple_flatten(const cl_tuple_t *t, cl_tuple_t **out);
/* Folds a flat tuple into the profile of `profile` (CuTe's unflatten). */
CL_API cl_status cl_tuple_unflatten(const cl_tuple_t *flat, const cl_tuple_t *profile, cl_tuple_t **out);
/* Profiles: same tree shape (congruent); a's profile a prefix-tree of b's
 * (weakly_congruent); every coordinate of a is one of b (compatible). */
CL_API cl_status cl_tuple_congruent(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
CL_API cl_status cl_tuple_weakly_congruent(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
CL_API cl_status cl_tuple_compatible(const cl_tuple_t *a, const cl_tuple_t *b, int *out);
/* shape_div: a divided by b, folding b across a's modes; each integer step
 * needs a % b == 0 or b % a == 0 (CL_E_DIVISIBILITY otherwise). */
CL_API cl_status cl_tuple_shape_div(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
CL_API cl_status cl_tuple_ceil_div(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* elem_scale: a scaled leaf-wise by the products of b's corresponding modes. */
CL_API cl_status cl_tuple_elem_scale(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out);
/* The exclusive prefix products of a, congruent with a (CuTe's prefix_product). */
CL_API cl_status cl_tuple_prefix_product(const cl_tuple_t *a, cl_tuple_t **out);

/* ---- stride.hpp ---- */
/* Compact strides: column-major (LayoutLeft), row-major (LayoutRight), or
 * ordered by `order` (congruent with shape; smaller order = smaller stride).
 * As in CuTe with static extents, a mode of extent 1 gets stride 0. */
CL_API cl_status cl_compact_col_major(const cl_tuple_t *shape, cl_tuple_t **out);
CL_API cl_status cl_compact_row_major(const cl_tuple_t *shape, cl_tuple_t **out);
CL_API cl_status cl_compact_order(const cl_tuple_t *shape, const cl_tuple_t *order, cl_tuple_t **out);
/* Coordinate -> index: crd2idx(crd, shape, stride) is the inner product of the
 * (natural) coordinate with the strides; an integer coordinate is first split
 * colexicographically by the shape, its last mode taking the remainder. */
CL_API cl_status cl_crd2idx(const cl_tuple_t *crd, const cl_tuple_t *shape, const cl_tuple_t *stride, int64_t *out);
/* Colexicographic coordinate -> index in shape (Horner). */
CL_API cl_status cl_crd2idx_shape(const cl_tuple_t *crd, const cl_tuple_t *shape, int64_t *out);
/* Index -> coordinate in shape, colexicographically. */
CL_API cl_status cl_idx2crd(const cl_tuple_t *idx, const cl_tuple_t *shape, cl_tuple_t **out);
/* idx2crd(i, shape, stride): leaf-wise (i / stride) % shape. */
CL_API cl_status cl_idx2crd_strided(const cl_tuple_t *idx, const cl_tuple_t *shape, const cl_tuple_t *stride, cl_tuple_t **out);
/* crd2crd(crd, from_shape, to_shape), CuTe's argument order: re-express a
 * coordinate of from_shape as the coordinate of the same index in to_shape
 * (mode by mode where all three are tuples of one rank). */
CL_API cl_status cl_crd2crd(const cl_tuple_t *crd, const cl_tuple_t *from_shape, const cl_tuple_t *to_shape, cl_tuple_t **out);

#ifdef __cplusplus
}
#endif
#endif
