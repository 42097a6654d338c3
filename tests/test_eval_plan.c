/* SPDX-License-Identifier: BSD-3-Clause */
/* test_eval_plan.c: the compiled evaluation plan (cl_layout_eval), the same
 * plan as plain data evaluated inline (cl_layout_compile,
 * cl_composed_compile, cl_compiled_eval) and the odometer
 * (cl_layout_eval_range) against CuTe's evaluation on the trees.
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

/* The modes of coalesce(l): what a compiled plan keeps, one term for each
 * after the first.  -1 where coalesce itself overflows (s * d of a mode
 * beyond int64_t). */
static int coalesced_rank(const cl_layout_t *l) {
  cl_layout_t *c = NULL;
  cl_status s = cl_coalesce(l, &c);
  if (s == CL_E_OVERFLOW)
    return -1;
  assert_int_equal(s, CL_OK);
  leaves f = leaves_of(c);
  cl_layout_free(c);
  return f.n;
}

/* A layout flagged index32 has its values in int32_t, and the 32-bit sum
 * that device code uses for its power-of-two and narrow forms is the value. */
static void check_sum32(const cl_compiled_layout_t *c, int64_t i, int64_t ref) {
  if (!c->index32)
    return;
  assert_true(ref >= INT32_MIN && ref <= INT32_MAX && (uint64_t)c->size <= (uint64_t)1 << 32);
  if (c->form != CL_COMPILED_POW2 && c->form != CL_COMPILED_NARROW)
    return;
  uint64_t v = cl_compiled_plan_eval32((uint32_t)i, (uint32_t)c->d0, c->term, c->shift, c->nterms,
                                       (cl_compiled_form)c->form);
  if ((int64_t)v != ref)
    fail_msg("32-bit sum at i=%lld: %lld, expected %lld", (long long)i, (long long)(int64_t)v, (long long)ref);
}

/* cl_layout_compile succeeds, keeps coalesce(l)'s modes, and a copy of the
 * plain data evaluates inline to the definition (128 bits) and to
 * cl_layout_eval at every i of the domain, or at `samples` random ones when
 * that is > 0. */
static void check_compiled(const cl_layout_t *l, const leaves *f, int samples) {
  cl_compiled_layout_t compiled, c;
  memset(&compiled, 0xab, sizeof compiled);
  assert_int_equal(cl_layout_compile(l, &compiled), CL_OK);
  memcpy(&c, &compiled, sizeof c);
  int64_t size = size_of(l);
  assert_true(c.size == size);
  int rank = size > 0 ? coalesced_rank(l) : -1;
  if (rank >= 0)
    assert_int_equal(c.nterms + 1, rank);
  int64_t n = size == 0 ? 0 : samples > 0 ? samples : size;
  for (int64_t k = 0; k < n; k++) {
    int64_t i = samples > 0 ? (k < 16 ? k % 8 + (k < 8 ? 0 : size - 8) : (int64_t)(rng() % (uint64_t)size)) : k, ref = -1;
    if (i < 0 || i >= size)
      continue;
    int64_t v = cl_compiled_eval(&c, i);
    assert_int_equal(cl_layout_eval(l, i, &ref), CL_OK);
    if (v != ref || (i128)v != flat_eval(f, i))
      fail_msg("compiled at i=%lld: %lld, cl_layout_eval %lld, definition %lld", (long long)i, (long long)v,
               (long long)ref, (long long)flat_eval(f, i));
    check_sum32(&c, i, ref);
  }
}

/* Every i in [-size-3, 2*size+3], the extremes of int64_t, and the range
 * call over windows that start and end everywhere interesting. */
static void check_layout(const char *text) {
  cl_layout_t *l = lay(text);
  leaves f = leaves_of(l);
  int64_t size = size_of(l);
  for (int64_t i = -size - 3; i <= 2 * size + 3; i++)
    check_point(l, &f, i, 1);
  check_compiled(l, &f, 0);
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
  const char *texts[] = {"(1000003,7,999983):(7,1,7000021)", "(65537,65539,3):(1,-65537,5)", "(1048576,1048576,16):(3,-5,7)",
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
    check_compiled(l, &f, 20000);
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

/* ------------------------------------------------- compiled layouts */

/* Every byte of a compiled layout is 0: what a failed compile leaves. */
static void assert_zeroed(const cl_compiled_layout_t *c) {
  const unsigned char *bytes = (const unsigned char *)c;
  for (size_t k = 0; k < sizeof *c; k++)
    assert_int_equal(bytes[k], 0);
}

/* A compile function `what` returned s for text: the expected status, and a
 * failure leaves a zeroed result and a message naming the function. */
static void check_compile_status(const char *what, const char *text, cl_status s, cl_status expected,
                                 const cl_compiled_layout_t *c) {
  if (s != expected)
    fail_msg("%s(%s) = %d, expected %d (%s)", what, text, s, expected, cl_last_error());
  if (s != CL_OK) {
    assert_zeroed(c);
    assert_true(strstr(cl_last_error(), "_compile") != NULL);
  }
}

static void expect_compile(const char *text, cl_status expected) {
  cl_layout_t *l = lay(text);
  cl_compiled_layout_t c;
  memset(&c, 0xab, sizeof c);
  cl_status s = cl_layout_compile(l, &c);
  check_compile_status("cl_layout_compile", text, s, expected, &c);
  if (s == CL_OK) {
    leaves f = leaves_of(l);
    check_compiled(l, &f, 4096);
  }
  cl_layout_free(l);
}

/* n modes of extent 2 with strides 3^k: no two coalesce. */
static void modes_text(char *text, size_t cap, int n, int coalescing_pair) {
  char shape[256] = "(", stride[512] = "(";
  int64_t d = 1;
  for (int k = 0; k < n; k++) {
    snprintf(shape + strlen(shape), 8, "%s2", k ? "," : "");
    snprintf(stride + strlen(stride), 32, "%s%lld", k ? "," : "", (long long)d);
    if (k + 1 < n) /* none after the last mode: for 40 modes it would be 3^40 > INT64_MAX */
      d = k == coalescing_pair ? 2 * d : 3 * d; /* 2 * d: mode k+1 continues mode k */
  }
  snprintf(text, cap, "%s):%s)", shape, stride);
}

static void test_compile_statuses(void **state) {
  (void)state;
  cl_compiled_layout_t c;
  cl_layout_t *l = lay("(4,8):(1,4)");
  memset(&c, 0xab, sizeof c);
  assert_int_equal(cl_layout_compile(NULL, &c), CL_E_NULL);
  assert_zeroed(&c);
  assert_int_equal(cl_layout_compile(l, NULL), CL_E_NULL);
  cl_layout_free(l);

  /* CL_COMPILED_MAX_MODES counts the modes of coalesce(L). */
  char text[1024];
  modes_text(text, sizeof text, CL_COMPILED_MAX_MODES, -1);
  expect_compile(text, CL_OK);
  modes_text(text, sizeof text, CL_COMPILED_MAX_MODES + 1, -1);
  expect_compile(text, CL_E_LIMIT);
  modes_text(text, sizeof text, CL_COMPILED_MAX_MODES + 1, 5);
  expect_compile(text, CL_OK);
  modes_text(text, sizeof text, 40, -1);
  expect_compile(text, CL_E_LIMIT);
  /* Size-1 modes are not modes of coalesce(L). */
  expect_compile("(2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1,2,1):"
                 "(1,9,3,9,9,9,27,9,81,9,243,9,729,9,2187,9,6561,9,19683,9,59049,9,177147,9,531441,9,"
                 "1594323,9,4782969,9,14348907,9)",
                 CL_OK);

  /* Overflow: the extremes of layout(i) over the domain, not their magnitudes. */
  expect_compile("8:4611686018427387904", CL_E_OVERFLOW);
  expect_compile("(2,8):(1,1152921504606846976)", CL_OK);       /* 1 + 7 * 2^60 */
  expect_compile("(2,8):(2,1152921504606846976)", CL_OK);       /* 2 + 7 * 2^60 */
  expect_compile("(2,9):(1,1152921504606846976)", CL_E_OVERFLOW); /* 8 * 2^60 = 2^63 */
  expect_compile("(2,2):(4611686018427387904,-4611686018427387904)", CL_OK);
  expect_compile("(2,2):(-4611686018427387904,-4611686018427387904)", CL_OK); /* -2^63 */
  expect_compile("(2,2,2):(-4611686018427387904,-4611686018427387904,-1)", CL_E_OVERFLOW);
  expect_compile("2:-9223372036854775808", CL_OK);
  expect_compile("(4294967296,4294967296):(1,0)", CL_E_OVERFLOW); /* size 2^64 */
  expect_compile("(4294967296,2147483648):(0,1)", CL_E_OVERFLOW); /* size 2^63 */
  expect_compile("(4294967296,2147483647):(0,1)", CL_OK);         /* size 2^63 - 2^32 */
  expect_compile("(3,0,5):(1,2,3)", CL_OK);                        /* empty domain */

  /* Scaled-basis strides map to coordinates, not to integer indices (and
   * a composed layout cannot hold them). */
  expect_compile("(4,8):(1@0,1@1)", CL_E_TYPE);
  expect_compile("((2,2),3):((1,1@1),4)", CL_E_TYPE);

  /* CuTe cannot evaluate through (); a negative extent has no domain. */
  const char *domain[] = {"(4,()):(1,())", "((),4):((),1)", "():()", "(-2,4):(1,2)", "-3:1"};
  for (size_t k = 0; k < COUNT_OF(domain); k++) {
    cl_layout_t *x = NULL;
    if (cl_layout_parse(domain[k], &x) != CL_OK)
      continue;
    memset(&c, 0xab, sizeof c);
    assert_int_equal(cl_layout_compile(x, &c), CL_E_DOMAIN);
    assert_zeroed(&c);
    cl_layout_free(x);
  }
}

/* The form compile chooses (compiled.h): one term for narrow layouts of at
 * most one term without offset or swizzle, shifts when every divisor P_k
 * is a power of two, and the narrow or wide reciprocals otherwise. */
static void expect_form(const char *text, cl_compiled_form form, int nterms, const uint8_t *shifts) {
  cl_compiled_layout_t c;
  cl_layout_t *l = NULL;
  cl_composed_t *composed = NULL;
  if (strstr(text, " o ") != NULL) {
    assert_int_equal(cl_composed_parse(text, &composed), CL_OK);
    assert_int_equal(cl_composed_compile(composed, &c), CL_OK);
  } else {
    l = lay(text);
    assert_int_equal(cl_layout_compile(l, &c), CL_OK);
  }
  if (c.form != form || c.nterms != nterms)
    fail_msg("%s: form %d with %d terms, expected form %d with %d", text, c.form, c.nterms, form, nterms);
  for (int k = 0; shifts != NULL && k < nterms; k++)
    assert_int_equal(c.shift[k], shifts[k]);
  for (int k = nterms; k < CL_COMPILED_MAX_MODES - 1; k++)
    assert_true(c.term[k].magic == 0 && c.term[k].coef == 0 && c.shift[k] == 0);
  cl_layout_free(l);
  cl_composed_free(composed);
}

static void test_compiled_forms(void **state) {
  (void)state;
  expect_form("(64,32):(32,1)", CL_COMPILED_ONE_TERM, 1, NULL);
  expect_form("(3,5):(5,1)", CL_COMPILED_ONE_TERM, 1, NULL);
  expect_form("8:3", CL_COMPILED_ONE_TERM, 0, NULL);
  expect_form("(8,4,8,16):(4,1,512,32)", CL_COMPILED_POW2, 3, (const uint8_t[]){3, 5, 8});
  expect_form("((4,8),(2,(2,4))):((2,16),(1,(8,128)))", CL_COMPILED_POW2, 4, (const uint8_t[]){2, 5, 6, 7});
  expect_form("(3,5,7):(1,5,2)", CL_COMPILED_NARROW, 2, (const uint8_t[]){0, 0});
  expect_form("(4,3,7):(1,5,2)", CL_COMPILED_NARROW, 2, NULL);
  expect_form("(4294967311,3):(2,1)", CL_COMPILED_WIDE, 1, (const uint8_t[]){32});
  expect_form("(1048576,1048576,16):(3,-5,7)", CL_COMPILED_POW2, 2, (const uint8_t[]){20, 40});
  /* index32: the values within int32_t and the domain within 2^32. */
  cl_compiled_layout_t c;
  const struct {
    const char *text;
    int index32;
  } flags[] = {{"(8,4,8,16):(4,1,512,32)", 1}, {"(3,5,7,9):(45,1,135,5)", 1}, {"(2,3):(1073741823,-1)", 1},
               {"(2,2):(1073741824,1073741824)", 0}, {"(2,2):(-1073741824,-1073741824)", 1},
               {"(3,2):(-1073741824,1)", 1}, {"(3,2):(-1073741825,1)", 0}, {"(65536,65537):(0,1)", 0}, {"(65536,65536):(0,1)", 1}};
  for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
    cl_layout_t *l = lay(flags[k].text);
    assert_int_equal(cl_layout_compile(l, &c), CL_OK);
    if (c.index32 != flags[k].index32)
      fail_msg("%s: index32 %d, expected %d", flags[k].text, c.index32, flags[k].index32);
    for (int64_t i = 0; i < 64 && i < c.size; i++) {
      int64_t ref;
      assert_int_equal(cl_layout_eval(l, c.size - 1 - i, &ref), CL_OK);
      check_sum32(&c, c.size - 1 - i, ref);
    }
    cl_layout_free(l);
  }
  /* An offset or a swizzle rules out the one-term form; the identity at 0 does not. */
  expect_form("Sw<3,3,3> o 0 o (64,32):(32,1)", CL_COMPILED_POW2, 1, (const uint8_t[]){6});
  expect_form("Sw<0,2,2> o 0 o (64,32):(32,1)", CL_COMPILED_ONE_TERM, 1, NULL);
  expect_form("Sw<0,2,2> o 3 o (3,5):(5,1)", CL_COMPILED_NARROW, 1, NULL);
}

/* The value of a swizzled layout by its definition: Sw(offset + L(i)). */
static int64_t swizzled_definition(cl_swizzle_t sw, int64_t offset, const leaves *f, int64_t i) {
  int64_t x = offset + (int64_t)flat_eval(f, i), v = 0;
  assert_int_equal(cl_swizzle_apply(sw, x, &v), CL_OK);
  return v;
}

/* cl_composed_compile against cl_composed_eval at every i of the domain. */
static void check_swizzled(const cl_composed_t *composed, int64_t size) {
  cl_compiled_layout_t c;
  memset(&c, 0xab, sizeof c);
  assert_int_equal(cl_composed_compile(composed, &c), CL_OK);
  assert_true(c.size == size);
  for (int64_t i = 0; i < size; i++) {
    int64_t ref = 0;
    assert_int_equal(cl_composed_eval(composed, i, &ref), CL_OK);
    if (cl_compiled_eval(&c, i) != ref) {
      char text[256];
      cl_composed_format(composed, text, sizeof text);
      fail_msg("%s at %lld: compiled %lld, cl_composed_eval %lld", text, (long long)i,
               (long long)cl_compiled_eval(&c, i), (long long)ref);
    }
  }
}

static void test_compiled_swizzled(void **state) {
  (void)state;
  const char *inner[] = {"(8,64):(64,1)", "(8,8):(8,1)", "(4,(2,4)):(16,(1,4))", "(8,4):(-4,1)", "((2,2),(4,2)):((1,64),(2,8))",
                         "32:1", "(3,5):(5,-1)", "(1,16):(7,2)", "(2,1,8):(1,9,-16)"};
  const int64_t offsets[] = {0, 3, 64, -100, 1000, 4096 + 7};
  int checked = 0;
  for (size_t k = 0; k < COUNT_OF(inner); k++) {
    cl_layout_t *l = lay(inner[k]);
    leaves f = leaves_of(l);
    int64_t size = size_of(l);
    for (int64_t b = 0; b <= 3; b++)
      for (int64_t m = 0; m <= 4; m++)
        for (int64_t sh = -6; sh <= 6; sh++) {
          cl_swizzle_t sw;
          if (cl_swizzle_make(b, m, sh, &sw) != CL_OK)
            continue;
          for (size_t o = 0; o < COUNT_OF(offsets); o++) {
            cl_composed_t *composed = NULL;
            assert_int_equal(cl_make_composed_layout(cl_fn_swizzle(sw), offsets[o], cl_fn_layout(l), &composed), CL_OK);
            check_swizzled(composed, size);
            /* and the definition, for the first few */
            cl_compiled_layout_t c;
            assert_int_equal(cl_composed_compile(composed, &c), CL_OK);
            for (int64_t i = 0; i < size && i < 8; i++)
              assert_true(cl_compiled_eval(&c, i) == swizzled_definition(sw, offsets[o], &f, i));
            cl_composed_free(composed);
            checked++;
          }
        }
    cl_layout_free(l);
  }
  assert_true(checked > 1000);

  /* CuTe's 128-byte swizzle of an 8 x 64 tile, by hand: L(1) = 64 has yyy
   * bit 6, which Sw<3,3,3> XORs into bit 3: 72. */
  cl_composed_t *composed = NULL;
  assert_int_equal(cl_composed_parse("Sw<3,3,3> o 0 o (8,64):(64,1)", &composed), CL_OK);
  cl_compiled_layout_t c;
  assert_int_equal(cl_composed_compile(composed, &c), CL_OK);
  assert_true(cl_compiled_eval(&c, 1) == 72);
  assert_true(cl_compiled_eval(&c, 8) == 1);
  assert_true(cl_compiled_eval(&c, 511) == (511 ^ (7 << 3)));
  check_swizzled(composed, 512);

  /* downcast makes the offset CuTe's unsigned int: it compiles while
   * offset + L(i) stays in [0, 2^32). */
  cl_layout_t *plain = NULL;
  cl_composed_t *cast = NULL;
  assert_int_equal(cl_composed_downcast(composed, 2, &plain, &cast), CL_OK);
  assert_non_null(cast);
  check_swizzled(cast, 1024);
  cl_composed_free(cast);
  cl_composed_free(composed);
  assert_int_equal(cl_composed_parse("Sw<2,2,3> o 4 o 8:-2", &composed), CL_OK);
  assert_int_equal(cl_composed_upcast(composed, 2, &plain, &cast), CL_OK); /* Sw<2,1,3> o 2 o 8:-1 */
  assert_non_null(cast);
  memset(&c, 0xab, sizeof c);
  assert_int_equal(cl_composed_compile(cast, &c), CL_E_OVERFLOW); /* 2 - 7 wraps in CuTe's unsigned offset */
  assert_zeroed(&c);
  cl_composed_free(cast);
  cl_composed_free(composed);
}

static void expect_composed_compile(const char *text, cl_status expected) {
  cl_composed_t *composed = NULL;
  if (cl_composed_parse(text, &composed) != CL_OK)
    fail_msg("cl_composed_parse(%s): %s", text, cl_last_error());
  cl_compiled_layout_t c;
  memset(&c, 0xab, sizeof c);
  cl_status s = cl_composed_compile(composed, &c);
  check_compile_status("cl_composed_compile", text, s, expected, &c);
  if (s == CL_OK) {
    int64_t size = 0;
    assert_int_equal(cl_composed_size(composed, &size), CL_OK);
    check_swizzled(composed, size);
  }
  cl_composed_free(composed);
}

static void test_compiled_swizzled_statuses(void **state) {
  (void)state;
  cl_compiled_layout_t c;
  memset(&c, 0xab, sizeof c);
  assert_int_equal(cl_composed_compile(NULL, &c), CL_E_NULL);
  assert_zeroed(&c);
  cl_composed_t *composed = NULL;
  assert_int_equal(cl_composed_parse("Sw<1,1,1> o 0 o 8:1", &composed), CL_OK);
  assert_int_equal(cl_composed_compile(composed, NULL), CL_E_NULL);
  cl_composed_free(composed);

  /* Only a swizzle of a layout. */
  cl_layout_t *l = lay("(4,2):(1,4)");
  cl_swizzle_t sw = {1, 1, 1};
  cl_composed_t *outer_layout = NULL, *inner_swizzle = NULL;
  assert_int_equal(cl_make_composed_layout(cl_fn_layout(l), 0, cl_fn_layout(l), &outer_layout), CL_OK);
  assert_int_equal(cl_make_composed_layout(cl_fn_swizzle(sw), 0, cl_fn_swizzle(sw), &inner_swizzle), CL_OK);
  memset(&c, 0xab, sizeof c);
  assert_int_equal(cl_composed_compile(outer_layout, &c), CL_E_UNSUPPORTED);
  assert_zeroed(&c);
  memset(&c, 0xab, sizeof c);
  assert_int_equal(cl_composed_compile(inner_swizzle, &c), CL_E_UNSUPPORTED);
  assert_zeroed(&c);
  cl_composed_free(outer_layout);
  cl_composed_free(inner_swizzle);
  cl_layout_free(l);

  /* Masks that reach bit 31 (CuTe's int arithmetic), and the largest that do not. */
  expect_composed_compile("Sw<1,0,31> o 0 o 8:1", CL_E_OVERFLOW);
  expect_composed_compile("Sw<1,0,-31> o 0 o 8:1", CL_E_OVERFLOW);
  expect_composed_compile("Sw<1,0,30> o 0 o 8:1", CL_OK);
  expect_composed_compile("Sw<1,0,-30> o 0 o 8:1", CL_OK);
  expect_composed_compile("Sw<2,3,-4> o 0 o (8,8):(8,1)", CL_OK);
  /* The offset: offset + L(i) within int64_t. */
  expect_composed_compile("Sw<2,0,2> o 9223372036854775804 o 4:1", CL_OK);
  expect_composed_compile("Sw<2,0,2> o 9223372036854775805 o 4:1", CL_E_OVERFLOW);
  expect_composed_compile("Sw<2,0,2> o -9223372036854775805 o 4:-1", CL_OK);
  expect_composed_compile("Sw<2,0,2> o -9223372036854775806 o 4:-1", CL_E_OVERFLOW);
  /* The inner layout's own statuses; an empty domain compiles. */
  expect_composed_compile("Sw<1,1,1> o 0 o 8:4611686018427387904", CL_E_OVERFLOW);
  expect_composed_compile("Sw<1,1,1> o 5 o (4,0):(1,1)", CL_OK);
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
  assert_int_equal(last_alloc_size, 256);
  cl_layout_t *copy = NULL;
  assert_int_equal(cl_layout_copy(l, &copy), CL_OK);
  assert_int_equal(last_alloc_size, 256);
  int before = allocations;
  int64_t sum = 0, index, out[1000];
  for (int64_t i = -10; i < 2000; i++)
    if (cl_layout_eval(l, i, &index) == CL_OK)
      sum += index;
  assert_int_equal(cl_layout_eval_range(l, -5, 1000, out), CL_OK);
  assert_int_equal(cl_layout_eval_range(copy, 3, 1000, out), CL_OK);
  /* Compiling a layout, or a swizzled one, allocates nothing either. */
  cl_compiled_layout_t compiled;
  assert_int_equal(cl_layout_compile(l, &compiled), CL_OK);
  assert_int_equal(cl_layout_compile(NULL, &compiled), CL_E_NULL);
  int with_swizzle = allocations;
  cl_composed_t *composed = NULL;
  assert_int_equal(cl_composed_parse("Sw<2,2,3> o 4 o (4,8,2,16):(1,64,3,7)", &composed), CL_OK);
  with_swizzle = allocations - with_swizzle;
  assert_int_equal(cl_composed_compile(composed, &compiled), CL_OK);
  assert_int_equal(allocations, before + with_swizzle);
  cl_composed_free(composed);
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
      cmocka_unit_test(test_compile_statuses), cmocka_unit_test(test_compiled_forms),
      cmocka_unit_test(test_compiled_swizzled),
      cmocka_unit_test(test_compiled_swizzled_statuses), cmocka_unit_test(test_handle_bytes_and_no_allocation),
#if !defined(__STDC_NO_THREADS__)
      cmocka_unit_test(test_threads_share_a_fresh_handle),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
