/* SPDX-License-Identifier: BSD-3-Clause */
/* banks_impl.h: what the bank-conflict model (banks.c) shares with the
 * swizzle search (banks_search.c): an access laid out over a shared-memory
 * layout once, so that the search can try many swizzles on the same
 * offsets. */
#ifndef CUTELAYOUT_BANKS_IMPL_H
#define CUTELAYOUT_BANKS_IMPL_H

#include <stdbool.h>

#include <cutelayout/banks.h>

#include "tuple_impl.h"

/* The lanes of a warp and the banks of shared memory. */
enum { CL_WARP = 32, CL_BANKS = 32, CL_BANK_BYTES = 4 };

/* An access over a shared-memory layout: every value's tile index and
 * element offset, and how the values make instructions. */
typedef struct cl_bank_plan {
  int64_t threads, values; /* the sizes of tv's two modes */
  int64_t elem_bytes;      /* bits / 8 */
  int64_t vector;          /* elements a lane moves at once */
  int64_t lanes;           /* the lanes of a warp that take part (8*matrices for ldmatrix) */
  cl_smem_op op;
  int64_t *tile;   /* tile[t + threads*v] = tv(t, v) */
  int64_t *offset; /* offset[t + threads*v] = smem(tv(t, v)) */
} cl_bank_plan;

/* Lays the access out over smem (both checked as cl_bank_conflicts says). */
cl_status cl_bank_plan_make(const cl_smem_access_t *access, cl_layout_fn_t smem, cl_bank_plan *out);
void cl_bank_plan_release(cl_bank_plan *plan);

/* Instructions: warps times vectors per thread. */
int64_t cl_bank_plan_warps(const cl_bank_plan *plan);
int64_t cl_bank_plan_vectors(const cl_bank_plan *plan);

/* The values index of lane `lane` of warp w's k-th vector (its first
 * element, thread t = 32w + lane), or -1 when that lane takes no part.
 * Inline: the search asks it for every lane of every candidate. */
static inline int64_t cl_bank_plan_value(const cl_bank_plan *plan, int64_t w, int64_t k, int64_t lane) {
  int64_t t = w * CL_WARP + lane;
  if (lane >= plan->lanes || t >= plan->threads)
    return -1;
  return t + plan->threads * (k * plan->vector);
}

/* Wavefronts and ideal of one instruction from its lanes' byte addresses
 * (-1: no part), already checked. */
void cl_bank_count(cl_smem_op op, const int64_t lanes[CL_WARP], int64_t bytes, int64_t *wavefronts, int64_t *ideal);

#endif
