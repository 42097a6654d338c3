/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_plan.c: the plan of one rank for a redistribution (dist.h): who
 * sends which elements to whom, as pieces of layouts over the local
 * buffers.  A pure function of the two distributions; the CUDA module's
 * NCCL executor runs it.
 *
 * Every rank takes the elements of the global tensor in the same order and
 * keeps those it sends or receives, so that what s lists for q is, element
 * by element, what q lists from s: s packs its list into a buffer, q unpacks
 * the same buffer with its own.  Each list is compressed into pieces:
 * maximal arithmetic runs first, then runs of equal pieces whose offsets are
 * themselves arithmetic, one mode more each time (a greedy coalescing).
 *
 * Two walks give the same lists.  The reference visits every element and
 * keeps its offset.  The walk by segments reads the layouts' modes: where
 * every mode's value splits into a rank part and an offset part (below), the
 * fastest mode is cut into the longest segments along which both
 * distributions keep one rank and step evenly, and the second into blocks of
 * rows the same way; each row is a few segments, each fed whole to the
 * arithmetic runs and the coalescing, which stream, and the rows of a block
 * that only repeat the row before are added at once: time and memory in
 * blocks and pieces, not elements.  It is taken whenever it applies and cuts
 * the fast mode anywhere coarser than single elements;
 * CUTELAYOUT_DIST_PLAN=elements forces the reference (tests compare the
 * two). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dist_impl.h"
#include "tuple_impl.h"
#include <cutelayout/algebra.h>

#define PIECE_MODES 8

typedef struct piece {
  int64_t offset;
  int depth;
  int64_t shape[PIECE_MODES], stride[PIECE_MODES];
} piece;

/* One level of the greedy coalescing (merge_level) taken as a stream: the
 * piece that opened the current group, how many pieces the group holds
 * (0: none open), their offsets' step and the last offset. */
typedef struct merge_stage {
  piece open;
  int64_t run, step, last;
} merge_stage;

/* Levels of coalescing the walk by segments runs as it goes, so that a
 * list holds its pieces, not its runs; merge_level finishes any more. */
#define MERGE_STAGES 12

/* The elements this rank exchanges with one peer in one direction: their
 * local offsets while planning, then the pieces. */
typedef struct peer_list {
  int64_t *offset; /* the reference walk's offsets, until compressed */
  int64_t elements, cap;
  piece *pieces;
  int64_t count, pieces_cap;
  /* The walk by segments: the open arithmetic run, then the levels. */
  piece run;
  int64_t run_last;
  merge_stage *stage; /* MERGE_STAGES of them, made by the first segment */
} peer_list;

struct cl_dist_plan {
  int64_t ranks, rank;
  size_t elem_size;
  int all_to_all;
  uint64_t hash;
  peer_list *list[2]; /* [direction][peer] */
};

static void lists_free(peer_list *l, int64_t n) {
  for (int64_t q = 0; l != NULL && q < n; q++) {
    cl_dealloc(l[q].offset);
    cl_dealloc(l[q].pieces);
    cl_dealloc(l[q].stage);
  }
  cl_dealloc(l);
}

void cl_dist_plan_free(cl_dist_plan_t *plan) {
  if (plan == NULL)
    return;
  lists_free(plan->list[CL_DIST_SEND], plan->ranks);
  lists_free(plan->list[CL_DIST_RECV], plan->ranks);
  cl_dealloc(plan);
}

static cl_status push_offset(peer_list *l, int64_t offset) {
  if (l->elements == l->cap) {
    int64_t cap = l->cap ? 2 * l->cap : 64;
    int64_t *grown = cl_realloc(l->offset, sizeof *grown * (size_t)cap);
    if (grown == NULL)
      return cl_dist_nomem();
    l->offset = grown;
    l->cap = cap;
  }
  l->offset[l->elements++] = offset;
  return CL_OK;
}

/* ---- who sends what ---- */

/* The source of an element for destination rank q: q itself when it holds a
 * replica (a local copy), else replica q mod replicas, so that the senders
 * of a replicated source share the work. */
static int64_t source_place(const cl_dist_t *src, int64_t base, int64_t q) {
  for (int64_t k = 0; k < src->replicas; k++)
    if ((base + src->replica_value[k]) / src->local_size == q)
      return base + src->replica_value[k];
  return base + src->replica_value[q % src->replicas];
}

/* The order in which the walk takes the global modes, fastest first: by
 * the source's step along each (its local stride, for a mode that starts
 * inside a block), smallest first, ties in mode order.  A row-major source
 * is then read row by row, so that a piece is a few long runs, not a
 * transpose; it depends on the source only, so every rank walks alike. */
static void walk_order(const cl_dist_t *src, int64_t *order) {
  for (int64_t m = 0; m < src->modes; m++)
    order[m] = m;
  for (int64_t i = 1; i < src->modes; i++) /* insertion sort: a handful of modes */
    for (int64_t j = i; j > 0; j--) {
      const cl_dist_t *d = src;
      int64_t a = order[j - 1], b = order[j];
      int64_t step_a = d->extent[a] > 1 ? d->mode_value[a][1] - d->mode_value[a][0] : INT64_MAX;
      int64_t step_b = d->extent[b] > 1 ? d->mode_value[b][1] - d->mode_value[b][0] : INT64_MAX;
      step_a = step_a < 0 ? -step_a : step_a;
      step_b = step_b < 0 ? -step_b : step_b;
      if (step_b >= step_a)
        break;
      order[j - 1] = b;
      order[j] = a;
    }
}

/* The successor of a coordinate, the modes counted in `order`. */
static void next_coord_in(const int64_t *extent, const int64_t *order, int64_t modes, int64_t *crd) {
  for (int64_t k = 0; k < modes; k++) {
    int64_t m = order[k];
    if (++crd[m] < extent[m])
      return;
    crd[m] = 0;
  }
}

/* Walks the global tensor: counts[s * P + q] elements go from s to q, and
 * this rank's lists get its offsets. */
static cl_status walk(const cl_dist_t *src, const cl_dist_t *dst, cl_dist_plan_t *plan, int64_t *counts) {
  int64_t *crd = cl_alloc(sizeof *crd * (size_t)src->modes * 2);
  if (crd == NULL)
    return cl_dist_nomem();
  int64_t *order = crd + src->modes;
  memset(crd, 0, sizeof *crd * (size_t)src->modes);
  walk_order(src, order);
  cl_status s = CL_OK;
  int64_t r = plan->rank, P = plan->ranks;
  /* Row by row along the fastest mode: the other modes' values once a row. */
  int64_t fast = order[0], extent = src->extent[fast], rows = src->size / extent;
  const int64_t *src_fast = src->mode_value[fast], *dst_fast = dst->mode_value[fast];
  for (int64_t row = 0; s == CL_OK && row < rows; row++, next_coord_in(src->extent, order + 1, src->modes - 1, crd)) {
    int64_t src_row = cl_dist_place(src, crd) - src_fast[0], dst_row = cl_dist_place(dst, crd) - dst_fast[0];
    for (int64_t x = 0; s == CL_OK && x < extent; x++) {
      int64_t src_base = src_row + src_fast[x], dst_base = dst_row + dst_fast[x];
      for (int64_t j = 0; s == CL_OK && j < dst->replicas; j++) {
        int64_t to = dst_base + dst->replica_value[j], q = to / dst->local_size;
        int64_t from = source_place(src, src_base, q), sender = from / src->local_size;
        counts[sender * P + q]++;
        if (sender == r)
          s = push_offset(&plan->list[CL_DIST_SEND][q], from % src->local_size);
        if (s == CL_OK && q == r)
          s = push_offset(&plan->list[CL_DIST_RECV][sender], to % dst->local_size);
      }
    }
  }
  cl_dealloc(crd);
  return s;
}

/* ---- the walk by segments ---- */

/* A mode's value v = L * q + r with 0 <= r < L: its rank part and its
 * offset part.  Values are never negative: every mode is 0 at coordinate
 * 0, so the bounds check's sum of the modes' least values is at most each
 * one's, and it is at least 0. */
static void split_place(int64_t v, int64_t L, int64_t *q, int64_t *r) {
  *q = v / L;
  *r = v % L;
}

/* The largest offset part of the values v[0..n): a division only where a
 * value leaves the rank window [lo, lo + L) of the one before. */
static int64_t largest_offset_part(const int64_t *v, int64_t n, int64_t L) {
  int64_t most = 0, lo = 0, q, r;
  for (int64_t x = 0; x < n; x++) {
    if (x == 0 || v[x] - lo < 0 || v[x] - lo >= L) {
      split_place(v[x], L, &q, &r);
      lo = v[x] - r;
    }
    most = v[x] - lo > most ? v[x] - lo : most;
  }
  return most;
}

/* Whether the modes say separately where an element goes: when the offset
 * parts of all modes and of the replica mode can never sum to L, the place
 * L * (sum of q) + (sum of r) lies on rank sum-of-q at offset sum-of-r.
 * True of every placement (the local block's offsets stay inside it) and of
 * most tiled layouts; where it fails, the reference walk plans. */
static int modes_separate(const cl_dist_t *d) {
  int64_t L = d->local_size, total = 0;
  for (int64_t m = 0; m <= d->modes; m++) {
    const int64_t *v = m < d->modes ? d->mode_value[m] : d->replica_value;
    total += largest_offset_part(v, m < d->modes ? d->extent[m] : d->replicas, L); /* below 2L: no overflow */
    if (total >= L)
      return 0;
  }
  return 1;
}

/* A segment of the fast mode, [start, start + len): on it each side keeps
 * the rank part q and its offset part steps by `step`. */
typedef struct side {
  int64_t q, r, step;
} side;
typedef struct segment {
  int64_t start, len;
  side from, to; /* source, destination */
} segment;

static side side_at(const cl_dist_t *d, int64_t m, int64_t x, int64_t len) {
  side s;
  split_place(d->mode_value[m][x], d->local_size, &s.q, &s.r);
  s.step = len > 1 ? d->mode_value[m][x + 1] - d->mode_value[m][x] : 0;
  return s;
}

/* The end of the longest segment of mode m from `start`: each side's values
 * stay in the rank window of the first, [v - r, v - r + L), and step as
 * its first step. */
static int64_t segment_end(const cl_dist_t *src, const cl_dist_t *dst, int64_t m, int64_t start) {
  const int64_t *a = src->mode_value[m], *b = dst->mode_value[m];
  int64_t n = src->extent[m], La = src->local_size, Lb = dst->local_size, q, ra, rb;
  split_place(a[start], La, &q, &ra);
  split_place(b[start], Lb, &q, &rb);
  int64_t a_lo = a[start] - ra, b_lo = b[start] - rb, x = start + 1;
  for (; x < n; x++) {
    if (a[x] - a_lo < 0 || a[x] - a_lo >= La || b[x] - b_lo < 0 || b[x] - b_lo >= Lb)
      break;
    if (x - start >= 2 && (a[x] - a[x - 1] != a[start + 1] - a[start] || b[x] - b[x - 1] != b[start + 1] - b[start]))
      break;
  }
  return x;
}

/* Mode m cut into the longest segments on which both distributions keep
 * one rank and step evenly: greedy from the left, which is optimal because
 * any part of such a segment is one too. */
static cl_status cut_mode(const cl_dist_t *src, const cl_dist_t *dst, int64_t m, segment **out, int64_t *count) {
  int64_t n = src->extent[m], cuts = 0;
  for (int64_t start = 0; start < n; start = segment_end(src, dst, m, start))
    cuts++;
  segment *seg = cl_alloc(sizeof *seg * (size_t)cuts);
  if (seg == NULL)
    return cl_dist_nomem();
  *count = 0;
  for (int64_t start = 0, end; start < n; start = end) {
    end = segment_end(src, dst, m, start);
    seg[(*count)++] = (segment){start, end - start, side_at(src, m, start, end - start),
                                side_at(dst, m, start, end - start)};
  }
  *out = seg;
  return CL_OK;
}

/* The rank and offset parts of a row: the sums over the modes other than
 * the fast one at coordinate crd (whose fast entry is 0). */
static void row_parts(const cl_dist_t *d, const int64_t *crd, int64_t fast, int64_t *q, int64_t *r) {
  *q = *r = 0;
  for (int64_t m = 0; m < d->modes; m++) {
    int64_t mq, mr;
    if (m == fast)
      continue;
    split_place(d->mode_value[m][crd[m]], d->local_size, &mq, &mr);
    *q += mq;
    *r += mr;
  }
}

static cl_status push_piece(peer_list *l, piece p) {
  if (l->count == l->pieces_cap) {
    int64_t cap = l->pieces_cap ? 2 * l->pieces_cap : 16;
    piece *grown = cl_realloc(l->pieces, sizeof *grown * (size_t)cap);
    if (grown == NULL)
      return cl_dist_nomem();
    l->pieces = grown;
    l->pieces_cap = cap;
  }
  l->pieces[l->count++] = p;
  return CL_OK;
}

static int same_form(const piece *a, const piece *b);

/* A group of `run` pieces of p's form, offsets `step` apart: p with one
 * mode more (as merge_level makes it). */
static piece grouped(piece p, int64_t run, int64_t step) {
  if (run > 1) {
    p.shape[p.depth] = run;
    p.stride[p.depth++] = step;
  }
  return p;
}

/* Feeds piece x to level k of the coalescing, exactly as merge_level would
 * take it in its list: a group of one takes a next piece of its form (the
 * step is then theirs), a longer group only one on its step; a group that
 * ends goes to level k + 1, and past the last level to the list. */
static cl_status merge_into(peer_list *l, int k, piece x) {
  if (k == MERGE_STAGES)
    return push_piece(l, x);
  merge_stage *g = &l->stage[k];
  if (g->run == 1 && g->open.depth < PIECE_MODES && same_form(&g->open, &x)) {
    g->step = x.offset - g->open.offset;
  } else if (g->run < 2 || !same_form(&g->open, &x) || x.offset - g->last != g->step) {
    if (g->run > 0)
      CL_TRY(merge_into(l, k + 1, grouped(g->open, g->run, g->step)));
    *g = (merge_stage){.open = x, .run = 1, .last = x.offset};
    return CL_OK;
  }
  g->run++;
  g->last = x.offset;
  return CL_OK;
}

/* Appends n offsets a, a + step, ... to the list's maximal arithmetic runs,
 * exactly as arithmetic_runs would cut the whole list: a run of one takes
 * any next offset, a longer one only the offset on its step.  A few steps a
 * segment, whatever its length; a run that ends goes to the coalescing. */
static cl_status push_segment(peer_list *l, int64_t a, int64_t n, int64_t step) {
  if (l->stage == NULL) {
    l->stage = cl_alloc(sizeof *l->stage * MERGE_STAGES);
    if (l->stage == NULL)
      return cl_dist_nomem();
    memset(l->stage, 0, sizeof *l->stage * MERGE_STAGES);
  }
  l->elements += n;
  piece *run = &l->run;
  while (n > 0) {
    int64_t take = 1;
    if (run->depth == 0) {
      *run = (piece){.offset = a, .depth = 1, .shape = {1}, .stride = {0}};
    } else if (run->shape[0] == 1) {
      run->stride[0] = a - l->run_last;
      run->shape[0] = 2;
    } else if (a - l->run_last == run->stride[0]) {
      take = step == run->stride[0] ? n : 1;
      run->shape[0] += take;
    } else {
      CL_TRY(merge_into(l, 0, *run)); /* the run ends before a */
      run->depth = 0;
      continue;
    }
    l->run_last = a + (take - 1) * step;
    a += take * step;
    n -= take;
  }
  return CL_OK;
}

/* The open run and groups, level by level, once the walk has ended. */
static cl_status flush_segments(peer_list *l) {
  if (l->stage == NULL)
    return CL_OK;
  if (l->run.depth > 0)
    CL_TRY(merge_into(l, 0, l->run));
  for (int k = 0; k < MERGE_STAGES; k++) {
    merge_stage *g = &l->stage[k];
    if (g->run > 0)
      CL_TRY(merge_into(l, k + 1, grouped(g->open, g->run, g->step)));
  }
  return CL_OK;
}

/* What the walk by segments reads for every segment: the two
 * distributions' replicas split once into rank and offset parts. */
typedef struct segment_walk {
  const cl_dist_t *src, *dst;
  side *from_replica, *to_replica; /* q and r of each replica */
  cl_dist_plan_t *plan;
  int64_t *counts;
} segment_walk;

/* The source replica that sends to destination rank q (as source_place):
 * q's own, else replica q mod replicas; `rank` is the rank part of the
 * row and segment. */
static int64_t sending_replica(const segment_walk *w, int64_t rank, int64_t q) {
  for (int64_t k = 0; k < w->src->replicas; k++)
    if (rank + w->from_replica[k].q == q)
      return k;
  return q % w->src->replicas;
}

/* What one destination replica of one segment means to this rank in rows
 * of one rank part: the list it sends the segment to and the list it
 * receives it from (-1: neither), with the offsets' parts and steps. */
typedef struct share {
  int64_t len;
  int64_t to_peer, send_at, send_step;
  int64_t from_peer, recv_at, recv_step;
} share;

/* The sender and receiver of replica j of segment g in a row of rank parts
 * from_q and to_q, as the reference walk takes its elements (a rank that
 * holds the element copies it, else source replica q mod replicas). */
static void pair_of(const segment_walk *w, const segment *g, int64_t j, int64_t from_q, int64_t to_q,
                    int64_t *sender, int64_t *q, const side **k) {
  *q = to_q + g->to.q + w->to_replica[j].q;
  *k = &w->from_replica[sending_replica(w, from_q + g->from.q, *q)];
  *sender = from_q + g->from.q + (*k)->q;
}

/* The elements of `rows` rows of rank parts from_q and to_q, added to the
 * counts between every pair of ranks. */
static void count_rows(const segment_walk *w, const segment *seg, int64_t segments, int64_t from_q, int64_t to_q,
                       int64_t rows) {
  for (int64_t i = 0; i < segments; i++)
    for (int64_t j = 0; j < w->dst->replicas; j++) {
      int64_t sender, q;
      const side *k;
      pair_of(w, &seg[i], j, from_q, to_q, &sender, &q, &k);
      w->counts[sender * w->plan->ranks + q] += seg[i].len * rows;
    }
}

/* This rank's shares of a row of rank parts from_q and to_q, in the
 * reference's order (segments, then destination replicas; the replicas of
 * one element land on different ranks, so a list gets at most one replica
 * of a segment). */
static int64_t shares_of(const segment_walk *w, const segment *seg, int64_t segments, int64_t from_q, int64_t to_q,
                         share *out) {
  int64_t n = 0, r = w->plan->rank;
  for (int64_t i = 0; i < segments; i++)
    for (int64_t j = 0; j < w->dst->replicas; j++) {
      int64_t sender, q;
      const side *k;
      pair_of(w, &seg[i], j, from_q, to_q, &sender, &q, &k);
      if (sender != r && q != r)
        continue;
      out[n++] = (share){seg[i].len,
                         sender == r ? q : -1, seg[i].from.r + k->r, seg[i].from.step,
                         q == r ? sender : -1, seg[i].to.r + w->to_replica[j].r, seg[i].to.step};
    }
  return n;
}

static void split_replicas(const cl_dist_t *d, side *out) {
  for (int64_t k = 0; k < d->replicas; k++) {
    split_place(d->replica_value[k], d->local_size, &out[k].q, &out[k].r);
    out[k].step = 0;
  }
}

/* ---- rows that repeat ---- */

/* Along a segment of the second mode, row t is row 0 shifted by t steps:
 * the same shares, each offset moved by the segment's step on its side.  A
 * list fed such copies one after another settles, after a copy or two, into
 * a state that repeats: every level below one is the same as a copy before,
 * moved by the step, that one level's group has grown by the same count,
 * and the levels above are untouched.  The rest of the copies would do the
 * same again (the coalescing looks only at differences of offsets, and a
 * group of two or more only at its last offset and step), so they are added
 * at once: planning costs the rows where something new happens. */

/* One side of one share, as a list takes it. */
typedef struct feed {
  int dir;
  int64_t peer, at, len, step, index;
} feed;

/* What a list's coalescing holds between two copies. */
typedef struct list_state {
  piece run;
  int64_t run_last, count, elements;
  merge_stage stage[MERGE_STAGES];
} list_state;

static void save_state(const peer_list *l, list_state *out) {
  out->run = l->run;
  out->run_last = l->run_last;
  out->count = l->count;
  out->elements = l->elements;
  memcpy(out->stage, l->stage, sizeof out->stage);
}

/* How a level changed over one copy: untouched, moved by `shift`, or grown
 * in place; anything else ends the search for a repeat. */
enum { LEVEL_SAME = 1, LEVEL_MOVED = 2, LEVEL_GROWN = 4 };

static int run_change(const list_state *a, const peer_list *l, int64_t shift) {
  const piece *x = &a->run, *y = &l->run;
  if (x->depth == 0 && y->depth == 0)
    return LEVEL_SAME | LEVEL_MOVED;
  if (x->depth == 0 || y->depth == 0 || x->stride[0] != y->stride[0] || l->run_last != a->run_last + shift)
    return 0;
  if (x->shape[0] == y->shape[0] && y->offset == x->offset + shift)
    return LEVEL_MOVED;
  return x->shape[0] >= 2 && y->shape[0] > x->shape[0] && y->offset == x->offset ? LEVEL_GROWN : 0;
}

static int stage_change(const merge_stage *x, const merge_stage *y, int64_t shift) {
  if (x->run == 0 && y->run == 0)
    return LEVEL_SAME | LEVEL_MOVED;
  if (x->run == 0 || y->run == 0 || !same_form(&x->open, &y->open) || (x->run > 1 && x->step != y->step))
    return 0;
  if (x->run == y->run && x->step == y->step && x->last == y->last && x->open.offset == y->open.offset)
    return LEVEL_SAME;
  if (y->last != x->last + shift)
    return 0;
  if (x->run == y->run && x->step == y->step && y->open.offset == x->open.offset + shift)
    return LEVEL_MOVED;
  return x->run >= 2 && y->run > x->run && y->open.offset == x->open.offset ? LEVEL_GROWN : 0;
}

/* The level (0: the run, k + 1: stage k) that grew over the last copy when
 * the list repeats as described above, else -1. */
static int repeating_level(const list_state *a, const peer_list *l, int64_t shift) {
  if (l->count != a->count)
    return -1;
  int grown = -1;
  for (int k = 0; k <= MERGE_STAGES; k++) {
    int change = k == 0 ? run_change(a, l, shift) : stage_change(&a->stage[k - 1], &l->stage[k - 1], shift);
    if (grown < 0 && (change & LEVEL_GROWN))
      grown = k;
    else if (!(change & (grown < 0 ? LEVEL_MOVED : LEVEL_SAME)))
      return -1;
  }
  return grown;
}

/* `copies` more copies of the last one, at once: the levels below `grown`
 * moved, `grown` grown, as many times. */
static void repeat_copies(const list_state *a, peer_list *l, int grown, int64_t shift, int64_t copies) {
  for (int k = 0; k < grown; k++) {
    if (k == 0 && l->run.depth > 0) {
      l->run.offset += copies * shift;
      l->run_last += copies * shift;
    } else if (k > 0 && l->stage[k - 1].run > 0) {
      l->stage[k - 1].open.offset += copies * shift;
      l->stage[k - 1].last += copies * shift;
    }
  }
  if (grown == 0) {
    l->run.shape[0] += copies * (l->run.shape[0] - a->run.shape[0]);
    l->run_last += copies * shift;
  } else {
    merge_stage *g = &l->stage[grown - 1];
    g->run += copies * (g->run - a->stage[grown - 1].run);
    g->last += copies * shift;
  }
  l->elements += copies * (l->elements - a->elements);
}

/* Feeds a list `rows` copies of its feeds, copy t moved by t * shift,
 * adding the rest at once when it repeats. */
static cl_status feed_copies(peer_list *l, const feed *f, int64_t n, int64_t base, int64_t shift, int64_t rows) {
  list_state before;
  for (int64_t t = 0; t < rows; t++) {
    if (t > 0)
      save_state(l, &before);
    for (int64_t i = 0; i < n; i++)
      CL_TRY(push_segment(l, base + t * shift + f[i].at, f[i].len, f[i].step));
    int grown = t > 0 ? repeating_level(&before, l, shift) : -1;
    if (grown >= 0) {
      repeat_copies(&before, l, grown, shift, rows - 1 - t);
      break;
    }
  }
  return CL_OK;
}

static int by_list(const void *a, const void *b) {
  const feed *x = a, *y = b;
  if (x->dir != y->dir)
    return x->dir < y->dir ? -1 : 1;
  if (x->peer != y->peer)
    return x->peer < y->peer ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/* The shares of a block of `rows` rows starting at rank and offset parts
 * `from` and `to`, row t moved by t steps of the second mode: each list
 * takes its own feeds, in the reference's order, row after row. */
static cl_status feed_block(const segment_walk *w, const share *mine, int64_t shares, const side *from, const side *to,
                            int64_t rows, feed *f) {
  int64_t n = 0;
  for (int64_t i = 0; i < shares; i++) {
    const share *m = &mine[i];
    if (m->to_peer >= 0) {
      f[n] = (feed){CL_DIST_SEND, m->to_peer, m->send_at, m->len, m->send_step, n};
      n++;
    }
    if (m->from_peer >= 0) {
      f[n] = (feed){CL_DIST_RECV, m->from_peer, m->recv_at, m->len, m->recv_step, n};
      n++;
    }
  }
  qsort(f, (size_t)n, sizeof *f, by_list);
  for (int64_t i = 0, len; i < n; i += len) {
    for (len = 1; i + len < n && f[i + len].dir == f[i].dir && f[i + len].peer == f[i].peer; len++)
      ;
    const side *s = f[i].dir == CL_DIST_SEND ? from : to;
    CL_TRY(feed_copies(&w->plan->list[f[i].dir][f[i].peer], f + i, len, s->r, s->step, rows));
  }
  return CL_OK;
}

/* Every row, in the reference's order, in blocks: a block is a segment of
 * the second mode (the rows along which both sides keep their rank parts and
 * step evenly) at one coordinate of the modes after it.  A rank-1 tensor is
 * one block of one row. */
static cl_status walk_blocks(const segment_walk *w, const int64_t *order, const segment *seg, int64_t segments,
                             const segment *rows_seg, int64_t row_segments, int64_t *crd, share *mine, feed *f) {
  const cl_dist_t *src = w->src;
  int64_t fast = order[0], second = src->modes > 1 ? order[1] : -1;
  int64_t outer = src->size / src->extent[fast] / (second >= 0 ? src->extent[second] : 1);
  for (int64_t o = 0; o < outer; o++) {
    if (o > 0) /* (never for a rank-1 tensor, whose order has no order + 2) */
      next_coord_in(src->extent, order + 2, src->modes - 2, crd);
    for (int64_t b = 0; b < row_segments; b++) {
      const segment *block = &rows_seg[b];
      side from = {0, 0, block->from.step}, to = {0, 0, block->to.step};
      if (second >= 0)
        crd[second] = block->start;
      row_parts(src, crd, fast, &from.q, &from.r);
      row_parts(w->dst, crd, fast, &to.q, &to.r);
      count_rows(w, seg, segments, from.q, to.q, block->len);
      int64_t shares = shares_of(w, seg, segments, from.q, to.q, mine);
      CL_TRY(feed_block(w, mine, shares, &from, &to, block->len, f));
    }
  }
  if (second >= 0)
    crd[second] = 0;
  return CL_OK;
}

/* The walk by segments.  *taken = 0 when it does not apply (the modes do
 * not separate, or the fast mode cuts into single elements). */
static cl_status walk_segments(const cl_dist_t *src, const cl_dist_t *dst, cl_dist_plan_t *plan, int64_t *counts,
                               int *taken) {
  *taken = 0;
  if (!modes_separate(src) || !modes_separate(dst))
    return CL_OK;
  int64_t *crd = cl_alloc(sizeof *crd * (size_t)src->modes * 2);
  side *replica = cl_alloc(sizeof *replica * (size_t)(src->replicas + dst->replicas));
  segment *seg = NULL, *rows_seg = NULL, one_row = {0, 1, {0, 0, 0}, {0, 0, 0}};
  share *mine = NULL;
  feed *f = NULL;
  int64_t segments = 0, row_segments = 1, *order = NULL;
  cl_status s = crd == NULL || replica == NULL ? cl_dist_nomem() : CL_OK;
  if (s == CL_OK) {
    order = crd + src->modes;
    memset(crd, 0, sizeof *crd * (size_t)src->modes);
    walk_order(src, order);
    s = cut_mode(src, dst, order[0], &seg, &segments);
  }
  if (s == CL_OK && segments < src->extent[order[0]]) {
    if (src->modes > 1)
      s = cut_mode(src, dst, order[1], &rows_seg, &row_segments);
    mine = s == CL_OK ? cl_alloc(sizeof *mine * (size_t)(segments * dst->replicas)) : NULL;
    f = mine != NULL ? cl_alloc(sizeof *f * (size_t)(2 * segments * dst->replicas)) : NULL;
    if (s == CL_OK && f == NULL)
      s = cl_dist_nomem();
    if (s == CL_OK) {
      segment_walk w = {src, dst, replica, replica + src->replicas, plan, counts};
      split_replicas(src, w.from_replica);
      split_replicas(dst, w.to_replica);
      *taken = 1;
      s = walk_blocks(&w, order, seg, segments, rows_seg != NULL ? rows_seg : &one_row, row_segments, crd, mine, f);
    }
  }
  cl_dealloc(f);
  cl_dealloc(mine);
  cl_dealloc(rows_seg);
  cl_dealloc(seg);
  cl_dealloc(replica);
  cl_dealloc(crd);
  return s;
}

/* ---- compression into pieces ---- */

/* The length of the maximal arithmetic run of a[0..n) that starts at i. */
static int64_t run_length(const int64_t *a, int64_t n, int64_t i) {
  if (i + 1 >= n)
    return 1;
  int64_t step = a[i + 1] - a[i], len = 2;
  while (i + len < n && a[i + len] - a[i + len - 1] == step)
    len++;
  return len;
}

/* Maximal arithmetic runs of the offsets, each a one-mode piece (counted
 * first: a piece is far larger than an offset). */
static cl_status arithmetic_runs(peer_list *l) {
  const int64_t *a = l->offset;
  int64_t runs = 0;
  for (int64_t i = 0; i < l->elements; i += run_length(a, l->elements, i))
    runs++;
  l->pieces = cl_alloc(sizeof *l->pieces * (size_t)runs);
  if (l->pieces == NULL)
    return cl_dist_nomem();
  for (int64_t i = 0, len; i < l->elements; i += len) {
    len = run_length(a, l->elements, i);
    int64_t step = len > 1 ? a[i + 1] - a[i] : 0;
    l->pieces[l->count++] = (piece){.offset = a[i], .depth = 1, .shape = {len}, .stride = {step}};
  }
  return CL_OK;
}

static int same_form(const piece *a, const piece *b) {
  if (a->depth != b->depth)
    return 0;
  for (int m = 0; m < a->depth; m++)
    if (a->shape[m] != b->shape[m] || a->stride[m] != b->stride[m])
      return 0;
  return 1;
}

/* Runs of pieces of the same form whose offsets step evenly become one
 * piece with one mode more; nonzero when anything merged. */
static int merge_level(peer_list *l) {
  int64_t kept = 0;
  for (int64_t i = 0, run; i < l->count; i += run) {
    piece p = l->pieces[i];
    int64_t step = i + 1 < l->count ? l->pieces[i + 1].offset - p.offset : 0;
    for (run = 1; p.depth < PIECE_MODES && i + run < l->count && same_form(&p, &l->pieces[i + run]) &&
                  l->pieces[i + run].offset - l->pieces[i + run - 1].offset == step;
         run++)
      ;
    if (run > 1) {
      p.shape[p.depth] = run;
      p.stride[p.depth++] = step;
    }
    l->pieces[kept++] = p;
  }
  int merged = kept < l->count;
  l->count = kept;
  return merged;
}

/* The list's pieces from its offsets (the reference walk) or from the runs
 * the walk by segments made as it went. */
static cl_status compress(peer_list *l, int runs_made) {
  CL_TRY(runs_made ? flush_segments(l) : arithmetic_runs(l));
  while (merge_level(l))
    ;
  cl_dealloc(l->offset); /* the pieces say it all now */
  l->offset = NULL;
  return CL_OK;
}

/* ---- the pattern as a whole ---- */

/* Every rank sends the same nonzero count to every other rank. */
static int is_all_to_all(const int64_t *counts, int64_t P) {
  if (P < 2)
    return 0;
  for (int64_t s = 0; s < P; s++)
    for (int64_t q = 0; q < P; q++)
      if (s != q && (counts[s * P + q] == 0 || counts[s * P + q] != counts[1]))
        return 0;
  return 1;
}

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++)
    h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

static cl_status hash_dist(uint64_t *h, const cl_dist_t *d) {
  int64_t n = cl_dist_format(d, NULL, 0);
  if (n < 0)
    return (cl_status)n;
  char *text = cl_alloc((size_t)n + 1);
  if (text == NULL)
    return cl_dist_nomem();
  int64_t written = cl_dist_format(d, text, (size_t)n + 1);
  if (written >= 0)
    *h = fnv(*h, text, (size_t)n + 1);
  cl_dealloc(text);
  return written < 0 ? (cl_status)written : CL_OK;
}

static cl_status plan_hash(const cl_dist_t *src, const cl_dist_t *dst, const int64_t *counts, cl_dist_plan_t *plan) {
  uint64_t h = 0xcbf29ce484222325ull, elem = (uint64_t)plan->elem_size;
  CL_TRY(hash_dist(&h, src));
  CL_TRY(hash_dist(&h, dst));
  h = fnv(h, &elem, sizeof elem);
  h = fnv(h, counts, sizeof *counts * (size_t)(plan->ranks * plan->ranks));
  plan->hash = h;
  return CL_OK;
}

static cl_status check_pair(const cl_dist_t *src, const cl_dist_t *dst, size_t elem_size, int64_t rank) {
  if (!cl_tuple_equal(src->shape, dst->shape)) {
    char a[128], b[128];
    cl_tuple_format(src->shape, a, sizeof a);
    cl_tuple_format(dst->shape, b, sizeof b);
    return cl_fail(CL_E_RANK, "the source's global shape %s differs from the destination's %s", a, b);
  }
  if (src->ranks != dst->ranks)
    return cl_fail(CL_E_DOMAIN, "the source is spread over %lld ranks, the destination over %lld",
                   (long long)src->ranks, (long long)dst->ranks);
  if (rank < 0 || rank >= src->ranks)
    return cl_fail(CL_E_DOMAIN, "rank %lld of %lld ranks", (long long)rank, (long long)src->ranks);
  if (elem_size == 0)
    return cl_fail(CL_E_DOMAIN, "an element of 0 bytes");
  return CL_OK;
}

static cl_status plan_build(const cl_dist_t *src, const cl_dist_t *dst, cl_dist_plan_t *plan) {
  int64_t P = plan->ranks, pairs;
  CL_TRY(cl_mul(P, P, &pairs));
  for (int dir = 0; dir < 2; dir++) {
    plan->list[dir] = cl_alloc(sizeof *plan->list[dir] * (size_t)P);
    if (plan->list[dir] == NULL)
      return cl_dist_nomem();
    memset(plan->list[dir], 0, sizeof *plan->list[dir] * (size_t)P);
  }
  int64_t *counts = cl_alloc(sizeof *counts * (size_t)pairs);
  if (counts == NULL)
    return cl_dist_nomem();
  memset(counts, 0, sizeof *counts * (size_t)pairs);
  int by_segments = 0;
  cl_status s = CL_OK;
  if (!cl_dist_by_elements())
    s = walk_segments(src, dst, plan, counts, &by_segments);
  if (s == CL_OK && !by_segments)
    s = walk(src, dst, plan, counts);
  for (int dir = 0; dir < 2; dir++)
    for (int64_t q = 0; s == CL_OK && q < P; q++)
      s = compress(&plan->list[dir][q], by_segments);
  if (s == CL_OK) {
    plan->all_to_all = is_all_to_all(counts, P);
    s = plan_hash(src, dst, counts, plan);
  }
  cl_dealloc(counts);
  return s;
}

cl_status cl_dist_plan_new(const cl_dist_t *src, const cl_dist_t *dst, size_t elem_size, int64_t rank,
                           cl_dist_plan_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(src);
  CHECK_NULL(dst);
  CL_TRY(check_pair(src, dst, elem_size, rank));
  cl_dist_plan_t *plan = cl_alloc(sizeof *plan);
  if (plan == NULL)
    return cl_dist_nomem();
  memset(plan, 0, sizeof *plan);
  plan->ranks = src->ranks;
  plan->rank = rank;
  plan->elem_size = elem_size;
  cl_status s = plan_build(src, dst, plan);
  if (s != CL_OK) {
    cl_dist_plan_free(plan);
    return s;
  }
  *out = plan;
  return CL_OK;
}

/* ---- queries ---- */

int64_t cl_dist_plan_ranks(const cl_dist_plan_t *plan) { return plan != NULL ? plan->ranks : -1; }
int64_t cl_dist_plan_rank(const cl_dist_plan_t *plan) { return plan != NULL ? plan->rank : -1; }
size_t cl_dist_plan_elem_size(const cl_dist_plan_t *plan) { return plan != NULL ? plan->elem_size : 0; }
int cl_dist_plan_is_all_to_all(const cl_dist_plan_t *plan) { return plan != NULL && plan->all_to_all; }
uint64_t cl_dist_plan_hash(const cl_dist_plan_t *plan) { return plan != NULL ? plan->hash : 0; }

static cl_status peer_of(const cl_dist_plan_t *plan, int64_t peer, cl_dist_direction direction,
                         const peer_list **out) {
  if (peer < 0 || peer >= plan->ranks)
    return cl_fail(CL_E_DOMAIN, "peer %lld of %lld ranks", (long long)peer, (long long)plan->ranks);
  if (direction != CL_DIST_SEND && direction != CL_DIST_RECV)
    return cl_fail(CL_E_DOMAIN, "direction %d is neither CL_DIST_SEND nor CL_DIST_RECV", (int)direction);
  *out = &plan->list[direction][peer];
  return CL_OK;
}

cl_status cl_dist_plan_peer(const cl_dist_plan_t *plan, int64_t peer, cl_dist_direction direction,
                            int64_t *elements, int64_t *pieces) {
  CHECK_NULL(plan);
  CHECK_NULL(elements);
  CHECK_NULL(pieces);
  const peer_list *l = NULL;
  CL_TRY(peer_of(plan, peer, direction, &l));
  *elements = l->elements;
  *pieces = l->count;
  return CL_OK;
}

cl_status cl_dist_plan_piece(const cl_dist_plan_t *plan, int64_t peer, cl_dist_direction direction, int64_t piece_index,
                             int64_t *offset, cl_layout_t **layout) {
  CHECK_OUT(layout);
  CHECK_NULL(plan);
  CHECK_NULL(offset);
  const peer_list *l = NULL;
  CL_TRY(peer_of(plan, peer, direction, &l));
  if (piece_index < 0 || piece_index >= l->count)
    return cl_fail(CL_E_DOMAIN, "piece %lld of %lld", (long long)piece_index, (long long)l->count);
  const piece *p = &l->pieces[piece_index];
  cl_tuple_t *shape = NULL, *stride = NULL;
  cl_layout_t *full = NULL;
  cl_status s = cl_tuple_from_ints(p->shape, p->depth, &shape);
  if (s == CL_OK)
    s = cl_tuple_from_ints(p->stride, p->depth, &stride);
  if (s == CL_OK)
    s = cl_layout_make(shape, stride, &full);
  if (s == CL_OK)
    s = cl_coalesce(full, layout);
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_layout_free(full);
  if (s == CL_OK)
    *offset = p->offset;
  return s;
}
