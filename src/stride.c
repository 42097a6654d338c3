/* SPDX-License-Identifier: BSD-3-Clause */
/* stride.c: coordinates and indices (CuTe's stride.hpp): crd2idx, idx2crd,
 * crd2crd and the compact strides. */
#include "tuple_impl.h"

/* crd2idx(crd, shape, stride):
 *   tuple crd: the sum over modes of crd2idx(crd_i, shape_i, stride_i);
 *   integer crd, tuple shape: split crd colexicographically, each mode taking
 *     crd % size(mode) and passing crd / size(mode) on; the last mode takes
 *     the rest without a modulus;
 *   integers: crd * stride. */
/* CuTe sums the modes with a fold that has no value for zero modes, so a
 * coordinate can never be mapped through an empty tuple (). */
static cl_status no_empty_mode(const cl_node *shape) {
  if (cl_is_tuple(shape) && shape->rank == 0)
    return cl_fail(CL_E_DOMAIN, "crd2idx: a coordinate cannot be mapped through an empty tuple ()");
  return CL_OK;
}

cl_status cl_tree_crd2idx(const cl_node *crd, const cl_node *shape, const cl_node *stride, int64_t *out) {
  CL_TRY(no_empty_mode(shape));
  if (cl_is_tuple(shape) && (!cl_is_tuple(stride) || stride->rank != shape->rank))
    return cl_fail(CL_E_RANK, "crd2idx: shape and stride are not congruent");
  if (cl_is_tuple(crd)) {
    if (!cl_is_tuple(shape))
      return cl_fail(CL_E_RANK, "crd2idx: invalid parameters: a tuple coordinate for an integer shape");
    if (crd->rank != shape->rank)
      return cl_fail(CL_E_RANK, "crd2idx: coordinate of rank %d for a shape of rank %d", crd->rank, shape->rank);
    int64_t sum = 0;
    const cl_node *s = cl_first(shape), *d = cl_first(stride);
    CL_FOR_EACH_CHILD(c, crd) {
      int64_t t;
      CL_TRY(cl_tree_crd2idx(c, s, d, &t));
      CL_TRY(cl_add(sum, t, &sum));
      s = cl_next(s);
      d = cl_next(d);
    }
    *out = sum;
    return CL_OK;
  }
  /* CuTe's Underscore is an Int<0>, so '_' evaluates as 0. */
  if (crd->kind == CL_KIND_UNDERSCORE)
    return cl_tree_eval(shape, stride, 0, out);
  if (crd->kind != CL_KIND_INT)
    return cl_fail(CL_E_TYPE, "crd2idx: the coordinate must hold integers");
  return cl_tree_eval(shape, stride, crd->value, out);
}

/* An integer index is asked of a layout whose values are coordinates. */
static cl_status coordinate_valued(void) {
  return cl_fail(CL_E_TYPE, "crd2idx: the layout's strides hold scaled bases, so its values are coordinates, not "
                            "indices (evaluate it to a tuple)");
}

cl_status cl_tree_eval(const cl_node *shape, const cl_node *stride, int64_t i, int64_t *out) {
  CL_TRY(no_empty_mode(shape));
  if (!cl_is_tuple(shape)) {
    if (cl_is_int(shape) && cl_is_basis(stride))
      return coordinate_valued();
    if (!cl_is_int(shape) || !cl_is_int(stride))
      return cl_fail(CL_E_RANK, "crd2idx: shape and stride are not congruent");
    return cl_mul(i, stride->value, out);
  }
  if (!cl_is_tuple(stride) || stride->rank != shape->rank)
    return cl_fail(CL_E_RANK, "crd2idx: shape and stride are not congruent");
  int64_t sum = 0, rest = i;
  const cl_node *d = cl_first(stride), *end = shape + shape->span;
  for (const cl_node *s = cl_first(shape); s < end; s = cl_next(s), d = cl_next(d)) {
    int64_t part = rest, t;
    bool last = cl_next(s) >= end;
    if (!last) {
      int64_t size;
      CL_TRY(cl_tree_product(s, &size));
      if (rest == 0) {
        part = 0;
      } else {
        CL_TRY(cl_mod(rest, size, &part));
        CL_TRY(cl_div(rest, size, &rest));
      }
    }
    CL_TRY(cl_tree_eval(s, d, part, &t));
    CL_TRY(cl_add(sum, t, &sum));
  }
  *out = sum;
  return CL_OK;
}

/* ---- values of layouts whose strides hold scaled bases ----
 *
 * crd2idx(crd, shape, stride) computed as CuTe computes it, in its order,
 * because the sum of values is not associative (basis.c): a tuple coordinate
 * sums its modes' values from the left, (t0 + t1) + t2 ... (crd2idx_ttt); an
 * integer coordinate over a tuple shape gives the first mode crd % size and
 * the other modes crd / size, and sums to the right, t0 + (t1 + (t2 + ...))
 * (crd2idx_itt); once what is left of it is 0 (before the last mode), the
 * rest are the modes' values at 0, summed t_k + ((0 + t_{k+1}) + ...).
 *
 * The values are built in a cl_forest (basis.c). */
static void append_value(cl_forest *f, const cl_node *crd, const cl_node *shape, const cl_node *stride);

static void append_value_at(cl_forest *f, int64_t c, const cl_node *shape, const cl_node *stride) {
  cl_int_node crd = cl_int_leaf(c);
  append_value(f, &crd.node, shape, stride);
}

/* crd2idx_itt: the integer coordinate c over the modes of a tuple shape. */
static void append_split_value(cl_forest *f, int64_t c, const cl_node *shape, const cl_node *stride) {
  int32_t first = f->trees.count;
  int64_t terms = 0;
  const cl_node *end = shape + shape->span;
  for (const cl_node *s = cl_first(shape), *d = cl_first(stride); s < end && f->trees.status == CL_OK;
       s = cl_next(s), d = cl_next(d), terms++) {
    if (cl_next(s) >= end) { /* the last mode takes the rest */
      append_value_at(f, c, s, d);
      continue;
    }
    if (c == 0) { /* t_k + ((0 + t_{k+1}) + ... + t_{n-1}) */
      int32_t tail = f->trees.count;
      append_value_at(f, 0, s, d);
      int32_t rest = f->trees.count;
      cl_b_int(&f->trees, 0);
      for (s = cl_next(s), d = cl_next(d); s < end && f->trees.status == CL_OK; s = cl_next(s), d = cl_next(d)) {
        append_value_at(f, 0, s, d);
        cl_forest_sum(f, rest);
      }
      cl_forest_sum(f, tail);
      terms++;
      break;
    }
    int64_t size = 1, part = 0;
    cl_status st = cl_tree_product(s, &size);
    if (st == CL_OK)
      st = cl_mod(c, size, &part);
    if (st == CL_OK)
      st = cl_div(c, size, &c);
    if (st != CL_OK) {
      cl_b_set_error(&f->trees, st);
      return;
    }
    append_value_at(f, part, s, d);
  }
  /* t0 + (t1 + (... + t_last)): the last two trees, then the one before
   * them with that sum, and so on; each start is found from the first. */
  for (int64_t k = terms - 2; k >= 0 && f->trees.status == CL_OK; k--) {
    int32_t at = first;
    for (int64_t j = 0; j < k; j++)
      at += f->trees.nodes[at].span;
    cl_forest_sum(f, at);
  }
}

static void append_value(cl_forest *f, const cl_node *crd, const cl_node *shape, const cl_node *stride) {
  if (f->trees.status != CL_OK)
    return;
  cl_status st = no_empty_mode(shape);
  if (st == CL_OK && cl_is_tuple(shape) && (!cl_is_tuple(stride) || stride->rank != shape->rank))
    st = cl_fail(CL_E_RANK, "crd2idx: shape and stride are not congruent");
  if (st != CL_OK) {
    cl_b_set_error(&f->trees, st);
    return;
  }
  if (cl_is_tuple(crd)) {
    if (!cl_is_tuple(shape) || crd->rank != shape->rank) {
      cl_b_set_error(&f->trees, cl_fail(CL_E_RANK, cl_is_tuple(shape) ? "crd2idx: coordinate of rank %d for a shape of rank %d"
                                                                      : "crd2idx: invalid parameters: a tuple coordinate for an integer shape",
                                        crd->rank, shape->rank));
      return;
    }
    /* (t0 + t1) + t2 ... */
    int32_t acc = f->trees.count;
    const cl_node *s = cl_first(shape), *d = cl_first(stride);
    CL_FOR_EACH_CHILD(c, crd) {
      append_value(f, c, s, d);
      if (c != cl_first(crd))
        cl_forest_sum(f, acc);
      s = cl_next(s);
      d = cl_next(d);
    }
    return;
  }
  /* CuTe's Underscore is an Int<0>. */
  int64_t c = crd->kind == CL_KIND_UNDERSCORE ? 0 : crd->value;
  if (crd->kind != CL_KIND_UNDERSCORE && crd->kind != CL_KIND_INT) {
    cl_b_set_error(&f->trees, cl_fail(CL_E_TYPE, "crd2idx: the coordinate must hold integers"));
    return;
  }
  if (cl_is_tuple(shape)) {
    append_split_value(f, c, shape, stride);
    return;
  }
  if (!cl_is_int(shape) || (!cl_is_int(stride) && !cl_is_basis(stride))) {
    cl_b_set_error(&f->trees, cl_fail(CL_E_RANK, "crd2idx: shape and stride are not congruent"));
    return;
  }
  cl_b_scale_leaf(&f->trees, c, stride);
}

void cl_b_crd2value(cl_builder *b, const cl_node *crd, const cl_node *shape, const cl_node *stride) {
  cl_forest f;
  cl_forest_init(&f);
  append_value(&f, crd, shape, stride);
  cl_forest_finish(&f, b);
}

/* crd2idx(crd, shape): Horner's rule over the flattened coordinate, where an
 * integer coordinate of a sub-shape counts as that sub-shape's index. */
static cl_status horner(const cl_node *crd, const cl_node *shape, int64_t *acc, int64_t *scale) {
  if (!cl_is_tuple(crd)) {
    if (crd->kind != CL_KIND_INT)
      return cl_fail(CL_E_TYPE, "crd2idx: the coordinate must be integers");
    int64_t size, t;
    CL_TRY(cl_tree_product(shape, &size));
    CL_TRY(cl_mul(crd->value, *scale, &t));
    CL_TRY(cl_add(*acc, t, acc));
    return cl_mul(*scale, size, scale);
  }
  if (!cl_is_tuple(shape))
    return cl_fail(CL_E_RANK, "crd2idx: invalid parameters: a tuple coordinate for an integer shape");
  if (crd->rank != shape->rank)
    return cl_fail(CL_E_RANK, "crd2idx: coordinate of rank %d for a shape of rank %d", crd->rank, shape->rank);
  const cl_node *s = cl_first(shape);
  CL_FOR_EACH_CHILD(c, crd) {
    CL_TRY(horner(c, s, acc, scale));
    s = cl_next(s);
  }
  return CL_OK;
}

cl_status cl_tree_crd2idx_shape(const cl_node *crd, const cl_node *shape, int64_t *out) {
  if (cl_is_int(crd)) {
    *out = crd->value;
    return CL_OK;
  }
  if (!cl_is_tuple(shape))
    return cl_fail(CL_E_RANK, "crd2idx: invalid parameters: a tuple coordinate for an integer shape");
  if (cl_tree_leaf_count(crd) == 0)
    return cl_fail(CL_E_DOMAIN, "crd2idx: a coordinate without integers has no index (CuTe's Horner rule needs one)");
  int64_t acc = 0, scale = 1;
  /* The scale after the last mode is never used; CuTe does not compute it, so
   * neither may its overflow fail the call. */
  const cl_node *s = cl_first(shape);
  if (crd->rank != shape->rank)
    return cl_fail(CL_E_RANK, "crd2idx: coordinate of rank %d for a shape of rank %d", crd->rank, shape->rank);
  CL_FOR_EACH_CHILD(c, crd) {
    if (cl_next(c) >= crd + crd->span && !cl_is_tuple(c)) {
      if (c->kind != CL_KIND_INT)
        return cl_fail(CL_E_TYPE, "crd2idx: the coordinate must be integers");
      int64_t t;
      CL_TRY(cl_mul(c->value, scale, &t));
      CL_TRY(cl_add(acc, t, &acc));
      break;
    }
    CL_TRY(horner(c, s, &acc, &scale));
    s = cl_next(s);
  }
  *out = acc;
  return CL_OK;
}

/* idx2crd(i, shape): every mode but the last takes i % size(mode) and passes
 * i / size(mode) on, recursively; the last leaf keeps what is left. */
static void idx2crd_int(cl_builder *b, int64_t idx, const cl_node *shape) {
  if (!cl_is_tuple(shape)) {
    cl_b_int(b, idx);
    return;
  }
  /* CuTe computes this as crd2idx(idx, shape, basis strides). */
  if (no_empty_mode(shape) != CL_OK) {
    cl_b_set_error(b, cl_fail(CL_E_DOMAIN, "idx2crd: an index cannot be split over an empty tuple ()"));
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  const cl_node *end = shape + shape->span;
  for (const cl_node *s = cl_first(shape); s < end && b->status == CL_OK; s = cl_next(s)) {
    if (cl_next(s) >= end) {
      idx2crd_int(b, idx, s);
      break;
    }
    /* As in CuTe, an index that is already 0 is not divided any further,
     * so extent-0 modes after it are no division by zero. */
    int64_t size = 1, part = 0;
    cl_status st = idx == 0 ? CL_OK : cl_tree_product(s, &size);
    if (st == CL_OK && idx != 0)
      st = cl_mod(idx, size, &part);
    if (st == CL_OK && idx != 0)
      st = cl_div(idx, size, &idx);
    if (st != CL_OK) {
      cl_b_set_error(b, st);
      break;
    }
    idx2crd_int(b, part, s);
  }
  cl_b_close(b, at);
}

void cl_b_idx2crd(cl_builder *b, const cl_node *idx, const cl_node *shape) {
  if (cl_is_tuple(idx)) {
    if (!cl_is_tuple(shape) || shape->rank != idx->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "idx2crd: mismatched ranks between the index and the shape"));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *s = cl_first(shape);
    CL_FOR_EACH_CHILD(c, idx) {
      cl_b_idx2crd(b, c, s);
      s = cl_next(s);
    }
    cl_b_close(b, at);
    return;
  }
  if (!cl_is_int(idx)) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "idx2crd: the index must be an integer"));
    return;
  }
  idx2crd_int(b, idx->value, shape);
}

/* idx2crd(i, shape, stride): each leaf is (i / stride) % shape; an extent-1
 * leaf is 0 without dividing (its stride may be 0). */
static void idx2crd_strided_int(cl_builder *b, int64_t idx, const cl_node *shape, const cl_node *stride) {
  if (cl_is_tuple(shape)) {
    if (!cl_is_tuple(stride) || stride->rank != shape->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "idx2crd: shape and stride are not congruent"));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *d = cl_first(stride);
    CL_FOR_EACH_CHILD(s, shape) {
      idx2crd_strided_int(b, idx, s, d);
      d = cl_next(d);
    }
    cl_b_close(b, at);
    return;
  }
  if (cl_is_tuple(stride)) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "idx2crd: shape and stride are not congruent"));
    return;
  }
  if (shape->value == 1) {
    cl_b_int(b, 0);
    return;
  }
  int64_t q = 0, r = 0;
  cl_status st = cl_div(idx, stride->value, &q);
  if (st == CL_OK)
    st = cl_mod(q, shape->value, &r);
  if (st != CL_OK)
    cl_b_set_error(b, st);
  cl_b_int(b, r);
}

void cl_b_idx2crd_strided(cl_builder *b, const cl_node *idx, const cl_node *shape, const cl_node *stride) {
  if (cl_is_tuple(idx)) {
    if (!cl_is_tuple(shape) || shape->rank != idx->rank || !cl_is_tuple(stride) || stride->rank != idx->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "idx2crd: mismatched ranks between the index and the shape"));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *s = cl_first(shape), *d = cl_first(stride);
    CL_FOR_EACH_CHILD(c, idx) {
      cl_b_idx2crd_strided(b, c, s, d);
      s = cl_next(s);
      d = cl_next(d);
    }
    cl_b_close(b, at);
    return;
  }
  if (!cl_is_int(idx)) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "idx2crd: the index must be an integer"));
    return;
  }
  if (cl_is_tuple(shape) && !cl_is_tuple(stride)) {
    /* An integer stride d stands for the compact column-major strides from d. */
    cl_builder strides;
    cl_b_init(&strides);
    cl_b_compact_major(&strides, shape, false, stride->value);
    if (strides.status != CL_OK)
      cl_b_set_error(b, strides.status);
    else
      idx2crd_strided_int(b, idx->value, shape, strides.nodes);
    cl_b_release(&strides);
    return;
  }
  idx2crd_strided_int(b, idx->value, shape, stride);
}

/* compact_major: strides that enumerate shape densely from `current`, leaves
 * left to right (column-major) or right to left (row-major); as CuTe does for
 * static extents, an extent-1 leaf gets stride 0 and does not advance. */
static int64_t compact(cl_builder *b, const cl_node *shape, bool row_major, int64_t current) {
  if (!cl_is_tuple(shape)) {
    if (!cl_is_int(shape)) {
      cl_b_set_error(b, cl_fail(CL_E_TYPE, "compact strides of a value that is not an int tuple"));
      return current;
    }
    if (shape->value == 1) {
      cl_b_int(b, 0);
      return current;
    }
    cl_b_int(b, current);
    int64_t next;
    cl_status s = cl_mul(current, shape->value, &next);
    if (s != CL_OK) { /* next holds the wrapped product: go on from current */
      cl_b_set_error(b, s);
      return current;
    }
    return next;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  if (!row_major) {
    CL_FOR_EACH_CHILD(c, shape) current = compact(b, c, false, current);
  } else {
    /* Visit the modes right to left, then put their strides back in order. */
    int64_t r = shape->rank;
    const cl_node **modes = cl_alloc((size_t)(r ? r : 1) * sizeof *modes);
    int32_t *starts = cl_alloc((size_t)(r ? r : 1) * sizeof *starts);
    if (starts == NULL || modes == NULL) {
      cl_dealloc(modes);
      cl_dealloc(starts);
      cl_b_set_error(b, cl_fail(CL_E_NOMEM, "out of memory"));
      return current;
    }
    int64_t k = 0;
    CL_FOR_EACH_CHILD(c, shape) modes[k++] = c;
    for (int64_t i = r - 1; i >= 0; i--) {
      starts[i] = b->count;
      current = compact(b, modes[i], true, current);
    }
    if (b->status == CL_OK && r > 1) {
      /* The strides were appended in reverse mode order: reverse them back. */
      int32_t first = at + 1, total = b->count - first;
      cl_node *tmp = cl_alloc((size_t)total * sizeof *tmp);
      if (tmp == NULL) {
        cl_b_set_error(b, cl_fail(CL_E_NOMEM, "out of memory"));
      } else {
        int32_t w = 0;
        for (int64_t i = 0; i < r; i++) {
          int32_t end = (i == 0) ? b->count : starts[i - 1];
          memcpy(tmp + w, b->nodes + starts[i], (size_t)(end - starts[i]) * sizeof *tmp);
          w += end - starts[i];
        }
        memcpy(b->nodes + first, tmp, (size_t)total * sizeof *tmp);
        cl_dealloc(tmp);
      }
    }
    cl_dealloc(starts);
    cl_dealloc(modes);
  }
  cl_b_close(b, at);
  return current;
}

void cl_b_compact_major(cl_builder *b, const cl_node *shape, bool row_major, int64_t current) {
  cl_b_set_error(b, cl_require_shape(shape, "the shape"));
  if (b->status == CL_OK)
    compact(b, shape, row_major, current);
}

/* compact_order(shape, order): a leaf (or subtree) of order o starts at the
 * product of the extents whose order is less than o, and is compact
 * column-major from there. */
static void compact_order_rec(cl_builder *b, const cl_node *shape, const cl_node *order,
                              const cl_node *const *ref_shape, const cl_node *const *ref_order, int64_t nref) {
  if (cl_is_tuple(order)) {
    if (!cl_is_tuple(shape) || shape->rank != order->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "compact_order: shape and order need equal ranks"));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *s = cl_first(shape);
    CL_FOR_EACH_CHILD(o, order) {
      compact_order_rec(b, s, o, ref_shape, ref_order, nref);
      s = cl_next(s);
    }
    cl_b_close(b, at);
    return;
  }
  int64_t start = 1;
  for (int64_t k = 0; k < nref; k++) {
    if (ref_order[k]->value < order->value) {
      int64_t size = 1;
      cl_status st = cl_tree_product(ref_shape[k], &size);
      if (st == CL_OK)
        st = cl_mul(start, size, &start);
      if (st != CL_OK) {
        cl_b_set_error(b, st);
        return;
      }
    }
  }
  compact(b, shape, false, start);
}

/* The reference shape: the shape's subtrees at the leaves of order. */
static void shape_at_order_leaves(const cl_node *shape, const cl_node *order, const cl_node **out, int64_t *k) {
  if (!cl_is_tuple(order) || !cl_is_tuple(shape) || shape->rank != order->rank) {
    out[(*k)++] = shape;
    return;
  }
  const cl_node *s = cl_first(shape);
  CL_FOR_EACH_CHILD(o, order) {
    shape_at_order_leaves(s, o, out, k);
    s = cl_next(s);
  }
}

void cl_b_compact_order(cl_builder *b, const cl_node *shape, const cl_node *order) {
  if (!cl_tree_all_int(order)) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "compact_order: the order must be an int tuple"));
    return;
  }
  cl_b_set_error(b, cl_require_shape(shape, "compact_order: the shape"));
  if (b->status != CL_OK)
    return;
  /* CuTe pairs each leaf of order with a subtree of shape (product_like). */
  if (!cl_tree_weakly_congruent(order, shape)) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "compact_order: the order must be weakly congruent with the shape"));
    return;
  }
  int64_t n = cl_tree_leaf_count(order);
  const cl_node **mem = cl_alloc((size_t)(2 * n + 1) * sizeof *mem);
  if (mem == NULL) {
    cl_b_set_error(b, cl_fail(CL_E_NOMEM, "out of memory"));
    return;
  }
  const cl_node **ref_shape = mem, **ref_order = mem + n;
  int64_t k = 0;
  shape_at_order_leaves(shape, order, ref_shape, &k);
  cl_tree_leaves(order, ref_order);
  compact_order_rec(b, shape, order, ref_shape, ref_order, n);
  cl_dealloc(mem);
}

/* ------------------------------------------------------------ public API */

static cl_status compact_public(const cl_tuple_t *shape, bool row_major, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  cl_builder b;
  cl_b_init(&b);
  cl_b_compact_major(&b, cl_troot(shape), row_major, 1);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_compact_col_major(const cl_tuple_t *shape, cl_tuple_t **out) { return compact_public(shape, false, out); }
cl_status cl_compact_row_major(const cl_tuple_t *shape, cl_tuple_t **out) { return compact_public(shape, true, out); }

/* compact_major(shape, current) with a tuple current: mode by mode, each
 * leaf of current starting the compact strides of shape's subtree there. */
static void compact_from(cl_builder *b, const cl_node *shape, const cl_node *current, bool row_major) {
  if (!cl_is_tuple(current)) {
    if (!cl_is_int(current)) {
      cl_b_set_error(b, cl_fail(CL_E_TYPE, "compact strides: the start must hold integers"));
      return;
    }
    cl_b_compact_major(b, shape, row_major, current->value);
    return;
  }
  if (!cl_is_tuple(shape) || shape->rank != current->rank) {
    cl_b_set_error(b, cl_fail(CL_E_RANK, "compact strides: a tuple start needs a shape of its rank (%d)", current->rank));
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  const cl_node *s = cl_first(shape);
  CL_FOR_EACH_CHILD(c, current) {
    compact_from(b, s, c, row_major);
    s = cl_next(s);
  }
  cl_b_close(b, at);
}

static cl_status compact_from_public(const cl_tuple_t *shape, const cl_tuple_t *current, bool row_major,
                                     cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CHECK_NULL(current);
  cl_builder b;
  cl_b_init(&b);
  compact_from(&b, cl_troot(shape), cl_troot(current), row_major);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_compact_col_major_from(const cl_tuple_t *shape, const cl_tuple_t *current, cl_tuple_t **out) {
  return compact_from_public(shape, current, false, out);
}
cl_status cl_compact_row_major_from(const cl_tuple_t *shape, const cl_tuple_t *current, cl_tuple_t **out) {
  return compact_from_public(shape, current, true, out);
}

cl_status cl_compact_order(const cl_tuple_t *shape, const cl_tuple_t *order, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(shape);
  CHECK_NULL(order);
  cl_builder b;
  cl_b_init(&b);
  cl_b_compact_order(&b, cl_troot(shape), cl_troot(order));
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_crd2idx(const cl_tuple_t *crd, const cl_tuple_t *shape, const cl_tuple_t *stride, int64_t *out) {
  CHECK_NULL(crd);
  CHECK_NULL(shape);
  CHECK_NULL(stride);
  CHECK_NULL(out);
  CL_TRY(cl_require_shape(cl_troot(shape), "crd2idx: the shape"));
  CL_TRY(cl_require_int_tuple(cl_troot(stride), "crd2idx stride"));
  return cl_tree_crd2idx(cl_troot(crd), cl_troot(shape), cl_troot(stride), out);
}

cl_status cl_crd2idx_shape(const cl_tuple_t *crd, const cl_tuple_t *shape, int64_t *out) {
  CHECK_NULL(crd);
  CHECK_NULL(shape);
  CHECK_NULL(out);
  CL_TRY(cl_require_shape(cl_troot(shape), "crd2idx: the shape"));
  CL_TRY(cl_require_int_tuple(cl_troot(crd), "crd2idx coordinate"));
  return cl_tree_crd2idx_shape(cl_troot(crd), cl_troot(shape), out);
}

cl_status cl_idx2crd(const cl_tuple_t *idx, const cl_tuple_t *shape, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(idx);
  CHECK_NULL(shape);
  CL_TRY(cl_require_shape(cl_troot(shape), "idx2crd: the shape"));
  cl_builder b;
  cl_b_init(&b);
  cl_b_idx2crd(&b, cl_troot(idx), cl_troot(shape));
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_idx2crd_strided(const cl_tuple_t *idx, const cl_tuple_t *shape, const cl_tuple_t *stride, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(idx);
  CHECK_NULL(shape);
  CHECK_NULL(stride);
  CL_TRY(cl_require_shape(cl_troot(shape), "idx2crd: the shape"));
  CL_TRY(cl_require_int_tuple(cl_troot(stride), "idx2crd stride"));
  cl_builder b;
  cl_b_init(&b);
  cl_b_idx2crd_strided(&b, cl_troot(idx), cl_troot(shape), cl_troot(stride));
  return cl_b_finish_tuple(&b, out);
}

/* crd2crd: mode by mode while all three are tuples, else through the index. */
static void crd2crd_rec(cl_builder *b, const cl_node *crd, const cl_node *from, const cl_node *to) {
  if (cl_is_tuple(crd) && cl_is_tuple(from) && cl_is_tuple(to)) {
    if (crd->rank != from->rank || crd->rank != to->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "crd2crd: mismatched ranks"));
      return;
    }
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    const cl_node *f = cl_first(from), *t = cl_first(to);
    CL_FOR_EACH_CHILD(c, crd) {
      crd2crd_rec(b, c, f, t);
      f = cl_next(f);
      t = cl_next(t);
    }
    cl_b_close(b, at);
    return;
  }
  int64_t idx = 0;
  cl_status s = cl_tree_crd2idx_shape(crd, from, &idx);
  if (s != CL_OK) {
    cl_b_set_error(b, s);
    return;
  }
  idx2crd_int(b, idx, to);
}

cl_status cl_crd2crd(const cl_tuple_t *crd, const cl_tuple_t *from_shape, const cl_tuple_t *to_shape, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(crd);
  CHECK_NULL(from_shape);
  CHECK_NULL(to_shape);
  CL_TRY(cl_require_int_tuple(cl_troot(crd), "crd2crd coordinate"));
  CL_TRY(cl_require_shape(cl_troot(from_shape), "crd2crd: the source shape"));
  CL_TRY(cl_require_shape(cl_troot(to_shape), "crd2crd: the target shape"));
  cl_builder b;
  cl_b_init(&b);
  crd2crd_rec(&b, cl_troot(crd), cl_troot(from_shape), cl_troot(to_shape));
  return cl_b_finish_tuple(&b, out);
}
