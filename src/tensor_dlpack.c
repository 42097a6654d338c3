/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor_dlpack.c: DLPack interchange.  A DLTensor is a pointer, a flat
 * shape and flat strides in elements: exactly a tensor view whose layout has
 * depth 1, with dimension k as mode k. */
#include "tensor_impl.h"

/* DLPack's enums (dlpack.h), the values the ABI fixes. */
enum {
  DL_CPU = 1,
  DL_CUDA_HOST = 3,
  DL_CUDA_MANAGED = 13,
  DL_INT = 0,
  DL_UINT = 1,
  DL_FLOAT = 2,
  DL_OPAQUE = 3,
  DL_BFLOAT = 4
};

/* The stand-in structs must match DLPack's layout (64-bit ABI). */
#if !defined(DLPACK_DLPACK_H_) && !defined(DLPACK_VERSION)
_Static_assert(sizeof(cl_dldevice) == 8, "DLDevice is two 32-bit fields");
_Static_assert(sizeof(cl_dldatatype) == 4, "DLDataType is 4 bytes");
_Static_assert(offsetof(cl_dltensor_t, device) == sizeof(void *), "DLTensor.device follows data");
_Static_assert(offsetof(cl_dltensor_t, ndim) == sizeof(void *) + 8, "DLTensor.ndim follows device");
_Static_assert(offsetof(cl_dltensor_t, dtype) == sizeof(void *) + 12, "DLTensor.dtype follows ndim");
#endif

static cl_dtype dtype_from_dl(uint8_t code, uint8_t bits, uint16_t lanes) {
  if (lanes != 1)
    return CL_DTYPE_NONE;
  switch (code) {
  case DL_INT:
    return bits == 8 ? CL_DTYPE_INT8 : bits == 16 ? CL_DTYPE_INT16 : bits == 32 ? CL_DTYPE_INT32 : bits == 64 ? CL_DTYPE_INT64 : CL_DTYPE_NONE;
  case DL_UINT:
    return bits == 8 ? CL_DTYPE_UINT8 : bits == 16 ? CL_DTYPE_UINT16 : bits == 32 ? CL_DTYPE_UINT32 : bits == 64 ? CL_DTYPE_UINT64 : CL_DTYPE_NONE;
  case DL_FLOAT:
    return bits == 16 ? CL_DTYPE_FLOAT16 : bits == 32 ? CL_DTYPE_FLOAT32 : bits == 64 ? CL_DTYPE_FLOAT64 : CL_DTYPE_NONE;
  case DL_BFLOAT: return bits == 16 ? CL_DTYPE_BFLOAT16 : CL_DTYPE_NONE;
  default: return CL_DTYPE_NONE;
  }
}

cl_status cl_tensor_from_dlpack(const cl_dltensor_t *dl, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(dl);
  int32_t device = (int32_t)dl->device.device_type;
  if (device != DL_CPU && device != DL_CUDA_HOST && device != DL_CUDA_MANAGED)
    return cl_fail(CL_E_UNSUPPORTED, "from_dlpack: device type %d is not memory the host can read", (int)device);
  if (dl->ndim < 0)
    return cl_fail(CL_E_DOMAIN, "from_dlpack: negative ndim %d", (int)dl->ndim);
  if (dl->ndim > CL_MAX_RANK)
    return cl_fail(CL_E_LIMIT, "from_dlpack: ndim %d exceeds %d", (int)dl->ndim, CL_MAX_RANK);
  if (dl->ndim > 0)
    CHECK_NULL(dl->shape);
  uint32_t bits = (uint32_t)dl->dtype.bits * dl->dtype.lanes;
  if (bits == 0 || bits % 8 != 0)
    return cl_fail(CL_E_UNSUPPORTED, "from_dlpack: elements of %u bits are not whole bytes", (unsigned)bits);
  if (dl->byte_offset > (uint64_t)INT64_MAX)
    return cl_fail(CL_E_OVERFLOW, "from_dlpack: byte_offset too large");
  for (int32_t k = 0; k < dl->ndim; k++)
    if (dl->shape[k] < 0)
      return cl_fail(CL_E_DOMAIN, "from_dlpack: negative extent %lld in dimension %d", (long long)dl->shape[k], (int)k);

  /* Mode k = dimension k; compact row-major strides when none are given. */
  int64_t *row_major = NULL;
  if (dl->strides == NULL && dl->ndim > 0) {
    row_major = cl_alloc((size_t)dl->ndim * sizeof *row_major);
    if (row_major == NULL)
      return cl_fail(CL_E_NOMEM, "out of memory");
    int64_t step = 1;
    for (int32_t k = dl->ndim - 1; k >= 0; k--) {
      row_major[k] = step;
      if (__builtin_mul_overflow(step, dl->shape[k], &step) && k > 0) {
        cl_dealloc(row_major);
        return cl_fail(CL_E_OVERFLOW, "from_dlpack: row-major strides overflow");
      }
    }
  }
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_mark m = cl_lb_open(&lb);
  for (int32_t k = 0; k < dl->ndim; k++)
    cl_lb_leaf(&lb, dl->shape[k], row_major ? row_major[k] : dl->strides[k]);
  cl_lb_close(&lb, m);
  cl_dealloc(row_major);
  cl_layout_t *layout;
  CL_TRY(cl_lb_finish(&lb, &layout));
  tensor_fields f = {(char *)dl->data + dl->byte_offset, bits / 8,
                     dtype_from_dl(dl->dtype.code, dl->dtype.bits, dl->dtype.lanes), false, NULL, 0};
  return cl_tensor_adopt(&f, layout, out);
}

/* Elements wider than DLDataType.bits allows go as lanes of bytes. */
static void dtype_to_dl(const cl_tensor_t *t, uint8_t *code, uint8_t *bits, uint16_t *lanes) {
  *bits = t->elem_size * 8 <= 255 ? (uint8_t)(t->elem_size * 8) : 8;
  *lanes = t->elem_size * 8 <= 255 ? 1 : (uint16_t)t->elem_size;
  switch (t->dtype) {
  case CL_DTYPE_INT8: case CL_DTYPE_INT16: case CL_DTYPE_INT32: case CL_DTYPE_INT64: *code = DL_INT; break;
  case CL_DTYPE_UINT8: case CL_DTYPE_UINT16: case CL_DTYPE_UINT32: case CL_DTYPE_UINT64: *code = DL_UINT; break;
  case CL_DTYPE_FLOAT16: case CL_DTYPE_FLOAT32: case CL_DTYPE_FLOAT64: *code = DL_FLOAT; break;
  case CL_DTYPE_BFLOAT16: *code = DL_BFLOAT; break;
  default: *code = DL_OPAQUE; break;
  }
}

/* One top-level mode as a single (extent, stride): its leaves, extent-1
 * ones dropped, must each continue the previous (stride = extent * stride
 * of the one before), which is by-mode coalesce down to one leaf. */
static bool mode_as_one(const cl_node *shape, const cl_node *stride, int64_t *extent, int64_t *step) {
  int64_t n = 1, d = cl_is_tuple(shape) ? 0 : stride->value; /* a lone leaf keeps its stride even at extent 1 */
  bool any = false;
  const cl_node *end = shape + shape->span, *dn = stride;
  for (const cl_node *s = shape; s < end; s++, dn++) {
    if (cl_is_tuple(s) || s->value == 1)
      continue;
    if (s->value == 0) { /* an empty mode: any stride describes it */
      *extent = 0;
      *step = dn->value;
      return true;
    }
    int64_t next;
    if (any && (__builtin_mul_overflow(n, d, &next) || next != dn->value))
      return false;
    if (any) {
      n *= s->value; /* n * value <= size, which fits */
    } else {
      n = s->value;
      d = dn->value;
      any = true;
    }
  }
  *extent = n;
  *step = d;
  return true;
}

cl_status cl_tensor_to_dlpack(const cl_tensor_t *t, cl_dltensor_t *out, int64_t *shape, int64_t *strides, int64_t cap) {
  CHECK_NULL(t);
  CHECK_NULL(out);
  const cl_node *l = cl_lroot(t->layout), *s = cl_lshape(l), *d = cl_lstride(l);
  int64_t rank = cl_is_tuple(s) ? s->rank : 1;
  if (t->elem_size > UINT16_MAX)
    return cl_fail(CL_E_UNSUPPORTED, "to_dlpack: elements of %zu bytes do not fit a DLDataType", t->elem_size);
  if (rank > cap)
    return cl_fail(CL_E_LIMIT, "to_dlpack: rank %lld exceeds the %lld entries given", (long long)rank, (long long)cap);
  if (rank > 0) {
    CHECK_NULL(shape);
    CHECK_NULL(strides);
  }
  for (int64_t k = 0; k < rank; k++) {
    const cl_node *sk = cl_is_tuple(s) ? cl_child(s, k) : s, *dk = cl_is_tuple(s) ? cl_child(d, k) : d;
    if (!mode_as_one(sk, dk, &shape[k], &strides[k]))
      return cl_fail(CL_E_UNSUPPORTED, "to_dlpack: mode %lld of the layout is not one extent and stride", (long long)k);
  }
  memset(out, 0, sizeof *out);
  out->data = t->data;
  out->device.device_type = DL_CPU;
  out->device.device_id = 0;
  out->ndim = (int32_t)rank;
  dtype_to_dl(t, &out->dtype.code, &out->dtype.bits, &out->dtype.lanes);
  out->shape = rank > 0 ? shape : NULL;
  out->strides = rank > 0 ? strides : NULL;
  out->byte_offset = 0;
  return CL_OK;
}
