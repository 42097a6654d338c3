/* SPDX-License-Identifier: BSD-3-Clause */
/* common.c: status messages, the per-thread error detail, versions, and the
 * allocator hook that every allocation of the library goes through. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuple_impl.h"

const char *cl_status_string(int status) {
  switch (status) {
  case CL_OK: return "success";
  case CL_E_NULL: return "a required argument was NULL";
  case CL_E_NOMEM: return "out of memory";
  case CL_E_PARSE: return "malformed text";
  case CL_E_OVERFLOW: return "integer overflow";
  case CL_E_RANK: return "mismatched ranks";
  case CL_E_DIVISIBILITY: return "divisibility condition violated";
  case CL_E_DOMAIN: return "argument outside the function's domain";
  case CL_E_TYPE: return "value of the wrong kind";
  case CL_E_NOT_INJECTIVE: return "layout is not injective or not ordered";
  case CL_E_LIMIT: return "rank, depth or length limit exceeded";
  case CL_E_UNSUPPORTED: return "operation not supported for this input";
  case CL_E_BOUNDS: return "access outside the tensor";
  case CL_E_OVERLAP: return "source and destination overlap";
  case CL_E_ABI: return "header and library ABI versions differ";
  case CL_E_DEVICE: return "GPU call failed or memory unusable by the GPU";
  default: return "unknown status";
  }
}

static _Thread_local char last_error[256];

cl_status cl_fail(cl_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(last_error, sizeof last_error, fmt, ap);
  va_end(ap);
  return status;
}

void cl_clear_error(void) { last_error[0] = '\0'; }

cl_status cl_fail_null(const char *func, const char *arg) {
  if (strncmp(func, "cl_", 3) == 0)
    return cl_fail(CL_E_NULL, "%s: argument '%s' is NULL", func, arg);
  return cl_fail(CL_E_NULL, "argument '%s' is NULL", arg);
}

const char *cl_last_error(void) { return last_error; }

cl_status cl_set_last_error(cl_status status, const char *message) {
  return cl_fail(status, "%s", message != NULL ? message : "");
}

const char *cl_version_string(void) { return CUTELAYOUT_VERSION_STRING; }
int cl_version_number(void) { return CUTELAYOUT_VERSION_NUMBER; }
int cl_abi_version(void) { return CL_ABI_VERSION; }
int cl_abi_minor(void) { return CL_ABI_MINOR; }

static void *default_alloc(void *ctx, size_t size) { (void)ctx; return malloc(size); }
static void *default_realloc(void *ctx, void *ptr, size_t size) { (void)ctx; return realloc(ptr, size); }
static void default_free(void *ctx, void *ptr) { (void)ctx; free(ptr); }

static cl_allocator allocator = {default_alloc, default_realloc, default_free, NULL};

cl_status cl_set_allocator(const cl_allocator *a) {
  if (a == NULL || (a->alloc == NULL && a->realloc == NULL && a->free == NULL)) {
    allocator = (cl_allocator){default_alloc, default_realloc, default_free, NULL};
    return CL_OK;
  }
  if (a->alloc == NULL || a->realloc == NULL || a->free == NULL)
    return cl_fail(CL_E_NULL, "cl_set_allocator: alloc, realloc and free must all be set");
  allocator = *a;
  return CL_OK;
}

void *cl_alloc(size_t size) { return allocator.alloc(allocator.ctx, size ? size : 1); }
void *cl_realloc(void *ptr, size_t size) { return allocator.realloc(allocator.ctx, ptr, size ? size : 1); }
void cl_dealloc(void *ptr) {
  if (ptr != NULL)
    allocator.free(allocator.ctx, ptr);
}

cl_status cl_div(int64_t a, int64_t b, int64_t *r) {
  if (b == 0)
    return cl_fail(CL_E_DOMAIN, "division by zero (%lld / 0)", (long long)a);
  if (a == INT64_MIN && b == -1)
    return cl_fail(CL_E_OVERFLOW, "integer overflow in %lld / -1", (long long)a);
  *r = a / b;
  return CL_OK;
}

cl_status cl_mod(int64_t a, int64_t b, int64_t *r) {
  if (b == 0)
    return cl_fail(CL_E_DOMAIN, "division by zero (%lld %% 0)", (long long)a);
  *r = (b == -1) ? 0 : a % b;
  return CL_OK;
}

/* CuTe's ceil_div on integers is (a + b - 1) / b in C arithmetic. */
cl_status cl_ceil_div_int(int64_t a, int64_t b, int64_t *r) {
  if (b == 0) /* the message shows a, not the a + b - 1 divided */
    return cl_fail(CL_E_DOMAIN, "division by zero (%lld / 0)", (long long)a);
  int64_t t;
  CL_TRY(cl_add(a, b, &t));
  CL_TRY(cl_sub(t, 1, &t));
  return cl_div(t, b, r);
}

int64_t cl_gcd(int64_t a, int64_t b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

cl_status cl_check_picture(int64_t rows, int64_t cols, const char *what) {
  /* Once both axes are within the limit, neither factor exceeds 2^20: the
   * product cannot overflow. */
  if (rows <= CL_PICTURE_MAX_CELLS && cols <= CL_PICTURE_MAX_CELLS &&
      (rows < 1 ? 1 : rows) * (cols < 1 ? 1 : cols) <= CL_PICTURE_MAX_CELLS)
    return CL_OK;
  return cl_fail(CL_E_LIMIT, "%s has %lld x %lld entries, more than the %lld a picture shows",
                 what, (long long)rows, (long long)cols, (long long)CL_PICTURE_MAX_CELLS);
}
