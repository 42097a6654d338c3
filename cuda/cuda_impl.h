/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_impl.h: what the CUDA module's host code (C) and its kernels (CUDA
 * C++) share: the copy plan and the launchers.  Private to cuda/. */
#ifndef CUTELAYOUT_CUDA_IMPL_H
#define CUTELAYOUT_CUDA_IMPL_H

#include <stdbool.h>

#include <cutelayout/cuda.h>

#include "joint_modes.h" /* src/: the joint modes the host's copy planner uses too */

#ifdef __cplusplus
extern "C" {
#endif

/* Joint modes a plan holds at most (each side coalesced first, so real
 * layouts have a handful). */
#define CL_CUDA_MAX_MODES 32

typedef enum cl_cuda_kernel {
  CL_CUDA_NOTHING = 0,   /* size 0 */
  CL_CUDA_MEMCPY = 1,    /* one contiguous run on both sides */
  CL_CUDA_VECTOR = 2,    /* vectors of the common contiguous run, offsets by compiled layouts */
  CL_CUDA_TRANSPOSE = 3, /* tiles through shared memory */
  CL_CUDA_GENERIC = 4,   /* no common refinement: the two layouts, element by element */
  CL_CUDA_TILE = 5,      /* tiles through shared memory, any strides, extents and alignment */
  CL_CUDA_ROWS = 6       /* a common contiguous run at any alignment, 16-byte windows */
} cl_cuda_kernel;

/* One side of a copy: element i at data + sw(offset + layout(i)) * elem. */
typedef struct cl_cuda_side {
  char *data;
  const cl_layout_t *layout;
  cl_swizzle_t sw; /* bits 0: none */
  int64_t offset;  /* before the swizzle; 0 without one */
} cl_cuda_side;

/* Tile edges of the transpose kernel, in elements, by element size. */
int cl_cuda_tile_edge(int64_t elem);
/* Elements in a tile of the tile kernel, by element size, and the longest
 * edge it allows (the row and column offsets it keeps in shared memory). */
int cl_cuda_tile_elems(int64_t elem);
int cl_cuda_tile_run(int64_t elem);
/* The wide tile kernel (the tile kernel with 16-byte windows): bytes of
 * shared memory for a tile's rows, and its longest edge. */
int cl_cuda_wide_tile_bytes(void);
int cl_cuda_wide_tile_run(void);
/* 16-byte windows that cover `edge` elements of `elem` bytes at any
 * alignment (a run's bytes, plus up to 15 before its first window). */
static inline int cl_cuda_wide_windows(int64_t edge, int64_t elem) { return (int)((edge * elem + 30) / 16); }

/* What the launcher runs. */
typedef struct cl_cuda_plan {
  cl_cuda_kernel kernel;
  int64_t elem;   /* bytes per element */
  int64_t vec;    /* bytes per access: the element times the vector length */
  int64_t size;   /* elements */
  int r;          /* joint modes m[0..r) (none for the generic kernel) */
  cl_jmode m[CL_CUDA_MAX_MODES]; /* strides in elements */
  int64_t base_d, base_s;         /* element offsets of the origin after the flips */
  int64_t dst_origin, src_origin; /* bytes from the data pointers to where the kernels add offsets */
  /* VECTOR and GENERIC: item k (of count) moves vec bytes from src +
   * src_at(k) * vec to dst + dst_at(k) * vec (dst and src here meaning the
   * data pointers plus the origins).  TRANSPOSE: the batch, entry b at
   * dst + dst_at(b) * elem and src + src_at(b) * elem. */
  int64_t count;
  cl_compiled_layout_t dst_at, src_at;
  /* TRANSPOSE: i runs along dst's contiguous modes m[0..ni_modes), j along
   * src's m[ni_modes..ni_modes + nj_modes); the rest is the batch.  Element
   * (i, j) is src + (src_at(b) + i_src(i) + j) * elem, dst + (dst_at(b) +
   * j_dst(j) + i) * elem. */
  int ni_modes, nj_modes;
  int64_t ni, nj, batch;
  cl_compiled_layout_t i_src, j_dst;
  /* TILE: as TRANSPOSE, with any strides along the runs: element (i, j) is
   * src + (src_at(b) + i_src(i) + j * sj) * elem, dst + (dst_at(b) +
   * j_dst(j) + i * di) * elem; tiles of ti x tj elements.  With vec 16
   * over elements of 1 or 2 bytes (di = sj = 1), the wide tile kernel: rows
   * rp bytes apart in shared memory, and windows inside src's bytes [src_lo,
   * src_hi) (from src plus its origin) read whole; flat_dst: the tile's
   * columns continue one another in dst, written as one run. */
  /* ROWS: batch rows of the common run m[0] (ni elements), row b at dst +
   * dst_at(b) * elem and src + src_at(b) * elem; src_lo and src_hi as the
   * wide tile's. */
  int64_t di, sj;
  int ti, tj;
  int rp;
  bool flat_dst;
  int64_t src_lo, src_hi;
} cl_cuda_plan;

/* Copies of 2- or 4-byte elements of at most this many bytes take the
 * vector kernel, not tiles (plan.c's small_copy). */
#define CL_CUDA_SMALL_BYTES (256 << 10)

/* Kernels a plan may choose besides vector and generic (cl_cuda_plan_copy's
 * `allow`). */
enum { CL_CUDA_ALLOW_TILES = 1, CL_CUDA_ALLOW_MEMCPY = 2 };

/* Plans dst(i) = src(i) for two sides of equal size (checked by the caller)
 * and an element size of 1, 2, 4, 8 or 16 bytes.  allow: CL_CUDA_ALLOW_TILES
 * for the transpose and tile kernels, CL_CUDA_ALLOW_MEMCPY for
 * cudaMemcpyAsync (a batch has neither: one kernel serves every pair).  The plan depends on the sides' data
 * pointers only through their addresses modulo 16 (alignment), so it serves
 * any pointers with the same.  No CUDA call. */
cl_status cl_cuda_plan_copy(cl_cuda_plan *p, const cl_cuda_side *dst, const cl_cuda_side *src, int64_t elem,
                            int allow);
/* True when the plan's joint modes prove dst injective: sorted by dst
 * stride, each stride exceeds the reach of the smaller ones (false for the
 * generic kernel, which has no joint modes: prove it otherwise). */
bool cl_cuda_plan_dst_injective(const cl_cuda_plan *p);
/* The plan in one line, snprintf-style. */
int64_t cl_cuda_plan_format(const cl_cuda_plan *p, char *buf, size_t cap);

/* Byte range [*lo, *hi) a side reaches (its layout's offset range, widened to
 * the blocks its swizzle permutes); the side must be non-empty. */
cl_status cl_cuda_side_range(const cl_cuda_side *side, int64_t elem, int64_t *lo, int64_t *hi);
/* CL_E_OVERLAP unless the side's layout is injective by the sorted-strides
 * test: sorted by |stride|, each stride exceeds the reach of the smaller
 * ones (sufficient, not necessary; a swizzle is a bijection). */
cl_status cl_cuda_side_injective(const cl_cuda_side *side);
/* Fails unless [ptr + lo, ptr + hi) is device memory of the current device
 * inside one allocation.  what names the argument in the message. */
cl_status cl_cuda_check_memory(const void *ptr, int64_t lo, int64_t hi, const char *what);
/* Fails with CL_E_DEVICE unless a GPU is usable. */
cl_status cl_cuda_check_device(void);
/* CL_E_UNSUPPORTED unless elem is 1, 2, 4, 8 or 16. */
cl_status cl_cuda_check_elem(int64_t elem);

/* ---- kernels (kernels.cu) ---- */
/* Queues the plan's work on stream, between the data pointers dst and src. */
cl_status cl_cuda_launch_copy(const cl_cuda_plan *p, char *dst, const char *src, cl_cuda_stream_t stream);
/* Most pairs one launch of the batched kernel takes. */
#define CL_CUDA_BATCH CL_CUDA_BATCH_PAIRS
/* Queues the vector or generic plans p[0..n), n <= CL_CUDA_BATCH, as one
 * kernel launch, pair k between dst[k] and src[k]. */
cl_status cl_cuda_launch_batch(const cl_cuda_plan *const *p, char *const *dst, const char *const *src, int n,
                               cl_cuda_stream_t stream);
/* The checked plans of a batch of tensor copies, for queuing them again and
 * again without the host's work: pair k (of n, the non-empty pairs) between
 * dst[k] and src[k].  libcutelayout-nccl keeps its packing's. */
typedef struct cl_cuda_batch {
  size_t n;
  cl_cuda_plan *plans;
  char **dst;
  const char **src;
} cl_cuda_batch;
/* The batch functions are exported for libcutelayout-nccl (built from the
 * same tree, so always the same version) but are no public API: not in
 * cuda.h, free to change. */
#define CL_CUDA_SHARED __attribute__((visibility("default")))
/* Checks and plans the pairs as cl_cuda_tensor_copy_batched does (function
 * names the caller in messages), queuing nothing; *out is empty on failure. */
CL_CUDA_SHARED cl_status cl_cuda_batch_prepare(const cl_tensor_t *const *dst, const cl_tensor_t *const *src, size_t count,
                                const char *function, cl_cuda_batch *out);
/* Queues a prepared batch, CL_CUDA_BATCH pairs a launch. */
CL_CUDA_SHARED cl_status cl_cuda_batch_launch(const cl_cuda_batch *b, cl_cuda_stream_t stream);
/* Frees a batch's arrays (an empty or released batch too). */
CL_CUDA_SHARED void cl_cuda_batch_release(cl_cuda_batch *b);
/* Queues out[k] = cl_compiled_eval(layout, i0 + k), k < n. */
cl_status cl_cuda_launch_indices(const cl_compiled_layout_t *layout, int64_t i0, int64_t n, int64_t *out,
                                 cl_cuda_stream_t stream);
/* CL_E_DEVICE with "what: CUDA's message" for a failed CUDA call. */
cl_status cl_cuda_fail(int cuda_error, const char *what);

#ifdef __cplusplus
}
#endif
#endif
