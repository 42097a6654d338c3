/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_print.c: pictures in the eval language: print_layout and print1D. */
#include <stdlib.h>

#include <cutelayout/render.h>
#include "builtins.h"

typedef int64_t (*printer)(const cl_layout_t *, char *, size_t);

/* Runs a snprintf-style printer twice: once to size, once to fill. */
static cl_status picture(const char *name, const value *a, printer f, bool strip_newline, value *out) {
  const cl_layout_t *l;
  TRY(arg_layout(name, a, 0, &l));
  int64_t n = f(l, NULL, 0);
  if (n < 0)
    return (cl_status)n;
  char *text = malloc((size_t)n + 1);
  if (text == NULL)
    return cli_fail(CL_E_NOMEM, "out of memory");
  f(l, text, (size_t)n + 1);
  if (strip_newline && n > 0 && text[n - 1] == '\n')
    text[n - 1] = '\0';
  *out = value_of_text(text);
  return CL_OK;
}

static cl_status fn_print_layout(const char *name, const value *a, int n, value *out) {
  return picture(name, a, cl_print_layout, true, out);
}

static cl_status fn_print1d(const char *name, const value *a, int n, value *out) {
  return picture(name, a, cl_print_1d, false, out);
}

const builtin cli_builtins_print[] = {
  {"print_layout", 1, 1, fn_print_layout, "print_layout(L)"},
  {"print1D", 1, 1, fn_print1d, "print1D(L)"},
  {NULL, 0, 0, NULL, NULL},
};
