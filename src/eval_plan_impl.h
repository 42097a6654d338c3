/* eval_plan_impl.h: the compiled evaluation plan that every layout handle
 * carries after its nodes (eval_plan.c builds and uses it; tuple.c's finish()
 * makes room for it, the one place where layout handles are allocated).
 *
 * A plan depends only on the node trees, so it sits at the level of stride.c
 * (coordinates to indices) and includes nothing above tuple_impl.h. */
#ifndef CUTELAYOUT_EVAL_PLAN_IMPL_H
#define CUTELAYOUT_EVAL_PLAN_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "tuple_impl.h"

/* What cl_plan_measure finds out about a layout tree. */
typedef struct cl_plan_info {
  size_t bytes;   /* of plan after the nodes; 0: the layout gets no plan and is
                     always evaluated exactly (cl_tree_eval) */
  int64_t leaves; /* flattened modes */
  uint64_t size;  /* size(layout) */
} cl_plan_info;

/* Measures the layout (shape, stride). */
void cl_plan_measure(const cl_node *shape, const cl_node *stride, cl_plan_info *info);

/* Writes the plan of the layout whose shape and stride are nodes[1...] of a
 * handle into mem, in the same handle (8-byte aligned, info->bytes long, info
 * as cl_plan_measure left it), and returns the tag to store in the handle's
 * `plan` field (0: no plan). */
int32_t cl_plan_build(const cl_node *shape, const cl_node *stride, const cl_plan_info *info, void *mem);

#endif
