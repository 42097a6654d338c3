/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_copy_bound.c: the `copy-bound` group of cute-layout-bench: what the
 * memory traffic of a transpose costs on this processor, without the
 * transposing, next to what the library's transpose reaches in the same run.
 *
 * A transpose of 64/E x 64/E tiles of E-byte elements reads 64/E source lines
 * and writes 64/E destination lines per tile, whatever moves the elements
 * between them.  Each pattern here moves exactly those lines, line for line
 * (source line k of a tile to destination line k), in one of the orders a
 * transpose can take, so its time is a bound on any transpose walking the
 * lines that way; the shuffles are left out.  Workloads, for 4096 x 4096
 * row-major -> column-major of 1-, 2-, 4- and 8-byte elements (the `copy`
 * group's transposes):
 *   <type>-tiles-cached    tile by tile along the source rows, cached stores
 *   <type>-tiles-streamed  the same with streaming stores
 *   <type>-tiles-dst       tile by tile along the destination rows, streamed
 *   <type>-staged-<K>x<M>-<stores>  blocks of K tiles down the source rows by
 *                          M along them gathered in a buffer (source runs of
 *                          M lines), then written as runs of K lines per
 *                          destination row, with streaming or cached stores
 *   <type>-best            the fastest of those
 *   <type>-library         cl_tensor_copy of that transpose
 * Each ratio is to memcpy of the same bytes timed run for run (bench_compare);
 * a last line gives the library's time over the best pattern's, both paired
 * with memcpy in this run.  A processor whose best pattern stays well under
 * memcpy caps every transpose there, whatever its kernels. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <cutelayout/cutelayout.h>

#include "bench_util.h"

#define LINE 64
#define SIDE 4096
#define STAGE_TILES 128 /* 512 KiB: a block stays in L2 */

typedef struct bound_case {
  char *dst, *src;
  int64_t elem, lines; /* lines: 64-byte lines per row (SIDE * elem / 64) */
  int down, along;     /* staged: a block's tiles down and along the source rows */
  int streamed;        /* staged: streaming stores */
  const cl_tensor_t *tdst, *tsrc;
} bound_case;

static inline void line_cached(char *d, const char *s) { memcpy(d, s, LINE); }

/* A whole line written around the caches where the platform has the stores
 * for it (x86-64 always does); cached stores elsewhere. */
static inline void line_streamed(char *d, const char *s) {
#if defined(__SSE2__)
  for (int k = 0; k < LINE; k += 16)
    _mm_stream_si128((__m128i *)(void *)(d + k), _mm_loadu_si128((const __m128i *)(const void *)(s + k)));
#else
  memcpy(d, s, LINE);
#endif
}

static void fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

/* Source line (row ti*S + k, line tj) and destination line (row tj*S + k,
 * line ti) of tile (ti, tj), S = 64 / E rows per tile. */
static const char *src_line(const bound_case *c, int64_t ti, int64_t tj, int64_t k) {
  int64_t S = LINE / c->elem;
  return c->src + ((ti * S + k) * c->lines + tj) * LINE;
}
static char *dst_line(const bound_case *c, int64_t ti, int64_t tj, int64_t k) {
  int64_t S = LINE / c->elem;
  return c->dst + ((tj * S + k) * c->lines + ti) * LINE;
}

static inline void tiles_along(const bound_case *c, int64_t iters, int along_dst, void (*move)(char *, const char *)) {
  int64_t S = LINE / c->elem, n = c->lines;
  for (int64_t it = 0; it < iters; it++) {
    for (int64_t a = 0; a < n; a++)
      for (int64_t b = 0; b < n; b++) {
        int64_t ti = along_dst ? b : a, tj = along_dst ? a : b;
        for (int64_t k = 0; k < S; k++)
          move(dst_line(c, ti, tj, k), src_line(c, ti, tj, k));
      }
    fence();
    bench_clobber();
  }
}

static void run_tiles_cached(void *ctx, int64_t iters) { tiles_along(ctx, iters, 0, line_cached); }
static void run_tiles_streamed(void *ctx, int64_t iters) { tiles_along(ctx, iters, 0, line_streamed); }
static void run_tiles_dst(void *ctx, int64_t iters) { tiles_along(ctx, iters, 1, line_streamed); }

/* A block of K tiles down the source rows by M tiles along them: each of
 * the block's source rows read as one run of M lines into a buffer, then
 * each of its destination rows written as one run of K lines. */
static inline void staged(const bound_case *c, int64_t iters, void (*store)(char *, const char *)) {
  int64_t S = LINE / c->elem, n = c->lines, K = c->down, M = c->along;
  static _Alignas(LINE) char stage[LINE * LINE * STAGE_TILES];
  for (int64_t it = 0; it < iters; it++) {
    for (int64_t ti = 0; ti + K <= n; ti += K)
      for (int64_t tj = 0; tj + M <= n; tj += M) {
        for (int64_t t = 0; t < K; t++)
          for (int64_t k = 0; k < S; k++)
            memcpy(stage + (t * S + k) * M * LINE, src_line(c, ti + t, tj, k), (size_t)(M * LINE));
        for (int64_t m = 0; m < M; m++)
          for (int64_t k = 0; k < S; k++) {
            char *d = dst_line(c, ti, tj + m, k);
            for (int64_t t = 0; t < K; t++)
              store(d + t * LINE, stage + ((t * S + k) * M + m) * LINE);
          }
      }
    fence();
    bench_clobber();
  }
}

static void run_staged(void *ctx, int64_t iters) {
  const bound_case *c = ctx;
  if (c->streamed)
    staged(c, iters, line_streamed);
  else
    staged(c, iters, line_cached);
}

static void run_memcpy(void *ctx, int64_t iters) {
  const bound_case *c = ctx;
  for (int64_t it = 0; it < iters; it++) {
    memcpy(c->dst, c->src, (size_t)SIDE * SIDE * (size_t)c->elem);
    bench_clobber();
  }
}

static void run_library(void *ctx, int64_t iters) {
  const bound_case *c = ctx;
  for (int64_t it = 0; it < iters; it++) {
    bench_check(cl_tensor_copy(c->tdst, c->tsrc), "cl_tensor_copy");
    bench_clobber();
  }
}

typedef struct figure {
  double gbps, ratio;
} figure;

static figure measure(const char *type, const char *pattern, bench_fn fn, bound_case *c) {
  size_t bytes = (size_t)SIDE * SIDE * (size_t)c->elem;
  bench_pair p = bench_compare(run_memcpy, c, fn, c, 1);
  char name[64];
  snprintf(name, sizeof name, "%s-%s", type, pattern);
  figure f = {2.0 * (double)bytes / p.b * 1e-9, p.ratio};
  bench_report("copy-bound", name, f.gbps, "GB/s", f.ratio, "memcpy");
  return f;
}

/* A sample of the library's transpose against its definition, dst(i, j) =
 * src(i, j): a fast wrong copy is no benchmark. */
static void check_transpose(const char *type, const bound_case *c) {
  run_library((void *)c, 1);
  for (int64_t k = 0; k < (int64_t)SIDE * SIDE; k += 4099) {
    int64_t i = k % SIDE, j = k / SIDE;
    if (memcmp(c->dst + (i + j * SIDE) * c->elem, c->src + (i * SIDE + j) * c->elem, (size_t)c->elem) != 0) {
      fprintf(stderr, "cute-layout-bench: copy-bound/%s-library is wrong at (%lld,%lld)\n", type, (long long)i,
              (long long)j);
      exit(1);
    }
  }
}

static void keep_faster(figure *best, figure f) {
  if (f.ratio > best->ratio)
    *best = f;
}

static void bound_type(const char *type, cl_dtype dtype, char *dst, char *src) {
  bound_case c = {dst, src, (int64_t)cl_dtype_size(dtype), SIDE * (int64_t)cl_dtype_size(dtype) / LINE, 0, 0, 0, 0, 0};
  figure best = measure(type, "tiles-cached", run_tiles_cached, &c);
  keep_faster(&best, measure(type, "tiles-streamed", run_tiles_streamed, &c));
  keep_faster(&best, measure(type, "tiles-dst", run_tiles_dst, &c));
  static const struct {
    int down, along, streamed;
  } blocks[] = {{16, 1, 1}, {4, 4, 1}, {8, 4, 1}, {8, 4, 0}, {8, 8, 1}, {16, 8, 1}, {8, 16, 1}};
  for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
    char pattern[32];
    c.down = blocks[b].down;
    c.along = blocks[b].along;
    c.streamed = blocks[b].streamed;
    snprintf(pattern, sizeof pattern, "staged-%dx%d-%s", c.down, c.along, c.streamed ? "streamed" : "cached");
    keep_faster(&best, measure(type, pattern, run_staged, &c));
  }
  char name[64];
  snprintf(name, sizeof name, "%s-best", type);
  bench_report("copy-bound", name, best.gbps, "GB/s", best.ratio, "memcpy");

  cl_layout_t *rows, *cols;
  char text[64];
  snprintf(text, sizeof text, "(%d,%d):(%d,1)", SIDE, SIDE, SIDE);
  bench_check(cl_layout_parse(text, &rows), text);
  snprintf(text, sizeof text, "(%d,%d):(1,%d)", SIDE, SIDE, SIDE);
  bench_check(cl_layout_parse(text, &cols), text);
  cl_tensor_t *td, *ts;
  bench_check(cl_tensor_new_typed(dst, dtype, cols, &td), "cl_tensor_new_typed");
  bench_check(cl_tensor_new_typed(src, dtype, rows, &ts), "cl_tensor_new_typed");
  c.tdst = td;
  c.tsrc = ts;
  check_transpose(type, &c);
  figure lib = measure(type, "library", run_library, &c);
  snprintf(name, sizeof name, "%s-library-of-best", type);
  bench_report("copy-bound", name, lib.gbps, "GB/s", lib.ratio / best.ratio, "best-pattern");
  cl_tensor_free(td);
  cl_tensor_free(ts);
  cl_layout_free(rows);
  cl_layout_free(cols);
}

void bench_copy_bound(void) {
  size_t max = (size_t)SIDE * SIDE * 8;
  char *src = aligned_alloc(LINE, max), *dst = aligned_alloc(LINE, max);
  if (src == NULL || dst == NULL) {
    fprintf(stderr, "cute-layout-bench: copy-bound: out of memory\n");
    exit(1);
  }
  for (size_t k = 0; k < max; k++)
    src[k] = (char)(k * 131 + 7);
  memset(dst, 0, max);
  bound_type("u8", CL_DTYPE_UINT8, dst, src);
  bound_type("f16", CL_DTYPE_FLOAT16, dst, src);
  bound_type("f32", CL_DTYPE_FLOAT32, dst, src);
  bound_type("f64", CL_DTYPE_FLOAT64, dst, src);
  free(src);
  free(dst);
}
