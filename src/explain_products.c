/* SPDX-License-Identifier: BSD-3-Clause */
/* explain_products.c: the explanations of the divides and the products
 * (explain_impl.h): the complement and composition of their definitions
 * (algebra_products.c), each explained one level deeper, by mode for tuple
 * tilers, then the arrangement of the modes. */
#include <stdio.h>
#include <string.h>

#include "explain_impl.h"

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

/* logical_divide(A, B) = composition(A, make_layout(B, complement(B, shape(coalesce(A))))). */
static cl_status explain_logical_divide(cl_explanation_t *e, int64_t depth, const cl_layout_t *a, const cl_layout_t *b,
                                        cl_layout_t **out) {
  char *at = cl_ex_text(a), *bt = cl_ex_text(b), *cot = NULL, *ct = NULL, *rt = NULL;
  cl_layout_t *coalesced = NULL, *rest = NULL, *rhs = NULL;
  cl_tuple_t *cotarget = NULL;
  cl_status s = at && bt ? cl_coalesce(a, &coalesced) : cl_ex_nomem();
  if (s == CL_OK)
    s = cl_layout_shape(coalesced, &cotarget);
  if (s == CL_OK && (cot = cl_ex_tuple_text(cotarget)) == NULL)
    s = cl_ex_nomem();
  if (s == CL_OK)
    s = cl_ex_add(e, depth, "cotarget", NULL, cl_ex_strf("%s", cot), cl_ex_strf("shape(coalesce(%s))", at),
            cl_ex_strf("the tiles must cover A's domain, the shape of A coalesced (%lld elements)", (long long)cl_layout_size(a)));
  int64_t slot;
  if (s == CL_OK && (s = cl_ex_reserve(e, &slot)) == CL_OK) {
    s = cl_ex_complement(e, depth + 1, b, cotarget, &rest);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(rest, &copy);
    s = cl_ex_close_step(e, slot, depth, s, "complement", copy, cl_ex_strf("complement(%s,%s)", bt, cot),
                   cl_ex_strf("%s", "the layout of the tile's repetitions: what B leaves of the cotarget"));
  }
  if (s == CL_OK && (ct = cl_ex_text(rest)) == NULL)
    s = cl_ex_nomem();
  if (s == CL_OK) {
    const cl_layout_t *pair[2] = {b, rest};
    cl_layout_t *copy = NULL;
    s = cl_layout_concat(pair, 2, &rhs);
    if (s == CL_OK && (s = cl_layout_copy(rhs, &copy)) == CL_OK)
      s = cl_ex_add(e, depth, "make_layout", copy, NULL, cl_ex_strf("make_layout(%s,%s)", bt, ct),
              cl_ex_strf("the tile and its repetitions, (B, complement): size %lld, a tile of %lld %lld times",
                   (long long)cl_layout_size(rhs), (long long)cl_layout_size(b), (long long)cl_layout_size(rest)));
  }
  if (s == CL_OK && (rt = cl_ex_text(rhs)) == NULL)
    s = cl_ex_nomem();
  cl_layout_t *result = NULL;
  if (s == CL_OK && (s = cl_ex_reserve(e, &slot)) == CL_OK) {
    s = cl_ex_composition(e, depth + 1, a, rhs, &result);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(result, &copy);
    s = cl_ex_close_step(e, slot, depth, s, "composition", copy, cl_ex_strf("composition(%s,%s)", at, rt),
                   cl_ex_strf("%s", "A read through (tile, repetitions): the divided layout"));
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
  char *at = cl_ex_text(a), *bt = cl_ex_text(b), *ct = NULL, *pt = NULL;
  cl_layout_t *rest = NULL, *placed = NULL, *result = NULL;
  cl_tuple_t *cotarget = NULL;
  int64_t size = 0, cosize = 0, target = 0, slot;
  cl_status s = at && bt ? cl_layout_size_checked(a, &size) : cl_ex_nomem();
  if (s == CL_OK && (s = cl_layout_cosize_checked(b, &cosize)) == CL_OK && (s = cl_mul(size, cosize, &target)) == CL_OK &&
      (s = cl_tuple_int(target, &cotarget)) == CL_OK)
    s = cl_ex_add(e, depth, "cotarget", NULL, cl_ex_strf("%lld", (long long)target), cl_ex_strf("product((size(%s),cosize(%s)))", at, bt),
            cl_ex_strf("B places up to cosize(B) = %lld copies of A's %lld elements: the product spans size(A)*cosize(B) = %lld",
                 (long long)cosize, (long long)size, (long long)target));
  if (s == CL_OK && (s = cl_ex_reserve(e, &slot)) == CL_OK) {
    s = cl_ex_complement(e, depth + 1, a, cotarget, &rest);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(rest, &copy);
    s = cl_ex_close_step(e, slot, depth, s, "complement", copy, cl_ex_strf("complement(%s,%lld)", at, (long long)target),
                   cl_ex_strf("%s", "where copies of A can go: the complement of A up to that size"));
  }
  if (s == CL_OK && (ct = cl_ex_text(rest)) == NULL)
    s = cl_ex_nomem();
  if (s == CL_OK && (s = cl_ex_reserve(e, &slot)) == CL_OK) {
    s = cl_ex_composition(e, depth + 1, rest, b, &placed);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(placed, &copy);
    s = cl_ex_close_step(e, slot, depth, s, "composition", copy, cl_ex_strf("composition(%s,%s)", ct, bt),
                   cl_ex_strf("%s", "B arranges those places: the layout of the copies"));
  }
  if (s == CL_OK && (pt = cl_ex_text(placed)) == NULL)
    s = cl_ex_nomem();
  if (s == CL_OK) {
    const cl_layout_t *pair[2] = {a, placed};
    cl_layout_t *copy = NULL;
    s = cl_layout_concat(pair, 2, &result);
    if (s == CL_OK && (s = cl_layout_copy(result, &copy)) == CL_OK)
      s = cl_ex_add(e, depth, "make_layout", copy, NULL, cl_ex_strf("make_layout(%s,%s)", at, pt),
              cl_ex_strf("%s", "the block A and the layout of its copies, (A, copies)"));
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
    CL_TRY(cl_ex_mode_layout(n, unit ? 0 : 1, &b));
    cl_status s = cl_layout_copy(b, &copy);
    if (s == CL_OK)
      s = cl_ex_add(e, depth, "tile", copy, NULL, op->make_layout_of_int ? cl_ex_strf("make_layout(%lld)", (long long)n)
                                                                      : cl_ex_strf("make_layout(%lld,1)", (long long)n),
              cl_ex_strf("the integer %lld is the tile %s", (long long)n, unit ? "1:0" : "n:1"));
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
      s = cl_ex_add(e, depth, "keep", copy, NULL, cl_ex_text(a), cl_ex_strf("%s", "'_' keeps the mode as it is"));
    if (s != CL_OK) {
      cl_layout_free(*out);
      *out = NULL;
    }
    return s;
  }
  /* a tuple: by mode */
  int64_t rank = cl_tuple_rank(tiler), a_rank = cl_layout_rank(a);
  if (rank > a_rank || rank == 0 || a_rank == 0) {
    char *at = cl_ex_text(a), *tt = cl_ex_tuple_text(tiler);
    cl_layout_t *r = NULL;
    cl_status lib = CL_E_DOMAIN;
    if (strcmp(op->name, "composition") == 0)
      lib = cl_composition_tiler(a, tiler, &r);
    else if (strcmp(op->name, "logical_divide") == 0)
      lib = cl_logical_divide_tiler(a, tiler, &r);
    else
      lib = cl_logical_product_tiler(a, tiler, &r);
    cl_layout_free(r);
    cl_status s = cl_ex_fails_as(e, depth, lib, at && tt ? cl_ex_strf("%s(%s,%s)", op->name, at, tt) : NULL);
    cl_dealloc(at);
    cl_dealloc(tt);
    return s;
  }
  int64_t parts_n = op->keeps_rest ? a_rank : rank;
  cl_layout_t **parts = cl_alloc((size_t)parts_n * sizeof *parts);
  if (parts == NULL)
    return cl_ex_nomem();
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
    char *mt = cl_ex_text(mode), *tt = NULL;
    if ((s = cl_tuple_get(tiler, &i, 1, &element)) == CL_OK && (tt = cl_ex_tuple_text(element)) == NULL)
      s = cl_ex_nomem();
    if (s == CL_OK && mt == NULL)
      s = cl_ex_nomem();
    if (s == CL_OK && (s = cl_ex_reserve(e, &slot)) == CL_OK) {
      s = explain_tiler(e, depth + 1, op, mode, element, &parts[i]);
      cl_layout_t *copy = NULL;
      if (s == CL_OK)
        s = cl_layout_copy(parts[i], &copy);
      s = cl_ex_close_step(e, slot, depth, s, "mode", copy, cl_ex_strf("%s(%s,%s)", op->name, mt, tt),
                     cl_ex_strf("mode %lld of the layout, %s, by element %lld of the tiler, %s", (long long)i, mt, (long long)i, tt));
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
      s = cl_ex_add(e, depth, "by mode", copy, NULL, cl_ex_make_layout_of(parts, parts_n),
              parts_n == rank || rank == a_rank
                ? cl_ex_strf("%s", "the modes' results side by side")
                : op->keeps_rest ? cl_ex_strf("the modes' results side by side, and the layout's modes past the tiler's %lld kept", (long long)rank)
                                 : cl_ex_strf("%s", "the modes' results side by side (the layout's modes past the tiler's are dropped)"));
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

static const tiler_op composition_op = {"composition", cl_ex_composition, false, false};
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
    char *grown = cl_ex_strf("%s%sget(%s,%lld)", *expr, **expr ? "," : "", zt, (long long)m);
    cl_dealloc(*expr);
    *expr = grown;
    return grown ? CL_OK : cl_ex_nomem();
  }
  for (int64_t k = 0; s == CL_OK && k < rank; k++) {
    int64_t path[2] = {m, k};
    if ((s = cl_layout_get(z, path, 2, &parts[*n])) != CL_OK)
      break;
    (*n)++;
    char *grown = cl_ex_strf("%s%sget(%s,%lld,%lld)", *expr, **expr ? "," : "", zt, (long long)m, (long long)k);
    cl_dealloc(*expr);
    if ((*expr = grown) == NULL)
      s = cl_ex_nomem();
  }
  cl_layout_free(mode);
  return s;
}

/* zipped: the tiles and rests gathered (tile_unzip); tiled: then its
 * second mode unpacked; flat: both unpacked. */
typedef enum arrangement { ZIPPED, TILED, FLAT } arrangement;

static cl_status explain_arrangement(cl_explanation_t *e, int64_t depth, arrangement how, const char *logical_name,
                                     const cl_layout_t *logical, const cl_tuple_t *tiler, cl_layout_t **out) {
  char *lt = cl_ex_text(logical), *tt = cl_ex_tuple_text(tiler), *zt = NULL;
  cl_layout_t *zipped = NULL, *copy = NULL;
  cl_status s = lt && tt ? cl_tile_unzip(logical, tiler, &zipped) : cl_ex_nomem();
  if (s != CL_OK && s != CL_E_NOMEM) {
    s = cl_ex_fails(e, depth, s, cl_ex_strf("tile_unzip(%s,%s)", lt, tt));
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
    s = cl_ex_add(e, depth, "zip", copy, NULL, cl_ex_strf("tile_unzip(%s,%s)", lt, tt),
            cl_ex_strf("the %s's tile modes gathered into mode 0 (%lld elements) and the rest into mode 1: %lld %s",
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
    char *expr = cl_ex_strf("%s", "");
    if ((zt = cl_ex_text(zipped)) == NULL || parts == NULL || expr == NULL)
      s = cl_ex_nomem();
    if (s == CL_OK)
      s = unpack_mode(zipped, zt, 0, how == FLAT, parts, &n, &expr);
    if (s == CL_OK)
      s = unpack_mode(zipped, zt, 1, true, parts, &n, &expr);
    cl_layout_t *arranged = NULL;
    if (s == CL_OK)
      s = cl_layout_concat((const cl_layout_t *const *)parts, n, &arranged);
    if (s == CL_OK)
      s = cl_ex_add(e, depth, "unpack", arranged, NULL, cl_ex_strf("make_layout(%s)", expr),
              cl_ex_strf("%s", how == TILED ? "mode 1 unpacked: (tile, rest modes...)" : "both modes unpacked: (tile modes..., rest modes...)"));
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
  cl_status s = cl_ex_mode_layout(1, 0, &unit);
  for (int k = 0; s == CL_OK && k < 2; k++) {
    bool pad = cl_layout_rank(given[k]) < rank;
    char *gt = cl_ex_text(given[k]);
    cl_layout_t *copy = NULL;
    s = gt == NULL ? cl_ex_nomem() : pad ? cl_layout_append_to(given[k], unit, rank, &padded[k]) : cl_layout_copy(given[k], &padded[k]);
    if (s == CL_OK && (s = cl_layout_copy(padded[k], &copy)) == CL_OK)
      s = cl_ex_add(e, depth, "pad", copy, NULL, pad ? cl_ex_strf("append(%s,1:0,%lld)", gt, (long long)rank) : cl_ex_strf("%s", gt),
              pad ? cl_ex_strf("%s padded with 1:0 modes to rank %lld", k ? "B" : "A", (long long)rank)
                  : cl_ex_strf("%s has rank %lld already", k ? "B" : "A", (long long)rank));
    cl_dealloc(gt);
  }
  int64_t slot;
  char *at = s == CL_OK ? cl_ex_text(padded[0]) : NULL, *bt = s == CL_OK ? cl_ex_text(padded[1]) : NULL;
  if (s == CL_OK && (at == NULL || bt == NULL))
    s = cl_ex_nomem();
  if (s == CL_OK && (s = cl_ex_reserve(e, &slot)) == CL_OK) {
    s = explain_logical_product(e, depth + 1, padded[0], padded[1], &product);
    cl_layout_t *copy = NULL;
    if (s == CL_OK)
      s = cl_layout_copy(product, &copy);
    s = cl_ex_close_step(e, slot, depth, s, "logical_product", copy, cl_ex_strf("logical_product(%s,%s)", at, bt),
                   cl_ex_strf("%s", "(block, copies), to be zipped mode by mode"));
  }
  if (s == CL_OK && (pt = cl_ex_text(product)) == NULL)
    s = cl_ex_nomem();
  if (s == CL_OK) {
    int64_t first = raked ? 1 : 0, second = 1 - first, zero = 0;
    cl_layout_t *block = NULL;
    s = cl_layout_get(product, &zero, 1, &block);
    bool integral = s == CL_OK && cl_layout_depth(block) == 0;
    int64_t modes = integral ? 1 : cl_layout_rank(block);
    cl_layout_free(block);
    cl_layout_t **pairs = cl_alloc((size_t)modes * sizeof *pairs);
    char *expr = cl_ex_strf("%s", "");
    if (pairs != NULL)
      memset(pairs, 0, (size_t)modes * sizeof *pairs);
    if (pairs == NULL || expr == NULL)
      s = cl_ex_nomem();
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
        char *x = cl_ex_text(a), *y = cl_ex_text(b);
        s = cl_ex_fails_as(e, depth, lib, x && y ? cl_ex_strf("%s(%s,%s)", raked ? "raked_product" : "blocked_product", x, y) : NULL);
        cl_dealloc(x);
        cl_dealloc(y);
      }
      if (s == CL_OK)
        s = cl_layout_concat((const cl_layout_t *const *)pair, 2, &pairs[i]);
      cl_layout_free(pair[0]);
      cl_layout_free(pair[1]);
      char *grown = integral ? cl_ex_strf("make_layout(get(%s,%lld),get(%s,%lld))", pt, (long long)first, pt, (long long)second)
                             : cl_ex_strf("%s%smake_layout(get(%s,%lld,%lld),get(%s,%lld,%lld))", expr, i ? "," : "", pt,
                                    (long long)first, (long long)i, pt, (long long)second, (long long)i);
      cl_dealloc(expr);
      if ((expr = grown) == NULL && s == CL_OK)
        s = cl_ex_nomem();
    }
    cl_layout_t *zipped = NULL;
    if (s == CL_OK)
      s = cl_layout_concat((const cl_layout_t *const *)pairs, modes, &zipped);
    if (s == CL_OK) {
      cl_layout_t *copy = NULL;
      if ((s = cl_layout_copy(zipped, &copy)) == CL_OK)
        s = cl_ex_add(e, depth, "zip", copy, NULL, cl_ex_strf("make_layout(%s)", expr),
                cl_ex_strf("%s", raked ? "each mode pairs (copies, block): the copies interleave, rake-like"
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

cl_status cl_ex_operation(cl_explanation_t *e, explained op, const cl_layout_t *l, const cl_tuple_t *arg,
                            cl_layout_t **result) {
  switch (op) {
  case OP_COALESCE: return cl_ex_coalesce(e, 0, l, result);
  case OP_RIGHT_INVERSE: return cl_ex_inverse(e, 0, l, false, result);
  case OP_LEFT_INVERSE: return cl_ex_inverse(e, 0, l, true, result);
  case OP_COMPLEMENT: return cl_ex_complement(e, 0, l, arg, result);
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
  char *lt = cl_ex_text(l), *tt = cl_ex_tuple_text(arg);
  cl_status s = lt && tt ? cl_ex_reserve(e, &slot) : cl_ex_nomem();
  if (s == CL_OK) {
    s = explain_tiler(e, 1, logical, l, arg, &inner);
    if (s == CL_OK)
      s = cl_layout_copy(inner, &copy);
    s = cl_ex_close_step(e, slot, 0, s, logical->name, copy, cl_ex_strf("%s(%s,%s)", logical->name, lt, tt),
                   cl_ex_strf("%s", divide ? "each tiled mode becomes (tile, rest)" : "each tiled mode becomes (block, copies)"));
  }
  if (s == CL_OK)
    s = explain_arrangement(e, 0, how, logical->name, inner, arg, result);
  cl_layout_free(inner);
  cl_dealloc(lt);
  cl_dealloc(tt);
  return s;
}
