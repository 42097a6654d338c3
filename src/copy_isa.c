/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_isa.c: the scalar copy kernels, and the choice of a kernel set by
 * processor and environment (copy_kernels.h). */
#include <stdlib.h>
#include <string.h>

#include "copy_kernels.h"

/* A line tile one element at a time: what every other set computes. */
#define CL_DEFINE_SCALAR_TILE(E)                                                                   \
  static void line_tile##E##_scalar(char *const *d, size_t doff, const char *const *s, size_t soff, \
                                    bool nt) {                                                     \
    (void)nt;                                                                                      \
    for (int c = 0; c < CL_COPY_LINE / (E); c++)                                                   \
      for (int r = 0; r < CL_COPY_LINE / (E); r++)                                                 \
        memcpy(d[c] + doff + (size_t)r * (E), s[r] + soff + (size_t)c * (E), (E));                 \
  }
CL_DEFINE_SCALAR_TILE(1)
CL_DEFINE_SCALAR_TILE(2)
CL_DEFINE_SCALAR_TILE(4)
CL_DEFINE_SCALAR_TILE(8)
CL_DEFINE_SCALAR_TILE(16)

/* A narrow tile (copy_kernels.h) one element at a time. */
#define CL_DEFINE_SCALAR_NARROW(E)                                                                  \
  static void narrow_tile##E##_scalar(char *const *d, size_t doff, const char *const *s, size_t soff, \
                                      bool nt) {                                                     \
    (void)nt;                                                                                        \
    for (int c = 0; c < CL_COPY_LINE / (E); c++)                                                     \
      for (int r = 0; r < 16; r++)                                                                   \
        memcpy(d[c] + doff + (size_t)r * (E), s[r] + soff + (size_t)c * (E), (E));                   \
  }
CL_DEFINE_SCALAR_NARROW(1)
CL_DEFINE_SCALAR_NARROW(2)

/* A short tile (copy_kernels.h) one element at a time. */
#define CL_DEFINE_SCALAR_SHORT(E)                                                                  \
  static void short_tile##E##_scalar(char *const *d, size_t doff, const char *const *s, size_t soff, \
                                     bool nt) {                                                     \
    (void)nt;                                                                                       \
    for (int c = 0; c < 16 / (E); c++)                                                              \
      for (int r = 0; r < CL_COPY_LINE / (E); r++)                                                  \
        memcpy(d[c] + doff + (size_t)r * (E), s[r] + soff + (size_t)c * (E), (E));                  \
  }
CL_DEFINE_SCALAR_SHORT(1)
CL_DEFINE_SCALAR_SHORT(2)
CL_DEFINE_SCALAR_SHORT(4)
CL_DEFINE_SCALAR_SHORT(8)

/* Every other element (cl_compact_fn), one at a time. */
#define CL_DEFINE_SCALAR_COMPACT(E)                                          \
  static void compact##E##_scalar(char *d, const char *s, int64_t n, bool more) { \
    (void)more;                                                              \
    for (int64_t w = 0; w < n; w++)                                          \
      memcpy(d + w * (E), s + 2 * w * (E), (E));                             \
  }
CL_DEFINE_SCALAR_COMPACT(1)
CL_DEFINE_SCALAR_COMPACT(2)
CL_DEFINE_SCALAR_COMPACT(4)
CL_DEFINE_SCALAR_COMPACT(8)

/* The few-channel kernels as the compiler makes them for the library's
 * baseline target. */
#define CL_SIMD_FN
#define CL_SIMD_NAME(x) x##_scalar
#include "copy_channels.h"

const cl_copy_isa cl_copy_isa_scalar = {
    "scalar",
    {line_tile1_scalar, line_tile2_scalar, line_tile4_scalar, line_tile8_scalar, line_tile16_scalar},
    {NULL, NULL, NULL, NULL, NULL},
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL},
    {narrow_tile1_scalar, narrow_tile2_scalar},
    {short_tile1_scalar, short_tile2_scalar, short_tile4_scalar, short_tile8_scalar},
    {compact1_scalar, compact2_scalar, compact4_scalar, compact8_scalar},
    CL_CHANNELS_TABLE(interleave),
    CL_CHANNELS_TABLE(deinterleave),
    NULL,
    NULL,
};

/* The sets from the lowest up, each with the processor features it needs. */
static const char *const set_names[] = {"scalar", "sse2", "avx2", "avx512"};

/* The index in set_names of the highest set CUTELAYOUT_COPY_ISA allows: all
 * when it is unset or names none of them. */
static int set_cap(void) {
  const char *cap = getenv("CUTELAYOUT_COPY_ISA");
  int n = (int)(sizeof set_names / sizeof set_names[0]);
  for (int k = 0; cap != NULL && k < n; k++)
    if (strcmp(cap, set_names[k]) == 0)
      return k;
  return n - 1;
}

const cl_copy_isa *cl_copy_isa_select(void) {
  int cap = set_cap();
#ifdef CL_COPY_X86
  __builtin_cpu_init();
  if (cap >= 3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw"))
    return &cl_copy_isa_avx512;
  if (cap >= 2 && __builtin_cpu_supports("avx2"))
    return &cl_copy_isa_avx2;
  if (cap >= 1 && __builtin_cpu_supports("sse2"))
    return &cl_copy_isa_sse2;
#endif
  return &cl_copy_isa_scalar;
}
