/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_avx2.c: the copy kernels with 32-byte AVX2 vectors (copy_simd.h),
 * used only where the processor has AVX2 (copy_isa.c). */
#include "copy_kernels.h"

#ifdef CL_COPY_X86
#include <immintrin.h>

#define CL_SIMD_FN __attribute__((target("avx2")))
#define CL_SIMD_NAME(x) x##_avx2
#define VBYTES 32
typedef __m256i vec;
#define load(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define load16(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
/* Two rows in the two lanes: the lane-crossing step of the transpose. */
#define load_lanes(ROW, r, k, c) \
  _mm256_inserti128_si256(_mm256_castsi128_si256(load16(ROW(r) + (c))), load16(ROW((r) + (k)) + (c)), 1)
#define store(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define stream(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (v))
#define store_lane(p, v, L)                                                                     \
  _mm_storeu_si128((__m128i *)(void *)(p), (L) ? _mm256_extracti128_si256((v), 1) : _mm256_castsi256_si128(v))
#define unpacklo_8 _mm256_unpacklo_epi8
#define unpackhi_8 _mm256_unpackhi_epi8
#define unpacklo_16 _mm256_unpacklo_epi16
#define unpackhi_16 _mm256_unpackhi_epi16
#define unpacklo_32 _mm256_unpacklo_epi32
#define unpackhi_32 _mm256_unpackhi_epi32
#define unpacklo_64 _mm256_unpacklo_epi64
#define unpackhi_64 _mm256_unpackhi_epi64
/* evens_N: a pack (exact: each kept element is first masked or sign-extended
 * to fit), a shuffle or an unpack within lanes; the lanes' halves are then
 * put in order across them. */
#define evens_8(a, b) _mm256_packus_epi16(_mm256_and_si256((a), _mm256_set1_epi16(0xFF)), _mm256_and_si256((b), _mm256_set1_epi16(0xFF)))
#define evens_16(a, b) _mm256_packs_epi32(_mm256_srai_epi32(_mm256_slli_epi32((a), 16), 16), _mm256_srai_epi32(_mm256_slli_epi32((b), 16), 16))
#define evens_32(a, b) _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), 0x88))
#define evens_64(a, b) _mm256_unpacklo_epi64((a), (b))
#define halves_in_order(v) _mm256_permute4x64_epi64((v), 0xD8)
#include "copy_simd.h"
#include "copy_channels.h"

const cl_copy_isa cl_copy_isa_avx2 = {
    "avx2",
    {line_tile1_avx2, line_tile2_avx2, line_tile4_avx2, line_tile8_avx2, line_tile16_avx2},
    {NULL, NULL, NULL, NULL, NULL}, /* pointer tiles only: see copy_simd.h */
    {NULL, NULL},
    {NULL, NULL},
    {NULL, NULL},
    {narrow_tile1_avx2, narrow_tile2_avx2},
    {short_tile1_avx2, short_tile2_avx2, short_tile4_avx2, short_tile8_avx2},
    {compact1_avx2, compact2_avx2, compact4_avx2, compact8_avx2},
    CL_CHANNELS_TABLE(interleave),
    CL_CHANNELS_TABLE(deinterleave),
    stream_lines_avx2,
    cl_copy_sfence,
};
#else
typedef int cl_copy_avx2_unused; /* not an x86 target: no AVX2 kernels */
#endif
