/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_gpu_cute.h: the optional comparison of the gpu group with CuTe C++
 * in device code (bench_gpu_cute.cu), built only with -Dcute_dir (which
 * defines CL_BENCH_CUTE).  No CUTLASS code is part of this project. */
#ifndef CUTELAYOUT_BENCH_GPU_CUTE_H
#define CUTELAYOUT_BENCH_GPU_CUTE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifdef CL_BENCH_CUTE
/* Queues, on the default stream, a kernel of `blocks` blocks of 256 threads
 * in which every thread sums layout(i) over per_thread consecutive i
 * (wrapping at the size, from i = 7 * thread % size) into out[thread], for
 * the rank-4 layout shape:stride held by CuTe's Layout with run-time integers
 * of `bits` bits (32: int, 64: int64_t). */
void bench_gpu_cute_eval(int bits, const int64_t shape[4], const int64_t stride[4], int64_t per_thread,
                         unsigned blocks, int64_t *out);
#endif

#ifdef __cplusplus
}
#endif
#endif
