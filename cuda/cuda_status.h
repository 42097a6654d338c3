/* SPDX-License-Identifier: BSD-3-Clause */
/* cuda_status.h: the CUDA module's and the NCCL executor's way of failing
 * (C++): a status with a formatted message for cl_last_error.  Each library
 * compiles its own inline copy; neither exports them. */
#ifndef CUTELAYOUT_CUDA_STATUS_H
#define CUTELAYOUT_CUDA_STATUS_H

#include <cstdarg>
#include <cstdio>

#include <cutelayout/common.h>

namespace cl_cuda_status {

__attribute__((format(printf, 2, 3))) inline cl_status fail(cl_status status, const char *fmt, ...) {
  char message[256];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  return cl_set_last_error(status, message);
}

inline cl_status null_argument(const char *function, const char *argument) {
  return fail(CL_E_NULL, "%s: argument '%s' is NULL", function, argument);
}

}  // namespace cl_cuda_status

#endif
