/* SPDX-License-Identifier: BSD-3-Clause */
/* plan.c: the GPU copy's plan, made on the host from the public API alone:
 * joint modes of the two layouts, the kernel, its vector width, and the
 * compiled layouts the kernel evaluates (cuda_impl.h says what each holds).
 *
 * Joint modes are the host copy's analysis (tensor.h, cl_tensor_copy): each
 * layout coalesced, their leaves refined into modes (n, d, s) that both walk
 * as one mode, flipped to positive dst strides, sorted by dst stride and
 * merged where contiguous in both.  Then the kernel:
 *   memcpy     a single mode contiguous on both sides;
 *   transpose  dst's unit-stride mode is not src's: i runs along the modes
 *              that continue dst's unit mode, j along those that continue
 *              src's, the rest is a batch; tiles of i x j move through
 *              shared memory;
 *   tile       as transpose where its vectors do not fit (odd extents,
 *              unaligned pointers, no unit stride): element by element, or
 *              16-byte windows of 1- and 2-byte elements (wide tiles);
 *   rows       an odd or unaligned common contiguous run of 64 bytes or
 *              more: 16-byte windows of each row;
 *   vector     otherwise: the common contiguous run (mode 0 when unit on
 *              both sides) is cut into vectors of up to 16 bytes, and each
 *              vector's offsets are two compiled layouts over the modes;
 *   generic    layouts without a common refinement: the two compiled
 *              layouts themselves, one element at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_impl.h"

/* ------------------------------------------------------------ leaves */

/* The modes of coalesce(layout), extent-1 modes dropped: n[k], stride[k]. */
static cl_status layout_modes(const cl_layout_t *layout, int64_t *n, int64_t *stride, int *count) {
  cl_layout_t *flat = NULL;
  cl_tuple_t *shape = NULL, *strides = NULL;
  cl_status s = cl_coalesce(layout, &flat);
  if (s == CL_OK)
    s = cl_layout_shape(flat, &shape);
  if (s == CL_OK)
    s = cl_layout_stride(flat, &strides);
  int64_t rank = s == CL_OK ? cl_tuple_rank(shape) : 0;
  if (s == CL_OK && rank > CL_CUDA_MAX_MODES)
    s = cl_set_last_error(CL_E_LIMIT, "cuda copy: a layout has more than 32 modes once coalesced");
  *count = 0;
  for (int64_t k = 0; s == CL_OK && k < rank; k++) {
    cl_tuple_t *e = NULL, *d = NULL;
    int64_t extent = 0, step = 0;
    s = cl_tuple_get(shape, &k, 1, &e);
    if (s == CL_OK)
      s = cl_tuple_get(strides, &k, 1, &d);
    if (s == CL_OK)
      s = cl_tuple_value(e, &extent);
    if (s == CL_OK)
      s = cl_tuple_value(d, &step);
    if (s == CL_OK && extent != 1) {
      n[*count] = extent;
      stride[(*count)++] = step;
    }
    cl_tuple_free(e);
    cl_tuple_free(d);
  }
  cl_tuple_free(shape);
  cl_tuple_free(strides);
  cl_layout_free(flat);
  return s;
}

/* The common refinement of two mode lists of equal size: joint modes where
 * at each step one side's remaining extent divides the other's.  False when
 * the lists have none (an extent that neither divides). */
static bool refine(cl_cuda_plan *p, const int64_t *dn, const int64_t *dd, int nd, const int64_t *sn,
                   const int64_t *ss, int ns) {
  int i = 0, j = 0;
  int64_t ra = nd > 0 ? dn[0] : 1, rb = ns > 0 ? sn[0] : 1;
  int64_t ca = nd > 0 ? dd[0] : 0, cb = ns > 0 ? ss[0] : 0;
  p->r = 0;
  while (i < nd && j < ns) {
    int64_t g = ra % rb == 0 ? rb : rb % ra == 0 ? ra : 0;
    if (g == 0 || p->r == CL_CUDA_MAX_MODES)
      return false;
    p->m[p->r++] = (cl_jmode){g, ca, cb};
    ra /= g;
    rb /= g;
    /* Within a mode the stride grows to at most its last offset, which
     * fits in int64_t. */
    if (ra != 1)
      ca *= g;
    else if (++i < nd) {
      ra = dn[i];
      ca = dd[i];
    }
    if (rb != 1)
      cb *= g;
    else if (++j < ns) {
      rb = sn[j];
      cb = ss[j];
    }
  }
  return i == nd && j == ns;
}

/* ------------------------------------------------------------ compiled layouts */

/* The layout (n[0],...):(stride[0],...) seen through swizzle sw after
 * offset, compiled.  No modes: the layout 1:0. */
static cl_status compile_modes(const int64_t *n, const int64_t *stride, int count, cl_swizzle_t sw, int64_t offset,
                               cl_compiled_layout_t *out) {
  static const int64_t one = 1, zero = 0;
  cl_tuple_t *shape = NULL, *strides = NULL;
  cl_layout_t *layout = NULL;
  cl_composed_t *composed = NULL;
  cl_status s = cl_tuple_from_ints(count ? n : &one, count ? count : 1, &shape);
  if (s == CL_OK)
    s = cl_tuple_from_ints(count ? stride : &zero, count ? count : 1, &strides);
  if (s == CL_OK)
    s = cl_layout_make(shape, strides, &layout);
  if (s == CL_OK && sw.bits == 0 && offset == 0)
    s = cl_layout_compile(layout, out);
  else if (s == CL_OK) {
    s = cl_make_composed_layout(cl_fn_swizzle(sw), offset, cl_fn_layout(layout), &composed);
    if (s == CL_OK)
      s = cl_composed_compile(composed, out);
  }
  cl_composed_free(composed);
  cl_layout_free(layout);
  cl_tuple_free(shape);
  cl_tuple_free(strides);
  return s;
}

/* The modes m[0..count) on one side (dst or src), strides divided by
 * `unit` elements, through the side's swizzle brought to units (the swizzle
 * keeps the low M bits, so downcast by log2(unit) <= M leaves its base at
 * M - log2(unit)). */
static cl_status compile_side(const cl_jmode *m, int count, bool dst, const cl_cuda_side *side, int64_t origin,
                              int64_t unit, cl_compiled_layout_t *out) {
  int64_t n[CL_CUDA_MAX_MODES], stride[CL_CUDA_MAX_MODES];
  for (int k = 0; k < count; k++) {
    n[k] = m[k].n;
    stride[k] = (dst ? m[k].d : m[k].s) / unit;
  }
  cl_swizzle_t sw = side->sw;
  int64_t offset = 0;
  if (sw.bits != 0) {
    int log2_unit = 0;
    while (((int64_t)1 << log2_unit) < unit)
      log2_unit++;
    sw.base -= log2_unit;
    offset = (side->offset + origin) / unit;
  }
  return compile_modes(n, stride, count, sw, offset, out);
}

/* ------------------------------------------------------------ vectors */

/* Largest power of two dividing x (x != 0), capped at cap; cap for x == 0. */
static int64_t pow2_factor(int64_t x, int64_t cap) {
  int64_t v = 1;
  while (v < cap && x % (2 * v) == 0)
    v *= 2;
  return v;
}

/* Elements per vector, at most 16 bytes, that every offset of both sides
 * keeps aligned: the common run, every other stride, both origins and base
 * addresses.  A swizzled side keeps runs of 2^M elements together. */
static int64_t vector_length(const cl_cuda_plan *p, const cl_cuda_side *dst, const cl_cuda_side *src, int64_t run,
                             int first) {
  int64_t v = pow2_factor(run, 16 / p->elem);
  for (int k = first; k < p->r; k++) {
    v = pow2_factor(p->m[k].d, v);
    v = pow2_factor(p->m[k].s, v);
  }
  const cl_cuda_side *side[2] = {dst, src};
  int64_t origin[2] = {p->base_d, p->base_s};
  for (int t = 0; t < 2; t++) {
    if (side[t]->sw.bits != 0) {
      int64_t kept = side[t]->sw.base >= 4 ? 16 : (int64_t)1 << side[t]->sw.base;
      v = v < kept ? v : kept;
      v = pow2_factor(side[t]->offset + origin[t], v);
    } else {
      v = pow2_factor(origin[t], v);
    }
    v = pow2_factor((int64_t)(uintptr_t)side[t]->data / p->elem, v);
    if ((uintptr_t)side[t]->data % (uintptr_t)p->elem != 0)
      v = 1;
  }
  return v;
}

/* ------------------------------------------------------------ kernels */

/* The generic kernel over the two layouts themselves. */
static cl_status plan_generic(cl_cuda_plan *p, const cl_cuda_side *dst, const cl_cuda_side *src) {
  p->kernel = CL_CUDA_GENERIC;
  p->r = 0;
  p->vec = p->elem;
  p->count = p->size;
  cl_status s = CL_OK;
  const cl_cuda_side *side[2] = {dst, src};
  cl_compiled_layout_t *out[2] = {&p->dst_at, &p->src_at};
  for (int t = 0; t < 2 && s == CL_OK; t++) {
    if (side[t]->sw.bits == 0 && side[t]->offset == 0) {
      s = cl_layout_compile(side[t]->layout, out[t]);
    } else {
      cl_composed_t *c = NULL;
      s = cl_make_composed_layout(cl_fn_swizzle(side[t]->sw), side[t]->offset, cl_fn_layout(side[t]->layout), &c);
      if (s == CL_OK)
        s = cl_composed_compile(c, out[t]);
      cl_composed_free(c);
    }
  }
  return s;
}

/* A run of joint modes, each continuing the last one on one side. */
typedef struct mode_run {
  cl_jmode m[CL_CUDA_MAX_MODES];
  int len;
  int64_t steps; /* total extent */
} mode_run;

/* Moves the mode of `rest` that continues `run` on one side (dst or src),
 * if any, to the end of the run. */
static bool extend_run(mode_run *run, mode_run *rest, bool on_dst) {
  const cl_jmode *last = &run->m[run->len - 1];
  int64_t next = on_dst ? last->n * last->d : last->n * last->s;
  for (int k = 0; k < rest->len; k++)
    if ((on_dst ? rest->m[k].d : rest->m[k].s) == next) {
      run->m[run->len++] = rest->m[k];
      run->steps *= rest->m[k].n;
      memmove(rest->m + k, rest->m + k + 1, (size_t)(rest->len - k - 1) * sizeof *rest->m);
      rest->len--;
      return true;
    }
  return false;
}

/* The runs of a tiled copy; false when there are none (a common run, or a
 * source that repeats along every mode but m[0]).  i runs from dst's
 * smallest-stride mode m[0] (the modes are sorted by dst stride) along the
 * modes that continue it in dst, j from src's smallest nonzero |stride| mode
 * along those that continue it in src, each growing a mode at a time in turn
 * until it spans a tile's edge, and 128 bytes at least (a mode may continue
 * both); the rest is the batch.  m becomes i's modes, j's, the batch's. */
static bool choose_runs(cl_cuda_plan *p) {
  int edge = cl_cuda_tile_edge(p->elem);
  if (edge * p->elem < 128) /* a wide tile's edge: 128 bytes (eight 16-byte windows) */
    edge = (int)(128 / p->elem);
  if (p->r < 2)
    return false;
  int q = -1;
  for (int k = 1; k < p->r; k++)
    if (p->m[k].s != 0 && (q < 0 || llabs(p->m[k].s) < llabs(p->m[q].s)))
      q = k;
  if (q < 0 || (p->m[0].s != 0 && llabs(p->m[0].s) <= llabs(p->m[q].s)))
    return false;
  mode_run i = {{p->m[0]}, 1, p->m[0].n}, j = {{p->m[q]}, 1, p->m[q].n}, rest = {{{0, 0, 0}}, 0, 1};
  for (int k = 1; k < p->r; k++)
    if (k != q)
      rest.m[rest.len++] = p->m[k];
  for (bool grew = true; grew;) {
    grew = j.steps < edge && extend_run(&j, &rest, false);
    grew |= i.steps < edge && extend_run(&i, &rest, true);
  }
  memcpy(p->m, i.m, (size_t)i.len * sizeof *p->m);
  memcpy(p->m + i.len, j.m, (size_t)j.len * sizeof *p->m);
  memcpy(p->m + i.len + j.len, rest.m, (size_t)rest.len * sizeof *p->m);
  p->ni_modes = i.len;
  p->nj_modes = j.len;
  p->ni = i.steps;
  p->nj = j.steps;
  return true;
}

/* Whether the transpose kernel serves the runs: unit strides along both,
 * each spanning half a tile's edge at least. */
static bool transpose_fits(const cl_cuda_plan *p) {
  int edge = cl_cuda_tile_edge(p->elem);
  return p->m[0].d == 1 && p->m[p->ni_modes].s == 1 && p->ni >= edge / 2 && p->nj >= edge / 2;
}

/* Bytes per access of the transpose: 16 where every row start on both
 * sides is 16-byte aligned and the runs are whole vectors, else 4 (for
 * elements under 4 bytes), else one element. */
static int64_t transpose_vector(const cl_cuda_plan *p, const cl_cuda_side *dst, const cl_cuda_side *src) {
  int64_t e = p->elem, best = e;
  int64_t candidates[2] = {16, 4};
  for (int c = 0; c < 2; c++) {
    int64_t v = candidates[c] / e; /* elements per vector */
    if (v <= 1)
      continue;
    bool ok = p->ni % v == 0 && p->nj % v == 0 &&
              ((uintptr_t)dst->data + (uintptr_t)p->dst_origin) % (uintptr_t)candidates[c] == 0 &&
              ((uintptr_t)src->data + (uintptr_t)p->src_origin) % (uintptr_t)candidates[c] == 0;
    for (int k = 0; k < p->r && ok; k++) {
      bool in_i = k < p->ni_modes, in_j = k >= p->ni_modes && k < p->ni_modes + p->nj_modes;
      if (!in_j && p->m[k].s % v != 0) /* src rows start at the i and batch offsets */
        ok = false;
      if (!in_i && p->m[k].d % v != 0) /* dst rows at the j and batch offsets */
        ok = false;
    }
    if (ok) {
      best = candidates[c];
      break;
    }
  }
  return best;
}

static cl_status plan_transpose(cl_cuda_plan *p, const cl_cuda_side *dst, const cl_cuda_side *src) {
  p->kernel = CL_CUDA_TRANSPOSE;
  p->dst_origin = p->base_d * p->elem;
  p->src_origin = p->base_s * p->elem;
  p->vec = dst != NULL ? transpose_vector(p, dst, src) : p->elem;
  const cl_jmode *batch = p->m + p->ni_modes + p->nj_modes;
  int nb = p->r - p->ni_modes - p->nj_modes;
  p->batch = 1;
  for (int k = 0; k < nb; k++)
    p->batch *= batch[k].n;
  static const cl_cuda_side plain = {NULL, NULL, {0, 0, 0}, 0};
  cl_status s = compile_side(p->m, p->ni_modes, false, &plain, 0, 1, &p->i_src);
  if (s == CL_OK)
    s = compile_side(p->m + p->ni_modes, p->nj_modes, true, &plain, 0, 1, &p->j_dst);
  if (s == CL_OK)
    s = compile_side(batch, nb, true, &plain, 0, 1, &p->dst_at);
  if (s == CL_OK)
    s = compile_side(batch, nb, false, &plain, 0, 1, &p->src_at);
  return s;
}

/* Tiles of ti x tj elements: square where both runs are long, else the
 * short run whole and the long one as far as the tile and the offsets kept
 * in shared memory allow. */
static void tile_shape(cl_cuda_plan *p) {
  int64_t elems = cl_cuda_tile_elems(p->elem), run = cl_cuda_tile_run(p->elem), edge = p->elem <= 4 ? 64 : 32;
  int64_t ti, tj;
  if (p->ni < edge) {
    ti = p->ni;
    tj = p->nj < elems / ti ? p->nj : elems / ti;
  } else if (p->nj < edge) {
    tj = p->nj;
    ti = p->ni < elems / tj ? p->ni : elems / tj;
  } else {
    ti = edge;
    tj = elems / edge;
  }
  p->ti = (int)(ti < run ? ti : run);
  p->tj = (int)(tj < run ? tj : run);
}

/* The tile kernel: the transpose's runs with any strides, element by
 * element, through shared memory. */
static cl_status plan_tile(cl_cuda_plan *p) {
  cl_status s = plan_transpose(p, NULL, NULL);
  p->kernel = CL_CUDA_TILE;
  p->vec = p->elem;
  p->di = p->m[0].d;
  p->sj = p->m[p->ni_modes].s;
  tile_shape(p);
  return s;
}

/* Whether the kernels of 16-byte windows (wide tiles, rows) may serve:
 * unless CUTELAYOUT_CUDA_TILES is "scalar" (the element-wise tile kernel and
 * the vector kernel, a baseline for measurements). */
static bool wide_kernels_allowed(void) {
  const char *tiles = getenv("CUTELAYOUT_CUDA_TILES");
  return tiles == NULL || strcmp(tiles, "scalar") != 0;
}

/* Whether the tile kernel's copy takes 16-byte windows: elements of 1 or 2
 * bytes with unit strides along both runs, each run 64 bytes at least.
 * gpu-random on an H100 measured the element-wise tiles faster for 4-byte
 * elements (a warp's access is 128 bytes already) and for shorter runs
 * (whose windows are mostly edges). */
static bool dst_continues_i(const cl_cuda_plan *p);

/* Whether a copy is small enough that the vector kernel (a few items per
 * thread, no shared memory, no barrier) beats the tile kernels: copies of
 * 2- and 4-byte elements of at most CL_CUDA_SMALL_BYTES bytes, a few
 * microseconds of latency, of which a tile's phases (loads into shared
 * memory, a barrier, stores) on a few blocks take more than they save.
 * tools/small_copies.py on an H100 (docs/gpu.md) measured the vector kernel
 * up to 1.9x faster there, but slower for 1-byte elements (whose tiles move
 * 16-byte windows: 2.3x slower at 1 MiB) and for 4-byte ones at 1 MiB; 8-
 * and 16-byte elements were not measured.  CUTELAYOUT_CUDA_SMALL=off keeps
 * the tiles (the baseline of those measurements). */
static bool small_copy(const cl_cuda_plan *p) {
  const char *small = getenv("CUTELAYOUT_CUDA_SMALL");
  return (small == NULL || strcmp(small, "off") != 0) && (p->elem == 2 || p->elem == 4) &&
         p->size <= CL_CUDA_SMALL_BYTES / p->elem;
}

static bool wide_tiles_fit(const cl_cuda_plan *p) {
  return wide_kernels_allowed() && p->elem <= 2 && p->m[0].d == 1 && p->m[p->ni_modes].s == 1 &&
         (p->ni * p->elem >= 64 || (p->ni >= 2 && p->ni * p->elem <= 128 && dst_continues_i(p))) &&
         p->nj * p->elem >= 64;
}

/* Tiles of the wide kernel: a short j run (under 128 bytes) whole by as
 * many rows as fit; else i at most 128 bytes (rows staggered in shared
 * memory) and j as long (beyond the offsets kept where dst's columns are
 * one run) as the rows fit in shared
 * memory, each row an odd number of windows (rp bytes); both edges at most
 * the offsets kept, and either side's windows in a tile under 2^16 (the
 * kernel's divisions). */
static void wide_tile_shape(cl_cuda_plan *p) {
  int64_t e = p->elem, run = cl_cuda_wide_tile_run(), bytes = cl_cuda_wide_tile_bytes() - 128;
  if (p->nj * e < 128 && p->ni * e > 128) { /* a short j run whole, rows unstaggered */
    int64_t w = cl_cuda_wide_windows(p->nj, e), rp = 16 * (w % 2 ? w : w + 1);
    int64_t ti = bytes / rp < run ? bytes / rp : run;
    p->ti = (int)(ti < p->ni ? ti : p->ni);
    p->tj = (int)p->nj;
    p->rp = (int)rp;
    return;
  }
  int64_t ti = p->ni * e <= 128 ? p->ni : 128 / e;
  int64_t rows_windows = bytes / ti / 16; /* windows a row may take */
  int64_t nw = rows_windows % 2 ? rows_windows : rows_windows - 1;
  int64_t tj = (16 * nw - 15) / e;
  tj = tj < p->nj ? tj : p->nj;
  if (ti != p->ni || !dst_continues_i(p)) /* columns one run in dst keep no offsets but the first */
    tj = tj < run ? tj : run;
  while (ti * cl_cuda_wide_windows(tj, e) >= 65536 || tj * cl_cuda_wide_windows(ti, e) >= 65536)
    tj /= 2;
  int64_t w = cl_cuda_wide_windows(tj, e);
  p->ti = (int)ti;
  p->tj = (int)tj;
  p->rp = (int)(16 * (w % 2 ? w : w + 1));
}

/* Whether a tile's columns are one run in dst when i is whole in the tile:
 * j's modes continue i in dst (NCHW to NHWC: the channels by the pixels). */
static bool dst_continues_i(const cl_cuda_plan *p) {
  int64_t next = p->ni;
  for (int k = p->ni_modes; k < p->ni_modes + p->nj_modes; k++) {
    if (p->m[k].d != next)
      return false;
    next *= p->m[k].n;
  }
  return true;
}

/* The tile kernel with 16-byte windows (see wide_tiles_fit). */
static cl_status plan_wide_tile(cl_cuda_plan *p, const cl_cuda_side *src) {
  cl_status s = plan_transpose(p, NULL, NULL);
  p->kernel = CL_CUDA_TILE;
  p->vec = 16;
  p->di = p->sj = 1;
  wide_tile_shape(p);
  p->flat_dst = p->ti == p->ni && dst_continues_i(p);
  int64_t lo = 0, hi = 0;
  if (s == CL_OK)
    s = cl_cuda_side_range(src, p->elem, &lo, &hi);
  p->src_lo = lo - p->src_origin;
  p->src_hi = hi - p->src_origin;
  return s;
}

/* The rows kernel: the common run m[0] in 16-byte windows, where the vector
 * kernel's vectors would be narrower (an odd run, unaligned rows) and the
 * run holds four windows at least (gpu-random on an H100 measured the
 * vector kernel faster on shorter runs: 13 floats, 17 half-words). */
static bool rows_fit(const cl_cuda_plan *p, const cl_cuda_plan *vector) {
  int64_t bytes = p->r > 1 ? p->m[0].n * p->elem : 0;
  return p->m[0].d == 1 && p->m[0].s == 1 && p->elem <= 4 && vector->vec < 16 && bytes >= 64 &&
         bytes <= (1 << 20);
}

static cl_status plan_rows(cl_cuda_plan *p, const cl_cuda_side *src) {
  static const cl_cuda_side plain = {NULL, NULL, {0, 0, 0}, 0};
  p->kernel = CL_CUDA_ROWS;
  p->vec = 16;
  p->ni = p->m[0].n;
  p->batch = p->size / p->ni;
  p->dst_origin = p->base_d * p->elem;
  p->src_origin = p->base_s * p->elem;
  int64_t lo = 0, hi = 0;
  cl_status s = compile_side(p->m + 1, p->r - 1, true, &plain, 0, 1, &p->dst_at);
  if (s == CL_OK)
    s = compile_side(p->m + 1, p->r - 1, false, &plain, 0, 1, &p->src_at);
  if (s == CL_OK)
    s = cl_cuda_side_range(src, p->elem, &lo, &hi);
  p->src_lo = lo - p->src_origin;
  p->src_hi = hi - p->src_origin;
  return s;
}

/* One vector of v elements per item: mode 0 (the common run, when unit on
 * both sides) cut into vectors, the other modes as they are. */
static cl_status plan_vector(cl_cuda_plan *p, const cl_cuda_side *dst, const cl_cuda_side *src) {
  bool run = p->r > 0 && p->m[0].d == 1 && p->m[0].s == 1;
  int64_t v = vector_length(p, dst, src, run ? p->m[0].n : 1, run ? 1 : 0);
  p->kernel = CL_CUDA_VECTOR;
  p->vec = v * p->elem;
  p->count = p->size / v;
  cl_jmode m[CL_CUDA_MAX_MODES];
  memcpy(m, p->m, (size_t)p->r * sizeof *m);
  if (run) {
    m[0].n /= v; /* the run in vectors: strides 1 vector = v elements */
    m[0].d = m[0].s = v;
  }
  /* Plain sides carry their origin in the pointer, swizzled ones in the
   * compiled offset (the swizzle acts on the whole offset). */
  p->dst_origin = dst->sw.bits == 0 ? p->base_d * p->elem : 0;
  p->src_origin = src->sw.bits == 0 ? p->base_s * p->elem : 0;
  cl_status s = compile_side(m, p->r, true, dst, p->base_d, v, &p->dst_at);
  if (s == CL_OK)
    s = compile_side(m, p->r, false, src, p->base_s, v, &p->src_at);
  return s;
}

/* ------------------------------------------------------------ the plan */

cl_status cl_cuda_plan_copy(cl_cuda_plan *p, const cl_cuda_side *dst, const cl_cuda_side *src, int64_t elem,
                            int allow) {
  memset(p, 0, sizeof *p);
  p->elem = elem;
  p->vec = elem;
  cl_status s = cl_layout_size_checked(dst->layout, &p->size);
  if (s != CL_OK || p->size == 0) {
    p->kernel = CL_CUDA_NOTHING;
    return s;
  }
  int64_t dn[CL_CUDA_MAX_MODES], dd[CL_CUDA_MAX_MODES], sn[CL_CUDA_MAX_MODES], ss[CL_CUDA_MAX_MODES];
  int nd = 0, ns = 0;
  s = layout_modes(dst->layout, dn, dd, &nd);
  if (s == CL_OK)
    s = layout_modes(src->layout, sn, ss, &ns);
  if (s != CL_OK)
    return s;
  if (!refine(p, dn, dd, nd, sn, ss, ns))
    return plan_generic(p, dst, src);
  p->r = (int)cl_jmodes_normalize(p->m, p->r, &p->base_d, &p->base_s);
  bool plain = dst->sw.bits == 0 && src->sw.bits == 0;
  if (plain && (allow & CL_CUDA_ALLOW_MEMCPY) && p->r == 1 && p->m[0].d == 1 && p->m[0].s == 1) {
    p->kernel = CL_CUDA_MEMCPY;
    p->vec = p->elem * p->m[0].n;
    p->dst_origin = p->base_d * elem;
    p->src_origin = p->base_s * elem;
    return CL_OK;
  }
  /* Runs on different modes: the transpose kernel where it fits with
   * vectors, else the tile kernel (with 16-byte windows where
   * wide_tiles_fit), unless a tile would hold too few elements to keep a
   * block's threads busy; element-wise tiles also need runs of 8 steps (a
   * 3-channel image: gpu-random measured the vector kernel faster there). */
  if (plain && (allow & CL_CUDA_ALLOW_TILES) && !small_copy(p)) {
    cl_cuda_plan t = *p;
    if (choose_runs(&t)) {
      if (transpose_fits(&t)) {
        cl_cuda_plan v = t;
        cl_status st = plan_transpose(&v, dst, src);
        if (st != CL_OK || v.vec > v.elem) {
          *p = v;
          return st;
        }
      }
      if (wide_tiles_fit(&t)) {
        *p = t;
        return plan_wide_tile(p, src);
      }
      int64_t run = cl_cuda_tile_run(elem);
      if (t.ni >= 8 && t.nj >= 8 && (t.ni < run ? t.ni : run) * (t.nj < run ? t.nj : run) >= 512) {
        *p = t;
        return plan_tile(p);
      }
    }
  }
  if (plain && (allow & CL_CUDA_ALLOW_TILES) && wide_kernels_allowed()) {
    cl_cuda_plan v = *p;
    cl_status st = plan_vector(&v, dst, src);
    if (st != CL_OK || !rows_fit(p, &v)) {
      *p = v;
      return st;
    }
    return plan_rows(p, src);
  }
  return plan_vector(p, dst, src);
}

bool cl_cuda_plan_dst_injective(const cl_cuda_plan *p) {
  if (p->kernel == CL_CUDA_NOTHING)
    return true;
  if (p->kernel == CL_CUDA_GENERIC)
    return false;
  cl_jmode m[CL_CUDA_MAX_MODES]; /* positive dst strides, sorted */
  memcpy(m, p->m, (size_t)p->r * sizeof *m);
  for (int k = 1; k < p->r; k++)
    for (int j = k; j > 0 && m[j - 1].d > m[j].d; j--) {
      cl_jmode t = m[j];
      m[j] = m[j - 1];
      m[j - 1] = t;
    }
  int64_t reach = 0; /* within the layout's offsets, which fit */
  for (int k = 0; k < p->r; k++) {
    if (m[k].d <= reach)
      return false;
    reach += (m[k].n - 1) * m[k].d;
  }
  return true;
}

static const char *const kernel_names[] = {"nothing", "memcpy", "vector", "transpose", "generic", "tile", "rows"};

int64_t cl_cuda_plan_format(const cl_cuda_plan *p, char *buf, size_t cap) {
  char text[1024];
  size_t len = 0;
#define PUT(...)                                                                      \
  do {                                                                                \
    int w_ = snprintf(text + len, sizeof text - len, __VA_ARGS__);                    \
    len = w_ < 0 ? len : len + (size_t)w_ < sizeof text ? len + (size_t)w_ : sizeof text - 1; \
  } while (0)
  PUT("kernel %s", kernel_names[p->kernel]);
  if (p->kernel != CL_CUDA_NOTHING)
    PUT(", %lld-byte accesses", (long long)p->vec);
  if (p->kernel == CL_CUDA_TRANSPOSE) {
    int edge = cl_cuda_tile_edge(p->elem);
    PUT(", tiles %dx%d, %lld dst-contiguous steps (%d mode%s) by %lld src-contiguous steps (%d mode%s), batch %lld",
        edge, edge, (long long)p->ni, p->ni_modes, p->ni_modes == 1 ? "" : "s", (long long)p->nj, p->nj_modes,
        p->nj_modes == 1 ? "" : "s", (long long)p->batch);
  }
  if (p->kernel == CL_CUDA_TILE)
    PUT(", tiles %dx%d, %lld dst steps of %lld (%d mode%s) by %lld src steps of %lld (%d mode%s), batch %lld", p->ti,
        p->tj, (long long)p->ni, (long long)p->di, p->ni_modes, p->ni_modes == 1 ? "" : "s", (long long)p->nj,
        (long long)p->sj, p->nj_modes, p->nj_modes == 1 ? "" : "s", (long long)p->batch);
  if (p->kernel == CL_CUDA_ROWS)
    PUT(", %lld rows of %lld elements", (long long)p->batch, (long long)p->ni);
  if (p->kernel == CL_CUDA_TILE && p->flat_dst)
    PUT(", dst columns in one run");
  if (p->r > 0) {
    PUT(", modes (");
    for (int k = 0; k < p->r; k++)
      PUT("%s%lld:%lld<-%lld", k ? "," : "", (long long)p->m[k].n, (long long)p->m[k].d, (long long)p->m[k].s);
    PUT(")");
  }
#undef PUT
  if (cap > 0)
    snprintf(buf, cap, "%s", text);
  return (int64_t)len;
}

/* ------------------------------------------------------------ memory ranges */

static int64_t floor_to(int64_t x, int64_t block) { return x - ((x % block) + block) % block; }

cl_status cl_cuda_side_range(const cl_cuda_side *side, int64_t elem, int64_t *lo, int64_t *hi) {
  int64_t n[CL_CUDA_MAX_MODES], stride[CL_CUDA_MAX_MODES];
  int count = 0;
  cl_status s = layout_modes(side->layout, n, stride, &count);
  if (s != CL_OK)
    return s;
  int64_t first = side->offset, last = side->offset;
  bool overflow = false;
  for (int k = 0; k < count; k++) {
    int64_t reach = 0;
    overflow |= __builtin_mul_overflow(n[k] - 1, stride[k], &reach);
    overflow |= __builtin_add_overflow(reach < 0 ? first : last, reach, reach < 0 ? &first : &last);
  }
  if (side->sw.bits != 0) { /* the swizzle moves offsets within aligned blocks */
    int64_t shift = side->sw.shift < 0 ? -(int64_t)side->sw.shift : side->sw.shift;
    int64_t block = (int64_t)1 << (side->sw.bits + side->sw.base + shift);
    first = floor_to(first, block);
    overflow |= __builtin_add_overflow(floor_to(last, block), block - 1, &last);
  }
  overflow |= __builtin_mul_overflow(first, elem, lo);
  overflow |= __builtin_add_overflow(last, 1, &last) || __builtin_mul_overflow(last, elem, hi);
  if (overflow)
    return cl_set_last_error(CL_E_OVERFLOW, "cuda copy: a byte offset of the view does not fit in int64_t");
  return CL_OK;
}

cl_status cl_cuda_side_injective(const cl_cuda_side *side) {
  int64_t n[CL_CUDA_MAX_MODES], stride[CL_CUDA_MAX_MODES];
  int count = 0;
  cl_status s = layout_modes(side->layout, n, stride, &count);
  if (s != CL_OK)
    return s;
  for (int k = 0; k < count; k++) /* |stride|, sorted */
    stride[k] = stride[k] < 0 ? -stride[k] : stride[k];
  for (int k = 1; k < count; k++)
    for (int j = k; j > 0 && stride[j - 1] > stride[j]; j--) {
      int64_t t = stride[j], e = n[j];
      stride[j] = stride[j - 1];
      n[j] = n[j - 1];
      stride[j - 1] = t;
      n[j - 1] = e;
    }
  int64_t reach = 0; /* the largest offset of the smaller modes */
  for (int k = 0; k < count; k++) {
    if (stride[k] <= reach)
      return cl_set_last_error(CL_E_OVERLAP, "cl_cuda_composed_copy: the destination layout is not proven injective "
                                             "(two coordinates may reach one element)");
    int64_t span = 0;
    if (__builtin_mul_overflow(n[k] - 1, stride[k], &span) || __builtin_add_overflow(reach, span, &reach))
      return cl_set_last_error(CL_E_OVERFLOW, "cl_cuda_composed_copy: an offset of the destination layout does not "
                                              "fit in int64_t");
  }
  return CL_OK;
}
