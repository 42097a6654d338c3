/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_copy_random.c: the `copy-random` group of cute-layout-bench: how
 * cl_tensor_copy fares off the copy group's shapes.
 *
 * A fixed seed draws families of workloads, each a copy between two
 * layouts of the same coordinates, 8 to 32 MiB of data:
 *   perm    numpy's a.transpose(P).copy() of a row-major array of rank 2 to
 *           6, extents powers of two, odd or prime, elements of 1, 2, 4, 8
 *           and 16 bytes;
 *   image   images NCHW -> NHWC and back with 2, 3 or 4 channels;
 *   heads   attention's head split (B,S,H,D) -> (B,H,S,D): rows of D
 *           elements, runs of 128 to 512 bytes;
 *   slice   a permutation whose source or destination is a strided slice
 *           of a larger array (padded rows, or every other element of a
 *           mode);
 *   hier    hierarchical layouts from the algebra (logical and zipped
 *           divides, blocked and raked products of a 2-D layout by a tile),
 *           copied to or from the row-major layout of their shape.
 * Each workload prints its GB/s (bytes read plus written) and its ratio to
 * memcpy of the same bytes, timed run for run in this process (median of
 * the paired ratios).  Then summary lines (CONTRACT.md): the minimum, the
 * 10th percentile and the median of the ratios, each with the GB/s of the
 * workload at that rank, and the three worst workloads by name.  With
 * CUTE_LAYOUT_BENCH_EXPLAIN set, each workload's plan
 * (cl_tensor_copy_explain) goes to stderr before its line. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "bench_random.h"
#include "bench_util.h"

#define SEED UINT64_C(0x5eed2808)
#define MIN_BYTES ((int64_t)8 << 20)
#define MAX_BYTES ((int64_t)32 << 20)
#define FOOTPRINT ((int64_t)80 << 20) /* the most bytes a (sliced) layout reaches */
#define PAIRED_RUNS 7
#define MAX_RANK 6
#define MAX_WORKLOADS 160

static bench_rng rng = {SEED};
static uint64_t rng_next(void) { return bench_rng_next(&rng); }
static int64_t rng_range(int64_t lo, int64_t hi) { return bench_rng_range(&rng, lo, hi); }
static int64_t extent_near(int64_t x) { return bench_extent_near(&rng, x, INT64_MAX); }

static const int64_t elem_sizes[] = {1, 2, 4, 8, 16};
/* One workload: the coordinates (extents n[0..r), mode 0 fastest) and the
 * element offsets of each mode on both sides. */
typedef struct workload {
  char name[96];
  int64_t elem, r;
  int64_t n[MAX_RANK], ds[MAX_RANK], ss[MAX_RANK];
  cl_layout_t *dst, *src; /* when set, used instead of (n, ds, ss) */
} workload;

static int64_t volume(const int64_t *n, int64_t r) {
  int64_t v = 1;
  for (int64_t k = 0; k < r; k++)
    v *= n[k];
  return v;
}

/* Strides of a compact layout that walks the modes in the order `order`
 * (fastest first), over padded extents (pad[k] extra elements per mode). */
static void compact(const int64_t *n, const int64_t *pad, const int64_t *order, int64_t r, int64_t *stride) {
  int64_t s = 1;
  for (int64_t k = 0; k < r; k++) {
    stride[order[k]] = s;
    s *= n[order[k]] + (pad ? pad[order[k]] : 0);
  }
}

/* Extents of rank r whose volume of e-byte elements lies in [MIN_BYTES,
 * MAX_BYTES]. */
static void draw_extents(int64_t r, int64_t e, int64_t *n) {
  for (;;) {
    int64_t target = rng_range(MIN_BYTES, MAX_BYTES) / e, left = target;
    for (int64_t k = 0; k < r; k++) {
      /* About the (r - k)-th root of what is left, spread by up to 2x either
       * way but for the last mode. */
      double lo = 1.0, hi = (double)left;
      for (int it = 0; it < 60; it++) {
        double mid = (lo + hi) / 2, p = 1.0;
        for (int64_t j = k; j < r; j++)
          p *= mid;
        *(p < (double)left ? &lo : &hi) = mid;
      }
      double base = lo;
      if (k + 1 < r)
        base *= (double)rng_range(50, 200) / 100.0;
      n[k] = extent_near((int64_t)base);
      left = left / n[k] > 1 ? left / n[k] : 1;
    }
    int64_t bytes = volume(n, r) * e;
    if (bytes >= MIN_BYTES && bytes <= MAX_BYTES)
      return;
  }
}

/* A random permutation of [0, r) other than the identity. */
static void draw_permutation(int64_t r, int64_t *perm) {
  for (;;) {
    for (int64_t k = 0; k < r; k++)
      perm[k] = k;
    for (int64_t k = r - 1; k > 0; k--) {
      int64_t j = rng_range(0, k), t = perm[k];
      perm[k] = perm[j];
      perm[j] = t;
    }
    for (int64_t k = 0; k < r; k++)
      if (perm[k] != k)
        return;
  }
}

static int name_extents(char *buf, size_t cap, const int64_t *n, int64_t r) {
  int len = 0;
  for (int64_t k = 0; k < r; k++)
    len += snprintf(buf + len, cap - (size_t)len, "%s%lld", k ? "x" : "", (long long)n[k]);
  return len;
}

/* perm: src row-major over extents n (mode 0 fastest), dst the row-major
 * array of src.transpose(P): dst walks the modes in the order perm. */
static void make_perm(workload *w, int64_t r, int64_t e, const int64_t *spad, const int64_t *dpad, const char *family) {
  int64_t ident[MAX_RANK], perm[MAX_RANK];
  w->elem = e;
  w->r = r;
  draw_extents(r, e, w->n);
  draw_permutation(r, perm);
  for (int64_t k = 0; k < r; k++)
    ident[k] = k;
  compact(w->n, spad, ident, r, w->ss);
  compact(w->n, dpad, perm, r, w->ds);
  int len = snprintf(w->name, sizeof w->name, "%s%lld-%s-", family, (long long)r, bench_elem_name(e));
  len += name_extents(w->name + len, sizeof w->name - (size_t)len, w->n, r);
  len += snprintf(w->name + len, sizeof w->name - (size_t)len, "-");
  for (int64_t k = 0; k < r; k++)
    len += snprintf(w->name + len, sizeof w->name - (size_t)len, "%lld", (long long)perm[k]);
}

/* image: modes (W, H, C, N); NCHW is compact in that order, NHWC in (C, W,
 * H, N). */
static void make_image(workload *w, int64_t e, bool to_nhwc) {
  static const int64_t channels[] = {2, 3, 4};
  int64_t c = channels[rng_next() % 3], side;
  do {
    side = extent_near(rng_range(160, 1100));
  } while (side * side * c * e > MAX_BYTES / 2);
  int64_t wd = side, ht = extent_near(side * rng_range(60, 140) / 100);
  int64_t batch = MIN_BYTES / (wd * ht * c * e) + 1;
  w->elem = e;
  w->r = 4;
  int64_t n[4] = {wd, ht, c, batch}, nchw[4] = {0, 1, 2, 3}, nhwc[4] = {2, 0, 1, 3};
  memcpy(w->n, n, sizeof n);
  compact(w->n, NULL, to_nhwc ? nchw : nhwc, 4, w->ss);
  compact(w->n, NULL, to_nhwc ? nhwc : nchw, 4, w->ds);
  snprintf(w->name, sizeof w->name, "image-%s-%s-%lldx%lldx%lldx%lld", bench_elem_name(e), to_nhwc ? "nchw2nhwc" : "nhwc2nchw",
           (long long)batch, (long long)c, (long long)ht, (long long)wd);
}

/* heads: modes (D, H, S, B); (B,S,H,D) row-major is compact in that order,
 * (B,H,S,D) in (D, S, H, B). */
static void make_heads(workload *w, int64_t e) {
  static const int64_t dims[] = {64, 80, 96, 128};
  int64_t d = dims[rng_next() % 4];
  if (d * e > 512)
    d = 512 / e;
  int64_t h = (int64_t[]){8, 12, 16, 32}[rng_next() % 4];
  int64_t s;
  do
    s = extent_near(rng_range(256, 4096));
  while (d * h * s * e > MAX_BYTES);
  int64_t b = rng_range(MIN_BYTES, MAX_BYTES) / (d * h * s * e);
  if (b < 1)
    b = 1;
  w->elem = e;
  w->r = 4;
  int64_t n[4] = {d, h, s, b}, bshd[4] = {0, 1, 2, 3}, bhsd[4] = {0, 2, 1, 3};
  memcpy(w->n, n, sizeof n);
  compact(w->n, NULL, bshd, 4, w->ss);
  compact(w->n, NULL, bhsd, 4, w->ds);
  snprintf(w->name, sizeof w->name, "heads-%s-%lldx%lldx%lldx%lld", bench_elem_name(e), (long long)b, (long long)s,
           (long long)h, (long long)d);
}

/* slice: a permutation whose source (or destination) is a slice of a larger
 * array: rows padded by a few elements, or every other element of one mode. */
static void make_slice(workload *w, int64_t e, bool on_src) {
  int64_t r = rng_range(2, 4), order[MAX_RANK], *st = on_src ? w->ss : w->ds;
  make_perm(w, r, e, NULL, NULL, on_src ? "slice-src" : "slice-dst");
  if (rng_next() % 2) {
    int64_t k = rng_range(0, r - 1), sk = st[k];
    for (int64_t j = 0; j < r; j++)
      if (st[j] >= sk)
        st[j] *= 2;
    strncat(w->name, "-step2", sizeof w->name - strlen(w->name) - 1);
    return;
  }
  /* The same order of modes, each padded by up to 7 elements (an eighth of
   * its extent at most). */
  int64_t pad[MAX_RANK];
  for (int64_t k = 0; k < r; k++) {
    pad[k] = rng_range(0, w->n[k] / 8 < 7 ? w->n[k] / 8 : 7);
    order[k] = k;
  }
  for (int64_t k = 1; k < r; k++) /* the modes by stride: the side's own order */
    for (int64_t j = k; j > 0 && st[order[j - 1]] > st[order[j]]; j--) {
      int64_t t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  compact(w->n, pad, order, r, st);
  strncat(w->name, "-pad", sizeof w->name - strlen(w->name) - 1);
}

static cl_layout_t *parse_layout(const char *text) {
  cl_layout_t *l;
  bench_check(cl_layout_parse(text, &l), text);
  return l;
}

/* hier: an (M, N) column-major layout cut by a tile with one of the
 * algebra's divides or built by one of its products, copied to (or from)
 * the row-major layout of the same shape. */
static void make_hier(workload *w, int64_t e, int op) {
  static const char *const ops[] = {"logical_divide", "zipped_divide", "blocked_product", "raked_product"};
  int64_t tm = (int64_t)1 << rng_range(2, 6), tn = (int64_t)1 << rng_range(2, 6), gm, gn;
  int64_t cells = rng_range(MIN_BYTES, MAX_BYTES) / (e * tm * tn); /* tiles in the grid: at least 128 */
  gm = rng_range(8, cells / 8 < 512 ? cells / 8 : 512);
  gn = cells / gm;
  char text[128];
  cl_layout_t *out = NULL;
  if (op < 2) {
    snprintf(text, sizeof text, "(%lld,%lld):(1,%lld)", (long long)(gm * tm), (long long)(gn * tn), (long long)(gm * tm));
    cl_layout_t *whole = parse_layout(text);
    cl_tuple_t *tile;
    snprintf(text, sizeof text, "(%lld,%lld)", (long long)tm, (long long)tn);
    bench_check(cl_tuple_parse(text, &tile), "cl_tuple_parse");
    bench_check(op == 0 ? cl_logical_divide_tiler(whole, tile, &out) : cl_zipped_divide_tiler(whole, tile, &out),
                ops[op]);
    cl_tuple_free(tile);
    cl_layout_free(whole);
  } else {
    snprintf(text, sizeof text, "(%lld,%lld):(1,%lld)", (long long)tm, (long long)tn, (long long)tm);
    cl_layout_t *block = parse_layout(text);
    snprintf(text, sizeof text, "(%lld,%lld):(1,%lld)", (long long)gm, (long long)gn, (long long)gm);
    cl_layout_t *grid = parse_layout(text);
    bench_check(op == 2 ? cl_blocked_product(block, grid, &out) : cl_raked_product(block, grid, &out), ops[op]);
    cl_layout_free(block);
    cl_layout_free(grid);
  }
  cl_tuple_t *shape;
  cl_layout_t *row;
  bench_check(cl_layout_shape(out, &shape), "cl_layout_shape");
  bench_check(cl_layout_make_right(shape, &row), "cl_layout_make_right");
  cl_tuple_free(shape);
  bool gather = rng_next() % 2; /* dst row-major, src the algebra's layout */
  w->elem = e;
  w->dst = gather ? row : out;
  w->src = gather ? out : row;
  snprintf(w->name, sizeof w->name, "hier-%s-%s-%lldx%lld-tile%lldx%lld-%s", ops[op], bench_elem_name(e),
           (long long)(gm * tm), (long long)(gn * tn), (long long)tm, (long long)tn, gather ? "to-rowmajor" : "from-rowmajor");
}

static cl_layout_t *layout_of(const int64_t *n, const int64_t *stride, int64_t r) {
  char text[256];
  int len = snprintf(text, sizeof text, "(");
  for (int64_t k = 0; k < r; k++)
    len += snprintf(text + len, sizeof text - (size_t)len, "%s%lld", k ? "," : "", (long long)n[k]);
  len += snprintf(text + len, sizeof text - (size_t)len, "):(");
  for (int64_t k = 0; k < r; k++)
    len += snprintf(text + len, sizeof text - (size_t)len, "%s%lld", k ? "," : "", (long long)stride[k]);
  snprintf(text + len, sizeof text - (size_t)len, ")");
  return parse_layout(text);
}

/* ------------------------------------------------------------ timing */

typedef struct random_case {
  const cl_tensor_t *dst, *src;
  char *dst_mem, *src_mem;
  size_t bytes;
} random_case;

static void run_copy(void *ctx, int64_t iters) {
  random_case *c = ctx;
  for (int64_t k = 0; k < iters; k++) {
    bench_check(cl_tensor_copy(c->dst, c->src), "cl_tensor_copy");
    bench_clobber();
  }
}

static void run_memcpy(void *ctx, int64_t iters) {
  random_case *c = ctx;
  for (int64_t k = 0; k < iters; k++) {
    memcpy(c->dst_mem, c->src_mem, c->bytes);
    bench_clobber();
  }
}

/* The copy planned with CUTELAYOUT_COPY_TUNE set to `against_tune` (the
 * baseline of CUTE_LAYOUT_BENCH_AGAINST, below), the caller's setting put
 * back after each copy. */
static const char *against_tune;
static void run_copy_against(void *ctx, int64_t iters) {
  random_case *c = ctx;
  const char *mine = getenv("CUTELAYOUT_COPY_TUNE");
  char saved[256];
  snprintf(saved, sizeof saved, "%s", mine ? mine : "");
  for (int64_t k = 0; k < iters; k++) {
    setenv("CUTELAYOUT_COPY_TUNE", against_tune, 1);
    bench_check(cl_tensor_copy(c->dst, c->src), "cl_tensor_copy");
    if (mine != NULL)
      setenv("CUTELAYOUT_COPY_TUNE", saved, 1);
    else
      unsetenv("CUTELAYOUT_COPY_TUNE");
    bench_clobber();
  }
}

/* A sample of the copy checked against its definition. */
static void check_sample(const char *name, const random_case *c, int64_t e) {
  const cl_layout_t *dl = cl_tensor_layout(c->dst), *sl = cl_tensor_layout(c->src);
  int64_t n = cl_layout_size(dl);
  for (int64_t i = 0; i < n; i += 4093) {
    int64_t od, os;
    cl_layout_eval(dl, i, &od);
    cl_layout_eval(sl, i, &os);
    if (memcmp(c->dst_mem + od * e, c->src_mem + os * e, (size_t)e) != 0) {
      fprintf(stderr, "cute-layout-bench: copy-random/%s is wrong at element %lld\n", name, (long long)i);
      exit(1);
    }
  }
}

typedef struct result {
  double ratio, gbps;
  const char *name;
} result;

static int by_ratio(const void *a, const void *b) {
  double x = ((const result *)a)->ratio, y = ((const result *)b)->ratio;
  return (x > y) - (x < y);
}

static result time_workload(workload *w, char *dst_mem, char *src_mem) {
  cl_layout_t *dl = w->dst ? w->dst : layout_of(w->n, w->ds, w->r);
  cl_layout_t *sl = w->src ? w->src : layout_of(w->n, w->ss, w->r);
  int64_t dcos = cl_layout_cosize(dl), scos = cl_layout_cosize(sl);
  if (dcos * w->elem > FOOTPRINT || scos * w->elem > FOOTPRINT) {
    fprintf(stderr, "cute-layout-bench: copy-random/%s reaches past its buffers\n", w->name);
    exit(1);
  }
  cl_tensor_t *dst, *src;
  bench_check(cl_tensor_new(dst_mem, (size_t)w->elem, dl, &dst), "cl_tensor_new");
  bench_check(cl_tensor_new(src_mem, (size_t)w->elem, sl, &src), "cl_tensor_new");
  random_case c = {dst, src, dst_mem, src_mem, (size_t)(cl_layout_size(dl) * w->elem)};
  if (getenv("CUTE_LAYOUT_BENCH_EXPLAIN") != NULL) {
    char plan[1024];
    cl_tensor_copy_explain(dst, src, plan, sizeof plan);
    fprintf(stderr, "copy-random/%s plan: %s\n", w->name, plan);
  }
  bench_check(cl_tensor_copy(dst, src), "cl_tensor_copy");
  check_sample(w->name, &c, w->elem);
  /* CUTE_LAYOUT_BENCH_AGAINST=CHOICES: the baseline is the same copy with
   * CUTELAYOUT_COPY_TUNE=CHOICES (e.g. "nogather"), run for run, instead
   * of memcpy: what a choice gains, measured in the same process. */
  against_tune = getenv("CUTE_LAYOUT_BENCH_AGAINST");
  bench_pair pair = bench_compare_runs(against_tune ? run_copy_against : run_memcpy, &c, run_copy, &c, 1, PAIRED_RUNS);
  result res = {pair.ratio, 2.0 * (double)c.bytes / pair.b * 1e-9, w->name};
  bench_report("copy-random", w->name, res.gbps, "GB/s", res.ratio, against_tune ? against_tune : "memcpy");
  cl_tensor_free(dst);
  cl_tensor_free(src);
  cl_layout_free(dl);
  cl_layout_free(sl);
  w->dst = w->src = NULL;
  return res;
}

/* The workloads, in a fixed order from the seed. */
static int64_t draw_workloads(workload *w) {
  int64_t count = 0;
  for (int64_t k = 0; k < 50; k++) /* perm: every element size, ranks 2 to 6 */
    make_perm(&w[count++], 2 + k % 5, elem_sizes[(k / 5) % 5], NULL, NULL, "perm");
  for (int64_t k = 0; k < 12; k++)
    make_image(&w[count++], elem_sizes[k % 3], k % 4 != 3);
  for (int64_t k = 0; k < 8; k++)
    make_heads(&w[count++], elem_sizes[1 + k % 2]);
  for (int64_t k = 0; k < 20; k++)
    make_slice(&w[count++], elem_sizes[k % 4], k % 2 == 0);
  for (int64_t k = 0; k < 16; k++)
    make_hier(&w[count++], elem_sizes[k % 4], (int)(k % 4));
  return count;
}

void bench_copy_random(void);
void bench_copy_random(void) {
  static workload w[MAX_WORKLOADS];
  static result res[MAX_WORKLOADS];
  rng.state = SEED;
  int64_t count = draw_workloads(w);
  char *src_mem = aligned_alloc(64, (size_t)FOOTPRINT), *dst_mem = aligned_alloc(64, (size_t)FOOTPRINT);
  if (src_mem == NULL || dst_mem == NULL) {
    fprintf(stderr, "cute-layout-bench: copy-random: out of memory\n");
    exit(1);
  }
  for (int64_t i = 0; i < FOOTPRINT; i++)
    src_mem[i] = (char)(i * 7 + i / 4093);
  memset(dst_mem, 0, (size_t)FOOTPRINT);
  /* CUTE_LAYOUT_BENCH_ONLY=TEXT times only the workloads whose names
   * contain TEXT (the summary is then of those). */
  const char *only = getenv("CUTE_LAYOUT_BENCH_ONLY");
  int64_t timed = 0;
  for (int64_t k = 0; k < count; k++) {
    if (only == NULL || strstr(w[k].name, only) != NULL) {
      res[timed++] = time_workload(&w[k], dst_mem, src_mem);
    } else {
      cl_layout_free(w[k].dst);
      cl_layout_free(w[k].src);
    }
  }
  count = timed;
  qsort(res, (size_t)count, sizeof res[0], by_ratio);
  const struct {
    const char *name;
    int64_t at;
  } stats[] = {{"min", 0}, {"p10", (count - 1) / 10}, {"median", (count - 1) / 2}};
  for (size_t s = 0; s < sizeof stats / sizeof stats[0]; s++)
    bench_report("copy-random", stats[s].name, res[stats[s].at].gbps, "GB/s", res[stats[s].at].ratio,
                 against_tune ? against_tune : "memcpy");
  for (int64_t k = 0; k < 3 && k < count; k++) {
    char name[128];
    snprintf(name, sizeof name, "worst-%lld-%s", (long long)(k + 1), res[k].name);
    bench_report("copy-random", name, res[k].gbps, "GB/s", res[k].ratio, against_tune ? against_tune : "memcpy");
  }
  free(src_mem);
  free(dst_mem);
}
