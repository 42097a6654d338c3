/* SPDX-License-Identifier: BSD-3-Clause */
/* eval_plan_impl.h: the compiled evaluation plan that every layout handle
 * carries after its nodes (eval_plan.c compiles and uses it; tuple.c's
 * finish() and cl_layout_from_trees(), where layout handles are allocated,
 * make room for it).
 *
 * A plan depends only on the node trees, so it sits at the level of stride.c
 * (coordinates to indices) and includes nothing above tuple_impl.h. */
#ifndef CUTELAYOUT_EVAL_PLAN_IMPL_H
#define CUTELAYOUT_EVAL_PLAN_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "tuple_impl.h"
#include "cutelayout/compiled.h"

/* What cl_plan_measure finds out about a layout: the room its plan needs. */
typedef struct cl_plan_info {
  size_t bytes;   /* of plan after the nodes; 0: the layout gets no plan and is
                     always evaluated exactly (cl_tree_eval) */
  int64_t leaves; /* flattened modes */
  uint64_t size;  /* size(layout) */
} cl_plan_info;

/* Measures the layout (shape, stride): a few instructions per node, run for
 * every layout handle made. */
void cl_plan_measure(const cl_node *shape, const cl_node *stride, cl_plan_info *info);

/* The initial `plan` field of a handle whose shape is nodes[1] and whose plan
 * room (info->bytes, 8-byte aligned) starts at mem, in the same allocation:
 * the plan is compiled there by the first evaluation.  0 when info->bytes is
 * 0 (no plan). */
int32_t cl_plan_tag(const cl_node *shape, const cl_plan_info *info, const void *mem);

/* A layout that the compiled evaluation answers exactly: its size and the
 * least and greatest layout(i) over 0 <= i < size. */
typedef struct cl_plan_bounds {
  int64_t size, low, high;
} cl_plan_bounds;

/* CL_OK when (shape, stride) has a plan, with its bounds (all 0 when an
 * extent is 0); otherwise the status cl_layout_compile reports (CL_E_TYPE,
 * CL_E_DOMAIN, CL_E_OVERFLOW), with no message set. */
cl_status cl_plan_check(const cl_node *shape, const cl_node *stride, cl_plan_bounds *bounds);

/* cl_layout_compile, with or without the one-term form (a swizzled layout
 * must not take it: that form skips the offset and the swizzle). */
cl_status cl_compile_layout(const cl_layout_t *layout, bool allow_one_term, cl_compiled_layout_t *out);

#endif
