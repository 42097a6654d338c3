/* SPDX-License-Identifier: BSD-3-Clause */
// check.h: the CUDA and NCCL tests' CHECK: a failed condition is printed
// with the library's last error and counted in `failures`, and the test goes
// on (its exit status is the count), so one run shows every failure.
#pragma once
#include <cstdio>

#include <cutelayout/common.h>

static int failures = 0;

#define CHECK(cond, ...)                                                                                               \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      failures++;                                                                                                      \
      std::fprintf(stderr, "%s:%d: %s: ", __FILE__, __LINE__, #cond);                                                  \
      std::fprintf(stderr, __VA_ARGS__);                                                                               \
      std::fprintf(stderr, " (%s)\n", cl_last_error());                                                                \
    }                                                                                                                  \
  } while (0)
