/* SPDX-License-Identifier: BSD-3-Clause */
/* explain_algebra.c: the explanations of coalesce, composition, complement
 * and the inverses (explain_impl.h), each following the definition that
 * algebra.c implements, step by step. */
#include <stdio.h>
#include <string.h>

#include "explain_impl.h"

/* ================================================================ coalesce */

/* coalesce(L): the leaves of L in order; each size-1 leaf is dropped, and a
 * leaf s:d that continues the last mode s0:d0 of the result (d == s0*d0)
 * merges with it into s0*s:d0.  (CuTe walks from the back; the modes that
 * merge are the same either way.) */
cl_status cl_ex_coalesce(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, cl_layout_t **out) {
  char *lt = cl_ex_text(l);
  cl_layout_t *flat_l = NULL;
  cl_status s = lt ? cl_layout_flatten(l, &flat_l) : cl_ex_nomem();
  if (s == CL_OK)
    s = cl_ex_add(e, depth, "flatten", flat_l, NULL, cl_ex_strf("flatten(%s)", lt),
            cl_ex_strf("coalesce works on the %lld leaves of the layout, in order", (long long)cl_layout_rank(flat_l)));
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
      sentence = cl_ex_strf("leaf %lld, 1:%lld, has size 1 and adds nothing", (long long)k, (long long)m.stride);
    } else if (last == NULL) {
      rule = "start";
      sentence = cl_ex_strf("leaf %lld, %lld:%lld, starts the result", (long long)k, (long long)m.shape, (long long)m.stride);
      cl_flat_push(&merged, m.shape, m.stride);
    } else if (m.stride == reach) {
      int64_t merged_shape;
      if ((s = cl_mul(last->shape, m.shape, &merged_shape)) != CL_OK)
        break;
      rule = "merge";
      sentence = cl_ex_strf("leaf %lld, %lld:%lld, continues %lld:%lld (its stride is %lld*%lld): they merge into %lld:%lld",
                      (long long)k, (long long)m.shape, (long long)m.stride, (long long)last->shape,
                      (long long)last->stride, (long long)last->shape, (long long)last->stride,
                      (long long)merged_shape, (long long)last->stride);
      last->shape = merged_shape;
    } else {
      rule = "keep";
      sentence = cl_ex_strf("leaf %lld, %lld:%lld, does not continue %lld:%lld (%lld is not %lld*%lld = %lld): a new mode",
                      (long long)k, (long long)m.shape, (long long)m.stride, (long long)last->shape,
                      (long long)last->stride, (long long)m.stride, (long long)last->shape, (long long)last->stride,
                      (long long)reach);
      cl_flat_push(&merged, m.shape, m.stride);
    }
    cl_layout_t *running = NULL;
    char *expr = prev ? cl_ex_strf("coalesce(make_layout(%s,%lld:%lld))", prev, (long long)m.shape, (long long)m.stride)
                      : cl_ex_strf("coalesce(%lld:%lld)", (long long)m.shape, (long long)m.stride);
    if ((s = cl_ex_flat_layout(&merged, &running)) != CL_OK) {
      cl_dealloc(sentence);
      cl_dealloc(expr);
      break;
    }
    cl_dealloc(prev);
    prev = cl_ex_text(running);
    s = prev ? cl_ex_add(e, depth, rule, running, NULL, expr, sentence) : cl_ex_nomem();
    if (prev == NULL) {
      cl_layout_free(running);
      cl_dealloc(sentence);
      cl_dealloc(expr);
    }
  }
  cl_layout_t *result = NULL;
  if (s == CL_OK)
    s = cl_ex_flat_layout(&merged, &result);
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
    return cl_ex_strf("(ceil_div(%lld,%lld),ceil_div(%lld,%lld))", (long long)shape, (long long)r, (long long)r, (long long)shape);
  return cl_ex_strf("(ceil_div(%lld,%lld),product((ceil_div(%lld,%lld),-1)))", (long long)shape, (long long)r, (long long)r,
              (long long)shape);
}

/* The library's composition(A, s:d), for the status of a broken condition. */
static cl_status library_compose(const composing *c, int64_t s, int64_t d) {
  cl_layout_t *mode = NULL, *r = NULL;
  cl_status st = cl_ex_mode_layout(s, d, &mode);
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
      return cl_ex_fails_as(e, depth, library_compose(c, s, d), cl_ex_strf("composition(%s,%lld:%lld)", c->a, (long long)s, (long long)d));
    abs_stride = rest_stride < 0 ? -rest_stride : rest_stride;
    CL_TRY(cl_al_ceil_div(a_i, abs_stride, &next_shape));
    CL_TRY(cl_al_ceil_div(abs_stride, a_i, &next_stride));
    next_stride *= rest_stride < 0 ? -1 : 1;
    bool nothing = next_shape == 1 || rest_shape == 1;
    CL_TRY(cl_ex_add(e, depth, "shape_div", NULL, cl_ex_strf("(%lld,%lld)", (long long)next_shape, (long long)next_stride),
               signed_ceil_div_expr(a_i, rest_stride),
               cl_ex_strf("stride %lld steps over mode %lld of A, %lld:%lld: ceil_div(%lld,%lld) = %lld of its elements are "
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
      return cl_ex_fails_as(e, depth, library_compose(c, s, d), cl_ex_strf("composition(%s,%lld:%lld)", c->a, (long long)s, (long long)d));
    CL_TRY(cl_mul(rest_stride, b_i, &stride));
    cl_layout_t *mode = NULL;
    CL_TRY(cl_ex_mode_layout(taken, stride, &mode));
    CL_TRY(cl_ex_add(e, depth, "modulo", mode, NULL,
               cl_ex_strf("make_layout(min(%lld,%lld),product((%lld,%lld)))", (long long)next_shape, (long long)rest_shape,
                    (long long)rest_stride, (long long)b_i),
               cl_ex_strf("it takes min(%lld,%lld) = %lld of the %lld elements still to place, at stride %lld*%lld = %lld; "
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
  CL_TRY(cl_ex_mode_layout(rest_shape, stride, &mode));
  CL_TRY(cl_ex_add(e, depth, "rest", mode, NULL,
             cl_ex_strf("make_layout(%lld,product((%lld,%lld)))", (long long)rest_shape, (long long)rest_stride, (long long)b_last),
             cl_ex_strf("the last mode of A, %lld:%lld, takes the %lld element%s left, at stride %lld*%lld = %lld%s",
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
      char *bt = st == CL_OK ? cl_ex_text(b) : NULL;
      if (st == CL_OK)
        st = cl_composition(c->a_layout, b, &r);
      cl_layout_free(b);
      cl_layout_free(r);
      char *expr = bt ? cl_ex_strf("composition(%s,%s)", c->a, bt) : NULL;
      cl_dealloc(bt);
      return cl_ex_fails_as(e, depth, st, expr);
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
  CL_TRY(cl_ex_reserve(e, &at));
  cl_flat modes;
  cl_flat_init(&modes);
  cl_status st = compose_leaf(e, depth + 1, c, s, d, &modes);
  cl_layout_t *mode = NULL;
  if (st == CL_OK && (st = cl_ex_flat_layout(&modes, &mode)) == CL_OK)
    cl_lb_flat(lb, &modes);
  char why[128] = "";
  if (d == 0)
    snprintf(why, sizeof why, "%s", ": a stride-0 mode never moves in A");
  else if (c->lhs.n == 1)
    snprintf(why, sizeof why, ": A is the single mode %lld:%lld, so the stride scales by %lld", (long long)c->lhs.m[0].shape,
             (long long)c->lhs.m[0].stride, (long long)c->lhs.m[0].stride);
  st = cl_ex_close_step(e, at, depth, st, "mode", mode, cl_ex_strf("composition(%s,%lld:%lld)", c->a, (long long)s, (long long)d),
                  cl_ex_strf("leaf %lld of B, %lld:%lld, picks the elements of A it steps on%s", (long long)*leaf, (long long)s,
                       (long long)d, why));
  (*leaf)++;
  cl_flat_release(&modes);
  return st;
}

/* composition(A, B) = composition_impl(coalesce_x(A), B), leaf by leaf of B. */
cl_status cl_ex_composition(cl_explanation_t *e, int64_t depth, const cl_layout_t *a, const cl_layout_t *b,
                                     cl_layout_t **out) {
  composing c = {.a_layout = a};
  cl_flat_init(&c.lhs);
  char *at = cl_ex_text(a);
  c.a = at;
  cl_layout_t *coalesced = NULL;
  cl_flat flat;
  cl_flat_init(&flat);
  cl_status s = at ? cl_coalesce(a, &coalesced) : cl_ex_nomem();
  if (s == CL_OK) {
    cl_flat_of_view(&flat, cl_view_of(a));
    s = cl_coalesce_flat(&flat, true, &c.lhs);
  }
  cl_layout_t *walked = NULL;
  if (s == CL_OK)
    s = cl_ex_flat_layout(&c.lhs, &walked);
  bool kept_last = s == CL_OK && !cl_layout_equal(walked, coalesced);
  char *walked_text = kept_last ? cl_ex_text(walked) : NULL;
  cl_layout_free(walked);
  if (s == CL_OK)
    s = cl_ex_add(e, depth, "coalesce", coalesced, NULL, cl_ex_strf("coalesce(%s)", at),
            kept_last ? cl_ex_strf("A coalesced; past its size A goes on with its last stride, so B's modes walk %s",
                             walked_text ? walked_text : "")
                      : cl_ex_strf("%s", "A coalesced: B's modes walk its modes"));
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
    return cl_ex_nomem();
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
  cl_status s = cl_ex_flat_layout(&sorted, &l);
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
  return cl_ex_add(e, depth, "sort", l, NULL, expr, cl_ex_strf("the modes of %s by increasing stride", name));
}

/* detail::complement(L, cotarget): L filtered, its modes by increasing
 * stride; before each mode s:d, the gap between what the modes so far cover
 * and d is filled by d/covered copies at stride `covered`; then the whole is
 * repeated up to the cotarget, and coalesced. */
cl_status cl_ex_complement(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, const cl_tuple_t *cotarget,
                                    cl_layout_t **out) {
  char *lt = cl_ex_text(l), *ft = NULL, *cot = NULL, *per_mode = NULL; /* per_mode: ceil_div's quotient by mode */
  cl_layout_t *filtered = NULL, *kept = NULL;
  cl_tuple_t *own_cotarget = NULL;
  cl_flat f, modes, result;
  cl_flat_init(&f);
  cl_flat_init(&modes);
  cl_flat_init(&result);
  int64_t *order = NULL;
  cl_status s = lt ? cl_filter(l, &filtered) : cl_ex_nomem();
  if (s == CL_OK && (s = cl_layout_copy(filtered, &kept)) == CL_OK)
    s = cl_ex_add(e, depth, "filter", kept, NULL, cl_ex_strf("filter(%s)", lt),
            cl_ex_strf("%s", "complement ignores stride-0 and size-1 modes: filter(L) = coalesce(filter_zeros(L))"));
  if (s == CL_OK && (ft = cl_ex_text(filtered)) == NULL)
    s = cl_ex_nomem();
  if (s == CL_OK && cotarget == NULL) {
    int64_t cosize;
    if ((s = cl_layout_cosize_checked(filtered, &cosize)) == CL_OK && (s = cl_tuple_int(cosize, &own_cotarget)) == CL_OK)
      s = cl_ex_add(e, depth, "cotarget", NULL, cl_ex_strf("%lld", (long long)cosize), cl_ex_strf("cosize(filter(%s))", lt),
              cl_ex_strf("%s", "without a cotarget, complement fills the holes of L below its cosize"));
    cotarget = own_cotarget;
  }
  if (s == CL_OK && (cot = cl_ex_tuple_text(cotarget)) == NULL)
    s = cl_ex_nomem();
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
    if ((s = cl_ex_flat_layout(&result, &all)) == CL_OK)
      s = cl_ex_add(e, depth, "all", all, NULL, cl_ex_strf("make_layout(size(%s),%d)", cot, cot_size == 1 ? 0 : 1),
              cl_ex_strf("nothing is left of L: the complement is all of [0,%lld)", (long long)cot_size));
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
      s = cl_ex_fails_as(e, depth, lib, cl_ex_strf("complement(%s,%s)", lt, cot));
      break;
    }
    if ((s = cl_mul(stride, shape, &reach)) != CL_OK)
      break;
    cl_flat_push(&modes, gap, covered);
    cl_layout_t *mode = NULL;
    if ((s = cl_ex_mode_layout(gap, covered, &mode)) != CL_OK)
      break;
    char *expr = remainder == 0 ? cl_ex_strf("make_layout(shape_div(%lld,%lld),%lld)", (long long)stride, (long long)covered,
                                       (long long)covered)
                                : cl_ex_strf("make_layout(get(idx2crd(%lld,(%lld,%lld)),1),%lld)", (long long)stride,
                                       (long long)covered, (long long)stride, (long long)covered);
    char *sentence =
      gap == 1 ? cl_ex_strf("mode %lld:%lld starts where the modes before it end (stride %lld): no gap; now [0,%lld) is spanned",
                      (long long)shape, (long long)stride, (long long)stride, (long long)reach)
               : cl_ex_strf("mode %lld:%lld starts at stride %lld, past the %lld the modes before it span: %lld/%lld = %lld "
                      "copies at stride %lld fill the gap; now [0,%lld) is spanned",
                      (long long)shape, (long long)stride, (long long)stride, (long long)covered, (long long)stride,
                      (long long)covered, (long long)gap, (long long)covered, (long long)reach);
    s = cl_ex_add(e, depth, "gap", mode, NULL, expr, sentence);
    covered = reach;
  }
  int64_t copies = 0, plain = 0;
  cl_tuple_t *divisor = NULL, *quotient = NULL;
  if (s == CL_OK && (s = cl_tuple_int(covered, &divisor)) == CL_OK && (s = cl_tuple_ceil_div(cotarget, divisor, &quotient)) == CL_OK &&
      (s = cl_tuple_product(quotient, &copies)) == CL_OK && (per_mode = cl_ex_tuple_text(quotient)) == NULL)
    s = cl_ex_nomem();
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
    if ((s = cl_ex_mode_layout(copies, copies == 1 ? 0 : covered, &mode)) == CL_OK)
      s = cl_ex_add(e, depth, "rest", mode, NULL,
              cl_ex_strf("make_layout(size(ceil_div(%s,%lld)),%lld)", cot, (long long)covered, (long long)(copies == 1 ? 0 : covered)),
              cl_ex_strf("the modes and gaps so far span [0,%lld); size(ceil_div(%s,%lld)) = %lld copies of them reach the "
                   "cotarget%s",
                   (long long)covered, cot, (long long)covered, (long long)copies, note));
  }
  if (s == CL_OK)
    s = modes.status;
  if (s == CL_OK)
    s = cl_coalesce_flat(&modes, false, &result);
  if (s == CL_OK) {
    cl_layout_t *coalesced = NULL;
    if ((s = cl_ex_flat_layout(&result, &coalesced)) == CL_OK)
      s = cl_ex_add(e, depth, "coalesce", coalesced, NULL, cl_ex_coalesce_expr(&modes),
              cl_ex_strf("%s", "the gaps and the copies, coalesced"));
  }
done:
  if (s == CL_OK)
    s = cl_ex_flat_layout(&result, out);
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
  return c->n == 1 ? cl_ex_strf("shape(%s)", ct) : cl_ex_strf("get(shape(%s),%lld)", ct, (long long)i);
}
static char *mode_position_expr(const char *ct, const cl_flat *c, int64_t i) {
  return c->n == 1 ? cl_ex_strf("%d", 1) : cl_ex_strf("get(prefix_product(shape(%s)),%lld)", ct, (long long)i);
}

/* right_inverse(L) (left = false) and left_inverse(L) (left = true), on the
 * coalesced modes of L taken by increasing stride (CuTe's SortByKey).
 *  right: starting from 1, a mode whose stride is the extent covered so far
 *         adds its shape, at the stride of its position in L's domain;
 *  left:  each nonzero stride d must be a multiple of the size gathered so
 *         far, and adds d/size at the previous mode's position; the mode of
 *         largest stride closes with its own shape. */
cl_status cl_ex_inverse(cl_explanation_t *e, int64_t depth, const cl_layout_t *l, bool left, cl_layout_t **out) {
  char *lt = cl_ex_text(l), *ct = NULL;
  cl_layout_t *coalesced = NULL, *kept = NULL;
  cl_flat c, position, result;
  cl_flat_init(&c);
  cl_flat_init(&position);
  cl_flat_init(&result);
  int64_t *order = NULL;
  cl_status s = lt ? cl_coalesce(l, &coalesced) : cl_ex_nomem();
  if (s == CL_OK && (s = cl_layout_copy(coalesced, &kept)) == CL_OK)
    s = cl_ex_add(e, depth, "coalesce", kept, NULL, cl_ex_strf("coalesce(%s)", lt), cl_ex_strf("%s", "the inverse is read off L coalesced, C"));
  if (s == CL_OK && (ct = cl_ex_text(coalesced)) == NULL)
    s = cl_ex_nomem();
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
    s = cl_ex_add(e, depth, "positions", NULL, value, cl_ex_strf("prefix_product(shape(%s))", ct),
            cl_ex_strf("%s", "where each mode of C starts in the domain: the prefix products of its shape"));
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
      if ((s = cl_ex_mode_layout(shape, stride, &mode)) == CL_OK)
        s = cl_ex_add(e, depth, "skip", mode, NULL, c.n == 1 ? cl_ex_strf("%s", ct) : cl_ex_strf("get(%s,%lld)", ct, (long long)i),
                cl_ex_strf("mode %lld:%lld does not start at %lld, the extent the inverse covers so far: skipped",
                     (long long)shape, (long long)stride, (long long)covered));
      continue;
    }
    if (!left) {
      int64_t at = position.m[i].shape;
      if ((s = cl_mul(shape, stride, &covered)) != CL_OK)
        break;
      char *sh = mode_shape_expr(ct, &c, i), *pos = mode_position_expr(ct, &c, i);
      cl_flat_push(&result, shape, at);
      if ((s = cl_ex_mode_layout(shape, at, &mode)) == CL_OK)
        s = cl_ex_add(e, depth, "take", mode, NULL, sh && pos ? cl_ex_strf("make_layout(%s,%s)", sh, pos) : NULL,
                cl_ex_strf("mode %lld:%lld starts at %lld, the extent covered so far: its %lld elements are the next indices, "
                     "reached from position %lld of the domain; now %lld are covered",
                     (long long)shape, (long long)stride, (long long)stride, (long long)shape, (long long)at,
                     (long long)covered));
      cl_dealloc(sh);
      cl_dealloc(pos);
      continue;
    }
    if (stride == 0) {
      if ((s = cl_ex_mode_layout(shape, stride, &mode)) == CL_OK)
        s = cl_ex_add(e, depth, "skip", mode, NULL, c.n == 1 ? cl_ex_strf("%s", ct) : cl_ex_strf("get(%s,%lld)", ct, (long long)i),
                cl_ex_strf("mode %lld:0 maps everything to 0: nothing to invert", (long long)shape));
      continue;
    }
    int64_t remainder, steps;
    if ((s = cl_al_mod(stride, size, &remainder)) != CL_OK)
      break;
    if (remainder != 0) {
      cl_layout_t *r = NULL;
      cl_status lib = cl_left_inverse(l, &r);
      cl_layout_free(r);
      s = cl_ex_fails_as(e, depth, lib, cl_ex_strf("left_inverse(%s)", lt));
      break;
    }
    steps = stride / size;
    cl_flat_push(&result, steps, previous);
    if ((s = cl_ex_mode_layout(steps, previous, &mode)) == CL_OK)
      s = cl_ex_add(e, depth, "divide", mode, NULL,
              cl_ex_strf("make_layout(shape_div(%lld,%lld),%lld)", (long long)stride, (long long)size, (long long)previous),
              cl_ex_strf("mode %lld:%lld: stride %lld is %lld times the %lld indices inverted so far, each reached from "
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
    if ((s = cl_mul(size, shape, &total)) == CL_OK && (s = cl_ex_mode_layout(shape, previous, &mode)) == CL_OK)
      s = cl_ex_add(e, depth, "close", mode, NULL, sh ? cl_ex_strf("make_layout(%s,%lld)", sh, (long long)previous) : NULL,
              cl_ex_strf("the mode of largest stride, %lld:%lld, closes the inverse with its %lld positions, from position %lld",
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
    if ((s = cl_ex_flat_layout(&merged, &inverse)) == CL_OK)
      s = cl_ex_add(e, depth, "coalesce", inverse, NULL, cl_ex_coalesce_expr(&result), cl_ex_strf("%s", "the modes found, coalesced"));
  }
  if (s == CL_OK)
    s = cl_ex_flat_layout(&merged, out);
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
