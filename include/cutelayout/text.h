/* SPDX-License-Identifier: BSD-3-Clause */
/* text.h: allocating conversions to CONTRACT.md's canonical text.
 *
 * cl_tuple_parse/cl_tuple_format and cl_layout_parse/cl_layout_format (in
 * tuple.h and layout.h) are the primary entry points; these return a fresh
 * NUL-terminated string that the caller frees with cl_string_free(). */
#ifndef CUTELAYOUT_TEXT_H
#define CUTELAYOUT_TEXT_H

#include "common.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The canonical text of a tuple / a layout in a fresh NUL-terminated string
 * (free it with cl_string_free()).  CL_E_NULL for a NULL argument,
 * CL_E_NOMEM when the string cannot be allocated; *out is NULL then. */
CL_API cl_status cl_tuple_to_string(const cl_tuple_t *t, char **out);
CL_API cl_status cl_layout_to_string(const cl_layout_t *layout, char **out);
/* Frees a string returned by the library; NULL is a no-op. */
CL_API void cl_string_free(char *s);

#ifdef __cplusplus
}
#endif
#endif
