/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_copy.c: the `copy` group of cute-layout-bench: cl_tensor_copy between
 * large tensors (16 Mi elements, or 4096 x 4096 of each element type).
 *
 * Workloads (float32 unless the name ends in the element type):
 *   contig-4096x4096      column-major -> column-major: one copy after the
 *                         joint coalesce
 *   transpose-4096x4096   column-major -> row-major (-u8, -f16, -f64: the
 *                         same for 1-, 2- and 8-byte elements)
 *   transpose-4000x4000   the same with rows of 4000 elements (16000 bytes,
 *                         not a power of two)
 *   permute-64^4-3102     row-major 64x64x64x64 -> its transpose(3,1,0,2),
 *                         row-major (numpy's a.transpose(3,1,0,2).copy())
 *   permute-256^3-201     row-major 256^3 -> its transpose(2,0,1), row-major
 *                         (-u8, -f16, -f64: the same for 1-, 2- and 8-byte
 *                         elements)
 *   hier-ldiv32-rowmajor  logical_divide(make_layout((4096,4096)),(32,32)),
 *                         ((32,128),(32,128)):((1,32),(4096,131072)), -> the
 *                         row-major layout of that same shape, which puts
 *                         each 32x32 tile's elements together
 *
 * Figures are GB/s counting the bytes read plus the bytes written.  Each
 * workload's ratio is to memcpy of the same bytes, timed run for run with
 * the copy in the same process (bench_compare: the median of the paired
 * ratios).  The float32 workloads of the first version also print the ratio
 * to a naive loop that evaluates both layouts with cl_layout_eval for every
 * element (median of three runs: it is slow).  Each workload also prints
 * the speed-up of the copy split between threads (cl_copy_options_t's
 * threads; CUTE_LAYOUT_BENCH_THREADS, default 2, 1 for none) over the copy
 * on one thread, timed run for run.  bench/numpy_copy.py times numpy's
 * ascontiguousarray of the same permutations against the library. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "bench_util.h"

#define NAIVE_RUNS 3
#define MAX_BYTES ((size_t)4096 * 4096 * 8)

typedef struct copy_case {
  const cl_tensor_t *dst, *src;
  char *dst_mem, *src_mem;
  size_t bytes, elem;
  int threads;
} copy_case;

static void run_copy(void *ctx, int64_t iters) {
  copy_case *c = ctx;
  cl_copy_options_t opt = {sizeof opt, CL_COPY_STORES_AUTO, c->threads, NULL};
  for (int64_t k = 0; k < iters; k++) {
    bench_check(cl_tensor_copy_ex(c->dst, c->src, &opt), "cl_tensor_copy_ex");
    bench_clobber();
  }
}

static void run_memcpy(void *ctx, int64_t iters) {
  copy_case *c = ctx;
  for (int64_t k = 0; k < iters; k++) {
    memcpy(c->dst_mem, c->src_mem, c->bytes);
    bench_clobber();
  }
}

/* The definition of a copy, one element at a time. */
static void run_naive(void *ctx, int64_t iters) {
  copy_case *c = ctx;
  const cl_layout_t *dl = cl_tensor_layout(c->dst), *sl = cl_tensor_layout(c->src);
  int64_t n = cl_layout_size(dl);
  for (int64_t k = 0; k < iters; k++) {
    for (int64_t i = 0; i < n; i++) {
      int64_t od, os;
      cl_layout_eval(dl, i, &od);
      cl_layout_eval(sl, i, &os);
      memcpy(c->dst_mem + od * (int64_t)c->elem, c->src_mem + os * (int64_t)c->elem, c->elem);
    }
    bench_clobber();
  }
}

static cl_layout_t *parse(const char *text) {
  cl_layout_t *l;
  bench_check(cl_layout_parse(text, &l), text);
  return l;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Checks a sample of the copy against its definition: a fast wrong copy is
 * no benchmark. */
static void check_sample(const char *name, const copy_case *c) {
  const cl_layout_t *dl = cl_tensor_layout(c->dst), *sl = cl_tensor_layout(c->src);
  int64_t n = cl_layout_size(dl);
  for (int64_t i = 0; i < n; i += 4099) {
    int64_t od, os;
    cl_layout_eval(dl, i, &od);
    cl_layout_eval(sl, i, &os);
    if (memcmp(c->dst_mem + od * (int64_t)c->elem, c->src_mem + os * (int64_t)c->elem, c->elem) != 0) {
      fprintf(stderr, "cute-layout-bench: copy/%s is wrong at element %lld\n", name, (long long)i);
      exit(1);
    }
  }
}

static int threads; /* > 1: also time the copy split between this many threads */

static void run_case(const char *name, const cl_layout_t *dst_layout, const cl_layout_t *src_layout, cl_dtype dtype,
                     bool naive, char *dst_mem, char *src_mem) {
  cl_tensor_t *dst, *src;
  bench_check(cl_tensor_new_typed(dst_mem, dtype, dst_layout, &dst), "cl_tensor_new_typed");
  bench_check(cl_tensor_new_typed(src_mem, dtype, src_layout, &src), "cl_tensor_new_typed");
  size_t elem = cl_dtype_size(dtype);
  copy_case c = {dst, src, dst_mem, src_mem, (size_t)cl_tensor_size(dst) * elem, elem, 1};
  bench_check(cl_tensor_copy(dst, src), "cl_tensor_copy");
  check_sample(name, &c);

  bench_pair pair = bench_compare(run_memcpy, &c, run_copy, &c, 1);
  double gbps = 2.0 * (double)c.bytes / pair.b * 1e-9;
  bench_report("copy", name, gbps, "GB/s", pair.ratio, "memcpy");

  if (threads > 1) {
    /* The same copy split between threads, paired run for run with the
     * copy on one thread: the ratio is the speed-up. */
    copy_case many = c;
    many.threads = threads;
    bench_pair scale = bench_compare(run_copy, &c, run_copy, &many, 1);
    char with[96];
    snprintf(with, sizeof with, "%s-%dthreads", name, threads);
    bench_report("copy", with, 2.0 * (double)c.bytes / scale.b * 1e-9, "GB/s", scale.ratio, "1-thread");
  }
  if (naive) {
    double t[NAIVE_RUNS];
    for (int r = 0; r < NAIVE_RUNS; r++) {
      int64_t t0 = bench_now_ns();
      run_naive(&c, 1);
      t[r] = (double)(bench_now_ns() - t0) * 1e-9;
    }
    qsort(t, NAIVE_RUNS, sizeof t[0], compare_double);
    char vs[96];
    snprintf(vs, sizeof vs, "%s-vs-naive", name);
    bench_report("copy", vs, gbps, "GB/s", t[NAIVE_RUNS / 2] / pair.b, "naive-eval-loop");
  }
  cl_tensor_free(dst);
  cl_tensor_free(src);
}

/* A workload given by the text of its two layouts. */
static void run_text_case(const char *name, const char *dst_text, const char *src_text, cl_dtype dtype, bool naive,
                          char *dst_mem, char *src_mem) {
  cl_layout_t *d = parse(dst_text), *s = parse(src_text);
  run_case(name, d, s, dtype, naive, dst_mem, src_mem);
  cl_layout_free(d);
  cl_layout_free(s);
}

void bench_copy(void);
void bench_copy(void) {
  const char *env = getenv("CUTE_LAYOUT_BENCH_THREADS");
  threads = env != NULL ? atoi(env) : 2;
  char *src_mem = aligned_alloc(64, MAX_BYTES), *dst_mem = aligned_alloc(64, MAX_BYTES);
  if (src_mem == NULL || dst_mem == NULL) {
    fprintf(stderr, "cute-layout-bench: copy: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < MAX_BYTES; i++)
    src_mem[i] = (char)(i * 7 + i / 4093);
  memset(dst_mem, 0, MAX_BYTES);

  const char *col = "(4096,4096):(1,4096)", *row = "(4096,4096):(4096,1)";
  run_text_case("contig-4096x4096", col, col, CL_DTYPE_FLOAT32, true, dst_mem, src_mem);
  run_text_case("transpose-4096x4096", row, col, CL_DTYPE_FLOAT32, true, dst_mem, src_mem);
  run_text_case("transpose-4096x4096-u8", row, col, CL_DTYPE_UINT8, false, dst_mem, src_mem);
  run_text_case("transpose-4096x4096-f16", row, col, CL_DTYPE_FLOAT16, false, dst_mem, src_mem);
  run_text_case("transpose-4096x4096-f64", row, col, CL_DTYPE_FLOAT64, false, dst_mem, src_mem);
  run_text_case("transpose-4000x4000", "(4000,4000):(4000,1)", "(4000,4000):(1,4000)", CL_DTYPE_FLOAT32, false,
                dst_mem, src_mem);

  /* dst = src.transpose(3,1,0,2), both row-major: the element at src
   * coordinate (a0,a1,a2,a3) lands at dst coordinate (a3,a1,a0,a2). */
  run_text_case("permute-64^4-3102", "(64,64,64,64):(64,4096,1,262144)", "(64,64,64,64):(262144,4096,64,1)",
                CL_DTYPE_FLOAT32, true, dst_mem, src_mem);
  /* dst = src.transpose(2,0,1): src (a0,a1,a2) lands at dst (a2,a0,a1). */
  static const struct {
    const char *suffix;
    cl_dtype dtype;
  } types[] = {{"", CL_DTYPE_FLOAT32}, {"-u8", CL_DTYPE_UINT8}, {"-f16", CL_DTYPE_FLOAT16}, {"-f64", CL_DTYPE_FLOAT64}};
  for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
    char name[64];
    snprintf(name, sizeof name, "permute-256^3-201%s", types[k].suffix);
    run_text_case(name, "(256,256,256):(256,1,65536)", "(256,256,256):(65536,256,1)", types[k].dtype, false, dst_mem,
                  src_mem);
  }

  /* logical_divide(make_layout((4096,4096)), (32,32)) =
   * ((32,128),(32,128)):((1,32),(4096,131072)), copied to the row-major
   * layout of its own shape: a tile-major reordering. */
  cl_layout_t *whole = parse(col), *tiled = NULL, *tiled_row = NULL;
  cl_tuple_t *tiled_shape = NULL, *tile = NULL;
  bench_check(cl_tuple_parse("(32,32)", &tile), "cl_tuple_parse");
  bench_check(cl_logical_divide_tiler(whole, tile, &tiled), "cl_logical_divide_tiler");
  bench_check(cl_layout_shape(tiled, &tiled_shape), "cl_layout_shape");
  bench_check(cl_layout_make_right(tiled_shape, &tiled_row), "cl_layout_make_right");
  run_case("hier-ldiv32-rowmajor", tiled_row, tiled, CL_DTYPE_FLOAT32, true, dst_mem, src_mem);

  cl_tuple_free(tiled_shape);
  cl_tuple_free(tile);
  cl_layout_free(tiled);
  cl_layout_free(tiled_row);
  cl_layout_free(whole);
  free(src_mem);
  free(dst_mem);
}
