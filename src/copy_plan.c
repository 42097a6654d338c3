/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_plan.c: the copy engine's planner (copy_plan.h says what a plan is):
 * joint modes, their order, the kernel and how it walks memory. */
#include <stdlib.h>

#include "copy_kernels.h"
#include "copy_plan.h"

cl_status cl_scratch_init(cl_scratch *s, int64_t words) {
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

void cl_scratch_release(cl_scratch *s) {
  if (s->p != s->inline_buf)
    cl_dealloc(s->p);
}

/* Joint modes from the common refinement of the dst and src leaves (extent-1
 * leaves already dropped); what cannot be refined becomes the tails. */
static cl_status refine(cl_copy_job *p, const cl_leaves *fd, const cl_leaves *fs, int64_t e) {
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
    p->m[r++] = (cl_jmode){g, ca, cb};
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

/* Moves mode k of m to position at, keeping the order of the others. */
static void move_mode(cl_jmode *m, int64_t k, int64_t at) {
  cl_jmode x = m[k];
  if (k > at)
    memmove(m + at + 1, m + at, (size_t)(k - at) * sizeof *m);
  else
    memmove(m + k, m + k + 1, (size_t)(at - k) * sizeof *m);
  m[at] = x;
}

/* The largest divisor of n of at most `most`, 1 if none is 2 or more. */
static int64_t divisor_at_most(int64_t n, int64_t most) {
  for (int64_t a = most < n ? most : n; a >= 2; a--)
    if (n % a == 0)
      return a;
  return 1;
}

/* Grows a run of modes m[at..at+len) of total extent *steps, along which one
 * side (dst when on_dst) is contiguous, with any later mode that continues
 * it, up to CHAIN_MAX_STEPS steps; returns the new length.  A continuing
 * mode too long to join whole is split (n = a * b: a steps, then b steps of
 * a) when the job has room for one more mode, and its first factor joins:
 * a tile's rows then come from the whole run, not from the few steps before
 * it (a zipped divide's tiles of 8 halves, row-major, became runs of 8
 * elements: 0.05x memcpy).  Only a run shorter than a tile's side does so,
 * or a j run whose tiles would be ragged: a long i run has its rows
 * already, and the mode may be what the j run needs (a permutation's i run
 * of 21840 steps took a factor 3 that left its j run 31 steps instead of
 * 1209: 0.2x memcpy to 0.02x), while j, grown last, takes from nobody (a
 * blocked product's 30 float steps, two tiles of 16 moved to overlap, were
 * called once per step of a mode of 10880 that continued them: 0.20-0.24x
 * memcpy; taking 2176 of them, 0.72-0.82x, on AMD EPYC, Zen 5). */
#define CHAIN_MAX_STEPS ((int64_t)1 << 16)
static int64_t grow_run(cl_copy_job *p, int64_t at, int64_t len, bool on_dst, int64_t *steps) {
  cl_jmode *m = p->m;
  const int64_t side = CL_COPY_LINE / p->elem;
  for (;;) {
    int64_t k = at + len;
    while (k < p->r && !cl_continues(*steps, p->elem, on_dst ? m[k].d : m[k].s))
      k++;
    if (k == p->r)
      return len;
    int64_t a = divisor_at_most(m[k].n, CHAIN_MAX_STEPS / *steps);
    if (a < m[k].n) {
      bool whole_tiles = on_dst || *steps % side == 0;
      if (a == 1 || p->r == p->slots || (*steps >= side && whole_tiles))
        return len;
      memmove(m + k + 1, m + k, (size_t)(p->r - k) * sizeof *m);
      p->r++;
      m[k].n = a;
      m[k + 1] = (cl_jmode){m[k + 1].n / a, m[k + 1].d * a, m[k + 1].s * a};
    }
    move_mode(m, k, at + len);
    *steps *= m[at + len].n;
    len++;
  }
}

/* A strided copy whose inner mode is short (the few channels of an image's
 * pixel) would run its inner loop a few times per step of the next one:
 * the mode along which src is contiguous, when it is long, goes inside
 * instead, so src is read in order and dst written a few elements apart,
 * its row shared in L1 by the passes of the outer mode. */
#define SHORT_INNER 8
static void long_inner_loop(cl_copy_job *p) {
  cl_jmode *m = p->m;
  if (p->r < 2 || m[0].n >= SHORT_INNER)
    return;
  for (int64_t k = 1; k < p->r; k++)
    if (m[k].s == p->elem && m[k].n >= SHORT_INNER) {
      move_mode(m, k, 0);
      return;
    }
}

/* A strided copy whose inner mode is dst's unit mode (elements that no tile
 * moves: vectors, odd sizes): the mode along which src is contiguous, if
 * any, comes next, so that the strided kernel's blocks (strided_block) read
 * src in runs of that mode while writing dst in runs of a block of the
 * inner one.  Walked by the odometer instead, each of its steps is a new
 * sweep of the inner modes over src lines far apart (on AMD EPYC, Zen 5, a
 * float16 permutation moving 128-byte vectors, four runs alternating, went
 * from 0.28-0.41x memcpy to 0.58-0.61x). */
static void src_run_second(cl_copy_job *p) {
  cl_jmode *m = p->m;
  if (p->r < 3 || m[0].d != p->elem || m[1].s == p->elem)
    return;
  for (int64_t k = 2; k < p->r; k++)
    if (m[k].s == p->elem) {
      move_mode(m, k, 1);
      return;
    }
}

/* Step 3 for a transpose: whether the copy is one, and then its two runs. */
static bool choose_transpose(cl_copy_job *p);

/* Step 3 for a few channels: an image's pixels of C = 2 to 4 channels
 * packed on one side (channel c of pixel w at w*C + c), planar on the other
 * (pixel w of plane c at w + c*plane), over at least CHANNEL_MIN_PIXELS
 * pixels: the interleave or deinterleave kernels (copy_channels.h), which
 * move whole vectors of pixels where a transpose would have no whole tile
 * (C rows) and the strided loop one element at a time.  m[0] becomes the
 * pixels, m[1] the channels. */
#define CHANNEL_MIN_PIXELS 16
static bool choose_channels(cl_copy_job *p) {
  cl_jmode *m = p->m;
  const int64_t e = p->elem;
  if (p->r < 2 || e > 8 || (e & (e - 1)) != 0)
    return false;
  for (int64_t c = 0; c < p->r; c++) {
    if (m[c].n < 2 || m[c].n > 4)
      continue;
    bool packed_dst = m[c].d == e, packed_src = m[c].s == e;
    for (int64_t w = 0; w < p->r; w++) {
      if (w == c || m[w].n < CHANNEL_MIN_PIXELS)
        continue;
      cl_copy_channels kind = CL_CHANNELS_NONE;
      if (packed_dst && m[w].d == m[c].n * e && m[w].s == e)
        kind = CL_CHANNELS_INTERLEAVE;
      else if (packed_src && m[w].s == m[c].n * e && m[w].d == e)
        kind = CL_CHANNELS_DEINTERLEAVE;
      if (kind == CL_CHANNELS_NONE)
        continue;
      move_mode(m, w, 0);
      move_mode(m, c + (c < w), 1); /* c moved up by one if it came before w */
      p->channels = kind;
      return true;
    }
  }
  return false;
}

/* Steps 2 and 3. */
static void choose_kernel(cl_copy_job *p) {
  cl_jmode *m = p->m;
  if (p->r > 0 && m[0].d == p->elem && m[0].s == p->elem) {
    p->vector *= m[0].n;
    p->elem *= m[0].n;
    memmove(m, m + 1, (size_t)(p->r - 1) * sizeof *m);
    p->r--;
  }
  if (p->r == 0) {
    p->kind = CL_COPY_ONE;
    return;
  }
  p->kind = CL_COPY_STRIDED;
  if (!choose_channels(p) && !choose_transpose(p)) {
    long_inner_loop(p);
    src_run_second(p);
  }
}

/* When no mode is contiguous on the src side: the mode that takes every
 * other src element (a slice of step 2), at least 4 steps long, for
 * elements that cl_copy_isa's compact moves (1 to 8 bytes), unless dst's
 * unit mode is that one (then the strided kernel compacts it directly);
 * it becomes a gathered j run.  p->r when there is none. */
static int64_t gathered_run(cl_copy_job *p) {
  const cl_jmode *m = p->m;
  const int64_t e = p->elem;
  if (!p->gather || e > 8 || m[0].s == 2 * e)
    return p->r;
  for (int64_t q = 1; q < p->r; q++)
    if (m[q].s == 2 * e && m[q].n >= 4) {
      p->gathered = true;
      return q;
    }
  return p->r;
}

/* While the j run is narrower than a tile, the last mode the i run took
 * goes to j instead when it continues j on the src side and i keeps a
 * tile's side without it: i grows first and takes every mode that
 * continues it, which may leave j a few steps (a byte permutation whose i
 * run took 13 x 32 x 16 steps left j 19: every tile narrower than a line
 * on the src side). */
static void lend_to_j(cl_copy_job *p) {
  const int64_t side = CL_COPY_LINE / p->elem;
  while (p->jn < side && p->ichain > 1) {
    const cl_jmode last = p->m[p->ichain - 1];
    if (!cl_continues(p->jn, p->elem, last.s) || p->in / last.n < side)
      return;
    move_mode(p->m, p->ichain - 1, p->ichain + p->jchain - 1);
    p->ichain--;
    p->in /= last.n;
    p->jchain++;
    p->jn *= last.n;
    p->jchain = grow_run(p, p->ichain, p->jchain, false, &p->jn);
  }
}

static bool choose_transpose(cl_copy_job *p) {
  cl_jmode *m = p->m;
  /* A transpose: dst's fastest mode is unit-stride, src's fastest is another
   * mode.  Tiles pay once both edges are a few elements long. */
  bool power_of_two = p->elem <= 16 && (p->elem & (p->elem - 1)) == 0; /* the sizes with a line tile */
  if (m[0].d != p->elem || !power_of_two || m[0].n < 4)
    return false;
  int64_t q = 1;
  while (q < p->r && !(m[q].s == p->elem && m[q].n >= 4))
    q++;
  if (q == p->r)
    q = gathered_run(p);
  if (q == p->r)
    return false;
  p->kind = CL_COPY_TRANSPOSE;
  /* j starts with src's unit mode, i with dst's; i takes the dst-contiguous
   * modes first, j the src-contiguous ones left. */
  move_mode(m, q, 1);
  cl_jmode j0 = m[1];
  memmove(m + 1, m + 2, (size_t)(p->r - 2) * sizeof *m); /* j0 out of the way while i grows */
  p->r--;
  p->in = m[0].n;
  p->ichain = grow_run(p, 0, 1, true, &p->in);
  memmove(m + p->ichain + 1, m + p->ichain, (size_t)(p->r - p->ichain) * sizeof *m);
  m[p->ichain] = j0;
  p->r++;
  p->jn = j0.n;
  p->jchain = p->gathered ? 1 : grow_run(p, p->ichain, 1, false, &p->jn);
  if (!p->gathered)
    lend_to_j(p);
  return true;
}

/* The offsets of a run's steps on the other side (src for i, dst for j). */
static cl_status run_table(const cl_jmode *run, int64_t len, int64_t steps, bool dst_side, int64_t **out) {
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
  while (cl_odo_step(len, shape, stride, idx, &off));
  *out = t;
  return CL_OK;
}

static cl_status transpose_tables(cl_copy_job *p) {
  if (p->kind != CL_COPY_TRANSPOSE)
    return CL_OK;
  CL_TRY(run_table(p->m, p->ichain, p->in, false, &p->is));
  return run_table(p->m + p->ichain, p->jchain, p->jn, true, &p->jd);
}

/* Copies this large stream their stores by default: past about half the
 * last-level cache the written data will not be read from cache again soon,
 * and streaming it saves reading each destination line before writing it. */
#define NONTEMPORAL_BYTES ((int64_t)16 << 20)
#define SHORT_ROW_BYTES 2048

/* Whether a transpose short of NONTEMPORAL_BYTES streams its stores all the
 * same: from CL_COPY_MIDSTREAM_BYTES on, where the processor gains by it
 * (tuning.midstream, measured; midstream_wide for 16-byte elements, whose
 * tiles write one line per dst row). */
static bool streams_midsize(const cl_copy_job *p, const cl_tensor_t *dst, cl_copy_tuning tuning) {
  bool gains = p->elem == 16 ? tuning.midstream_wide : tuning.midstream;
  return gains && dst->size >= CL_COPY_MIDSTREAM_BYTES / (int64_t)dst->elem_size;
}

/* Whether every step of the j run (every dst row of a transpose) starts at
 * the same offset within a cache line. */
static bool rows_share_line_offset(const cl_copy_job *p) {
  for (int64_t k = p->ichain; k < p->ichain + p->jchain; k++)
    if (p->m[k].d % CL_COPY_LINE != 0)
      return false;
  return true;
}

/* Whether a direct transpose reads its source in address order: one i
 * mode whose rows lie back to back, each read whole by one strip. */
static bool read_in_order(const cl_copy_job *p) {
  return p->is == NULL && p->m[0].s == p->jn * p->elem && p->jn <= CL_COPY_CHUNK_STEPS;
}

/* The longest dst row of a packed transpose (cl_copy_job.packed). */
#define PACKED_ROW_BYTES 1024

/* Whether a transpose's dst rows are short and back to back: the first
 * mode of its j run continues its i run on the dst side, so a block of
 * whole rows within one turn of that mode is one run of dst, and a turn
 * holds a tile's side of rows at least; a row is at least a line, at most
 * PACKED_ROW_BYTES. */
static bool rows_back_to_back(const cl_copy_job *p) {
  const int64_t row = p->in * p->elem, side = CL_COPY_LINE / p->elem;
  const cl_jmode *first = &p->m[p->ichain];
  return first->d == row && first->n >= side && row >= CL_COPY_LINE && row <= PACKED_ROW_BYTES &&
         CL_COPY_STAGE_BYTES / row >= side;
}

/* Elements of at most this many bytes read in address order are not
 * prefetched (see transpose_strategy). */
#define IN_ORDER_UNFETCHED_BYTES 2

/* How a transpose walks memory (measured on 2-core AMD EPYC, Zen 3, and
 * Intel Xeon, Sapphire Rapids, machines with 4 KiB pages; docs/performance.md,
 * "Copies", has the figures):
 *   - line tiles: every source line is read whole and every destination line
 *     written whole, by one tile, so no line is fetched twice;
 *   - strips of tiles sweep chunks of j (copy_exec.c), so the src rows of a
 *     strip are read as sequential streams;
 *   - streaming stores, for copies of NONTEMPORAL_BYTES or more whose
 *     destination rows all start at one offset in a cache line (so that
 *     lines can be aligned);
 *   - staged, when the destination rows are a multiple of 256 bytes apart
 *     and the processor needs it (tuning->staged, measured: copy_tune.c;
 *     tuning->staged_narrow for elements of 1 and 2 bytes, which stage
 *     through narrow tiles, measured apart): on Zen 3,
 *     streaming one line into each of many such rows in turn runs at a third
 *     of the speed of streaming 256-byte runs (the rows fall on the same
 *     memory banks), so a block of every dst row is transposed into a
 *     buffer and written out as runs of 256 bytes or more;
 *   - staged as well, with each run streamed past its unaligned ends
 *     (stream_runs), when the copy streams but its destination rows start
 *     at different offsets in a line, and the processor gains by it
 *     (tuning->runs, measured): line tiles straddle two lines of each row
 *     and cannot stream; on the GPU machine's Xeon, copy-random's
 *     transposes with odd row pitches of 4- to 16-byte elements ran
 *     1.1-2.3x faster so (float64 2048 x 1361: 0.28-0.43x memcpy to
 *     0.68-0.69x), a few of 1- and 2-byte elements 0.6-0.9x;
 *   - prefetch of the next strip when the src rows are short (2 KiB or
 *     less, as in a permutation whose innermost source mode is short) and
 *     the processor gains by it (tuning->prefetch, measured): the
 *     processor does not take them for streams, while on long rows a
 *     software prefetch only competes with its own (on Sapphire Rapids,
 *     prefetching rows of 2 KiB took the permutation 256^3 (2,0,1) of
 *     8-byte elements from 0.72-0.75x memcpy to 0.79-0.81x); but not rows
 *     of 1- and 2-byte elements that lie back to back, each read whole by
 *     a strip, so that the source is read in address order, one stream:
 *     the same permutation of bytes runs 1.07-1.11x faster without, of
 *     2-byte elements 1.02-1.07x, while 4-byte elements ran either as fast
 *     or at 0.8x without, from one process to the next;
 *   - four tiles stacked per strip instead of two (tall), for elements of
 *     4 to 16 bytes read in address order, when the processor gains by it
 *     (tuning->tall, measured): each dst row then takes 256-byte runs,
 *     while the strip's src rows, back to back, are still one stream; on
 *     AMD EPYC (Zen 5) the 256^3 (2,0,1) permutation of 8-byte elements
 *     went from 0.60-0.69x memcpy to 0.72-1.11x;
 *   - the same for 1- and 2-byte elements, as stashed quads (four stashed
 *     tiles: 256 src rows of bytes), measured apart (tuning->tall_narrow)
 *     and, as measured, with streaming stores only: on AMD EPYC (Zen 5),
 *     four alternating runs, the byte permutation 256^3 (2,0,1) went from
 *     0.28-0.43x memcpy to 0.49-0.58x streamed, the 2-byte one from
 *     0.56-0.64x to 0.60-0.72x, while with cached stores the 2-byte one
 *     lost (0.50-0.52x to 0.40-0.50x);
 *   - each strip's own src rows prefetched a few tiles ahead along them
 *     (ahead) when they are long (more than 2 KiB; shorter ones get the
 *     next strip's prefetch) and the processor gains by it
 *     (tuning->ahead, measured): on AMD EPYC (Zen 5), four runs each way
 *     alternating, the 4000 x 4000 float transpose went from 0.34-0.46x
 *     memcpy to 0.60-0.76x, 4096 x 4096 floats 0.50-0.58x to 0.51-0.71x,
 *     float64 0.62-0.65x to 0.67-0.70x. */
static void transpose_strategy(cl_copy_job *p, const cl_tensor_t *dst, bool stream, cl_copy_tuning tuning) {
  uintptr_t first = (uintptr_t)(dst->data + p->base_d);
  bool aligned = rows_share_line_offset(p) && first % (uintptr_t)p->elem == 0;
  p->nontemporal = stream && aligned;
  p->stage_rows = p->jn < CL_COPY_STAGE_ROWS ? p->jn : CL_COPY_STAGE_ROWS;
  p->stage_run = CL_COPY_STAGE_BYTES / p->stage_rows / CL_COPY_STAGE_RUN * CL_COPY_STAGE_RUN;
  if (p->stage_run > CL_COPY_STAGE_RUN_MAX)
    p->stage_run = CL_COPY_STAGE_RUN_MAX;
  /* Rows at odd pitches, too few to fill the buffer with runs as short as
   * theirs: each run is then the whole row (to a multiple of
   * CL_COPY_STAGE_RUN), so that they still stream as runs (on the 16-core
   * Xeon host, 185 rows of 1 KiB float64 at a pitch of 1048 bytes, 53
   * times: 0.25-0.29x memcpy written tile by tile, 0.73-0.82x as runs). */
  int64_t row_runs = p->in * p->elem / CL_COPY_STAGE_RUN * CL_COPY_STAGE_RUN;
  if (!aligned && row_runs >= CL_COPY_STAGE_RUN && p->stage_run > row_runs)
    p->stage_run = row_runs;
  int64_t row_step = p->jd ? p->jd[1] : p->m[p->ichain].d;
  p->staged = p->nontemporal && row_step % CL_COPY_STAGE_RUN == 0 && p->in * p->elem >= p->stage_run &&
              (p->elem < 4 ? tuning.staged_narrow : tuning.staged);
  /* A few dst rows stream well enough written a line at a time: on AMD
   * EPYC (Zen 5), whose calibration stages, staging 32 or 33 rows took
   * float64 and float16 permutations from 0.65-1.08x memcpy to 0.13-0.34x
   * (three runs each). */
  if (p->jn < CL_COPY_STAGE_MIN_ROWS)
    p->staged = false;
  p->stream_runs = stream && !aligned && p->in * p->elem >= p->stage_run && tuning.runs;
  p->staged = p->staged || p->stream_runs;
  p->narrow_lines = tuning.narrow_lines;
  p->prefetch = tuning.prefetch && p->jn * p->elem <= SHORT_ROW_BYTES && !(p->elem <= IN_ORDER_UNFETCHED_BYTES && read_in_order(p));
  p->tall = read_in_order(p) && (p->elem >= 4 ? tuning.tall : tuning.tall_narrow && p->nontemporal);
  p->ahead = tuning.ahead && !p->prefetch && p->jn * p->elem > SHORT_ROW_BYTES;
  /* A gathered run is compacted into a buffer in L1 and transposed from
   * there with cached stores (copy_exec.c, gathered). */
  if (p->gathered)
    p->nontemporal = p->staged = p->stream_runs = p->prefetch = p->tall = p->ahead = false;
  /* Packed: the blocks go to the staging buffer with cached stores, each
   * streamed out whole; the rest of the strategy is that of the tiles
   * that fill it, gathered ones too (on the 16-core Xeon host, a byte
   * slice of every other element into rows of 389 bytes back to back:
   * 0.30-0.31x memcpy gathered straight to dst, 0.35-0.38x packed). */
  p->packed = stream && tuning.packed && rows_back_to_back(p);
  if (p->packed) {
    const int64_t side = CL_COPY_LINE / p->elem, rows = CL_COPY_STAGE_BYTES / (p->in * p->elem) / side * side;
    const int64_t turn = p->m[p->ichain].n;
    p->stage_rows = rows < turn ? rows : turn;
    p->stage_run = p->in * p->elem;
    p->nontemporal = p->staged = p->stream_runs = false;
  }
}

/* Whether the plan of these joint modes (after step 1) may depend on the
 * tuning: all but a single contiguous run (one memcpy). */
static bool may_tune(const cl_copy_job *p) {
  return p->r > 1 || (p->r == 1 && !(p->m[0].d == p->elem && p->m[0].s == p->elem));
}

void cl_copy_job_release(cl_copy_job *p) {
  cl_dealloc(p->is);
  cl_dealloc(p->jd);
  cl_scratch_release(&p->mem);
}

cl_status cl_copy_job_make(cl_copy_job *p, const cl_tensor_t *dst, const cl_leaves *fd, const cl_leaves *fs,
                            cl_copy_stores_t stores, const cl_copy_tuning *tuning) {
  int64_t nd = fd->n, ns = fs->n, slots = nd + ns + 1;
  /* jmodes (3 words each) + tails (2 words per leaf each side). */
  CL_TRY(cl_scratch_init(&p->mem, 3 * slots + 2 * (nd + ns)));
  p->m = (cl_jmode *)p->mem.p;
  p->slots = slots;
  p->td_shape = p->mem.p + 3 * slots;
  p->td_stride = p->td_shape + nd;
  p->ts_shape = p->td_stride + nd;
  p->ts_stride = p->ts_shape + ns;
  p->elem = (int64_t)dst->elem_size;
  p->vector = 1;
  p->base_d = p->base_s = 0;
  p->ichain = p->in = p->jchain = p->jn = 0;
  p->is = p->jd = NULL;
  p->nontemporal = p->staged = p->stream_runs = p->prefetch = p->tall = p->ahead = p->gathered = p->packed = false;
  p->channels = CL_CHANNELS_NONE;
  p->stage_rows = p->stage_run = 0;
  cl_status s = refine(p, fd, fs, p->elem);
  if (s == CL_OK) {
    p->r = cl_jmodes_normalize(p->m, p->r, &p->base_d, &p->base_s); /* step 1 */
    /* The tuning; only a copy it may concern is large enough to measure
     * it (a plain copy never does). */
    int64_t bytes = may_tune(p) ? dst->size * (int64_t)dst->elem_size : 0;
    cl_copy_tuning t = tuning ? *tuning : cl_copy_tuning_for(bytes);
    p->gather = t.gather;
    choose_kernel(p);
    s = transpose_tables(p);
    bool stream = stores == CL_COPY_STORES_STREAMING ||
                  (stores == CL_COPY_STORES_AUTO && dst->size >= NONTEMPORAL_BYTES / (int64_t)dst->elem_size);
    if (s == CL_OK && p->kind == CL_COPY_TRANSPOSE)
      transpose_strategy(p, dst, stream || (stores == CL_COPY_STORES_AUTO && streams_midsize(p, dst, t)), t);
    else if (s == CL_OK && p->kind == CL_COPY_ONE)
      p->nontemporal = stream;
  }
  if (s != CL_OK)
    cl_copy_job_release(p);
  return s;
}

int64_t cl_copy_job_inner(const cl_copy_job *p) {
  int64_t inner = p->kind == CL_COPY_ONE ? 0 : p->kind == CL_COPY_STRIDED ? 2 : p->ichain + p->jchain;
  return inner < p->r ? inner : p->r;
}

void cl_copy_job_describe(const cl_copy_job *p, int64_t elem_size, cl_copy_plan_t *out) {
  const int64_t e = elem_size;
  static const cl_copy_kernel_t kernels[] = {CL_COPY_KERNEL_MEMCPY, CL_COPY_KERNEL_STRIDED, CL_COPY_KERNEL_TRANSPOSE};
  out->kernel = kernels[p->kind];
  out->flags = (p->nontemporal || p->stream_runs || p->packed ? CL_COPY_PLAN_STREAMING : 0u) |
               (p->kind == CL_COPY_TRANSPOSE && (p->staged || p->packed) ? CL_COPY_PLAN_STAGED : 0u) |
               (p->kind == CL_COPY_TRANSPOSE && p->prefetch ? CL_COPY_PLAN_PREFETCH : 0u) |
               (p->kind == CL_COPY_TRANSPOSE && p->gathered ? CL_COPY_PLAN_GATHERED : 0u);
  out->elem_size = e;
  out->vector = p->vector;
  out->dst_offset = p->base_d / e;
  out->src_offset = p->base_s / e;
  out->rank = p->r;
  out->dst_run = p->kind == CL_COPY_TRANSPOSE ? p->ichain : 0;
  out->src_run = p->kind == CL_COPY_TRANSPOSE ? p->jchain : 0;
  for (int64_t k = 0; k < p->r; k++) {
    out->extent[k] = p->m[k].n;
    out->dst_stride[k] = p->m[k].d / e;
    out->src_stride[k] = p->m[k].s / e;
  }
  out->dst_tail_rank = p->tn_d;
  out->src_tail_rank = p->tn_s;
  for (int64_t k = 0; k < p->tn_d; k++) {
    out->dst_tail_extent[k] = p->td_shape[k];
    out->dst_tail_stride[k] = p->td_stride[k] / e;
  }
  for (int64_t k = 0; k < p->tn_s; k++) {
    out->src_tail_extent[k] = p->ts_shape[k];
    out->src_tail_stride[k] = p->ts_stride[k] / e;
  }
}
