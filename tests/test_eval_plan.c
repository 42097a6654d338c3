/* SPDX-License-Identifier: BSD-3-Clause */
/* test_eval_plan.c: the compiled evaluation plan (cl_layout_eval) and the
 * odometer (cl_layout_eval_range) against CuTe's evaluation on the trees.
 *
 * The reference is cl_crd2idx(i, shape, stride) with an integer coordinate,
 * which walks the trees with checked arithmetic (stride.c), and, for values,
 * an independent 128-bit evaluation written here from CuTe's definition.
 * Every i tried must give the same status, and on success the same index. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cutelayout/cutelayout.h>

#define COUNT_OF(a) (sizeof(a) / sizeof *(a))

static cl_layout_t *lay(const char *text) {
  cl_layout_t *l = NULL;
  cl_status s = cl_layout_parse(text, &l);
  if (s != CL_OK)
    fail_msg("cl_layout_parse(\"%s\") = %d: %s", text, s, cl_last_error());
  return l;
}

/* A small deterministic generator, so that failures reproduce. */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static int64_t pick(const int64_t *values, size_t n) { return values[rng() % n]; }

/* ---------------------------------------------------------------- reference */

/* The leaves of a layout in order, from its canonical text. */
typedef struct leaves {
  int n;
  int64_t s[64], d[64];
} leaves;

static void read_ints(const char *text, int64_t *out, int *n) {
  *n = 0;
  for (const char *p = text; *p;) {
    if (*p == '-' || (*p >= '0' && *p <= '9')) {
      char *end;
      out[(*n)++] = strtoll(p, &end, 10);
      p = end;
    } else {
      p++;
    }
  }
}

static leaves leaves_of(const cl_layout_t *l) {
  char text[2048];
  assert_true(cl_layout_format(l, text, sizeof text) < (int64_t)sizeof text);
  char *colon = strchr(text, ':');
  assert_non_null(colon);
  *colon = '\0';
  leaves f;
  int ns, nd;
  read_ints(text, f.s, &ns);
  read_ints(colon + 1, f.d, &nd);
  assert_int_equal(ns, nd);
  f.n = ns;
  return f;
}

__extension__ typedef __int128 i128;

/* CuTe's layout(i) on the flattened modes, exact in 128 bits (no overflow is
 * possible for the magnitudes used where this is called). */
static i128 flat_eval(const leaves *f, int64_t i) {
  i128 rest = i, sum = 0;
  for (int k = 0; k < f->n; k++) {
    i128 c = rest;
    if (k + 1 < f->n) {
      c = rest % f->s[k];
      rest = rest / f->s[k];
    }
    sum += c * f->d[k];
  }
  return sum;
}

/* The tree evaluation, with its status. */
static cl_status tree_eval(const cl_layout_t *l, int64_t i, int64_t *index) {
  cl_tuple_t *shape = NULL, *stride = NULL, *crd = NULL;
  assert_int_equal(cl_layout_shape(l, &shape), CL_OK);
  assert_int_equal(cl_layout_stride(l, &stride), CL_OK);
  assert_int_equal(cl_tuple_int(i, &crd), CL_OK);
  cl_status s = cl_crd2idx(crd, shape, stride, index);
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_tuple_free(crd);
  return s;
}

static void check_point(const cl_layout_t *l, const leaves *f, int64_t i, int exact_in_range) {
  int64_t fast = -12345, tree = -12345;
  cl_status sf = cl_layout_eval(l, i, &fast), st = tree_eval(l, i, &tree);
  if (sf != st || (sf == CL_OK && fast != tree)) {
    char text[512];
    cl_layout_format(l, text, sizeof text);
    fail_msg("%s at i=%lld: plan %d/%lld, tree %d/%lld", text, (long long)i, sf, (long long)fast, st, (long long)tree);
  }
  if (exact_in_range && sf == CL_OK && f->n > 0) {
    i128 v = flat_eval(f, i);
    if (v != fast)
      fail_msg("i=%lld: %lld but the 128-bit reference says %lld", (long long)i, (long long)fast, (long long)v);
  }
}

static int64_t size_of(const cl_layout_t *l) {
  int64_t size = 0;
  assert_int_equal(cl_layout_size_checked(l, &size), CL_OK);
  return size;
}

/* Every i in [-size-3, 2*size+3], the extremes of int64_t, and the range
 * call over windows that start and end everywhere interesting. */
static void check_layout(const char *text) {
  cl_layout_t *l = lay(text);
  leaves f = leaves_of(l);
  int64_t size = size_of(l);
  for (int64_t i = -size - 3; i <= 2 * size + 3; i++)
    check_point(l, &f, i, 1);
  const int64_t extremes[] = {INT64_MIN, INT64_MIN + 1, -(INT64_C(1) << 40), INT64_C(1) << 40, INT64_MAX - 1, INT64_MAX};
  for (size_t e = 0; e < COUNT_OF(extremes); e++)
    check_point(l, &f, extremes[e], 0);

  int64_t n = 3 * size + 8, *got = malloc((size_t)n * sizeof *got);
  assert_non_null(got);
  const int64_t begins[] = {-size - 4, -1, 0, 1, size / 2, size - 1, size};
  for (size_t b = 0; b < COUNT_OF(begins); b++) {
    for (int64_t count = 0; count <= n - (begins[b] + size + 4); count += count < 8 ? 1 : count / 2 + 1) {
      int64_t begin = begins[b];
      cl_status s = cl_layout_eval_range(l, begin, count, got);
      cl_status expected = CL_OK;
      for (int64_t j = 0; j < count && expected == CL_OK; j++) {
        int64_t v;
        expected = cl_layout_eval(l, begin + j, &v);
        if (expected == CL_OK && s == CL_OK && got[j] != v)
          fail_msg("%s: eval_range(%lld, %lld)[%lld] = %lld, eval = %lld", text, (long long)begin, (long long)count,
                   (long long)j, (long long)got[j], (long long)v);
      }
      assert_int_equal(s, expected);
      if (s != CL_OK)
        for (int64_t j = 0; j < count; j++)
          assert_int_equal(got[j], 0);
    }
  }
  free(got);
  cl_layout_free(l);
}

/* ------------------------------------------------------------------- tests */

static void test_documented_examples(void **state) {
  (void)state;
  const char *texts[] = {
      "8:1", "8:0", "1:5", "(8):(1)", "(8):(3)", "(2,4):(4,1)", "(4,8):(1,4)", "(4,8):(8,1)", "((4,8),(2,(2,4))):((2,16),(1,(8,128)))",
      "(2,(2,2)):(4,(2,1))", "((2,2),2):((4,1),2)", "(3,(2,4)):(1,(3,6))", "(4,8,2,16):(1,64,3,7)",
      "((8,4),(4,2)):((1,64),(8,512))", "(2,2):(0,1)", "(4,1):(1,0)", "(1,4):(0,1)", "(1,1,1):(3,4,5)",
      "(4,1,1):(1,0,9)", "((1,2),(1,3)):((7,1),(5,2))", "(3,5,7):(-1,-3,-15)", "(2,3):(-7,11)",
      "(16,(4,(2,2))):(32,(1,(4,512)))", "((2,3),(2,3)):((3,1),(12,6))"};
  for (size_t t = 0; t < COUNT_OF(texts); t++)
    check_layout(texts[t]);
}

/* Flat layouts of rank 1 to 4, extents 1..5, strides including 0, negative
 * and coalescible ones; exhaustive for rank <= 2, sampled above. */
static void test_generated_flat(void **state) {
  (void)state;
  const int64_t extents[] = {1, 2, 3, 4, 5};
  const int64_t strides[] = {0, 1, -1, 2, 3, 4, -6, 8, 12, 20};
  char text[320];
  for (size_t a = 0; a < COUNT_OF(extents); a++)
    for (size_t b = 0; b < COUNT_OF(strides); b++) {
      snprintf(text, sizeof text, "%lld:%lld", (long long)extents[a], (long long)strides[b]);
      check_layout(text);
      for (size_t c = 0; c < COUNT_OF(extents); c++)
        for (size_t d = 0; d < COUNT_OF(strides); d++) {
          snprintf(text, sizeof text, "(%lld,%lld):(%lld,%lld)", (long long)extents[a], (long long)extents[c],
                   (long long)strides[b], (long long)strides[d]);
          check_layout(text);
        }
    }
  for (int trial = 0; trial < 1500; trial++) {
    int rank = 3 + (int)(rng() % 2);
    char shape[128] = "(", stride[128] = "(";
    for (int k = 0; k < rank; k++) {
      int64_t s = pick(extents, COUNT_OF(extents)), d = pick(strides, COUNT_OF(strides));
      /* Half of the time make the mode coalesce with the one before. */
      snprintf(shape + strlen(shape), 32, "%s%lld", k ? "," : "", (long long)s);
      snprintf(stride + strlen(stride), 32, "%s%lld", k ? "," : "", (long long)d);
    }
    snprintf(text, sizeof text, "%s):%s)", shape, stride);
    check_layout(text);
  }
}

/* Appends a random sub-layout of at most `budget` leaves to shape/stride. */
static int random_tree(char *shape, char *stride, int depth, int budget, int64_t *size) {
  const int64_t extents[] = {1, 2, 3, 4};
  const int64_t strides[] = {0, 1, 2, 3, -1, 5, 16, 7};
  if (depth == 0 || budget <= 1 || rng() % 3 == 0) {
    int64_t s = pick(extents, COUNT_OF(extents));
    *size *= s;
    sprintf(shape + strlen(shape), "%lld", (long long)s);
    sprintf(stride + strlen(stride), "%lld", (long long)pick(strides, COUNT_OF(strides)));
    return 1;
  }
  int rank = 1 + (int)(rng() % 3), used = 0;
  strcat(shape, "(");
  strcat(stride, "(");
  for (int k = 0; k < rank && used < budget; k++) {
    if (k) {
      strcat(shape, ",");
      strcat(stride, ",");
    }
    used += random_tree(shape, stride, depth - 1, budget - used - (rank - k - 1), size);
  }
  strcat(shape, ")");
  strcat(stride, ")");
  return used;
}

static void test_generated_hierarchical(void **state) {
  (void)state;
  for (int trial = 0; trial < 1500; trial++) {
    char shape[512] = "", stride[512] = "", text[1100];
    int64_t size = 1;
    random_tree(shape, stride, 3, 7, &size);
    if (size > 400)
      continue;
    snprintf(text, sizeof text, "%s:%s", shape, stride);
    check_layout(text);
  }
}

/* Layouts long enough for the range call's rows and tables (a first mode of
 * 64 or more is a row; shorter ones are tabulated up to 64 entries and the
 * next mode split by a divisor), and one with too many modes for it. */
static void test_long_ranges(void **state) {
  (void)state;
  const char *texts[] = {"(64,3):(1,64)",  "(96,5):(5,1)",     "(128,2,3):(3,1,1000)", "(2,100):(100,1)",
                         "(4,9,7):(63,7,1)", "(3,5,7,2):(70,14,2,1)", "((4,8),(2,(2,4))):((2,16),(1,(8,128)))",
                         "(8,16,4):(-1,-8,-128)", "(2,97):(1,-2)", "(33,4,2):(8,1,-4)", "(5,13):(13,1)",
                         "(3,5,7,4,6):(140,28,4,1,2000)", "(2,3,256,5):(1,2,6,1536)", "(300,7):(7,1)",
                         "(257,3):(-3,1)"};
  for (size_t t = 0; t < COUNT_OF(texts); t++)
    check_layout(texts[t]);
  /* More coalesced modes than the odometer keeps (32): one by one, still right. */
  char shape[256] = "(", stride[256] = "(", text[520];
  for (int k = 0; k < 36; k++) {
    strcat(shape, k ? ",2" : "2");
    strcat(stride, k % 2 ? ",3" : (k ? ",1" : "1"));
  }
  snprintf(text, sizeof text, "%s):%s)", shape, stride);
  cl_layout_t *l = lay(text);
  leaves f = leaves_of(l);
  int64_t got[500], begin = (INT64_C(1) << 35) - 250;
  assert_int_equal(cl_layout_eval_range(l, begin, 500, got), CL_OK);
  for (int j = 0; j < 500; j++) {
    check_point(l, &f, begin + j, 1);
    assert_true(got[j] == (int64_t)flat_eval(&f, begin + j));
  }
  cl_layout_free(l);
}

/* Sizes above 2^32 use the wide form of the reciprocals. */
static void test_wide_plans(void **state) {
  (void)state;
  const char *texts[] = {"(1000003,7,999983):(7,1,7000021)", "(65537,65539,3):(1,-65537,5)",
                         "((3,(1024,1024)),(4096,5)):((1,(3,3072)),(100000000,7))", "(4294967311,3):(2,1)",
                         "(4611686018427387903,2):(1,-1)"};
  for (size_t t = 0; t < COUNT_OF(texts); t++) {
    cl_layout_t *l = lay(texts[t]);
    leaves f = leaves_of(l);
    int64_t size = size_of(l);
    for (int trial = 0; trial < 20000; trial++) {
      int64_t i = (int64_t)(rng() % (uint64_t)size);
      if (trial < 64)
        i = trial < 32 ? trial : size - 1 - (trial - 32);
      check_point(l, &f, i, 1);
    }
    const int64_t edges[] = {size, size + 1, -1, INT64_MAX, INT64_MIN};
    for (size_t e = 0; e < COUNT_OF(edges); e++)
      check_point(l, &f, edges[e], 0);
    int64_t got[300];
    int64_t begin = size / 3;
    assert_int_equal(cl_layout_eval_range(l, begin, 300, got), CL_OK);
    for (int j = 0; j < 300; j++)
      check_point(l, &f, begin + j, 1), assert_true(got[j] == (int64_t)flat_eval(&f, begin + j));
    cl_layout_free(l);
  }
}

/* Huge strides: in-range indices that fit, the first that does not, and the
 * last mode's unbounded coordinate past the end. */
static void test_overflow(void **state) {
  (void)state;
  struct {
    const char *layout;
    int64_t i;
    cl_status status;
    int64_t index;
  } cases[] = {
      {"8:4611686018427387904", 1, CL_OK, INT64_C(4611686018427387904)},
      {"8:4611686018427387904", 2, CL_E_OVERFLOW, 0},
      {"(2,8):(1,1152921504606846976)", 15, CL_OK, 7 * INT64_C(1152921504606846976) + 1},
      {"(2,8):(1,1152921504606846976)", 16, CL_E_OVERFLOW, 0},
      {"(2,8):(1,-1152921504606846976)", 17, CL_OK, INT64_MIN + 1},
      {"(2,2):(4611686018427387904,-4611686018427387904)", 1, CL_OK, INT64_C(4611686018427387904)},
      {"(2,2):(4611686018427387904,-4611686018427387904)", 3, CL_OK, 0},
      {"(4,4):(1,4)", INT64_MAX, CL_OK, INT64_MAX},
      {"(4,4):(1,4)", INT64_MIN, CL_OK, INT64_MIN},
      {"(4,4):(2,8)", INT64_MAX, CL_E_OVERFLOW, 0},
      {"(4,4):(0,1)", INT64_MIN, CL_OK, INT64_MIN / 4},
      {"(3,0,5):(1,2,3)", 0, CL_OK, 0},
      {"(3,0,5):(1,2,3)", 2, CL_OK, 2},
      {"(3,0,5):(1,2,3)", 3, CL_E_DOMAIN, 0},
  };
  for (size_t c = 0; c < COUNT_OF(cases); c++) {
    cl_layout_t *l = lay(cases[c].layout);
    int64_t index = -1, tree = -1;
    cl_status s = cl_layout_eval(l, cases[c].i, &index);
    if (s != cases[c].status || (s == CL_OK && index != cases[c].index))
      fail_msg("%s at %lld: %d/%lld", cases[c].layout, (long long)cases[c].i, s, (long long)index);
    assert_int_equal(tree_eval(l, cases[c].i, &tree), s);
    if (s == CL_OK)
      assert_true(tree == index);
    /* The range call says the same, and leaves zeros on failure. */
    int64_t got[3] = {7, 7, 7};
    int interior = cases[c].i > INT64_MIN && cases[c].i < INT64_MAX;
    int64_t begin = interior ? cases[c].i - 1 : cases[c].i, count = interior ? 2 : 1;
    cl_status rs = cl_layout_eval_range(l, begin, count, got);
    if (s != CL_OK) {
      if (rs != s || got[0] != 0 || got[count - 1] != 0)
        fail_msg("%s: eval_range(%lld, %lld) = %d, [%lld, %lld]", cases[c].layout, (long long)begin, (long long)count,
                 rs, (long long)got[0], (long long)got[count - 1]);
    } else if (rs == CL_OK) {
      assert_true(got[cases[c].i - begin] == index);
    }
    cl_layout_free(l);
  }
}

static void test_errors(void **state) {
  (void)state;
  cl_layout_t *l = lay("(4,8):(1,4)");
  int64_t index = 3, out[4];
  assert_int_equal(cl_layout_eval(NULL, 0, &index), CL_E_NULL);
  assert_int_equal(cl_layout_eval(l, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_eval_range(NULL, 0, 4, out), CL_E_NULL);
  assert_int_equal(cl_layout_eval_range(l, 0, 4, NULL), CL_E_NULL);
  assert_int_equal(cl_layout_eval_range(l, 0, 0, NULL), CL_OK);
  assert_int_equal(cl_layout_eval_range(l, 0, -1, out), CL_E_DOMAIN);
  assert_int_equal(cl_layout_eval_range(l, INT64_MAX - 2, 4, out), CL_E_OVERFLOW);
  assert_int_equal(cl_layout_eval_range(l, INT64_MAX - 4, 4, out), CL_OK);
  assert_true(out[3] == INT64_MAX - 1);
  cl_layout_free(l);
  /* CuTe cannot evaluate through an empty tuple: no plan, the trees' error. */
  const char *empty[] = {"(4,()):(1,())", "((),4):((),1)", "():()"};
  for (size_t e = 0; e < COUNT_OF(empty); e++) {
    cl_layout_t *x = NULL;
    if (cl_layout_parse(empty[e], &x) != CL_OK)
      continue;
    for (int64_t i = -1; i < 6; i++) {
      int64_t fast = 0, tree = 0;
      cl_status sf = cl_layout_eval(x, i, &fast), st = tree_eval(x, i, &tree);
      assert_int_equal(sf, st);
      if (sf == CL_OK)
        assert_true(fast == tree);
    }
    cl_layout_free(x);
  }
}

/* ---------------------------------------------------- memory: bytes, no allocation */

static size_t last_alloc_size;
static void *last_alloc_ptr;
static int allocations;
static void *count_alloc(void *ctx, size_t size) {
  (void)ctx;
  allocations++;
  last_alloc_size = size;
  return last_alloc_ptr = malloc(size);
}
static void *count_realloc(void *ctx, void *p, size_t size) {
  (void)ctx;
  allocations++;
  last_alloc_size = size;
  return last_alloc_ptr = realloc(p, size);
}
static void count_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

static void test_handle_bytes_and_no_allocation(void **state) {
  (void)state;
  cl_allocator a = {count_alloc, count_realloc, count_free, NULL};
  assert_int_equal(cl_set_allocator(&a), CL_OK);
  /* A rank-4 flat layout that does not coalesce: 3 terms, the most it can have. */
  cl_layout_t *l = NULL;
  assert_int_equal(cl_layout_parse("(4,8,2,16):(1,64,3,7)", &l), CL_OK);
  assert_ptr_equal(last_alloc_ptr, l);
  assert_true(last_alloc_size <= 256);
  assert_int_equal(last_alloc_size, 248);
  cl_layout_t *copy = NULL;
  assert_int_equal(cl_layout_copy(l, &copy), CL_OK);
  assert_int_equal(last_alloc_size, 248);
  int before = allocations;
  int64_t sum = 0, index, out[1000];
  for (int64_t i = -10; i < 2000; i++)
    if (cl_layout_eval(l, i, &index) == CL_OK)
      sum += index;
  assert_int_equal(cl_layout_eval_range(l, -5, 1000, out), CL_OK);
  assert_int_equal(cl_layout_eval_range(copy, 3, 1000, out), CL_OK);
  assert_int_equal(allocations, before);
  assert_true(sum != 0);
  cl_layout_free(copy);
  cl_layout_free(l);
  assert_int_equal(cl_set_allocator(NULL), CL_OK);
}

#if !defined(__STDC_NO_THREADS__)
#include <threads.h>
/* The plan is compiled by the first evaluation of a handle; threads racing to
 * be first must all get right answers (and, under ThreadSanitizer, no race). */
static cl_layout_t *race_layout;
static int64_t race_expected[512];
static int race_wrong;
static int race_worker(void *arg) {
  (void)arg;
  int wrong = 0;
  int64_t out[512], v;
  for (int64_t i = 0; i < 512; i++)
    wrong += cl_layout_eval(race_layout, i, &v) != CL_OK || v != race_expected[i];
  wrong += cl_layout_eval_range(race_layout, 0, 512, out) != CL_OK;
  for (int i = 0; i < 512; i++)
    wrong += out[i] != race_expected[i];
  return wrong;
}

static void test_threads_share_a_fresh_handle(void **state) {
  (void)state;
  cl_layout_t *ref = lay("((4,8),(2,(2,4))):((2,16),(1,(8,128)))");
  leaves f = leaves_of(ref);
  for (int i = 0; i < 512; i++)
    race_expected[i] = (int64_t)flat_eval(&f, i);
  for (int round = 0; round < 50; round++) {
    assert_int_equal(cl_layout_copy(ref, &race_layout), CL_OK); /* not yet evaluated */
    thrd_t t[4];
    for (int k = 0; k < 4; k++)
      assert_int_equal(thrd_create(&t[k], race_worker, NULL), thrd_success);
    for (int k = 0; k < 4; k++) {
      int wrong = 0;
      thrd_join(t[k], &wrong);
      race_wrong += wrong;
    }
    cl_layout_free(race_layout);
  }
  assert_int_equal(race_wrong, 0);
  cl_layout_free(ref);
}
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_documented_examples), cmocka_unit_test(test_generated_flat),
      cmocka_unit_test(test_generated_hierarchical), cmocka_unit_test(test_long_ranges),
      cmocka_unit_test(test_wide_plans), cmocka_unit_test(test_overflow), cmocka_unit_test(test_errors),
      cmocka_unit_test(test_handle_bytes_and_no_allocation),
#if !defined(__STDC_NO_THREADS__)
      cmocka_unit_test(test_threads_share_a_fresh_handle),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
