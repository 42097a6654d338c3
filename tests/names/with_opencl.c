/* SPDX-License-Identifier: BSD-3-Clause */
/* OpenCL's headers and ours in one C translation unit (issue 12).  coexist.py
 * compiles it with -Wall -Wextra -Werror twice: ours first
 * (CUTELAYOUT_FIRST=1) and OpenCL's first (CUTELAYOUT_FIRST=0).  A name both
 * define fails to compile; the checks below catch a macro of one side that
 * silently changed the meaning of the other's. */
#define CL_TARGET_OPENCL_VERSION 300
#if CUTELAYOUT_FIRST
#include <cutelayout/cutelayout.h>
#include <CL/opencl.h>
#else
#include <CL/opencl.h>
#include <cutelayout/cutelayout.h>
#endif
#include <stdio.h>
#include <string.h>

#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      return 1;                                                      \
    }                                                                \
  } while (0)

int main(void) {
  /* OpenCL's version type and macros keep their meaning... */
  cl_version v = CL_MAKE_VERSION(3, 0, 1);
  CHECK(CL_VERSION_MAJOR(v) == 3 && CL_VERSION_MINOR(v) == 0 && CL_VERSION_PATCH(v) == 1);
  cl_int opencl_status = CL_SUCCESS;
  CHECK(opencl_status == 0 && CL_INVALID_VALUE == -30);

  /* ...and so do ours. */
  char parts[32];
  snprintf(parts, sizeof parts, "%d.%d.%d", CUTELAYOUT_VERSION_MAJOR, CUTELAYOUT_VERSION_MINOR,
           CUTELAYOUT_VERSION_PATCH);
  CHECK(strcmp(cl_version_string(), CUTELAYOUT_VERSION_STRING) == 0);
  CHECK(strcmp(parts, CUTELAYOUT_VERSION_STRING) == 0);
  CHECK(cl_abi_compatible());

  cl_layout_t *layout = NULL;
  CHECK(cl_layout_parse("(2,(2,2)):(4,(2,1))", &layout) == CL_OK);
  int64_t index = -1;
  CHECK(cl_layout_eval(layout, 1, &index) == CL_OK && index == 4);
  CHECK(cl_layout_size(layout) == 8);
  cl_layout_free(layout);
  printf("C, %s first: ok\n", CUTELAYOUT_FIRST ? "cute-layout" : "OpenCL");
  return 0;
}
