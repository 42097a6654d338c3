/* layout.h: the layout handle, CuTe's Layout<Shape,Stride>.
 *
 * A layout is a function from coordinates to indices: a shape and a stride
 * that are congruent IntTuples, `(2,(2,2)):(4,(2,1))`.  A cl_layout_t is
 * immutable and lives in one allocation; any number of threads may read it.
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

/* ---- text (CONTRACT.md: `(2,(2,2)):(4,(2,1))`, `8:1`) ---- */
CL_API cl_status cl_layout_parse(const char *text, cl_layout_t **out);
/* snprintf-style: returns the full length of the text, or a negative status. */
CL_API int64_t cl_layout_format(const cl_layout_t *layout, char *buf, size_t cap);
/* NULL is a no-op. */
CL_API void cl_layout_free(cl_layout_t *layout);
CL_API cl_status cl_layout_copy(const cl_layout_t *layout, cl_layout_t **out);

/* ---- construction ---- */
/* make_layout(shape, stride): CL_E_RANK unless congruent.  A NULL stride means
 * LayoutLeft (compact column-major). */
CL_API cl_status cl_layout_make(const cl_tuple_t *shape, const cl_tuple_t *stride, cl_layout_t **out);
CL_API cl_status cl_layout_make_left(const cl_tuple_t *shape, cl_layout_t **out);
CL_API cl_status cl_layout_make_right(const cl_tuple_t *shape, cl_layout_t **out);
/* make_ordered_layout(shape, order): compact strides in the order `order`. */
CL_API cl_status cl_layout_make_ordered(const cl_tuple_t *shape, const cl_tuple_t *order, cl_layout_t **out);
/* make_layout(L0, L1, ...): the layout whose modes are the given layouts. */
CL_API cl_status cl_layout_concat(const cl_layout_t *const *layouts, int64_t n, cl_layout_t **out);
/* make_layout_like(L): same shape, compact strides in the order of L's strides
 * (stride-0 modes stay 0).  make_fragment_like(L): the same, but mode 0 is
 * always compact column-major. */
CL_API cl_status cl_make_layout_like(const cl_layout_t *layout, cl_layout_t **out);
CL_API cl_status cl_make_fragment_like(const cl_layout_t *layout, cl_layout_t **out);

/* ---- queries ---- */
CL_API cl_status cl_layout_shape(const cl_layout_t *layout, cl_tuple_t **out);
CL_API cl_status cl_layout_stride(const cl_layout_t *layout, cl_tuple_t **out);
/* size: product of the shape.  cosize: L(size-1)+1 for non-negative strides;
 * in general 1 + sum of (extent-1)*|stride| (CuTe's size(coshape)). */
CL_API int64_t cl_layout_size(const cl_layout_t *layout);
CL_API int64_t cl_layout_cosize(const cl_layout_t *layout);
CL_API cl_status cl_layout_size_checked(const cl_layout_t *layout, int64_t *out);
CL_API cl_status cl_layout_cosize_checked(const cl_layout_t *layout, int64_t *out);
CL_API cl_status cl_layout_coshape(const cl_layout_t *layout, cl_tuple_t **out);
CL_API int64_t cl_layout_rank(const cl_layout_t *layout);
CL_API int64_t cl_layout_depth(const cl_layout_t *layout);
/* get(L, i0, i1, ...): the sub-layout at a path of mode indices. */
CL_API cl_status cl_layout_get(const cl_layout_t *layout, const int64_t *path, int64_t n, cl_layout_t **out);
CL_API int cl_layout_equal(const cl_layout_t *a, const cl_layout_t *b);

/* ---- evaluation ---- */
/* layout(i) for a linear coordinate i (CuTe splits i colexicographically; the
 * last mode takes whatever is left, so i need not be below size). */
CL_API cl_status cl_layout_eval(const cl_layout_t *layout, int64_t i, int64_t *index);
/* layout(crd) for an integer or hierarchical coordinate (crd2idx(crd, L)). */
CL_API cl_status cl_layout_eval_coord(const cl_layout_t *layout, const cl_tuple_t *crd, int64_t *index);

/* ---- slicing and rearranging modes ---- */
/* slice(crd, L): the sub-layout over the `_` positions of crd; integer
 * positions are dropped.  slice_and_offset also gives L(crd with _ -> 0). */
CL_API cl_status cl_layout_slice(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out);
CL_API cl_status cl_layout_slice_and_offset(const cl_tuple_t *crd, const cl_layout_t *layout,
                                            cl_layout_t **out, int64_t *offset);
CL_API cl_status cl_layout_flatten(const cl_layout_t *layout, cl_layout_t **out);
CL_API cl_status cl_layout_unflatten(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out);
/* group(L, b, e): modes [b, e) become one mode. */
CL_API cl_status cl_layout_group(const cl_layout_t *layout, int64_t begin, int64_t end, cl_layout_t **out);
/* take(L, b, e): modes [b, e) (b < e).  select(L, i...): the listed modes. */
CL_API cl_status cl_layout_take(const cl_layout_t *layout, int64_t begin, int64_t end, cl_layout_t **out);
CL_API cl_status cl_layout_select(const cl_layout_t *layout, const int64_t *modes, int64_t n, cl_layout_t **out);
/* append(L, X) / prepend(L, X): X as a new last / first mode.  X NULL means 1:0. */
CL_API cl_status cl_layout_append(const cl_layout_t *layout, const cl_layout_t *x, cl_layout_t **out);
CL_API cl_status cl_layout_prepend(const cl_layout_t *layout, const cl_layout_t *x, cl_layout_t **out);
/* zip(L): transposes a layout whose modes are tuples of one rank:
 * ((a,b),(c,d)) -> ((a,c),(b,d)). */
CL_API cl_status cl_layout_zip(const cl_layout_t *layout, cl_layout_t **out);

#ifdef __cplusplus
}
#endif
#endif
