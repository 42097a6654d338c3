/* SPDX-License-Identifier: BSD-3-Clause */
/* atom.h: CuTe's MMA and copy atoms, tiled MMAs and tiled copies at run time.
 *
 * The catalog holds CuTe's atoms by CuTe's own names (cute/arch, cute/atom):
 *
 *   MMA atoms   SM61_DP4A, SM70_8x8x4_F32F16F16F32_NT,
 *               SM80_16x8x16_F32F16F16F32_TN, SM89_16x8x32_F32E4M3E4M3F32_TN,
 *               SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>
 *               (every N of CuTe's GMMA families, SS and RS),
 *               UniversalFMA<D,A,B,C>
 *   copy ops    UniversalCopy<T>, AutoVectorizingCopy,
 *               AutoVectorizingCopyWithAssumedAlignment<N>,
 *               SM50_Shuffle_U32_2x2Trans_XOR1/4, SM75_U32x{1,2,4}_LDSM_N,
 *               SM75_U16x{2,4,8}_LDSM_T, SM75_U32x1_MOVM_T,
 *               SM80_CP_ASYNC_CACHE{ALWAYS,GLOBAL}[_ZFILL]<S>,
 *               SM90_U32x{1,2,4}_STSM_N, SM90_U16x{2,4,8}_STSM_T and
 *               SM100's 8-bit LDSM/STSM
 *
 * Each atom's layouts are CuTe's traits (ThrID, Shape_MNK, ALayout, BLayout,
 * CLayout; ThrID, SrcLayout, DstLayout, RefLayout), printed as CuTe prints
 * them with every integer static.  A tiled MMA or tiled copy computes what
 * CuTe's TiledMMA / TiledCopy compute (get_layoutA_TV(), partition_A(), ...)
 * on those layouts.
 *
 * Errors: a name the catalog does not know is CL_E_DOMAIN, and
 * cl_last_error() names it; what CuTe rejects when it compiles (an element
 * type the copy instruction cannot move, an atom layout or a permutation of
 * more than three modes) is CL_E_TYPE or CL_E_RANK naming the condition; a
 * thread index outside the tiled MMA's or copy's threads is CL_E_DOMAIN
 * (CuTe computes a meaningless value there).
 *
 * Ownership: constructors return fresh handles through their last parameter
 * (NULL on failure), freed with the matching _free (which accepts NULL).
 * Handles are immutable and may be read by any number of threads. */
#ifndef CUTELAYOUT_ATOM_H
#define CUTELAYOUT_ATOM_H

#include "common.h"
#include "layout.h"
#include "swizzle.h"
#include "tensor.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cl_mma_atom cl_mma_atom_t;
typedef struct cl_copy_atom cl_copy_atom_t;
typedef struct cl_tiled_mma cl_tiled_mma_t;
typedef struct cl_tiled_copy cl_tiled_copy_t;

/* The operands of an MMA, D = A * B + C. */
typedef enum cl_mma_operand { CL_OPERAND_A = 0, CL_OPERAND_B = 1, CL_OPERAND_C = 2 } cl_mma_operand;

/* The sides of a copy: source, destination, and the traits' reference. */
typedef enum cl_copy_side { CL_COPY_SRC = 0, CL_COPY_DST = 1, CL_COPY_REF = 2 } cl_copy_side;

/* The instruction a copy atom stands for, as the bank-conflict model needs
 * it: ldmatrix (LDSM: reads shared memory), stmatrix (STSM: writes it),
 * cp.async (global to shared), or plain loads and stores. */
typedef enum cl_copy_kind {
  CL_COPY_PLAIN = 0,
  CL_COPY_LDMATRIX = 1,
  CL_COPY_STMATRIX = 2,
  CL_COPY_CP_ASYNC = 3
} cl_copy_kind;

/* The families of the catalog, for cl_atom_catalog_name(). */
typedef enum cl_atom_family {
  CL_ATOM_MMA = 0,       /* MMA operations (a GMMA family by one example name) */
  CL_ATOM_COPY = 1,      /* copy operations */
  CL_ATOM_TYPE = 2,      /* element types (half_t, float, ...) */
  CL_ATOM_SMEM = 3       /* GMMA shared-memory layout atoms (GMMA::Layout_K_SW128_Atom) */
} cl_atom_family;

/* ------------------------------------------------------------ the catalog */

/* The i-th name of a family of the catalog (static storage), or NULL when i
 * is past the end: for listings and "did you mean" suggestions.  Templated
 * names are given with an example argument. */
CL_API const char *cl_atom_catalog_name(cl_atom_family family, int64_t i);

/* The width in bits of a CuTe element type (`half_t` 16, `float` 32,
 * `uint128_t` 128, `float_e4m3_t` 8, ...): CL_E_DOMAIN if unknown. */
CL_API cl_status cl_atom_type_bits(const char *type, int64_t *bits);

/* A GMMA shared-memory layout atom, `GMMA::Layout_K_SW128_Atom<half_t>` (and
 * every Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>), in elements of T:
 * *swizzle_bits, *swizzle_base, *swizzle_shift are the swizzle Sw<B,M,S> on
 * element offsets (B = 0 for the INTER atoms, which have none) and *out the
 * layout it composes with.  CL_E_DOMAIN for an unknown name, CL_E_TYPE for
 * an element type wider than the atom's 16-byte unit. */
CL_API cl_status cl_gmma_smem_atom(const char *name, int32_t *swizzle_bits, int32_t *swizzle_base, int32_t *swizzle_shift,
                                   cl_layout_t **out);

/* ------------------------------------------------------------ MMA atoms */

/* The MMA atom of an operation's name with CuTe's template arguments
 * (white space between tokens is ignored): CL_E_DOMAIN for a name the
 * catalog does not have, CL_E_TYPE for template arguments CuTe rejects. */
CL_API cl_status cl_mma_atom_new(const char *name, cl_mma_atom_t **out);
/* Frees an MMA atom; NULL is a no-op. */
CL_API void cl_mma_atom_free(cl_mma_atom_t *atom);
/* The atom's canonical name (snprintf-style: writes at most cap bytes with
 * the terminating NUL, returns the length it needs; -1 for a NULL atom). */
CL_API int64_t cl_mma_atom_format(const cl_mma_atom_t *atom, char *buf, size_t cap);
/* The traits' ThrID: logical thread id -> thread index. */
CL_API cl_status cl_mma_atom_thr_id(const cl_mma_atom_t *atom, cl_layout_t **out);
/* The traits' Shape_MNK, an int tuple (M,N,K). */
CL_API cl_status cl_mma_atom_shape_mnk(const cl_mma_atom_t *atom, cl_tuple_t **out);
/* The traits' ALayout, BLayout or CLayout: (thread id, value) -> the
 * column-major index into the operand's (M,K), (N,K) or (M,N) tile. */
CL_API cl_status cl_mma_atom_layout_tv(const cl_mma_atom_t *atom, cl_mma_operand operand, cl_layout_t **out);
/* The width in bits of an operand's value type (ValTypeA, ValTypeB, ValTypeC). */
CL_API int64_t cl_mma_atom_value_bits(const cl_mma_atom_t *atom, cl_mma_operand operand);

/* ------------------------------------------------------------ copy atoms */

/* CuTe's Copy_Atom<OP, T>: `op` a copy operation's name with its template
 * arguments, `type` an element type.  CL_E_DOMAIN for unknown names;
 * CL_E_TYPE when T's width does not divide the bits the instruction moves
 * per thread (CuTe's "CopyOperation is not valid for Src of ValType"). */
CL_API cl_status cl_copy_atom_new(const char *op, const char *type, cl_copy_atom_t **out);
/* Frees a copy atom; NULL is a no-op. */
CL_API void cl_copy_atom_free(cl_copy_atom_t *atom);
/* The call that makes the atom, `copy_atom(OP,T)` (snprintf-style). */
CL_API int64_t cl_copy_atom_format(const cl_copy_atom_t *atom, char *buf, size_t cap);
/* The instruction kind (-1 for a NULL atom). */
CL_API cl_copy_kind cl_copy_atom_kind(const cl_copy_atom_t *atom);
/* The width in bits of the atom's value type T (-1 for a NULL atom). */
CL_API int64_t cl_copy_atom_value_bits(const cl_copy_atom_t *atom);
/* The bits one thread moves per instruction on a side (the size of the
 * side's value mode in bits; -1 for a NULL atom or a bad side). */
CL_API int64_t cl_copy_atom_access_bits(const cl_copy_atom_t *atom, cl_copy_side side);
/* The traits' ThrID. */
CL_API cl_status cl_copy_atom_thr_id(const cl_copy_atom_t *atom, cl_layout_t **out);
/* A side's (thread, value) -> offset layout, in bits (the traits'
 * SrcLayout, DstLayout, RefLayout) when `in_bits`, else in values of T (the
 * atom's ValLayoutSrc, ...: CuTe's recast_layout<uint1_t, T>). */
CL_API cl_status cl_copy_atom_layout(const cl_copy_atom_t *atom, cl_copy_side side, int in_bits, cl_layout_t **out);

/* ------------------------------------------------------------ tiled MMAs */

/* CuTe's make_tiled_mma(atom, atom_layout, permutation).  atom_layout is
 * NULL for (1,1,1):(0,0,0), or a layout of rank at most 3 (padded with 1:0
 * modes); permutation is NULL for (_,_,_), or a tuple of at most 3 elements
 * (layouts, integers or '_'; padded with '_').  CL_E_RANK for more modes. */
CL_API cl_status cl_make_tiled_mma(const cl_mma_atom_t *atom, const cl_layout_t *atom_layout,
                                   const cl_tuple_t *permutation, cl_tiled_mma_t **out);
/* Frees a tiled MMA; NULL is a no-op. */
CL_API void cl_tiled_mma_free(cl_tiled_mma_t *mma);
/* The call that makes it, in canonical form:
 * `make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0),(_,_,_))`. */
CL_API int64_t cl_tiled_mma_format(const cl_tiled_mma_t *mma, char *buf, size_t cap);
/* A copy of the tiled MMA's atom. */
CL_API cl_status cl_tiled_mma_atom(const cl_tiled_mma_t *mma, cl_mma_atom_t **out);
/* The number of threads, size(get_thr_layout_vmnk()) (-1 for NULL). */
CL_API int64_t cl_tiled_mma_size(const cl_tiled_mma_t *mma);
/* get_thr_layout_vmnk(): tiled_product(ThrID, atom_layout). */
CL_API cl_status cl_tiled_mma_thr_layout_vmnk(const cl_tiled_mma_t *mma, cl_layout_t **out);
/* (tile_size<0>, tile_size<1>, tile_size<2>) as an int tuple. */
CL_API cl_status cl_tiled_mma_tile_shape(const cl_tiled_mma_t *mma, cl_tuple_t **out);
/* get_layoutA_TV(), get_layoutB_TV(), get_layoutC_TV(): (thread index,
 * value) -> column-major index into the operand's tile. */
CL_API cl_status cl_tiled_mma_layout_tv(const cl_tiled_mma_t *mma, cl_mma_operand operand, cl_layout_t **out);
/* thrfrg_A/B/C of a layout: ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...))). */
CL_API cl_status cl_tiled_mma_thrfrg(const cl_tiled_mma_t *mma, cl_mma_operand operand, const cl_layout_t *layout,
                                     cl_layout_t **out);
/* get_slice(thr).partition_A/B/C of a tensor whose layout is `layout`: the
 * thread's layout and the offset of its first element.  CL_E_DOMAIN when thr
 * is outside [0, size). */
CL_API cl_status cl_tiled_mma_partition(const cl_tiled_mma_t *mma, cl_mma_operand operand, int64_t thr,
                                        const cl_layout_t *layout, cl_layout_t **out, int64_t *offset);
/* get_slice(thr).partition_A/B/C of a tensor whose layout is the composed
 * (e.g. swizzled) layout `tensor` = A o O o B, B a layout: CuTe's
 * partition applies to B and slices the composed result, so the thread's
 * offset folds into the composed layout (slice_and_offset of swizzle.h:
 * for a swizzle, the bits it does not mix come out in *offset, and the
 * result may decay to a plain layout).  Errors as cl_tiled_mma_partition;
 * CL_E_UNSUPPORTED when B is not a layout.  Either-or result (swizzle.h);
 * *offset is 0 on failure. */
CL_API cl_status cl_tiled_mma_partition_composed(const cl_tiled_mma_t *mma, cl_mma_operand operand, int64_t thr,
                                                 const cl_composed_t *tensor, cl_layout_t **layout,
                                                 cl_composed_t **composed, int64_t *offset);
/* The same partition of a tensor: a view of the same memory. */
CL_API cl_status cl_tiled_mma_partition_tensor(const cl_tiled_mma_t *mma, cl_mma_operand operand, int64_t thr,
                                               const cl_tensor_t *tensor, cl_tensor_t **out);

/* ------------------------------------------------------------ tiled copies */

/* CuTe's make_tiled_copy(copy_atom, thr_layout, val_layout): thr_layout maps
 * (m,n) to thread indices, val_layout (NULL: 1:0) (m,n) to value indices. */
CL_API cl_status cl_make_tiled_copy(const cl_copy_atom_t *atom, const cl_layout_t *thr_layout,
                                    const cl_layout_t *val_layout, cl_tiled_copy_t **out);
/* make_tiled_copy_A/B/C(copy_atom, tiled_mma): the copy whose threads hold
 * the operand's values as the tiled MMA does. */
CL_API cl_status cl_make_tiled_copy_operand(const cl_copy_atom_t *atom, const cl_tiled_mma_t *mma,
                                            cl_mma_operand operand, cl_tiled_copy_t **out);
/* Frees a tiled copy; NULL is a no-op. */
CL_API void cl_tiled_copy_free(cl_tiled_copy_t *copy);
/* The call that makes it, in canonical form (snprintf-style). */
CL_API int64_t cl_tiled_copy_format(const cl_tiled_copy_t *copy, char *buf, size_t cap);
/* A copy of the tiled copy's atom. */
CL_API cl_status cl_tiled_copy_atom(const cl_tiled_copy_t *copy, cl_copy_atom_t **out);
/* The number of threads, size<0>(TiledLayout_TV) (-1 for NULL). */
CL_API int64_t cl_tiled_copy_size(const cl_tiled_copy_t *copy);
/* The tiled copy's TiledLayout_TV: (thread, value) -> index into the tile. */
CL_API cl_status cl_tiled_copy_layout_tv(const cl_tiled_copy_t *copy, cl_layout_t **out);
/* Tiler_MN, the tile's shape, as an int tuple. */
CL_API cl_status cl_tiled_copy_tiler_mn(const cl_tiled_copy_t *copy, cl_tuple_t **out);
/* get_layoutS_TV() (CL_COPY_SRC) or get_layoutD_TV() (CL_COPY_DST):
 * (thread, value) -> index into the tile, as the side's instruction sees it. */
CL_API cl_status cl_tiled_copy_side_tv(const cl_tiled_copy_t *copy, cl_copy_side side, cl_layout_t **out);
/* tidfrg_S / tidfrg_D of a layout: (Thr, (FrgV...), RestM, RestN, ...). */
CL_API cl_status cl_tiled_copy_tidfrg(const cl_tiled_copy_t *copy, cl_copy_side side, const cl_layout_t *layout,
                                      cl_layout_t **out);
/* get_slice(thr).partition_S / partition_D of a tensor with layout `layout`:
 * the thread's layout and its offset.  CL_E_DOMAIN for thr outside the
 * tiled copy's threads. */
CL_API cl_status cl_tiled_copy_partition(const cl_tiled_copy_t *copy, cl_copy_side side, int64_t thr,
                                         const cl_layout_t *layout, cl_layout_t **out, int64_t *offset);
/* partition_S / partition_D of a tensor whose layout is the composed layout
 * `tensor` = A o O o B, as cl_tiled_mma_partition_composed does for a tiled
 * MMA.  Errors as cl_tiled_copy_partition; CL_E_UNSUPPORTED when B is not a
 * layout.  Either-or result; *offset is 0 on failure. */
CL_API cl_status cl_tiled_copy_partition_composed(const cl_tiled_copy_t *copy, cl_copy_side side, int64_t thr,
                                                  const cl_composed_t *tensor, cl_layout_t **layout,
                                                  cl_composed_t **composed, int64_t *offset);
/* The same partition of a tensor: a view of the same memory. */
CL_API cl_status cl_tiled_copy_partition_tensor(const cl_tiled_copy_t *copy, cl_copy_side side, int64_t thr,
                                                const cl_tensor_t *tensor, cl_tensor_t **out);
/* retile(layout): a thread's fragment (as partitioned by another tiled
 * object) regrouped by this copy's atom values: (AtomV, RestV, ...). */
CL_API cl_status cl_tiled_copy_retile(const cl_tiled_copy_t *copy, const cl_layout_t *layout, cl_layout_t **out);
/* retile of a fragment whose layout is the composed layout A o O o B, as
 * CuTe's retile of such a tensor gives: CuTe's steps on B, composed with A
 * and O, and sliced as a composed layout is (cl_composed_slice_and_offset):
 * a composed layout, or a plain layout where a swizzle decays, with *offset
 * the elements the tensor's data moves by (0 unless it decays).  Errors as
 * cl_tiled_copy_retile; CL_E_UNSUPPORTED when B is not a layout.  Either-or
 * result (swizzle.h); *offset is 0 on failure. */
CL_API cl_status cl_tiled_copy_retile_composed(const cl_tiled_copy_t *copy, const cl_composed_t *fragment,
                                               cl_layout_t **layout, cl_composed_t **composed, int64_t *offset);

#ifdef __cplusplus
}
#endif

#endif
