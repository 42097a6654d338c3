/* SPDX-License-Identifier: BSD-3-Clause */
/* test_copy.c: the copy engine (cl_tensor_copy, cl_tensor_copy_ex,
 * cl_tensor_copy_plan, cl_tensor_copy_explain) against its definition, dst(i) == src(i) for
 * every i, with the offsets of both sides taken from the library's generic
 * odometer (cl_odometer_t), byte for byte, including that no byte of the
 * destination's buffer outside its elements changes.
 *
 * Every kernel set runs whatever the processor: each test is repeated with
 * CUTELAYOUT_COPY_ISA capping the choice at "scalar", "sse2", "avx2" and
 * "avx512" (a cap the processor lacks falls back to the best it has).
 * Streaming stores and the staged transpose are forced on small copies by
 * CL_COPY_STORES_STREAMING and CUTELAYOUT_COPY_STAGING=1 (set for the whole
 * program; test_copy_unstaged runs the same copies with it 0), so every path
 * runs in a second whatever the processor prefers; the parallel
 * copy is checked with every way it splits the work, and the public plan
 * by running it as tensor.h defines it. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_util.h"

#include <pthread.h>

static const char *const isas[] = {"scalar", "sse2", "avx2", "avx512"};

/* ------------------------------------------------------------ the check */

/* The offsets of every element of a layout in order, by the odometer. */
static int64_t *offsets(const cl_layout_t *l, int64_t size) {
  cl_odometer_t *it = NULL;
  assert_int_equal(cl_odometer_new(l, &it), CL_OK);
  int64_t *off = malloc((size_t)(size > 0 ? size : 1) * sizeof *off);
  assert_int_equal(cl_odometer_next_batch(it, off, size), size);
  cl_odometer_free(it);
  return off;
}

static void fill_random(unsigned char *p, size_t n) {
  for (size_t k = 0; k < n; k += 8) {
    uint64_t r = rnd();
    memcpy(p + k, &r, n - k < 8 ? n - k : 8);
  }
}

/* Copies src (layout ss) into dst (layout ds), elements of `elem` bytes, the
 * two bases `dshift` and `sshift` bytes past a 64-byte boundary (so not
 * even element-aligned when the shift is odd), with options `opt`, and
 * checks the result against the definition. */
static void check_copy(const char *ds, const char *ss, size_t elem, size_t dshift, size_t sshift,
                       const cl_copy_options_t *opt) {
  cl_layout_t *dl = lay(ds), *sl = lay(ss);
  int64_t size = cl_layout_size(dl);
  assert_int_equal(size, cl_layout_size(sl));
  int64_t *od = offsets(dl, size), *os = offsets(sl, size);
  int64_t dlo = 0, dhi = 0, slo = 0, shi = 0;
  for (int64_t i = 0; i < size; i++) {
    dlo = od[i] < dlo ? od[i] : dlo;
    dhi = od[i] > dhi ? od[i] : dhi;
    slo = os[i] < slo ? os[i] : slo;
    shi = os[i] > shi ? os[i] : shi;
  }
  /* A guard element on both sides of each footprint. */
  size_t dn = (size_t)(dhi - dlo + 3) * elem + 64, sn = (size_t)(shi - slo + 3) * elem + 64;
  unsigned char *dbuf = aligned_alloc(64, (dn + 63) / 64 * 64), *sbuf = aligned_alloc(64, (sn + 63) / 64 * 64);
  unsigned char *expect = malloc(dn);
  fill_random(sbuf, sn);
  fill_random(dbuf, dn);
  memcpy(expect, dbuf, dn);
  unsigned char *d0 = dbuf + dshift + (size_t)(1 - dlo) * elem, *s0 = sbuf + sshift + (size_t)(1 - slo) * elem;
  cl_tensor_t *dst = NULL, *src = NULL;
  assert_int_equal(cl_tensor_new(d0, elem, dl, &dst), CL_OK);
  assert_int_equal(cl_tensor_new(s0, elem, sl, &src), CL_OK);
  cl_status st = cl_tensor_copy_ex(dst, src, opt);
  if (st != CL_OK)
    fail_msg("copy %s <- %s (elem %zu) = %d: %s", ds, ss, elem, st, cl_last_error());
  for (int64_t i = 0; i < size; i++)
    memcpy(expect + (d0 - dbuf) + od[i] * (int64_t)elem, s0 + os[i] * (int64_t)elem, elem);
  if (memcmp(expect, dbuf, dn) != 0) {
    char plan[512];
    cl_tensor_copy_explain(dst, src, plan, sizeof plan);
    const char *isa = getenv("CUTELAYOUT_COPY_ISA");
    fail_msg("copy %s <- %s (elem %zu, shifts %zu/%zu, isa cap %s, stores %d) differs from the definition; plan: %s", ds,
             ss, elem, dshift, sshift, isa ? isa : "none", opt ? (int)opt->stores : 0, plan);
  }
  free(expect);
  free(od);
  free(os);
  cl_tensor_free(dst);
  cl_tensor_free(src);
  free(dbuf);
  free(sbuf);
  cl_layout_free(dl);
  cl_layout_free(sl);
}

static cl_copy_options_t with_stores(cl_copy_stores_t stores) {
  cl_copy_options_t o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.stores = stores;
  return o;
}

/* ------------------------------------------------------------ random layouts */

/* A random layout of exactly `size` elements: a random factorization into
 * leaves, maybe nested, with strides from `mode`:
 *   'd': an injective destination: compact in a random order, each mode
 *        stretched by a gap of 1..3 and given a random sign;
 *   's': a source: any strides in [-5, 5], zero (broadcast) included. */
static void random_layout(char *buf, size_t cap, int64_t size, char mode) {
  int64_t ext[16], n = 0, rest = size;
  while (rest > 1 && n < 15) {
    int64_t divs[64], nd = 0;
    for (int64_t d = 2; d <= rest; d++)
      if (rest % d == 0 && nd < 64)
        divs[nd++] = d;
    ext[n++] = divs[rnd_below(nd)];
    rest /= ext[n - 1];
  }
  if (n == 0 || rnd_below(4) == 0)
    ext[n++] = 1; /* extent-1 leaves too */
  int64_t str[16];
  if (mode == 'd') {
    int64_t order[16];
    for (int64_t k = 0; k < n; k++)
      order[k] = k;
    for (int64_t k = n - 1; k > 0; k--) {
      int64_t j = rnd_below(k + 1), t = order[k];
      order[k] = order[j];
      order[j] = t;
    }
    int64_t step = 1;
    for (int64_t k = 0; k < n; k++) {
      int64_t m = order[k], gap = rnd_below(3) == 0 ? 1 + rnd_below(3) : 1;
      step *= gap;
      str[m] = rnd_below(4) == 0 ? -step : step;
      step *= ext[m];
    }
  } else {
    for (int64_t k = 0; k < n; k++)
      str[k] = rnd_below(11) - 5;
  }
  /* Nest: optionally wrap a run of leaves in parentheses. */
  int64_t open_at = n > 2 && rnd_below(2) ? rnd_below(n - 1) : -1;
  int64_t close_at = open_at >= 0 ? open_at + 1 + rnd_below(n - open_at - 1) : -1;
  char shape[256], stride[256];
  size_t ls = 0, ld = 0;
  ls += (size_t)snprintf(shape + ls, sizeof shape - ls, "(");
  ld += (size_t)snprintf(stride + ld, sizeof stride - ld, "(");
  for (int64_t k = 0; k < n; k++) {
    const char *sep = k ? "," : "";
    ls += (size_t)snprintf(shape + ls, sizeof shape - ls, "%s%s%lld%s", sep, k == open_at ? "(" : "", (long long)ext[k],
                           k == close_at ? ")" : "");
    ld += (size_t)snprintf(stride + ld, sizeof stride - ld, "%s%s%lld%s", sep, k == open_at ? "(" : "",
                           (long long)str[k], k == close_at ? ")" : "");
  }
  snprintf(shape + ls, sizeof shape - ls, ")");
  snprintf(stride + ld, sizeof stride - ld, ")");
  snprintf(buf, cap, "%s:%s", shape, stride);
}

/* A random permutation of `rank` modes of the given extents as a layout:
 * compact in the order perm (perm[0] fastest), each mode's stride padded by
 * `pad` elements after the fastest mode (rows padded to a length the
 * caller chooses), some modes reversed when `negate`. */
static void permuted_layout(char *buf, size_t cap, const int64_t *ext, const int64_t *perm, int64_t rank, int64_t pad,
                            bool negate) {
  int64_t str[8], step = 1;
  for (int64_t k = 0; k < rank; k++) {
    str[perm[k]] = negate && rnd_below(3) == 0 ? -step : step;
    step *= ext[perm[k]];
    if (k == 0)
      step += pad;
  }
  size_t n = (size_t)snprintf(buf, cap, "(");
  for (int64_t k = 0; k < rank; k++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%lld", k ? "," : "", (long long)ext[k]);
  n += (size_t)snprintf(buf + n, cap - n, "):(");
  for (int64_t k = 0; k < rank; k++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%lld", k ? "," : "", (long long)str[k]);
  snprintf(buf + n, cap - n, ")");
}

static void shuffle(int64_t *a, int64_t n) {
  for (int64_t k = n - 1; k > 0; k--) {
    int64_t j = rnd_below(k + 1), t = a[k];
    a[k] = a[j];
    a[j] = t;
  }
}

/* ------------------------------------------------------------ tests */

/* Random layouts of any kind, every element size, every kernel set. */
static void test_copy_random(void **state) {
  (void)state;
  static const int64_t sizes[] = {1, 2, 4, 6, 8, 12, 16, 24, 30, 36, 48, 60, 64, 72, 96, 120, 128, 144, 256, 360};
  static const size_t elems[] = {1, 2, 4, 8, 16, 4, 4, 8, 3, 12};
  char ds[512], ss[512];
  for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
    setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
    for (int round = 0; round < 500; round++) {
      int64_t size = sizes[rnd_below(COUNT_OF(sizes))];
      random_layout(ds, sizeof ds, size, 'd');
      if (rnd_below(3) == 0) /* a source with dst-like (often transposed) strides */
        random_layout(ss, sizeof ss, size, 'd');
      else
        random_layout(ss, sizeof ss, size, 's');
      cl_copy_options_t o = with_stores((cl_copy_stores_t)rnd_below(3));
      check_copy(ds, ss, elems[rnd_below(COUNT_OF(elems))], (size_t)rnd_below(3), (size_t)rnd_below(3), &o);
    }
  }
  unsetenv("CUTELAYOUT_COPY_ISA");
}

/* Transposes and permutations large enough for whole tiles: 2 to 4 modes,
 * odd and even extents, padded rows (some a multiple of 64 or 256 bytes,
 * for aligned and staged streaming), reversed modes, shifted bases, every
 * element size with a tile and every way of storing. */
static void test_copy_transposes(void **state) {
  (void)state;
  static const size_t elems[] = {1, 2, 4, 8, 16};
  char ds[256], ss[256];
  for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
    setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
    for (int round = 0; round < 80; round++) {
      size_t elem = elems[rnd_below(COUNT_OF(elems))];
      int64_t rank = 2 + rnd_below(3), ext[4], dperm[4], sperm[4];
      int64_t budget = (int64_t)(96 * 1024 / elem); /* elements */
      for (int64_t k = 0; k < rank; k++) {
        ext[k] = 1 + rnd_below(rank == 2 ? 300 : rank == 3 ? 48 : 20);
        dperm[k] = sperm[k] = k;
      }
      int64_t size = 1;
      for (int64_t k = 0; k < rank; k++)
        size *= ext[k];
      if (size > budget)
        ext[0] = 1 + ext[0] * budget / size;
      shuffle(dperm, rank);
      shuffle(sperm, rank);
      /* Row padding of the destination: none, to a line, to 256 bytes, odd. */
      int64_t line = 64 / (int64_t)elem, row = ext[dperm[0]], dpad;
      switch (rnd_below(4)) {
      case 0: dpad = 0; break;
      case 1: dpad = (line - row % line) % line; break;
      case 2: dpad = (4 * line - row % (4 * line)) % (4 * line); break;
      default: dpad = 1 + rnd_below(5); break;
      }
      permuted_layout(ds, sizeof ds, ext, dperm, rank, dpad, rnd_below(4) == 0);
      permuted_layout(ss, sizeof ss, ext, sperm, rank, rnd_below(2) ? 0 : 1 + rnd_below(9), rnd_below(4) == 0);
      size_t dshift = rnd_below(2) ? 0 : (size_t)rnd_below(64), sshift = (size_t)rnd_below(64);
      cl_copy_options_t o = with_stores((cl_copy_stores_t)rnd_below(3));
      check_copy(ds, ss, elem, dshift, sshift, &o);
    }
  }
  unsetenv("CUTELAYOUT_COPY_ISA");
}

/* Cases chosen for each kernel and plan shape, every element size. */
static void test_copy_kernels(void **state) {
  (void)state;
  static const char *const pairs[][2] = {
      {"(37,45):(45,1)", "(37,45):(1,37)"},                                  /* transpose, ragged tiles */
      {"(64,64):(64,1)", "(64,64):(1,64)"},                                  /* transpose, aligned */
      {"(5,7):(7,1)", "(5,7):(1,5)"},                                        /* tiny transpose */
      {"(3,100):(100,1)", "(3,100):(1,3)"},                                  /* below the transpose threshold */
      {"(8,8,8,8):(8,64,1,512)", "(8,8,8,8):(512,64,8,1)"},                  /* 4-D permutation, src-contiguous chain */
      {"((4,8),(4,8)):((1024,8),(2,64))", "((4,8),(4,8)):((1,4),(32,128))"}, /* hierarchical, gapped dst */
      {"(2,3):(1,2)", "(3,2):(1,3)"},                                        /* no common refinement */
      {"(6,5,2):(1,6,30)", "(4,15):(15,1)"},                                 /* a refinable prefix, then tails */
      {"(4,6):(1,4)", "(4,6):(0,1)"},                                        /* broadcast rows */
      {"(4,6):(1,4)", "(4,6):(0,0)"},                                        /* one value everywhere */
      {"(12):(1)", "(12):(-1)"},                                             /* reversed */
      {"(12):(-1)", "(12):(-1)"},                                            /* both reversed: contiguous */
      {"(16,9):(1,20)", "(16,9):(1,16)"},                                    /* common vector of 16, dst rows gapped */
      {"(2,(2,4)):(1,(2,4))", "((2,2),4):((1,2),4)"},                        /* same function, different shapes */
      {"1:0", "1:0"},                                                        /* one element */
      {"(600,520):(1,600)", "(600,520):(520,1)"},                            /* src rows 4 KiB apart */
      {"(200,130):(-130,1)", "(200,130):(1,-200)"},                          /* transpose, both reversed */
      {"(48,40,32):(40,1,1920)", "(48,40,32):(1280,32,1)"},                  /* 3-D permute (2,0,1) */
      {"((64,4),(8,16)):((1,512),(64,2048))", "((64,4),(8,16)):((128,1),(4,8192))"}, /* chains on both sides */
      {"((8,8),(8,8)):((512,64),(8,1))", "((8,8),(8,8)):((1,8),(64,512))"},       /* hier-ldiv's tiles, row-major */
      {"(96,70):(512,1)", "(96,70):(1,512)"},                                /* both sides' rows 2^9 elements apart */
      {"(64,80):(1,64)", "(64,80):(1024,1)"},                                /* src rows in few L1 sets: stashed tiles */
      {"(64,80):(1,64)", "(64,80):(-1024,1)"},                               /* the same, rows in reverse */
      {"(200,80):(1,200)", "(200,80):(1024,1)"},                             /* the same, pairs and one tile high */
      {"(400,80):(1,400)", "(400,80):(1024,1)"},                             /* pairs fetching the next strip's rows */
      {"(256,(40,3)):(1,(256,20000))", "(256,(40,3)):(120,(1,40))"},         /* pairs, dst rows uneven at turns */
      {"((100,3),80):((1,100),300)", "((100,3),80):((96,10000),1)"},         /* pairs tile by tile, or none at a turn */
      {"(15,17,9):(-153,9,1)", "(15,17,9):(1,-15,255)"},                     /* odd 3-D permute, reversed modes */
      {"(40,30):(1,40)", "(40,30):(70,2)"},                                  /* every other src element, across rows: blocks */
  };
  static const size_t elems[] = {1, 2, 4, 8, 16, 6, 32};
  for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
    setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
    for (size_t k = 0; k < COUNT_OF(pairs); k++)
      for (size_t e = 0; e < COUNT_OF(elems); e++)
        for (int stores = 0; stores < 3; stores++) {
          cl_copy_options_t o = with_stores((cl_copy_stores_t)stores);
          check_copy(pairs[k][0], pairs[k][1], elems[e], 0, 0, &o);
          check_copy(pairs[k][0], pairs[k][1], elems[e], 64 - elems[e] % 64, 3, &o);
        }
  }
  unsetenv("CUTELAYOUT_COPY_ISA");
}

/* The streaming paths: a transpose to rows 256 bytes apart is staged, one to
 * rows a line apart streams tile by tile, a contiguous copy streams; each
 * copied correctly by each set, and cached for comparison. */
static const struct {
  const char *d, *s;
  size_t elem;
} streaming_cases[] = {
      {"(640,1024):(1,640)", "(640,1024):(1024,1)", 1},         /* staged */
      {"(600,1100):(1,640)", "(600,1100):(1100,1)", 1},         /* staged, ragged */
      {"(320,512):(1,320)", "(320,512):(512,1)", 2},            /* staged */
      {"(256,300):(1,256)", "(256,300):(300,1)", 4},            /* staged */
      {"(240,300):(1,256)", "(240,300):(300,1)", 4},            /* staged, ragged */
      {"(100,64,30):(1,3200,100)", "(100,64,30):(1920,1,64)", 4}, /* staged, long runs */
      {"(128,200):(1,128)", "(128,200):(200,1)", 8},            /* staged */
      {"(64,200):(1,64)", "(64,200):(200,1)", 16},              /* staged */
      {"(300,200):(1,304)", "(300,200):(200,1)", 4},            /* tiles streamed */
      {"(200,300):(1,208)", "(200,300):(300,1)", 1},            /* tiles streamed */
      {"(5000):(1)", "(5000):(1)", 4},                          /* one streamed memcpy */
      {"(700,100):(1,701)", "(700,100):(100,1)", 4},            /* staged, runs at every offset in a line */
      {"(3000,100):(1,3001)", "(3000,100):(100,1)", 1},         /* the same, narrow tiles */
      {"(1500,100):(1,1503)", "(1500,100):(100,1)", 2},         /* the same, 2-byte elements */
};

static void check_streaming_cases(void) {
  cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING), cached = with_stores(CL_COPY_STORES_CACHED);
  for (size_t k = 0; k < COUNT_OF(streaming_cases); k++) {
    const char *d = streaming_cases[k].d, *s = streaming_cases[k].s;
    size_t elem = streaming_cases[k].elem;
    for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
      setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
      check_copy(d, s, elem, 0, 0, &stream);
      check_copy(d, s, elem, 64 - elem, 5, &stream);
      check_copy(d, s, elem, 0, 0, &cached);
    }
    unsetenv("CUTELAYOUT_COPY_ISA");
  }
}

static void test_copy_streaming(void **state) {
  (void)state;
  check_streaming_cases();
}

/* Where staging is not chosen (copy_tune.c measures it), the
 * transposes that would be staged stream tile by tile: the same copies. */
static void test_copy_unstaged(void **state) {
  (void)state;
  setenv("CUTELAYOUT_COPY_STAGING", "0", 1);
  check_streaming_cases();
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
}

/* Tall strips (four tiles stacked, copy_plan.c), chosen by the
 * calibration where src rows lie back to back: permutations of 1- to
 * 16-byte elements with short src rows, some with a number of tiles along
 * i that four does not divide (the last strips stack two, then one) and
 * ragged edges, streamed and cached, on one thread and split; each against
 * the definition, with every kernel set.  Every choice is forced, so
 * nothing is measured or read. */
static void test_copy_tall(void **state) {
  (void)state;
  static const struct {
    const char *d, *s;
    size_t elem;
  } cases[] = {
      {"(112,20):(1,112)", "(112,20):(20,1)", 4},                /* 7 tiles along i: 4, 2, 1; ragged j */
      {"(40,24):(1,40)", "(40,24):(24,1)", 8},                   /* 5 tiles of 8 rows: 4, 1 */
      {"(44,9):(1,44)", "(44,9):(9,1)", 16},                     /* 11 tiles of 4 rows: 4, 4, 2, 1 */
      {"(64,32,24):(32,1,2048)", "(64,32,24):(768,24,1)", 4},    /* numpy's transpose(2,0,1) */
      {"(100,30,37):(30,1,3000)", "(100,30,37):(1110,37,1)", 4}, /* the same, ragged on both sides */
      /* 1- and 2-byte elements: stashed quads (AVX-512), then pairs or
       * one tile; else line tiles. */
      {"(4,256,64):(256,1,1024)", "(4,256,64):(16384,64,1)", 1},  /* 4 quads of 256 rows */
      {"(4,256,64):(256,1,1024)", "(4,256,64):(16384,64,1)", 2},  /* 8 quads of 128 rows */
      {"(8,40,96):(40,1,320)", "(8,40,96):(3840,96,1)", 1},       /* 320 rows: a quad, a tile; ragged j */
      {"(8,40,96):(40,1,320)", "(8,40,96):(3840,96,1)", 2},       /* 320 rows: two quads, a pair */
      {"(3,100,128):(100,1,300)", "(3,100,128):(12800,128,1)", 1}, /* 300 rows: a quad, ragged i */
      {"(3,100,128):(100,1,300)", "(3,100,128):(12800,128,1)", 2}, /* two quads, a tile, ragged i */
  };
  setenv("CUTELAYOUT_COPY_TUNE", "tall,narrow-tall,direct,prefetch,runs", 1);
  unsetenv("CUTELAYOUT_COPY_STAGING");
  cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING), cached = with_stores(CL_COPY_STORES_CACHED);
  cl_copy_options_t split = cached;
  split.threads = 3; /* 2 MiB and more: split between threads */
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
      setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 0, 0, &stream);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 0, 0, &cached);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 64 - cases[k].elem, 5, &cached);
    }
    unsetenv("CUTELAYOUT_COPY_ISA");
  }
  check_copy("(2000,272):(1,2000)", "(2000,272):(272,1)", 4, 0, 0, &split);
  check_copy("(2000,272):(1,2000)", "(2000,272):(272,1)", 4, 0, 0, &stream);
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
}

/* Strips that fetch their own src lines a few tiles ahead (ahead, chosen
 * by the calibration for src rows longer than 2 KiB): transposes of 1- to
 * 16-byte elements with long src rows, ragged on both sides, some with
 * fewer tiles along a row than the distance ahead, streamed and cached,
 * with every kernel set, against the definition. */
static void test_copy_ahead(void **state) {
  (void)state;
  static const struct {
    const char *d, *s;
    size_t elem;
  } cases[] = {
      {"(40,700):(1,40)", "(40,700):(700,1)", 4},       /* rows of 2800 bytes; 2 tiles and 8 rows along i */
      {"(33,300):(1,33)", "(33,300):(300,1)", 8},       /* rows of 2400 bytes */
      {"(20,200):(1,20)", "(20,200):(200,1)", 16},      /* rows of 3200 bytes */
      {"(130,3000):(1,130)", "(130,3000):(3000,1)", 1}, /* bytes: line tiles, or stashed where the set has them */
      {"(70,1100):(1,70)", "(70,1100):(1100,1)", 2},
      {"(64,130):(1,64)", "(64,130):(130,1)", 16},      /* 2080 bytes: fewer tiles than the distance ahead */
  };
  setenv("CUTELAYOUT_COPY_TUNE", "ahead,direct,noprefetch", 1);
  unsetenv("CUTELAYOUT_COPY_STAGING");
  cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING), cached = with_stores(CL_COPY_STORES_CACHED);
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
      setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 0, 0, &stream);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 0, 0, &cached);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 64 - cases[k].elem, 5, &cached);
    }
    unsetenv("CUTELAYOUT_COPY_ISA");
  }
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
}

/* Large enough for streaming stores by default (16 MiB written), with
 * ragged edges, on misaligned and aligned buffers. */
static void test_copy_large_transpose(void **state) {
  (void)state;
  const int64_t m = 2101, n = 2053, ld = 2064; /* rows of 2064 floats: a multiple of 64 bytes */
  for (int offset = 0; offset < 2; offset++) {
    float *a = malloc((size_t)(m * n + 1) * sizeof *a), *b = malloc((size_t)(m * ld + 16) * sizeof *b);
    for (int64_t i = 0; i < m * n + 1; i++)
      a[i] = (float)i;
    char dl[128], sl[128];
    snprintf(dl, sizeof dl, "(%lld,%lld):(%lld,1)", (long long)m, (long long)n, (long long)ld);
    snprintf(sl, sizeof sl, "(%lld,%lld):(1,%lld)", (long long)m, (long long)n, (long long)m);
    cl_tensor_t *dst = tensor(b + offset, CL_DTYPE_FLOAT32, dl), *src = tensor(a + offset, CL_DTYPE_FLOAT32, sl);
    char plan[512];
    assert_true(cl_tensor_copy_explain(dst, src, plan, sizeof plan) > 0);
    assert_non_null(strstr(plan, "non-temporal"));
    assert_int_equal(cl_tensor_copy(dst, src), CL_OK);
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++)
        if (b[offset + i * ld + j] != a[offset + i + j * m])
          fail_msg("transpose wrong at (%lld,%lld)", (long long)i, (long long)j);
    cl_tensor_free(dst);
    cl_tensor_free(src);
    free(a);
    free(b);
  }
}

static void test_copy_explain(void **state) {
  (void)state;
  float a[64], b[64];
  struct {
    const char *d, *s, *expect;
  } cases[] = {
      {"(8,8):(1,8)", "(8,8):(1,8)", "kernel memcpy, vector 64 x 4 bytes, modes ()"},
      {"(8,8):(8,1)", "(8,8):(1,8)",
       "kernel transpose, vector 1 x 4 bytes, modes (8:1<-8,8:8<-1), 8 dst-contiguous steps (1 mode) by 8 "
       "src-contiguous steps (1 mode), in tiles of 16x16, prefetched"},
      {"(4,8):(1,8)", "(4,8):(1,4)", "kernel strided, vector 4 x 4 bytes, modes (8:8<-4)"},
      {"(2,3):(1,2)", "(3,2):(1,3)", "kernel memcpy, vector 1 x 4 bytes, modes (), unrefined tails of 2 and 2 modes"},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    cl_tensor_t *dst = tensor(b, CL_DTYPE_FLOAT32, cases[k].d), *src = tensor(a, CL_DTYPE_FLOAT32, cases[k].s);
    char plan[256];
    int64_t n = cl_tensor_copy_explain(dst, src, plan, sizeof plan);
    assert_true(n > 0);
    if (strcmp(plan, cases[k].expect) != 0)
      fail_msg("plan for %s <- %s: '%s', expected '%s'", cases[k].d, cases[k].s, plan, cases[k].expect);
    assert_int_equal(cl_tensor_copy_explain(dst, src, NULL, 0), n); /* sizing call */
    cl_tensor_free(dst);
    cl_tensor_free(src);
  }
}

static void test_copy_errors(void **state) {
  (void)state;
  float buf[256];
  memset(buf, 0, sizeof buf);
  cl_tensor_t *a = tensor(buf, CL_DTYPE_FLOAT32, "(8,8):(1,8)");
  cl_tensor_t *b = tensor(buf + 64, CL_DTYPE_FLOAT32, "(8,4):(1,8)");
  assert_int_equal(cl_tensor_copy(a, b), CL_E_DOMAIN); /* sizes differ */
  cl_tensor_t *i32 = tensor(buf + 128, CL_DTYPE_INT32, "(8,8):(1,8)");
  assert_int_equal(cl_tensor_copy(a, i32), CL_E_TYPE); /* types differ */
  cl_tensor_t *d8 = raw_tensor(buf + 128, 8, "(8,4):(1,8)");
  double other[32];
  cl_tensor_t *h = raw_tensor(other, 8, "(8,4):(4,1)");
  assert_int_equal(cl_tensor_copy(b, d8), CL_E_TYPE); /* element sizes differ */
  assert_int_equal(cl_tensor_copy(d8, h), CL_OK);     /* untyped 8-byte elements */
  assert_int_equal(cl_tensor_copy(a, a), CL_E_OVERLAP); /* the same view */
  cl_tensor_t *shifted = tensor(buf + 9, CL_DTYPE_FLOAT32, "(8,8):(1,8)");
  assert_int_equal(cl_tensor_copy(shifted, a), CL_E_OVERLAP); /* shares elements */
  /* Interleaved but disjoint: even and odd columns of one matrix. */
  cl_tensor_t *even = tensor(buf, CL_DTYPE_FLOAT32, "(8,4):(1,16)"), *odd = tensor(buf + 8, CL_DTYPE_FLOAT32, "(8,4):(1,16)");
  for (int i = 0; i < 64; i++)
    buf[i] = (float)i;
  assert_int_equal(cl_tensor_copy(even, odd), CL_OK);
  for (int c = 0; c < 4; c++)
    for (int r = 0; r < 8; r++)
      assert_true(buf[16 * c + r] == (float)(16 * c + 8 + r));
  /* Byte-misaligned overlap: 4-byte elements shifted by 2 bytes. */
  cl_tensor_t *mis = raw_tensor((char *)buf + 2, 4, "(8,4):(1,16)");
  cl_tensor_t *evenr = raw_tensor(buf, 4, "(8,4):(1,16)");
  assert_int_equal(cl_tensor_copy(mis, evenr), CL_E_OVERLAP);
  cl_tensor_t *misodd = raw_tensor((char *)buf + 34, 4, "(4,4):(1,16)"), *evenq = raw_tensor(buf, 4, "(4,4):(1,16)");
  assert_int_equal(cl_tensor_copy(misodd, evenq), CL_OK); /* bytes 34.. vs 0..15: disjoint */
  /* A destination that is not injective. */
  cl_tensor_t *bcast = tensor(buf + 128, CL_DTYPE_FLOAT32, "(8,8):(1,0)");
  cl_tensor_t *folded = tensor(buf + 128, CL_DTYPE_FLOAT32, "(8,8):(1,7)");
  assert_int_equal(cl_tensor_copy(bcast, a), CL_E_OVERLAP);
  assert_int_equal(cl_tensor_copy(folded, a), CL_E_OVERLAP);
  /* Injective although the radix test cannot tell: proved exactly. */
  cl_tensor_t *odd_inj = tensor(buf + 128, CL_DTYPE_FLOAT32, "(3,2):(2,3)"), *six = tensor(buf, CL_DTYPE_FLOAT32, "6:1");
  assert_int_equal(cl_tensor_copy(odd_inj, six), CL_OK);
  assert_int_equal(cl_tensor_copy(NULL, a), CL_E_NULL);
  assert_int_equal(cl_tensor_copy(a, NULL), CL_E_NULL);
  char plan[64];
  assert_int_equal(cl_tensor_copy_explain(a, a, plan, sizeof plan), CL_E_OVERLAP);
  assert_int_equal(cl_tensor_copy_explain(NULL, a, plan, sizeof plan), CL_E_NULL);
  assert_int_equal(cl_tensor_copy_explain(a, b, NULL, 8), CL_E_NULL);
  cl_tensor_t *ts[] = {a, b, i32, d8, h, shifted, even, odd, mis, evenr, misodd, evenq, bcast, folded, odd_inj, six};
  for (size_t k = 0; k < COUNT_OF(ts); k++)
    cl_tensor_free(ts[k]);
}

/* cl_tensor_copy_ex's options: NULL and zeroed fields are the defaults, a
 * larger struct (a later version) is fine, a smaller one or an unknown
 * value is refused before anything is written. */
static void test_copy_options(void **state) {
  (void)state;
  float x[12], y[12];
  for (int i = 0; i < 12; i++)
    x[i] = (float)i;
  cl_tensor_t *dst = tensor(y, CL_DTYPE_FLOAT32, "(3,4):(4,1)"), *src = tensor(x, CL_DTYPE_FLOAT32, "(3,4):(1,3)");
  memset(y, 0, sizeof y);
  assert_int_equal(cl_tensor_copy_ex(dst, src, NULL), CL_OK);
  assert_true(y[1] == 3.0f && y[4] == 1.0f);
  struct {
    cl_copy_options_t o;
    char later_fields[32];
  } big;
  memset(&big, 0, sizeof big);
  big.o.struct_size = sizeof big;
  memset(y, 0, sizeof y);
  assert_int_equal(cl_tensor_copy_ex(dst, src, &big.o), CL_OK);
  assert_true(y[1] == 3.0f && y[11] == 11.0f);
  cl_copy_options_t o = with_stores(CL_COPY_STORES_STREAMING);
  o.struct_size = sizeof(size_t);
  memset(y, 0, sizeof y);
  assert_int_equal(cl_tensor_copy_ex(dst, src, &o), CL_E_ABI);
  o = with_stores((cl_copy_stores_t)3);
  assert_int_equal(cl_tensor_copy_ex(dst, src, &o), CL_E_DOMAIN);
  o = with_stores((cl_copy_stores_t)-1);
  assert_int_equal(cl_tensor_copy_ex(dst, src, &o), CL_E_DOMAIN);
  o = with_stores(CL_COPY_STORES_AUTO);
  o.threads = -1;
  assert_int_equal(cl_tensor_copy_ex(dst, src, &o), CL_E_DOMAIN);
  o.threads = CL_COPY_MAX_THREADS + 1;
  assert_int_equal(cl_tensor_copy_ex(dst, src, &o), CL_E_DOMAIN);
  for (int i = 0; i < 12; i++)
    assert_true(y[i] == 0.0f); /* refused: nothing written */
  o = with_stores(CL_COPY_STORES_AUTO);
  assert_int_equal(cl_tensor_copy_ex(NULL, src, &o), CL_E_NULL);
  assert_int_equal(cl_tensor_copy_ex(dst, NULL, &o), CL_E_NULL);
  cl_tensor_free(dst);
  cl_tensor_free(src);
}

/* The parallel copy: every way of splitting (the bytes of one memcpy, the
 * outer mode of the strided kernel, a transpose's j run or i run in tiles
 * and in staged blocks, an outer joint mode) with several thread counts,
 * each against the definition. */
static void test_copy_threads(void **state) {
  (void)state;
  static const struct {
    const char *d, *s;
    cl_copy_stores_t stores;
  } cases[] = {
      {"(1048576):(1)", "(1048576):(1)", CL_COPY_STORES_AUTO},                         /* one memcpy */
      {"(1000,1100):(1,1024)", "(1000,1100):(1,1000)", CL_COPY_STORES_STREAMING},      /* rows */
      {"(1024,1024):(1,1024)", "(1024,1024):(2,2048)", CL_COPY_STORES_AUTO},           /* strided */
      {"(1000,1100):(1100,1)", "(1000,1100):(1,1000)", CL_COPY_STORES_AUTO},           /* transpose */
      {"(512,4096):(1,512)", "(512,4096):(4096,1)", CL_COPY_STORES_STREAMING},         /* staged transpose */
      {"(4100,128):(1,4160)", "(4100,128):(128,1)", CL_COPY_STORES_STREAMING},         /* the same, split along i */
      {"(8190,64):(1,8192)", "(8190,64):(64,1)", CL_COPY_STORES_CACHED},               /* a transpose split along i */
      {"(32,16,32,32):(32,1040,1,16640)", "(32,16,32,32):(16384,1024,32,1)", CL_COPY_STORES_AUTO}, /* an outer mode */
      {"(3,2,174763):(2,1,6)", "(2,3,174763):(3,1,6)", CL_COPY_STORES_AUTO},           /* tails */
      {"(1100,1000):(1,1100)", "(1100,1000):(2003,2)", CL_COPY_STORES_AUTO},           /* gathered transpose */
      {"(1100,250):(1,1100)", "(1100,250):(503,2)", CL_COPY_STORES_AUTO},              /* the same, split along i */
      /* src rows of 256 bytes: along j each part would read under 1 KiB of
       * each, so along i */
      {"(64,64,256):(16384,1,64)", "(64,64,256):(1,64,4096)", CL_COPY_STORES_STREAMING},
      {"(133,8000):(1,133)", "(133,8000):(8000,1)", CL_COPY_STORES_STREAMING},         /* packed, if chosen: along j */
  };
  static const int counts[] = {2, 3, 7};
  for (size_t k = 0; k < COUNT_OF(cases); k++)
    for (size_t t = 0; t < COUNT_OF(counts); t++) {
      cl_copy_options_t o = with_stores(cases[k].stores);
      o.threads = counts[t];
      check_copy(cases[k].d, cases[k].s, 4, 0, (size_t)t, &o);
    }
  /* More threads than the work has pieces of 1 MiB. */
  cl_copy_options_t o = with_stores(CL_COPY_STORES_AUTO);
  o.threads = CL_COPY_MAX_THREADS;
  check_copy(cases[3].d, cases[3].s, 4, 0, 0, &o);
  /* The same copies through a pool, which outlives them: fewer threads
   * than pieces, as many, more. */
  static const int sizes[] = {1, 3, 8};
  for (size_t z = 0; z < COUNT_OF(sizes); z++) {
    cl_copy_pool_t *pool = NULL;
    assert_int_equal(cl_copy_pool_new(sizes[z], &pool), CL_OK);
    for (size_t k = 0; k < COUNT_OF(cases); k++) {
      cl_copy_options_t po = with_stores(cases[k].stores);
      po.threads = 4;
      po.pool = pool;
      check_copy(cases[k].d, cases[k].s, 4, 0, 0, &po);
    }
    cl_copy_pool_free(pool);
  }
}

/* A pool's errors; a struct of the first version (no pool) is accepted. */
static void test_copy_pool_errors(void **state) {
  (void)state;
  cl_copy_pool_t *pool = (cl_copy_pool_t *)&pool;
  assert_int_equal(cl_copy_pool_new(2, NULL), CL_E_NULL);
  assert_int_equal(cl_copy_pool_new(0, &pool), CL_E_DOMAIN);
  assert_null(pool);
  assert_int_equal(cl_copy_pool_new(CL_COPY_MAX_THREADS + 1, &pool), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "threads"));
  cl_copy_pool_free(NULL);
  assert_int_equal(cl_copy_pool_new(CL_COPY_MAX_THREADS, &pool), CL_OK);
  cl_copy_pool_free(pool);
  cl_copy_options_t v1 = with_stores(CL_COPY_STORES_AUTO);
  v1.threads = 2;
  v1.pool = (cl_copy_pool_t *)&v1; /* past struct_size: never read */
  v1.struct_size = offsetof(cl_copy_options_t, threads) + sizeof(int);
  check_copy("(1000,1100):(1100,1)", "(1000,1100):(1,1000)", 4, 0, 0, &v1);
}

/* Two threads copying through one pool at once take turns. */
typedef struct pool_user {
  cl_copy_pool_t *pool;
  cl_status status;
} pool_user;

static void *copy_through_pool(void *arg) {
  pool_user *u = arg;
  enum { M = 1000, N = 1100 };
  float *a = malloc(sizeof(float) * M * N), *b = malloc(sizeof(float) * M * N);
  for (int k = 0; k < M * N; k++)
    a[k] = (float)k;
  cl_tensor_t *d = tensor(b, CL_DTYPE_FLOAT32, "(1000,1100):(1100,1)"), *s = tensor(a, CL_DTYPE_FLOAT32, "(1000,1100):(1,1000)");
  cl_copy_options_t o = with_stores(CL_COPY_STORES_AUTO);
  o.threads = 3;
  o.pool = u->pool;
  u->status = CL_OK;
  for (int r = 0; r < 4 && u->status == CL_OK; r++) {
    u->status = cl_tensor_copy_ex(d, s, &o);
    for (int i = 0; i < M && u->status == CL_OK; i += 37)
      for (int j = 0; j < N; j += 41)
        if (b[i * N + j] != a[i + j * M])
          u->status = CL_E_DOMAIN;
  }
  cl_tensor_free(d);
  cl_tensor_free(s);
  free(a);
  free(b);
  return NULL;
}

static void test_copy_pool_shared(void **state) {
  (void)state;
  cl_copy_pool_t *pool = NULL;
  assert_int_equal(cl_copy_pool_new(2, &pool), CL_OK);
  pool_user u[2] = {{pool, CL_E_NULL}, {pool, CL_E_NULL}};
  pthread_t tid;
  assert_int_equal(pthread_create(&tid, NULL, copy_through_pool, &u[1]), 0);
  copy_through_pool(&u[0]);
  pthread_join(tid, NULL);
  assert_int_equal(u[0].status, CL_OK);
  assert_int_equal(u[1].status, CL_OK);
  cl_copy_pool_free(pool);
}

/* ------------------------------------------------------------ the plan */

static cl_copy_plan_t *plan_of(const cl_tensor_t *dst, const cl_tensor_t *src, const cl_copy_options_t *opt) {
  cl_copy_plan_t *p = calloc(1, sizeof *p);
  p->struct_size = sizeof *p;
  cl_status s = cl_tensor_copy_plan(dst, src, opt, p);
  if (s != CL_OK)
    fail_msg("cl_tensor_copy_plan = %d: %s", s, cl_last_error());
  return p;
}

/* The digit-weighted offset of position t of a tail: t's colexicographic
 * digits in the radices `extent`, times `stride`. */
static int64_t tail_offset(int64_t t, int64_t rank, const int64_t *extent, const int64_t *stride) {
  int64_t off = 0;
  for (int64_t k = 0; k < rank; k++) {
    off += t % extent[k] * stride[k];
    t /= extent[k];
  }
  return off;
}

/* Runs a plan as tensor.h defines it, unit by unit, from s0 to d0. */
static void run_plan_by_definition(const cl_copy_plan_t *p, unsigned char *d0, const unsigned char *s0) {
  if (p->kernel == CL_COPY_KERNEL_NONE)
    return;
  int64_t units = 1, tails = 1, unit = p->vector * p->elem_size;
  for (int64_t k = 0; k < p->rank; k++)
    units *= p->extent[k];
  for (int64_t k = 0; k < p->dst_tail_rank; k++)
    tails *= p->dst_tail_extent[k];
  for (int64_t t = 0; t < tails; t++)
    for (int64_t u = 0; u < units; u++) {
      int64_t od = p->dst_offset + tail_offset(t, p->dst_tail_rank, p->dst_tail_extent, p->dst_tail_stride);
      int64_t os = p->src_offset + tail_offset(t, p->src_tail_rank, p->src_tail_extent, p->src_tail_stride);
      od += tail_offset(u, p->rank, p->extent, p->dst_stride);
      os += tail_offset(u, p->rank, p->extent, p->src_stride);
      memcpy(d0 + od * p->elem_size, s0 + os * p->elem_size, (size_t)unit);
    }
}

/* The plan's definition (tensor.h) copies what the copy copies, for random
 * pairs of layouts of every kind, and its runs are what it says. */
static void check_plan(const char *ds, const char *ss, size_t elem) {
  cl_layout_t *dl = lay(ds), *sl = lay(ss);
  int64_t size = cl_layout_size(dl);
  int64_t *od = offsets(dl, size), *os = offsets(sl, size);
  int64_t dlo = 0, dhi = 0, slo = 0, shi = 0;
  for (int64_t i = 0; i < size; i++) {
    dlo = od[i] < dlo ? od[i] : dlo;
    dhi = od[i] > dhi ? od[i] : dhi;
    slo = os[i] < slo ? os[i] : slo;
    shi = os[i] > shi ? os[i] : shi;
  }
  size_t dn = (size_t)(dhi - dlo + 1) * elem, sn = (size_t)(shi - slo + 1) * elem;
  unsigned char *dbuf = malloc(dn), *expect = malloc(dn), *sbuf = malloc(sn);
  fill_random(sbuf, sn);
  memset(dbuf, 0x5A, dn);
  memcpy(expect, dbuf, dn);
  unsigned char *d0 = dbuf - dlo * (int64_t)elem, *s0 = sbuf - slo * (int64_t)elem;
  for (int64_t i = 0; i < size; i++)
    memcpy(expect + (od[i] - dlo) * (int64_t)elem, s0 + os[i] * (int64_t)elem, elem);
  cl_tensor_t *dst = raw_tensor(d0, elem, ds), *src = raw_tensor(s0, elem, ss);
  cl_copy_plan_t *p = plan_of(dst, src, NULL);
  assert_int_equal(p->elem_size, (int64_t)elem);
  run_plan_by_definition(p, d0, s0);
  if (memcmp(dbuf, expect, dn) != 0)
    fail_msg("the plan of %s <- %s (elem %zu) does not copy what the copy does", ds, ss, elem);
  if (p->kernel == CL_COPY_KERNEL_TRANSPOSE) {
    assert_int_equal(p->dst_stride[0], p->vector);
    bool gathered = (p->flags & CL_COPY_PLAN_GATHERED) != 0;
    assert_int_equal(p->src_stride[p->dst_run], gathered ? 2 * p->vector : p->vector);
    if (gathered)
      assert_int_equal(p->src_run, 1);
    for (int64_t k = 1; k < p->dst_run; k++)
      assert_int_equal(p->dst_stride[k], p->dst_stride[k - 1] * p->extent[k - 1]);
    for (int64_t k = p->dst_run + 1; k < p->dst_run + p->src_run; k++)
      assert_int_equal(p->src_stride[k], p->src_stride[k - 1] * p->extent[k - 1]);
  } else {
    assert_int_equal(p->dst_run + p->src_run, 0);
  }
  for (int64_t k = 0; k < p->rank; k++)
    assert_true(p->extent[k] >= 2 && p->dst_stride[k] > 0);
  free(p);
  cl_tensor_free(dst);
  cl_tensor_free(src);
  free(dbuf);
  free(expect);
  free(sbuf);
  free(od);
  free(os);
  cl_layout_free(dl);
  cl_layout_free(sl);
}

static void test_copy_plan_definition(void **state) {
  (void)state;
  static const int64_t sizes[] = {1, 2, 6, 12, 24, 36, 60, 64, 96, 128, 256, 360};
  static const size_t elems[] = {1, 2, 4, 8, 16, 3};
  char ds[512], ss[512];
  for (int round = 0; round < 600; round++) {
    int64_t size = sizes[rnd_below(COUNT_OF(sizes))];
    random_layout(ds, sizeof ds, size, 'd');
    random_layout(ss, sizeof ss, size, rnd_below(3) == 0 ? 'd' : 's');
    check_plan(ds, ss, elems[rnd_below(COUNT_OF(elems))]);
  }
  for (int round = 0; round < 60; round++) {
    int64_t rank = 2 + rnd_below(3), ext[4], dperm[4], sperm[4];
    for (int64_t k = 0; k < rank; k++) {
      ext[k] = 1 + rnd_below(rank == 2 ? 80 : 12);
      dperm[k] = sperm[k] = k;
    }
    shuffle(dperm, rank);
    shuffle(sperm, rank);
    permuted_layout(ds, sizeof ds, ext, dperm, rank, rnd_below(3), rnd_below(3) == 0);
    permuted_layout(ss, sizeof ss, ext, sperm, rank, rnd_below(3), rnd_below(3) == 0);
    check_plan(ds, ss, elems[rnd_below(COUNT_OF(elems))]);
  }
}

/* Plans with known answers, derived by hand from the definition. */
static void test_copy_plan_examples(void **state) {
  (void)state;
  float a[64], b[64];
  /* A transpose: dst row-major 8x8 from column-major; the dst-contiguous run
   * is mode 1 (dst stride 1, src stride 8), the src-contiguous run mode 0. */
  cl_tensor_t *dst = tensor(b, CL_DTYPE_FLOAT32, "(8,8):(8,1)"), *src = tensor(a, CL_DTYPE_FLOAT32, "(8,8):(1,8)");
  cl_copy_plan_t *p = plan_of(dst, src, NULL);
  assert_int_equal(p->kernel, CL_COPY_KERNEL_TRANSPOSE);
  assert_int_equal(p->rank, 2);
  assert_int_equal(p->dst_run, 1);
  assert_int_equal(p->src_run, 1);
  assert_true(p->extent[0] == 8 && p->dst_stride[0] == 1 && p->src_stride[0] == 8);
  assert_true(p->extent[1] == 8 && p->dst_stride[1] == 8 && p->src_stride[1] == 1);
  assert_true(p->vector == 1 && p->elem_size == 4 && p->dst_offset == 0 && p->src_offset == 0);
  assert_int_equal(p->dst_tail_rank + p->src_tail_rank, 0);
  free(p);
  cl_tensor_free(dst);
  cl_tensor_free(src);
  /* Columns of 4 contiguous in both: a vector of 4, one strided mode. */
  dst = tensor(b, CL_DTYPE_FLOAT32, "(4,8):(1,8)");
  src = tensor(a, CL_DTYPE_FLOAT32, "(4,8):(1,4)");
  p = plan_of(dst, src, NULL);
  assert_int_equal(p->kernel, CL_COPY_KERNEL_STRIDED);
  assert_true(p->vector == 4 && p->rank == 1 && p->extent[0] == 8 && p->dst_stride[0] == 8 && p->src_stride[0] == 4);
  free(p);
  cl_tensor_free(dst);
  cl_tensor_free(src);
  /* A reversed source: dst 12:1 from 12:-1 -- the flip keeps dst positive,
   * so the first element read is the source's offset -11. */
  dst = tensor(b, CL_DTYPE_FLOAT32, "12:-1");
  src = tensor(a + 11, CL_DTYPE_FLOAT32, "12:1");
  p = plan_of(dst, src, NULL);
  assert_int_equal(p->kernel, CL_COPY_KERNEL_STRIDED);
  assert_true(p->rank == 1 && p->extent[0] == 12 && p->dst_stride[0] == 1 && p->src_stride[0] == -1);
  assert_true(p->dst_offset == -11 && p->src_offset == 11);
  free(p);
  cl_tensor_free(dst);
  cl_tensor_free(src);
  /* No common refinement: everything is tails; (2,3) against (3,2). */
  dst = tensor(b, CL_DTYPE_FLOAT32, "(2,3):(1,2)");
  src = tensor(a, CL_DTYPE_FLOAT32, "(3,2):(1,3)");
  p = plan_of(dst, src, NULL);
  assert_int_equal(p->kernel, CL_COPY_KERNEL_MEMCPY);
  assert_true(p->rank == 0 && p->dst_tail_rank == 2 && p->src_tail_rank == 2);
  assert_true(p->dst_tail_extent[0] == 2 && p->dst_tail_stride[0] == 1 && p->dst_tail_extent[1] == 3 &&
              p->dst_tail_stride[1] == 2);
  assert_true(p->src_tail_extent[0] == 3 && p->src_tail_stride[0] == 1 && p->src_tail_extent[1] == 2 &&
              p->src_tail_stride[1] == 3);
  free(p);
  cl_tensor_free(dst);
  cl_tensor_free(src);
  /* Size 0. */
  dst = tensor(NULL, CL_DTYPE_INT32, "(4,0):(1,4)");
  src = tensor(NULL, CL_DTYPE_INT32, "(0,3):(3,1)");
  p = plan_of(dst, src, NULL);
  assert_true(p->kernel == CL_COPY_KERNEL_NONE && p->rank == 0 && p->elem_size == 4);
  free(p);
  cl_tensor_free(dst);
  cl_tensor_free(src);
}

/* The flags of the plan for copying src_text over src_mem to dst_text over
 * dst_mem, elements of type t. */
static unsigned flags_of(void *dst_mem, void *src_mem, cl_dtype t, const char *dst_text, const char *src_text,
                         const cl_copy_options_t *opt) {
  cl_tensor_t *dst = tensor(dst_mem, t, dst_text), *src = tensor(src_mem, t, src_text);
  cl_copy_plan_t *p = plan_of(dst, src, opt);
  unsigned flags = p->flags;
  free(p);
  cl_tensor_free(dst);
  cl_tensor_free(src);
  return flags;
}

/* How the host copy stores, as the plan says: streaming when asked or at 16
 * MiB, staged for rows 256 bytes apart, prefetched for short rows. */
static void test_copy_plan_flags(void **state) {
  (void)state;
  static float a[304 * 300], b[304 * 300];
  const cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING), cached = with_stores(CL_COPY_STORES_CACHED);
  const unsigned STREAMING = CL_COPY_PLAN_STREAMING, STAGED = CL_COPY_PLAN_STAGED, PREFETCH = CL_COPY_PLAN_PREFETCH;
  const char *d = "(128,600):(1,128)", *s = "(128,600):(600,1)"; /* dst rows 512 bytes apart */
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, d, s, &stream), STREAMING | STAGED);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, d, s, &cached), 0u);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, d, s, NULL), 0u); /* 300 KiB: cached by default */
  /* Staging only where it was chosen for this processor, or
   * CUTELAYOUT_COPY_STAGING says so; an unknown value leaves the choice. */
  setenv("CUTELAYOUT_COPY_STAGING", "0", 1);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, d, s, &stream), STREAMING);
  setenv("CUTELAYOUT_COPY_STAGING", "yes", 1);
  unsigned unknown = flags_of(b, a, CL_DTYPE_FLOAT32, d, s, &stream);
  unsetenv("CUTELAYOUT_COPY_STAGING");
  unsigned chosen = flags_of(b, a, CL_DTYPE_FLOAT32, d, s, &stream);
  assert_int_equal(unknown, chosen);
  assert_true(chosen == STREAMING || chosen == (STREAMING | STAGED));
  /* 1-byte elements likewise (rows of 1 KiB with gaps: prefetched as well). */
  const char *d8 = "(256,1024):(1,256)", *s8 = "(256,1024):(1040,1)";
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, d8, s8, &stream), STREAMING | STAGED | PREFETCH);
  setenv("CUTELAYOUT_COPY_STAGING", "0", 1);
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, d8, s8, &stream), STREAMING | PREFETCH);
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
  /* Rows 144 floats apart: streamed tile by tile, not staged. */
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, "(128,600):(1,144)", s, &stream), STREAMING);
  /* Short source rows (64 floats): prefetched; rows of 2 KiB are still
   * short; rows of 4 KiB are streams. */
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, "(1000,64):(1,1000)", "(1000,64):(64,1)", &cached), PREFETCH);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, "(160,512):(1,160)", "(160,512):(512,1)", &cached), PREFETCH);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, "(80,1024):(1,80)", "(80,1024):(1024,1)", &cached), 0u);
  /* Short rows of bytes or 2-byte elements back to back are read in
   * address order: not prefetched, unless a strip reads only part of each
   * (bytes past a chunk of 1024 steps), or they have gaps, or the i run
   * crosses modes. */
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, "(100,1024):(1,100)", "(100,1024):(1024,1)", &cached), 0u);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT16, "(100,1024):(1,100)", "(100,1024):(1024,1)", &cached), 0u);
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, "(100,2048):(1,100)", "(100,2048):(2048,1)", &cached), PREFETCH);
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, "(100,1024):(1,100)", "(100,1024):(1040,1)", &cached), PREFETCH);
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, "((8,8),64):((1,8),64)", "((8,8),64):((64,1024),1)", &cached),
                   PREFETCH);
}

/* Rows at odd pitches too few to fill the staging buffer with runs of
 * their length (185 rows of 1 KiB: 256 KiB would take runs of 1280 bytes)
 * still stream as runs, each run a whole row; the copies are right with
 * every instruction set, and at a shifted base. */
static void test_copy_short_odd_rows(void **state) {
  (void)state;
  static double a[128 * 185], b[131 * 185];
  const cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING);
  const unsigned RUNS = CL_COPY_PLAN_STREAMING | CL_COPY_PLAN_STAGED;
  const char *d = "(128,185):(1,131)", *s = "(128,185):(185,1)";
  setenv("CUTELAYOUT_COPY_TUNE", "runs", 1);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT64, d, s, &stream) & RUNS, RUNS);
  /* Rows of 300 bytes: runs of 256 bytes, the rest of each row edges. */
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, "(300,185):(1,301)", "(300,185):(185,1)", &stream) & RUNS, RUNS);
  /* Rows under 256 bytes are written tile by tile. */
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, "(200,185):(1,201)", "(200,185):(185,1)", &stream) & RUNS, 0u);
  for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
    setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
    check_copy(d, s, 8, 0, 0, &stream);
    check_copy(d, s, 8, 56, 3, &stream);
    check_copy("(300,185):(1,301)", "(300,185):(185,1)", 1, 0, 0, &stream);
    check_copy("(300,185):(1,301)", "(300,185):(185,1)", 1, 63, 5, &stream);
  }
  unsetenv("CUTELAYOUT_COPY_ISA");
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
}

/* A gathered transpose (src rows of every other element) into short dst
 * rows back to back is packed as well: gathered into the staging buffer,
 * streamed out whole; right for every element size and instruction set,
 * and split between threads (4.8 MB: three parts along the outer mode). */
static void test_copy_packed_gathers(void **state) {
  (void)state;
  static unsigned char a[1 << 20], b[1 << 20];
  const cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING);
  const char *d = "(100,300):(1,100)", *s = "(100,300):(601,2)";
  const unsigned PACKED = CL_COPY_PLAN_STREAMING | CL_COPY_PLAN_STAGED | CL_COPY_PLAN_GATHERED;
  setenv("CUTELAYOUT_COPY_TUNE", "packed", 1);
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, d, s, &stream), PACKED);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, d, s, &stream), PACKED);
  setenv("CUTELAYOUT_COPY_TUNE", "nopacked", 1);
  assert_int_equal(flags_of(b, a, CL_DTYPE_UINT8, d, s, &stream), CL_COPY_PLAN_GATHERED);
  setenv("CUTELAYOUT_COPY_TUNE", "packed", 1);
  static const size_t elems[] = {1, 2, 4, 8, 16};
  cl_copy_options_t split = stream;
  split.threads = 3;
  for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
    setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
    for (size_t e = 0; e < COUNT_OF(elems); e++) {
      check_copy(d, s, elems[e], 0, 0, &stream);
      check_copy(d, s, elems[e], 64 - elems[e], 3, &stream);
      check_copy("(70,(64,9)):(1,(70,4480))", "(70,(64,9)):(1283,(2,128))", elems[e], 0, 0, &stream);
    }
  }
  unsetenv("CUTELAYOUT_COPY_ISA");
  check_copy("(100,(300,40)):(1,(100,30000))", "(100,(300,40)):(601,(2,60100))", 4, 0, 0, &split);
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
}

/* A strided copy whose dst-fastest mode is short (an image's 3 channels,
 * NCHW -> NHWC) runs the long src-contiguous mode (W) as its inner loop and
 * the channels outside it; a short W x H keeps the order; both copy
 * right. */
static void test_copy_short_inner(void **state) {
  (void)state;
  static const char *const cases[][4] = {
      /* dst (NHWC), src (NCHW), extent[0], extent[1] of the plan */
      {"(40,6,3,2):(3,120,1,720)", "(40,6,3,2):(1,40,240,720)", "240", "3"}, /* W and H merged: 240 */
      {"(2,3,3,2):(3,6,1,18)", "(2,3,3,2):(1,2,6,18)", "3", "6"},
  };
  static unsigned char a[8192], b[8192];
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    check_copy(cases[k][0], cases[k][1], 1, 0, 0, NULL);
    check_copy(cases[k][0], cases[k][1], 4, 0, 0, NULL);
    cl_tensor_t *d = tensor(b, CL_DTYPE_UINT8, cases[k][0]), *s = tensor(a, CL_DTYPE_UINT8, cases[k][1]);
    cl_copy_plan_t *p = calloc(1, sizeof *p);
    p->struct_size = sizeof *p;
    assert_int_equal(cl_tensor_copy_plan(d, s, NULL, p), CL_OK);
    assert_int_equal(p->kernel, CL_COPY_KERNEL_STRIDED);
    assert_int_equal(p->extent[0], atoi(cases[k][2]));
    assert_int_equal(p->extent[1], atoi(cases[k][3]));
    free(p);
    cl_tensor_free(d);
    cl_tensor_free(s);
  }
}

/* A few channels (an image's pixels, NCHW <-> NHWC): the interleave and
 * deinterleave kernels of every set, for 2, 3 and 4 channels of every
 * element size they take (and sizes they do not, which the strided loop
 * copies), pixel counts with and without a whole block (64) and a
 * remainder, planes gapped, in reverse, and inside an outer mode, on
 * element-misaligned buffers; split between threads along the pixels;
 * and the plan: strided, pixels inside, channels outside. */
static void test_copy_channels(void **state) {
  (void)state;
  static const size_t elems[] = {1, 2, 4, 8, 16, 3};
  static const int64_t pixels[] = {16, 131, 64};
  char packed[96], planar[96];
  for (int64_t c = 2; c <= 4; c++)
    for (size_t n = 0; n < COUNT_OF(pixels); n++) {
      const int64_t w = pixels[n], plane = w + 5;
      const char *const shapes[][2] = {
          {"(%lld,%lld):(%lld,1)", "(%lld,%lld):(1,%lld)"},
          {"(%lld,%lld):(%lld,1)", "(%lld,%lld):(1,-%lld)"},
          {"(%lld,(%lld,2)):(%lld,(1,7000))", "(%lld,(%lld,2)):(1,(%lld,9000))"},
      };
      for (size_t k = 0; k < COUNT_OF(shapes); k++) {
        snprintf(packed, sizeof packed, shapes[k][0], (long long)w, (long long)c, (long long)c);
        snprintf(planar, sizeof planar, shapes[k][1], (long long)w, (long long)c, (long long)plane);
        for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
          setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
          for (size_t e = 0; e < COUNT_OF(elems); e++) {
            check_copy(packed, planar, elems[e], 0, 0, NULL); /* interleave */
            check_copy(planar, packed, elems[e], 0, 0, NULL); /* deinterleave */
            check_copy(packed, planar, elems[e], 1, 3, NULL);
            check_copy(planar, packed, elems[e], 3, 1, NULL);
          }
        }
        unsetenv("CUTELAYOUT_COPY_ISA");
      }
    }
  /* Threads: 3 planes of 2^19 float pixels each way, split along them. */
  static const char *const big[][2] = {
      {"(524288,3):(3,1)", "(524288,3):(1,524300)"},
      {"(524288,3):(1,524300)", "(524288,3):(3,1)"},
  };
  for (size_t k = 0; k < COUNT_OF(big); k++)
    for (int t = 2; t <= 5; t += 3) {
      cl_copy_options_t o = with_stores(CL_COPY_STORES_AUTO);
      o.threads = t;
      check_copy(big[k][0], big[k][1], 4, 0, 0, &o);
    }
  /* The plan: m[0] the pixels, m[1] the channels, each way. */
  static unsigned char a[4096], b[4096];
  static const char *const plans[][2] = {
      {"(100,3,2):(3,1,300)", "(100,3,2):(1,100,300)"},
      {"(100,3,2):(1,100,300)", "(100,3,2):(3,1,300)"},
  };
  for (size_t k = 0; k < COUNT_OF(plans); k++) {
    cl_tensor_t *d = tensor(b, CL_DTYPE_UINT8, plans[k][0]), *s = tensor(a, CL_DTYPE_UINT8, plans[k][1]);
    cl_copy_plan_t *p = calloc(1, sizeof *p);
    p->struct_size = sizeof *p;
    assert_int_equal(cl_tensor_copy_plan(d, s, NULL, p), CL_OK);
    assert_int_equal(p->kernel, CL_COPY_KERNEL_STRIDED);
    assert_int_equal(p->extent[0], 100);
    assert_int_equal(p->extent[1], 3);
    free(p);
    cl_tensor_free(d);
    cl_tensor_free(s);
  }
}

/* How the runs take the modes that continue them:
 *   - a mode that continues the dst run but would take it past 2^16 steps
 *     is split, its first factor joining the run (4 x 10000 dst-contiguous
 *     steps); a prime extent cannot be split and stays out, and a run of a
 *     tile's side or more takes no part of it (the mode joins the src run
 *     instead);
 *   - the src run, grown last, splits such a mode whenever its tiles would
 *     be ragged: 20 float steps (tiles of 16) take 2100 of the 4200 that
 *     continue them (4200 = 2 x 2100, the largest divisor within 2^16 / 20
 *     steps), where they took none;
 *   - a src run narrower than a tile (19 bytes) gets the last mode the dst
 *     run took, when that mode continues it and the dst run keeps a tile's
 *     side (100 x 16 -> 100, 19 -> 19 x 16).
 * All copy right with every set. */
static void test_copy_run_split(void **state) {
  (void)state;
  static const struct {
    const char *dst, *src;
    size_t elem;
    int64_t dst_run, src_run, extent, at; /* extent: of plan mode `at`, when not 0 */
  } cases[] = {
      {"(4,20000,5):(1,4,80000)", "(4,20000,5):(100000,5,1)", 1, 2, 1, 10000, 1},
      {"(4,16411,5):(1,4,65644)", "(4,16411,5):(82055,5,1)", 1, 1, 1, 0, 0},
      {"(100,1000,5):(1,100,100000)", "(100,1000,5):(5000,5,1)", 1, 1, 2, 1000, 2},
      {"(16,20,4200):(1,67200,16)", "(16,20,4200):(84000,1,20)", 4, 1, 2, 2100, 2},
      {"(100,16,19):(1,100,1600)", "(100,16,19):(304,19,1)", 1, 1, 2, 16, 2},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
      setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
      check_copy(cases[k].dst, cases[k].src, cases[k].elem, 0, 0, NULL);
    }
    unsetenv("CUTELAYOUT_COPY_ISA");
    check_copy(cases[k].dst, cases[k].src, cases[k].elem, 3 * cases[k].elem, cases[k].elem, NULL);
    cl_layout_t *dl = lay(cases[k].dst), *sl = lay(cases[k].src);
    cl_tensor_t *d = NULL, *s = NULL;
    size_t half = (size_t)16 << 20; /* both footprints, apart; the plan reads neither */
    char *buf = malloc(2 * half);
    assert_int_equal(cl_tensor_new(buf, cases[k].elem, dl, &d), CL_OK);
    assert_int_equal(cl_tensor_new(buf + half, cases[k].elem, sl, &s), CL_OK);
    cl_copy_plan_t *p = plan_of(d, s, NULL);
    assert_int_equal(p->kernel, CL_COPY_KERNEL_TRANSPOSE);
    assert_int_equal(p->dst_run, cases[k].dst_run);
    assert_int_equal(p->src_run, cases[k].src_run);
    if (cases[k].extent)
      assert_int_equal(p->extent[cases[k].at], cases[k].extent);
    free(p);
    cl_tensor_free(d);
    cl_tensor_free(s);
    cl_layout_free(dl);
    cl_layout_free(sl);
    free(buf);
  }
}

/* A strided copy of elements too large for a tile (32 bytes), whose inner
 * mode is dst's unit mode, takes the mode along which src is contiguous
 * second, where the dst order put it last: dst A-B-C, src C-B-A, plan
 * modes A, C, B.  A copy whose second mode is src's already (src rows
 * padded, so that C and B do not merge) keeps its order. */
static void test_copy_strided_src_run(void **state) {
  (void)state;
  static const struct {
    const char *dst, *src;
    int64_t extent[3];
  } cases[] = {
      {"(16,12,7):(1,16,192)", "(16,12,7):(84,7,1)", {16, 7, 12}},
      {"(16,7,12):(1,16,112)", "(16,7,12):(100,1,8)", {16, 7, 12}},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
      setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
      check_copy(cases[k].dst, cases[k].src, 32, 0, 0, NULL);
    }
    unsetenv("CUTELAYOUT_COPY_ISA");
    static char dbuf[1344 * 32], sbuf[1600 * 32];
    cl_tensor_t *d = raw_tensor(dbuf, 32, cases[k].dst), *s = raw_tensor(sbuf, 32, cases[k].src);
    cl_copy_plan_t *p = plan_of(d, s, NULL);
    assert_int_equal(p->kernel, CL_COPY_KERNEL_STRIDED);
    assert_int_equal(p->rank, 3);
    for (int64_t m = 0; m < 3; m++)
      assert_int_equal(p->extent[m], cases[k].extent[m]);
    assert_int_equal(p->dst_stride[0], 1);
    assert_int_equal(p->src_stride[1], 1);
    free(p);
    cl_tensor_free(d);
    cl_tensor_free(s);
  }
}

/* Staged transposes of 1- and 2-byte elements filled with line tiles
 * (narrow-lines, chosen by the calibration) as well as narrow tiles: rows
 * a multiple of 256 bytes apart (staged) and at odd pitches (runs), ragged
 * on both sides, streamed, with every kernel set and split between
 * threads, against the definition. */
static void test_copy_narrow_lines(void **state) {
  (void)state;
  static const struct {
    const char *d, *s;
    size_t elem;
  } cases[] = {
      {"(1024,300):(1,1024)", "(1024,300):(300,1)", 1},   /* rows 1 KiB apart: staged */
      {"(1000,300):(1,1001)", "(1000,300):(300,1)", 1},   /* odd pitch: runs; ragged i */
      {"(512,300):(1,512)", "(512,300):(300,1)", 2},
      {"(700,130):(1,703)", "(700,130):(130,1)", 2},
  };
  static const char *const tunes[] = {"narrow-lines,narrow-staged,runs", "narrow-nolines,narrow-staged,runs"};
  cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING);
  cl_copy_options_t split = stream;
  split.threads = 2;
  for (size_t t = 0; t < COUNT_OF(tunes); t++) {
    setenv("CUTELAYOUT_COPY_TUNE", tunes[t], 1);
    for (size_t k = 0; k < COUNT_OF(cases); k++) {
      for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
        setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
        check_copy(cases[k].d, cases[k].s, cases[k].elem, 0, 0, &stream);
        check_copy(cases[k].d, cases[k].s, cases[k].elem, 64 - cases[k].elem, 3, &stream);
      }
      unsetenv("CUTELAYOUT_COPY_ISA");
    }
    check_copy("(2048,1100):(1,2048)", "(2048,1100):(1100,1)", 1, 0, 0, &split);
  }
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
}

/* Packed transposes (packed, chosen by the calibration for short dst rows
 * back to back): blocks of whole rows transposed into the staging buffer,
 * each streamed out as one run.  Rows of 1- to 16-byte elements, ragged on
 * both sides, blocks cut short where the j run's first mode turns (rows of
 * 50 back to back, groups of them padded apart), several blocks and a
 * ragged last one, on misaligned buffers, with every kernel set and split
 * between threads, against the definition; the plan says staged and
 * streaming, cached stores leave it an ordinary transpose. */
static void test_copy_packed(void **state) {
  (void)state;
  static const struct {
    const char *d, *s;
    size_t elem;
  } cases[] = {
      {"(133,3000):(1,133)", "(133,3000):(3000,1)", 2},          /* rows of 266 bytes, blocks of 960 */
      {"(20,50,40):(1,20,1100)", "(20,50,40):(2000,1,50)", 4},   /* blocks cut at every 50 rows */
      {"(37,4000):(1,37)", "(37,4000):(4000,1)", 8},             /* ragged i */
      {"(100,5000):(1,100)", "(100,5000):(5000,1)", 1},          /* bytes, rows of 100 */
      {"(9,3000):(1,9)", "(9,3000):(3000,1)", 16},               /* 144-byte rows */
      {"(8,8,600):(1,8,64)", "(8,8,600):(600,5400,1)", 8},       /* an i run of two modes: rows of 512 bytes */
  };
  setenv("CUTELAYOUT_COPY_TUNE", "packed", 1);
  cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING), cached = with_stores(CL_COPY_STORES_CACHED);
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
      setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 0, 0, &stream);
      check_copy(cases[k].d, cases[k].s, cases[k].elem, 64 - cases[k].elem, 5, &stream);
    }
    unsetenv("CUTELAYOUT_COPY_ISA");
    check_copy(cases[k].d, cases[k].s, cases[k].elem, 0, 0, &cached);
    static char dbuf[1 << 21], sbuf[1 << 21];
    cl_tensor_t *d = raw_tensor(dbuf, cases[k].elem, cases[k].d), *s = raw_tensor(sbuf, cases[k].elem, cases[k].s);
    cl_copy_plan_t *p = plan_of(d, s, &stream);
    if ((p->flags & (CL_COPY_PLAN_STAGED | CL_COPY_PLAN_STREAMING)) != (CL_COPY_PLAN_STAGED | CL_COPY_PLAN_STREAMING)) {
      char plan[512];
      cl_tensor_copy_explain(d, s, plan, sizeof plan);
      fail_msg("%s <- %s: not packed: %s", cases[k].d, cases[k].s, plan);
    }
    free(p);
    p = plan_of(d, s, &cached);
    assert_int_equal(p->flags & (CL_COPY_PLAN_STAGED | CL_COPY_PLAN_STREAMING), 0);
    free(p);
    cl_tensor_free(d);
    cl_tensor_free(s);
  }
  cl_copy_options_t split = stream;
  split.threads = 3; /* 3.2 MiB: three parts, each a range of rows */
  check_copy("(133,12000):(1,133)", "(133,12000):(12000,1)", 2, 0, 0, &split);
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
}

static void test_copy_plan_errors(void **state) {
  (void)state;
  float buf[128];
  cl_tensor_t *a = tensor(buf, CL_DTYPE_FLOAT32, "(8,8):(1,8)"), *b = tensor(buf + 64, CL_DTYPE_FLOAT32, "(8,8):(8,1)");
  cl_tensor_t *shifted = tensor(buf + 9, CL_DTYPE_FLOAT32, "(8,8):(1,8)"), *small = tensor(buf, CL_DTYPE_FLOAT32, "8:1");
  cl_copy_plan_t *p = calloc(1, sizeof *p);
  p->struct_size = sizeof *p;
  assert_int_equal(cl_tensor_copy_plan(NULL, a, NULL, p), CL_E_NULL);
  assert_int_equal(cl_tensor_copy_plan(b, NULL, NULL, p), CL_E_NULL);
  assert_int_equal(cl_tensor_copy_plan(b, a, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_tensor_copy_plan(shifted, a, NULL, p), CL_E_OVERLAP);
  assert_int_equal(cl_tensor_copy_plan(small, a, NULL, p), CL_E_DOMAIN);
  cl_copy_options_t o = with_stores(CL_COPY_STORES_AUTO);
  o.threads = -1;
  assert_int_equal(cl_tensor_copy_plan(b, a, &o, p), CL_E_DOMAIN);
  p->struct_size = sizeof *p - 1;
  assert_int_equal(cl_tensor_copy_plan(b, a, NULL, p), CL_E_ABI);
  p->struct_size = sizeof *p;
  assert_int_equal(cl_tensor_copy_plan(b, a, NULL, p), CL_OK);
  assert_int_equal(p->struct_size, sizeof *p);
  free(p);
  cl_tensor_free(a);
  cl_tensor_free(b);
  cl_tensor_free(shifted);
  cl_tensor_free(small);
}

/* An unknown CUTELAYOUT_COPY_ISA is ignored, not an error. */
static void test_copy_isa_names(void **state) {
  (void)state;
  static const char *const names[] = {"avx1024", "", "SSE2", "none"};
  for (size_t k = 0; k < COUNT_OF(names); k++) {
    setenv("CUTELAYOUT_COPY_ISA", names[k], 1);
    check_copy("(64,48):(48,1)", "(64,48):(1,64)", 4, 0, 0, NULL);
  }
  unsetenv("CUTELAYOUT_COPY_ISA");
}

/* Copies of size 0 succeed and touch nothing. */
static void test_copy_empty(void **state) {
  (void)state;
  cl_tensor_t *a = tensor(NULL, CL_DTYPE_INT32, "(4,0):(1,4)"), *b = tensor(NULL, CL_DTYPE_INT32, "(0,3):(3,1)");
  assert_int_equal(cl_tensor_copy(a, b), CL_OK);
  char plan[64];
  assert_true(cl_tensor_copy_explain(a, b, plan, sizeof plan) > 0);
  assert_string_equal(plan, "nothing to copy (size 0)");
  cl_tensor_free(a);
  cl_tensor_free(b);
}

/* Slices of every other element and short source rows, for every
 * element size and set, with odd extents, misaligned bases and each way of
 * storing:
 *   - dst contiguous, src every other element (the strided kernel's
 *     compaction), rows of fewer elements than a vector holds, of a whole
 *     number of vectors and of a remainder;
 *   - transposes whose src rows hold fewer elements than a line tile's
 *     side, or a ragged remainder past whole tiles (short tiles, moved back
 *     to end on the edge), dst rows aligned to a line (streamed) or not;
 *   - transposes whose src run takes every other element (gathered),
 *     narrower than a tile, of one buffer's width (256 steps) and past it,
 *     rows from one to several tiles high. */
static void test_copy_gathers(void **state) {
  (void)state;
  static const size_t elems[] = {1, 2, 4, 8, 16, 3};
  static const int64_t rows[] = {1, 7, 64, 65, 130, 300};
  static const int64_t heights[] = {5, 64, 70, 131};
  static const int64_t widths[] = {2, 4, 9, 17, 31, 33, 63, 64, 65, 70, 127, 256, 300};
  char ds[96], ss[96];
  for (size_t isa = 0; isa < COUNT_OF(isas); isa++) {
    setenv("CUTELAYOUT_COPY_ISA", isas[isa], 1);
    for (size_t e = 0; e < COUNT_OF(elems); e++) {
      cl_copy_options_t o = with_stores((cl_copy_stores_t)(e % 3));
      for (size_t k = 0; k < COUNT_OF(rows); k++) {
        long long n = rows[k];
        snprintf(ds, sizeof ds, "(%lld,3):(1,%lld)", n, n + 1);
        snprintf(ss, sizeof ss, "(%lld,3):(2,%lld)", n, 2 * n + 5);
        check_copy(ds, ss, elems[e], 0, 0, &o);
        check_copy(ds, ss, elems[e], 3, 1, &o);
      }
      for (size_t h = 0; h < COUNT_OF(heights); h++)
        for (size_t k = 0; k < COUNT_OF(widths); k++) {
          long long I = heights[h], J = widths[k];
          /* Short tiles: dst rows I apart (a line apart for I = 64). */
          snprintf(ds, sizeof ds, "(%lld,%lld):(1,%lld)", I, J, I);
          snprintf(ss, sizeof ss, "(%lld,%lld):(%lld,1)", I, J, J + (I % 2));
          check_copy(ds, ss, elems[e], 0, 5, &o);
          /* Gathered: src rows 2 J + 3 apart, every other element. */
          snprintf(ss, sizeof ss, "(%lld,%lld):(%lld,2)", I, J, 2 * J + 3);
          check_copy(ds, ss, elems[e], 0, 0, &o);
          check_copy(ds, ss, elems[e], 1, 7, &o);
        }
      /* Short tiles streamed, dst rows a line apart at every size. */
      cl_copy_options_t st = with_stores(CL_COPY_STORES_STREAMING);
      long long S = 64 / (long long)elems[e];
      snprintf(ds, sizeof ds, "(%lld,%lld):(1,%lld)", 3 * S, S + 5, 3 * S);
      snprintf(ss, sizeof ss, "(%lld,%lld):(%lld,1)", 3 * S, S + 5, S + 5);
      check_copy(ds, ss, elems[e], 0, 0, &st);
    }
  }
  unsetenv("CUTELAYOUT_COPY_ISA");
  /* Runs of every length the strided kernel moves in overlapping pieces
   * (elements of no power-of-two size, or vectors of odd length). */
  static const size_t runs[] = {3, 5, 7, 12, 17, 24, 46, 64 + 3, 100, 255, 300};
  for (size_t k = 0; k < COUNT_OF(runs); k++) {
    check_copy("(9,6):(6,1)", "(9,6):(1,9)", runs[k], 0, 1, NULL);
    check_copy("(5,(3,4)):(1,(5,15))", "(5,(3,4)):(1,(20,5))", runs[k] / 3 + 1, 1, 0, NULL);
  }
  /* The plan: compaction is the strided kernel; a gathered transpose says
   * so, its src run of stride 2, cached stores, never staged. */
  static unsigned char a[1 << 18], b[1 << 18];
  const cl_copy_options_t stream = with_stores(CL_COPY_STORES_STREAMING);
  cl_tensor_t *d = tensor(b, CL_DTYPE_UINT8, "(100,300):(1,100)"), *s = tensor(a, CL_DTYPE_UINT8, "(100,300):(601,2)");
  cl_copy_plan_t *p = plan_of(d, s, &stream);
  assert_int_equal(p->kernel, CL_COPY_KERNEL_TRANSPOSE);
  assert_int_equal(p->flags, CL_COPY_PLAN_GATHERED);
  assert_int_equal(p->src_stride[p->dst_run], 2);
  char text[512];
  assert_true(cl_tensor_copy_explain(d, s, text, sizeof text) > 0);
  assert_non_null(strstr(text, "by 300 src-every-other-element steps (1 mode), in tiles of 64x64, gathered"));
  free(p);
  cl_tensor_free(d);
  cl_tensor_free(s);
  d = tensor(b, CL_DTYPE_UINT8, "(100,300):(1,100)");
  s = tensor(a, CL_DTYPE_UINT8, "(100,300):(2,200)");
  p = plan_of(d, s, &stream);
  assert_int_equal(p->kernel, CL_COPY_KERNEL_STRIDED);
  free(p);
  cl_tensor_free(d);
  cl_tensor_free(s);
  /* Few dst rows (33) are not staged, 64 are (staging forced on). */
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, "(1024,33):(1,1024)", "(1024,33):(33,1)", &stream) &
                       (CL_COPY_PLAN_STREAMING | CL_COPY_PLAN_STAGED),
                   CL_COPY_PLAN_STREAMING);
  assert_int_equal(flags_of(b, a, CL_DTYPE_FLOAT32, "(1024,64):(1,1024)", "(1024,64):(64,1)", &stream) &
                       (CL_COPY_PLAN_STREAMING | CL_COPY_PLAN_STAGED),
                   CL_COPY_PLAN_STREAMING | CL_COPY_PLAN_STAGED);
}

int main(void) {
  /* Every staged path runs, whatever this processor prefers; nothing is
   * measured (test_copy_tune covers the choice). */
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_copy_random),       cmocka_unit_test(test_copy_transposes),
      cmocka_unit_test(test_copy_kernels),      cmocka_unit_test(test_copy_streaming),
      cmocka_unit_test(test_copy_large_transpose), cmocka_unit_test(test_copy_explain),
      cmocka_unit_test(test_copy_errors),       cmocka_unit_test(test_copy_options),
      cmocka_unit_test(test_copy_threads),      cmocka_unit_test(test_copy_isa_names),
      cmocka_unit_test(test_copy_short_inner),   cmocka_unit_test(test_copy_pool_errors),
      cmocka_unit_test(test_copy_channels),     cmocka_unit_test(test_copy_run_split),
      cmocka_unit_test(test_copy_packed),
      cmocka_unit_test(test_copy_narrow_lines),
      cmocka_unit_test(test_copy_strided_src_run),
      cmocka_unit_test(test_copy_pool_shared),
      cmocka_unit_test(test_copy_empty),        cmocka_unit_test(test_copy_plan_definition),
      cmocka_unit_test(test_copy_plan_examples), cmocka_unit_test(test_copy_plan_flags),
      cmocka_unit_test(test_copy_short_odd_rows), cmocka_unit_test(test_copy_packed_gathers),
      cmocka_unit_test(test_copy_plan_errors),  cmocka_unit_test(test_copy_unstaged),
      cmocka_unit_test(test_copy_tall),         cmocka_unit_test(test_copy_ahead),         cmocka_unit_test(test_copy_gathers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
