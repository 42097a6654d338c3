/* SPDX-License-Identifier: BSD-3-Clause */
/* explain_impl.h: what the explanations (explain.c, the record of steps
 * and the public API; explain_algebra.c, coalesce, composition, complement
 * and the inverses; explain_products.c, the divides and products) share.
 *
 * An explainer cl_ex_OP(e, depth, ..., &result) records the steps of OP at
 * `depth` and gives OP's result; a caller that uses OP inside its own
 * definition reserves a summing-up step first (cl_ex_reserve), explains OP
 * one level deeper, and fills it (cl_ex_close_step).  Strings and layouts
 * handed to the recording functions belong to the explanation from then on,
 * whatever happens; a NULL string (an allocation that failed) is
 * CL_E_NOMEM. */
#ifndef CUTELAYOUT_EXPLAIN_IMPL_H
#define CUTELAYOUT_EXPLAIN_IMPL_H

#include "algebra_impl.h"
#include "cutelayout/algebra.h"
#include "cutelayout/explain.h"
#include "cutelayout/text.h"

typedef struct step {
  int64_t depth;
  char *rule, *sentence, *value, *expr;
  cl_layout_t *layout; /* NULL when the value is not a layout */
} step;

struct cl_explanation {
  char *title; /* the operation, as an expression */
  step *steps;
  int64_t n, cap;
  cl_status op_status; /* the explained operation's */
  char *op_message;    /* and its message */
};

/* ---- text ---- */
/* A fresh formatted string, or NULL when out of memory. */
char *cl_ex_strf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* Canonical texts, or NULL when out of memory. */
char *cl_ex_text(const cl_layout_t *l);
char *cl_ex_tuple_text(const cl_tuple_t *t);
/* "make_layout(s:d,...)" of flat modes after prefix; "coalesce(make_layout(...))". */
char *cl_ex_make_layout_expr(const char *prefix, const cl_flat *f);
char *cl_ex_coalesce_expr(const cl_flat *f);
/* "make_layout(t0,t1,...)" of layouts' texts. */
char *cl_ex_make_layout_of(cl_layout_t *const *parts, int64_t n);

/* ---- recording ---- */
cl_status cl_ex_nomem(void);
/* The next step, to be filled later; *at is its index. */
cl_status cl_ex_reserve(cl_explanation_t *e, int64_t *at);
/* Fills step `at` (the value is the layout's text when value is NULL). */
cl_status cl_ex_fill(cl_explanation_t *e, int64_t at, int64_t depth, const char *rule, cl_layout_t *layout, char *value,
                     char *expr, char *sentence);
/* Appends a step. */
cl_status cl_ex_add(cl_explanation_t *e, int64_t depth, const char *rule, cl_layout_t *layout, char *value, char *expr,
                    char *sentence);
/* The operation fails at expr with status (cl_last_error()'s message):
 * a "fails" step; passes the status on. */
cl_status cl_ex_fails(cl_explanation_t *e, int64_t depth, cl_status status, char *expr);
/* The same with the library's own status for the failing call; CL_OK there
 * (the steps and the operation disagreeing) is CL_E_DOMAIN. */
cl_status cl_ex_fails_as(cl_explanation_t *e, int64_t depth, cl_status status, char *expr);
/* Fills a reserved step that sums up a sub-operation: its result, or a
 * "fails" step when it failed. */
cl_status cl_ex_close_step(cl_explanation_t *e, int64_t at, int64_t depth, cl_status status, const char *rule,
                           cl_layout_t *layout, char *expr, char *sentence);

/* ---- layouts ---- */
/* Flat modes as a layout (one mode a leaf, none 1:0); one mode s:d. */
cl_status cl_ex_flat_layout(const cl_flat *f, cl_layout_t **out);
cl_status cl_ex_mode_layout(int64_t shape, int64_t stride, cl_layout_t **out);

/* ---- the explainers ---- */
cl_status cl_ex_coalesce(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, cl_layout_t **out);
cl_status cl_ex_composition(cl_explanation_t *e, int64_t depth, const cl_layout_t *a, const cl_layout_t *b,
                            cl_layout_t **out);
/* cotarget NULL: complement(L) = complement(L, cosize(filter(L))). */
cl_status cl_ex_complement(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, const cl_tuple_t *cotarget,
                           cl_layout_t **out);
/* right_inverse (left false) or left_inverse. */
cl_status cl_ex_inverse(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, bool left, cl_layout_t **out);

/* The operations cl_explain() knows, in the order of cl_ex_names. */
typedef enum explained {
  OP_COALESCE, OP_RIGHT_INVERSE, OP_LEFT_INVERSE, OP_COMPLEMENT, OP_COMPOSITION,
  OP_LOGICAL_DIVIDE, OP_ZIPPED_DIVIDE, OP_TILED_DIVIDE, OP_FLAT_DIVIDE,
  OP_LOGICAL_PRODUCT, OP_ZIPPED_PRODUCT, OP_TILED_PRODUCT, OP_FLAT_PRODUCT,
  OP_BLOCKED_PRODUCT, OP_RAKED_PRODUCT, OP_COUNT
} explained;
/* The steps of op(l[, arg]) at depth 0, arg checked (explain_products.c). */
cl_status cl_ex_operation(cl_explanation_t *e, explained op, const cl_layout_t *l, const cl_tuple_t *arg,
                          cl_layout_t **result);

#endif
