/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_kernels.h: the copy engine's inner kernels, one set per instruction
 * set, chosen at run time.
 *
 * Each set lives in its own translation unit compiled for its instruction
 * set by function attributes (copy_sse2.c, copy_avx2.c, copy_avx512.c; the
 * library itself is built for the baseline of its target), and copy_isa.c
 * picks the best one the processor runs: __builtin_cpu_supports, lowered by
 * the environment variable CUTELAYOUT_COPY_ISA ("avx512", "avx2", "sse2" or
 * "scalar"), which the tests set so that every set runs whatever the
 * processor. */
#ifndef CUTELAYOUT_COPY_KERNELS_H
#define CUTELAYOUT_COPY_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Bytes of a cache line, the unit that tiles load and store whole. */
#define CL_COPY_LINE 64

/* One line tile of E-byte elements, S = 64 / E: for r, c < S, the E bytes
 * at s[r] + soff + c*E go to d[c] + doff + r*E.  S source lines in, S
 * destination lines out.  nt: streaming stores (then every d[c] + doff is
 * aligned to 64 bytes). */
typedef void (*cl_line_tile_fn)(char *const *d, size_t doff, const char *const *s, size_t soff, bool nt);

/* The same tile with evenly spaced rows: source row r at s + r*ss,
 * destination row c at d + c*ds. */
typedef void (*cl_strided_tile_fn)(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, bool nt);
typedef void (*cl_stashed_strip_fn)(char *d, ptrdiff_t ds, const char *s, ptrdiff_t ss, int64_t tiles, bool fetch,
                                    bool nt);
/* n pixels of C channels between a packed side and a planar one (planes
 * `plane` bytes apart): see interleave and deinterleave below. */
typedef void (*cl_channels_fn)(char *d, const char *s, ptrdiff_t plane, int64_t n);
/* n elements of E bytes taken every other one: for w < n, the E bytes at
 * s + 2 w E go to d + w E.  Reads nothing past the last element's end
 * unless `more` says that another element follows it (at s + 2 n E), and
 * then nothing past that one's start. */
typedef void (*cl_compact_fn)(char *d, const char *s, int64_t n, bool more);

typedef struct cl_copy_isa {
  const char *name;
  /* line_tile[k] for elements of 2^k bytes, k = 0..4 (1 to 16 bytes). */
  cl_line_tile_fn line_tile[5];
  /* strided_tile[k]: line_tile[k] for evenly spaced rows; NULL in a set
   * without (then line_tile). */
  cl_strided_tile_fn strided_tile[5];
  /* stashed_strip[k], k = 0, 1: `tiles` strided tiles of 1- and 2-byte
   * elements side by side along the source rows (tile t from s + 64 t to
   * d + t (64 / E) ds), reading each source line once, whole, through a
   * stash (copy_simd.h): for source rows that crowd into few L1 sets.
   * fetch: as many rows again follow at the same spacing (the next strip's),
   * and each tile's lines of them are prefetched into L2 meanwhile.  NULL in
   * a set without. */
  cl_stashed_strip_fn stashed_strip[2];
  /* stashed_pair[k]: the same with two tiles stacked along the destination
   * rows (2 * 64 / E source rows from s, the second tile's from s + 64 / E
   * ss on), each destination row getting its two lines one after the
   * other: 128-byte runs.  NULL in a set without. */
  cl_stashed_strip_fn stashed_pair[2];
  /* stashed_quad[k]: the same with four tiles stacked (4 * 64 / E source
   * rows, each destination row getting four lines in a row: 256-byte
   * runs), for the tall strips of 1- and 2-byte elements (copy_plan.h).
   * NULL in a set without. */
  cl_stashed_strip_fn stashed_quad[2];
  /* narrow_tile[k] for elements of 2^k bytes, k = 0, 1: 16 source rows of
   * one line each to 64 / E destination rows of 16 * E bytes (for r < 16,
   * c < 64 / E: s[r] + soff + c*E to d[c] + doff + r*E); never streams. */
  cl_line_tile_fn narrow_tile[2];
  /* short_tile[k] for elements of 2^k bytes, k = 0..3: the line tile's
   * first 16 bytes of each source row only, 64 / E source rows of 16 / E
   * elements to 16 / E destination lines (for r < 64/E, c < 16/E: s[r] +
   * soff + c*E to d[c] + doff + r*E; nt as for line_tile).  For transposes
   * whose source rows are shorter than a line, and the ragged columns of a
   * longer one, which a whole tile moved back would write almost twice. */
  cl_line_tile_fn short_tile[4];
  /* compact[k]: every other element of 2^k bytes, k = 0..3 (cl_compact_fn):
   * a slice of every second element read whole vectors at a time. */
  cl_compact_fn compact[4];
  /* interleave[k][C - 2] for C = 2, 3, 4 channels of 2^k-byte elements, k =
   * 0..3 (copy_channels.h): for w < n, c < C, the element at s + c*plane +
   * w*E goes to d + (w*C + c)*E (planar to packed, NCHW -> NHWC);
   * deinterleave[k][C - 2] the reverse, s + (w*C + c)*E to d + c*plane +
   * w*E. */
  cl_channels_fn interleave[4][3];
  cl_channels_fn deinterleave[4][3];
  /* n bytes from s to d with streaming stores: d aligned to a line, n a
   * multiple of the line; NULL where the set has no streaming stores. */
  void (*stream_lines)(char *d, const char *s, size_t n);
  /* Orders streamed stores before later ones (sfence); NULL: none needed. */
  void (*fence)(void);
} cl_copy_isa;

extern const cl_copy_isa cl_copy_isa_scalar;
#if defined(__x86_64__) || defined(__i386__)
#define CL_COPY_X86 1
extern const cl_copy_isa cl_copy_isa_sse2;
extern const cl_copy_isa cl_copy_isa_avx2;
extern const cl_copy_isa cl_copy_isa_avx512;
void cl_copy_sfence(void);
#endif

/* The best set for this processor, no higher than CUTELAYOUT_COPY_ISA names
 * (an unknown name is ignored).  Reads the environment on every call. */
const cl_copy_isa *cl_copy_isa_select(void);

#endif
