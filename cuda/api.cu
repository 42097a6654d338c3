/* SPDX-License-Identifier: BSD-3-Clause */
// api.cu: the CUDA module's public functions (cuda.h): argument and memory
// checks on the host, then a plan (plan.c) and a launch (kernels.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "cuda_status.h"
#include "cuda_impl.h"

namespace {

// cuMemGetAddressRange of the driver API, found through the runtime so that
// the module links no driver library: without a driver it still loads (and
// its functions answer CL_E_DEVICE).
typedef int (*address_range_fn)(unsigned long long *base, size_t *size, unsigned long long ptr);

address_range_fn address_range() {
  static address_range_fn fn = [] {
    void *entry = nullptr;
    cudaDriverEntryPointQueryResult found;
    if (cudaGetDriverEntryPointByVersion("cuMemGetAddressRange", &entry, 12000, cudaEnableDefault, &found) !=
            cudaSuccess ||
        found != cudaDriverEntryPointSuccess)
      entry = nullptr;
    cudaGetLastError();
    return reinterpret_cast<address_range_fn>(entry);
  }();
  return fn;
}

using cl_cuda_status::fail;
using cl_cuda_status::null_argument;

cl_cuda_side tensor_side(const cl_tensor_t *t) {
  cl_cuda_side side = {static_cast<char *>(cl_tensor_data(t)), cl_tensor_layout(t), {0, 0, 0}, 0};
  return side;
}

// The GPU accesses elements at their natural alignment.
cl_status check_aligned(const void *data, int64_t elem, const char *what) {
  if (uintptr_t(data) % uintptr_t(elem) == 0)
    return CL_OK;
  return fail(CL_E_UNSUPPORTED, "%s: address %p is not a multiple of the %lld-byte element size", what, data,
              (long long)elem);
}

// The checks of a tensor copy that need no plan: those of the host copy on
// sizes and types (its own message), then the module's element sizes and
// alignment.
cl_status check_tensors(const cl_tensor_t *dst, const cl_tensor_t *src, const char *function) {
  if (dst == nullptr)
    return null_argument(function, "dst");
  if (src == nullptr)
    return null_argument(function, "src");
  cl_dtype dt = cl_tensor_dtype(dst), st = cl_tensor_dtype(src);
  if (cl_tensor_size(dst) != cl_tensor_size(src) || cl_tensor_elem_size(dst) != cl_tensor_elem_size(src) ||
      (dt != CL_DTYPE_NONE && st != CL_DTYPE_NONE && dt != st))
    return cl_status(cl_tensor_copy_explain(dst, src, nullptr, 0));
  int64_t elem = int64_t(cl_tensor_elem_size(dst));
  cl_status s = cl_cuda_check_elem(elem);
  if (s == CL_OK)
    s = check_aligned(cl_tensor_data(dst), elem, "dst");
  if (s == CL_OK)
    s = check_aligned(cl_tensor_data(src), elem, "src");
  return s;
}

// A tensor copy's plan with what its checks need, relative to the data
// pointers: it serves every copy between the same layouts with the same
// element size and pointer alignments.
struct tensor_plan {
  cl_cuda_plan plan;
  bool injective;        // dst injective, proven by the joint modes
  int64_t dlo, dhi;      // bytes dst reaches, [dlo, dhi) from its pointer
  int64_t slo, shi;      // and src
};

cl_status make_tensor_plan(const cl_tensor_t *dst, const cl_tensor_t *src, tensor_plan *t,
                           int allow = CL_CUDA_ALLOW_TILES | CL_CUDA_ALLOW_MEMCPY) {
  cl_cuda_side ds = tensor_side(dst), ss = tensor_side(src);
  int64_t elem = int64_t(cl_tensor_elem_size(dst)), lo = 0, hi = 0;
  cl_status s = cl_cuda_plan_copy(&t->plan, &ds, &ss, elem, allow);
  t->injective = s == CL_OK && cl_cuda_plan_dst_injective(&t->plan);
  if (s == CL_OK)
    s = cl_tensor_offset_range(dst, &lo, &hi);
  t->dlo = lo * elem;  // the tensor's constructor proved these byte offsets fit
  t->dhi = (hi + 1) * elem;
  if (s == CL_OK)
    s = cl_tensor_offset_range(src, &lo, &hi);
  t->slo = lo * elem;
  t->shi = (hi + 1) * elem;
  return s;
}

// dst injective and no byte shared with src: proven by the plan and the byte
// ranges where they can, else by the host copy's exact check (its message).
cl_status check_no_overlap(const cl_tensor_t *dst, const cl_tensor_t *src, const tensor_plan *t) {
  uintptr_t d = uintptr_t(cl_tensor_data(dst)), s = uintptr_t(cl_tensor_data(src));
  bool apart = d + uintptr_t(t->dhi) <= s + uintptr_t(t->slo) || s + uintptr_t(t->shi) <= d + uintptr_t(t->dlo);
  if (t->injective && apart)
    return CL_OK;
  int64_t need = cl_tensor_copy_explain(dst, src, nullptr, 0);
  return need < 0 ? cl_status(need) : CL_OK;
}

// The last plan each thread made, for the next copy between the same
// layouts: planning costs microseconds of host time, as much as a small copy
// takes on the GPU.
struct plan_cache {
  cl_layout_t *dst = nullptr, *src = nullptr;  // copies of the layouts
  int64_t elem = 0;
  unsigned dst_align = 0, src_align = 0;       // the pointers modulo 16
  tensor_plan entry;
  plan_cache() = default;
  plan_cache(const plan_cache &) = delete;
  plan_cache &operator=(const plan_cache &) = delete;
  ~plan_cache() { forget(); }
  void forget() {
    cl_layout_free(dst);
    cl_layout_free(src);
    dst = src = nullptr;
  }
  bool holds(const cl_tensor_t *d, const cl_tensor_t *s) const {
    return dst != nullptr && elem == int64_t(cl_tensor_elem_size(d)) &&
           dst_align == unsigned(uintptr_t(cl_tensor_data(d)) % 16) &&
           src_align == unsigned(uintptr_t(cl_tensor_data(s)) % 16) && cl_layout_equal(dst, cl_tensor_layout(d)) &&
           cl_layout_equal(src, cl_tensor_layout(s));
  }
  void keep(const cl_tensor_t *d, const cl_tensor_t *s, const tensor_plan &t) {
    forget();
    if (cl_layout_copy(cl_tensor_layout(d), &dst) != CL_OK || cl_layout_copy(cl_tensor_layout(s), &src) != CL_OK) {
      forget();  // out of memory: no cache, no harm
      return;
    }
    elem = int64_t(cl_tensor_elem_size(d));
    dst_align = unsigned(uintptr_t(cl_tensor_data(d)) % 16);
    src_align = unsigned(uintptr_t(cl_tensor_data(s)) % 16);
    entry = t;
  }
};

thread_local plan_cache last_plan;

// One side of a composed copy from its handle: a swizzle outside, a layout
// inside.
cl_status composed_side(const cl_composed_t *c, void *data, const char *name, cl_cuda_side *side) {
  cl_fn outer, inner;
  int64_t offset = 0;
  cl_status s = cl_composed_parts(c, &outer, &offset, &inner);
  if (s != CL_OK)
    return s;
  if (outer.kind != CL_FN_SWIZZLE || inner.kind != CL_FN_LAYOUT)
    return fail(CL_E_UNSUPPORTED, "cl_cuda_composed_copy: %s is not a swizzle composed with a layout", name);
  side->data = static_cast<char *>(data);
  side->layout = inner.layout;
  side->sw = outer.swizzle;
  side->offset = offset;
  return CL_OK;
}

}  // namespace

extern "C" cl_status cl_cuda_check_elem(int64_t elem) {
  if (elem == 1 || elem == 2 || elem == 4 || elem == 8 || elem == 16)
    return CL_OK;
  return fail(CL_E_UNSUPPORTED, "%s: elements of %lld bytes (the GPU copies 1, 2, 4, 8 or 16)", "cuda copy",
              (long long)elem);
}

extern "C" cl_status cl_cuda_check_device(void) {
  int device = 0;
  cudaError_t e = cudaGetDevice(&device);
  return e == cudaSuccess ? CL_OK : cl_cuda_fail(e, "no usable GPU: cudaGetDevice");
}

extern "C" cl_status cl_cuda_check_memory(const void *ptr, int64_t lo, int64_t hi, const char *what) {
  const char *first = static_cast<const char *>(ptr) + lo;
  cudaPointerAttributes attr;
  cudaError_t e = cudaPointerGetAttributes(&attr, first);
  if (e != cudaSuccess)
    return cl_cuda_fail(e, "cudaPointerGetAttributes");
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
    return fail(CL_E_DEVICE, "%s: not device memory (%s)", what,
                attr.type == cudaMemoryTypeHost ? "page-locked host memory" : "host memory");
  int device = 0;
  e = cudaGetDevice(&device);
  if (e != cudaSuccess)
    return cl_cuda_fail(e, "cudaGetDevice");
  if (attr.device != device)
    return fail(CL_E_DEVICE, "%s: memory of device %lld, but the current device is %lld", what, (long long)attr.device,
                (long long)device);
  address_range_fn range = address_range();
  if (range == nullptr)
    return fail(CL_E_DEVICE, "%s: the CUDA driver has no cuMemGetAddressRange", what);
  unsigned long long base = 0;
  size_t bytes = 0;
  if (range(&base, &bytes, reinterpret_cast<unsigned long long>(first)) != 0)
    return fail(CL_E_DEVICE, "%s: no device allocation holds the view's first byte", what);
  unsigned long long end = reinterpret_cast<unsigned long long>(first) + static_cast<unsigned long long>(hi - lo);
  if (end > base + bytes)
    return fail(CL_E_BOUNDS, "%s: the view reaches %lld bytes past the end of its device allocation", what,
                (long long)(end - base - bytes));
  return CL_OK;
}

extern "C" cl_status cl_cuda_tensor_copy(const cl_tensor_t *dst, const cl_tensor_t *src, cl_cuda_stream_t stream) {
  cl_status s = check_tensors(dst, src, "cl_cuda_tensor_copy");
  if (s != CL_OK || cl_tensor_size(dst) == 0)
    return s;
  tensor_plan fresh;
  const tensor_plan *t = &fresh;
  if (last_plan.holds(dst, src)) {
    t = &last_plan.entry;
  } else {
    s = make_tensor_plan(dst, src, &fresh);
    if (s != CL_OK)
      return s;
  }
  s = check_no_overlap(dst, src, t);
  if (s == CL_OK)
    s = cl_cuda_check_device();
  if (s == CL_OK)
    s = cl_cuda_check_memory(cl_tensor_data(dst), t->dlo, t->dhi, "cl_cuda_tensor_copy: dst");
  if (s == CL_OK)
    s = cl_cuda_check_memory(cl_tensor_data(src), t->slo, t->shi, "cl_cuda_tensor_copy: src");
  if (s == CL_OK && t == &fresh)
    last_plan.keep(dst, src, fresh);
  return s == CL_OK ? cl_cuda_launch_copy(&t->plan, static_cast<char *>(cl_tensor_data(dst)),
                                          static_cast<const char *>(cl_tensor_data(src)), stream)
                    : s;
}

extern "C" cl_status cl_cuda_batch_prepare(const cl_tensor_t *const *dst, const cl_tensor_t *const *src, size_t count,
                                          const char *function, cl_cuda_batch *out) {
  out->n = 0;
  out->plans = nullptr;
  out->dst = nullptr;
  out->src = nullptr;
  if (count == 0)
    return CL_OK;
  if (dst == nullptr)
    return null_argument(function, "dst");
  if (src == nullptr)
    return null_argument(function, "src");
  cl_status s = cl_cuda_check_device();
  if (s != CL_OK)
    return s;
  bool fits = count <= SIZE_MAX / sizeof(tensor_plan);
  tensor_plan *plans = fits ? static_cast<tensor_plan *>(std::malloc(count * sizeof *plans)) : nullptr;
  out->plans = fits ? static_cast<cl_cuda_plan *>(std::malloc(count * sizeof *out->plans)) : nullptr;
  out->dst = fits ? static_cast<char **>(std::malloc(count * sizeof *out->dst)) : nullptr;
  out->src = fits ? static_cast<const char **>(std::malloc(count * sizeof *out->src)) : nullptr;
  if (plans == nullptr || out->plans == nullptr || out->dst == nullptr || out->src == nullptr) {
    std::free(plans);
    cl_cuda_batch_release(out);
    return fail(CL_E_NOMEM, "%s: no memory for the plans of %zu pairs", function, count);
  }
  char dst_what[96], src_what[96];
  std::snprintf(dst_what, sizeof dst_what, "%s: dst", function);
  std::snprintf(src_what, sizeof src_what, "%s: src", function);
  // Every pair checked and planned before anything is queued.
  for (size_t k = 0; k < count; k++) {
    s = check_tensors(dst[k], src[k], function);
    if (s == CL_OK && cl_tensor_size(dst[k]) > 0)
      s = make_tensor_plan(dst[k], src[k], &plans[k], 0);
    if (s == CL_OK && cl_tensor_size(dst[k]) > 0)
      s = check_no_overlap(dst[k], src[k], &plans[k]);
    if (s == CL_OK && cl_tensor_size(dst[k]) > 0)
      s = cl_cuda_check_memory(cl_tensor_data(dst[k]), plans[k].dlo, plans[k].dhi, dst_what);
    if (s == CL_OK && cl_tensor_size(dst[k]) > 0)
      s = cl_cuda_check_memory(cl_tensor_data(src[k]), plans[k].slo, plans[k].shi, src_what);
    if (s != CL_OK) {
      char message[512];
      std::snprintf(message, sizeof message, "pair %zu: %s", k, cl_last_error());
      std::free(plans);
      cl_cuda_batch_release(out);
      return cl_set_last_error(s, message);
    }
    if (cl_tensor_size(dst[k]) > 0) {
      out->plans[out->n] = plans[k].plan;
      out->dst[out->n] = static_cast<char *>(cl_tensor_data(dst[k]));
      out->src[out->n++] = static_cast<const char *>(cl_tensor_data(src[k]));
    }
  }
  std::free(plans);
  return CL_OK;
}

extern "C" cl_status cl_cuda_batch_launch(const cl_cuda_batch *b, cl_cuda_stream_t stream) {
  const cl_cuda_plan *p[CL_CUDA_BATCH];
  cl_status s = CL_OK;
  for (size_t k = 0; k < b->n && s == CL_OK; k += CL_CUDA_BATCH) {
    int n = int(std::min<size_t>(CL_CUDA_BATCH, b->n - k));
    for (int j = 0; j < n; j++)
      p[j] = &b->plans[k + size_t(j)];
    s = cl_cuda_launch_batch(p, b->dst + k, b->src + k, n, stream);
  }
  return s;
}

extern "C" void cl_cuda_batch_release(cl_cuda_batch *b) {
  std::free(b->plans);
  std::free(b->dst);
  std::free(b->src);
  b->plans = nullptr;
  b->dst = nullptr;
  b->src = nullptr;
  b->n = 0;
}

extern "C" cl_status cl_cuda_tensor_copy_batched(const cl_tensor_t *const *dst, const cl_tensor_t *const *src,
                                                 size_t count, cl_cuda_stream_t stream) {
  cl_cuda_batch batch;
  cl_status s = cl_cuda_batch_prepare(dst, src, count, "cl_cuda_tensor_copy_batched", &batch);
  if (s == CL_OK)
    s = cl_cuda_batch_launch(&batch, stream);
  cl_cuda_batch_release(&batch);
  return s;
}

extern "C" int64_t cl_cuda_tensor_copy_explain(const cl_tensor_t *dst, const cl_tensor_t *src, char *buf,
                                               size_t cap) {
  if (buf == nullptr && cap > 0)
    return null_argument("cl_cuda_tensor_copy_explain", "buf");
  cl_status s = check_tensors(dst, src, "cl_cuda_tensor_copy_explain");
  tensor_plan t;
  if (s == CL_OK)
    s = make_tensor_plan(dst, src, &t);
  if (s == CL_OK && cl_tensor_size(dst) > 0)
    s = check_no_overlap(dst, src, &t);
  return s == CL_OK ? cl_cuda_plan_format(&t.plan, buf, cap) : int64_t(s);
}

extern "C" cl_status cl_cuda_composed_copy(void *dst, const cl_composed_t *dst_layout, const void *src,
                                           const cl_composed_t *src_layout, size_t elem_size,
                                           cl_cuda_stream_t stream) {
  static const char *const function = "cl_cuda_composed_copy";
  if (dst == nullptr)
    return null_argument(function, "dst");
  if (dst_layout == nullptr)
    return null_argument(function, "dst_layout");
  if (src == nullptr)
    return null_argument(function, "src");
  if (src_layout == nullptr)
    return null_argument(function, "src_layout");
  int64_t elem = int64_t(elem_size);
  cl_cuda_side ds, ss;
  cl_status s = cl_cuda_check_elem(elem_size > 16 ? 0 : elem);
  if (s == CL_OK)
    s = check_aligned(dst, elem, "dst");
  if (s == CL_OK)
    s = check_aligned(src, elem, "src");
  if (s == CL_OK)
    s = composed_side(dst_layout, dst, "dst_layout", &ds);
  if (s == CL_OK)
    s = composed_side(src_layout, const_cast<void *>(src), "src_layout", &ss);
  int64_t dsize = 0, ssize = 0;
  if (s == CL_OK)
    s = cl_layout_size_checked(ds.layout, &dsize);
  if (s == CL_OK)
    s = cl_layout_size_checked(ss.layout, &ssize);
  if (s == CL_OK && dsize != ssize)
    s = fail(CL_E_DOMAIN, "%s: sizes differ (destination %lld, source %lld)", function, (long long)dsize,
             (long long)ssize);
  if (s != CL_OK || dsize == 0)
    return s;
  s = cl_cuda_side_injective(&ds);
  int64_t dlo, dhi, slo, shi;
  if (s == CL_OK)
    s = cl_cuda_side_range(&ds, elem, &dlo, &dhi);
  if (s == CL_OK)
    s = cl_cuda_side_range(&ss, elem, &slo, &shi);
  if (s == CL_OK) {
    uintptr_t d0 = uintptr_t(dst) + uintptr_t(dlo), d1 = uintptr_t(dst) + uintptr_t(dhi);
    uintptr_t s0 = uintptr_t(src) + uintptr_t(slo), s1 = uintptr_t(src) + uintptr_t(shi);
    if (d0 < s1 && s0 < d1)
      s = fail(CL_E_OVERLAP, "%s: the byte ranges of destination and source overlap", function);
  }
  if (s == CL_OK)
    s = cl_cuda_check_device();
  if (s == CL_OK)
    s = cl_cuda_check_memory(dst, dlo, dhi, "cl_cuda_composed_copy: dst");
  if (s == CL_OK)
    s = cl_cuda_check_memory(src, slo, shi, "cl_cuda_composed_copy: src");
  cl_cuda_plan plan;
  if (s == CL_OK)
    s = cl_cuda_plan_copy(&plan, &ds, &ss, elem, CL_CUDA_ALLOW_MEMCPY);
  return s == CL_OK ? cl_cuda_launch_copy(&plan, static_cast<char *>(dst), static_cast<const char *>(src), stream)
                    : s;
}

extern "C" cl_status cl_cuda_compiled_indices(const cl_compiled_layout_t *layout, int64_t i0, int64_t n,
                                              int64_t *out_device, cl_cuda_stream_t stream) {
  static const char *const function = "cl_cuda_compiled_indices";
  if (layout == nullptr)
    return null_argument(function, "layout");
  if (out_device == nullptr)
    return null_argument(function, "out_device");
  if (i0 < 0 || n < 0 || i0 > layout->size - n)
    return fail(CL_E_DOMAIN, "%s: %lld indices from %lld leave the domain [0, %lld)", function, (long long)n,
                (long long)i0, (long long)layout->size);
  if (n == 0)
    return CL_OK;
  if (n > INT64_MAX / 8)
    return fail(CL_E_OVERFLOW, "%s: %lld indices do not fit in memory", function, (long long)n);
  cl_status s = cl_cuda_check_device();
  if (s == CL_OK)
    s = cl_cuda_check_memory(out_device, 0, n * 8, "cl_cuda_compiled_indices: out_device");
  return s == CL_OK ? cl_cuda_launch_indices(layout, i0, n, out_device, stream) : s;
}

extern "C" cl_status cl_cuda_layout_indices(const cl_layout_t *layout, int64_t i0, int64_t n, int64_t *out_device,
                                            cl_cuda_stream_t stream) {
  if (layout == nullptr)
    return null_argument("cl_cuda_layout_indices", "layout");
  cl_compiled_layout_t compiled;
  cl_status s = cl_layout_compile(layout, &compiled);
  return s == CL_OK ? cl_cuda_compiled_indices(&compiled, i0, n, out_device, stream) : s;
}
