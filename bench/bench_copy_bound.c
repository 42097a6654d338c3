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
 * lines that way; the shuffles are left out.  Workloads, for N x N
 * row-major -> column-major of 1-, 2-, 4- and 8-byte elements (N = 4096, the
 * `copy` group's transposes, or CUTE_LAYOUT_BENCH_SIDE; the types whose names
 * contain CUTE_LAYOUT_BENCH_ONLY when it is set), named <type>-<N>x<N>-...:
 *   tiles-cached    tile by tile along the source rows, cached stores
 *   tiles-streamed  the same with streaming stores
 *   tiles-dst       tile by tile along the destination rows, streamed
 *   staged-<K>x<M>-<stores>  blocks of K tiles down the source rows by M
 *                   along them gathered in a buffer (source runs of M
 *                   lines), then written as runs of K lines per destination
 *                   row, with streaming or cached stores
 *   best            the fastest of those
 *   library         cl_tensor_copy of that transpose
 *   library-of-best the library's speed over the best pattern's
 * Each ratio is to memcpy of the same bytes timed run for run (bench_compare),
 * so library-of-best compares two figures paired with memcpy in this run.  A
 * processor whose best pattern stays well under memcpy caps every transpose
 * there that walks the lines these ways, whatever its kernels. */
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
/* The matrices' side: 4096, or CUTE_LAYOUT_BENCH_SIDE (a multiple of 1024
 * up to 32768, e.g. 16384 for copies that run from memory). */
static int64_t side = 4096;

#define STAGE_TILES 128 /* 512 KiB: a block stays in L2 */

typedef struct bound_case {
  char *dst, *src;
  int64_t elem, lines; /* lines: 64-byte lines per row (side * elem / 64) */
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

/* The lines of a case, held by value in the timed loops: through a pointer
 * to the case, the compiler would reload them (and divide for S) after
 * every store of a line, which may alias them, and the patterns would be
 * timed with that overhead. */
typedef struct grid {
  char *dst;
  const char *src;
  int64_t S, lines; /* rows per tile (64 / E), 64-byte lines per row */
} grid;

static grid grid_of(const bound_case *c) { return (grid){c->dst, c->src, LINE / c->elem, c->lines}; }

/* Source line (row ti*S + k, line tj) and destination line (row tj*S + k,
 * line ti) of tile (ti, tj). */
static inline const char *src_line(grid g, int64_t ti, int64_t tj, int64_t k) {
  return g.src + ((ti * g.S + k) * g.lines + tj) * LINE;
}
static inline char *dst_line(grid g, int64_t ti, int64_t tj, int64_t k) {
  return g.dst + ((tj * g.S + k) * g.lines + ti) * LINE;
}

static inline void tiles_along(const bound_case *c, int64_t iters, int along_dst, void (*move)(char *, const char *)) {
  const grid g = grid_of(c);
  for (int64_t it = 0; it < iters; it++) {
    for (int64_t a = 0; a < g.lines; a++)
      for (int64_t b = 0; b < g.lines; b++) {
        int64_t ti = along_dst ? b : a, tj = along_dst ? a : b;
        for (int64_t k = 0; k < g.S; k++)
          move(dst_line(g, ti, tj, k), src_line(g, ti, tj, k));
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
  const grid g = grid_of(c);
  const int64_t S = g.S, n = g.lines, K = c->down, M = c->along;
  static _Alignas(LINE) char stage[LINE * LINE * STAGE_TILES];
  for (int64_t it = 0; it < iters; it++) {
    for (int64_t ti = 0; ti + K <= n; ti += K)
      for (int64_t tj = 0; tj + M <= n; tj += M) {
        for (int64_t t = 0; t < K; t++)
          for (int64_t k = 0; k < S; k++)
            memcpy(stage + (t * S + k) * M * LINE, src_line(g, ti + t, tj, k), (size_t)(M * LINE));
        for (int64_t m = 0; m < M; m++)
          for (int64_t k = 0; k < S; k++) {
            char *d = dst_line(g, ti, tj + m, k);
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
    memcpy(c->dst, c->src, (size_t)(side * side * c->elem));
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

/* "<type>-<side>x<side>-<pattern>" */
static void name_of(char *name, size_t cap, const char *type, const char *pattern) {
  snprintf(name, cap, "%s-%lldx%lld-%s", type, (long long)side, (long long)side, pattern);
}

typedef struct figure {
  double gbps, ratio;
} figure;

static figure measure(const char *type, const char *pattern, bench_fn fn, bound_case *c) {
  size_t bytes = (size_t)(side * side * c->elem);
  bench_pair p = bench_compare(run_memcpy, c, fn, c, 1);
  char name[80];
  name_of(name, sizeof name, type, pattern);
  figure f = {2.0 * (double)bytes / p.b * 1e-9, p.ratio};
  bench_report("copy-bound", name, f.gbps, "GB/s", f.ratio, "memcpy");
  return f;
}

/* A sample of the library's transpose against its definition, dst(i, j) =
 * src(i, j): a fast wrong copy is no benchmark. */
static void check_transpose(const char *type, const bound_case *c) {
  run_library((void *)c, 1);
  for (int64_t k = 0; k < side * side; k += 4099) {
    int64_t i = k % side, j = k / side;
    if (memcmp(c->dst + (i + j * side) * c->elem, c->src + (i * side + j) * c->elem, (size_t)c->elem) != 0) {
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
  bound_case c = {dst, src, (int64_t)cl_dtype_size(dtype), side * (int64_t)cl_dtype_size(dtype) / LINE, 0, 0, 0, 0, 0};
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
  char name[80];
  name_of(name, sizeof name, type, "best");
  bench_report("copy-bound", name, best.gbps, "GB/s", best.ratio, "memcpy");

  cl_layout_t *rows, *cols;
  char text[64];
  long long n = (long long)side;
  snprintf(text, sizeof text, "(%lld,%lld):(%lld,1)", n, n, n);
  bench_check(cl_layout_parse(text, &rows), text);
  snprintf(text, sizeof text, "(%lld,%lld):(1,%lld)", n, n, n);
  bench_check(cl_layout_parse(text, &cols), text);
  cl_tensor_t *td, *ts;
  bench_check(cl_tensor_new_typed(dst, dtype, cols, &td), "cl_tensor_new_typed");
  bench_check(cl_tensor_new_typed(src, dtype, rows, &ts), "cl_tensor_new_typed");
  c.tdst = td;
  c.tsrc = ts;
  check_transpose(type, &c);
  figure lib = measure(type, "library", run_library, &c);
  name_of(name, sizeof name, type, "library-of-best");
  bench_report("copy-bound", name, lib.gbps, "GB/s", lib.ratio / best.ratio, "best-pattern");
  cl_tensor_free(td);
  cl_tensor_free(ts);
  cl_layout_free(rows);
  cl_layout_free(cols);
}

void bench_copy_bound(void) {
  const char *given = getenv("CUTE_LAYOUT_BENCH_SIDE");
  if (given != NULL) {
    char *end;
    long long n = strtoll(given, &end, 10);
    if (*given == '\0' || *end != '\0' || n < 1024 || n > 32768 || n % 1024 != 0) {
      fprintf(stderr, "cute-layout-bench: copy-bound: CUTE_LAYOUT_BENCH_SIDE=%s is not a multiple of 1024 from 1024 to 32768\n",
              given);
      exit(2);
    }
    side = n;
  }
  size_t max = (size_t)(side * side * 8);
  char *src = aligned_alloc(LINE, max), *dst = aligned_alloc(LINE, max);
  if (src == NULL || dst == NULL) {
    fprintf(stderr, "cute-layout-bench: copy-bound: out of memory\n");
    exit(1);
  }
  for (size_t k = 0; k < max; k++)
    src[k] = (char)(k * 131 + 7);
  memset(dst, 0, max);
  /* CUTE_LAYOUT_BENCH_ONLY=TEXT: only the types whose names contain TEXT. */
  const char *only = getenv("CUTE_LAYOUT_BENCH_ONLY");
  static const struct {
    const char *name;
    cl_dtype dtype;
  } types[] = {{"u8", CL_DTYPE_UINT8}, {"f16", CL_DTYPE_FLOAT16}, {"f32", CL_DTYPE_FLOAT32}, {"f64", CL_DTYPE_FLOAT64}};
  for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
    if (only == NULL || strstr(types[t].name, only) != NULL)
      bound_type(types[t].name, types[t].dtype, dst, src);
  free(src);
  free(dst);
}
