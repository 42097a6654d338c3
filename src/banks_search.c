/* SPDX-License-Identifier: BSD-3-Clause */
/* banks_search.c: swizzle_search (banks.h), the swizzle that gives a set of
 * accesses the fewest wavefronts.
 *
 * Each access is laid out over the plain layout once (cl_bank_plan); a
 * candidate Sw<B,M,S> only moves each vector's first offset, x ->
 * x ^ ((x & yyy) >> S), because M is at least the widest vector's log2 and
 * so leaves every vector in one piece.  Candidates go in the order of the
 * tie rule (B, then M, then S), so the first that reaches the fewest
 * possible wavefronts is the answer. */
#include <string.h>

#include "banks_impl.h"

typedef struct candidate {
  cl_swizzle_t sw;
  int64_t yyy; /* CuTe's yyy mask */
} candidate;

/* A candidate's count goes instruction by instruction, adding each one's
 * wavefronts and ideal, and stops as soon as the excess (wavefronts over
 * ideal) passes a bound: the ideal of an instruction is the same under
 * every swizzle (a swizzle moves words, it does not merge them), so the
 * excess alone ranks candidates, and a candidate is dropped at its first
 * conflicting instruction when it has to be conflict-free, or as soon as
 * it is worse than the best so far.  Warp w's instructions of one access:
 * false once the excess passes max_excess. */
static bool warp_within(const cl_bank_plan *p, int64_t w, const candidate *c, int64_t max_excess,
                        int64_t *wavefronts, int64_t *ideal) {
  int64_t bytes = p->vector * p->elem_bytes;
  for (int64_t k = 0; k < cl_bank_plan_vectors(p); k++) {
    int64_t addresses[CL_WARP];
    for (int64_t lane = 0; lane < CL_WARP; lane++) {
      int64_t value = cl_bank_plan_value(p, w, k, lane);
      int64_t x = value < 0 ? -1 : p->offset[value];
      addresses[lane] = x < 0 ? -1 : (x ^ ((x & c->yyy) >> c->sw.shift)) * p->elem_bytes;
    }
    int64_t iw, ii;
    cl_bank_count(p->op, addresses, bytes, &iw, &ii);
    *wavefronts += iw;
    *ideal += ii;
    if (*wavefronts - *ideal > max_excess)
      return false;
  }
  return true;
}

/* The totals of every access with the candidate applied, or false as soon
 * as the excess passes max_excess (the sums then stop there; 0: whether
 * the candidate is conflict-free).  The first warp of every access goes
 * first: a poor candidate usually shows its conflicts there. */
static bool within(const cl_bank_plan *plans, int64_t n, const candidate *c, int64_t max_excess, int64_t *wavefronts,
                   int64_t *ideal) {
  *wavefronts = *ideal = 0;
  for (int64_t a = 0; a < n; a++)
    if (!warp_within(&plans[a], 0, c, max_excess, wavefronts, ideal))
      return false;
  for (int64_t a = 0; a < n; a++)
    for (int64_t w = 1; w < cl_bank_plan_warps(&plans[a]); w++)
      if (!warp_within(&plans[a], w, c, max_excess, wavefronts, ideal))
        return false;
  return true;
}

/* Bits needed for offsets below cosize. */
static int64_t bit_length(int64_t x) {
  int64_t n = 0;
  while (x > 0) {
    n++;
    x >>= 1;
  }
  return n;
}

/* A swizzle worth trying: it keeps every vector whole (2^M elements at
 * least), changes a bit that picks a bank or a word in it (the zzz bits
 * start below byte bit 7), reads bits that offsets have (yyy under the
 * cosize's bit length), and keeps offsets under the cosize (the cosize a
 * multiple of 2^(M+B), so no offset leaves the buffer). */
static bool worth_trying(int64_t b, int64_t m, int64_t s, int64_t min_base, int64_t elem_log2, int64_t cosize) {
  int64_t top = bit_length(cosize - 1);
  return m >= min_base && m + elem_log2 < 7 && m + s + b <= top && cosize % ((int64_t)1 << (m + b)) == 0;
}

static int64_t log2_exact(int64_t x) { return bit_length(x) - 1; }

/* The candidates in the tie rule's order (B, then M, then S), each made
 * and masked; *n is their count (at most CL_SEARCH_MAX). */
enum { CL_SEARCH_MAX = 5 * 32 * 32 };

static cl_status candidates_of(const cl_bank_plan *plans, int64_t n, int64_t cosize, candidate *out, int64_t *count) {
  int64_t min_base = 0, elem_log2 = 7;
  for (int64_t a = 0; a < n; a++) {
    int64_t v = log2_exact(plans[a].vector), e = log2_exact(plans[a].elem_bytes);
    min_base = v > min_base ? v : min_base;
    elem_log2 = e < elem_log2 ? e : elem_log2;
  }
  *count = 0;
  for (int64_t b = 1; b <= 5; b++)
    for (int64_t m = min_base; m <= 31; m++)
      for (int64_t s = b; m + s + b <= 32; s++) {
        if (!worth_trying(b, m, s, min_base, elem_log2, cosize))
          continue;
        candidate *c = &out[(*count)++];
        CL_TRY(cl_swizzle_make(b, m, s, &c->sw));
        CL_TRY(cl_swizzle_masks(c->sw, &c->yyy, NULL));
      }
  return CL_OK;
}

/* First the earliest candidate that leaves no instruction over its ideal
 * (the usual answer, found cheaply, its totals counted on the way); failing
 * that, the one with the least excess, each counted only until it is no
 * better than the best so far. */
static cl_status search(const cl_bank_plan *plans, int64_t n, int64_t cosize, candidate *candidates,
                        cl_swizzle_t *best, int64_t *best_w, int64_t *best_i) {
  candidate none = {{0, 0, 0}, 0};
  *best = none.sw;
  int64_t count;
  CL_TRY(candidates_of(plans, n, cosize, candidates, &count));
  if (within(plans, n, &none, 0, best_w, best_i))
    return CL_OK;
  for (int64_t k = 0; k < count; k++)
    if (within(plans, n, &candidates[k], 0, best_w, best_i)) {
      *best = candidates[k].sw;
      return CL_OK;
    }
  within(plans, n, &none, INT64_MAX, best_w, best_i);
  for (int64_t k = 0; k < count; k++) {
    int64_t w, i;
    if (within(plans, n, &candidates[k], *best_w - *best_i - 1, &w, &i)) {
      *best = candidates[k].sw;
      *best_w = w;
      *best_i = i;
    }
  }
  return CL_OK;
}

cl_status cl_swizzle_search(const cl_layout_t *smem, const cl_smem_access_t *accesses, int64_t n, cl_swizzle_t *best,
                            int64_t *wavefronts, int64_t *ideal) {
  CHECK_NULL(smem);
  CHECK_NULL(best);
  memset(best, 0, sizeof *best);
  if (n < 1 || n > CL_MAX_RANK)
    return cl_fail(CL_E_DOMAIN, "swizzle_search: %lld accesses (1 to %d)", (long long)n, CL_MAX_RANK);
  CHECK_NULL(accesses);
  int64_t cosize;
  CL_TRY(cl_layout_cosize_checked(smem, &cosize));
  cl_bank_plan *plans = cl_alloc((size_t)n * sizeof *plans);
  candidate *candidates = cl_alloc(CL_SEARCH_MAX * sizeof *candidates);
  if (plans == NULL || candidates == NULL) {
    cl_dealloc(plans);
    cl_dealloc(candidates);
    return cl_fail(CL_E_NOMEM, "swizzle_search: out of memory");
  }
  memset(plans, 0, (size_t)n * sizeof *plans);
  cl_status s = CL_OK;
  for (int64_t a = 0; a < n && s == CL_OK; a++)
    s = cl_bank_plan_make(&accesses[a], cl_layout_fn_of(cl_fn_layout(smem)), &plans[a]);
  int64_t w = 0, i = 0;
  if (s == CL_OK)
    s = search(plans, n, cosize, candidates, best, &w, &i);
  for (int64_t a = 0; a < n; a++)
    cl_bank_plan_release(&plans[a]);
  cl_dealloc(plans);
  cl_dealloc(candidates);
  if (s != CL_OK) {
    memset(best, 0, sizeof *best);
    return s;
  }
  if (wavefronts != NULL)
    *wavefronts = w;
  if (ideal != NULL)
    *ideal = i;
  return CL_OK;
}
