/* SPDX-License-Identifier: BSD-3-Clause */
/* compiled.h: compiled layouts, CuTe's layout(i) evaluated inline, with no
 * call into the library: in a C or C++ loop, or in CUDA device code.
 *
 *   cl_compiled_layout_t c;
 *   if (cl_layout_compile(layout, &c) == CL_OK)       // once, on the host
 *     for (int64_t i = 0; i < c.size; i++)
 *       use(cl_compiled_eval(&c, i));                 // anywhere, inline
 *
 * A cl_compiled_layout_t is plain data: a fixed size, no pointers, nothing
 * owned, so it is copied with `=` or memcpy, kept in constant memory, or
 * passed to a CUDA kernel by value.  It holds the same evaluation plan that
 * a layout handle compiles for cl_layout_eval() (eval.h), and the library's
 * cl_layout_eval runs the same arithmetic (cl_compiled_plan_eval below).
 *
 * The plan.  Flatten the layout to its modes s_0:d_0, ..., s_{n-1}:d_{n-1},
 * let P_k = s_0 * ... * s_{k-1} and q_k = i / P_k.  CuTe's colexicographic
 * split of i gives mode k the coordinate q_k - s_k * q_{k+1} (the last mode
 * q_{n-1}), so that
 *
 *   layout(i) = i * d_0 + sum_{k>=1} q_k * (d_k - s_{k-1} * d_{k-1}).
 *
 * Modes that coalesce() would merge, and size-1 modes, drop out of the sum;
 * each remaining q_k is a division by an invariant, done in one of three
 * forms (Granlund & Montgomery, "Division by invariant integers using
 * multiplication", PLDI 1994; libdivide):
 *   pow2    every P_k a power of two 2^a: q_k = i >> a (CuTe's usual tiles);
 *   narrow  size <= 2^32: q_k = mulhi(i, ceil(2^64 / P_k)), exact because
 *           i * (P_k - 1) < 2^64;
 *   wide    q_k = mulhi(i, ceil(2^(63+l) / P_k)) >> (l - 1) with
 *           2^(l-1) < P_k <= 2^l, exact for i < 2^63.
 * The sum is computed modulo 2^64; the compile functions refuse every layout
 * for which some layout(i), 0 <= i < size, does not fit in int64_t, so the
 * wrapped sum is the exact index.
 *
 * Swizzles.  cl_composed_compile() compiles CuTe's swizzled layouts,
 * Sw<B,M,S> o offset o L (composition(Swizzle, offset, L)): the index is
 * x = offset + L(i), then x ^ (((x & mask) >> shr) << shl), which is
 * Swizzle<B,M,S>(x) with mask = CuTe's yyy_msk and a right shift by S (left
 * by -S when S < 0).  A plain layout compiles with offset 0 and mask 0: the
 * identity.
 *
 * Range of validity: cl_compiled_eval(c, i) is CuTe's layout(i) (the
 * composed layout's value, exactly as cl_composed_eval() gives it) for
 * 0 <= i < c->size.  For any other i the result is unspecified (no
 * undefined behaviour: the arithmetic is unsigned), where cl_layout_eval
 * extends the last mode or reports an overflow.
 *
 * Limits: at most CL_COMPILED_MAX_MODES modes once coalesced (the rank of
 * coalesce(L)); integer strides only.
 *
 * CUDA: compiled by nvcc, the inline functions are __host__ __device__
 * (CL_HOST_DEVICE); they use no library call, no libc and no global. */
#ifndef CUTELAYOUT_COMPILED_H
#define CUTELAYOUT_COMPILED_H

#include <stdint.h>

#include "common.h"
#include "layout.h"
#include "swizzle.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__CUDACC__)
#define CL_HOST_DEVICE __host__ __device__
#else
#define CL_HOST_DEVICE
#endif

/* The most modes of coalesce(L) a compiled layout holds. */
#define CL_COMPILED_MAX_MODES 16

/* One term of the plan: it adds q * coef (modulo 2^64), where q = i / P_k
 * is computed in the layout's form (cl_compiled_form) from magic and the
 * term's shift. */
typedef struct cl_compiled_term {
  uint64_t magic; /* the reciprocal of P_k, narrow or wide by the size (the pow2 form shifts instead) */
  uint64_t coef;  /* the sum of d_k - s_{k-1} * d_{k-1} over the modes with this P_k */
} cl_compiled_term_t;

/* How q = i / P_k is computed (the top of this file). */
typedef enum cl_compiled_form {
  CL_COMPILED_ONE_TERM = 0, /* narrow, at most one term, no offset, no swizzle:
                               i * d0 + mulhi(i, term[0].magic) * term[0].coef */
  CL_COMPILED_POW2 = 1,     /* q = i >> shift[k] */
  CL_COMPILED_NARROW = 2,   /* q = mulhi(i, magic) */
  CL_COMPILED_WIDE = 3      /* q = mulhi(i, magic) >> shift[k] */
} cl_compiled_form;

/* A compiled layout (see the top of this file).  Filled by
 * cl_layout_compile / cl_composed_compile; read its fields, do not write
 * them.  sizeof is the same in every build of ABI 1: 296 bytes. */
typedef struct cl_compiled_layout {
  int64_t size;          /* the domain: 0 <= i < size */
  uint64_t d0;           /* stride of the first mode: the coefficient of i */
  int64_t offset;        /* added before the swizzle (0 for a plain layout) */
  uint64_t swizzle_mask; /* the swizzle's yyy bits (0: no swizzle) */
  uint8_t swizzle_shr;   /* S when S > 0, else 0 */
  uint8_t swizzle_shl;   /* -S when S < 0, else 0 */
  uint8_t nterms;        /* terms in use, at most CL_COMPILED_MAX_MODES - 1; unused ones are 0 */
  uint8_t shift[CL_COMPILED_MAX_MODES - 1];
  uint8_t form;          /* a cl_compiled_form */
  uint8_t index32;       /* 1: size <= 2^32 and every sum (layout(i) before offset and swizzle) fits in int32_t */
  cl_compiled_term_t term[CL_COMPILED_MAX_MODES - 1];
} cl_compiled_layout_t;

/* Compiles layout into *out.
 * Errors (each leaves *out zeroed, size 0):
 *   CL_E_NULL      layout or out is NULL;
 *   CL_E_LIMIT     coalesce(layout) has more than CL_COMPILED_MAX_MODES modes;
 *   CL_E_OVERFLOW  the size, or some layout(i) with 0 <= i < size, does not
 *                  fit in int64_t (cl_layout_eval reports it exactly);
 *   CL_E_DOMAIN    a negative extent, or an empty tuple `()` in the shape
 *                  (CuTe cannot evaluate through it);
 *   CL_E_TYPE      a stride that is not an integer (a scaled basis, 1@0).
 * A layout with an extent 0 compiles to size 0 (an empty domain).  No
 * allocation; reads only the handle. */
CL_API cl_status cl_layout_compile(const cl_layout_t *layout, cl_compiled_layout_t *out);

/* Compiles a swizzled layout Sw<B,M,S> o offset o L (an outer swizzle, an
 * inner layout) into *out, so that cl_compiled_eval(out, i) equals
 * cl_composed_eval(composed, i) for 0 <= i < size(L).
 * Errors (each leaves *out zeroed): those of cl_layout_compile for L, and
 *   CL_E_NULL         composed or out is NULL;
 *   CL_E_UNSUPPORTED  the outer function is a layout or the inner one a
 *                     swizzle;
 *   CL_E_OVERFLOW     offset + L(i) leaves int64_t for some i (for an
 *                     offset that CuTe holds as an unsigned int, after
 *                     upcast/downcast: leaves [0, 2^32), where CuTe wraps),
 *                     or a swizzle mask reaches bit 31 (CuTe's int
 *                     arithmetic differs there). */
CL_API cl_status cl_composed_compile(const cl_composed_t *composed, cl_compiled_layout_t *out);

/* ---- the inline evaluation ---- */

/* Macros of the inline functions below.  CL_FALLTHROUGH marks a case of a
 * switch that falls through to the next. */
#if defined(__cplusplus) && __cplusplus >= 201703
#define CL_FALLTHROUGH [[fallthrough]]
#elif defined(__GNUC__) && (__GNUC__ >= 7 || defined(__clang__))
#define CL_FALLTHROUGH __attribute__((fallthrough))
#else
#define CL_FALLTHROUGH ((void)0)
#endif
/* Conditions true or false in the common case: the common path is laid
 * out straight, without taken branches (which cost about a cycle each). */
#if defined(__GNUC__) || defined(__clang__)
#define CL_LIKELY(x) __builtin_expect(!!(x), 1)
#define CL_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define CL_LIKELY(x) (x)
#define CL_UNLIKELY(x) (x)
#endif

/* The high 64 bits of the 128-bit product a * b. */
CL_HOST_DEVICE static inline uint64_t cl_mulhi_u64(uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#elif defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 cl_u128_t;
  return (uint64_t)(((cl_u128_t)a * b) >> 64);
#else
  uint64_t a_lo = (uint32_t)a, a_hi = a >> 32, b_lo = (uint32_t)b, b_hi = b >> 32;
  uint64_t lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi, hi_hi = a_hi * b_hi;
  uint64_t cross = (lo_lo >> 32) + (uint32_t)hi_lo + lo_hi;
  return hi_hi + (hi_lo >> 32) + (cross >> 32);
#endif
}

/* mulhi(u, m) for the narrow forms, whose operands u < 2^32 (size <=
 * 2^32).  On a GPU, where a 64-bit multiplication is several 32-bit ones,
 * two 32-bit products: the high 64 bits of x * (m_hi * 2^32 + m_lo) are
 * (x * m_hi + hi32(x * m_lo)) >> 32, a sum that cannot overflow. */
CL_HOST_DEVICE static inline uint64_t cl_mulhi_narrow(uint64_t u, uint64_t m) {
#if defined(__CUDA_ARCH__)
  uint32_t x = (uint32_t)u;
  return ((uint64_t)x * (uint32_t)(m >> 32) + __umulhi(x, (uint32_t)m)) >> 32;
#else
  return cl_mulhi_u64(u, m);
#endif
}

/* The narrow forms' operand: u itself, which is below 2^32; on a GPU cut to
 * 32 bits, so that the compiler multiplies 32 by 64 bits, not 64 by 64. */
CL_HOST_DEVICE static inline uint64_t cl_narrow_operand(uint64_t u) {
#if defined(__CUDA_ARCH__)
  return (uint32_t)u;
#else
  return u;
#endif
}

/* i as the unsigned operand of the multiplications.  Where i comes from a
 * signed expression, GCC (12) sees through the conversion and multiplies it
 * as a signed 128-bit value with a correction, three instructions more per
 * term; an empty asm statement hides where the value came from. */
CL_HOST_DEVICE static inline uint64_t cl_compiled_operand(int64_t i) {
  uint64_t u = (uint64_t)i;
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDA_ARCH__)
  __asm__("" : "+r"(u));
#endif
  return u;
}

/* The plan's sum, u * d0 + sum_k q_k * term[k].coef modulo 2^64, with q_k in
 * the given form (not CL_COMPILED_ONE_TERM): the arithmetic of
 * cl_compiled_eval and of the library's cl_layout_eval.  Called with a
 * constant form, the other forms compile away.  Written out for up to four
 * terms (most layouts): one jump into straight-line code, where a loop
 * would cost a branch per term. */
CL_HOST_DEVICE static inline uint64_t cl_compiled_plan_eval(uint64_t u, uint64_t d0, const cl_compiled_term_t *term,
                                                            const uint8_t *shift, int nterms, cl_compiled_form form) {
  if (form == CL_COMPILED_NARROW)
    u = cl_narrow_operand(u);
  uint64_t index = u * d0;
#define CL_COMPILED_TERM_(k)                                                          \
  (index += (form == CL_COMPILED_POW2     ? u >> shift[k]                             \
             : form == CL_COMPILED_NARROW ? cl_mulhi_narrow(u, term[k].magic)         \
                                          : cl_mulhi_u64(u, term[k].magic) >> shift[k]) * \
            term[k].coef)
  switch (nterms) {
  default:
    for (int k = 4; k < nterms; k++)
      CL_COMPILED_TERM_(k);
    CL_FALLTHROUGH;
  case 4:
    CL_COMPILED_TERM_(3);
    CL_FALLTHROUGH;
  case 3:
    CL_COMPILED_TERM_(2);
    CL_FALLTHROUGH;
  case 2:
    CL_COMPILED_TERM_(1);
    CL_FALLTHROUGH;
  case 1:
    CL_COMPILED_TERM_(0);
    CL_FALLTHROUGH;
  case 0:
    break;
  }
#undef CL_COMPILED_TERM_
  return index;
}

/* The whole evaluation of the one-term form. */
CL_HOST_DEVICE static inline uint64_t cl_compiled_one_term(uint64_t u, uint64_t d0, const cl_compiled_term_t *term) {
  u = cl_narrow_operand(u);
  return u * d0 + cl_mulhi_narrow(u, term->magic) * term->coef;
}

/* Two's complement reading of x (C leaves the plain conversion
 * implementation-defined; compilers emit no code for this). */
CL_HOST_DEVICE static inline int64_t cl_compiled_signed(uint64_t x) {
  return x <= (uint64_t)INT64_MAX ? (int64_t)x : -(int64_t)(~x) - 1;
}

/* The power-of-two and narrow forms' sum in 32-bit arithmetic, for a
 * layout whose index32 is set: i is below 2^32 and every sum fits in
 * int32_t, so the sum modulo 2^32 read as int32_t is exact.  A GPU multiplies
 * 32 bits in one instruction and 64 bits in several. */
CL_HOST_DEVICE static inline uint64_t cl_compiled_plan_eval32(uint32_t u, uint32_t d0, const cl_compiled_term_t *term,
                                                              const uint8_t *shift, int nterms, cl_compiled_form form) {
  uint32_t index = u * d0;
#define CL_COMPILED_TERM32_(k)                                                                     \
  (index += (form == CL_COMPILED_POW2 ? u >> shift[k] : (uint32_t)cl_mulhi_narrow(u, term[k].magic)) * \
            (uint32_t)term[k].coef)
  switch (nterms) {
  default:
    for (int k = 4; k < nterms; k++)
      CL_COMPILED_TERM32_(k);
    CL_FALLTHROUGH;
  case 4:
    CL_COMPILED_TERM32_(3);
    CL_FALLTHROUGH;
  case 3:
    CL_COMPILED_TERM32_(2);
    CL_FALLTHROUGH;
  case 2:
    CL_COMPILED_TERM32_(1);
    CL_FALLTHROUGH;
  case 1:
    CL_COMPILED_TERM32_(0);
    CL_FALLTHROUGH;
  case 0:
    break;
  }
#undef CL_COMPILED_TERM32_
  return (uint64_t)(int64_t)(int32_t)index;
}

/* cl_compiled_eval for the forms other than one term: the sum in its form,
 * then the offset and the swizzle when there are any. */
CL_HOST_DEVICE static inline uint64_t cl_compiled_eval_sum(const cl_compiled_layout_t *c, uint64_t u) {
  uint64_t x;
#if defined(__CUDA_ARCH__)
  /* On a GPU, in 32 bits where the layout allows it (a CPU multiplies 64
   * bits as fast). */
  if (c->index32 && c->form != CL_COMPILED_WIDE)
    x = c->form == CL_COMPILED_POW2
            ? cl_compiled_plan_eval32((uint32_t)u, (uint32_t)c->d0, c->term, c->shift, c->nterms, CL_COMPILED_POW2)
            : cl_compiled_plan_eval32((uint32_t)u, (uint32_t)c->d0, c->term, c->shift, c->nterms, CL_COMPILED_NARROW);
  else
#endif
  x = CL_LIKELY(c->form == CL_COMPILED_POW2)
                   ? cl_compiled_plan_eval(u, c->d0, c->term, c->shift, c->nterms, CL_COMPILED_POW2)
               : CL_LIKELY(c->form == CL_COMPILED_NARROW)
                   ? cl_compiled_plan_eval(u, c->d0, c->term, c->shift, c->nterms, CL_COMPILED_NARROW)
                   : cl_compiled_plan_eval(u, c->d0, c->term, c->shift, c->nterms, CL_COMPILED_WIDE);
  if (CL_UNLIKELY(c->swizzle_mask != 0 || c->offset != 0)) {
    x += (uint64_t)c->offset;
    x ^= ((x & c->swizzle_mask) >> c->swizzle_shr) << c->swizzle_shl;
  }
  return x;
}

/* CuTe's layout(i) (or, compiled from a composed layout, its value at i) for
 * 0 <= i < c->size; unspecified for any other i. */
CL_HOST_DEVICE static inline int64_t cl_compiled_eval(const cl_compiled_layout_t *c, int64_t i) {
  uint64_t u = cl_compiled_operand(i);
  if (CL_LIKELY(c->form == CL_COMPILED_ONE_TERM))
    return cl_compiled_signed(cl_compiled_one_term(u, c->d0, c->term));
  return cl_compiled_signed(cl_compiled_eval_sum(c, u));
}

#ifdef __cplusplus
}
#endif
#endif
