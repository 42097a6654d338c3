/* SPDX-License-Identifier: BSD-3-Clause */
/* version.c: the version numbers in common.h, the library and meson.build
 * agree.  meson.build passes its own numbers as EXPECTED_*; a mismatch means
 * someone bumped one place and forgot another. */
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
  char parts[32];
  snprintf(parts, sizeof parts, "%d.%d.%d", CUTELAYOUT_VERSION_MAJOR, CUTELAYOUT_VERSION_MINOR,
           CUTELAYOUT_VERSION_PATCH);

  /* header against meson.build's project version */
  CHECK(strcmp(CUTELAYOUT_VERSION_STRING, EXPECTED_VERSION) == 0);
  CHECK(strcmp(parts, CUTELAYOUT_VERSION_STRING) == 0);
  CHECK(CUTELAYOUT_VERSION_NUMBER ==
        CUTELAYOUT_VERSION_MAJOR * 10000 + CUTELAYOUT_VERSION_MINOR * 100 + CUTELAYOUT_VERSION_PATCH);
  /* header against meson.build's abi_major (the SONAME) and abi_minor */
  CHECK(CL_ABI_VERSION == EXPECTED_ABI_MAJOR);
  CHECK(CL_ABI_MINOR == EXPECTED_ABI_MINOR);
  /* library against header */
  CHECK(strcmp(cl_version_string(), CUTELAYOUT_VERSION_STRING) == 0);
  CHECK(cl_version_number() == CUTELAYOUT_VERSION_NUMBER);
  CHECK(cl_abi_version() == CL_ABI_VERSION);
  CHECK(cl_abi_minor() == CL_ABI_MINOR);
  CHECK(cl_abi_compatible());

  if (failures == 0)
    printf("cute-layout %s, ABI %d.%d\n", cl_version_string(), cl_abi_version(), cl_abi_minor());
  return failures != 0;
}
