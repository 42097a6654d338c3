/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_copy.c: the `copy` group of cute-layout-bench: cl_tensor_copy on
 * float32 tensors of 16 Mi elements (64 MiB each side).
 *
 * Workloads:
 *   contig-4096x4096      column-major -> column-major: one memcpy after the
 *                         joint coalesce
 *   transpose-4096x4096   column-major -> row-major
 *   permute-64^4-3102     row-major 64x64x64x64 -> its transpose(3,1,0,2),
 *                         row-major (numpy's a.transpose(3,1,0,2).copy())
 *   hier-ldiv32-rowmajor  logical_divide(make_layout((4096,4096)),(32,32)),
 *                         ((32,128),(32,128)):((1,32),(4096,131072)), -> the
 *                         row-major layout of that same shape, which puts
 *                         each 32x32 tile's elements together
 *
 * Figures are GB/s counting the bytes read plus the bytes written (2 x 64
 * MiB).  Each workload prints two lines: the ratio to memcpy of the same 64
 * MiB, measured alternately with the copy in the same run, and the ratio to
 * a naive loop that evaluates both layouts with cl_layout_eval for every
 * element of the same copy (median of three runs: it is slow). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "bench_util.h"

#define EXTENT 4096
#define ELEMS ((int64_t)EXTENT * EXTENT)
#define ROUNDS 3
#define NAIVE_RUNS 3

typedef struct copy_case {
  const cl_tensor_t *dst, *src;
  float *dst_mem, *src_mem;
  int64_t naive_elems;
} copy_case;

static void run_copy(void *ctx, int64_t iters) {
  copy_case *c = ctx;
  for (int64_t k = 0; k < iters; k++) {
    bench_check(cl_tensor_copy(c->dst, c->src), "cl_tensor_copy");
    bench_clobber();
  }
}

static void run_memcpy(void *ctx, int64_t iters) {
  copy_case *c = ctx;
  for (int64_t k = 0; k < iters; k++) {
    memcpy(c->dst_mem, c->src_mem, (size_t)ELEMS * sizeof(float));
    bench_clobber();
  }
}

/* The definition of a copy, one element at a time. */
static void run_naive(void *ctx, int64_t iters) {
  copy_case *c = ctx;
  const cl_layout_t *dl = cl_tensor_layout(c->dst), *sl = cl_tensor_layout(c->src);
  for (int64_t k = 0; k < iters; k++) {
    for (int64_t i = 0; i < c->naive_elems; i++) {
      int64_t od, os;
      cl_layout_eval(dl, i, &od);
      cl_layout_eval(sl, i, &os);
      c->dst_mem[od] = c->src_mem[os];
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

static void run_case(const char *name, const cl_layout_t *dst_layout, const cl_layout_t *src_layout, float *dst_mem,
                     float *src_mem) {
  cl_tensor_t *dst, *src;
  bench_check(cl_tensor_new_typed(dst_mem, CL_DTYPE_FLOAT32, dst_layout, &dst), "cl_tensor_new_typed");
  bench_check(cl_tensor_new_typed(src_mem, CL_DTYPE_FLOAT32, src_layout, &src), "cl_tensor_new_typed");
  copy_case c = {dst, src, dst_mem, src_mem, ELEMS};

  /* Correctness first: a fast wrong copy is no benchmark. */
  bench_check(cl_tensor_copy(dst, src), "cl_tensor_copy");
  for (int64_t i = 0; i < ELEMS; i += 4099) {
    int64_t od, os;
    cl_layout_eval(dst_layout, i, &od);
    cl_layout_eval(src_layout, i, &os);
    if (dst_mem[od] != src_mem[os]) {
      fprintf(stderr, "cute-layout-bench: copy/%s is wrong at element %lld\n", name, (long long)i);
      exit(1);
    }
  }

  /* Alternate the copy and its memcpy baseline so that a change in the
   * machine's load moves both. */
  double ratio[ROUNDS], seconds[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double t_memcpy = bench_time(run_memcpy, &c, 1);
    seconds[r] = bench_time(run_copy, &c, 1);
    ratio[r] = t_memcpy / seconds[r];
  }
  qsort(ratio, ROUNDS, sizeof ratio[0], compare_double);
  qsort(seconds, ROUNDS, sizeof seconds[0], compare_double);
  double bytes = 2.0 * (double)ELEMS * sizeof(float);
  double gbps = bytes / seconds[ROUNDS / 2] * 1e-9;
  bench_report("copy", name, gbps, "GB/s", ratio[ROUNDS / 2], "memcpy");

  double naive[NAIVE_RUNS];
  for (int r = 0; r < NAIVE_RUNS; r++) {
    int64_t t0 = bench_now_ns();
    run_naive(&c, 1);
    naive[r] = (double)(bench_now_ns() - t0) * 1e-9;
  }
  qsort(naive, NAIVE_RUNS, sizeof naive[0], compare_double);
  char vs[96];
  snprintf(vs, sizeof vs, "%s-vs-naive", name);
  bench_report("copy", vs, gbps, "GB/s", naive[NAIVE_RUNS / 2] / seconds[ROUNDS / 2], "naive-eval-loop");

  cl_tensor_free(dst);
  cl_tensor_free(src);
}

void bench_copy(void);
void bench_copy(void) {
  float *src_mem = aligned_alloc(64, (size_t)ELEMS * sizeof(float));
  float *dst_mem = aligned_alloc(64, (size_t)ELEMS * sizeof(float));
  if (src_mem == NULL || dst_mem == NULL) {
    fprintf(stderr, "cute-layout-bench: copy: out of memory\n");
    exit(1);
  }
  for (int64_t i = 0; i < ELEMS; i++) {
    src_mem[i] = (float)i;
    dst_mem[i] = 0.0f;
  }

  cl_layout_t *col = parse("(4096,4096):(1,4096)");
  cl_layout_t *row = parse("(4096,4096):(4096,1)");
  run_case("contig-4096x4096", col, col, dst_mem, src_mem);
  run_case("transpose-4096x4096", row, col, dst_mem, src_mem);

  /* dst = src.transpose(3,1,0,2), both row-major: the element at src
   * coordinate (a0,a1,a2,a3) lands at dst coordinate (a3,a1,a0,a2). */
  cl_layout_t *perm_src = parse("(64,64,64,64):(262144,4096,64,1)");
  cl_layout_t *perm_dst = parse("(64,64,64,64):(64,4096,1,262144)");
  run_case("permute-64^4-3102", perm_dst, perm_src, dst_mem, src_mem);

  /* logical_divide(make_layout((4096,4096)), (32,32)) =
   * ((32,128),(32,128)):((1,32),(4096,131072)), copied to the row-major
   * layout of its own shape: a tile-major reordering. */
  cl_layout_t *tiled = NULL, *tiled_row = NULL;
  cl_tuple_t *tiled_shape = NULL, *tile = NULL;
  bench_check(cl_tuple_parse("(32,32)", &tile), "cl_tuple_parse");
  bench_check(cl_logical_divide_tiler(col, tile, &tiled), "cl_logical_divide_tiler");
  bench_check(cl_layout_shape(tiled, &tiled_shape), "cl_layout_shape");
  bench_check(cl_layout_make_right(tiled_shape, &tiled_row), "cl_layout_make_right");
  run_case("hier-ldiv32-rowmajor", tiled_row, tiled, dst_mem, src_mem);

  cl_tuple_free(tiled_shape);
  cl_tuple_free(tile);
  cl_layout_free(tiled);
  cl_layout_free(tiled_row);
  cl_layout_free(perm_src);
  cl_layout_free(perm_dst);
  cl_layout_free(col);
  cl_layout_free(row);
  free(src_mem);
  free(dst_mem);
}
