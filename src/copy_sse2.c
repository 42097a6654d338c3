/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_sse2.c: the copy kernels with 16-byte SSE2 vectors (copy_simd.h). */
#include "copy_kernels.h"

#ifdef CL_COPY_X86
#include <emmintrin.h>

#define CL_SIMD_FN __attribute__((target("sse2")))
#define CL_SIMD_NAME(x) x##_sse2
#define VBYTES 16
typedef __m128i vec;
#define load(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define load_lanes(ROW, r, k, c) load(ROW(r) + (c))
#define store(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define stream(p, v) _mm_stream_si128((__m128i *)(void *)(p), (v))
#define store_lane(p, v, L) store(p, v)
#define unpacklo_8 _mm_unpacklo_epi8
#define unpackhi_8 _mm_unpackhi_epi8
#define unpacklo_16 _mm_unpacklo_epi16
#define unpackhi_16 _mm_unpackhi_epi16
#define unpacklo_32 _mm_unpacklo_epi32
#define unpackhi_32 _mm_unpackhi_epi32
#define unpacklo_64 _mm_unpacklo_epi64
#define unpackhi_64 _mm_unpackhi_epi64
#include "copy_simd.h"
#include "copy_channels.h"

/* Streamed stores are weakly ordered: this publishes them (both sets). */
CL_SIMD_FN void cl_copy_sfence(void) { _mm_sfence(); }

const cl_copy_isa cl_copy_isa_sse2 = {
    "sse2",
    {line_tile1_sse2, line_tile2_sse2, line_tile4_sse2, line_tile8_sse2, line_tile16_sse2},
    {NULL, NULL, NULL, NULL, NULL}, /* pointer tiles only: see copy_simd.h */
    {NULL, NULL},
    {NULL, NULL},
    {narrow_tile1_sse2, narrow_tile2_sse2},
    CL_CHANNELS_TABLE(interleave),
    CL_CHANNELS_TABLE(deinterleave),
    stream_lines_sse2,
    cl_copy_sfence,
};
#else
typedef int cl_copy_sse2_unused; /* not an x86 target: no SSE2 kernels */
#endif
