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

// ---------------------------------------------------------------- tile

// Elements in a tile of the tile kernel: 16 KiB of data (8 KiB of bytes),
// and the longest edge, whose offsets a block keeps in shared memory.
__host__ __device__ constexpr int tile_elems_of(int elem) { return elem <= 2 ? 8192 : 16384 / elem; }
__host__ __device__ constexpr int tile_run_of(int elem) { return tile_elems_of(elem) / 2 < 1024 ? tile_elems_of(elem) / 2 : 1024; }

struct tile_args {
  int64_t ni, nj, di, sj;               // extents of the runs, dst's stride along i, src's along j
  int ti, tj;                           // tile edges
  unsigned inv_ti, inv_tj;              // ceil(2^32 / edge): q / edge as a high product (q < 2^16)
  uint64_t tiles_i, tiles_j, ntiles;    // tiles along i, along j, in all (times the batch)
  cl_compiled_layout_t i_src, j_dst;    // src offset of i, dst offset of j
  cl_compiled_layout_t dst_at, src_at;  // offsets of batch entry b
};

// Tile (ti, tj) of batch entry b, ti x tj elements of any strides: the
// block first keeps the src offset of each of its rows (i) and the dst
// offset of each of its columns (j) in shared memory, so that an element
// costs an add and a multiply; then reads the tile along j (src's smallest
// stride) into tile[i][j] (rows padded by one element) and writes it along i
// (dst's smallest stride).  Edges are predicated, so any extents work; each
// thread issues kBatch loads before it stores them.
template <int E>
__global__ void __launch_bounds__(kThreads) tile_copy(char *dst, const char *src, const tile_args a) {
  using Elem = typename word<E>::type;
  constexpr int kElems = tile_elems_of(E), kRun = tile_run_of(E);
  // Loads in flight per thread: 8 (4 for 16-byte elements).  A whole tile's
  // (32 for 1- and 2-byte elements) measured slower in gpu-random: a third
  // of the bandwidth on 1-byte permutations.
  constexpr int kBatch = kElems / kThreads < 8 ? kElems / kThreads : 8;
  __shared__ Elem tile[kElems + kElems / 2];
  __shared__ int64_t src_row[kRun], dst_col[kRun];
  const int ti = a.ti, tj = a.tj, pitch = tj + 1, n = ti * tj;
  for (uint64_t t = blockIdx.x; t < a.ntiles; t += gridDim.x) {
    uint64_t bi = t % a.tiles_i, rest = t / a.tiles_i;
    uint64_t bj = rest % a.tiles_j, b = rest / a.tiles_j;
    const int64_t i0 = int64_t(bi) * ti, j0 = int64_t(bj) * tj;
    const int ri = int(a.ni - i0 < ti ? a.ni - i0 : ti), rj = int(a.nj - j0 < tj ? a.nj - j0 : tj);
    const int64_t src_b = cl_compiled_eval(&a.src_at, int64_t(b)), dst_b = cl_compiled_eval(&a.dst_at, int64_t(b));
    for (int k = threadIdx.x; k < ri; k += kThreads)
      src_row[k] = src_b + cl_compiled_eval(&a.i_src, i0 + k) + j0 * a.sj;
    for (int k = threadIdx.x; k < rj; k += kThreads)
      dst_col[k] = dst_b + cl_compiled_eval(&a.j_dst, j0 + k) + i0 * a.di;
    __syncthreads();
    for (int q0 = threadIdx.x; q0 < n; q0 += kThreads * kBatch) {
      Elem v[kBatch];
#pragma unroll
      for (int u = 0; u < kBatch; u++) {
        int q = q0 + u * kThreads, i = int(__umulhi(unsigned(q), a.inv_tj)), j = q - i * tj;
        if (q < n && i < ri && j < rj)
          v[u] = reinterpret_cast<const Elem *>(src)[src_row[i] + j * a.sj];
      }
#pragma unroll
      for (int u = 0; u < kBatch; u++) {
        int q = q0 + u * kThreads, i = int(__umulhi(unsigned(q), a.inv_tj)), j = q - i * tj;
        if (q < n && i < ri && j < rj)
          tile[i * pitch + j] = v[u];
      }
    }
    __syncthreads();
    for (int q0 = threadIdx.x; q0 < n; q0 += kThreads * kBatch) {
#pragma unroll
      for (int u = 0; u < kBatch; u++) {
        int q = q0 + u * kThreads, j = int(__umulhi(unsigned(q), a.inv_ti)), i = q - j * ti;
        if (q < n && i < ri && j < rj)
          reinterpret_cast<Elem *>(dst)[dst_col[j] + i * a.di] = tile[i * pitch + j];
      }
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------- wide tile

// The tile kernel's runs with unit strides on both sides (src's along j,
// dst's along i) for elements of 1 and 2 bytes: each side moves through
// 16-byte windows aligned in memory, so a thread reads or writes up to 16
// bytes per access whatever the extents and the pointers' alignment.
//
// Row i of a tile (src bytes [A_i, A_i + rj * E)) goes whole windows into
// shared memory at the row's base S_i, window s at S_i + 16 s: element (i, j)
// then lies at S_i + (A_i mod 16) + j E, kept per row in row_at.  A window
// reaching past the row is read whole when it lies inside the source's bytes
// (its extra bytes land in the row's padding), else element by element.
// Column j (dst bytes [B_j, B_j + ri * E)) is gathered from shared memory a
// window at a time, element by element, and written as one 16-byte store
// where the window lies inside the column, else as the words and bytes it
// covers.  Rows are rp bytes apart (an odd number of windows) and staggered
// by 16 bytes every 16 bytes of i when the tile's i edge is at most 128
// bytes, so that the windows a warp gathers from rows 16 bytes apart meet in
// different banks.
constexpr int kWideBytes = 20480;  // shared memory of a wide tile's rows (cl_cuda_wide_tile_bytes)
constexpr int kWideRun = 512;      // longest edge of a wide tile
constexpr int kWideBatch = 4;      // windows in flight per thread

struct wide_args {
  int64_t ni, nj;
  int ti, tj, rp, nwi, nwj, stagger;    // tile edges, row pitch, windows per column and row, stagger rows?
  int flat_dst;                         // the columns one run in dst (cuda_impl.h)
  unsigned inv_nwi, inv_nwj, inv_ni;    // ceil(2^32 / d), for q / d as a high product
  uint64_t tiles_i, tiles_j, ntiles;
  uintptr_t src_lo, src_hi;             // the source's bytes: windows inside them are read whole
  cl_compiled_layout_t i_src, j_dst;
  cl_compiled_layout_t dst_at, src_at;
};

// q / d for q < 2^16 by d's inverse (as the tile kernel).
__device__ __forceinline__ int div_by(int q, unsigned inv) { return int(__umulhi(unsigned(q), inv)); }

// Stores bytes [b0, b1) of the word x at p (p 4-byte aligned, 0 <= b0 <= b1 <= 4),
// in the fewest aligned pieces: a byte, a pair, a byte.
__device__ __forceinline__ void store_word_part(char *p, unsigned x, int b0, int b1) {
  if ((b0 & 1) && b0 < b1) {
    p[b0] = char(x >> (8 * b0));
    b0++;
  }
  if (b1 - b0 >= 2) {
    *reinterpret_cast<unsigned short *>(p + b0) = (unsigned short)(x >> (8 * b0));
    b0 += 2;
  }
  if (b0 < b1)
    p[b0] = char(x >> (8 * b0));
}

template <int E>
__global__ void __launch_bounds__(kThreads) wide_tile_copy(char *dst, const char *src, const wide_args a) {
  using Elem = typename word<E>::type;
  constexpr int kPer = 16 / E;  // elements per window
  union window {
    uint4 v;
    unsigned w[4];
    Elem e[kPer];
  };
  __shared__ __align__(16) char tile[kWideBytes];
  __shared__ uintptr_t row_src[kWideRun], col_dst[kWideRun];
  __shared__ int row_at[kWideRun];
  for (uint64_t t = blockIdx.x; t < a.ntiles; t += gridDim.x) {
    uint64_t bi = t % a.tiles_i, rest = t / a.tiles_i;
    uint64_t bj = rest % a.tiles_j, b = rest / a.tiles_j;
    const int64_t i0 = int64_t(bi) * a.ti, j0 = int64_t(bj) * a.tj;
    const int ri = int(a.ni - i0 < a.ti ? a.ni - i0 : a.ti), rj = int(a.nj - j0 < a.tj ? a.nj - j0 : a.tj);
    const int64_t src_b = cl_compiled_eval(&a.src_at, int64_t(b)), dst_b = cl_compiled_eval(&a.dst_at, int64_t(b));
    for (int k = threadIdx.x; k < ri; k += kThreads) {
      uintptr_t at = uintptr_t(src + (src_b + cl_compiled_eval(&a.i_src, i0 + k) + j0) * E);
      row_src[k] = at;
      row_at[k] = k * a.rp + (a.stagger ? ((k * E) >> 4) * 16 : 0) + int(at & 15);
    }
    for (int k = threadIdx.x; k < (a.flat_dst ? 1 : rj); k += kThreads)  // flat_dst: tj may exceed kWideRun
      col_dst[k] = uintptr_t(dst + (dst_b + cl_compiled_eval(&a.j_dst, j0 + k) + i0) * E);
    __syncthreads();
    // Rows into shared memory, window s of row i at row_at[i] - (A_i mod 16) + 16 s.
    const int nread = ri * a.nwj, row_bytes = rj * E;
    for (int q0 = threadIdx.x; q0 < nread; q0 += kThreads * kWideBatch) {
      window v[kWideBatch];
      int put[kWideBatch];  // shared-memory byte of the window, -1: none, or read by elements (-2 - it)
#pragma unroll
      for (int u = 0; u < kWideBatch; u++) {
        int q = q0 + u * kThreads, i = div_by(q, a.inv_nwj), s = q - i * a.nwj;
        put[u] = -1;
        if (q < nread) {
          uintptr_t row = row_src[i], w = (row & ~uintptr_t(15)) + uintptr_t(16) * s;
          int at = row_at[i] - int(row & 15) + 16 * s;
          if (w < row + row_bytes) {
            if (w >= a.src_lo && w + 16 <= a.src_hi) {
              v[u].v = *reinterpret_cast<const uint4 *>(w);
              put[u] = at;
            } else {
              put[u] = -2 - at;
            }
          }
        }
      }
#pragma unroll
      for (int u = 0; u < kWideBatch; u++) {
        if (put[u] >= 0) {
          *reinterpret_cast<uint4 *>(tile + put[u]) = v[u].v;
        } else if (put[u] <= -2) {  // at the source's first or last bytes: the row's elements alone
          int q = q0 + u * kThreads, i = div_by(q, a.inv_nwj), s = q - i * a.nwj;
          uintptr_t row = row_src[i], w = (row & ~uintptr_t(15)) + uintptr_t(16) * s;
          for (int e = 0; e < kPer; e++) {
            uintptr_t p = w + uintptr_t(e) * E;
            if (p >= row && p < row + row_bytes)
              *reinterpret_cast<Elem *>(tile + (-2 - put[u]) + e * E) = *reinterpret_cast<const Elem *>(p);
          }
        }
      }
    }
    __syncthreads();
    // Columns out of shared memory, window s of column j gathered element by
    // element; with flat_dst, windows of the one run the columns make, its
    // element k being (i, j) = (k mod ri, k / ri).
    const int col_bytes = a.flat_dst ? ri * rj * E : ri * E;
    const int nwrite = a.flat_dst ? int(((col_dst[0] & 15) + col_bytes + 15) / 16) : rj * a.nwi;
    for (int q = threadIdx.x; q < nwrite; q += kThreads) {
      int j = 0, s = q;
      if (!a.flat_dst) {
        j = div_by(q, a.inv_nwi);
        s = q - j * a.nwi;
      }
      uintptr_t col = col_dst[j], w = (col & ~uintptr_t(15)) + uintptr_t(16) * s;
      if (w >= col + col_bytes)
        continue;
      int first = int((int64_t(w) - int64_t(col)) / E);  // the window's first element (may be < 0)
      window out;
#pragma unroll
      for (int e = 0; e < kPer; e++) {
        int k = first + e, i = k, jk = j;
        if (a.flat_dst && k >= 0) {
          jk = div_by(k, a.inv_ni);
          i = k - jk * ri;
        }
        out.e[e] = k >= 0 && k < col_bytes / E ? *reinterpret_cast<const Elem *>(tile + row_at[i] + jk * E) : Elem(0);
      }
      int lo = w < col ? int(col - w) : 0, hi = w + 16 > col + col_bytes ? int(col + col_bytes - w) : 16;
      if (lo == 0 && hi == 16) {
        *reinterpret_cast<uint4 *>(w) = out.v;
      } else {
#pragma unroll
        for (int k = 0; k < 4; k++) {
          int b0 = lo > 4 * k ? lo - 4 * k : 0, b1 = hi < 4 * k + 4 ? hi - 4 * k : 4;
          if (b0 == 0 && b1 == 4)
            reinterpret_cast<unsigned *>(w)[k] = out.w[k];
          else if (E < 4 && b0 < b1)
            store_word_part(reinterpret_cast<char *>(w) + 4 * k, out.w[k], b0, b1);
        }
      }
    }
    __syncthreads();
  }
}

// ---------------------------------------------------------------- rows

// A contiguous run common to both sides (mode 0), of elements of 1, 2 or 4
// bytes that no vector of the vector kernel fits (an odd run, unaligned
// rows): each thread writes one 16-byte window of a dst row, aligned in
// memory, from the 16 src bytes it takes, read as the two aligned windows
// that hold them (each read whole where it lies inside the source's bytes,
// else element by element) and shifted into place.  Rows are batch entries
// (dst_at, src_at); a step of the grid takes rows_per_step whole rows.
struct rows_args {
  int64_t rows;
  int run_bytes, nw, rows_per_step;  // bytes of a row, windows per row, rows per step of a block
  unsigned inv_nw;
  uintptr_t src_lo, src_hi;
  cl_compiled_layout_t dst_at, src_at;
};

template <int E>
__global__ void __launch_bounds__(kThreads) rows_copy(char *dst, const char *src, const rows_args a) {
  using Elem = typename word<E>::type;
  constexpr int kPer = 16 / E;
  union window {
    uint4 v;
    unsigned w[4];
    Elem e[kPer];
  };
  const int items = a.rows_per_step * a.nw;
  for (int64_t r0 = int64_t(blockIdx.x) * a.rows_per_step; r0 < a.rows; r0 += int64_t(gridDim.x) * a.rows_per_step) {
    for (int q0 = threadIdx.x; q0 < items; q0 += kThreads * kWideBatch) {
      window lo[kWideBatch], hi[kWideBatch];
      uintptr_t at[kWideBatch], row_d[kWideBatch], from[kWideBatch];
      bool whole[kWideBatch];
#pragma unroll
      for (int u = 0; u < kWideBatch; u++) {
        int q = q0 + u * kThreads, k = div_by(q, a.inv_nw), s = q - k * a.nw;
        at[u] = 0;
        if (q < items && r0 + k < a.rows) {
          uintptr_t d = uintptr_t(dst) + uintptr_t(cl_compiled_eval(&a.dst_at, r0 + k) * E);
          uintptr_t sr = uintptr_t(src) + uintptr_t(cl_compiled_eval(&a.src_at, r0 + k) * E);
          uintptr_t w = (d & ~uintptr_t(15)) + uintptr_t(16) * s;
          if (w < d + a.run_bytes) {
            at[u] = w;
            row_d[u] = d;
            from[u] = w - d + sr;  // src byte of the window's first byte (outside the row where w < d)
            uintptr_t x = from[u] & ~uintptr_t(15);
            whole[u] = x >= a.src_lo && x + 32 <= a.src_hi;
            if (whole[u]) {
              lo[u].v = *reinterpret_cast<const uint4 *>(x);
              hi[u].v = *reinterpret_cast<const uint4 *>(x + 16);
            }
          }
        }
      }
#pragma unroll
      for (int u = 0; u < kWideBatch; u++) {
        if (at[u] == 0)
          continue;
        uintptr_t w = at[u], d = row_d[u];
        int first = w < d ? int(d - w) : 0, last = w + 16 > d + a.run_bytes ? int(d + a.run_bytes - w) : 16;
        window out;
        if (whole[u]) {  // bytes sh .. sh + 15 of lo:hi, sh = from mod 16
          unsigned t[8] = {lo[u].w[0], lo[u].w[1], lo[u].w[2], lo[u].w[3], hi[u].w[0], hi[u].w[1], hi[u].w[2], hi[u].w[3]};
          unsigned sh = unsigned(from[u] & 15), b = 8 * (sh & 3), wq = sh >> 2, f[7];
#pragma unroll
          for (int k = 0; k < 7; k++)
            f[k] = __funnelshift_r(t[k], t[k + 1], b);
#pragma unroll
          for (int k = 0; k < 4; k++)
            out.w[k] = wq == 0 ? f[k] : wq == 1 ? f[k + 1] : wq == 2 ? f[k + 2] : f[k + 3];
        } else {  // at the source's first or last bytes: the row's elements alone
#pragma unroll
          for (int e = 0; e < kPer; e++)
            out.e[e] = e * E >= first && e * E < last ? *reinterpret_cast<const Elem *>(from[u] + uintptr_t(e) * E)
                                                       : Elem(0);
        }
        if (first == 0 && last == 16) {
          *reinterpret_cast<uint4 *>(w) = out.v;
        } else {
#pragma unroll
          for (int k = 0; k < 4; k++) {
            int b0 = first > 4 * k ? first - 4 * k : 0, b1 = last < 4 * k + 4 ? last - 4 * k : 4;
            if (b0 == 0 && b1 == 4)
              reinterpret_cast<unsigned *>(w)[k] = out.w[k];
            else if (E < 4 && b0 < b1)
              store_word_part(reinterpret_cast<char *>(w) + 4 * k, out.w[k], b0, b1);
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------- batch

// Pair k of a batch: the vector kernel's work (cuda_impl.h), its blocks
// first_block[k] .. first_block[k + 1] - 1 of the grid.
struct batch_pair {
  char *dst;
  const char *src;
  cl_compiled_layout_t dst_at, src_at;
  int64_t count;
  int vec;
};

struct batch_args {
  int n;
  unsigned first_block[CL_CUDA_BATCH + 1];
  batch_pair pair[CL_CUDA_BATCH];
};

template <int Bytes>
__device__ void batch_part(const batch_pair &p, int64_t block, int64_t blocks) {
  using T = typename word<Bytes>::type;
  const int64_t step = blocks * kThreads * kUnroll;
  for (int64_t k0 = block * kThreads * kUnroll + threadIdx.x; k0 < p.count; k0 += step) {
    T v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; u++) {
      int64_t k = k0 + int64_t(u) * kThreads;
      if (k < p.count)
        v[u] = reinterpret_cast<const T *>(p.src)[cl_compiled_eval(&p.src_at, k)];
    }
#pragma unroll
    for (int u = 0; u < kUnroll; u++) {
      int64_t k = k0 + int64_t(u) * kThreads;
      if (k < p.count)
        reinterpret_cast<T *>(p.dst)[cl_compiled_eval(&p.dst_at, k)] = v[u];
    }
  }
}

// Every pair of a batch in one launch: each block finds its pair, then
// works as the vector kernel over that pair's share of the grid.
__global__ void __launch_bounds__(kThreads) batch_copy(const __grid_constant__ batch_args a) {
  int k = 0;
  while (k + 1 < a.n && blockIdx.x >= a.first_block[k + 1])
    k++;
  const batch_pair &p = a.pair[k];
  int64_t block = blockIdx.x - a.first_block[k], blocks = a.first_block[k + 1] - a.first_block[k];
  switch (p.vec) {
  case 1: batch_part<1>(p, block, blocks); break;
  case 2: batch_part<2>(p, block, blocks); break;
  case 4: batch_part<4>(p, block, blocks); break;
  case 8: batch_part<8>(p, block, blocks); break;
  default: batch_part<16>(p, block, blocks); break;
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

// The arguments every tile kernel shares: the runs' extents, the grid of
// ti x tj tiles over the batch, and the compiled layouts of runs and batch.
template <class Args> void fill_tile_grid(Args &a, const cl_cuda_plan *p, int64_t ti, int64_t tj) {
  a.ni = p->ni;
  a.nj = p->nj;
  a.tiles_i = uint64_t((p->ni + ti - 1) / ti);
  a.tiles_j = uint64_t((p->nj + tj - 1) / tj);
  a.ntiles = a.tiles_i * a.tiles_j * uint64_t(p->batch);
  a.i_src = p->i_src;
  a.j_dst = p->j_dst;
  a.dst_at = p->dst_at;
  a.src_at = p->src_at;
}

// One block a tile, up to the grid-stride loop's cap.
unsigned tile_blocks(uint64_t ntiles) { return unsigned(ntiles > uint64_t(kMaxBlocks) ? kMaxBlocks : ntiles); }

template <int E, int VB>
cl_status launch_transpose(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  constexpr int T = edge_of(E);
  transpose_args a;
  fill_tile_grid(a, p, T, T);
  return launch(transpose_copy<E, VB>, tile_blocks(a.ntiles), stream, dst, src, a);
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

// ceil(2^32 / d) for 2 <= d < 2^16.
unsigned inverse(int d) { return unsigned(0xffffffffu / unsigned(d)) + 1u; }

template <int E> cl_status launch_tile(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  tile_args a;
  fill_tile_grid(a, p, p->ti, p->tj);
  a.di = p->di;
  a.sj = p->sj;
  a.ti = p->ti;
  a.tj = p->tj;
  a.inv_ti = inverse(p->ti);
  a.inv_tj = inverse(p->tj);
  return launch(tile_copy<E>, tile_blocks(a.ntiles), stream, dst, src, a);
}

template <int E> cl_status launch_wide_tile(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  wide_args a;
  fill_tile_grid(a, p, p->ti, p->tj);
  a.ti = p->ti;
  a.tj = p->tj;
  a.rp = p->rp;
  a.nwi = cl_cuda_wide_windows(p->ti, E);
  a.nwj = cl_cuda_wide_windows(p->tj, E);
  a.stagger = int64_t(p->ti) * E <= 128;  // the planner leaves room for it then
  a.inv_nwi = inverse(a.nwi);
  a.inv_nwj = inverse(a.nwj);
  a.flat_dst = p->flat_dst;
  a.inv_ni = p->flat_dst ? inverse(int(p->ni)) : 0;
  a.src_lo = uintptr_t(src + p->src_lo);
  a.src_hi = uintptr_t(src + p->src_hi);
  return launch(wide_tile_copy<E>, tile_blocks(a.ntiles), stream, dst, src, a);
}

template <int E> cl_status launch_rows(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  rows_args a;
  a.rows = p->batch;
  a.run_bytes = int(p->ni * E);
  a.nw = cl_cuda_wide_windows(p->ni, E);
  a.rows_per_step = kThreads * kWideBatch / a.nw > 1 ? kThreads * kWideBatch / a.nw : 1;
  a.inv_nw = inverse(a.nw);
  a.src_lo = uintptr_t(src + p->src_lo);
  a.src_hi = uintptr_t(src + p->src_hi);
  a.dst_at = p->dst_at;
  a.src_at = p->src_at;
  return launch(rows_copy<E>, blocks_for(a.rows, a.rows_per_step), stream, dst, src, a);
}

cl_status launch_rows_any(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  return p->elem == 1 ? launch_rows<1>(p, dst, src, stream)
         : p->elem == 2 ? launch_rows<2>(p, dst, src, stream)
                        : launch_rows<4>(p, dst, src, stream);
}

cl_status launch_tile_any(const cl_cuda_plan *p, char *dst, const char *src, cudaStream_t stream) {
  if (p->vec > p->elem)  // 16-byte windows (elements of 1 or 2 bytes)
    return p->elem == 1 ? launch_wide_tile<1>(p, dst, src, stream) : launch_wide_tile<2>(p, dst, src, stream);
  switch (p->elem) {
  case 1: return launch_tile<1>(p, dst, src, stream);
  case 2: return launch_tile<2>(p, dst, src, stream);
  case 4: return launch_tile<4>(p, dst, src, stream);
  case 8: return launch_tile<8>(p, dst, src, stream);
  default: return launch_tile<16>(p, dst, src, stream);
  }
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
extern "C" int cl_cuda_tile_elems(int64_t elem) { return tile_elems_of(int(elem)); }
extern "C" int cl_cuda_tile_run(int64_t elem) { return tile_run_of(int(elem)); }
extern "C" int cl_cuda_wide_tile_bytes(void) { return kWideBytes; }
extern "C" int cl_cuda_wide_tile_run(void) { return kWideRun; }

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
  case CL_CUDA_TILE:
    return launch_tile_any(p, dst, src, s);
  case CL_CUDA_ROWS:
    return launch_rows_any(p, dst, src, s);
  default:
    return launch_vector_any(p, dst, src, s);
  }
}

extern "C" cl_status cl_cuda_launch_batch(const cl_cuda_plan *const *p, char *const *dst, const char *const *src,
                                          int n, cl_cuda_stream_t stream) {
  // Each pair gets the blocks the vector kernel would take for it alone.
  batch_args args;  // 25 KiB of kernel parameters (Hopper takes up to 32 KiB)
  args.n = n;
  uint64_t total = 0;
  for (int k = 0; k < n; k++) {
    batch_pair &b = args.pair[k];
    b.dst = dst[k] + p[k]->dst_origin;
    b.src = src[k] + p[k]->src_origin;
    b.dst_at = p[k]->dst_at;
    b.src_at = p[k]->src_at;
    b.count = p[k]->count;
    b.vec = int(p[k]->vec);
    args.first_block[k] = unsigned(total);
    total += blocks_for(p[k]->count, int64_t(kThreads) * kUnroll);
  }
  args.first_block[n] = unsigned(total);
  return launch(batch_copy, unsigned(total), cudaStream_t(stream), args);
}

extern "C" cl_status cl_cuda_launch_indices(const cl_compiled_layout_t *layout, int64_t i0, int64_t n, int64_t *out,
                                            cl_cuda_stream_t stream) {
  return launch(compiled_indices, blocks_for(n, kThreads), stream, *layout, i0, n, out);
}
