/* SPDX-License-Identifier: BSD-3-Clause */
/* explain.c: the step-by-step explanations of the layout algebra (explain.h).
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

#include "algebra_impl.h"
#include "cutelayout/algebra.h"
#include "cutelayout/explain.h"
#include "cutelayout/text.h"
#include "sink_impl.h"

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

/* A fresh formatted string, or NULL when out of memory (add() reports it). */
static char *strf(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
static char *strf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = vstrf(fmt, ap);
  va_end(ap);
  return s;
}

/* The canonical text of a layout, or NULL when out of memory. */
static char *text_of(const cl_layout_t *l) {
  char *s = NULL;
  return cl_layout_to_string(l, &s) == CL_OK ? s : NULL;
}

static char *tuple_text(const cl_tuple_t *t) {
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

static cl_status nomem(void) { return cl_fail(CL_E_NOMEM, "out of memory"); }

/* Reserves the next step (for a step whose value comes after the deeper
 * steps that explain it); *at is its index. */
static cl_status reserve(cl_explanation_t *e, int64_t *at) {
  if (e->n == e->cap) {
    int64_t cap = e->cap ? e->cap * 2 : 16;
    step *grown = cl_realloc(e->steps, (size_t)cap * sizeof *grown);
    if (grown == NULL)
      return nomem();
    e->steps = grown;
    e->cap = cap;
  }
  memset(&e->steps[e->n], 0, sizeof e->steps[e->n]);
  *at = e->n++;
  return CL_OK;
}

/* Fills step `at`, taking ownership of the strings and the layout whatever
 * happens.  The value is the layout's text when there is a layout. */
static cl_status fill(cl_explanation_t *e, int64_t at, int64_t depth, const char *rule, cl_layout_t *layout, char *value,
                      char *expr, char *sentence) {
  step *s = &e->steps[at];
  s->depth = depth;
  s->layout = layout;
  s->value = layout != NULL && value == NULL ? text_of(layout) : value;
  s->expr = expr;
  s->sentence = sentence;
  s->rule = strf("%s", rule);
  if (s->value == NULL || s->expr == NULL || s->sentence == NULL || s->rule == NULL)
    return nomem();
  return CL_OK;
}

static cl_status add(cl_explanation_t *e, int64_t depth, const char *rule, cl_layout_t *layout, char *value, char *expr,
                     char *sentence) {
  int64_t at;
  cl_status s = reserve(e, &at);
  if (s != CL_OK) {
    cl_layout_free(layout);
    cl_dealloc(value);
    cl_dealloc(expr);
    cl_dealloc(sentence);
    return s;
  }
  return fill(e, at, depth, rule, layout, value, expr, sentence);
}

/* Records that the operation fails at `expr` with `status` (whose message
 * cl_last_error() holds), and passes the status on. */
static cl_status fails(cl_explanation_t *e, int64_t depth, cl_status status, char *expr) {
  if (status == CL_E_NOMEM) {
    cl_dealloc(expr);
    return status;
  }
  if (e->op_status == CL_OK) {
    e->op_status = status;
    if ((e->op_message = strf("%s", cl_last_error())) == NULL) {
      cl_dealloc(expr);
      return nomem();
    }
  }
  CL_TRY(add(e, depth, "fails", NULL, strf("%s", ""), expr, strf("%s", e->op_message)));
  return status;
}

/* The operation fails at `expr`, as the library's own `status` for it
 * says.  (A library call that succeeds where the definition's steps found a
 * broken condition would be an explanation drifting from the operation.) */
static cl_status fails_as(cl_explanation_t *e, int64_t depth, cl_status status, char *expr) {
  if (status == CL_OK) {
    cl_dealloc(expr);
    return cl_fail(CL_E_DOMAIN, "explain: the steps found a broken condition that the operation does not");
  }
  return fails(e, depth, status, expr);
}

/* Fills a reserved step that sums up the deeper steps after it: the
 * sub-operation's result, or, when it failed, a "fails" step (the deeper
 * steps end with the one that says why). */
static cl_status close_step(cl_explanation_t *e, int64_t at, int64_t depth, cl_status status, const char *rule,
                            cl_layout_t *layout, char *expr, char *sentence) {
  if (status == CL_OK)
    return fill(e, at, depth, rule, layout, NULL, expr, sentence);
  cl_layout_free(layout);
  if (status == CL_E_NOMEM || e->op_status == CL_OK) {
    cl_dealloc(expr);
    cl_dealloc(sentence);
    return status; /* the step stays empty: the explanation is dropped */
  }
  char *failed = sentence ? strf("%s; it fails (below)", sentence) : NULL;
  cl_dealloc(sentence);
  cl_status s = fill(e, at, depth, "fails", NULL, strf("%s", ""), expr, failed);
  return s != CL_OK ? s : status;
}

/* A layout handle of flat modes (one mode is a leaf, none is 1:0). */
static cl_status flat_layout(const cl_flat *f, cl_layout_t **out) {
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (f->n == 0)
    cl_lb_leaf(&lb, 1, 0);
  else
    cl_lb_flat(&lb, f);
  return cl_lb_result(&lb, f->status, out);
}

static cl_status mode_layout(int64_t shape, int64_t stride, cl_layout_t **out) {
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_leaf(&lb, shape, stride);
  return cl_lb_finish(&lb, out);
}

/* "make_layout(a,b,...)" of the texts of flat modes. */
static char *make_layout_expr(const char *prefix, const cl_flat *f) {
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
static char *coalesce_expr(const cl_flat *f) {
  char *inner = make_layout_expr("", f);
  char *s = inner ? strf("coalesce(%s)", inner) : NULL;
  cl_dealloc(inner);
  return s;
}

/* "make_layout(t0,t1,...)" of layout texts. */
static char *make_layout_of(cl_layout_t *const *parts, int64_t n) {
  size_t cap = 16;
  char **texts = cl_alloc((size_t)(n ? n : 1) * sizeof *texts);
  if (texts == NULL)
    return NULL;
  bool ok = true;
  for (int64_t i = 0; i < n; i++) {
    texts[i] = text_of(parts[i]);
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

/* ================================================================ coalesce */

/* coalesce(L): the leaves of L in order; each size-1 leaf is dropped, and a
 * leaf s:d that continues the last mode s0:d0 of the result (d == s0*d0)
 * merges with it into s0*s:d0.  (CuTe walks from the back; the modes that
 * merge are the same either way.) */
static cl_status explain_coalesce(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, cl_layout_t **out) {
  char *lt = text_of(l);
  cl_layout_t *flat_l = NULL;
  cl_status s = lt ? cl_layout_flatten(l, &flat_l) : nomem();
  if (s == CL_OK)
    s = add(e, depth, "flatten", flat_l, NULL, strf("flatten(%s)", lt),
            strf("coalesce works on the %lld leaves of the layout, in order", (long long)cl_layout_rank(flat_l)));
  cl_flat leaves, merged;
  cl_flat_init(&leaves);
  cl_flat_init(&merged);
  if (s == CL_OK) {
    cl_flat_of_view(&leaves, cl_view_of(l));
    s = leaves.status;
  }
  char *prev = NULL; /* the running result's text */
  for (int64_t k = 0; s == CL_OK && k < leaves.n; k++) {
    cl_mode m = leaves.m[k];
    const char *rule;
    char *sentence;
    cl_mode *last = merged.n ? &merged.m[merged.n - 1] : NULL;
    int64_t reach = 0;
    if (last != NULL && (s = cl_mul(last->shape, last->stride, &reach)) != CL_OK)
      break;
    if (m.shape == 1) {
      rule = "drop";
      sentence = strf("leaf %lld, 1:%lld, has size 1 and adds nothing", (long long)k, (long long)m.stride);
    } else if (last == NULL) {
      rule = "start";
      sentence = strf("leaf %lld, %lld:%lld, starts the result", (long long)k, (long long)m.shape, (long long)m.stride);
      cl_flat_push(&merged, m.shape, m.stride);
    } else if (m.stride == reach) {
      int64_t merged_shape;
      if ((s = cl_mul(last->shape, m.shape, &merged_shape)) != CL_OK)
        break;
      rule = "merge";
      sentence = strf("leaf %lld, %lld:%lld, continues %lld:%lld (its stride is %lld*%lld): they merge into %lld:%lld",
                      (long long)k, (long long)m.shape, (long long)m.stride, (long long)last->shape,
                      (long long)last->stride, (long long)last->shape, (long long)last->stride,
                      (long long)merged_shape, (long long)last->stride);
      last->shape = merged_shape;
    } else {
      rule = "keep";
      sentence = strf("leaf %lld, %lld:%lld, does not continue %lld:%lld (%lld is not %lld*%lld = %lld): a new mode",
                      (long long)k, (long long)m.shape, (long long)m.stride, (long long)last->shape,
                      (long long)last->stride, (long long)m.stride, (long long)last->shape, (long long)last->stride,
                      (long long)reach);
      cl_flat_push(&merged, m.shape, m.stride);
    }
    cl_layout_t *running = NULL;
    char *expr = prev ? strf("coalesce(make_layout(%s,%lld:%lld))", prev, (long long)m.shape, (long long)m.stride)
                      : strf("coalesce(%lld:%lld)", (long long)m.shape, (long long)m.stride);
    if ((s = flat_layout(&merged, &running)) != CL_OK) {
      cl_dealloc(sentence);
      cl_dealloc(expr);
      break;
    }
    cl_dealloc(prev);
    prev = text_of(running);
    s = prev ? add(e, depth, rule, running, NULL, expr, sentence) : nomem();
    if (prev == NULL) {
      cl_layout_free(running);
      cl_dealloc(sentence);
      cl_dealloc(expr);
    }
  }
  cl_layout_t *result = NULL;
  if (s == CL_OK)
    s = flat_layout(&merged, &result);
  cl_flat_release(&leaves);
  cl_flat_release(&merged);
  cl_dealloc(prev);
  cl_dealloc(lt);
  if (s == CL_OK)
    *out = result;
  else
    cl_layout_free(result);
  return s;
}

/* ============================================================= composition */

/* The left-hand side of a composition, walked by each mode of the right. */
typedef struct composing {
  cl_flat lhs;      /* coalesce_x(A): coalesced, its last stride kept past the size */
  const char *a;    /* A's text */
  const cl_layout_t *a_layout;
} composing;

/* "x" for x >= 0, "product((-x,-1))" style for a negative stride's sign. */
static char *signed_ceil_div_expr(int64_t shape, int64_t stride) {
  int64_t r = stride < 0 ? -stride : stride;
  if (stride >= 0)
    return strf("(ceil_div(%lld,%lld),ceil_div(%lld,%lld))", (long long)shape, (long long)r, (long long)r, (long long)shape);
  return strf("(ceil_div(%lld,%lld),product((ceil_div(%lld,%lld),-1)))", (long long)shape, (long long)r, (long long)r,
              (long long)shape);
}

/* The library's composition(A, s:d), for the status of a broken condition. */
static cl_status library_compose(const composing *c, int64_t s, int64_t d) {
  cl_layout_t *mode = NULL, *r = NULL;
  cl_status st = mode_layout(s, d, &mode);
  if (st == CL_OK)
    st = cl_composition(c->a_layout, mode, &r);
  cl_layout_free(mode);
  cl_layout_free(r);
  return st;
}

/* composition_impl for one leaf s:d of B against A's coalesced modes
 * a_i:b_i (algebra.c's compose_mode): the stride d is divided out of the
 * modes it steps over (shape_div), then each mode takes what it can of the
 * s elements (modulo), and the last mode takes the rest. */
static cl_status compose_leaf(cl_explanation_t *e, int64_t depth, const composing *c, int64_t s, int64_t d, cl_flat *modes) {
  const cl_flat *lhs = &c->lhs;
  int64_t last = lhs->n - 1, stride;
  if (d == 0) {
    cl_flat_push(modes, s, 0);
    return modes->status;
  }
  if (last == 0) {
    CL_TRY(cl_mul(d, lhs->m[0].stride, &stride));
    cl_flat_push(modes, s, stride);
    return modes->status;
  }
  int64_t rest_shape = s, rest_stride = d;
  for (int64_t i = 0; i < last; i++) {
    int64_t a_i = lhs->m[i].shape, b_i = lhs->m[i].stride, remainder, abs_stride, next_shape, next_stride;
    CL_TRY(cl_al_mod(rest_stride, a_i, &remainder));
    if (remainder != 0 && !(rest_stride < a_i))
      return fails_as(e, depth, library_compose(c, s, d), strf("composition(%s,%lld:%lld)", c->a, (long long)s, (long long)d));
    abs_stride = rest_stride < 0 ? -rest_stride : rest_stride;
    CL_TRY(cl_al_ceil_div(a_i, abs_stride, &next_shape));
    CL_TRY(cl_al_ceil_div(abs_stride, a_i, &next_stride));
    next_stride *= rest_stride < 0 ? -1 : 1;
    bool nothing = next_shape == 1 || rest_shape == 1;
    CL_TRY(add(e, depth, "shape_div", NULL, strf("(%lld,%lld)", (long long)next_shape, (long long)next_stride),
               signed_ceil_div_expr(a_i, rest_stride),
               strf("stride %lld steps over mode %lld of A, %lld:%lld: ceil_div(%lld,%lld) = %lld of its elements are "
                    "reached, and the stride goes on as %lld%s",
                    (long long)rest_stride, (long long)i, (long long)a_i, (long long)b_i, (long long)a_i,
                    (long long)abs_stride, (long long)next_shape, (long long)next_stride,
                    nothing ? (rest_shape == 1 ? "; every element is placed, nothing is taken"
                                               : "; one element is nothing to take")
                            : "")));
    if (nothing) {
      rest_stride = next_stride;
      continue;
    }
    int64_t taken = next_shape < rest_shape ? next_shape : rest_shape;
    CL_TRY(cl_al_mod(rest_shape, taken, &remainder));
    if (remainder != 0)
      return fails_as(e, depth, library_compose(c, s, d), strf("composition(%s,%lld:%lld)", c->a, (long long)s, (long long)d));
    CL_TRY(cl_mul(rest_stride, b_i, &stride));
    cl_layout_t *mode = NULL;
    CL_TRY(mode_layout(taken, stride, &mode));
    CL_TRY(add(e, depth, "modulo", mode, NULL,
               strf("make_layout(min(%lld,%lld),product((%lld,%lld)))", (long long)next_shape, (long long)rest_shape,
                    (long long)rest_stride, (long long)b_i),
               strf("it takes min(%lld,%lld) = %lld of the %lld elements still to place, at stride %lld*%lld = %lld; "
                    "%lld left",
                    (long long)next_shape, (long long)rest_shape, (long long)taken, (long long)rest_shape,
                    (long long)rest_stride, (long long)b_i, (long long)stride, (long long)(rest_shape / taken))));
    cl_flat_push(modes, taken, stride);
    rest_shape /= taken;
    rest_stride = next_stride;
  }
  int64_t b_last = lhs->m[last].stride;
  CL_TRY(cl_mul(rest_stride, b_last, &stride));
  bool dropped = modes->n > 0 && rest_shape == 1;
  cl_layout_t *mode = NULL;
  CL_TRY(mode_layout(rest_shape, stride, &mode));
  CL_TRY(add(e, depth, "rest", mode, NULL,
             strf("make_layout(%lld,product((%lld,%lld)))", (long long)rest_shape, (long long)rest_stride, (long long)b_last),
             strf("the last mode of A, %lld:%lld, takes the %lld element%s left, at stride %lld*%lld = %lld%s",
                  (long long)lhs->m[last].shape, (long long)b_last, (long long)rest_shape, rest_shape == 1 ? "" : "s",
                  (long long)rest_stride, (long long)b_last, (long long)stride,
                  dropped ? "; a single element adds no mode" : "")));
  if (!dropped)
    cl_flat_push(modes, rest_shape, stride);
  return modes->status;
}

/* Right-distributivity: B composes leaf by leaf, and the result has B's tree. */
static cl_status compose_tree(cl_explanation_t *e, int64_t depth, const composing *c, const cl_node *shape,
                              const cl_node *stride, int64_t *leaf, cl_lbuilder *lb) {
  if (cl_is_tuple(shape)) {
    if (shape->rank == 0) {
      cl_layout_t *r = NULL;
      cl_layout_t *b = NULL;
      cl_lbuilder empty;
      cl_lb_init(&empty);
      cl_lb_copy(&empty, shape, stride);
      cl_status st = cl_lb_finish(&empty, &b);
      char *bt = st == CL_OK ? text_of(b) : NULL;
      if (st == CL_OK)
        st = cl_composition(c->a_layout, b, &r);
      cl_layout_free(b);
      cl_layout_free(r);
      char *expr = bt ? strf("composition(%s,%s)", c->a, bt) : NULL;
      cl_dealloc(bt);
      return fails_as(e, depth, st, expr);
    }
    cl_lb_mark at = cl_lb_open(lb);
    const cl_node *d = cl_first(stride);
    CL_FOR_EACH_CHILD(sc, shape) {
      CL_TRY(compose_tree(e, depth, c, sc, d, leaf, lb));
      d = cl_next(d);
    }
    cl_lb_close(lb, at);
    return CL_OK;
  }
  int64_t s = shape->value, d = stride->value, at;
  CL_TRY(reserve(e, &at));
  cl_flat modes;
  cl_flat_init(&modes);
  cl_status st = compose_leaf(e, depth + 1, c, s, d, &modes);
  cl_layout_t *mode = NULL;
  if (st == CL_OK && (st = flat_layout(&modes, &mode)) == CL_OK)
    cl_lb_flat(lb, &modes);
  char why[128] = "";
  if (d == 0)
    snprintf(why, sizeof why, "%s", ": a stride-0 mode never moves in A");
  else if (c->lhs.n == 1)
    snprintf(why, sizeof why, ": A is the single mode %lld:%lld, so the stride scales by %lld", (long long)c->lhs.m[0].shape,
             (long long)c->lhs.m[0].stride, (long long)c->lhs.m[0].stride);
  st = close_step(e, at, depth, st, "mode", mode, strf("composition(%s,%lld:%lld)", c->a, (long long)s, (long long)d),
                  strf("leaf %lld of B, %lld:%lld, picks the elements of A it steps on%s", (long long)*leaf, (long long)s,
                       (long long)d, why));
  (*leaf)++;
  cl_flat_release(&modes);
  return st;
}

/* composition(A, B) = composition_impl(coalesce_x(A), B), leaf by leaf of B. */
static cl_status explain_composition(cl_explanation_t *e, int64_t depth, const cl_layout_t *a, const cl_layout_t *b,
                                     cl_layout_t **out) {
  composing c = {.a_layout = a};
  cl_flat_init(&c.lhs);
  char *at = text_of(a);
  c.a = at;
  cl_layout_t *coalesced = NULL;
  cl_flat flat;
  cl_flat_init(&flat);
  cl_status s = at ? cl_coalesce(a, &coalesced) : nomem();
  if (s == CL_OK) {
    cl_flat_of_view(&flat, cl_view_of(a));
    s = cl_coalesce_flat(&flat, true, &c.lhs);
  }
  cl_layout_t *walked = NULL;
  if (s == CL_OK)
    s = flat_layout(&c.lhs, &walked);
  bool kept_last = s == CL_OK && !cl_layout_equal(walked, coalesced);
  char *walked_text = kept_last ? text_of(walked) : NULL;
  cl_layout_free(walked);
  if (s == CL_OK)
    s = add(e, depth, "coalesce", coalesced, NULL, strf("coalesce(%s)", at),
            kept_last ? strf("A coalesced; past its size A goes on with its last stride, so B's modes walk %s",
                             walked_text ? walked_text : "")
                      : strf("%s", "A coalesced: B's modes walk its modes"));
  else
    cl_layout_free(coalesced);
  cl_dealloc(walked_text);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  int64_t leaf = 0;
  cl_lview bv = cl_view_of(b);
  if (s == CL_OK)
    s = compose_tree(e, depth, &c, bv.shape, bv.stride, &leaf, &lb);
  cl_flat_release(&flat);
  cl_flat_release(&c.lhs);
  cl_dealloc(at);
  return cl_lb_result(&lb, s, out);
}

/* ============================================================== complement */

/* The indices of f's modes by increasing stride: stable (complement's
 * repeated cute::min), or CuTe's SortByKey exchange sort (the inverses),
 * whose order of equal strides differs.  (Explanations are of small
 * layouts; the quadratic sorts are fine here.) */
static cl_status stride_order(const cl_flat *f, bool exchange, int64_t **out) {
  int64_t *at = cl_alloc((size_t)(f->n ? f->n : 1) * sizeof *at);
  if (at == NULL)
    return nomem();
  for (int64_t i = 0; i < f->n; i++)
    at[i] = i;
  for (int64_t i = 0; i < f->n; i++)
    for (int64_t j = i + 1; j < f->n; j++) {
      bool swap = exchange ? f->m[at[j]].stride < f->m[at[i]].stride : false;
      if (swap) {
        int64_t t = at[i];
        at[i] = at[j];
        at[j] = t;
      }
    }
  if (!exchange) /* insertion sort: stable */
    for (int64_t i = 1; i < f->n; i++)
      for (int64_t j = i; j > 0 && f->m[at[j]].stride < f->m[at[j - 1]].stride; j--) {
        int64_t t = at[j];
        at[j] = at[j - 1];
        at[j - 1] = t;
      }
  *out = at;
  return CL_OK;
}

/* The step showing f's modes in stride order, as select(F, i...). */
static cl_status add_sorted(cl_explanation_t *e, int64_t depth, const cl_flat *f, const int64_t *order, const char *name,
                            const char *ft) {
  cl_flat sorted;
  cl_flat_init(&sorted);
  for (int64_t k = 0; k < f->n; k++)
    cl_flat_push_mode(&sorted, f->m[order[k]]);
  cl_layout_t *l = NULL;
  cl_status s = flat_layout(&sorted, &l);
  cl_flat_release(&sorted);
  CL_TRY(s);
  size_t cap = strlen(ft) + 16 + (size_t)f->n * 24, len;
  char *expr = cl_alloc(cap);
  if (expr != NULL) {
    len = (size_t)snprintf(expr, cap, "select(%s", ft);
    for (int64_t k = 0; k < f->n; k++)
      len += (size_t)snprintf(expr + len, cap - len, ",%lld", (long long)order[k]);
    snprintf(expr + len, cap - len, ")");
  }
  return add(e, depth, "sort", l, NULL, expr, strf("the modes of %s by increasing stride", name));
}

/* detail::complement(L, cotarget): L filtered, its modes by increasing
 * stride; before each mode s:d, the gap between what the modes so far cover
 * and d is filled by d/covered copies at stride `covered`; then the whole is
 * repeated up to the cotarget, and coalesced. */
static cl_status explain_complement(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, const cl_tuple_t *cotarget,
                                    cl_layout_t **out) {
  char *lt = text_of(l), *ft = NULL, *cot = NULL, *per_mode = NULL; /* per_mode: ceil_div's quotient by mode */
  cl_layout_t *filtered = NULL, *kept = NULL;
  cl_tuple_t *own_cotarget = NULL;
  cl_flat f, modes, result;
  cl_flat_init(&f);
  cl_flat_init(&modes);
  cl_flat_init(&result);
  int64_t *order = NULL;
  cl_status s = lt ? cl_filter(l, &filtered) : nomem();
  if (s == CL_OK && (s = cl_layout_copy(filtered, &kept)) == CL_OK)
    s = add(e, depth, "filter", kept, NULL, strf("filter(%s)", lt),
            strf("%s", "complement ignores stride-0 and size-1 modes: filter(L) = coalesce(filter_zeros(L))"));
  if (s == CL_OK && (ft = text_of(filtered)) == NULL)
    s = nomem();
  if (s == CL_OK && cotarget == NULL) {
    int64_t cosize;
    if ((s = cl_layout_cosize_checked(filtered, &cosize)) == CL_OK && (s = cl_tuple_int(cosize, &own_cotarget)) == CL_OK)
      s = add(e, depth, "cotarget", NULL, strf("%lld", (long long)cosize), strf("cosize(filter(%s))", lt),
              strf("%s", "without a cotarget, complement fills the holes of L below its cosize"));
    cotarget = own_cotarget;
  }
  if (s == CL_OK && (cot = tuple_text(cotarget)) == NULL)
    s = nomem();
  if (s == CL_OK) {
    cl_flat_of_view(&f, cl_view_of(filtered));
    s = f.status;
  }
  int64_t cot_size = 0;
  if (s == CL_OK)
    s = cl_tuple_product(cotarget, &cot_size);
  if (s == CL_OK && f.n == 1 && f.m[0].stride == 0) {
    /* nothing left of L: the complement is the compact cotarget */
    cl_flat_push(&result, cot_size, cot_size == 1 ? 0 : 1);
    cl_layout_t *all = NULL;
    if ((s = flat_layout(&result, &all)) == CL_OK)
      s = add(e, depth, "all", all, NULL, strf("make_layout(size(%s),%d)", cot, cot_size == 1 ? 0 : 1),
              strf("nothing is left of L: the complement is all of [0,%lld)", (long long)cot_size));
    goto done;
  }
  if (s == CL_OK)
    s = stride_order(&f, false, &order);
  if (s == CL_OK && f.n > 1)
    s = add_sorted(e, depth, &f, order, "filter(L)", ft);
  int64_t covered = 1;
  for (int64_t k = 0; s == CL_OK && k < f.n; k++) {
    int64_t shape = f.m[order[k]].shape, stride = f.m[order[k]].stride, gap, remainder, reach;
    if ((s = cl_al_div(stride, covered, &gap)) != CL_OK || (s = cl_al_mod(stride, covered, &remainder)) != CL_OK)
      break;
    if (gap == 0) {
      cl_layout_t *r = NULL;
      cl_status lib = cl_complement_shape(l, cotarget, &r);
      cl_layout_free(r);
      s = fails_as(e, depth, lib, strf("complement(%s,%s)", lt, cot));
      break;
    }
    if ((s = cl_mul(stride, shape, &reach)) != CL_OK)
      break;
    cl_flat_push(&modes, gap, covered);
    cl_layout_t *mode = NULL;
    if ((s = mode_layout(gap, covered, &mode)) != CL_OK)
      break;
    char *expr = remainder == 0 ? strf("make_layout(shape_div(%lld,%lld),%lld)", (long long)stride, (long long)covered,
                                       (long long)covered)
                                : strf("make_layout(get(idx2crd(%lld,(%lld,%lld)),1),%lld)", (long long)stride,
                                       (long long)covered, (long long)stride, (long long)covered);
    char *sentence =
      gap == 1 ? strf("mode %lld:%lld starts where the modes before it end (stride %lld): no gap; now [0,%lld) is spanned",
                      (long long)shape, (long long)stride, (long long)stride, (long long)reach)
               : strf("mode %lld:%lld starts at stride %lld, past the %lld the modes before it span: %lld/%lld = %lld "
                      "copies at stride %lld fill the gap; now [0,%lld) is spanned",
                      (long long)shape, (long long)stride, (long long)stride, (long long)covered, (long long)stride,
                      (long long)covered, (long long)gap, (long long)covered, (long long)reach);
    s = add(e, depth, "gap", mode, NULL, expr, sentence);
    covered = reach;
  }
  int64_t copies = 0, plain = 0;
  cl_tuple_t *divisor = NULL, *quotient = NULL;
  if (s == CL_OK && (s = cl_tuple_int(covered, &divisor)) == CL_OK && (s = cl_tuple_ceil_div(cotarget, divisor, &quotient)) == CL_OK &&
      (s = cl_tuple_product(quotient, &copies)) == CL_OK && (per_mode = tuple_text(quotient)) == NULL)
    s = nomem();
  cl_tuple_free(divisor);
  cl_tuple_free(quotient);
  if (s == CL_OK)
    s = cl_al_ceil_div(cot_size, covered, &plain);
  if (s == CL_OK) {
    cl_flat_push(&modes, copies, copies == 1 ? 0 : covered);
    cl_layout_t *mode = NULL;
    char note[400] = "";
    if (cot_size % covered != 0)
      snprintf(note, sizeof note, "; %lld is not a multiple of %lld, so the last copy runs past the cotarget",
               (long long)cot_size, (long long)covered);
    if (copies != plain)
      snprintf(note + strlen(note), sizeof note - strlen(note),
               "; ceil_div divides the cotarget's modes one by one (each mode takes what it can of %lld, the next "
               "gets the rest), %s, so not ceil_div(%lld,%lld) = %lld copies",
               (long long)covered, per_mode, (long long)cot_size, (long long)covered, (long long)plain);
    if ((s = mode_layout(copies, copies == 1 ? 0 : covered, &mode)) == CL_OK)
      s = add(e, depth, "rest", mode, NULL,
              strf("make_layout(size(ceil_div(%s,%lld)),%lld)", cot, (long long)covered, (long long)(copies == 1 ? 0 : covered)),
              strf("the modes and gaps so far span [0,%lld); size(ceil_div(%s,%lld)) = %lld copies of them reach the "
                   "cotarget%s",
                   (long long)covered, cot, (long long)covered, (long long)copies, note));
  }
  if (s == CL_OK)
    s = modes.status;
  if (s == CL_OK)
    s = cl_coalesce_flat(&modes, false, &result);
  if (s == CL_OK) {
    cl_layout_t *coalesced = NULL;
    if ((s = flat_layout(&result, &coalesced)) == CL_OK)
      s = add(e, depth, "coalesce", coalesced, NULL, coalesce_expr(&modes),
              strf("%s", "the gaps and the copies, coalesced"));
  }
done:
  if (s == CL_OK)
    s = flat_layout(&result, out);
  cl_layout_free(filtered);
  cl_tuple_free(own_cotarget);
  cl_flat_release(&f);
  cl_flat_release(&modes);
  cl_flat_release(&result);
  cl_dealloc(order);
  cl_dealloc(lt);
  cl_dealloc(ft);
  cl_dealloc(cot);
  cl_dealloc(per_mode);
  return s;
}

/* =============================================================== inverses */

/* "get(shape(C),i)" or, for an integral C, "shape(C)"; likewise the
 * position of mode i in C's domain. */
static char *mode_shape_expr(const char *ct, const cl_flat *c, int64_t i) {
  return c->n == 1 ? strf("shape(%s)", ct) : strf("get(shape(%s),%lld)", ct, (long long)i);
}
static char *mode_position_expr(const char *ct, const cl_flat *c, int64_t i) {
  return c->n == 1 ? strf("%d", 1) : strf("get(prefix_product(shape(%s)),%lld)", ct, (long long)i);
}

/* right_inverse(L) (left = false) and left_inverse(L) (left = true), on the
 * coalesced modes of L taken by increasing stride (CuTe's SortByKey).
 *  right: starting from 1, a mode whose stride is the extent covered so far
 *         adds its shape, at the stride of its position in L's domain;
 *  left:  each nonzero stride d must be a multiple of the size gathered so
 *         far, and adds d/size at the previous mode's position; the mode of
 *         largest stride closes with its own shape. */
static cl_status explain_inverse(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, bool left, cl_layout_t **out) {
  char *lt = text_of(l), *ct = NULL;
  cl_layout_t *coalesced = NULL, *kept = NULL;
  cl_flat c, position, result;
  cl_flat_init(&c);
  cl_flat_init(&position);
  cl_flat_init(&result);
  int64_t *order = NULL;
  cl_status s = lt ? cl_coalesce(l, &coalesced) : nomem();
  if (s == CL_OK && (s = cl_layout_copy(coalesced, &kept)) == CL_OK)
    s = add(e, depth, "coalesce", kept, NULL, strf("coalesce(%s)", lt), strf("%s", "the inverse is read off L coalesced, C"));
  if (s == CL_OK && (ct = text_of(coalesced)) == NULL)
    s = nomem();
  if (s == CL_OK) {
    cl_flat_of_view(&c, cl_view_of(coalesced));
    s = c.status;
  }
  int64_t product = 1;
  for (int64_t i = 0; s == CL_OK && i < c.n; i++) {
    cl_flat_push(&position, product, 0);
    s = cl_mul(product, c.m[i].shape, &product);
  }
  if (s == CL_OK && c.n > 1) {
    size_t cap = 8 + (size_t)c.n * 24, len = 1;
    char *value = cl_alloc(cap);
    if (value != NULL) {
      value[0] = '(';
      for (int64_t i = 0; i < c.n; i++)
        len += (size_t)snprintf(value + len, cap - len, "%s%lld", i ? "," : "", (long long)position.m[i].shape);
      snprintf(value + len, cap - len, ")");
    }
    s = add(e, depth, "positions", NULL, value, strf("prefix_product(shape(%s))", ct),
            strf("%s", "where each mode of C starts in the domain: the prefix products of its shape"));
  }
  if (s == CL_OK)
    s = stride_order(&c, true, &order);
  if (s == CL_OK && c.n > 1)
    s = add_sorted(e, depth, &c, order, "C", ct);
  int64_t covered = 1, size = 1, previous = 0; /* left: result strides lag its shapes by one mode */
  if (!left)
    cl_flat_push(&result, 1, 0);
  for (int64_t k = 0; s == CL_OK && k < c.n; k++) {
    int64_t i = order[k], shape = c.m[i].shape, stride = c.m[i].stride;
    cl_layout_t *mode = NULL;
    if (!left && stride != covered) {
      if ((s = mode_layout(shape, stride, &mode)) == CL_OK)
        s = add(e, depth, "skip", mode, NULL, c.n == 1 ? strf("%s", ct) : strf("get(%s,%lld)", ct, (long long)i),
                strf("mode %lld:%lld does not start at %lld, the extent the inverse covers so far: skipped",
                     (long long)shape, (long long)stride, (long long)covered));
      continue;
    }
    if (!left) {
      int64_t at = position.m[i].shape;
      if ((s = cl_mul(shape, stride, &covered)) != CL_OK)
        break;
      char *sh = mode_shape_expr(ct, &c, i), *pos = mode_position_expr(ct, &c, i);
      cl_flat_push(&result, shape, at);
      if ((s = mode_layout(shape, at, &mode)) == CL_OK)
        s = add(e, depth, "take", mode, NULL, sh && pos ? strf("make_layout(%s,%s)", sh, pos) : NULL,
                strf("mode %lld:%lld starts at %lld, the extent covered so far: its %lld elements are the next indices, "
                     "reached from position %lld of the domain; now %lld are covered",
                     (long long)shape, (long long)stride, (long long)stride, (long long)shape, (long long)at,
                     (long long)covered));
      cl_dealloc(sh);
      cl_dealloc(pos);
      continue;
    }
    if (stride == 0) {
      if ((s = mode_layout(shape, stride, &mode)) == CL_OK)
        s = add(e, depth, "skip", mode, NULL, c.n == 1 ? strf("%s", ct) : strf("get(%s,%lld)", ct, (long long)i),
                strf("mode %lld:0 maps everything to 0: nothing to invert", (long long)shape));
      continue;
    }
    int64_t remainder, steps;
    if ((s = cl_al_mod(stride, size, &remainder)) != CL_OK)
      break;
    if (remainder != 0) {
      cl_layout_t *r = NULL;
      cl_status lib = cl_left_inverse(l, &r);
      cl_layout_free(r);
      s = fails_as(e, depth, lib, strf("left_inverse(%s)", lt));
      break;
    }
    steps = stride / size;
    cl_flat_push(&result, steps, previous);
    if ((s = mode_layout(steps, previous, &mode)) == CL_OK)
      s = add(e, depth, "divide", mode, NULL,
              strf("make_layout(shape_div(%lld,%lld),%lld)", (long long)stride, (long long)size, (long long)previous),
              strf("mode %lld:%lld: stride %lld is %lld times the %lld indices inverted so far, each reached from "
                   "position %lld of the domain",
                   (long long)shape, (long long)stride, (long long)stride, (long long)steps, (long long)size,
                   (long long)previous));
    previous = position.m[i].shape;
    if (s == CL_OK)
      s = cl_mul(size, steps, &size);
  }
  if (s == CL_OK && left) {
    int64_t i = order[c.n - 1], shape = c.m[i].shape, total;
    cl_layout_t *mode = NULL;
    char *sh = mode_shape_expr(ct, &c, i);
    cl_flat_push(&result, shape, previous);
    if ((s = cl_mul(size, shape, &total)) == CL_OK && (s = mode_layout(shape, previous, &mode)) == CL_OK)
      s = add(e, depth, "close", mode, NULL, sh ? strf("make_layout(%s,%lld)", sh, (long long)previous) : NULL,
              strf("the mode of largest stride, %lld:%lld, closes the inverse with its %lld positions, from position %lld",
                   (long long)shape, (long long)c.m[i].stride, (long long)shape, (long long)previous));
    cl_dealloc(sh);
  }
  cl_flat merged;
  cl_flat_init(&merged);
  if (s == CL_OK)
    s = result.status;
  if (s == CL_OK)
    s = cl_coalesce_flat(&result, false, &merged);
  if (s == CL_OK) {
    cl_layout_t *inverse = NULL;
    if ((s = flat_layout(&merged, &inverse)) == CL_OK)
      s = add(e, depth, "coalesce", inverse, NULL, coalesce_expr(&result), strf("%s", "the modes found, coalesced"));
  }
  if (s == CL_OK)
    s = flat_layout(&merged, out);
  cl_flat_release(&merged);
  cl_layout_free(coalesced);
  cl_flat_release(&c);
  cl_flat_release(&position);
  cl_flat_release(&result);
  cl_dealloc(order);
  cl_dealloc(lt);
  cl_dealloc(ct);
  return s;
}

/* ================================================== divides and products */

typedef cl_status (*explain_binary)(cl_explanation_t *, int64_t, const cl_layout_t *, const cl_layout_t *, cl_layout_t **);

/* An operation by a tiler: its name, its explanation for a layout, whether
 * an integer n is make_layout(n) (1:0 for n = 1) or n:1, and whether the
 * modes of the layout past a tuple tiler's rank are kept or dropped. */
typedef struct tiler_op {
  const char *name;
  explain_binary explain;
  bool make_layout_of_int, keeps_rest;
} tiler_op;

/* A step that sums up a sub-operation explained by the steps after it. */
typedef struct sub_op {
  int64_t at;
} sub_op;

/* logical_divide(A, B) = composition(A, make_layout(B, complement(B, shape(coalesce(A))))). */
static cl_status explain_logical_divide(cl_explanation_t *e, int64_t depth, const cl_layout_t *a, const cl_layout_t *b,
                                        cl_layout_t **out) {
  char *at = text_of(a), *bt = text_of(b), *cot = NULL, *ct = NULL, *rt = NULL;
  cl_layout_t *coalesced = NULL, *rest = NULL, *rhs = NULL;
  cl_tuple_t *cotarget = NULL;
  cl_status s = at && bt ? cl_coalesce(a, &coalesced) : nomem();
  if (s == CL_OK)
    s = cl_layout_shape(coalesced, &cotarget);
  if (s == CL_OK && (cot = tuple_text(cotarget)) == NULL)
    s = nomem();
  if (s == CL_OK)
    s = add(e, depth, "cotarget", NULL, strf("%s", cot), strf("shape(coalesce(%s))", at),
            strf("the tiles must cover A's domain, the shape of A coalesced (%lld elements)", (long long)cl_layout_size(a)));
  int64_t slot;
  if (s == CL_OK && (s = reserve(e, &slot)) == CL_OK) {
    s = explain_complement(e, depth + 1, b, cotarget, &rest);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(rest, &copy);
    s = close_step(e, slot, depth, s, "complement", copy, strf("complement(%s,%s)", bt, cot),
                   strf("%s", "the layout of the tile's repetitions: what B leaves of the cotarget"));
  }
  if (s == CL_OK && (ct = text_of(rest)) == NULL)
    s = nomem();
  if (s == CL_OK) {
    const cl_layout_t *pair[2] = {b, rest};
    cl_layout_t *copy = NULL;
    s = cl_layout_concat(pair, 2, &rhs);
    if (s == CL_OK && (s = cl_layout_copy(rhs, &copy)) == CL_OK)
      s = add(e, depth, "make_layout", copy, NULL, strf("make_layout(%s,%s)", bt, ct),
              strf("the tile and its repetitions, (B, complement): size %lld, a tile of %lld %lld times",
                   (long long)cl_layout_size(rhs), (long long)cl_layout_size(b), (long long)cl_layout_size(rest)));
  }
  if (s == CL_OK && (rt = text_of(rhs)) == NULL)
    s = nomem();
  cl_layout_t *result = NULL;
  if (s == CL_OK && (s = reserve(e, &slot)) == CL_OK) {
    s = explain_composition(e, depth + 1, a, rhs, &result);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(result, &copy);
    s = close_step(e, slot, depth, s, "composition", copy, strf("composition(%s,%s)", at, rt),
                   strf("%s", "A read through (tile, repetitions): the divided layout"));
  }
  cl_layout_free(coalesced);
  cl_layout_free(rest);
  cl_layout_free(rhs);
  cl_tuple_free(cotarget);
  cl_dealloc(at);
  cl_dealloc(bt);
  cl_dealloc(cot);
  cl_dealloc(ct);
  cl_dealloc(rt);
  if (s == CL_OK)
    *out = result;
  else
    cl_layout_free(result);
  return s;
}

/* logical_product(A, B) = make_layout(A, composition(complement(A, size(A)*cosize(B)), B)). */
static cl_status explain_logical_product(cl_explanation_t *e, int64_t depth, const cl_layout_t *a, const cl_layout_t *b,
                                         cl_layout_t **out) {
  char *at = text_of(a), *bt = text_of(b), *ct = NULL, *pt = NULL;
  cl_layout_t *rest = NULL, *placed = NULL, *result = NULL;
  cl_tuple_t *cotarget = NULL;
  int64_t size = 0, cosize = 0, target = 0, slot;
  cl_status s = at && bt ? cl_layout_size_checked(a, &size) : nomem();
  if (s == CL_OK && (s = cl_layout_cosize_checked(b, &cosize)) == CL_OK && (s = cl_mul(size, cosize, &target)) == CL_OK &&
      (s = cl_tuple_int(target, &cotarget)) == CL_OK)
    s = add(e, depth, "cotarget", NULL, strf("%lld", (long long)target), strf("product((size(%s),cosize(%s)))", at, bt),
            strf("B places up to cosize(B) = %lld copies of A's %lld elements: the product spans size(A)*cosize(B) = %lld",
                 (long long)cosize, (long long)size, (long long)target));
  if (s == CL_OK && (s = reserve(e, &slot)) == CL_OK) {
    s = explain_complement(e, depth + 1, a, cotarget, &rest);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(rest, &copy);
    s = close_step(e, slot, depth, s, "complement", copy, strf("complement(%s,%lld)", at, (long long)target),
                   strf("%s", "where copies of A can go: the complement of A up to that size"));
  }
  if (s == CL_OK && (ct = text_of(rest)) == NULL)
    s = nomem();
  if (s == CL_OK && (s = reserve(e, &slot)) == CL_OK) {
    s = explain_composition(e, depth + 1, rest, b, &placed);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(placed, &copy);
    s = close_step(e, slot, depth, s, "composition", copy, strf("composition(%s,%s)", ct, bt),
                   strf("%s", "B arranges those places: the layout of the copies"));
  }
  if (s == CL_OK && (pt = text_of(placed)) == NULL)
    s = nomem();
  if (s == CL_OK) {
    const cl_layout_t *pair[2] = {a, placed};
    cl_layout_t *copy = NULL;
    s = cl_layout_concat(pair, 2, &result);
    if (s == CL_OK && (s = cl_layout_copy(result, &copy)) == CL_OK)
      s = add(e, depth, "make_layout", copy, NULL, strf("make_layout(%s,%s)", at, pt),
              strf("%s", "the block A and the layout of its copies, (A, copies)"));
  }
  cl_layout_free(rest);
  cl_layout_free(placed);
  cl_tuple_free(cotarget);
  cl_dealloc(at);
  cl_dealloc(bt);
  cl_dealloc(ct);
  cl_dealloc(pt);
  if (s == CL_OK)
    *out = result;
  else
    cl_layout_free(result);
  return s;
}

/* op(A, tiler): a layout leaf is op(A, B); an integer n is the layout
 * make_layout(n) (or n:1 for composition); '_' keeps A; a tuple applies its
 * elements to A's modes one by one (CuTe's transform_layout), the modes past
 * its rank kept (divides, products) or dropped (composition). */
static cl_status explain_tiler(cl_explanation_t *e, int64_t depth, const tiler_op *op, const cl_layout_t *a,
                               const cl_tuple_t *tiler, cl_layout_t **out) {
  cl_kind kind = cl_tuple_kind(tiler);
  if (kind == CL_KIND_LAYOUT) {
    cl_layout_t *b = NULL;
    CL_TRY(cl_tuple_layout(tiler, &b));
    cl_status s = op->explain(e, depth, a, b, out);
    cl_layout_free(b);
    return s;
  }
  if (kind == CL_KIND_INT) {
    int64_t n = 0;
    cl_layout_t *b = NULL, *copy = NULL;
    CL_TRY(cl_tuple_value(tiler, &n));
    bool unit = op->make_layout_of_int && n == 1;
    CL_TRY(mode_layout(n, unit ? 0 : 1, &b));
    cl_status s = cl_layout_copy(b, &copy);
    if (s == CL_OK)
      s = add(e, depth, "tile", copy, NULL, op->make_layout_of_int ? strf("make_layout(%lld)", (long long)n)
                                                                      : strf("make_layout(%lld,1)", (long long)n),
              strf("the integer %lld is the tile %s", (long long)n, unit ? "1:0" : "n:1"));
    if (s == CL_OK)
      s = op->explain(e, depth, a, b, out);
    cl_layout_free(b);
    return s;
  }
  if (kind == CL_KIND_UNDERSCORE) {
    cl_layout_t *copy = NULL;
    CL_TRY(cl_layout_copy(a, out));
    cl_status s = cl_layout_copy(a, &copy);
    if (s == CL_OK)
      s = add(e, depth, "keep", copy, NULL, text_of(a), strf("%s", "'_' keeps the mode as it is"));
    if (s != CL_OK) {
      cl_layout_free(*out);
      *out = NULL;
    }
    return s;
  }
  /* a tuple: by mode */
  int64_t rank = cl_tuple_rank(tiler), a_rank = cl_layout_rank(a);
  if (rank > a_rank || rank == 0 || a_rank == 0) {
    char *at = text_of(a), *tt = tuple_text(tiler);
    cl_layout_t *r = NULL;
    cl_status lib = CL_E_DOMAIN;
    if (strcmp(op->name, "composition") == 0)
      lib = cl_composition_tiler(a, tiler, &r);
    else if (strcmp(op->name, "logical_divide") == 0)
      lib = cl_logical_divide_tiler(a, tiler, &r);
    else
      lib = cl_logical_product_tiler(a, tiler, &r);
    cl_layout_free(r);
    cl_status s = fails_as(e, depth, lib, at && tt ? strf("%s(%s,%s)", op->name, at, tt) : NULL);
    cl_dealloc(at);
    cl_dealloc(tt);
    return s;
  }
  int64_t parts_n = op->keeps_rest ? a_rank : rank;
  cl_layout_t **parts = cl_alloc((size_t)parts_n * sizeof *parts);
  if (parts == NULL)
    return nomem();
  memset(parts, 0, (size_t)parts_n * sizeof *parts);
  cl_status s = CL_OK;
  for (int64_t i = 0; s == CL_OK && i < parts_n; i++) {
    cl_layout_t *mode = NULL;
    if ((s = cl_layout_get(a, &i, 1, &mode)) != CL_OK)
      break;
    if (i >= rank) {
      parts[i] = mode;
      continue;
    }
    cl_tuple_t *element = NULL;
    int64_t slot;
    char *mt = text_of(mode), *tt = NULL;
    if ((s = cl_tuple_get(tiler, &i, 1, &element)) == CL_OK && (tt = tuple_text(element)) == NULL)
      s = nomem();
    if (s == CL_OK && mt == NULL)
      s = nomem();
    if (s == CL_OK && (s = reserve(e, &slot)) == CL_OK) {
      s = explain_tiler(e, depth + 1, op, mode, element, &parts[i]);
      cl_layout_t *copy = NULL;
      if (s == CL_OK)
        s = cl_layout_copy(parts[i], &copy);
      s = close_step(e, slot, depth, s, "mode", copy, strf("%s(%s,%s)", op->name, mt, tt),
                     strf("mode %lld of the layout, %s, by element %lld of the tiler, %s", (long long)i, mt, (long long)i, tt));
    }
    cl_layout_free(mode);
    cl_tuple_free(element);
    cl_dealloc(mt);
    cl_dealloc(tt);
  }
  cl_layout_t *result = NULL;
  if (s == CL_OK)
    s = cl_layout_concat((const cl_layout_t *const *)parts, parts_n, &result);
  if (s == CL_OK) {
    cl_layout_t *copy = NULL;
    if ((s = cl_layout_copy(result, &copy)) == CL_OK)
      s = add(e, depth, "by mode", copy, NULL, make_layout_of(parts, parts_n),
              parts_n == rank || rank == a_rank
                ? strf("%s", "the modes' results side by side")
                : op->keeps_rest ? strf("the modes' results side by side, and the layout's modes past the tiler's %lld kept", (long long)rank)
                                 : strf("%s", "the modes' results side by side (the layout's modes past the tiler's are dropped)"));
  }
  for (int64_t i = 0; i < parts_n; i++)
    cl_layout_free(parts[i]);
  cl_dealloc(parts);
  if (s == CL_OK)
    *out = result;
  else
    cl_layout_free(result);
  return s;
}

static const tiler_op composition_op = {"composition", explain_composition, false, false};
static const tiler_op divide_op = {"logical_divide", explain_logical_divide, true, true};
static const tiler_op product_op = {"logical_product", explain_logical_product, true, true};

/* ============================================================ arrangements */

/* "get(Z,m)" or "get(Z,m,0),get(Z,m,1),...": mode m of Z, unpacked when
 * `unpack` and it is a tuple.  Returns the number of parts written to
 * parts (owned by the caller) and their expressions appended to expr. */
static cl_status unpack_mode(const cl_layout_t *z, const char *zt, int64_t m, bool unpack, cl_layout_t **parts,
                             int64_t *n, char **expr) {
  cl_layout_t *mode = NULL;
  CL_TRY(cl_layout_get(z, &m, 1, &mode));
  int64_t rank = unpack && cl_layout_rank(mode) > 1 ? cl_layout_rank(mode) : 0; /* a rank-1 mode stays one */
  cl_status s = CL_OK;
  if (rank == 0) {
    parts[(*n)++] = mode;
    char *grown = strf("%s%sget(%s,%lld)", *expr, **expr ? "," : "", zt, (long long)m);
    cl_dealloc(*expr);
    *expr = grown;
    return grown ? CL_OK : nomem();
  }
  for (int64_t k = 0; s == CL_OK && k < rank; k++) {
    int64_t path[2] = {m, k};
    if ((s = cl_layout_get(z, path, 2, &parts[*n])) != CL_OK)
      break;
    (*n)++;
    char *grown = strf("%s%sget(%s,%lld,%lld)", *expr, **expr ? "," : "", zt, (long long)m, (long long)k);
    cl_dealloc(*expr);
    if ((*expr = grown) == NULL)
      s = nomem();
  }
  cl_layout_free(mode);
  return s;
}

/* zipped: the tiles and rests gathered (tile_unzip); tiled: then its
 * second mode unpacked; flat: both unpacked. */
typedef enum arrangement { ZIPPED, TILED, FLAT } arrangement;

static cl_status explain_arrangement(cl_explanation_t *e, int64_t depth, arrangement how, const char *logical_name,
                                     const cl_layout_t *logical, const cl_tuple_t *tiler, cl_layout_t **out) {
  char *lt = text_of(logical), *tt = tuple_text(tiler), *zt = NULL;
  cl_layout_t *zipped = NULL, *copy = NULL;
  cl_status s = lt && tt ? cl_tile_unzip(logical, tiler, &zipped) : nomem();
  if (s != CL_OK && s != CL_E_NOMEM) {
    s = fails(e, depth, s, strf("tile_unzip(%s,%s)", lt, tt));
    goto done;
  }
  int64_t tiles = 0, tile = 0;
  if (s == CL_OK) {
    cl_layout_t *mode = NULL;
    int64_t one = 1, zero = 0;
    if ((s = cl_layout_get(zipped, &one, 1, &mode)) == CL_OK)
      tiles = cl_layout_size(mode);
    cl_layout_free(mode);
    mode = NULL;
    if (s == CL_OK && (s = cl_layout_get(zipped, &zero, 1, &mode)) == CL_OK)
      tile = cl_layout_size(mode);
    cl_layout_free(mode);
  }
  if (s == CL_OK && (s = cl_layout_copy(zipped, &copy)) == CL_OK)
    s = add(e, depth, "zip", copy, NULL, strf("tile_unzip(%s,%s)", lt, tt),
            strf("the %s's tile modes gathered into mode 0 (%lld elements) and the rest into mode 1: %lld %s",
                 logical_name, (long long)tile, (long long)tiles,
                 strcmp(logical_name, "logical_divide") == 0 ? "tiles" : "copies"));
  if (s == CL_OK && how != ZIPPED) {
    int64_t rank0 = cl_layout_rank(zipped), rank1 = 0, n = 0;
    cl_layout_t *mode = NULL;
    int64_t one = 1;
    if ((s = cl_layout_get(zipped, &one, 1, &mode)) == CL_OK)
      rank1 = cl_layout_rank(mode);
    cl_layout_free(mode);
    cl_layout_t **parts = cl_alloc((size_t)(rank0 + rank1 + 4 + 64) * sizeof *parts);
    char *expr = strf("%s", "");
    if ((zt = text_of(zipped)) == NULL || parts == NULL || expr == NULL)
      s = nomem();
    if (s == CL_OK)
      s = unpack_mode(zipped, zt, 0, how == FLAT, parts, &n, &expr);
    if (s == CL_OK)
      s = unpack_mode(zipped, zt, 1, true, parts, &n, &expr);
    cl_layout_t *arranged = NULL;
    if (s == CL_OK)
      s = cl_layout_concat((const cl_layout_t *const *)parts, n, &arranged);
    if (s == CL_OK)
      s = add(e, depth, "unpack", arranged, NULL, strf("make_layout(%s)", expr),
              strf("%s", how == TILED ? "mode 1 unpacked: (tile, rest modes...)" : "both modes unpacked: (tile modes..., rest modes...)"));
    for (int64_t i = 0; parts && i < n; i++)
      cl_layout_free(parts[i]);
    cl_dealloc(parts);
    cl_dealloc(expr);
    if (s == CL_OK)
      s = cl_layout_copy(e->steps[e->n - 1].layout, out);
  } else if (s == CL_OK)
    s = cl_layout_copy(zipped, out);
done:
  cl_layout_free(zipped);
  cl_dealloc(lt);
  cl_dealloc(tt);
  cl_dealloc(zt);
  return s;
}

/* blocked_product(A, B) = zip(logical_product(append<R>(A), append<R>(B))),
 * R = max(rank(A), rank(B)); raked_product zips (product mode, block mode). */
static cl_status explain_rank_sensitive(cl_explanation_t *e, int64_t depth, bool raked, const cl_layout_t *a,
                                        const cl_layout_t *b, cl_layout_t **out) {
  int64_t rank = cl_layout_rank(a) > cl_layout_rank(b) ? cl_layout_rank(a) : cl_layout_rank(b);
  const cl_layout_t *given[2] = {a, b};
  cl_layout_t *padded[2] = {NULL, NULL}, *product = NULL, *unit = NULL;
  char *pt = NULL;
  cl_status s = mode_layout(1, 0, &unit);
  for (int k = 0; s == CL_OK && k < 2; k++) {
    bool pad = cl_layout_rank(given[k]) < rank;
    char *gt = text_of(given[k]);
    cl_layout_t *copy = NULL;
    s = gt == NULL ? nomem() : pad ? cl_layout_append_to(given[k], unit, rank, &padded[k]) : cl_layout_copy(given[k], &padded[k]);
    if (s == CL_OK && (s = cl_layout_copy(padded[k], &copy)) == CL_OK)
      s = add(e, depth, "pad", copy, NULL, pad ? strf("append(%s,1:0,%lld)", gt, (long long)rank) : strf("%s", gt),
              pad ? strf("%s padded with 1:0 modes to rank %lld", k ? "B" : "A", (long long)rank)
                  : strf("%s has rank %lld already", k ? "B" : "A", (long long)rank));
    cl_dealloc(gt);
  }
  int64_t slot;
  char *at = s == CL_OK ? text_of(padded[0]) : NULL, *bt = s == CL_OK ? text_of(padded[1]) : NULL;
  if (s == CL_OK && (at == NULL || bt == NULL))
    s = nomem();
  if (s == CL_OK && (s = reserve(e, &slot)) == CL_OK) {
    s = explain_logical_product(e, depth + 1, padded[0], padded[1], &product);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(product, &copy);
    s = close_step(e, slot, depth, s, "logical_product", copy, strf("logical_product(%s,%s)", at, bt),
                   strf("%s", "(block, copies), to be zipped mode by mode"));
  }
  if (s == CL_OK && (pt = text_of(product)) == NULL)
    s = nomem();
  if (s == CL_OK) {
    int64_t first = raked ? 1 : 0, second = 1 - first, zero = 0;
    cl_layout_t *block = NULL;
    s = cl_layout_get(product, &zero, 1, &block);
    bool integral = s == CL_OK && cl_layout_depth(block) == 0;
    int64_t modes = integral ? 1 : cl_layout_rank(block);
    cl_layout_free(block);
    cl_layout_t **pairs = cl_alloc((size_t)modes * sizeof *pairs);
    char *expr = strf("%s", "");
    if (pairs != NULL)
      memset(pairs, 0, (size_t)modes * sizeof *pairs);
    if (pairs == NULL || expr == NULL)
      s = nomem();
    for (int64_t i = 0; s == CL_OK && i < modes; i++) {
      int64_t p0[2] = {first, i}, p1[2] = {second, i};
      cl_layout_t *pair[2] = {NULL, NULL};
      s = cl_layout_get(product, p0, integral ? 1 : 2, &pair[0]);
      if (s == CL_OK)
        s = cl_layout_get(product, p1, integral ? 1 : 2, &pair[1]);
      if (s != CL_OK && s != CL_E_NOMEM) {
        cl_layout_t *r = NULL;
        cl_status lib = raked ? cl_raked_product(a, b, &r) : cl_blocked_product(a, b, &r);
        cl_layout_free(r);
        char *x = text_of(a), *y = text_of(b);
        s = fails_as(e, depth, lib, x && y ? strf("%s(%s,%s)", raked ? "raked_product" : "blocked_product", x, y) : NULL);
        cl_dealloc(x);
        cl_dealloc(y);
      }
      if (s == CL_OK)
        s = cl_layout_concat((const cl_layout_t *const *)pair, 2, &pairs[i]);
      cl_layout_free(pair[0]);
      cl_layout_free(pair[1]);
      char *grown = integral ? strf("make_layout(get(%s,%lld),get(%s,%lld))", pt, (long long)first, pt, (long long)second)
                             : strf("%s%smake_layout(get(%s,%lld,%lld),get(%s,%lld,%lld))", expr, i ? "," : "", pt,
                                    (long long)first, (long long)i, pt, (long long)second, (long long)i);
      cl_dealloc(expr);
      if ((expr = grown) == NULL && s == CL_OK)
        s = nomem();
    }
    cl_layout_t *zipped = NULL;
    if (s == CL_OK)
      s = cl_layout_concat((const cl_layout_t *const *)pairs, modes, &zipped);
    if (s == CL_OK) {
      cl_layout_t *copy = NULL;
      if ((s = cl_layout_copy(zipped, &copy)) == CL_OK)
        s = add(e, depth, "zip", copy, NULL, strf("make_layout(%s)", expr),
                strf("%s", raked ? "each mode pairs (copies, block): the copies interleave, rake-like"
                                 : "each mode pairs (block, copies): the blocks stay whole"));
    }
    if (s == CL_OK)
      *out = zipped;
    else
      cl_layout_free(zipped);
    for (int64_t i = 0; pairs && i < modes; i++)
      cl_layout_free(pairs[i]);
    cl_dealloc(pairs);
    cl_dealloc(expr);
  }
  cl_layout_free(unit);
  cl_layout_free(padded[0]);
  cl_layout_free(padded[1]);
  cl_layout_free(product);
  cl_dealloc(at);
  cl_dealloc(bt);
  cl_dealloc(pt);
  return s;
}

/* ================================================================== public */

typedef enum explained {
  OP_COALESCE, OP_RIGHT_INVERSE, OP_LEFT_INVERSE, OP_COMPLEMENT, OP_COMPOSITION,
  OP_LOGICAL_DIVIDE, OP_ZIPPED_DIVIDE, OP_TILED_DIVIDE, OP_FLAT_DIVIDE,
  OP_LOGICAL_PRODUCT, OP_ZIPPED_PRODUCT, OP_TILED_PRODUCT, OP_FLAT_PRODUCT,
  OP_BLOCKED_PRODUCT, OP_RAKED_PRODUCT
} explained;

static const char *const explained_names[] = {
  "coalesce", "right_inverse", "left_inverse", "complement", "composition",
  "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
  "logical_product", "zipped_product", "tiled_product", "flat_product",
  "blocked_product", "raked_product",
};
#define EXPLAINED_COUNT ((int)(sizeof explained_names / sizeof explained_names[0]))

/* The steps of op(l[, arg]); arg has been checked. */
static cl_status explain_op(cl_explanation_t *e, explained op, const cl_layout_t *l, const cl_tuple_t *arg,
                            cl_layout_t **result) {
  switch (op) {
  case OP_COALESCE: return explain_coalesce(e, 0, l, result);
  case OP_RIGHT_INVERSE: return explain_inverse(e, 0, l, false, result);
  case OP_LEFT_INVERSE: return explain_inverse(e, 0, l, true, result);
  case OP_COMPLEMENT: return explain_complement(e, 0, l, arg, result);
  case OP_COMPOSITION: return explain_tiler(e, 0, &composition_op, l, arg, result);
  case OP_LOGICAL_DIVIDE: return explain_tiler(e, 0, &divide_op, l, arg, result);
  case OP_LOGICAL_PRODUCT: return explain_tiler(e, 0, &product_op, l, arg, result);
  case OP_BLOCKED_PRODUCT:
  case OP_RAKED_PRODUCT: {
    cl_layout_t *b = NULL;
    CL_TRY(cl_tuple_layout(arg, &b));
    cl_status s = explain_rank_sensitive(e, 0, op == OP_RAKED_PRODUCT, l, b, result);
    cl_layout_free(b);
    return s;
  }
  default: break;
  }
  /* the zipped, tiled and flat divides and products: the logical one, arranged */
  bool divide = op <= OP_FLAT_DIVIDE;
  const tiler_op *logical = divide ? &divide_op : &product_op;
  arrangement how = (op == OP_ZIPPED_DIVIDE || op == OP_ZIPPED_PRODUCT) ? ZIPPED
                    : (op == OP_TILED_DIVIDE || op == OP_TILED_PRODUCT) ? TILED : FLAT;
  int64_t slot;
  cl_layout_t *inner = NULL, *copy = NULL;
  char *lt = text_of(l), *tt = tuple_text(arg);
  cl_status s = lt && tt ? reserve(e, &slot) : nomem();
  if (s == CL_OK) {
    s = explain_tiler(e, 1, logical, l, arg, &inner);
    if (s == CL_OK)
      s = cl_layout_copy(inner, &copy);
    s = close_step(e, slot, 0, s, logical->name, copy, strf("%s(%s,%s)", logical->name, lt, tt),
                   strf("%s", divide ? "each tiled mode becomes (tile, rest)" : "each tiled mode becomes (block, copies)"));
  }
  if (s == CL_OK)
    s = explain_arrangement(e, 0, how, logical->name, inner, arg, result);
  cl_layout_free(inner);
  cl_dealloc(lt);
  cl_dealloc(tt);
  return s;
}

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
    return nomem();
  memset(e, 0, sizeof *e);
  char *lt = text_of(layout), *at = arg ? tuple_text(arg) : NULL;
  cl_status s = lt && (arg == NULL || at) ? CL_OK : nomem();
  if (s == CL_OK && (e->title = arg ? strf("%s(%s,%s)", op, lt, at) : strf("%s(%s)", op, lt)) == NULL)
    s = nomem();
  cl_layout_t *result = NULL;
  if (s == CL_OK)
    s = explain_op(e, (explained)which, layout, arg, &result);
  if (s == CL_OK)
    s = add(e, 0, "result", result, NULL, strf("%s", e->title), strf("%s", "what the operation gives"));
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
    return nomem();
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
        return nomem();
      }
    }
  }
  cl_dealloc(number);
  *out = text;
  return CL_OK;
}
