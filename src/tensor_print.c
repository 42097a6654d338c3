/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor_print.c: CuTe's print_tensor (util/print_tensor.hpp) for tensor
 * views, to a buffer or a stream, and the element-to-number conversions it
 * shares with cl_tensor_load_f64. */
#include <stdarg.h>
#include <stdio.h>

#include "sink_impl.h"
#include "tensor_impl.h"

/* ------------------------------------------------------------ numbers */

static float float_from_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* IEEE binary16 -> float, exactly (every half is a float). */
static float half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  if (exp == 0) { /* zero or subnormal: mant * 2^-24 */
    float v = (float)mant * (1.0f / 16777216.0f);
    return sign ? -v : v;
  }
  if (exp == 31)
    return float_from_bits(sign | 0x7f800000u | (mant << 13));
  return float_from_bits(sign | ((exp + 112) << 23) | (mant << 13));
}

static float bfloat16_to_float(uint16_t h) { return float_from_bits((uint32_t)h << 16); }

/* Element p of type dtype as a double; false for CL_DTYPE_NONE. */
static bool element_value(cl_dtype dtype, const void *p, double *out) {
  switch (dtype) {
#define AS(T)            \
  {                      \
    T v;                 \
    memcpy(&v, p, sizeof v); \
    *out = (double)v;    \
    return true;         \
  }
  case CL_DTYPE_INT8: AS(int8_t)
  case CL_DTYPE_INT16: AS(int16_t)
  case CL_DTYPE_INT32: AS(int32_t)
  case CL_DTYPE_INT64: AS(int64_t)
  case CL_DTYPE_UINT8: AS(uint8_t)
  case CL_DTYPE_UINT16: AS(uint16_t)
  case CL_DTYPE_UINT32: AS(uint32_t)
  case CL_DTYPE_UINT64: AS(uint64_t)
  case CL_DTYPE_FLOAT32: AS(float)
  case CL_DTYPE_FLOAT64: AS(double)
#undef AS
  case CL_DTYPE_FLOAT16: {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    *out = half_to_float(h);
    return true;
  }
  case CL_DTYPE_BFLOAT16: {
    uint16_t h;
    memcpy(&h, p, sizeof h);
    *out = bfloat16_to_float(h);
    return true;
  }
  default: return false;
  }
}

cl_status cl_tensor_load_f64(const cl_tensor_t *t, int64_t i, double *value) {
  CHECK_NULL(t);
  CHECK_NULL(value);
  if (t->dtype == CL_DTYPE_NONE)
    return cl_fail(CL_E_TYPE, "tensor: the elements have no type to convert from");
  void *p;
  CL_TRY(cl_tensor_ptr(t, i, &p));
  element_value(t->dtype, p, value);
  return CL_OK;
}

/* ------------------------------------------------------------ output */

/* CuTe's pretty_print for each element type. */
static void emit_element(cl_sink *o, const cl_tensor_t *t, int64_t offset) {
  const unsigned char *p = (const unsigned char *)t->data + offset * (int64_t)t->elem_size;
  switch (t->dtype) {
#define LOAD(T, v) \
  T v;             \
  memcpy(&v, p, sizeof v)
  case CL_DTYPE_INT8: { LOAD(int8_t, v); cl_sink_printf(o, "  %d", (int)v); return; }
  case CL_DTYPE_INT16: { LOAD(int16_t, v); cl_sink_printf(o, "  %d", (int)v); return; }
  case CL_DTYPE_UINT8: { LOAD(uint8_t, v); cl_sink_printf(o, "  %u", (unsigned)v); return; }
  case CL_DTYPE_UINT16: { LOAD(uint16_t, v); cl_sink_printf(o, "  %u", (unsigned)v); return; }
  case CL_DTYPE_INT32: { LOAD(int32_t, v); cl_sink_printf(o, "%5d", (int)v); return; }
  case CL_DTYPE_UINT32: { LOAD(uint32_t, v); cl_sink_printf(o, "%5u", (unsigned)v); return; }
  case CL_DTYPE_INT64: { LOAD(int64_t, v); cl_sink_printf(o, "%5lld", (long long)v); return; }
  case CL_DTYPE_UINT64: { LOAD(uint64_t, v); cl_sink_printf(o, "%5llu", (unsigned long long)v); return; }
  case CL_DTYPE_FLOAT32: { LOAD(float, v); cl_sink_printf(o, "%10.2e", (double)v); return; }
  case CL_DTYPE_FLOAT64: { LOAD(double, v); cl_sink_printf(o, "%11.3e", v); return; }
#undef LOAD
  case CL_DTYPE_FLOAT16:
  case CL_DTYPE_BFLOAT16: {
    double v = 0;
    element_value(t->dtype, p, &v);
    cl_sink_printf(o, "%8.2f", v);
    return;
  }
  default:
    /* Untyped: the bytes in memory order. */
    cl_sink_printf(o, "  0x");
    for (size_t k = 0; k < t->elem_size; k++)
      cl_sink_printf(o, "%02x", p[k]);
    return;
  }
}

/* ------------------------------------------------------------ print_tensor */

/* The offsets of every coordinate of each top-level mode, so the tables
 * below are sums of two lookups. */
typedef struct mode_offsets {
  int64_t rank;
  int64_t *size;  /* [rank] */
  int64_t **off;  /* [rank][size[k]] */
  void *mem;
} mode_offsets;

static cl_status mode_offsets_init(mode_offsets *mo, const cl_layout_t *layout) {
  const cl_node *l = cl_lroot(layout), *shape = cl_lshape(l), *stride = cl_lstride(l);
  int64_t rank = cl_is_tuple(shape) ? shape->rank : 1, total = 0, cells = 1;
  /* The text has an entry (or a rule's worth of characters) for every
   * coordinate, an empty mode counting as one: bounded as a picture is, which
   * also bounds the tables of offsets below (total <= rank * 2^20). */
  for (int64_t k = 0; k < rank; k++) {
    int64_t n;
    CL_TRY(cl_tree_product(cl_child(shape, k), &n));
    CL_TRY(cl_check_picture(cells, n, "print_tensor: the tensor"));
    cells *= n < 1 ? 1 : n;
    total += n < 0 ? 0 : n;
  }
  size_t bytes = (size_t)rank * (sizeof(int64_t) + sizeof(int64_t *)) + (size_t)total * sizeof(int64_t);
  mo->mem = cl_alloc(bytes);
  if (mo->mem == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  mo->rank = rank;
  mo->off = mo->mem;
  mo->size = (int64_t *)(mo->off + rank);
  int64_t *next = mo->size + rank;
  for (int64_t k = 0; k < rank; k++) {
    const cl_node *s = cl_is_tuple(shape) ? cl_child(shape, k) : shape;
    const cl_node *d = cl_is_tuple(shape) ? cl_child(stride, k) : stride;
    cl_tree_product(s, &mo->size[k]);
    mo->off[k] = next;
    for (int64_t c = 0; c < mo->size[k]; c++) {
      cl_status st = cl_tree_eval(s, d, c, &next[c]);
      if (st != CL_OK) {
        cl_dealloc(mo->mem);
        return st;
      }
    }
    next += mo->size[k];
  }
  return CL_OK;
}

/* Prints the sub-tensor over modes [0, level) at offset base, CuTe's
 * recursion: rank 1 a column, rank 2 a table, higher ranks slices of the
 * last mode between separator lines. */
static void print_level(cl_sink *o, const cl_tensor_t *t, const mode_offsets *mo, int64_t level, int64_t base) {
  if (level == 1) {
    for (int64_t m = 0; m < mo->size[0]; m++) {
      emit_element(o, t, base + mo->off[0][m]);
      cl_sink_printf(o, "\n");
    }
    return;
  }
  if (level == 2) {
    for (int64_t m = 0; m < mo->size[0]; m++) {
      for (int64_t n = 0; n < mo->size[1]; n++)
        emit_element(o, t, base + mo->off[0][m] + mo->off[1][n]);
      cl_sink_printf(o, "\n");
    }
    return;
  }
  char rule = level == 3 ? '-' : level == 4 ? '=' : '#';
  for (int64_t k = 0; k < mo->size[level - 1]; k++) {
    if (k > 0) {
      cl_sink_repeat(o, rule, 5 * mo->size[1]);
      cl_sink_printf(o, "\n");
    }
    print_level(o, t, mo, level - 1, base + mo->off[level - 1][k]);
  }
}

static int64_t print_tensor(const cl_tensor_t *t, unsigned flags, cl_sink *o) {
  mode_offsets mo;
  CL_TRY(mode_offsets_init(&mo, t->layout));
  if (!(flags & CL_PRINT_NO_HEADER)) {
    /* CuTe: print(tensor) is "ptr[32b](0x...) o LAYOUT", then ":\n". */
    cl_sink_printf(o, "ptr[%zub](%p) o ", t->elem_size * 8, (void *)t->data);
    cl_sink_tree(o, cl_lroot(t->layout));
    cl_sink_puts(o, ":\n");
  }
  const cl_node *shape = cl_lshape(cl_lroot(t->layout));
  if (cl_is_tuple(shape) && shape->rank == 0) {
    emit_element(o, t, 0); /* rank 0: the one element */
    cl_sink_printf(o, "\n");
  } else {
    print_level(o, t, &mo, mo.rank, 0);
  }
  cl_dealloc(mo.mem);
  return cl_sink_finish(o, "print_tensor");
}

int64_t cl_print_tensor(const cl_tensor_t *t, unsigned flags, char *buf, size_t cap) {
  if (t == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print_tensor: NULL argument");
  cl_sink o = cl_sink_buffer(buf, cap);
  int64_t n = print_tensor(t, flags, &o);
  if (n < 0 && cap > 0)
    buf[0] = '\0';
  return n;
}

int64_t cl_print_tensor_file(const cl_tensor_t *t, unsigned flags, FILE *f) {
  if (t == NULL || f == NULL)
    return cl_fail(CL_E_NULL, "print_tensor: NULL argument");
  cl_sink o = cl_sink_stream(f);
  return print_tensor(t, flags, &o);
}
