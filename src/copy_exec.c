/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_exec.c: running a copy plan (copy_plan.h): the strided and transposing
 * kernels over the plan's inner modes, an odometer over the outer ones, and
 * the split of that work between threads. */
#include <pthread.h>
#include <stdlib.h>

#include "copy_kernels.h"
#include "copy_plan.h"

/* ------------------------------------------------------------ a part of the work */

/* What one thread runs: the whole loop nest, except that one dimension is
 * cut to [lo, hi): an outer joint mode (split >= inner), or the kernel's own
 * (KERNEL_SPLIT: the j run of a transpose, the outer mode of the strided
 * kernel, the bytes of a single memcpy; KERNEL_SPLIT_I: the i run of a
 * transpose). */
typedef struct part {
  const cl_copy_job *p;
  const cl_copy_isa *isa;
  char *dst;
  const char *src;
  int64_t split, lo, hi;
  char *stage; /* stage_rows x stage_run bytes, for a staged transpose */
  bool threaded; /* run by a thread of its own */
} part;

#define KERNEL_SPLIT (-1)   /* the kernel's loop: memcpy bytes, strided outer mode, transpose j */
#define KERNEL_SPLIT_I (-2) /* a transpose's i run, the pixels of a few channels */
#define NO_SPLIT INT64_MIN

/* ------------------------------------------------------------ contiguous */

/* n bytes streamed (the set has stream_lines) past the unaligned head and
 * tail, which are stored as usual. */
static void stream_bytes(const part *w, char *d, const char *s, size_t n) {
  if (n < 4 * CL_COPY_LINE) {
    memcpy(d, s, n);
    return;
  }
  size_t head = (CL_COPY_LINE - (uintptr_t)d % CL_COPY_LINE) % CL_COPY_LINE;
  size_t body = (n - head) / CL_COPY_LINE * CL_COPY_LINE;
  memcpy(d, s, head);
  w->isa->stream_lines(d + head, s + head, body);
  memcpy(d + head + body, s + head + body, n - head - body);
}

/* n bytes, streamed when the plan says so and the kernels can. */
static void copy_bytes(const part *w, char *d, const char *s, size_t n) {
  if (w->p->nontemporal && w->isa->stream_lines != NULL)
    stream_bytes(w, d, s, n);
  else
    memcpy(d, s, n);
}

static int log2_of(int64_t pow2) { return __builtin_ctzll((unsigned long long)pow2); }

/* ------------------------------------------------------------ strided */

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

/* A run of n bytes that is not a power of two (a vector of odd length, an
 * odd element): up to 64 bytes, two fixed-size moves that overlap in the
 * middle instead of a call to memcpy per run (on AMD EPYC, Zen 5, in
 * cache, a float16 permutation moving runs of 46 bytes ran 1.4x faster);
 * longer runs go to memcpy, whose wider vectors won from 92 bytes on
 * (as loops of 64-byte moves, runs of 92 and 96 bytes lost 20-35%).  dst
 * and src do not overlap, so the pieces' order does not matter. */
static inline void move_run(char *d, const char *s, size_t n) {
  if (n < 4) {
    memcpy(d, s, n);
  } else if (n <= 8) {
    move4(d, s);
    move4(d + n - 4, s + n - 4);
  } else if (n <= 16) {
    move8(d, s);
    move8(d + n - 8, s + n - 8);
  } else if (n <= 32) {
    move16(d, s);
    move16(d + n - 16, s + n - 16);
  } else if (n <= 64) {
    move32(d, s);
    move32(d + n - 32, s + n - 32);
  } else {
    memcpy(d, s, n);
  }
}

/* Steps of m0 per block of the strided kernel when its src lines are read
 * across m1 (strided_block): on AMD EPYC (Zen 5), a byte slice of every
 * other element read across rows 1238 bytes apart ran 2.1x faster in
 * blocks of 16 than unblocked, 1.6x in blocks of 8, no faster in 32 or 64. */
#define STRIDED_BLOCK 16

static int64_t magnitude(int64_t x) { return x < 0 ? -x : x; }

/* The steps of m0 that the strided kernel sweeps with every step of m1 in
 * turn: all of them, unless m0 takes src a line or more per step and m1
 * less than m0 (a source slice of every other element of a row, read
 * across its rows): then blocks of STRIDED_BLOCK, whose src lines (and
 * pages) stay cached across the m1 sweep, each read in a few passes, where
 * a sweep of the whole m0 would fetch every line, and miss the TLB, for
 * each step of m1. */
static int64_t strided_block(const cl_jmode *m0, const cl_jmode *m1) {
  bool across = magnitude(m0->s) >= CL_COPY_LINE && magnitude(m1->s) < magnitude(m0->s);
  return across && m0->n > STRIDED_BLOCK ? STRIDED_BLOCK : m0->n;
}

/* The 2-D strided kernel: modes m0 (inner) and m1 (outer), m1 steps
 * [j0, j1), m0 in blocks (strided_block). */
#define STRIDED_KERNEL(name, MV)                                                                          \
  static void name(char *dst, const char *src, const cl_jmode *m0, const cl_jmode *m1, int64_t j0,       \
                   int64_t j1, int64_t elem) {                                                            \
    (void)elem;                                                                                           \
    const int64_t block = strided_block(m0, m1);                                                          \
    for (int64_t ib = 0; ib < m0->n; ib += block) {                                                       \
      const int64_t ie = m0->n - ib < block ? m0->n : ib + block;                                         \
      char *dj = dst + j0 * m1->d + ib * m0->d;                                                           \
      const char *sj = src + j0 * m1->s + ib * m0->s;                                                     \
      for (int64_t j = j0; j < j1; j++, dj += m1->d, sj += m1->s) {                                       \
        char *d = dj;                                                                                     \
        const char *s = sj;                                                                               \
        for (int64_t i = ib; i < ie; i++, d += m0->d, s += m0->s)                                         \
          MV;                                                                                             \
      }                                                                                                   \
    }                                                                                                     \
  }
STRIDED_KERNEL(strided1, move1(d, s))
STRIDED_KERNEL(strided2, move2(d, s))
STRIDED_KERNEL(strided4, move4(d, s))
STRIDED_KERNEL(strided8, move8(d, s))
STRIDED_KERNEL(strided16, move16(d, s))
STRIDED_KERNEL(strided32, move32(d, s))
STRIDED_KERNEL(strided64, move64(d, s))
STRIDED_KERNEL(strided_any, move_run(d, s, (size_t)elem))

typedef void (*strided_fn)(char *, const char *, const cl_jmode *, const cl_jmode *, int64_t, int64_t, int64_t);

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

/* Whether the strided kernel's inner mode takes every other element of
 * src into consecutive elements of dst (a slice of step 2): then whole
 * vectors are compacted (cl_copy_isa's compact) instead of moving an
 * element at a time (a byte slice ran at 0.15x memcpy on AMD EPYC, Zen 5). */
static bool compacts(const cl_copy_job *p) {
  const int64_t E = p->elem;
  return p->gather && E <= 8 && (E & (E - 1)) == 0 && p->m[0].d == E && p->m[0].s == 2 * E;
}

/* The strided kernel when it compacts: m1 steps [j0, j1), each a slice of
 * m0. */
static void compacted(const part *w, char *dst, const char *src, const cl_jmode *m1, int64_t j0, int64_t j1) {
  const cl_copy_job *p = w->p;
  cl_compact_fn compact = w->isa->compact[log2_of(p->elem)];
  for (int64_t j = j0; j < j1; j++)
    compact(dst + j * m1->d, src + j * m1->s, p->m[0].n, false);
}

/* A few channels (cl_copy_job.channels): pixels [lo, hi) of m[0], every
 * channel of m[1]. */
static void channels(const part *w, char *dst, const char *src, int64_t lo, int64_t hi) {
  const cl_copy_job *p = w->p;
  const cl_jmode *px = &p->m[0], *ch = &p->m[1];
  int k = log2_of(p->elem);
  dst += lo * px->d;
  src += lo * px->s;
  if (p->channels == CL_CHANNELS_INTERLEAVE)
    w->isa->interleave[k][ch->n - 2](dst, src, ch->s, hi - lo);
  else
    w->isa->deinterleave[k][ch->n - 2](dst, src, ch->d, hi - lo);
}

/* ------------------------------------------------------------ transpose */

/* The src offset of step i of the i run, the dst offset of step j of the j
 * run. */
static inline int64_t isrc(const cl_copy_job *p, int64_t i) { return p->is ? p->is[i] : i * p->m[0].s; }
static inline int64_t jdst(const cl_copy_job *p, int64_t j) { return p->jd ? p->jd[j] : j * p->m[p->ichain].d; }

/* The rectangle [i0, i1) x [j0, j1) one element at a time: the edges that
 * whole tiles do not cover, or a whole transpose too narrow for one.  In
 * blocks of ELEMENT_BLOCK steps of i, each swept by every j in turn: the
 * src lines of a block (one per step of i, at most) stay in L1 while the
 * j sweep reads each of them once per j, where a sweep of the whole i run
 * would fetch every line again for each j (a 65520 x 31 byte transpose ran
 * at 0.005x memcpy). */
#define ELEMENT_BLOCK 256
#define ELEMENTS_KERNEL(name, E)                                                                           \
  static void name(const cl_copy_job *p, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, \
                   int64_t j1) {                                                                           \
    for (int64_t ib = i0; ib < i1; ib += ELEMENT_BLOCK) {                                                  \
      int64_t ie = i1 - ib < ELEMENT_BLOCK ? i1 : ib + ELEMENT_BLOCK;                                      \
      for (int64_t j = j0; j < j1; j++) {                                                                  \
        char *d = dst + jdst(p, j);                                                                        \
        const char *s = src + j * (E);                                                                     \
        for (int64_t i = ib; i < ie; i++)                                                                  \
          move##E(d + i * (E), s + isrc(p, i));                                                            \
      }                                                                                                    \
    }                                                                                                      \
  }
ELEMENTS_KERNEL(elements1, 1)
ELEMENTS_KERNEL(elements2, 2)
ELEMENTS_KERNEL(elements4, 4)
ELEMENTS_KERNEL(elements8, 8)
ELEMENTS_KERNEL(elements16, 16)

static void elements(const cl_copy_job *p, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  if (i0 >= i1 || j0 >= j1)
    return;
  switch (p->elem) {
  case 1: elements1(p, dst, src, i0, i1, j0, j1); break;
  case 2: elements2(p, dst, src, i0, i1, j0, j1); break;
  case 4: elements4(p, dst, src, i0, i1, j0, j1); break;
  case 8: elements8(p, dst, src, i0, i1, j0, j1); break;
  default: elements16(p, dst, src, i0, i1, j0, j1); break; /* choose_kernel transposes 1 to 16 bytes only */
  }
}

/* Whether steps [k, k + len) of a transpose's run are evenly spaced: the
 * run is one mode (no table), or they lie within one turn of its first. */
static bool steps_even(const int64_t *table, const cl_jmode *first, int64_t k, int64_t len) {
  return table == NULL || k % first->n + len <= first->n;
}

/* Rows of an L1 set that a tile's source lines may fill before the tile
 * had better read each line once (stashed tiles): Sapphire Rapids' L1 has
 * 12 ways, Zen 3's 8. */
#define CROWDED_SET_ROWS 8

/* Whether the S = 64/E source lines of a tile of 1- or 2-byte elements,
 * rows ss bytes apart, crowd into few L1 sets (64 sets of lines, so rows a
 * multiple of 64 lines apart all share one): then the stashed tiles. */
static bool crowded(int64_t E, ptrdiff_t ss) {
  if (E > 2 || ss % CL_COPY_LINE != 0)
    return false;
  int64_t lines = (ss < 0 ? -ss : ss) / CL_COPY_LINE, sets = 64;
  while (lines % 2 == 0 && sets > 1) {
    lines /= 2;
    sets /= 2;
  }
  return CL_COPY_LINE / E / sets >= CROWDED_SET_ROWS;
}

/* The stashed tiles that take K = 2 or 4 tiles of 1- or 2-byte elements
 * stacked from step i (K S steps, within the run) at once (cl_copy_isa's
 * stashed_pair, stashed_quad): where the set has them and their src rows
 * are evenly spaced; else NULL. */
static cl_stashed_strip_fn stashed_stack(const part *w, int64_t i, int64_t K) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem;
  if (E > 2 || !steps_even(p->is, &p->m[0], i, K * CL_COPY_LINE / E))
    return NULL;
  return K == 2 ? w->isa->stashed_pair[log2_of(E)] : K == 4 ? w->isa->stashed_quad[log2_of(E)] : NULL;
}

/* Tiles stacked per strip in a tall plan (cl_copy_job.tall). */
#define TALL_STACK 4

/* How far ahead along its rows a strip fetches its own src lines, in
 * tiles, where the plan says ahead: on AMD EPYC (Zen 5) the 4000 x 4000
 * float transpose ran at 0.45-0.48x memcpy without, 0.67-0.75x 2 tiles
 * ahead, 0.67-0.78x 4, 0.71-0.73x 8. */
#define AHEAD_TILES 4

/* A strip: `stack` tiles of `rows` src rows each, stacked along i from step
 * i, over j steps [j0, j1) (a multiple of S = 64/E apart); at each j, tile t
 * goes to dst rows drow[j - j0] + doff + t*rows*E.  A tile whose rows are
 * evenly spaced on both sides runs as `strided` (when not NULL), taking the
 * spacings instead of the row pointers, or stashed where its src rows
 * crowd; dst rows are even when even_d says so, else where the plan's j
 * run is.  With the plan's prefetch, the next strip's lines are fetched
 * meanwhile: rows too short for the processor to see them as streams;
 * with its ahead, this strip's lines AHEAD_TILES tiles further on.
 * They are fetched into L2 only (prefetcht1): fetched into L1 as well
 * (prefetcht0), the permutations of 4- and 8-byte elements ran 4-11%
 * slower on Sapphire Rapids. */
static void strip(const part *w, cl_line_tile_fn tile, cl_strided_tile_fn strided, int64_t stack, int64_t rows,
                  char *const *drow, bool even_d, size_t doff, const char *src, int64_t i, int64_t j0, int64_t j1,
                  bool nt) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem, S = CL_COPY_LINE / E, h = stack * rows; /* h <= 256: see tiles_direct */
  const char *srow[TALL_STACK * CL_COPY_LINE], *next[TALL_STACK * CL_COPY_LINE];
  bool prefetch = p->prefetch && i + 2 * h <= p->in;
  for (int64_t r = 0; r < h; r++) {
    srow[r] = src + isrc(p, i + r);
    if (prefetch)
      next[r] = src + isrc(p, i + h + r);
  }
  /* Per stacked tile: whether its src rows are evenly spaced (for the
   * strided tile), ss apart; stashed strips where they crowd, stashed
   * pairs or quads for a stack of two or four (tiles_direct stacks 1- and
   * 2-byte tiles only so), which then take the whole stack at once. */
  bool even_s[TALL_STACK];
  ptrdiff_t ss[TALL_STACK];
  cl_stashed_strip_fn stashed = NULL;
  for (int64_t t = 0; t < stack; t++) {
    ss[t] = isrc(p, i + t * rows + 1) - isrc(p, i + t * rows);
    even_s[t] = strided != NULL && steps_even(p->is, &p->m[0], i + t * rows, rows);
    if (even_s[t] && stack == 1 && crowded(E, ss[t]))
      stashed = w->isa->stashed_strip[log2_of(E)];
  }
  int64_t stashes = 1;
  cl_stashed_strip_fn stacked = stack > 1 ? stashed_stack(w, i, stack) : NULL;
  if (stacked != NULL) {
    stashed = stacked;
    stashes = stack;
  }
  /* Stashed tiles run as one pipelined strip where dst rows are evenly
   * spaced throughout, and fetch the next strip's lines themselves where
   * its rows continue this one's spacing (whether or not the plan
   * prefetches: on Sapphire Rapids the 4096 x 4096 byte transpose, whose
   * long rows the plan leaves to the processor, ran 1.09-1.14x faster,
   * the byte permutation 1.04-1.13x, 2-byte elements about the same). */
  bool fetch = i + 2 * h <= p->in && steps_even(p->is, &p->m[0], i, 2 * h);
  if (stashed != NULL && (!prefetch || fetch) && (even_d || p->jd == NULL) && j1 > j0) {
    stashed(drow[0] + doff, drow[1] - drow[0], srow[0] + j0 * E, ss[0], (j1 - j0) / S, fetch, nt);
    return;
  }
  for (int64_t j = j0; j < j1; j += S) {
    if (prefetch)
      for (int64_t r = 0; r < h; r++)
        __builtin_prefetch(next[r] + j * E, 0, 2);
    if (p->ahead && j + AHEAD_TILES * S < j1)
      for (int64_t r = 0; r < h; r++)
        __builtin_prefetch(srow[r] + (j + AHEAD_TILES * S) * E, 0, 2);
    char *const *d = drow + (j - j0);
    bool even = even_d || steps_even(p->jd, &p->m[p->ichain], j, S);
    for (int64_t t = 0; t < stack;) {
      const char *const *s = srow + t * rows;
      size_t toff = doff + (size_t)(t * rows * E);
      if (even && stashed != NULL) {
        stashed(d[0] + toff, d[1] - d[0], s[0] + j * E, ss[t], 1, false, nt);
        t += stashes;
        continue;
      }
      if (even && even_s[t])
        strided(d[0] + toff, d[1] - d[0], s[0] + j * E, ss[t], nt);
      else
        tile(d, toff, s, (size_t)(j * E), nt);
      t++;
    }
  }
}

/* Tiles of at most this many rows are stacked in pairs in a direct strip:
 * each dst row then takes two lines in a row, which streams better (on
 * Sapphire Rapids, 4096x4096 float64 0.78 -> 0.91x memcpy, float32 1.10 ->
 * 1.30x).  Taller tiles, of 1- and 2-byte elements, are stacked only as
 * stashed pairs or quads (stashed_stack), which read each src line once,
 * whole: as line tiles, float16 pairs lost on short-row permutations, and
 * on AMD EPYC (Zen 5) four byte tiles stacked lost to a stashed pair
 * (0.22-0.24x memcpy against 0.27-0.31x, 4096 x 4096).  Writing one
 * line into each of many rows in turn is what costs: on Sapphire Rapids,
 * streaming 16 MiB that way takes 1.6 times as long as in runs of two
 * lines, which stream as fast as a plain copy. */
#define STACKED_TILE_ROWS 16

/* The tiles of 1- or 2-byte elements to stack from step i in a strip
 * that ends before i1: four where the plan is tall, else two, where they
 * fit and go as stashed tiles (stashed_stack); else one. */
static int64_t narrow_stack(const part *w, int64_t i, int64_t i1) {
  const int64_t S = CL_COPY_LINE / w->p->elem;
  for (int64_t K = w->p->tall ? TALL_STACK : 2; K > 1; K /= 2)
    if (i + K * S <= i1 && stashed_stack(w, i, K) != NULL)
      return K;
  return 1;
}

/* Whole tiles over strips [i0, i1) (multiples of S apart) and j steps
 * [j0, j1) (a multiple of S), written to dst directly (streamed when nt),
 * stacked in pairs where they can be (STACKED_TILE_ROWS), in fours where
 * the plan is tall. */
static void tiles_direct(const part *w, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                         bool nt) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem, S = CL_COPY_LINE / E, stack = S > STACKED_TILE_ROWS ? 1 : p->tall ? TALL_STACK : 2;
  cl_line_tile_fn tile = w->isa->line_tile[log2_of(E)];
  cl_strided_tile_fn strided = w->isa->strided_tile[log2_of(E)];
  char *drow[CL_COPY_CHUNK_STEPS];
  for (int64_t jc = j0; jc < j1; jc += CL_COPY_CHUNK_STEPS) {
    int64_t je = j1 - jc < CL_COPY_CHUNK_STEPS ? j1 : jc + CL_COPY_CHUNK_STEPS;
    for (int64_t j = jc; j < je; j++)
      drow[j - jc] = dst + jdst(p, j);
    for (int64_t i = i0; i + S <= i1;) {
      int64_t st = stack > 1 ? stack : narrow_stack(w, i, i1);
      while (i + st * S > i1) /* near the end: halves */
        st /= 2;
      strip(w, tile, strided, st, S, drow, false, (size_t)(i * E), src, i, jc, je, nt);
      i += st * S;
    }
  }
}

/* Steps of j that the strips of a staged block of narrow tiles sweep in
 * turn: a multiple of the 64 steps of a tile. */
#define NARROW_STEPS 128

/* Whole tiles over blocks of stage_run bytes of i (from i0, aligned to a dst
 * line, while a block fits before i1) by chunks of stage_rows steps of j:
 * each block is transposed into the staging buffer, then written out with
 * streaming stores as one run per dst row (past each run's unaligned head
 * and tail, with the plan's stream_runs).  Returns where the blocks
 * stopped. */
static int64_t tiles_staged(const part *w, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem, run = p->stage_run, rows = p->stage_rows, B = run / E;
  /* 1- and 2-byte elements: narrow tiles, in strips of 16 src rows (the
   * streams the processor follows), or line tiles as wider ones where the
   * plan says narrow_lines. */
  bool narrow = E < 4 && !p->narrow_lines;
  cl_line_tile_fn tile = narrow ? w->isa->narrow_tile[log2_of(E)] : w->isa->line_tile[log2_of(E)];
  cl_strided_tile_fn strided = narrow ? NULL : w->isa->strided_tile[log2_of(E)];
  int64_t h = narrow ? 16 : CL_COPY_LINE / E;
  char *stage_row[CL_COPY_STAGE_ROWS];
  for (int64_t k = 0; k < rows; k++)
    stage_row[k] = w->stage + k * run;
  /* Narrow tiles fill each staged line in 64/(16 E) pieces, from as many
   * strips: those strips sweep NARROW_STEPS steps of j in turn, so the lines
   * they share are still in L1 (4096x4096 bytes: 0.44 -> 0.58x memcpy on
   * Sapphire Rapids); line tiles write whole lines and sweep the chunk. */
  int64_t sweep = narrow ? NARROW_STEPS : rows;
  int64_t ib = i0;
  for (int64_t jc = j0; jc < j1; jc += rows) {
    int64_t je = j1 - jc < rows ? j1 : jc + rows;
    for (ib = i0; ib + B <= i1; ib += B) {
      /* A run's last line is partly this block's, partly the next's, and
       * stored as usual: a write miss, one line in a few of each run.
       * Fetched for writing while the block is transposed, it is in cache
       * when the run is written (on the 16-core Xeon host of the one-GPU
       * machine, copy-random's transposes with unaligned dst rows 1.28-1.43x
       * faster). */
      if (p->stream_runs)
        for (int64_t j = jc; j < je; j++)
          __builtin_prefetch(dst + jdst(p, j) + (ib + B) * E - 1, 1, 3);
      for (int64_t js = jc; js < je; js += sweep) {
        int64_t jt = je - js < sweep ? je : js + sweep;
        for (int64_t i = ib; i < ib + B; i += h)
          strip(w, tile, strided, 1, h, stage_row + (js - jc), true, (size_t)((i - ib) * E), src, i, js, jt, false);
      }
      for (int64_t j = jc; j < je; j++) {
        if (p->stream_runs)
          stream_bytes(w, dst + jdst(p, j) + ib * E, stage_row[j - jc], (size_t)run);
        else
          w->isa->stream_lines(dst + jdst(p, j) + ib * E, stage_row[j - jc], (size_t)run);
      }
    }
  }
  return ib;
}

/* Short tiles (cl_copy_isa's short_tile, elements of 1 to 8 bytes) over
 * strips [i0, i1) (multiples of S apart) and the columns [j0, j1) (at
 * least 16 / E of them), the last short column moved back to end on j1,
 * rewriting some elements with the same values. */
static void short_columns(const part *w, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, int64_t j1,
                          bool nt) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem, S = CL_COPY_LINE / E, n = 16 / E;
  cl_line_tile_fn tile = w->isa->short_tile[log2_of(E)];
  char *drow[16];
  const char *srow[CL_COPY_LINE];
  for (int64_t i = i0; i + S <= i1; i += S) {
    for (int64_t r = 0; r < S; r++)
      srow[r] = src + isrc(p, i + r);
    for (int64_t jc = j0; jc < j1; jc += n) {
      int64_t j = j1 - jc < n ? j1 - n : jc;
      for (int64_t c = 0; c < n; c++)
        drow[c] = dst + jdst(p, j + c);
      tile(drow, (size_t)(i * E), srow, (size_t)(j * E), nt);
    }
  }
}

/* The ragged edges of the transpose over [i0, i1) x [j0, j1) around its
 * whole tiles [ih, it) x [j0, jt) (ih - i0, i1 - it, j1 - jt < S): where
 * both extents hold a tile, as tiles moved to end on the edge, overlapping
 * tiles already written, whose elements they store again with the same
 * values; with cached stores, a moved tile's lines not being aligned for
 * streaming.  The ragged columns [jt, j1) go as short tiles, themselves
 * moved back to end on j1, when these write fewer columns than a whole
 * tile moved back (a float16 transpose of 33 columns wrote 64, at 0.1x
 * memcpy; where they write as many, 4 short tiles of floats ran at 0.84-0.93x
 * of one whole tile); so do all the columns of a transpose narrower than a
 * tile (a byte permutation whose source rows are 19 bytes went an element
 * at a time, at 0.07x).  Else an element at a time.  A transpose of 67 x
 * 127 bytes went from a tile and half its elements one at a time (0.03x
 * memcpy) to four tiles. */
static void edges(const part *w, char *dst, const char *src, int64_t i0, int64_t ih, int64_t it, int64_t i1,
                  int64_t j0, int64_t jt, int64_t j1) {
  const cl_copy_job *p = w->p;
  const int64_t S = CL_COPY_LINE / p->elem;
  const int64_t n = 16 / p->elem, short_width = (j1 - jt + n - 1) / n * n; /* the columns short tiles write */
  bool tall = i1 - i0 >= S;
  bool short_cols = p->gather && jt < j1 && p->elem <= 8 && j1 - j0 >= n && (jt == j0 || short_width < S);
  if (!tall || (jt == j0 && !short_cols)) {
    elements(p, dst, src, i0, ih, j0, j1);
    elements(p, dst, src, it, i1, j0, j1);
    elements(p, dst, src, ih, it, jt, j1);
    return;
  }
  if (ih > i0)
    tiles_direct(w, dst, src, i0, i0 + S, j0, jt, false);
  if (it < i1)
    tiles_direct(w, dst, src, i1 - S, i1, j0, jt, false);
  if (short_cols) {
    short_columns(w, dst, src, ih, it, jt, j1, p->nontemporal);
    if (ih > i0)
      short_columns(w, dst, src, i0, i0 + S, jt, j1, false);
    if (it < i1)
      short_columns(w, dst, src, i1 - S, i1, jt, j1, false);
  } else if (jt < j1) {
    tiles_direct(w, dst, src, ih, it, j1 - S, j1, false);
    if (ih > i0)
      tiles_direct(w, dst, src, i0, i0 + S, j1 - S, j1, false);
    if (it < i1)
      tiles_direct(w, dst, src, i1 - S, i1, j1 - S, j1, false);
  }
}

static void transpose(const part *w, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, int64_t j1);

/* A gathered transpose's buffer: S = 64/E rows of GATHER_STEPS elements,
 * rows a line more than their length apart so that they do not share L1
 * sets; at most 20 KiB, which stay in L1 between the compaction and the
 * tiles. */
#define GATHER_STEPS 256

/* The gathered transpose (cl_copy_job.gathered) over [i0, i1) x [j0, j1):
 * blocks of S src rows by GATHER_STEPS steps of j, each row's every other
 * element compacted (cl_copy_isa's compact) into the buffer, which is then
 * transposed as an ordinary copy whose src rows are the buffer's: the
 * plan's modes with the i run made one mode of the buffer's row pitch and
 * the j run contiguous in it.  Where the strided kernel read an element at
 * a time, a line apart (a byte slice of every other element, read across
 * rows 1238 bytes apart: 0.07x memcpy on AMD EPYC, Zen 5). */
static void gathered(const part *w, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem, S = CL_COPY_LINE / E, pitch = GATHER_STEPS * E + CL_COPY_LINE;
  const cl_jmode *jm = &p->m[p->ichain];
  _Alignas(CL_COPY_LINE) char buf[CL_COPY_LINE * (GATHER_STEPS + CL_COPY_LINE)];
  cl_compact_fn compact = w->isa->compact[log2_of(E)];
  cl_jmode modes[2] = {{S, E, pitch}, {GATHER_STEPS, jm->d, E}};
  cl_copy_job block = *p;
  block.m = modes;
  block.ichain = block.jchain = 1;
  block.r = 2;
  block.is = block.jd = NULL;
  block.gathered = block.packed = false; /* packed: whole rows of dst only, not the block's */
  part bw = *w;
  bw.p = &block;
  for (int64_t i = i0; i < i1; i += S) {
    int64_t rows = i1 - i < S ? i1 - i : S;
    for (int64_t jc = j0; jc < j1; jc += GATHER_STEPS) {
      int64_t width = j1 - jc < GATHER_STEPS ? j1 - jc : GATHER_STEPS;
      for (int64_t r = 0; r < rows; r++)
        compact(buf + r * pitch, src + isrc(p, i + r) + jc * jm->s, width, jc + width < p->jn);
      block.in = modes[0].n = rows;
      block.jn = modes[1].n = width;
      transpose(&bw, dst + i * E + jc * jm->d, buf, 0, rows, 0, width);
    }
  }
}

/* The packed transpose (cl_copy_job.packed) over j in [j0, j1), every i:
 * blocks of up to stage_rows steps of j, within one turn of the j run's
 * first mode (so that their dst rows are back to back), each transposed
 * into the staging buffer as an ordinary copy whose dst rows are the
 * buffer's, with cached stores, then streamed out as one run: the plan's
 * i run, and one j mode of the block's rows, a row apart in the buffer,
 * as far apart in src as the j run's steps (an element, or two where the
 * run is gathered). */
static void packed_rows(const part *w, char *dst, const char *src, int64_t j0, int64_t j1) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem, row = p->in * E, turn = p->m[p->ichain].n, step = p->m[p->ichain].s;
  cl_jmode modes[64];
  memcpy(modes, p->m, (size_t)p->ichain * sizeof *modes);
  cl_copy_job block = *p;
  block.m = modes;
  block.r = p->ichain + 1;
  block.jchain = 1;
  block.jd = NULL;
  block.packed = false;
  part bw = *w;
  bw.p = &block;
  for (int64_t jc = j0; jc < j1;) {
    int64_t n = p->stage_rows;
    if (n > j1 - jc)
      n = j1 - jc;
    if (n > turn - jc % turn)
      n = turn - jc % turn;
    modes[p->ichain] = (cl_jmode){n, row, step};
    block.jn = n;
    transpose(&bw, w->stage, src + jc * step, 0, p->in, 0, n);
    stream_bytes(w, dst + jdst(p, jc), w->stage, (size_t)(n * row));
    jc += n;
  }
}

/* The transpose over i in [i0, i1), j in [j0, j1): whole line tiles where
 * dst lines can be whole (from the first i whose dst address starts a line,
 * when every dst row shares that alignment), elements on the edges. */
static void transpose(const part *w, char *dst, const char *src, int64_t i0, int64_t i1, int64_t j0, int64_t j1) {
  const cl_copy_job *p = w->p;
  const int64_t E = p->elem, S = CL_COPY_LINE / E;
  if (p->packed && w->stage != NULL && w->isa->stream_lines != NULL && i0 == 0 && i1 == p->in) {
    packed_rows(w, dst, src, j0, j1);
    return;
  }
  if (p->gathered) {
    gathered(w, dst, src, i0, i1, j0, j1);
    return;
  }
  int64_t ih = i0;
  if (p->nontemporal)
    ih += (int64_t)((CL_COPY_LINE - ((uintptr_t)dst + (uintptr_t)(jdst(p, 0) + i0 * E)) % CL_COPY_LINE) % CL_COPY_LINE) / E;
  if (ih > i1)
    ih = i1;
  int64_t it = ih + (i1 - ih) / S * S, jt = j0 + (j1 - j0) / S * S;
  int64_t ib = ih;
  if (p->staged && w->stage != NULL && w->isa->stream_lines != NULL)
    ib = tiles_staged(w, dst, src, ih, it, j0, jt);
  tiles_direct(w, dst, src, ib, it, j0, jt, p->nontemporal);
  edges(w, dst, src, i0, ih, it, i1, j0, jt, j1);
}

/* ------------------------------------------------------------ the loop nest */

/* The kernel over the inner modes at (dst, src), within the part's range of
 * the kernel's own dimension when the part splits it. */
static void run_kernel(const part *w, char *dst, const char *src) {
  const cl_copy_job *p = w->p;
  bool cut = w->split == KERNEL_SPLIT;
  switch (p->kind) {
  case CL_COPY_ONE: {
    int64_t lo = cut ? w->lo : 0, hi = cut ? w->hi : p->elem;
    copy_bytes(w, dst + lo, src + lo, (size_t)(hi - lo));
    break;
  }
  case CL_COPY_STRIDED: {
    if (p->channels != CL_CHANNELS_NONE && w->split != KERNEL_SPLIT) {
      bool pixels_cut = w->split == KERNEL_SPLIT_I;
      channels(w, dst, src, pixels_cut ? w->lo : 0, pixels_cut ? w->hi : p->m[0].n);
      break;
    }
    static const cl_jmode single = {1, 0, 0};
    const cl_jmode *m1 = p->r > 1 ? &p->m[1] : &single;
    if (compacts(p))
      compacted(w, dst, src, m1, cut ? w->lo : 0, cut ? w->hi : m1->n);
    else
      pick_strided(p->elem)(dst, src, &p->m[0], m1, cut ? w->lo : 0, cut ? w->hi : m1->n, p->elem);
    break;
  }
  case CL_COPY_TRANSPOSE:
    if (w->split == KERNEL_SPLIT_I)
      transpose(w, dst, src, w->lo, w->hi, 0, p->jn);
    else
      transpose(w, dst, src, 0, p->in, cut ? w->lo : 0, cut ? w->hi : p->jn);
    break;
  }
}

/* The joint loop nest from (dst, src): the kernel over its inner modes, an
 * odometer over the rest (the split mode, if any, over the part's range). */
static void run_joint(const part *w, char *dst, const char *src) {
  const cl_copy_job *p = w->p;
  const cl_jmode *m = p->m;
  int64_t inner = cl_copy_job_inner(p);
  int64_t ext[64], idx[64] = {0};
  for (int64_t k = inner; k < p->r; k++)
    ext[k] = m[k].n;
  if (w->split >= inner) {
    ext[w->split] = w->hi - w->lo;
    dst += w->lo * m[w->split].d;
    src += w->lo * m[w->split].s;
  }
  int64_t od = 0, os = 0;
  for (;;) {
    run_kernel(w, dst + od, src + os);
    int64_t k = inner;
    for (; k < p->r; k++) {
      if (++idx[k] < ext[k]) {
        od += m[k].d;
        os += m[k].s;
        break;
      }
      idx[k] = 0;
      od -= (ext[k] - 1) * m[k].d;
      os -= (ext[k] - 1) * m[k].s;
    }
    if (k == p->r)
      return;
  }
}

/* The whole nest: the joint modes inside the two tails' odometers. */
static void run_part(const part *w) {
  const cl_copy_job *p = w->p;
  int64_t tidx_d[64] = {0}, tidx_s[64] = {0};
  int64_t td = 0, ts = 0;
  do {
    run_joint(w, w->dst + p->base_d + td, w->src + p->base_s + ts);
    cl_odo_step(p->tn_s, p->ts_shape, p->ts_stride, tidx_s, &ts);
  } while (cl_odo_step(p->tn_d, p->td_shape, p->td_stride, tidx_d, &td));
}

/* ------------------------------------------------------------ threads */

/* Below this many bytes per thread, starting a thread costs more than it
 * saves. */
#define MIN_BYTES_PER_THREAD ((int64_t)1 << 20)

static void *run_part_thread(void *arg) {
  run_part(arg);
  return NULL;
}

/* The least share of each src row that a part of a transpose split along j
 * reads: shorter, the parts read a few lines of each row apiece, and the
 * processor's streams of one part run into the next part's lines (the
 * 256x512x512 (2,0,1) float permutation, 128 bytes of each 2 KiB row per
 * part at 16 threads). */
#define SPLIT_SRC_RUN 1024

/* The dimension to split between `threads` parts: the largest outer joint
 * mode when it has a step for each part, else the kernel's own dimension
 * (in units of `grain` steps) when it has; *extent gets its length. */
static int64_t choose_split(const cl_copy_job *p, int64_t threads, int64_t *extent, int64_t *grain) {
  int64_t best = -1;
  for (int64_t k = cl_copy_job_inner(p); k < p->r; k++)
    if (best < 0 || p->m[k].n > p->m[best].n)
      best = k;
  if (best >= 0 && p->m[best].n >= threads) {
    *extent = p->m[best].n;
    *grain = 1;
    return best;
  }
  switch (p->kind) {
  case CL_COPY_ONE:
    *extent = p->elem;
    *grain = 4096;
    break;
  case CL_COPY_STRIDED:
    if (p->channels != CL_CHANNELS_NONE) {
      /* Along the pixels, in blocks of a line of each plane. */
      *extent = p->m[0].n;
      *grain = CL_COPY_LINE;
      return KERNEL_SPLIT_I;
    }
    *extent = p->r > 1 ? p->m[1].n : 1;
    *grain = 1;
    break;
  case CL_COPY_TRANSPOSE: {
    /* Along j in whole chunks of dst rows when there are enough and each
     * part's share of a src row is SPLIT_SRC_RUN bytes or more, else along
     * i in whole blocks (when there are enough of those). */
    *extent = p->jn;
    *grain = p->staged ? p->stage_rows : CL_COPY_LINE / p->elem;
    int64_t i_grain = p->staged ? p->stage_run / p->elem : CL_COPY_LINE / p->elem;
    bool few_j = (*extent + *grain - 1) / *grain < threads;
    bool short_shares = !p->packed && p->jn / threads * p->elem < SPLIT_SRC_RUN &&
                        (p->in + i_grain - 1) / i_grain >= threads;
    if (few_j || short_shares) {
      *extent = p->in;
      *grain = i_grain;
      return KERNEL_SPLIT_I;
    }
    break;
  }
  }
  return KERNEL_SPLIT;
}

/* Part t of `parts` of [0, extent) in whole grains: [lo, hi). */
static void share(int64_t extent, int64_t grain, int64_t t, int64_t parts, int64_t *lo, int64_t *hi) {
  int64_t grains = (extent + grain - 1) / grain;
  *lo = grains * t / parts * grain;
  *hi = grains * (t + 1) / parts * grain;
  if (*lo > extent)
    *lo = extent;
  if (*hi > extent)
    *hi = extent;
}

/* ------------------------------------------------------------ the caller's pool */

/* The pool's threads wait on `go` for a new batch of parts (generation
 * counts them), then take parts one by one, with the caller, until none is
 * left; the last to finish one signals `done`.  `turn` lets one copy at a
 * time use the pool. */
struct cl_copy_pool {
  int n;
  pthread_t tid[CL_COPY_MAX_THREADS];
  pthread_mutex_t turn, m;
  pthread_cond_t go, done;
  part *work;
  int64_t parts, next, unfinished;
  uint64_t generation;
  bool quit;
};

/* Runs parts of the current batch until none is left to take.  Called with
 * pool->m held; returns with it held. */
static void take_parts(cl_copy_pool_t *pool) {
  while (pool->next < pool->parts) {
    part *w = &pool->work[pool->next++];
    pthread_mutex_unlock(&pool->m);
    run_part(w);
    pthread_mutex_lock(&pool->m);
    if (--pool->unfinished == 0)
      pthread_cond_broadcast(&pool->done);
  }
}

static void *pool_thread(void *arg) {
  cl_copy_pool_t *pool = arg;
  uint64_t seen = 0;
  pthread_mutex_lock(&pool->m);
  for (;;) {
    while (!pool->quit && pool->generation == seen)
      pthread_cond_wait(&pool->go, &pool->m);
    if (pool->quit)
      break;
    seen = pool->generation;
    take_parts(pool);
  }
  pthread_mutex_unlock(&pool->m);
  return NULL;
}

static void pool_run(cl_copy_pool_t *pool, part *w, int64_t parts) {
  pthread_mutex_lock(&pool->turn);
  pthread_mutex_lock(&pool->m);
  pool->work = w;
  pool->parts = parts;
  pool->next = 0;
  pool->unfinished = parts;
  pool->generation++;
  pthread_cond_broadcast(&pool->go);
  take_parts(pool);
  while (pool->unfinished > 0)
    pthread_cond_wait(&pool->done, &pool->m);
  pthread_mutex_unlock(&pool->m);
  pthread_mutex_unlock(&pool->turn);
}

/* Stops the first `started` threads of a pool and frees it. */
static void pool_stop(cl_copy_pool_t *pool, int started) {
  pthread_mutex_lock(&pool->m);
  pool->quit = true;
  pthread_cond_broadcast(&pool->go);
  pthread_mutex_unlock(&pool->m);
  for (int t = 0; t < started; t++)
    pthread_join(pool->tid[t], NULL);
  pthread_cond_destroy(&pool->go);
  pthread_cond_destroy(&pool->done);
  pthread_mutex_destroy(&pool->m);
  pthread_mutex_destroy(&pool->turn);
  cl_dealloc(pool);
}

cl_status cl_copy_pool_new(int threads, cl_copy_pool_t **out) {
  CHECK_NULL(out);
  *out = NULL;
  if (threads < 1 || threads > CL_COPY_MAX_THREADS)
    return cl_fail(CL_E_DOMAIN, "cl_copy_pool_new: %d threads (1 to %d)", threads, CL_COPY_MAX_THREADS);
  cl_copy_pool_t *pool = cl_alloc(sizeof *pool);
  if (pool == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  memset(pool, 0, sizeof *pool);
  pool->n = threads;
  pthread_mutex_init(&pool->turn, NULL);
  pthread_mutex_init(&pool->m, NULL);
  pthread_cond_init(&pool->go, NULL);
  pthread_cond_init(&pool->done, NULL);
  for (int t = 0; t < threads; t++)
    if (pthread_create(&pool->tid[t], NULL, pool_thread, pool) != 0) {
      pool_stop(pool, t);
      return cl_fail(CL_E_NOMEM, "out of memory: cl_copy_pool_new could not start thread %d of %d", t + 1, threads);
    }
  *out = pool;
  return CL_OK;
}

void cl_copy_pool_free(cl_copy_pool_t *pool) {
  if (pool != NULL)
    pool_stop(pool, pool->n);
}

/* ------------------------------------------------------------ running a job */

static void run_parts_on_new_threads(part *w, int64_t parts);

cl_status cl_copy_job_run(const cl_copy_job *p, char *dst, const char *src, int threads, cl_copy_pool_t *pool) {
  const cl_copy_isa *isa = cl_copy_isa_select();
  int64_t bytes = p->elem;
  for (int64_t k = 0; k < p->r; k++)
    bytes *= p->m[k].n;
  for (int64_t k = 0; k < p->tn_d; k++)
    bytes *= p->td_shape[k];
  int64_t extent = 1, grain = 1, split = NO_SPLIT, parts = threads;
  if (parts > bytes / MIN_BYTES_PER_THREAD)
    parts = bytes / MIN_BYTES_PER_THREAD;
  if (parts > 1) {
    split = choose_split(p, parts, &extent, &grain);
    if (parts > (extent + grain - 1) / grain)
      parts = (extent + grain - 1) / grain;
  }
  if (parts < 1)
    parts = 1;
  /* Everything that can fail comes first: nothing is written on failure. */
  char *stage = NULL;
  int64_t stage_bytes = 0;
  if (p->kind == CL_COPY_TRANSPOSE && (p->staged || p->packed)) {
    stage_bytes = p->stage_rows * p->stage_run;
    stage = cl_alloc((size_t)(parts * stage_bytes + CL_COPY_LINE));
    if (stage == NULL)
      return cl_fail(CL_E_NOMEM, "out of memory");
  }
  part w[CL_COPY_MAX_THREADS];
  for (int64_t t = 0; t < parts; t++) {
    w[t] = (part){p, isa, dst, src, parts > 1 ? split : NO_SPLIT, 0, 0, NULL, false};
    if (parts > 1)
      share(extent, grain, t, parts, &w[t].lo, &w[t].hi);
    if (stage != NULL)
      w[t].stage = stage + (CL_COPY_LINE - (uintptr_t)stage % CL_COPY_LINE) % CL_COPY_LINE + t * stage_bytes;
  }
  if (pool != NULL && parts > 1) {
    pool_run(pool, w, parts);
  } else {
    run_parts_on_new_threads(w, parts);
  }
  if ((p->nontemporal || p->stream_runs || p->packed) && isa->fence != NULL)
    isa->fence();
  cl_dealloc(stage);
  return CL_OK;
}

/* Each part but the first on a thread created for it (a part whose thread
 * cannot be started runs here), the first on the caller's. */
static void run_parts_on_new_threads(part *w, int64_t parts) {
  pthread_t tid[CL_COPY_MAX_THREADS];
  for (int64_t t = 1; t < parts; t++)
    w[t].threaded = pthread_create(&tid[t], NULL, run_part_thread, &w[t]) == 0;
  run_part(&w[0]);
  for (int64_t t = 1; t < parts; t++) {
    if (w[t].threaded)
      pthread_join(tid[t], NULL);
    else
      run_part(&w[t]);
  }
}
