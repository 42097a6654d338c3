/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_eval.c: the `eval` group of cute-layout-bench: CuTe's layout(i).
 *
 * Per call (ns per index, throughput over i = 0, 1, 2, ..., repeated):
 *   <layout>-per-call: cl_layout_eval through the shared library's C ABI,
 *   <layout>-inline: cl_compiled_eval (compiled.h) of the compiled layout,
 *   inlined in the benchmark loop from a local copy of the struct,
 *   call-floor: the cheapest call into the library (see run_call_floor),
 *   with rank2's baselines, for what a call costs whatever it computes,
 * each against a hand-written C loop that computes the same index with `/`
 * and `%` on the flattened modes, inlined in the benchmark loop, with the
 * extents and strides in registers as run-time values (the compiler cannot
 * turn the divisions into multiplications).  Layouts:
 *     rank2  (64,32):(32,1)                            a row-major tile
 *     rank4  (8,4,8,16):(4,1,512,32)                   no two modes coalesce
 *     hier   ((4,8),(2,(2,4))):((2,16),(1,(8,128)))    the example
 *     odd    (6,5,7):(1,8,48)                          extents that are not powers of
 *                                                      two (6x5x7, leading dimension 8)
 * Each runs over i = 0 .. 2^k - 1 for the largest 2^k <= size (all of it for
 * the first three).
 *
 * Bulk (GB/s of indices written, 8 bytes each): cl_layout_eval_range over the
 * whole layout, against memset of the same output bytes, the bound for any
 * code that writes that array.  The three layouts above (outputs of 4 to 32
 * KiB, in L1) and two large ones (8 MiB of indices, beyond L2):
 *     transpose-1024  (1024,1024):(1024,1)
 *     tiled-1024      ((8,128),(8,128)):((1,64),(8,8192))   8x8 tiles of a 1024x1024 matrix
 *
 * With -Dcute_dir=... the same per-call workloads also run through CuTe C++
 * with run-time integers (bench_cute.cpp) and print their ratio.
 *
 * Each workload and its baseline run in alternation (bench_compare): the
 * figure is the median of the workload's runs, the ratio the median of the
 * paired ratios, so that a change of load on a shared machine moves both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "bench_util.h"
#include "bench_cute.h"

#define MAX_MODES 8

typedef struct eval_case {
  const char *name, *text;
  cl_layout_t *layout;
  cl_compiled_layout_t compiled;
  int64_t size;
  int64_t mask; /* per call, i = k & mask: 2^k - 1 for the largest 2^k <= size */
  int rank;     /* flattened modes */
  int64_t shape[MAX_MODES], stride[MAX_MODES];
  int64_t *out;
} eval_case;

/* Flattened modes from the canonical text: the integers before and after ':'. */
static int read_ints(const char *text, const char *stop, int64_t *out) {
  int n = 0;
  for (const char *p = text; p < stop && *p;) {
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
      char *end;
      out[n++] = strtoll(p, &end, 10);
      p = end;
    } else {
      p++;
    }
  }
  return n;
}

static void setup(eval_case *c) {
  bench_check(cl_layout_parse(c->text, &c->layout), c->text);
  bench_check(cl_layout_compile(c->layout, &c->compiled), "cl_layout_compile");
  c->size = cl_layout_size(c->layout);
  for (c->mask = 1; c->mask * 2 <= c->size; c->mask *= 2)
    ;
  c->mask -= 1;
  const char *colon = strchr(c->text, ':');
  c->rank = read_ints(c->text, colon, c->shape);
  read_ints(colon + 1, colon + strlen(colon), c->stride);
  c->out = malloc((size_t)c->size * sizeof *c->out);
  if (c->out == NULL)
    bench_check(CL_E_NOMEM, "malloc");
}

static void run_eval(void *ctx, int64_t iters) {
  const eval_case *c = ctx;
  const cl_layout_t *l = c->layout;
  int64_t mask = c->mask, acc = 0;
  int st = 0;
  for (int64_t k = 0; k < iters; k++) {
    int64_t index;
    st |= cl_layout_eval(l, k & mask, &index);
    acc += index;
  }
  bench_do_not_optimize(acc);
  bench_check(st, "cl_layout_eval");
}

/* The floor of any call into the shared library from such a loop: an
 * exported function that only returns a constant (cl_abi_version), called
 * as often, its result used as the index would be.  Called as
 * cl_layout_eval is (CL_NOPLT, common.h): one indirect call through the
 * function's address, which the compiler is kept from seeing. */
static void run_call_floor(void *ctx, int64_t iters) {
  const eval_case *c = ctx;
  int64_t mask = c->mask, acc = 0;
  int (*abi_version)(void) = cl_abi_version;
  __asm__("" : "+r"(abi_version));
  for (int64_t k = 0; k < iters; k++)
    acc += abi_version() + (k & mask);
  bench_do_not_optimize(acc);
}

/* A compiled layout evaluated inline: the struct copied into the loop's
 * function, as a program would hold it (CuTe's runner does the same). */
static void run_inline(void *ctx, int64_t iters) {
  const eval_case *c = ctx;
  cl_compiled_layout_t compiled = c->compiled;
  int64_t mask = c->mask, acc = 0;
  for (int64_t k = 0; k < iters; k++)
    acc += cl_compiled_eval(&compiled, k & mask);
  bench_do_not_optimize(acc);
}

/* The naive evaluation: colexicographic split with `/` and `%`, the last mode
 * taking the rest.  rank is a constant at each call site, so the loop is
 * unrolled as a hand-written one would be. */
static inline int64_t naive_index(int64_t i, int rank, const int64_t *shape, const int64_t *stride) {
  int64_t index = 0;
  for (int m = 0; m + 1 < rank; m++) {
    index += (i % shape[m]) * stride[m];
    i /= shape[m];
  }
  return index + i * stride[rank - 1];
}

#define NAIVE_RUNNER(RANK)                                                    \
  static void run_naive_##RANK(void *ctx, int64_t iters) {                    \
    const eval_case *c = ctx;                                                 \
    int64_t shape[RANK], stride[RANK], mask = c->mask, acc = 0;               \
    for (int m = 0; m < RANK; m++) {                                          \
      shape[m] = c->shape[m];                                                 \
      stride[m] = c->stride[m];                                               \
      bench_do_not_optimize(shape[m]); /* run-time values, not constants */   \
      bench_do_not_optimize(stride[m]);                                       \
    }                                                                         \
    for (int64_t k = 0; k < iters; k++)                                       \
      acc += naive_index(k & mask, RANK, shape, stride);                      \
    bench_do_not_optimize(acc);                                               \
  }
NAIVE_RUNNER(2)
NAIVE_RUNNER(3)
NAIVE_RUNNER(4)
NAIVE_RUNNER(5)

static void run_range(void *ctx, int64_t iters) {
  const eval_case *c = ctx;
  for (int64_t k = 0; k < iters; k++) {
    bench_check(cl_layout_eval_range(c->layout, 0, c->size, c->out), "cl_layout_eval_range");
    bench_clobber();
  }
}

static void run_memset(void *ctx, int64_t iters) {
  const eval_case *c = ctx;
  for (int64_t k = 0; k < iters; k++) {
    memset(c->out, (int)(k & 0x7f), (size_t)c->size * sizeof *c->out);
    bench_clobber();
  }
}

/* Checks that the range call and the naive loop agree with cl_layout_eval,
 * so that every figure below times a correct computation. */
static void verify(const eval_case *c) {
  bench_check(cl_layout_eval_range(c->layout, 0, c->size, c->out), "cl_layout_eval_range");
  for (int64_t i = 0; i < c->size; i++) {
    int64_t index;
    bench_check(cl_layout_eval(c->layout, i, &index), "cl_layout_eval");
    if (index != c->out[i] || index != naive_index(i, c->rank, c->shape, c->stride) ||
        index != cl_compiled_eval(&c->compiled, i))
      bench_check(CL_E_DOMAIN, "verification of the eval workloads");
  }
}

void bench_eval(void) {
  eval_case cases[] = {
      {.name = "rank2", .text = "(64,32):(32,1)"},
      {.name = "rank4", .text = "(8,4,8,16):(4,1,512,32)"},
      {.name = "hier", .text = "((4,8),(2,(2,4))):((2,16),(1,(8,128)))"},
      {.name = "odd", .text = "(6,5,7):(1,8,48)"},
      {.name = "transpose-1024", .text = "(1024,1024):(1024,1)"},
      {.name = "tiled-1024", .text = "((8,128),(8,128)):((1,64),(8,8192))"},
  };
  const size_t ncases = sizeof cases / sizeof cases[0], per_call = 4;
  for (size_t k = 0; k < ncases; k++) {
    setup(&cases[k]);
    verify(&cases[k]);
  }
  static const struct {
    const char *suffix;
    bench_fn run;
  } forms[] = {{"per-call", run_eval}, {"inline", run_inline}, {"call-floor", run_call_floor}};
  for (size_t k = 0; k < per_call; k++) {
    eval_case *c = &cases[k];
    bench_fn naive = c->rank == 2 ? run_naive_2 : c->rank == 3 ? run_naive_3 : c->rank == 4 ? run_naive_4 : run_naive_5;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
      if (forms[f].run == run_call_floor && k > 0)
        continue;
      char name[64];
      snprintf(name, sizeof name, forms[f].run == run_call_floor ? "%.0s%s" : "%s-%s", c->name, forms[f].suffix);
      bench_pair vs_naive = bench_compare(forms[f].run, c, naive, c, 1);
      bench_report("eval", name, vs_naive.a * 1e9, "ns", vs_naive.ratio, "naive-div-loop");
#ifdef CL_BENCH_CUTE
      bench_pair vs_cute =
          bench_compare(forms[f].run, c, bench_cute_eval_fn(c->name), bench_cute_eval_ctx(c->name), 1);
      bench_report("eval", name, vs_cute.a * 1e9, "ns", vs_cute.ratio, "cute-runtime-ints");
#endif
    }
  }
  for (size_t k = 0; k < ncases; k++) {
    eval_case *c = &cases[k];
    double bytes = (double)c->size * sizeof *c->out;
    bench_pair vs_memset = bench_compare(run_range, c, run_memset, c, bytes);
    char name[64];
    snprintf(name, sizeof name, "%s-range", c->name);
    bench_report("eval", name, 1e-9 / vs_memset.a, "GB/s", 1 / vs_memset.ratio, "memset");
  }
  for (size_t k = 0; k < ncases; k++) {
    cl_layout_free(cases[k].layout);
    free(cases[k].out);
  }
}
