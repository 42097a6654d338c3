/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor_impl.h: the tensor handle and the flat views of layouts shared by
 * tensor.c (handles, access, views), tensor_copy.c (copy, fill, apply,
 * odometer), tensor_print.c and tensor_dlpack.c. */
#ifndef CUTELAYOUT_TENSOR_IMPL_H
#define CUTELAYOUT_TENSOR_IMPL_H

#include "tuple_impl.h"
#include "cutelayout/layout.h"
#include "cutelayout/tensor.h"

struct cl_tensor {
  char *data;            /* address of offset 0 (not owned unless == storage's view) */
  size_t elem_size;
  cl_dtype dtype;
  bool has_extent;
  const char *extent_base;
  size_t extent_bytes;
  void *storage;         /* owned zeroed buffer (cl_tensor_alloc), else NULL */
  int64_t size;          /* cached: size(layout) */
  int64_t lo, hi;        /* cached: smallest and largest offset (0,0 if empty) */
  cl_layout_t *layout;   /* owned */
};

/* The fields of a tensor other than its layout, handed between constructors. */
typedef struct tensor_fields {
  char *data;
  size_t elem_size;
  cl_dtype dtype;
  bool has_extent;
  const char *extent_base;
  size_t extent_bytes;
} tensor_fields;

static inline tensor_fields cl_tensor_fields(const cl_tensor_t *t) {
  tensor_fields f = {t->data, t->elem_size, t->dtype, t->has_extent, t->extent_base, t->extent_bytes};
  return f;
}

/* Makes a tensor of `fields` over `layout`, taking ownership of the layout
 * (freed on failure too).  Checks extents, offsets and bounds. */
cl_status cl_tensor_adopt(const tensor_fields *fields, cl_layout_t *layout, cl_tensor_t **out);

/* A layout's leaves as two flat arrays (shape[k], stride[k]), in the order of
 * the linear coordinate (leaf 0 fastest).  Small layouts live inline. */
#define CL_LEAVES_INLINE 24
typedef struct cl_leaves {
  int64_t n;
  int64_t *shape, *stride;
  int64_t inline_buf[2 * CL_LEAVES_INLINE];
} cl_leaves;

/* Fills f with l's leaves; with drop_units, leaves of extent 1 are left out
 * (they never move an offset).  Release with cl_leaves_release. */
cl_status cl_leaves_init(cl_leaves *f, const cl_layout_t *l, bool drop_units);
void cl_leaves_release(cl_leaves *f);

/* Smallest and largest offset of a flat layout with non-negative extents;
 * (0,0) if any extent is 0. */
cl_status cl_leaves_offset_range(const cl_leaves *f, int64_t *lo, int64_t *hi);

/* ---- partitions of any tensor (tensor_algebra.c), on its layout ---- */
/* The coordinate that slices a zipped_divide result (rank 2) for CuTe's
 * inner_partition (every tile mode, `coord` among the rest) or
 * outer_partition (`coord` within the tile, every rest mode). */
cl_status cl_partition_coord(const cl_layout_t *zipped, const cl_tuple_t *coord, bool inner, cl_tuple_t **out);
/* local_partition's tiler and coordinate for thread `index` of a thread
 * layout: product_each(shape(thr)) and thr.get_flat_coord(index). */
cl_status cl_thread_tiler(const cl_layout_t *thr_layout, int64_t index, cl_tuple_t **tiler, cl_tuple_t **coord);

#endif
