/* SPDX-License-Identifier: BSD-3-Clause */
/* tensor_copy.c: algorithms on tensor views: copy, fill, apply, transform,
 * and the odometer that walks a layout's offsets without division.
 *
 * The copy engine.  A copy dst(i) = src(i) for i in [0, size) visits the same
 * linear coordinate in two layouts.  Splitting both layouts into their leaves
 * and refining the two lists of extents into one ("joint modes", each with a
 * dst stride and a src stride) turns it into a loop nest over joint modes,
 * whose order is free because dst is injective and does not overlap src.
 * The plan then
 *   1. flips modes so every dst stride is positive, sorts them by dst stride
 *      and merges neighbours that are contiguous in both layouts (a joint
 *      coalesce);
 *   2. folds a leading mode that is unit-stride in both into the element: the
 *      common contiguous vector (CuTe's max_common_vector), moved by memcpy;
 *   3. picks a kernel: one memcpy; a strided 2-D loop; or, when dst's fastest
 *      mode is not src's fastest (a transpose), strips of one dst cache line
 *      across a run of modes along which src is contiguous, 4x4 register
 *      tiles, streaming stores for large copies (see transpose_order);
 *   4. walks the remaining modes with an odometer (mixed-radix counter: one
 *      addition per step, a subtraction on carry, never a division).
 * When the two extent lists have no common refinement (e.g. (2,3) against
 * (3,2)), the refinable prefix still forms the joint modes and the rest of
 * each layout is walked by its own odometer. */
#include <stdlib.h>

#include "sink_impl.h"
#include "tensor_impl.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ------------------------------------------------------------ odometers */

/* Advances the mixed-radix counter idx (radices shape[0..n), leaf 0 fastest)
 * by one, moving *off along the strides; false after the last position. */
static inline bool odo_step(int64_t n, const int64_t *shape, const int64_t *stride, int64_t *idx, int64_t *off) {
  for (int64_t k = 0; k < n; k++) {
    if (++idx[k] < shape[k]) {
      *off += stride[k];
      return true;
    }
    idx[k] = 0;
    *off -= (shape[k] - 1) * stride[k];
  }
  return false;
}

/* ------------------------------------------------------------ scratch */

/* One allocation (or the inline buffer) for all the arrays of one call. */
typedef struct scratch {
  int64_t *p;
  int64_t inline_buf[192];
} scratch;

static cl_status scratch_init(scratch *s, int64_t words) {
  s->p = s->inline_buf;
  if (words > (int64_t)(sizeof s->inline_buf / sizeof s->inline_buf[0])) {
    if ((uint64_t)words > SIZE_MAX / sizeof(int64_t))
      return cl_fail(CL_E_NOMEM, "out of memory");
    s->p = cl_alloc((size_t)words * sizeof(int64_t));
    if (s->p == NULL)
      return cl_fail(CL_E_NOMEM, "out of memory");
  }
  memset(s->p, 0, (size_t)words * sizeof(int64_t));
  return CL_OK;
}

static void scratch_release(scratch *s) {
  if (s->p != s->inline_buf)
    cl_dealloc(s->p);
}

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
  scratch s;
  CL_TRY(scratch_init(&s, 3 * f->n));
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
      } while (odo_step(f->n, f->shape, f->stride, idx, &off));
      cl_dealloc(b.w);
    }
  }
  scratch_release(&s);
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
  scratch s;
  CL_TRY(scratch_init(&s, fd->n + fs->n));
  cl_status st = bitmap_init(&b, lo, hi - lo);
  if (st == CL_OK) {
    int64_t off = 0, *idx = s.p;
    do
      bitmap_set(&b, off * e / g, e / g);
    while (odo_step(fd->n, fd->shape, fd->stride, idx, &off));
    idx = s.p + fd->n;
    off = 0;
    do {
      if (bitmap_test(&b, (off * es + delta) / g, es / g)) {
        st = cl_fail(CL_E_OVERLAP, "copy: source and destination share the element at source offset %lld", (long long)off);
        break;
      }
    } while (odo_step(fs->n, fs->shape, fs->stride, idx, &off));
    cl_dealloc(b.w);
  }
  scratch_release(&s);
  return st;
}

/* ------------------------------------------------------------ the copy plan */

typedef struct jmode {
  int64_t n, d, s; /* extent, dst byte stride, src byte stride */
} jmode;

typedef enum kernel_kind { K_ONE, K_STRIDED, K_TRANSPOSE } kernel_kind;

static const char *const kernel_names[] = {"memcpy", "strided", "transpose"};

typedef struct copy_plan {
  int64_t elem;   /* bytes per kernel element: the common vector folded in */
  int64_t vector; /* original elements per kernel element */
  int64_t r;      /* joint modes m[0..r) */
  jmode *m;
  int64_t base_d, base_s; /* byte offsets of the first element after flips */
  kernel_kind kind;
  /* Transpose: two runs of joint modes, each walked as one index through a
   * table of offsets.  i: m[0..ichain), along which dst is contiguous (m[0]
   * its unit mode, each next mode continuing it), in steps whose src offsets
   * are is[i]; j: the next jchain modes, along which src is contiguous, jn
   * steps whose dst offsets are jd[j].  A run of a single mode has no table
   * (offset = step * stride). */
  int64_t block;        /* strip width along i, in elements */
  int64_t jblock;       /* steps of j per sweep of the strips */
  int64_t ichain, in, jchain, jn;
  int64_t *is, *jd;
  bool nontemporal;     /* stream the stores past the cache */
  bool rows;            /* transpose_order chose rows, not strips */
  /* Tails past the common refinement, walked independently (byte strides). */
  int64_t tn_d, tn_s;
  int64_t *td_shape, *td_stride, *ts_shape, *ts_stride;
  scratch mem;
} copy_plan;

/* Joint modes from the common refinement of the dst and src leaves (extent-1
 * leaves already dropped); what cannot be refined becomes the tails. */
static cl_status refine(copy_plan *p, const cl_leaves *fd, const cl_leaves *fs, int64_t e) {
  int64_t i = 0, j = 0, r = 0;
  int64_t ra = 1, ca = 0, rb = 1, cb = 0;
  if (fd->n > 0) {
    ra = fd->shape[0];
    CL_TRY(cl_mul(fd->stride[0], e, &ca));
  }
  if (fs->n > 0) {
    rb = fs->shape[0];
    CL_TRY(cl_mul(fs->stride[0], e, &cb));
  }
  while (i < fd->n && j < fs->n) {
    int64_t g;
    if (ra % rb == 0)
      g = rb;
    else if (rb % ra == 0)
      g = ra;
    else
      break;
    p->m[r++] = (jmode){g, ca, cb};
    ra /= g;
    rb /= g;
    if (ra == 1) {
      if (++i < fd->n) {
        ra = fd->shape[i];
        CL_TRY(cl_mul(fd->stride[i], e, &ca));
      }
    } else {
      CL_TRY(cl_mul(ca, g, &ca));
    }
    if (rb == 1) {
      if (++j < fs->n) {
        rb = fs->shape[j];
        CL_TRY(cl_mul(fs->stride[j], e, &cb));
      }
    } else {
      CL_TRY(cl_mul(cb, g, &cb));
    }
  }
  p->r = r;
  p->tn_d = p->tn_s = 0;
  if (i < fd->n) {
    /* Equal sizes: both lists stop together, each with a partly used leaf. */
    p->td_shape[0] = ra;
    p->td_stride[0] = ca;
    p->tn_d = 1;
    for (int64_t k = i + 1; k < fd->n; k++, p->tn_d++) {
      p->td_shape[p->tn_d] = fd->shape[k];
      CL_TRY(cl_mul(fd->stride[k], e, &p->td_stride[p->tn_d]));
    }
    p->ts_shape[0] = rb;
    p->ts_stride[0] = cb;
    p->tn_s = 1;
    for (int64_t k = j + 1; k < fs->n; k++, p->tn_s++) {
      p->ts_shape[p->tn_s] = fs->shape[k];
      CL_TRY(cl_mul(fs->stride[k], e, &p->ts_stride[p->tn_s]));
    }
  }
  return CL_OK;
}

/* Does a mode (n, d) continue into a mode of stride next: n * d == next? */
static bool continues(int64_t n, int64_t d, int64_t next) {
  int64_t end;
  return !__builtin_mul_overflow(n, d, &end) && end == next;
}

/* Step 1: flip to positive dst strides, sort by dst stride, merge modes that
 * are contiguous in both layouts. */
static void normalize(copy_plan *p) {
  jmode *m = p->m;
  for (int64_t k = 0; k < p->r; k++)
    if (m[k].d < 0) {
      p->base_d += (m[k].n - 1) * m[k].d;
      p->base_s += (m[k].n - 1) * m[k].s;
      m[k].d = -m[k].d;
      m[k].s = -m[k].s;
    }
  for (int64_t k = 1; k < p->r; k++) {
    jmode x = m[k];
    int64_t j = k;
    while (j > 0 && m[j - 1].d > x.d) {
      m[j] = m[j - 1];
      j--;
    }
    m[j] = x;
  }
  int64_t w = 0;
  for (int64_t k = 0; k < p->r; k++) {
    if (w > 0 && continues(m[w - 1].n, m[w - 1].d, m[k].d) && continues(m[w - 1].n, m[w - 1].s, m[k].s))
      m[w - 1].n *= m[k].n;
    else
      m[w++] = m[k];
  }
  p->r = w;
}

/* Moves mode k of m to position at, keeping the order of the others. */
static void move_mode(jmode *m, int64_t k, int64_t at) {
  jmode x = m[k];
  if (k > at)
    memmove(m + at + 1, m + at, (size_t)(k - at) * sizeof *m);
  m[at] = x;
}

/* Grows a run of modes m[at..at+len) of total extent *steps, along which one
 * side (dst when on_dst) is contiguous, with any later mode that continues
 * it, up to CHAIN_MAX_STEPS steps; returns the new length. */
#define CHAIN_MAX_STEPS ((int64_t)1 << 16)
static int64_t grow_run(copy_plan *p, int64_t at, int64_t len, bool on_dst, int64_t *steps) {
  jmode *m = p->m;
  for (;;) {
    int64_t k = at + len;
    while (k < p->r && !(continues(*steps, p->elem, on_dst ? m[k].d : m[k].s) && *steps <= CHAIN_MAX_STEPS / m[k].n))
      k++;
    if (k == p->r)
      return len;
    move_mode(m, k, at + len);
    *steps *= m[at + len].n;
    len++;
  }
}

/* Steps 2 and 3. */
static void choose_kernel(copy_plan *p) {
  jmode *m = p->m;
  if (p->r > 0 && m[0].d == p->elem && m[0].s == p->elem) {
    p->vector *= m[0].n;
    p->elem *= m[0].n;
    memmove(m, m + 1, (size_t)(p->r - 1) * sizeof *m);
    p->r--;
  }
  if (p->r == 0) {
    p->kind = K_ONE;
    return;
  }
  p->kind = K_STRIDED;
  /* A transpose: dst's fastest mode is unit-stride, src's fastest is another
   * mode.  Strips pay once both edges are a few elements long. */
  bool power_of_two = p->elem <= 16 && (p->elem & (p->elem - 1)) == 0; /* the sizes with a kernel */
  if (m[0].d != p->elem || !power_of_two || m[0].n < 4)
    return;
  int64_t q = 1;
  while (q < p->r && !(m[q].s == p->elem && m[q].n >= 4))
    q++;
  if (q == p->r)
    return;
  p->kind = K_TRANSPOSE;
  p->block = 64 / p->elem; /* one cache line of dst per step */
  /* j starts with src's unit mode, i with dst's; i takes the dst-contiguous
   * modes first, j the src-contiguous ones left. */
  move_mode(m, q, 1);
  jmode j0 = m[1];
  memmove(m + 1, m + 2, (size_t)(p->r - 2) * sizeof *m); /* j0 out of the way while i grows */
  p->r--;
  p->in = m[0].n;
  p->ichain = grow_run(p, 0, 1, true, &p->in);
  memmove(m + p->ichain + 1, m + p->ichain, (size_t)(p->r - p->ichain) * sizeof *m);
  m[p->ichain] = j0;
  p->r++;
  p->jn = j0.n;
  p->jchain = grow_run(p, p->ichain, 1, false, &p->jn);
  p->jblock = p->jn;
}

/* The offsets of a run's steps on the other side (src for i, dst for j). */
static cl_status run_table(const jmode *run, int64_t len, int64_t steps, bool dst_side, int64_t **out) {
  *out = NULL;
  if (len < 2)
    return CL_OK;
  int64_t *t = cl_alloc((size_t)steps * sizeof *t);
  if (t == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  /* At most 16 modes: each is >= 2 and the product <= 2^16. */
  int64_t idx[16] = {0}, shape[16], stride[16], off = 0, k = 0;
  for (int64_t r = 0; r < len; r++) {
    shape[r] = run[r].n;
    stride[r] = dst_side ? run[r].d : run[r].s;
  }
  do
    t[k++] = off;
  while (odo_step(len, shape, stride, idx, &off));
  *out = t;
  return CL_OK;
}

static cl_status transpose_tables(copy_plan *p) {
  if (p->kind != K_TRANSPOSE)
    return CL_OK;
  CL_TRY(run_table(p->m, p->ichain, p->in, false, &p->is));
  return run_table(p->m + p->ichain, p->jchain, p->jn, true, &p->jd);
}

#define NONTEMPORAL_BYTES ((int64_t)16 << 20)
#define PAGE_BYTES 4096
#define TLB_PAGES 512      /* pages one sweep may touch and still find in the TLB */
#define STRIP_SWEEP 512    /* steps of j per sweep of the strips (256 and 1024 measured slower) */

/* The order of a transpose, chosen by what the TLB can hold (buffers
 * get 4 KiB pages unless the caller asked for huge ones).  Two orders:
 *   strips: 64 bytes' worth of i (one dst cache line) sweep STRIP_SWEEP steps
 *     of j: the sweep touches one dst page per step of j and a few src
 *     pages; dst lines are written whole, so streaming stores pay off
 *     (0.65x memcpy on a 4096^2 float transpose here, 0.45x unswept);
 *   rows: four steps of j sweep a page's worth of i (`block` is then 4 KiB
 *     of elements): four dst rows are written a page at a time and src is
 *     read at every step of i, so this order is taken only when i's src rows
 *     fall on few pages, as in a 4-D permutation whose i-run is two modes of
 *     64 (0.62x memcpy, against 0.55x sweeping all of i and 0.5x for
 *     strips). */
static void transpose_order(copy_plan *p, const cl_tensor_t *dst) {
  /* Past about half the last-level cache the written data will not be read
   * from cache again soon; streaming it saves reading each dst line first. */
  p->nontemporal = dst->size > NONTEMPORAL_BYTES / (int64_t)dst->elem_size;
  p->jblock = p->jn < STRIP_SWEEP ? p->jn : STRIP_SWEEP;
  int64_t pages = 0, last = INT64_MIN;
  for (int64_t i = 0; i < p->in && pages <= TLB_PAGES; i++) {
    int64_t page = (p->is ? p->is[i] : i * p->m[0].s) / PAGE_BYTES;
    pages += page != last;
    last = page;
  }
  if (pages <= TLB_PAGES) {
    p->rows = true;
    p->block = p->in < PAGE_BYTES / p->elem ? p->in : PAGE_BYTES / p->elem;
    p->jblock = p->jn;
    p->nontemporal = false;
  }
}

static void plan_release(copy_plan *p) {
  cl_dealloc(p->is);
  cl_dealloc(p->jd);
  scratch_release(&p->mem);
}

/* The plan for dst(i) = src(i); checks nothing about overlap. */
static cl_status plan_copy(copy_plan *p, const cl_tensor_t *dst, const cl_leaves *fd, const cl_tensor_t *src,
                           const cl_leaves *fs) {
  int64_t nd = fd->n, ns = fs->n, slots = nd + ns + 1;
  /* jmodes (3 words each) + tails (2 words per leaf each side) + counters. */
  CL_TRY(scratch_init(&p->mem, 3 * slots + 2 * (nd + ns) + slots + nd + ns));
  p->m = (jmode *)p->mem.p;
  p->td_shape = p->mem.p + 3 * slots;
  p->td_stride = p->td_shape + nd;
  p->ts_shape = p->td_stride + nd;
  p->ts_stride = p->ts_shape + ns;
  p->elem = (int64_t)dst->elem_size;
  p->vector = 1;
  p->base_d = p->base_s = 0;
  p->block = p->jblock = p->ichain = p->in = p->jchain = p->jn = 0;
  p->is = p->jd = NULL;
  p->nontemporal = p->rows = false;
  cl_status s = refine(p, fd, fs, p->elem);
  if (s == CL_OK) {
    normalize(p);
    choose_kernel(p);
    s = transpose_tables(p);
    if (s == CL_OK && p->kind == K_TRANSPOSE)
      transpose_order(p, dst);
  }
  if (s != CL_OK)
    plan_release(p);
  return s;
}

/* Counters for the outer odometers, after the plan's arrays. */
static int64_t *plan_counters(copy_plan *p, int64_t nd, int64_t ns) {
  int64_t slots = nd + ns + 1;
  return p->mem.p + 3 * slots + 2 * (nd + ns);
}

/* ------------------------------------------------------------ kernels */

/* Element movers of a fixed size compile to plain loads and stores. */
#define MOVE(n) \
  static inline void move##n(char *d, const char *s) { memcpy(d, s, n); }
MOVE(1)
MOVE(2)
MOVE(4)
MOVE(8)
MOVE(16)
MOVE(32)
MOVE(64)

/* The 2-D strided kernel: modes m0 (inner) and m1 (outer; n1 = 1 if none). */
#define STRIDED_KERNEL(name, MV)                                                                  \
  static void name(char *dst, const char *src, const jmode *m0, const jmode *m1, int64_t elem) {  \
    (void)elem;                                                                                   \
    int64_t n1 = m1 ? m1->n : 1, d1 = m1 ? m1->d : 0, s1 = m1 ? m1->s : 0;                        \
    for (int64_t j = 0; j < n1; j++, dst += d1, src += s1) {                                     \
      char *d = dst;                                                                              \
      const char *s = src;                                                                        \
      for (int64_t i = 0; i < m0->n; i++, d += m0->d, s += m0->s)                                \
        MV;                                                                                       \
    }                                                                                             \
  }
STRIDED_KERNEL(strided1, move1(d, s))
STRIDED_KERNEL(strided2, move2(d, s))
STRIDED_KERNEL(strided4, move4(d, s))
STRIDED_KERNEL(strided8, move8(d, s))
STRIDED_KERNEL(strided16, move16(d, s))
STRIDED_KERNEL(strided32, move32(d, s))
STRIDED_KERNEL(strided64, move64(d, s))
STRIDED_KERNEL(strided_any, memcpy(d, s, (size_t)elem))

/* The strip transpose over the runs i (contiguous in dst) and j (contiguous
 * in src).  Strips of `block` steps of i each sweep a block of jblock steps
 * of j: the strip's src rows are read as `block` sequential streams, which
 * the hardware prefetcher follows, and each step of j writes block*elem
 * contiguous bytes of one dst row, a whole cache line when block*elem is 64,
 * which is what lets non-temporal stores write whole lines without reading
 * them first.  (A loop over square tiles measured 0.3x memcpy on a 4096^2
 * float transpose here.) */
static inline int64_t isrc(const copy_plan *p, int64_t i) { return p->is ? p->is[i] : i * p->m[0].s; }
static inline int64_t jdst(const copy_plan *p, int64_t j) { return p->jd ? p->jd[j] : j * p->m[p->ichain].d; }

#define TRANSPOSE_KERNEL(name, E)                                                   \
  static void name(const copy_plan *p, char *dst, const char *src, bool nt) {       \
    (void)nt;                                                                       \
    for (int64_t jb = 0; jb < p->jn; jb += p->jblock) {                             \
      int64_t je = p->jn - jb < p->jblock ? p->jn : jb + p->jblock;                 \
      for (int64_t ib = 0; ib < p->in; ib += p->block) {                            \
        int64_t bi = p->in - ib < p->block ? p->in - ib : p->block;                 \
        for (int64_t j = jb; j < je; j++) {                                         \
          char *d = dst + jdst(p, j) + ib * (E);                                    \
          for (int64_t i = ib; i < ib + bi; i++, d += (E))                          \
            move##E(d, src + isrc(p, i) + j * (E));                                 \
        }                                                                           \
      }                                                                             \
    }                                                                               \
  }
TRANSPOSE_KERNEL(transpose1, 1)
TRANSPOSE_KERNEL(transpose2, 2)
TRANSPOSE_KERNEL(transpose16, 16)

#if defined(__SSE2__)
static inline __m128i load16(const char *p) { return _mm_loadu_si128((const __m128i *)(const void *)p); }
static inline void store16(char *p, __m128i v, bool nt) {
  if (nt)
    _mm_stream_si128((__m128i *)(void *)p, v);
  else
    _mm_storeu_si128((__m128i *)(void *)p, v);
}

/* Streaming stores need 16-byte aligned addresses. */
static bool stream_aligned(const copy_plan *p, const char *dst) {
  if ((uintptr_t)dst & 15)
    return false;
  for (int64_t k = p->ichain; k < p->ichain + p->jchain; k++)
    if (p->m[k].d & 15)
      return false;
  return true;
}

/* 4-byte elements: 4x4 tiles transposed in registers, so loads run along
 * src's contiguous run and stores along dst's, 16 bytes each. */
/* One full strip of 16 steps of i over j in [j0, j1) (a multiple of 4
 * steps): the strip's 16 src rows are found once, four 4x4 tiles are
 * transposed per step of four j, and each of the four dst rows then gets
 * its whole cache line in four consecutive stores.  (Interleaving the stores
 * of four rows measured ~10% slower with streaming stores.) */
static void strip16_4(const copy_plan *p, char *dst, const char *src, int64_t i0, int64_t j0, int64_t j1, bool nt) {
  const char *row[16];
  for (int r = 0; r < 16; r++)
    row[r] = src + isrc(p, i0 + r);
  for (int64_t j = j0; j < j1; j += 4) {
    __m128 t[4][4];
    for (int q = 0; q < 4; q++) {
      const char *const *rq = row + 4 * q;
      t[q][0] = _mm_castsi128_ps(load16(rq[0] + j * 4));
      t[q][1] = _mm_castsi128_ps(load16(rq[1] + j * 4));
      t[q][2] = _mm_castsi128_ps(load16(rq[2] + j * 4));
      t[q][3] = _mm_castsi128_ps(load16(rq[3] + j * 4));
      _MM_TRANSPOSE4_PS(t[q][0], t[q][1], t[q][2], t[q][3]);
    }
    for (int k = 0; k < 4; k++) {
      char *d = dst + jdst(p, j + k) + i0 * 4;
      store16(d, _mm_castps_si128(t[0][k]), nt);
      store16(d + 16, _mm_castps_si128(t[1][k]), nt);
      store16(d + 32, _mm_castps_si128(t[2][k]), nt);
      store16(d + 48, _mm_castps_si128(t[3][k]), nt);
    }
  }
}

static void transpose4(const copy_plan *p, char *dst, const char *src, bool nt) {
  nt = nt && stream_aligned(p, dst);
  const int64_t in = p->in;
  for (int64_t jb = 0; jb < p->jn; jb += p->jblock) {
  const int64_t jn = p->jn - jb < p->jblock ? p->jn : jb + p->jblock, jq = jb + ((jn - jb) & ~(int64_t)3);
  for (int64_t ib = 0; ib < in; ib += p->block) {
    int64_t ie = in - ib < p->block ? in : ib + p->block, iq = ib + ((ie - ib) & ~(int64_t)3);
    if (ie - ib == 16) { /* a full strip */
      strip16_4(p, dst, src, ib, jb, jq, nt);
      for (int64_t j = jq; j < jn; j++)
        for (int64_t i = ib; i < ie; i++)
          move4(dst + jdst(p, j) + i * 4, src + isrc(p, i) + j * 4);
      continue;
    }
    for (int64_t j = jb; j < jq; j += 4) {
      char *d0 = dst + jdst(p, j), *d1 = dst + jdst(p, j + 1), *d2 = dst + jdst(p, j + 2), *d3 = dst + jdst(p, j + 3);
      const char *s = src + j * 4;
      for (int64_t i = ib; i < iq; i += 4) {
        __m128 r0 = _mm_castsi128_ps(load16(s + isrc(p, i))), r1 = _mm_castsi128_ps(load16(s + isrc(p, i + 1)));
        __m128 r2 = _mm_castsi128_ps(load16(s + isrc(p, i + 2))), r3 = _mm_castsi128_ps(load16(s + isrc(p, i + 3)));
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        store16(d0 + i * 4, _mm_castps_si128(r0), nt);
        store16(d1 + i * 4, _mm_castps_si128(r1), nt);
        store16(d2 + i * 4, _mm_castps_si128(r2), nt);
        store16(d3 + i * 4, _mm_castps_si128(r3), nt);
      }
      for (int64_t i = iq; i < ie; i++) { /* the strip's ragged edge */
        const char *si = s + isrc(p, i);
        move4(d0 + i * 4, si);
        move4(d1 + i * 4, si + 4);
        move4(d2 + i * 4, si + 8);
        move4(d3 + i * 4, si + 12);
      }
    }
    for (int64_t j = jq; j < jn; j++)
      for (int64_t i = ib; i < ie; i++)
        move4(dst + jdst(p, j) + i * 4, src + isrc(p, i) + j * 4);
  }
  }
}

/* 8-byte elements: 2x2 tiles. */
static void transpose8(const copy_plan *p, char *dst, const char *src, bool nt) {
  nt = nt && stream_aligned(p, dst);
  const int64_t in = p->in;
  for (int64_t jb = 0; jb < p->jn; jb += p->jblock) {
  const int64_t jn = p->jn - jb < p->jblock ? p->jn : jb + p->jblock, jh = jb + ((jn - jb) & ~(int64_t)1);
  for (int64_t ib = 0; ib < in; ib += p->block) {
    int64_t ie = in - ib < p->block ? in : ib + p->block, ih = ib + ((ie - ib) & ~(int64_t)1);
    for (int64_t j = jb; j < jh; j += 2) {
      char *d0 = dst + jdst(p, j), *d1 = dst + jdst(p, j + 1);
      const char *s = src + j * 8;
      for (int64_t i = ib; i < ih; i += 2) {
        __m128i r0 = load16(s + isrc(p, i)), r1 = load16(s + isrc(p, i + 1));
        store16(d0 + i * 8, _mm_unpacklo_epi64(r0, r1), nt);
        store16(d1 + i * 8, _mm_unpackhi_epi64(r0, r1), nt);
      }
      for (int64_t i = ih; i < ie; i++) {
        move8(d0 + i * 8, s + isrc(p, i));
        move8(d1 + i * 8, s + isrc(p, i) + 8);
      }
    }
    for (int64_t j = jh; j < jn; j++)
      for (int64_t i = ib; i < ie; i++)
        move8(dst + jdst(p, j) + i * 8, src + isrc(p, i) + j * 8);
  }
  }
}
#else
TRANSPOSE_KERNEL(transpose4, 4)
TRANSPOSE_KERNEL(transpose8, 8)
#endif

typedef void (*strided_fn)(char *, const char *, const jmode *, const jmode *, int64_t);
typedef void (*transpose_fn)(const copy_plan *, char *, const char *, bool);

static strided_fn pick_strided(int64_t elem) {
  switch (elem) {
  case 1: return strided1;
  case 2: return strided2;
  case 4: return strided4;
  case 8: return strided8;
  case 16: return strided16;
  case 32: return strided32;
  case 64: return strided64;
  default: return strided_any;
  }
}

static transpose_fn pick_transpose(int64_t elem) {
  switch (elem) {
  case 1: return transpose1;
  case 2: return transpose2;
  case 4: return transpose4;
  case 8: return transpose8;
  default: return transpose16; /* choose_kernel picks a transpose for 1, 2, 4, 8 and 16 bytes only */
  }
}

/* Runs the joint loop nest once from (dst, src): the kernel over its inner
 * modes, an odometer over the rest. */
static void run_joint(const copy_plan *p, char *dst, const char *src, int64_t *idx) {
  const jmode *m = p->m;
  /* Modes the kernel handles: none, two, or the unit mode and the chain. */
  int64_t inner = p->kind == K_ONE ? 0 : p->kind == K_STRIDED ? 2 : p->ichain + p->jchain;
  if (inner > p->r)
    inner = p->r;
  strided_fn strided = pick_strided(p->elem);
  transpose_fn transpose = pick_transpose(p->elem);
  int64_t od = 0, os = 0;
  for (int64_t k = inner; k < p->r; k++)
    idx[k] = 0;
  for (;;) {
    switch (p->kind) {
    case K_ONE: memcpy(dst + od, src + os, (size_t)p->elem); break;
    case K_STRIDED: strided(dst + od, src + os, &m[0], inner > 1 ? &m[1] : NULL, p->elem); break;
    case K_TRANSPOSE: transpose(p, dst + od, src + os, p->nontemporal); break;
    }
    int64_t k = inner;
    for (; k < p->r; k++) {
      if (++idx[k] < m[k].n) {
        od += m[k].d;
        os += m[k].s;
        break;
      }
      idx[k] = 0;
      od -= (m[k].n - 1) * m[k].d;
      os -= (m[k].n - 1) * m[k].s;
    }
    if (k == p->r)
      return;
  }
}

static void run_plan(copy_plan *p, char *dst, const char *src, int64_t nd, int64_t ns) {
  int64_t *idx = plan_counters(p, nd, ns), *tidx_d = idx + p->r, *tidx_s = tidx_d + p->tn_d;
  int64_t td = 0, ts = 0;
  memset(tidx_d, 0, (size_t)(p->tn_d + p->tn_s) * sizeof *tidx_d);
  do {
    run_joint(p, dst + p->base_d + td, src + p->base_s + ts, idx);
    odo_step(p->tn_s, p->ts_shape, p->ts_stride, tidx_s, &ts);
  } while (odo_step(p->tn_d, p->td_shape, p->td_stride, tidx_d, &td));
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

/* Everything copy and explain share: checks, then a plan. */
static cl_status prepare_copy(const cl_tensor_t *dst, const cl_tensor_t *src, cl_leaves *fd, cl_leaves *fs, copy_plan *p) {
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
      s = plan_copy(p, dst, fd, src, fs);
  }
  if (s != CL_OK) {
    cl_leaves_release(fd);
    cl_leaves_release(fs);
  }
  return s;
}

cl_status cl_tensor_copy(const cl_tensor_t *dst, const cl_tensor_t *src) {
  CHECK_NULL(dst);
  CHECK_NULL(src);
  cl_leaves fd, fs;
  copy_plan p;
  CL_TRY(prepare_copy(dst, src, &fd, &fs, &p));
  if (dst->size > 0) {
    run_plan(&p, dst->data, src->data, fd.n, fs.n);
#if defined(__SSE2__)
    if (p.nontemporal)
      _mm_sfence(); /* streamed stores are weakly ordered: publish them */
#endif
    plan_release(&p);
  }
  cl_leaves_release(&fd);
  cl_leaves_release(&fs);
  return CL_OK;
}

int64_t cl_tensor_copy_explain(const cl_tensor_t *dst, const cl_tensor_t *src, char *buf, size_t cap) {
  if (dst == NULL || src == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_tensor_copy_explain: NULL argument");
  cl_leaves fd, fs;
  copy_plan p;
  CL_TRY(prepare_copy(dst, src, &fd, &fs, &p));
  cl_sink t = cl_sink_buffer(buf, cap);
  if (dst->size == 0) {
    cl_sink_printf(&t, "nothing to copy (size 0)");
  } else {
    int64_t e = (int64_t)dst->elem_size;
    cl_sink_printf(&t, "kernel %s, vector %lld x %zu bytes, modes (", kernel_names[p.kind], (long long)p.vector, dst->elem_size);
    for (int64_t k = 0; k < p.r; k++)
      cl_sink_printf(&t, "%s%lld:%lld<-%lld", k ? "," : "", (long long)p.m[k].n, (long long)(p.m[k].d / e),
          (long long)(p.m[k].s % e == 0 ? p.m[k].s / e : p.m[k].s));
    cl_sink_printf(&t, ")");
    if (p.kind == K_TRANSPOSE)
      cl_sink_printf(&t, ", %lld dst-contiguous steps (%lld mode%s) by %lld src-contiguous steps (%lld mode%s), ", (long long)p.in,
          (long long)p.ichain, p.ichain == 1 ? "" : "s", (long long)p.jn, (long long)p.jchain, p.jchain == 1 ? "" : "s");
    if (p.kind == K_TRANSPOSE && p.rows)
      cl_sink_printf(&t, "in rows of %lld%s", (long long)p.block, p.nontemporal ? ", non-temporal stores" : "");
    else if (p.kind == K_TRANSPOSE)
      cl_sink_printf(&t, "in strips of %lld sweeping %lld%s", (long long)p.block, (long long)p.jblock,
          p.nontemporal ? ", non-temporal stores" : "");
    if (p.tn_d > 0)
      cl_sink_printf(&t, ", unrefined tails of %lld and %lld modes", (long long)p.tn_d, (long long)p.tn_s);
    plan_release(&p);
  }
  cl_leaves_release(&fd);
  cl_leaves_release(&fs);
  return cl_sink_finish(&t, "cl_tensor_copy_explain");
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
    if (r > 0 && continues(f->shape[r - 1], f->stride[r - 1], f->stride[k])) {
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
  scratch s;
  cl_status st = scratch_init(&s, f.n);
  if (st == CL_OK) {
    int64_t off = 0;
    do {
      char *p = t->data + base + off;
      if (run > 1 && e <= 256)
        fill_run(p, run, v, e, pattern, pattern_bytes, uniform);
      else
        for (int64_t k = 0; k < run; k++)
          memcpy(p + k * e, v, (size_t)e);
    } while (odo_step(f.n - first, f.shape + first, f.stride + first, s.p, &off));
    scratch_release(&s);
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
  scratch s;
  cl_status st = scratch_init(&s, f.n);
  if (st == CL_OK) {
    int64_t off = 0, i = 0, e = (int64_t)t->elem_size;
    do
      fn(ctx, t->data + off * e, i++);
    while (odo_step(f.n, f.shape, f.stride, s.p, &off));
    scratch_release(&s);
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
  scratch s;
  if (st == CL_OK && (st = scratch_init(&s, fd.n + fs.n)) == CL_OK) {
    int64_t od = 0, os = 0, ed = (int64_t)dst->elem_size, es = (int64_t)src->elem_size;
    do {
      fn(ctx, dst->data + od * ed, src->data + os * es);
      odo_step(fs.n, fs.shape, fs.stride, s.p + fd.n, &os);
    } while (odo_step(fd.n, fd.shape, fd.stride, s.p, &od));
    scratch_release(&s);
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
    odo_step(it->n, it->shape, it->stride, it->idx, &it->offset);
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
    odo_step(it->n, it->shape, it->stride, it->idx, &it->offset);
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
