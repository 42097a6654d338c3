/* SPDX-License-Identifier: BSD-3-Clause */
/* cute-layout: NVIDIA CuTe's layout algebra as a C library.
 *
 * common.h: the export macro, version numbers, and the status codes that every
 * fallible function returns.  Included by every other public header. */
#ifndef CUTELAYOUT_COMMON_H
#define CUTELAYOUT_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Every exported symbol carries CL_API; everything else in the library is
 * hidden (-fvisibility=hidden), so the ABI is exactly what the headers show. */
#if defined(_WIN32) && defined(CL_BUILDING_LIBRARY)
#define CL_API __declspec(dllexport)
#elif defined(_WIN32)
#define CL_API __declspec(dllimport)
#elif defined(__GNUC__) && __GNUC__ >= 4
#define CL_API __attribute__((visibility("default")))
#else
#define CL_API
#endif

/* Functions a program calls once per element (cl_layout_eval) are called
 * through the GOT, not a PLT stub: one indirect call instead of a call and a
 * jump (docs/performance.md, "Evaluation").  GCC's noplt; nothing where the compiler
 * lacks it, or where the program defines CL_NOPLT itself (-DCL_NOPLT=). */
#ifndef CL_NOPLT
#if defined(__has_attribute)
#if __has_attribute(noplt)
#define CL_NOPLT __attribute__((noplt))
#endif
#endif
#endif
#ifndef CL_NOPLT
#define CL_NOPLT
#endif

/* The package version.  Not CL_VERSION_*: OpenCL owns those names (and
 * cl_version), and a program may include its headers and ours together. */
#define CUTELAYOUT_VERSION_MAJOR 0
#define CUTELAYOUT_VERSION_MINOR 1
#define CUTELAYOUT_VERSION_PATCH 0
#define CUTELAYOUT_VERSION_NUMBER \
  (CUTELAYOUT_VERSION_MAJOR * 10000 + CUTELAYOUT_VERSION_MINOR * 100 + CUTELAYOUT_VERSION_PATCH)
#define CUTELAYOUT_VERSION_STRING "0.1.0"

/* The ABI this header describes.  CL_ABI_VERSION is the ABI major, the N of
 * the SONAME libcutelayout.so.N: it changes only with an incompatible change.
 * CL_ABI_MINOR counts compatible additions within that major (each one a new
 * symbol version node CUTELAYOUT_N.MINOR).  The package version
 * (CUTELAYOUT_VERSION_*) is independent of both.  See cl_abi_compatible(). */
#define CL_ABI_VERSION 1
#define CL_ABI_MINOR 0

/* Limits on the values the library accepts (checked, never assumed; beyond
 * them a function fails with CL_E_LIMIT and builds nothing).
 *  - CL_MAX_RANK: children of one tuple node.  The parser stops at the first
 *    element past it, so a huge tuple costs neither time nor memory.
 *  - CL_MAX_DEPTH: nesting of parentheses.  The library recurses on the
 *    nesting of its values (and the parser on that of the text), so this
 *    bounds its stack use whatever the input; CuTe's own layouts nest a few
 *    levels.
 *  - CL_PICTURE_MAX_CELLS: the entries of a picture (cl_print_layout's
 *    table, cl_print_1d's list, the grids of render.h), and each of its two
 *    axes: the text grows with the cells, and a 1024 x 1024 grid is already
 *    a 100 MB SVG, so a larger layout is refused before any work rather than
 *    drawn for hours.
 * Integers are int64_t throughout: a result that does not fit is
 * CL_E_OVERFLOW, never a wrapped value. */
#define CL_MAX_RANK 4096
#define CL_MAX_DEPTH 64
#define CL_PICTURE_MAX_CELLS ((int64_t)1 << 20)

/* Status codes: 0 is success, each failure a distinct negative value.
 * New codes are only ever appended. */
typedef enum cl_status {
  CL_OK = 0,
  CL_E_NULL = -1,          /* a required pointer argument was NULL */
  CL_E_NOMEM = -2,         /* an allocation failed */
  CL_E_PARSE = -3,         /* malformed text */
  CL_E_OVERFLOW = -4,      /* a result does not fit in int64_t */
  CL_E_RANK = -5,          /* ranks or profiles do not match (CuTe: "Mismatched Ranks") */
  CL_E_DIVISIBILITY = -6,  /* a divisibility condition of the algebra is violated */
  CL_E_DOMAIN = -7,        /* an argument is outside the function's domain (division by zero, index out of range) */
  CL_E_TYPE = -8,          /* a value of the wrong kind (a tuple where an integer is required, an underscore, ...) */
  CL_E_NOT_INJECTIVE = -9, /* complement/inverse preconditions: the layout is not injective or not ordered */
  CL_E_LIMIT = -10,        /* rank, depth or length limits exceeded */
  CL_E_UNSUPPORTED = -11,  /* an input CuTe does not support (e.g. a composed layout where a plain one is required) */
  CL_E_BOUNDS = -12,       /* a tensor access outside its memory */
  CL_E_OVERLAP = -13,      /* source and destination of a copy overlap */
  CL_E_ABI = -14,          /* header and library disagree on the ABI */
  CL_E_DEVICE = -15        /* a GPU call failed, or memory the GPU cannot use (the CUDA module, cuda.h) */
} cl_status;

/* A static English message for a status ("out of memory", ...); never NULL. */
CL_API const char *cl_status_string(int status);

/* A longer message for the most recent failure in the calling thread, e.g.
 * "column 7: expected ',' or ')'"; never NULL ("" before any failure).  Read
 * it right after a call returned a failure status: a later failing call
 * replaces it, and a successful call may leave an older message in place.
 * The string belongs to the library and is valid until the thread's next
 * call into it. */
CL_API const char *cl_last_error(void);

/* Records message (truncated to 255 bytes; NULL: "") as the calling thread's
 * cl_last_error() detail and returns status.  For libraries built on this
 * one, such as the CUDA module (cuda.h), so that their failures read the same
 * way as the library's own. */
CL_API cl_status cl_set_last_error(cl_status status, const char *message);

/* The library's version as "MAJOR.MINOR.PATCH", and as CUTELAYOUT_VERSION_NUMBER. */
CL_API const char *cl_version_string(void);
CL_API int cl_version_number(void);

/* The ABI major (CL_ABI_VERSION) and minor (CL_ABI_MINOR) of the library
 * loaded at run time. */
CL_API int cl_abi_version(void);
CL_API int cl_abi_minor(void);

/* Nonzero when the library loaded at run time implements the ABI this header
 * describes: the same major, and at least this header's minor (an older
 * library lacks the functions added since).  The dynamic linker already
 * refuses a different SONAME or a missing symbol version to programs linked
 * normally; this check is for code that loads the library by name (dlopen,
 * ctypes, Julia's ccall) or wants to fail early with a message.  It is inline
 * so that the constants come from the program's header, not the library's. */
static inline int cl_abi_compatible(void) {
  return cl_abi_version() == CL_ABI_VERSION && cl_abi_minor() >= CL_ABI_MINOR;
}

/* Memory: every allocation of the library goes through these hooks.  Passing
 * NULL for all three restores malloc/realloc/free.  Not thread-safe with
 * respect to concurrent library calls: set it once, before other calls.
 * This struct is frozen for the life of ABI 1: it will never gain fields;
 * a richer hook would come as a new function with its own struct. */
typedef struct cl_allocator {
  void *(*alloc)(void *ctx, size_t size);
  void *(*realloc)(void *ctx, void *ptr, size_t size);
  void (*free)(void *ctx, void *ptr);
  void *ctx;
} cl_allocator;
CL_API cl_status cl_set_allocator(const cl_allocator *allocator);

#ifdef __cplusplus
}
#endif
#endif
