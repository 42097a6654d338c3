/* SPDX-License-Identifier: BSD-3-Clause */
/* decode.h: layouts from fuzz input bytes, shared by fuzz_algebra.c and
 * fuzz_tensor.c.
 *
 * A layout is decoded as text and parsed, so that the parser's checks apply:
 * at most MAX_LEAVES leaves and MAX_LAYOUT_DEPTH levels, extents mostly
 * 1..8 and strides mostly -8..25, now and then an edge value (0, negatives,
 * 2^31, 2^32, INT64_MAX, INT64_MIN, or any 64-bit value) to reach the
 * overflow paths.  Reading past the end of the input gives zeros. */
#ifndef FUZZ_DECODE_H
#define FUZZ_DECODE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#define MAX_LEAVES 8
#define MAX_LAYOUT_DEPTH 3

typedef struct reader {
  const uint8_t *p;
  size_t n;
} reader;

static inline uint8_t next_byte(reader *r) {
  if (r->n == 0)
    return 0;
  r->n--;
  return *r->p++;
}

static inline int64_t next_i64(reader *r) {
  uint64_t v = 0;
  for (int k = 0; k < 8; k++)
    v = v << 8 | next_byte(r);
  return (int64_t)v;
}

static inline unsigned next_u16(reader *r) {
  unsigned hi = next_byte(r);
  return hi << 8 | next_byte(r);
}

/* Values that reach the edges: zero, negatives, powers of two near the
 * limits of int and int64_t. */
static inline int64_t special_value(reader *r, uint8_t b) {
  switch (b & 7) {
  case 0: return 0;
  case 1: return -1;
  case 2: return -3;
  case 3: return INT64_C(1) << 31;
  case 4: return INT64_C(1) << 32;
  case 5: return INT64_MAX;
  case 6: return INT64_MIN;
  default: return next_i64(r);
  }
}

static inline int64_t next_extent(reader *r) {
  uint8_t b = next_byte(r);
  return b < 0xF0 ? 1 + b % 8 : special_value(r, b);
}

static inline int64_t next_stride(reader *r) {
  uint8_t b = next_byte(r);
  return b < 0xE8 ? (int64_t)(b % 34) - 8 : special_value(r, b);
}

typedef struct text_buf {
  char buf[1024];
  size_t len;
} text_buf;

static inline void put(text_buf *t, const char *s) {
  size_t n = strlen(s);
  if (t->len + n < sizeof t->buf) {
    memcpy(t->buf + t->len, s, n + 1);
    t->len += n;
  }
}

static inline void put_int(text_buf *t, int64_t v) {
  char num[32];
  snprintf(num, sizeof num, "%lld", (long long)v);
  put(t, num);
}

/* One mode of a layout: a leaf, or (rarely) a tuple of 0 to 3 modes. */
static inline void decode_mode(reader *r, int depth, int *leaves, text_buf *shape, text_buf *stride) {
  uint8_t b = next_byte(r);
  bool tuple = depth == 0 ? (b & 1) != 0 : (b & 3) == 0;
  if (!tuple || depth >= MAX_LAYOUT_DEPTH || *leaves >= MAX_LEAVES) {
    (*leaves)++;
    put_int(shape, next_extent(r));
    put_int(stride, next_stride(r));
    return;
  }
  int rank = (b >> 2) % 4;
  put(shape, "(");
  put(stride, "(");
  for (int k = 0; k < rank; k++) {
    if (k > 0) {
      put(shape, ",");
      put(stride, ",");
    }
    decode_mode(r, depth + 1, leaves, shape, stride);
  }
  put(shape, ")");
  put(stride, ")");
}

/* A layout from the input; NULL when its text does not make one (then the
 * target skips the input). */
static inline cl_layout_t *decode_layout(reader *r) {
  text_buf shape = {{0}, 0}, stride = {{0}, 0};
  int leaves = 0;
  decode_mode(r, 0, &leaves, &shape, &stride);
  put(&shape, ":");
  put(&shape, stride.buf);
  cl_layout_t *l = NULL;
  if (cl_layout_parse(shape.buf, &l) != CL_OK)
    return NULL;
  return l;
}

#endif
