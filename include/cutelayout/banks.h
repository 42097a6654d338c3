/* SPDX-License-Identifier: BSD-3-Clause */
/* banks.h: shared-memory bank conflicts of a thread-value access, and the
 * search for the swizzle that removes them.
 *
 * The model is NVIDIA's for shared memory since Volta (checked against
 * Nsight Compute on an H100: docs/bank-conflicts.md): 32 banks, each 4 bytes
 * wide; a 4-byte word lives in bank (byte address / 4) mod 32.  An
 * instruction of a warp is served in groups of lanes: all 32 lanes for
 * accesses of up to 32 bits, half-warps (16 lanes) for 64-bit ones,
 * quarter-warps (8 lanes) for 128-bit ones and for each 8x8 matrix of
 * ldmatrix / stmatrix (its eight 16-byte rows).  A group takes as many
 * wavefronts as the most distinct words it asks of one bank (lanes reading
 * the same word share it), and an instruction the sum over its groups.
 *
 * Everything here is a pure function of layouts: no GPU is needed. */
#ifndef CUTELAYOUT_BANKS_H
#define CUTELAYOUT_BANKS_H

#include "common.h"
#include "layout.h"
#include "swizzle.h"
#include "atom.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The instruction an access stands for. */
typedef enum cl_smem_op {
  CL_SMEM_LOAD = 0,     /* ld.shared of 8 to 128 bits */
  CL_SMEM_STORE = 1,    /* st.shared of 8 to 128 bits */
  CL_SMEM_LDMATRIX = 2, /* ldmatrix: each lane names one 16-byte row, eight rows a matrix */
  CL_SMEM_STMATRIX = 3, /* stmatrix: the same rows, written */
  CL_SMEM_CP_ASYNC = 4  /* cp.async: its 4-, 8- or 16-byte writes to shared memory */
} cl_smem_op;

/* One access of a tile in shared memory: thread t's value v is tile index
 * tv(t, v) (tv a rank-2 layout (thread, value) -> index, as CuTe's TV
 * layouts are), elements of `bits` bits (8, 16, 32, 64 or 128).  Threads
 * 32k .. 32k+31 form warp k; each thread takes its values in order, as
 * vectors of vector_bits bits (0: the widest power of two, at most 128 bits,
 * that is contiguous and aligned in shared memory for every thread), and the
 * j-th vector of every thread of a warp is one instruction.  ldmatrix and
 * stmatrix take 128-bit vectors (each a row) and `matrices` (1, 2 or 4; 0
 * means 4) matrices an instruction, whose rows lanes 0 .. 8*matrices-1
 * name. */
typedef struct cl_smem_access {
  const cl_layout_t *tv; /* borrowed */
  int64_t bits;
  cl_smem_op op;
  int64_t vector_bits; /* 0: the widest the layouts allow */
  int64_t matrices;    /* ldmatrix / stmatrix only; 0: 4 */
} cl_smem_access_t;

/* The wavefronts of one instruction of one warp, given lanes[0..31], each
 * lane's byte address (-1: the lane takes no part), and the bytes each lane
 * moves (1, 2, 4, 8 or 16; 16 for ldmatrix / stmatrix rows).  *wavefronts is
 * the model's count; *ideal the fewest the same bytes could take: each served
 * group's words over 32, rounded up, summed over the groups.  Two details
 * were measured on an H100: a 64- or 128-bit ld.shared whose neighbouring
 * groups (half-warps; quarter-warps 0-1 and 2-3) each read one address
 * serves the two as one group, and cp.async lanes never share a word.
 * CL_E_DOMAIN for a width the op does not have or an address that is
 * negative (other than -1) or not a multiple of the width; CL_E_NULL for a
 * NULL pointer.  Either out pointer may be NULL. */
CL_API cl_status cl_smem_wavefronts(cl_smem_op op, const int64_t *lanes, int64_t bytes, int64_t *wavefronts,
                                    int64_t *ideal);

/* ---- the report of an access ---- */

typedef struct cl_bank_report cl_bank_report_t;

/* One instruction of a report: warp `warp`'s `index`-th vector. */
typedef struct cl_bank_instruction {
  int64_t warp;
  int64_t index;
  int64_t bytes;      /* bytes each lane moves */
  int64_t wavefronts; /* on the model */
  int64_t ideal;      /* the fewest possible for the same bytes */
} cl_bank_instruction_t;

/* bank_conflicts(access, smem): every instruction of the access over the
 * shared-memory layout smem (a layout or a composed layout such as
 * Sw<3,3,3> o 0 o (8,64):(64,1), mapping tile indices to element offsets,
 * offset 0 at a 128-byte boundary).  *out is a fresh report
 * (cl_bank_report_free).  Errors: CL_E_NULL; CL_E_RANK unless tv has rank 2;
 * CL_E_DOMAIN for an element width or vector width the model lacks, a tile
 * index outside smem's domain, a negative offset, a vector_bits that is not
 * contiguous and aligned for every thread, ldmatrix / stmatrix rows that are
 * not, or cp.async vectors under 4 bytes; CL_E_TYPE for a coordinate layout
 * or a bare swizzle as smem; CL_E_LIMIT for an access of more than 2^24
 * values; CL_E_NOMEM. */
CL_API cl_status cl_bank_conflicts(const cl_smem_access_t *access, cl_layout_fn_t smem, cl_bank_report_t **out);
/* bank_conflicts(tiled_copy, smem): the same for a tiled copy's own
 * instructions over one tile.  The shared-memory side is the one its atom's
 * instruction reads or writes there: the source of ldmatrix (LDSM), the
 * destination of stmatrix (STSM) and cp.async, otherwise the source (a plain
 * copy counted as loads); the access is that side's TV layout
 * (get_layoutS_TV / get_layoutD_TV), of the atom's element width, each
 * thread moving the atom's bits on that side an instruction, and ldmatrix /
 * stmatrix taking the matrices the atom's register side holds (x1, x2, x4).
 * Errors as cl_bank_conflicts, and CL_E_NULL for a NULL copy. */
CL_API cl_status cl_bank_conflicts_tiled_copy(const cl_tiled_copy_t *copy, cl_layout_fn_t smem,
                                              cl_bank_report_t **out);
/* NULL is a no-op. */
CL_API void cl_bank_report_free(cl_bank_report_t *report);
/* The number of instructions (all warps), or a negative status for NULL. */
CL_API int64_t cl_bank_report_count(const cl_bank_report_t *report);
/* Instruction i, 0 <= i < count, warp by warp (CL_E_DOMAIN outside). */
CL_API cl_status cl_bank_report_instruction(const cl_bank_report_t *report, int64_t i, cl_bank_instruction_t *out);
/* The tile index and shared-memory element offset of lane `lane`'s first
 * element in instruction i, both -1 for a lane that takes no part
 * (CL_E_DOMAIN for i or lane out of range).  Either out pointer may be NULL. */
CL_API cl_status cl_bank_report_lane(const cl_bank_report_t *report, int64_t i, int64_t lane, int64_t *tile_index,
                                     int64_t *offset);
/* The sums of wavefronts and of ideals over all instructions (either pointer
 * may be NULL). */
CL_API cl_status cl_bank_report_totals(const cl_bank_report_t *report, int64_t *wavefronts, int64_t *ideal);

/* ---- swizzle search ---- */

/* swizzle_search: the swizzle Sw<B,M,S> for which Sw<B,M,S> o 0 o smem
 * takes the fewest total wavefronts over the n accesses, each keeping the
 * vector width it has over smem itself (so 2^M elements at least span each
 * vector).  Candidates are CuTe's swizzles with 0 <= B <= 5 whose bits lie
 * inside smem's cosize and whose zzz bits touch the bytes that choose a bank;
 * ties go to the smallest B, then the smallest M, then the smallest S, so
 * Sw<0,0,0> (no swizzle) when nothing beats smem itself.  *wavefronts and
 * *ideal (either may be NULL) are the totals of the chosen layout.  Errors
 * as cl_bank_conflicts for each access over smem, and CL_E_DOMAIN for n < 1. */
CL_API cl_status cl_swizzle_search(const cl_layout_t *smem, const cl_smem_access_t *accesses, int64_t n,
                                   cl_swizzle_t *best, int64_t *wavefronts, int64_t *ideal);

/* ---- swizzle or padding ---- */

/* What cl_swizzle_search_padded chose: a swizzle over smem, or smem with
 * its leading stride padded, never both. */
typedef struct cl_smem_choice {
  cl_swizzle_t swizzle; /* Sw<0,0,0> unless a swizzle was chosen */
  int64_t leading;      /* smem's leading stride (0 when it has none) */
  int64_t padding;      /* elements added to it; 0 unless padding was chosen */
  int64_t wavefronts;   /* the totals of the chosen layout */
  int64_t ideal;
  int64_t cosize; /* the chosen layout's cosize: the elements it spans */
} cl_smem_choice_t;

/* swizzle_search_padded: cl_swizzle_search, and where no swizzle makes every
 * instruction of the accesses conflict-free, smem with its leading stride
 * padded as well.  The leading stride n is smem's smallest integer stride
 * above 1 of a mode of more than one element (a row's length in a
 * row-major tile); padding it by p elements turns every stride q*n (q >= 1)
 * into q*(n+p), so the rows stay in order, each p elements longer.
 * Paddings go from 1 element to a whole turn of the banks (128 bytes of the
 * narrowest element), smallest first, each access keeping the vector width
 * it has over smem (a padding that breaks one is not tried).  The result is
 * the one with the fewest total wavefronts, then the least memory: the
 * swizzle (which pads nothing) on a tie, else the smallest padding.
 * *layout is a fresh plain layout (cl_layout_free): smem itself when a
 * swizzle (or nothing) was chosen, so that the answer is
 * Sw<B,M,S> o 0 o *layout, or the padded layout, which is the answer.
 * Errors as cl_swizzle_search, CL_E_NULL for a NULL choice or layout, and
 * CL_E_NOMEM; on failure *choice is zeroed and *layout NULL. */
CL_API cl_status cl_swizzle_search_padded(const cl_layout_t *smem, const cl_smem_access_t *accesses, int64_t n,
                                          cl_smem_choice_t *choice, cl_layout_t **layout);

#ifdef __cplusplus
}
#endif

#endif
