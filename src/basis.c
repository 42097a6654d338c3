/* SPDX-License-Identifier: BSD-3-Clause */
/* basis.c: scaled bases and arithmetic tuples, CuTe's arithmetic_tuple.hpp.
 *
 * A layout whose strides hold scaled bases (`(4,8):(1@0,1@1)`, CuTe's
 * make_identity_layout) maps coordinates to coordinates.  CuTe computes its
 * values with three kinds of C++ types, and prints each differently, so the
 * library keeps the same three apart:
 *   - an integer (a leaf of kind CL_KIND_INT);
 *   - a ScaledBasis<k, N0, N1, ...>, a leaf of kind CL_KIND_BASIS printed
 *     `k@...@N1@N0`: what a single stride times a coordinate gives;
 *   - an ArithmeticTuple, a tuple: what a sum of bases gives, as_arithmetic_
 *     tuple turning each basis into nested tuples of zeros around its scale
 *     (3@1 is (0,3), 1@0@1 is (0,(1))).
 * The sum follows CuTe's overloads for static integers: integers add; a 0
 * adds to anything and leaves it as it is; any other integer cannot be added
 * to a basis or a tuple (CuTe's static_assert "op+ error"); bases and tuples
 * add element by element as arithmetic tuples, the shorter padded with 0.
 * This sum is commutative but, because of the integers, not associative, so
 * callers add in CuTe's order. */
#include "tuple_impl.h"

/* --------------------------------------------------------- the leaves */

static void push_path_node(cl_builder *b, int64_t index) {
  cl_int_node n = cl_int_leaf(index);
  n.node.kind = CL_NODE_PATH;
  cl_b_copy(b, &n.node);
}

void cl_b_basis(cl_builder *b, int64_t scale, const int64_t *path, int64_t n) {
  if (n < 1 || n > CL_MAX_DEPTH) {
    cl_b_set_error(b, cl_fail(n < 1 ? CL_E_DOMAIN : CL_E_LIMIT, "a scaled basis needs 1 to %d indices, not %lld",
                              CL_MAX_DEPTH, (long long)n));
    return;
  }
  for (int64_t k = 0; k < n; k++)
    if (path[k] < 0 || path[k] >= CL_MAX_RANK) {
      cl_b_set_error(b, cl_fail(CL_E_DOMAIN, "a scaled basis index must be in [0, %d), not %lld", CL_MAX_RANK,
                                (long long)path[k]));
      return;
    }
  /* The head is copied alone, then its span grown over the path. */
  cl_node head = {scale, 1, (int16_t)n, CL_KIND_BASIS, 0};
  int32_t at = b->count;
  cl_b_copy(b, &head);
  for (int64_t k = 0; k < n; k++)
    push_path_node(b, path[k]);
  if (b->status == CL_OK)
    b->nodes[at].span = (int32_t)(1 + n);
}

void cl_b_basis_like(cl_builder *b, int64_t scale, const cl_node *like) {
  if (b->status != CL_OK)
    return;
  int32_t at = b->count;
  cl_b_copy(b, like);
  if (b->status == CL_OK)
    b->nodes[at].value = scale;
}

bool cl_basis_same(const cl_node *a, const cl_node *b) {
  if (a->rank != b->rank)
    return false;
  for (int32_t k = 1; k <= a->rank; k++)
    if (a[k].value != b[k].value)
      return false;
  return true;
}

bool cl_tree_has_basis(const cl_node *n) {
  for (int32_t i = 0; i < n->span; i++)
    if (cl_is_basis(&n[i]))
      return true;
  return false;
}

void cl_b_scale_leaf(cl_builder *b, int64_t c, const cl_node *leaf) {
  int64_t v = 0;
  cl_status s = cl_mul(c, leaf->value, &v);
  if (s != CL_OK) {
    cl_b_set_error(b, s);
    return;
  }
  if (cl_is_basis(leaf))
    cl_b_basis_like(b, v, leaf);
  else
    cl_b_int(b, v);
}

/* ------------------------------------------------- arithmetic tuples */

/* A value read as an arithmetic tuple without building it: a node, and for
 * a scaled basis how much of its path is already spent.  A basis with k of
 * its n indices spent is, by as_arithmetic_tuple, the tuple of length
 * path[k] + 1 holding 0s and, at path[k], the same basis with k + 1 spent;
 * with all n spent it is its scale. */
typedef struct arith_view {
  const cl_node *n;
  int32_t spent;
} arith_view;

static const cl_node zero_node = {0, 1, 0, CL_KIND_INT, 0};

/* Is the view an integer, and which? */
static bool view_int(arith_view v, int64_t *value) {
  if (cl_is_basis(v.n) && v.spent == v.n->rank) {
    *value = v.n->value;
    return true;
  }
  if (cl_is_int(v.n)) {
    *value = v.n->value;
    return true;
  }
  return false;
}

static int64_t view_rank(arith_view v) {
  return cl_is_basis(v.n) ? v.n[1 + v.spent].value + 1 : cl_rank_of(v.n);
}

/* Element j of a tuple view (j < view_rank(v)). */
static arith_view view_elem(arith_view v, int64_t j) {
  if (cl_is_basis(v.n)) {
    if (j == v.n[1 + v.spent].value)
      return (arith_view){v.n, v.spent + 1};
    return (arith_view){&zero_node, 0};
  }
  return (arith_view){cl_child(v.n, j), 0};
}

static void emit_view(cl_builder *b, arith_view v) {
  int64_t value;
  if (view_int(v, &value)) {
    cl_b_int(b, value);
    return;
  }
  if (!cl_is_basis(v.n) && !cl_is_tuple(v.n)) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "a coordinate holds integers and scaled bases only"));
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  int64_t r = view_rank(v);
  for (int64_t j = 0; j < r && b->status == CL_OK; j++)
    emit_view(b, view_elem(v, j));
  cl_b_close(b, at);
}

void cl_b_as_arith(cl_builder *b, const cl_node *v) { emit_view(b, (arith_view){v, 0}); }

static cl_status op_error(int64_t value) {
  return cl_fail(CL_E_TYPE,
                 "the integer %lld cannot be added to a coordinate (CuTe: ScaledBasis / ArithmeticTuple op+ error: "
                 "only a static 0 adds to them)",
                 (long long)value);
}

/* ArithmeticTuple + ArithmeticTuple, CuTe's element-wise plus{} of the two
 * padded with 0 to the longer rank. */
static void add_views(cl_builder *b, arith_view x, arith_view y) {
  int64_t xv, yv;
  bool xi = view_int(x, &xv), yi = view_int(y, &yv);
  if (xi && yi) {
    int64_t sum = 0;
    cl_status s = cl_add(xv, yv, &sum);
    if (s != CL_OK)
      cl_b_set_error(b, s);
    cl_b_int(b, sum);
    return;
  }
  if (xi || yi) {
    if ((xi ? xv : yv) != 0) {
      cl_b_set_error(b, op_error(xi ? xv : yv));
      return;
    }
    emit_view(b, xi ? y : x);
    return;
  }
  int64_t rx = view_rank(x), ry = view_rank(y), r = rx > ry ? rx : ry;
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  for (int64_t j = 0; j < r && b->status == CL_OK; j++) {
    arith_view ex = j < rx ? view_elem(x, j) : (arith_view){&zero_node, 0};
    arith_view ey = j < ry ? view_elem(y, j) : (arith_view){&zero_node, 0};
    add_views(b, ex, ey);
  }
  cl_b_close(b, at);
}

void cl_b_value_add(cl_builder *b, const cl_node *x, const cl_node *y) {
  if (cl_is_int(x) && cl_is_int(y)) {
    int64_t sum = 0;
    cl_status s = cl_add(x->value, y->value, &sum);
    if (s != CL_OK)
      cl_b_set_error(b, s);
    cl_b_int(b, sum);
    return;
  }
  /* C<0> + u is u itself: a basis stays a basis. */
  if (cl_is_int(x) || cl_is_int(y)) {
    const cl_node *i = cl_is_int(x) ? x : y, *other = cl_is_int(x) ? y : x;
    if (i->value != 0) {
      cl_b_set_error(b, op_error(i->value));
      return;
    }
    cl_b_copy(b, other);
    return;
  }
  if ((!cl_is_basis(x) && !cl_is_tuple(x)) || (!cl_is_basis(y) && !cl_is_tuple(y))) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "a coordinate holds integers and scaled bases only"));
    return;
  }
  add_views(b, (arith_view){x, 0}, (arith_view){y, 0});
}

/* ------------------------------------------------------------ forests */

void cl_forest_init(cl_forest *f) {
  cl_b_init(&f->trees);
  cl_b_init(&f->scratch);
}

void cl_forest_sum(cl_forest *f, int32_t at) {
  if (f->trees.status != CL_OK)
    return;
  const cl_node *x = f->trees.nodes + at, *y = x + x->span;
  f->scratch.count = 0;
  cl_b_value_add(&f->scratch, x, y);
  if (f->scratch.status != CL_OK) {
    cl_b_set_error(&f->trees, f->scratch.status);
    return;
  }
  f->trees.count = at;
  cl_b_copy(&f->trees, f->scratch.nodes);
}

void cl_forest_finish(cl_forest *f, cl_builder *b) {
  if (f->trees.status != CL_OK)
    cl_b_set_error(b, f->trees.status);
  else if (f->trees.count > 0)
    cl_b_copy(b, f->trees.nodes);
  cl_b_release(&f->trees);
  cl_b_release(&f->scratch);
}

/* ---------------------------------------------------------- coprofile */

/* CuTe's sum(stride): each tuple summed from the left, 0 + d0 + d1 + ... */
static void append_stride_sum(cl_forest *f, const cl_node *d) {
  if (!cl_is_tuple(d)) {
    cl_b_copy(&f->trees, d);
    return;
  }
  int32_t acc = f->trees.count;
  cl_b_int(&f->trees, 0);
  CL_FOR_EACH_CHILD(c, d) {
    append_stride_sum(f, c);
    cl_forest_sum(f, acc);
  }
}

static void zero_leaves(cl_builder *b, const cl_node *t) {
  if (!cl_is_tuple(t)) {
    cl_b_int(b, 0);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  CL_FOR_EACH_CHILD(c, t) zero_leaves(b, c);
  cl_b_close(b, at);
}

void cl_b_coprofile(cl_builder *out, const cl_node *stride) {
  cl_forest f;
  cl_builder sum, arith;
  cl_forest_init(&f);
  cl_b_init(&sum);
  cl_b_init(&arith);
  append_stride_sum(&f, stride);
  cl_forest_finish(&f, &sum);
  if (sum.status == CL_OK)
    cl_b_as_arith(&arith, sum.nodes);
  cl_status s = sum.status != CL_OK ? sum.status : arith.status;
  if (s == CL_OK)
    zero_leaves(out, arith.nodes);
  else
    cl_b_set_error(out, s);
  cl_b_release(&sum);
  cl_b_release(&arith);
}

/* --------------------------------------------------------- public API */

cl_status cl_tuple_basis(int64_t scale, const int64_t *path, int64_t n, cl_tuple_t **out) {
  CHECK_OUT(out);
  if (n > 0)
    CHECK_NULL(path);
  cl_builder b;
  cl_b_init(&b);
  cl_b_basis(&b, scale, path, n);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_basis_parts(const cl_tuple_t *t, int64_t *scale, int64_t *path, int64_t cap, int64_t *n) {
  CHECK_NULL(t);
  CHECK_NULL(scale);
  CHECK_NULL(n);
  if (cap > 0)
    CHECK_NULL(path);
  const cl_node *e = cl_troot(t);
  if (!cl_is_basis(e))
    return cl_fail(CL_E_TYPE, "the value is not a scaled basis");
  *scale = e->value;
  *n = e->rank;
  for (int64_t k = 0; k < e->rank && k < cap; k++)
    path[k] = e[1 + k].value;
  return CL_OK;
}
