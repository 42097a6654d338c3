/* SPDX-License-Identifier: BSD-3-Clause */
/* test_banks.c: the shared-memory bank-conflict model and the swizzle
 * search (banks.h).
 *
 * The model's numbers are checked against an H100 by the banks-ncu test
 * (tests/banks); here are its defining properties, checked over families of
 * accesses: a warp reading 4-byte words s apart takes gcd(s, 32)
 * wavefronts; permuting the lanes of a served group changes nothing; a
 * report's lanes are the TV layout and the shared-memory layout evaluated;
 * a swizzle search's totals are those of the layout it returns, and no
 * candidate swizzle does better.  Then every error path. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static int64_t gcd64(int64_t a, int64_t b) { return b == 0 ? a : gcd64(b, a % b); }

static void wavefronts_of(cl_smem_op op, const int64_t lanes[32], int64_t bytes, int64_t *w, int64_t *i) {
  cl_status s = cl_smem_wavefronts(op, lanes, bytes, w, i);
  if (s != CL_OK)
    fail_msg("cl_smem_wavefronts: %s", cl_last_error());
}

/* 32 lanes reading words s apart: the lanes fall into gcd(s,32) per bank. */
static void test_word_strides(void **state) {
  (void)state;
  for (int64_t s = 1; s <= 96; s++) {
    int64_t lanes[32], w, i;
    for (int l = 0; l < 32; l++)
      lanes[l] = 4 * s * l;
    wavefronts_of(CL_SMEM_LOAD, lanes, 4, &w, &i);
    assert_int_equal(w, gcd64(s, 32));
    assert_int_equal(i, 1);
  }
}

/* Bytes and half-words of one word are one read; a word read by every lane
 * is one wavefront; lanes that take no part cost nothing. */
static void test_shared_words(void **state) {
  (void)state;
  int64_t lanes[32], w, i;
  for (int64_t bytes = 1; bytes <= 4; bytes *= 2) {
    for (int l = 0; l < 32; l++)
      lanes[l] = bytes * (l % (4 / bytes)) + 128 * (l / (4 / bytes));
    wavefronts_of(CL_SMEM_LOAD, lanes, bytes, &w, &i);
    assert_int_equal(w, 32 / (4 / bytes)); /* the words are all in bank 0 */
  }
  for (int l = 0; l < 32; l++)
    lanes[l] = -1;
  wavefronts_of(CL_SMEM_STORE, lanes, 16, &w, &i);
  assert_int_equal(w, 0);
  assert_int_equal(i, 0);
  lanes[5] = 64;
  wavefronts_of(CL_SMEM_STORE, lanes, 16, &w, &i);
  assert_int_equal(w, 1);
}

/* 64- and 128-bit accesses are served a half- and a quarter-warp at a time:
 * a warp's 16*32 contiguous bytes take 4 wavefronts, and 16-byte rows 128
 * bytes apart take 8 a quarter. */
static void test_wide_groups(void **state) {
  (void)state;
  int64_t lanes[32], w, i;
  for (int l = 0; l < 32; l++)
    lanes[l] = 16 * l;
  wavefronts_of(CL_SMEM_LOAD, lanes, 16, &w, &i);
  assert_int_equal(w, 4);
  assert_int_equal(i, 4);
  for (int l = 0; l < 32; l++)
    lanes[l] = 128 * l;
  wavefronts_of(CL_SMEM_LDMATRIX, lanes, 16, &w, &i);
  assert_int_equal(w, 32);
  assert_int_equal(i, 4);
  for (int l = 0; l < 32; l++)
    lanes[l] = 8 * l;
  wavefronts_of(CL_SMEM_STORE, lanes, 8, &w, &i);
  assert_int_equal(w, 2);
  /* every quarter reading the same 128 bytes still takes one each */
  for (int l = 0; l < 32; l++)
    lanes[l] = 16 * (l % 8);
  wavefronts_of(CL_SMEM_LOAD, lanes, 16, &w, &i);
  assert_int_equal(w, 4);
}

/* A load whose neighbouring groups each read one address is served as one
 * group (measured: a 16-byte broadcast to a warp takes 2 wavefronts, an
 * 8-byte one 1); stores and ldmatrix are not; cp.async lanes never share. */
static void test_broadcasts(void **state) {
  (void)state;
  int64_t lanes[32], w, i;
  for (int l = 0; l < 32; l++)
    lanes[l] = 256;
  wavefronts_of(CL_SMEM_LOAD, lanes, 16, &w, &i);
  assert_int_equal(w, 2);
  assert_int_equal(i, 2);
  wavefronts_of(CL_SMEM_LOAD, lanes, 8, &w, &i);
  assert_int_equal(w, 1);
  wavefronts_of(CL_SMEM_STORE, lanes, 16, &w, &i);
  assert_int_equal(w, 4);
  wavefronts_of(CL_SMEM_LDMATRIX, lanes, 16, &w, &i);
  assert_int_equal(w, 4);
  wavefronts_of(CL_SMEM_CP_ASYNC, lanes, 16, &w, &i);
  assert_int_equal(w, 32);
  assert_int_equal(i, 4);
  wavefronts_of(CL_SMEM_CP_ASYNC, lanes, 4, &w, &i);
  assert_int_equal(w, 32);
  /* two uniform quarters in the same banks: no sharing */
  for (int l = 0; l < 32; l++)
    lanes[l] = 512 * (l / 8);
  wavefronts_of(CL_SMEM_LOAD, lanes, 16, &w, &i);
  assert_int_equal(w, 4);
  assert_int_equal(i, 2);
}

/* Permuting the lanes inside each served group never changes the count,
 * and the count is never below the ideal. */
static void test_lane_permutations(void **state) {
  (void)state;
  static const int64_t widths[] = {1, 2, 4, 8, 16};
  static const cl_smem_op ops[] = {CL_SMEM_LOAD, CL_SMEM_STORE, CL_SMEM_CP_ASYNC};
  for (int trial = 0; trial < 3000; trial++) {
    int64_t bytes = widths[rnd_below(5)];
    cl_smem_op op = ops[rnd_below(3)];
    if (op == CL_SMEM_CP_ASYNC && bytes < 4)
      bytes = 4;
    int64_t lanes[32], permuted[32], w, i, pw, pi;
    for (int l = 0; l < 32; l++)
      lanes[l] = rnd_below(5) == 0 ? -1 : bytes * rnd_below(1024 / bytes);
    int64_t group = bytes == 16 ? 8 : bytes == 8 ? 16 : 32;
    /* within each group, which keeps the pairing of a load's groups too */
    int64_t span = group;
    memcpy(permuted, lanes, sizeof lanes);
    for (int64_t first = 0; first < 32; first += span)
      for (int64_t k = span - 1; k > 0; k--) {
        int64_t j = rnd_below(k + 1);
        int64_t t = permuted[first + k];
        permuted[first + k] = permuted[first + j];
        permuted[first + j] = t;
      }
    wavefronts_of(op, lanes, bytes, &w, &i);
    wavefronts_of(op, permuted, bytes, &pw, &pi);
    assert_int_equal(w, pw);
    assert_int_equal(i, pi);
    assert_true(w >= i);
  }
}

static void test_wavefront_errors(void **state) {
  (void)state;
  int64_t lanes[32] = {0}, w;
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_LOAD, NULL, 4, &w, NULL), CL_E_NULL);
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_LOAD, lanes, 3, &w, NULL), CL_E_DOMAIN);
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_LOAD, lanes, 32, &w, NULL), CL_E_DOMAIN);
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_LDMATRIX, lanes, 8, &w, NULL), CL_E_DOMAIN);
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_CP_ASYNC, lanes, 2, &w, NULL), CL_E_DOMAIN);
  assert_int_equal(cl_smem_wavefronts((cl_smem_op)9, lanes, 4, &w, NULL), CL_E_DOMAIN);
  lanes[3] = 6;
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_LOAD, lanes, 4, &w, NULL), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "lane 3"));
  lanes[3] = -2;
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_LOAD, lanes, 4, &w, NULL), CL_E_DOMAIN);
  lanes[3] = 0;
  assert_int_equal(cl_smem_wavefronts(CL_SMEM_LOAD, lanes, 4, NULL, NULL), CL_OK);
}

/* ------------------------------------------------------------ reports */

typedef struct access_case {
  const char *tv, *smem;
  int64_t bits;
  cl_smem_op op;
  int64_t vector_bits, matrices;
  int64_t wavefronts, ideal, count, bytes;
} access_case;

static cl_status report_of(const char *tv_text, const char *smem_text, int64_t bits, cl_smem_op op, int64_t vector_bits,
                           int64_t matrices, cl_bank_report_t **report) {
  cl_layout_t *tv = lay(tv_text), *l = NULL;
  cl_composed_t *c = NULL;
  if (strstr(smem_text, " o "))
    assert_int_equal(cl_composed_parse(smem_text, &c), CL_OK);
  else
    l = lay(smem_text);
  cl_smem_access_t a = {tv, bits, op, vector_bits, matrices};
  cl_status s = cl_bank_conflicts(&a, c ? cl_layout_fn_composed(c) : cl_layout_fn_of(cl_fn_layout(l)), report);
  cl_layout_free(tv);
  cl_layout_free(l);
  cl_composed_free(c);
  return s;
}

/* Accesses whose counts follow from the rules by hand (the comments say
 * how); the same pairs ran on an H100 (tests/banks/pairs.tsv). */
static const access_case cases[] = {
  /* 32 threads, 4 floats each at 16*t bytes: 128-bit loads, 4 quarters */
  {"(32,4):(4,1)", "4096:1", 32, CL_SMEM_LOAD, 0, 0, 4, 4, 1, 16},
  /* the same values as four 32-bit loads: each 32 words 4 apart, 4-way */
  {"(32,4):(4,1)", "4096:1", 32, CL_SMEM_LOAD, 32, 0, 16, 4, 4, 4},
  /* rows of 64 halves, lanes 0-7 down a column of 16-byte chunks: 8-way */
  {"((8,4),8):((1,64),8)", "(8,64):(64,1)", 16, CL_SMEM_LDMATRIX, 0, 4, 32, 4, 1, 16},
  /* the same rows through CuTe's 128-byte swizzle: conflict-free */
  {"((8,4),8):((1,64),8)", "Sw<3,3,3> o 0 o (8,64):(64,1)", 16, CL_SMEM_LDMATRIX, 0, 4, 4, 4, 1, 16},
  /* x1: only lanes 0-7 name rows */
  {"((8,4),8):((1,0),8)", "Sw<3,3,3> o 0 o (8,64):(64,1)", 16, CL_SMEM_LDMATRIX, 128, 1, 1, 1, 1, 16},
  /* 40 threads: a second, partial warp of 8 lanes */
  {"(40,1):(1,0)", "64:1", 32, CL_SMEM_STORE, 0, 0, 2, 2, 2, 4},
  /* cp.async of 2 floats a thread into rows of 16 padded to 18: in each
   * half-warp rows 0 and 7 meet in banks 0-1 (or 4-5) */
  {"((8,4),2):((1,16),8)", "(8,16):(18,1)", 32, CL_SMEM_CP_ASYNC, 0, 0, 4, 2, 1, 8},
  /* single bytes 128 apart: all in bank 0 */
  {"(32,1):(128,0)", "4096:1", 8, CL_SMEM_LOAD, 0, 0, 32, 1, 1, 1},
};

static void test_reports(void **state) {
  (void)state;
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    const access_case *c = &cases[k];
    cl_bank_report_t *r = NULL;
    if (report_of(c->tv, c->smem, c->bits, c->op, c->vector_bits, c->matrices, &r) != CL_OK)
      fail_msg("case %zu: %s", k, cl_last_error());
    int64_t w, i;
    assert_int_equal(cl_bank_report_totals(r, &w, &i), CL_OK);
    if (w != c->wavefronts || i != c->ideal || cl_bank_report_count(r) != c->count)
      fail_msg("case %zu: %lld/%lld wavefronts in %lld instructions", k, (long long)w, (long long)i,
               (long long)cl_bank_report_count(r));
    cl_bank_instruction_t in;
    assert_int_equal(cl_bank_report_instruction(r, 0, &in), CL_OK);
    assert_int_equal(in.bytes, c->bytes);
    assert_int_equal(cl_bank_report_totals(r, NULL, NULL), CL_OK);
    cl_bank_report_free(r);
  }
}

/* A report's lanes are tv and smem evaluated, instruction by instruction;
 * its totals are the sums of its instructions, each what cl_smem_wavefronts
 * gives for those lanes. */
static void test_report_lanes(void **state) {
  (void)state;
  const char *tv_text = "((4,8,3),(2,4)):((2,64,8),(1,16))";
  cl_composed_t *c = NULL;
  assert_int_equal(cl_composed_parse("Sw<2,1,3> o 0 o (32,24):(1,32)", &c), CL_OK);
  cl_layout_t *tv = lay(tv_text);
  cl_smem_access_t a = {tv, 16, CL_SMEM_STORE, 0, 0};
  cl_bank_report_t *r = NULL;
  assert_int_equal(cl_bank_conflicts(&a, cl_layout_fn_composed(c), &r), CL_OK);
  int64_t count = cl_bank_report_count(r), sum_w = 0, sum_i = 0;
  assert_int_equal(count, 3 * 4); /* 96 threads, 3 warps, each 4 vectors of 2 halves */
  for (int64_t n = 0; n < count; n++) {
    cl_bank_instruction_t in;
    assert_int_equal(cl_bank_report_instruction(r, n, &in), CL_OK);
    assert_int_equal(in.bytes, 4);
    int64_t lanes[32];
    for (int64_t lane = 0; lane < 32; lane++) {
      int64_t tile, offset, t = 32 * in.warp + lane, expect_tile, expect_offset;
      assert_int_equal(cl_bank_report_lane(r, n, lane, &tile, &offset), CL_OK);
      assert_int_equal(cl_layout_eval(tv, t + 96 * (2 * in.index), &expect_tile), CL_OK);
      assert_int_equal(cl_composed_eval(c, expect_tile, &expect_offset), CL_OK);
      assert_int_equal(tile, expect_tile);
      assert_int_equal(offset, expect_offset);
      lanes[lane] = 2 * offset;
    }
    int64_t w, i;
    wavefronts_of(CL_SMEM_STORE, lanes, 4, &w, &i);
    assert_int_equal(in.wavefronts, w);
    assert_int_equal(in.ideal, i);
    sum_w += w;
    sum_i += i;
  }
  int64_t w, i;
  cl_bank_report_totals(r, &w, &i);
  assert_int_equal(w, sum_w);
  assert_int_equal(i, sum_i);
  assert_int_equal(cl_bank_report_lane(r, 0, 31, NULL, NULL), CL_OK);
  cl_bank_report_free(r);
  cl_layout_free(tv);
  cl_composed_free(c);
}

/* The widest vector: contiguous and aligned for every thread. */
static void test_vector_choice(void **state) {
  (void)state;
  static const struct {
    const char *tv, *smem;
    int64_t bits, bytes;
  } v[] = {
    {"(32,8):(8,1)", "256:1", 16, 16},      /* 8 halves in a row */
    {"(32,8):(8,1)", "256:1", 8, 8},        /* 8 bytes */
    {"(32,8):(9,1)", "288:1", 16, 2},       /* odd starts: unaligned */
    {"(32,(2,4)):(8,(4,1))", "256:1", 16, 2}, /* values out of order */
    {"(32,8):(8,1)", "Sw<1,2,3> o 0 o 256:1", 16, 8}, /* the swizzle keeps 4 halves whole */
    {"(32,2):(2,1)", "64:1", 128, 16},       /* one 16-byte element */
  };
  for (size_t k = 0; k < COUNT_OF(v); k++) {
    cl_bank_report_t *r = NULL;
    if (report_of(v[k].tv, v[k].smem, v[k].bits, CL_SMEM_LOAD, 0, 0, &r) != CL_OK)
      fail_msg("vector case %zu: %s", k, cl_last_error());
    cl_bank_instruction_t in;
    assert_int_equal(cl_bank_report_instruction(r, 0, &in), CL_OK);
    if (in.bytes != v[k].bytes)
      fail_msg("vector case %zu: %lld bytes", k, (long long)in.bytes);
    cl_bank_report_free(r);
  }
}

static void expect_report_fails(const char *tv, const char *smem, int64_t bits, cl_smem_op op, int64_t vector_bits,
                                int64_t matrices, cl_status status, const char *message) {
  cl_bank_report_t *r = (cl_bank_report_t *)&r;
  cl_status s = report_of(tv, smem, bits, op, vector_bits, matrices, &r);
  if (s != status)
    fail_msg("%s over %s: status %d, not %d (%s)", tv, smem, s, status, cl_last_error());
  assert_null(r);
  if (strstr(cl_last_error(), message) == NULL)
    fail_msg("message '%s' lacks '%s'", cl_last_error(), message);
}

static void test_report_errors(void **state) {
  (void)state;
  expect_report_fails("32:1", "64:1", 32, CL_SMEM_LOAD, 0, 0, CL_E_RANK, "rank 2");
  expect_report_fails("(32,1):(1,0)", "64:1", 12, CL_SMEM_LOAD, 0, 0, CL_E_DOMAIN, "12 bits");
  expect_report_fails("(32,1):(1,0)", "16:1", 32, CL_SMEM_LOAD, 0, 0, CL_E_DOMAIN, "outside");
  expect_report_fails("(32,1):(1,0)", "32:-1", 32, CL_SMEM_LOAD, 0, 0, CL_E_DOMAIN, "negative");
  expect_report_fails("(32,2):(1,32)", "64:1", 32, CL_SMEM_LOAD, 64, 0, CL_E_DOMAIN, "contiguous");
  expect_report_fails("(32,2):(2,1)", "64:1", 32, CL_SMEM_LOAD, 48, 0, CL_E_DOMAIN, "no access");
  expect_report_fails("(32,2):(2,1)", "64:1", 32, CL_SMEM_LOAD, 256, 0, CL_E_DOMAIN, "no access");
  expect_report_fails("(32,8):(1,32)", "256:1", 16, CL_SMEM_LDMATRIX, 0, 4, CL_E_DOMAIN, "ldmatrix");
  expect_report_fails("(32,8):(8,1)", "256:1", 16, CL_SMEM_STMATRIX, 64, 4, CL_E_DOMAIN, "128 bits");
  expect_report_fails("(32,8):(8,1)", "256:1", 16, CL_SMEM_LDMATRIX, 0, 3, CL_E_DOMAIN, "matrices");
  expect_report_fails("(32,1):(1,0)", "64:1", 32, CL_SMEM_LOAD, 0, 2, CL_E_DOMAIN, "matrices");
  expect_report_fails("(32,1):(1,0)", "64:1", 16, CL_SMEM_CP_ASYNC, 0, 0, CL_E_DOMAIN, "cp.async");
  expect_report_fails("(32,1):(1,0)", "64:1", 32, (cl_smem_op)7, 0, 0, CL_E_DOMAIN, "kind");
  expect_report_fails("(32,1):(1,0)", "(8,8):(1@0,1@1)", 32, CL_SMEM_LOAD, 0, 0, CL_E_TYPE, "coordinate");
  expect_report_fails("(32,1):(1@0,0)", "64:1", 32, CL_SMEM_LOAD, 0, 0, CL_E_TYPE, "coordinate");
  expect_report_fails("(8192,4096):(1,0)", "64:1", 32, CL_SMEM_LOAD, 0, 0, CL_E_LIMIT, "values");

  cl_layout_t *tv = lay("(32,1):(1,0)");
  cl_smem_access_t a = {tv, 32, CL_SMEM_LOAD, 0, 0};
  cl_bank_report_t *r = NULL;
  cl_swizzle_t sw = {3, 3, 3};
  assert_int_equal(cl_bank_conflicts(&a, cl_layout_fn_of(cl_fn_swizzle(sw)), &r), CL_E_TYPE);
  assert_int_equal(cl_bank_conflicts(&a, cl_layout_fn_of(cl_fn_layout(NULL)), &r), CL_E_NULL);
  assert_int_equal(cl_bank_conflicts(NULL, cl_layout_fn_of(cl_fn_layout(tv)), &r), CL_E_NULL);
  assert_int_equal(cl_bank_conflicts(&a, cl_layout_fn_of(cl_fn_layout(tv)), NULL), CL_E_NULL);
  a.tv = NULL;
  assert_int_equal(cl_bank_conflicts(&a, cl_layout_fn_of(cl_fn_layout(tv)), &r), CL_E_NULL);
  cl_layout_free(tv);

  assert_int_equal(report_of("(32,1):(1,0)", "64:1", 32, CL_SMEM_LOAD, 0, 0, &r), CL_OK);
  cl_bank_instruction_t in;
  assert_int_equal(cl_bank_report_instruction(r, 1, &in), CL_E_DOMAIN);
  assert_int_equal(cl_bank_report_instruction(r, -1, &in), CL_E_DOMAIN);
  assert_int_equal(cl_bank_report_instruction(r, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_bank_report_instruction(NULL, 0, &in), CL_E_NULL);
  assert_int_equal(cl_bank_report_lane(r, 0, 32, NULL, NULL), CL_E_DOMAIN);
  assert_int_equal(cl_bank_report_lane(r, 1, 0, NULL, NULL), CL_E_DOMAIN);
  assert_int_equal(cl_bank_report_lane(NULL, 0, 0, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_bank_report_totals(NULL, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_bank_report_count(NULL), CL_E_NULL);
  cl_bank_report_free(r);
  cl_bank_report_free(NULL);
}

/* ------------------------------------------------------------ search */

static int64_t total_over(const cl_smem_access_t *a, int64_t n, cl_layout_fn_t smem) {
  int64_t sum = 0;
  for (int64_t k = 0; k < n; k++) {
    cl_bank_report_t *r = NULL;
    if (cl_bank_conflicts(&a[k], smem, &r) != CL_OK)
      fail_msg("total_over: %s", cl_last_error());
    int64_t w;
    cl_bank_report_totals(r, &w, NULL);
    cl_bank_report_free(r);
    sum += w;
  }
  return sum;
}

/* The search's totals are those of the layout it names, and no swizzle of
 * the candidates' kind does better (checked over all of them here). */
static void check_search(const char *smem_text, const char *const *tvs, int64_t n, int64_t bits,
                         const char *expected) {
  cl_layout_t *smem = lay(smem_text);
  cl_layout_t *tv[4];
  cl_smem_access_t a[4];
  for (int64_t k = 0; k < n; k++) {
    tv[k] = lay(tvs[k]);
    a[k] = (cl_smem_access_t){tv[k], bits, CL_SMEM_LOAD, 0, 0};
  }
  cl_swizzle_t best;
  int64_t w, i;
  if (cl_swizzle_search(smem, a, n, &best, &w, &i) != CL_OK)
    fail_msg("swizzle_search: %s", cl_last_error());
  char text[32];
  cl_swizzle_format(best, text, sizeof text);
  assert_string_equal(text, expected);
  cl_composed_t *c = NULL;
  assert_int_equal(cl_make_composed_layout(cl_fn_swizzle(best), 0, cl_fn_layout(smem), &c), CL_OK);
  assert_int_equal(total_over(a, n, cl_layout_fn_composed(c)), w);
  assert_true(w >= i);
  cl_composed_free(c);
  for (int64_t b = 1; b <= 3; b++)
    for (int64_t m = 0; m <= 4; m++)
      for (int64_t s = b; s <= 5; s++) {
        cl_swizzle_t sw;
        assert_int_equal(cl_swizzle_make(b, m, s, &sw), CL_OK);
        assert_int_equal(cl_make_composed_layout(cl_fn_swizzle(sw), 0, cl_fn_layout(smem), &c), CL_OK);
        cl_bank_report_t *r = NULL;
        bool keeps_vectors = true;
        for (int64_t k = 0; k < n && keeps_vectors; k++) {
          cl_bank_report_t *plain = NULL;
          cl_bank_conflicts(&a[k], cl_layout_fn_of(cl_fn_layout(smem)), &plain);
          cl_bank_instruction_t in;
          cl_bank_report_instruction(plain, 0, &in);
          cl_smem_access_t fixed = a[k];
          fixed.vector_bits = in.bytes * 8;
          keeps_vectors = cl_bank_conflicts(&fixed, cl_layout_fn_composed(c), &r) == CL_OK;
          cl_bank_report_free(r);
          cl_bank_report_free(plain);
        }
        if (keeps_vectors)
          assert_true(total_over(a, n, cl_layout_fn_composed(c)) >= w);
        cl_composed_free(c);
      }
  for (int64_t k = 0; k < n; k++)
    cl_layout_free(tv[k]);
  cl_layout_free(smem);
}

static void test_search(void **state) {
  (void)state;
  /* ldmatrix-like reads down the rows of 64 halves: CuTe's 128-byte swizzle */
  const char *rows[] = {"((8,4),8):((1,64),8)"};
  check_search("(8,64):(64,1)", rows, 1, 16, "Sw<3,3,3>");
  /* rows of 32 halves (64 bytes): two rows share the 128 bytes */
  const char *rows32[] = {"((8,4),8):((1,64),8)"};
  check_search("(8,32):(32,1)", rows32, 1, 16, "Sw<2,3,3>");
  /* 128-bit reads down a column of 32-float rows, and 32-bit reads along
   * the rows: 8 rows a quarter-warp need 3 bits of chunk */
  const char *transpose[] = {"(32,32):(1,32)", "(32,32):(32,1)"};
  check_search("(32,32):(32,1)", transpose, 2, 32, "Sw<3,2,3>");
  /* already conflict-free: no swizzle */
  const char *linear[] = {"(32,4):(4,1)"};
  check_search("128:1", linear, 1, 32, "Sw<0,0,0>");
}

/* The SM80 GEMM's A tile, 128x64 halves: 16-byte cp.async writes (16x8
 * threads) and ldmatrix x4 reads of CuTe's tiled copy for 2x2 warps of
 * 16x8x16 MMAs, both over the tile's (m,k) indices.  CUTLASS's own choice,
 * Sw<3,3,3>, is conflict-free for both, and the search finds it. */
static void test_search_sm80_gemm(void **state) {
  (void)state;
  cl_layout_t *smem = lay("(128,64):(64,1)");
  cl_layout_t *cp = lay("((8,16),(8,8)):((1024,1),(128,16))");
  cl_layout_t *ld = lay("((16,2,2,2),(8,4,4)):((1,1024,16,0),(128,32,2048))");
  cl_smem_access_t a[2] = {{cp, 16, CL_SMEM_CP_ASYNC, 0, 0}, {ld, 16, CL_SMEM_LDMATRIX, 0, 4}};
  cl_swizzle_t best;
  int64_t w, i;
  assert_int_equal(cl_swizzle_search(smem, a, 2, &best, &w, &i), CL_OK);
  assert_int_equal(best.bits, 3);
  assert_int_equal(best.base, 3);
  assert_int_equal(best.shift, 3);
  assert_int_equal(w, i);
  assert_int_equal(total_over(a, 2, cl_layout_fn_of(cl_fn_layout(smem))), 128 + 2048);
  cl_layout_free(cp);
  cl_layout_free(ld);
  cl_layout_free(smem);
}

/* Where no swizzle is conflict-free (cp.async lanes writing one word never
 * share it) every candidate is counted, and none beats the plain layout. */
static void test_search_no_cure(void **state) {
  (void)state;
  cl_layout_t *smem = lay("(32,32):(32,1)"), *same = lay("(32,1):(0,0)"), *rows = lay("(32,32):(1,32)");
  cl_smem_access_t a[2] = {{same, 32, CL_SMEM_CP_ASYNC, 0, 0}, {rows, 32, CL_SMEM_LOAD, 0, 0}};
  cl_swizzle_t best;
  int64_t w, i;
  assert_int_equal(cl_swizzle_search(smem, a, 1, &best, &w, &i), CL_OK);
  assert_int_equal(best.bits, 0);
  assert_int_equal(w, 32);
  assert_int_equal(i, 1);
  /* with the column reads too, the swizzle that cures them is still chosen */
  assert_int_equal(cl_swizzle_search(smem, a, 2, &best, &w, &i), CL_OK);
  assert_true(best.bits > 0);
  assert_int_equal(w, 32 + 8 * 4); /* 8 quarter-warp loads of 4 wavefronts */
  cl_layout_free(smem);
  cl_layout_free(same);
  cl_layout_free(rows);
}

static void test_search_errors(void **state) {
  (void)state;
  cl_layout_t *smem = lay("(8,64):(64,1)"), *tv = lay("(32,1):(1,0)"), *bad = lay("(32,1):(1,0)");
  cl_smem_access_t a[2] = {{tv, 16, CL_SMEM_LOAD, 0, 0}, {bad, 12, CL_SMEM_LOAD, 0, 0}};
  cl_swizzle_t best = {1, 1, 1};
  assert_int_equal(cl_swizzle_search(NULL, a, 1, &best, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_swizzle_search(smem, NULL, 1, &best, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_swizzle_search(smem, a, 1, NULL, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_swizzle_search(smem, a, 0, &best, NULL, NULL), CL_E_DOMAIN);
  assert_int_equal(cl_swizzle_search(smem, a, 2, &best, NULL, NULL), CL_E_DOMAIN);
  assert_int_equal(best.bits, 0);
  assert_non_null(strstr(cl_last_error(), "12 bits"));
  assert_int_equal(cl_swizzle_search(smem, a, 1, &best, NULL, NULL), CL_OK);
  cl_layout_free(smem);
  cl_layout_free(tv);
  cl_layout_free(bad);
}


/* ------------------------------------------------------------ padding */

/* Whether some swizzle of CuTe's kind (B 1 to 5, every M and S whose masks
 * fit the offsets below 2^11) makes every instruction of the accesses
 * conflict-free over smem: the exhaustive check, independent of the
 * search's candidates and order. */
static bool some_swizzle_cures(const cl_layout_t *smem, const cl_smem_access_t *a, int64_t n) {
  for (int64_t b = 1; b <= 5; b++)
    for (int64_t m = 0; m + b <= 11; m++)
      for (int64_t s = b; m + s + b <= 11; s++) {
        cl_swizzle_t sw;
        cl_composed_t *c = NULL;
        assert_int_equal(cl_swizzle_make(b, m, s, &sw), CL_OK);
        assert_int_equal(cl_make_composed_layout(cl_fn_swizzle(sw), 0, cl_fn_layout(smem), &c), CL_OK);
        int64_t w = 0, ideal = 0;
        for (int64_t k = 0; k < n; k++) {
          cl_bank_report_t *r = NULL;
          int64_t aw, ai;
          assert_int_equal(cl_bank_conflicts(&a[k], cl_layout_fn_composed(c), &r), CL_OK);
          cl_bank_report_totals(r, &aw, &ai);
          cl_bank_report_free(r);
          w += aw;
          ideal += ai;
        }
        cl_composed_free(c);
        if (w == ideal)
          return true;
      }
  return false;
}

/* A warp reading a column of 32-float rows and one reading the cells
 * (t0 + t1 + 4 t2 + 8 t3 + 16 t4) + 32 t0 of thread t: a swizzle that
 * spreads the column must XOR the row into the column, which sends
 * threads 0 and 1 of the second read to one bank; rows of 33 floats put
 * row r's column c in bank r + c, which serves both.  No swizzle is
 * conflict-free (checked over all of them), and padding by 1 is. */
static void test_search_padding_wins(void **state) {
  (void)state;
  cl_layout_t *smem = lay("(32,32):(32,1)"), *column = lay("(32,1):(32,0)");
  cl_layout_t *mixed = lay("((2,2,2,2,2),1):((33,1,4,8,16),0)");
  cl_smem_access_t a[2] = {{column, 32, CL_SMEM_LOAD, 0, 0}, {mixed, 32, CL_SMEM_LOAD, 0, 0}};
  assert_false(some_swizzle_cures(smem, a, 2));
  cl_swizzle_t best;
  int64_t sw_w, sw_i;
  assert_int_equal(cl_swizzle_search(smem, a, 2, &best, &sw_w, &sw_i), CL_OK);
  assert_true(sw_w > sw_i);
  cl_smem_choice_t choice;
  cl_layout_t *padded = NULL;
  if (cl_swizzle_search_padded(smem, a, 2, &choice, &padded) != CL_OK)
    fail_msg("swizzle_search_padded: %s", cl_last_error());
  assert_int_equal(choice.swizzle.bits, 0);
  assert_int_equal(choice.leading, 32);
  assert_int_equal(choice.padding, 1);
  char text[64];
  cl_layout_format(padded, text, sizeof text);
  assert_string_equal(text, "(32,32):(33,1)");
  assert_int_equal(choice.cosize, cl_layout_cosize(padded));
  assert_int_equal(choice.wavefronts, total_over(a, 2, cl_layout_fn_of(cl_fn_layout(padded))));
  assert_int_equal(choice.wavefronts, choice.ideal);
  assert_true(choice.wavefronts < sw_w);
  cl_layout_free(padded);
  cl_layout_free(smem);
  cl_layout_free(column);
  cl_layout_free(mixed);
}

/* Where a swizzle is conflict-free it is the answer (it costs no memory),
 * though padding the rows by 8 halves would serve as well; with nothing to
 * cure, smem itself comes back. */
static void test_search_padding_swizzle_wins(void **state) {
  (void)state;
  cl_layout_t *smem = lay("(8,64):(64,1)"), *rows = lay("((8,4),8):((1,64),8)");
  cl_layout_t *pad8 = lay("(8,64):(72,1)");
  cl_smem_access_t a = {rows, 16, CL_SMEM_LDMATRIX, 0, 4};
  assert_int_equal(total_over(&a, 1, cl_layout_fn_of(cl_fn_layout(pad8))), 4);
  cl_smem_choice_t choice;
  cl_layout_t *layout = NULL;
  assert_int_equal(cl_swizzle_search_padded(smem, &a, 1, &choice, &layout), CL_OK);
  char text[32];
  cl_swizzle_format(choice.swizzle, text, sizeof text);
  assert_string_equal(text, "Sw<3,3,3>");
  assert_int_equal(choice.padding, 0);
  assert_int_equal(choice.leading, 64);
  assert_int_equal(choice.wavefronts, 4);
  assert_int_equal(choice.ideal, 4);
  assert_int_equal(choice.cosize, 512);
  assert_true(cl_layout_equal(layout, smem));
  cl_layout_free(layout);
  cl_layout_free(rows);
  cl_layout_t *linear = lay("(32,4):(4,1)"), *flat = lay("128:1");
  cl_smem_access_t l = {linear, 32, CL_SMEM_LOAD, 0, 0};
  assert_int_equal(cl_swizzle_search_padded(flat, &l, 1, &choice, &layout), CL_OK);
  assert_int_equal(choice.swizzle.bits, 0);
  assert_int_equal(choice.padding, 0);
  assert_int_equal(choice.leading, 0);
  assert_true(cl_layout_equal(layout, flat));
  cl_layout_free(layout);
  cl_layout_free(linear);
  cl_layout_free(flat);
  cl_layout_free(pad8);
  cl_layout_free(smem);
}

/* Padding lengthens the rows: every stride that is a multiple of the
 * leading one grows with it (a second tile of 32 rows, 1024 -> 32 * 33),
 * others stay; a layout with no stride above 1 has nothing to pad, and
 * nothing cures cp.async lanes writing one word. */
static void test_search_padding_rules(void **state) {
  (void)state;
  cl_layout_t *smem = lay("(32,32,2):(32,1,1024)"), *column = lay("(32,1):(32,0)");
  cl_layout_t *mixed = lay("((2,2,2,2,2),1):((33,1,4,8,16),0)");
  cl_smem_access_t a[2] = {{column, 32, CL_SMEM_LOAD, 0, 0}, {mixed, 32, CL_SMEM_LOAD, 0, 0}};
  cl_smem_choice_t choice;
  cl_layout_t *layout = NULL;
  assert_int_equal(cl_swizzle_search_padded(smem, a, 2, &choice, &layout), CL_OK);
  char text[64];
  cl_layout_format(layout, text, sizeof text);
  assert_string_equal(text, "(32,32,2):(33,1,1056)");
  assert_int_equal(choice.cosize, 1056 + 31 * 33 + 31 + 1);
  cl_layout_free(layout);
  cl_layout_free(column);
  cl_layout_free(mixed);
  cl_layout_free(smem);
  /* cp.async lanes writing one word: nothing cures them, and 4096:1 has no
   * leading stride */
  cl_layout_t *flat = lay("4096:1"), *same = lay("(32,1):(0,0)");
  cl_smem_access_t c = {same, 32, CL_SMEM_CP_ASYNC, 0, 0};
  assert_int_equal(cl_swizzle_search_padded(flat, &c, 1, &choice, &layout), CL_OK);
  assert_int_equal(choice.leading, 0);
  assert_int_equal(choice.padding, 0);
  assert_int_equal(choice.wavefronts, 32);
  cl_layout_free(layout);
  cl_layout_t *rows = lay("(32,32):(32,1)");
  assert_int_equal(cl_swizzle_search_padded(rows, &c, 1, &choice, &layout), CL_OK);
  assert_int_equal(choice.leading, 32);
  assert_int_equal(choice.padding, 0);
  assert_int_equal(choice.wavefronts, 32);
  cl_layout_free(layout);
  /* 16-byte cp.async writes of two rows of 2 floats each: every padding
   * splits the vector, so none is tried and the plain layout stays */
  cl_layout_t *pairs = lay("(64,2):(2,1)"), *two_rows = lay("(32,(2,2)):(0,(64,1))");
  cl_smem_access_t v = {two_rows, 32, CL_SMEM_CP_ASYNC, 0, 0};
  assert_int_equal(cl_swizzle_search_padded(pairs, &v, 1, &choice, &layout), CL_OK);
  assert_int_equal(choice.leading, 2);
  assert_int_equal(choice.padding, 0);
  assert_int_equal(choice.wavefronts, 32);
  assert_true(cl_layout_equal(layout, pairs));
  cl_layout_free(layout);
  cl_layout_free(pairs);
  cl_layout_free(two_rows);
  cl_layout_free(rows);
  cl_layout_free(flat);
  cl_layout_free(same);
}

static void test_search_padding_errors(void **state) {
  (void)state;
  cl_layout_t *smem = lay("(8,64):(64,1)"), *tv = lay("(32,1):(1,0)"), *coord = lay("(8,64):(1@1,1@0)");
  cl_smem_access_t a[2] = {{tv, 16, CL_SMEM_LOAD, 0, 0}, {tv, 12, CL_SMEM_LOAD, 0, 0}};
  cl_smem_choice_t choice;
  cl_layout_t *layout = smem;
  assert_int_equal(cl_swizzle_search_padded(smem, a, 1, &choice, NULL), CL_E_NULL);
  assert_int_equal(cl_swizzle_search_padded(smem, a, 1, NULL, &layout), CL_E_NULL);
  assert_null(layout);
  assert_int_equal(cl_swizzle_search_padded(NULL, a, 1, &choice, &layout), CL_E_NULL);
  assert_int_equal(cl_swizzle_search_padded(smem, NULL, 1, &choice, &layout), CL_E_NULL);
  assert_int_equal(cl_swizzle_search_padded(smem, a, 0, &choice, &layout), CL_E_DOMAIN);
  assert_int_equal(cl_swizzle_search_padded(smem, a, 2, &choice, &layout), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "12 bits"));
  assert_null(layout);
  assert_int_equal(choice.wavefronts, 0);
  assert_int_equal(cl_swizzle_search_padded(coord, a, 1, &choice, &layout), CL_E_TYPE);
  assert_null(layout);
  /* bytes 2^62 apart share a bank, no swizzle reaches bit 62, and padding
   * the leading stride 2 makes 2^61 * 3 of the stride 2^62 */
  cl_layout_t *huge = lay("(2,2,2):(2,1,4611686018427387904)"), *eight = lay("(8,1):(1,0)");
  cl_smem_access_t h = {eight, 8, CL_SMEM_LOAD, 0, 0};
  assert_int_equal(cl_swizzle_search_padded(huge, &h, 1, &choice, &layout), CL_E_OVERFLOW);
  assert_non_null(strstr(cl_last_error(), "overflows"));
  assert_null(layout);
  cl_layout_free(huge);
  cl_layout_free(eight);
  cl_layout_free(coord);
  cl_layout_free(tv);
  cl_layout_free(smem);
}

/* ------------------------------------------------------------ tiled copies */

static cl_tiled_copy_t *operand_copy(const char *op, cl_mma_operand operand) {
  cl_mma_atom_t *mma_atom = NULL;
  cl_copy_atom_t *atom = NULL;
  cl_tiled_mma_t *mma = NULL;
  cl_tiled_copy_t *copy = NULL;
  cl_layout_t *warps = lay("(2,2,1):(1,2,0)");
  cl_tuple_t *tile = tup("(32,32,16)");
  assert_int_equal(cl_mma_atom_new("SM80_16x8x16_F32F16F16F32_TN", &mma_atom), CL_OK);
  assert_int_equal(cl_make_tiled_mma(mma_atom, warps, tile, &mma), CL_OK);
  assert_int_equal(cl_copy_atom_new(op, "half_t", &atom), CL_OK);
  assert_int_equal(cl_make_tiled_copy_operand(atom, mma, operand, &copy), CL_OK);
  cl_copy_atom_free(atom);
  cl_tiled_mma_free(mma);
  cl_mma_atom_free(mma_atom);
  cl_layout_free(warps);
  cl_tuple_free(tile);
  return copy;
}

static int64_t copy_wavefronts(const cl_tiled_copy_t *copy, const char *smem_text) {
  cl_bank_report_t *r = NULL;
  cl_status s;
  int64_t w = -1;
  if (strstr(smem_text, " o ")) {
    cl_composed_t *c = NULL;
    assert_int_equal(cl_composed_parse(smem_text, &c), CL_OK);
    s = cl_bank_conflicts_tiled_copy(copy, cl_layout_fn_composed(c), &r);
    cl_composed_free(c);
  } else {
    cl_layout_t *l = lay(smem_text);
    s = cl_bank_conflicts_tiled_copy(copy, cl_layout_fn_of(cl_fn_layout(l)), &r);
    cl_layout_free(l);
  }
  if (s != CL_OK)
    fail_msg("cl_bank_conflicts_tiled_copy over %s: %s", smem_text, cl_last_error());
  cl_bank_report_totals(r, &w, NULL);
  cl_bank_report_free(r);
  return w;
}

/* A tiled copy counts as its atom's instruction on its shared-memory side:
 * the same numbers as the suite's pairs of the same copies, measured on an
 * H100 (tests/banks/pairs.tsv: ldsm4-A-*, ldsm1-B-row16, stsm4-C-row32,
 * cp16-K-*). */
static void test_tiled_copies(void **state) {
  (void)state;
  cl_tiled_copy_t *a = operand_copy("SM75_U32x4_LDSM_N", CL_OPERAND_A);
  assert_int_equal(copy_wavefronts(a, "(32,16):(16,1)"), 32);
  assert_int_equal(copy_wavefronts(a, "(32,16):(24,1)"), 16);
  assert_int_equal(copy_wavefronts(a, "Sw<3,3,3> o 0 o (32,16):(64,1)"), 16);
  cl_tiled_copy_t *b = operand_copy("SM75_U32x1_LDSM_N", CL_OPERAND_B);
  assert_int_equal(copy_wavefronts(b, "(32,16):(16,1)"), 32);
  cl_tiled_copy_t *c = operand_copy("SM90_U32x4_STSM_N", CL_OPERAND_C);
  assert_int_equal(copy_wavefronts(c, "(32,32):(32,1)"), 64);
  cl_copy_atom_t *atom = NULL;
  cl_tiled_copy_t *cp = NULL;
  cl_layout_t *threads = lay("(16,8):(8,1)"), *values = lay("(1,8):(0,1)");
  assert_int_equal(cl_copy_atom_new("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", &atom), CL_OK);
  assert_int_equal(cl_make_tiled_copy(atom, threads, values, &cp), CL_OK);
  assert_int_equal(copy_wavefronts(cp, "(16,64):(64,1)"), 16);
  /* errors: a NULL copy; a shared-memory layout smaller than the tile */
  cl_bank_report_t *r = NULL;
  cl_layout_t *small = lay("16:1");
  assert_int_equal(cl_bank_conflicts_tiled_copy(NULL, cl_layout_fn_of(cl_fn_layout(small)), &r), CL_E_NULL);
  assert_int_equal(cl_bank_conflicts_tiled_copy(cp, cl_layout_fn_of(cl_fn_layout(small)), &r), CL_E_DOMAIN);
  assert_int_equal(cl_bank_conflicts_tiled_copy(cp, cl_layout_fn_of(cl_fn_layout(small)), NULL), CL_E_NULL);
  assert_null(r);
  cl_layout_free(small);
  cl_layout_free(threads);
  cl_layout_free(values);
  cl_copy_atom_free(atom);
  cl_tiled_copy_free(cp);
  cl_tiled_copy_free(a);
  cl_tiled_copy_free(b);
  cl_tiled_copy_free(c);
}

/* ------------------------------------------------------------ memory */

static struct {
  int64_t countdown, live;
} fail_state;

static void *failing_alloc(void *ctx, size_t size) {
  (void)ctx;
  if (fail_state.countdown-- == 0)
    return NULL;
  fail_state.live++;
  return malloc(size);
}
static void *failing_realloc(void *ctx, void *ptr, size_t size) {
  (void)ctx;
  if (fail_state.countdown-- == 0)
    return NULL;
  if (ptr == NULL)
    fail_state.live++;
  return realloc(ptr, size);
}
static void failing_free(void *ctx, void *ptr) {
  (void)ctx;
  if (ptr != NULL)
    fail_state.live--;
  free(ptr);
}

static cl_status allocation_workload(const cl_layout_t *tv, const cl_layout_t *smem) {
  cl_smem_access_t a = {tv, 16, CL_SMEM_LOAD, 0, 0};
  cl_bank_report_t *r = NULL;
  cl_status s = cl_bank_conflicts(&a, cl_layout_fn_of(cl_fn_layout(smem)), &r);
  cl_bank_report_free(r);
  if (s != CL_OK)
    return s;
  cl_swizzle_t best;
  s = cl_swizzle_search(smem, &a, 1, &best, NULL, NULL);
  if (s != CL_OK)
    return s;
  /* a search that pads: a column of 32-float rows and a read no swizzle serves with it */
  cl_layout_t *rows = NULL, *column = NULL, *mixed = NULL, *padded = NULL;
  s = cl_layout_parse("(32,32):(32,1)", &rows);
  if (s == CL_OK)
    s = cl_layout_parse("(32,1):(32,0)", &column);
  if (s == CL_OK)
    s = cl_layout_parse("((2,2,2,2,2),1):((33,1,4,8,16),0)", &mixed);
  cl_smem_access_t both[2] = {{column, 32, CL_SMEM_LOAD, 0, 0}, {mixed, 32, CL_SMEM_LOAD, 0, 0}};
  cl_smem_choice_t choice;
  if (s == CL_OK)
    s = cl_swizzle_search_padded(rows, both, 2, &choice, &padded);
  cl_layout_free(padded);
  cl_layout_free(mixed);
  cl_layout_free(column);
  cl_layout_free(rows);
  return s;
}

/* Every allocation may fail: a distinct status, nothing leaked. */
static void test_allocation_failures(void **state) {
  (void)state;
  cl_layout_t *tv = lay("((8,4),8):((1,64),8)"), *smem = lay("(8,64):(64,1)");
  cl_allocator failing = {failing_alloc, failing_realloc, failing_free, NULL};
  int failures = 0;
  for (int64_t n = 0;; n++) {
    fail_state.countdown = n;
    fail_state.live = 0;
    assert_int_equal(cl_set_allocator(&failing), CL_OK);
    cl_status s = allocation_workload(tv, smem);
    assert_int_equal(cl_set_allocator(NULL), CL_OK);
    assert_int_equal(fail_state.live, 0);
    if (s == CL_OK)
      break;
    assert_int_equal(s, CL_E_NOMEM);
    failures++;
  }
  assert_true(failures >= 5);
  cl_layout_free(tv);
  cl_layout_free(smem);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_word_strides),
    cmocka_unit_test(test_shared_words),
    cmocka_unit_test(test_wide_groups),
    cmocka_unit_test(test_broadcasts),
    cmocka_unit_test(test_lane_permutations),
    cmocka_unit_test(test_wavefront_errors),
    cmocka_unit_test(test_reports),
    cmocka_unit_test(test_report_lanes),
    cmocka_unit_test(test_vector_choice),
    cmocka_unit_test(test_report_errors),
    cmocka_unit_test(test_search),
    cmocka_unit_test(test_search_sm80_gemm),
    cmocka_unit_test(test_search_no_cure),
    cmocka_unit_test(test_tiled_copies),
    cmocka_unit_test(test_search_errors),
    cmocka_unit_test(test_search_padding_wins),
    cmocka_unit_test(test_search_padding_swizzle_wins),
    cmocka_unit_test(test_search_padding_rules),
    cmocka_unit_test(test_search_padding_errors),
    cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
