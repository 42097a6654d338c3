/* SPDX-License-Identifier: BSD-3-Clause */
/* test_explain.c: explanations (explain.h) replay.
 *
 * Every step's expression is evaluated with the eval language (the tool's
 * own evaluator, which calls the library's functions) and must give the
 * step's value; the last step must be the operation's result as the
 * library's function computes it.  This holds over generated families of
 * small layouts (every shape and stride of a small set, rank 1 and 2) and
 * documented cases; failing operations end in a "fails" step whose
 * expression fails too. */
#include "test_util.h"

#include <cutelayout/explain.h>

#include "eval.h"

/* ---------------------------------------------------------------- replay */

/* The value of an eval-language expression, as canonical text (malloc'ed),
 * or NULL when it fails. */
static char *evaluate(const char *expr) {
  value v = {0};
  if (eval_expression(expr, &v) != CL_OK)
    return NULL;
  char *text = value_format(&v);
  value_free(&v);
  return text;
}

/* Replays every step; returns the number of steps. */
static int64_t replay(const cl_explanation_t *e, const char *what) {
  int64_t n = cl_explanation_count(e);
  assert_true(n >= 1);
  for (int64_t i = 0; i < n; i++) {
    const char *rule = cl_explanation_rule(e, i), *expr = cl_explanation_expression(e, i),
               *said = cl_explanation_value(e, i), *sentence = cl_explanation_sentence(e, i);
    assert_non_null(rule);
    assert_non_null(expr);
    assert_non_null(said);
    assert_non_null(sentence);
    assert_true(cl_explanation_depth(e, i) >= 0);
    char *replayed = evaluate(expr);
    if (strcmp(rule, "fails") == 0) {
      if (replayed != NULL)
        fail_msg("%s: step %lld fails, but %s gives %s", what, (long long)i, expr, replayed);
      assert_string_equal(said, "");
      assert_int_not_equal(cl_explanation_status(e), CL_OK);
      continue;
    }
    if (replayed == NULL)
      fail_msg("%s: step %lld (%s) does not replay: %s fails: %s", what, (long long)i, rule, expr,
               eval_error_message(CL_E_DOMAIN));
    if (strcmp(replayed, said) != 0)
      fail_msg("%s: step %lld (%s): %s gives %s, the step says %s", what, (long long)i, rule, expr, replayed, said);
    free(replayed);
    const cl_layout_t *l = cl_explanation_layout(e, i);
    if (l != NULL) {
      char *text = NULL;
      assert_int_equal(cl_layout_to_string(l, &text), CL_OK);
      assert_string_equal(text, said);
      cl_string_free(text);
    }
  }
  return n;
}

typedef cl_status (*tiler_fn)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);
typedef cl_status (*binary_fn)(const cl_layout_t *, const cl_layout_t *, cl_layout_t **);

/* The library's own answer for op(l, arg). */
static cl_status library_result(const char *op, const cl_layout_t *l, const cl_tuple_t *arg, cl_layout_t **out) {
  static const struct {
    const char *name;
    tiler_fn f;
  } tilers[] = {
    {"composition", cl_composition_tiler},       {"logical_divide", cl_logical_divide_tiler},
    {"zipped_divide", cl_zipped_divide_tiler},   {"tiled_divide", cl_tiled_divide_tiler},
    {"flat_divide", cl_flat_divide_tiler},       {"logical_product", cl_logical_product_tiler},
    {"zipped_product", cl_zipped_product_tiler}, {"tiled_product", cl_tiled_product_tiler},
    {"flat_product", cl_flat_product_tiler},
  };
  for (size_t i = 0; i < COUNT_OF(tilers); i++)
    if (strcmp(op, tilers[i].name) == 0)
      return tilers[i].f(l, arg, out);
  if (strcmp(op, "blocked_product") == 0 || strcmp(op, "raked_product") == 0) {
    cl_layout_t *b = NULL;
    assert_int_equal(cl_tuple_layout(arg, &b), CL_OK);
    cl_status s = op[0] == 'b' ? cl_blocked_product(l, b, out) : cl_raked_product(l, b, out);
    cl_layout_free(b);
    return s;
  }
  if (strcmp(op, "complement") == 0)
    return arg ? cl_complement_shape(l, arg, out) : cl_complement_full(l, out);
  if (strcmp(op, "coalesce") == 0)
    return cl_coalesce(l, out);
  if (strcmp(op, "right_inverse") == 0)
    return cl_right_inverse(l, out);
  assert_string_equal(op, "left_inverse");
  return cl_left_inverse(l, out);
}

/* Explains op(l[, arg]) (texts), replays it, and checks its end against the
 * library: the result, or the same failure.  Returns the operation's status. */
static cl_status check(const char *op, const char *l_text, const char *arg_text) {
  char what[512];
  snprintf(what, sizeof what, "%s(%s%s%s)", op, l_text, arg_text ? "," : "", arg_text ? arg_text : "");
  cl_layout_t *l = lay(l_text);
  cl_tuple_t *arg = arg_text ? tup(arg_text) : NULL;
  cl_explanation_t *e = NULL;
  cl_status s = cl_explain(op, l, arg, &e);
  if (s != CL_OK)
    fail_msg("%s: cl_explain = %d: %s", what, s, cl_last_error());
  int64_t n = replay(e, what);
  cl_layout_t *expected = NULL;
  cl_status lib = library_result(op, l, arg, &expected);
  assert_int_equal(cl_explanation_status(e), lib);
  const char *last_rule = cl_explanation_rule(e, n - 1);
  if (lib == CL_OK) {
    assert_string_equal(last_rule, "result");
    assert_int_equal(cl_explanation_depth(e, n - 1), 0);
    if (!cl_layout_equal(cl_explanation_layout(e, n - 1), expected))
      fail_msg("%s: the explanation ends in %s", what, cl_explanation_value(e, n - 1));
  } else {
    assert_string_equal(last_rule, "fails");
  }
  char *text = NULL;
  assert_int_equal(cl_explanation_text(e, &text), CL_OK);
  assert_non_null(strstr(text, what));
  cl_string_free(text);
  cl_layout_free(expected);
  cl_explanation_free(e);
  cl_layout_free(l);
  cl_tuple_free(arg);
  return lib;
}

/* ------------------------------------------------------------ families */

static const int64_t shapes[] = {1, 2, 3, 4};
static const int64_t strides[] = {0, 1, 2, 3, 4, 8};

/* The k-th layout of the family: rank 1 (k < 24) or rank 2 (k < 24 + 576). */
#define FAMILY_RANK1 ((int)(COUNT_OF(shapes) * COUNT_OF(strides)))
#define FAMILY_SIZE (FAMILY_RANK1 + FAMILY_RANK1 * FAMILY_RANK1)
static void family(int k, char *buf, size_t cap) {
  int m = (int)COUNT_OF(strides);
  if (k < FAMILY_RANK1) {
    snprintf(buf, cap, "%lld:%lld", (long long)shapes[k / m], (long long)strides[k % m]);
    return;
  }
  int a = (k - FAMILY_RANK1) / FAMILY_RANK1, b = (k - FAMILY_RANK1) % FAMILY_RANK1;
  snprintf(buf, cap, "(%lld,%lld):(%lld,%lld)", (long long)shapes[a / m], (long long)shapes[b / m],
           (long long)strides[a % m], (long long)strides[b % m]);
}

static void unary_families(void **state) {
  (void)state;
  static const char *const ops[] = {"coalesce", "right_inverse", "left_inverse", "complement"};
  char l[64];
  int failed = 0;
  for (size_t o = 0; o < COUNT_OF(ops); o++)
    for (int k = 0; k < FAMILY_SIZE; k++) {
      family(k, l, sizeof l);
      failed += check(ops[o], l, NULL) != CL_OK;
    }
  assert_true(failed > 0); /* the family has non-injective layouts */
}

static void complement_families(void **state) {
  (void)state;
  static const char *const cotargets[] = {"1", "7", "24", "(4,6)", "(3,5)"};
  char l[64];
  for (size_t c = 0; c < COUNT_OF(cotargets); c++)
    for (int k = 0; k < FAMILY_SIZE; k += 3) {
      family(k, l, sizeof l);
      check("complement", l, cotargets[c]);
    }
}

/* Every rank-1 and rank-2 A with every rank-1 B, and some rank-2 B. */
static void composition_families(void **state) {
  (void)state;
  char a[64], b[64];
  int ok = 0, failed = 0;
  for (int i = 0; i < FAMILY_SIZE; i++)
    for (int j = 0; j < FAMILY_RANK1 + 40; j++) {
      family(i, a, sizeof a);
      family(j < FAMILY_RANK1 ? j : FAMILY_RANK1 + (j - FAMILY_RANK1) * 13, b, sizeof b);
      if (check("composition", a, b) == CL_OK)
        ok++;
      else
        failed++;
    }
  assert_true(ok > 0 && failed > 0);
}

static void divide_and_product_families(void **state) {
  (void)state;
  static const char *const ops[] = {"logical_divide", "zipped_divide", "tiled_divide",  "flat_divide",
                                    "logical_product", "zipped_product", "tiled_product", "flat_product",
                                    "blocked_product", "raked_product"};
  static const char *const tilers[] = {"2:1", "3:1", "2:2", "(2,2):(1,4)", "4:2"};
  static const char *const layouts[] = {"12:1", "(4,6):(1,4)", "(6,4):(4,1)", "(2,(3,4)):(12,(1,3))", "34:1", "(8,3):(3,1)"};
  for (size_t o = 0; o < COUNT_OF(ops); o++)
    for (size_t l = 0; l < COUNT_OF(layouts); l++)
      for (size_t t = 0; t < COUNT_OF(tilers); t++)
        check(ops[o], layouts[l], tilers[t]);
}

/* Tuple tilers: by mode, with integers and '_'. */
static void tuple_tilers(void **state) {
  (void)state;
  static const char *const ops[] = {"composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
                                    "logical_product", "zipped_product", "tiled_product", "flat_product"};
  static const char *const tilers[] = {"(2,3)", "(2:1,3:2)", "(_,2)", "(4)", "(3:2,_)", "((2,2):(1,2),2)", "1"};
  static const char *const layouts[] = {"(6,8):(1,6)", "(4,(2,6)):(12,(1,2))", "(12,12):(12,1)"};
  for (size_t o = 0; o < COUNT_OF(ops); o++)
    for (size_t l = 0; l < COUNT_OF(layouts); l++)
      for (size_t t = 0; t < COUNT_OF(tilers); t++)
        check(ops[o], layouts[l], tilers[t]);
}

/* ------------------------------------------------------ documented cases */

/* The value of the first step with this rule (or NULL). */
static const char *value_of_rule(const cl_explanation_t *e, const char *rule) {
  for (int64_t i = 0; i < cl_explanation_count(e); i++)
    if (strcmp(cl_explanation_rule(e, i), rule) == 0)
      return cl_explanation_value(e, i);
  return NULL;
}

static cl_explanation_t *explain_text(const char *op, const char *l, const char *arg) {
  cl_layout_t *layout = lay(l);
  cl_tuple_t *t = arg ? tup(arg) : NULL;
  cl_explanation_t *e = NULL;
  assert_int_equal(cl_explain(op, layout, t, &e), CL_OK);
  cl_layout_free(layout);
  cl_tuple_free(t);
  return e;
}

/* CuTe's documentation: composition((6,2):(8,2), (4,3):(3,1)) is
 * ((2,2),3):((24,2),8), and (20,2):(16,4) o (5,4):(1,5) walks shape_div. */
static void documented_composition(void **state) {
  (void)state;
  assert_int_equal(check("composition", "(6,2):(8,2)", "(4,3):(3,1)"), CL_OK);
  cl_explanation_t *e = explain_text("composition", "(6,2):(8,2)", "(4,3):(3,1)");
  assert_string_equal(cl_explanation_value(e, cl_explanation_count(e) - 1), "((2,2),3):((24,2),8)");
  assert_string_equal(value_of_rule(e, "shape_div"), "(2,1)"); /* 4:3 steps over 6: ceil_div(6,3), ceil_div(3,6) */
  cl_explanation_free(e);
  assert_int_equal(check("composition", "(20,2):(16,4)", "(5,4):(1,5)"), CL_OK);
  assert_int_equal(check("composition", "(10,2):(16,4)", "(5,4):(1,5)"), CL_OK);
  /* negative strides walk A backwards */
  assert_int_equal(check("composition", "(4,6):(1,8)", "(2,3):(-1,4)"), CL_OK);
  assert_int_equal(check("composition", "(4,6):(-1,8)", "(2,6):(2,4)"), CL_OK);
  check("coalesce", "(2,3,4):(-1,-2,-6)", NULL);
  check("right_inverse", "(2,3):(-1,2)", NULL);
}

/* complement((2,2):(1,6), 24) is (3,2):(2,12): a gap of 3 at stride 2. */
static void documented_complement(void **state) {
  (void)state;
  cl_explanation_t *e = explain_text("complement", "(2,2):(1,6)", "24");
  assert_int_equal(cl_explanation_status(e), CL_OK);
  assert_string_equal(value_of_rule(e, "sort"), "(2,2):(1,6)");
  assert_string_equal(cl_explanation_value(e, cl_explanation_count(e) - 1), "(3,2):(2,12)");
  cl_explanation_free(e);
  check("complement", "(2,2):(1,6)", "24");
  check("complement", "4:2", NULL);
  check("complement", "(2,4):(8,1)", "(8,8)");
}

/* A shape the tile does not divide: 34 elements in tiles of 8 give
 * ceil_div(34,8) = 5 tiles, the last one running past the end, and the
 * explanation says so where the complement's rest is formed. */
static void non_divisible_zipped_divide(void **state) {
  (void)state;
  cl_explanation_t *e = explain_text("zipped_divide", "34:1", "8:1");
  replay(e, "zipped_divide(34:1,8:1)");
  assert_string_equal(cl_explanation_value(e, cl_explanation_count(e) - 1), "(8,5):(1,8)");
  bool said = false;
  for (int64_t i = 0; i < cl_explanation_count(e); i++)
    said |= strcmp(cl_explanation_rule(e, i), "rest") == 0 &&
            strstr(cl_explanation_sentence(e, i), "34 is not a multiple of 8") != NULL;
  assert_true(said);
  cl_explanation_free(e);
  /* By mode, where CuTe's ceil_div folds the cotarget's modes: fewer copies
   * than ceil_div(size, covered). */
  check("zipped_divide", "(12,10):(1,12)", "(8,4)");
  check("zipped_divide", "((6,2),10):((1,6),12)", "(4:1,3:1)");
  check("complement", "2:1", "(3,4)");
  /* CUTLASS issue 2545: the tile (4,8):(1,4) up to the shape (12,32) is
   * repeated 11 times, ceil_div folding the shape's modes, (1,11); up to
   * the coalesced 384, as today's logical_divide takes it, 12 times. */
  e = explain_text("complement", "(4,8):(1,4)", "(12,32)");
  replay(e, "complement((4,8):(1,4),(12,32))");
  assert_string_equal(cl_explanation_value(e, cl_explanation_count(e) - 1), "11:32");
  const char *rest = NULL;
  for (int64_t i = 0; i < cl_explanation_count(e); i++)
    if (strcmp(cl_explanation_rule(e, i), "rest") == 0)
      rest = cl_explanation_sentence(e, i);
  assert_non_null(rest);
  assert_non_null(strstr(rest, "(1,11), so not ceil_div(384,32) = 12 copies"));
  cl_explanation_free(e);
  e = explain_text("logical_divide", "(12,32):(1,12)", "(4,8):(1,4)");
  assert_string_equal(value_of_rule(e, "complement"), "12:32");
  assert_string_equal(cl_explanation_value(e, cl_explanation_count(e) - 1), "((4,8),12):((1,4),32)");
  cl_explanation_free(e);
}

/* Failures: the explanation ends with the step that breaks the condition. */
static void failures(void **state) {
  (void)state;
  cl_explanation_t *e = explain_text("composition", "(4,6):(1,8)", "2:6");
  assert_int_equal(cl_explanation_status(e), CL_E_DIVISIBILITY);
  int64_t n = cl_explanation_count(e);
  assert_string_equal(cl_explanation_rule(e, n - 1), "fails");
  assert_non_null(strstr(cl_explanation_sentence(e, n - 1), "stride divisibility condition"));
  assert_null(cl_explanation_layout(e, n - 1));
  cl_explanation_free(e);
  assert_int_equal(check("composition", "(4,6):(1,8)", "2:6"), CL_E_DIVISIBILITY);
  assert_int_equal(check("composition", "(4,6):(1,8)", "3:2"), CL_E_DIVISIBILITY); /* shape condition */
  assert_int_equal(check("composition", "(4,6):(1,8)", "((),2):((),1)"), CL_E_DOMAIN); /* an empty mode of B */
  assert_int_equal(check("complement", "(2,2):(1,1)", "8"), CL_E_NOT_INJECTIVE);
  assert_int_equal(check("left_inverse", "(3,2):(2,3)", NULL), CL_E_DIVISIBILITY);
  assert_int_equal(check("logical_divide", "(4,6):(1,8)", "2:6"), CL_E_DIVISIBILITY);
  assert_int_equal(check("logical_divide", "(4,6):(1,8)", "(2,2,2)"), CL_E_RANK);
  assert_int_equal(check("composition", "(4,6):(1,8)", "(2,2,2)"), CL_E_RANK);
  assert_int_equal(check("logical_product", "4:1", "(2,2)"), CL_E_RANK);
  assert_int_equal(check("zipped_divide", "(4,6):(1,8)", "(_,2)"), CL_E_RANK); /* '_' leaves rank 1 */
}

/* ---------------------------------------------------------------- errors */

static void bad_input(void **state) {
  (void)state;
  cl_layout_t *l = lay("(4,6):(1,4)"), *basis = lay("(4,6):(1@0,1@1)");
  cl_tuple_t *two = tup("2"), *layout_arg = tup("(2:1)"), *basis_arg = NULL;
  cl_layout_t *bl = lay("4:1@1");
  assert_int_equal(cl_tuple_from_layout(bl, &basis_arg), CL_OK);
  cl_explanation_t *e = (cl_explanation_t *)1;
  assert_int_equal(cl_explain(NULL, l, NULL, &e), CL_E_NULL);
  assert_null(e);
  assert_int_equal(cl_explain("coalesce", NULL, NULL, &e), CL_E_NULL);
  assert_int_equal(cl_explain("coalesce", l, NULL, NULL), CL_E_NULL);
  assert_int_equal(cl_explain("transpose", l, NULL, &e), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "transpose"));
  assert_int_equal(cl_explain("coalesce", l, two, &e), CL_E_DOMAIN);
  assert_int_equal(cl_explain("composition", l, NULL, &e), CL_E_DOMAIN);
  assert_int_equal(cl_explain("complement", l, layout_arg, &e), CL_E_TYPE);
  assert_int_equal(cl_explain("blocked_product", l, two, &e), CL_E_TYPE);
  assert_int_equal(cl_explain("coalesce", basis, NULL, &e), CL_E_UNSUPPORTED);
  assert_int_equal(cl_explain("composition", l, basis_arg, &e), CL_E_UNSUPPORTED);
  assert_null(e);
  cl_layout_t *huge = lay("(4294967296,4294967296):(1,4294967296)");
  assert_int_equal(cl_explain("coalesce", huge, NULL, &e), CL_E_OVERFLOW);
  assert_null(e);
  cl_layout_free(huge);
  /* accessors */
  assert_int_equal(cl_explanation_count(NULL), 0);
  assert_int_equal(cl_explanation_status(NULL), CL_E_NULL);
  assert_null(cl_explanation_rule(NULL, 0));
  assert_int_equal(cl_explanation_depth(NULL, 0), -1);
  char *text = (char *)1;
  assert_int_equal(cl_explanation_text(NULL, &text), CL_E_NULL);
  assert_int_equal(cl_explain("coalesce", l, NULL, &e), CL_OK);
  assert_int_equal(cl_explanation_text(e, NULL), CL_E_NULL);
  int64_t n = cl_explanation_count(e);
  assert_null(cl_explanation_rule(e, n));
  assert_null(cl_explanation_rule(e, -1));
  assert_null(cl_explanation_sentence(e, n));
  assert_null(cl_explanation_value(e, n));
  assert_null(cl_explanation_expression(e, n));
  assert_null(cl_explanation_layout(e, n));
  assert_int_equal(cl_explanation_depth(e, n), -1);
  assert_string_equal(cl_explanation_rule(e, 0), "flatten");
  cl_explanation_free(e);
  cl_explanation_free(NULL);
  cl_layout_free(l);
  cl_layout_free(basis);
  cl_layout_free(bl);
  cl_tuple_free(two);
  cl_tuple_free(layout_arg);
  cl_tuple_free(basis_arg);
}

/* The text form, exactly, for one small case. */
static void text_form(void **state) {
  (void)state;
  cl_explanation_t *e = explain_text("coalesce", "(2,(1,6)):(1,(7,2))", NULL);
  char *text = NULL;
  assert_int_equal(cl_explanation_text(e, &text), CL_OK);
  assert_string_equal(text, "coalesce((2,(1,6)):(1,(7,2)))\n"
                            "1 flatten: coalesce works on the 3 leaves of the layout, in order\n"
                            "    (2,1,6):(1,7,2) = flatten((2,(1,6)):(1,(7,2)))\n"
                            "2 start: leaf 0, 2:1, starts the result\n"
                            "    2:1 = coalesce(2:1)\n"
                            "3 drop: leaf 1, 1:7, has size 1 and adds nothing\n"
                            "    2:1 = coalesce(make_layout(2:1,1:7))\n"
                            "4 merge: leaf 2, 6:2, continues 2:1 (its stride is 2*1): they merge into 12:1\n"
                            "    12:1 = coalesce(make_layout(2:1,6:2))\n"
                            "5 result: what the operation gives\n"
                            "    12:1 = coalesce((2,(1,6)):(1,(7,2)))\n");
  cl_string_free(text);
  cl_explanation_free(e);
}

/* ---------------------------------------------------- allocation failure */

static long alloc_budget = -1; /* allocations left before failing; -1: no limit */
static long live_blocks;

static void *limited_alloc(void *ctx, size_t size) {
  (void)ctx;
  if (alloc_budget == 0)
    return NULL;
  if (alloc_budget > 0)
    alloc_budget--;
  void *p = malloc(size);
  live_blocks += p != NULL;
  return p;
}
static void *limited_realloc(void *ctx, void *ptr, size_t size) {
  (void)ctx;
  if (alloc_budget == 0)
    return NULL;
  if (alloc_budget > 0)
    alloc_budget--;
  void *p = realloc(ptr, size);
  live_blocks += p != NULL && ptr == NULL;
  return p;
}
static void limited_free(void *ctx, void *ptr) {
  (void)ctx;
  live_blocks -= ptr != NULL;
  free(ptr);
}

/* Every allocation of an explanation failing in turn: CL_E_NOMEM, nothing
 * leaked, no half-made explanation; then it succeeds. */
static void out_of_memory(void **state) {
  (void)state;
  static const char *const cases[][3] = {
    {"zipped_divide", "(4,6):(1,4)", "(2,3)"}, {"complement", "(2,2):(1,6)", "24"},
    {"left_inverse", "(2,4):(4,1)", NULL},     {"raked_product", "(2,2):(1,2)", "(2,3):(1,2)"},
    {"composition", "(4,6):(1,4)", "2:6"},     {"coalesce", "(2,3):(1,2)", NULL},
    {"tiled_product", "(2,2):(1,2)", "(2,_)"}, {"right_inverse", "(2,4):(4,1)", NULL},
  };
  for (size_t c = 0; c < COUNT_OF(cases); c++) {
    cl_layout_t *l = lay(cases[c][1]);
    cl_tuple_t *arg = cases[c][2] ? tup(cases[c][2]) : NULL;
    cl_allocator hook = {limited_alloc, limited_realloc, limited_free, NULL};
    assert_int_equal(cl_set_allocator(&hook), CL_OK);
    bool done = false;
    for (long budget = 0; !done && budget < 100000; budget++) {
      alloc_budget = budget;
      live_blocks = 0;
      cl_explanation_t *e = NULL;
      cl_status s = cl_explain(cases[c][0], l, arg, &e);
      char *text = NULL;
      cl_status t = s == CL_OK ? cl_explanation_text(e, &text) : CL_OK;
      cl_string_free(text);
      cl_explanation_free(e);
      if (s == CL_OK && t == CL_OK)
        done = true;
      else if (s != CL_OK)
        assert_true(s == CL_E_NOMEM && e == NULL);
      else
        assert_int_equal(t, CL_E_NOMEM);
      assert_int_equal(live_blocks, 0);
    }
    alloc_budget = -1;
    assert_int_equal(cl_set_allocator(NULL), CL_OK);
    assert_true(done);
    cl_layout_free(l);
    cl_tuple_free(arg);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(unary_families),
    cmocka_unit_test(complement_families),
    cmocka_unit_test(composition_families),
    cmocka_unit_test(divide_and_product_families),
    cmocka_unit_test(tuple_tilers),
    cmocka_unit_test(documented_composition),
    cmocka_unit_test(documented_complement),
    cmocka_unit_test(non_divisible_zipped_divide),
    cmocka_unit_test(failures),
    cmocka_unit_test(bad_input),
    cmocka_unit_test(text_form),
    cmocka_unit_test(out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
