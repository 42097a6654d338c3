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

/* Bytes of plan the layout tree at `root` (a CL_KIND_LAYOUT node) needs after
 * its nodes; 0 when it gets no plan (it is then always evaluated exactly). */
size_t cl_plan_bytes(const cl_node *root);

/* Writes the plan of `root` into mem (8-byte aligned, `bytes` as returned by
 * cl_plan_bytes) and returns the tag to store in the handle's `plan` field
 * (0: no plan). */
int32_t cl_plan_build(const cl_node *root, void *mem, size_t bytes);

#endif
