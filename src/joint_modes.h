/* SPDX-License-Identifier: BSD-3-Clause */
/* joint_modes.h: the modes a copy walks through two layouts at once, each
 * with an extent, a dst stride and a src stride (copy_plan.h says how they
 * arise), and their normal form.  Shared by the host's copy planner
 * (copy_plan.c, strides in bytes) and the CUDA module's (cuda/plan.c,
 * strides in elements), which plan the same loop nest. */
#ifndef CUTELAYOUT_JOINT_MODES_H
#define CUTELAYOUT_JOINT_MODES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cl_jmode {
  int64_t n, d, s; /* extent, dst stride, src stride */
} cl_jmode;

/* Does a mode (n, d) continue into a mode of stride next: n * d == next? */
static inline bool cl_continues(int64_t n, int64_t d, int64_t next) {
  int64_t end;
  return !__builtin_mul_overflow(n, d, &end) && end == next;
}

/* The joint coalesce: every mode flipped to a positive dst stride (the
 * origins *base_d and *base_s move to a flipped mode's last element), the
 * modes sorted by dst stride (insertion sort: a handful of modes, and
 * stable), and neighbours merged where they are contiguous in both layouts.
 * Returns the number of modes left in m[0..). */
static inline int64_t cl_jmodes_normalize(cl_jmode *m, int64_t r, int64_t *base_d, int64_t *base_s) {
  for (int64_t k = 0; k < r; k++)
    if (m[k].d < 0) {
      *base_d += (m[k].n - 1) * m[k].d;
      *base_s += (m[k].n - 1) * m[k].s;
      m[k].d = -m[k].d;
      m[k].s = -m[k].s;
    }
  for (int64_t k = 1; k < r; k++) {
    cl_jmode x = m[k];
    int64_t j = k;
    while (j > 0 && m[j - 1].d > x.d) {
      m[j] = m[j - 1];
      j--;
    }
    m[j] = x;
  }
  int64_t w = 0;
  for (int64_t k = 0; k < r; k++) {
    if (w > 0 && cl_continues(m[w - 1].n, m[w - 1].d, m[k].d) && cl_continues(m[w - 1].n, m[w - 1].s, m[k].s))
      m[w - 1].n *= m[k].n;
    else
      m[w++] = m[k];
  }
  return w;
}

#endif
