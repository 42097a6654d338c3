/* SPDX-License-Identifier: BSD-3-Clause */
/* test_common.c: common.h: status messages, the per-thread error detail,
 * versions, and the allocator hook, including a failure-injection run that
 * makes every allocation fail in turn. */
#include "test_util.h"

static void test_status_strings(void **state) {
  (void)state;
  /* Every code has its own message; unknown codes have a fallback. */
  const char *seen[32] = {0};
  int n = 0;
  for (int code = CL_OK; code >= CL_E_DEVICE; code--) {
    const char *s = cl_status_string(code);
    assert_non_null(s);
    assert_true(strlen(s) > 3);
    assert_string_not_equal(s, "unknown status");
    for (int k = 0; k < n; k++)
      assert_string_not_equal(s, seen[k]);
    seen[n++] = s;
  }
  assert_string_equal(cl_status_string(CL_OK), "success");
  assert_string_equal(cl_status_string(CL_E_NOMEM), "out of memory");
  assert_string_equal(cl_status_string(1), "unknown status");
  assert_string_equal(cl_status_string(-1000), "unknown status");
}

static void test_last_error(void **state) {
  (void)state;
  cl_tuple_t *t = NULL;
  assert_int_equal(cl_tuple_parse("(1,", &t), CL_E_PARSE);
  assert_string_equal(cl_last_error(), "column 4: expected an integer, '_' or '(', found the end of the text");
  assert_int_equal(cl_tuple_int(1, NULL), CL_E_NULL);
  assert_string_equal(cl_last_error(), "cl_tuple_int: argument 'out' is NULL");
  /* A check inside a static helper names the argument, never the helper. */
  cl_layout_t *l = NULL;
  assert_int_equal(cl_left_inverse(NULL, &l), CL_E_NULL);
  assert_string_equal(cl_last_error(), "argument 'layout' is NULL");
  assert_int_equal(cl_layout_eval(NULL, 0, NULL), CL_E_NULL);
  assert_null(strstr(cl_last_error(), "eval_"));
  /* The detail stays until the next failure; it is never NULL. */
  assert_int_equal(cl_tuple_int(1, &t), CL_OK);
  assert_non_null(cl_last_error());
  cl_tuple_free(t);
}

/* Another library's failure becomes the thread's detail, as the library's own do. */
static void test_set_last_error(void **state) {
  (void)state;
  assert_int_equal(cl_set_last_error(CL_E_DEVICE, "cudaMemcpyAsync: invalid argument"), CL_E_DEVICE);
  assert_string_equal(cl_last_error(), "cudaMemcpyAsync: invalid argument");
  assert_int_equal(cl_set_last_error(CL_OK, NULL), CL_OK);
  assert_string_equal(cl_last_error(), "");
  /* A long message is cut to the buffer, never past it. */
  char longer[600];
  memset(longer, 'x', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  assert_int_equal(cl_set_last_error(CL_E_LIMIT, longer), CL_E_LIMIT);
  assert_int_equal((int)strlen(cl_last_error()), 255);
  /* A '%' in the message is text, not a format. */
  cl_set_last_error(CL_E_DOMAIN, "100% %s %n");
  assert_string_equal(cl_last_error(), "100% %s %n");
}

static void test_versions(void **state) {
  (void)state;
  char expected[32];
  snprintf(expected, sizeof expected, "%d.%d.%d", CUTELAYOUT_VERSION_MAJOR, CUTELAYOUT_VERSION_MINOR,
           CUTELAYOUT_VERSION_PATCH);
  assert_string_equal(cl_version_string(), expected);
  assert_string_equal(cl_version_string(), CUTELAYOUT_VERSION_STRING);
  assert_int_equal(cl_version_number(), CUTELAYOUT_VERSION_NUMBER);
  assert_int_equal(cl_version_number(),
                   CUTELAYOUT_VERSION_MAJOR * 10000 + CUTELAYOUT_VERSION_MINOR * 100 + CUTELAYOUT_VERSION_PATCH);
  assert_int_equal(cl_abi_version(), CL_ABI_VERSION);
  assert_int_equal(cl_abi_minor(), CL_ABI_MINOR);
  assert_true(cl_abi_compatible());
}

/* ------------------------------------------------------- the allocator hook */

/* Counts live blocks; fails every allocation once `budget` reaches 0. */
typedef struct counting {
  long live, total;
  long budget; /* < 0: unlimited */
} counting;

static int take_budget(counting *c) {
  if (c->budget == 0)
    return 0;
  if (c->budget > 0)
    c->budget--;
  return 1;
}

static void *counting_alloc(void *ctx, size_t size) {
  counting *c = ctx;
  if (!take_budget(c))
    return NULL;
  void *p = malloc(size);
  if (p != NULL) {
    c->live++;
    c->total++;
  }
  return p;
}

static void *counting_realloc(void *ctx, void *ptr, size_t size) {
  counting *c = ctx;
  if (!take_budget(c))
    return NULL;
  void *p = realloc(ptr, size);
  if (p != NULL && ptr == NULL) {
    c->live++;
    c->total++;
  }
  return p;
}

static void counting_free(void *ctx, void *ptr) {
  counting *c = ctx;
  if (ptr != NULL)
    c->live--;
  free(ptr);
}

static void test_allocator_validation(void **state) {
  (void)state;
  cl_allocator partial = {counting_alloc, NULL, counting_free, NULL};
  assert_int_equal(cl_set_allocator(&partial), CL_E_NULL);
  assert_int_equal(cl_set_allocator(NULL), CL_OK);
  cl_allocator none = {NULL, NULL, NULL, NULL};
  assert_int_equal(cl_set_allocator(&none), CL_OK);
}

/* A workload touching every allocating path of the library.  Each call
 * either succeeds or fails with CL_E_NOMEM (leaving its result NULL); the
 * return value counts the failures. */
static int workload(void) {
  int failures = 0;
  cl_tuple_t *t = NULL, *u = NULL, *r = NULL;
  cl_layout_t *l = NULL, *m = NULL, *x = NULL;
  char *s = NULL;
#define STEP(call, out)                        \
  do {                                         \
    cl_status st_ = (call);                    \
    if (st_ != CL_OK) {                        \
      assert_int_equal(st_, CL_E_NOMEM);       \
      assert_null(out);                        \
      failures++;                              \
    }                                          \
  } while (0)
  STEP(cl_tuple_parse("(2,(3,4),5)", &t), t);
  STEP(cl_tuple_parse("(1,(2,1),3)", &u), u);
  STEP(cl_layout_parse("((2,3),(4,5)):((1,2),(6,24))", &l), l);
  if (t != NULL && u != NULL) {
    STEP(cl_compact_order(t, u, &r), r);
    cl_tuple_free(r), r = NULL;
    STEP(cl_compact_row_major(t, &r), r);
    cl_tuple_free(r), r = NULL;
    STEP(cl_tuple_ceil_div(t, u, &r), r);
    cl_tuple_free(r), r = NULL;
    STEP(cl_tuple_flatten(t, &r), r);
    cl_tuple_free(r), r = NULL;
    cl_tuple_t *flat = NULL;
    STEP(cl_tuple_parse("(2,3,4,5)", &flat), flat);
    if (flat != NULL)
      STEP(cl_tuple_unflatten(flat, t, &r), r);
    cl_tuple_free(flat);
    cl_tuple_free(r), r = NULL;
    STEP(cl_crd2crd(u, t, t, &r), r);
    cl_tuple_free(r), r = NULL;
    STEP(cl_tuple_to_string(t, &s), s);
    cl_string_free(s), s = NULL;
    STEP(cl_layout_make_ordered(t, u, &m), m);
    cl_layout_free(m), m = NULL;
    STEP(cl_layout_make_right(t, &m), m);
    cl_layout_free(m), m = NULL;
  }
  if (l != NULL) {
    const cl_layout_t *parts[] = {l, l};
    STEP(cl_layout_concat(parts, 2, &m), m);
    cl_layout_free(m), m = NULL;
    STEP(cl_make_fragment_like(l, &m), m);
    cl_layout_free(m), m = NULL;
    STEP(cl_make_layout_like(l, &m), m);
    cl_layout_free(m), m = NULL;
    STEP(cl_layout_zip(l, &m), m);
    cl_layout_free(m), m = NULL;
    STEP(cl_layout_group(l, 0, 2, &m), m);
    cl_layout_free(m), m = NULL;
    STEP(cl_layout_append(l, l, &x), x);
    cl_layout_free(x), x = NULL;
    STEP(cl_layout_to_string(l, &s), s);
    cl_string_free(s), s = NULL;
    cl_tuple_t *crd = NULL;
    STEP(cl_tuple_parse("((1,_),_)", &crd), crd);
    if (crd != NULL) {
      int64_t off;
      STEP(cl_layout_slice_and_offset(crd, l, &m, &off), m);
      cl_layout_free(m), m = NULL;
    }
    cl_tuple_free(crd);
    char buf[512];
    int64_t n = cl_print_layout(l, buf, sizeof buf);
    assert_true(n > 0 || n == CL_E_NOMEM);
  }
#undef STEP
  cl_tuple_free(t);
  cl_tuple_free(u);
  cl_layout_free(l);
  return failures;
}

static void test_allocator_hook_and_failure_injection(void **state) {
  (void)state;
  counting c = {0, 0, -1};
  cl_allocator hook = {counting_alloc, counting_realloc, counting_free, &c};
  assert_int_equal(cl_set_allocator(&hook), CL_OK);
  assert_int_equal(workload(), 0);
  assert_int_equal(c.live, 0);
  long needed = c.total;
  assert_true(needed > 20);
  /* Fail the k-th allocation for every k: no crash, no leak, no partial result. */
  for (long k = 0; k <= needed; k++) {
    c = (counting){0, 0, k};
    int failures = workload();
    assert_int_equal(c.live, 0);
    if (k < needed)
      assert_true(failures > 0);
  }
  assert_int_equal(cl_set_allocator(NULL), CL_OK);
  /* Back on malloc: handles made before and after mix freely. */
  assert_int_equal(workload(), 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_status_strings),
    cmocka_unit_test(test_last_error),
    cmocka_unit_test(test_set_last_error),
    cmocka_unit_test(test_versions),
    cmocka_unit_test(test_allocator_validation),
    cmocka_unit_test(test_allocator_hook_and_failure_injection),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
