/* SPDX-License-Identifier: BSD-3-Clause */
/* explain.c: the step-by-step explanations of the layout algebra (explain.h):
 * the record of steps, its text, and the public API.  The explainers of the
 * operations are in explain_algebra.c and explain_products.c.
 *
 * Each explanation follows the definition the operation implements
 * (algebra.c, algebra_products.c) and records every intermediate value with
 * the rule that produced it, a sentence with the numbers, and an expression
 * of the eval language that recomputes it from concrete values with the
 * library's own functions.  The values are computed here, from the
 * definition's arithmetic, not copied from the operation: the test replays
 * every expression and compares, and the last step's expression is the
 * operation itself, so an explanation that drifted from the operation fails
 * its replay (tests/test_explain.c).
 *
 * A failure of the explained operation is not an error of the explanation:
 * the step that breaks a precondition is recorded with rule "fails" (its
 * expression the sub-operation that fails, its sentence the library's
 * message), the explanation ends there, and cl_explain() succeeds. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "explain_impl.h"
#include "sink_impl.h"

/* ================================================================ strings */

static char *vstrf(const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int len = vsnprintf(NULL, 0, fmt, ap);
  char *s = len < 0 ? NULL : cl_alloc((size_t)len + 1);
  if (s != NULL)
    vsnprintf(s, (size_t)len + 1, fmt, again);
  va_end(again);
  return s;
}

char *cl_ex_strf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = vstrf(fmt, ap);
  va_end(ap);
  return s;
}

/* The canonical text of a layout, or NULL when out of memory. */
char *cl_ex_text(const cl_layout_t *l) {
  char *s = NULL;
  return cl_layout_to_string(l, &s) == CL_OK ? s : NULL;
}

char *cl_ex_tuple_text(const cl_tuple_t *t) {
  char *s = NULL;
  return cl_tuple_to_string(t, &s) == CL_OK ? s : NULL;
}

/* ================================================================== steps */

static void step_release(step *s) {
  cl_dealloc(s->rule);
  cl_dealloc(s->sentence);
  cl_dealloc(s->value);
  cl_dealloc(s->expr);
  cl_layout_free(s->layout);
  memset(s, 0, sizeof *s);
}

cl_status cl_ex_nomem(void) { return cl_fail(CL_E_NOMEM, "out of memory"); }

/* Reserves the next step (for a step whose value comes after the deeper
 * steps that explain it); *at is its index. */
cl_status cl_ex_reserve(cl_explanation_t *e, int64_t *at) {
  if (e->n == e->cap) {
    int64_t cap = e->cap ? e->cap * 2 : 16;
    step *grown = cl_realloc(e->steps, (size_t)cap * sizeof *grown);
    if (grown == NULL)
      return cl_ex_nomem();
    e->steps = grown;
    e->cap = cap;
  }
  memset(&e->steps[e->n], 0, sizeof e->steps[e->n]);
  *at = e->n++;
  return CL_OK;
}

/* Fills step `at`, taking ownership of the strings and the layout whatever
 * happens.  The value is the layout's text when there is a layout. */
cl_status cl_ex_fill(cl_explanation_t *e, int64_t at, int64_t depth, const char *rule, cl_layout_t *layout, char *value,
                      char *expr, char *sentence) {
  step *s = &e->steps[at];
  s->depth = depth;
  s->layout = layout;
  s->value = layout != NULL && value == NULL ? cl_ex_text(layout) : value;
  s->expr = expr;
  s->sentence = sentence;
  s->rule = cl_ex_strf("%s", rule);
  if (s->value == NULL || s->expr == NULL || s->sentence == NULL || s->rule == NULL)
    return cl_ex_nomem();
  return CL_OK;
}

cl_status cl_ex_add(cl_explanation_t *e, int64_t depth, const char *rule, cl_layout_t *layout, char *value, char *expr,
                     char *sentence) {
  int64_t at;
  cl_status s = cl_ex_reserve(e, &at);
  if (s != CL_OK) {
    cl_layout_free(layout);
    cl_dealloc(value);
    cl_dealloc(expr);
    cl_dealloc(sentence);
    return s;
  }
  return cl_ex_fill(e, at, depth, rule, layout, value, expr, sentence);
}

/* Records that the operation fails at `expr` with `status` (whose message
 * cl_last_error() holds), and passes the status on. */
cl_status cl_ex_fails(cl_explanation_t *e, int64_t depth, cl_status status, char *expr) {
  if (status == CL_E_NOMEM) {
    cl_dealloc(expr);
    return status;
  }
  if (e->op_status == CL_OK) {
    e->op_status = status;
    if ((e->op_message = cl_ex_strf("%s", cl_last_error())) == NULL) {
      cl_dealloc(expr);
      return cl_ex_nomem();
    }
  }
  CL_TRY(cl_ex_add(e, depth, "fails", NULL, cl_ex_strf("%s", ""), expr, cl_ex_strf("%s", e->op_message)));
  return status;
}

/* The operation fails at `expr`, as the library's own `status` for it
 * says.  (A library call that succeeds where the definition's steps found a
 * broken condition would be an explanation drifting from the operation.) */
cl_status cl_ex_fails_as(cl_explanation_t *e, int64_t depth, cl_status status, char *expr) {
  if (status == CL_OK) {
    cl_dealloc(expr);
    return cl_fail(CL_E_DOMAIN, "explain: the steps found a broken condition that the operation does not");
  }
  return cl_ex_fails(e, depth, status, expr);
}

/* Fills a reserved step that sums up the deeper steps after it: the
 * sub-operation's result, or, when it failed, a "fails" step (the deeper
 * steps end with the one that says why). */
cl_status cl_ex_close_step(cl_explanation_t *e, int64_t at, int64_t depth, cl_status status, const char *rule,
                            cl_layout_t *layout, char *expr, char *sentence) {
  if (status == CL_OK)
    return cl_ex_fill(e, at, depth, rule, layout, NULL, expr, sentence);
  cl_layout_free(layout);
  if (status == CL_E_NOMEM || e->op_status == CL_OK) {
    cl_dealloc(expr);
    cl_dealloc(sentence);
    return status; /* the step stays empty: the explanation is dropped */
  }
  char *failed = sentence ? cl_ex_strf("%s; it fails (below)", sentence) : NULL;
  cl_dealloc(sentence);
  cl_status s = cl_ex_fill(e, at, depth, "fails", NULL, cl_ex_strf("%s", ""), expr, failed);
  return s != CL_OK ? s : status;
}

/* A layout handle of flat modes (one mode is a leaf, none is 1:0). */
cl_status cl_ex_flat_layout(const cl_flat *f, cl_layout_t **out) {
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (f->n == 0)
    cl_lb_leaf(&lb, 1, 0);
  else
    cl_lb_flat(&lb, f);
  return cl_lb_result(&lb, f->status, out);
}

cl_status cl_ex_mode_layout(int64_t shape, int64_t stride, cl_layout_t **out) {
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_leaf(&lb, shape, stride);
  return cl_lb_finish(&lb, out);
}

/* "make_layout(a,b,...)" of the texts of flat modes. */
char *cl_ex_make_layout_expr(const char *prefix, const cl_flat *f) {
  size_t cap = strlen(prefix) + 16 + (size_t)f->n * 48;
  char *s = cl_alloc(cap);
  if (s == NULL)
    return NULL;
  size_t len = (size_t)snprintf(s, cap, "%smake_layout(", prefix);
  for (int64_t i = 0; i < f->n; i++)
    len += (size_t)snprintf(s + len, cap - len, "%s%lld:%lld", i ? "," : "", (long long)f->m[i].shape,
                            (long long)f->m[i].stride);
  snprintf(s + len, cap - len, ")");
  return s;
}

/* "coalesce(make_layout(...))" of flat modes. */
char *cl_ex_coalesce_expr(const cl_flat *f) {
  char *inner = cl_ex_make_layout_expr("", f);
  char *s = inner ? cl_ex_strf("coalesce(%s)", inner) : NULL;
  cl_dealloc(inner);
  return s;
}

/* "make_layout(t0,t1,...)" of layout texts. */
char *cl_ex_make_layout_of(cl_layout_t *const *parts, int64_t n) {
  size_t cap = 16;
  char **texts = cl_alloc((size_t)(n ? n : 1) * sizeof *texts);
  if (texts == NULL)
    return NULL;
  bool ok = true;
  for (int64_t i = 0; i < n; i++) {
    texts[i] = cl_ex_text(parts[i]);
    ok = ok && texts[i] != NULL;
    cap += texts[i] ? strlen(texts[i]) + 1 : 0;
  }
  char *s = ok ? cl_alloc(cap) : NULL;
  if (s != NULL) {
    size_t len = (size_t)snprintf(s, cap, "make_layout(");
    for (int64_t i = 0; i < n; i++)
      len += (size_t)snprintf(s + len, cap - len, "%s%s", i ? "," : "", texts[i]);
    snprintf(s + len, cap - len, ")");
  }
  for (int64_t i = 0; i < n; i++)
    cl_dealloc(texts[i]);
  cl_dealloc(texts);
  return s;
}

/* ================================================================== public */

static const char *const explained_names[] = {
  "coalesce", "right_inverse", "left_inverse", "complement", "composition",
  "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
  "logical_product", "zipped_product", "tiled_product", "flat_product",
  "blocked_product", "raked_product",
};
_Static_assert(sizeof explained_names / sizeof explained_names[0] == OP_COUNT, "a name per operation");
#define EXPLAINED_COUNT ((int)OP_COUNT)

/* The steps of op(l[, arg]); arg has been checked. */
static cl_status check_arg(explained op, const cl_tuple_t *arg) {
  const char *name = explained_names[op];
  bool unary = op == OP_COALESCE || op == OP_RIGHT_INVERSE || op == OP_LEFT_INVERSE;
  if (unary && arg != NULL)
    return cl_fail(CL_E_DOMAIN, "explain: %s takes one layout, and no second argument", name);
  if (unary || (op == OP_COMPLEMENT && arg == NULL))
    return CL_OK;
  if (arg == NULL)
    return cl_fail(CL_E_DOMAIN, "explain: %s needs a second argument", name);
  if (cl_tree_has_basis(cl_troot(arg)))
    return cl_fail(CL_E_UNSUPPORTED, "explain: %s's second argument has scaled-basis strides, which are not explained", name);
  if (op == OP_COMPLEMENT)
    return cl_require_int_tuple(cl_troot(arg), "explain: complement's cotarget");
  if ((op == OP_BLOCKED_PRODUCT || op == OP_RAKED_PRODUCT) && cl_tuple_kind(arg) != CL_KIND_LAYOUT)
    return cl_fail(CL_E_TYPE, "explain: %s takes a layout as its second argument", name);
  return CL_OK;
}

void cl_explanation_free(cl_explanation_t *e) {
  if (e == NULL)
    return;
  for (int64_t i = 0; i < e->n; i++)
    step_release(&e->steps[i]);
  cl_dealloc(e->steps);
  cl_dealloc(e->title);
  cl_dealloc(e->op_message);
  cl_dealloc(e);
}

cl_status cl_explain(const char *op, const cl_layout_t *layout, const cl_tuple_t *arg, cl_explanation_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(op);
  CHECK_NULL(layout);
  int which = 0;
  while (which < EXPLAINED_COUNT && strcmp(explained_names[which], op) != 0)
    which++;
  if (which == EXPLAINED_COUNT)
    return cl_fail(CL_E_DOMAIN, "explain: no explanation for '%s' (coalesce, composition, complement, right_inverse, "
                                "left_inverse, the divides and the products)", op);
  CL_TRY(check_arg((explained)which, arg));
  if (cl_tree_has_basis(cl_view_of(layout).stride))
    return cl_fail(CL_E_UNSUPPORTED, "explain: the layout has scaled-basis strides, which are not explained");
  cl_explanation_t *e = cl_alloc(sizeof *e);
  if (e == NULL)
    return cl_ex_nomem();
  memset(e, 0, sizeof *e);
  char *lt = cl_ex_text(layout), *at = arg ? cl_ex_tuple_text(arg) : NULL;
  cl_status s = lt && (arg == NULL || at) ? CL_OK : cl_ex_nomem();
  if (s == CL_OK && (e->title = arg ? cl_ex_strf("%s(%s,%s)", op, lt, at) : cl_ex_strf("%s(%s)", op, lt)) == NULL)
    s = cl_ex_nomem();
  cl_layout_t *result = NULL;
  if (s == CL_OK)
    s = cl_ex_operation(e, (explained)which, layout, arg, &result);
  if (s == CL_OK)
    s = cl_ex_add(e, 0, "result", result, NULL, cl_ex_strf("%s", e->title), cl_ex_strf("%s", "what the operation gives"));
  else
    cl_layout_free(result);
  cl_dealloc(lt);
  cl_dealloc(at);
  if (s != CL_OK && (e->op_status == CL_OK || s == CL_E_NOMEM)) {
    cl_explanation_free(e);
    return s;
  }
  *out = e;
  return CL_OK;
}

int64_t cl_explanation_count(const cl_explanation_t *e) { return e ? e->n : 0; }

cl_status cl_explanation_status(const cl_explanation_t *e) {
  if (e == NULL)
    return cl_fail_null(__func__, "e");
  return e->op_status;
}

static const step *step_at(const cl_explanation_t *e, int64_t i) {
  return e != NULL && i >= 0 && i < e->n ? &e->steps[i] : NULL;
}

const char *cl_explanation_rule(const cl_explanation_t *e, int64_t i) { return step_at(e, i) ? step_at(e, i)->rule : NULL; }
const char *cl_explanation_sentence(const cl_explanation_t *e, int64_t i) {
  return step_at(e, i) ? step_at(e, i)->sentence : NULL;
}
const char *cl_explanation_value(const cl_explanation_t *e, int64_t i) { return step_at(e, i) ? step_at(e, i)->value : NULL; }
const char *cl_explanation_expression(const cl_explanation_t *e, int64_t i) {
  return step_at(e, i) ? step_at(e, i)->expr : NULL;
}
int64_t cl_explanation_depth(const cl_explanation_t *e, int64_t i) { return step_at(e, i) ? step_at(e, i)->depth : -1; }
const cl_layout_t *cl_explanation_layout(const cl_explanation_t *e, int64_t i) {
  return step_at(e, i) ? step_at(e, i)->layout : NULL;
}

/* Numbered as an outline: a step at depth d is numbered after the steps
 * above it, 3.2 being the second step that explains step 3. */
cl_status cl_explanation_text(const cl_explanation_t *e, char **out) {
  CHECK_OUT(out);
  CHECK_NULL(e);
  int64_t max_depth = 0;
  for (int64_t i = 0; i < e->n; i++)
    max_depth = e->steps[i].depth > max_depth ? e->steps[i].depth : max_depth;
  int64_t *number = cl_alloc((size_t)(max_depth + 1) * sizeof *number);
  if (number == NULL)
    return cl_ex_nomem();
  memset(number, 0, (size_t)(max_depth + 1) * sizeof *number);
  /* Two passes of the same writer: measure, then fill. */
  char *text = NULL;
  size_t cap = 0;
  for (int pass = 0; pass < 2; pass++) {
    cl_sink o = cl_sink_buffer(text, cap);
    memset(number, 0, (size_t)(max_depth + 1) * sizeof *number);
    cl_sink_printf(&o, "%s\n", e->title);
    for (int64_t i = 0; i < e->n; i++) {
      const step *st = &e->steps[i];
      number[st->depth]++;
      for (int64_t d = st->depth + 1; d <= max_depth; d++)
        number[d] = 0;
      cl_sink_repeat(&o, ' ', 2 * st->depth);
      for (int64_t d = 0; d <= st->depth; d++)
        cl_sink_printf(&o, "%s%lld", d ? "." : "", (long long)number[d]);
      cl_sink_printf(&o, " %s: %s\n", st->rule, st->sentence);
      cl_sink_repeat(&o, ' ', 2 * st->depth + 4);
      if (strcmp(st->rule, "fails") == 0)
        cl_sink_printf(&o, "%s fails\n", st->expr);
      else
        cl_sink_printf(&o, "%s = %s\n", st->value, st->expr);
    }
    int64_t len = cl_sink_finish(&o, "explanation");
    if (pass == 0) {
      cap = (size_t)len + 1;
      if ((text = cl_alloc(cap)) == NULL) {
        cl_dealloc(number);
        return cl_ex_nomem();
      }
    }
  }
  cl_dealloc(number);
  *out = text;
  return CL_OK;
}
