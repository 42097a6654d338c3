/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor.c: the cl_tensor_t handle (a base pointer plus a layout): making,
 * querying, element access, and the views that need no algebra (slice,
 * flatten, group); those through the algebra are in tensor_algebra.c. */
#include <stdlib.h>

#include "tensor_impl.h"

/* ------------------------------------------------------------ element types */

static const struct {
  const char *name;
  size_t size;
} dtype_table[] = {
  [CL_DTYPE_NONE] = {"none", 0},       [CL_DTYPE_INT8] = {"int8", 1},
  [CL_DTYPE_INT16] = {"int16", 2},     [CL_DTYPE_INT32] = {"int32", 4},
  [CL_DTYPE_INT64] = {"int64", 8},     [CL_DTYPE_UINT8] = {"uint8", 1},
  [CL_DTYPE_UINT16] = {"uint16", 2},   [CL_DTYPE_UINT32] = {"uint32", 4},
  [CL_DTYPE_UINT64] = {"uint64", 8},   [CL_DTYPE_FLOAT16] = {"float16", 2},
  [CL_DTYPE_BFLOAT16] = {"bfloat16", 2}, [CL_DTYPE_FLOAT32] = {"float32", 4},
  [CL_DTYPE_FLOAT64] = {"float64", 8},
};
#define DTYPE_COUNT ((int)(sizeof dtype_table / sizeof dtype_table[0]))

static bool dtype_valid(cl_dtype d) { return (int)d >= 0 && (int)d < DTYPE_COUNT; }

size_t cl_dtype_size(cl_dtype dtype) { return dtype_valid(dtype) ? dtype_table[dtype].size : 0; }

const char *cl_dtype_name(cl_dtype dtype) { return dtype_valid(dtype) ? dtype_table[dtype].name : NULL; }

cl_status cl_dtype_parse(const char *name, cl_dtype *out) {
  CHECK_NULL(name);
  CHECK_NULL(out);
  for (int d = 0; d < DTYPE_COUNT; d++)
    if (strcmp(name, dtype_table[d].name) == 0) {
      *out = (cl_dtype)d;
      return CL_OK;
    }
  return cl_fail(CL_E_PARSE, "unknown element type '%s'", name);
}

/* ------------------------------------------------------------ flat layouts */

cl_status cl_leaves_init(cl_leaves *f, const cl_layout_t *l, bool drop_units) {
  const cl_node *shape = cl_lshape(cl_lroot(l)), *stride = cl_lstride(cl_lroot(l));
  int64_t leaves = cl_tree_leaf_count(shape);
  f->n = 0;
  f->shape = f->inline_buf;
  f->stride = f->inline_buf + CL_LEAVES_INLINE;
  if (cl_tree_has_basis(stride))
    return cl_fail(CL_E_TYPE, "tensor: the layout's strides hold scaled bases: its values are coordinates, which "
                              "address no memory (a coordinate tensor holds such a layout)");
  if (leaves > CL_LEAVES_INLINE) {
    f->shape = cl_alloc(2 * (size_t)leaves * sizeof(int64_t));
    if (f->shape == NULL)
      return cl_fail(CL_E_NOMEM, "out of memory");
    f->stride = f->shape + leaves;
  }
  /* Shape and stride are congruent: their nodes pair up one to one. */
  const cl_node *end = shape + shape->span, *d = stride;
  for (const cl_node *s = shape; s < end; s++, d++) {
    if (cl_is_tuple(s))
      continue;
    if (drop_units && s->value == 1)
      continue;
    f->shape[f->n] = s->value;
    f->stride[f->n] = d->value;
    f->n++;
  }
  return CL_OK;
}

void cl_leaves_release(cl_leaves *f) {
  if (f->shape != f->inline_buf)
    cl_dealloc(f->shape);
  f->shape = f->stride = NULL;
  f->n = 0;
}

cl_status cl_leaves_offset_range(const cl_leaves *f, int64_t *lo, int64_t *hi) {
  int64_t l = 0, h = 0;
  for (int64_t k = 0; k < f->n; k++)
    if (f->shape[k] == 0) {
      *lo = *hi = 0;
      return CL_OK;
    }
  for (int64_t k = 0; k < f->n; k++) {
    int64_t last, reach;
    CL_TRY(cl_sub(f->shape[k], 1, &last));
    CL_TRY(cl_mul(last, f->stride[k], &reach));
    CL_TRY(cl_add(reach < 0 ? l : h, reach, reach < 0 ? &l : &h));
  }
  *lo = l;
  *hi = h;
  return CL_OK;
}

/* ------------------------------------------------------------ making */

/* Are the elements [lo, hi] of a tensor of these fields inside its extent? */
static cl_status check_extent(const tensor_fields *f, int64_t lo, int64_t hi) {
  if (!f->has_extent)
    return CL_OK;
  /* Signed byte distance of data from the extent's start, then of the first
   * and one-past-last element bytes. */
  int64_t rel = (int64_t)((uintptr_t)f->data - (uintptr_t)f->extent_base), first, last;
  if (cl_mul(lo, (int64_t)f->elem_size, &first) != CL_OK || cl_add(rel, first, &first) != CL_OK ||
      cl_add(hi, 1, &last) != CL_OK || cl_mul(last, (int64_t)f->elem_size, &last) != CL_OK ||
      cl_add(rel, last, &last) != CL_OK || first < 0 || (uint64_t)last > f->extent_bytes)
    return cl_fail(CL_E_BOUNDS, "tensor: elements at offsets [%lld, %lld] of %zu bytes lie outside the %zu-byte extent",
                   (long long)lo, (long long)hi, f->elem_size, f->extent_bytes);
  return CL_OK;
}

/* Do the elements [lo, hi] have addresses, i.e. do data + lo*elem_size and
 * data + (hi+1)*elem_size stay inside the address space?  Byte offsets that
 * fit in int64_t may still carry the pointer past 0 or past the top, where
 * no memory lies and pointer arithmetic is undefined. */
static cl_status check_addresses(const tensor_fields *f, int64_t lo, int64_t hi) {
  uintptr_t base = (uintptr_t)f->data;
  int64_t first = lo * (int64_t)f->elem_size, last = (hi + 1) * (int64_t)f->elem_size; /* checked by the caller */
  if ((first < 0 && (uintptr_t)0 - (uintptr_t)first > base) || (last > 0 && (uintptr_t)last > UINTPTR_MAX - base))
    return cl_fail(CL_E_OVERFLOW, "tensor: elements at offsets [%lld, %lld] of %zu bytes lie outside the address space",
                   (long long)lo, (long long)hi, f->elem_size);
  return CL_OK;
}

static cl_status validate(const tensor_fields *f, const cl_layout_t *layout, int64_t *size, int64_t *lo, int64_t *hi) {
  if (f->elem_size == 0)
    return cl_fail(CL_E_DOMAIN, "tensor: the element size is 0");
  if (f->elem_size > INT32_MAX)
    return cl_fail(CL_E_DOMAIN, "tensor: element size %zu is too large", f->elem_size);
  cl_leaves flat;
  CL_TRY(cl_leaves_init(&flat, layout, false));
  cl_status s = CL_OK;
  int64_t n = 1;
  for (int64_t k = 0; k < flat.n && s == CL_OK; k++)
    if (flat.shape[k] < 0)
      s = cl_fail(CL_E_DOMAIN, "tensor: negative extent %lld in the shape", (long long)flat.shape[k]);
    else
      s = cl_mul(n, flat.shape[k], &n);
  if (s == CL_OK)
    s = cl_leaves_offset_range(&flat, lo, hi);
  cl_leaves_release(&flat);
  CL_TRY(s);
  *size = n;
  /* Every byte offset of every element must be representable. */
  int64_t bytes;
  CL_TRY(cl_mul(*lo, (int64_t)f->elem_size, &bytes));
  CL_TRY(cl_add(*hi, 1, &bytes));
  CL_TRY(cl_mul(bytes, (int64_t)f->elem_size, &bytes));
  if (n > 0 && f->data == NULL)
    return cl_fail(CL_E_NULL, "tensor: the data pointer is NULL");
  if (n > 0) {
    CL_TRY(check_extent(f, *lo, *hi));
    CL_TRY(check_addresses(f, *lo, *hi));
  }
  return CL_OK;
}

cl_status cl_tensor_adopt(const tensor_fields *fields, cl_layout_t *layout, cl_tensor_t **out) {
  *out = NULL;
  int64_t size = 0, lo = 0, hi = 0;
  cl_status s = validate(fields, layout, &size, &lo, &hi);
  cl_tensor_t *t = s == CL_OK ? cl_alloc(sizeof *t) : NULL;
  if (s == CL_OK && t == NULL)
    s = cl_fail(CL_E_NOMEM, "out of memory");
  if (s != CL_OK) {
    cl_layout_free(layout);
    return s;
  }
  *t = (cl_tensor_t){fields->data, fields->elem_size, fields->dtype, fields->has_extent,
                     fields->has_extent ? fields->extent_base : NULL, fields->has_extent ? fields->extent_bytes : 0,
                     NULL, size, lo, hi, layout};
  *out = t;
  return CL_OK;
}

/* Makes a view with fields f over a copy of layout. */
static cl_status make_view(const tensor_fields *f, const cl_layout_t *layout, cl_tensor_t **out) {
  cl_layout_t *copy;
  CL_TRY(cl_layout_copy(layout, &copy));
  return cl_tensor_adopt(f, copy, out);
}

/* The first version of cl_tensor_desc ends after extent_bytes. */
#define DESC_V1_SIZE (offsetof(cl_tensor_desc, extent_bytes) + sizeof(size_t))

static cl_status resolve_elem_size(size_t elem_size, cl_dtype dtype, size_t *out) {
  if (!dtype_valid(dtype))
    return cl_fail(CL_E_DOMAIN, "tensor: unknown element type %d", (int)dtype);
  size_t typed = cl_dtype_size(dtype);
  if (elem_size == 0 && typed == 0)
    return cl_fail(CL_E_DOMAIN, "tensor: neither an element size nor an element type");
  if (elem_size != 0 && typed != 0 && elem_size != typed)
    return cl_fail(CL_E_DOMAIN, "tensor: element size %zu does not match %s", elem_size, cl_dtype_name(dtype));
  *out = elem_size ? elem_size : typed;
  return CL_OK;
}

cl_status cl_tensor_create(const cl_tensor_desc *desc, const cl_layout_t *layout, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(desc);
  CHECK_NULL(layout);
  if (desc->struct_size < DESC_V1_SIZE)
    return cl_fail(CL_E_ABI, "cl_tensor_create: struct_size %zu is smaller than any cl_tensor_desc", desc->struct_size);
  tensor_fields f = {desc->data, 0, desc->dtype, desc->extent_base != NULL, desc->extent_base, desc->extent_bytes};
  CL_TRY(resolve_elem_size(desc->elem_size, desc->dtype, &f.elem_size));
  return make_view(&f, layout, out);
}

cl_status cl_tensor_new(void *data, size_t elem_size, const cl_layout_t *layout, cl_tensor_t **out) {
  cl_tensor_desc d = {sizeof d, data, elem_size, CL_DTYPE_NONE, NULL, 0};
  return cl_tensor_create(&d, layout, out);
}

cl_status cl_tensor_new_typed(void *data, cl_dtype dtype, const cl_layout_t *layout, cl_tensor_t **out) {
  cl_tensor_desc d = {sizeof d, data, 0, dtype, NULL, 0};
  return cl_tensor_create(&d, layout, out);
}

/* An owning tensor over `layout` (taken). */
static cl_status alloc_adopt(cl_layout_t *layout, size_t elem_size, cl_dtype dtype, cl_tensor_t **out) {
  tensor_fields f = {NULL, 0, dtype, true, NULL, 0};
  cl_status s = resolve_elem_size(elem_size, dtype, &f.elem_size);
  cl_leaves flat;
  if (s == CL_OK)
    s = cl_leaves_init(&flat, layout, false);
  if (s != CL_OK) {
    cl_layout_free(layout);
    return s;
  }
  int64_t lo = 0, hi = 0, bytes = 0;
  s = cl_leaves_offset_range(&flat, &lo, &hi);
  cl_leaves_release(&flat);
  /* lo <= 0 <= hi, but hi - lo may still exceed INT64_MAX (strides of both
   * signs near 2^62). */
  if (s == CL_OK)
    s = cl_sub(hi, lo, &bytes);
  if (s == CL_OK)
    s = cl_add(bytes, 1, &bytes);
  if (s == CL_OK)
    s = cl_mul(bytes, (int64_t)f.elem_size, &bytes);
  if (s == CL_OK && (uint64_t)bytes > SIZE_MAX)
    s = cl_fail(CL_E_OVERFLOW, "tensor: %lld bytes do not fit in size_t", (long long)bytes);
  char *storage = s == CL_OK ? cl_alloc((size_t)bytes) : NULL;
  if (s == CL_OK && storage == NULL)
    s = cl_fail(CL_E_NOMEM, "out of memory (%lld bytes)", (long long)bytes);
  if (s != CL_OK) {
    cl_layout_free(layout);
    return s;
  }
  memset(storage, 0, (size_t)bytes);
  f.data = storage - lo * (int64_t)f.elem_size;
  f.extent_base = storage;
  f.extent_bytes = (size_t)bytes;
  s = cl_tensor_adopt(&f, layout, out);
  if (s != CL_OK)
    cl_dealloc(storage);
  else
    (*out)->storage = storage;
  return s;
}

cl_status cl_tensor_alloc(const cl_layout_t *layout, size_t elem_size, cl_dtype dtype, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_layout_t *copy;
  CL_TRY(cl_layout_copy(layout, &copy));
  return alloc_adopt(copy, elem_size, dtype, out);
}

cl_status cl_make_tensor_like(const cl_tensor_t *t, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  cl_layout_t *like;
  CL_TRY(cl_make_layout_like(t->layout, &like));
  return alloc_adopt(like, t->elem_size, t->dtype, out);
}

cl_status cl_make_fragment_like_tensor(const cl_tensor_t *t, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  cl_layout_t *like;
  CL_TRY(cl_make_fragment_like(t->layout, &like));
  return alloc_adopt(like, t->elem_size, t->dtype, out);
}

cl_status cl_tensor_copy_handle(const cl_tensor_t *t, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  tensor_fields f = cl_tensor_fields(t);
  return make_view(&f, t->layout, out);
}

void cl_tensor_free(cl_tensor_t *t) {
  if (t == NULL)
    return;
  cl_layout_free(t->layout);
  cl_dealloc(t->storage);
  cl_dealloc(t);
}

/* ------------------------------------------------------------ queries */

void *cl_tensor_data(const cl_tensor_t *t) { return t ? t->data : NULL; }
const cl_layout_t *cl_tensor_layout(const cl_tensor_t *t) { return t ? t->layout : NULL; }
size_t cl_tensor_elem_size(const cl_tensor_t *t) { return t ? t->elem_size : 0; }
cl_dtype cl_tensor_dtype(const cl_tensor_t *t) { return t ? t->dtype : CL_DTYPE_NONE; }
int64_t cl_tensor_size(const cl_tensor_t *t) { return t ? t->size : 0; }
int64_t cl_tensor_rank(const cl_tensor_t *t) { return t ? cl_layout_rank(t->layout) : 0; }

cl_status cl_tensor_describe(const cl_tensor_t *t, cl_tensor_desc *desc) {
  CHECK_NULL(t);
  CHECK_NULL(desc);
  if (desc->struct_size < DESC_V1_SIZE)
    return cl_fail(CL_E_ABI, "cl_tensor_describe: struct_size %zu is smaller than any cl_tensor_desc", desc->struct_size);
  cl_tensor_desc d = {desc->struct_size, t->data, t->elem_size, t->dtype, t->extent_base, t->extent_bytes};
  size_t n = desc->struct_size < sizeof d ? desc->struct_size : sizeof d;
  memcpy(desc, &d, n);
  return CL_OK;
}

cl_status cl_tensor_offset_range(const cl_tensor_t *t, int64_t *lo, int64_t *hi) {
  CHECK_NULL(t);
  CHECK_NULL(lo);
  CHECK_NULL(hi);
  *lo = t->lo;
  *hi = t->hi;
  return CL_OK;
}

/* ------------------------------------------------------------ access */

/* The address of the element at offset `offset`, after the extent check
 * (which construction already guarantees for in-shape coordinates; kept as a
 * last line of defence). */
static cl_status element_address(const cl_tensor_t *t, int64_t offset, char **out) {
  if (offset < t->lo || offset > t->hi)
    return cl_fail(CL_E_BOUNDS, "tensor: offset %lld outside [%lld, %lld]", (long long)offset, (long long)t->lo, (long long)t->hi);
  *out = t->data + offset * (int64_t)t->elem_size;
  return CL_OK;
}

cl_status cl_tensor_offset(const cl_tensor_t *t, int64_t i, int64_t *offset) {
  CHECK_NULL(t);
  CHECK_NULL(offset);
  if (i < 0 || i >= t->size)
    return cl_fail(CL_E_DOMAIN, "tensor: linear coordinate %lld outside [0, %lld)", (long long)i, (long long)t->size);
  const cl_node *shape = cl_lshape(cl_lroot(t->layout));
  if (cl_is_tuple(shape) && shape->rank == 0) { /* rank 0 (a slice at a full coordinate): one element, offset 0 */
    *offset = 0;
    return CL_OK;
  }
  return cl_layout_eval(t->layout, i, offset);
}

/* A coordinate must lie inside its shape: every integer c of a mode of
 * size n is 0 <= c < n; '_' is allowed only when slicing. */
static cl_status check_coord(const cl_node *crd, const cl_node *shape, bool allow_underscore) {
  if (cl_is_tuple(crd)) {
    if (!cl_is_tuple(shape) || crd->rank != shape->rank)
      return cl_fail(CL_E_RANK, "tensor: coordinate of rank %lld for a mode of rank %lld", (long long)cl_rank_of(crd),
                     (long long)cl_rank_of(shape));
    const cl_node *s = cl_first(shape);
    CL_FOR_EACH_CHILD(c, crd) {
      CL_TRY(check_coord(c, s, allow_underscore));
      s = cl_next(s);
    }
    return CL_OK;
  }
  if (crd->kind == CL_KIND_UNDERSCORE && allow_underscore)
    return CL_OK;
  if (crd->kind != CL_KIND_INT)
    return cl_fail(CL_E_TYPE, "tensor: a coordinate holds integers%s only", allow_underscore ? " and '_'" : "");
  int64_t n;
  CL_TRY(cl_tree_product(shape, &n));
  if (crd->value < 0 || crd->value >= n)
    return cl_fail(CL_E_DOMAIN, "tensor: coordinate %lld outside a mode of size %lld", (long long)crd->value, (long long)n);
  return CL_OK;
}

static cl_status coord_offset(const cl_tensor_t *t, const cl_tuple_t *crd, int64_t *offset) {
  const cl_node *l = cl_lroot(t->layout);
  CL_TRY(check_coord(cl_troot(crd), cl_lshape(l), false));
  return cl_tree_crd2idx(cl_troot(crd), cl_lshape(l), cl_lstride(l), offset);
}

cl_status cl_tensor_ptr(const cl_tensor_t *t, int64_t i, void **out) {
  CHECK_OUT(out);
  int64_t offset;
  CL_TRY(cl_tensor_offset(t, i, &offset));
  return element_address(t, offset, (char **)out);
}

cl_status cl_tensor_ptr_coord(const cl_tensor_t *t, const cl_tuple_t *crd, void **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(crd);
  int64_t offset;
  CL_TRY(coord_offset(t, crd, &offset));
  return element_address(t, offset, (char **)out);
}

cl_status cl_tensor_ptr_at(const cl_tensor_t *t, const int64_t *c, int64_t n, void **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  if (n > 0)
    CHECK_NULL(c);
  const cl_node *l = cl_lroot(t->layout), *shape = cl_lshape(l), *stride = cl_lstride(l);
  int64_t rank = cl_rank_of(shape);
  if (!cl_is_tuple(shape) && n == 1) {
    /* A rank-1 layout with an integer shape: tensor(c0). */
  } else if (n != rank || !cl_is_tuple(shape)) {
    return cl_fail(CL_E_RANK, "tensor: %lld coordinates for a tensor of rank %lld", (long long)n, (long long)rank);
  }
  int64_t offset = 0;
  for (int64_t k = 0; k < n; k++) {
    const cl_node *s = cl_child(shape, k), *d = cl_child(stride, k);
    int64_t size, part;
    CL_TRY(cl_tree_product(s, &size));
    if (c[k] < 0 || c[k] >= size)
      return cl_fail(CL_E_DOMAIN, "tensor: coordinate %lld of mode %lld outside [0, %lld)", (long long)c[k], (long long)k,
                     (long long)size);
    CL_TRY(cl_tree_eval(s, d, c[k], &part));
    CL_TRY(cl_add(offset, part, &offset));
  }
  return element_address(t, offset, (char **)out);
}

cl_status cl_tensor_load(const cl_tensor_t *t, int64_t i, void *value) {
  CHECK_NULL(value);
  void *p;
  CL_TRY(cl_tensor_ptr(t, i, &p));
  memcpy(value, p, t->elem_size);
  return CL_OK;
}

cl_status cl_tensor_store(const cl_tensor_t *t, int64_t i, const void *value) {
  CHECK_NULL(value);
  void *p;
  CL_TRY(cl_tensor_ptr(t, i, &p));
  memcpy(p, value, t->elem_size);
  return CL_OK;
}

cl_status cl_tensor_load_coord(const cl_tensor_t *t, const cl_tuple_t *crd, void *value) {
  CHECK_NULL(value);
  void *p;
  CL_TRY(cl_tensor_ptr_coord(t, crd, &p));
  memcpy(value, p, t->elem_size);
  return CL_OK;
}

cl_status cl_tensor_store_coord(const cl_tensor_t *t, const cl_tuple_t *crd, const void *value) {
  CHECK_NULL(value);
  void *p;
  CL_TRY(cl_tensor_ptr_coord(t, crd, &p));
  memcpy(p, value, t->elem_size);
  return CL_OK;
}

cl_status cl_tensor_check_bounds(const cl_tensor_t *t) {
  CHECK_NULL(t);
  if (t->size == 0)
    return CL_OK;
  tensor_fields f = cl_tensor_fields(t);
  return check_extent(&f, t->lo, t->hi);
}

/* ------------------------------------------------------------ views */

/* A view of t's memory at data + offset elements through `layout` (taken). */
static cl_status derive(const cl_tensor_t *t, int64_t offset, cl_layout_t *layout, cl_tensor_t **out) {
  tensor_fields f = cl_tensor_fields(t);
  int64_t bytes;
  cl_status s = cl_mul(offset, (int64_t)t->elem_size, &bytes);
  if (s != CL_OK) {
    cl_layout_free(layout);
    return s;
  }
  /* In-shape offsets lie within [lo, hi], so the pointer stays inside the
   * memory the tensor views. */
  f.data = t->data + bytes;
  return cl_tensor_adopt(&f, layout, out);
}

cl_status cl_tensor_slice(const cl_tensor_t *t, const cl_tuple_t *crd, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(crd);
  CL_TRY(check_coord(cl_troot(crd), cl_lshape(cl_lroot(t->layout)), true));
  cl_layout_t *sliced;
  int64_t offset;
  CL_TRY(cl_layout_slice_and_offset(crd, t->layout, &sliced, &offset));
  return derive(t, offset, sliced, out);
}

cl_status cl_tensor_with_layout(const cl_tensor_t *t, const cl_layout_t *layout, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(layout);
  tensor_fields f = cl_tensor_fields(t);
  return make_view(&f, layout, out);
}

cl_status cl_tensor_flatten(const cl_tensor_t *t, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  cl_layout_t *l;
  CL_TRY(cl_layout_flatten(t->layout, &l));
  return derive(t, 0, l, out);
}

cl_status cl_tensor_group(const cl_tensor_t *t, int64_t begin, int64_t end, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  cl_layout_t *l;
  CL_TRY(cl_layout_group(t->layout, begin, end, &l));
  return derive(t, 0, l, out);
}
