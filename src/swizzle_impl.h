/* SPDX-License-Identifier: BSD-3-Clause */
/* swizzle_impl.h: what swizzle.c (swizzles and the composed-layout handle)
 * shares with swizzle_algebra.c (CuTe's operations on composed layouts). */
#ifndef CUTELAYOUT_SWIZZLE_IMPL_H
#define CUTELAYOUT_SWIZZLE_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "tuple_impl.h"
#include "cutelayout/swizzle.h"

/* One side of a composed layout, owning its layout or its nested composed
 * layout (kind CL_FN_COMPOSED). */
typedef struct cl_sw_part {
  cl_fn_kind kind;
  cl_swizzle_t swizzle;
  cl_layout_t *layout;
  cl_composed_t *composed;
} cl_sw_part;

/* The sides that internal code hands to the constructors. */
static inline cl_layout_fn_t cl_side_layout(const cl_layout_t *l) { return cl_layout_fn_of(cl_fn_layout(l)); }
static inline cl_layout_fn_t cl_side_swizzle(cl_swizzle_t sw) { return cl_layout_fn_of(cl_fn_swizzle(sw)); }
/* Either a layout (l) or a composed layout (c), whichever is not NULL. */
static inline cl_layout_fn_t cl_side_either(const cl_layout_t *l, const cl_composed_t *c) {
  return c != NULL ? cl_layout_fn_composed(c) : cl_side_layout(l);
}

struct cl_composed {
  cl_sw_part outer; /* CuTe's layout_a() */
  int64_t offset;   /* CuTe's offset() */
  cl_sw_part inner; /* CuTe's layout_b(): defines the domain */
  /* The C++ type of CuTe's static offset matters in one place: the identity
   * swizzle is dropped by composition(Swizzle<0,M,S>, Int<0>, L) only for an
   * int 0.  upcast/downcast scale the offset by their uint32_t template
   * argument, which makes it unsigned, and the operations that pass the
   * offset on keep its type. */
  bool unsigned_offset;
};

/* ---- swizzles (valid ones only) ---- */
/* CuTe's yyy_msk / zzz_msk: int constants widened to 64 bits. */
int64_t cl_sw_yyy_msk(cl_swizzle_t sw);
int64_t cl_sw_zzz_msk(cl_swizzle_t sw);
/* Swizzle<B,M,S>(x) = x ^ shiftr(x & yyy_msk, S). */
int64_t cl_sw_apply(cl_swizzle_t sw, int64_t x);

/* ---- composed layouts ---- */
cl_layout_fn_t cl_sw_view(const cl_sw_part *part);
/* Frees what the part owns. */
void cl_sw_release_part(cl_sw_part *part);
/* The inner function when it is a layout; CL_E_UNSUPPORTED (naming `what`)
 * for an inner swizzle or composed layout. */
cl_status cl_sw_inner_layout(const cl_composed_t *c, const char *what, const cl_layout_t **out);
/* The layout that defines the domain: the inner layout, looked for through
 * nested composed layouts; CL_E_UNSUPPORTED for a swizzle there. */
cl_status cl_sw_domain_layout(const cl_composed_t *c, const char *what, const cl_layout_t **out);
/* make_composed_layout with the offset's C++ type (see struct cl_composed). */
cl_status cl_sw_make_composed(cl_layout_fn_t outer, int64_t offset, bool unsigned_offset, cl_layout_fn_t inner,
                              cl_composed_t **out);
/* CuTe's composition(A, offset, B): drops the identity swizzle when the
 * offset is an int 0 and B a layout.  Either-or result. */
cl_status cl_sw_composition3(cl_layout_fn_t outer, int64_t offset, bool unsigned_offset, cl_layout_fn_t inner,
                             cl_layout_t **layout, cl_composed_t **composed);
/* composition(A, offset, inner) with the inner function handed over (freed):
 * a layout il or a composed layout ic, whichever is not NULL; the offset's
 * type taken from the composed layout `from` (NULL: an int). */
cl_status cl_sw_rewrap(cl_layout_fn_t outer, int64_t offset, const cl_composed_t *from, cl_layout_t *il,
                       cl_composed_t *ic, cl_layout_t **layout, cl_composed_t **composed);
/* offset + x in the offset's arithmetic (an unsigned one wraps modulo 2^32). */
cl_status cl_sw_offset_plus(const cl_composed_t *c, int64_t x, int64_t *out);
int64_t cl_sw_wrap32(int64_t v);

/* The composed layout as a map (map_impl.h), on the inner layout's domain;
 * CL_E_UNSUPPORTED (naming `what`) for an inner swizzle. */
struct cl_fnmap;
cl_status cl_fnmap_of_composed(const cl_composed_t *c, const char *what, struct cl_fnmap *out);

/* ---- errors and either-or results ---- */
/* Puts a context in front of the detail message of a failure. */
cl_status cl_sw_fail_context(cl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Clears both out-parameters of an either-or result. */
void cl_sw_clear_either(cl_layout_t **layout, cl_composed_t **composed);
#define CHECK_EITHER(layout, composed) \
  do { CHECK_NULL(layout); CHECK_NULL(composed); cl_sw_clear_either(layout, composed); } while (0)

#endif
