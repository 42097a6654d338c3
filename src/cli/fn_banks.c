/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_banks.c: shared-memory bank conflicts and the swizzle search (banks.h):
 * bank_conflicts(tv, L, bits), swizzle_search(L, bits, tv, ...) and
 * swizzle_search_padded(L, bits, tv, ...). */
#include <stdio.h>

#include "builtins.h"
#include "fn_atom.h"

/* The shared-memory layout argument: a layout or a composed layout. */
static cl_status arg_smem(const char *fn, const value *a, int i, cl_layout_fn_t *out) {
  if (a[i].kind == V_COMPOSED) {
    *out = cl_layout_fn_composed(a[i].composed);
    return CL_OK;
  }
  const cl_layout_t *l;
  TRY(arg_layout(fn, a, i, &l));
  *out = cl_layout_fn_of(cl_fn_layout(l));
  return CL_OK;
}

static cl_status pair_of(int64_t x, int64_t y, value *out) {
  char text[64];
  snprintf(text, sizeof text, "(%lld,%lld)", (long long)x, (long long)y);
  cl_tuple_t *t = NULL;
  TRY(cl_tuple_parse(text, &t));
  *out = value_of_tuple(t);
  return CL_OK;
}

/* A warp-wide load of the TV layout's values, vectorized as widely as the
 * layouts allow (the contract's rule). */
static cl_smem_access_t load_of(const cl_layout_t *tv, int64_t bits) {
  cl_smem_access_t access = {tv, bits, CL_SMEM_LOAD, 0, 0};
  return access;
}

/* bank_conflicts(tiled_copy, L): the copy's own instructions. */
static cl_status tiled_copy_conflicts(const char *name, const value *a, value *out) {
  if (a[0].kind != V_ATOM || a[0].num[0] != A_TILED_COPY)
    return cli_fail(CL_E_TYPE, "%s: with two arguments, argument 1 must be a tiled copy (make_tiled_copy...)", name);
  cl_layout_fn_t smem;
  TRY(arg_smem(name, a, 1, &smem));
  cl_bank_report_t *report = NULL;
  TRY(cl_bank_conflicts_tiled_copy(a[0].atom, smem, &report));
  int64_t w, i;
  cl_bank_report_totals(report, &w, &i);
  cl_bank_report_free(report);
  return pair_of(w, i, out);
}

static cl_status fn_bank_conflicts(const char *name, const value *a, int n, value *out) {
  if (n == 2)
    return tiled_copy_conflicts(name, a, out);
  const cl_layout_t *tv;
  cl_layout_fn_t smem;
  int64_t bits;
  TRY(arg_layout(name, a, 0, &tv));
  TRY(arg_smem(name, a, 1, &smem));
  TRY(arg_int(name, a, 2, &bits));
  cl_smem_access_t access = load_of(tv, bits);
  cl_bank_report_t *report = NULL;
  TRY(cl_bank_conflicts(&access, smem, &report));
  int64_t w, i;
  cl_bank_report_totals(report, &w, &i);
  cl_bank_report_free(report);
  return pair_of(w, i, out);
}

enum { MAX_ACCESSES = 62 };

/* The arguments of a search: the plain layout, and the TV layouts after
 * the element width, each a warp-wide load. */
static cl_status search_args(const char *name, const value *a, int n, const cl_layout_t **smem,
                             cl_smem_access_t *accesses) {
  int64_t bits;
  TRY(arg_layout(name, a, 0, smem));
  TRY(arg_int(name, a, 1, &bits));
  for (int k = 2; k < n; k++) {
    const cl_layout_t *tv;
    TRY(arg_layout(name, a, k, &tv));
    accesses[k - 2] = load_of(tv, bits);
  }
  return CL_OK;
}

static cl_status swizzled(cl_swizzle_t sw, const cl_layout_t *smem, value *out) {
  cl_composed_t *c = NULL;
  TRY(cl_make_composed_layout(cl_fn_swizzle(sw), 0, cl_fn_layout(smem), &c));
  *out = (value){.kind = V_COMPOSED, .composed = c};
  return CL_OK;
}

static cl_status fn_swizzle_search(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *smem;
  cl_smem_access_t accesses[MAX_ACCESSES];
  TRY(search_args(name, a, n, &smem, accesses));
  cl_swizzle_t sw;
  TRY(cl_swizzle_search(smem, accesses, n - 2, &sw, NULL, NULL));
  return swizzled(sw, smem, out);
}

/* The padded layout itself when padding won, else the swizzle over L. */
static cl_status fn_swizzle_search_padded(const char *name, const value *a, int n, value *out) {
  const cl_layout_t *smem;
  cl_smem_access_t accesses[MAX_ACCESSES];
  TRY(search_args(name, a, n, &smem, accesses));
  cl_smem_choice_t choice;
  cl_layout_t *layout = NULL;
  TRY(cl_swizzle_search_padded(smem, accesses, n - 2, &choice, &layout));
  if (choice.padding > 0) {
    *out = value_of_layout(layout);
    return CL_OK;
  }
  cl_layout_free(layout);
  return swizzled(choice.swizzle, smem, out);
}

const builtin cli_builtins_banks[] = {
  {"bank_conflicts", 2, 3, fn_bank_conflicts, "bank_conflicts(tv,L,bits) | bank_conflicts(tv,C,bits) | bank_conflicts(tiled_copy,L)"},
  {"swizzle_search", 3, 2 + MAX_ACCESSES, fn_swizzle_search, "swizzle_search(L,bits,tv,...)"},
  {"swizzle_search_padded", 3, 2 + MAX_ACCESSES, fn_swizzle_search_padded, "swizzle_search_padded(L,bits,tv,...)"},
  {NULL, 0, 0, NULL, NULL},
};
