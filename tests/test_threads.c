/* SPDX-License-Identifier: BSD-3-Clause */
/* test_threads.c: handles are immutable, so many threads may read one at
 * once.  Threads evaluate, compose, divide and format the same shared handles
 * (including the first evaluation, which compiles a layout's plan), and use
 * shared composed layouts, tensors and pictures; every answer must equal the
 * one computed before the threads started.  Run under ThreadSanitizer
 * (-Db_sanitize=thread, as .ci/run does) this also shows there is no race. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <cutelayout/cutelayout.h>
#include <cutelayout/algebra.h>
#include <cutelayout/eval.h>
#include <cutelayout/render.h>
#include <cutelayout/swizzle.h>
#include <cutelayout/tensor.h>

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

/* Runs THREADS threads of fn(arg) at once; the sum of the failures they
 * return. */
static intptr_t run_threads(void *(*fn)(void *), void *arg) {
  pthread_t threads[THREADS];
  for (int t = 0; t < THREADS; t++)
    assert_int_equal(pthread_create(&threads[t], NULL, fn, arg), 0);
  intptr_t failures = 0;
  for (int t = 0; t < THREADS; t++) {
    void *result;
    assert_int_equal(pthread_join(threads[t], &result), 0);
    failures += (intptr_t)result;
  }
  return failures;
}

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
  assert_int_equal(run_threads(worker, &s), 0);
  for (size_t k = 0; k < NLAYOUTS; k++)
    cl_layout_free(s.layouts[k]);
  cl_layout_free(s.tile);
}

/* ------------------------------------------- composed layouts, tensors, pictures */

/* The handles every job reads.  Two sets are made from the same text: the
 * answers are computed on one before the threads start, and the threads use
 * the other, fresh (no plan compiled, nothing cached). */
typedef struct handles {
  cl_composed_t *swizzled;
  cl_layout_t *layout;
  cl_tuple_t *tiler;
  cl_tensor_t *source;
} handles;

static float source_data[2][64];

static void handles_make(handles *h, float *data) {
  cl_layout_t *row_major = NULL;
  assert_int_equal(cl_composed_parse("Sw<2,1,3> o 2 o (8,8):(8,1)", &h->swizzled), CL_OK);
  assert_int_equal(cl_layout_parse("((4,2),(2,4)):((2,16),(1,8))", &h->layout), CL_OK);
  assert_int_equal(cl_tuple_parse("(2,4)", &h->tiler), CL_OK);
  assert_int_equal(cl_layout_parse("(8,8):(8,1)", &row_major), CL_OK);
  for (int i = 0; i < 64; i++)
    data[i] = (float)(i * 3 + 1);
  assert_int_equal(cl_tensor_new_typed(data, CL_DTYPE_FLOAT32, row_major, &h->source), CL_OK);
  cl_layout_free(row_major);
}

static void handles_free(handles *h) {
  cl_composed_free(h->swizzled);
  cl_layout_free(h->layout);
  cl_tuple_free(h->tiler);
  cl_tensor_free(h->source);
}

/* Each job writes its answer as text into out (cap bytes); 0 when it could
 * not compute one. */
typedef int (*job_fn)(const handles *h, char *out, size_t cap);

/* Appends printf-style text; keeps out NUL-terminated. */
static void append(char *out, size_t cap, const char *fmt, long long v) {
  size_t len = strlen(out);
  if (len + 1 < cap)
    snprintf(out + len, cap - len, fmt, v);
}

static int job_composed_eval(const handles *h, char *out, size_t cap) {
  out[0] = '\0';
  for (int64_t i = 0; i < 64; i++) {
    int64_t v;
    if (cl_composed_eval(h->swizzled, i, &v) != CL_OK)
      return 0;
    append(out, cap, "%lld ", (long long)v);
  }
  return 1;
}

static int job_composed_divide(const handles *h, char *out, size_t cap) {
  cl_layout_t *layout = NULL;
  cl_composed_t *composed = NULL;
  if (cl_composed_logical_divide(h->swizzled, h->tiler, &layout, &composed) != CL_OK)
    return 0;
  int64_t n = composed != NULL ? cl_composed_format(composed, out, cap) : cl_layout_format(layout, out, cap);
  cl_composed_free(composed);
  cl_layout_free(layout);
  return n >= 0 && (size_t)n < cap;
}

static int job_eval_range(const handles *h, char *out, size_t cap) {
  int64_t indices[64];
  if (cl_layout_eval_range(h->layout, 0, 64, indices) != CL_OK)
    return 0;
  out[0] = '\0';
  for (int i = 0; i < 64; i++)
    append(out, cap, "%lld ", (long long)indices[i]);
  return 1;
}

static int job_print_layout(const handles *h, char *out, size_t cap) {
  int64_t n = cl_print_layout(h->layout, out, cap);
  return n >= 0 && (size_t)n < cap;
}

static int job_render_svg(const handles *h, char *out, size_t cap) {
  int64_t n = cl_render_layout(h->layout, NULL, out, cap);
  return n >= 0 && (size_t)n < cap;
}

/* A transposing copy out of the shared tensor into the thread's own memory
 * (with options `opt`), then a slice of the shared tensor. */
static int tensor_copy_job(const handles *h, char *out, size_t cap, const cl_copy_options_t *opt) {
  float mine[64];
  cl_layout_t *column_major = NULL;
  cl_tensor_t *dst = NULL, *row = NULL;
  cl_tuple_t *crd = NULL;
  int ok = cl_layout_parse("(8,8):(1,8)", &column_major) == CL_OK &&
           cl_tensor_new_typed(mine, CL_DTYPE_FLOAT32, column_major, &dst) == CL_OK &&
           cl_tensor_copy_ex(dst, h->source, opt) == CL_OK && cl_tuple_parse("(3,_)", &crd) == CL_OK &&
           cl_tensor_slice(h->source, crd, &row) == CL_OK;
  if (ok) {
    out[0] = '\0';
    for (int i = 0; i < 64; i++)
      append(out, cap, "%lld ", (long long)mine[i]);
    for (int64_t j = 0; j < 8 && ok; j++) {
      float v;
      ok = cl_tensor_load(row, j, &v) == CL_OK;
      append(out, cap, "r%lld ", (long long)v);
    }
  }
  cl_tensor_free(row);
  cl_tuple_free(crd);
  cl_tensor_free(dst);
  cl_layout_free(column_major);
  return ok;
}

static int job_tensor_copy(const handles *h, char *out, size_t cap) { return tensor_copy_job(h, out, cap, NULL); }

static int job_tensor_copy_streamed(const handles *h, char *out, size_t cap) {
  cl_copy_options_t opt = {sizeof opt, CL_COPY_STORES_STREAMING, 0, NULL};
  return tensor_copy_job(h, out, cap, &opt);
}

/* A 2 MiB transpose split between two threads of its own (threads inside
 * threads), summarized by a checksum of the destination. */
static int job_tensor_copy_threaded(const handles *h, char *out, size_t cap) {
  (void)h;
  enum { M = 512, N = 1024 };
  int32_t *a = malloc(M * N * sizeof *a), *b = malloc(M * N * sizeof *b);
  cl_layout_t *row = NULL, *col = NULL;
  cl_tensor_t *dst = NULL, *src = NULL;
  int ok = a != NULL && b != NULL && cl_layout_parse("(512,1024):(1024,1)", &row) == CL_OK &&
           cl_layout_parse("(512,1024):(1,512)", &col) == CL_OK &&
           cl_tensor_new_typed(a, CL_DTYPE_INT32, col, &src) == CL_OK &&
           cl_tensor_new_typed(b, CL_DTYPE_INT32, row, &dst) == CL_OK;
  if (ok) {
    for (int32_t i = 0; i < M * N; i++)
      a[i] = i;
    cl_copy_options_t opt = {sizeof opt, CL_COPY_STORES_AUTO, 2, NULL};
    ok = cl_tensor_copy_ex(dst, src, &opt) == CL_OK;
    uint64_t sum = 0;
    for (int64_t i = 0; i < M * N; i++)
      sum = sum * 31 + (uint64_t)b[i];
    snprintf(out, cap, "%llu", (unsigned long long)sum);
  }
  cl_tensor_free(dst);
  cl_tensor_free(src);
  cl_layout_free(row);
  cl_layout_free(col);
  free(a);
  free(b);
  return ok;
}

static const job_fn jobs[] = {job_composed_eval, job_composed_divide,      job_eval_range,
                              job_print_layout,  job_render_svg,           job_tensor_copy,
                              job_tensor_copy_streamed, job_tensor_copy_threaded};
#define NJOBS (sizeof jobs / sizeof *jobs)
#define ANSWER_CAP 16384

typedef struct job_run {
  const handles *shared;
  char (*expected)[ANSWER_CAP];
} job_run;

static void *job_worker(void *arg) {
  const job_run *run = arg;
  static _Thread_local char answer[ANSWER_CAP];
  intptr_t failures = 0;
  for (int round = 0; round < ROUNDS / 4; round++)
    for (size_t k = 0; k < NJOBS; k++) {
      size_t j = (k + (size_t)round) % NJOBS;
      failures += !jobs[j](run->shared, answer, sizeof answer) || strcmp(answer, run->expected[j]) != 0;
    }
  return (void *)failures;
}

static void test_shared_composed_tensors_pictures(void **state) {
  (void)state;
  handles reference, fresh;
  handles_make(&reference, source_data[0]);
  handles_make(&fresh, source_data[1]);
  static char expected[NJOBS][ANSWER_CAP];
  for (size_t k = 0; k < NJOBS; k++)
    assert_true(jobs[k](&reference, expected[k], sizeof expected[k]));
  job_run run = {&fresh, expected};
  assert_int_equal(run_threads(job_worker, &run), 0);
  handles_free(&reference);
  handles_free(&fresh);
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
    cmocka_unit_test(test_shared_composed_tensors_pictures),
    cmocka_unit_test(test_error_messages_are_per_thread),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
