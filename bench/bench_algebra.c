/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_algebra.c: the `algebra` group of cute-layout-bench: ns per call of
 * the layout algebra on the examples of CuTe's documentation (layout algebra
 * chapter, 02_layout_algebra.md) and on GEMM tiles.
 *
 * A call is the whole public round trip: the operation on existing handles,
 * its result handle allocated, then freed.  The baseline, timed in the same
 * run, is cl_layout_copy of the operation's first input (plus the free): one
 * allocation, one memcpy of the nodes and the evaluation plan, i.e. the least
 * that any call returning a new handle of that size costs.  A ratio of 3x
 * means "as much as three handle copies".
 *
 * bench/pycute_algebra.py times the same workloads with pycute (the Python
 * reference), for the algebra table of docs/performance.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "bench_util.h"

typedef enum { ARG_LAYOUT, ARG_TILER, ARG_INT, ARG_NONE } arg_kind;

typedef struct algebra_case {
  const char *workload; /* the report name */
  const char *op;       /* which function */
  const char *a, *b;    /* texts of the inputs */
  arg_kind b_kind;
  const char *expected; /* CuTe's result (pycute's too), checked before timing */
  cl_layout_t *la, *lb;
  cl_tuple_t *tb;
  int64_t nb;
} algebra_case;

static const algebra_case cases[] = {
    /* 02_layout_algebra.md: composition examples */
    {"composition-doc", "composition", "(6,2):(8,2)", "(4,3):(3,1)", ARG_LAYOUT, "((2,2),3):((24,2),8)", 0, 0, 0, 0},
    {"composition-doc2", "composition", "20:2", "(5,4):(4,1)", ARG_LAYOUT, "(5,4):(8,2)", 0, 0, 0, 0},
    /* a 128x64 row-major shared-memory tile read through a 32x8 thread-value layout */
    {"composition-gemm", "composition", "(128,64):(64,1)", "((32,4),(8,2)):((4,512),(1,32))", ARG_LAYOUT, "((32,4),(8,2)):((256,4),(64,2048))", 0, 0, 0, 0},
    {"complement-doc", "complement", "(2,2):(1,6)", "24", ARG_INT, "(3,2):(2,12)", 0, 0, 0, 0},
    {"complement-gemm", "complement", "((4,8),(2,4)):((1,32),(4,256))", "4096", ARG_INT, "(4,4):(8,1024)", 0, 0, 0, 0},
    {"logical_divide-doc", "logical_divide", "(4,2,3):(2,1,8)", "4:2", ARG_LAYOUT, "((2,2),(2,3)):((4,1),(2,8))", 0, 0, 0, 0},
    /* a 128x128 column-major matrix divided into 32x16 tiles */
    {"logical_divide-gemm", "logical_divide_tiler", "(128,128):(1,128)", "(32:1,16:1)", ARG_TILER, "((32,4),(16,8)):((1,32),(128,2048))", 0, 0, 0, 0},
    {"logical_product-doc", "logical_product", "(2,2):(4,1)", "6:1", ARG_LAYOUT, "((2,2),(2,3)):((4,1),(2,8))", 0, 0, 0, 0},
    {"logical_product-gemm", "logical_product", "(8,8):(8,1)", "(4,16):(16,1)", ARG_LAYOUT, "((8,8),(4,16)):((8,1),(1024,64))", 0, 0, 0, 0},
    {"blocked_product-doc", "blocked_product", "(2,5):(5,1)", "(3,4):(1,3)", ARG_LAYOUT, "((2,3),(5,4)):((5,10),(1,30))", 0, 0, 0, 0},
    {"raked_product-doc", "raked_product", "(2,5):(5,1)", "(3,4):(1,3)", ARG_LAYOUT, "((3,2),(4,5)):((10,5),(30,1))", 0, 0, 0, 0},
    {"right_inverse-doc", "right_inverse", "(4,8):(8,1)", NULL, ARG_NONE, "(8,4):(4,1)", 0, 0, 0, 0},
    {"right_inverse-gemm", "right_inverse", "((8,4),(4,2)):((4,128),(1,32))", NULL, ARG_NONE, "(4,8,2):(32,1,128)", 0, 0, 0, 0},
    {"coalesce-doc", "coalesce", "(2,(1,6)):(1,(6,2))", NULL, ARG_NONE, "12:1", 0, 0, 0, 0},
    {"coalesce-hier", "coalesce", "((4,8),(2,(2,4))):((2,16),(1,(8,128)))", NULL, ARG_NONE, "(4,8,2,2,4):(2,16,1,8,128)", 0, 0, 0, 0},
};
#define NCASES (sizeof cases / sizeof cases[0])

static cl_status apply(const algebra_case *c, cl_layout_t **out) {
  const char *op = c->op;
  if (strcmp(op, "composition") == 0)
    return cl_composition(c->la, c->lb, out);
  if (strcmp(op, "complement") == 0)
    return cl_complement(c->la, c->nb, out);
  if (strcmp(op, "logical_divide") == 0)
    return cl_logical_divide(c->la, c->lb, out);
  if (strcmp(op, "logical_divide_tiler") == 0)
    return cl_logical_divide_tiler(c->la, c->tb, out);
  if (strcmp(op, "logical_product") == 0)
    return cl_logical_product(c->la, c->lb, out);
  if (strcmp(op, "blocked_product") == 0)
    return cl_blocked_product(c->la, c->lb, out);
  if (strcmp(op, "raked_product") == 0)
    return cl_raked_product(c->la, c->lb, out);
  if (strcmp(op, "right_inverse") == 0)
    return cl_right_inverse(c->la, out);
  return cl_coalesce(c->la, out);
}

/* The timed loops call the function directly (no dispatch by name). */
typedef cl_status (*binary_op)(const cl_layout_t *, const cl_layout_t *, cl_layout_t **);
typedef cl_status (*tiler_op)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);
typedef cl_status (*int_op)(const cl_layout_t *, int64_t, cl_layout_t **);
typedef cl_status (*unary_op)(const cl_layout_t *, cl_layout_t **);

typedef struct timed {
  const algebra_case *c;
  binary_op binary;
  tiler_op tiler;
  int_op with_int;
  unary_op unary;
} timed;

static void run_op(void *ctx, int64_t iters) {
  const timed *t = ctx;
  const algebra_case *c = t->c;
  int st = 0;
  for (int64_t k = 0; k < iters; k++) {
    cl_layout_t *r = NULL;
    if (t->binary)
      st |= t->binary(c->la, c->lb, &r);
    else if (t->tiler)
      st |= t->tiler(c->la, c->tb, &r);
    else if (t->with_int)
      st |= t->with_int(c->la, c->nb, &r);
    else
      st |= t->unary(c->la, &r);
    cl_layout_free(r);
  }
  bench_check(st, t->c->op);
}

static void run_copy(void *ctx, int64_t iters) {
  const timed *t = ctx;
  int st = 0;
  for (int64_t k = 0; k < iters; k++) {
    cl_layout_t *r = NULL;
    st |= cl_layout_copy(t->c->la, &r);
    cl_layout_free(r);
  }
  bench_check(st, "cl_layout_copy");
}

static timed timed_of(const algebra_case *c) {
  timed t = {c, NULL, NULL, NULL, NULL};
  const char *op = c->op;
  if (strcmp(op, "composition") == 0)
    t.binary = cl_composition;
  else if (strcmp(op, "complement") == 0)
    t.with_int = cl_complement;
  else if (strcmp(op, "logical_divide") == 0)
    t.binary = cl_logical_divide;
  else if (strcmp(op, "logical_divide_tiler") == 0)
    t.tiler = cl_logical_divide_tiler;
  else if (strcmp(op, "logical_product") == 0)
    t.binary = cl_logical_product;
  else if (strcmp(op, "blocked_product") == 0)
    t.binary = cl_blocked_product;
  else if (strcmp(op, "raked_product") == 0)
    t.binary = cl_raked_product;
  else if (strcmp(op, "right_inverse") == 0)
    t.unary = cl_right_inverse;
  else
    t.unary = cl_coalesce;
  return t;
}

/* ---- swizzle_search (banks.h) ---- */

/* The A tile of a GEMM, 128x128 halves with rows along K: 16-byte cp.async
 * writes by 16x8 threads and ldmatrix x4 reads of CuTe's tiled copy for 2x2
 * warps of 16x8x16 MMAs, both over the tile's (m,k) indices.  The baseline
 * is one bank_conflicts of each access over the plain layout: the search
 * costs that many full evaluations. */
typedef struct search_work {
  cl_layout_t *smem;
  cl_smem_access_t accesses[2];
} search_work;

static void run_search(void *ctx, int64_t iters) {
  search_work *w = ctx;
  for (int64_t i = 0; i < iters; i++) {
    cl_swizzle_t best;
    bench_check(cl_swizzle_search(w->smem, w->accesses, 2, &best, NULL, NULL), "cl_swizzle_search");
    bench_do_not_optimize(best.bits);
  }
}

static void run_bank_conflicts(void *ctx, int64_t iters) {
  search_work *w = ctx;
  for (int64_t i = 0; i < iters; i++)
    for (int k = 0; k < 2; k++) {
      cl_bank_report_t *r = NULL;
      bench_check(cl_bank_conflicts(&w->accesses[k], cl_layout_fn_of(cl_fn_layout(w->smem)), &r), "cl_bank_conflicts");
      cl_bank_report_free(r);
    }
}

static void bench_swizzle_search(void) {
  search_work w;
  cl_layout_t *cp = NULL, *ld = NULL;
  bench_check(cl_layout_parse("(128,128):(128,1)", &w.smem), "smem");
  bench_check(cl_layout_parse("((16,8),(8,16)):((1024,1),(128,8))", &cp), "cp.async TV");
  bench_check(cl_layout_parse("((16,2,2,2),(8,4,8)):((1,1024,16,0),(128,32,2048))", &ld), "ldmatrix TV");
  w.accesses[0] = (cl_smem_access_t){cp, 16, CL_SMEM_CP_ASYNC, 0, 0};
  w.accesses[1] = (cl_smem_access_t){ld, 16, CL_SMEM_LDMATRIX, 0, 4};
  cl_swizzle_t best;
  int64_t wavefronts, ideal;
  bench_check(cl_swizzle_search(w.smem, w.accesses, 2, &best, &wavefronts, &ideal), "cl_swizzle_search");
  if (wavefronts != ideal) {
    fprintf(stderr, "cute-layout-bench: swizzle_search found no conflict-free swizzle of the 128x128 tile\n");
    bench_check(CL_E_DOMAIN, "swizzle-search-128x128");
  }
  bench_pair vs_eval = bench_compare(run_search, &w, run_bank_conflicts, &w, 1);
  bench_report("algebra", "swizzle-search-128x128", vs_eval.a * 1e3, "ms", vs_eval.ratio, "bank-conflicts");
  cl_layout_free(cp);
  cl_layout_free(ld);
  cl_layout_free(w.smem);
}

void bench_algebra(void) {
  algebra_case work[NCASES];
  memcpy(work, cases, sizeof work);
  for (size_t k = 0; k < NCASES; k++) {
    algebra_case *c = &work[k];
    bench_check(cl_layout_parse(c->a, &c->la), c->a);
    if (c->b_kind == ARG_LAYOUT)
      bench_check(cl_layout_parse(c->b, &c->lb), c->b);
    else if (c->b_kind == ARG_TILER)
      bench_check(cl_tuple_parse(c->b, &c->tb), c->b);
    else if (c->b_kind == ARG_INT)
      c->nb = (int64_t)strtoll(c->b, NULL, 10);
    /* Time only correct calls: the documented results must come out. */
    cl_layout_t *r = NULL;
    bench_check(apply(c, &r), c->workload);
    char text[256];
    cl_layout_format(r, text, sizeof text);
    if (strcmp(text, c->expected) != 0) {
      fprintf(stderr, "cute-layout-bench: %s gave %s, CuTe gives %s\n", c->workload, text, c->expected);
      bench_check(CL_E_DOMAIN, c->workload);
    }
    cl_layout_free(r);
  }
  for (size_t k = 0; k < NCASES; k++) {
    timed t = timed_of(&work[k]);
    bench_pair vs_copy = bench_compare(run_op, &t, run_copy, &t, 1);
    bench_report("algebra", work[k].workload, vs_copy.a * 1e9, "ns", vs_copy.ratio, "layout-copy");
  }
  for (size_t k = 0; k < NCASES; k++) {
    cl_layout_free(work[k].la);
    cl_layout_free(work[k].lb);
    cl_tuple_free(work[k].tb);
  }
  bench_swizzle_search();
}
