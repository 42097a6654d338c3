/* SPDX-License-Identifier: BSD-3-Clause */
/* algebra.c: CuTe's layout algebra on layouts (layout.hpp): coalesce and
 * filter, composition, complement, the inverses, and the utilities built on
 * them (max_common_vector/layout, nullspace, upcast, downcast).  The divides
 * and products are in algebra_products.c.
 *
 * Every integer is treated as CuTe treats a static one (Int<N>): each
 * `if constexpr` on a value below is a test of that value, and each
 * static_assert is an error status naming the broken condition.  Integer
 * division is C's (truncating), as in CuTe. */
#include <stdio.h>

#include "algebra_impl.h"
#include "cutelayout/algebra.h"

/* ================================================================ flat modes */

void cl_flat_init(cl_flat *f) {
  f->m = f->inline_m;
  f->n = 0;
  f->cap = CL_FLAT_INLINE;
  f->status = CL_OK;
}

void cl_flat_release(cl_flat *f) {
  if (f->m != f->inline_m)
    cl_dealloc(f->m);
  cl_flat_init(f);
}

void cl_flat_grow(cl_flat *f, cl_mode m) {
  if (f->status != CL_OK)
    return;
  if (f->n == f->cap) {
    int64_t cap = f->cap * 2;
    cl_mode *grown = f->m == f->inline_m ? cl_alloc((size_t)cap * sizeof *grown)
                                         : cl_realloc(f->m, (size_t)cap * sizeof *grown);
    if (grown == NULL) {
      f->status = cl_fail(CL_E_NOMEM, "out of memory");
      return;
    }
    if (f->m == f->inline_m)
      memcpy(grown, f->m, (size_t)f->n * sizeof *grown);
    f->m = grown;
    f->cap = cap;
  }
  f->m[f->n++] = m;
}

bool cl_flat_has_basis(const cl_flat *f) {
  for (int64_t i = 0; i < f->n; i++)
    if (f->m[i].basis != NULL)
      return true;
  return false;
}

void cl_flat_of_view(cl_flat *f, cl_lview v) {
  /* Congruent trees have their leaves in the same order; a scaled basis is
   * one leaf spanning several nodes, so each tree is walked leaf by leaf. */
  const cl_node *s = v.shape, *d = v.stride, *end = v.shape + v.shape->span;
  while (s < end) {
    if (cl_is_tuple(s)) {
      s++;
      d++;
      continue;
    }
    cl_mode m = {s->value, d->value, cl_is_basis(d) ? d : NULL};
    cl_flat_push_mode(f, m);
    s += s->span;
    d += d->span;
  }
}

void cl_lb_mode(cl_lbuilder *lb, cl_mode m) {
  cl_b_int(&lb->shape, m.shape);
  if (m.basis != NULL)
    cl_b_basis_like(&lb->stride, m.stride, m.basis);
  else
    cl_b_int(&lb->stride, m.stride);
}

void cl_lb_flat(cl_lbuilder *lb, const cl_flat *f) {
  if (f->n == 1) {
    cl_lb_mode(lb, f->m[0]);
    return;
  }
  cl_lb_mark at = cl_lb_open(lb);
  for (int64_t i = 0; i < f->n; i++)
    cl_lb_mode(lb, f->m[i]);
  cl_lb_close(lb, at);
}

/* The layout of f as cl_lb_flat makes it, as a new handle.  Integer strides
 * (the common case) are written as two small trees on the stack and copied
 * once into the handle's one allocation, with no builder between; a scaled
 * basis (its path is nodes of its own) or a long list takes the builder. */
cl_status cl_layout_of_flat(const cl_flat *f, cl_layout_t **out) {
  if (f->n > CL_FLAT_INLINE || cl_flat_has_basis(f)) {
    cl_lbuilder lb;
    cl_lb_init(&lb);
    cl_lb_flat(&lb, f);
    return cl_lb_finish(&lb, out);
  }
  cl_node shape[CL_FLAT_INLINE + 1], stride[CL_FLAT_INLINE + 1];
  int32_t first = 0; /* one mode is a leaf; any other count a flat tuple */
  if (f->n != 1) {
    shape[0] = stride[0] = (cl_node){0, (int32_t)f->n + 1, (int16_t)f->n, CL_KIND_TUPLE, 1};
    first = 1;
  }
  for (int64_t i = 0; i < f->n; i++) {
    shape[first + i] = (cl_node){f->m[i].shape, 1, 0, CL_KIND_INT, 0};
    stride[first + i] = (cl_node){f->m[i].stride, 1, 0, CL_KIND_INT, 0};
  }
  return cl_layout_from_trees(shape, stride, out);
}

/* The public result of an operation computed as flat modes into `result`
 * with status s (released either way). */
static cl_status flat_result(cl_status s, cl_flat *result, cl_layout_t **out) {
  if (s == CL_OK)
    s = cl_layout_of_flat(result, out);
  cl_flat_release(result);
  return s;
}

static void reverse_modes(cl_flat *f) {
  for (int64_t i = 0, j = f->n - 1; i < j; i++, j--) {
    cl_mode t = f->m[i];
    f->m[i] = f->m[j];
    f->m[j] = t;
  }
}

cl_status cl_lb_result(cl_lbuilder *lb, cl_status status, cl_layout_t **out) {
  if (status != CL_OK) {
    cl_lb_release(lb);
    return status;
  }
  return cl_lb_finish(lb, out);
}

/* An empty tuple where CuTe needs a mode (make_layout() of no layouts, or
 * flatten() of nothing, does not compile). */
static cl_status no_modes(const char *op) {
  return cl_fail(CL_E_DOMAIN, "%s: the layout has no modes (an empty tuple)", op);
}

static cl_status ceil_div(int64_t a, int64_t b, int64_t *r) { return cl_al_ceil_div(a, b, r); }

static cl_status abs_of(int64_t a, int64_t *r) {
  if (a == INT64_MIN)
    return cl_fail(CL_E_OVERFLOW, "integer overflow in |%lld|", (long long)a);
  *r = a < 0 ? -a : a;
  return CL_OK;
}

static int64_t signum(int64_t a) { return (a > 0) - (a < 0); }

/* ================================================================ coalesce */

/* bw_coalesce: walking the flat modes from the back, the front mode of the
 * result meets each earlier mode s:d (s*d == d0 as CuTe's == has it: scaled
 * bases merge only along one basis, never with an integer):
 *      front          s:d
 *      s0:d0          1:d       => s0:d0           (size-1 modes vanish)
 *      1:d0           s:d       => s:d             (only the starting front is 1)
 *      s0:s*d         s:d       => s*s0:d          (contiguous: merge)
 *      s0:d0          s:d       => (s,s0):(d,d0)   (prepend)
 * A result of one mode is an integral layout; an all-1 layout is 1:0.
 * coalesce_x starts from a last mode of size 2 in place of size 1, so that
 * the last stride survives: composition needs the function beyond the size. */
cl_status cl_coalesce_flat(const cl_flat *in, bool beyond_domain, cl_flat *out) {
  if (in->status != CL_OK)
    return in->status;
  if (in->n == 0)
    return no_modes("coalesce");
  out->n = 0;
  cl_mode front = in->m[in->n - 1];
  if (beyond_domain && front.shape == 1)
    front.shape = 2;
  bool integral = true; /* the result is still a single mode */
  for (int64_t i = in->n - 2; i >= 0; i--) {
    cl_mode m = in->m[i];
    if (m.shape == 1)
      continue;
    if (integral && front.shape == 1) {
      front = m;
      continue;
    }
    int64_t reach;
    CL_TRY(cl_mul(m.shape, m.stride, &reach));
    if (cl_mode_stride_equal(reach, m.basis, front.stride, front.basis)) {
      CL_TRY(cl_mul(m.shape, front.shape, &front.shape));
      front.stride = m.stride;
    } else {
      cl_flat_push_mode(out, front);
      front = m;
      integral = false;
    }
  }
  if (integral && front.shape == 1)
    front = (cl_mode){1, 0, NULL};
  cl_flat_push_mode(out, front);
  reverse_modes(out);
  return out->status;
}

/* coalesce of a view, appended as one mode. */
static cl_status coalesce_into(cl_lbuilder *lb, cl_lview v) {
  cl_flat flat, merged;
  cl_flat_init(&flat);
  cl_flat_init(&merged);
  cl_flat_of_view(&flat, v);
  cl_status s = cl_coalesce_flat(&flat, false, &merged);
  if (s == CL_OK)
    cl_lb_flat(lb, &merged);
  cl_flat_release(&flat);
  cl_flat_release(&merged);
  return s;
}

/* filter_zeros(L): the shape with 1 wherever the stride is 0 (an integer
 * 0: CuTe's is_constant<0> is false for a basis, even 0@i). */
static void filter_zeros_flat(cl_flat *f, cl_lview v) {
  cl_flat_of_view(f, v);
  for (int64_t i = 0; i < f->n; i++)
    if (cl_mode_stride_zero(&f->m[i]))
      f->m[i].shape = 1;
}

cl_status cl_filter_flat(cl_lview v, cl_flat *out) {
  cl_flat zeros_filtered;
  cl_flat_init(&zeros_filtered);
  filter_zeros_flat(&zeros_filtered, v);
  cl_status s = cl_coalesce_flat(&zeros_filtered, false, out);
  cl_flat_release(&zeros_filtered);
  return s;
}

static cl_status filter_into(cl_lbuilder *lb, cl_lview v) {
  cl_flat filtered;
  cl_flat_init(&filtered);
  cl_status s = cl_filter_flat(v, &filtered);
  if (s == CL_OK)
    cl_lb_flat(lb, &filtered);
  cl_flat_release(&filtered);
  return s;
}

typedef cl_status (*mode_op)(cl_lbuilder *, cl_lview);

/* CuTe's transform_layout(L, profile, f) for coalesce(L, profile) and
 * filter(L, profile): f by mode down to the leaves of the profile, where it
 * is applied to the whole sub-layout; modes past the profile's rank are kept. */
static cl_status by_profile(cl_lbuilder *lb, cl_lview v, const cl_node *profile, mode_op f, const char *op) {
  if (!cl_is_tuple(profile))
    return f(lb, v);
  int64_t rank = cl_view_rank(v);
  if (profile->rank > rank)
    return cl_fail(CL_E_RANK, "%s: the profile has rank %d but the layout only %lld", op, profile->rank, (long long)rank);
  if (rank == 0)
    return no_modes(op);
  cl_lb_mark at = cl_lb_open(lb);
  int64_t i = 0;
  CL_FOR_EACH_CHILD(p, profile) CL_TRY(by_profile(lb, cl_view_mode(v, i++), p, f, op));
  for (; i < rank; i++)
    cl_lb_view(lb, cl_view_mode(v, i));
  cl_lb_close(lb, at);
  return CL_OK;
}

/* ============================================================= composition */

/* CuTe's "Stride Divisibility Condition": stride % shape == 0 or stride < shape. */
static cl_status stride_condition(int64_t stride, int64_t rest_stride, int64_t shape, int64_t mode) {
  char rest[64] = "";
  if (rest_stride != stride)
    snprintf(rest, sizeof rest, " (%lld past the earlier modes)", (long long)rest_stride);
  return cl_fail(CL_E_DIVISIBILITY,
                 "composition: stride divisibility condition: shape %lld of mode %lld of the (coalesced) left-hand "
                 "layout neither divides stride %lld%s of the right-hand layout nor exceeds it",
                 (long long)shape, (long long)mode, (long long)stride, rest);
}

/* CuTe's "Shape Divisibility Condition": the shape left must be a multiple
 * of what the left-hand mode takes of it. */
static cl_status shape_condition(int64_t shape, int64_t rest_shape, int64_t taken, int64_t mode) {
  char rest[64] = "";
  if (rest_shape != shape)
    snprintf(rest, sizeof rest, " (%lld past the earlier modes)", (long long)rest_shape);
  return cl_fail(CL_E_DIVISIBILITY,
                 "composition: shape divisibility condition: shape %lld%s of the right-hand layout is not a "
                 "multiple of %lld, what mode %lld of the (coalesced) left-hand layout holds of it",
                 (long long)shape, rest, (long long)taken, (long long)mode);
}

/* composition_impl for one integral mode s:d of the right-hand side against
 * the coalesced left-hand side (CuTe's flat_lhs):
 *  - d == 0: s:0, whatever the left-hand side;
 *  - an integral left-hand side a:b gives s:(d*b);
 *  - else the right-hand mode walks the left-hand modes but the last, each
 *    time dividing the remaining stride out of the mode's shape and taking
 *    what is left of the remaining shape from there:
 *        next_shape  = ceil_div(shape_i, |rest_stride|)
 *        next_stride = ceil_div(|rest_stride|, shape_i) * sign(rest_stride)
 *    and the last mode takes whatever shape remains.  CuTe's two divisibility
 *    conditions are checked where it checks them. */
static cl_status compose_mode(cl_lbuilder *lb, const cl_flat *lhs, int64_t s, int64_t d) {
  if (d == 0) {
    cl_lb_leaf(lb, s, 0);
    return CL_OK;
  }
  int64_t last = lhs->n - 1, stride;
  if (last == 0) {
    CL_TRY(cl_mul(d, lhs->m[0].stride, &stride));
    cl_lb_mode(lb, (cl_mode){s, stride, lhs->m[0].basis});
    return CL_OK;
  }
  cl_flat result;
  cl_flat_init(&result);
  int64_t rest_shape = s, rest_stride = d;
  cl_status st = CL_OK;
  for (int64_t i = 0; i < last && st == CL_OK; i++) {
    int64_t curr_shape = lhs->m[i].shape, curr_stride = lhs->m[i].stride;
    int64_t remainder, abs_stride = 0, next_shape, next_stride, new_shape;
    if ((st = cl_al_mod(rest_stride, curr_shape, &remainder)) != CL_OK)
      break;
    if (remainder != 0 && !(rest_stride < curr_shape)) {
      st = stride_condition(d, rest_stride, curr_shape, i);
      break;
    }
    if ((st = abs_of(rest_stride, &abs_stride)) != CL_OK || (st = ceil_div(curr_shape, abs_stride, &next_shape)) != CL_OK ||
        (st = ceil_div(abs_stride, curr_shape, &next_stride)) != CL_OK)
      break;
    next_stride *= signum(rest_stride);
    if (next_shape == 1 || rest_shape == 1) {
      rest_stride = next_stride;
      continue;
    }
    new_shape = next_shape < rest_shape ? next_shape : rest_shape;
    if ((st = cl_al_mod(rest_shape, new_shape, &remainder)) != CL_OK)
      break;
    if (remainder != 0) {
      st = shape_condition(s, rest_shape, new_shape, i);
      break;
    }
    if ((st = cl_mul(rest_stride, curr_stride, &stride)) != CL_OK)
      break;
    cl_flat_push_mode(&result, (cl_mode){new_shape, stride, lhs->m[i].basis});
    rest_shape /= new_shape;
    rest_stride = next_stride;
  }
  if (st == CL_OK)
    st = cl_mul(rest_stride, lhs->m[last].stride, &stride);
  if (st == CL_OK) {
    cl_mode rest = {rest_shape, stride, lhs->m[last].basis};
    if (result.n == 0)
      cl_lb_mode(lb, rest);
    else {
      if (rest_shape != 1)
        cl_flat_push_mode(&result, rest);
      st = result.status;
      if (st == CL_OK)
        cl_lb_flat(lb, &result); /* unwrap: a single mode is a leaf */
    }
  }
  cl_flat_release(&result);
  return st;
}

/* Right-distributivity: a tuple right-hand side composes mode by mode. */
static cl_status compose_tree(cl_lbuilder *lb, const cl_flat *lhs, const cl_node *s, const cl_node *d) {
  if (!cl_is_tuple(s))
    return compose_mode(lb, lhs, s->value, d->value);
  if (s->rank == 0)
    return no_modes("composition (right-hand side)");
  cl_lb_mark at = cl_lb_open(lb);
  const cl_node *dc = cl_first(d);
  CL_FOR_EACH_CHILD(sc, s) {
    CL_TRY(compose_tree(lb, lhs, sc, dc));
    dc = cl_next(dc);
  }
  cl_lb_close(lb, at);
  return CL_OK;
}

/* ---- right-hand sides whose strides hold scaled bases ----
 * CuTe first coalesces the left-hand side by the coprofile of the right-hand
 * side (the shape of its values): coalesce_x(lhs, coprofile(rhs)), mode by
 * mode down to the profile's leaves.  A right-hand stride k@i@j... then
 * composes k with the mode get<...,j,i> of that (basis_get), and a stride
 * 0@... gives stride 0 (it never reaches the left-hand side). */

/* detail::coalesce_x of a (sub-)layout, appended as one mode. */
static cl_status coalesce_x_into(cl_lbuilder *lb, cl_lview v) {
  cl_flat flat, merged;
  cl_flat_init(&flat);
  cl_flat_init(&merged);
  cl_flat_of_view(&flat, v);
  cl_status s = cl_coalesce_flat(&flat, true, &merged);
  if (s == CL_OK)
    cl_lb_flat(lb, &merged);
  cl_flat_release(&flat);
  cl_flat_release(&merged);
  return s;
}

/* composition_impl of one right-hand mode s:d with an integer d against a
 * left-hand side that coalesce_x left flat (an integral layout or a tuple of
 * leaves). */
static cl_status compose_with_flat(cl_lbuilder *lb, cl_lview lhs, int64_t s, int64_t d) {
  if (d == 0) {
    cl_lb_leaf(lb, s, 0);
    return CL_OK;
  }
  if (cl_is_tuple(lhs.shape) && lhs.shape->depth > 1)
    return cl_fail(CL_E_UNSUPPORTED, "composition: an integer stride %lld against a left-hand mode that is not flat "
                                     "(CuTe composes it with nested modes)",
                   (long long)d);
  if (cl_is_tuple(lhs.shape) && lhs.shape->rank == 0)
    return no_modes("composition");
  cl_flat flat;
  cl_flat_init(&flat);
  cl_flat_of_view(&flat, lhs);
  cl_status st = flat.status == CL_OK ? compose_mode(lb, &flat, s, d) : flat.status;
  cl_flat_release(&flat);
  return st;
}

static cl_status compose_by_basis(cl_lbuilder *lb, cl_lview lhs, const cl_node *s, const cl_node *d) {
  if (cl_is_tuple(s)) {
    if (s->rank == 0)
      return no_modes("composition (right-hand side)");
    cl_lb_mark at = cl_lb_open(lb);
    const cl_node *dc = cl_first(d);
    CL_FOR_EACH_CHILD(sc, s) {
      CL_TRY(compose_by_basis(lb, lhs, sc, dc));
      dc = cl_next(dc);
    }
    cl_lb_close(lb, at);
    return CL_OK;
  }
  if (!cl_is_basis(d))
    return compose_with_flat(lb, lhs, s->value, d->value);
  /* basis_get: the left-hand mode at the basis's path (get<0> of an
   * integral layout is itself). */
  cl_lview mode = lhs;
  for (int32_t k = 1; k <= d->rank; k++) {
    int64_t i = d[k].value, rank = cl_view_rank(mode);
    if (i >= rank || (!cl_is_tuple(mode.shape) && i != 0))
      return cl_fail(CL_E_RANK, "composition: the right-hand stride's basis reaches mode %lld of a left-hand mode of rank %lld",
                     (long long)i, (long long)rank);
    mode = cl_view_mode(mode, i);
  }
  return compose_with_flat(lb, mode, s->value, d->value);
}

/* composition(lhs, rhs) for a right-hand side with scaled-basis strides. */
static cl_status compose_coordinates(cl_lbuilder *lb, cl_lview lhs, cl_lview rhs) {
  cl_builder profile;
  cl_lbuilder flat_lhs;
  cl_b_init(&profile);
  cl_lb_init(&flat_lhs);
  cl_b_coprofile(&profile, rhs.stride);
  cl_status s = profile.status;
  if (s == CL_OK)
    s = by_profile(&flat_lhs, lhs, profile.nodes, coalesce_x_into, "composition (left-hand side by the right's coprofile)");
  if (s == CL_OK)
    s = cl_lb_status(&flat_lhs);
  if (s == CL_OK)
    s = compose_by_basis(lb, cl_view_of_builder(&flat_lhs), rhs.shape, rhs.stride);
  cl_b_release(&profile);
  cl_lb_release(&flat_lhs);
  return s;
}

cl_status cl_composition_flat_into(cl_lbuilder *lb, const cl_flat *lhs, cl_lview rhs) {
  if (lhs->status != CL_OK)
    return lhs->status;
  if (cl_tree_has_basis(rhs.stride)) {
    /* The left-hand side as the layout it is: integral or flat. */
    cl_lbuilder layout;
    cl_lb_init(&layout);
    cl_lb_flat(&layout, lhs);
    cl_status s = cl_lb_status(&layout);
    if (s == CL_OK)
      s = compose_coordinates(lb, cl_view_of_builder(&layout), rhs);
    cl_lb_release(&layout);
    return s;
  }
  cl_flat flat_lhs;
  cl_flat_init(&flat_lhs);
  cl_status s = cl_coalesce_flat(lhs, true, &flat_lhs);
  if (s == CL_OK)
    s = compose_tree(lb, &flat_lhs, rhs.shape, rhs.stride);
  cl_flat_release(&flat_lhs);
  return s;
}

/* composition(A, B) = composition_impl(coalesce_x(A, coprofile(B)), B). */
cl_status cl_composition_into(cl_lbuilder *lb, cl_lview lhs, cl_lview rhs) {
  if (cl_tree_has_basis(rhs.stride))
    return compose_coordinates(lb, lhs, rhs);
  cl_flat flat;
  cl_flat_init(&flat);
  cl_flat_of_view(&flat, lhs);
  cl_status s = cl_composition_flat_into(lb, &flat, rhs);
  cl_flat_release(&flat);
  return s;
}

cl_status cl_composition_tiler_into(cl_lbuilder *lb, cl_lview lhs, const cl_node *tiler) {
  switch (tiler->kind) {
  case CL_KIND_UNDERSCORE:
    cl_lb_view(lb, lhs);
    return CL_OK;
  case CL_KIND_LAYOUT:
    return cl_composition_into(lb, lhs, cl_view_of_node(tiler));
  case CL_KIND_INT: {
    /* An integer n composes as n:1 (not make_layout(n), which is 1:0 for n = 1). */
    cl_int_node n = cl_int_leaf(tiler->value), one = cl_int_leaf(1);
    return cl_composition_into(lb, lhs, (cl_lview){&n.node, &one.node});
  }
  default:
    break;
  }
  int64_t rank = cl_view_rank(lhs);
  if (tiler->rank > rank)
    return cl_fail(CL_E_RANK, "composition: the tiler has %d modes but the layout only %lld", tiler->rank, (long long)rank);
  if (tiler->rank == 0)
    return no_modes("composition (tiler)");
  cl_lb_mark at = cl_lb_open(lb);
  int64_t i = 0;
  CL_FOR_EACH_CHILD(t, tiler) CL_TRY(cl_composition_tiler_into(lb, cl_view_mode(lhs, i++), t));
  cl_lb_close(lb, at);
  return CL_OK;
}

/* ============================================================== complement */

cl_status cl_view_cosize(cl_lview v, int64_t *out) {
  if (cl_tree_has_basis(v.stride)) { /* size(coshape(L)) */
    cl_builder coshape;
    cl_b_init(&coshape);
    cl_b_coordinate_coshape(&coshape, v.shape, v.stride);
    cl_status s = coshape.status == CL_OK ? cl_tree_product(coshape.nodes, out) : coshape.status;
    cl_b_release(&coshape);
    return s;
  }
  cl_flat flat;
  cl_flat_init(&flat);
  cl_flat_of_view(&flat, v);
  cl_status s = flat.status == CL_OK ? cl_flat_cosize(&flat, out) : flat.status;
  cl_flat_release(&flat);
  return s;
}

cl_status cl_flat_cosize(const cl_flat *f, int64_t *out) {
  int64_t sum = 0;
  for (int64_t i = 0; i < f->n; i++) {
    int64_t extent, abs_stride = 0, term;
    CL_TRY(cl_sub(f->m[i].shape, 1, &extent));
    CL_TRY(abs_of(f->m[i].stride, &abs_stride));
    CL_TRY(cl_mul(extent, abs_stride, &term));
    CL_TRY(cl_add(sum, term, &sum));
  }
  return cl_add(sum, 1, out);
}

/* coalesce(ceil_div(cotarget, d)) for an integer or an int tuple cotarget:
 * CuTe's ceil_div folds d across the modes (each mode a_i becomes
 * ceil_div(a_i, rest) and rest becomes ceil_div(rest, size(a_i))), and the
 * coalesce of a static shape is its product. */
static cl_status ceil_div_fold(const cl_node *cotarget, int64_t d, int64_t *size) {
  if (cl_is_int(cotarget))
    return ceil_div(cotarget->value, d, size);
  if (!cl_is_tuple(cotarget))
    return cl_fail(CL_E_TYPE, "complement: the cotarget must be an integer or an int tuple");
  int64_t product = 1, rest = d;
  CL_FOR_EACH_CHILD(a, cotarget) {
    int64_t part, a_size;
    CL_TRY(ceil_div_fold(a, rest, &part));
    CL_TRY(cl_mul(product, part, &product));
    CL_TRY(cl_tree_product(a, &a_size));
    CL_TRY(ceil_div(rest, a_size, &rest));
  }
  *size = product;
  return CL_OK;
}

/* ---- modes in order of stride ----
 * complement takes the modes by repeatedly removing the first mode of least
 * stride (cute::min, then cute::find): a stable sort.  The inverses use
 * CuTe's SortByKey, an exchange sort, whose order of equal strides differs;
 * it is followed exactly up to a rank CuTe could compile, and by the stable
 * order past it, so that huge layouts cost n log n, not n^2. */
#define CL_EXCHANGE_SORT_MAX 256

typedef struct stride_order {
  int64_t *at; /* at[k]: the index of the k-th mode */
  int64_t inline_at[CL_FLAT_INLINE];
} stride_order;

static void order_release(stride_order *o) {
  if (o->at != o->inline_at)
    cl_dealloc(o->at);
  o->at = o->inline_at;
}

static void exchange_sort(const cl_flat *f, int64_t *at) {
  for (int64_t i = 0; i < f->n; i++)
    for (int64_t j = i + 1; j < f->n; j++)
      if (f->m[at[j]].stride < f->m[at[i]].stride) {
        int64_t t = at[i];
        at[i] = at[j];
        at[j] = t;
      }
}

/* Bottom-up merge sort of the indices by stride: stable. */
static cl_status stable_sort(const cl_flat *f, int64_t *at) {
  int64_t n = f->n;
  int64_t *tmp = cl_alloc((size_t)n * sizeof *tmp);
  if (tmp == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  int64_t *from = at, *to = tmp;
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        to[k++] = f->m[from[j]].stride < f->m[from[i]].stride ? from[j++] : from[i++];
      while (i < mid)
        to[k++] = from[i++];
      while (j < hi)
        to[k++] = from[j++];
    }
    int64_t *t = from;
    from = to;
    to = t;
  }
  if (from != at)
    memcpy(at, from, (size_t)n * sizeof *at);
  cl_dealloc(tmp);
  return CL_OK;
}

static cl_status order_by_stride(const cl_flat *f, bool cute_exchange, stride_order *o) {
  o->at = o->inline_at;
  if (f->n > CL_FLAT_INLINE && (o->at = cl_alloc((size_t)f->n * sizeof *o->at)) == NULL) {
    o->at = o->inline_at;
    return cl_fail(CL_E_NOMEM, "out of memory");
  }
  for (int64_t i = 0; i < f->n; i++)
    o->at[i] = i;
  if (cute_exchange && f->n <= CL_EXCHANGE_SORT_MAX) {
    exchange_sort(f, o->at);
    return CL_OK;
  }
  return f->n > 1 ? stable_sort(f, o->at) : CL_OK;
}

static cl_status non_injective(int64_t stride, int64_t covered) {
  return cl_fail(CL_E_NOT_INJECTIVE,
                 "complement: non-injective layout: stride %lld is smaller than %lld, the extent its smaller "
                 "strides already cover (CuTe: new shape %lld / %lld == 0)",
                 (long long)stride, (long long)covered, (long long)stride, (long long)covered);
}

/* detail::complement on a filtered layout (flat, no size-1 or stride-0
 * modes).  Taking the modes by increasing stride, each gap between what the
 * modes so far cover and the next stride becomes a mode of the result:
 *     new_shape  = min_stride / covered        (0 means not injective)
 *     covered'   = min_stride * its shape
 * and the rest, ceil_div(cotarget, covered), repeats everything.  The
 * result is coalesced.  The filtered 1:0 has the compact complement of the
 * cotarget. */
/* CuTe orders the strides (cute::min) and divides by them: a scaled basis
 * has neither (no operator< or operator/), so it does not compile. */
static cl_status unordered_basis(const char *op, const cl_flat *f) {
  for (int64_t i = 0; i < f->n; i++)
    if (f->m[i].basis != NULL) {
      const cl_node *e = f->m[i].basis;
      char path[64] = "";
      size_t len = 0;
      for (int32_t k = e->rank; k >= 1 && len < sizeof path - 24; k--)
        len += (size_t)snprintf(path + len, sizeof path - len, "@%lld", (long long)e[k].value);
      return cl_fail(CL_E_TYPE, "%s: the stride %lld%s of the (coalesced) layout is a scaled basis, which CuTe can neither "
                                "order nor divide by: %s needs integer strides",
                     op, (long long)f->m[i].stride, path, op);
    }
  return CL_OK;
}

cl_status cl_complement_flat(const cl_flat *filtered, const cl_node *cotarget, cl_flat *out) {
  out->n = 0;
  CL_TRY(unordered_basis("complement", filtered));
  /* The complement's strides are positive and increasing (CuTe's docs): a
   * negative stride has no place in that order, and CuTe's fold over one
   * makes negative extents, which mean nothing. */
  for (int64_t k = 0; k < filtered->n; k++)
    if (filtered->m[k].stride < 0)
      return cl_fail(CL_E_DOMAIN, "complement: the layout has the negative stride %lld; complement needs strides >= 0",
                     (long long)filtered->m[k].stride);
  /* coalesce() of a shape with no integers in it does not compile. */
  if (cl_tree_leaf_count(cotarget) == 0)
    return cl_fail(CL_E_DOMAIN, "complement: the cotarget has no integers (an empty tuple)");
  if (filtered->n == 1 && filtered->m[0].stride == 0) {
    int64_t size;
    CL_TRY(cl_tree_product(cotarget, &size)); /* coalesce(cotarget) */
    cl_flat_push(out, size, size == 1 ? 0 : 1);
    return out->status;
  }
  stride_order order;
  cl_flat result;
  cl_flat_init(&result);
  cl_status s = order_by_stride(filtered, false, &order);
  int64_t covered = 1; /* the stride of the next result mode */
  for (int64_t k = 0; s == CL_OK && k < filtered->n; k++) {
    cl_mode next = filtered->m[order.at[k]];
    int64_t new_shape;
    if ((s = cl_al_div(next.stride, covered, &new_shape)) != CL_OK)
      break;
    if (new_shape == 0) {
      s = non_injective(next.stride, covered);
      break;
    }
    cl_flat_push(&result, new_shape, covered);
    s = cl_mul(next.stride, next.shape, &covered);
  }
  int64_t rest_shape;
  if (s == CL_OK && (s = ceil_div_fold(cotarget, covered, &rest_shape)) == CL_OK) {
    cl_flat_push(&result, rest_shape, rest_shape == 1 ? 0 : covered); /* compact_major: extent 1 has stride 0 */
    s = cl_coalesce_flat(&result, false, out);
  }
  order_release(&order);
  cl_flat_release(&result);
  return s;
}

/* ---- complement of a small integer layout ----
 * The steps of cl_complement_flat on a layout of a few integer-strided
 * leaves and an integer cotarget, on arrays on the stack: filter, the modes
 * by increasing stride, the gaps, the rest, coalesce, without the flat
 * lists, the sort's index array and the checks of every step.  Wherever a
 * step could fail (a basis, a negative stride or cotarget, an overflow, a
 * zero divisor, a non-injective layout) it gives up and the general path
 * computes the answer, or names the failure; so both give the same answers,
 * which the unit tests check exhaustively on small layouts. */
enum { SMALL_MODES = 8 };
_Static_assert(SMALL_MODES + 1 <= CL_FLAT_INLINE, "the fast path writes its result into a flat list's inline modes");

/* (Not zero-initialised where used: only the first n are read, and
 * clearing the arrays would cost as much as the rest.) */
typedef struct small_modes {
  int64_t n;
  cl_mode m[SMALL_MODES + 1];
} small_modes;

/* Appends s:d to the n coalesced modes m, coalescing as cl_coalesce_flat
 * does: a size-1 mode vanishes, and a mode that continues the last one
 * (last's shape * stride == d) merges into it.  Whether two neighbours merge
 * depends on them alone, so merging from the front, as here, makes the same
 * modes as CuTe's walk from the back; only the products are formed in
 * another order, and any overflow is left to the general path (false). */
static bool small_append(cl_mode *m, int64_t *n, int64_t shape, int64_t stride) {
  if (shape == 1)
    return true;
  if (*n > 0) {
    cl_mode *last = &m[*n - 1];
    int64_t reach;
    if (__builtin_mul_overflow(last->shape, last->stride, &reach))
      return false;
    if (reach == stride)
      return !__builtin_mul_overflow(last->shape, shape, &last->shape);
  }
  m[(*n)++] = (cl_mode){shape, stride, NULL};
  return true;
}

/* The coalesced modes once all are appended: none left is 1:0. */
static void small_close(cl_mode *m, int64_t *n) {
  if (*n == 0)
    m[(*n)++] = (cl_mode){1, 0, NULL};
}

/* filter(L) = coalesce(filter_zeros(L)) of a view whose leaves are at most
 * SMALL_MODES integers; false for any other view. */
static bool small_filter(cl_lview v, small_modes *out) {
  const cl_node *s = v.shape, *d = v.stride, *end = v.shape + v.shape->span;
  int64_t leaves = 0;
  out->n = 0;
  for (; s < end; s++, d++) {
    if (cl_is_tuple(s))
      continue;
    if (!cl_is_int(s) || !cl_is_int(d) || leaves++ == SMALL_MODES ||
        !small_append(out->m, &out->n, d->value == 0 ? 1 : s->value, d->value))
      return false;
  }
  if (leaves == 0)
    return false;
  small_close(out->m, &out->n);
  return true;
}

/* The modes' indices by increasing stride, equal strides in their order
 * (insertion sort: stable, as the general path's merge sort). */
static void small_order(const small_modes *f, int64_t *at) {
  for (int64_t i = 0; i < f->n; i++) {
    int64_t j = i;
    for (; j > 0 && f->m[i].stride < f->m[at[j - 1]].stride; j--)
      at[j] = at[j - 1];
    at[j] = i;
  }
}

/* complement(L, cotarget) into out (empty, with room inline for every mode
 * made here), as cl_complement_flat computes it: true when done, false (out
 * left empty) for the general path. */
static bool complement_small(cl_lview v, int64_t cotarget, cl_flat *out) {
  small_modes filtered;
  if (out->n != 0 || out->cap < SMALL_MODES + 1 || cotarget < 0 || !small_filter(v, &filtered))
    return false;
  /* positive extents (a tiler's integer leaf n, taken as the layout n:1, may
   * be negative until the result's check refuses it) and strides >= 0 */
  for (int64_t k = 0; k < filtered.n; k++)
    if (filtered.m[k].shape < 1 || filtered.m[k].stride < 0)
      return false;
  if (filtered.n == 1 && filtered.m[0].stride == 0) { /* nothing left of L: the compact cotarget */
    cl_flat_push(out, cotarget, cotarget == 1 ? 0 : 1);
    return true;
  }
  int64_t at[SMALL_MODES], covered = 1, rest_shape;
  small_order(&filtered, at);
  bool done = true;
  for (int64_t k = 0; done && k < filtered.n; k++) { /* each gap below the next stride, coalesced as it comes */
    cl_mode next = filtered.m[at[k]];
    done = next.stride / covered != 0 && small_append(out->m, &out->n, next.stride / covered, covered) &&
           !__builtin_mul_overflow(next.stride, next.shape, &covered);
  }
  done = done && !__builtin_add_overflow(cotarget, covered - 1, &rest_shape);
  if (done) {
    rest_shape /= covered; /* ceil_div(cotarget, covered) */
    done = small_append(out->m, &out->n, rest_shape, rest_shape == 1 ? 0 : covered);
  }
  if (done)
    small_close(out->m, &out->n);
  else
    out->n = 0;
  return done;
}

cl_status cl_complement_view(cl_lview v, const cl_node *cotarget, cl_flat *out) {
  if (cl_is_int(cotarget) && complement_small(v, cotarget->value, out))
    return out->status;
  cl_flat filtered;
  cl_flat_init(&filtered);
  cl_status s = cl_filter_flat(v, &filtered);
  if (s == CL_OK)
    s = cl_complement_flat(&filtered, cotarget, out);
  cl_flat_release(&filtered);
  return s;
}

/* =============================================================== inverses */

/* The coalesced layout, its exclusive prefix products (one more than its
 * modes), and its modes' order by stride as CuTe's SortByKey has it (an
 * exchange sort, not stable). */
typedef struct sorted_layout {
  cl_flat modes, prefix; /* prefix.m[i].shape is the prefix product before mode i */
  stride_order by_stride;
} sorted_layout;

static void sorted_release(sorted_layout *sl) {
  cl_flat_release(&sl->modes);
  cl_flat_release(&sl->prefix);
  order_release(&sl->by_stride);
}

static cl_status sort_by_stride(cl_lview v, sorted_layout *sl, const char *op) {
  cl_flat flat;
  cl_flat_init(&flat);
  cl_flat_init(&sl->modes);
  cl_flat_init(&sl->prefix);
  sl->by_stride.at = sl->by_stride.inline_at;
  cl_flat_of_view(&flat, v);
  cl_status s = cl_coalesce_flat(&flat, false, &sl->modes);
  cl_flat_release(&flat);
  CL_TRY(s);
  CL_TRY(unordered_basis(op, &sl->modes));
  int64_t product = 1;
  for (int64_t i = 0; i <= sl->modes.n; i++) {
    cl_flat_push(&sl->prefix, product, 0);
    if (i < sl->modes.n)
      CL_TRY(cl_mul(product, sl->modes.m[i].shape, &product));
  }
  CL_TRY(sl->prefix.status);
  return order_by_stride(&sl->modes, true, &sl->by_stride);
}

/* right_inverse(L): following the strides from 1, each coalesced mode whose
 * stride is the extent covered so far contributes its shape, at the stride
 * of its position in L's domain (its prefix product).  The result is
 * coalesced. */
static cl_status right_inverse_flat(cl_lview v, cl_flat *out) {
  sorted_layout sl;
  cl_status s = sort_by_stride(v, &sl, "right_inverse");
  cl_flat result;
  cl_flat_init(&result);
  cl_flat_push(&result, 1, 0);
  int64_t covered = 1;
  for (int64_t k = 0; s == CL_OK && k < sl.modes.n; k++) {
    int64_t i = sl.by_stride.at[k];
    if (sl.modes.m[i].stride != covered)
      continue;
    cl_flat_push(&result, sl.modes.m[i].shape, sl.prefix.m[i].shape);
    s = cl_mul(sl.modes.m[i].shape, sl.modes.m[i].stride, &covered);
  }
  if (s == CL_OK)
    s = cl_coalesce_flat(&result, false, out);
  cl_flat_release(&result);
  sorted_release(&sl);
  return s;
}

/* left_inverse(L): the coalesced modes by increasing stride (stride-0 modes
 * skipped); each stride must be a multiple of the size gathered so far,
 * and contributes stride / size at the stride of its position in L's
 * domain; the mode of largest stride closes with its own shape. */
static cl_status left_inverse_flat(cl_lview v, cl_flat *out) {
  sorted_layout sl;
  cl_status s = sort_by_stride(v, &sl, "left_inverse");
  cl_flat result;
  cl_flat_init(&result);
  int64_t size = 1, prev_prefix = 0; /* result strides lag result shapes by one */
  for (int64_t k = 0; s == CL_OK && k < sl.modes.n; k++) {
    int64_t i = sl.by_stride.at[k], stride = sl.modes.m[i].stride, remainder, shape;
    if (stride < 0) {
      /* CuTe's left_inverse is right_inverse(make_layout(L, complement(L))). */
      s = cl_fail(CL_E_DOMAIN, "left_inverse: the layout has the negative stride %lld; its complement needs strides >= 0",
                  (long long)stride);
      break;
    }
    if (stride == 0)
      continue;
    if ((s = cl_al_mod(stride, size, &remainder)) != CL_OK)
      break;
    if (remainder != 0) {
      s = cl_fail(CL_E_DIVISIBILITY, "left_inverse: divisibility condition: stride %lld is not a multiple of %lld, "
                  "the size of the inverse so far", (long long)stride, (long long)size);
      break;
    }
    shape = stride / size;
    cl_flat_push(&result, shape, prev_prefix);
    prev_prefix = sl.prefix.m[i].shape;
    if ((s = cl_mul(size, shape, &size)) != CL_OK)
      break;
  }
  if (s == CL_OK) {
    /* The closing mode makes the inverse's size size * shape, the extent
     * shape * stride of L's largest mode (CuTe's complement forms it as the
     * last rest stride): it must fit, or the result has no size. */
    int64_t last_shape = sl.modes.m[sl.by_stride.at[sl.modes.n - 1]].shape, total;
    s = cl_mul(size, last_shape, &total);
    cl_flat_push(&result, last_shape, prev_prefix);
  }
  if (s == CL_OK)
    s = cl_coalesce_flat(&result, false, out);
  cl_flat_release(&result);
  sorted_release(&sl);
  return s;
}

/* ================================================================== public */

typedef cl_status (*flat_op)(cl_lview, cl_flat *);

/* The public shape of a unary operation computed as flat modes. */
static cl_status flat_public(const cl_layout_t *layout, cl_layout_t **out, flat_op f) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_flat result;
  cl_flat_init(&result);
  return flat_result(f(cl_view_of(layout), &result), &result, out);
}

static cl_status coalesce_flat_view(cl_lview v, cl_flat *out) {
  cl_flat flat;
  cl_flat_init(&flat);
  cl_flat_of_view(&flat, v);
  cl_status s = cl_coalesce_flat(&flat, false, out);
  cl_flat_release(&flat);
  return s;
}

cl_status cl_coalesce(const cl_layout_t *layout, cl_layout_t **out) { return flat_public(layout, out, coalesce_flat_view); }
cl_status cl_filter(const cl_layout_t *layout, cl_layout_t **out) { return flat_public(layout, out, cl_filter_flat); }
cl_status cl_right_inverse(const cl_layout_t *layout, cl_layout_t **out) { return flat_public(layout, out, right_inverse_flat); }
cl_status cl_left_inverse(const cl_layout_t *layout, cl_layout_t **out) { return flat_public(layout, out, left_inverse_flat); }

static cl_status profile_public(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out, mode_op f,
                                const char *op) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  CHECK_NULL(profile);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = by_profile(&lb, cl_view_of(layout), cl_troot(profile), f, op);
  return cl_lb_result(&lb, s, out);
}

cl_status cl_coalesce_profile(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out) {
  return profile_public(layout, profile, out, coalesce_into, "coalesce");
}

cl_status cl_filter_profile(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out) {
  return profile_public(layout, profile, out, filter_into, "filter");
}

static void filter_zeros_tree(cl_builder *b, const cl_node *shape, const cl_node *stride) {
  if (!cl_is_tuple(shape)) {
    cl_b_int(b, cl_is_int(stride) && stride->value == 0 ? 1 : shape->value);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  const cl_node *d = cl_first(stride);
  CL_FOR_EACH_CHILD(s, shape) {
    filter_zeros_tree(b, s, d);
    d = cl_next(d);
  }
  cl_b_close(b, at);
}

cl_status cl_filter_zeros(const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_lview v = cl_view_of(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  filter_zeros_tree(&lb.shape, v.shape, v.stride);
  cl_b_copy(&lb.stride, v.stride);
  return cl_lb_result(&lb, CL_OK, out);
}

cl_status cl_composition(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(b);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = cl_composition_into(&lb, cl_view_of(a), cl_view_of(b));
  return cl_lb_result(&lb, s, out);
}

cl_status cl_composition_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(tiler);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = cl_composition_tiler_into(&lb, cl_view_of(a), cl_troot(tiler));
  return cl_lb_result(&lb, s, out);
}

static cl_status complement_public(const cl_layout_t *layout, const cl_node *cotarget, cl_layout_t **out) {
  CL_TRY(cl_require_shape(cotarget, "complement's cotarget"));
  cl_flat result;
  cl_flat_init(&result);
  return flat_result(cl_complement_view(cl_view_of(layout), cotarget, &result), &result, out);
}

cl_status cl_complement(const cl_layout_t *layout, int64_t cotarget, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_int_node m = cl_int_leaf(cotarget);
  return complement_public(layout, &m.node, out);
}

cl_status cl_complement_shape(const cl_layout_t *layout, const cl_tuple_t *cotarget, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  CHECK_NULL(cotarget);
  return complement_public(layout, cl_troot(cotarget), out);
}

/* complement(L) = complement(L, cosize(filter(L))). */
cl_status cl_complement_full(const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_flat filtered, result;
  cl_flat_init(&filtered);
  cl_flat_init(&result);
  int64_t cosize = 0;
  cl_status s = cl_filter_flat(cl_view_of(layout), &filtered);
  if (s == CL_OK)
    s = unordered_basis("complement", &filtered);
  if (s == CL_OK)
    s = cl_flat_cosize(&filtered, &cosize);
  if (s == CL_OK) {
    cl_int_node m = cl_int_leaf(cosize);
    s = cl_complement_flat(&filtered, &m.node, &result);
  }
  cl_flat_release(&filtered);
  return flat_result(s, &result, out);
}

/* ============================================================== utilities */

/* common = coalesce(composition(a, right_inverse(b))), and inv_b. */
static cl_status common_layout(const cl_layout_t *a, const cl_layout_t *b, cl_flat *inv_b, cl_flat *common) {
  CL_TRY(right_inverse_flat(cl_view_of(b), inv_b));
  cl_lbuilder inv, composed;
  cl_lb_init(&inv);
  cl_lb_init(&composed);
  cl_lb_flat(&inv, inv_b);
  cl_status s = cl_lb_status(&inv);
  if (s == CL_OK)
    s = cl_composition_into(&composed, cl_view_of(a), cl_view_of_builder(&inv));
  if (s == CL_OK)
    s = cl_lb_status(&composed);
  if (s == CL_OK)
    s = coalesce_flat_view(cl_view_of_builder(&composed), common);
  cl_lb_release(&inv);
  cl_lb_release(&composed);
  return s;
}

cl_status cl_max_common_vector(const cl_layout_t *a, const cl_layout_t *b, int64_t *out) {
  CHECK_NULL(out);
  *out = 0;
  CHECK_NULL(a);
  CHECK_NULL(b);
  cl_flat inv_b, common;
  cl_flat_init(&inv_b);
  cl_flat_init(&common);
  cl_status s = common_layout(a, b, &inv_b, &common);
  /* Only a stride-1 first mode is a common vector. */
  if (s == CL_OK)
    *out = common.m[0].stride == 1 && common.m[0].basis == NULL ? common.m[0].shape : 1;
  cl_flat_release(&inv_b);
  cl_flat_release(&common);
  return s;
}

cl_status cl_max_common_layout(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(b);
  cl_flat inv_b, common;
  cl_flat_init(&inv_b);
  cl_flat_init(&common);
  cl_status s = common_layout(a, b, &inv_b, &common);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (s == CL_OK && common.m[0].stride == 1 && common.m[0].basis == NULL) {
    /* composition(inv_b, layout<0>(common)), layout<0>(common) = n:1 */
    cl_int_node n = cl_int_leaf(common.m[0].shape), one = cl_int_leaf(1);
    s = cl_composition_flat_into(&lb, &inv_b, (cl_lview){&n.node, &one.node});
  } else if (s == CL_OK) {
    cl_lb_leaf(&lb, 1, 0);
  }
  cl_flat_release(&inv_b);
  cl_flat_release(&common);
  return cl_lb_result(&lb, s, out);
}

/* nullspace(L): the flat modes of stride 0, with the compact column-major
 * strides of L's flat shape (an extent-1 mode has stride 0); 1:0 if none. */
cl_status cl_nullspace(const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_flat flat, kernel;
  cl_flat_init(&flat);
  cl_flat_init(&kernel);
  cl_flat_of_view(&flat, cl_view_of(layout));
  cl_status s = flat.status;
  int64_t current = 1;
  for (int64_t i = 0; s == CL_OK && i < flat.n; i++) {
    int64_t shape = flat.m[i].shape;
    if (cl_mode_stride_zero(&flat.m[i]))
      cl_flat_push(&kernel, shape, shape == 1 ? 0 : current);
    if (shape != 1)
      s = cl_mul(current, shape, &current);
  }
  if (s == CL_OK && kernel.n == 0)
    cl_flat_push(&kernel, 1, 0);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (s == CL_OK && (s = kernel.status) == CL_OK)
    cl_lb_flat(&lb, &kernel);
  cl_flat_release(&flat);
  cl_flat_release(&kernel);
  return cl_lb_result(&lb, s, out);
}

typedef cl_status (*leaf_op)(cl_mode m, int64_t n, cl_mode *out);

/* CuTe's transform_layout over shape and stride down to the leaves: the
 * structure is kept, and an empty tuple is no layout (make_layout()). */
static cl_status map_leaves(cl_lbuilder *lb, const cl_node *shape, const cl_node *stride, leaf_op f, int64_t n,
                            const char *op) {
  if (!cl_is_tuple(shape)) {
    cl_mode m = {shape->value, stride->value, cl_is_basis(stride) ? stride : NULL}, r;
    CL_TRY(f(m, n, &r));
    cl_lb_mode(lb, r);
    return CL_OK;
  }
  if (shape->rank == 0)
    return no_modes(op);
  cl_lb_mark at = cl_lb_open(lb);
  const cl_node *dc = cl_first(stride);
  CL_FOR_EACH_CHILD(sc, shape) {
    CL_TRY(map_leaves(lb, sc, dc, f, n, op));
    dc = cl_next(dc);
  }
  cl_lb_close(lb, at);
  return CL_OK;
}

/* upcast<N> of s:d: stride 0 stays; else d and N must divide one another,
 * and s:d becomes ceil_div(s, ceil_div(N, |d|)) : sign(d) * ceil_div(|d|, N).
 * A scaled basis is a static stride that is not 0, and CuTe's test reads
 * Stride::value, which a basis has not. */
static cl_status upcast_leaf(cl_mode m, int64_t n, cl_mode *out) {
  *out = m;
  int64_t s = m.shape, d = m.stride, *new_shape = &out->shape, *new_stride = &out->stride;
  if (m.basis != NULL)
    return cl_fail(CL_E_TYPE, "upcast: a stride is a scaled basis, and CuTe's upcast divides integer strides only");
  if (d == 0)
    return CL_OK;
  int64_t d_mod_n, n_mod_d, abs_d = 0, per_element;
  CL_TRY(cl_al_mod(d, n, &d_mod_n));
  CL_TRY(cl_al_mod(n, d, &n_mod_d));
  if (d_mod_n != 0 && n_mod_d != 0)
    return cl_fail(CL_E_DIVISIBILITY, "upcast: divisibility condition: stride %lld and %lld do not divide one another",
                   (long long)d, (long long)n);
  CL_TRY(abs_of(d, &abs_d));
  CL_TRY(ceil_div(n, abs_d, &per_element));
  CL_TRY(ceil_div(s, per_element, new_shape));
  CL_TRY(ceil_div(abs_d, n, new_stride));
  *new_stride *= signum(d);
  return CL_OK;
}

/* downcast<N> of s:d: a unit stride (the integer 1 or -1) multiplies the
 * shape, any other stride (a scaled basis too) is multiplied. */
static cl_status downcast_leaf(cl_mode m, int64_t n, cl_mode *out) {
  *out = m;
  if (m.basis == NULL && (m.stride == 1 || m.stride == -1))
    return cl_mul(m.shape, n, &out->shape);
  return cl_mul(m.stride, n, &out->stride);
}

cl_status cl_upcast(const cl_layout_t *layout, int64_t n, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_lview v = cl_view_of(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = map_leaves(&lb, v.shape, v.stride, upcast_leaf, n, "upcast");
  return cl_lb_result(&lb, s, out);
}

cl_status cl_downcast(const cl_layout_t *layout, int64_t n, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_lview v = cl_view_of(layout);
  bool adjacent = false; /* CuTe's has_int1<Stride>: an integer 1 */
  for (int32_t i = 0; i < v.stride->span; i += cl_is_tuple(&v.stride[i]) ? 1 : v.stride[i].span)
    adjacent |= cl_is_int(&v.stride[i]) && v.stride[i].value == 1;
  if (!adjacent)
    return cl_fail(CL_E_DOMAIN, "downcast: requires adjacent elements (no stride is 1)");
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = map_leaves(&lb, v.shape, v.stride, downcast_leaf, n, "downcast");
  return cl_lb_result(&lb, s, out);
}

/* ================================================ alignment, recast, distribution */

cl_status cl_max_alignment(const cl_layout_t *layout, int64_t *out) {
  CHECK_NULL(out);
  CHECK_NULL(layout);
  /* CuTe: the coalesced layout divided by its own right inverse puts the
   * contiguous run first; gcd(its size, the strides of the rest). */
  cl_layout_t *flat = NULL, *inverse = NULL, *permuted = NULL, *rest = NULL;
  cl_tuple_t *parts[2] = {NULL, NULL}, *pair = NULL;
  int64_t mode0 = 0, run;
  cl_status s = cl_coalesce(layout, &flat);
  if (s == CL_OK)
    s = cl_right_inverse(flat, &inverse);
  if (s == CL_OK)
    s = cl_logical_divide(flat, inverse, &permuted);
  if (s == CL_OK)
    s = cl_layout_get(permuted, &mode0, 1, &rest);
  if (s == CL_OK)
    s = cl_layout_size_checked(rest, &run);
  cl_layout_free(rest);
  rest = NULL;
  int64_t mode1 = 1;
  if (s == CL_OK)
    s = cl_layout_get(permuted, &mode1, 1, &rest);
  if (s == CL_OK)
    s = cl_tuple_int(run, &parts[0]);
  if (s == CL_OK)
    s = cl_layout_stride(rest, &parts[1]);
  if (s == CL_OK)
    s = cl_tuple_make((const cl_tuple_t *const *)parts, 2, &pair);
  if (s == CL_OK)
    s = cl_tuple_gcd(pair, out);
  cl_layout_free(flat);
  cl_layout_free(inverse);
  cl_layout_free(permuted);
  cl_layout_free(rest);
  cl_tuple_free(parts[0]);
  cl_tuple_free(parts[1]);
  cl_tuple_free(pair);
  return s;
}

cl_status cl_recast_ratio(int64_t old_bits, int64_t new_bits, int64_t *up, int64_t *down) {
  if (old_bits <= 0 || new_bits <= 0)
    return cl_fail(CL_E_DOMAIN, "recast_layout: element sizes must be positive, not %lld and %lld bits", (long long)old_bits,
                   (long long)new_bits);
  /* CuTe's trait_ratio(new, old), reduced: upcast by its numerator, then
   * downcast by its denominator. */
  int64_t g = cl_gcd(old_bits, new_bits);
  *up = new_bits / g;
  *down = old_bits / g;
  return CL_OK;
}

cl_status cl_recast_layout(const cl_layout_t *layout, int64_t old_bits, int64_t new_bits, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  int64_t up = 1, down = 1;
  CL_TRY(cl_recast_ratio(old_bits, new_bits, &up, &down));
  if (up == 1 && down == 1)
    return cl_layout_copy(layout, out);
  if (up == 1)
    return cl_downcast(layout, down, out);
  if (down == 1)
    return cl_upcast(layout, up, out);
  cl_layout_t *widened = NULL;
  CL_TRY(cl_upcast(layout, up, &widened));
  cl_status s = cl_downcast(widened, down, out);
  cl_layout_free(widened);
  return s;
}

cl_status cl_domain_distribute(const cl_tuple_t *shape, const cl_tuple_t *count, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CHECK_NULL(count);
  CL_TRY(cl_require_shape(cl_troot(shape), "domain_distribute: the shape"));
  const cl_node *b = cl_troot(count);
  if (!cl_is_int(b))
    return cl_fail(CL_E_TYPE, "domain_distribute: the count must be an integer (CuTe: static_assert is_integral)");
  /* Take gcd(s, rest) of each leaf s in order, rest /= that gcd; strides
   * are the leaves' compact column-major strides; then coalesce. */
  const cl_node *root = cl_troot(shape);
  int64_t leaves = cl_tree_leaf_count(root);
  const cl_node **leaf = cl_alloc(sizeof *leaf * (size_t)(leaves ? leaves : 1));
  if (leaf == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  cl_tree_leaves(root, leaf);
  cl_flat taken;
  cl_flat_init(&taken);
  cl_status s = CL_OK;
  int64_t rest = b->value, stride = 1;
  for (int64_t k = 0; k < leaves && s == CL_OK; k++) {
    int64_t extent = leaf[k]->value, g;
    cl_tuple_t *pair = NULL;
    int64_t vals[2] = {extent, rest};
    s = cl_tuple_from_ints(vals, 2, &pair);
    if (s == CL_OK)
      s = cl_tuple_gcd(pair, &g);
    cl_tuple_free(pair);
    if (s == CL_OK)
      s = cl_al_div(rest, g, &rest);
    if (s == CL_OK)
      cl_flat_push(&taken, g, extent == 1 ? 0 : stride);
    if (s == CL_OK && extent != 1)
      s = cl_mul(stride, extent, &stride);
  }
  cl_dealloc(leaf);
  if (s == CL_OK)
    s = taken.status;
  cl_flat coalesced;
  cl_flat_init(&coalesced);
  if (s == CL_OK)
    s = cl_coalesce_flat(&taken, false, &coalesced);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (s == CL_OK)
    cl_lb_flat(&lb, &coalesced);
  cl_flat_release(&taken);
  cl_flat_release(&coalesced);
  return cl_lb_result(&lb, s, out);
}

/* ============================================================ evenly_divides */

/* CuTe's evenly_divides(shape, tiler) (int_tuple.hpp): a tuple tiler mode by
 * mode; a leaf n: size(shape) == size(n) * size(ceil_div(shape, n)).  A
 * layout leaf is no tuple to CuTe (is_tuple<Layout> is false): its ceil_div
 * is CuTe's ceil_div(target, Layout) = shape(complement(tiler,
 * shape(target))), the rest mode of logical_divide, so it lives here with
 * the algebra rather than in tuple.c. */
static cl_status evenly_divides_tree(const cl_node *shape, const cl_node *tiler, bool *out) {
  if (cl_is_tuple(tiler)) {
    if (tiler->rank > cl_rank_of(shape)) {
      *out = false;
      return CL_OK;
    }
    /* The first rank(tiler) modes of shape, each evenly divided. */
    *out = true;
    const cl_node *s = cl_is_tuple(shape) ? cl_first(shape) : shape;
    CL_FOR_EACH_CHILD(t, tiler) {
      bool mode;
      CL_TRY(evenly_divides_tree(s, t, &mode));
      *out = *out && mode;
      s = cl_next(s);
    }
    return CL_OK;
  }
  if (tiler->kind == CL_KIND_UNDERSCORE)
    return cl_fail(CL_E_DOMAIN, "evenly_divides: division by zero: '_' in the tiler is CuTe's Int<0>");
  int64_t size, tile_size, rest_size, covered;
  CL_TRY(cl_tree_product(shape, &size));
  if (tiler->kind == CL_KIND_LAYOUT) {
    CL_TRY(cl_tree_product(cl_lshape(tiler), &tile_size));
    cl_flat rest;
    cl_flat_init(&rest);
    cl_status s = cl_complement_view(cl_view_of_node(tiler), shape, &rest);
    rest_size = 1;
    for (int64_t k = 0; s == CL_OK && k < rest.n; k++)
      s = cl_mul(rest_size, rest.m[k].shape, &rest_size);
    cl_flat_release(&rest);
    CL_TRY(s); /* complement's own message: a layout CuTe cannot divide by */
  } else if (tiler->kind != CL_KIND_INT) {
    return cl_fail(CL_E_TYPE, "evenly_divides: the tiler must hold integers, layouts and '_'");
  } else {
    tile_size = tiler->value;
    cl_builder rest;
    cl_b_init(&rest);
    cl_b_ceil_div(&rest, shape, tiler);
    cl_status s = rest.status;
    if (s == CL_OK)
      s = cl_tree_product(rest.nodes, &rest_size);
    cl_b_release(&rest);
    CL_TRY(s);
  }
  CL_TRY(cl_mul(tile_size, rest_size, &covered));
  *out = size == covered;
  return CL_OK;
}

cl_status cl_evenly_divides(const cl_tuple_t *shape, const cl_tuple_t *tiler, int *out) {
  CHECK_NULL(shape);
  CHECK_NULL(tiler);
  CHECK_NULL(out);
  CL_TRY(cl_require_shape(cl_troot(shape), "evenly_divides: the shape"));
  bool even;
  CL_TRY(evenly_divides_tree(cl_troot(shape), cl_troot(tiler), &even));
  *out = even;
  return CL_OK;
}
