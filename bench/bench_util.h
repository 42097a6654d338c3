/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_util.h: timing and reporting shared by every benchmark group.
 *
 * A workload is a function that runs `iters` repetitions of the operation
 * being measured.  bench_time() calibrates `iters` so that one run lasts a few
 * milliseconds, repeats the run, and returns the median time of one operation:
 * the median, not the mean, because the machine is shared and a run that was
 * interrupted should not move the figure.
 *
 * Every figure is printed by bench_report() in CONTRACT.md's format:
 *   <group>/<workload>  <value> <unit>  <ratio>x <baseline>
 * where the baseline was measured in the same run, on the same inputs. */
#ifndef CUTELAYOUT_BENCH_UTIL_H
#define CUTELAYOUT_BENCH_UTIL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Keeps the compiler from deleting or hoisting a computation whose result is
 * otherwise unused: the value is "used" by an empty asm statement that may
 * read it from a register or memory. */
#if defined(__GNUC__) || defined(__clang__)
#define bench_do_not_optimize(value) __asm__ volatile("" : : "r,m"(value) : "memory")
/* A compiler barrier: memory may have been read or written here, so stores
 * before it happen and loads after it are repeated. */
#define bench_clobber() __asm__ volatile("" : : : "memory")
#else
void bench_escape(const volatile void *p);
#define bench_do_not_optimize(value) bench_escape(&(value))
#define bench_clobber() bench_escape(0)
#endif

/* Runs fn(ctx, iters): `iters` repetitions of one operation. */
typedef void (*bench_fn)(void *ctx, int64_t iters);

/* Median seconds per operation of fn over repeated timed runs (clock_gettime,
 * CLOCK_MONOTONIC).  ops_per_iter scales the result when one iteration does
 * several operations (e.g. a bulk call over n elements: pass n to get seconds
 * per element). */
double bench_time(bench_fn fn, void *ctx, double ops_per_iter);

/* A workload and its baseline timed in alternation, run for run, so that
 * both see the same machine (on a shared machine the load changes from one
 * second to the next): the medians of each, and the median of the ratios of
 * the paired runs, a/b, which is what the report's ratio should be. */
typedef struct bench_pair {
  double a, b;  /* median seconds per operation */
  double ratio; /* median of a_i / b_i over the paired runs */
} bench_pair;
bench_pair bench_compare(bench_fn a, void *a_ctx, bench_fn b, void *b_ctx, double ops_per_iter);
/* The same with `runs` paired runs (1 to 21; others mean 21): for groups of
 * many workloads, where each run is one large copy. */
bench_pair bench_compare_runs(bench_fn a, void *a_ctx, bench_fn b, void *b_ctx, double ops_per_iter, int runs);

/* Nanoseconds now, from CLOCK_MONOTONIC. */
int64_t bench_now_ns(void);

/* Prints one result line: "<group>/<workload>  <value> <unit>  <ratio>x <baseline>". */
void bench_report(const char *group, const char *workload, double value, const char *unit, double ratio,
                  const char *baseline_name);

/* Fails the program (exit 1 with a message) when a library call that the
 * benchmark depends on fails: a benchmark of a failing call would be a lie. */
void bench_check(int status, const char *what);

/* The groups (bench.c lists them; each is defined in bench_<group>.c). */
void bench_eval(void);
void bench_algebra(void);
void bench_copy(void);
void bench_copy_random(void);
void bench_copy_threads(void);
void bench_copy_bound(void);
void bench_dist(void);
void bench_gpu(void);
void bench_gpu_random(void);

#ifdef __cplusplus
}
#endif

#endif
