/* test_threads.c: handles are immutable, so many threads may read one at
 * once.  Threads evaluate, compose, divide and format the same shared handles
 * (including the first evaluation, which compiles a layout's plan) and every
 * answer must equal the one computed before the threads started.  Run under
 * ThreadSanitizer (-Db_sanitize=thread) this also shows there is no race. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <cutelayout/cutelayout.h>
#include <cutelayout/algebra.h>

#define THREADS 8
#define ROUNDS 200

static const char *const layout_texts[] = {
  "(2,(2,2)):(4,(2,1))", "((4,8),(2,(2,4))):((2,16),(1,(8,128)))", "(8,8):(8,1)", "(3,5,7):(35,7,1)", "(4,2):(1,16)",
};
#define NLAYOUTS (sizeof layout_texts / sizeof *layout_texts)

typedef struct shared {
  cl_layout_t *layouts[NLAYOUTS]; /* parsed once, never evaluated before the threads run */
  cl_layout_t *tile;
  char expected_text[NLAYOUTS][128];
  char expected_divide[NLAYOUTS][256];
  int64_t expected_eval[NLAYOUTS][64];
} shared;

/* The answers one thread computes; compared against the expected ones. */
static int check_once(const shared *s, size_t k) {
  char text[256];
  if (cl_layout_format(s->layouts[k], text, sizeof text) < 0 || strcmp(text, s->expected_text[k]) != 0)
    return 0;
  int64_t size = cl_layout_size(s->layouts[k]);
  for (int64_t i = 0; i < size && i < 64; i++) {
    int64_t v;
    if (cl_layout_eval(s->layouts[k], i, &v) != CL_OK || v != s->expected_eval[k][i])
      return 0;
  }
  cl_layout_t *divided = NULL;
  if (cl_logical_divide(s->layouts[k], s->tile, &divided) != CL_OK)
    return strcmp(s->expected_divide[k], "error") == 0;
  int ok = cl_layout_format(divided, text, sizeof text) >= 0 && strcmp(text, s->expected_divide[k]) == 0;
  cl_layout_free(divided);
  return ok;
}

static void *worker(void *arg) {
  const shared *s = arg;
  intptr_t failures = 0;
  for (int round = 0; round < ROUNDS; round++)
    for (size_t k = 0; k < NLAYOUTS; k++)
      failures += !check_once(s, (k + (size_t)round) % NLAYOUTS);
  return (void *)failures;
}

static void test_shared_handles(void **state) {
  (void)state;
  shared s;
  memset(&s, 0, sizeof s);
  assert_int_equal(cl_layout_parse("2:1", &s.tile), CL_OK);
  /* Expected answers come from separate handles, so the shared ones reach the
   * threads with their evaluation plans not yet compiled. */
  for (size_t k = 0; k < NLAYOUTS; k++) {
    cl_layout_t *reference = NULL, *divided = NULL;
    assert_int_equal(cl_layout_parse(layout_texts[k], &s.layouts[k]), CL_OK);
    assert_int_equal(cl_layout_parse(layout_texts[k], &reference), CL_OK);
    assert_true(cl_layout_format(reference, s.expected_text[k], sizeof s.expected_text[k]) > 0);
    for (int64_t i = 0; i < cl_layout_size(reference) && i < 64; i++)
      assert_int_equal(cl_layout_eval(reference, i, &s.expected_eval[k][i]), CL_OK);
    if (cl_logical_divide(reference, s.tile, &divided) == CL_OK)
      assert_true(cl_layout_format(divided, s.expected_divide[k], sizeof s.expected_divide[k]) > 0);
    else
      strcpy(s.expected_divide[k], "error");
    cl_layout_free(divided);
    cl_layout_free(reference);
  }
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++)
    assert_int_equal(pthread_create(&threads[t], NULL, worker, &s), 0);
  intptr_t failures = 0;
  for (int t = 0; t < THREADS; t++) {
    void *result;
    assert_int_equal(pthread_join(threads[t], &result), 0);
    failures += (intptr_t)result;
  }
  assert_int_equal(failures, 0);
  for (size_t k = 0; k < NLAYOUTS; k++)
    cl_layout_free(s.layouts[k]);
  cl_layout_free(s.tile);
}

/* The detail message is per thread: one thread's failure does not overwrite
 * another's message. */
static void *fail_and_read(void *arg) {
  const char *text = arg;
  cl_layout_t *l = NULL;
  intptr_t wrong = 0;
  for (int round = 0; round < ROUNDS; round++) {
    if (cl_layout_parse(text, &l) != CL_E_PARSE || l != NULL)
      wrong++;
    else if (strstr(cl_last_error(), text[0] == '(' ? "column 5" : "column 1") == NULL)
      wrong++;
  }
  return (void *)wrong;
}

static void test_error_messages_are_per_thread(void **state) {
  (void)state;
  pthread_t a, b;
  void *ra, *rb;
  assert_int_equal(pthread_create(&a, NULL, fail_and_read, (void *)"(2,3"), 0);
  assert_int_equal(pthread_create(&b, NULL, fail_and_read, (void *)"x"), 0);
  assert_int_equal(pthread_join(a, &ra), 0);
  assert_int_equal(pthread_join(b, &rb), 0);
  assert_int_equal((intptr_t)ra, 0);
  assert_int_equal((intptr_t)rb, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_shared_handles),
    cmocka_unit_test(test_error_messages_are_per_thread),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
