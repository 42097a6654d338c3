/* SPDX-License-Identifier: BSD-3-Clause */
/* algebra_products.c: CuTe's divides and products (layout.hpp): logical,
 * zipped, tiled and flat divides and products, blocked and raked products,
 * and tile_to_shape.  They are compositions and complements (algebra.c)
 * arranged into modes.
 *
 * A tiler is a layout, an integer n (make_layout(n): n:1, or 1:0 for n = 1),
 * '_' (the mode is kept), or a tuple of tilers applied mode by mode, modes of
 * the layout past the tiler's rank kept as they are. */
#include "algebra_impl.h"
#include "cutelayout/algebra.h"

typedef cl_status (*layout_op)(cl_lbuilder *, cl_lview, cl_lview);

/* ======================================================= divide and product */

/* logical_divide(L, T) = composition(L, make_layout(T, complement(T, shape(coalesce(L))))):
 * the tile T and, as the second mode, the layout of its repetitions. */
static cl_status logical_divide_layout(cl_lbuilder *lb, cl_lview layout, cl_lview tiler) {
  cl_flat flat, coalesced, rest;
  cl_flat_init(&flat);
  cl_flat_init(&coalesced);
  cl_flat_init(&rest);
  cl_builder cotarget;
  cl_lbuilder rhs;
  cl_b_init(&cotarget);
  cl_lb_init(&rhs);
  cl_flat_of_view(&flat, layout);
  cl_status s = cl_coalesce_flat(&flat, false, &coalesced);
  if (s == CL_OK) {
    /* shape(coalesce(L)): an integer, or a flat tuple */
    int32_t at = coalesced.n == 1 ? -1 : cl_b_open(&cotarget, CL_KIND_TUPLE);
    for (int64_t i = 0; i < coalesced.n; i++)
      cl_b_int(&cotarget, coalesced.m[i].shape);
    if (at >= 0)
      cl_b_close(&cotarget, at);
    s = cotarget.status;
  }
  if (s == CL_OK)
    s = cl_complement_view(tiler, cotarget.nodes, &rest);
  if (s == CL_OK) {
    cl_lb_mark at = cl_lb_open(&rhs);
    cl_lb_view(&rhs, tiler);
    cl_lb_flat(&rhs, &rest);
    cl_lb_close(&rhs, at);
    s = cl_lb_status(&rhs);
  }
  if (s == CL_OK)
    s = cl_composition_into(lb, layout, cl_view_of_builder(&rhs));
  cl_flat_release(&flat);
  cl_flat_release(&coalesced);
  cl_flat_release(&rest);
  cl_b_release(&cotarget);
  cl_lb_release(&rhs);
  return s;
}

/* logical_product(B, T) = make_layout(B, composition(complement(B, size(B) * cosize(T)), T)):
 * the block B and, as the second mode, T's arrangement of copies of it. */
static cl_status logical_product_layout(cl_lbuilder *lb, cl_lview block, cl_lview tiler) {
  cl_flat rest;
  cl_flat_init(&rest);
  int64_t size, cosize, cotarget = 0;
  cl_status s = cl_tree_product(block.shape, &size);
  if (s == CL_OK && (s = cl_view_cosize(tiler, &cosize)) == CL_OK)
    s = cl_mul(size, cosize, &cotarget);
  if (s == CL_OK) {
    cl_int_node m = cl_int_leaf(cotarget);
    s = cl_complement_view(block, &m.node, &rest);
  }
  if (s == CL_OK) {
    cl_lb_mark at = cl_lb_open(lb);
    cl_lb_view(lb, block);
    s = cl_composition_flat_into(lb, &rest, tiler);
    cl_lb_close(lb, at);
  }
  cl_flat_release(&rest);
  return s;
}

/* op(L, tiler) for a tiler node: a layout, an integer (make_layout(n)), '_'
 * (L itself), or a tuple applied mode by mode (CuTe's transform_layout, which
 * keeps the modes of L past the tiler's rank). */
static cl_status by_tiler(cl_lbuilder *lb, cl_lview layout, const cl_node *tiler, layout_op op, const char *name) {
  switch (tiler->kind) {
  case CL_KIND_UNDERSCORE:
    cl_lb_view(lb, layout);
    return CL_OK;
  case CL_KIND_LAYOUT:
    return op(lb, layout, cl_view_of_node(tiler));
  case CL_KIND_INT: {
    cl_int_node n = cl_int_leaf(tiler->value), d = cl_int_leaf(tiler->value == 1 ? 0 : 1);
    return op(lb, layout, (cl_lview){&n.node, &d.node});
  }
  default:
    break;
  }
  int64_t rank = cl_view_rank(layout);
  if (tiler->rank > rank)
    return cl_fail(CL_E_RANK, "%s: too many modes in the tiler (%d) for a layout of rank %lld", name, tiler->rank,
                   (long long)rank);
  if (rank == 0)
    return cl_fail(CL_E_DOMAIN, "%s: the layout has no modes (an empty tuple)", name);
  cl_lb_mark at = cl_lb_open(lb);
  int64_t i = 0;
  CL_FOR_EACH_CHILD(t, tiler) CL_TRY(by_tiler(lb, cl_view_mode(layout, i++), t, op, name));
  for (; i < rank; i++)
    cl_lb_view(lb, cl_view_mode(layout, i));
  cl_lb_close(lb, at);
  return CL_OK;
}

/* ================================================ gathering the rank-2 modes */

static cl_status not_rank2(const char *name) {
  return cl_fail(CL_E_RANK, "%s: mismatched ranks: a mode at a leaf of the tiler must have rank 2", name);
}

/* Part `part` (0: tiles, 1: rests) of CuTe's zip2_by(t, guide): at each leaf
 * of the guide, t has a rank-2 mode (tile, rest); the tiles gather into the
 * first part and the rests, followed by t's modes past the guide's rank,
 * into the second, following the guide's tree. */
static cl_status zip2_part(cl_lbuilder *lb, cl_lview t, const cl_node *guide, int part, const char *name) {
  if (!cl_is_tuple(guide)) {
    if (!cl_is_tuple(t.shape) || t.shape->rank != 2)
      return not_rank2(name);
    cl_lb_view(lb, cl_view_mode(t, part));
    return CL_OK;
  }
  if (!cl_is_tuple(t.shape) || t.shape->rank < guide->rank)
    return cl_fail(CL_E_RANK, "%s: mismatched ranks: the tiler has more modes than the divided layout", name);
  cl_lb_mark at = cl_lb_open(lb);
  int64_t i = 0;
  CL_FOR_EACH_CHILD(g, guide) CL_TRY(zip2_part(lb, cl_view_mode(t, i++), g, part, name));
  for (; part == 1 && i < t.shape->rank; i++)
    cl_lb_view(lb, cl_view_mode(t, i));
  cl_lb_close(lb, at);
  return CL_OK;
}

/* tile_unzip(L, tiler) = (zip2_by(shape, tiler), zip2_by(stride, tiler)). */
static cl_status tile_unzip(cl_lbuilder *lb, cl_lview t, const cl_node *guide, const char *name) {
  if (!cl_is_tuple(guide)) {
    if (!cl_is_tuple(t.shape) || t.shape->rank != 2)
      return not_rank2(name);
    cl_lb_view(lb, t);
    return CL_OK;
  }
  cl_lb_mark at = cl_lb_open(lb);
  CL_TRY(zip2_part(lb, t, guide, 0, name));
  CL_TRY(zip2_part(lb, t, guide, 1, name));
  cl_lb_close(lb, at);
  return CL_OK;
}

/* A mode as CuTe's slice with repeat<rank(mode)>(_) leaves it: its own
 * modes spliced in, except that a mode of rank 1 (repeat<1>(_) is a single
 * '_') stays whole. */
static void splice_mode(cl_lbuilder *lb, cl_lview mode) {
  if (!cl_is_tuple(mode.shape) || mode.shape->rank == 1) {
    cl_lb_view(lb, mode);
    return;
  }
  for (int64_t i = 0; i < mode.shape->rank; i++)
    cl_lb_view(lb, cl_view_mode(mode, i));
}

typedef enum arrangement {
  LOGICAL, /* (L o tile, rest) at each leaf of the tiler */
  ZIPPED,  /* ((tiles...), (rests..., other modes...)) */
  TILED,   /* ((tiles...), rests..., other modes...) */
  FLAT     /* (tiles..., rests..., other modes...) */
} arrangement;

/* The divide or product (op) of layout by tiler, arranged. */
static cl_status tiling(cl_lbuilder *lb, cl_lview layout, const cl_node *tiler, layout_op op, arrangement how,
                        const char *name) {
  if (how == LOGICAL)
    return by_tiler(lb, layout, tiler, op, name);
  cl_lbuilder logical, zipped;
  cl_lb_init(&logical);
  cl_lb_init(&zipped);
  cl_status s = by_tiler(&logical, layout, tiler, op, name);
  if (s == CL_OK && (s = cl_lb_status(&logical)) == CL_OK)
    s = tile_unzip(how == ZIPPED ? lb : &zipped, cl_view_of_builder(&logical), tiler, name);
  if (s == CL_OK && how != ZIPPED && (s = cl_lb_status(&zipped)) == CL_OK) {
    cl_lview z = cl_view_of_builder(&zipped);
    cl_lb_mark at = cl_lb_open(lb);
    if (how == FLAT)
      splice_mode(lb, cl_view_mode(z, 0));
    else
      cl_lb_view(lb, cl_view_mode(z, 0));
    splice_mode(lb, cl_view_mode(z, 1));
    cl_lb_close(lb, at);
  }
  cl_lb_release(&logical);
  cl_lb_release(&zipped);
  return s;
}

/* ======================================================= rank-sensitive ones */

/* append<R>(L): L padded with 1:0 modes to rank R (R >= rank(L)). */
static void append_to_rank(cl_lbuilder *lb, cl_lview v, int64_t rank) {
  int64_t have = cl_view_rank(v);
  if (have == rank) {
    cl_lb_view(lb, v);
    return;
  }
  cl_lb_mark at = cl_lb_open(lb);
  for (int64_t i = 0; i < have; i++)
    cl_lb_view(lb, cl_view_mode(v, i));
  for (int64_t i = have; i < rank; i++)
    cl_lb_leaf(lb, 1, 0);
  cl_lb_close(lb, at);
}

/* zip(A, B) of two layouts: ((a0,b0),(a1,b1),...) when A is a tuple (B must
 * have its rank), and ((A,B)) when A is a leaf. */
static cl_status zip_layouts(cl_lbuilder *lb, cl_lview a, cl_lview b, const char *name) {
  cl_lb_mark at = cl_lb_open(lb);
  if (!cl_is_tuple(a.shape)) {
    cl_lb_mark pair = cl_lb_open(lb);
    cl_lb_view(lb, a);
    cl_lb_view(lb, b);
    cl_lb_close(lb, pair);
  } else {
    if (!cl_is_tuple(b.shape) || b.shape->rank != a.shape->rank)
      return cl_fail(CL_E_RANK, "%s: mismatched ranks in zip: %d block modes and %lld product modes", name,
                     a.shape->rank, (long long)cl_view_rank(b));
    for (int64_t i = 0; i < a.shape->rank; i++) {
      cl_lb_mark pair = cl_lb_open(lb);
      cl_lb_view(lb, cl_view_mode(a, i));
      cl_lb_view(lb, cl_view_mode(b, i));
      cl_lb_close(lb, pair);
    }
  }
  cl_lb_close(lb, at);
  return CL_OK;
}

/* blocked_product(B, T) = zip(logical_product(append<R>(B), append<R>(T))),
 * R = max(rank(B), rank(T)): each mode is (block mode, product mode).
 * raked_product zips the other way round: (product mode, block mode). */
static cl_status rank_sensitive_product(cl_lbuilder *lb, cl_lview block, cl_lview tiler, bool raked) {
  const char *name = raked ? "raked_product" : "blocked_product";
  int64_t rank = cl_view_rank(block) > cl_view_rank(tiler) ? cl_view_rank(block) : cl_view_rank(tiler);
  cl_lbuilder padded_block, padded_tiler, product;
  cl_lb_init(&padded_block);
  cl_lb_init(&padded_tiler);
  cl_lb_init(&product);
  append_to_rank(&padded_block, block, rank);
  append_to_rank(&padded_tiler, tiler, rank);
  cl_status s = cl_lb_status(&padded_block);
  if (s == CL_OK && (s = cl_lb_status(&padded_tiler)) == CL_OK)
    s = logical_product_layout(&product, cl_view_of_builder(&padded_block), cl_view_of_builder(&padded_tiler));
  if (s == CL_OK && (s = cl_lb_status(&product)) == CL_OK) {
    cl_lview p = cl_view_of_builder(&product);
    s = raked ? zip_layouts(lb, cl_view_mode(p, 1), cl_view_mode(p, 0), name)
              : zip_layouts(lb, cl_view_mode(p, 0), cl_view_mode(p, 1), name);
  }
  cl_lb_release(&padded_block);
  cl_lb_release(&padded_tiler);
  cl_lb_release(&product);
  return s;
}

/* tile_to_shape(B, shape, order) = blocked_product(append<R>(B),
 *     make_ordered_layout(ceil_div(product_each(shape), product_each(B)), order)),
 * R = rank(shape); each mode of B must divide the target's evenly. */
static cl_status tile_to_shape(cl_lbuilder *lb, cl_lview block, const cl_node *target, const cl_node *order) {
  int64_t rank = cl_rank_of(target), block_rank = cl_view_rank(block);
  if (block_rank > rank)
    return cl_fail(CL_E_RANK, "tile_to_shape: the rank of the layout (%lld) must be <= the rank of the target shape (%lld)",
                   (long long)block_rank, (long long)rank);
  cl_lbuilder padded, ordered;
  cl_lb_init(&padded);
  cl_lb_init(&ordered);
  append_to_rank(&padded, block, rank);
  cl_status s = cl_lb_status(&padded);
  cl_lview pb = cl_view_of_builder(&padded);
  int32_t at = cl_b_open(&ordered.shape, CL_KIND_TUPLE);
  for (int64_t i = 0; s == CL_OK && i < rank; i++) {
    int64_t block_size, target_size, repeats, covered;
    if ((s = cl_tree_product(cl_view_mode(pb, i).shape, &block_size)) != CL_OK ||
        (s = cl_tree_product(cl_child(target, i), &target_size)) != CL_OK ||
        (s = cl_ceil_div_int(target_size, block_size, &repeats)) != CL_OK || (s = cl_mul(block_size, repeats, &covered)) != CL_OK)
      break;
    if (covered != target_size)
      s = cl_fail(CL_E_DIVISIBILITY, "tile_to_shape: the block's mode %lld (size %lld) does not divide the target shape's (size %lld)",
                  (long long)i, (long long)block_size, (long long)target_size);
    cl_b_int(&ordered.shape, repeats);
  }
  cl_b_close(&ordered.shape, at);
  if (s == CL_OK && (s = ordered.shape.status) == CL_OK) {
    if (order == NULL)
      cl_b_compact_major(&ordered.stride, ordered.shape.nodes, false, 1);
    else
      cl_b_compact_order(&ordered.stride, ordered.shape.nodes, order);
    s = cl_lb_status(&ordered);
  }
  if (s == CL_OK)
    s = rank_sensitive_product(lb, pb, cl_view_of_builder(&ordered), false);
  cl_lb_release(&padded);
  cl_lb_release(&ordered);
  return s;
}

/* ================================================================== public */

static cl_status tiling_public(const cl_layout_t *a, const cl_node *tiler, cl_layout_t **out, layout_op op,
                               arrangement how, const char *name) {
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = tiling(&lb, cl_view_of(a), tiler, op, how, name);
  return cl_lb_result(&lb, s, out);
}

#define TILING_API(fn, op, how)                                                                 \
  cl_status cl_##fn(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {            \
    CHECK_OUT(out);                                                                             \
    CHECK_NULL(a);                                                                              \
    CHECK_NULL(b);                                                                              \
    return tiling_public(a, cl_lroot(b), out, op, how, #fn);                                    \
  }                                                                                             \
  cl_status cl_##fn##_tiler(const cl_layout_t *a, const cl_tuple_t *tiler, cl_layout_t **out) { \
    CHECK_OUT(out);                                                                             \
    CHECK_NULL(a);                                                                              \
    CHECK_NULL(tiler);                                                                          \
    return tiling_public(a, cl_troot(tiler), out, op, how, #fn);                                \
  }

TILING_API(logical_divide, logical_divide_layout, LOGICAL)
TILING_API(zipped_divide, logical_divide_layout, ZIPPED)
TILING_API(tiled_divide, logical_divide_layout, TILED)
TILING_API(flat_divide, logical_divide_layout, FLAT)
TILING_API(logical_product, logical_product_layout, LOGICAL)
TILING_API(zipped_product, logical_product_layout, ZIPPED)
TILING_API(tiled_product, logical_product_layout, TILED)
TILING_API(flat_product, logical_product_layout, FLAT)

static cl_status rank_sensitive_public(const cl_layout_t *block, const cl_layout_t *tiler, cl_layout_t **out, bool raked) {
  CHECK_OUT(out);
  CHECK_NULL(block);
  CHECK_NULL(tiler);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = rank_sensitive_product(&lb, cl_view_of(block), cl_view_of(tiler), raked);
  return cl_lb_result(&lb, s, out);
}

cl_status cl_blocked_product(const cl_layout_t *block, const cl_layout_t *tiler, cl_layout_t **out) {
  return rank_sensitive_public(block, tiler, out, false);
}

cl_status cl_raked_product(const cl_layout_t *block, const cl_layout_t *tiler, cl_layout_t **out) {
  return rank_sensitive_public(block, tiler, out, true);
}

cl_status cl_tile_to_shape(const cl_layout_t *block, const cl_tuple_t *shape, const cl_tuple_t *order, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(block);
  CHECK_NULL(shape);
  CL_TRY(cl_require_shape(cl_troot(shape), "tile_to_shape's target shape"));
  if (order != NULL)
    CL_TRY(cl_require_int_tuple(cl_troot(order), "tile_to_shape's order"));
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = tile_to_shape(&lb, cl_view_of(block), cl_troot(shape), order ? cl_troot(order) : NULL);
  return cl_lb_result(&lb, s, out);
}

cl_status cl_tile_unzip(const cl_layout_t *layout, const cl_tuple_t *tiler, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  CHECK_NULL(tiler);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_status s = tile_unzip(&lb, cl_view_of(layout), cl_troot(tiler), "tile_unzip");
  return cl_lb_result(&lb, s, out);
}
