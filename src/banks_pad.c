/* SPDX-License-Identifier: BSD-3-Clause */
/* banks_pad.c: swizzle_search_padded (banks.h), the swizzle search and,
 * where no swizzle is conflict-free, padding of the leading stride.
 *
 * A swizzle moves data inside aligned blocks, so some accesses keep a
 * conflict whatever the swizzle (a column read and a diagonal read of the
 * same rows, say); lengthening each row by a few elements shifts row r's
 * banks by r times the padding instead.  Paddings are tried smallest first,
 * up to a whole turn of the banks, after which they repeat. */
#include <string.h>

#include "banks_impl.h"

/* The smallest integer stride above 1 of a mode of more than one element
 * (0: none). */
static int64_t leading_of(const cl_node *shape, const cl_node *stride) {
  if (cl_is_tuple(shape)) {
    int64_t least = 0;
    const cl_node *d = cl_first(stride);
    CL_FOR_EACH_CHILD(s, shape) {
      int64_t n = leading_of(s, d);
      least = n > 0 && (least == 0 || n < least) ? n : least;
      d = cl_next(d);
    }
    return least;
  }
  return cl_is_int(stride) && shape->value > 1 && stride->value > 1 ? stride->value : 0;
}

/* The strides of a layout whose leading stride n grows by pad: each
 * multiple q*n becomes q*(n+pad), every other stride stays. */
static void padded_strides(cl_builder *b, const cl_node *stride, int64_t n, int64_t pad) {
  if (cl_is_tuple(stride)) {
    int32_t at = cl_b_open(b, CL_KIND_TUPLE);
    CL_FOR_EACH_CHILD(d, stride)
    padded_strides(b, d, n, pad);
    cl_b_close(b, at);
    return;
  }
  int64_t d = stride->value, grown = d, row;
  if (d > 0 && d % n == 0 && (cl_add(n, pad, &row) != CL_OK || cl_mul(d / n, row, &grown) != CL_OK))
    cl_b_set_error(b, CL_E_OVERFLOW);
  cl_b_int(b, grown);
}

static cl_status padded_layout(const cl_layout_t *smem, int64_t n, int64_t pad, cl_layout_t **out) {
  const cl_node *root = cl_lroot(smem);
  cl_builder stride;
  cl_b_init(&stride);
  padded_strides(&stride, cl_lstride(root), n, pad);
  cl_status s = stride.status;
  if (s == CL_OK)
    s = cl_layout_from_trees(cl_lshape(root), cl_b_root(&stride), out);
  else if (s == CL_E_OVERFLOW)
    s = cl_fail(s, "swizzle_search_padded: padding the stride %lld by %lld overflows", (long long)n, (long long)pad);
  cl_b_release(&stride);
  return s;
}

/* The total wavefronts and ideal of the accesses over a layout, or
 * CL_E_DOMAIN when one of them loses its vector width there. */
static cl_status totals_over(const cl_layout_t *layout, const cl_smem_access_t *accesses, int64_t n, int64_t *w,
                             int64_t *ideal) {
  *w = *ideal = 0;
  for (int64_t a = 0; a < n; a++) {
    cl_bank_report_t *report = NULL;
    CL_TRY(cl_bank_conflicts(&accesses[a], cl_layout_fn_of(cl_fn_layout(layout)), &report));
    int64_t aw, ai;
    cl_bank_report_totals(report, &aw, &ai);
    cl_bank_report_free(report);
    *w += aw;
    *ideal += ai;
  }
  return CL_OK;
}

/* The accesses with the vector widths they have over smem written in, so
 * that a padding keeps them (fixed[a].vector_bits), the widest vector in
 * elements (*step: a padding that is not a multiple of it misaligns one)
 * and the narrowest element in bytes. */
static cl_status fix_vectors(const cl_layout_t *smem, const cl_smem_access_t *accesses, int64_t n,
                             cl_smem_access_t *fixed, int64_t *step, int64_t *narrowest) {
  *step = 1;
  *narrowest = 16;
  for (int64_t a = 0; a < n; a++) {
    cl_bank_plan plan;
    CL_TRY(cl_bank_plan_make(&accesses[a], cl_layout_fn_of(cl_fn_layout(smem)), &plan));
    fixed[a] = accesses[a];
    fixed[a].vector_bits = plan.vector * accesses[a].bits;
    *step = plan.vector > *step ? plan.vector : *step;
    *narrowest = plan.elem_bytes < *narrowest ? plan.elem_bytes : *narrowest;
    cl_bank_plan_release(&plan);
  }
  return CL_OK;
}

/* Tries paddings of the leading stride, smallest first, up to 128 bytes of
 * the narrowest element (a whole turn of the banks), and takes one into
 * *choice when it has fewer wavefronts than *choice has; stops at the first
 * that is conflict-free. */
static cl_status try_paddings(const cl_layout_t *smem, const cl_smem_access_t *accesses, int64_t n,
                              cl_smem_access_t *fixed, cl_smem_choice_t *choice) {
  int64_t step, narrowest;
  CL_TRY(fix_vectors(smem, accesses, n, fixed, &step, &narrowest));
  int64_t turn = CL_BANKS * CL_BANK_BYTES / narrowest;
  for (int64_t pad = step; pad <= turn && choice->wavefronts > choice->ideal; pad += step) {
    cl_layout_t *padded = NULL;
    CL_TRY(padded_layout(smem, choice->leading, pad, &padded));
    int64_t w, ideal, cosize;
    cl_status s = totals_over(padded, fixed, n, &w, &ideal);
    if (s == CL_OK)
      s = cl_layout_cosize_checked(padded, &cosize);
    cl_layout_free(padded);
    if (s == CL_E_DOMAIN)
      continue; /* a vector split by the padding */
    CL_TRY(s);
    if (w < choice->wavefronts) {
      cl_swizzle_t none = {0, 0, 0};
      choice->swizzle = none;
      choice->padding = pad;
      choice->wavefronts = w;
      choice->ideal = ideal;
      choice->cosize = cosize;
    }
  }
  return CL_OK;
}

static cl_status choose(const cl_layout_t *smem, const cl_smem_access_t *accesses, int64_t n,
                        cl_smem_choice_t *choice, cl_layout_t **layout) {
  CL_TRY(cl_swizzle_search(smem, accesses, n, &choice->swizzle, &choice->wavefronts, &choice->ideal));
  CL_TRY(cl_layout_cosize_checked(smem, &choice->cosize));
  const cl_node *root = cl_lroot(smem);
  choice->leading = leading_of(cl_lshape(root), cl_lstride(root));
  if (choice->wavefronts > choice->ideal && choice->leading > 0) {
    cl_smem_access_t *fixed = cl_alloc((size_t)n * sizeof *fixed);
    if (fixed == NULL)
      return cl_fail(CL_E_NOMEM, "swizzle_search_padded: out of memory");
    cl_status s = try_paddings(smem, accesses, n, fixed, choice);
    cl_dealloc(fixed);
    CL_TRY(s);
  }
  if (choice->padding > 0)
    return padded_layout(smem, choice->leading, choice->padding, layout);
  return cl_layout_copy(smem, layout);
}

cl_status cl_swizzle_search_padded(const cl_layout_t *smem, const cl_smem_access_t *accesses, int64_t n,
                                   cl_smem_choice_t *choice, cl_layout_t **layout) {
  CHECK_NULL(layout);
  *layout = NULL;
  CHECK_NULL(choice);
  memset(choice, 0, sizeof *choice);
  cl_status s = choose(smem, accesses, n, choice, layout);
  if (s != CL_OK) {
    cl_layout_free(*layout);
    *layout = NULL;
    memset(choice, 0, sizeof *choice);
  }
  return s;
}
