/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_util.c: median timing and CONTRACT.md's report line. */
#define _POSIX_C_SOURCE 200809L
#include "bench_util.h"

#include <cutelayout/cutelayout.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if !(defined(__GNUC__) || defined(__clang__))
void bench_escape(const volatile void *p) { (void)p; }
#endif

/* A run should be long enough that clock resolution and the call overhead of
 * fn are negligible, and short enough that many runs fit in a second. */
#define BENCH_RUN_NS 2000000   /* target length of one timed run: 2 ms */
#define BENCH_RUNS 21          /* timed runs; the median is reported */

int64_t bench_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Calibrate: double the iteration count until one run takes a tenth of the
 * target, then scale; this also warms caches and branch predictors. */
static int64_t calibrate(bench_fn fn, void *ctx) {
  int64_t iters = 1;
  for (;;) {
    int64_t t0 = bench_now_ns();
    fn(ctx, iters);
    int64_t dt = bench_now_ns() - t0;
    if (dt >= BENCH_RUN_NS / 10 || iters >= (INT64_C(1) << 40)) {
      if (dt > 0 && dt < BENCH_RUN_NS)
        iters = (int64_t)((double)iters * BENCH_RUN_NS / (double)dt);
      break;
    }
    iters *= 2;
  }
  return iters < 1 ? 1 : iters;
}

static double run_once(bench_fn fn, void *ctx, int64_t iters, double ops_per_iter) {
  int64_t t0 = bench_now_ns();
  fn(ctx, iters);
  int64_t dt = bench_now_ns() - t0;
  return (double)dt * 1e-9 / ((double)iters * ops_per_iter);
}

double bench_time(bench_fn fn, void *ctx, double ops_per_iter) {
  int64_t iters = calibrate(fn, ctx);
  double per_op[BENCH_RUNS];
  for (int r = 0; r < BENCH_RUNS; r++)
    per_op[r] = run_once(fn, ctx, iters, ops_per_iter);
  qsort(per_op, BENCH_RUNS, sizeof per_op[0], compare_double);
  return per_op[BENCH_RUNS / 2];
}

bench_pair bench_compare_runs(bench_fn a, void *a_ctx, bench_fn b, void *b_ctx, double ops_per_iter, int runs) {
  int64_t a_iters = calibrate(a, a_ctx), b_iters = calibrate(b, b_ctx);
  double ta[BENCH_RUNS], tb[BENCH_RUNS], ratio[BENCH_RUNS];
  if (runs < 1 || runs > BENCH_RUNS)
    runs = BENCH_RUNS;
  for (int r = 0; r < runs; r++) {
    ta[r] = run_once(a, a_ctx, a_iters, ops_per_iter);
    tb[r] = run_once(b, b_ctx, b_iters, ops_per_iter);
    ratio[r] = ta[r] / tb[r];
  }
  qsort(ta, (size_t)runs, sizeof ta[0], compare_double);
  qsort(tb, (size_t)runs, sizeof tb[0], compare_double);
  qsort(ratio, (size_t)runs, sizeof ratio[0], compare_double);
  bench_pair p = {ta[runs / 2], tb[runs / 2], ratio[runs / 2]};
  return p;
}

bench_pair bench_compare(bench_fn a, void *a_ctx, bench_fn b, void *b_ctx, double ops_per_iter) {
  return bench_compare_runs(a, a_ctx, b, b_ctx, ops_per_iter, BENCH_RUNS);
}

/* Three significant digits without an exponent, so that lines stay easy to
 * read and to parse: 1234, 123.4 -> 123, 9.812 -> 9.81, 0.01234 -> 0.0123. */
static void print_figure(double v) {
  double a = v < 0 ? -v : v;
  int decimals = a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : a >= 0.1 ? 3 : a >= 0.01 ? 4 : 5;
  printf("%.*f", decimals, v);
}

void bench_report(const char *group, const char *workload, double value, const char *unit, double ratio,
                  const char *baseline_name) {
  printf("%s/%s  ", group, workload);
  print_figure(value);
  printf(" %s  ", unit);
  print_figure(ratio);
  printf("x %s\n", baseline_name);
  fflush(stdout);
}

void bench_check(int status, const char *what) {
  if (status != CL_OK) {
    fprintf(stderr, "cute-layout-bench: %s failed: %s (%s)\n", what, cl_status_string(status), cl_last_error());
    exit(1);
  }
}
