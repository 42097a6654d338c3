/* SPDX-License-Identifier: BSD-3-Clause */
// kernels.cu: the CUDA module's kernels and their launchers.  Each kernel
// takes its compiled layouts by value (compiled.h: plain data, evaluated
// inline on the device) and loops over its work with a grid stride, so any
// size runs on a grid of bounded size.
#include <cuda_runtime.h>

#include <climits>
#include <cstdio>

#include "cuda_impl.h"

namespace {

constexpr int kThreads = 256;  // threads per block of every kernel
constexpr int kUnroll = 4;     // items per thread per step of the vector kernel: loads in flight
constexpr int64_t kMaxBlocks = int64_t(1) << 20;

// The unsigned type of each access width: plain loads and stores of that size.
template <int Bytes> struct word;
template <> struct word<1> { using type = unsigned char; };
template <> struct word<2> { using type = unsigned short; };
template <> struct word<4> { using type = unsigned int; };
template <> struct word<8> { using type = uint2; };
template <> struct word<16> { using type = uint4; };

// ---------------------------------------------------------------- vector

// dst[dst_at(k)] = src[src_at(k)] for k < count, in units of Bytes: the
// vector kernel and the generic one (cuda_impl.h).  Each thread issues its
// kUnroll loads before its stores.
template <int Bytes>
__global__ void __launch_bounds__(kThreads)
    vector_copy(char *dst, const cl_compiled_layout_t dst_at, const char *src, const cl_compiled_layout_t src_at,
                int64_t count) {
  using T = typename word<Bytes>::type;
  const int64_t step = int64_t(gridDim.x) * kThreads * kUnroll;
  for (int64_t k0 = int64_t(blockIdx.x) * kThreads * kUnroll + threadIdx.x; k0 < count; k0 += step) {
    T v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; u++) {
      int64_t k = k0 + int64_t(u) * kThreads;
      if (k < count)
        v[u] = reinterpret_cast<const T *>(src)[cl_compiled_eval(&src_at, k)];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; u++) {
      int64_t k = k0 + int64_t(u) * kThreads;
      if (k < count)
        reinterpret_cast<T *>(dst)[cl_compiled_eval(&dst_at, k)] = v[u];
    }
  }
}

// ---------------------------------------------------------------- transpose

// Tile edge in elements by element size: 64 x 64 up to 4-byte elements
// (16 KiB of float), then 32 x 32 and 16 x 16 (8 and 4 KiB).
__host__ __device__ constexpr int edge_of(int elem) { return elem <= 4 ? 64 : elem == 8 ? 32 : 16; }

struct transpose_args {
  int64_t ni, nj;                       // extents of the i run and the j run
  uint64_t tiles_i, tiles_j, ntiles;    // tiles along i, along j, in all (times the batch)
  cl_compiled_layout_t i_src, j_dst;    // src offset of i, dst offset of j
  cl_compiled_layout_t dst_at, src_at;  // offsets of batch entry b
};

// Tile (ti, tj) of batch entry b moves through shared memory held as
// tile[i][j] (rows along src's contiguous run), padded by one element so that
// neither the row-wise writes nor the column-wise reads meet more than two
// words in one bank (every element and vector size was checked).  Loads and
// stores are Vec bytes wide, V elements; the planner guarantees alignment and
// runs that are whole vectors.
template <int E, int VB>
__global__ void __launch_bounds__(kThreads) transpose_copy(char *dst, const char *src, const transpose_args a) {
  using Elem = typename word<E>::type;
  using Vec = typename word<VB>::type;
  constexpr int T = edge_of(E), V = VB / E, per_row = T / V, per_thread = T * per_row / kThreads;
  static_assert(per_thread >= 1 && T * per_row % kThreads == 0, "a tile is whole vectors per thread");
  union pack {
    Vec v;
    Elem e[V];
  };
  __shared__ Elem tile[T][T + 1];
  for (uint64_t t = blockIdx.x; t < a.ntiles; t += gridDim.x) {
    uint64_t ti = t % a.tiles_i, rest = t / a.tiles_i;
    uint64_t tj = rest % a.tiles_j, b = rest / a.tiles_j;
    int64_t i0 = int64_t(ti) * T, j0 = int64_t(tj) * T;
    const int64_t src_b = cl_compiled_eval(&a.src_at, int64_t(b));
    const int64_t dst_b = cl_compiled_eval(&a.dst_at, int64_t(b));
    pack in[per_thread];
#pragma unroll
    for (int k = 0; k < per_thread; k++) {
      int idx = threadIdx.x + k * kThreads, r = idx / per_row, c = idx % per_row;
      int64_t i = i0 + r, j = j0 + int64_t(c) * V;
      if (i < a.ni && j < a.nj)
        in[k].v = *reinterpret_cast<const Vec *>(src + (src_b + cl_compiled_eval(&a.i_src, i) + j) * E);
    }
#pragma unroll
    for (int k = 0; k < per_thread; k++) {
      int idx = threadIdx.x + k * kThreads, r = idx / per_row, c = idx % per_row;
#pragma unroll
      for (int e = 0; e < V; e++)
        tile[r][c * V + e] = in[k].e[e];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < per_thread; k++) {
      int idx = threadIdx.x + k * kThreads, r = idx / per_row, c = idx % per_row;
      int64_t j = j0 + r, i = i0 + int64_t(c) * V;
      pack out;
#pragma unroll
      for (int e = 0; e < V; e++)
        out.e[e] = tile[c * V + e][r];
      if (i < a.ni && j < a.nj)
        *reinterpret_cast<Vec *>(dst + (dst_b + cl_compiled_eval(&a.j_dst, j) + i) * E) = out.v;
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------- indices

__global__ void __launch_bounds__(kThreads)
    compiled_indices(const cl_compiled_layout_t layout, int64_t i0, int64_t n, int64_t *out) {
  const int64_t step = int64_t(gridDim.x) * kThreads;
  for (int64_t k = int64_t(blockIdx.x) * kThreads + threadIdx.x; k < n; k += step)
    out[k] = cl_compiled_eval(&layout, i0 + k);
}

// ---------------------------------------------------------------- launching

unsigned blocks_for(int64_t items, int64_t per_block) {
  int64_t blocks = (items + per_block - 1) / per_block;
  return unsigned(blocks < 1 ? 1 : blocks > kMaxBlocks ? kMaxBlocks : blocks);
}

template <typename... Params, typename... Args>
cl_status launch(void (*kernel)(Params...), unsigned blocks, cudaStream_t stream, Args... args) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kThreads);
  config.stream = stream;
  cudaError_t e = cudaLaunchKernelEx(&config, kernel, args...);
  return e == cudaSuccess ? CL_OK : cl_cuda_fail(e, "kernel launch");
}

template <int Bytes>
cl_status launch_vector(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  return launch(vector_copy<Bytes>, blocks_for(p->count, int64_t(kThreads) * kUnroll), stream, dst, p->dst_at, src,
                p->src_at, p->count);
}

cl_status launch_vector_any(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  switch (p->vec) {
  case 1: return launch_vector<1>(p, dst, src, stream);
  case 2: return launch_vector<2>(p, dst, src, stream);
  case 4: return launch_vector<4>(p, dst, src, stream);
  case 8: return launch_vector<8>(p, dst, src, stream);
  default: return launch_vector<16>(p, dst, src, stream);
  }
}

template <int E, int VB>
cl_status launch_transpose(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  constexpr int T = edge_of(E);
  transpose_args a;
  a.ni = p->ni;
  a.nj = p->nj;
  a.tiles_i = uint64_t((p->ni + T - 1) / T);
  a.tiles_j = uint64_t((p->nj + T - 1) / T);
  a.ntiles = a.tiles_i * a.tiles_j * uint64_t(p->batch);
  a.i_src = p->i_src;
  a.j_dst = p->j_dst;
  a.dst_at = p->dst_at;
  a.src_at = p->src_at;
  int64_t blocks = a.ntiles > uint64_t(kMaxBlocks) ? kMaxBlocks : int64_t(a.ntiles);
  return launch(transpose_copy<E, VB>, unsigned(blocks), stream, dst, src, a);
}

// Accesses of one element, of 4 bytes (elements under 4 bytes), or of 16.
template <int E>
cl_status launch_transpose_for(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  if (p->vec == 16)
    return launch_transpose<E, 16>(p, dst, src, stream);
  if (E < 4 && p->vec == 4)
    return launch_transpose<E, (E < 4 ? 4 : E)>(p, dst, src, stream);
  return launch_transpose<E, E>(p, dst, src, stream);
}

cl_status launch_transpose_any(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  switch (p->elem) {
  case 1: return launch_transpose_for<1>(p, dst, src, stream);
  case 2: return launch_transpose_for<2>(p, dst, src, stream);
  case 4: return launch_transpose_for<4>(p, dst, src, stream);
  case 8: return launch_transpose_for<8>(p, dst, src, stream);
  default: return launch_transpose_for<16>(p, dst, src, stream);
  }
}

}  // namespace

extern "C" int cl_cuda_tile_edge(int64_t elem) { return edge_of(int(elem)); }

extern "C" cl_status cl_cuda_fail(int cuda_error, const char *what) {
  cudaError_t e = cudaError_t(cuda_error);
  char message[256];
  std::snprintf(message, sizeof message, "%s: %s (%s)", what, cudaGetErrorString(e), cudaGetErrorName(e));
  cudaGetLastError();  // reported here: leave no stale error for the caller's next check
  return cl_set_last_error(CL_E_DEVICE, message);
}

extern "C" cl_status cl_cuda_launch_copy(const cl_cuda_plan *p, char *dst, const char *src, cl_cuda_stream_t stream) {
  cudaStream_t s = stream;
  dst += p->dst_origin;
  src += p->src_origin;
  switch (p->kernel) {
  case CL_CUDA_NOTHING:
    return CL_OK;
  case CL_CUDA_MEMCPY: {
    cudaError_t e = cudaMemcpyAsync(dst, src, size_t(p->vec), cudaMemcpyDeviceToDevice, s);
    return e == cudaSuccess ? CL_OK : cl_cuda_fail(e, "cudaMemcpyAsync");
  }
  case CL_CUDA_TRANSPOSE:
    return launch_transpose_any(p, dst, src, s);
  default:
    return launch_vector_any(p, dst, src, s);
  }
}

extern "C" cl_status cl_cuda_launch_indices(const cl_compiled_layout_t *layout, int64_t i0, int64_t n, int64_t *out,
                                            cl_cuda_stream_t stream) {
  return launch(compiled_indices, blocks_for(n, kThreads), stream, *layout, i0, n, out);
}
