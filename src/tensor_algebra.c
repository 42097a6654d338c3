/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor_algebra.c: the tensor views CuTe builds from the layout algebra
 * (tensor_impl.hpp): composition with a tiler, the divides, inner and outer
 * partitions (local_tile, local_partition) and recast.  Each is the layout
 * operation applied to the tensor's layout, over the same memory, with any
 * offset folded into the pointer. */
#include "tensor_impl.h"
#include "cutelayout/algebra.h"

/* A view of t's memory through `layout` (taken), element size and type
 * possibly changed, starting `offset` old elements from t's data. */
static cl_status view_of(const cl_tensor_t *t, cl_layout_t *layout, int64_t offset, size_t elem_size, cl_dtype dtype,
                         cl_tensor_t **out) {
  tensor_fields f = cl_tensor_fields(t);
  int64_t bytes;
  cl_status s = cl_mul(offset, (int64_t)t->elem_size, &bytes);
  if (s != CL_OK) {
    cl_layout_free(layout);
    return s;
  }
  f.data = t->data + bytes;
  f.elem_size = elem_size;
  f.dtype = dtype;
  return cl_tensor_adopt(&f, layout, out);
}

/* Hands the result of a layout operation to a view of t, or its failure. */
static cl_status same_memory(const cl_tensor_t *t, cl_status status, cl_layout_t *layout, cl_tensor_t **out) {
  if (status != CL_OK)
    return status;
  return view_of(t, layout, 0, t->elem_size, t->dtype, out);
}

cl_status cl_tensor_compose(const cl_tensor_t *t, const cl_tuple_t *tiler, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(tiler);
  cl_layout_t *l = NULL;
  cl_status s = cl_composition_tiler(t->layout, tiler, &l); /* before l is read */
  return same_memory(t, s, l, out);
}

cl_status cl_tensor_compose_layout(const cl_tensor_t *t, const cl_layout_t *layout, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(layout);
  cl_layout_t *l = NULL;
  cl_status s = cl_composition(t->layout, layout, &l); /* before l is read */
  return same_memory(t, s, l, out);
}

cl_status cl_tensor_logical_divide(const cl_tensor_t *t, const cl_tuple_t *tiler, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(tiler);
  cl_layout_t *l = NULL;
  cl_status s = cl_logical_divide_tiler(t->layout, tiler, &l); /* before l is read */
  return same_memory(t, s, l, out);
}

cl_status cl_tensor_zipped_divide(const cl_tensor_t *t, const cl_tuple_t *tiler, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(tiler);
  cl_layout_t *l = NULL;
  cl_status s = cl_zipped_divide_tiler(t->layout, tiler, &l); /* before l is read */
  return same_memory(t, s, l, out);
}

/* ------------------------------------------------------------ partitions */

/* Appends CuTe's repeat<n>(_): '_' itself for n == 1, else n of them. */
static void repeat_underscore(cl_builder *b, int64_t n) {
  if (n == 1) {
    cl_b_underscore(b);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  for (int64_t k = 0; k < n; k++)
    cl_b_underscore(b);
  cl_b_close(b, at);
}

/* Appends CuTe's coordinate for one mode of rank n of a zipped tensor: a
 * tuple coord padded with '_' to rank n (append<n>(coord, _)), an integer
 * coord as it is (it indexes the mode linearly). */
static void pad_coord(cl_builder *b, const cl_node *coord, int64_t n) {
  if (!cl_is_tuple(coord)) {
    cl_b_copy(b, coord);
    return;
  }
  if (coord->rank > n) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "partition: a coordinate of rank %d for a mode of rank %lld", coord->rank,
                              (long long)n));
    return;
  }
  if (n == 1 && coord->rank == 1) { /* append<1> of a rank-1 tuple is the tuple itself */
    cl_b_copy(b, coord);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  cl_b_copy_children(b, coord);
  for (int64_t k = coord->rank; k < n; k++)
    cl_b_underscore(b);
  cl_b_close(b, at);
}

cl_status cl_partition_coord(const cl_layout_t *zipped, const cl_tuple_t *coord, bool inner, cl_tuple_t **out) {
  *out = NULL;
  const cl_node *shape = cl_lshape(cl_lroot(zipped));
  if (!cl_is_tuple(shape) || shape->rank != 2)
    return cl_fail(CL_E_RANK, "partition: zipped_divide gave a layout of rank %lld, not 2", (long long)cl_rank_of(shape));
  int64_t r0 = cl_rank_of(cl_child(shape, 0)), r1 = cl_rank_of(cl_child(shape, 1));
  cl_builder b;
  cl_b_init(&b);
  int32_t at = cl_b_open(&b, CL_KIND_TUPLE);
  if (inner) {
    repeat_underscore(&b, r0);
    pad_coord(&b, cl_troot(coord), r1);
  } else {
    pad_coord(&b, cl_troot(coord), r0);
    repeat_underscore(&b, r1);
  }
  cl_b_close(&b, at);
  return cl_b_finish_tuple(&b, out);
}

/* zipped_divide(t, tiler) sliced with `coord` in one of its two modes and
 * every coordinate of the other: inner (coord picks the rest: one tile) or
 * outer (coord picks the position within every tile). */
static cl_status partition(const cl_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, bool inner,
                           cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(tiler);
  CHECK_NULL(coord);
  cl_tensor_t *tiled;
  CL_TRY(cl_tensor_zipped_divide(t, tiler, &tiled));
  cl_tuple_t *crd = NULL;
  cl_status s = cl_partition_coord(tiled->layout, coord, inner, &crd);
  if (s == CL_OK)
    s = cl_tensor_slice(tiled, crd, out);
  cl_tuple_free(crd);
  cl_tensor_free(tiled);
  return s;
}

cl_status cl_inner_partition(const cl_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, cl_tensor_t **out) {
  return partition(t, tiler, coord, true, out);
}

cl_status cl_local_tile(const cl_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, cl_tensor_t **out) {
  return partition(t, tiler, coord, true, out);
}

cl_status cl_outer_partition(const cl_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, cl_tensor_t **out) {
  return partition(t, tiler, coord, false, out);
}

/* The colexicographic index, within one mode (shape, stride) of a thread
 * layout, of the coordinate of `index`: CuTe's get_flat_coord for that mode,
 * crd2idx(idx2crd(index, shape, stride), shape), with idx2crd leaf-wise
 * (index / d) % s. */
static cl_status flat_coord(const cl_node *shape, const cl_node *stride, int64_t index, int64_t *out) {
  /* scale is the product of the extents before the leaf; it is multiplied
   * only when a later leaf needs it, so that the product of all of them
   * (which CuTe never forms) cannot fail the call. */
  int64_t c = 0, scale = 1, pending = 1;
  if (cl_tree_has_basis(stride)) /* CuTe's idx2crd divides by the strides */
    return cl_fail(CL_E_TYPE, "local_partition: the thread layout's strides hold scaled bases; a thread's coordinate "
                              "is found by dividing by integer strides");
  const cl_node *end = shape + shape->span, *d = stride;
  for (const cl_node *s = shape; s < end; s++, d++) {
    if (cl_is_tuple(s))
      continue;
    int64_t leaf = 0, term;
    if (s->value != 1) {
      if (s->value < 1)
        return cl_fail(CL_E_DOMAIN, "local_partition: a thread layout mode %lld:%lld has no threads", (long long)s->value,
                       (long long)d->value);
      if (d->value <= 0)
        return cl_fail(CL_E_DOMAIN, "local_partition: a thread layout mode %lld:%lld has no positive stride to find "
                                    "a thread's coordinate by", (long long)s->value, (long long)d->value);
      leaf = (index / d->value) % s->value;
    }
    CL_TRY(cl_mul(scale, pending, &scale));
    CL_TRY(cl_mul(leaf, scale, &term));
    CL_TRY(cl_add(c, term, &c));
    pending = s->value;
  }
  *out = c;
  return CL_OK;
}

/* Appends product_each(shape(thr)): the tuple of the sizes of its
 * top-level modes; CuTe wraps an integral shape first, so 8 gives (8). */
static void product_each(cl_builder *b, const cl_node *shape) {
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  if (!cl_is_tuple(shape)) {
    cl_b_int(b, shape->value);
    cl_b_close(b, at);
    return;
  }
  CL_FOR_EACH_CHILD(m, shape) {
    int64_t n = 0;
    cl_status s = cl_tree_product(m, &n);
    if (s != CL_OK)
      cl_b_set_error(b, s);
    cl_b_int(b, n);
  }
  cl_b_close(b, at);
}

cl_status cl_thread_tiler(const cl_layout_t *thr_layout, int64_t index, cl_tuple_t **tiler, cl_tuple_t **coord) {
  *tiler = *coord = NULL;
  const cl_node *l = cl_lroot(thr_layout), *shape = cl_lshape(l), *stride = cl_lstride(l);
  cl_builder tb, cb;
  cl_b_init(&tb);
  cl_b_init(&cb);
  product_each(&tb, shape);
  if (!cl_is_tuple(shape)) {
    int64_t c = 0;
    cl_status s = flat_coord(shape, stride, index, &c);
    if (s != CL_OK)
      cl_b_set_error(&cb, s);
    cl_b_int(&cb, c);
  } else {
    int32_t at = cl_b_open(&cb, CL_KIND_TUPLE);
    const cl_node *d = cl_first(stride);
    CL_FOR_EACH_CHILD(m, shape) {
      int64_t c = 0;
      cl_status s = flat_coord(m, d, index, &c);
      if (s != CL_OK)
        cl_b_set_error(&cb, s);
      cl_b_int(&cb, c);
      d = cl_next(d);
    }
    cl_b_close(&cb, at);
  }
  cl_status s = cl_b_finish_tuple(&tb, tiler);
  cl_status s2 = cl_b_finish_tuple(&cb, coord);
  if (s == CL_OK)
    s = s2;
  if (s != CL_OK) {
    cl_tuple_free(*tiler);
    cl_tuple_free(*coord);
    *tiler = *coord = NULL;
  }
  return s;
}

cl_status cl_local_partition(const cl_tensor_t *t, const cl_layout_t *thr_layout, int64_t index, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(thr_layout);
  int64_t cosize;
  CL_TRY(cl_layout_cosize_checked(thr_layout, &cosize));
  if (index < 0 || index >= cosize)
    return cl_fail(CL_E_DOMAIN, "local_partition: thread index %lld outside [0, %lld)", (long long)index, (long long)cosize);
  cl_tuple_t *tiler = NULL, *coord = NULL;
  cl_status s = cl_thread_tiler(thr_layout, index, &tiler, &coord);
  if (s == CL_OK)
    s = cl_outer_partition(t, tiler, coord, out);
  cl_tuple_free(tiler);
  cl_tuple_free(coord);
  return s;
}

/* ------------------------------------------------------------ recast */

/* CuTe's recast_layout<Old,New>: with New/Old = num/den in lowest terms,
 * upcast<num> then downcast<den> (either skipped when 1). */
static cl_status recast_layout(const cl_layout_t *layout, int64_t num, int64_t den, cl_layout_t **out) {
  cl_layout_t *up = NULL;
  if (num == 1)
    CL_TRY(cl_layout_copy(layout, &up));
  else
    CL_TRY(cl_upcast(layout, num, &up));
  if (den == 1) {
    *out = up;
    return CL_OK;
  }
  cl_status s = cl_downcast(up, den, out);
  cl_layout_free(up);
  return s;
}

/* The pointer shift CuTe applies on an upcast with negative strides: the
 * sum over leaves of min((old extent - new extent) * old stride, 0). */
static cl_status upcast_shift(const cl_layout_t *old_layout, const cl_layout_t *new_layout, int64_t *out) {
  cl_leaves a, b;
  CL_TRY(cl_leaves_init(&a, old_layout, false));
  cl_status s = cl_leaves_init(&b, new_layout, false);
  if (s != CL_OK) {
    cl_leaves_release(&a);
    return s;
  }
  int64_t shift = 0;
  if (a.n != b.n)
    s = cl_fail(CL_E_RANK, "recast: the upcast changed the number of leaves");
  for (int64_t k = 0; k < a.n && s == CL_OK; k++) {
    int64_t diff;
    s = cl_mul(a.shape[k] - b.shape[k], a.stride[k], &diff);
    if (s == CL_OK && diff < 0)
      s = cl_add(shift, diff, &shift);
  }
  cl_leaves_release(&a);
  cl_leaves_release(&b);
  *out = shift;
  return s;
}

cl_status cl_tensor_recast(const cl_tensor_t *t, size_t new_elem_size, cl_dtype dtype, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  size_t typed = cl_dtype_size(dtype);
  if ((int)dtype < 0 || (dtype != CL_DTYPE_NONE && typed == 0))
    return cl_fail(CL_E_DOMAIN, "recast: unknown element type %d", (int)dtype);
  if (new_elem_size == 0)
    new_elem_size = typed;
  if (new_elem_size == 0 || (typed != 0 && typed != new_elem_size))
    return cl_fail(CL_E_DOMAIN, "recast: element size %zu and type %s do not agree", new_elem_size,
                   cl_dtype_name(dtype));
  if (new_elem_size > INT32_MAX)
    return cl_fail(CL_E_DOMAIN, "recast: element size %zu is too large", new_elem_size);
  int64_t g = cl_gcd((int64_t)new_elem_size, (int64_t)t->elem_size);
  int64_t num = (int64_t)new_elem_size / g, den = (int64_t)t->elem_size / g;
  cl_layout_t *l = NULL;
  CL_TRY(recast_layout(t->layout, num, den, &l));
  int64_t shift = 0;
  if (num > den) { /* an upcast of a plain layout: CuTe moves the pointer for negative strides */
    cl_status s = upcast_shift(t->layout, l, &shift);
    if (s != CL_OK) {
      cl_layout_free(l);
      return s;
    }
  }
  return view_of(t, l, shift, new_elem_size, dtype, out);
}
