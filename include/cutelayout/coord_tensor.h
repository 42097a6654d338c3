/* SPDX-License-Identifier: BSD-3-Clause */
/* coord_tensor.h: coordinate tensors, CuTe's identity tensors.
 *
 * CuTe's make_identity_tensor(shape) is a tensor whose element at each
 * coordinate is that coordinate: its "pointer" is an ArithmeticTupleIterator,
 * an origin coordinate (an arithmetic tuple of zeros), and its layout is
 * make_identity_layout(shape), whose strides are scaled bases (layout.h).
 * Element crd is origin + layout(crd), a coordinate.  Tiled and partitioned
 * the way a data tensor is (local_tile, local_partition), it tells each
 * thread the global coordinates of the elements it owns, and
 * cl_elem_less(coordinate, shape) whether each is inside the data: CUTLASS's
 * predication (CuTe's 0y_predication.md).
 *
 * A cl_coord_tensor_t holds its own copies of the origin and the layout, is
 * immutable, and may be read by any number of threads at once.  Every
 * function that makes one returns a fresh handle through its last parameter
 * (NULL on failure), freed with cl_coord_tensor_free().  As in CuTe, a view
 * keeps the origin and changes the layout, and a slice or a partition moves
 * the origin by the offset of the slice: origin + layout(crd with '_' as 0).
 * Sums follow CuTe (cl_layout_eval_tuple): a nonzero integer cannot be added
 * to a coordinate (CL_E_TYPE). */
#ifndef CUTELAYOUT_COORD_TENSOR_H
#define CUTELAYOUT_COORD_TENSOR_H

#include <stdio.h>

#include "common.h"
#include "layout.h"
#include "render.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cl_coord_tensor cl_coord_tensor_t;

/* Common to every function below: a NULL handle or out-parameter is
 * CL_E_NULL, an allocation failure CL_E_NOMEM, an integer result outside
 * int64_t CL_E_OVERFLOW. */

/* ---- making ---- */
/* CuTe's make_identity_tensor(shape): origin the zeros of the layout's
 * coprofile, layout make_identity_layout(shape).  make_identity_tensor((4,8))
 * prints ArithTuple(0,0) o (4,8):(1@0,1@1).  shape must be an int tuple
 * (CL_E_TYPE). */
CL_API cl_status cl_make_identity_tensor(const cl_tuple_t *shape, cl_coord_tensor_t **out);
/* CuTe's make_coord_tensor(layout): the origin is coprofile(layout), the
 * zeros shaped like the layout's values (as_arithmetic_tuple of the sum of
 * its strides): an integer 0 for an integer layout.  CL_E_TYPE where CuTe
 * cannot sum the strides (an integer stride beside a basis). */
CL_API cl_status cl_make_coord_tensor(const cl_layout_t *layout, cl_coord_tensor_t **out);
/* A coordinate tensor from an origin (a value: an integer, a scaled basis or
 * an arithmetic tuple; a '_' or a layout in it is CL_E_TYPE) and a layout. */
CL_API cl_status cl_coord_tensor_new(const cl_tuple_t *origin, const cl_layout_t *layout, cl_coord_tensor_t **out);
/* The same origin with another layout: how any layout operation (a divide,
 * a composition, coalesce, ...) applies to a coordinate tensor, as CuTe's
 * make_tensor(t.data(), f(t.layout())). */
CL_API cl_status cl_coord_tensor_with_layout(const cl_coord_tensor_t *t, const cl_layout_t *layout,
                                             cl_coord_tensor_t **out);
/* Frees a coordinate tensor; NULL is a no-op. */
CL_API void cl_coord_tensor_free(cl_coord_tensor_t *t);

/* ---- reading ---- */
/* The origin and the layout, owned by the tensor (valid while it lives);
 * NULL for a NULL tensor. */
CL_API const cl_tuple_t *cl_coord_tensor_origin(const cl_coord_tensor_t *t);
CL_API const cl_layout_t *cl_coord_tensor_layout(const cl_coord_tensor_t *t);
/* The element at linear coordinate i, and at a (hierarchical) coordinate
 * crd: origin + layout(crd), a new tuple. */
CL_API cl_status cl_coord_tensor_eval(const cl_coord_tensor_t *t, int64_t i, cl_tuple_t **out);
CL_API cl_status cl_coord_tensor_eval_coord(const cl_coord_tensor_t *t, const cl_tuple_t *crd, cl_tuple_t **out);
/* CuTe's print(tensor): `ArithTuple` and the origin, ` o `, the layout:
 * ArithTuple(4,0) o (4,4):(1@0,1@1).  snprintf-style (at most cap bytes, NUL
 * included; the length of the whole text); CL_E_NULL for a NULL tensor, or a
 * NULL buf with cap > 0. */
CL_API int64_t cl_coord_tensor_format(const cl_coord_tensor_t *t, char *buf, size_t cap);

/* ---- slicing and partitioning ---- */
/* CuTe's tensor(crd) with '_': slice(crd, layout) at origin + layout(crd)
 * ('_' as 0).  crd must match the layout's profile (CL_E_RANK). */
CL_API cl_status cl_coord_tensor_slice(const cl_coord_tensor_t *t, const cl_tuple_t *crd, cl_coord_tensor_t **out);
/* CuTe's local_tile(t, tiler, coord) (= inner_partition): zipped_divide by
 * the tiler, then the tile at coord among the rest modes (a tuple coord
 * padded with '_', an integer coord indexing them linearly).  With proj (a
 * tuple of integers and '_', CuTe's Step<_1,X,...>; NULL for none), tiler
 * and coord first keep only the modes proj has an integer for (CuTe's
 * dice).  outer_partition slices the position within every tile instead. */
CL_API cl_status cl_coord_local_tile(const cl_coord_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord,
                                     const cl_tuple_t *proj, cl_coord_tensor_t **out);
CL_API cl_status cl_coord_outer_partition(const cl_coord_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord,
                                          cl_coord_tensor_t **out);
/* CuTe's local_partition(t, thr_layout, index[, proj]): the elements thread
 * `index` of the thread layout owns: outer_partition by the sizes of the
 * thread layout's modes at the thread's coordinate in them.  With proj, the
 * thread layout keeps only the modes proj has an integer for.  The thread
 * layout needs integer strides, positive where its extent is not 1
 * (CL_E_TYPE, CL_E_DOMAIN). */
CL_API cl_status cl_coord_local_partition(const cl_coord_tensor_t *t, const cl_layout_t *thr_layout, int64_t index,
                                          const cl_tuple_t *proj, cl_coord_tensor_t **out);

/* ---- pictures ---- */
/* The picture of the tensor (render.h's options): its layout's grid, each
 * cell labelled with its element, a coordinate as CuTe prints it, and
 * coloured by the coordinate's place among those drawn; the title is the
 * tensor's text.  A picture of an identity layout (cl_render_layout) is
 * the same with origin 0.  snprintf-style, or to a stream; a negative
 * status on failure, before anything is written.  A thread-value picture
 * has no coordinate form: only the grid. */
CL_API int64_t cl_render_coord_tensor(const cl_coord_tensor_t *t, const cl_picture_options *options, char *buf,
                                      size_t cap);
CL_API int64_t cl_render_coord_tensor_file(const cl_coord_tensor_t *t, const cl_picture_options *options, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
