/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_eval.c: the `cute-layout eval` expression language on arbitrary
 * bytes, through the tool's own code (src/cli, all but main.c).
 *
 * The input is one expression and, split at newlines, a batch of them.
 * Properties:
 *   - a failure is a known negative status with a non-empty message, which
 *     never shows a name of the C API (cl_..., CL_...) the expression does
 *     not hold;
 *   - a value's printed text is itself an expression that evaluates to the
 *     same text (for the kinds that have a literal form);
 *   - the printed output never contains a newline except in pictures. */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <string.h>

#include "eval.h"
#include "fuzz.h"

#define MAX_TEXT 4096
#define MAX_LINES 16

static FILE *sink(void) {
  static FILE *devnull;
  if (devnull == NULL)
    devnull = fopen("/dev/null", "w");
  return devnull;
}

/* Does msg show an identifier of the C API, cl_... or CL_..., that is not
 * the user's own (a message may quote a name of the expression)? */
static bool shows_c_name(const char *msg, const char *expression) {
  for (const char *p = msg; (p = strpbrk(p, "cC")) != NULL; p++) {
    bool word_start = p == msg || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    if (!word_start || (strncmp(p, "cl_", 3) != 0 && strncmp(p, "CL_", 3) != 0))
      continue;
    char word[64];
    size_t n = 0;
    while (n + 1 < sizeof word && (isalnum((unsigned char)p[n]) || p[n] == '_')) {
      word[n] = p[n];
      n++;
    }
    word[n] = '\0';
    if (strstr(expression, word) == NULL)
      return true;
  }
  return false;
}

static bool has_literal_form(value_kind kind) {
  return kind == V_TUPLE || kind == V_LAYOUT || kind == V_SWIZZLE || kind == V_COMPOSED;
}

static void fuzz_expression(const char *text) {
  value v;
  cl_status s = eval_expression(text, &v);
  if (s != CL_OK) {
    FUZZ_CHECK(s < 0 && s >= CL_E_ABI);
    FUZZ_CHECK(eval_error_message(s)[0] != '\0');
    FUZZ_CHECK(!shows_c_name(eval_error_message(s), text));
    FUZZ_CHECK(v.kind == V_NONE);
    return;
  }
  char *shown = value_format(&v);
  FUZZ_CHECK(shown != NULL);
  if (v.kind != V_TEXT)
    FUZZ_CHECK(strchr(shown, '\n') == NULL);
  if (has_literal_form(v.kind)) {
    value again;
    FUZZ_CHECK(eval_expression(shown, &again) == CL_OK);
    char *shown_again = value_format(&again);
    FUZZ_CHECK(shown_again != NULL && strcmp(shown, shown_again) == 0);
    free(shown_again);
    value_free(&again);
  }
  free(shown);
  value_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* The tool refuses NUL bytes in an expression (main.c). */
  if (memchr(data, '\0', size) != NULL)
    return 0;
  char *text = fuzz_cstring(data, size, MAX_TEXT);
  if (text == NULL)
    return 0;
  if (strchr(text, '\n') == NULL) {
    fuzz_expression(text);
  } else {
    /* A batch: each line as `cute-layout eval -` reads it. */
    int lines = 0;
    for (char *line = strtok(text, "\n"); line != NULL && lines < MAX_LINES; line = strtok(NULL, "\n"), lines++) {
      fuzz_expression(line);
      FILE *f = sink();
      if (f != NULL)
        (void)eval_and_print(line, f);
    }
  }
  free(text);
  return 0;
}
