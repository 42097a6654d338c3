/* render.h: pictures of layouts.
 *
 * Every function writes snprintf-style into a caller's buffer: at most cap
 * bytes (NUL included), returning the length of the whole text, or a
 * negative status on failure (nothing useful is written then). */
#ifndef CUTELAYOUT_RENDER_H
#define CUTELAYOUT_RENDER_H

#include "common.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CuTe's print_layout: the layout's text, then an M x N table of L(m,n)
 * with row and column numbers.  The layout must have rank 2 (CL_E_RANK). */
CL_API int64_t cl_print_layout(const cl_layout_t *layout, char *buf, size_t cap);

/* print1D: L(0) L(1) ... L(size-1), separated by single spaces. */
CL_API int64_t cl_print_1d(const cl_layout_t *layout, char *buf, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
