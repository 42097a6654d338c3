/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor_copy.c: algorithms on tensor views: copy (its checks and its plan's
 * description; copy_plan.c plans it, copy_exec.c runs it), fill, apply,
 * transform, and the public odometer. */
#include <stddef.h>
#include <stdlib.h>

#include "copy_kernels.h"
#include "copy_plan.h"
#include "sink_impl.h"

/* ------------------------------------------------------------ overlap checks */

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

/* A bitmap over a range of units [lo, lo + bits). */
typedef struct bitmap {
  uint64_t *w;
  int64_t lo, bits;
} bitmap;

#define BITMAP_MAX_BITS ((int64_t)1 << 27) /* 16 MiB */

static cl_status bitmap_init(bitmap *b, int64_t lo, int64_t bits) {
  b->lo = lo;
  b->bits = bits;
  size_t words = (size_t)((bits + 63) / 64);
  b->w = cl_alloc(words * sizeof(uint64_t));
  if (b->w == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  memset(b->w, 0, words * sizeof(uint64_t));
  return CL_OK;
}

/* Sets units [u, u + width) that fall inside the map; true if any was set. */
static bool bitmap_set(bitmap *b, int64_t u, int64_t width) {
  bool seen = false;
  for (int64_t x = u; x < u + width; x++) {
    int64_t k = x - b->lo;
    if (k < 0 || k >= b->bits)
      continue;
    uint64_t bit = (uint64_t)1 << (k & 63);
    seen |= (b->w[k >> 6] & bit) != 0;
    b->w[k >> 6] |= bit;
  }
  return seen;
}

static bool bitmap_test(const bitmap *b, int64_t u, int64_t width) {
  for (int64_t x = u; x < u + width; x++) {
    int64_t k = x - b->lo;
    if (k >= 0 && k < b->bits && (b->w[k >> 6] >> (k & 63) & 1))
      return true;
  }
  return false;
}

/* Proves a flat layout injective by the mixed-radix test: with strides made
 * positive and sorted, each stride exceeds the largest offset the smaller
 * modes reach.  Sufficient, not necessary (then the caller checks exactly). */
static bool injective_by_radix(const cl_leaves *f, int64_t *work) {
  int64_t n = f->n;
  int64_t *ext = work, *str = work + n;
  for (int64_t k = 0; k < n; k++) {
    int64_t d = f->stride[k] < 0 ? -f->stride[k] : f->stride[k];
    int64_t j = k;
    while (j > 0 && str[j - 1] > d) {
      str[j] = str[j - 1];
      ext[j] = ext[j - 1];
      j--;
    }
    str[j] = d;
    ext[j] = f->shape[k];
  }
  int64_t reach = 0; /* largest offset of the modes so far */
  for (int64_t k = 0; k < n; k++) {
    if (str[k] <= reach)
      return false;
    reach += (ext[k] - 1) * str[k]; /* within the validated footprint */
  }
  return true;
}

/* dst must not reach one element from two coordinates: the copy's result
 * would depend on the order of the writes. */
static cl_status check_injective(const cl_tensor_t *t, const cl_leaves *f) {
  cl_scratch s;
  CL_TRY(cl_scratch_init(&s, 3 * f->n));
  bool proved = injective_by_radix(f, s.p);
  cl_status st = CL_OK;
  if (!proved) {
    int64_t span = t->hi - t->lo + 1;
    bitmap b;
    if (span > BITMAP_MAX_BITS) {
      st = cl_fail(CL_E_OVERLAP, "copy: cannot prove that the destination layout is injective (its %lld offsets are too "
                                 "many to check exactly)", (long long)span);
    } else if ((st = bitmap_init(&b, t->lo, span)) == CL_OK) {
      int64_t *idx = s.p, off = 0;
      memset(idx, 0, (size_t)f->n * sizeof *idx);
      do {
        if (bitmap_set(&b, off, 1)) {
          st = cl_fail(CL_E_OVERLAP, "copy: the destination is not injective: two coordinates reach offset %lld",
                       (long long)off);
          break;
        }
      } while (cl_odo_step(f->n, f->shape, f->stride, idx, &off));
      cl_dealloc(b.w);
    }
  }
  cl_scratch_release(&s);
  return st;
}

/* No byte of dst's elements may be a byte of src's.  Disjoint footprints
 * settle it at once; otherwise an exact check on a bitmap of the common
 * bytes (or of common elements when the two grids line up). */
static cl_status check_disjoint(const cl_tensor_t *dst, const cl_leaves *fd, const cl_tensor_t *src, const cl_leaves *fs) {
  if (dst->size == 0 || src->size == 0)
    return CL_OK;
  int64_t e = (int64_t)dst->elem_size, es = (int64_t)src->elem_size;
  /* Byte positions relative to dst->data (pointer difference as integers). */
  int64_t delta = (int64_t)((uintptr_t)src->data - (uintptr_t)dst->data);
  int64_t d_lo = dst->lo * e, d_hi = (dst->hi + 1) * e; /* [d_lo, d_hi) */
  int64_t s_lo, s_hi;
  if (__builtin_mul_overflow(src->lo, es, &s_lo) || __builtin_add_overflow(s_lo, delta, &s_lo) ||
      __builtin_mul_overflow(src->hi + 1, es, &s_hi) || __builtin_add_overflow(s_hi, delta, &s_hi))
    return CL_OK; /* footprints more than 2^63 bytes apart cannot meet */
  if (s_hi <= d_lo || d_hi <= s_lo)
    return CL_OK;
  /* Units: elements when both grids line up, else bytes.  The bitmap covers
   * the common bytes [a, b). */
  int64_t g = (e == es && delta % e == 0) ? e : 1;
  int64_t a = d_lo > s_lo ? d_lo : s_lo, b_end = d_hi < s_hi ? d_hi : s_hi;
  int64_t lo = floor_div(a, g), hi = floor_div(b_end - 1, g) + 1;
  if (hi - lo > BITMAP_MAX_BITS)
    return cl_fail(CL_E_OVERLAP, "copy: the footprints of source and destination intersect over %lld bytes, too many "
                                 "to prove that no element is shared", (long long)(b_end - a));
  bitmap b;
  cl_scratch s;
  CL_TRY(cl_scratch_init(&s, fd->n + fs->n));
  cl_status st = bitmap_init(&b, lo, hi - lo);
  if (st == CL_OK) {
    int64_t off = 0, *idx = s.p;
    do
      bitmap_set(&b, off * e / g, e / g);
    while (cl_odo_step(fd->n, fd->shape, fd->stride, idx, &off));
    idx = s.p + fd->n;
    off = 0;
    do {
      if (bitmap_test(&b, (off * es + delta) / g, es / g)) {
        st = cl_fail(CL_E_OVERLAP, "copy: source and destination share the element at source offset %lld", (long long)off);
        break;
      }
    } while (cl_odo_step(fs->n, fs->shape, fs->stride, idx, &off));
    cl_dealloc(b.w);
  }
  cl_scratch_release(&s);
  return st;
}

/* ------------------------------------------------------------ copy */

static cl_status check_copy(const cl_tensor_t *dst, const cl_tensor_t *src) {
  if (dst->size != src->size)
    return cl_fail(CL_E_DOMAIN, "copy: sizes differ (destination %lld, source %lld)", (long long)dst->size,
                   (long long)src->size);
  if (dst->elem_size != src->elem_size)
    return cl_fail(CL_E_TYPE, "copy: element sizes differ (destination %zu, source %zu bytes)", dst->elem_size,
                   src->elem_size);
  if (dst->dtype != CL_DTYPE_NONE && src->dtype != CL_DTYPE_NONE && dst->dtype != src->dtype)
    return cl_fail(CL_E_TYPE, "copy: element types differ (%s, %s); use cl_tensor_transform to convert",
                   cl_dtype_name(dst->dtype), cl_dtype_name(src->dtype));
  return CL_OK;
}

/* Everything copy and explain share: checks, then a plan (for a non-empty
 * copy).  On success the caller releases the leaves and, if dst is not
 * empty, the plan. */
static cl_status prepare_copy(const cl_tensor_t *dst, const cl_tensor_t *src, cl_copy_stores_t stores, cl_leaves *fd,
                              cl_leaves *fs, cl_copy_job *p) {
  CL_TRY(check_copy(dst, src));
  CL_TRY(cl_leaves_init(fd, dst->layout, true));
  cl_status s = cl_leaves_init(fs, src->layout, true);
  if (s != CL_OK) {
    cl_leaves_release(fd);
    return s;
  }
  if (dst->size > 0) {
    s = check_injective(dst, fd);
    if (s == CL_OK)
      s = check_disjoint(dst, fd, src, fs);
    if (s == CL_OK)
      s = cl_copy_job_make(p, dst, fd, fs, stores, NULL);
  }
  if (s != CL_OK) {
    cl_leaves_release(fd);
    cl_leaves_release(fs);
  }
  return s;
}

/* The options with the fields the caller's struct lacks at their defaults
 * (zero).  The first version ended at threads; the second added pool. */
#define OPTIONS_V1_SIZE (offsetof(cl_copy_options_t, threads) + sizeof(int))
static cl_status read_options(const cl_copy_options_t *opt, cl_copy_options_t *o) {
  memset(o, 0, sizeof *o);
  if (opt == NULL)
    return CL_OK;
  if (opt->struct_size < OPTIONS_V1_SIZE)
    return cl_fail(CL_E_ABI, "cl_tensor_copy_ex: struct_size %zu is smaller than any cl_copy_options_t",
                   opt->struct_size);
  memcpy(o, opt, opt->struct_size < sizeof *o ? opt->struct_size : sizeof *o);
  if (o->stores != CL_COPY_STORES_AUTO && o->stores != CL_COPY_STORES_CACHED && o->stores != CL_COPY_STORES_STREAMING)
    return cl_fail(CL_E_DOMAIN, "cl_tensor_copy_ex: unknown stores value %d", (int)o->stores);
  if (o->threads < 0 || o->threads > CL_COPY_MAX_THREADS)
    return cl_fail(CL_E_DOMAIN, "cl_tensor_copy_ex: %d threads (0 to %d)", o->threads, CL_COPY_MAX_THREADS);
  return CL_OK;
}

cl_status cl_tensor_copy_ex(const cl_tensor_t *dst, const cl_tensor_t *src, const cl_copy_options_t *opt) {
  CHECK_NULL(dst);
  CHECK_NULL(src);
  cl_copy_options_t o;
  CL_TRY(read_options(opt, &o));
  cl_leaves fd, fs;
  cl_copy_job p;
  CL_TRY(prepare_copy(dst, src, o.stores, &fd, &fs, &p));
  cl_status s = CL_OK;
  if (dst->size > 0) {
    s = cl_copy_job_run(&p, dst->data, src->data, o.threads > 1 ? o.threads : 1, o.pool);
    cl_copy_job_release(&p);
  }
  cl_leaves_release(&fd);
  cl_leaves_release(&fs);
  return s;
}

cl_status cl_tensor_copy(const cl_tensor_t *dst, const cl_tensor_t *src) {
  CHECK_NULL(dst);
  CHECK_NULL(src);
  return cl_tensor_copy_ex(dst, src, NULL);
}

cl_status cl_tensor_copy_plan(const cl_tensor_t *dst, const cl_tensor_t *src, const cl_copy_options_t *opt,
                              cl_copy_plan_t *plan) {
  CHECK_NULL(dst);
  CHECK_NULL(src);
  CHECK_NULL(plan);
  if (plan->struct_size < sizeof *plan)
    return cl_fail(CL_E_ABI, "cl_tensor_copy_plan: struct_size %zu is smaller than cl_copy_plan_t", plan->struct_size);
  cl_copy_options_t o;
  CL_TRY(read_options(opt, &o));
  cl_leaves fd, fs;
  cl_copy_job p;
  CL_TRY(prepare_copy(dst, src, o.stores, &fd, &fs, &p));
  size_t struct_size = plan->struct_size;
  memset(plan, 0, sizeof *plan);
  plan->struct_size = struct_size;
  plan->elem_size = (int64_t)dst->elem_size;
  plan->vector = 1;
  if (dst->size > 0) {
    cl_copy_job_describe(&p, (int64_t)dst->elem_size, plan);
    cl_copy_job_release(&p);
  }
  cl_leaves_release(&fd);
  cl_leaves_release(&fs);
  return CL_OK;
}

static const char *kernel_name(cl_copy_kernel_t kernel) {
  return kernel == CL_COPY_KERNEL_MEMCPY ? "memcpy" : kernel == CL_COPY_KERNEL_STRIDED ? "strided" : "transpose";
}

static const char *plural(int64_t n) { return n == 1 ? "" : "s"; }

/* The plan in one line: the kernel, the joint modes (extent:dst<-src
 * strides), a transpose's runs and tiles, how it stores, the tails. */
static void explain_plan(cl_sink *t, const cl_copy_plan_t *p) {
  cl_sink_printf(t, "kernel %s, vector %lld x %lld bytes, modes (", kernel_name(p->kernel), (long long)p->vector,
                 (long long)p->elem_size);
  for (int64_t k = 0; k < p->rank; k++)
    cl_sink_printf(t, "%s%lld:%lld<-%lld", k ? "," : "", (long long)p->extent[k], (long long)p->dst_stride[k],
                   (long long)p->src_stride[k]);
  cl_sink_printf(t, ")");
  if (p->kernel == CL_COPY_KERNEL_TRANSPOSE) {
    int64_t in = 1, jn = 1, side = CL_COPY_LINE / (p->vector * p->elem_size);
    for (int64_t k = 0; k < p->dst_run; k++)
      in *= p->extent[k];
    for (int64_t k = p->dst_run; k < p->dst_run + p->src_run; k++)
      jn *= p->extent[k];
    cl_sink_printf(t, ", %lld dst-contiguous steps (%lld mode%s) by %lld src-%s steps (%lld mode%s), in tiles of %lldx%lld",
                   (long long)in, (long long)p->dst_run, plural(p->dst_run), (long long)jn,
                   p->flags & CL_COPY_PLAN_GATHERED ? "every-other-element" : "contiguous", (long long)p->src_run,
                   plural(p->src_run), (long long)side, (long long)side);
    if (p->flags & CL_COPY_PLAN_STAGED)
      cl_sink_printf(t, ", staged");
    if (p->flags & CL_COPY_PLAN_PREFETCH)
      cl_sink_printf(t, ", prefetched");
    if (p->flags & CL_COPY_PLAN_GATHERED)
      cl_sink_printf(t, ", gathered");
  }
  if (p->flags & CL_COPY_PLAN_STREAMING)
    cl_sink_printf(t, ", non-temporal stores");
  if (p->dst_tail_rank > 0)
    cl_sink_printf(t, ", unrefined tails of %lld and %lld modes", (long long)p->dst_tail_rank, (long long)p->src_tail_rank);
}

int64_t cl_tensor_copy_explain(const cl_tensor_t *dst, const cl_tensor_t *src, char *buf, size_t cap) {
  if (dst == NULL || src == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_tensor_copy_explain: NULL argument");
  cl_copy_plan_t *plan = cl_alloc(sizeof *plan);
  if (plan == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  plan->struct_size = sizeof *plan;
  cl_status s = cl_tensor_copy_plan(dst, src, NULL, plan);
  int64_t n = s;
  if (s == CL_OK) {
    cl_sink t = cl_sink_buffer(buf, cap);
    if (plan->kernel == CL_COPY_KERNEL_NONE)
      cl_sink_printf(&t, "nothing to copy (size 0)");
    else
      explain_plan(&t, plan);
    n = cl_sink_finish(&t, "cl_tensor_copy_explain");
  }
  cl_dealloc(plan);
  return n;
}

/* ------------------------------------------------------------ fill */

/* A flat layout's modes made positive, sorted and merged where contiguous,
 * with broadcast (stride-0) modes dropped: writing one value, each element
 * once is enough.  Returns the byte offset of the first element. */
static int64_t fill_modes(cl_leaves *f, int64_t e) {
  int64_t base = 0, w = 0;
  for (int64_t k = 0; k < f->n; k++) {
    int64_t n = f->shape[k], d = f->stride[k] * e;
    if (d == 0)
      continue;
    if (d < 0) {
      base += (n - 1) * d;
      d = -d;
    }
    int64_t j = w++;
    while (j > 0 && f->stride[j - 1] > d) {
      f->shape[j] = f->shape[j - 1];
      f->stride[j] = f->stride[j - 1];
      j--;
    }
    f->shape[j] = n;
    f->stride[j] = d;
  }
  int64_t r = 0;
  for (int64_t k = 0; k < w; k++) {
    if (r > 0 && cl_continues(f->shape[r - 1], f->stride[r - 1], f->stride[k])) {
      f->shape[r - 1] *= f->shape[k];
    } else {
      f->shape[r] = f->shape[k];
      f->stride[r] = f->stride[k];
      r++;
    }
  }
  f->n = r;
  return base;
}

/* Writes `run` contiguous copies of the e-byte value at p. */
static void fill_run(char *p, int64_t run, const unsigned char *value, int64_t e, const unsigned char *pattern,
                     int64_t pattern_bytes, bool uniform) {
  int64_t bytes = run * e;
  if (uniform) {
    memset(p, value[0], (size_t)bytes);
    return;
  }
  while (bytes > 0) {
    int64_t n = bytes < pattern_bytes ? bytes : pattern_bytes;
    memcpy(p, pattern, (size_t)n);
    p += n;
    bytes -= n;
  }
}

cl_status cl_tensor_fill(const cl_tensor_t *t, const void *value) {
  CHECK_NULL(t);
  CHECK_NULL(value);
  if (t->size == 0)
    return CL_OK;
  int64_t e = (int64_t)t->elem_size;
  cl_leaves f;
  CL_TRY(cl_leaves_init(&f, t->layout, true));
  int64_t base = fill_modes(&f, e);
  const unsigned char *v = value;
  bool uniform = true;
  for (int64_t k = 1; k < e; k++)
    uniform &= v[k] == v[0];
  /* A pattern of whole values, up to 256 bytes, for runs of many elements. */
  unsigned char pattern[256];
  int64_t per = e <= 256 ? 256 / e : 1, pattern_bytes = per * e;
  if (e <= 256)
    for (int64_t k = 0; k < per; k++)
      memcpy(pattern + k * e, v, (size_t)e);
  int64_t run = 1, first = 0;
  if (f.n > 0 && f.stride[0] == e) {
    run = f.shape[0];
    first = 1;
  }
  cl_scratch s;
  cl_status st = cl_scratch_init(&s, f.n);
  if (st == CL_OK) {
    int64_t off = 0;
    do {
      char *p = t->data + base + off;
      if (run > 1 && e <= 256)
        fill_run(p, run, v, e, pattern, pattern_bytes, uniform);
      else
        for (int64_t k = 0; k < run; k++)
          memcpy(p + k * e, v, (size_t)e);
    } while (cl_odo_step(f.n - first, f.shape + first, f.stride + first, s.p, &off));
    cl_scratch_release(&s);
  }
  cl_leaves_release(&f);
  return st;
}

/* ------------------------------------------------------------ apply, transform */

cl_status cl_tensor_apply(const cl_tensor_t *t, cl_tensor_apply_fn fn, void *ctx) {
  CHECK_NULL(t);
  CHECK_NULL(fn);
  if (t->size == 0)
    return CL_OK;
  cl_leaves f;
  CL_TRY(cl_leaves_init(&f, t->layout, true));
  cl_scratch s;
  cl_status st = cl_scratch_init(&s, f.n);
  if (st == CL_OK) {
    int64_t off = 0, i = 0, e = (int64_t)t->elem_size;
    do
      fn(ctx, t->data + off * e, i++);
    while (cl_odo_step(f.n, f.shape, f.stride, s.p, &off));
    cl_scratch_release(&s);
  }
  cl_leaves_release(&f);
  return st;
}

static bool same_view(const cl_tensor_t *a, const cl_tensor_t *b) {
  return a->data == b->data && a->elem_size == b->elem_size && cl_layout_equal(a->layout, b->layout);
}

cl_status cl_tensor_transform(const cl_tensor_t *dst, const cl_tensor_t *src, cl_tensor_transform_fn fn, void *ctx) {
  CHECK_NULL(dst);
  CHECK_NULL(src);
  CHECK_NULL(fn);
  if (dst->size != src->size)
    return cl_fail(CL_E_DOMAIN, "transform: sizes differ (destination %lld, source %lld)", (long long)dst->size,
                   (long long)src->size);
  if (dst->size == 0)
    return CL_OK;
  cl_leaves fd, fs;
  CL_TRY(cl_leaves_init(&fd, dst->layout, true));
  cl_status st = cl_leaves_init(&fs, src->layout, true);
  if (st != CL_OK) {
    cl_leaves_release(&fd);
    return st;
  }
  if (!same_view(dst, src))
    st = check_disjoint(dst, &fd, src, &fs);
  cl_scratch s;
  if (st == CL_OK && (st = cl_scratch_init(&s, fd.n + fs.n)) == CL_OK) {
    int64_t od = 0, os = 0, ed = (int64_t)dst->elem_size, es = (int64_t)src->elem_size;
    do {
      fn(ctx, dst->data + od * ed, src->data + os * es);
      cl_odo_step(fs.n, fs.shape, fs.stride, s.p + fd.n, &os);
    } while (cl_odo_step(fd.n, fd.shape, fd.stride, s.p, &od));
    cl_scratch_release(&s);
  }
  cl_leaves_release(&fd);
  cl_leaves_release(&fs);
  return st;
}

/* ------------------------------------------------------------ public odometer */

struct cl_odometer {
  int64_t leaves;     /* leaves of the shape (the flat coordinate's length) */
  int64_t n;          /* leaves of extent > 1, which alone move */
  int64_t size, index;
  int64_t offset;
  int64_t *shape, *stride, *idx, *leaf; /* [n] each; leaf[k]: position of moving leaf k */
};

cl_status cl_odometer_new(const cl_layout_t *layout, cl_odometer_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_leaves all;
  CL_TRY(cl_leaves_init(&all, layout, false));
  int64_t size = 1, n = 0;
  cl_status s = CL_OK;
  for (int64_t k = 0; k < all.n && s == CL_OK; k++) {
    if (all.shape[k] < 0)
      s = cl_fail(CL_E_DOMAIN, "odometer: negative extent %lld", (long long)all.shape[k]);
    else
      s = cl_mul(size, all.shape[k], &size);
    n += all.shape[k] != 1;
  }
  int64_t lo, hi;
  if (s == CL_OK)
    s = cl_leaves_offset_range(&all, &lo, &hi); /* every offset fits in int64_t */
  cl_odometer_t *it = NULL;
  if (s == CL_OK) {
    it = cl_alloc(sizeof *it + 4 * (size_t)n * sizeof(int64_t));
    if (it == NULL)
      s = cl_fail(CL_E_NOMEM, "out of memory");
  }
  if (s == CL_OK) {
    it->shape = (int64_t *)(void *)(it + 1);
    it->stride = it->shape + n;
    it->idx = it->stride + n;
    it->leaf = it->idx + n;
    it->leaves = all.n;
    it->n = 0;
    for (int64_t k = 0; k < all.n; k++)
      if (all.shape[k] != 1) {
        it->shape[it->n] = all.shape[k];
        it->stride[it->n] = all.stride[k];
        it->leaf[it->n] = k;
        it->n++;
      }
    it->size = size;
    cl_odometer_reset(it);
    *out = it;
  }
  cl_leaves_release(&all);
  return s;
}

void cl_odometer_free(cl_odometer_t *it) { cl_dealloc(it); }

void cl_odometer_reset(cl_odometer_t *it) {
  if (it == NULL)
    return;
  it->index = -1;
  it->offset = 0;
  memset(it->idx, 0, (size_t)it->n * sizeof *it->idx);
}

int cl_odometer_next(cl_odometer_t *it, int64_t *offset) {
  if (it == NULL || offset == NULL || it->index + 1 >= it->size)
    return 0;
  if (it->index >= 0)
    cl_odo_step(it->n, it->shape, it->stride, it->idx, &it->offset);
  it->index++;
  *offset = it->offset;
  return 1;
}

int64_t cl_odometer_next_batch(cl_odometer_t *it, int64_t *offsets, int64_t cap) {
  if (it == NULL || offsets == NULL || cap <= 0)
    return 0;
  int64_t count = 0;
  if (it->index + 1 < it->size && it->index < 0) {
    offsets[count++] = it->offset;
    it->index = 0;
  }
  if (it->n == 0)
    return count;
  /* Runs along the fastest moving leaf, then one odometer step. */
  const int64_t n0 = it->shape[0], d0 = it->stride[0];
  while (count < cap && it->index + 1 < it->size) {
    int64_t run = n0 - 1 - it->idx[0];
    if (run > cap - count)
      run = cap - count;
    if (run > 0) {
      int64_t off = it->offset;
      for (int64_t k = 0; k < run; k++)
        offsets[count + k] = off += d0;
      it->offset = off;
      it->idx[0] += run;
      it->index += run;
      count += run;
      continue;
    }
    cl_odo_step(it->n, it->shape, it->stride, it->idx, &it->offset);
    it->index++;
    offsets[count++] = it->offset;
  }
  return count;
}

int64_t cl_odometer_index(const cl_odometer_t *it) { return it ? it->index : -1; }

int64_t cl_odometer_leaves(const cl_odometer_t *it) { return it ? it->leaves : 0; }

cl_status cl_odometer_coord(const cl_odometer_t *it, int64_t *coord, int64_t n) {
  CHECK_NULL(it);
  if (n > 0)
    CHECK_NULL(coord);
  if (n != it->leaves)
    return cl_fail(CL_E_RANK, "odometer: %lld coordinates requested for %lld leaves", (long long)n, (long long)it->leaves);
  memset(coord, 0, (size_t)n * sizeof *coord);
  for (int64_t k = 0; k < it->n; k++)
    coord[it->leaf[k]] = it->idx[k];
  return CL_OK;
}
