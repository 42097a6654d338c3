/* SPDX-License-Identifier: BSD-3-Clause */
/* coord_tensor.c: coordinate tensors, CuTe's identity tensors
 * (tensor_impl.hpp's make_identity_tensor and make_coord_tensor): an origin
 * coordinate, CuTe's ArithmeticTupleIterator, and a layout.  Element crd is
 * origin + layout(crd); views change the layout and keep the origin; slices
 * and partitions add their offset to the origin, as CuTe's iterator + offset
 * does. */
#include "render_impl.h"
#include "sink_impl.h"
#include "tensor_impl.h"
#include "cutelayout/algebra.h"
#include "cutelayout/coord_tensor.h"

struct cl_coord_tensor {
  cl_tuple_t *origin; /* owned */
  cl_layout_t *layout; /* owned */
};

/* The handle from an origin tree and a layout, both copied. */
static cl_status make(const cl_node *origin, const cl_layout_t *layout, cl_coord_tensor_t **out) {
  for (int32_t i = 0; i < origin->span; i += cl_is_tuple(&origin[i]) ? 1 : origin[i].span)
    if (origin[i].kind != CL_KIND_INT && origin[i].kind != CL_KIND_TUPLE && origin[i].kind != CL_KIND_BASIS)
      return cl_fail(CL_E_TYPE, "coordinate tensor: the origin must be a coordinate (integers and scaled bases)");
  cl_coord_tensor_t *t = cl_alloc(sizeof *t);
  if (t == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  *t = (cl_coord_tensor_t){NULL, NULL};
  cl_status s = cl_tuple_from_tree(origin, &t->origin);
  if (s == CL_OK)
    s = cl_layout_copy(layout, &t->layout);
  if (s != CL_OK) {
    cl_coord_tensor_free(t);
    return s;
  }
  *out = t;
  return CL_OK;
}

void cl_coord_tensor_free(cl_coord_tensor_t *t) {
  if (t == NULL)
    return;
  cl_tuple_free(t->origin);
  cl_layout_free(t->layout);
  cl_dealloc(t);
}

cl_status cl_coord_tensor_new(const cl_tuple_t *origin, const cl_layout_t *layout, cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(origin);
  CHECK_NULL(layout);
  return make(cl_troot(origin), layout, out);
}

cl_status cl_coord_tensor_with_layout(const cl_coord_tensor_t *t, const cl_layout_t *layout, cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(layout);
  return make(cl_troot(t->origin), layout, out);
}

/* make_coord_tensor(L) = make_tensor(make_inttuple_iter(coprofile(L)), L). */
cl_status cl_make_coord_tensor(const cl_layout_t *layout, cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_builder origin;
  cl_b_init(&origin);
  cl_b_coprofile(&origin, cl_lstride(cl_lroot(layout)));
  cl_status s = origin.status == CL_OK ? make(origin.nodes, layout, out) : origin.status;
  cl_b_release(&origin);
  return s;
}

/* make_identity_tensor(S) = make_coord_tensor(make_identity_layout(S)). */
cl_status cl_make_identity_tensor(const cl_tuple_t *shape, cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  cl_layout_t *id = NULL;
  CL_TRY(cl_make_identity_layout(shape, &id));
  cl_status s = cl_make_coord_tensor(id, out);
  cl_layout_free(id);
  return s;
}

const cl_tuple_t *cl_coord_tensor_origin(const cl_coord_tensor_t *t) { return t ? t->origin : NULL; }
const cl_layout_t *cl_coord_tensor_layout(const cl_coord_tensor_t *t) { return t ? t->layout : NULL; }

/* origin + value, CuTe's iterator arithmetic. */
static cl_status add_origin(const cl_coord_tensor_t *t, const cl_tuple_t *value, cl_tuple_t **out) {
  cl_builder b;
  cl_b_init(&b);
  cl_b_value_add(&b, cl_troot(t->origin), cl_troot(value));
  return cl_b_finish_tuple(&b, out);
}

static cl_status element_at(const cl_coord_tensor_t *t, cl_status s, cl_tuple_t *value, cl_tuple_t **out) {
  if (s == CL_OK)
    s = add_origin(t, value, out);
  cl_tuple_free(value);
  return s;
}

cl_status cl_coord_tensor_eval(const cl_coord_tensor_t *t, int64_t i, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  cl_tuple_t *v = NULL;
  cl_status s = cl_layout_eval_tuple(t->layout, i, &v); /* before v is read */
  return element_at(t, s, v, out);
}

cl_status cl_coord_tensor_eval_coord(const cl_coord_tensor_t *t, const cl_tuple_t *crd, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(crd);
  cl_tuple_t *v = NULL;
  cl_status s = cl_layout_eval_coord_tuple(t->layout, crd, &v); /* before v is read */
  return element_at(t, s, v, out);
}

static void tensor_text(const void *self, cl_sink *o);

int64_t cl_coord_tensor_format(const cl_coord_tensor_t *t, char *buf, size_t cap) {
  if (t == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_coord_tensor_format: NULL argument");
  cl_sink o = cl_sink_buffer(buf, cap);
  tensor_text(t, &o);
  return cl_sink_finish(&o, "format");
}

/* ------------------------------------------------------------ slices */

/* tensor(crd) with '_': the slice of the layout at origin + offset. */
static cl_status slice(const cl_coord_tensor_t *t, const cl_tuple_t *crd, cl_coord_tensor_t **out) {
  cl_layout_t *sub = NULL;
  cl_tuple_t *offset = NULL, *origin = NULL;
  CL_TRY(cl_layout_slice_and_offset_tuple(crd, t->layout, &sub, &offset));
  cl_status s = add_origin(t, offset, &origin);
  if (s == CL_OK)
    s = make(cl_troot(origin), sub, out);
  cl_tuple_free(origin);
  cl_tuple_free(offset);
  cl_layout_free(sub);
  return s;
}

cl_status cl_coord_tensor_slice(const cl_coord_tensor_t *t, const cl_tuple_t *crd, cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(crd);
  return slice(t, crd, out);
}

/* zipped_divide(t, tiler) sliced by cl_partition_coord. */
static cl_status partition(const cl_coord_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, bool inner,
                           cl_coord_tensor_t **out) {
  cl_layout_t *zipped = NULL;
  CL_TRY(cl_zipped_divide_tiler(t->layout, tiler, &zipped));
  cl_coord_tensor_t tiled = {t->origin, zipped};
  cl_tuple_t *crd = NULL;
  cl_status s = cl_partition_coord(zipped, coord, inner, &crd);
  if (s == CL_OK)
    s = slice(&tiled, crd, out);
  cl_tuple_free(crd);
  cl_layout_free(zipped);
  return s;
}

/* CuTe's dice(proj, x) of a tuple, as a new tuple. */
static cl_status dice(const cl_tuple_t *proj, const cl_node *x, cl_tuple_t **out) {
  cl_builder b;
  cl_b_init(&b);
  cl_b_dice(&b, cl_troot(proj), x);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_coord_local_tile(const cl_coord_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord,
                              const cl_tuple_t *proj, cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(tiler);
  CHECK_NULL(coord);
  if (proj == NULL)
    return partition(t, tiler, coord, true, out);
  cl_tuple_t *diced_tiler = NULL, *diced_coord = NULL;
  cl_status s = dice(proj, cl_troot(tiler), &diced_tiler);
  if (s == CL_OK)
    s = dice(proj, cl_troot(coord), &diced_coord);
  if (s == CL_OK)
    s = partition(t, diced_tiler, diced_coord, true, out);
  cl_tuple_free(diced_tiler);
  cl_tuple_free(diced_coord);
  return s;
}

cl_status cl_coord_outer_partition(const cl_coord_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord,
                                   cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(tiler);
  CHECK_NULL(coord);
  return partition(t, tiler, coord, false, out);
}

cl_status cl_coord_local_partition(const cl_coord_tensor_t *t, const cl_layout_t *thr_layout, int64_t index,
                                   const cl_tuple_t *proj, cl_coord_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(thr_layout);
  cl_layout_t *diced = NULL;
  if (proj != NULL) {
    cl_lbuilder lb;
    cl_lb_init(&lb);
    cl_b_dice(&lb.shape, cl_troot(proj), cl_lshape(cl_lroot(thr_layout)));
    cl_b_dice(&lb.stride, cl_troot(proj), cl_lstride(cl_lroot(thr_layout)));
    CL_TRY(cl_lb_finish(&lb, &diced));
  }
  cl_tuple_t *tiler = NULL, *coord = NULL;
  cl_status s = cl_thread_tiler(diced ? diced : thr_layout, index, &tiler, &coord);
  if (s == CL_OK)
    s = partition(t, tiler, coord, false, out);
  cl_tuple_free(tiler);
  cl_tuple_free(coord);
  cl_layout_free(diced);
  return s;
}

/* ------------------------------------------------------------ pictures */

/* The tensor as a map (map_impl.h): its layout's domain, and at each linear
 * coordinate its element, origin + layout(i). */
static void tensor_value(const void *self, int64_t i, cl_builder *b) {
  const cl_coord_tensor_t *t = self;
  cl_builder value;
  cl_b_init(&value);
  cl_int_node crd = cl_int_leaf(i);
  cl_b_crd2value(&value, &crd.node, cl_lshape(cl_lroot(t->layout)), cl_lstride(cl_lroot(t->layout)));
  if (value.status == CL_OK)
    cl_b_value_add(b, cl_troot(t->origin), value.nodes);
  else
    cl_b_set_error(b, value.status);
  cl_b_release(&value);
}

static void tensor_text(const void *self, cl_sink *o) {
  const cl_coord_tensor_t *t = self;
  cl_sink_puts(o, "ArithTuple");
  cl_sink_tree(o, cl_troot(t->origin));
  cl_sink_puts(o, " o ");
  cl_sink_tree(o, cl_lroot(t->layout));
}

static cl_status tensor_cosize(const void *self, int64_t *out) {
  return cl_layout_cosize_checked(((const cl_coord_tensor_t *)self)->layout, out);
}

static int64_t render(const cl_coord_tensor_t *t, const cl_picture_options *options, cl_sink *o) {
  if (t == NULL)
    return cl_fail(CL_E_NULL, "render: the coordinate tensor is NULL");
  cl_fnmap m = {cl_lshape(cl_lroot(t->layout)), t, NULL, tensor_text, tensor_cosize, false, tensor_value};
  return cl_render_map(&m, options, o);
}

int64_t cl_render_coord_tensor(const cl_coord_tensor_t *t, const cl_picture_options *options, char *buf, size_t cap) {
  if (buf == NULL && cap > 0)
    return cl_fail(CL_E_NULL, "render: buf is NULL");
  cl_sink o = cl_sink_buffer(buf, cap);
  return render(t, options, &o);
}

int64_t cl_render_coord_tensor_file(const cl_coord_tensor_t *t, const cl_picture_options *options, FILE *f) {
  if (f == NULL)
    return cl_fail(CL_E_NULL, "render: the stream is NULL");
  cl_sink o = cl_sink_stream(f);
  return render(t, options, &o);
}
