/* SPDX-License-Identifier: BSD-3-Clause */
/* consume.c: a C11 program that knows the library only through
 * `pkg-config --cflags --libs cute-layout` on an installed tree (consume.py
 * builds it dynamically and statically).  It uses the fixed entry points of
 * CONTRACT.md, so it is also the smallest example of the C API. */
#include <stdio.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

static int failures;

#define CHECK(cond)                                              \
  do {                                                           \
    if (!(cond)) {                                               \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                \
    }                                                            \
  } while (0)

int main(void) {
  if (!cl_abi_compatible()) {
    fprintf(stderr, "built for ABI %d.%d, loaded ABI %d.%d\n", CL_ABI_VERSION, CL_ABI_MINOR,
            cl_abi_version(), cl_abi_minor());
    return 1;
  }
  CHECK(strcmp(cl_version_string(), CUTELAYOUT_VERSION_STRING) == 0);

  /* CuTe's (2,(2,2)):(4,(2,1)): coordinates split colexicographically. */
  cl_layout_t *layout = NULL;
  int status = cl_layout_parse("(2,(2,2)):(4,(2,1))", &layout);
  CHECK(status == CL_OK && layout != NULL);
  if (layout == NULL)
    return 1;
  CHECK(cl_layout_size(layout) == 8);
  CHECK(cl_layout_cosize(layout) == 8);
  CHECK(cl_layout_rank(layout) == 2);
  CHECK(cl_layout_depth(layout) == 2);
  static const int64_t expected[8] = {0, 4, 2, 6, 1, 5, 3, 7};
  for (int64_t i = 0; i < 8; i++) {
    int64_t index = -1;
    CHECK(cl_layout_eval(layout, i, &index) == CL_OK && index == expected[i]);
  }
  /* The same, compiled to plain data and evaluated inline. */
  cl_compiled_layout_t compiled;
  CHECK(cl_layout_compile(layout, &compiled) == CL_OK && compiled.size == 8);
  for (int64_t i = 0; i < 8; i++)
    CHECK(cl_compiled_eval(&compiled, i) == expected[i]);

  /* snprintf-style formatting: ask for the length, then format. */
  int64_t need = cl_layout_format(layout, NULL, 0);
  char text[64];
  CHECK(need == (int64_t)strlen("(2,(2,2)):(4,(2,1))"));
  CHECK(cl_layout_format(layout, text, sizeof text) == need);
  CHECK(strcmp(text, "(2,(2,2)):(4,(2,1))") == 0);
  cl_layout_free(layout);

  /* Errors: a status, a NULL result, and a message. */
  cl_layout_t *bad = (cl_layout_t *)&failures;
  CHECK(cl_layout_parse("(2,4:(1,2)", &bad) == CL_E_PARSE);
  CHECK(bad == NULL);
  CHECK(cl_last_error()[0] != '\0');
  CHECK(strlen(cl_status_string(CL_E_PARSE)) > 0);
  cl_layout_free(NULL);

  if (failures == 0)
    printf("C11 consumer: ok (cute-layout %s)\n", cl_version_string());
  return failures != 0;
}
