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
#define evens_8(a, b) _mm_packus_epi16(_mm_and_si128((a), _mm_set1_epi16(0xFF)), _mm_and_si128((b), _mm_set1_epi16(0xFF)))
#define evens_16(a, b) _mm_packs_epi32(_mm_srai_epi32(_mm_slli_epi32((a), 16), 16), _mm_srai_epi32(_mm_slli_epi32((b), 16), 16))
#define evens_32(a, b) _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), 0x88))
#define evens_64(a, b) _mm_unpacklo_epi64((a), (b))
#define halves_in_order(v) (v)
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
    {NULL, NULL},
    {narrow_tile1_sse2, narrow_tile2_sse2},
    {short_tile1_sse2, short_tile2_sse2, short_tile4_sse2, short_tile8_sse2},
    {compact1_sse2, compact2_sse2, compact4_sse2, compact8_sse2},
    CL_CHANNELS_TABLE(interleave),
    CL_CHANNELS_TABLE(deinterleave),
    stream_lines_sse2,
    cl_copy_sfence,
};
#else
typedef int cl_copy_sse2_unused; /* not an x86 target: no SSE2 kernels */
#endif
