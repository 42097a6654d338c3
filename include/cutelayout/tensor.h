/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor.h: tensor views, CuTe's Tensor<Engine,Layout> on the host.
 *
 * A tensor is a base pointer plus a layout: element i of tensor T lives at
 * byte address  data + layout(i) * elem_size.  The library never owns the
 * memory a view points at (the one exception, cl_tensor_alloc and
 * cl_make_tensor_like, is documented there), so a view is cheap: slicing,
 * tiling and partitioning make new views of the same memory.
 *
 * cl_tensor_t is an opaque, immutable handle (like cl_layout_t): it holds
 *   - the base pointer (not owned; offsets may be negative, so the element at
 *     offset 0 need not be the lowest one),
 *   - the element size in bytes and an optional element type (cl_dtype), used
 *     by cl_print_tensor and DLPack export,
 *   - its own copy of the layout (the layout passed in is copied; the handle
 *     from cl_tensor_layout() is borrowed and lives as long as the tensor),
 *   - optionally the memory extent [extent_base, extent_base + extent_bytes)
 *     the view must stay inside.  With an extent every constructor checks
 *     that all elements of the new view lie inside it (CL_E_BOUNDS otherwise),
 *     and derived views inherit the extent, so no access through such a
 *     tensor can leave its memory.  Without one the caller vouches for the
 *     memory, as with a C pointer.
 * The handle is read-only; functions that write elements (copy, fill, store)
 * take a const handle and write the memory it views.
 *
 * Conventions: statuses as everywhere in the library; results through the
 * last parameter, NULL on failure; free every handle with cl_tensor_free().
 * Coordinates are CuTe's: a linear coordinate i in [0, size) is split
 * colexicographically by the shape; a hierarchical coordinate is an int tuple
 * weakly congruent with the shape whose every integer is within the extent
 * of its mode.  A coordinate outside the shape is CL_E_DOMAIN.
 *
 * Thread safety: a tensor handle may be read by any number of threads; the
 * memory it views is the caller's to synchronise. */
#ifndef CUTELAYOUT_TENSOR_H
#define CUTELAYOUT_TENSOR_H

#include <stdio.h>

#include "common.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cl_tensor cl_tensor_t;

/* Element types, for printing and DLPack.  CL_DTYPE_NONE means "elem_size
 * opaque bytes".  New values are only appended. */
typedef enum cl_dtype {
  CL_DTYPE_NONE = 0,
  CL_DTYPE_INT8 = 1,
  CL_DTYPE_INT16 = 2,
  CL_DTYPE_INT32 = 3,
  CL_DTYPE_INT64 = 4,
  CL_DTYPE_UINT8 = 5,
  CL_DTYPE_UINT16 = 6,
  CL_DTYPE_UINT32 = 7,
  CL_DTYPE_UINT64 = 8,
  CL_DTYPE_FLOAT16 = 9,  /* IEEE binary16 */
  CL_DTYPE_BFLOAT16 = 10,
  CL_DTYPE_FLOAT32 = 11,
  CL_DTYPE_FLOAT64 = 12
} cl_dtype;

/* The size in bytes of an element of type dtype; 0 for CL_DTYPE_NONE or an
 * unknown value. */
CL_API size_t cl_dtype_size(cl_dtype dtype);
/* "int8", "float32", ...; "none" for CL_DTYPE_NONE; NULL for unknown values. */
CL_API const char *cl_dtype_name(cl_dtype dtype);
/* The inverse of cl_dtype_name: CL_E_PARSE for an unknown name. */
CL_API cl_status cl_dtype_parse(const char *name, cl_dtype *out);

/* Everything a tensor holds except its layout.  `struct_size` lets the
 * struct grow without breaking the ABI: set it to sizeof(cl_tensor_desc) as
 * your program compiled it; fields past it are taken as zero. */
typedef struct cl_tensor_desc {
  size_t struct_size;       /* sizeof(cl_tensor_desc) */
  void *data;               /* the address of the element at offset 0 */
  size_t elem_size;         /* bytes per element; 0 = cl_dtype_size(dtype) */
  cl_dtype dtype;           /* CL_DTYPE_NONE if unknown */
  const void *extent_base;  /* NULL: no bounds known */
  size_t extent_bytes;      /* the view's memory is [extent_base, extent_base + extent_bytes) */
} cl_tensor_desc;

/* ---- making and freeing ---- */

/* A view of desc->data through a copy of `layout`.  Errors: CL_E_NULL (desc,
 * layout, out, or data with a non-empty layout); CL_E_DOMAIN (elem_size 0 with
 * no dtype, or an elem_size that disagrees with dtype); CL_E_ABI (struct_size
 * smaller than the first version of the struct); CL_E_OVERFLOW (a byte offset
 * of an element does not fit in ptrdiff_t, or the element's address would
 * leave the address space); CL_E_BOUNDS (an element outside the extent, when
 * one is given). */
CL_API cl_status cl_tensor_create(const cl_tensor_desc *desc, const cl_layout_t *layout, cl_tensor_t **out);
/* Shorthands for cl_tensor_create without an extent. */
CL_API cl_status cl_tensor_new(void *data, size_t elem_size, const cl_layout_t *layout, cl_tensor_t **out);
CL_API cl_status cl_tensor_new_typed(void *data, cl_dtype dtype, const cl_layout_t *layout, cl_tensor_t **out);
/* A tensor that owns zeroed storage for `layout` (every offset the layout
 * reaches, negative ones included); the storage is freed with the tensor.
 * Views derived from it borrow the storage and must not outlive it.  It has
 * an extent, so views of it are bounds-checked.  elem_size 0 means
 * cl_dtype_size(dtype). */
CL_API cl_status cl_tensor_alloc(const cl_layout_t *layout, size_t elem_size, cl_dtype dtype, cl_tensor_t **out);
/* CuTe's make_tensor_like(T): a new owning tensor of T's element type over
 * make_layout_like(layout(T)) (same shape, compact strides in the order of
 * T's strides).  make_fragment_like: the same with mode 0 column-major. */
CL_API cl_status cl_make_tensor_like(const cl_tensor_t *t, cl_tensor_t **out);
CL_API cl_status cl_make_fragment_like_tensor(const cl_tensor_t *t, cl_tensor_t **out);
/* The same view in a new handle. */
CL_API cl_status cl_tensor_copy_handle(const cl_tensor_t *t, cl_tensor_t **out);
/* NULL is a no-op.  Frees owned storage (cl_tensor_alloc), never a view's memory. */
CL_API void cl_tensor_free(cl_tensor_t *t);

/* ---- queries (NULL-safe: 0/NULL for a NULL tensor) ---- */
CL_API void *cl_tensor_data(const cl_tensor_t *t);
/* Borrowed: valid while t lives.  Copy it with cl_layout_copy to keep it. */
CL_API const cl_layout_t *cl_tensor_layout(const cl_tensor_t *t);
CL_API size_t cl_tensor_elem_size(const cl_tensor_t *t);
CL_API cl_dtype cl_tensor_dtype(const cl_tensor_t *t);
CL_API int64_t cl_tensor_size(const cl_tensor_t *t);
CL_API int64_t cl_tensor_rank(const cl_tensor_t *t);
/* Fills *desc (up to desc->struct_size, which the caller sets) with t's fields. */
CL_API cl_status cl_tensor_describe(const cl_tensor_t *t, cl_tensor_desc *desc);
/* The smallest and largest element offsets the layout reaches (0 and 0 for
 * an empty tensor), i.e. the elements lie in [data + lo*elem, data + (hi+1)*elem). */
CL_API cl_status cl_tensor_offset_range(const cl_tensor_t *t, int64_t *lo, int64_t *hi);

/* ---- element access ----
 * Each checks the coordinate against the shape (CL_E_DOMAIN) and, with an
 * extent, the element against the extent (CL_E_BOUNDS) before touching
 * memory. */
/* The element offset layout(i) of linear coordinate i in [0, size). */
CL_API CL_NOPLT cl_status cl_tensor_offset(const cl_tensor_t *t, int64_t i, int64_t *offset);
/* The address of element i, of element crd (hierarchical), or of element
 * (c[0], ..., c[n-1]) with one linear coordinate per top-level mode (CuTe's
 * tensor(c0, c1, ...); n must equal the rank, CL_E_RANK otherwise). */
CL_API cl_status cl_tensor_ptr(const cl_tensor_t *t, int64_t i, void **out);
CL_API cl_status cl_tensor_ptr_coord(const cl_tensor_t *t, const cl_tuple_t *crd, void **out);
CL_API cl_status cl_tensor_ptr_at(const cl_tensor_t *t, const int64_t *c, int64_t n, void **out);
/* Copy elem_size bytes out of / into element i or element crd. */
CL_API cl_status cl_tensor_load(const cl_tensor_t *t, int64_t i, void *value);
CL_API cl_status cl_tensor_store(const cl_tensor_t *t, int64_t i, const void *value);
CL_API cl_status cl_tensor_load_coord(const cl_tensor_t *t, const cl_tuple_t *crd, void *value);
CL_API cl_status cl_tensor_store_coord(const cl_tensor_t *t, const cl_tuple_t *crd, const void *value);
/* Element i converted to double, for typed tensors (CL_E_TYPE for
 * CL_DTYPE_NONE). */
CL_API cl_status cl_tensor_load_f64(const cl_tensor_t *t, int64_t i, double *value);
/* CL_OK when every element lies inside the tensor's extent (or the tensor has
 * none); CL_E_BOUNDS naming the first offending offset otherwise. */
CL_API cl_status cl_tensor_check_bounds(const cl_tensor_t *t);

/* ---- views (each returns a new view of the same memory) ---- */
/* CuTe's tensor(crd) with underscores: slice(crd, layout) with the offset
 * layout(crd, _ -> 0) folded into the pointer.  Integers must lie inside
 * their modes (CL_E_DOMAIN); the profile must match (CL_E_RANK). */
CL_API cl_status cl_tensor_slice(const cl_tensor_t *t, const cl_tuple_t *crd, cl_tensor_t **out);
/* The same view with another layout (make_tensor(data(t), layout)). */
CL_API cl_status cl_tensor_with_layout(const cl_tensor_t *t, const cl_layout_t *layout, cl_tensor_t **out);
/* flatten(T), group_modes<b,e>(T) (CL_E_DOMAIN for a bad range), as on layouts. */
CL_API cl_status cl_tensor_flatten(const cl_tensor_t *t, cl_tensor_t **out);
CL_API cl_status cl_tensor_group(const cl_tensor_t *t, int64_t begin, int64_t end, cl_tensor_t **out);
/* ---- views through the layout algebra (algebra.h) ----
 * Each is CuTe's tensor operation: the layout operation on layout(T), over
 * T's memory, with the algebra's errors (CL_E_DIVISIBILITY, CL_E_RANK, ...)
 * and, for a tensor with an extent, CL_E_BOUNDS when the result would reach
 * outside it. */
/* composition(T, tiler): make_tensor(data(T), composition(layout(T), tiler))
 * for a tiler tuple (layouts, integers, '_', as cl_composition_tiler takes)
 * or a layout (cl_composition). */
CL_API cl_status cl_tensor_compose(const cl_tensor_t *t, const cl_tuple_t *tiler, cl_tensor_t **out);
CL_API cl_status cl_tensor_compose_layout(const cl_tensor_t *t, const cl_layout_t *layout, cl_tensor_t **out);
/* logical_divide(T, tiler): (tile, rest) per mode; zipped_divide(T, tiler):
 * ((tile modes...), (rest modes...)), as cl_logical_divide_tiler and
 * cl_zipped_divide_tiler. */
CL_API cl_status cl_tensor_logical_divide(const cl_tensor_t *t, const cl_tuple_t *tiler, cl_tensor_t **out);
CL_API cl_status cl_tensor_zipped_divide(const cl_tensor_t *t, const cl_tuple_t *tiler, cl_tensor_t **out);
/* inner_partition(T, tiler, coord): zipped_divide(T, tiler) sliced at
 * (tile: all, rest: coord), the tile that coord picks.  A tuple coord is
 * padded with '_' to the rank of the rest mode (CL_E_RANK when longer); an
 * integer coord indexes the rest mode linearly; coord may hold '_' to keep
 * rest modes.  local_tile(T, tiler, coord) is the same function under CuTe's
 * name for tiling at the CTA level (without CuTe's projection argument:
 * project the tiler and coord first).  E.g. T (M,N), tiler (32,64), coord
 * (i,j): the 32x64 tile at tile row i, tile column j. */
CL_API cl_status cl_inner_partition(const cl_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, cl_tensor_t **out);
CL_API cl_status cl_local_tile(const cl_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, cl_tensor_t **out);
/* outer_partition(T, tiler, coord): zipped_divide(T, tiler) sliced at
 * (tile: coord, rest: all), the elements at position coord of every tile. */
CL_API cl_status cl_outer_partition(const cl_tensor_t *t, const cl_tuple_t *tiler, const cl_tuple_t *coord, cl_tensor_t **out);
/* local_partition(T, thr_layout, index): the elements thread `index` owns
 * when T is tiled by repetitions of thr_layout's shape: CuTe's
 * outer_partition(T, product_each(shape(thr)), thr.get_flat_coord(index)),
 * the thread's coordinate found leaf-wise as (index / stride) % extent.
 * E.g. T (16,64), thr (2,16):(1,2), index 5: the (8,4) elements
 * T(1 + 2m, 2 + 16n).  index in [0, cosize(thr)) (CL_E_DOMAIN); a mode of
 * extent > 1 with a stride <= 0 is CL_E_DOMAIN (no coordinate to find). */
CL_API cl_status cl_local_partition(const cl_tensor_t *t, const cl_layout_t *thr_layout, int64_t index, cl_tensor_t **out);
/* recast<New>(T): the same memory seen as elements of new_elem_size bytes of
 * type dtype (size 0: cl_dtype_size(dtype)) through CuTe's recast_layout:
 * with new/old = num/den in lowest terms, upcast<num> then downcast<den>;
 * on an upcast the pointer moves as CuTe's does for negative strides.
 * CL_E_DOMAIN for a size that disagrees with dtype; the algebra's
 * CL_E_DIVISIBILITY / CL_E_DOMAIN when the layout cannot be recast. */
CL_API cl_status cl_tensor_recast(const cl_tensor_t *t, size_t new_elem_size, cl_dtype dtype, cl_tensor_t **out);

/* ---- algorithms ---- */
/* dst(i) = src(i) for every i, memcpy-style argument order.  Requirements:
 * equal sizes (CL_E_DOMAIN) and element sizes (CL_E_TYPE; two different
 * dtypes is CL_E_TYPE too); dst injective, i.e. no two coordinates of dst
 * reach one element, and no byte of dst's elements is a byte of src's
 * (CL_E_OVERLAP, also when the check cannot prove the absence of overlap
 * within its working memory of 16 MiB; it is exact below that).  src may
 * have any strides (negative, zero: broadcast).  Nothing is written on
 * failure.  Fast: the two layouts are coalesced jointly (their common
 * refinement, modes merged where contiguous in both), contiguous runs are
 * copied with memcpy, transposes move whole cache lines through tiles
 * transposed in vector registers (SSE2, AVX2 or AVX-512, chosen at run time;
 * the environment variable CUTELAYOUT_COPY_ISA = "avx2", "sse2" or "scalar"
 * caps the choice), copies of 16 MiB or more use streaming stores, and no
 * path divides per element.  Where the faster of two strategies depends on
 * the processor (staging a transpose through a buffer, prefetching short
 * rows), it is measured: see cl_copy_calibrate. */
CL_API cl_status cl_tensor_copy(const cl_tensor_t *dst, const cl_tensor_t *src);
/* How cl_tensor_copy_ex stores the destination. */
typedef enum cl_copy_stores {
  CL_COPY_STORES_AUTO = 0,     /* streaming for copies of 16 MiB or more (transposes of 8 MiB or
                                  more where measured to pay: cl_copy_calibrate), else cached */
  CL_COPY_STORES_CACHED = 1,   /* ordinary stores: the destination is left in the cache */
  CL_COPY_STORES_STREAMING = 2 /* streaming (non-temporal) stores past the cache, whatever the size */
} cl_copy_stores_t;

/* Threads that a program keeps for its copies (cl_copy_pool_new), so that
 * repeated copies split between threads do not start threads each time. */
typedef struct cl_copy_pool cl_copy_pool_t;

/* Options of cl_tensor_copy_ex.  `struct_size` lets the struct grow without
 * breaking the ABI, as in cl_tensor_desc: set it to sizeof(cl_copy_options_t)
 * as your program compiled it; fields past it are taken as zero, and zero is
 * each field's default. */
typedef struct cl_copy_options {
  size_t struct_size;      /* sizeof(cl_copy_options_t) */
  cl_copy_stores_t stores; /* CL_COPY_STORES_AUTO */
  int threads;             /* 0 or 1: the calling thread only; up to CL_COPY_MAX_THREADS */
  cl_copy_pool_t *pool;    /* NULL: threads are started for the call; else the pool's run the pieces */
} cl_copy_options_t;

/* The most threads one copy may use. */
#define CL_COPY_MAX_THREADS 64

/* cl_tensor_copy with options (NULL: the defaults, which is cl_tensor_copy).
 * Streaming stores apply where the destination's lines can be written whole
 * (on x86-64; elsewhere every store is cached).  threads > 1: the copy is
 * split between up to that many threads, created for this call and joined
 * before it returns (no thread outlives the call), along its outermost
 * independent mode or, when that has too few steps, along the kernel's own
 * loop; fewer threads when the copy is small (each gets 1 MiB or more) or
 * has fewer pieces; a thread that cannot be created leaves its piece to the
 * caller's thread.  With a pool (cl_copy_pool_new) the pieces are run by
 * the pool's threads and the calling thread instead, none started; a pool
 * runs one copy at a time (others wait their turn).  Errors: those of cl_tensor_copy; CL_E_ABI (struct_size
 * smaller than the first version of the struct); CL_E_DOMAIN (a `stores`
 * value not listed, threads < 0 or > CL_COPY_MAX_THREADS). */
CL_API cl_status cl_tensor_copy_ex(const cl_tensor_t *dst, const cl_tensor_t *src, const cl_copy_options_t *opt);
/* Measures now which of the host copy's strategies are faster on this
 * processor (a fraction of a second: copies of 8 MiB, each candidate a few
 * times), uses the answer for the rest of the process and remembers it in
 * the cache file $XDG_CACHE_HOME/cute-layout/copy-wisdom (else
 * $HOME/.cache/cute-layout/copy-wisdom; written atomically, keyed by the
 * processor's model and the library's version; a file that cannot be
 * written is skipped silently).  Without this call the first copy of 16 MiB
 * or more reads that file, or measures when the file is missing, corrupt or
 * another processor's or version's.  The environment variable
 * CUTELAYOUT_COPY_TUNE = "off" uses the built-in defaults and neither
 * measures nor reads; a comma-separated list of "staged" or "direct" and
 * "prefetch" or "noprefetch" forces those choices.  Every choice copies the
 * same values.  Errors: CL_E_NOMEM (the measurement's buffers; the choice is
 * left as it was). */
CL_API cl_status cl_copy_calibrate(void);
/* Starts `threads` threads (1 to CL_COPY_MAX_THREADS) that wait for the
 * pieces of copies given this pool in cl_copy_options_t, until
 * cl_copy_pool_free.  Errors: CL_E_NULL (out), CL_E_DOMAIN (threads out of
 * range), CL_E_NOMEM (memory, or a thread that could not be started; then
 * none is left running). */
CL_API cl_status cl_copy_pool_new(int threads, cl_copy_pool_t **out);
/* Stops and joins the pool's threads (after the copy in flight, if any) and
 * frees it; NULL is accepted.  No copy may be given the pool afterwards. */
CL_API void cl_copy_pool_free(cl_copy_pool_t *pool);
/* ---- the copy plan ----
 * The joint-mode analysis behind cl_tensor_copy, as plain data, for engines
 * that run a copy themselves (the CUDA module plans device copies with it;
 * cl_tensor_copy_explain prints it).
 *
 * Both layouts are split into their leaves and the two lists of extents are
 * refined into one list of joint modes, each with a dst and a src stride;
 * modes are flipped so that every dst stride is positive (the first element
 * moves to dst_offset, src_offset), ordered, and merged where contiguous in
 * both; a leading mode contiguous in both becomes the common vector.  Then
 * the copy is exactly: for every position t of the tails (below) and every
 * coordinate c with 0 <= c[k] < extent[k] (k < rank, in any order), the
 * `vector` consecutive elements at src element offset
 *     src_offset + src_tail(t) + sum_k c[k] * src_stride[k]
 * go to the `vector` consecutive elements at dst element offset
 *     dst_offset + dst_tail(t) + sum_k c[k] * dst_stride[k].
 * Offsets and strides count elements of elem_size bytes from each tensor's
 * data pointer.  Tails: when the two lists of extents have no common
 * refinement (e.g. (2,3) against (3,2)), the leaves past the refinable
 * prefix are walked by one counter per side, both counting t = 0, 1, ...
 * colexicographically over their own extents (the products are equal; both
 * tail ranks are 0 when everything refines): dst_tail(t) = sum_k d_k *
 * dst_tail_stride[k], d the digits of t in the radices dst_tail_extent, and
 * src_tail(t) likewise.
 *
 * The kernel cl_tensor_copy picks:
 *   CL_COPY_KERNEL_NONE       size 0: nothing to copy (rank 0);
 *   CL_COPY_KERNEL_MEMCPY     no joint mode is left that the kernel walks:
 *                             each unit is one memcpy;
 *   CL_COPY_KERNEL_STRIDED    mode 0 is the inner loop, mode 1 the next;
 *   CL_COPY_KERNEL_TRANSPOSE  modes [0, dst_run) form the run along which dst
 *                             is contiguous (dst_stride[0] == vector, each
 *                             next mode continuing the run), modes
 *                             [dst_run, dst_run + src_run) the run along
 *                             which src is contiguous (src_stride[dst_run] ==
 *                             vector), or with CL_COPY_PLAN_GATHERED one
 *                             mode taking every other src element
 *                             (src_stride[dst_run] == 2 * vector); the copy
 *                             tiles the two runs.
 * Modes past the ones the kernel walks have positive dst strides in no
 * particular order.  Every joint mode has an extent of at least 2, so rank
 * and the tail ranks are at most 62 (their product is the size), below
 * CL_COPY_PLAN_MAX_MODES. */
#define CL_COPY_PLAN_MAX_MODES 64

typedef enum cl_copy_kernel {
  CL_COPY_KERNEL_NONE = 0,
  CL_COPY_KERNEL_MEMCPY = 1,
  CL_COPY_KERNEL_STRIDED = 2,
  CL_COPY_KERNEL_TRANSPOSE = 3
} cl_copy_kernel_t;

/* cl_copy_plan_t.flags: how the host copy runs the plan. */
#define CL_COPY_PLAN_STREAMING 1u /* streaming stores */
#define CL_COPY_PLAN_STAGED 2u    /* transpose blocks staged and written as runs per dst row */
#define CL_COPY_PLAN_PREFETCH 4u  /* short src rows prefetched */
#define CL_COPY_PLAN_GATHERED 8u  /* transpose whose src run is every other element, compacted first */

typedef struct cl_copy_plan {
  size_t struct_size;      /* sizeof(cl_copy_plan_t), set by the caller */
  cl_copy_kernel_t kernel;
  unsigned flags;          /* CL_COPY_PLAN_* */
  int64_t elem_size;       /* bytes per element of both tensors */
  int64_t vector;          /* elements per unit: the common contiguous vector */
  int64_t dst_offset, src_offset;
  int64_t rank;            /* joint modes */
  int64_t dst_run, src_run; /* CL_COPY_KERNEL_TRANSPOSE's runs; 0 otherwise */
  int64_t extent[CL_COPY_PLAN_MAX_MODES];
  int64_t dst_stride[CL_COPY_PLAN_MAX_MODES];
  int64_t src_stride[CL_COPY_PLAN_MAX_MODES];
  int64_t dst_tail_rank, src_tail_rank;
  int64_t dst_tail_extent[CL_COPY_PLAN_MAX_MODES], dst_tail_stride[CL_COPY_PLAN_MAX_MODES];
  int64_t src_tail_extent[CL_COPY_PLAN_MAX_MODES], src_tail_stride[CL_COPY_PLAN_MAX_MODES];
} cl_copy_plan_t;

/* Fills *plan (whose struct_size the caller sets) with the plan
 * cl_tensor_copy_ex(dst, src, opt) would run, after the same checks: its
 * errors are the copy's (nothing is copied), plus CL_E_NULL for a NULL
 * plan and CL_E_ABI for a struct_size smaller than cl_copy_plan_t. */
CL_API cl_status cl_tensor_copy_plan(const cl_tensor_t *dst, const cl_tensor_t *src, const cl_copy_options_t *opt,
                                     cl_copy_plan_t *plan);
/* Describes the plan cl_tensor_copy would use (cl_tensor_copy_plan with the
 * default options: kernel, joint modes, runs, how it stores), one line,
 * snprintf-style; a negative status if the copy would fail. */
CL_API int64_t cl_tensor_copy_explain(const cl_tensor_t *dst, const cl_tensor_t *src, char *buf, size_t cap);
/* Every element of t = the elem_size bytes at value.  A broadcast (stride-0)
 * layout is fine here. */
CL_API cl_status cl_tensor_fill(const cl_tensor_t *t, const void *value);
/* fn(ctx, element address, i) for every i in [0, size) in order. */
typedef void (*cl_tensor_apply_fn)(void *ctx, void *elem, int64_t i);
CL_API cl_status cl_tensor_apply(const cl_tensor_t *t, cl_tensor_apply_fn fn, void *ctx);
/* CuTe's transform(src, dst, op), memcpy-style order: fn(ctx, dst(i), src(i))
 * for every i in order.  Sizes must agree (CL_E_DOMAIN); element sizes and
 * types may differ (fn converts).  dst must not overlap src (CL_E_OVERLAP)
 * unless it is the same view (same data, layout and element size), which
 * makes an in-place transform. */
typedef void (*cl_tensor_transform_fn)(void *ctx, void *dst_elem, const void *src_elem);
CL_API cl_status cl_tensor_transform(const cl_tensor_t *dst, const cl_tensor_t *src, cl_tensor_transform_fn fn, void *ctx);

/* ---- odometer: every offset of a layout, in order, without division ----
 * An odometer walks i = 0, 1, ..., size-1 and yields layout(i), one addition
 * per step (plus a carry now and then).  It is a mutable iterator: one
 * thread at a time. */
typedef struct cl_odometer cl_odometer_t;
CL_API cl_status cl_odometer_new(const cl_layout_t *layout, cl_odometer_t **out);
CL_API void cl_odometer_free(cl_odometer_t *it);
/* Writes the next offset to *offset and returns 1, or returns 0 at the end
 * (and on a NULL argument). */
CL_API int cl_odometer_next(cl_odometer_t *it, int64_t *offset);
/* Writes up to cap next offsets; returns how many (0 at the end). */
CL_API int64_t cl_odometer_next_batch(cl_odometer_t *it, int64_t *offsets, int64_t cap);
/* The linear coordinate of the offset last returned (-1 before the first). */
CL_API int64_t cl_odometer_index(const cl_odometer_t *it);
/* Number of leaves of the layout: the length of the flat coordinate. */
CL_API int64_t cl_odometer_leaves(const cl_odometer_t *it);
/* The flat coordinate (one integer per leaf of the shape, in order) of the
 * offset last returned; n must be cl_odometer_leaves (CL_E_RANK). */
CL_API cl_status cl_odometer_coord(const cl_odometer_t *it, int64_t *coord, int64_t n);
/* Back to the start. */
CL_API void cl_odometer_reset(cl_odometer_t *it);

/* ---- print_tensor ----
 * CuTe's print_tensor: a header "ptr[32b](0x...) o LAYOUT:" (unless
 * CL_PRINT_NO_HEADER), then the values: rank 1 one per line, rank 2 as a
 * table (row m = mode-0 coordinate), rank 3 as rank-2 tables for each
 * coordinate of mode 2 separated by lines of '-', rank 4 as rank-3 blocks
 * separated by lines of '=', each higher rank likewise with '#'.  A rank-0
 * tensor prints its one element.  Numbers as CuTe's pretty_print:
 * int32 "%5d", int64 "%5lld", float32 "%10.2e", float64 "%11.3e",
 * float16/bfloat16 "%8.2f", int8/16 and uint8/16 "  %d"; untyped elements as
 * "  0x" and their bytes in hex.  At most CL_PICTURE_MAX_CELLS entries,
 * counting an empty mode as one (CL_E_LIMIT). */
#define CL_PRINT_NO_HEADER 1u
/* snprintf-style: returns the full length, writes at most cap bytes. */
CL_API int64_t cl_print_tensor(const cl_tensor_t *t, unsigned flags, char *buf, size_t cap);
/* The same text to a stream; returns the bytes written or a negative status
 * (CL_E_DOMAIN if the stream fails). */
CL_API int64_t cl_print_tensor_file(const cl_tensor_t *t, unsigned flags, FILE *f);

/* ---- DLPack ----
 * The DLPack ABI (dlpack.h, v0.6 and later: DLDevice, DLDataType, DLTensor).
 * When <dlpack/dlpack.h> was included before this header, cl_dltensor_t is
 * DLPack's own DLTensor; otherwise these are layout-identical stand-ins. */
#if defined(DLPACK_DLPACK_H_) || defined(DLPACK_VERSION)
typedef DLTensor cl_dltensor_t;
#else
typedef struct cl_dldevice {
  int32_t device_type; /* DLDeviceType: 1 CPU, 2 CUDA, 3 CUDA host, ... */
  int32_t device_id;
} cl_dldevice;
typedef struct cl_dldatatype {
  uint8_t code;   /* DLDataTypeCode: 0 int, 1 uint, 2 float, 3 opaque, 4 bfloat, ... */
  uint8_t bits;
  uint16_t lanes;
} cl_dldatatype;
typedef struct cl_dltensor {
  void *data;
  cl_dldevice device;
  int32_t ndim;
  cl_dldatatype dtype;
  int64_t *shape;
  int64_t *strides;     /* in elements; NULL = compact row-major */
  uint64_t byte_offset;
} cl_dltensor_t;
#endif

/* A view of a DLTensor: mode k of the layout is dimension k (extent
 * shape[k], stride strides[k] elements, or compact row-major strides when
 * strides is NULL); data + byte_offset is the element at offset 0; ndim 0 is
 * the rank-0 layout `():()`.  The dtype maps to cl_dtype where one fits
 * (int/uint 8-64, float 16/32/64, bfloat16), else the tensor is untyped with
 * elem_size bits*lanes/8.  Errors: CL_E_UNSUPPORTED (a device whose memory
 * the host cannot read: only CPU, CUDA host and CUDA managed memory are
 * accepted; bits*lanes not a multiple of 8); CL_E_DOMAIN (negative ndim or
 * extent); CL_E_LIMIT (ndim over CL_MAX_RANK); CL_E_OVERFLOW. */
CL_API cl_status cl_tensor_from_dlpack(const cl_dltensor_t *dl, cl_tensor_t **out);
/* Describes t as a DLTensor on the CPU: out->shape and out->strides point at
 * the caller's arrays shape[cap] and strides[cap], which receive one entry per
 * top-level mode; byte_offset is 0.  Each mode must be expressible as a single
 * extent and stride (its leaves coalesce to one), else CL_E_UNSUPPORTED;
 * cap < rank is CL_E_LIMIT.  Untyped tensors export as opaque (code 3). */
CL_API cl_status cl_tensor_to_dlpack(const cl_tensor_t *t, cl_dltensor_t *out, int64_t *shape, int64_t *strides, int64_t cap);

#ifdef __cplusplus
}
#endif
#endif
