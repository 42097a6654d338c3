/* SPDX-License-Identifier: BSD-3-Clause */
/* bench.c: cute-layout-bench [GROUP...] -- CONTRACT.md's benchmark program.
 *
 * Each group is one function `void bench_<group>(void)` in its own file
 * bench/bench_<group>.c that prints its lines with bench_report().
 *
 * To add a group:
 *   1. write bench/bench_<group>.c defining `void bench_<group>(void)`;
 *   2. add the file to `bench_sources` in bench/meson.build;
 *   3. declare it in bench_util.h and add a row to `groups[]` below.
 * The gpu and gpu-random groups (bench_gpu.cu, bench_gpu_random.cu) are
 * built with the CUDA module; without it, stubs here say so.
 * The groups of CONTRACT.md (eval, algebra, copy, copy-random) also have a weak stub here,
 * so the program links and runs before their file exists; the file's strong
 * definition replaces the stub. */
#include <stdio.h>
#include <string.h>

#include "bench_util.h"

#if defined(__GNUC__) || defined(__clang__)
#define BENCH_WEAK __attribute__((weak))
#else
#define BENCH_WEAK
#endif

BENCH_WEAK void bench_eval(void) { fprintf(stderr, "cute-layout-bench: group 'eval' is not built\n"); }
BENCH_WEAK void bench_algebra(void) { fprintf(stderr, "cute-layout-bench: group 'algebra' is not built\n"); }
BENCH_WEAK void bench_copy(void) { fprintf(stderr, "cute-layout-bench: group 'copy' is not built\n"); }
BENCH_WEAK void bench_copy_bound(void) { fprintf(stderr, "cute-layout-bench: group 'copy-bound' is not built\n"); }
BENCH_WEAK void bench_copy_threads(void) { fprintf(stderr, "cute-layout-bench: group 'copy-threads' is not built\n"); }
BENCH_WEAK void bench_copy_random(void) { fprintf(stderr, "cute-layout-bench: group 'copy-random' is not built\n"); }
#ifndef CL_BENCH_GPU
/* Without the CUDA module the gpu group is listed but says why it is empty. */
void bench_gpu(void) { printf("gpu: skipped, the CUDA module is not built (nvcc not found)\n"); }
void bench_gpu_random(void) { printf("gpu-random: skipped, the CUDA module is not built (nvcc not found)\n"); }
#endif

static const struct {
  const char *name;
  void (*run)(void);
} groups[] = {
    {"eval", bench_eval},
    {"algebra", bench_algebra},
    {"copy", bench_copy},
    {"copy-random", bench_copy_random},
    {"copy-threads", bench_copy_threads},
    {"copy-bound", bench_copy_bound},
    {"dist", bench_dist},
    {"gpu", bench_gpu},
    {"gpu-random", bench_gpu_random},
};
#define NGROUPS (sizeof groups / sizeof groups[0])

static void usage(FILE *f) {
  fprintf(f, "usage: cute-layout-bench [GROUP...]\ngroups:");
  for (size_t g = 0; g < NGROUPS; g++)
    fprintf(f, " %s", groups[g].name);
  fprintf(f, " (all when none is named)\n");
}

int main(int argc, char **argv) {
  for (int a = 1; a < argc; a++) {
    if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
      usage(stdout);
      return 0;
    }
    size_t g = 0;
    while (g < NGROUPS && strcmp(argv[a], groups[g].name) != 0)
      g++;
    if (g == NGROUPS) {
      fprintf(stderr, "cute-layout-bench: unknown group '%s'\n", argv[a]);
      usage(stderr);
      return 2;
    }
  }
  if (argc == 1) {
    for (size_t g = 0; g < NGROUPS; g++)
      groups[g].run();
    return 0;
  }
  for (int a = 1; a < argc; a++)
    for (size_t g = 0; g < NGROUPS; g++)
      if (strcmp(argv[a], groups[g].name) == 0)
        groups[g].run();
  return 0;
}
