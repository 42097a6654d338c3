/* SPDX-License-Identifier: BSD-3-Clause */
/* eval_plan.c: compiled evaluation, CuTe's layout(i) without a tree walk or a
 * hardware division: the plan that every layout handle carries
 * (cl_layout_eval), the same plan handed out as plain data
 * (cl_layout_compile, compiled.h), and whole ranges of layout(i) by an
 * odometer (cl_layout_eval_range).
 *
 * The plan.  Flatten the layout to its leaf modes s_0:d_0, ..., s_{n-1}:d_{n-1}
 * and let P_k = s_0 * ... * s_{k-1} and q_k = i / P_k (C's truncating
 * division).  CuTe's colexicographic split gives mode k the coordinate
 * c_k = q_k % s_k = q_k - s_k * q_{k+1}, and the last mode c_{n-1} = q_{n-1}
 * (the rest, no modulus).  Hierarchy changes nothing: splitting i first by
 * sub-layout sizes and then inside each gives the same c_k, because
 * (i / a) / b == i / (a * b).  Summing c_k * d_k and regrouping by q_k:
 *
 *   layout(i) = i * d_0 + sum_{k=1}^{n-1} q_k * e_k,   e_k = d_k - s_{k-1} * d_{k-1}.
 *
 * So evaluation is one multiply-add per mode, each q_k independent of the
 * others (no dependency chain through the modes).  e_k == 0 exactly when
 * modes k-1 and k would be merged by coalesce(), and size-1 modes give equal
 * P_k; both shrink the plan: terms are grouped by P_k, and groups whose
 * coefficient sums to 0 are dropped.  What is left is one term per mode of
 * coalesce(L) after the first.
 *
 * Fast division (the technique of libdivide and of Granlund & Montgomery,
 * "Division by invariant integers using multiplication", PLDI 1994), for a
 * divisor P >= 2 and 0 <= x < size, in three forms (set_divisors):
 *   pow2 (every P of the plan a power of two 2^a): q = x >> a;
 *   narrow (size <= 2^32): m = ceil(2^64 / P), q = mulhi(x, m); the rounding
 *     error m*P - 2^64 < P moves x * m / 2^64 by less than x * P / 2^64 / P,
 *     and x * P < 2^64, too little to reach the next multiple;
 *   wide: with 2^(l-1) < P <= 2^l, m = ceil(2^(63+l) / P) < 2^64 and
 *     q = mulhi(x, m) >> (l - 1), exact for x < 2^63 by the same argument;
 * and a one-term form, a narrow plan of at most one term, evaluated without
 * any branch.  The arithmetic itself is compiled.h's, inline, shared with
 * the users of compiled layouts.
 *
 * Overflow.  The plan answers 0 <= i < size(layout) only, and only for
 * layouts where every such i is known to evaluate without overflow:
 * cl_plan_check() finds the size and the extremes of layout(i) over the domain
 * (the coordinates vary independently, so the extremes are the sums of
 * (s_k - 1) * d_k over the negative and the positive strides) and requires
 * them in int64_t.  Inside the plan, arithmetic is done modulo 2^64: the
 * identity above holds over the integers, the true result fits, so the
 * wrapped result is it.  Every other i takes cl_tree_eval, which reports
 * overflow exactly. */
#include <stddef.h>
#include <string.h>

#include "cutelayout/compiled.h"
#include "cutelayout/eval.h"
#include "cutelayout/layout.h"
#include "eval_plan_impl.h"

#if defined(__GNUC__) || defined(__clang__)
#define CL_NOINLINE __attribute__((noinline))
#else
#define CL_NOINLINE
#endif

/* ------------------------------------------------------- the reciprocals */

/* ceil(2^e / d) for d >= 2, when the caller knows it fits in 64 bits. */
static uint64_t ceil_pow2_div(unsigned e, uint64_t d) {
#if defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 u128;
  u128 num = (u128)1 << e;
  return (uint64_t)(num / d) + (num % d != 0);
#else
  uint64_t q = 0, r = 1; /* long division of 2^e, one bit at a time */
  for (unsigned bit = 0; bit < e; bit++) {
    r <<= 1;
    q <<= 1;
    if (r >= d) {
      r -= d;
      q |= 1;
    }
  }
  return q + (r != 0);
#endif
}

static unsigned ceil_log2(uint64_t x) { /* x >= 2 */
#if defined(__GNUC__) || defined(__clang__)
  return 64 - (unsigned)__builtin_clzll(x - 1);
#else
  unsigned l = 0;
  while (l < 64 && ((uint64_t)1 << l) < x)
    l++;
  return l;
#endif
}

/* The narrow form of the reciprocals answers sizes up to this. */
#define NARROW_MAX ((uint64_t)1 << 32)

/* Turns the n terms of a plan of the given size, whose magic fields hold
 * their divisors P_k, into the divisions of the form it returns (compiled.h,
 * the top of this file): pow2 when every P_k is a power of two, else narrow
 * or wide by the size; the one-term form, where allowed, for at most one
 * term of a narrow plan.  magic is the narrow or wide reciprocal in every
 * form; shift is what the form uses (0 for narrow). */
static cl_compiled_form set_divisors(cl_compiled_term_t *term, uint8_t *shift, int32_t n, uint64_t size,
                                     bool allow_one_term) {
  bool wide = size > NARROW_MAX, pow2 = true;
  for (int32_t k = 0; k < n; k++)
    pow2 &= (term[k].magic & (term[k].magic - 1)) == 0;
  cl_compiled_form form = allow_one_term && !wide && n <= 1 ? CL_COMPILED_ONE_TERM
                          : pow2                           ? CL_COMPILED_POW2
                          : wide                           ? CL_COMPILED_WIDE
                                                           : CL_COMPILED_NARROW;
  for (int32_t k = 0; k < n; k++) {
    uint64_t divisor = term[k].magic;
    unsigned l = ceil_log2(divisor);
    bool is_pow2 = (divisor & (divisor - 1)) == 0;
    if (!wide)
      term[k].magic = is_pow2 ? (uint64_t)1 << (64 - l) : UINT64_MAX / divisor + 1; /* ceil(2^64 / P) */
    else
      term[k].magic = is_pow2 ? (uint64_t)1 << 63 : ceil_pow2_div(63 + l, divisor);
    shift[k] = (uint8_t)(form == CL_COMPILED_POW2 ? l : form == CL_COMPILED_WIDE ? l - 1 : 0);
  }
  return form;
}

/* ------------------------------------------------------------- the plan */

/* What a plan relies on, checked in one pass over the trees; the status says
 * which condition fails (no message: the handle's plan is compiled inside
 * cl_layout_eval, which must not touch cl_last_error when it succeeds):
 *   - shape and stride congruent with integer leaves: congruent trees have
 *     the same pre-order sequence of (span, rank, kind, depth), the 8 bytes
 *     after each value (CL_E_TYPE otherwise: a stride that is not an integer);
 *   - no empty tuple (CuTe cannot evaluate through `()`: CL_E_DOMAIN), no
 *     negative extent (CL_E_DOMAIN);
 *   - size and the extremes of layout(i) over [0, size), the sums of
 *     (s_k - 1) * d_k over the negative and the positive d_k, within
 *     int64_t (CL_E_OVERFLOW).
 * An extent 0 makes the domain empty: CL_OK with size 0 (and extremes 0). */
cl_status cl_plan_check(const cl_node *shape, const cl_node *stride, cl_plan_bounds *bounds) {
  *bounds = (cl_plan_bounds){0, 0, 0};
  if (shape->span != stride->span)
    return CL_E_TYPE;
  int64_t total = 1, low = 0, high = 0, reach;
  bool empty = false, overflow = false;
  for (int32_t j = 0; j < shape->span; j++) {
    uint64_t shape_form, stride_form;
    memcpy(&shape_form, &shape[j].span, sizeof shape_form);
    memcpy(&stride_form, &stride[j].span, sizeof stride_form);
    if (shape_form != stride_form || (!cl_is_tuple(&shape[j]) && !cl_is_int(&shape[j])))
      return CL_E_TYPE;
    if (cl_is_tuple(&shape[j])) {
      if (shape[j].rank == 0)
        return CL_E_DOMAIN;
      continue;
    }
    int64_t s = shape[j].value, d = stride[j].value;
    if (s < 0)
      return CL_E_DOMAIN;
    empty |= s == 0;
    int64_t *extreme = d < 0 ? &low : &high;
    overflow |= __builtin_mul_overflow(total, s, &total) || __builtin_mul_overflow(s - 1, d, &reach) ||
                __builtin_add_overflow(*extreme, reach, extreme);
  }
  if (empty)
    return CL_OK;
  if (overflow)
    return CL_E_OVERFLOW;
  *bounds = (cl_plan_bounds){total, low, high};
  return CL_OK;
}

/* A plan being written: the first mode's stride, the terms (room for `room`),
 * and where the shifts go once the terms are known. */
typedef struct plan_sink {
  uint64_t d0;
  cl_compiled_term_t *term;
  int32_t nterms, room;
} plan_sink;

/* Ends a group of modes sharing P: its coefficient joins d0 when P == 1
 * (q == i), becomes a term otherwise, and vanishes when it is 0.  The term's
 * magic field holds P until the reciprocals are computed.  CL_E_LIMIT when
 * the room is full. */
static cl_status flush_group(plan_sink *p, uint64_t group_p, uint64_t coef) {
  if (group_p == 1) {
    p->d0 += coef;
  } else if (coef != 0) {
    if (p->nterms == p->room)
      return CL_E_LIMIT;
    p->term[p->nterms].magic = group_p;
    p->term[p->nterms].coef = coef;
    p->nterms++;
  }
  return CL_OK;
}

/* The terms of (shape, stride), which cl_plan_check accepted with a size >= 1,
 * grouped by P_k; each term's magic field holds its P_k. */
static cl_status plan_terms_of(const cl_node *shape, const cl_node *stride, plan_sink *p) {
  uint64_t prefix = 1, group_p = 1, group_coef = 0, prev_s = 1, prev_d = 0;
  bool first = true;
  p->d0 = 0;
  p->nterms = 0;
  for (int32_t j = 0; j < shape->span; j++) {
    if (cl_is_tuple(&shape[j]))
      continue;
    uint64_t s = (uint64_t)shape[j].value, d = (uint64_t)stride[j].value;
    if (first) {
      p->d0 = d;
      first = false;
    } else {
      if (prefix != group_p) {
        CL_TRY(flush_group(p, group_p, group_coef));
        group_p = prefix;
        group_coef = 0;
      }
      group_coef += d - prev_s * prev_d;
    }
    prefix *= s; /* no wrap: prefix <= size */
    prev_s = s;
    prev_d = d;
  }
  /* A last group whose P is the size (trailing size-1 modes) has q == 0
   * everywhere in the domain. */
  return group_p == prefix ? CL_OK : flush_group(p, group_p, group_coef);
}

/* ----------------------------------------------- compiled layouts (compiled.h) */

static cl_status compile_fail(cl_status status, const cl_layout_t *layout) {
  char text[160];
  int64_t n = cl_layout_format(layout, text, sizeof text);
  const char *shown = n >= 0 && n < (int64_t)sizeof text ? text : "the layout";
  switch (status) {
  case CL_E_TYPE: return cl_fail(status, "cl_layout_compile: %s: only integer strides can be compiled", shown);
  case CL_E_DOMAIN:
    return cl_fail(status, "cl_layout_compile: %s: a negative extent or an empty tuple () cannot be evaluated", shown);
  case CL_E_OVERFLOW:
    return cl_fail(status, "cl_layout_compile: %s: its size or an index layout(i) does not fit in int64_t", shown);
  case CL_E_LIMIT:
    return cl_fail(status, "cl_layout_compile: %s: coalesced, it has more than %d modes (CL_COMPILED_MAX_MODES)", shown,
                   CL_COMPILED_MAX_MODES);
  default: return status;
  }
}

/* compiled.h promises one size for every build. */
_Static_assert(sizeof(cl_compiled_layout_t) == 296, "cl_compiled_layout_t is 296 bytes in ABI 1");

cl_status cl_compile_layout(const cl_layout_t *layout, bool allow_one_term, cl_compiled_layout_t *out) {
  CHECK_NULL(out);
  memset(out, 0, sizeof *out);
  CHECK_NULL(layout);
  const cl_node *root = cl_lroot(layout), *shape = cl_lshape(root), *stride = cl_lstride(root);
  cl_plan_bounds bounds;
  cl_status s = cl_plan_check(shape, stride, &bounds);
  if (s != CL_OK)
    return compile_fail(s, layout);
  if (bounds.size == 0)
    return CL_OK;
  plan_sink p = {0, out->term, 0, CL_COMPILED_MAX_MODES - 1};
  s = plan_terms_of(shape, stride, &p);
  if (s != CL_OK) {
    memset(out, 0, sizeof *out);
    return compile_fail(s, layout);
  }
  out->form = (uint8_t)set_divisors(out->term, out->shift, p.nterms, (uint64_t)bounds.size, allow_one_term);
  out->size = bounds.size;
  out->index32 = bounds.low >= INT32_MIN && bounds.high <= INT32_MAX && (uint64_t)bounds.size <= (uint64_t)1 << 32;
  out->d0 = p.d0;
  out->nterms = (uint8_t)p.nterms;
  return CL_OK;
}

cl_status cl_layout_compile(const cl_layout_t *layout, cl_compiled_layout_t *out) {
  return cl_compile_layout(layout, true, out);
}

/* --------------------------------------------------- the handle's plan */

/* Stored after a layout handle's nodes.  The handle's `plan` field is the
 * tag: bits 0-2 the state, bits 3-11 the number of terms, bits 12-31 the
 * plan's byte offset from the start of the handle, so that the fast path
 * finds the plan with one load and one add.
 *
 * The room is reserved when the handle is made (cl_plan_measure: a count of
 * leaves and the size, a few instructions per node), the plan itself is
 * compiled by the first evaluation (plan_compile), so that the many handles an
 * algebra computation makes and never evaluates cost nothing for it.  Handles
 * are shared between threads, so the state changes atomically: UNBUILT, then
 * BUILDING for the one thread that compiles (others meanwhile evaluate on the
 * trees), then READY or NONE, published with release order after the plan's
 * bytes.  Layouts beyond the fields (over 511 terms, or 65000 nodes) get no
 * plan. */
typedef struct plan {
  uint64_t limit; /* size(layout): the plan answers 0 <= i < limit */
  uint64_t d0;    /* coefficient of i itself */
  cl_compiled_term_t term[];
  /* uint8_t shift[nterms] follows term[nterms - 1] */
} plan;

enum {
  PLAN_NONE = 0,
  PLAN_READY = 1, /* the only states with bit 0: the fast path tests one bit */
  PLAN_FORM_SHIFT = 1, /* a ready plan's cl_compiled_form is in bits 1-2 */
  PLAN_ONE_TERM = PLAN_READY | CL_COMPILED_ONE_TERM << PLAN_FORM_SHIFT,
  PLAN_POW2 = PLAN_READY | CL_COMPILED_POW2 << PLAN_FORM_SHIFT,
  PLAN_NARROW = PLAN_READY | CL_COMPILED_NARROW << PLAN_FORM_SHIFT,
  PLAN_UNBUILT = 4,
  PLAN_BUILDING = 6,
  PLAN_STATE_MASK = 7,
  PLAN_TERMS_SHIFT = 3,
  PLAN_TERMS_MASK = 511,
  PLAN_OFFSET_SHIFT = 12
};

static inline int32_t plan_terms(uint32_t tag) { return (int32_t)((tag >> PLAN_TERMS_SHIFT) & PLAN_TERMS_MASK); }
/* The plan's address; only read through it for a tag with an offset (any
 * state but NONE). */
static inline const plan *plan_of(const cl_layout_t *layout, uint32_t tag) {
  return (const plan *)(const void *)((const char *)layout + (tag >> PLAN_OFFSET_SHIFT));
}
static inline const uint8_t *plan_shifts(const plan *p, int32_t nterms) {
  return (const uint8_t *)(const void *)(p->term + nterms);
}

/* Run for every handle made: just the room the plan will need, one term per
 * leaf after the first (at least one) and a byte for its shift. */
void cl_plan_measure(const cl_node *shape, const cl_node *stride, cl_plan_info *info) {
  (void)stride;
  info->bytes = 0;
  int64_t n = 0, total = 1;
  for (int32_t j = 0; j < shape->span; j++) {
    if (cl_is_tuple(&shape[j])) {
      if (shape[j].rank == 0)
        return;
      continue;
    }
    if (!cl_is_int(&shape[j]) || shape[j].value < 1 || __builtin_mul_overflow(total, shape[j].value, &total))
      return;
    n++;
  }
  if (n == 0)
    return;
  size_t terms = n > 1 ? (size_t)n - 1 : 1; /* the one-term form reads term[0] */
  info->leaves = n;
  info->size = (uint64_t)total;
  info->bytes = sizeof(plan) + terms * sizeof(cl_compiled_term_t) + ((terms + 7) & ~(size_t)7);
}

int32_t cl_plan_tag(const cl_node *shape, const cl_plan_info *info, const void *mem) {
  if (info->bytes == 0)
    return PLAN_NONE;
  /* shape is nodes[1] of the handle */
  size_t offset = offsetof(struct cl_layout, nodes) + sizeof(cl_node) + (size_t)((const char *)mem - (const char *)shape);
  if (offset >= ((size_t)1 << (32 - PLAN_OFFSET_SHIFT)))
    return PLAN_NONE;
  return (int32_t)(((uint32_t)offset << PLAN_OFFSET_SHIFT) | PLAN_UNBUILT);
}

/* Writes the plan of (shape, stride) at p, in the room cl_plan_measure
 * reserved (a term per leaf after the first), and returns its tag (offset as
 * given, PLAN_NONE if there is no plan for this layout). */
static uint32_t plan_write(const cl_node *shape, const cl_node *stride, plan *p, uint32_t offset_bits) {
  cl_plan_bounds bounds;
  if (cl_plan_check(shape, stride, &bounds) != CL_OK || bounds.size == 0)
    return PLAN_NONE;
  plan_sink sink = {0, p->term, 0, PLAN_TERMS_MASK};
  if (plan_terms_of(shape, stride, &sink) != CL_OK)
    return PLAN_NONE;
  if (sink.nterms == 0) /* the one-term form adds term[0]: make it 0 */
    p->term[0] = (cl_compiled_term_t){0, 0};
  uint8_t *shift = (uint8_t *)(void *)(p->term + sink.nterms);
  cl_compiled_form form = set_divisors(p->term, shift, sink.nterms, (uint64_t)bounds.size, true);
  p->limit = (uint64_t)bounds.size;
  p->d0 = sink.d0;
  return offset_bits | ((uint32_t)sink.nterms << PLAN_TERMS_SHIFT) | ((uint32_t)form << PLAN_FORM_SHIFT) | PLAN_READY;
}

/* The first evaluation of a handle compiles its plan (see above); returns the
 * tag to use now.  The handle is library-owned heap memory whose plan field
 * and room are written only here, under the BUILDING state, so casting away
 * const is sound. */
static CL_NOINLINE uint32_t plan_compile(const cl_layout_t *layout, uint32_t tag) {
  int32_t *field = &((cl_layout_t *)(uintptr_t)layout)->plan;
  int32_t expected = (int32_t)tag;
  uint32_t offset_bits = tag & ~(uint32_t)((1u << PLAN_OFFSET_SHIFT) - 1);
  if (!__atomic_compare_exchange_n(field, &expected, (int32_t)(offset_bits | PLAN_BUILDING), false, __ATOMIC_ACQUIRE,
                                   __ATOMIC_ACQUIRE))
    return (uint32_t)expected; /* another thread is compiling it, or has */
  plan *p = (plan *)(void *)((char *)(uintptr_t)layout + (tag >> PLAN_OFFSET_SHIFT));
  const cl_node *root = cl_lroot(layout);
  uint32_t done = plan_write(cl_lshape(root), cl_lstride(root), p, offset_bits);
  __atomic_store_n(field, (int32_t)done, __ATOMIC_RELEASE);
  return done;
}

/* The handle's tag, compiling the plan on first use. */
static inline uint32_t plan_tag(const cl_layout_t *layout) {
  uint32_t tag = (uint32_t)__atomic_load_n(&layout->plan, __ATOMIC_ACQUIRE);
  if ((tag & PLAN_STATE_MASK) == PLAN_UNBUILT)
    tag = plan_compile(layout, tag);
  return tag;
}

/* layout(i) by a ready plan, for 0 <= i < p->limit. */
static inline int64_t plan_eval(const plan *p, uint32_t tag, int64_t i) {
  uint64_t u = cl_compiled_operand(i);
  int32_t n = plan_terms(tag);
  const uint8_t *shift = plan_shifts(p, n);
  switch ((cl_compiled_form)((tag >> PLAN_FORM_SHIFT) & 3)) {
  case CL_COMPILED_ONE_TERM: return cl_compiled_signed(cl_compiled_one_term(u, p->d0, p->term));
  case CL_COMPILED_POW2: return cl_compiled_signed(cl_compiled_plan_eval(u, p->d0, p->term, shift, n, CL_COMPILED_POW2));
  case CL_COMPILED_NARROW:
    return cl_compiled_signed(cl_compiled_plan_eval(u, p->d0, p->term, shift, n, CL_COMPILED_NARROW));
  default: return cl_compiled_signed(cl_compiled_plan_eval(u, p->d0, p->term, shift, n, CL_COMPILED_WIDE));
  }
}

/* ------------------------------------------------------------ layout(i) */

/* Everything the plan does not answer: CuTe's evaluation on the trees, with
 * its argument checks and overflow errors. */
static CL_NOINLINE cl_status eval_exact(const cl_layout_t *layout, int64_t i, int64_t *index) {
  CHECK_NULL(layout);
  CHECK_NULL(index);
  return cl_tree_eval(cl_lshape(cl_lroot(layout)), cl_lstride(cl_lroot(layout)), i, index);
}

/* Everything but the one-term form and 0 <= i < size: the other forms, a
 * plan still to compile, and the exact evaluation. */
static CL_NOINLINE cl_status eval_other(const cl_layout_t *layout, int64_t i, int64_t *index) {
  if (layout != NULL && index != NULL) {
    uint32_t tag = plan_tag(layout);
    if (tag & PLAN_READY) {
      const plan *p = plan_of(layout, tag);
      if ((uint64_t)i < p->limit) {
        *index = plan_eval(p, tag, i);
        return CL_OK;
      }
    }
  }
  return eval_exact(layout, i, index);
}

/* The one-term form (most rank-2 layouts) is answered here with no branch
 * taken, the power-of-two form (CuTe's usual tiles) and the narrow one with
 * a jump or two into their terms; everything else (the wide form, a plan
 * still to compile, i outside [0, size)) is one jump away, in eval_other. */
cl_status cl_layout_eval(const cl_layout_t *layout, int64_t i, int64_t *index) {
  if (CL_LIKELY(layout != NULL && index != NULL)) {
    /* Acquire: a plan compiled by another thread is read after its tag. */
    uint32_t tag = (uint32_t)__atomic_load_n(&layout->plan, __ATOMIC_ACQUIRE), state = tag & PLAN_STATE_MASK;
    const plan *p = plan_of(layout, tag);
    if (CL_LIKELY(state == PLAN_ONE_TERM && (uint64_t)i < p->limit)) {
      *index = cl_compiled_signed(cl_compiled_one_term(cl_compiled_operand(i), p->d0, p->term));
      return CL_OK;
    }
    if (CL_LIKELY(state == PLAN_POW2 && (uint64_t)i < p->limit)) {
      int32_t n = plan_terms(tag);
      *index = cl_compiled_signed(
          cl_compiled_plan_eval(cl_compiled_operand(i), p->d0, p->term, plan_shifts(p, n), n, CL_COMPILED_POW2));
      return CL_OK;
    }
    if (CL_LIKELY(state == PLAN_NARROW && (uint64_t)i < p->limit)) {
      int32_t n = plan_terms(tag);
      *index = cl_compiled_signed(
          cl_compiled_plan_eval(cl_compiled_operand(i), p->d0, p->term, plan_shifts(p, n), n, CL_COMPILED_NARROW));
      return CL_OK;
    }
  }
  return eval_other(layout, i, index);
}

/* ------------------------------------------------------- ranges of layout(i) */

/* The odometer works on the coalesced modes: size-1 modes dropped and
 * neighbours with d_k == s_{k-1} * d_{k-1} merged (exact inside [0, size)). */
#define RANGE_MAX_MODES 32
typedef struct flat_modes {
  int n;
  int64_t s[RANGE_MAX_MODES], d[RANGE_MAX_MODES];
} flat_modes;

static bool coalesced_modes(const cl_layout_t *layout, flat_modes *m) {
  const cl_node *root = cl_lroot(layout), *shape = cl_lshape(root), *stride = cl_lstride(root);
  m->n = 0;
  for (int32_t j = 0; j < shape->span; j++) {
    if (cl_is_tuple(&shape[j]) || shape[j].value == 1)
      continue;
    int64_t s = shape[j].value, d = stride[j].value, next;
    if (m->n > 0 && !__builtin_mul_overflow(m->s[m->n - 1], m->d[m->n - 1], &next) && next == d) {
      m->s[m->n - 1] *= s; /* <= size, no overflow */
      continue;
    }
    if (m->n == RANGE_MAX_MODES)
      return false;
    m->s[m->n] = s;
    m->d[m->n] = d;
    m->n++;
  }
  return true;
}

/* Rows: an inner block of B consecutive coordinates whose indices follow a
 * pattern (arithmetic when it is the first mode alone, a table otherwise),
 * plus a base index that the odometer over the outer modes moves along. */
/* Each row costs a call and an odometer step, so rows should be long; a table
 * costs one store per entry to build, so it should be short next to the
 * range.  A first mode of at least ROW_MIN is a row by itself; otherwise the
 * first modes are tabulated, up to an eighth of the range, between TABLE_MIN
 * and TABLE_MAX entries.  Ranges under 2 * TABLE_MIN go element by element. */
#define ROW_MIN 256
#define TABLE_MIN 64
#define TABLE_MAX 512

/* The rows are stores and little else, so their speed is the width of the
 * stores: 16-byte vectors everywhere (SSE2 is part of x86-64, NEON of
 * AArch64), and on x86-64 32-byte AVX2 ones when the processor has them,
 * chosen at run time so that the library still runs on any x86-64. */
#if defined(__GNUC__) || defined(__clang__)
#define CL_VECTOR 1
typedef uint64_t cl_v2u64 __attribute__((vector_size(16)));
#if defined(__x86_64__) && !defined(CL_NO_AVX2) /* -DCL_NO_AVX2 tests the 16-byte path */
#define CL_AVX2 1
typedef uint64_t cl_v4u64 __attribute__((vector_size(32)));
#endif
#endif

typedef void (*fill_arith_fn)(int64_t *out, int64_t n, uint64_t start, uint64_t step);
typedef void (*fill_table_fn)(int64_t *out, int64_t n, uint64_t base, const uint64_t *table);

/* out[j] = start + j * step. */
static void fill_arith(int64_t *out, int64_t n, uint64_t start, uint64_t step) {
  int64_t j = 0;
#ifdef CL_VECTOR
  cl_v2u64 v = {start, start + step}, w = v + 2 * step, inc = {4 * step, 4 * step};
  for (; j + 4 <= n; j += 4) {
    memcpy(out + j, &v, sizeof v);
    memcpy(out + j + 2, &w, sizeof w);
    v += inc;
    w += inc;
  }
#endif
  for (; j < n; j++)
    out[j] = cl_compiled_signed(start + (uint64_t)j * step);
}

/* out[j] = base + table[j]. */
static void fill_table(int64_t *out, int64_t n, uint64_t base, const uint64_t *table) {
  int64_t j = 0;
#ifdef CL_VECTOR
  cl_v2u64 b = {base, base};
  for (; j + 2 <= n; j += 2) {
    cl_v2u64 t;
    memcpy(&t, table + j, sizeof t);
    t += b;
    memcpy(out + j, &t, sizeof t);
  }
#endif
  for (; j < n; j++)
    out[j] = cl_compiled_signed(base + table[j]);
}

#ifdef CL_AVX2
__attribute__((target("avx2"))) static void fill_arith_avx2(int64_t *out, int64_t n, uint64_t start, uint64_t step) {
  int64_t j = 0;
  cl_v4u64 v = {start, start + step, start + 2 * step, start + 3 * step};
  cl_v4u64 w = v + 4 * step, inc = {8 * step, 8 * step, 8 * step, 8 * step};
  for (; j + 8 <= n; j += 8) {
    memcpy(out + j, &v, sizeof v);
    memcpy(out + j + 4, &w, sizeof w);
    v += inc;
    w += inc;
  }
  for (; j < n; j++)
    out[j] = cl_compiled_signed(start + (uint64_t)j * step);
}

__attribute__((target("avx2"))) static void fill_table_avx2(int64_t *out, int64_t n, uint64_t base,
                                                            const uint64_t *table) {
  int64_t j = 0;
  cl_v4u64 b = {base, base, base, base};
  for (; j + 8 <= n; j += 8) {
    cl_v4u64 t, u;
    memcpy(&t, table + j, sizeof t);
    memcpy(&u, table + j + 4, sizeof u);
    t += b;
    u += b;
    memcpy(out + j, &t, sizeof t);
    memcpy(out + j + 4, &u, sizeof u);
  }
  for (; j + 4 <= n; j += 4) {
    cl_v4u64 t;
    memcpy(&t, table + j, sizeof t);
    t += b;
    memcpy(out + j, &t, sizeof t);
  }
  for (; j < n; j++)
    out[j] = cl_compiled_signed(base + table[j]);
}
#endif

/* Extends the table of the modes so far, table[0..block), by a mode s:d:
 * table[c*block + t] = table[t] + c*d.  The first mode is an arithmetic
 * row; short blocks are copied by a plain loop, where a call per block would
 * cost more than the block. */
static void tabulate(uint64_t *table, int64_t block, int64_t s, int64_t d, fill_arith_fn arith_row,
                     fill_table_fn table_row) {
  if (block == 1) { /* table[0] == 0 */
    arith_row((int64_t *)(void *)table, s, 0, (uint64_t)d);
    return;
  }
  for (int64_t c = 1; c < s; c++) {
    uint64_t *dst = table + c * block, shift = (uint64_t)c * (uint64_t)d;
    if (block >= 8) {
      table_row((int64_t *)(void *)dst, block, shift, table);
    } else {
      for (int64_t t = 0; t < block; t++)
        dst[t] = table[t] + shift;
    }
  }
}

/* Writes layout(lo + j) for lo + j in [lo, hi) within [0, size). */
static void range_fill(const flat_modes *m, int64_t lo, int64_t hi, int64_t *out) {
  int64_t count = hi - lo;
  fill_arith_fn arith_row = fill_arith;
  fill_table_fn table_row = fill_table;
#ifdef CL_AVX2
  if (__builtin_cpu_supports("avx2")) {
    arith_row = fill_arith_avx2;
    table_row = fill_table_avx2;
  }
#endif
  if (m->n == 0) { /* size 1 */
    for (int64_t j = 0; j < count; j++)
      out[j] = 0;
    return;
  }
  if (m->n == 1) {
    arith_row(out, count, (uint64_t)lo * (uint64_t)m->d[0], (uint64_t)m->d[0]);
    return;
  }
  /* The inner block and the outer modes. */
  uint64_t table[TABLE_MAX];
  int64_t table_max = count / 8 < TABLE_MIN ? TABLE_MIN : count / 8 > TABLE_MAX ? TABLE_MAX : count / 8;
  int64_t block, os[RANGE_MAX_MODES + 1] = {0}, od[RANGE_MAX_MODES + 1] = {0};
  int on = 0;
  bool arith = m->s[0] >= ROW_MIN;
  if (arith) {
    block = m->s[0];
    for (int k = 1; k < m->n; k++, on++) {
      os[on] = m->s[k];
      od[on] = m->d[k];
    }
  } else {
    /* Tabulate whole modes while they fit, then the largest divisor of the
     * next mode that still fits: (s:d) = (f:d, s/f:f*d) is exact. */
    int j = 0;
    block = 1;
    table[0] = 0;
    while (j < m->n && block * m->s[j] <= table_max) {
      tabulate(table, block, m->s[j], m->d[j], arith_row, table_row);
      block *= m->s[j];
      j++;
    }
    if (j < m->n) {
      int64_t f = table_max / block;
      while (m->s[j] % f != 0)
        f--;
      if (f > 1) {
        tabulate(table, block, f, m->d[j], arith_row, table_row);
        block *= f;
      }
      os[on] = m->s[j] / f;
      od[on] = f * m->d[j];
      on++;
      for (int k = j + 1; k < m->n; k++, on++) {
        os[on] = m->s[k];
        od[on] = m->d[k];
      }
    }
  }
  /* Starting point: one division per mode, once (none from 0). */
  int64_t t = lo == 0 ? 0 : lo % block, u = lo == 0 ? 0 : lo / block, oc[RANGE_MAX_MODES + 1];
  uint64_t base = 0;
  for (int k = 0; k < on; k++) {
    oc[k] = u == 0 ? 0 : k + 1 < on ? u % os[k] : u;
    u = u == 0 || k + 1 == on ? 0 : u / os[k];
    base += (uint64_t)oc[k] * (uint64_t)od[k];
  }
  for (int64_t pos = 0;;) {
    int64_t run = block - t < count - pos ? block - t : count - pos;
    if (on == 0) /* the block is the whole layout: one row */
      run = count - pos;
    if (arith)
      arith_row(out + pos, run, base + (uint64_t)t * (uint64_t)m->d[0], (uint64_t)m->d[0]);
    else
      table_row(out + pos, run, base, table + t);
    pos += run;
    if (pos >= count || on == 0)
      break;
    t = 0;
    for (int k = 0;; k++) { /* the odometer; the range ends before it overflows */
      base += (uint64_t)od[k];
      if (++oc[k] < os[k] || k == on - 1)
        break;
      base -= (uint64_t)os[k] * (uint64_t)od[k];
      oc[k] = 0;
    }
  }
}

cl_status cl_layout_eval_range(const cl_layout_t *layout, int64_t begin, int64_t count, int64_t *out) {
  CHECK_NULL(layout);
  if (count < 0)
    return cl_fail(CL_E_DOMAIN, "cl_layout_eval_range: count %lld is negative", (long long)count);
  if (count == 0)
    return CL_OK;
  CHECK_NULL(out);
  int64_t last; /* the range is [begin, last] */
  if (__builtin_add_overflow(begin, count - 1, &last)) {
    memset(out, 0, (size_t)count * sizeof *out);
    return cl_fail(CL_E_OVERFLOW, "cl_layout_eval_range: %lld + %lld overflows", (long long)begin, (long long)count);
  }
  uint32_t tag = plan_tag(layout), state = tag & PLAN_STATE_MASK;
  flat_modes modes;
  modes.n = 0;
  int64_t lo = begin, hi = begin; /* the part [lo, hi) that the odometer writes */
  if ((state & PLAN_READY) && coalesced_modes(layout, &modes)) {
    int64_t size = (int64_t)plan_of(layout, tag)->limit;
    lo = begin > 0 ? begin : 0;
    hi = last < size ? last + 1 : size;
    if (hi < lo)
      hi = lo;
  }
  /* Everything outside [lo, hi) first, one by one, so that a failure leaves
   * nothing but zeros behind. */
  for (int64_t i = begin;; i++) {
    if (i == lo && lo < hi)
      i = hi;
    if (i > last)
      break;
    cl_status s = cl_layout_eval(layout, i, &out[i - begin]);
    if (s != CL_OK) {
      memset(out, 0, (size_t)count * sizeof *out);
      return s;
    }
    if (i == last)
      break;
  }
  if (lo < hi) {
    /* Short ranges do not pay for a table: the plan per element. */
    if (hi - lo < 2 * TABLE_MIN && modes.n > 1 && modes.s[0] < ROW_MIN) {
      for (int64_t i = lo; i < hi; i++)
        cl_layout_eval(layout, i, &out[i - begin]);
    } else {
      range_fill(&modes, lo, hi, out + (lo - begin));
    }
  }
  return CL_OK;
}
