/* SPDX-License-Identifier: BSD-3-Clause */
/* explain.h: why an operation of the layout algebra gives what it gives.
 *
 * cl_explain() follows the definition of coalesce, composition, complement,
 * right_inverse, left_inverse, the divides and the products step by step and
 * returns the steps as data.  Each step has
 *
 *   rule        the name of the rule that produced it ("shape_div", "gap", ...)
 *   sentence    one line saying, with the numbers, why
 *   value       the intermediate value in canonical text (a layout, an
 *               integer or a tuple), and the layout itself when it is one
 *   expression  an expression of the eval language (CONTRACT.md) over
 *               concrete values that recomputes the value with the library's
 *               own functions: evaluated, it gives `value`
 *   depth       0 for the operation's own steps, 1 for the steps of an
 *               operation it uses (the complement inside a logical_divide, a
 *               mode of composition's right-hand side), and so on; a step
 *               is followed by the deeper steps that explain it
 *
 * The last step at depth 0 is the operation's result (rule "result", its
 * expression the operation itself).  When the operation fails (a broken
 * precondition), the explanation still succeeds: its last step has rule
 * "fails", the failing sub-operation as its expression, cl_last_error()'s
 * message as its sentence and "" as its value, and cl_explanation_status()
 * is the operation's status.
 *
 * Layouts with scaled-basis strides are not explained (CL_E_UNSUPPORTED). */
#ifndef CUTELAYOUT_EXPLAIN_H
#define CUTELAYOUT_EXPLAIN_H

#include "common.h"
#include "tuple.h"
#include "layout.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cl_explanation cl_explanation_t;

/* The explanation of `op`(layout[, arg]), op one of: coalesce,
 * right_inverse, left_inverse (arg NULL); complement (arg NULL for
 * complement(L), else the cotarget, an integer or an int tuple);
 * composition, logical_divide, zipped_divide, tiled_divide, flat_divide,
 * logical_product, zipped_product, tiled_product, flat_product (arg a tiler,
 * as algebra.h's `_tiler` functions take: a layout leaf, an integer, '_' or
 * a tuple of these); blocked_product, raked_product (arg a layout leaf).
 * Errors: CL_E_NULL; CL_E_DOMAIN for an unknown op, or an arg missing or
 * present against the list above; CL_E_TYPE for an arg of the wrong kind;
 * CL_E_UNSUPPORTED for scaled-basis strides; CL_E_OVERFLOW where a number
 * of the explanation leaves int64_t; CL_E_NOMEM.  A failure of the
 * operation itself is not an error (see above).  The caller frees *out with
 * cl_explanation_free(); on failure *out is NULL. */
CL_API cl_status cl_explain(const char *op, const cl_layout_t *layout, const cl_tuple_t *arg, cl_explanation_t **out);

/* Frees an explanation and every string and layout it lent; accepts NULL. */
CL_API void cl_explanation_free(cl_explanation_t *e);

/* The number of steps (at least 1), or 0 for NULL. */
CL_API int64_t cl_explanation_count(const cl_explanation_t *e);

/* The explained operation's status: CL_OK, or the failure its last step
 * explains.  CL_E_NULL for NULL. */
CL_API cl_status cl_explanation_status(const cl_explanation_t *e);

/* The parts of step i (0 <= i < count): the strings and the layout belong
 * to the explanation and live until cl_explanation_free().  NULL (or -1 for
 * the depth) when e is NULL or i out of range; cl_explanation_layout() is
 * also NULL for a step whose value is not a layout. */
CL_API const char *cl_explanation_rule(const cl_explanation_t *e, int64_t i);
CL_API const char *cl_explanation_sentence(const cl_explanation_t *e, int64_t i);
CL_API const char *cl_explanation_value(const cl_explanation_t *e, int64_t i);
CL_API const char *cl_explanation_expression(const cl_explanation_t *e, int64_t i);
CL_API int64_t cl_explanation_depth(const cl_explanation_t *e, int64_t i);
CL_API const cl_layout_t *cl_explanation_layout(const cl_explanation_t *e, int64_t i);

/* The explanation as text, as `cute-layout explain` prints it: the
 * operation, then one numbered entry per step (3.2 is the second step that
 * explains step 3), its rule and sentence on one line and its value and
 * expression on the next.  The caller frees *out with cl_string_free().
 * Errors: CL_E_NULL, CL_E_NOMEM. */
CL_API cl_status cl_explanation_text(const cl_explanation_t *e, char **out);

#ifdef __cplusplus
}
#endif
#endif
