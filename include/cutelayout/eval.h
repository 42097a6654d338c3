/* SPDX-License-Identifier: BSD-3-Clause */
/* eval.h: fast evaluation of layouts, one index or a whole range of them.
 *
 * cl_layout_eval() (layout.h) is CuTe's `layout(i)`.  Every layout handle
 * carries room for a compiled evaluation plan, which the first evaluation of
 * the handle fills in (thread-safely: handles stay shareable; making a handle
 * costs only a count of its leaves), so that evaluating needs neither a walk
 * over the shape tree nor a hardware division: with the modes flattened to
 * (s_0:d_0, ..., s_{n-1}:d_{n-1}) and
 * P_k = s_0 * ... * s_{k-1}, CuTe's colexicographic split gives
 *
 *   layout(i) = i * d_0 + sum_{k>=1} (i / P_k) * (d_k - s_{k-1} * d_{k-1})
 *
 * (the last mode taking the rest without a modulus is built in), and each
 * i / P_k is a multiplication by a precomputed reciprocal.  Terms whose
 * coefficient is 0 are the modes coalesce() would merge and are dropped.
 * The same plan, as plain data that a program evaluates inline (in C, C++
 * or CUDA device code) without calling the library, is compiled.h's
 * cl_compiled_layout_t; both run compiled.h's arithmetic.
 * The plan answers 0 <= i < size(layout); every other i (negative, or past the
 * end, which CuTe gives to the last mode) takes the exact tree evaluation,
 * with its overflow errors.
 *
 * Cost of the plan in the handle: 16 bytes plus 16 per flattened mode after
 * the first, at least one (terms that coalescing removes leave their room
 * unused), plus one
 * byte per term for its shift, rounded up to 8.  A rank-4 flat layout such
 * as (4,8,2,16):(1,64,3,7) is one allocation of 256 bytes: 8 bytes of
 * header, 11 nodes of 16 bytes (the shape and stride trees), 72 bytes of
 * plan.  Evaluation never allocates. */
#ifndef CUTELAYOUT_EVAL_H
#define CUTELAYOUT_EVAL_H

#include "common.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[j] = layout(begin + j) for 0 <= j < count, CuTe's layout(i) for each
 * linear coordinate, exactly as cl_layout_eval() gives it.  The coordinates
 * inside [0, size(layout)) are enumerated by an odometer over the coalesced
 * modes (no division per element); the others are evaluated one by one.
 *
 * Errors: CL_E_NULL (layout, or out when count > 0), CL_E_DOMAIN (count < 0),
 * CL_E_OVERFLOW (begin + count does not fit, or an index does not fit in
 * int64_t, as cl_layout_eval() would say).  On failure out[0..count) is set
 * to 0, never left half-written.  No allocation; out must hold count
 * elements and is the only memory written. */
CL_API cl_status cl_layout_eval_range(const cl_layout_t *layout, int64_t begin, int64_t count, int64_t *out);

#ifdef __cplusplus
}
#endif
#endif
