/* SPDX-License-Identifier: BSD-3-Clause */
/* layout.c: the cl_layout_t handle: construction, queries, evaluation,
 * slicing and rearranging of modes (CuTe's layout.hpp outside the algebra). */
#include "map_impl.h"
#include "tuple_impl.h"
#include "cutelayout/layout.h"

/* ------------------------------------------------------------ making */

static cl_status check_layout_trees(const cl_node *shape, const cl_node *stride) {
  CL_TRY(cl_require_shape(shape, "a layout's shape"));
  if (!cl_tree_stride_leaves(stride))
    return cl_fail(CL_E_TYPE, "a layout's stride must hold integers and scaled bases only (no '_' or layouts)");
  if (!cl_tree_congruent(shape, stride))
    return cl_fail(CL_E_RANK, "shape and stride are not congruent");
  return CL_OK;
}

cl_status cl_layout_make(const cl_tuple_t *shape, const cl_tuple_t *stride, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  if (stride == NULL)
    return cl_layout_make_left(shape, out);
  CL_TRY(check_layout_trees(cl_troot(shape), cl_troot(stride)));
  return cl_layout_from_trees(cl_troot(shape), cl_troot(stride), out);
}

static cl_status make_compact(const cl_tuple_t *shape, bool row_major, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CL_TRY(cl_require_shape(cl_troot(shape), "a layout's shape"));
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_b_copy(&lb.shape, cl_troot(shape));
  cl_b_compact_major(&lb.stride, cl_troot(shape), row_major, 1);
  return cl_lb_finish(&lb, out);
}

cl_status cl_layout_make_left(const cl_tuple_t *shape, cl_layout_t **out) { return make_compact(shape, false, out); }
cl_status cl_layout_make_right(const cl_tuple_t *shape, cl_layout_t **out) { return make_compact(shape, true, out); }

cl_status cl_layout_make_ordered(const cl_tuple_t *shape, const cl_tuple_t *order, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CHECK_NULL(order);
  CL_TRY(cl_require_shape(cl_troot(shape), "a layout's shape"));
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_b_copy(&lb.shape, cl_troot(shape));
  cl_b_compact_order(&lb.stride, cl_troot(shape), cl_troot(order));
  if (cl_lb_status(&lb) == CL_OK && !cl_tree_congruent(lb.shape.nodes, lb.stride.nodes))
    cl_b_set_error(&lb.stride, cl_fail(CL_E_RANK, "make_ordered_layout: the order must be congruent with the shape"));
  return cl_lb_finish(&lb, out);
}

/* make_basis_like(shape): at the leaf reached by get<I0,I1,...>, the unit
 * basis E<I0,I1,...>; an integer shape (no index at all) gets CuTe's E<>,
 * which is the integer 1. */
static void basis_like(cl_builder *b, const cl_node *shape, int64_t *path, int64_t n) {
  if (!cl_is_tuple(shape)) {
    if (n == 0)
      cl_b_int(b, 1);
    else
      cl_b_basis(b, 1, path, n);
    return;
  }
  if (n == CL_MAX_DEPTH) {
    cl_b_set_error(b, cl_fail(CL_E_LIMIT, "nesting deeper than %d levels", CL_MAX_DEPTH));
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  path[n] = 0;
  CL_FOR_EACH_CHILD(c, shape) {
    basis_like(b, c, path, n + 1);
    path[n]++;
  }
  cl_b_close(b, at);
}

cl_status cl_make_identity_layout(const cl_tuple_t *shape, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CL_TRY(cl_require_shape(cl_troot(shape), "a layout's shape"));
  int64_t path[CL_MAX_DEPTH];
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_b_copy(&lb.shape, cl_troot(shape));
  basis_like(&lb.stride, cl_troot(shape), path, 0);
  return cl_lb_finish(&lb, out);
}

int cl_layout_is_coordinate(const cl_layout_t *layout) {
  return layout != NULL && cl_tree_has_basis(cl_lstride(cl_lroot(layout)));
}

cl_status cl_layout_concat(const cl_layout_t *const *layouts, int64_t n, cl_layout_t **out) {
  CHECK_OUT(out);
  if (n > 0)
    CHECK_NULL(layouts);
  if (n < 0)
    return cl_fail(CL_E_DOMAIN, "make_layout: negative count");
  for (int64_t i = 0; i < n; i++)
    if (layouts[i] == NULL)
      return cl_fail(CL_E_NULL, "make_layout: layout %lld is NULL", (long long)i);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_mark m = cl_lb_open(&lb);
  for (int64_t i = 0; i < n; i++)
    cl_lb_copy(&lb, cl_lshape(cl_lroot(layouts[i])), cl_lstride(cl_lroot(layouts[i])));
  cl_lb_close(&lb, m);
  return cl_lb_finish(&lb, out);
}

/* filter_zeros(stride, shape): the shape with extent 1 wherever the stride is 0. */
static void filter_zero_extents(cl_builder *b, const cl_node *stride, const cl_node *shape) {
  if (!cl_is_tuple(shape)) {
    /* CuTe's is_constant<0>: an integer 0, not a basis 0@i. */
    cl_b_int(b, cl_is_int(stride) && stride->value == 0 ? 1 : shape->value);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  const cl_node *d = cl_first(stride);
  CL_FOR_EACH_CHILD(s, shape) {
    filter_zero_extents(b, d, s);
    d = cl_next(d);
  }
  cl_b_close(b, at);
}

/* make_layout_like(L) = make_layout(shape(L),
 *     compact_order(filter_zeros(stride(L), shape(L)), stride(L))). */
cl_status cl_make_layout_like(const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  const cl_node *shape = cl_lshape(cl_lroot(layout)), *stride = cl_lstride(cl_lroot(layout));
  if (cl_tree_has_basis(stride))
    return cl_fail(CL_E_TYPE, "make_layout_like: the strides hold scaled bases, and CuTe's compact_order orders the "
                              "layout's strides, which a basis has no order for");
  cl_builder kept;
  cl_b_init(&kept);
  filter_zero_extents(&kept, stride, shape);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_b_copy(&lb.shape, shape);
  if (kept.status == CL_OK)
    cl_b_compact_order(&lb.stride, kept.nodes, stride);
  else
    cl_b_set_error(&lb.stride, kept.status);
  cl_b_release(&kept);
  return cl_lb_finish(&lb, out);
}

/* Appends a copy of t with every integer leaf multiplied by factor. */
static void scale_leaves(cl_builder *b, const cl_node *t, int64_t factor) {
  if (!cl_is_tuple(t)) {
    int64_t v = 0;
    cl_status s = cl_mul(t->value, factor, &v);
    if (s != CL_OK)
      cl_b_set_error(b, s);
    cl_b_int(b, v);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  CL_FOR_EACH_CHILD(c, t) scale_leaves(b, c, factor);
  cl_b_close(b, at);
}

/* make_fragment_like(L) for rank R > 1 is CuTe's
 *   tiled_product(A, B),  A = shape<0>:compact_col_major(filter_zeros(stride<0>, shape<0>)),
 *                         B = make_ordered_layout(take<1,R>(shape), take<1,R>(stride)).
 * A is compact over its n = size(filter_zeros(...)) non-broadcast elements, so
 * the complement that logical_product composes B with is (k):(n), and the
 * product is A next to B with B's compact strides times n.  tiled_product
 * then unpacks B's modes, (shape<0>, shape<1>, ..., shape<R-1>), except for
 * R == 2, where B has a single mode and CuTe's slice result(_, repeat<1>(_))
 * = result(_, _) keeps it wrapped: (shape<0>, (shape<1>)).
 * For rank <= 1 it is make_layout(shape(L)). */
cl_status cl_make_fragment_like(const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  const cl_node *shape = cl_lshape(cl_lroot(layout)), *stride = cl_lstride(cl_lroot(layout));
  if (!cl_is_tuple(shape) || shape->rank <= 1) {
    cl_tuple_t *t = NULL;
    CL_TRY(cl_tuple_from_tree(shape, &t));
    cl_status s = cl_layout_make_left(t, out);
    cl_tuple_free(t);
    return s;
  }
  cl_builder kept0, rest_shape, rest_stride, rest_order;
  cl_b_init(&kept0);
  cl_b_init(&rest_shape);
  cl_b_init(&rest_stride);
  cl_b_init(&rest_order);
  filter_zero_extents(&kept0, cl_first(stride), cl_first(shape));
  int32_t s_at = cl_b_open(&rest_shape, CL_KIND_TUPLE), d_at = cl_b_open(&rest_stride, CL_KIND_TUPLE);
  for (const cl_node *s = cl_next(cl_first(shape)), *d = cl_next(cl_first(stride)); s < shape + shape->span;
       s = cl_next(s), d = cl_next(d)) {
    cl_b_copy(&rest_shape, s);
    cl_b_copy(&rest_stride, d);
  }
  cl_b_close(&rest_shape, s_at);
  cl_b_close(&rest_stride, d_at);
  int64_t n = 1;
  cl_status s = kept0.status != CL_OK ? kept0.status : rest_shape.status != CL_OK ? rest_shape.status : rest_stride.status;
  if (s == CL_OK)
    s = cl_tree_product(kept0.nodes, &n);
  if (s == CL_OK && n == 0) /* the complement of A would divide by its size */
    s = cl_fail(CL_E_DOMAIN, "make_fragment_like: mode 0 has no elements (division by zero in its complement)");
  if (s == CL_OK) {
    cl_b_compact_order(&rest_order, rest_shape.nodes, rest_stride.nodes);
    s = rest_order.status;
  }
  cl_lbuilder lb;
  cl_lb_init(&lb);
  if (s == CL_OK) {
    bool wrap_rest = shape->rank == 2;
    cl_lb_mark m = cl_lb_open(&lb);
    cl_b_copy(&lb.shape, cl_first(shape));
    cl_b_compact_major(&lb.stride, kept0.nodes, false, 1);
    if (wrap_rest) {
      cl_b_copy(&lb.shape, rest_shape.nodes);
      scale_leaves(&lb.stride, rest_order.nodes, n);
    } else {
      cl_b_copy_children(&lb.shape, rest_shape.nodes);
      CL_FOR_EACH_CHILD(o, rest_order.nodes) scale_leaves(&lb.stride, o, n);
    }
    cl_lb_close(&lb, m);
  } else {
    cl_b_set_error(&lb.shape, s);
  }
  cl_b_release(&kept0);
  cl_b_release(&rest_shape);
  cl_b_release(&rest_stride);
  cl_b_release(&rest_order);
  return cl_lb_finish(&lb, out);
}

void cl_layout_free(cl_layout_t *layout) { cl_dealloc(layout); }

cl_status cl_layout_copy(const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  return cl_tuple_from_tree(cl_lroot(layout), (cl_tuple_t **)out);
}

/* ------------------------------------------------------------ queries */

cl_status cl_layout_shape(const cl_layout_t *layout, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  return cl_tuple_from_tree(cl_lshape(cl_lroot(layout)), out);
}

cl_status cl_layout_stride(const cl_layout_t *layout, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  return cl_tuple_from_tree(cl_lstride(cl_lroot(layout)), out);
}

cl_status cl_layout_size_checked(const cl_layout_t *layout, int64_t *out) {
  CHECK_NULL(layout);
  CHECK_NULL(out);
  return cl_tree_product(cl_lshape(cl_lroot(layout)), out);
}

/* coshape's integer form: 1 + sum of (extent - 1) * |stride| over the leaves. */
static cl_status cosize_of(const cl_node *shape, const cl_node *stride, int64_t *out) {
  int64_t sum = 0;
  const cl_node *end = shape + shape->span, *d = stride;
  for (const cl_node *s = shape; s < end; s++, d++) {
    if (cl_is_tuple(s))
      continue;
    int64_t m1, absd, t;
    if (d->value == INT64_MIN)
      return cl_fail(CL_E_OVERFLOW, "cosize: |stride| overflows");
    absd = d->value < 0 ? -d->value : d->value;
    CL_TRY(cl_sub(s->value, 1, &m1));
    CL_TRY(cl_mul(m1, absd, &t));
    CL_TRY(cl_add(sum, t, &sum));
  }
  return cl_add(sum, 1, out);
}

/* CuTe's coshape of a layout with scaled bases: inner_product of the
 * extents minus 1 with the strides' absolute values (each tuple summed from
 * the left, starting at 0), as an arithmetic tuple, plus 1 at every leaf. */
static void append_reach(cl_forest *f, const cl_node *shape, const cl_node *stride) {
  if (!cl_is_tuple(shape)) {
    int64_t extent = 0, abs_scale = 0;
    cl_status s = cl_sub(shape->value, 1, &extent);
    if (s == CL_OK && stride->value == INT64_MIN)
      s = cl_fail(CL_E_OVERFLOW, "cosize: |stride| overflows");
    if (s != CL_OK) {
      cl_b_set_error(&f->trees, s);
      return;
    }
    abs_scale = stride->value < 0 ? -stride->value : stride->value;
    int64_t v = 0;
    if ((s = cl_mul(extent, abs_scale, &v)) != CL_OK)
      cl_b_set_error(&f->trees, s);
    else if (cl_is_basis(stride))
      cl_b_basis_like(&f->trees, v, stride);
    else
      cl_b_int(&f->trees, v);
    return;
  }
  int32_t acc = f->trees.count;
  cl_b_int(&f->trees, 0);
  const cl_node *d = cl_first(stride);
  CL_FOR_EACH_CHILD(c, shape) {
    append_reach(f, c, d);
    cl_forest_sum(f, acc);
    d = cl_next(d);
  }
}

static void add_one_to_leaves(cl_builder *b, const cl_node *t) {
  if (!cl_is_tuple(t)) {
    int64_t v = 0;
    cl_status s = cl_add(t->value, 1, &v);
    if (s != CL_OK)
      cl_b_set_error(b, s);
    cl_b_int(b, v);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  CL_FOR_EACH_CHILD(c, t) add_one_to_leaves(b, c);
  cl_b_close(b, at);
}

void cl_b_coordinate_coshape(cl_builder *b, const cl_node *shape, const cl_node *stride) {
  cl_forest f;
  cl_builder reach, arith;
  cl_forest_init(&f);
  cl_b_init(&reach);
  cl_b_init(&arith);
  append_reach(&f, shape, stride);
  cl_forest_finish(&f, &reach);
  if (reach.status == CL_OK)
    cl_b_as_arith(&arith, reach.nodes);
  if (reach.status != CL_OK || arith.status != CL_OK)
    cl_b_set_error(b, reach.status != CL_OK ? reach.status : arith.status);
  else
    add_one_to_leaves(b, arith.nodes);
  cl_b_release(&reach);
  cl_b_release(&arith);
}

cl_status cl_layout_cosize_checked(const cl_layout_t *layout, int64_t *out) {
  CHECK_NULL(layout);
  CHECK_NULL(out);
  const cl_node *shape = cl_lshape(cl_lroot(layout)), *stride = cl_lstride(cl_lroot(layout));
  if (cl_tree_has_basis(stride)) { /* CuTe's size(coshape(L)) */
    cl_builder b;
    cl_b_init(&b);
    cl_b_coordinate_coshape(&b, shape, stride);
    cl_status s = b.status == CL_OK ? cl_tree_product(b.nodes, out) : b.status;
    cl_b_release(&b);
    return s;
  }
  /* Shape and stride are congruent, so their nodes pair up one to one. */
  return cosize_of(shape, stride, out);
}

int64_t cl_layout_size(const cl_layout_t *layout) {
  int64_t v;
  cl_status s = cl_layout_size_checked(layout, &v);
  return s == CL_OK ? v : s;
}

int64_t cl_layout_cosize(const cl_layout_t *layout) {
  int64_t v;
  cl_status s = cl_layout_cosize_checked(layout, &v);
  return s == CL_OK ? v : s;
}

cl_status cl_layout_coshape(const cl_layout_t *layout, cl_tuple_t **out) {
  CHECK_OUT(out);
  if (cl_layout_is_coordinate(layout)) {
    cl_builder b;
    cl_b_init(&b);
    cl_b_coordinate_coshape(&b, cl_lshape(cl_lroot(layout)), cl_lstride(cl_lroot(layout)));
    return cl_b_finish_tuple(&b, out);
  }
  int64_t c;
  CL_TRY(cl_layout_cosize_checked(layout, &c));
  return cl_tuple_int(c, out);
}

int64_t cl_layout_rank(const cl_layout_t *layout) {
  return layout ? cl_rank_of(cl_lshape(cl_lroot(layout))) : CL_E_NULL;
}

int64_t cl_layout_depth(const cl_layout_t *layout) {
  if (layout == NULL)
    return cl_fail(CL_E_NULL, "cl_layout_depth: argument 'layout' is NULL");
  int64_t depth;
  cl_status s = cl_tree_depth(cl_lshape(cl_lroot(layout)), &depth);
  return s == CL_OK ? depth : s;
}

/* The sub-trees at a path of mode indices (a leaf is its own mode 0). */
static cl_status mode_at(const cl_node *shape, const cl_node *stride, const int64_t *path, int64_t n,
                         const cl_node **sub_shape, const cl_node **sub_stride) {
  for (int64_t k = 0; k < n; k++) {
    int64_t r = cl_rank_of(shape);
    if (path[k] < 0 || path[k] >= r)
      return cl_fail(CL_E_DOMAIN, "get: mode %lld out of range for rank %lld", (long long)path[k], (long long)r);
    shape = cl_child(shape, path[k]);
    stride = cl_child(stride, path[k]);
  }
  *sub_shape = shape;
  *sub_stride = stride;
  return CL_OK;
}

cl_status cl_layout_get(const cl_layout_t *layout, const int64_t *path, int64_t n, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  if (n > 0)
    CHECK_NULL(path);
  const cl_node *s = NULL, *d = NULL;
  CL_TRY(mode_at(cl_lshape(cl_lroot(layout)), cl_lstride(cl_lroot(layout)), path, n, &s, &d));
  return cl_layout_from_trees(s, d, out);
}

int cl_layout_equal(const cl_layout_t *a, const cl_layout_t *b) {
  return a && b && cl_tree_equal(cl_lroot(a), cl_lroot(b));
}

/* ------------------------------------------------------------ evaluation */

/* cl_layout_eval(layout, i) is in eval_plan.c: it uses the compiled plan that
 * every handle carries and falls back to cl_tree_eval. */

cl_status cl_layout_eval_coord(const cl_layout_t *layout, const cl_tuple_t *crd, int64_t *index) {
  CHECK_NULL(layout);
  CHECK_NULL(crd);
  CHECK_NULL(index);
  return cl_tree_crd2idx(cl_troot(crd), cl_lshape(cl_lroot(layout)), cl_lstride(cl_lroot(layout)), index);
}

/* layout(crd) as a value: an integer layout's index as an integer leaf,
 * through the index evaluation (so that its errors are the same); a
 * coordinate layout's CuTe value. */
static cl_status eval_value(const cl_layout_t *layout, const cl_node *crd, cl_tuple_t **out) {
  const cl_node *shape = cl_lshape(cl_lroot(layout)), *stride = cl_lstride(cl_lroot(layout));
  if (!cl_tree_has_basis(stride)) {
    int64_t index;
    CL_TRY(cl_is_int(crd) ? cl_layout_eval(layout, crd->value, &index) : cl_tree_crd2idx(crd, shape, stride, &index));
    return cl_tuple_int(index, out);
  }
  cl_builder b;
  cl_b_init(&b);
  cl_b_crd2value(&b, crd, shape, stride);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_layout_eval_tuple(const cl_layout_t *layout, int64_t i, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_int_node crd = cl_int_leaf(i);
  return eval_value(layout, &crd.node, out);
}

cl_status cl_layout_eval_coord_tuple(const cl_layout_t *layout, const cl_tuple_t *crd, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  CHECK_NULL(crd);
  return eval_value(layout, cl_troot(crd), out);
}

/* ------------------------------------------------------------ slicing */

/* slice(crd, t) keeps the subtrees of t at the '_' positions of crd, and
 * dice(crd, t) those at the integer positions; either way they are spliced
 * into one flat list (CuTe's filter_tuple of lift_slice / lift_dice). */
typedef enum { KEEP_UNDERSCORES, KEEP_INTEGERS } cut_kind;
static const char *const cut_names[] = {"slice", "dice"};

static void lift_cut(cl_builder *b, cut_kind k, const cl_node *crd, const cl_node *t) {
  if (cl_is_tuple(crd)) {
    if (!cl_is_tuple(t) || crd->rank != t->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "%s: the coordinate's profile does not match the layout's", cut_names[k]));
      return;
    }
    const cl_node *x = cl_first(t);
    CL_FOR_EACH_CHILD(c, crd) {
      lift_cut(b, k, c, x);
      x = cl_next(x);
    }
  } else if (crd->kind != CL_KIND_INT && crd->kind != CL_KIND_UNDERSCORE) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "%s: a coordinate holds integers and '_' only", cut_names[k]));
  } else if ((crd->kind == CL_KIND_UNDERSCORE) == (k == KEEP_UNDERSCORES)) {
    cl_b_copy(b, t);
  }
}

/* A whole crd that is kept ('_' for slice, an integer for dice) keeps t
 * itself; otherwise the kept parts are gathered into one tuple. */
static void cut_tree(cl_builder *b, cut_kind k, const cl_node *crd, const cl_node *t) {
  if (!cl_is_tuple(crd) && (crd->kind == CL_KIND_UNDERSCORE) == (k == KEEP_UNDERSCORES)) {
    cl_b_copy(b, t);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  if (cl_is_tuple(crd))
    lift_cut(b, k, crd, t);
  else if (crd->kind != CL_KIND_INT && crd->kind != CL_KIND_UNDERSCORE)
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "%s: a coordinate holds integers and '_' only", cut_names[k]));
  cl_b_close(b, at);
}

/* CuTe's dice on one tree, for modules that build from trees (coord_tensor.c). */
void cl_b_dice(cl_builder *b, const cl_node *crd, const cl_node *t) {
  cut_tree(b, KEEP_INTEGERS, crd, t);
}

static cl_status cut_layout(cut_kind k, const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(crd);
  CHECK_NULL(layout);
  const cl_node *l = cl_lroot(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cut_tree(&lb.shape, k, cl_troot(crd), cl_lshape(l));
  cut_tree(&lb.stride, k, cl_troot(crd), cl_lstride(l));
  return cl_lb_finish(&lb, out);
}

static cl_status cut_tuple(cut_kind k, const cl_tuple_t *crd, const cl_tuple_t *t, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(crd);
  CHECK_NULL(t);
  cl_builder b;
  cl_b_init(&b);
  cut_tree(&b, k, cl_troot(crd), cl_troot(t));
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_layout_slice(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out) {
  return cut_layout(KEEP_UNDERSCORES, crd, layout, out);
}
cl_status cl_layout_dice(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out) {
  return cut_layout(KEEP_INTEGERS, crd, layout, out);
}
cl_status cl_tuple_slice(const cl_tuple_t *crd, const cl_tuple_t *t, cl_tuple_t **out) {
  return cut_tuple(KEEP_UNDERSCORES, crd, t, out);
}
cl_status cl_tuple_dice(const cl_tuple_t *crd, const cl_tuple_t *t, cl_tuple_t **out) {
  return cut_tuple(KEEP_INTEGERS, crd, t, out);
}

cl_status cl_domain_offset(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out, int64_t *offset) {
  CHECK_OUT(out);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(crd);
  CHECK_NULL(layout);
  int64_t at;
  CL_TRY(cl_layout_eval_coord(layout, crd, &at));
  CL_TRY(cl_layout_copy(layout, out));
  *offset = at;
  return CL_OK;
}

cl_status cl_layout_slice_and_offset(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out, int64_t *offset) {
  CHECK_OUT(out);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(crd);
  CHECK_NULL(layout);
  /* '_' counts as 0 in the offset, as CuTe's Underscore is Int<0>.  The
   * offset is handed out only with the slice, so that a failure leaves
   * nothing half made. */
  int64_t at;
  CL_TRY(cl_layout_eval_coord(layout, crd, &at));
  CL_TRY(cl_layout_slice(crd, layout, out));
  *offset = at;
  return CL_OK;
}

cl_status cl_layout_slice_and_offset_tuple(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out,
                                          cl_tuple_t **offset) {
  CHECK_OUT(out);
  CHECK_OUT(offset);
  CHECK_NULL(crd);
  CHECK_NULL(layout);
  cl_tuple_t *at = NULL;
  CL_TRY(cl_layout_eval_coord_tuple(layout, crd, &at));
  cl_status s = cl_layout_slice(crd, layout, out);
  if (s != CL_OK) {
    cl_tuple_free(at);
    return s;
  }
  *offset = at;
  return CL_OK;
}

/* ------------------------------------------------------------ modes */

typedef void (*tree_map)(cl_builder *, const cl_node *, const void *);

/* Applies the same tree operation to a layout's shape and its stride. */
static cl_status map_layout(const cl_layout_t *layout, cl_layout_t **out, tree_map f, const void *arg) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  const cl_node *l = cl_lroot(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  f(&lb.shape, cl_lshape(l), arg);
  f(&lb.stride, cl_lstride(l), arg);
  return cl_lb_finish(&lb, out);
}

static void flatten_map(cl_builder *b, const cl_node *t, const void *arg) {
  (void)arg;
  cl_b_flatten(b, t);
}

cl_status cl_layout_flatten(const cl_layout_t *layout, cl_layout_t **out) { return map_layout(layout, out, flatten_map, NULL); }

static void unflatten_map(cl_builder *b, const cl_node *t, const void *arg) {
  const cl_node *profile = arg;
  /* An integer is a flat tuple of rank 1 (CuTe's get<0> of an integer). */
  int64_t rank = cl_rank_of(t);
  const cl_node *leaves[CL_MAX_DEPTH] = {0}; /* small profiles stay on the stack */
  const cl_node **flat = rank <= CL_MAX_DEPTH ? leaves : cl_alloc((size_t)rank * sizeof *flat);
  if (flat == NULL) {
    cl_b_set_error(b, cl_fail(CL_E_NOMEM, "out of memory"));
    return;
  }
  int64_t k = 0, next = 0;
  for (; k < rank; k++)
    flat[k] = cl_child(t, k);
  cl_b_unflatten(b, flat, k, &next, profile);
  if (b->status == CL_OK && next != k)
    cl_b_set_error(b, cl_fail(CL_E_RANK, "unflatten: the layout has %lld modes but the profile has %lld leaves", (long long)k, (long long)next));
  if (flat != leaves)
    cl_dealloc(flat);
}

cl_status cl_layout_unflatten(const cl_layout_t *layout, const cl_tuple_t *profile, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(profile);
  return map_layout(layout, out, unflatten_map, cl_troot(profile));
}

typedef struct { int64_t begin, end; } range;

/* Copies modes [r.begin, r.end) of t (a leaf is a rank-1 tuple). */
static void copy_modes(cl_builder *b, const cl_node *t, range r) {
  for (int64_t i = r.begin; i < r.end; i++)
    cl_b_copy(b, cl_child(t, i));
}

static void group_map(cl_builder *b, const cl_node *t, const void *arg) {
  const range *r = arg;
  int64_t rank = cl_rank_of(t);
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  copy_modes(b, t, (range){0, r->begin});
  if (r->begin < r->end) {
    int32_t g = cl_b_open(b, CL_KIND_TUPLE);
    copy_modes(b, t, *r);
    cl_b_close(b, g);
  }
  copy_modes(b, t, (range){r->end, rank});
  cl_b_close(b, at);
}

static cl_status check_range(const cl_layout_t *layout, int64_t begin, int64_t end, bool nonempty, const char *what) {
  CHECK_NULL(layout);
  int64_t rank = cl_layout_rank(layout);
  if (begin < 0 || end > rank || begin > end || (nonempty && begin == end))
    return cl_fail(CL_E_DOMAIN, "%s: range [%lld,%lld) is not %sinside the %lld modes", what, (long long)begin,
                   (long long)end, nonempty ? "a non-empty range " : "", (long long)rank);
  return CL_OK;
}

/* CuTe's E == -1 stands for the end of the modes. */
static int64_t resolve_end(const cl_layout_t *layout, int64_t end) {
  return end == -1 && layout != NULL ? cl_layout_rank(layout) : end;
}

cl_status cl_layout_group(const cl_layout_t *layout, int64_t begin, int64_t end, cl_layout_t **out) {
  CHECK_OUT(out);
  end = resolve_end(layout, end);
  CL_TRY(check_range(layout, begin, end, false, "group"));
  range r = {begin, end};
  return map_layout(layout, out, group_map, &r);
}

static void take_map(cl_builder *b, const cl_node *t, const void *arg) {
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  copy_modes(b, t, *(const range *)arg);
  cl_b_close(b, at);
}

cl_status cl_layout_take(const cl_layout_t *layout, int64_t begin, int64_t end, cl_layout_t **out) {
  CHECK_OUT(out);
  CL_TRY(check_range(layout, begin, end, true, "take"));
  range r = {begin, end};
  return map_layout(layout, out, take_map, &r);
}

typedef struct { const int64_t *modes; int64_t n; } selection;

static void select_map(cl_builder *b, const cl_node *t, const void *arg) {
  const selection *sel = arg;
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  for (int64_t i = 0; i < sel->n; i++)
    cl_b_copy(b, cl_child(t, sel->modes[i]));
  cl_b_close(b, at);
}

cl_status cl_layout_select(const cl_layout_t *layout, const int64_t *modes, int64_t n, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  if (n > 0)
    CHECK_NULL(modes);
  int64_t rank = cl_layout_rank(layout);
  for (int64_t i = 0; i < n; i++)
    if (modes[i] < 0 || modes[i] >= rank)
      return cl_fail(CL_E_DOMAIN, "select: mode %lld out of range for rank %lld", (long long)modes[i], (long long)rank);
  selection sel = {modes, n};
  return map_layout(layout, out, select_map, &sel);
}

/* append/prepend: t's modes (a leaf is one mode) with x added at one end. */
static void extend(cl_builder *b, const cl_node *t, const cl_node *x, bool at_front) {
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  if (at_front)
    cl_b_copy(b, x);
  cl_b_copy_children(b, t);
  if (!at_front)
    cl_b_copy(b, x);
  cl_b_close(b, at);
}

static cl_status extend_layout(const cl_layout_t *layout, const cl_layout_t *x, bool at_front, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_int_node one = cl_int_leaf(1), zero = cl_int_leaf(0);
  const cl_node *xs = x ? cl_lshape(cl_lroot(x)) : &one.node, *xd = x ? cl_lstride(cl_lroot(x)) : &zero.node;
  const cl_node *l = cl_lroot(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  extend(&lb.shape, cl_lshape(l), xs, at_front);
  extend(&lb.stride, cl_lstride(l), xd, at_front);
  return cl_lb_finish(&lb, out);
}

cl_status cl_layout_append(const cl_layout_t *layout, const cl_layout_t *x, cl_layout_t **out) {
  return extend_layout(layout, x, false, out);
}
cl_status cl_layout_prepend(const cl_layout_t *layout, const cl_layout_t *x, cl_layout_t **out) {
  return extend_layout(layout, x, true, out);
}

/* append<n>/prepend<n>: t's modes padded with copies of x up to n modes; a
 * leaf t is one mode, kept as it is when n is 1. */
static void extend_to(cl_builder *b, const cl_node *t, const cl_node *x, int64_t n, bool at_front) {
  int64_t have = cl_rank_of(t);
  if (have == n) {
    cl_b_copy(b, t);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  for (int64_t k = have; at_front && k < n; k++)
    cl_b_copy(b, x);
  if (cl_is_tuple(t))
    cl_b_copy_children(b, t);
  else
    cl_b_copy(b, t);
  for (int64_t k = have; !at_front && k < n; k++)
    cl_b_copy(b, x);
  cl_b_close(b, at);
}

static cl_status extend_layout_to(const cl_layout_t *layout, const cl_layout_t *x, int64_t n, bool at_front,
                                  cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  int64_t rank = cl_layout_rank(layout);
  if (n < rank || n > CL_MAX_RANK)
    return cl_fail(n < rank ? CL_E_DOMAIN : CL_E_LIMIT, "%s<%lld>: the layout already has %lld modes (CuTe: N >= rank)",
                   at_front ? "prepend" : "append", (long long)n, (long long)rank);
  cl_int_node one = cl_int_leaf(1), zero = cl_int_leaf(0);
  const cl_node *xs = x ? cl_lshape(cl_lroot(x)) : &one.node, *xd = x ? cl_lstride(cl_lroot(x)) : &zero.node;
  const cl_node *l = cl_lroot(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  extend_to(&lb.shape, cl_lshape(l), xs, n, at_front);
  extend_to(&lb.stride, cl_lstride(l), xd, n, at_front);
  return cl_lb_finish(&lb, out);
}

cl_status cl_layout_append_to(const cl_layout_t *layout, const cl_layout_t *x, int64_t n, cl_layout_t **out) {
  return extend_layout_to(layout, x, n, false, out);
}
cl_status cl_layout_prepend_to(const cl_layout_t *layout, const cl_layout_t *x, int64_t n, cl_layout_t **out) {
  return extend_layout_to(layout, x, n, true, out);
}

/* zip(t): ((a,b),(c,d)) -> ((a,c),(b,d)); a tuple whose first element is a
 * leaf is wrapped, a leaf is itself. */
static void zip_map(cl_builder *b, const cl_node *t, const void *arg) {
  (void)arg;
  if (!cl_is_tuple(t)) {
    cl_b_copy(b, t);
    return;
  }
  if (t->rank == 0) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "zip: an empty tuple () has no first mode to zip by"));
    return;
  }
  if (!cl_is_tuple(cl_first(t))) {
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    cl_b_copy(b, t);
    cl_b_close(b, at);
    return;
  }
  int64_t width = cl_first(t)->rank;
  CL_FOR_EACH_CHILD(c, t) {
    if (!cl_is_tuple(c) || c->rank != width) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "zip: the modes must be tuples of one rank"));
      return;
    }
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  for (int64_t j = 0; j < width; j++) {
    int32_t col = cl_b_open(b, CL_KIND_TUPLE);
    CL_FOR_EACH_CHILD(c, t) cl_b_copy(b, cl_child(c, j));
    cl_b_close(b, col);
  }
  cl_b_close(b, at);
}

cl_status cl_layout_zip(const cl_layout_t *layout, cl_layout_t **out) { return map_layout(layout, out, zip_map, NULL); }

/* ---- the layout as a map (map_impl.h) ---- */

static cl_status layout_at(const void *self, int64_t i, int64_t *value) { return cl_layout_eval(self, i, value); }
static void layout_text(const void *self, cl_sink *o) { cl_sink_tree(o, cl_lroot(self)); }
static cl_status layout_cosize(const void *self, int64_t *out) { return cl_layout_cosize_checked(self, out); }

/* A coordinate layout's value at i (CuTe's L(i)). */
static void layout_value(const void *self, int64_t i, cl_builder *b) {
  cl_int_node crd = cl_int_leaf(i);
  cl_b_crd2value(b, &crd.node, cl_lshape(cl_lroot(self)), cl_lstride(cl_lroot(self)));
}

cl_fnmap cl_fnmap_of_layout(const cl_layout_t *layout) {
  cl_fnmap m = {cl_lshape(cl_lroot(layout)), layout, layout_at, layout_text, layout_cosize, false, NULL};
  if (cl_layout_is_coordinate(layout)) {
    m.at = NULL;
    m.value = layout_value;
  }
  return m;
}

/* replace<i>(L, X): mode i of L becomes X; an integer-shaped L is its own
 * mode 0, so replace<0> of it is X. */
static void replace_tree(cl_builder *b, const cl_node *t, int64_t i, const cl_node *x) {
  if (!cl_is_tuple(t)) {
    cl_b_copy(b, x);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  int64_t k = 0;
  CL_FOR_EACH_CHILD(c, t) cl_b_copy(b, k++ == i ? x : c);
  cl_b_close(b, at);
}

cl_status cl_layout_replace(const cl_layout_t *layout, int64_t i, const cl_layout_t *x, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  CHECK_NULL(x);
  int64_t rank = cl_layout_rank(layout);
  if (i < 0 || i >= rank)
    return cl_fail(CL_E_DOMAIN, "replace: mode %lld out of range for rank %lld", (long long)i, (long long)rank);
  const cl_node *l = cl_lroot(layout), *xl = cl_lroot(x);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  replace_tree(&lb.shape, cl_lshape(l), i, cl_lshape(xl));
  replace_tree(&lb.stride, cl_lstride(l), i, cl_lstride(xl));
  return cl_lb_finish(&lb, out);
}

cl_status cl_layout_coprofile(const cl_layout_t *layout, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  cl_builder b;
  cl_b_init(&b);
  cl_b_coprofile(&b, cl_lstride(cl_lroot(layout)));
  return cl_b_finish_tuple(&b, out);
}
