/* SPDX-License-Identifier: BSD-3-Clause */
/* tiled_copy.c: CuTe's TiledCopy (cute/atom/copy_atom.hpp) on run-time
 * layouts.
 *
 * A tiled copy is a copy atom, a TV layout (thread, value) -> index into a
 * tile, and the tile's shape Tiler_MN.  Each side (source, destination) sees
 * the tile through the atom's own layouts: the TV layout is cut into atoms,
 * and each atom's (thread, value) is taken through the reference layout to
 * the side's (thread, value) (tile2thrfrg). */
#include <stdio.h>
#include <string.h>

#include "cutelayout/algebra.h"
#include "tensor_impl.h"
#include "swizzle_impl.h"
#include "tiled_impl.h"
#include "tuple_impl.h"

void cl_tiled_copy_free(cl_tiled_copy_t *copy) {
  if (copy == NULL)
    return;
  cl_copy_atom_free(copy->atom);
  cl_layout_free(copy->layout_tv);
  cl_tuple_free(copy->tiler);
  cl_layout_free(copy->thr);
  cl_layout_free(copy->val);
  cl_tiled_mma_free(copy->mma);
  cl_dealloc(copy);
}

/* TiledCopy's static_asserts: the tiled TV layout is made of whole atoms. */
static cl_status check_atoms_fit(const cl_tiled_copy_t *c) {
  int64_t atom_thr = cl_mode_size(c->atom->vals[CL_COPY_REF], 0);
  int64_t atom_val = cl_mode_size(c->atom->vals[CL_COPY_REF], 1);
  int64_t thr = cl_mode_size(c->layout_tv, 0), val = cl_mode_size(c->layout_tv, 1);
  if (atom_thr <= 0 || thr % atom_thr != 0)
    return cl_fail(CL_E_DIVISIBILITY, "TiledCopy uses too few thrs for selected CopyAtom (%lld threads, the atom takes %lld)",
                   (long long)thr, (long long)atom_thr);
  if (atom_val <= 0 || val % atom_val != 0)
    return cl_fail(CL_E_DIVISIBILITY, "TiledCopy uses too few vals for selected CopyAtom (%lld values, the atom takes %lld)",
                   (long long)val, (long long)atom_val);
  return CL_OK;
}

static cl_status new_tiled_copy(const cl_copy_atom_t *atom, cl_tiled_copy_t **out) {
  cl_tiled_copy_t *c = cl_alloc(sizeof *c);
  if (c == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  memset(c, 0, sizeof *c);
  cl_status s = cl_copy_atom_clone(atom, &c->atom);
  if (s != CL_OK) {
    cl_dealloc(c);
    return s;
  }
  *out = c;
  return CL_OK;
}

/* make_tiled_copy: layout_mn = raked_product(thr, val) maps (m,n) to
 * (thread, value); its right inverse, shaped (threads, values), is the TV
 * layout, and the tile is product_each(shape(layout_mn)). */
static cl_status tiled_copy_of_thr_val(cl_tiled_copy_t *c, const cl_layout_t *thr, const cl_layout_t *val) {
  CL_TRY(cl_layout_copy(thr, &c->thr));
  CL_TRY(val != NULL ? cl_layout_copy(val, &c->val) : cl_layout_parse("1:0", &c->val));
  cl_layout_t *layout_mn = NULL, *inverse = NULL, *tv_shape = NULL;
  cl_tuple_t *mn_shape = NULL;
  cl_status s = cl_raked_product(c->thr, c->val, &layout_mn);
  if (s == CL_OK)
    s = cl_right_inverse(layout_mn, &inverse);
  if (s == CL_OK) {
    cl_tuple_t *shape = NULL;
    s = cl_tuple_printf(&shape, "(%lld,%lld)", (long long)cl_layout_size(c->thr), (long long)cl_layout_size(c->val));
    if (s == CL_OK)
      s = cl_layout_make_left(shape, &tv_shape);
    cl_tuple_free(shape);
  }
  if (s == CL_OK)
    s = cl_composition(inverse, tv_shape, &c->layout_tv);
  if (s == CL_OK)
    s = cl_layout_shape(layout_mn, &mn_shape);
  if (s == CL_OK)
    s = cl_tuple_product_each(mn_shape, &c->tiler);
  cl_layout_free(layout_mn);
  cl_layout_free(inverse);
  cl_layout_free(tv_shape);
  cl_tuple_free(mn_shape);
  CL_TRY(s);
  return check_atoms_fit(c);
}

cl_status cl_make_tiled_copy(const cl_copy_atom_t *atom, const cl_layout_t *thr_layout, const cl_layout_t *val_layout,
                             cl_tiled_copy_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  CHECK_NULL(thr_layout);
  cl_tiled_copy_t *c = NULL;
  CL_TRY(new_tiled_copy(atom, &c));
  c->origin = FROM_THR_VAL;
  cl_status s = tiled_copy_of_thr_val(c, thr_layout, val_layout);
  if (s != CL_OK) {
    cl_tiled_copy_free(c);
    return s;
  }
  *out = c;
  return CL_OK;
}

/* make_tiled_copy_A/B/C: the tiled MMA's operand TV layout over its tile. */
static cl_status tiled_copy_of_mma(cl_tiled_copy_t *c, const cl_tiled_mma_t *mma, cl_mma_operand op) {
  static const int rows[3] = {0, 1, 0}, cols[3] = {2, 2, 1};
  CL_TRY(cl_make_tiled_mma(mma->atom, mma->atom_layout, mma->permutation, &c->mma));
  CL_TRY(cl_tiled_mma_layout_tv(mma, op, &c->layout_tv));
  int64_t size[2];
  CL_TRY(cl_tiled_mma_tile_size(mma, rows[op], &size[0]));
  CL_TRY(cl_tiled_mma_tile_size(mma, cols[op], &size[1]));
  CL_TRY(cl_tuple_from_ints(size, 2, &c->tiler));
  return check_atoms_fit(c);
}

cl_status cl_make_tiled_copy_operand(const cl_copy_atom_t *atom, const cl_tiled_mma_t *mma, cl_mma_operand operand,
                                     cl_tiled_copy_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  CHECK_NULL(mma);
  if ((int)operand < 0 || (int)operand > 2)
    return cl_fail(CL_E_DOMAIN, "operand %d is none of A (0), B (1), C (2)", (int)operand);
  cl_tiled_copy_t *c = NULL;
  CL_TRY(new_tiled_copy(atom, &c));
  c->origin = (tiled_copy_origin)(FROM_MMA_A + operand);
  cl_status s = tiled_copy_of_mma(c, mma, operand);
  if (s != CL_OK) {
    cl_tiled_copy_free(c);
    return s;
  }
  *out = c;
  return CL_OK;
}

int64_t cl_tiled_copy_format(const cl_tiled_copy_t *copy, char *buf, size_t cap) {
  if (copy == NULL)
    return -1;
  char atom[256], a[CL_TILED_TEXT], b[CL_TILED_TEXT / 2], text[CL_TILED_TEXT * 2];
  cl_copy_atom_format(copy->atom, atom, sizeof atom);
  if (copy->origin == FROM_THR_VAL) {
    if (cl_text_layout(copy->thr, a, sizeof a) != CL_OK || cl_text_layout(copy->val, b, sizeof b) != CL_OK)
      return -1;
    snprintf(text, sizeof text, "make_tiled_copy(%s,%s,%s)", atom, a, b);
  } else {
    int64_t n = cl_tiled_mma_format(copy->mma, a, sizeof a);
    if (n < 0 || (size_t)n >= sizeof a)
      return -1;
    snprintf(text, sizeof text, "make_tiled_copy_%c(%s,%s)", "ABC"[copy->origin - FROM_MMA_A], atom, a);
  }
  return cl_atom_snprintf(buf, cap, text);
}

cl_status cl_tiled_copy_atom(const cl_tiled_copy_t *copy, cl_copy_atom_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(copy);
  return cl_copy_atom_clone(copy->atom, out);
}

int64_t cl_tiled_copy_size(const cl_tiled_copy_t *copy) {
  return copy == NULL ? -1 : cl_mode_size(copy->layout_tv, 0);
}

cl_status cl_tiled_copy_layout_tv(const cl_tiled_copy_t *copy, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(copy);
  return cl_layout_copy(copy->layout_tv, out);
}

cl_status cl_tiled_copy_tiler_mn(const cl_tiled_copy_t *copy, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(copy);
  return cl_tuple_copy(copy->tiler, out);
}

/* ------------------------------------------------------------ tile2thrfrg */

static cl_status check_side(cl_copy_side side) {
  if (side != CL_COPY_SRC && side != CL_COPY_DST)
    return cl_fail(CL_E_DOMAIN, "side %d is neither source (0) nor destination (1)", (int)side);
  return CL_OK;
}

/* ref2trg = right_inverse(AtomLayoutRef).compose(AtomLayoutSrc or Dst) */
static cl_status ref_to_side(const cl_tiled_copy_t *c, cl_copy_side side, cl_layout_t **out) {
  cl_layout_t *inverse = NULL;
  CL_TRY(cl_right_inverse(c->atom->vals[CL_COPY_REF], &inverse));
  cl_status s = cl_composition(inverse, c->atom->vals[side], out);
  cl_layout_free(inverse);
  return s;
}

static cl_status tile2thrfrg_steps(const cl_tiled_copy_t *c, const cl_layout_t *tensor, const cl_layout_t *ref2trg,
                                   cl_layout_t **atom_tv, cl_layout_t **trg_tv, cl_layout_t **zipped,
                                   cl_layout_t **thrval2mn, cl_layout_t **tv_tensor, cl_layout_t **out) {
  /* atom_layout_TV = zipped_divide(TiledLayout_TV, (AtomNumThr, AtomNumVal)):
   * ((atom_tid,atom_val),(rest_tid,rest_val)) -> coord */
  int64_t atom_thr = cl_mode_size(c->atom->vals[CL_COPY_REF], 0);
  int64_t atom_val = cl_mode_size(c->atom->vals[CL_COPY_REF], 1);
  cl_tuple_t *tile = NULL;
  CL_TRY(cl_tuple_printf(&tile, "(%lld,%lld)", (long long)atom_thr, (long long)atom_val));
  cl_status s = cl_zipped_divide_tiler(c->layout_tv, tile, atom_tv);
  cl_tuple_free(tile);
  CL_TRY(s);
  /* trg_layout_TV = atom_layout_TV.compose(ref2trg, _):
   * ((trg_tid,trg_val),(rest_tid,rest_val)) -> coord */
  char ref[CL_TILED_TEXT / 2], tiler[CL_TILED_TEXT];
  CL_TRY(cl_text_layout(ref2trg, ref, sizeof ref));
  snprintf(tiler, sizeof tiler, "(%s,_)", ref);
  CL_TRY(cl_compose_text(*atom_tv, tiler, trg_tv));
  /* thrval2mn = coalesce(zip(trg_layout_TV), (1,(1,1))):
   * ((trg_tid,rest_tid),(trg_val,rest_val)) -> coord */
  CL_TRY(cl_layout_zip(*trg_tv, zipped));
  CL_TRY(cl_tuple_printf(&tile, "(1,(1,1))"));
  s = cl_coalesce_profile(*zipped, tile, thrval2mn);
  cl_tuple_free(tile);
  CL_TRY(s);
  /* tv_tensor = tensor.compose(thrval2mn, _): ((thrid,val),(RestM,RestN,...)) */
  char tv[CL_TILED_TEXT / 2];
  CL_TRY(cl_text_layout(*thrval2mn, tv, sizeof tv));
  snprintf(tiler, sizeof tiler, "(%s,_)", tv);
  CL_TRY(cl_compose_text(tensor, tiler, tv_tensor));
  /* tv_tensor(make_coord(_,_), _): (thrid, val, (RestM,RestN,...)) */
  CL_TRY(cl_tuple_printf(&tile, "((_,_),_)"));
  s = cl_layout_slice(tile, *tv_tensor, out);
  cl_tuple_free(tile);
  return s;
}

static cl_status tile2thrfrg(const cl_tiled_copy_t *c, const cl_layout_t *tensor, cl_copy_side side, cl_layout_t **out) {
  cl_layout_t *ref2trg = NULL, *atom_tv = NULL, *trg_tv = NULL, *zipped = NULL, *thrval2mn = NULL, *tv_tensor = NULL;
  cl_status s = ref_to_side(c, side, &ref2trg);
  if (s == CL_OK)
    s = tile2thrfrg_steps(c, tensor, ref2trg, &atom_tv, &trg_tv, &zipped, &thrval2mn, &tv_tensor, out);
  cl_layout_free(ref2trg);
  cl_layout_free(atom_tv);
  cl_layout_free(trg_tv);
  cl_layout_free(zipped);
  cl_layout_free(thrval2mn);
  cl_layout_free(tv_tensor);
  return s;
}

cl_status cl_tiled_copy_side_tv(const cl_tiled_copy_t *copy, cl_copy_side side, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(copy);
  CL_TRY(check_side(side));
  /* ref = make_layout(make_shape(shape(Tiler_MN), 1)): ((M,N),1) -> idx */
  char tiler[CL_TILED_TEXT / 2];
  CL_TRY(cl_text_tuple(copy->tiler, tiler, sizeof tiler));
  cl_tuple_t *shape = NULL;
  CL_TRY(cl_tuple_printf(&shape, "(%s,1)", tiler));
  cl_layout_t *ref = NULL, *frg = NULL;
  cl_tuple_t *crd = NULL;
  cl_status s = cl_layout_make_left(shape, &ref);
  if (s == CL_OK)
    s = tile2thrfrg(copy, ref, side, &frg);
  /* (_,_,0): the one rest coordinate */
  if (s == CL_OK)
    s = cl_tuple_printf(&crd, "(_,_,0)");
  if (s == CL_OK)
    s = cl_layout_slice(crd, frg, out);
  cl_tuple_free(shape);
  cl_tuple_free(crd);
  cl_layout_free(ref);
  cl_layout_free(frg);
  return s;
}

cl_status cl_tiled_copy_tidfrg(const cl_tiled_copy_t *copy, cl_copy_side side, const cl_layout_t *layout,
                               cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(copy);
  CHECK_NULL(layout);
  CL_TRY(check_side(side));
  int64_t rank = cl_layout_rank(layout), tiler_rank = cl_tuple_rank(copy->tiler);
  if (rank < tiler_rank)
    return cl_fail(CL_E_RANK, "partition_%c: the tensor has rank %lld, less than the tiler's %lld (Rank of tensor to be partitioned too small)",
                   side == CL_COPY_SRC ? 'S' : 'D', (long long)rank, (long long)tiler_rank);
  cl_layout_t *zipped = NULL;
  CL_TRY(cl_zipped_divide_tiler(layout, copy->tiler, &zipped));
  cl_status s = tile2thrfrg(copy, zipped, side, out);
  cl_layout_free(zipped);
  return s;
}

/* The thread's fragment tidfrg(layout) and thr_tensor's coordinate
 * (thr_idx, _, repeat<rank>(_)). */
static cl_status partition_parts(const cl_tiled_copy_t *copy, cl_copy_side side, int64_t thr, const cl_layout_t *layout,
                                 cl_layout_t **frg, cl_tuple_t **crd) {
  CL_TRY(check_side(side));
  int64_t threads = cl_tiled_copy_size(copy);
  char fn = side == CL_COPY_SRC ? 'S' : 'D';
  if (thr < 0 || thr >= threads)
    return cl_fail(CL_E_DOMAIN, "partition_%c: thread %lld is outside the tiled copy's %lld threads", fn, (long long)thr,
                   (long long)threads);
  int64_t rank = cl_layout_rank(layout);
  if (rank > CL_TILED_TEXT / 16)
    return cl_fail(CL_E_LIMIT, "partition_%c: a tensor of %lld modes", fn, (long long)rank);
  CL_TRY(cl_tiled_copy_tidfrg(copy, side, layout, frg));
  char rest[CL_TILED_TEXT / 4] = "(";
  for (int64_t i = 0; i < rank; i++)
    strcat(rest, i + 1 < rank ? "_," : "_)");
  cl_status s = cl_tuple_printf(crd, "(%lld,_,%s)", (long long)thr, rank == 1 ? "_" : rest);
  if (s != CL_OK) {
    cl_layout_free(*frg);
    *frg = NULL;
  }
  return s;
}

cl_status cl_tiled_copy_partition(const cl_tiled_copy_t *copy, cl_copy_side side, int64_t thr,
                                  const cl_layout_t *layout, cl_layout_t **out, int64_t *offset) {
  CHECK_OUT(out);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(copy);
  CHECK_NULL(layout);
  cl_layout_t *frg = NULL;
  cl_tuple_t *crd = NULL;
  CL_TRY(partition_parts(copy, side, thr, layout, &frg, &crd));
  cl_status s = cl_layout_slice_and_offset(crd, frg, out, offset);
  cl_tuple_free(crd);
  cl_layout_free(frg);
  return s;
}

cl_status cl_tiled_copy_partition_composed(const cl_tiled_copy_t *copy, cl_copy_side side, int64_t thr,
                                           const cl_composed_t *tensor, cl_layout_t **layout, cl_composed_t **composed,
                                           int64_t *offset) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(copy);
  CHECK_NULL(tensor);
  const cl_layout_t *inner = NULL;
  CL_TRY(cl_sw_inner_layout(tensor, "partition", &inner));
  cl_layout_t *frg = NULL;
  cl_tuple_t *crd = NULL;
  CL_TRY(partition_parts(copy, side, thr, inner, &frg, &crd));
  cl_status s = cl_composed_partition_slice(tensor, frg, crd, layout, composed, offset);
  cl_tuple_free(crd);
  return s;
}

cl_status cl_tensor_view_at(const cl_tensor_t *t, int64_t offset, const cl_layout_t *layout, cl_tensor_t **out) {
  tensor_fields f = cl_tensor_fields(t);
  int64_t bytes;
  CL_TRY(cl_mul(offset, (int64_t)t->elem_size, &bytes));
  f.data = t->data + bytes;
  cl_layout_t *l = NULL;
  CL_TRY(cl_layout_copy(layout, &l));
  return cl_tensor_adopt(&f, l, out);
}

cl_status cl_tiled_copy_partition_tensor(const cl_tiled_copy_t *copy, cl_copy_side side, int64_t thr,
                                         const cl_tensor_t *tensor, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(tensor);
  cl_layout_t *l = NULL;
  int64_t offset;
  CL_TRY(cl_tiled_copy_partition(copy, side, thr, cl_tensor_layout(tensor), &l, &offset));
  cl_status s = cl_tensor_view_at(tensor, offset, l, out);
  cl_layout_free(l);
  return s;
}

/* retile(L), CuTe's TiledCopy::retile of a thread's fragment L (V, ...):
 *   frg_layout_mn = upcast<NumThr * V>(right_inverse(TV).with_shape(Tiler_MN))
 *                   (m,n) -> the value index inside TiledLayout_TV
 *   frg_layout_v  = zipped_divide(logical_product(make_layout(V),
 *                   right_inverse(frg_layout_mn)), make_layout(AtomNumVal))
 *                   (atom_vals, rest_vals) -> (v,m,n)
 *   t = zipped_divide(L, prepend(product_each(shape(frg_layout_mn)), V))
 *   retile(L) = t.compose(frg_layout_v, _)(_, append<R>(0, _)) */
static cl_status retile_steps(const cl_tiled_copy_t *c, const cl_layout_t *l, cl_layout_t **work, cl_tuple_t **crd) {
  int64_t v = cl_mode_size(l, 0), threads = cl_tiled_copy_size(c), n;
  CL_TRY(cl_mul(threads, v, &n));
  cl_tuple_t *t = NULL;
  cl_status s = cl_right_inverse(c->layout_tv, &work[0]);
  if (s == CL_OK)
    s = cl_layout_make_left(c->tiler, &work[1]);
  if (s == CL_OK)
    s = cl_composition(work[0], work[1], &work[2]);
  if (s == CL_OK)
    s = cl_upcast(work[2], n, &work[3]); /* frg_layout_mn */
  if (s == CL_OK)
    s = cl_right_inverse(work[3], &work[4]);
  if (s == CL_OK)
    s = cl_layout_printf(&work[5], "%lld:1", (long long)v);
  if (s == CL_OK && v == 1) {
    cl_layout_free(work[5]);
    work[5] = NULL;
    s = cl_layout_parse("1:0", &work[5]);
  }
  if (s == CL_OK)
    s = cl_logical_product(work[5], work[4], &work[6]);
  if (s == CL_OK) {
    int64_t atom_val = cl_mode_size(c->atom->vals[CL_COPY_REF], 1);
    s = atom_val == 1 ? cl_layout_parse("1:0", &work[7]) : cl_layout_printf(&work[7], "%lld:1", (long long)atom_val);
  }
  if (s == CL_OK)
    s = cl_zipped_divide(work[6], work[7], &work[8]); /* frg_layout_v */
  /* t = zipped_divide(L, (V, product_each(shape(frg_layout_mn))...)) */
  cl_tuple_t *shape = NULL, *each = NULL;
  if (s == CL_OK)
    s = cl_layout_shape(work[3], &shape);
  if (s == CL_OK)
    s = cl_tuple_product_each(shape, &each);
  char text[CL_TILED_TEXT / 2];
  if (s == CL_OK)
    s = cl_text_tuple(each, text, sizeof text);
  cl_tuple_free(shape);
  cl_tuple_free(each);
  if (s == CL_OK) {
    /* prepend V to the tuple (or to the single integer) */
    if (text[0] == '(')
      s = cl_tuple_printf(&t, "(%lld,%s", (long long)v, text + 1);
    else
      s = cl_tuple_printf(&t, "(%lld,%s)", (long long)v, text);
  }
  if (s == CL_OK)
    s = cl_zipped_divide_tiler(l, t, &work[9]);
  cl_tuple_free(t);
  t = NULL;
  char frg[CL_TILED_TEXT / 2], tiler[CL_TILED_TEXT];
  if (s == CL_OK)
    s = cl_text_layout(work[8], frg, sizeof frg);
  if (s == CL_OK) {
    snprintf(tiler, sizeof tiler, "(%s,_)", frg);
    s = cl_compose_text(work[9], tiler, &work[10]);
  }
  if (s == CL_OK) {
    int64_t rank = cl_layout_rank(l);
    char rest[CL_TILED_TEXT / 4] = "(0";
    for (int64_t i = 1; i < rank && strlen(rest) + 4 < sizeof rest; i++)
      strcat(rest, ",_");
    strcat(rest, ")");
    s = cl_tuple_printf(crd, "(_,%s)", rest);
  }
  return s;
}

/* The steps of retile before its last slice: work[10] and its coordinate. */
static cl_status retile_parts(const cl_tiled_copy_t *copy, const cl_layout_t *layout, cl_layout_t **before_slice,
                              cl_tuple_t **crd) {
  if (cl_layout_rank(layout) > CL_TILED_TEXT / 16)
    return cl_fail(CL_E_LIMIT, "retile: a fragment of %lld modes", (long long)cl_layout_rank(layout));
  cl_layout_t *work[11] = {NULL};
  cl_status s = retile_steps(copy, layout, work, crd);
  if (s == CL_OK) {
    *before_slice = work[10];
    work[10] = NULL;
  }
  for (int i = 0; i < 11; i++)
    cl_layout_free(work[i]);
  return s;
}

cl_status cl_tiled_copy_retile(const cl_tiled_copy_t *copy, const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(copy);
  CHECK_NULL(layout);
  cl_layout_t *whole = NULL;
  cl_tuple_t *crd = NULL;
  CL_TRY(retile_parts(copy, layout, &whole, &crd));
  cl_status s = cl_layout_slice(crd, whole, out);
  cl_tuple_free(crd);
  cl_layout_free(whole);
  return s;
}

/* retile of A o O o B: CuTe's steps apply to B, and the last slice is a
 * composed layout's slice_and_offset. */
cl_status cl_tiled_copy_retile_composed(const cl_tiled_copy_t *copy, const cl_composed_t *fragment,
                                        cl_layout_t **layout, cl_composed_t **composed, int64_t *offset) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(copy);
  CHECK_NULL(fragment);
  const cl_layout_t *inner = NULL;
  CL_TRY(cl_sw_inner_layout(fragment, "retile", &inner));
  cl_layout_t *whole = NULL;
  cl_tuple_t *crd = NULL;
  CL_TRY(retile_parts(copy, inner, &whole, &crd));
  cl_status s = cl_composed_partition_slice(fragment, whole, crd, layout, composed, offset);
  cl_tuple_free(crd);
  return s;
}
