/* SPDX-License-Identifier: BSD-3-Clause */
/* dist_impl.h: the inside of a distribution (dist.h), shared by the
 * distribution (dist.c) and the redistribution planner (dist_plan.c). */
#ifndef CUTELAYOUT_DIST_IMPL_H
#define CUTELAYOUT_DIST_IMPL_H

#include <stdlib.h>
#include <string.h>

#include <cutelayout/dist.h>

/* The layout is kept both as a handle and as tables: the value of mode d at
 * every global coordinate c_d < extent[d] (mode_value[d][c_d]) and of the
 * replica mode at every replica, so that place(c, k) = sum of the modes'
 * values, and the planner walks millions of elements with a few additions
 * each instead of a layout evaluation. */
struct cl_dist {
  int64_t ranks, local_size, modes, size, replicas;
  int64_t *extent;       /* modes */
  int64_t **mode_value;  /* modes tables, mode_value[d] of extent[d] entries */
  int64_t *replica_value; /* replicas */
  cl_tuple_t *shape;
  cl_layout_t *layout; /* with its replica mode last */
};

/* The value rank * local_size + offset of global index i's replica 0, given
 * its coordinate (colexicographic digits of i over extent). */
static inline int64_t cl_dist_place(const cl_dist_t *d, const int64_t *crd) {
  int64_t v = 0;
  for (int64_t m = 0; m < d->modes; m++)
    v += d->mode_value[m][crd[m]];
  return v;
}

/* Whether CUTELAYOUT_DIST_PLAN=elements asks for the reference checks and
 * walks, which visit every element (tests and benchmarks compare them with
 * the fast ones). */
static inline int cl_dist_by_elements(void) {
  const char *walk = getenv("CUTELAYOUT_DIST_PLAN");
  return walk != NULL && strcmp(walk, "elements") == 0;
}

cl_status cl_fail(cl_status status, const char *fmt, ...);
static inline cl_status cl_dist_nomem(void) { return cl_fail(CL_E_NOMEM, "out of memory"); }

/* The colexicographic successor of a coordinate (mode 0 fastest). */
static inline void cl_dist_next_coord(const int64_t *extent, int64_t modes, int64_t *crd) {
  for (int64_t m = 0; m < modes; m++) {
    if (++crd[m] < extent[m])
      return;
    crd[m] = 0;
  }
}

#endif
