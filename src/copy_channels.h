/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_channels.h: the few-channel kernels (cl_copy_isa's interleave and
 * deinterleave: an image's pixels of 2 to 4 channels, NCHW <-> NHWC),
 * written once as plain loops, included by each kernel set's translation
 * unit after it defines CL_SIMD_FN (its target) and CL_SIMD_NAME(x).
 *
 * Each kernel moves C channels of E-byte elements, C and E constants, so
 * the compiler turns the loop into whole-vector loads and stores with
 * shuffles between them for the unit's target (one channel per vector
 * in, C vectors of whole pixels out, or the reverse): the element at a
 * time these copies took otherwise ran at a twentieth of memcpy.  The
 * loop goes in blocks of CL_CHANNEL_BLOCK pixels, a count known when
 * compiling, and the pointers are restrict (a copy's dst never overlaps
 * its src), so no run-time checks of count or overlap stand in the way.
 * Elements are read through types of alignment 1: a tensor's data need
 * not be aligned to its elements. */

#include <stddef.h>
#include <stdint.h>

#ifndef CL_CHANNEL_TYPES
#define CL_CHANNEL_TYPES
typedef uint8_t cl_ch1 __attribute__((aligned(1), may_alias));
typedef uint16_t cl_ch2 __attribute__((aligned(1), may_alias));
typedef uint32_t cl_ch4 __attribute__((aligned(1), may_alias));
typedef uint64_t cl_ch8 __attribute__((aligned(1), may_alias));
#define CL_CHANNEL_BLOCK 64
/* GCC vectorizes these loops at -O2 only with its dynamic cost model (its
 * -O2 default, "very cheap", declines the shuffles); clang does at -O2. */
#if defined(__GNUC__) && !defined(__clang__)
#define CL_CHANNEL_OPT __attribute__((optimize("tree-loop-vectorize", "vect-cost-model=dynamic")))
#else
#define CL_CHANNEL_OPT
#endif
#endif

/* Pixel w's channel c is element w*C + c of the packed side and element w
 * of plane c of the planar side (planes `plane` bytes apart).  The planes
 * beyond C point at plane 0 and are never touched. */
#define CL_CHANNEL_PLANES(T, C, Q, base)                                                            \
  Q T *restrict p0 = (Q T *)(Q void *)(base);                                                      \
  Q T *restrict p1 = (Q T *)(Q void *)((base) + plane);                                            \
  Q T *restrict p2 = (Q T *)(Q void *)((base) + ((C) > 2 ? 2 : 0) * plane);                        \
  Q T *restrict p3 = (Q T *)(Q void *)((base) + ((C) > 3 ? 3 : 0) * plane)

/* MOVE(packed element, planar element) for each channel of pixel k. */
#define CL_CHANNEL_PIXEL(C, MOVE, k) \
  do {                               \
    MOVE(x[(k) * (C)], p0[k]);       \
    MOVE(x[(k) * (C) + 1], p1[k]);   \
    if ((C) > 2)                     \
      MOVE(x[(k) * (C) + 2], p2[k]); \
    if ((C) > 3)                     \
      MOVE(x[(k) * (C) + 3], p3[k]); \
  } while (0)

/* The pixels [0, n), a block at a time, then the rest. */
#define CL_CHANNEL_LOOP(C, MOVE)                                                                    \
  int64_t w = 0;                                                                                   \
  for (; w + CL_CHANNEL_BLOCK <= n; w += CL_CHANNEL_BLOCK, x += CL_CHANNEL_BLOCK * (C), p0 += CL_CHANNEL_BLOCK, \
                                    p1 += CL_CHANNEL_BLOCK, p2 += CL_CHANNEL_BLOCK, p3 += CL_CHANNEL_BLOCK)   \
    for (int k = 0; k < CL_CHANNEL_BLOCK; k++)                                                     \
      CL_CHANNEL_PIXEL(C, MOVE, k);                                                                \
  for (int64_t k = 0; k < n - w; k++)                                                              \
  CL_CHANNEL_PIXEL(C, MOVE, k)

#define CL_TO_PACKED(packed, planar) ((packed) = (planar))
#define CL_TO_PLANAR(packed, planar) ((planar) = (packed))

/* interleave: planar src (planes `plane` bytes apart) to packed dst;
 * deinterleave: packed src to planar dst. */
#define CL_DEFINE_CHANNELS(C, E)                                                                    \
  CL_SIMD_FN CL_CHANNEL_OPT static void CL_SIMD_NAME(interleave##C##x##E)(char *d, const char *s, ptrdiff_t plane, \
                                                                         int64_t n) {              \
    cl_ch##E *restrict x = (cl_ch##E *)(void *)d;                                                  \
    CL_CHANNEL_PLANES(cl_ch##E, C, const, s);                                                      \
    CL_CHANNEL_LOOP(C, CL_TO_PACKED);                                                              \
  }                                                                                                \
  CL_SIMD_FN CL_CHANNEL_OPT static void CL_SIMD_NAME(deinterleave##C##x##E)(char *d, const char *s, ptrdiff_t plane, \
                                                                           int64_t n) {            \
    const cl_ch##E *restrict x = (const cl_ch##E *)(const void *)s;                                \
    CL_CHANNEL_PLANES(cl_ch##E, C, , d);                                                           \
    CL_CHANNEL_LOOP(C, CL_TO_PLANAR);                                                              \
  }

#define CL_DEFINE_CHANNELS_OF(E) CL_DEFINE_CHANNELS(2, E) CL_DEFINE_CHANNELS(3, E) CL_DEFINE_CHANNELS(4, E)
CL_DEFINE_CHANNELS_OF(1)
CL_DEFINE_CHANNELS_OF(2)
CL_DEFINE_CHANNELS_OF(4)
CL_DEFINE_CHANNELS_OF(8)

/* The initializer of a set's interleave or deinterleave table. */
#define CL_CHANNELS_ROW(NAME, E) {CL_SIMD_NAME(NAME##2x##E), CL_SIMD_NAME(NAME##3x##E), CL_SIMD_NAME(NAME##4x##E)}
#define CL_CHANNELS_TABLE(NAME)                                                                     \
  {CL_CHANNELS_ROW(NAME, 1), CL_CHANNELS_ROW(NAME, 2), CL_CHANNELS_ROW(NAME, 4), CL_CHANNELS_ROW(NAME, 8)}

#undef CL_CHANNEL_PLANES
#undef CL_CHANNEL_PIXEL
#undef CL_CHANNEL_LOOP
#undef CL_TO_PACKED
#undef CL_TO_PLANAR
#undef CL_DEFINE_CHANNELS
#undef CL_DEFINE_CHANNELS_OF
