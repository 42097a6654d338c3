// SPDX-License-Identifier: BSD-3-Clause
// launch_floor.cu: GPU time per launch of a one-block kernel that moves 4 KiB,
// queued back to back behind a spin, by the bytes of its parameters: what a
// small copy costs at the least, and what its parameters add.
//   nvcc -O3 -arch=sm_90 tools/launch_floor.cu -o launch_floor && ./launch_floor
#include <cstdio>
#include <cuda_runtime.h>

template <int N> struct params { char dst_pad[N]; };

template <int N> __global__ void copy4k(float *dst, const float *src, const params<N> p) {
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    dst[i] = src[i] + float(p.dst_pad[N - 1]);
}

__global__ void spin(long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

template <int N> float per_launch(float *d, const float *s, int blocks, int threads) {
  params<N> p = {};
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  float best = 1e9;
  for (int rep = 0; rep < 7; rep++) {
    spin<<<1, 1>>>(20000000);
    cudaEventRecord(a);
    for (int k = 0; k < 500; k++)
      copy4k<N><<<blocks, threads>>>(d + (k % 64) * 1024, s + (k % 64) * 1024, p);
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    best = ms * 1000 / 500 < best ? ms * 1000 / 500 : best;
  }
  return best;
}

int main() {
  float *d, *s;
  cudaMalloc(&d, 64 << 12);
  cudaMalloc(&s, 64 << 12);
  cudaMemset(s, 0, 64 << 12);
  printf("launch_floor/params-8B     %.3f us\n", per_launch<8>(d, s, 1, 256));
  printf("launch_floor/params-256B   %.3f us\n", per_launch<256>(d, s, 1, 256));
  printf("launch_floor/params-640B   %.3f us\n", per_launch<640>(d, s, 1, 256));
  printf("launch_floor/params-1280B  %.3f us\n", per_launch<1280>(d, s, 1, 256));
  printf("launch_floor/params-2560B  %.3f us\n", per_launch<2560>(d, s, 1, 256));
  printf("launch_floor/params-4000B  %.3f us\n", per_launch<4000>(d, s, 1, 256));
  printf("launch_floor/params-8B-4blocks-128  %.3f us\n", per_launch<8>(d, s, 4, 128));
  cudaError_t e = cudaDeviceSynchronize();
  printf("launch_floor: %s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
