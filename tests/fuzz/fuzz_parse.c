/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_parse.c: the text parsers (tuples, layouts, swizzles, composed
 * layouts) on arbitrary bytes.
 *
 * Properties, for each parser:
 *   - failure is a known negative status, a NULL result and a non-empty
 *     cl_last_error();
 *   - success formats to a text that parses again to the same value and
 *     formats to the same text (canonical text is a fixed point);
 *   - the snprintf-style formatters agree on the length and truncate
 *     safely. */
#include <stdbool.h>
#include <string.h>

#include <cutelayout/cutelayout.h>
#include "fuzz.h"

/* Longer texts add nothing the fuzzer can reach with short ones. */
#define MAX_TEXT 4096

typedef int64_t (*formatter)(const void *value, char *buf, size_t cap);

/* The whole text of a value, checking the snprintf contract on the way:
 * the length asked with cap 0 is what a full write returns, and a short
 * buffer gets a NUL-terminated prefix.  NULL when the formatter fails. */
static char *format_checked(formatter f, const void *value) {
  int64_t n = f(value, NULL, 0);
  if (n < 0)
    return NULL;
  char *text = malloc((size_t)n + 1);
  FUZZ_CHECK(text != NULL);
  FUZZ_CHECK(f(value, text, (size_t)n + 1) == n);
  FUZZ_CHECK(strlen(text) == (size_t)n);
  if (n > 0) {
    char shorter[8];
    size_t cap = (size_t)n < sizeof shorter ? (size_t)n : sizeof shorter;
    FUZZ_CHECK(f(value, shorter, cap) == n);
    FUZZ_CHECK(strlen(shorter) == cap - 1 && memcmp(shorter, text, cap - 1) == 0);
  }
  return text;
}

static int64_t format_tuple(const void *t, char *buf, size_t cap) { return cl_tuple_format(t, buf, cap); }
static int64_t format_layout(const void *l, char *buf, size_t cap) { return cl_layout_format(l, buf, cap); }
static int64_t format_composed(const void *c, char *buf, size_t cap) { return cl_composed_format(c, buf, cap); }

static void fuzz_tuple(const char *text) {
  cl_tuple_t *t = (cl_tuple_t *)1;
  cl_status s = cl_tuple_parse(text, &t);
  if (s != CL_OK) {
    check_failure(s, t);
    return;
  }
  char *canonical = format_checked(format_tuple, t);
  FUZZ_CHECK(canonical != NULL);
  cl_tuple_t *again = NULL;
  FUZZ_CHECK(cl_tuple_parse(canonical, &again) == CL_OK);
  FUZZ_CHECK(cl_tuple_equal(t, again));
  char *text2 = format_checked(format_tuple, again);
  FUZZ_CHECK(text2 != NULL && strcmp(canonical, text2) == 0);
  /* The allocating form agrees. */
  char *text3 = NULL;
  FUZZ_CHECK(cl_tuple_to_string(t, &text3) == CL_OK && strcmp(text3, canonical) == 0);
  /* Queries on whatever parsed must not crash; their statuses are free. */
  (void)cl_tuple_rank(t);
  (void)cl_tuple_depth(t);
  int64_t v;
  (void)cl_tuple_product(t, &v);
  (void)cl_tuple_sum(t, &v);
  cl_tuple_t *flat = NULL;
  if (cl_tuple_flatten(t, &flat) == CL_OK)
    FUZZ_CHECK(cl_tuple_rank(flat) >= 0);
  cl_tuple_free(flat);
  cl_string_free(text3);
  free(text2);
  free(canonical);
  cl_tuple_free(again);
  cl_tuple_free(t);
}

static void fuzz_layout(const char *text) {
  cl_layout_t *l = (cl_layout_t *)1;
  cl_status s = cl_layout_parse(text, &l);
  if (s != CL_OK) {
    check_failure(s, l);
    return;
  }
  char *canonical = format_checked(format_layout, l);
  FUZZ_CHECK(canonical != NULL);
  cl_layout_t *again = NULL;
  FUZZ_CHECK(cl_layout_parse(canonical, &again) == CL_OK);
  FUZZ_CHECK(cl_layout_equal(l, again));
  char *text2 = format_checked(format_layout, again);
  FUZZ_CHECK(text2 != NULL && strcmp(canonical, text2) == 0);
  /* A layout's text is also a tuple's (a layout leaf). */
  cl_tuple_t *as_tuple = NULL;
  FUZZ_CHECK(cl_tuple_parse(canonical, &as_tuple) == CL_OK);
  FUZZ_CHECK(cl_tuple_kind(as_tuple) == CL_KIND_LAYOUT);
  cl_tuple_free(as_tuple);
  /* Queries: any status, but a size and the first and last indices when
   * they exist. */
  int64_t size, index;
  (void)cl_layout_cosize(l);
  (void)cl_layout_rank(l);
  (void)cl_layout_depth(l);
  if (cl_layout_size_checked(l, &size) == CL_OK && size > 0) {
    (void)cl_layout_eval(l, 0, &index);
    (void)cl_layout_eval(l, size - 1, &index);
  }
  free(text2);
  free(canonical);
  cl_layout_free(again);
  cl_layout_free(l);
}

static void fuzz_swizzle(const char *text) {
  cl_swizzle_t sw;
  cl_status s = cl_swizzle_parse(text, &sw);
  if (s != CL_OK) {
    check_failure(s, NULL); /* a swizzle is a value: no result to be NULL */
    return;
  }
  FUZZ_CHECK(cl_swizzle_validate(sw) == CL_OK);
  char canonical[64];
  int64_t n = cl_swizzle_format(sw, canonical, sizeof canonical);
  FUZZ_CHECK(n > 0 && (size_t)n < sizeof canonical);
  cl_swizzle_t again;
  FUZZ_CHECK(cl_swizzle_parse(canonical, &again) == CL_OK);
  FUZZ_CHECK(cl_swizzle_equal(sw, again));
}

static void fuzz_composed(const char *text) {
  cl_composed_t *c = (cl_composed_t *)1;
  cl_status s = cl_composed_parse(text, &c);
  if (s != CL_OK) {
    check_failure(s, c);
    return;
  }
  char *canonical = format_checked(format_composed, c);
  FUZZ_CHECK(canonical != NULL);
  cl_composed_t *again = NULL;
  FUZZ_CHECK(cl_composed_parse(canonical, &again) == CL_OK);
  FUZZ_CHECK(cl_composed_equal(c, again));
  char *text2 = format_checked(format_composed, again);
  FUZZ_CHECK(text2 != NULL && strcmp(canonical, text2) == 0);
  int64_t size, index;
  if (cl_composed_size(c, &size) == CL_OK && size > 0) {
    (void)cl_composed_eval(c, 0, &index);
    (void)cl_composed_eval(c, size - 1, &index);
  }
  free(text2);
  free(canonical);
  cl_composed_free(again);
  cl_composed_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* The parsers take C strings: a NUL byte ends the text. */
  char *text = fuzz_cstring(data, size, MAX_TEXT);
  if (text == NULL)
    return 0;
  fuzz_tuple(text);
  fuzz_layout(text);
  fuzz_swizzle(text);
  fuzz_composed(text);
  free(text);
  return 0;
}
