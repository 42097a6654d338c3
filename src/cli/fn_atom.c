/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_atom.c: MMA and copy atoms, tiled MMAs and tiled copies in the eval
 * language (CONTRACT.md, "Atoms").
 *
 * An atom's name is a value (`SM80_16x8x16_F32F16F16F32_TN`); a copy
 * operation's name and an element type's are names that copy_atom(OP, T)
 * takes; a GMMA shared-memory layout atom's name is its layout.  Every value
 * prints as the call that makes it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "fn_atom.h"
#include "suggest.h"

/* ------------------------------------------------------------ values */

void cli_atom_free(void *atom, int64_t kind) {
  switch ((atom_kind)kind) {
  case A_MMA_ATOM: cl_mma_atom_free(atom); break;
  case A_COPY_ATOM: cl_copy_atom_free(atom); break;
  case A_TILED_MMA: cl_tiled_mma_free(atom); break;
  case A_TILED_COPY: cl_tiled_copy_free(atom); break;
  }
}

char *cli_atom_format(const void *atom, int64_t kind) {
  int64_t (*format)(const void *, char *, size_t) = NULL;
  switch ((atom_kind)kind) {
  case A_MMA_ATOM: format = (int64_t(*)(const void *, char *, size_t))cl_mma_atom_format; break;
  case A_COPY_ATOM: format = (int64_t(*)(const void *, char *, size_t))cl_copy_atom_format; break;
  case A_TILED_MMA: format = (int64_t(*)(const void *, char *, size_t))cl_tiled_mma_format; break;
  case A_TILED_COPY: format = (int64_t(*)(const void *, char *, size_t))cl_tiled_copy_format; break;
  }
  int64_t n = format != NULL ? format(atom, NULL, 0) : -1;
  char *text = n < 0 ? NULL : malloc((size_t)n + 1);
  if (text != NULL)
    format(atom, text, (size_t)n + 1);
  return text;
}

static value value_of_atom(void *atom, atom_kind kind) {
  return (value){.kind = V_ATOM, .atom = atom, .num = {kind}};
}

static bool is_atom(const value *v, atom_kind kind) { return v->kind == V_ATOM && v->num[0] == kind; }

static bool is_composed(const value *v) { return v->kind == V_COMPOSED; }

static char *dup_name(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

/* ------------------------------------------------------------ names */

/* The part of a name before its template arguments, for suggestions. */
static void base_of(const char *name, char *buf, size_t cap) {
  snprintf(buf, cap, "%s", name);
  char *lt = strchr(buf, '<');
  if (lt != NULL)
    *lt = '\0';
}

/* The catalog's name nearest to `name` (compared without template
 * arguments), or NULL. */
static const char *nearest_catalog_name(const char *name, char *buf, size_t cap) {
  static char bases[4096][64];
  static int nbases = 0;
  if (nbases == 0)
    for (int f = CL_ATOM_MMA; f <= CL_ATOM_SMEM; f++)
      for (int64_t i = 0; cl_atom_catalog_name(f, i) != NULL && nbases < 4096; i++)
        base_of(cl_atom_catalog_name(f, i), bases[nbases++], sizeof bases[0]);
  char word[256];
  base_of(name, word, sizeof word);
  /* A known template with other arguments (SM120_16x8x32_TN<...,half>):
   * the nearest of its instances in the catalog. */
  suggestion inst = suggestion_start(name);
  bool instances = false;
  for (int f = CL_ATOM_MMA; f <= CL_ATOM_SMEM; f++)
    for (int64_t i = 0; strchr(name, '<') != NULL && cl_atom_catalog_name(f, i) != NULL; i++) {
      char cand[64];
      base_of(cl_atom_catalog_name(f, i), cand, sizeof cand);
      if (strcmp(cand, word) == 0 && strchr(cl_atom_catalog_name(f, i), '<') != NULL) {
        suggestion_offer(&inst, cl_atom_catalog_name(f, i));
        instances = true;
      }
    }
  suggestion s = suggestion_start(word);
  for (int i = 0; i < nbases; i++)
    suggestion_offer(&s, bases[i]);
  builtin_offer_names(&s);
  const char *best = instances ? suggestion_result(&inst) : suggestion_result(&s);
  if (best == NULL)
    return NULL;
  snprintf(buf, cap, "%s", best);
  return buf;
}

cl_status cli_unknown_atom(const char *what, const char *name) {
  char near[128];
  if (nearest_catalog_name(name, near, sizeof near) != NULL)
    return cli_fail(CL_E_DOMAIN, "unknown %s '%s'; did you mean '%s'?", what, name, near);
  return cli_fail(CL_E_DOMAIN, "unknown %s '%s'", what, name);
}

static bool is_copy_op_name(const char *name) {
  char base[128], cand[128];
  base_of(name, base, sizeof base);
  for (int64_t i = 0; cl_atom_catalog_name(CL_ATOM_COPY, i) != NULL; i++) {
    base_of(cl_atom_catalog_name(CL_ATOM_COPY, i), cand, sizeof cand);
    if (strcmp(cand, base) == 0)
      return true;
  }
  return false;
}

/* A GMMA shared-memory layout atom as a layout or a composed layout. */
static cl_status smem_atom_value(const char *name, value *out) {
  int32_t b, m, s;
  cl_layout_t *l = NULL;
  TRY(cl_gmma_smem_atom(name, &b, &m, &s, &l));
  if (b == 0) {
    *out = value_of_layout(l);
    return CL_OK;
  }
  cl_swizzle_t sw;
  cl_composed_t *c = NULL;
  cl_status st = cl_swizzle_make(b, m, s, &sw);
  if (st == CL_OK)
    st = cl_make_composed_layout(cl_fn_swizzle(sw), 0, cl_fn_layout(l), &c);
  cl_layout_free(l);
  if (st == CL_OK)
    *out = (value){.kind = V_COMPOSED, .composed = c};
  return st;
}

cl_status cli_atom_name_value(const char *name, value *out, bool *known) {
  *known = true;
  int64_t bits;
  if (strncmp(name, "GMMA::Layout_", 13) == 0)
    return smem_atom_value(name, out);
  if (cl_atom_type_bits(name, &bits) == CL_OK || is_copy_op_name(name)) {
    char *text = dup_name(name);
    if (text == NULL)
      return cli_fail(CL_E_NOMEM, "out of memory");
    *out = (value){.kind = V_NAME, .text = text};
    return CL_OK;
  }
  cl_mma_atom_t *atom = NULL;
  cl_status s = cl_mma_atom_new(name, &atom);
  if (s == CL_E_DOMAIN) {
    *known = false;
    return s;
  }
  TRY(s);
  *out = value_of_atom(atom, A_MMA_ATOM);
  return CL_OK;
}

/* ------------------------------------------------------------ arguments */

static cl_status arg_name(const char *fn, const value *a, int i, const char *what, const char **out) {
  if (a[i].kind != V_NAME)
    return cli_fail(CL_E_TYPE, "%s: argument %d must be %s", fn, i + 1, what);
  *out = a[i].text;
  return CL_OK;
}

static cl_status arg_atom(const char *fn, const value *a, int i, atom_kind kind, const void **out) {
  static const char *const what[] = {"an MMA atom", "a copy atom (copy_atom(OP,T))", "a tiled MMA (make_tiled_mma)",
                                     "a tiled copy (make_tiled_copy)"};
  if (!is_atom(&a[i], kind))
    return cli_fail(CL_E_TYPE, "%s: argument %d must be %s", fn, i + 1, what[kind]);
  *out = a[i].atom;
  return CL_OK;
}

/* A layout argument, or a shape standing for make_layout(shape) (owned is
 * then the layout made, for the caller to free). */
static cl_status arg_layout_or_shape(const char *fn, const value *a, int i, const cl_layout_t **out, cl_layout_t **owned) {
  *owned = NULL;
  if (is_layout(&a[i])) {
    *out = a[i].layout;
    return CL_OK;
  }
  if (a[i].kind != V_TUPLE)
    return cli_fail(CL_E_TYPE, "%s: argument %d must be a layout or a shape", fn, i + 1);
  TRY(cl_layout_make_left(a[i].tuple, owned));
  *out = *owned;
  return CL_OK;
}

/* A library result as a value.  The handle is read through a pointer,
 * after the call that fills it has run. */
static cl_status layout_result(cl_status s, cl_layout_t *const *l, value *out) {
  if (s == CL_OK)
    *out = value_of_layout(*l);
  return s;
}

static cl_status tuple_result(cl_status s, cl_tuple_t *const *t, value *out) {
  if (s == CL_OK)
    *out = value_of_tuple(*t);
  return s;
}

/* ------------------------------------------------------------ constructors */

/* copy_atom(OP, T) */
static cl_status fn_copy_atom(const char *name, const value *a, int n, value *out) {
  (void)n;
  const char *op = NULL, *type = NULL;
  TRY(arg_name(name, a, 0, "a copy operation (SM75_U32x4_LDSM_N, UniversalCopy<uint32_t>, ...)", &op));
  TRY(arg_name(name, a, 1, "an element type (half_t, float, ...)", &type));
  int64_t bits;
  if (cl_atom_type_bits(type, &bits) != CL_OK)
    return cli_unknown_atom("element type", type);
  cl_copy_atom_t *atom = NULL;
  cl_status s = cl_copy_atom_new(op, type, &atom);
  if (s == CL_E_DOMAIN && !is_copy_op_name(op))
    return cli_unknown_atom("copy operation", op);
  TRY(s);
  *out = value_of_atom(atom, A_COPY_ATOM);
  return CL_OK;
}

/* make_tiled_mma(atom [, atom_layout [, permutation]]) */
static cl_status fn_make_tiled_mma(const char *name, const value *a, int n, value *out) {
  const void *atom = NULL;
  TRY(arg_atom(name, a, 0, A_MMA_ATOM, &atom));
  const cl_layout_t *layout = NULL;
  cl_layout_t *owned = NULL;
  if (n >= 2)
    TRY(arg_layout_or_shape(name, a, 1, &layout, &owned));
  const cl_tuple_t *perm = NULL;
  cl_tuple_t *perm_owned = NULL;
  cl_status s = CL_OK;
  if (n >= 3) {
    if (a[2].kind != V_TUPLE)
      s = cli_fail(CL_E_TYPE, "%s: argument 3 must be a permutation tuple such as (_,_,_)", name);
    else if (cl_tuple_kind(a[2].tuple) != CL_KIND_TUPLE)
      s = cli_fail(CL_E_TYPE, "%s: the permutation must be a tuple, one element for each of M, N and K", name);
    perm = a[2].tuple;
  }
  cl_tiled_mma_t *mma = NULL;
  if (s == CL_OK)
    s = cl_make_tiled_mma(atom, layout, perm, &mma);
  cl_layout_free(owned);
  cl_tuple_free(perm_owned);
  TRY(s);
  *out = value_of_atom(mma, A_TILED_MMA);
  return CL_OK;
}

/* make_tiled_copy(copy_atom, thr_layout [, val_layout]) */
static cl_status fn_make_tiled_copy(const char *name, const value *a, int n, value *out) {
  const void *atom = NULL;
  TRY(arg_atom(name, a, 0, A_COPY_ATOM, &atom));
  const cl_layout_t *thr = NULL, *val = NULL;
  cl_layout_t *thr_owned = NULL, *val_owned = NULL;
  TRY(arg_layout_or_shape(name, a, 1, &thr, &thr_owned));
  cl_status s = n >= 3 ? arg_layout_or_shape(name, a, 2, &val, &val_owned) : CL_OK;
  cl_tiled_copy_t *copy = NULL;
  if (s == CL_OK)
    s = cl_make_tiled_copy(atom, thr, val, &copy);
  cl_layout_free(thr_owned);
  cl_layout_free(val_owned);
  TRY(s);
  *out = value_of_atom(copy, A_TILED_COPY);
  return CL_OK;
}

/* make_tiled_copy_A/B/C(copy_atom, tiled_mma) */
static cl_status fn_make_tiled_copy_operand(const char *name, const value *a, int n, value *out) {
  (void)n;
  const void *atom = NULL, *mma = NULL;
  TRY(arg_atom(name, a, 0, A_COPY_ATOM, &atom));
  TRY(arg_atom(name, a, 1, A_TILED_MMA, &mma));
  cl_mma_operand op = (cl_mma_operand)(name[strlen(name) - 1] - 'A');
  cl_tiled_copy_t *copy = NULL;
  TRY(cl_make_tiled_copy_operand(atom, mma, op, &copy));
  *out = value_of_atom(copy, A_TILED_COPY);
  return CL_OK;
}

/* ------------------------------------------------------------ queries */

/* The MMA atom of an MMA atom or a tiled MMA argument (owned: a copy to free). */
static cl_status mma_atom_of(const char *fn, const value *a, const cl_mma_atom_t **atom, cl_mma_atom_t **owned) {
  *owned = NULL;
  if (is_atom(a, A_MMA_ATOM)) {
    *atom = a->atom;
    return CL_OK;
  }
  if (is_atom(a, A_TILED_MMA)) {
    TRY(cl_tiled_mma_atom(a->atom, owned));
    *atom = *owned;
    return CL_OK;
  }
  return cli_fail(CL_E_TYPE, "%s: argument 1 must be an MMA atom or a tiled MMA", fn);
}

/* thr_id(x): ThrID of an MMA atom, a copy atom, or their tiled forms. */
static cl_status fn_thr_id(const char *name, const value *a, int n, value *out) {
  (void)n;
  cl_layout_t *l = NULL;
  if (is_atom(&a[0], A_COPY_ATOM) || is_atom(&a[0], A_TILED_COPY)) {
    cl_copy_atom_t *owned = NULL;
    const cl_copy_atom_t *atom = a[0].atom;
    if (is_atom(&a[0], A_TILED_COPY)) {
      TRY(cl_tiled_copy_atom(a[0].atom, &owned));
      atom = owned;
    }
    cl_status s = cl_copy_atom_thr_id(atom, &l);
    cl_copy_atom_free(owned);
    return layout_result(s, &l, out);
  }
  const cl_mma_atom_t *atom = NULL;
  cl_mma_atom_t *owned = NULL;
  if (!is_atom(&a[0], A_MMA_ATOM) && !is_atom(&a[0], A_TILED_MMA))
    return cli_fail(CL_E_TYPE, "%s: argument 1 must be an MMA or copy atom, tiled or not", name);
  TRY(mma_atom_of(name, &a[0], &atom, &owned));
  cl_status s = cl_mma_atom_thr_id(atom, &l);
  cl_mma_atom_free(owned);
  return layout_result(s, &l, out);
}

static cl_status fn_shape_mnk(const char *name, const value *a, int n, value *out) {
  (void)n;
  const cl_mma_atom_t *atom = NULL;
  cl_mma_atom_t *owned = NULL;
  TRY(mma_atom_of(name, &a[0], &atom, &owned));
  cl_tuple_t *t = NULL;
  cl_status s = cl_mma_atom_shape_mnk(atom, &t);
  cl_mma_atom_free(owned);
  return tuple_result(s, &t, out);
}

/* layoutA_TV / layoutB_TV / layoutC_TV of an MMA atom (its traits) or a
 * tiled MMA (get_layoutX_TV()). */
static cl_status fn_layout_tv(const char *name, const value *a, int n, value *out) {
  (void)n;
  cl_mma_operand op = (cl_mma_operand)(name[6] - 'A');
  cl_layout_t *l = NULL;
  if (is_atom(&a[0], A_MMA_ATOM))
    return layout_result(cl_mma_atom_layout_tv(a[0].atom, op, &l), &l, out);
  if (is_atom(&a[0], A_TILED_MMA))
    return layout_result(cl_tiled_mma_layout_tv(a[0].atom, op, &l), &l, out);
  return cli_fail(CL_E_TYPE, "%s: argument 1 must be an MMA atom or a tiled MMA", name);
}

static cl_status fn_tile_shape(const char *name, const value *a, int n, value *out) {
  (void)n;
  const void *mma = NULL;
  TRY(arg_atom(name, a, 0, A_TILED_MMA, &mma));
  cl_tuple_t *t = NULL;
  return tuple_result(cl_tiled_mma_tile_shape(mma, &t), &t, out);
}

static cl_status fn_thr_layout_vmnk(const char *name, const value *a, int n, value *out) {
  (void)n;
  const void *mma = NULL;
  TRY(arg_atom(name, a, 0, A_TILED_MMA, &mma));
  cl_layout_t *l = NULL;
  return layout_result(cl_tiled_mma_thr_layout_vmnk(mma, &l), &l, out);
}

/* layoutS_TV / layoutD_TV of a tiled copy. */
static cl_status fn_side_tv(const char *name, const value *a, int n, value *out) {
  (void)n;
  const void *copy = NULL;
  TRY(arg_atom(name, a, 0, A_TILED_COPY, &copy));
  cl_layout_t *l = NULL;
  return layout_result(cl_tiled_copy_side_tv(copy, name[6] == 'S' ? CL_COPY_SRC : CL_COPY_DST, &l), &l, out);
}

static cl_status fn_tiler_mn(const char *name, const value *a, int n, value *out) {
  (void)n;
  const void *copy = NULL;
  TRY(arg_atom(name, a, 0, A_TILED_COPY, &copy));
  cl_tuple_t *t = NULL;
  return tuple_result(cl_tiled_copy_tiler_mn(copy, &t), &t, out);
}

/* ------------------------------------------------------------ partitions */

/* partition_A/B/C(tiled_mma, thr, L), partition_S/D(tiled_copy, thr, L):
 * (layout,offset). */
static cl_status fn_partition(const char *name, const value *a, int n, value *out) {
  (void)n;
  char which = name[strlen(name) - 1];
  bool copy = which == 'S' || which == 'D';
  const void *tiled = NULL;
  TRY(arg_atom(name, a, 0, copy ? A_TILED_COPY : A_TILED_MMA, &tiled));
  int64_t thr;
  TRY(arg_int(name, a, 1, &thr));
  if (is_composed(&a[2])) { /* a swizzled tensor: CuTe's partition of the composed layout */
    cl_layout_t *part = NULL;
    cl_composed_t *composed = NULL;
    int64_t offset = 0;
    TRY(copy ? cl_tiled_copy_partition_composed(tiled, which == 'S' ? CL_COPY_SRC : CL_COPY_DST, thr, a[2].composed,
                                                &part, &composed, &offset)
             : cl_tiled_mma_partition_composed(tiled, (cl_mma_operand)(which - 'A'), thr, a[2].composed, &part,
                                               &composed, &offset));
    return cli_pair_result(part, composed, offset, out);
  }
  const cl_layout_t *layout;
  cl_layout_t *owned = NULL;
  TRY(arg_layout_or_shape(name, a, 2, &layout, &owned));
  cl_layout_t *part = NULL;
  int64_t offset = 0;
  cl_status s = copy ? cl_tiled_copy_partition(tiled, which == 'S' ? CL_COPY_SRC : CL_COPY_DST, thr, layout, &part, &offset)
                     : cl_tiled_mma_partition(tiled, (cl_mma_operand)(which - 'A'), thr, layout, &part, &offset);
  cl_layout_free(owned);
  TRY(s);
  return cli_pair_result(part, NULL, offset, out);
}

/* retile(tiled_copy, L): a thread's fragment regrouped by the copy's atom. */
static cl_status fn_retile(const char *name, const value *a, int n, value *out) {
  (void)n;
  const void *copy = NULL;
  TRY(arg_atom(name, a, 0, A_TILED_COPY, &copy));
  if (is_composed(&a[1])) {
    cl_layout_t *l = NULL;
    cl_composed_t *c = NULL;
    int64_t offset; /* the tensor's data moves; like retile of a layout, the value is the layout */
    TRY(cl_tiled_copy_retile_composed(copy, a[1].composed, &l, &c, &offset));
    if (c != NULL) {
      *out = (value){.kind = V_COMPOSED, .composed = c};
      return CL_OK;
    }
    return layout_result(CL_OK, &l, out);
  }
  const cl_layout_t *layout;
  TRY(arg_layout(name, a, 1, &layout));
  cl_layout_t *l = NULL;
  return layout_result(cl_tiled_copy_retile(copy, layout, &l), &l, out);
}

const builtin cli_builtins_atom[] = {
  {"copy_atom", 2, 2, fn_copy_atom, "copy_atom(OP, T)"},
  {"make_tiled_mma", 1, 3, fn_make_tiled_mma, "make_tiled_mma(atom [, atom_layout [, permutation]])"},
  {"make_tiled_copy", 2, 3, fn_make_tiled_copy, "make_tiled_copy(copy_atom, thr_layout [, val_layout])"},
  {"make_tiled_copy_A", 2, 2, fn_make_tiled_copy_operand, "make_tiled_copy_A(copy_atom, tiled_mma)"},
  {"make_tiled_copy_B", 2, 2, fn_make_tiled_copy_operand, "make_tiled_copy_B(copy_atom, tiled_mma)"},
  {"make_tiled_copy_C", 2, 2, fn_make_tiled_copy_operand, "make_tiled_copy_C(copy_atom, tiled_mma)"},
  {"thr_id", 1, 1, fn_thr_id, "thr_id(atom)"},
  {"shape_mnk", 1, 1, fn_shape_mnk, "shape_mnk(mma_atom)"},
  {"layoutA_TV", 1, 1, fn_layout_tv, "layoutA_TV(mma)"},
  {"layoutB_TV", 1, 1, fn_layout_tv, "layoutB_TV(mma)"},
  {"layoutC_TV", 1, 1, fn_layout_tv, "layoutC_TV(mma)"},
  {"tile_shape", 1, 1, fn_tile_shape, "tile_shape(tiled_mma)"},
  {"thr_layout_vmnk", 1, 1, fn_thr_layout_vmnk, "thr_layout_vmnk(tiled_mma)"},
  {"layoutS_TV", 1, 1, fn_side_tv, "layoutS_TV(tiled_copy)"},
  {"layoutD_TV", 1, 1, fn_side_tv, "layoutD_TV(tiled_copy)"},
  {"tiler_mn", 1, 1, fn_tiler_mn, "tiler_mn(tiled_copy)"},
  {"partition_A", 3, 3, fn_partition, "partition_A(tiled_mma, thr, L)"},
  {"partition_B", 3, 3, fn_partition, "partition_B(tiled_mma, thr, L)"},
  {"partition_C", 3, 3, fn_partition, "partition_C(tiled_mma, thr, L)"},
  {"partition_S", 3, 3, fn_partition, "partition_S(tiled_copy, thr, L)"},
  {"partition_D", 3, 3, fn_partition, "partition_D(tiled_copy, thr, L)"},
  {"retile", 2, 2, fn_retile, "retile(tiled_copy, L)"},
  {NULL, 0, 0, NULL, NULL},
};

/* ------------------------------------------------------------ pictures */

/* A value's operand of an MMA atom as a tiled MMA of one atom. */
static cl_status tiled_of(const value *v, cl_tiled_mma_t **owned, const cl_tiled_mma_t **mma) {
  *owned = NULL;
  if (is_atom(v, A_TILED_MMA)) {
    *mma = v->atom;
    return CL_OK;
  }
  TRY(cl_make_tiled_mma(v->atom, NULL, NULL, owned));
  *mma = *owned;
  return CL_OK;
}

cl_status cli_atom_panels(const value *v, atom_panels *p) {
  *p = (atom_panels){0};
  if (is_atom(v, A_TILED_COPY)) {
    cl_tuple_t *tiler = NULL;
    TRY(cl_tiled_copy_tiler_mn(v->atom, &tiler));
    int64_t mn[2] = {0, 0};
    for (int64_t i = 0; i < 2; i++) {
      cl_tuple_t *e = NULL;
      if (cl_tuple_get(tiler, &i, 1, &e) == CL_OK)
        cl_tuple_product(e, &mn[i]);
      cl_tuple_free(e);
    }
    cl_tuple_free(tiler);
    static const char *const titles[2] = {"source (layoutS_TV)", "destination (layoutD_TV)"};
    for (int k = 0; k < 2; k++) {
      TRY(cl_tiled_copy_side_tv(v->atom, (cl_copy_side)k, &p->layout[k]));
      p->rows[k] = mn[0];
      p->cols[k] = mn[1];
      p->title[k] = titles[k];
    }
    p->count = 2;
    return CL_OK;
  }
  if (!is_atom(v, A_TILED_MMA) && !is_atom(v, A_MMA_ATOM))
    return cli_fail(CL_E_TYPE, "draw: not a tiled MMA or copy");
  cl_tiled_mma_t *owned = NULL;
  const cl_tiled_mma_t *mma = NULL;
  TRY(tiled_of(v, &owned, &mma));
  cl_tuple_t *shape = NULL;
  cl_status s = cl_tiled_mma_tile_shape(mma, &shape);
  int64_t mnk[3] = {0, 0, 0};
  for (int64_t i = 0; i < 3 && s == CL_OK; i++) {
    cl_tuple_t *e = NULL;
    s = cl_tuple_get(shape, &i, 1, &e);
    if (s == CL_OK)
      s = cl_tuple_product(e, &mnk[i]);
    cl_tuple_free(e);
  }
  cl_tuple_free(shape);
  /* print_latex's order: A (M x K) at the left, B (N x K) above, C (M x N) */
  static const char *const titles[3] = {"A (M,K): layoutA_TV", "B (N,K): layoutB_TV", "C (M,N): layoutC_TV"};
  static const int rows[3] = {0, 1, 0}, cols[3] = {2, 2, 1};
  for (int k = 0; k < 3 && s == CL_OK; k++) {
    s = cl_tiled_mma_layout_tv(mma, (cl_mma_operand)k, &p->layout[k]);
    p->rows[k] = mnk[rows[k]];
    p->cols[k] = mnk[cols[k]];
    p->title[k] = titles[k];
    p->count = k + 1;
  }
  cl_tiled_mma_free(owned);
  return s;
}

void cli_atom_panels_free(atom_panels *p) {
  for (int k = 0; k < 3; k++)
    cl_layout_free(p->layout[k]);
  *p = (atom_panels){0};
}
