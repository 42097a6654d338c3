/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_cute.h: the optional comparison with CuTe C++ (bench_cute.cpp), built
 * only when meson is given -Dcute_dir=/path/to/cutlass (which defines
 * CL_BENCH_CUTE).  No CUTLASS code is part of this project: bench_cute.cpp
 * includes CuTe's headers from that checkout. */
#ifndef CUTELAYOUT_BENCH_CUTE_H
#define CUTELAYOUT_BENCH_CUTE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef CL_BENCH_CUTE
/* The eval workload `name` (rank2, rank4, hier, odd) through CuTe's Layout
 * with run-time integers, as a bench_fn and its context: layout(i) for i
 * cycling over the same indices as bench_eval.c's. */
typedef void (*bench_cute_fn)(void *ctx, int64_t iters);
bench_cute_fn bench_cute_eval_fn(const char *name);
void *bench_cute_eval_ctx(const char *name);
#endif

#ifdef __cplusplus
}
#endif
#endif
