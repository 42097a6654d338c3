/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda.h: cute-layout on NVIDIA GPUs, the optional CUDA module
 * libcutelayout-cuda (pkg-config package cute-layout-cuda; the core library
 * never depends on it).
 *
 *   cl_cuda_tensor_copy(dst, src, stream);   // dst(i) = src(i) on the GPU
 *
 * Tensors here are ordinary cl_tensor_t views (tensor.h) whose pointer is
 * device memory (cudaMalloc, cudaMallocManaged, a pool, PyTorch's or CuPy's
 * allocator).  The library's host functions must not touch the elements of
 * such a view (cl_tensor_copy, cl_tensor_load, ... would read device
 * addresses on the host); those that only look at the layout (slices,
 * divides, partitions, cl_tensor_copy_explain) are fine.
 *
 * Device evaluation of layouts needs no function here: compiled.h's
 * cl_compiled_layout_t is plain data that a kernel takes by value, and
 * cl_compiled_eval() is __host__ __device__ under nvcc.
 *
 * Conventions.  Every function that launches work is asynchronous on
 * `stream` (a cudaStream_t; NULL is the legacy default stream) and returns
 * once the work is queued: synchronise the stream before reading the
 * results on the host.  Failures are statuses (common.h) with a detail in
 * cl_last_error(), and nothing is queued on failure:
 *   CL_E_NULL         a NULL argument;
 *   CL_E_DEVICE       no usable GPU, a CUDA call that failed (the detail
 *                     names it and CUDA's message), or a pointer that is not
 *                     device memory of the current device (host memory, pinned
 *                     host memory, memory of another GPU);
 *   CL_E_BOUNDS       a view that reaches outside the device allocation its
 *                     pointer lies in;
 *   CL_E_UNSUPPORTED  an element size other than 1, 2, 4, 8 or 16 bytes;
 * and the copy's own errors (cl_cuda_tensor_copy).  The memory checks ask
 * the CUDA driver about each pointer (cudaPointerGetAttributes and the
 * allocation's address range), so a bad argument is refused on the host
 * instead of faulting on the device, which would spoil the CUDA context.
 * Errors of the work itself (none are expected) surface at the next
 * synchronisation, as for any kernel.
 *
 * Thread safety: as the core library; concurrent calls on different streams
 * are fine. */
#ifndef CUTELAYOUT_CUDA_H
#define CUTELAYOUT_CUDA_H

#include <cutelayout/cutelayout.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CUDA's cudaStream_t (struct CUstream_st *), named here so that this header
 * needs none of CUDA's: a cudaStream_t converts to it without a cast. */
typedef struct CUstream_st *cl_cuda_stream_t;

/* ---- copies ---- */

/* dst(i) = src(i) for every i, on the GPU, asynchronously on stream: CuTe's
 * copy(src, dst) between any two tensors of device memory (memcpy-style
 * argument order, as cl_tensor_copy).  Requirements, as cl_tensor_copy
 * checks them on the host: equal sizes (CL_E_DOMAIN) and element sizes and
 * types (CL_E_TYPE); dst injective and no byte shared by dst and src
 * (CL_E_OVERLAP); and the module's own: element size 1, 2, 4, 8 or 16
 * (CL_E_UNSUPPORTED), both views inside device allocations of the current
 * device (CL_E_DEVICE, CL_E_BOUNDS).  src may have any strides (negative,
 * zero for a broadcast).
 *
 * Planned on the host: the two layouts are refined jointly into modes of
 * (extent, dst stride, src stride), flipped to positive dst strides, sorted
 * and merged where contiguous in both.  Then
 *   - one contiguous run on both sides: cudaMemcpyAsync;
 *   - dst's unit-stride mode differs from src's: a tiled transpose through
 *     shared memory, reading rows along src's contiguous modes and writing
 *     rows along dst's, with 16-byte accesses where alignment allows;
 *   - the same where no wider access than an element is possible (odd
 *     extents, unaligned pointers, 16-byte elements) or a side has no unit
 *     stride: the tile kernel, tiles along each side's smallest stride with
 *     predicated edges, one element per access (runs of fewer than 8 steps,
 *     such as an image's 3 channels, take the vector kernel below);
 *   - otherwise: one thread per vector of the common contiguous run (up to
 *     16 bytes), both offsets evaluated by compiled layouts (compiled.h);
 *   - two layouts without a common refinement (e.g. (4,3) against (3,4)):
 *     the same kernel over the two layouts themselves, one element at a time.
 * cl_cuda_tensor_copy_explain() prints the plan.  An empty copy queues
 * nothing and succeeds. */
CL_API cl_status cl_cuda_tensor_copy(const cl_tensor_t *dst, const cl_tensor_t *src, cl_cuda_stream_t stream);

/* dst[k](i) = src[k](i) for every pair k < count, asynchronously on stream,
 * in one kernel launch per CL_CUDA_BATCH_PAIRS pairs: many small copies (a
 * model's per-layer tensors, say) for the host cost and GPU latency of about
 * one.  Each pair has cl_cuda_tensor_copy's requirements and errors, all
 * checked before anything is queued; the message of a failure starts with
 * "pair K: ".  Each pair is planned as cl_cuda_tensor_copy plans it but
 * without the memcpy and tiled kernels: one vector-or-generic kernel serves
 * every pair (a large transpose is faster alone).  Empty pairs are skipped;
 * count 0 queues nothing and succeeds (dst and src may then be NULL).  The
 * pairs must not overlap one another's destinations.  Errors: CL_E_NULL (dst
 * or src NULL with count > 0), CL_E_NOMEM, and those of cl_cuda_tensor_copy;
 * a failed launch (CL_E_DEVICE) may leave earlier launches queued. */
#define CL_CUDA_BATCH_PAIRS 40
CL_API cl_status cl_cuda_tensor_copy_batched(const cl_tensor_t *const *dst, const cl_tensor_t *const *src, size_t count,
                                             cl_cuda_stream_t stream);

/* One line describing the plan cl_cuda_tensor_copy would queue (kernel,
 * vector bytes, tile, joint modes), snprintf-style: returns the length of the
 * full text, or a negative status for a copy that would fail the layout
 * checks above (it looks at no memory and needs no GPU, so the element-size
 * and layout errors show here; the memory checks do not). */
CL_API int64_t cl_cuda_tensor_copy_explain(const cl_tensor_t *dst, const cl_tensor_t *src, char *buf, size_t cap);

/* dst(i) = src(i) where each side is device memory read or written through
 * a swizzled layout Sw<B,M,S> o offset o L (swizzle.h; a plain layout L is
 * Sw<0,0,0> o 0 o L): e.g. tiles kept in a swizzled shared-memory layout,
 * copied to a row-major matrix.  Element i of a side lives at byte
 * data + Sw(offset + L(i)) * elem_size.  Requirements: equal sizes of the
 * inner layouts (CL_E_DOMAIN); element size 1, 2, 4, 8 or 16
 * (CL_E_UNSUPPORTED); outer functions that are swizzles and inner ones that
 * are layouts (CL_E_UNSUPPORTED); dst's inner layout injective (a swizzle is
 * a bijection), proven by sorted strides (CL_E_OVERLAP when the proof fails);
 * the two sides' byte ranges, each widened to the blocks its swizzle
 * permutes, disjoint (CL_E_OVERLAP); the memory checks above.  Planned as
 * cl_cuda_tensor_copy plans (joint modes of the inner layouts), with vectors
 * no longer than the runs each swizzle keeps together (2^M elements);
 * never tiled. */
CL_API cl_status cl_cuda_composed_copy(void *dst, const cl_composed_t *dst_layout, const void *src,
                                       const cl_composed_t *src_layout, size_t elem_size, cl_cuda_stream_t stream);

/* ---- layouts evaluated on the device ---- */

/* out_device[k] = layout(i0 + k) for 0 <= k < n: CuTe's layout(i), evaluated
 * on the GPU by the compiled layout (compiled.h), asynchronously on stream.
 * 0 <= i0, 0 <= n, i0 + n <= size(layout) (CL_E_DOMAIN); out_device is
 * int64_t device memory with room for n values (CL_E_DEVICE, CL_E_BOUNDS);
 * the layout's compile errors (cl_layout_compile). */
CL_API cl_status cl_cuda_layout_indices(const cl_layout_t *layout, int64_t i0, int64_t n, int64_t *out_device,
                                        cl_cuda_stream_t stream);
/* The same for an already compiled layout (a swizzled one from
 * cl_composed_compile too): out_device[k] = cl_compiled_eval(layout, i0 + k).
 * Errors: CL_E_NULL, CL_E_DOMAIN (the range leaves [0, layout->size)), the
 * memory checks. */
CL_API cl_status cl_cuda_compiled_indices(const cl_compiled_layout_t *layout, int64_t i0, int64_t n,
                                          int64_t *out_device, cl_cuda_stream_t stream);

/* ---- DLPack ---- */

/* A view of a DLTensor of GPU memory (device type kDLCUDA = 2 or
 * kDLCUDAManaged = 13), built as cl_tensor_from_dlpack (tensor.h) builds one
 * of host memory: mode k is dimension k.  The view's pointer is device
 * memory, for this module's functions (e.g. a PyTorch or CuPy CUDA tensor
 * through __dlpack__).  The tensor does not own the memory: keep the DLPack
 * producer alive while it is used.  Errors: CL_E_UNSUPPORTED for another
 * device type; those of cl_tensor_from_dlpack. */
CL_API cl_status cl_cuda_tensor_from_dlpack(const cl_dltensor_t *dl, cl_tensor_t **out);

#ifdef __cplusplus
}
#endif
#endif
