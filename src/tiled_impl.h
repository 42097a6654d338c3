/* SPDX-License-Identifier: BSD-3-Clause */
/* tiled_impl.h: the handles of tiled MMAs and tiled copies, and the small
 * text helpers their definitions are written with. */
#ifndef CUTELAYOUT_TILED_IMPL_H
#define CUTELAYOUT_TILED_IMPL_H

#include <stdarg.h>

#include "atom_impl.h"
#include "cutelayout/swizzle.h"

/* The longest text of a tiler or layout built while tiling an atom. */
#define CL_TILED_TEXT 4096

struct cl_tiled_mma {
  cl_mma_atom_t *atom;
  cl_layout_t *atom_layout; /* rank 3 */
  cl_tuple_t *permutation;  /* rank 3: layouts, integers, '_' */
  cl_layout_t *vmnk;        /* ThrLayoutVMNK */
};

/* How a tiled copy was made, for printing it as that call. */
typedef enum tiled_copy_origin { FROM_THR_VAL, FROM_MMA_A, FROM_MMA_B, FROM_MMA_C } tiled_copy_origin;

struct cl_tiled_copy {
  cl_copy_atom_t *atom;
  cl_layout_t *layout_tv; /* TiledLayout_TV */
  cl_tuple_t *tiler;      /* Tiler_MN, a shape */
  tiled_copy_origin origin;
  cl_layout_t *thr, *val; /* FROM_THR_VAL */
  cl_tiled_mma_t *mma;    /* FROM_MMA_* */
};

cl_status cl_text_layout(const cl_layout_t *l, char *buf, size_t cap);
cl_status cl_text_tuple(const cl_tuple_t *t, char *buf, size_t cap);
cl_status cl_tuple_printf(cl_tuple_t **out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
cl_status cl_layout_printf(cl_layout_t **out, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* composition(L, tiler) with the tiler as text. */
cl_status cl_compose_text(const cl_layout_t *l, const char *tiler_text, cl_layout_t **out);
/* size<i>(L), -1 if L has no mode i. */
int64_t cl_mode_size(const cl_layout_t *l, int64_t i);
/* tile_size<i>(tiled_mma). */
cl_status cl_tiled_mma_tile_size(const cl_tiled_mma_t *m, int64_t i, int64_t *out);
/* slice_and_offset(crd, composition(A, O, frg)) for a tensor whose layout
 * is the composed layout A o O o B and frg = f(B) (handed over, freed):
 * CuTe's thrfrg, tidfrg and divides of a composed layout apply to B and
 * compose A and O back.  Either-or result. */
cl_status cl_composed_partition_slice(const cl_composed_t *tensor, cl_layout_t *frg, const cl_tuple_t *crd,
                                      cl_layout_t **layout, cl_composed_t **composed, int64_t *offset);
/* A view of t's memory: the element at `offset` of t as offset 0 of `layout`. */
cl_status cl_tensor_view_at(const cl_tensor_t *t, int64_t offset, const cl_layout_t *layout, cl_tensor_t **out);

#endif
