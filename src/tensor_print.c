/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor_print.c: CuTe's print_tensor (util/print_tensor.hpp) for tensor
 * views, to a buffer or a stream, and the element-to-number conversions it
 * shares with cl_tensor_load_f64. */
#include <stdarg.h>
#include <stdio.h>

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

/* ------------------------------------------------------------ output sink */

/* Either a caller's buffer (snprintf-style) or a stream. */
typedef struct sink {
  char *buf;
  size_t cap, len;
  FILE *f;
  bool failed;
} sink;

static void emit(sink *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void emit(sink *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n;
  if (o->f != NULL) {
    n = vfprintf(o->f, fmt, ap);
    if (n < 0)
      o->failed = true;
  } else {
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
  }
  va_end(ap);
  if (n > 0)
    o->len += (size_t)n;
}

/* CuTe's pretty_print for each element type. */
static void emit_element(sink *o, const cl_tensor_t *t, int64_t offset) {
  const unsigned char *p = (const unsigned char *)t->data + offset * (int64_t)t->elem_size;
  switch (t->dtype) {
#define LOAD(T, v) \
  T v;             \
  memcpy(&v, p, sizeof v)
  case CL_DTYPE_INT8: { LOAD(int8_t, v); emit(o, "  %d", (int)v); return; }
  case CL_DTYPE_INT16: { LOAD(int16_t, v); emit(o, "  %d", (int)v); return; }
  case CL_DTYPE_UINT8: { LOAD(uint8_t, v); emit(o, "  %u", (unsigned)v); return; }
  case CL_DTYPE_UINT16: { LOAD(uint16_t, v); emit(o, "  %u", (unsigned)v); return; }
  case CL_DTYPE_INT32: { LOAD(int32_t, v); emit(o, "%5d", (int)v); return; }
  case CL_DTYPE_UINT32: { LOAD(uint32_t, v); emit(o, "%5u", (unsigned)v); return; }
  case CL_DTYPE_INT64: { LOAD(int64_t, v); emit(o, "%5lld", (long long)v); return; }
  case CL_DTYPE_UINT64: { LOAD(uint64_t, v); emit(o, "%5llu", (unsigned long long)v); return; }
  case CL_DTYPE_FLOAT32: { LOAD(float, v); emit(o, "%10.2e", (double)v); return; }
  case CL_DTYPE_FLOAT64: { LOAD(double, v); emit(o, "%11.3e", v); return; }
#undef LOAD
  case CL_DTYPE_FLOAT16:
  case CL_DTYPE_BFLOAT16: {
    double v = 0;
    element_value(t->dtype, p, &v);
    emit(o, "%8.2f", v);
    return;
  }
  default:
    /* Untyped: the bytes in memory order. */
    emit(o, "  0x");
    for (size_t k = 0; k < t->elem_size; k++)
      emit(o, "%02x", p[k]);
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
static void print_level(sink *o, const cl_tensor_t *t, const mode_offsets *mo, int64_t level, int64_t base) {
  if (level == 1) {
    for (int64_t m = 0; m < mo->size[0]; m++) {
      emit_element(o, t, base + mo->off[0][m]);
      emit(o, "\n");
    }
    return;
  }
  if (level == 2) {
    for (int64_t m = 0; m < mo->size[0]; m++) {
      for (int64_t n = 0; n < mo->size[1]; n++)
        emit_element(o, t, base + mo->off[0][m] + mo->off[1][n]);
      emit(o, "\n");
    }
    return;
  }
  char rule = level == 3 ? '-' : level == 4 ? '=' : '#';
  for (int64_t k = 0; k < mo->size[level - 1]; k++) {
    if (k > 0) {
      for (int64_t i = 0; i < 5 * mo->size[1]; i++)
        emit(o, "%c", rule);
      emit(o, "\n");
    }
    print_level(o, t, mo, level - 1, base + mo->off[level - 1][k]);
  }
}

static int64_t print_tensor(const cl_tensor_t *t, unsigned flags, sink *o) {
  mode_offsets mo;
  CL_TRY(mode_offsets_init(&mo, t->layout));
  if (!(flags & CL_PRINT_NO_HEADER)) {
    /* CuTe: print(tensor) is "ptr[32b](0x...) o LAYOUT", then ":\n". */
    int64_t n = cl_format_tree(cl_lroot(t->layout), NULL, 0);
    char small[256], *text = n >= 0 && (size_t)n < sizeof small ? small : cl_alloc((size_t)(n < 0 ? 1 : n + 1));
    if (text == NULL) {
      cl_dealloc(mo.mem);
      return cl_fail(CL_E_NOMEM, "out of memory");
    }
    cl_format_tree(cl_lroot(t->layout), text, (size_t)n + 1);
    emit(o, "ptr[%zub](%p) o %s:\n", t->elem_size * 8, (void *)t->data, text);
    if (text != small)
      cl_dealloc(text);
  }
  const cl_node *shape = cl_lshape(cl_lroot(t->layout));
  if (cl_is_tuple(shape) && shape->rank == 0) {
    emit_element(o, t, 0); /* rank 0: the one element */
    emit(o, "\n");
  } else {
    print_level(o, t, &mo, mo.rank, 0);
  }
  cl_dealloc(mo.mem);
  if (o->failed)
    return cl_fail(CL_E_DOMAIN, "print_tensor: writing to the stream failed");
  return (int64_t)o->len;
}

int64_t cl_print_tensor(const cl_tensor_t *t, unsigned flags, char *buf, size_t cap) {
  if (t == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print_tensor: NULL argument");
  sink o = {buf, cap, 0, NULL, false};
  int64_t n = print_tensor(t, flags, &o);
  if (cap > 0)
    buf[n >= 0 && (size_t)n < cap ? (size_t)n : (n >= 0 ? cap - 1 : 0)] = '\0';
  return n;
}

int64_t cl_print_tensor_file(const cl_tensor_t *t, unsigned flags, FILE *f) {
  if (t == NULL || f == NULL)
    return cl_fail(CL_E_NULL, "print_tensor: NULL argument");
  sink o = {NULL, 0, 0, f, false};
  return print_tensor(t, flags, &o);
}
