/* SPDX-License-Identifier: BSD-3-Clause */
/* swizzle_algebra.c: CuTe's operations on composed layouts
 * (layout_composed.hpp, swizzle_layout.hpp): slicing, the layout algebra on
 * the inner layout, inverses, casts, and the products and common vectors of
 * a layout with a swizzled layout.
 *
 * Nearly everything is CuTe's pattern composition(A, offset, f(B)): B defines
 * the domain, f is algebra.h's, and A is composed back.  Slicing a swizzled
 * layout and composing a layout with one look inside the swizzle. */
#include <stdio.h>

#include "algebra_impl.h"
#include "swizzle_impl.h"
#include "cutelayout/algebra.h"
#include "cutelayout/layout.h"

/* composition(A, B) of two layouts (algebra.h), CuTe's divisibility
 * conditions checked. */
static cl_status compose(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {
  return cl_composition(a, b, out);
}

/* ---- lifting an operation on B to A o offset o B ---- */

typedef cl_status (*inner_op)(const cl_layout_t *inner, const void *arg, cl_layout_t **out);

/* CuTe's pattern composition(A, offset, f(B)), with the three-argument
 * composition's simplification of an identity swizzle. */
static cl_status lift(const cl_composed_t *c, const char *what, inner_op f, const void *arg, cl_layout_t **layout,
                      cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(c);
  cl_layout_t *fl = NULL;
  cl_composed_t *fc = NULL;
  if (c->inner.kind == CL_FN_COMPOSED) {
    /* B is a composed layout itself: CuTe's f(B) is the same pattern again. */
    CL_TRY(lift(c->inner.composed, what, f, arg, &fl, &fc));
  } else {
    const cl_layout_t *b = NULL;
    CL_TRY(cl_sw_inner_layout(c, what, &b));
    CL_TRY(f(b, arg, &fl));
  }
  return cl_sw_rewrap(cl_sw_view(&c->outer), c->offset, c, fl, fc, layout, composed);
}

typedef struct path_arg {
  const int64_t *path;
  int64_t n;
} path_arg;
typedef struct range_arg {
  int64_t begin, end;
} range_arg;

static cl_status get_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const path_arg *p = arg;
  return cl_layout_get(b, p->path, p->n, out);
}
static cl_status take_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const range_arg *r = arg;
  return cl_layout_take(b, r->begin, r->end, out);
}
static cl_status group_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const range_arg *r = arg;
  return cl_layout_group(b, r->begin, r->end, out);
}
static cl_status flatten_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  (void)arg;
  return cl_layout_flatten(b, out);
}
static cl_status zip_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  (void)arg;
  return cl_layout_zip(b, out);
}

cl_status cl_composed_get(const cl_composed_t *composed, const int64_t *path, int64_t n, cl_layout_t **layout,
                          cl_composed_t **out_composed) {
  path_arg p = {path, n};
  return lift(composed, "get", get_op, &p, layout, out_composed);
}
cl_status cl_composed_take(const cl_composed_t *composed, int64_t begin, int64_t end, cl_layout_t **layout,
                           cl_composed_t **out_composed) {
  range_arg r = {begin, end};
  return lift(composed, "take", take_op, &r, layout, out_composed);
}
cl_status cl_composed_group(const cl_composed_t *composed, int64_t begin, int64_t end, cl_layout_t **layout,
                            cl_composed_t **out_composed) {
  range_arg r = {begin, end};
  return lift(composed, "group", group_op, &r, layout, out_composed);
}
cl_status cl_composed_flatten(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return lift(composed, "flatten", flatten_op, NULL, layout, out_composed);
}
cl_status cl_composed_zip(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return lift(composed, "zip", zip_op, NULL, layout, out_composed);
}

cl_status cl_composed_make_fragment_like(const cl_composed_t *composed, cl_layout_t **out) {
  CHECK_OUT(out);
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_inner_layout(composed, "make_fragment_like", &b));
  if (composed->outer.kind != CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "make_fragment_like: CuTe defines it for a swizzled composed layout only");
  return cl_make_fragment_like(b, out);
}

cl_status cl_composed_nullspace(const cl_composed_t *composed, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(composed);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_leaf(&lb, 1, 0);
  return cl_lb_finish(&lb, out);
}

/* ---- slicing ---- */

/* CuTe's all_underscore: every leaf is '_' (so `()` qualifies). */
static bool all_underscore(const cl_node *crd) {
  const cl_node *end = crd + crd->span;
  for (const cl_node *n = crd; n < end; n++)
    if (cl_is_leaf(n) && n->kind != CL_KIND_UNDERSCORE)
      return false;
  return true;
}

/* CuTe's dice(crd, t): the parts of t at the integer positions of crd.  The
 * nested integer positions are spliced into one flat tuple; an integer crd
 * keeps the whole of t, and '_' keeps nothing. */
static void lift_dice(cl_builder *b, const cl_node *crd, const cl_node *t) {
  if (cl_is_tuple(crd)) {
    if (!cl_is_tuple(t) || crd->rank != t->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "slice: the coordinate's profile does not match the layout's"));
      return;
    }
    const cl_node *x = cl_first(t);
    CL_FOR_EACH_CHILD(c, crd) {
      lift_dice(b, c, x);
      x = cl_next(x);
    }
  } else if (crd->kind == CL_KIND_INT) {
    cl_b_copy(b, t);
  } else if (crd->kind != CL_KIND_UNDERSCORE) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "slice: a coordinate holds integers and '_' only"));
  }
}

static void dice_tree(cl_builder *b, const cl_node *crd, const cl_node *t) {
  if (crd->kind == CL_KIND_INT) {
    cl_b_copy(b, t);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  lift_dice(b, crd, t);
  cl_b_close(b, at);
}

static cl_status dice_layout(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out) {
  const cl_node *l = cl_lroot(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  dice_tree(&lb.shape, cl_troot(crd), cl_lshape(l));
  dice_tree(&lb.stride, cl_troot(crd), cl_lstride(l));
  return cl_lb_finish(&lb, out);
}

static cl_status dice_coord(const cl_tuple_t *crd, cl_tuple_t **out) {
  cl_builder b;
  cl_b_init(&b);
  dice_tree(&b, cl_troot(crd), cl_troot(crd));
  return cl_b_finish_tuple(&b, out);
}

/* The extents of CuTe's projection layout of Swizzle<B,M,S>:
 * (2^M, 2^B, 2^(|S|-B), 2^B, 1) = (kept, zzz-or-yyy, between, yyy-or-zzz, beyond). */
static void projection_extents(cl_swizzle_t sw, int64_t extent[5]) {
  int s = sw.shift < 0 ? -sw.shift : sw.shift;
  extent[0] = INT64_C(1) << sw.base;
  extent[1] = INT64_C(1) << sw.bits;
  extent[2] = INT64_C(1) << (s - sw.bits);
  extent[3] = INT64_C(1) << sw.bits;
  extent[4] = 1;
}

/* swizzle_anti_zy (only_zy false): the index bits the swizzle leaves alone,
 * with the strides of the compact layout of those extents (0 for extent 1, as
 * CuTe's compact strides) and size(sw) beyond it;
 * swizzle_only_zy (only_zy true): the yyy and zzz bits, 0 beyond. */
static cl_status swizzle_projection(cl_swizzle_t sw, bool only_zy, cl_layout_t **out) {
  int64_t extent[5], compact[5], size = 1;
  projection_extents(sw, extent);
  for (int i = 0; i < 5; i++) {
    compact[i] = extent[i] == 1 ? 0 : size;
    size *= extent[i];
  }
  static const bool mixed[5] = {false, true, false, true, false};
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_mark m = cl_lb_open(&lb);
  for (int i = 0; i < 4; i++)
    cl_lb_leaf(&lb, extent[i], mixed[i] == only_zy ? compact[i] : 0);
  cl_lb_leaf(&lb, extent[4], only_zy ? 0 : size);
  cl_lb_close(&lb, m);
  return cl_lb_finish(&lb, out);
}

/* CuTe's to_mixed_bits(layout, crd) with every value known: for each leaf of
 * the layout (extent s, stride d, coordinate c), s*d must be 0 or a power of
 * two, and the bits (c*d) & ((s-1)*d) are XORed together. */
static cl_status mixed_bits_tree(const cl_node *shape, const cl_node *stride, const cl_node *crd, int64_t *out) {
  if (cl_is_tuple(shape)) {
    if (!cl_is_tuple(crd) || crd->rank != shape->rank)
      return cl_fail(CL_E_RANK, "slice: mismatched ranks in the swizzle's bit projection");
    if (shape->rank == 0)
      return cl_fail(CL_E_DOMAIN, "slice: CuTe cannot fold the bits of an empty mode");
    int64_t acc = 0;
    const cl_node *d = cl_first(stride), *c = cl_first(crd);
    CL_FOR_EACH_CHILD(s, shape) {
      int64_t bits;
      CL_TRY(mixed_bits_tree(s, d, c, &bits));
      acc ^= bits;
      d = cl_next(d);
      c = cl_next(c);
    }
    *out = acc;
    return CL_OK;
  }
  if (cl_is_tuple(crd))
    return cl_fail(CL_E_RANK, "slice: mismatched ranks in the swizzle's bit projection");
  int64_t span, value, mask;
  CL_TRY(cl_mul(shape->value, stride->value, &span));
  if (span != 0 && (span & (span - 1)) != 0)
    return cl_fail(CL_E_DOMAIN, "slice: the swizzled bits need power-of-two shape*stride, not %lld*%lld",
                   (long long)shape->value, (long long)stride->value);
  CL_TRY(cl_mul(crd->value, stride->value, &value));
  CL_TRY(cl_mul(shape->value - 1, stride->value, &mask));
  *out = value & mask;
  return CL_OK;
}

static cl_status to_mixed_bits(const cl_layout_t *layout, const cl_tuple_t *crd, int64_t *out) {
  const cl_node *l = cl_lroot(layout);
  cl_builder natural;
  cl_b_init(&natural);
  cl_b_idx2crd(&natural, cl_troot(crd), cl_lshape(l));
  cl_status s = natural.status;
  if (s == CL_OK)
    s = mixed_bits_tree(cl_lshape(l), cl_lstride(l), natural.nodes, out);
  cl_b_release(&natural);
  return s;
}

/* make_swizzle_strides: the strides of the B single-bit modes of one field
 * once the offset's bits are fixed.  For the zzz field (zzz_field true):
 * +Z<<i, or -Z<<i when the offset has the matching yyy bit (the swizzle
 * flips it back); for the yyy field: (Y+Z)<<i, or (Y-Z)<<i when the offset
 * has the matching zzz bit.  Z and Y are the lowest bits of the masks. */
static void swizzle_strides(cl_lbuilder *lb, bool zzz_field, int64_t z, int64_t y, int64_t offset, int bits) {
  for (int i = 0; i < bits; i++) {
    int64_t bit = INT64_C(1) << i, stride;
    if (zzz_field)
      stride = (offset & y * bit) == 0 ? z * bit : -z * bit;
    else
      stride = (offset & z * bit) == 0 ? (y + z) * bit : (y - z) * bit;
    cl_lb_leaf(lb, 2, stride);
  }
}

/* The swizzle with its yyy/zzz bits of the offset fixed, as a plain layout
 * (valid where its argument has no yyy and zzz bits in common):
 * (2^M, 2,..,2, 2^(|S|-B), 2,..,2, 1) : (1, lo.., 2^(M+B), hi.., 2^(M+B+|S|)). */
static cl_status swizzle_as_layout(cl_swizzle_t sw, int64_t offset, cl_layout_t **out) {
  int64_t zzz = cl_sw_zzz_msk(sw), yyy = cl_sw_yyy_msk(sw);
  int64_t z = zzz & -zzz, y = yyy & -yyy;
  int s = sw.shift < 0 ? -sw.shift : sw.shift;
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_mark m = cl_lb_open(&lb);
  cl_lb_leaf(&lb, INT64_C(1) << sw.base, 1);
  swizzle_strides(&lb, z < y, z, y, offset, sw.bits);
  cl_lb_leaf(&lb, INT64_C(1) << (s - sw.bits), INT64_C(1) << (sw.base + sw.bits));
  swizzle_strides(&lb, z > y, z, y, offset, sw.bits);
  cl_lb_leaf(&lb, 1, INT64_C(1) << (sw.base + sw.bits + s));
  cl_lb_close(&lb, m);
  return cl_lb_finish(&lb, out);
}

/* The state of one swizzled slice, freed in one place. */
typedef struct swizzle_slice {
  cl_layout_t *sliced, *diced, *anti_zy, *only_zy, *diced_anti_zy, *diced_only_zy, *sliced_only_zy, *as_layout;
  cl_tuple_t *diced_crd;
} swizzle_slice;

static void swizzle_slice_release(swizzle_slice *w) {
  cl_layout_free(w->sliced);
  cl_layout_free(w->diced);
  cl_layout_free(w->anti_zy);
  cl_layout_free(w->only_zy);
  cl_layout_free(w->diced_anti_zy);
  cl_layout_free(w->diced_only_zy);
  cl_layout_free(w->sliced_only_zy);
  cl_layout_free(w->as_layout);
  cl_tuple_free(w->diced_crd);
}

/* swizzle_layout.hpp's slice_and_offset for Sw o offset o B and a
 * coordinate with at least one integer. */
static cl_status slice_swizzled(const cl_tuple_t *crd, const cl_composed_t *c, swizzle_slice *w, cl_layout_t **layout,
                                cl_composed_t **composed, int64_t *offset) {
  cl_swizzle_t sw = c->outer.swizzle;
  const cl_layout_t *b = c->inner.layout;
  /* The part of B that stays, and the part the coordinate consumes. */
  CL_TRY(cl_layout_slice(crd, b, &w->sliced));
  const cl_node *rest = cl_lshape(cl_lroot(w->sliced));
  if (cl_is_tuple(rest) && rest->rank == 0)
    return cl_fail(CL_E_DOMAIN, "slice: a swizzled layout needs a '_' in the coordinate (CuTe cannot compose the swizzle with the empty layout left)");
  CL_TRY(dice_layout(crd, b, &w->diced));
  CL_TRY(dice_coord(crd, &w->diced_crd));
  CL_TRY(swizzle_projection(sw, false, &w->anti_zy));
  CL_TRY(swizzle_projection(sw, true, &w->only_zy));
  CL_TRY(compose(w->anti_zy, w->diced, &w->diced_anti_zy));
  CL_TRY(compose(w->only_zy, w->diced, &w->diced_only_zy));
  /* The consumed yyy/zzz bits interact with the swizzle: they join the
   * composed offset; the other consumed bits pass through as an offset. */
  int64_t mixed, offset_anti_zy;
  CL_TRY(to_mixed_bits(w->diced_only_zy, w->diced_crd, &mixed));
  int64_t offset_only_zy = c->unsigned_offset ? cl_sw_wrap32(c->offset ^ mixed) : c->offset ^ mixed;
  CL_TRY(cl_layout_eval_coord(w->diced_anti_zy, w->diced_crd, &offset_anti_zy));
  /* The yyy/zzz bits the remaining layout reaches: its last index's image. */
  int64_t size, active;
  CL_TRY(compose(w->only_zy, w->sliced, &w->sliced_only_zy));
  CL_TRY(cl_layout_size_checked(w->sliced_only_zy, &size));
  CL_TRY(cl_layout_eval(w->sliced_only_zy, size - 1, &active));
  if ((active & ~cl_sw_apply(sw, active)) != 0) {
    /* It reaches a yyy bit and its zzz partner: the swizzle stays. */
    CL_TRY(cl_sw_composition3(cl_side_swizzle(sw), offset_only_zy, c->unsigned_offset, cl_side_layout(w->sliced), layout,
                              composed));
    *offset = offset_anti_zy;
    return CL_OK;
  }
  /* It never sees both bits of a pair: the swizzle becomes strides. */
  CL_TRY(swizzle_as_layout(sw, offset_only_zy, &w->as_layout));
  int64_t total;
  if (c->unsigned_offset)
    total = cl_sw_wrap32(cl_sw_apply(sw, offset_only_zy) + offset_anti_zy);
  else
    CL_TRY(cl_add(cl_sw_apply(sw, offset_only_zy), offset_anti_zy, &total));
  CL_TRY(compose(w->as_layout, w->sliced, layout));
  *offset = total;
  return CL_OK;
}

/* layout_composed.hpp's slice_and_offset, for any A and B:
 * (A o (offset + off) o slice, 0) where (slice, off) = slice_and_offset(crd, B),
 * never simplified. */
static cl_status slice_generic(const cl_tuple_t *crd, const cl_composed_t *c, cl_composed_t **out) {
  cl_layout_t *sl = NULL;
  cl_composed_t *sc = NULL;
  int64_t b_offset, total;
  if (c->inner.kind == CL_FN_COMPOSED) {
    CL_TRY(cl_composed_slice_and_offset(crd, c->inner.composed, &sl, &sc, &b_offset));
  } else {
    const cl_layout_t *b = NULL;
    CL_TRY(cl_sw_inner_layout(c, "slice", &b));
    CL_TRY(cl_layout_slice_and_offset(crd, b, &sl, &b_offset));
  }
  cl_status s = cl_sw_offset_plus(c, b_offset, &total);
  if (s == CL_OK)
    s = cl_sw_make_composed(cl_sw_view(&c->outer), total, c->unsigned_offset, cl_side_either(sl, sc), out);
  cl_layout_free(sl);
  cl_composed_free(sc);
  return s;
}

cl_status cl_composed_slice_and_offset(const cl_tuple_t *crd, const cl_composed_t *composed, cl_layout_t **layout,
                                       cl_composed_t **out_composed, int64_t *offset) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(crd);
  CHECK_NULL(composed);
  if (composed->outer.kind != CL_FN_SWIZZLE)
    return slice_generic(crd, composed, out_composed);
  if (all_underscore(cl_troot(crd))) {
    /* composition(Sw, offset, slice(crd, B)), through nested B too */
    cl_layout_t *sl = NULL;
    cl_composed_t *sc = NULL;
    if (composed->inner.kind == CL_FN_COMPOSED)
      CL_TRY(cl_composed_slice(crd, composed->inner.composed, &sl, &sc));
    else {
      const cl_layout_t *b = NULL;
      CL_TRY(cl_sw_inner_layout(composed, "slice", &b));
      CL_TRY(cl_layout_slice(crd, b, &sl));
    }
    return cl_sw_rewrap(cl_sw_view(&composed->outer), composed->offset, composed, sl, sc, layout, out_composed);
  }
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_inner_layout(composed, "slice", &b));
  swizzle_slice w = {0};
  cl_status s = slice_swizzled(crd, composed, &w, layout, out_composed, offset);
  swizzle_slice_release(&w);
  if (s != CL_OK) {
    cl_sw_clear_either(layout, out_composed);
    *offset = 0;
  }
  return s;
}

cl_status cl_composed_slice(const cl_tuple_t *crd, const cl_composed_t *composed, cl_layout_t **layout,
                            cl_composed_t **out_composed) {
  int64_t offset;
  return cl_composed_slice_and_offset(crd, composed, layout, out_composed, &offset);
}

/* ---- the layout algebra on B ---- */

typedef cl_status (*tiler_fn)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);
typedef cl_status (*layout_fn)(const cl_layout_t *, const cl_layout_t *, cl_layout_t **);

typedef struct tiler_arg {
  tiler_fn f;
  const cl_tuple_t *tiler;
} tiler_arg;

static cl_status tiler_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const tiler_arg *t = arg;
  return t->f(b, t->tiler, out);
}

static cl_status lift_tiler(const cl_composed_t *c, const char *what, tiler_fn f, const cl_tuple_t *tiler, cl_layout_t **layout,
                            cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(tiler);
  tiler_arg t = {f, tiler};
  return lift(c, what, tiler_op, &t, layout, composed);
}

#define COMPOSED_TILER_OP(name, algebra_fn)                                                                        \
  cl_status cl_composed_##name(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,      \
                               cl_composed_t **out_composed) {                                                   \
    return lift_tiler(composed, #name, algebra_fn, tiler, layout, out_composed);                                 \
  }
COMPOSED_TILER_OP(composition, cl_composition_tiler)
COMPOSED_TILER_OP(logical_divide, cl_logical_divide_tiler)
COMPOSED_TILER_OP(zipped_divide, cl_zipped_divide_tiler)
COMPOSED_TILER_OP(tiled_divide, cl_tiled_divide_tiler)
COMPOSED_TILER_OP(flat_divide, cl_flat_divide_tiler)
COMPOSED_TILER_OP(logical_product, cl_logical_product_tiler)
COMPOSED_TILER_OP(zipped_product, cl_zipped_product_tiler)
COMPOSED_TILER_OP(tiled_product, cl_tiled_product_tiler)
COMPOSED_TILER_OP(flat_product, cl_flat_product_tiler)
COMPOSED_TILER_OP(tile_unzip, cl_tile_unzip)

typedef struct layout_arg {
  layout_fn f;
  const cl_layout_t *other;
} layout_arg;

static cl_status layout_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const layout_arg *t = arg;
  return t->f(b, t->other, out);
}

typedef struct append_arg {
  const cl_layout_t *x;
  int64_t n;
} append_arg;

static cl_status append_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const append_arg *t = arg;
  return cl_layout_append_to(b, t->x, t->n, out);
}

cl_status cl_composed_append(const cl_composed_t *composed, const cl_layout_t *x, int64_t n, cl_layout_t **layout,
                             cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(x);
  append_arg t = {x, n};
  return lift(composed, "append", append_op, &t, layout, out_composed);
}

cl_status cl_composed_blocked_product(const cl_composed_t *composed, const cl_layout_t *tiler, cl_layout_t **layout,
                                      cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(tiler);
  layout_arg t = {cl_blocked_product, tiler};
  return lift(composed, "blocked_product", layout_op, &t, layout, out_composed);
}

cl_status cl_composed_raked_product(const cl_composed_t *composed, const cl_layout_t *tiler, cl_layout_t **layout,
                                    cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(tiler);
  layout_arg t = {cl_raked_product, tiler};
  return lift(composed, "raked_product", layout_op, &t, layout, out_composed);
}

typedef struct shape_order {
  const cl_tuple_t *shape, *order;
} shape_order;

static cl_status tile_to_shape_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const shape_order *t = arg;
  return cl_tile_to_shape(b, t->shape, t->order, out);
}

cl_status cl_composed_tile_to_shape(const cl_composed_t *composed, const cl_tuple_t *shape, const cl_tuple_t *order,
                                    cl_layout_t **layout, cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(shape);
  shape_order t = {shape, order};
  return lift(composed, "tile_to_shape", tile_to_shape_op, &t, layout, out_composed);
}

static cl_status coalesce_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  return arg == NULL ? cl_coalesce(b, out) : cl_coalesce_profile(b, arg, out);
}

cl_status cl_composed_coalesce(const cl_composed_t *composed, const cl_tuple_t *profile, cl_layout_t **layout,
                               cl_composed_t **out_composed) {
  return lift(composed, "coalesce", coalesce_op, profile, layout, out_composed);
}

static cl_status filter_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  return cl_filter_profile(b, arg, out);
}

cl_status cl_composed_filter(const cl_composed_t *composed, const cl_tuple_t *profile, cl_layout_t **layout,
                             cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(composed);
  if (profile == NULL)
    return cl_fail(CL_E_UNSUPPORTED, "filter: CuTe filters a composed layout only by a profile, filter(C, profile)");
  return lift(composed, "filter", filter_op, profile, layout, out_composed);
}

cl_status cl_composed_complement(const cl_composed_t *composed, const cl_tuple_t *cotarget, cl_layout_t **out) {
  CHECK_OUT(out);
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_domain_layout(composed, "complement", &b));
  int64_t n;
  if (cotarget == NULL) {
    CL_TRY(cl_layout_cosize_checked(b, &n));
    return cl_complement(b, n, out);
  }
  if (cl_tuple_kind(cotarget) == CL_KIND_INT && cl_tuple_value(cotarget, &n) == CL_OK)
    return cl_complement(b, n, out);
  return cl_complement_shape(b, cotarget, out);
}

/* ---- inverses ---- */

typedef cl_status (*inverse_fn)(const cl_layout_t *, cl_layout_t **);

static cl_status composed_inverse(const cl_composed_t *c, inverse_fn inverse, const char *what, cl_layout_t **layout,
                                  cl_composed_t **composed);

/* A layout (l) or a composed layout (c) as an owned part (taking them). */
static cl_sw_part part_of_either(cl_layout_t *l, cl_composed_t *c) {
  return c != NULL ? (cl_sw_part){CL_FN_COMPOSED, {0, 0, 0}, NULL, c} : (cl_sw_part){CL_FN_LAYOUT, {0, 0, 0}, l, NULL};
}

/* The inverse of one side as an owned part: a swizzle is its own inverse, a
 * nested composed layout is inverted as CuTe inverts any. */
static cl_status invert_part(const cl_sw_part *f, inverse_fn inverse, const char *what, cl_sw_part *out) {
  *out = (cl_sw_part){f->kind, f->swizzle, NULL, NULL};
  if (f->kind == CL_FN_SWIZZLE)
    return CL_OK;
  if (f->kind == CL_FN_LAYOUT)
    return inverse(f->layout, &out->layout);
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  CL_TRY(composed_inverse(f->composed, inverse, what, &l, &c));
  *out = part_of_either(l, c);
  return CL_OK;
}

static cl_status compose_any(const cl_layout_t *xl, const cl_composed_t *xc, cl_layout_fn_t f, cl_layout_t **layout,
                             cl_composed_t **composed);

static cl_status composed_inverse(const cl_composed_t *c, inverse_fn inverse, const char *what, cl_layout_t **layout,
                                  cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(c);
  if (c->outer.kind == CL_FN_SWIZZLE && c->offset == 0 && c->inner.kind == CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "%s: the inverse of Sw o 0 o Sw2 is the swizzle composition(Sw2, Sw), not a layout", what);
  int64_t minus_offset;
  if (c->unsigned_offset)
    minus_offset = cl_sw_wrap32(-c->offset);
  else
    CL_TRY(cl_sub(0, c->offset, &minus_offset));
  cl_sw_part inv_inner, inv_outer = {CL_FN_LAYOUT, {0, 0, 0}, NULL, NULL};
  CL_TRY(invert_part(&c->inner, inverse, what, &inv_inner));
  cl_status s = invert_part(&c->outer, inverse, what, &inv_outer);
  if (s == CL_OK) {
    if (c->outer.kind == CL_FN_SWIZZLE && c->offset == 0)
      /* CuTe: composition(inverse(B), Sw), the swizzle moved through. */
      s = compose_any(inv_inner.layout, inv_inner.composed, cl_side_swizzle(c->outer.swizzle), layout, composed);
    else
      s = cl_sw_composition3(cl_sw_view(&inv_inner), minus_offset, c->unsigned_offset, cl_sw_view(&inv_outer), layout, composed);
  }
  cl_sw_release_part(&inv_inner);
  cl_sw_release_part(&inv_outer);
  return s;
}

cl_status cl_composed_right_inverse(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_inverse(composed, cl_right_inverse, "right_inverse", layout, out_composed);
}

cl_status cl_composed_left_inverse(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_inverse(composed, cl_left_inverse, "left_inverse", layout, out_composed);
}

/* ---- upcast / downcast ---- */

static cl_status composed_cast(const cl_composed_t *c, int64_t n, bool up, cl_layout_t **layout, cl_composed_t **composed);

static cl_status cast_part(const cl_sw_part *f, int64_t n, bool up, cl_sw_part *out) {
  *out = (cl_sw_part){f->kind, {0, 0, 0}, NULL, NULL};
  if (f->kind == CL_FN_SWIZZLE)
    return up ? cl_swizzle_upcast(f->swizzle, n, &out->swizzle) : cl_swizzle_downcast(f->swizzle, n, &out->swizzle);
  if (f->kind == CL_FN_LAYOUT)
    return up ? cl_upcast(f->layout, n, &out->layout) : cl_downcast(f->layout, n, &out->layout);
  cl_layout_t *l = NULL;
  cl_composed_t *c = NULL;
  CL_TRY(composed_cast(f->composed, n, up, &l, &c));
  *out = part_of_either(l, c);
  return CL_OK;
}

static cl_status composed_cast(const cl_composed_t *c, int64_t n, bool up, cl_layout_t **layout, cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(c);
  /* CuTe scales the offset by the uint32_t template argument n: in
   * unsigned int arithmetic, so a negative offset wraps. */
  if (n <= 0 || n > INT32_MAX)
    return cl_fail(CL_E_DOMAIN, "%s<%lld>: the factor must be a positive int", up ? "upcast" : "downcast", (long long)n);
  uint32_t offset32 = (uint32_t)(uint64_t)c->offset, n32 = (uint32_t)n;
  if (up && offset32 % n32 != 0)
    return cl_fail(CL_E_DIVISIBILITY, "upcast<%lld>: the offset %lld is not a multiple of %lld", (long long)n,
                   (long long)c->offset, (long long)n);
  int64_t offset = up ? offset32 / n32 : (uint32_t)(offset32 * n32);
  cl_sw_part outer, inner = {CL_FN_LAYOUT, {0, 0, 0}, NULL, NULL};
  cl_status s = cast_part(&c->outer, n, up, &outer);
  if (s == CL_OK)
    s = cast_part(&c->inner, n, up, &inner);
  if (s == CL_OK)
    s = cl_sw_composition3(cl_sw_view(&outer), offset, true, cl_sw_view(&inner), layout, composed);
  cl_sw_release_part(&outer);
  cl_sw_release_part(&inner);
  return s;
}

cl_status cl_composed_upcast(const cl_composed_t *composed, int64_t n, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_cast(composed, n, true, layout, out_composed);
}

cl_status cl_composed_downcast(const cl_composed_t *composed, int64_t n, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_cast(composed, n, false, layout, out_composed);
}

/* ---- composition of any two layout functions ---- */

/* composition(X, f) for X a layout (xl) or a composed layout (xc) and f a
 * layout, a swizzle or a composed layout, as CuTe's overloads nest it:
 *   composition(A o O o B, f) = composition(A, O, composition(B, f))
 *   composition(L, Sw)        = the swizzle moved through L
 *   composition(L, C)         = composition(composition(L, A), B), O == 0 */
static cl_status compose_any(const cl_layout_t *xl, const cl_composed_t *xc, cl_layout_fn_t f, cl_layout_t **layout,
                             cl_composed_t **composed) {
  if (xc != NULL) {
    if (xc->inner.kind == CL_FN_SWIZZLE)
      return cl_fail(CL_E_UNSUPPORTED, "composition(A o O o Sw, X): CuTe has no composition of a swizzle with this argument");
    cl_layout_t *bl = NULL;
    cl_composed_t *bc = NULL;
    CL_TRY(compose_any(xc->inner.layout, xc->inner.composed, f, &bl, &bc));
    return cl_sw_rewrap(cl_sw_view(&xc->outer), xc->offset, xc, bl, bc, layout, composed);
  }
  if (f.composed != NULL)
    return cl_composition_with_composed(xl, f.composed, layout, composed);
  if (f.fn.kind == CL_FN_SWIZZLE)
    return cl_composition_with_swizzle(xl, f.fn.swizzle, layout, composed);
  return compose(xl, f.fn.layout, layout);
}

cl_status cl_composition_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                       cl_composed_t **out_composed) {
  CHECK_EITHER(out_layout, out_composed);
  CHECK_NULL(layout);
  CHECK_NULL(composed);
  if (composed->offset != 0)
    return cl_fail(CL_E_DOMAIN, "composition(L, C): CuTe requires the composed layout's offset to be 0, not %lld",
                   (long long)composed->offset);
  cl_layout_t *xl = NULL;
  cl_composed_t *xc = NULL;
  CL_TRY(compose_any(layout, NULL, cl_sw_view(&composed->outer), &xl, &xc));
  cl_status s = compose_any(xl, xc, cl_sw_view(&composed->inner), out_layout, out_composed);
  cl_layout_free(xl);
  cl_composed_free(xc);
  return s;
}

cl_status cl_composed_composition_with_composed(const cl_composed_t *a, const cl_composed_t *b, cl_layout_t **layout,
                                                cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(a);
  CHECK_NULL(b);
  return compose_any(NULL, a, cl_layout_fn_composed(b), layout, out_composed);
}

/* logical_product(L, Sw o 0 o B): the product of L with B, and the swizzle
 * that acts on it as Sw acts on B.  The yyy and zzz bits that B reaches,
 * (P o B)(size-1) with P the projection on them, are followed through B and
 * then through the product's second mode. */
static cl_status product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, layout_fn arrange,
                                       cl_layout_t **out_layout, cl_composed_t **out_composed) {
  CHECK_EITHER(out_layout, out_composed);
  CHECK_NULL(layout);
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_inner_layout(composed, "logical_product", &b));
  if (composed->outer.kind != CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "logical_product(L, C): CuTe defines it for a swizzled composed layout only");
  if (composed->offset != 0)
    return cl_fail(CL_E_DOMAIN, "logical_product(L, C): CuTe requires the swizzle offset to be 0, not %lld",
                   (long long)composed->offset);
  cl_swizzle_t sw = composed->outer.swizzle;
  cl_layout_t *product = NULL, *only_zy = NULL, *b_only_zy = NULL, *arranged = NULL;
  cl_tuple_t *crd = NULL;
  int64_t size, active, moved[2] = {0, 0};
  cl_status s = cl_logical_product(layout, b, &product);
  if (s == CL_OK)
    s = swizzle_projection(sw, true, &only_zy);
  if (s == CL_OK)
    s = compose(only_zy, b, &b_only_zy);
  if (s == CL_OK)
    s = cl_layout_size_checked(b_only_zy, &size);
  if (s == CL_OK)
    s = cl_layout_eval(b_only_zy, size - 1, &active);
  /* new_layout(0, B(active & mask)) for the yyy and the zzz mask */
  int64_t masks[2] = {cl_sw_yyy_msk(sw), cl_sw_zzz_msk(sw)};
  for (int k = 0; k < 2 && s == CL_OK; k++) {
    int64_t through_b, crd_values[2];
    s = cl_layout_eval(b, active & masks[k], &through_b);
    crd_values[0] = 0;
    crd_values[1] = through_b;
    if (s == CL_OK)
      s = cl_tuple_from_ints(crd_values, 2, &crd);
    if (s == CL_OK)
      s = cl_layout_eval_coord(product, crd, &moved[k]);
    cl_tuple_free(crd);
    crd = NULL;
  }
  cl_swizzle_t moved_sw;
  if (s == CL_OK && (s = cl_make_swizzle(moved[0], moved[1], &moved_sw)) != CL_OK)
    s = cl_sw_fail_context(s, "logical_product(L, Sw<%d,%d,%d> o 0 o B): the product moves the swizzle's masks to %lld and %lld",
                     sw.bits, sw.base, sw.shift, (long long)moved[0], (long long)moved[1]);
  if (s == CL_OK && arrange != NULL)
    s = arrange(layout, b, &arranged);
  if (s == CL_OK)
    s = cl_sw_composition3(cl_side_swizzle(moved_sw), 0, false, cl_side_layout(arranged ? arranged : product), out_layout,
                           out_composed);
  cl_layout_free(product);
  cl_layout_free(only_zy);
  cl_layout_free(b_only_zy);
  cl_layout_free(arranged);
  return s;
}

/* The other products of (L, C) arrange the logical product's modes: with a
 * layout (not a tuple) as tiler, zipped_product leaves them as they are. */
cl_status cl_logical_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                           cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, NULL, out_layout, out_composed);
}
cl_status cl_zipped_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                          cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, cl_zipped_product, out_layout, out_composed);
}
cl_status cl_tiled_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                         cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, cl_tiled_product, out_layout, out_composed);
}
cl_status cl_flat_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                        cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, cl_flat_product, out_layout, out_composed);
}

/* ---- common vectors ---- */

static cl_status swizzled_inner(const cl_composed_t *c, const char *what, const cl_layout_t **b) {
  CL_TRY(cl_sw_inner_layout(c, what, b));
  if (c->outer.kind != CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "%s: CuTe defines it for a swizzled composed layout only", what);
  return CL_OK;
}

cl_status cl_composed_max_common_vector(const cl_composed_t *composed, const cl_layout_t *layout, int64_t *out) {
  CHECK_NULL(out);
  CHECK_NULL(layout);
  const cl_layout_t *b = NULL;
  CL_TRY(swizzled_inner(composed, "max_common_vector", &b));
  int64_t v;
  CL_TRY(cl_max_common_vector(b, layout, &v));
  int64_t base = INT64_C(1) << composed->outer.swizzle.base;
  *out = v < base ? v : base;
  return CL_OK;
}

cl_status cl_composed_max_common_vector2(const cl_composed_t *a, const cl_composed_t *b, int64_t *out) {
  CHECK_NULL(out);
  const cl_layout_t *ab = NULL, *bb = NULL;
  CL_TRY(swizzled_inner(a, "max_common_vector", &ab));
  CL_TRY(swizzled_inner(b, "max_common_vector", &bb));
  int64_t v;
  CL_TRY(cl_max_common_vector(ab, bb, &v));
  if (!cl_swizzle_equal(a->outer.swizzle, b->outer.swizzle)) {
    int64_t base_a = INT64_C(1) << a->outer.swizzle.base, base_b = INT64_C(1) << b->outer.swizzle.base;
    v = v < base_a ? v : base_a;
    v = v < base_b ? v : base_b;
  }
  *out = v;
  return CL_OK;
}

cl_status cl_composed_max_common_layout(const cl_composed_t *composed, const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  const cl_layout_t *b = NULL;
  CL_TRY(swizzled_inner(composed, "max_common_layout", &b));
  cl_layout_t *common;
  CL_TRY(cl_max_common_layout(b, layout, &common));
  int64_t size, base = INT64_C(1) << composed->outer.swizzle.base;
  cl_status s = cl_layout_size_checked(common, &size);
  if (s != CL_OK || base >= size) {
    if (s == CL_OK)
      *out = common;
    else
      cl_layout_free(common);
    return s;
  }
  /* common.compose(base): its first 2^M elements */
  cl_tuple_t *tile = NULL;
  s = cl_tuple_int(base, &tile);
  if (s == CL_OK)
    s = cl_composition_tiler(common, tile, out);
  cl_tuple_free(tile);
  cl_layout_free(common);
  return s;
}

/* ---- domain_offset, max_alignment, recast ---- */

cl_status cl_composed_domain_offset(const cl_tuple_t *crd, const cl_composed_t *composed, cl_composed_t **out,
                                    int64_t *offset) {
  CHECK_OUT(out);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(crd);
  CHECK_NULL(composed);
  /* CuTe moves the coordinate's offset into the composed layout:
   * (A o (offset + B(crd)) o B, 0), made directly, never simplified. */
  int64_t at, moved;
  if (composed->inner.kind == CL_FN_COMPOSED) {
    CL_TRY(cl_composed_eval_coord(composed->inner.composed, crd, &at));
  } else {
    const cl_layout_t *b = NULL;
    CL_TRY(cl_sw_inner_layout(composed, "domain_offset", &b));
    CL_TRY(cl_layout_eval_coord(b, crd, &at));
  }
  CL_TRY(cl_sw_offset_plus(composed, at, &moved));
  return cl_sw_make_composed(cl_sw_view(&composed->outer), moved, composed->unsigned_offset, cl_sw_view(&composed->inner),
                             out);
}

cl_status cl_composed_max_alignment(const cl_composed_t *composed, int64_t *out) {
  CHECK_NULL(out);
  CHECK_NULL(composed);
  /* CuTe does not attempt general composed layouts (1); for a swizzled one,
   * gcd(2^M, the offset, max_alignment(B)), its gcd folded from the right. */
  if (composed->outer.kind != CL_FN_SWIZZLE) {
    *out = 1;
    return CL_OK;
  }
  int64_t vals[3] = {INT64_C(1) << composed->outer.swizzle.base, composed->offset, 0};
  if (composed->inner.kind == CL_FN_COMPOSED) {
    CL_TRY(cl_composed_max_alignment(composed->inner.composed, &vals[2]));
  } else {
    const cl_layout_t *b = NULL;
    CL_TRY(cl_sw_inner_layout(composed, "max_alignment", &b));
    CL_TRY(cl_max_alignment(b, &vals[2]));
  }
  cl_tuple_t *all = NULL;
  CL_TRY(cl_tuple_from_ints(vals, 3, &all));
  cl_status s = cl_tuple_gcd(all, out);
  cl_tuple_free(all);
  return s;
}

cl_status cl_composed_recast_layout(const cl_composed_t *composed, int64_t old_bits, int64_t new_bits, cl_layout_t **layout,
                                    cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(composed);
  int64_t up = 1, down = 1;
  CL_TRY(cl_recast_ratio(old_bits, new_bits, &up, &down));
  if (up == 1 && down == 1)
    return cl_composed_copy(composed, out_composed);
  if (up == 1)
    return cl_composed_downcast(composed, down, layout, out_composed);
  if (down == 1)
    return cl_composed_upcast(composed, up, layout, out_composed);
  cl_layout_t *wl = NULL;
  cl_composed_t *wc = NULL;
  CL_TRY(cl_composed_upcast(composed, up, &wl, &wc));
  cl_status s = wl != NULL ? cl_downcast(wl, down, layout) : cl_composed_downcast(wc, down, layout, out_composed);
  cl_layout_free(wl);
  cl_composed_free(wc);
  return s;
}
