/* SPDX-License-Identifier: BSD-3-Clause */
/* tuple.c: the IntTuple arena (builder, handles) and CuTe's int_tuple.hpp
 * operations on it. */
#include <stdlib.h>

#include "tuple_impl.h"
#include "eval_plan_impl.h"

/* ------------------------------------------------------------------ walk */

const cl_node *cl_child(const cl_node *n, int64_t i) {
  if (!cl_is_tuple(n))
    return n;
  const cl_node *c = cl_first(n);
  while (i-- > 0)
    c = cl_next(c);
  return c;
}

/* --------------------------------------------------------------- builder */

void cl_b_init(cl_builder *b) {
  b->nodes = b->inline_nodes;
  b->count = 0;
  b->cap = CL_BUILDER_INLINE;
  b->status = CL_OK;
}

void cl_b_release(cl_builder *b) {
  if (b->nodes != b->inline_nodes)
    cl_dealloc(b->nodes);
  cl_b_init(b);
}

void cl_b_set_error(cl_builder *b, cl_status status) {
  if (b->status == CL_OK)
    b->status = status;
}

/* Room for n more nodes; false (and a failed builder) when there is none. */
static bool reserve(cl_builder *b, int64_t n) {
  if (b->status != CL_OK)
    return false;
  if (b->count + n <= b->cap)
    return true;
  if (b->count + n > INT32_MAX / 2) {
    cl_b_set_error(b, cl_fail(CL_E_LIMIT, "the value is too large: more than %d integers and tuples", INT32_MAX / 2));
    return false;
  }
  int32_t cap = b->cap;
  while (cap < b->count + n)
    cap *= 2;
  cl_node *grown;
  if (b->nodes == b->inline_nodes) {
    grown = cl_alloc((size_t)cap * sizeof(cl_node));
    if (grown != NULL)
      memcpy(grown, b->nodes, (size_t)b->count * sizeof(cl_node));
  } else {
    grown = cl_realloc(b->nodes, (size_t)cap * sizeof(cl_node));
  }
  if (grown == NULL) {
    cl_b_set_error(b, cl_fail(CL_E_NOMEM, "out of memory"));
    return false;
  }
  b->nodes = grown;
  b->cap = cap;
  return true;
}

static void push_leaf(cl_builder *b, cl_kind kind, int64_t value) {
  if (!reserve(b, 1))
    return;
  b->nodes[b->count++] = (cl_node){value, 1, 0, (uint8_t)kind, 0};
}

void cl_b_int(cl_builder *b, int64_t value) { push_leaf(b, CL_KIND_INT, value); }
void cl_b_underscore(cl_builder *b) { push_leaf(b, CL_KIND_UNDERSCORE, 0); }

int32_t cl_b_open(cl_builder *b, cl_kind kind) {
  if (!reserve(b, 1))
    return -1;
  b->nodes[b->count] = (cl_node){0, 1, 0, (uint8_t)kind, 0};
  return b->count++;
}

void cl_b_close(cl_builder *b, int32_t at) {
  if (b->status != CL_OK)
    return;
  cl_node *n = &b->nodes[at];
  n->span = b->count - at;
  int64_t rank = 0;
  int depth = 0;
  for (const cl_node *c = n + 1; c < b->nodes + b->count; c = cl_next(c)) {
    rank++;
    if (c->depth > depth)
      depth = c->depth;
  }
  if (n->kind == CL_KIND_LAYOUT) {
    n->depth = n[1].depth;
  } else {
    if (rank > CL_MAX_RANK) {
      cl_b_set_error(b, cl_fail(CL_E_LIMIT, "a tuple has %lld elements; at most %d are allowed", (long long)rank, CL_MAX_RANK));
      return;
    }
    if (depth + 1 > CL_MAX_DEPTH) {
      cl_b_set_error(b, cl_fail(CL_E_LIMIT, "nesting deeper than %d levels", CL_MAX_DEPTH));
      return;
    }
    n->depth = (uint8_t)(depth + 1);
  }
  n->rank = (int16_t)rank;
}

void cl_b_copy(cl_builder *b, const cl_node *subtree) {
  if (!reserve(b, subtree->span))
    return;
  memcpy(b->nodes + b->count, subtree, (size_t)subtree->span * sizeof(cl_node));
  b->count += subtree->span;
}

void cl_b_copy_children(cl_builder *b, const cl_node *n) {
  if (!cl_is_tuple(n)) {
    cl_b_copy(b, n);
    return;
  }
  CL_FOR_EACH_CHILD(c, n) cl_b_copy(b, c);
}

static cl_status finish(cl_builder *b, struct cl_tuple **out) {
  *out = NULL;
  if (b->status == CL_OK)
    cl_b_set_error(b, cl_require_layout_shapes(cl_b_root(b)));
  if (b->status != CL_OK) {
    cl_status s = b->status;
    cl_b_release(b);
    return s;
  }
  /* A layout handle carries room for its compiled evaluation plan after its
   * nodes, in the same allocation (eval_plan.c).  A layout the plan cannot
   * answer for (one holding (), which CuTe cannot evaluate, or one that may
   * overflow) gets none: cl_tree_eval then reports it. */
  cl_plan_info plan = {0, 0, 0};
  if (b->count > 0 && b->nodes[0].kind == CL_KIND_LAYOUT)
    cl_plan_measure(cl_lshape(b->nodes), cl_lstride(b->nodes), &plan);
  struct cl_tuple *h = cl_alloc(sizeof *h + (size_t)b->count * sizeof(cl_node) + plan.bytes);
  if (h == NULL) {
    cl_b_release(b);
    return cl_fail(CL_E_NOMEM, "out of memory");
  }
  h->count = b->count;
  memcpy(h->nodes, b->nodes, (size_t)b->count * sizeof(cl_node));
  h->reserved = plan.bytes ? cl_plan_tag(cl_lshape(h->nodes), &plan, h->nodes + h->count) : 0;
  cl_b_release(b);
  *out = h;
  return CL_OK;
}

cl_status cl_b_finish_tuple(cl_builder *b, cl_tuple_t **out) { return finish(b, out); }

cl_status cl_b_finish_layout(cl_builder *b, cl_layout_t **out) {
  return finish(b, (struct cl_tuple **)out);
}

void cl_lb_init(cl_lbuilder *lb) {
  cl_b_init(&lb->shape);
  cl_b_init(&lb->stride);
}

void cl_lb_release(cl_lbuilder *lb) {
  cl_b_release(&lb->shape);
  cl_b_release(&lb->stride);
}

cl_lb_mark cl_lb_open(cl_lbuilder *lb) {
  cl_lb_mark m = {cl_b_open(&lb->shape, CL_KIND_TUPLE), cl_b_open(&lb->stride, CL_KIND_TUPLE)};
  return m;
}

void cl_lb_close(cl_lbuilder *lb, cl_lb_mark m) {
  cl_b_close(&lb->shape, m.shape_at);
  cl_b_close(&lb->stride, m.stride_at);
}

void cl_lb_leaf(cl_lbuilder *lb, int64_t shape, int64_t stride) {
  cl_b_int(&lb->shape, shape);
  cl_b_int(&lb->stride, stride);
}

void cl_lb_copy(cl_lbuilder *lb, const cl_node *shape, const cl_node *stride) {
  cl_b_copy(&lb->shape, shape);
  cl_b_copy(&lb->stride, stride);
}

cl_status cl_lb_status(const cl_lbuilder *lb) {
  return lb->shape.status != CL_OK ? lb->shape.status : lb->stride.status;
}

cl_status cl_lb_finish(cl_lbuilder *lb, cl_layout_t **out) {
  *out = NULL;
  cl_status s = cl_lb_status(lb);
  if (s == CL_OK && (lb->shape.count == 0 || lb->stride.count == 0))
    s = cl_fail(CL_E_RANK, "a layout needs a shape and a stride");
  if (s != CL_OK) {
    cl_lb_release(lb);
    return s;
  }
  s = cl_layout_from_trees(lb->shape.nodes, lb->stride.nodes, out);
  cl_lb_release(lb);
  return s;
}

cl_status cl_tuple_from_tree(const cl_node *root, cl_tuple_t **out) {
  cl_builder b;
  cl_b_init(&b);
  cl_b_copy(&b, root);
  return cl_b_finish_tuple(&b, out);
}

/* The handle straight from the two trees: one allocation, one copy of each
 * (no intermediate builder), and room for the evaluation plan after the
 * nodes (compiled by the first evaluation, eval_plan.c). */
cl_status cl_layout_from_trees(const cl_node *shape, const cl_node *stride, cl_layout_t **out) {
  *out = NULL;
  CL_TRY(cl_require_shape(shape, "a layout's shape"));
  int64_t count = 1 + (int64_t)shape->span + stride->span;
  if (count > INT32_MAX / 2)
    return cl_fail(CL_E_LIMIT, "the value is too large: more than %d integers and tuples", INT32_MAX / 2);
  cl_plan_info plan;
  cl_plan_measure(shape, stride, &plan);
  struct cl_layout *h = cl_alloc(sizeof *h + (size_t)count * sizeof(cl_node) + plan.bytes);
  if (h == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  h->count = (int32_t)count;
  h->nodes[0] = (cl_node){0, (int32_t)count, 2, CL_KIND_LAYOUT, shape->depth};
  memcpy(h->nodes + 1, shape, (size_t)shape->span * sizeof(cl_node));
  memcpy(h->nodes + 1 + shape->span, stride, (size_t)stride->span * sizeof(cl_node));
  h->plan = cl_plan_tag(cl_lshape(h->nodes), &plan, h->nodes + count);
  *out = h;
  return CL_OK;
}

/* ------------------------------------------------------ tree predicates */

bool cl_tree_equal(const cl_node *a, const cl_node *b) {
  if (a->span != b->span)
    return false;
  for (int32_t i = 0; i < a->span; i++)
    if (a[i].kind != b[i].kind || a[i].rank != b[i].rank || a[i].value != b[i].value || a[i].span != b[i].span)
      return false;
  return true;
}

bool cl_tree_all_int(const cl_node *n) {
  for (int32_t i = 0; i < n->span; i++)
    if (n[i].kind != CL_KIND_INT && n[i].kind != CL_KIND_TUPLE)
      return false;
  return true;
}

bool cl_tree_stride_leaves(const cl_node *n) {
  for (int32_t i = 0; i < n->span; i += cl_is_tuple(&n[i]) ? 1 : n[i].span)
    if (n[i].kind != CL_KIND_INT && n[i].kind != CL_KIND_TUPLE && n[i].kind != CL_KIND_BASIS)
      return false;
  return true;
}

cl_status cl_require_int_tuple(const cl_node *n, const char *what) {
  return cl_tree_all_int(n) ? CL_OK : cl_fail(CL_E_TYPE, "%s must be an int tuple (no '_' or layouts)", what);
}

/* A shape counts elements along each mode: an extent is an integer >= 0 (0
 * is an empty mode, which CuTe allows: make_layout(Int<0>{}) is _0:_1).  A
 * negative extent or a non-integer means nothing to CuTe, so the library
 * refuses it wherever a shape enters, rather than compute with it. */
cl_status cl_require_shape(const cl_node *n, const char *what) {
  CL_TRY(cl_require_int_tuple(n, what));
  for (int32_t i = 0; i < n->span; i++)
    if (n[i].kind == CL_KIND_INT && n[i].value < 0)
      return cl_fail(CL_E_DOMAIN, "%s has the negative extent %lld; a shape's extents are integers >= 0", what,
                     (long long)n[i].value);
  return CL_OK;
}

cl_status cl_require_layout_shapes(const cl_node *root) {
  if (root == NULL)
    return CL_OK;
  for (int32_t i = 0; i < root->span; i++)
    if (root[i].kind == CL_KIND_LAYOUT)
      CL_TRY(cl_require_shape(cl_lshape(&root[i]), "a layout's shape"));
  return CL_OK;
}

bool cl_tree_congruent(const cl_node *a, const cl_node *b) {
  if (cl_is_tuple(a) != cl_is_tuple(b))
    return false;
  if (!cl_is_tuple(a))
    return true;
  if (a->rank != b->rank)
    return false;
  for (const cl_node *x = cl_first(a), *y = cl_first(b); x < a + a->span; x = cl_next(x), y = cl_next(y))
    if (!cl_tree_congruent(x, y))
      return false;
  return true;
}

/* weakly_congruent(a, b): a leaf of a may stand for a whole subtree of b. */
bool cl_tree_weakly_congruent(const cl_node *a, const cl_node *b) {
  if (!cl_is_tuple(a))
    return true;
  if (!cl_is_tuple(b) || a->rank != b->rank)
    return false;
  for (const cl_node *x = cl_first(a), *y = cl_first(b); x < a + a->span; x = cl_next(x), y = cl_next(y))
    if (!cl_tree_weakly_congruent(x, y))
      return false;
  return true;
}

static cl_status reduce_with_underscores(const cl_node *n, bool product, int64_t *out);

/* compatible(a, b): every leaf of a equals the size of b's subtree there
 * ('_' counting as 0, as CuTe's Underscore is an Int<0>). */
static cl_status compatible(const cl_node *a, const cl_node *b, int *out) {
  if (!cl_is_tuple(a)) {
    int64_t size;
    CL_TRY(reduce_with_underscores(b, true, &size));
    *out = (a->value == size);
    return CL_OK;
  }
  *out = 0;
  if (!cl_is_tuple(b) || a->rank != b->rank)
    return CL_OK;
  for (const cl_node *x = cl_first(a), *y = cl_first(b); x < a + a->span; x = cl_next(x), y = cl_next(y)) {
    CL_TRY(compatible(x, y, out));
    if (!*out)
      return CL_OK;
  }
  *out = 1;
  return CL_OK;
}

/* ------------------------------------------------------------ reductions */

cl_status cl_tree_product(const cl_node *n, int64_t *out) {
  int64_t p = 1;
  for (int32_t i = 0; i < n->span; i++) {
    if (n[i].kind == CL_KIND_INT)
      CL_TRY(cl_mul(p, n[i].value, &p));
    else if (n[i].kind != CL_KIND_TUPLE)
      return cl_fail(CL_E_TYPE, "product of a value that is not an int tuple");
  }
  *out = p;
  return CL_OK;
}

cl_status cl_tree_inner_product(const cl_node *a, const cl_node *b, int64_t *out) {
  if (cl_is_tuple(a) && cl_is_tuple(b)) {
    if (a->rank != b->rank)
      return cl_fail(CL_E_RANK, "inner_product: ranks %d and %d differ", a->rank, b->rank);
    int64_t s = 0;
    for (const cl_node *x = cl_first(a), *y = cl_first(b); x < a + a->span; x = cl_next(x), y = cl_next(y)) {
      int64_t t;
      CL_TRY(cl_tree_inner_product(x, y, &t));
      CL_TRY(cl_add(s, t, &s));
    }
    *out = s;
    return CL_OK;
  }
  if (cl_is_int(a) && cl_is_int(b))
    return cl_mul(a->value, b->value, out);
  return cl_fail(CL_E_RANK, "inner_product: mismatched ranks: an integer against a tuple");
}

int64_t cl_tree_leaf_count(const cl_node *n) {
  int64_t k = 0;
  for (int32_t i = 0; i < n->span; i += cl_is_tuple(&n[i]) ? 1 : n[i].span)
    k += !cl_is_tuple(&n[i]);
  return k;
}

void cl_tree_leaves(const cl_node *n, const cl_node **out) {
  int64_t k = 0;
  for (int32_t i = 0; i < n->span; i += cl_is_tuple(&n[i]) ? 1 : n[i].span)
    if (!cl_is_tuple(&n[i]))
      out[k++] = &n[i];
}

/* ---------------------------------------------------- tuple transforms */

void cl_b_flatten(cl_builder *b, const cl_node *n) {
  if (!cl_is_tuple(n)) {
    cl_b_copy(b, n);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  for (int32_t i = 0; i < n->span; i += cl_is_tuple(&n[i]) ? 1 : n[i].span)
    if (!cl_is_tuple(&n[i]))
      cl_b_copy(b, &n[i]);
  cl_b_close(b, at);
}

void cl_b_unflatten(cl_builder *b, const cl_node *const *flat, int64_t nflat, int64_t *next, const cl_node *profile) {
  if (!cl_is_tuple(profile)) {
    if (*next >= nflat) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "unflatten: the flat tuple has fewer elements than the profile has leaves"));
      return;
    }
    cl_b_copy(b, flat[(*next)++]);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  CL_FOR_EACH_CHILD(c, profile) cl_b_unflatten(b, flat, nflat, next, c);
  cl_b_close(b, at);
}

/* An integer of an int tuple, or a failed builder. */
static bool int_of(cl_builder *b, const cl_node *n, const char *what) {
  if (cl_is_int(n))
    return true;
  cl_b_set_error(b, cl_fail(CL_E_TYPE, "%s must be an integer", what));
  return false;
}

/* The product of a subtree, or a failed builder. */
static int64_t product_or_fail(cl_builder *b, const cl_node *n) {
  int64_t p = 1;
  cl_status s = cl_tree_product(n, &p);
  if (s != CL_OK)
    cl_b_set_error(b, s);
  return p;
}

static cl_status shape_div_int(int64_t a, int64_t d, int64_t *r) {
  int64_t a_mod_d, d_mod_a = 1;
  CL_TRY(cl_mod(a, d, &a_mod_d));
  if (a != 0)
    CL_TRY(cl_mod(d, a, &d_mod_a));
  if (a_mod_d != 0 && d_mod_a != 0)
    return cl_fail(CL_E_DIVISIBILITY, "shape_div: divisibility condition violated: neither %lld %% %lld == 0 nor %lld %% %lld == 0",
                   (long long)a, (long long)d, (long long)d, (long long)a);
  return cl_ceil_div_int(a, d, r);
}

typedef cl_status (*int_op)(int64_t, int64_t, int64_t *);

/* The fold shared by shape_div and ceil_div with a tuple and an integer:
 * a_i op= rest, then rest = rest op a_i, left to right. */
static void div_fold(cl_builder *b, const cl_node *a, int64_t d, int_op op, int64_t *rest_out) {
  if (!cl_is_tuple(a)) {
    if (!int_of(b, a, "dividend"))
      return;
    int64_t q = 0, rest = 0;
    cl_status s = op(a->value, d, &q);
    if (s == CL_OK)
      s = op(d, a->value, &rest);
    if (s != CL_OK) {
      cl_b_set_error(b, s);
      return;
    }
    cl_b_int(b, q);
    *rest_out = rest;
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  int64_t rest = d;
  CL_FOR_EACH_CHILD(c, a) {
    if (b->status != CL_OK)
      break;
    /* rest = op(rest, product(c)), done by the recursive call on a leaf and
     * here for a subtree: CuTe divides the remaining divisor by the whole mode. */
    if (cl_is_tuple(c)) {
      int64_t inner_rest;
      div_fold(b, c, rest, op, &inner_rest);
      int64_t pc = product_or_fail(b, c), next = 0;
      cl_status s = op(rest, pc, &next);
      if (s != CL_OK)
        cl_b_set_error(b, s);
      rest = next;
    } else {
      div_fold(b, c, rest, op, &rest);
    }
  }
  cl_b_close(b, at);
  *rest_out = rest;
}

static void elementwise_div(cl_builder *b, const cl_node *a, const cl_node *d, int_op op, bool pad_missing) {
  if (cl_is_tuple(a) && cl_is_tuple(d)) {
    if (pad_missing ? a->rank < d->rank : a->rank != d->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "%s: mismatched ranks %d and %d", op == shape_div_int ? "shape_div" : "ceil_div", a->rank, d->rank));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *y = cl_first(d);
    CL_FOR_EACH_CHILD(x, a) {
      if (y < d + d->span) {
        elementwise_div(b, x, y, op, pad_missing);
        y = cl_next(y);
      } else {
        /* Missing modes of the divisor are 1; CuTe still divides by it, and
         * the fold's rest (1 / a_i) can fail on a 0 extent. */
        cl_int_node one = cl_int_leaf(1);
        elementwise_div(b, x, &one.node, op, pad_missing);
      }
    }
    cl_b_close(b, at);
    return;
  }
  int64_t dv = product_or_fail(b, d);
  if (b->status != CL_OK)
    return;
  if (cl_is_tuple(a)) {
    int64_t rest;
    div_fold(b, a, dv, op, &rest);
    return;
  }
  if (!int_of(b, a, "dividend"))
    return;
  int64_t q = 0;
  cl_status s = op(a->value, dv, &q);
  if (s != CL_OK)
    cl_b_set_error(b, s);
  cl_b_int(b, q);
}

void cl_b_shape_div(cl_builder *b, const cl_node *a, const cl_node *d) { elementwise_div(b, a, d, shape_div_int, false); }
void cl_b_ceil_div(cl_builder *b, const cl_node *a, const cl_node *d) { elementwise_div(b, a, d, cl_ceil_div_int, true); }

void cl_b_elem_scale(cl_builder *b, const cl_node *a, const cl_node *s) {
  if (cl_is_tuple(a)) {
    if (!cl_is_tuple(s) || s->rank != a->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "elem_scale: the scale must be a tuple of rank %d", a->rank));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *y = cl_first(s);
    CL_FOR_EACH_CHILD(x, a) {
      cl_b_elem_scale(b, x, y);
      y = cl_next(y);
    }
    cl_b_close(b, at);
    return;
  }
  if (!int_of(b, a, "elem_scale operand"))
    return;
  int64_t p = product_or_fail(b, s), r = 0;
  cl_status st = cl_mul(a->value, p, &r);
  if (st != CL_OK)
    cl_b_set_error(b, st);
  cl_b_int(b, r);
}

void cl_b_prefix_product(cl_builder *b, const cl_node *a, int64_t init) {
  if (!cl_is_tuple(a)) {
    cl_b_int(b, init);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  int64_t current = init;
  CL_FOR_EACH_CHILD(c, a) {
    cl_b_prefix_product(b, c, current);
    int64_t next;
    cl_status s = cl_mul(current, product_or_fail(b, c), &next);
    if (s != CL_OK) { /* next holds the wrapped product: keep current */
      cl_b_set_error(b, s);
      break;
    }
    current = next;
  }
  cl_b_close(b, at);
}

/* ------------------------------------------------------------ public API */

cl_status cl_tuple_int(int64_t value, cl_tuple_t **out) {
  CHECK_OUT(out);
  cl_builder b;
  cl_b_init(&b);
  cl_b_int(&b, value);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_underscore(cl_tuple_t **out) {
  CHECK_OUT(out);
  cl_builder b;
  cl_b_init(&b);
  cl_b_underscore(&b);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_from_ints(const int64_t *values, int64_t n, cl_tuple_t **out) {
  CHECK_OUT(out);
  if (n > 0)
    CHECK_NULL(values);
  if (n < 0)
    return cl_fail(CL_E_DOMAIN, "cl_tuple_from_ints: negative count");
  cl_builder b;
  cl_b_init(&b);
  int32_t at = cl_b_open(&b, CL_KIND_TUPLE);
  for (int64_t i = 0; i < n && b.status == CL_OK; i++)
    cl_b_int(&b, values[i]);
  cl_b_close(&b, at);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_make(const cl_tuple_t *const *elems, int64_t n, cl_tuple_t **out) {
  CHECK_OUT(out);
  if (n > 0)
    CHECK_NULL(elems);
  if (n < 0)
    return cl_fail(CL_E_DOMAIN, "cl_tuple_make: negative count");
  for (int64_t i = 0; i < n; i++)
    if (elems[i] == NULL)
      return cl_fail(CL_E_NULL, "cl_tuple_make: element %lld is NULL", (long long)i);
  cl_builder b;
  cl_b_init(&b);
  int32_t at = cl_b_open(&b, CL_KIND_TUPLE);
  for (int64_t i = 0; i < n && b.status == CL_OK; i++)
    cl_b_copy(&b, cl_troot(elems[i]));
  cl_b_close(&b, at);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_from_layout(const cl_layout_t *layout, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  return cl_tuple_from_tree(cl_lroot(layout), out);
}

cl_status cl_tuple_copy(const cl_tuple_t *t, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  return cl_tuple_from_tree(cl_troot(t), out);
}

void cl_tuple_free(cl_tuple_t *t) { cl_dealloc(t); }

cl_kind cl_tuple_kind(const cl_tuple_t *t) { return t ? (cl_kind)t->nodes[0].kind : CL_KIND_INT; }

cl_status cl_tuple_value(const cl_tuple_t *t, int64_t *value) {
  CHECK_NULL(t);
  CHECK_NULL(value);
  if (!cl_is_int(cl_troot(t)))
    return cl_fail(CL_E_TYPE, "the value is not an integer");
  *value = t->nodes[0].value;
  return CL_OK;
}

cl_status cl_tuple_layout(const cl_tuple_t *t, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  const cl_node *r = cl_troot(t);
  if (r->kind != CL_KIND_LAYOUT)
    return cl_fail(CL_E_TYPE, "the value is not a layout");
  return cl_layout_from_trees(cl_lshape(r), cl_lstride(r), out);
}

int64_t cl_tuple_rank(const cl_tuple_t *t) { return t ? cl_rank_of(cl_troot(t)) : CL_E_NULL; }

cl_status cl_tree_depth(const cl_node *n, int64_t *out) {
  /* CuTe's depth is 1 + max over the elements, and max of no elements does
   * not compile: an empty tuple anywhere in the tree has no depth. */
  for (int32_t i = 0; i < n->span; i++)
    if (cl_is_tuple(&n[i]) && n[i].rank == 0)
      return cl_fail(CL_E_DOMAIN, "depth: an empty tuple () has no depth (CuTe's max of no elements)");
  *out = cl_is_tuple(n) ? n->depth : 0;
  return CL_OK;
}

int64_t cl_tuple_depth(const cl_tuple_t *t) {
  if (t == NULL)
    return cl_fail(CL_E_NULL, "cl_tuple_depth: argument 't' is NULL");
  int64_t depth;
  cl_status s = cl_tree_depth(cl_troot(t), &depth);
  return s == CL_OK ? depth : s;
}

/* Follows a path of element indices; a leaf is its own element 0. */
static cl_status follow_path(const cl_node *n, const int64_t *path, int64_t len, const cl_node **out) {
  for (int64_t k = 0; k < len; k++) {
    int64_t r = cl_rank_of(n);
    if (path[k] < 0 || path[k] >= r)
      return cl_fail(CL_E_DOMAIN, "get: index %lld out of range for rank %lld", (long long)path[k], (long long)r);
    n = cl_child(n, path[k]);
  }
  *out = n;
  return CL_OK;
}

cl_status cl_tuple_get(const cl_tuple_t *t, const int64_t *path, int64_t n, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  if (n > 0)
    CHECK_NULL(path);
  const cl_node *sub = NULL;
  CL_TRY(follow_path(cl_troot(t), path, n, &sub));
  return cl_tuple_from_tree(sub, out);
}

int cl_tuple_equal(const cl_tuple_t *a, const cl_tuple_t *b) {
  return a && b && cl_tree_equal(cl_troot(a), cl_troot(b));
}

/* CuTe's Underscore is an Int<0>: in the int_tuple.hpp reductions of the
 * public API an '_' leaf counts as 0 (size((2,_)) == 0). */
static cl_status reduce_with_underscores(const cl_node *n, bool product, int64_t *out) {
  int64_t acc = product ? 1 : 0;
  for (int32_t i = 0; i < n->span; i++) {
    if (n[i].kind == CL_KIND_TUPLE)
      continue;
    if (n[i].kind != CL_KIND_INT && n[i].kind != CL_KIND_UNDERSCORE)
      return cl_fail(CL_E_TYPE, "%s of a value that is not an int tuple", product ? "product" : "sum");
    CL_TRY(product ? cl_mul(acc, n[i].value, &acc) : cl_add(acc, n[i].value, &acc));
  }
  *out = acc;
  return CL_OK;
}

cl_status cl_tuple_product(const cl_tuple_t *t, int64_t *out) {
  CHECK_NULL(t);
  CHECK_NULL(out);
  return reduce_with_underscores(cl_troot(t), true, out);
}

cl_status cl_tuple_sum(const cl_tuple_t *t, int64_t *out) {
  CHECK_NULL(t);
  CHECK_NULL(out);
  return reduce_with_underscores(cl_troot(t), false, out);
}

cl_status cl_tuple_inner_product(const cl_tuple_t *a, const cl_tuple_t *b, int64_t *out) {
  CHECK_NULL(a);
  CHECK_NULL(b);
  CHECK_NULL(out);
  CL_TRY(cl_require_int_tuple(cl_troot(a), "inner_product operand"));
  CL_TRY(cl_require_int_tuple(cl_troot(b), "inner_product operand"));
  return cl_tree_inner_product(cl_troot(a), cl_troot(b), out);
}

cl_status cl_tuple_flatten(const cl_tuple_t *t, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  cl_builder b;
  cl_b_init(&b);
  cl_b_flatten(&b, cl_troot(t));
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_unflatten(const cl_tuple_t *flat, const cl_tuple_t *profile, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(flat);
  CHECK_NULL(profile);
  /* An integer is a flat tuple of rank 1 (CuTe's get<0> of an integer). */
  const cl_node *f = cl_troot(flat);
  int64_t nflat = cl_rank_of(f), next = 0;
  const cl_node **leaves = cl_alloc((size_t)(nflat ? nflat : 1) * sizeof *leaves);
  if (leaves == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  for (int64_t k = 0; k < nflat; k++)
    leaves[k] = cl_child(f, k);
  cl_builder b;
  cl_b_init(&b);
  cl_b_unflatten(&b, leaves, nflat, &next, cl_troot(profile));
  cl_dealloc(leaves);
  if (b.status == CL_OK && next != nflat)
    cl_b_set_error(&b, cl_fail(CL_E_RANK, "unflatten: the flat tuple has %lld elements but the profile has %lld leaves",
                               (long long)nflat, (long long)next));
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_congruent(const cl_tuple_t *a, const cl_tuple_t *b, int *out) {
  CHECK_NULL(a);
  CHECK_NULL(b);
  CHECK_NULL(out);
  *out = cl_tree_congruent(cl_troot(a), cl_troot(b));
  return CL_OK;
}

cl_status cl_tuple_weakly_congruent(const cl_tuple_t *a, const cl_tuple_t *b, int *out) {
  CHECK_NULL(a);
  CHECK_NULL(b);
  CHECK_NULL(out);
  *out = cl_tree_weakly_congruent(cl_troot(a), cl_troot(b));
  return CL_OK;
}

cl_status cl_tuple_compatible(const cl_tuple_t *a, const cl_tuple_t *b, int *out) {
  CHECK_NULL(a);
  CHECK_NULL(b);
  CHECK_NULL(out);
  for (int k = 0; k < 2; k++) {
    const cl_node *n = cl_troot(k ? b : a);
    for (int32_t i = 0; i < n->span; i++)
      if (n[i].kind == CL_KIND_LAYOUT)
        return cl_fail(CL_E_TYPE, "compatible operand must be an int tuple (no layouts)");
  }
  return compatible(cl_troot(a), cl_troot(b), out);
}

typedef void (*binary_builder)(cl_builder *, const cl_node *, const cl_node *);

static cl_status build_binary(const cl_tuple_t *a, const cl_tuple_t *d, cl_tuple_t **out, binary_builder f, const char *what) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(d);
  CL_TRY(cl_require_int_tuple(cl_troot(a), what));
  CL_TRY(cl_require_int_tuple(cl_troot(d), what));
  cl_builder b;
  cl_b_init(&b);
  f(&b, cl_troot(a), cl_troot(d));
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_tuple_shape_div(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out) {
  return build_binary(a, b, out, cl_b_shape_div, "shape_div operand");
}
cl_status cl_tuple_ceil_div(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out) {
  return build_binary(a, b, out, cl_b_ceil_div, "ceil_div operand");
}
cl_status cl_tuple_elem_scale(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out) {
  return build_binary(a, b, out, cl_b_elem_scale, "elem_scale operand");
}

/* CuTe's elem_less: a tuple is less than another when each of its elements
 * is, one by one, and the other has an element there; integers compare as
 * integers ('_' is CuTe's Int<0>).  CuTe compiles every pair it meets before
 * it knows the answer, so a pair it cannot compare (an integer against a
 * tuple, a scaled basis) fails the call wherever it is. */
static cl_status elem_less_tree(const cl_node *a, const cl_node *b, int *out) {
  bool ta = cl_is_tuple(a), tb = cl_is_tuple(b);
  if (ta && tb) {
    int all = 1;
    const cl_node *y = cl_first(b);
    int64_t i = 0;
    CL_FOR_EACH_CHILD(x, a) {
      if (i++ == b->rank) { /* b is exhausted: false, and nothing further is compared */
        all = 0;
        break;
      }
      int less = 0;
      CL_TRY(elem_less_tree(x, y, &less));
      all &= less;
      y = cl_next(y);
    }
    *out = all;
    return CL_OK;
  }
  if (ta || tb)
    return cl_fail(CL_E_RANK, "elem_less: an integer cannot be compared with a tuple");
  for (int k = 0; k < 2; k++) {
    const cl_node *n = k ? b : a;
    if (n->kind != CL_KIND_INT && n->kind != CL_KIND_UNDERSCORE)
      return cl_fail(CL_E_TYPE, "elem_less: the values must hold integers (CuTe has no order on %s)",
                     n->kind == CL_KIND_BASIS ? "scaled bases" : "layouts");
  }
  *out = a->value < b->value;
  return CL_OK;
}

cl_status cl_elem_less(const cl_tuple_t *a, const cl_tuple_t *b, int *out) {
  CHECK_NULL(a);
  CHECK_NULL(b);
  CHECK_NULL(out);
  *out = 0;
  int less = 0;
  CL_TRY(elem_less_tree(cl_troot(a), cl_troot(b), &less));
  *out = less;
  return CL_OK;
}

cl_status cl_tuple_prefix_product(const cl_tuple_t *a, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CL_TRY(cl_require_int_tuple(cl_troot(a), "prefix_product operand"));
  cl_builder b;
  cl_b_init(&b);
  cl_b_prefix_product(&b, cl_troot(a), 1);
  return cl_b_finish_tuple(&b, out);
}

/* ------------------------------------------------- reductions: max, min, gcd */

/* CuTe's gcd of two integers: Euclid's loop in C's arithmetic, so a negative
 * operand may give a negative result (gcd(4,-6) is -2, as in CuTe). */
static cl_status cute_gcd(int64_t t, int64_t u, int64_t *out) {
  for (;;) {
    if (t == 0) {
      *out = u;
      return CL_OK;
    }
    CL_TRY(cl_mod(u, t, &u));
    if (u == 0) {
      *out = t;
      return CL_OK;
    }
    CL_TRY(cl_mod(t, u, &t));
  }
}

typedef enum { REDUCE_MAX, REDUCE_MIN, REDUCE_GCD } reduce_op;
static const char *const reduce_names[] = {"max", "min", "gcd"};

static cl_status reduce_pair(reduce_op op, int64_t a, int64_t b, int64_t *out) {
  switch (op) {
  case REDUCE_MAX: *out = a > b ? a : b; return CL_OK;
  case REDUCE_MIN: *out = a < b ? a : b; return CL_OK;
  default: return cute_gcd(a, b, out);
  }
}

/* CuTe's max(t0, t1, ...), min and gcd: a tuple stands for the reduction of
 * its elements, and the elements are folded from the right, op(e0, op(e1,
 * ...)) (which matters for gcd's signs).  An empty tuple has no value (CuTe's
 * call with no arguments does not compile). */
static cl_status reduce_tree(reduce_op op, const cl_node *n, int64_t *out) {
  if (!cl_is_tuple(n)) {
    if (!cl_is_int(n))
      return cl_fail(CL_E_TYPE, "%s: the operands must be int tuples (no '_' or layouts)", reduce_names[op]);
    *out = n->value;
    return CL_OK;
  }
  if (n->rank == 0)
    return cl_fail(CL_E_DOMAIN, "%s: an empty tuple () has no %s (CuTe's call with no arguments)", reduce_names[op],
                   reduce_names[op]);
  /* Right fold: reduce the last element, then combine leftwards. */
  int64_t k = n->rank, acc = 0;
  CL_TRY(reduce_tree(op, cl_child(n, k - 1), &acc));
  for (k -= 2; k >= 0; k--) {
    int64_t e;
    CL_TRY(reduce_tree(op, cl_child(n, k), &e));
    CL_TRY(reduce_pair(op, e, acc, &acc));
  }
  *out = acc;
  return CL_OK;
}

static cl_status reduce_public(reduce_op op, const cl_tuple_t *t, int64_t *out) {
  CHECK_NULL(t);
  CHECK_NULL(out);
  return reduce_tree(op, cl_troot(t), out);
}

cl_status cl_tuple_max(const cl_tuple_t *t, int64_t *out) { return reduce_public(REDUCE_MAX, t, out); }
cl_status cl_tuple_min(const cl_tuple_t *t, int64_t *out) { return reduce_public(REDUCE_MIN, t, out); }
cl_status cl_tuple_gcd(const cl_tuple_t *t, int64_t *out) { return reduce_public(REDUCE_GCD, t, out); }

/* ------------------------------------------------- product_each, product_like */

/* CuTe's product of one element: an integer, or '_' (CuTe's Underscore is
 * an integral Int<0>, its own product), stays itself; a tuple's product is
 * the product of its leaves. */
static void product_element(cl_builder *b, const cl_node *e) {
  if (!cl_is_tuple(e) && e->kind == CL_KIND_UNDERSCORE) {
    cl_b_underscore(b);
    return;
  }
  int64_t p;
  cl_status s = reduce_with_underscores(e, true, &p);
  if (s != CL_OK)
    cl_b_set_error(b, s);
  else
    cl_b_int(b, p);
}

cl_status cl_tuple_product_each(const cl_tuple_t *t, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  const cl_node *n = cl_troot(t);
  cl_builder b;
  cl_b_init(&b);
  int32_t at = cl_b_open(&b, CL_KIND_TUPLE);
  if (cl_is_tuple(n)) {
    CL_FOR_EACH_CHILD(e, n) product_element(&b, e);
  } else {
    product_element(&b, n); /* CuTe wraps a non-tuple: (t) */
  }
  cl_b_close(&b, at);
  return cl_b_finish_tuple(&b, out);
}

/* At each leaf of guide, the product of t's subtree there. */
static void product_like_tree(cl_builder *b, const cl_node *t, const cl_node *guide) {
  if (!cl_is_tuple(guide)) {
    product_element(b, t);
    return;
  }
  if (!cl_is_tuple(t) || t->rank != guide->rank) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "product_like: the guide's profile is not a coarsening of the tuple's (CuTe's transform needs equal ranks)"));
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  const cl_node *x = cl_first(t);
  CL_FOR_EACH_CHILD(g, guide) {
    product_like_tree(b, x, g);
    x = cl_next(x);
  }
  cl_b_close(b, at);
}

cl_status cl_tuple_product_like(const cl_tuple_t *t, const cl_tuple_t *guide, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  CHECK_NULL(guide);
  cl_builder b;
  cl_b_init(&b);
  product_like_tree(&b, cl_troot(t), cl_troot(guide));
  return cl_b_finish_tuple(&b, out);
}

/* ------------------------------------------------- round_up */

static void round_up_tree(cl_builder *b, const cl_node *a, const cl_node *d) {
  if (cl_is_tuple(a) && cl_is_tuple(d)) {
    if (d->rank > a->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "round_up: the divisor has more modes (%d) than the value (%d)", d->rank, a->rank));
      return;
    }
    /* CuTe: the modes missing from the divisor are 1. */
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *y = cl_first(d);
    cl_int_node one = cl_int_leaf(1);
    CL_FOR_EACH_CHILD(x, a) {
      bool have = y < d + d->span;
      round_up_tree(b, x, have ? y : &one.node);
      if (have)
        y = cl_next(y);
    }
    cl_b_close(b, at);
    return;
  }
  if (cl_is_tuple(a) || cl_is_tuple(d)) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "round_up: an integer and a tuple (CuTe rounds integers, or tuples mode by mode)"));
    return;
  }
  /* ((a + d - 1) / d) * d */
  int64_t q, r;
  cl_status s = cl_ceil_div_int(a->value, d->value, &q);
  if (s == CL_OK)
    s = cl_mul(q, d->value, &r);
  if (s != CL_OK)
    cl_b_set_error(b, s);
  else
    cl_b_int(b, r);
}

cl_status cl_tuple_round_up(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out) {
  return build_binary(a, b, out, round_up_tree, "round_up operand");
}

/* ------------------------------------------------- filter_zeros of int tuples */

/* Where a leaf of a is 0, b's subtree there becomes all 1s; elsewhere b. */
static void repeat_one(cl_builder *b, const cl_node *like) {
  if (!cl_is_tuple(like)) {
    cl_b_int(b, 1);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  CL_FOR_EACH_CHILD(c, like) repeat_one(b, c);
  cl_b_close(b, at);
}

static void filter_zeros_tree(cl_builder *b, const cl_node *a, const cl_node *t) {
  if (!cl_is_tuple(a)) {
    if (cl_is_int(a) && a->value == 0)
      repeat_one(b, t);
    else
      cl_b_copy(b, t);
    return;
  }
  if (!cl_is_tuple(t) || t->rank != a->rank) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "filter_zeros: the profile of the first tuple is not a coarsening of the second's"));
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  const cl_node *y = cl_first(t);
  CL_FOR_EACH_CHILD(x, a) {
    filter_zeros_tree(b, x, y);
    y = cl_next(y);
  }
  cl_b_close(b, at);
}

cl_status cl_tuple_filter_zeros(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(b);
  cl_builder bld;
  cl_b_init(&bld);
  filter_zeros_tree(&bld, cl_troot(a), cl_troot(b));
  return cl_b_finish_tuple(&bld, out);
}

/* ------------------------------------------------- comparisons */

/* CuTe's lex_less and colex_less (int_tuple.hpp), next to elem_less above:
 * integers compare with < ('_' is CuTe's Int<0>); two tuples of any ranks
 * element by element from the first (lex) or the last (colex) elements, the
 * first pair that differs deciding and a proper prefix being less.  As for
 * elem_less, CuTe compiles every pair of the common prefix, so a pair it
 * cannot compare fails the call wherever it is. */
typedef enum { ORDER_LEX, ORDER_COLEX } order_kind;
static const char *const order_names[] = {"lex_less", "colex_less"};

static cl_status less_tree(order_kind k, const cl_node *a, const cl_node *b, bool *out);

static cl_status less_tuples(order_kind k, const cl_node *a, const cl_node *b, bool *out) {
  int64_t ra = a->rank, rb = b->rank, n = ra < rb ? ra : rb;
  bool decided = false;
  *out = ra < rb; /* all of the common prefix equal: the shorter is less */
  for (int64_t i = 0; i < n; i++) {
    const cl_node *x = cl_child(a, k == ORDER_COLEX ? ra - 1 - i : i);
    const cl_node *y = cl_child(b, k == ORDER_COLEX ? rb - 1 - i : i);
    bool less;
    CL_TRY(less_tree(k, x, y, &less));
    if (!decided && (less || !cl_tree_equal(x, y))) {
      *out = less;
      decided = true;
    }
  }
  return CL_OK;
}

static cl_status less_tree(order_kind k, const cl_node *a, const cl_node *b, bool *out) {
  if (cl_is_tuple(a) && cl_is_tuple(b))
    return less_tuples(k, a, b, out);
  if (cl_is_tuple(a) || cl_is_tuple(b))
    return cl_fail(CL_E_RANK, "%s: an integer cannot be compared with a tuple", order_names[k]);
  for (int j = 0; j < 2; j++) {
    const cl_node *n = j ? b : a;
    if (n->kind != CL_KIND_INT && n->kind != CL_KIND_UNDERSCORE)
      return cl_fail(CL_E_TYPE, "%s: the values must hold integers (CuTe has no order on %s)", order_names[k],
                     n->kind == CL_KIND_LAYOUT ? "layouts" : "scaled bases");
  }
  *out = a->value < b->value;
  return CL_OK;
}

static cl_status less_public(order_kind k, const cl_tuple_t *a, const cl_tuple_t *b, int *out) {
  CHECK_NULL(a);
  CHECK_NULL(b);
  CHECK_NULL(out);
  *out = 0;
  bool less;
  CL_TRY(less_tree(k, cl_troot(a), cl_troot(b), &less));
  *out = less;
  return CL_OK;
}

cl_status cl_lex_less(const cl_tuple_t *a, const cl_tuple_t *b, int *out) { return less_public(ORDER_LEX, a, b, out); }
cl_status cl_colex_less(const cl_tuple_t *a, const cl_tuple_t *b, int *out) { return less_public(ORDER_COLEX, a, b, out); }

/* ------------------------------------------------- the lattice of shapes */

static cl_status no_refinement(const cl_node *a, const cl_node *b) {
  char ta[128], tb[128];
  cl_format_tree(a, ta, sizeof ta);
  cl_format_tree(b, tb, sizeof tb);
  return cl_fail(CL_E_DOMAIN, "common_refinement: no shape refines both %s and %s", ta, tb);
}

static void refinement_tree(cl_builder *b, const cl_node *x, const cl_node *y) {
  if (cl_is_tuple(x) && cl_is_tuple(y)) {
    if (x->rank != y->rank) {
      cl_b_set_error(b, no_refinement(x, y));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *c = cl_first(y);
    CL_FOR_EACH_CHILD(e, x) {
      if (b->status != CL_OK)
        break; /* keep the first failure's message */
      refinement_tree(b, e, c);
      c = cl_next(c);
    }
    cl_b_close(b, at);
    return;
  }
  /* An integer refines into any shape of its size: the tuple side is the
   * finer one (two integers must be equal). */
  int64_t sx, sy;
  cl_status s = cl_tree_product(x, &sx);
  if (s == CL_OK)
    s = cl_tree_product(y, &sy);
  if (s == CL_OK && sx != sy)
    s = no_refinement(x, y);
  if (s != CL_OK)
    cl_b_set_error(b, s);
  else
    cl_b_copy(b, cl_is_tuple(x) ? x : y);
}

/* Mode by mode where that works; else the size.  Returns false (building
 * nothing) when the sizes differ. */
static bool coarsening_tree(cl_builder *b, const cl_node *x, const cl_node *y) {
  int64_t sx, sy;
  cl_status s = cl_tree_product(x, &sx);
  if (s == CL_OK)
    s = cl_tree_product(y, &sy);
  if (s != CL_OK) {
    cl_b_set_error(b, s);
    return true;
  }
  if (sx != sy)
    return false;
  if (cl_is_tuple(x) && cl_is_tuple(y) && x->rank == y->rank) {
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    int32_t mark = b->count;
    const cl_node *c = cl_first(y);
    bool modes = true;
    CL_FOR_EACH_CHILD(e, x) {
      modes = modes && coarsening_tree(b, e, c);
      c = cl_next(c);
    }
    if (modes) {
      cl_b_close(b, at);
      return true;
    }
    b->count = mark - 1; /* drop the opened tuple and its elements */
  }
  cl_b_int(b, sx);
  return true;
}

static cl_status lattice_public(const cl_tuple_t *a, const cl_tuple_t *b, bool refine, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(a);
  CHECK_NULL(b);
  const char *what = refine ? "common_refinement operand" : "common_coarsening operand";
  CL_TRY(cl_require_int_tuple(cl_troot(a), what));
  CL_TRY(cl_require_int_tuple(cl_troot(b), what));
  cl_builder bld;
  cl_b_init(&bld);
  if (refine) {
    refinement_tree(&bld, cl_troot(a), cl_troot(b));
  } else if (!coarsening_tree(&bld, cl_troot(a), cl_troot(b))) {
    char ta[128], tb[128];
    cl_format_tree(cl_troot(a), ta, sizeof ta);
    cl_format_tree(cl_troot(b), tb, sizeof tb);
    cl_b_set_error(&bld, cl_fail(CL_E_DOMAIN, "common_coarsening: %s and %s have different sizes", ta, tb));
  }
  return cl_b_finish_tuple(&bld, out);
}

cl_status cl_common_refinement(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out) {
  return lattice_public(a, b, true, out);
}
cl_status cl_common_coarsening(const cl_tuple_t *a, const cl_tuple_t *b, cl_tuple_t **out) {
  return lattice_public(a, b, false, out);
}
