/* SPDX-License-Identifier: BSD-3-Clause */
/* algebra_domain.c: the parts of the layout algebra that the CuTe
 * whitepaper (Cecka, "CuTe Layout Representation and Algebra",
 * arXiv:2603.02298) defines and CuTe C++ does not have: the greatest common
 * domain of two shapes, the sum of two layouts, coalesce_z, and the
 * operations applied to one mode of a layout.  Each follows the whitepaper's
 * definition; the tests check its stated post-conditions. */
#include "algebra_impl.h"
#include "cutelayout/algebra.h"
#include "cutelayout/layout.h"

/* ============================================================ coalesce_z */

/* coalesce_z keeps the function at every integer, not only on [0, size):
 * past the size the last mode takes the excess coordinate, so the last mode
 * stays even when its extent is 1, unless it merges.  Left to right:
 *      s0:d0 (not last)   1:d                 => s0:d0        (vanishes)
 *      s0:d0              s:s0*d0             => s0*s:d0      (contiguous: merge)
 *      s0:d0              s:d                 => (s0,s):(d0,d)
 * where the strides compare as CuTe's == (scaled bases only along one
 * basis). */
static cl_status coalesce_z_flat(const cl_flat *in, cl_flat *out) {
  if (in->status != CL_OK)
    return in->status;
  if (in->n == 0)
    return cl_fail(CL_E_DOMAIN, "coalesce_z: the layout has no modes (an empty tuple)");
  out->n = 0;
  for (int64_t i = 0; i < in->n; i++) {
    cl_mode m = in->m[i];
    bool last = i == in->n - 1;
    if (m.shape == 1 && !last)
      continue;
    if (out->n > 0) {
      cl_mode *back = &out->m[out->n - 1];
      int64_t reach;
      CL_TRY(cl_mul(back->shape, back->stride, &reach));
      if (cl_mode_stride_equal(reach, back->basis, m.stride, m.basis)) {
        CL_TRY(cl_mul(back->shape, m.shape, &back->shape));
        continue;
      }
    }
    cl_flat_push_mode(out, m);
  }
  return out->status;
}

static cl_status coalesce_z_into(cl_lbuilder *lb, cl_lview v) {
  cl_flat flat, merged;
  cl_flat_init(&flat);
  cl_flat_init(&merged);
  cl_flat_of_view(&flat, v);
  cl_status s = coalesce_z_flat(&flat, &merged);
  if (s == CL_OK)
    cl_lb_flat(lb, &merged);
  cl_flat_release(&flat);
  cl_flat_release(&merged);
  return s;
}

/* By profile: coalesce_z at each integer leaf of the profile, its '_' leaves
 * (the whitepaper's None) keeping their modes, and the modes past the
 * profile's rank kept. */
static cl_status coalesce_z_by(cl_lbuilder *lb, cl_lview v, const cl_node *profile) {
  if (!cl_is_tuple(profile)) {
    if (profile->kind == CL_KIND_UNDERSCORE) {
      cl_lb_view(lb, v);
      return CL_OK;
    }
    if (profile->kind != CL_KIND_INT)
      return cl_fail(CL_E_TYPE, "coalesce_z: a profile holds integers and '_' only");
    return coalesce_z_into(lb, v);
  }
  int64_t rank = cl_view_rank(v);
  if (profile->rank > rank)
    return cl_fail(CL_E_RANK, "coalesce_z: the profile has rank %d but the layout only %lld", profile->rank, (long long)rank);
  cl_lb_mark at = cl_lb_open(lb);
  int64_t i = 0;
  CL_FOR_EACH_CHILD(p, profile) CL_TRY(coalesce_z_by(lb, cl_view_mode(v, i++), p));
  for (; i < rank; i++)
    cl_lb_view(lb, cl_view_mode(v, i));
  cl_lb_close(lb, at);
  return CL_OK;
}

cl_status cl_coalesce_z(const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = coalesce_z_into(&lb, cl_view_of(layout));
  return cl_lb_result(&lb, s, out);
}

cl_status cl_coalesce_z_profile(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  CHECK_NULL(profile);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = coalesce_z_by(&lb, cl_view_of(layout), cl_troot(profile));
  return cl_lb_result(&lb, s, out);
}

/* ================================================= greatest common domain */

/* The leaves of a shape with their running position, for the walk below. */
typedef struct leaf_walk {
  const cl_node **leaf;
  int64_t n, at;
  int64_t rest;  /* what is left of the current leaf */
  int64_t start; /* the domain offset where that rest starts */
} leaf_walk;

static cl_status walk_init(leaf_walk *w, const cl_node *shape, const char *which) {
  CL_TRY(cl_require_int_tuple(shape, which));
  w->n = cl_tree_leaf_count(shape);
  w->leaf = cl_alloc(sizeof *w->leaf * (size_t)(w->n ? w->n : 1));
  if (w->leaf == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  cl_tree_leaves(shape, w->leaf);
  for (int64_t k = 0; k < w->n; k++)
    if (w->leaf[k]->value < 1)
      return cl_fail(CL_E_DOMAIN, "greatest_common_domain: %s has the extent %lld; extents must be positive", which,
                     (long long)w->leaf[k]->value);
  w->at = 0;
  w->start = 1;
  w->rest = w->n ? w->leaf[0]->value : 1;
  return CL_OK;
}

/* Moves to the next leaf that is not 1; false when there is none. */
static bool walk_live(leaf_walk *w) {
  while (w->at < w->n && w->rest == 1) {
    if (++w->at < w->n)
      w->rest = w->leaf[w->at]->value;
  }
  return w->at < w->n;
}

/* The current leaf is done: the next one starts where it ends. */
static cl_status walk_advance(leaf_walk *w, int64_t end) {
  w->start = end;
  if (++w->at < w->n)
    w->rest = w->leaf[w->at]->value;
  return CL_OK;
}

static cl_status lcm_of(int64_t a, int64_t b, int64_t *out) { return cl_mul(a / cl_gcd(a, b), b, out); }

/* The common factors of two shapes, in order: both domains are walked leaf
 * by leaf, `start` being where the unconsumed part of each current leaf
 * begins.  The first offset where both can start a factor together is
 * L = lcm(startA, startB); when each leaf reaches L (its rest is divisible
 * by L/start), the largest common factor g of what each has from L on is a
 * factor of both at offset L, and both move past it.  Otherwise the leaf
 * that ends first (both, if they end together or neither end divides the
 * other) is left behind. */
static cl_status common_domain(leaf_walk *a, leaf_walk *b, cl_flat *out) {
  while (walk_live(a) && walk_live(b)) {
    int64_t aligned, end_a, end_b;
    CL_TRY(lcm_of(a->start, b->start, &aligned));
    int64_t skip_a = aligned / a->start, skip_b = aligned / b->start;
    if (a->rest % skip_a == 0 && b->rest % skip_b == 0) {
      int64_t g = cl_gcd(a->rest / skip_a, b->rest / skip_b);
      if (g != 1) {
        cl_flat_push(out, g, aligned);
        a->rest /= skip_a * g;
        b->rest /= skip_b * g;
        CL_TRY(cl_mul(aligned, g, &a->start));
        b->start = a->start;
        continue;
      }
    }
    CL_TRY(cl_mul(a->start, a->rest, &end_a));
    CL_TRY(cl_mul(b->start, b->rest, &end_b));
    bool a_first = end_b % end_a == 0, b_first = end_a % end_b == 0;
    if (a_first || !b_first)
      CL_TRY(walk_advance(a, end_a));
    if (b_first || !a_first)
      CL_TRY(walk_advance(b, end_b));
  }
  return out->status;
}

static cl_status common_domain_flat(const cl_node *shape_a, const cl_node *shape_b, cl_flat *out) {
  leaf_walk a = {0}, b = {0};
  cl_status s = walk_init(&a, shape_a, "the first shape");
  if (s == CL_OK)
    s = walk_init(&b, shape_b, "the second shape");
  if (s == CL_OK)
    s = common_domain(&a, &b, out);
  cl_dealloc(a.leaf);
  cl_dealloc(b.leaf);
  return s;
}

/* Appends the factors as a depth-1 layout, (1):(0) when there are none. */
static void lb_domain(cl_lbuilder *lb, const cl_flat *f) {
  cl_lb_mark at = cl_lb_open(lb);
  if (f->n == 0)
    cl_lb_leaf(lb, 1, 0);
  for (int64_t k = 0; k < f->n; k++)
    cl_lb_leaf(lb, f->m[k].shape, f->m[k].stride);
  cl_lb_close(lb, at);
}

cl_status cl_greatest_common_domain(const cl_tuple_t *a, const cl_tuple_t *b, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(b);
  cl_flat factors;
  cl_flat_init(&factors);
  cl_status s = common_domain_flat(cl_troot(a), cl_troot(b), &factors);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (s == CL_OK)
    lb_domain(&lb, &factors);
  cl_flat_release(&factors);
  return cl_lb_result(&lb, s, out);
}

/* ============================================================= layout_add */

/* R(i) = A(i) + B(i): on the greatest common domain G of the coalesced
 * layouts (which must be all of the domain), both are linear, so R has G's
 * shape and the strides A(d) + B(d) at G's offsets d; then coalesced. */
cl_status cl_layout_add(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(b);
  for (int k = 0; k < 2; k++)
    if (!cl_tree_all_int(cl_lstride(cl_lroot(k ? b : a))))
      return cl_fail(CL_E_TYPE, "layout_add: the layouts must have integer strides");
  int64_t size_a, size_b;
  CL_TRY(cl_layout_size_checked(a, &size_a));
  CL_TRY(cl_layout_size_checked(b, &size_b));
  if (size_a != size_b)
    return cl_fail(CL_E_DOMAIN, "layout_add: the sizes differ (%lld and %lld)", (long long)size_a, (long long)size_b);
  cl_layout_t *ca = NULL, *cb = NULL;
  cl_flat factors, sum;
  cl_flat_init(&factors);
  cl_flat_init(&sum);
  cl_status s = cl_coalesce(a, &ca);
  if (s == CL_OK)
    s = cl_coalesce(b, &cb);
  if (s == CL_OK)
    s = common_domain_flat(cl_lshape(cl_lroot(ca)), cl_lshape(cl_lroot(cb)), &factors);
  int64_t covered = 1;
  for (int64_t k = 0; k < factors.n && s == CL_OK; k++)
    s = cl_mul(covered, factors.m[k].shape, &covered);
  if (s == CL_OK && covered != size_a)
    s = cl_fail(CL_E_DOMAIN, "layout_add: no layout is the sum: the coalesced shapes share a domain of only %lld of the %lld elements",
                (long long)covered, (long long)size_a);
  for (int64_t k = 0; k < factors.n && s == CL_OK; k++) {
    int64_t va, vb, stride;
    s = cl_layout_eval(ca, factors.m[k].stride, &va);
    if (s == CL_OK)
      s = cl_layout_eval(cb, factors.m[k].stride, &vb);
    if (s == CL_OK)
      s = cl_add(va, vb, &stride);
    if (s == CL_OK)
      cl_flat_push(&sum, factors.m[k].shape, stride);
  }
  cl_flat merged;
  cl_flat_init(&merged);
  if (s == CL_OK && factors.n == 0)
    cl_flat_push(&sum, 1, 0); /* size 1: R(0) = A(0) + B(0) = 0 */
  if (s == CL_OK)
    s = cl_coalesce_flat(&sum, false, &merged);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (s == CL_OK)
    cl_lb_flat(&lb, &merged);
  cl_flat_release(&factors);
  cl_flat_release(&sum);
  cl_flat_release(&merged);
  cl_layout_free(ca);
  cl_layout_free(cb);
  return cl_lb_result(&lb, s, out);
}

/* ====================================================== one mode of a layout */

/* t with its subtree at path replaced by sub (a leaf is its own mode 0). */
static void replace_at(cl_builder *b, const cl_node *t, const int64_t *path, int64_t n, const cl_node *sub) {
  if (n == 0) {
    cl_b_copy(b, sub);
    return;
  }
  if (!cl_is_tuple(t)) {
    replace_at(b, t, path + 1, n - 1, sub);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  int64_t k = 0;
  CL_FOR_EACH_CHILD(c, t) {
    if (k++ == path[0])
      replace_at(b, c, path + 1, n - 1, sub);
    else
      cl_b_copy(b, c);
  }
  cl_b_close(b, at);
}

typedef cl_status (*mode_fn)(const cl_layout_t *mode, const cl_tuple_t *arg, cl_layout_t **out);

/* op[path](A, arg): A with mode `path` replaced by op(mode, arg), every
 * other mode as it was (the whitepaper's mode-targeted operations). */
static cl_status at_mode(const cl_layout_t *a, const int64_t *path, int64_t n, mode_fn f, const cl_tuple_t *arg,
                         cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  if (n > 0)
    CHECK_NULL(path);
  if (n < 0 || n > CL_MAX_DEPTH)
    return cl_fail(CL_E_DOMAIN, "the mode's path has %lld indices", (long long)n);
  cl_layout_t *mode = NULL, *changed = NULL;
  CL_TRY(cl_layout_get(a, path, n, &mode));
  cl_status s = f(mode, arg, &changed);
  cl_layout_free(mode);
  if (s != CL_OK)
    return s;
  const cl_node *l = cl_lroot(a), *c = cl_lroot(changed);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  replace_at(&lb.shape, cl_lshape(l), path, n, cl_lshape(c));
  replace_at(&lb.stride, cl_lstride(l), path, n, cl_lstride(c));
  cl_layout_free(changed);
  return cl_lb_finish(&lb, out);
}

static cl_status coalesce_fn(const cl_layout_t *m, const cl_tuple_t *arg, cl_layout_t **out) {
  (void)arg;
  return cl_coalesce(m, out);
}
static cl_status coalesce_z_fn(const cl_layout_t *m, const cl_tuple_t *arg, cl_layout_t **out) {
  (void)arg;
  return cl_coalesce_z(m, out);
}

cl_status cl_composition_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                              cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(tiler);
  return at_mode(a, mode, n, cl_composition_tiler, tiler, out);
}
cl_status cl_logical_divide_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                                 cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(tiler);
  return at_mode(a, mode, n, cl_logical_divide_tiler, tiler, out);
}
cl_status cl_zipped_divide_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                                cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(tiler);
  return at_mode(a, mode, n, cl_zipped_divide_tiler, tiler, out);
}
cl_status cl_logical_product_mode(const cl_layout_t *a, const cl_tuple_t *tiler, const int64_t *mode, int64_t n,
                                  cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(tiler);
  return at_mode(a, mode, n, cl_logical_product_tiler, tiler, out);
}
cl_status cl_coalesce_mode(const cl_layout_t *a, const int64_t *mode, int64_t n, cl_layout_t **out) {
  return at_mode(a, mode, n, coalesce_fn, NULL, out);
}
cl_status cl_coalesce_z_mode(const cl_layout_t *a, const int64_t *mode, int64_t n, cl_layout_t **out) {
  return at_mode(a, mode, n, coalesce_z_fn, NULL, out);
}
