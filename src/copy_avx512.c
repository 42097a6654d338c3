/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_avx512.c: the copy kernels with 64-byte AVX-512 vectors (copy_simd.h),
 * used only where the processor has AVX-512F and AVX-512BW (copy_isa.c).
 * A vector is a whole cache line, so a line tile stores each destination
 * line with one store; its four 16-byte lanes come from four source rows
 * (load_lanes), so the loads do the lane-crossing part of the transpose.
 * Only this set has the strided and stashed tiles (copy_simd.h): here they
 * make the byte transpose about 10% faster on Sapphire Rapids, where in
 * AVX2 and SSE2 they were slower; with the line tiles alone this set
 * measured the same as AVX2 (docs/performance.md, "Copies"). */
#include "copy_kernels.h"

#ifdef CL_COPY_X86
#include <immintrin.h>

#define CL_SIMD_FN __attribute__((target("avx512f,avx512bw")))
#define CL_SIMD_NAME(x) x##_avx512
#define VBYTES 64
typedef __m512i vec;
#define load(p) _mm512_loadu_si512((const void *)(p))
#define load16(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
/* Four rows in the four lanes: lane 0 loaded, lanes 1-3 broadcast from
 * memory under a mask.  A masked broadcast is a load and a blend that may
 * run on port 0, where an insert would be a shuffle on port 5, which the
 * in-lane transposes already keep busy. */
#define load_lanes(ROW, r, k, c)                                                                           \
  _mm512_mask_broadcast_i32x4(                                                                             \
      _mm512_mask_broadcast_i32x4(_mm512_mask_broadcast_i32x4(_mm512_castsi128_si512(load16(ROW(r) + (c))), \
                                                              0x00F0, load16(ROW((r) + (k)) + (c))),       \
                                  0x0F00, load16(ROW((r) + 2 * (k)) + (c))),                               \
      0xF000, load16(ROW((r) + 3 * (k)) + (c)))
#define store(p, v) _mm512_storeu_si512((void *)(p), (v))
#define stream(p, v) _mm512_stream_si512((void *)(p), (v))
/* L is a loop index: the lane is picked by a constant in each branch. */
#define store_lane(p, v, L)                                                                           \
  _mm_storeu_si128((__m128i *)(void *)(p), (L) == 0   ? _mm512_castsi512_si128(v)                     \
                                           : (L) == 1 ? _mm512_extracti32x4_epi32((v), 1)             \
                                           : (L) == 2 ? _mm512_extracti32x4_epi32((v), 2)             \
                                                      : _mm512_extracti32x4_epi32((v), 3))
#define unpacklo_8 _mm512_unpacklo_epi8
#define unpackhi_8 _mm512_unpackhi_epi8
#define unpacklo_16 _mm512_unpacklo_epi16
#define unpackhi_16 _mm512_unpackhi_epi16
#define unpacklo_32 _mm512_unpacklo_epi32
#define unpackhi_32 _mm512_unpackhi_epi32
#define unpacklo_64 _mm512_unpacklo_epi64
#define unpackhi_64 _mm512_unpackhi_epi64
/* evens_N as in copy_avx2.c, on four lanes. */
#define evens_8(a, b) _mm512_packus_epi16(_mm512_and_si512((a), _mm512_set1_epi16(0xFF)), _mm512_and_si512((b), _mm512_set1_epi16(0xFF)))
#define evens_16(a, b) _mm512_packs_epi32(_mm512_srai_epi32(_mm512_slli_epi32((a), 16), 16), _mm512_srai_epi32(_mm512_slli_epi32((b), 16), 16))
#define evens_32(a, b) _mm512_castps_si512(_mm512_shuffle_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), 0x88))
#define evens_64(a, b) _mm512_unpacklo_epi64((a), (b))
#define halves_in_order(v) _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), (v))
/* v[c] = column c of the 8 x 8 elements of 8 bytes in rows v[0..8): pairs
 * of rows interleaved, then 16-byte lanes gathered from rows two apart,
 * then from rows four apart (24 shuffles).  Writing an element's place as
 * the bits (row, column), each stage swaps a row bit with a column bit. */
CL_SIMD_FN static inline void lines_transpose8(vec *v) {
  vec t[8], u[8];
  for (int k = 0; k < 8; k += 2) {
    t[k] = _mm512_unpacklo_epi64(v[k], v[k + 1]); /* rows k, k+1 at columns 0, 2, 4, 6 */
    t[k + 1] = _mm512_unpackhi_epi64(v[k], v[k + 1]); /* ... at columns 1, 3, 5, 7 */
  }
  for (int k = 0; k < 8; k += 4)
    for (int h = 0; h < 2; h++) {
      u[k + h] = _mm512_shuffle_i64x2(t[k + h], t[k + h + 2], 0x88);     /* lanes 0, 2 of each */
      u[k + h + 2] = _mm512_shuffle_i64x2(t[k + h], t[k + h + 2], 0xDD); /* lanes 1, 3 of each */
    }
  for (int c = 0; c < 4; c++) {
    v[c] = _mm512_shuffle_i64x2(u[c], u[c + 4], 0x88);
    v[c + 4] = _mm512_shuffle_i64x2(u[c], u[c + 4], 0xDD);
  }
}
#define CL_SIMD_LINES8 1
#define CL_SIMD_STRIDED 1
#include "copy_simd.h"
#include "copy_channels.h"

const cl_copy_isa cl_copy_isa_avx512 = {
    "avx512",
    {line_tile1_avx512, line_tile2_avx512, line_tile4_avx512, line_tile8_avx512, line_tile16_avx512},
    {strided_tile1_avx512, strided_tile2_avx512, strided_tile4_avx512, strided_tile8_avx512, strided_tile16_avx512},
    {stashed_strip1_avx512, stashed_strip2_avx512},
    {stashed_pair1_avx512, stashed_pair2_avx512},
    {stashed_quad1_avx512, stashed_quad2_avx512},
    {narrow_tile1_avx512, narrow_tile2_avx512},
    {short_tile1_avx512, short_tile2_avx512, short_tile4_avx512, short_tile8_avx512},
    {compact1_avx512, compact2_avx512, compact4_avx512, compact8_avx512},
    CL_CHANNELS_TABLE(interleave),
    CL_CHANNELS_TABLE(deinterleave),
    stream_lines_avx512,
    cl_copy_sfence,
};
#else
typedef int cl_copy_avx512_unused; /* not an x86 target: no AVX-512 kernels */
#endif
