/* SPDX-License-Identifier: BSD-3-Clause */
// bench_gpu_cute.cu: the eval workloads of bench_gpu.cu through CuTe's
// Layout with run-time integers in device code, for the ratio of the
// compiled layout to CuTe.  Built only with -Dcute_dir=/path/to/cutlass; no
// CUTLASS code is part of this project.  layout(i) here is CuTe's own inline
// evaluation (crd2idx of an integral coordinate: `/` and `%` per mode) in
// the kernel, the way a CUDA user evaluates a run-time layout.
#include <cute/layout.hpp>

#include "bench_gpu_cute.h"

using namespace cute;

namespace {

template <class Index, class Layout>
__global__ void eval_cute(const Layout layout, Index size, int64_t per_thread, int64_t *out) {
  int64_t tid = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  Index i = Index(tid * 7 % size);
  int64_t acc = 0;
  for (int64_t k = 0; k < per_thread; k++) {
    acc += layout(i);
    i = i + 1 == size ? Index(0) : Index(i + 1);
  }
  out[tid] = acc;
}

template <class Index>
void run(const int64_t shape[4], const int64_t stride[4], int64_t per_thread, unsigned blocks, int64_t *out) {
  auto layout = make_layout(make_shape(Index(shape[0]), Index(shape[1]), Index(shape[2]), Index(shape[3])),
                            make_stride(Index(stride[0]), Index(stride[1]), Index(stride[2]), Index(stride[3])));
  Index size = Index(shape[0] * shape[1] * shape[2] * shape[3]);
  eval_cute<Index><<<blocks, 256>>>(layout, size, per_thread, out);
}

}  // namespace

extern "C" void bench_gpu_cute_eval(int bits, const int64_t shape[4], const int64_t stride[4], int64_t per_thread,
                                    unsigned blocks, int64_t *out) {
  if (bits == 32)
    run<int>(shape, stride, per_thread, blocks, out);
  else
    run<int64_t>(shape, stride, per_thread, blocks, out);
}
