/* SPDX-License-Identifier: BSD-3-Clause */
/* tiled_mma.c: CuTe's TiledMMA (cute/atom/mma_atom.hpp) on run-time layouts.
 *
 * A tiled MMA repeats an MMA atom over an atom layout (threads of several
 * atoms in M, N and K) after permuting the M, N and K modes.  Each function
 * below follows CuTe's definition step by step; the tilers are built as text
 * and parsed, which keeps each step readable as the tuple it is. */
#include <stdio.h>
#include <string.h>

#include "atom_impl.h"
#include "cutelayout/algebra.h"
#include "swizzle_impl.h"
#include "tiled_impl.h"
#include "tuple_impl.h"

/* ------------------------------------------------------------ text helpers */

cl_status cl_text_layout(const cl_layout_t *l, char *buf, size_t cap) {
  int64_t n = cl_layout_format(l, buf, cap);
  if (n < 0 || (size_t)n >= cap)
    return cl_fail(CL_E_LIMIT, "a layout of more than %zu characters in a tiled atom", cap);
  return CL_OK;
}

cl_status cl_text_tuple(const cl_tuple_t *t, char *buf, size_t cap) {
  int64_t n = cl_tuple_format(t, buf, cap);
  if (n < 0 || (size_t)n >= cap)
    return cl_fail(CL_E_LIMIT, "a tuple of more than %zu characters in a tiled atom", cap);
  return CL_OK;
}

cl_status cl_tuple_printf(cl_tuple_t **out, const char *fmt, ...) {
  char text[CL_TILED_TEXT];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof text)
    return cl_fail(CL_E_LIMIT, "a tiler of more than %zu characters in a tiled atom", sizeof text);
  return cl_tuple_parse(text, out);
}

cl_status cl_layout_printf(cl_layout_t **out, const char *fmt, ...) {
  char text[CL_TILED_TEXT];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof text)
    return cl_fail(CL_E_LIMIT, "a layout of more than %zu characters in a tiled atom", sizeof text);
  return cl_layout_parse(text, out);
}

/* composition(L, tiler) for a tiler given as text. */
cl_status cl_compose_text(const cl_layout_t *l, const char *tiler_text, cl_layout_t **out) {
  cl_tuple_t *tiler = NULL;
  CL_TRY(cl_tuple_parse(tiler_text, &tiler));
  cl_status s = cl_composition_tiler(l, tiler, out);
  cl_tuple_free(tiler);
  return s;
}

int64_t cl_mode_size(const cl_layout_t *l, int64_t i) {
  cl_layout_t *mode = NULL;
  if (cl_layout_get(l, &i, 1, &mode) != CL_OK)
    return -1;
  int64_t n = cl_layout_size(mode);
  cl_layout_free(mode);
  return n;
}

/* ------------------------------------------------------------ the handle */

void cl_tiled_mma_free(cl_tiled_mma_t *mma) {
  if (mma == NULL)
    return;
  cl_mma_atom_free(mma->atom);
  cl_layout_free(mma->atom_layout);
  cl_tuple_free(mma->permutation);
  cl_layout_free(mma->vmnk);
  cl_dealloc(mma);
}

/* append<3>(atom_layout, 1:0), the atom layout make_tiled_mma uses. */
static cl_status atom_layout_mnk(const cl_layout_t *atom_layout, cl_layout_t **out) {
  if (atom_layout == NULL)
    return cl_layout_parse("(1,1,1):(0,0,0)", out);
  int64_t r = cl_layout_rank(atom_layout);
  if (r > 3)
    return cl_fail(CL_E_RANK, "make_tiled_mma: the atom layout has %lld modes; TiledMMA requires rank-3 AtomLayoutMNK",
                   (long long)r);
  return cl_layout_append_to(atom_layout, NULL, 3, out);
}

/* append<3>(permutation, _): each element a layout, an integer or '_'. */
static cl_status permutation_mnk(const cl_tuple_t *permutation, cl_tuple_t **out) {
  if (permutation == NULL)
    return cl_tuple_parse("(_,_,_)", out);
  if (cl_tuple_kind(permutation) != CL_KIND_TUPLE)
    return cl_fail(CL_E_TYPE, "make_tiled_mma: the permutation must be a tuple, one element for each of M, N and K");
  int64_t r = cl_tuple_rank(permutation);
  if (r > 3)
    return cl_fail(CL_E_RANK, "make_tiled_mma: the permutation has %lld modes; TiledMMA requires rank-3 PermutationMNK",
                   (long long)r);
  char text[CL_TILED_TEXT] = "(";
  for (int64_t i = 0; i < 3; i++) {
    char elem[CL_TILED_TEXT / 4] = "_";
    if (i < r) {
      cl_tuple_t *e = NULL;
      CL_TRY(cl_tuple_get(permutation, &i, 1, &e));
      cl_status s = cl_text_tuple(e, elem, sizeof elem);
      cl_tuple_free(e);
      CL_TRY(s);
    }
    strncat(text, elem, sizeof text - strlen(text) - 3);
    strcat(text, i < 2 ? "," : ")");
  }
  return cl_tuple_parse(text, out);
}

static cl_status tiled_mma_build(cl_tiled_mma_t *m, const cl_mma_atom_t *atom, const cl_layout_t *atom_layout,
                                 const cl_tuple_t *permutation) {
  CL_TRY(cl_mma_atom_clone(atom, &m->atom));
  CL_TRY(atom_layout_mnk(atom_layout, &m->atom_layout));
  CL_TRY(permutation_mnk(permutation, &m->permutation));
  /* ThrLayoutVMNK = tiled_product(AtomThrID, AtomLayoutMNK) */
  CL_TRY(cl_tiled_product(atom->thr_id, m->atom_layout, &m->vmnk));
  for (int i = 0; i < 3; i++) {
    int64_t size;
    CL_TRY(cl_tiled_mma_tile_size(m, i, &size));
  }
  return CL_OK;
}

cl_status cl_make_tiled_mma(const cl_mma_atom_t *atom, const cl_layout_t *atom_layout, const cl_tuple_t *permutation,
                            cl_tiled_mma_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  cl_tiled_mma_t *m = cl_alloc(sizeof *m);
  if (m == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  memset(m, 0, sizeof *m);
  cl_status s = tiled_mma_build(m, atom, atom_layout, permutation);
  if (s != CL_OK) {
    cl_tiled_mma_free(m);
    return s;
  }
  *out = m;
  return CL_OK;
}

int64_t cl_tiled_mma_format(const cl_tiled_mma_t *mma, char *buf, size_t cap) {
  if (mma == NULL)
    return -1;
  char layout[CL_TILED_TEXT / 2], perm[CL_TILED_TEXT / 2], text[CL_TILED_TEXT * 2];
  if (cl_text_layout(mma->atom_layout, layout, sizeof layout) != CL_OK ||
      cl_text_tuple(mma->permutation, perm, sizeof perm) != CL_OK)
    return -1;
  snprintf(text, sizeof text, "make_tiled_mma(%s,%s,%s)", mma->atom->name, layout, perm);
  return cl_atom_snprintf(buf, cap, text);
}

cl_status cl_tiled_mma_atom(const cl_tiled_mma_t *mma, cl_mma_atom_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(mma);
  return cl_mma_atom_clone(mma->atom, out);
}

int64_t cl_tiled_mma_size(const cl_tiled_mma_t *mma) { return mma == NULL ? -1 : cl_layout_size(mma->vmnk); }

cl_status cl_tiled_mma_thr_layout_vmnk(const cl_tiled_mma_t *mma, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(mma);
  return cl_layout_copy(mma->vmnk, out);
}

/* ------------------------------------------------------------ tile sizes */

/* permutation_mnk<i>: the permutation's element i as tiler text, or for
 * '_' the atom's extent times the threads tiled in that mode,
 * size<i>(Shape_MNK) * size<i+1>(ThrLayoutVMNK). */
static cl_status permutation_text(const cl_tiled_mma_t *m, int64_t i, char *buf, size_t cap) {
  cl_tuple_t *e = NULL;
  CL_TRY(cl_tuple_get(m->permutation, &i, 1, &e));
  bool underscore = cl_tuple_kind(e) == CL_KIND_UNDERSCORE;
  cl_status s = underscore ? CL_OK : cl_text_tuple(e, buf, cap);
  cl_tuple_free(e);
  CL_TRY(s);
  if (underscore) {
    int64_t atom_extent, threads, n;
    cl_tuple_t *a = NULL;
    CL_TRY(cl_tuple_get(m->atom->shape_mnk, &i, 1, &a));
    s = cl_tuple_product(a, &atom_extent);
    cl_tuple_free(a);
    CL_TRY(s);
    threads = cl_mode_size(m->vmnk, i + 1);
    CL_TRY(cl_mul(atom_extent, threads, &n));
    snprintf(buf, cap, "%lld", (long long)n);
  }
  return CL_OK;
}

/* tile_size_mnk<i>: size(permutation_mnk<i>). */
cl_status cl_tiled_mma_tile_size(const cl_tiled_mma_t *m, int64_t i, int64_t *out) {
  char text[CL_TILED_TEXT / 2];
  CL_TRY(permutation_text(m, i, text, sizeof text));
  cl_tuple_t *t = NULL;
  CL_TRY(cl_tuple_parse(text, &t));
  cl_status s = CL_OK;
  if (cl_tuple_kind(t) == CL_KIND_LAYOUT) {
    cl_layout_t *l = NULL;
    s = cl_tuple_layout(t, &l);
    if (s == CL_OK)
      *out = cl_layout_size(l);
    cl_layout_free(l);
  } else {
    s = cl_tuple_product(t, out);
    if (s != CL_OK)
      s = cl_fail(CL_E_TYPE, "make_tiled_mma: permutation element %lld ('%s') is not a layout, an integer or '_'",
                  (long long)i, text);
  }
  cl_tuple_free(t);
  return s;
}

cl_status cl_tiled_mma_tile_shape(const cl_tiled_mma_t *mma, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(mma);
  int64_t size[3];
  for (int i = 0; i < 3; i++)
    CL_TRY(cl_tiled_mma_tile_size(mma, i, &size[i]));
  return cl_tuple_from_ints(size, 3, out);
}

/* ------------------------------------------------------------ thrfrg */

/* The modes of an operand: its (row, column) modes of MNK, and the modes
 * of ThrLayoutVMNK that tile them (V is mode 0, M 1, N 2, K 3). */
static const int operand_mnk[3][2] = {{0, 2}, {1, 2}, {0, 1}};
static const int operand_vmnk[3][2] = {{1, 3}, {2, 3}, {1, 2}};

static cl_status thrfrg_steps(const cl_tiled_mma_t *m, cl_mma_operand op, const cl_layout_t *layout,
                              cl_layout_t **t_tensor, cl_layout_t **c_tensor, cl_layout_t **tv_tensor, cl_layout_t **out) {
  int r = operand_mnk[op][0], c = operand_mnk[op][1];
  /* Reorder the tensor for the TiledAtom: logical_divide by the permutations */
  char perm_r[CL_TILED_TEXT / 4], perm_c[CL_TILED_TEXT / 4];
  CL_TRY(permutation_text(m, r, perm_r, sizeof perm_r));
  CL_TRY(permutation_text(m, c, perm_c, sizeof perm_c));
  cl_tuple_t *tile = NULL;
  CL_TRY(cl_tuple_printf(&tile, "(%s,%s)", perm_r, perm_c));
  cl_status s = cl_logical_divide_tiler(layout, tile, t_tensor);
  cl_tuple_free(tile);
  CL_TRY(s);
  /* Tile the tensor for the Atom: ((AtomR,AtomC),(RestR,RestC)) */
  int64_t atom_rc[2];
  for (int k = 0; k < 2; k++) {
    int64_t mode = operand_mnk[op][k];
    cl_tuple_t *e = NULL;
    CL_TRY(cl_tuple_get(m->atom->shape_mnk, &mode, 1, &e));
    s = cl_tuple_product(e, &atom_rc[k]);
    cl_tuple_free(e);
    CL_TRY(s);
  }
  CL_TRY(cl_tuple_printf(&tile, "(%lld,%lld)", (long long)atom_rc[0], (long long)atom_rc[1]));
  s = cl_zipped_divide_tiler(*t_tensor, tile, c_tensor);
  cl_tuple_free(tile);
  CL_TRY(s);
  /* Transform the Atom mode from (R,C) to (Thr,Val) */
  char tv[CL_TILED_TEXT / 2];
  const cl_layout_t *atom_tv = NULL;
  CL_TRY(cl_mma_atom_operand(m->atom, op, &atom_tv));
  CL_TRY(cl_text_layout(atom_tv, tv, sizeof tv));
  CL_TRY(cl_tuple_printf(&tile, "(%s,_)", tv));
  s = cl_composition_tiler(*c_tensor, tile, tv_tensor);
  cl_tuple_free(tile);
  CL_TRY(s);
  /* Tile the tensor for the threads: ((ThrV,(ThrR,ThrC)),(FrgV,(RestR,RestC))) */
  int64_t thr_r = cl_mode_size(m->vmnk, operand_vmnk[op][0]), thr_c = cl_mode_size(m->vmnk, operand_vmnk[op][1]);
  CL_TRY(cl_tuple_printf(&tile, "(_,(%lld,%lld))", (long long)thr_r, (long long)thr_c));
  s = cl_zipped_divide_tiler(*tv_tensor, tile, out);
  cl_tuple_free(tile);
  return s;
}

cl_status cl_tiled_mma_thrfrg(const cl_tiled_mma_t *mma, cl_mma_operand operand, const cl_layout_t *layout,
                              cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(mma);
  CHECK_NULL(layout);
  if ((int)operand < 0 || (int)operand > 2)
    return cl_fail(CL_E_DOMAIN, "operand %d is none of A (0), B (1), C (2)", (int)operand);
  if (cl_layout_rank(layout) < 2)
    return cl_fail(CL_E_RANK, "partition_%c: the tensor has rank %lld; a tiled MMA partitions tensors of rank 2 or more",
                   "ABC"[operand], (long long)cl_layout_rank(layout));
  cl_layout_t *t = NULL, *c = NULL, *tv = NULL;
  cl_status s = thrfrg_steps(mma, operand, layout, &t, &c, &tv, out);
  cl_layout_free(t);
  cl_layout_free(c);
  cl_layout_free(tv);
  return s;
}

/* ------------------------------------------------------------ TV layouts */

/* thr_idx -> (ThrV,ThrM,ThrN,ThrK):
 * composition(make_layout((size(vmnk),1),(1,0)),
 *             right_inverse(make_layout(vmnk, complement(vmnk)))) */
static cl_status thridx_to_thrid(const cl_tiled_mma_t *m, cl_layout_t **out) {
  cl_layout_t *comp = NULL, *both = NULL, *inv = NULL, *head = NULL;
  cl_status s = cl_complement_full(m->vmnk, &comp);
  if (s == CL_OK) {
    const cl_layout_t *parts[2] = {m->vmnk, comp};
    s = cl_layout_concat(parts, 2, &both);
  }
  if (s == CL_OK)
    s = cl_right_inverse(both, &inv);
  if (s == CL_OK)
    s = cl_layout_printf(&head, "(%lld,1):(1,0)", (long long)cl_layout_size(m->vmnk));
  if (s == CL_OK)
    s = cl_composition(head, inv, out);
  cl_layout_free(comp);
  cl_layout_free(both);
  cl_layout_free(inv);
  cl_layout_free(head);
  return s;
}

/* For A and B: (ThrV,(ThrR,ThrC)) -> (ThrV,(ThrM,ThrN,ThrK)), the thread
 * modes of the operand spread back over all of M, N and K. */
static cl_status operand_thread_tile(const cl_tiled_mma_t *m, cl_mma_operand op, char *buf, size_t cap) {
  int64_t thr_m = cl_mode_size(m->vmnk, 1), thr_n = cl_mode_size(m->vmnk, 2);
  snprintf(buf, cap, "((_,((%lld,%lld):(%d,%d),_)),_)", (long long)thr_m, (long long)thr_n, op == CL_OPERAND_A,
           op == CL_OPERAND_B);
  return CL_OK;
}

static cl_status layout_tv_steps(const cl_tiled_mma_t *m, cl_mma_operand op, cl_layout_t **ref, cl_layout_t **frg,
                                 cl_layout_t **spread, cl_layout_t **thrid, cl_layout_t **out) {
  int64_t rows, cols;
  CL_TRY(cl_tiled_mma_tile_size(m, operand_mnk[op][0], &rows));
  CL_TRY(cl_tiled_mma_tile_size(m, operand_mnk[op][1], &cols));
  /* (R,C) -> (R,C) */
  cl_tuple_t *shape = NULL;
  CL_TRY(cl_tuple_printf(&shape, "(%lld,%lld)", (long long)rows, (long long)cols));
  cl_status s = cl_layout_make_left(shape, ref);
  cl_tuple_free(shape);
  CL_TRY(s);
  CL_TRY(cl_tiled_mma_thrfrg(m, op, *ref, frg));
  if (op != CL_OPERAND_C) {
    char tile[CL_TILED_TEXT / 4];
    CL_TRY(operand_thread_tile(m, op, tile, sizeof tile));
    CL_TRY(cl_compose_text(*frg, tile, spread));
  } else {
    CL_TRY(cl_layout_copy(*frg, spread));
  }
  CL_TRY(thridx_to_thrid(m, thrid));
  char inv[CL_TILED_TEXT / 2], tile[CL_TILED_TEXT];
  CL_TRY(cl_text_layout(*thrid, inv, sizeof inv));
  snprintf(tile, sizeof tile, "(%s,_)", inv);
  return cl_compose_text(*spread, tile, out);
}

cl_status cl_tiled_mma_layout_tv(const cl_tiled_mma_t *mma, cl_mma_operand operand, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(mma);
  if ((int)operand < 0 || (int)operand > 2)
    return cl_fail(CL_E_DOMAIN, "operand %d is none of A (0), B (1), C (2)", (int)operand);
  cl_layout_t *ref = NULL, *frg = NULL, *spread = NULL, *thrid = NULL;
  cl_status s = layout_tv_steps(mma, operand, &ref, &frg, &spread, &thrid, out);
  cl_layout_free(ref);
  cl_layout_free(frg);
  cl_layout_free(spread);
  cl_layout_free(thrid);
  return s;
}

/* ------------------------------------------------------------ partitions */

/* get_flat_coord(thr) of ThrLayoutVMNK: the coordinate whose image is thr
 * (idx2crd(thr, shape, stride): each leaf (thr / stride) % extent), each of
 * the four modes' coordinates then as its column-major index in the mode. */
static cl_status flat_coord(const cl_layout_t *vmnk, int64_t thr, int64_t out[4]) {
  cl_tuple_t *shape = NULL, *stride = NULL, *idx = NULL, *hier = NULL;
  cl_status s = cl_layout_shape(vmnk, &shape);
  if (s == CL_OK)
    s = cl_layout_stride(vmnk, &stride);
  if (s == CL_OK)
    s = cl_tuple_int(thr, &idx);
  if (s == CL_OK)
    s = cl_idx2crd_strided(idx, shape, stride, &hier);
  for (int64_t i = 0; i < 4 && s == CL_OK; i++) {
    cl_tuple_t *crd = NULL, *extent = NULL;
    s = cl_tuple_get(hier, &i, 1, &crd);
    if (s == CL_OK)
      s = cl_tuple_get(shape, &i, 1, &extent);
    if (s == CL_OK)
      s = cl_crd2idx_shape(crd, extent, &out[i]);
    cl_tuple_free(crd);
    cl_tuple_free(extent);
  }
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_tuple_free(idx);
  cl_tuple_free(hier);
  return s;
}

static cl_status thread_vmnk(const cl_tiled_mma_t *m, const char *fn, int64_t thr, int64_t vmnk[4]) {
  int64_t size = cl_layout_size(m->vmnk);
  if (thr < 0 || thr >= size)
    return cl_fail(CL_E_DOMAIN, "%s: thread %lld is outside the tiled MMA's %lld threads", fn, (long long)thr,
                   (long long)size);
  return flat_coord(m->vmnk, thr, vmnk);
}

/* thr_tensor((v,(r,c)), (_, (_,...))) with one '_' per mode of the rest. */
static cl_status partition_coord(int64_t v, int64_t r, int64_t c, int64_t rank, cl_tuple_t **out) {
  char rest[CL_TILED_TEXT / 4] = "(";
  for (int64_t i = 0; i < rank; i++)
    strcat(rest, i + 1 < rank ? "_," : "_)");
  return cl_tuple_printf(out, "((%lld,(%lld,%lld)),(_,%s))", (long long)v, (long long)r, (long long)c, rest);
}

/* The thread's fragment thrfrg(layout) and the coordinate that slices the
 * thread's part from it. */
static cl_status partition_parts(const cl_tiled_mma_t *mma, cl_mma_operand operand, int64_t thr,
                                 const cl_layout_t *layout, cl_layout_t **frg, cl_tuple_t **crd) {
  if ((int)operand < 0 || (int)operand > 2)
    return cl_fail(CL_E_DOMAIN, "operand %d is none of A (0), B (1), C (2)", (int)operand);
  int64_t vmnk[4];
  static const char *const fns[3] = {"partition_A", "partition_B", "partition_C"};
  CL_TRY(thread_vmnk(mma, fns[operand], thr, vmnk));
  int64_t rank = cl_layout_rank(layout);
  if (rank > CL_TILED_TEXT / 16)
    return cl_fail(CL_E_LIMIT, "%s: a tensor of %lld modes", fns[operand], (long long)rank);
  CL_TRY(cl_tiled_mma_thrfrg(mma, operand, layout, frg));
  cl_status s = partition_coord(vmnk[0], vmnk[operand_vmnk[operand][0]], vmnk[operand_vmnk[operand][1]], rank, crd);
  if (s != CL_OK) {
    cl_layout_free(*frg);
    *frg = NULL;
  }
  return s;
}

cl_status cl_tiled_mma_partition(const cl_tiled_mma_t *mma, cl_mma_operand operand, int64_t thr,
                                 const cl_layout_t *layout, cl_layout_t **out, int64_t *offset) {
  CHECK_OUT(out);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(mma);
  CHECK_NULL(layout);
  cl_layout_t *frg = NULL;
  cl_tuple_t *crd = NULL;
  CL_TRY(partition_parts(mma, operand, thr, layout, &frg, &crd));
  cl_status s = cl_layout_slice_and_offset(crd, frg, out, offset);
  cl_tuple_free(crd);
  cl_layout_free(frg);
  return s;
}

cl_status cl_composed_partition_slice(const cl_composed_t *tensor, cl_layout_t *frg, const cl_tuple_t *crd,
                                      cl_layout_t **layout, cl_composed_t **composed, int64_t *offset) {
  cl_layout_t *whole = NULL;
  cl_composed_t *whole_composed = NULL;
  CL_TRY(cl_sw_rewrap(cl_sw_view(&tensor->outer), tensor->offset, tensor, frg, NULL, &whole, &whole_composed));
  cl_status s = whole_composed != NULL ? cl_composed_slice_and_offset(crd, whole_composed, layout, composed, offset)
                                       : cl_layout_slice_and_offset(crd, whole, layout, offset);
  cl_layout_free(whole);
  cl_composed_free(whole_composed);
  return s;
}

cl_status cl_tiled_mma_partition_composed(const cl_tiled_mma_t *mma, cl_mma_operand operand, int64_t thr,
                                          const cl_composed_t *tensor, cl_layout_t **layout, cl_composed_t **composed,
                                          int64_t *offset) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(mma);
  CHECK_NULL(tensor);
  const cl_layout_t *inner = NULL;
  CL_TRY(cl_sw_inner_layout(tensor, "partition", &inner));
  cl_layout_t *frg = NULL;
  cl_tuple_t *crd = NULL;
  CL_TRY(partition_parts(mma, operand, thr, inner, &frg, &crd));
  cl_status s = cl_composed_partition_slice(tensor, frg, crd, layout, composed, offset);
  cl_tuple_free(crd);
  return s;
}

cl_status cl_tiled_mma_partition_tensor(const cl_tiled_mma_t *mma, cl_mma_operand operand, int64_t thr,
                                        const cl_tensor_t *tensor, cl_tensor_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(tensor);
  cl_layout_t *l = NULL;
  int64_t offset;
  CL_TRY(cl_tiled_mma_partition(mma, operand, thr, cl_tensor_layout(tensor), &l, &offset));
  cl_status s = cl_tensor_view_at(tensor, offset, l, out);
  cl_layout_free(l);
  return s;
}
