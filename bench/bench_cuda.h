/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_cuda.h: what the GPU groups share: a CUDA call that fails ends the
 * benchmark with the group's name and CUDA's message. */
#ifndef CUTELAYOUT_BENCH_CUDA_H
#define CUTELAYOUT_BENCH_CUDA_H

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define BENCH_CUDA_CHECK(group, call)                                                                     \
  do {                                                                                                      \
    cudaError_t e_ = (call);                                                                                \
    if (e_ != cudaSuccess) {                                                                                \
      std::fprintf(stderr, "cute-layout-bench: %s: %s: %s\n", group, #call, cudaGetErrorString(e_));      \
      std::exit(1);                                                                                         \
    }                                                                                                       \
  } while (0)

#endif
