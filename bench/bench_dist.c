/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_dist.c: the `dist` group of cute-layout-bench: milliseconds to make
 * the two distributions of a redistribution and rank 0's plan
 * (cl_dist_plan_new), for large tensors over 2, 4 and 8 ranks, against the
 * same calls visiting every element (CUTELAYOUT_DIST_PLAN=elements: the
 * planner's reference walk, and the constructors' check of one bit a place),
 * timed in the same run.  The ratio is time over the reference's time.
 *
 * The reference takes seconds a plan, so it runs REFERENCE_RUNS times (its
 * median and range printed below the line), the fast calls RUNS times (the
 * median reported, the range below).  CUTE_LAYOUT_BENCH_DIST_RANKS (e.g. "4")
 * limits the rank counts.  Lines:
 *   dist/<what>-<shape>-P<ranks>  <ms> ms  <ratio>x elements */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "bench_util.h"

#define RUNS 11
#define REFERENCE_RUNS 3

typedef struct dist_case {
  const char *name;
  int64_t rows, cols;
  const char *src, *dst; /* placements; %lld: the ranks, or (for meshes) half of them */
  int mesh;              /* a (2, P/2) mesh */
} dist_case;

static const dist_case cases[] = {
    {"Shard0-Shard1", 8192, 8192, "Shard(0)", "Shard(1)", 0},
    {"Shard0-Shard1", 65536, 4096, "Shard(0)", "Shard(1)", 0},
    {"BlockCyclic0x64-Shard0", 8192, 8192, "BlockCyclic(0,64)", "Shard(0)", 0},
    {"mesh-S0S1-S1S0", 8192, 8192, "Shard(0), Shard(1)", "Shard(1), Shard(0)", 1},
};

static void text_of(const dist_case *c, int64_t P, const char *placements, char *text, size_t cap) {
  if (c->mesh)
    snprintf(text, cap, "dist((%lld,%lld), (2,%lld), %s)", (long long)c->rows, (long long)c->cols, (long long)P / 2,
             placements);
  else
    snprintf(text, cap, "dist((%lld,%lld), %lld, %s)", (long long)c->rows, (long long)c->cols, (long long)P,
             placements);
}

typedef struct timing {
  double build_ms, plan_ms;
} timing;

/* Both distributions, then rank 0's plan, each timed. */
static timing run_once(const dist_case *c, int64_t P) {
  char a[128], b[128];
  text_of(c, P, c->src, a, sizeof a);
  text_of(c, P, c->dst, b, sizeof b);
  cl_dist_t *src = NULL, *dst = NULL;
  cl_dist_plan_t *plan = NULL;
  int64_t t0 = bench_now_ns();
  bench_check(cl_dist_parse(a, &src), "cl_dist_parse");
  bench_check(cl_dist_parse(b, &dst), "cl_dist_parse");
  int64_t t1 = bench_now_ns();
  bench_check(cl_dist_plan_new(src, dst, 2, 0, &plan), "cl_dist_plan_new");
  int64_t t2 = bench_now_ns();
  cl_dist_plan_free(plan);
  cl_dist_free(src);
  cl_dist_free(dst);
  return (timing){(double)(t1 - t0) * 1e-6, (double)(t2 - t1) * 1e-6};
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median, min and max of n values (sorted in place). */
static void spread(double *v, int n, double *median, double *lo, double *hi) {
  qsort(v, (size_t)n, sizeof *v, by_value);
  *median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  *lo = v[0];
  *hi = v[n - 1];
}

typedef struct figures {
  double build[3], plan[3]; /* median, min, max */
} figures;

static figures measure(const dist_case *c, int64_t P, int runs, int reference) {
  double build[RUNS], plan[RUNS];
  if (reference)
    setenv("CUTELAYOUT_DIST_PLAN", "elements", 1);
  for (int k = 0; k < runs; k++) {
    timing t = run_once(c, P);
    build[k] = t.build_ms;
    plan[k] = t.plan_ms;
  }
  unsetenv("CUTELAYOUT_DIST_PLAN");
  figures f;
  spread(build, runs, &f.build[0], &f.build[1], &f.build[2]);
  spread(plan, runs, &f.plan[0], &f.plan[1], &f.plan[2]);
  return f;
}

static void report(const char *what, const char *workload, const double *fast, const double *ref) {
  char name[160];
  snprintf(name, sizeof name, "%s-%s", what, workload);
  bench_report("dist", name, fast[0], "ms", fast[0] / ref[0], "elements");
  printf("    %d runs %.3g to %.3g ms; by elements: median %.4g ms of %d, %.4g to %.4g\n", RUNS, fast[1], fast[2],
         ref[0], REFERENCE_RUNS, ref[1], ref[2]);
}

void bench_dist(void) {
  const char *only = getenv("CUTE_LAYOUT_BENCH_DIST_RANKS");
  for (int64_t P = 2; P <= 8; P *= 2) {
    if (only != NULL && atoll(only) != P)
      continue;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      const dist_case *c = &cases[i];
      figures ref = measure(c, P, REFERENCE_RUNS, 1), fast = measure(c, P, RUNS, 0);
      char workload[96];
      snprintf(workload, sizeof workload, "%s-%lldx%lld-P%lld", c->name, (long long)c->rows, (long long)c->cols,
               (long long)P);
      report("build", workload, fast.build, ref.build);
      report("plan", workload, fast.plan, ref.plan);
    }
  }
}
