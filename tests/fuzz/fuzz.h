/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz.h: what the fuzz targets share.
 *
 * Each target defines LLVMFuzzerTestOneInput.  Built with clang and
 * -Dfuzz=true it is linked with libFuzzer; in every build it is also linked
 * with replay.c, which runs it once on each committed input. */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A violated property: report it and abort, which the fuzzer records as a
 * crash (and the replay as a failed test). */
#define FUZZ_CHECK(cond)                                                           \
  do {                                                                             \
    if (!(cond)) {                                                                 \
      fprintf(stderr, "%s:%d: property violated: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                     \
    }                                                                              \
  } while (0)

/* A failure must be clean: a known negative status, no result, a message. */
static inline void check_failure(cl_status s, const void *out) {
  FUZZ_CHECK(s < 0 && s >= CL_E_ABI);
  FUZZ_CHECK(out == NULL);
  FUZZ_CHECK(cl_last_error()[0] != '\0');
}

/* Whether an operation succeeded, after checking that a failure is clean. */
static inline bool succeeded(cl_status s, const void *out) {
  if (s == CL_OK) {
    FUZZ_CHECK(out != NULL);
    return true;
  }
  check_failure(s, out);
  return false;
}

/* SUCCEEDED(call, out): succeeded() with the call sequenced before out is
 * read (a function's arguments are evaluated in no set order). */
static inline cl_status *fuzz_call_status(void) {
  static cl_status status;
  return &status;
}
#define SUCCEEDED(call, out) (*fuzz_call_status() = (call), succeeded(*fuzz_call_status(), (out)))

/* The input as a C string in a fresh buffer (free it), or NULL when it is
 * longer than max_len or memory is short.  A NUL byte inside ends the text
 * there, as it would for any C caller. */
static inline char *fuzz_cstring(const uint8_t *data, size_t size, size_t max_len) {
  if (size > max_len)
    return NULL;
  char *text = malloc(size + 1);
  if (text == NULL)
    return NULL;
  memcpy(text, data, size);
  text[size] = '\0';
  return text;
}

#endif
