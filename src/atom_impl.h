/* SPDX-License-Identifier: BSD-3-Clause */
/* atom_impl.h: the atom catalog's tables and the handles of atom.h. */
#ifndef CUTELAYOUT_ATOM_IMPL_H
#define CUTELAYOUT_ATOM_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "cutelayout/atom.h"

/* An untemplated MMA atom: its name and its traits as canonical text. */
typedef struct cl_mma_row {
  const char *name;
  const char *thr_id, *shape_mnk, *a, *b, *c;
  int16_t bits_a, bits_b, bits_c; /* ValTypeA, ValTypeB, ValTypeC */
} cl_mma_row;

/* An untemplated copy operation: its traits' layouts, in bits. */
typedef struct cl_copy_row {
  const char *name;
  const char *thr_id, *src, *dst, *ref;
  cl_copy_kind kind;
} cl_copy_row;

/* One table per architecture family (atom_tables.c), each ending in a row
 * whose name is NULL. */
extern const cl_mma_row cl_mma_table_sm61[], cl_mma_table_sm70[], cl_mma_table_sm75[], cl_mma_table_sm80[],
    cl_mma_table_sm89[], cl_mma_table_sm100[], cl_mma_table_sm120[];
extern const cl_copy_row cl_copy_table_sm50[], cl_copy_table_sm75[], cl_copy_table_sm90[], cl_copy_table_sm100[];

/* The traits of an MMA atom as text, whichever family it comes from. */
typedef struct cl_mma_traits {
  char name[256]; /* canonical (a complex _SCALED UMMA with every argument is ~200) */
  char thr_id[64], shape_mnk[64], layout[3][128];
  int64_t bits[3];
} cl_mma_traits;

/* SM90 GMMA (atom_gmma.c): the traits of a GMMA name, 0 when the name is
 * no GMMA name at all, 1 when found, or a negative status (with a message)
 * for a GMMA name CuTe rejects. */
/* A template argument spelled `prefix` + one of `values` (NULL-ended), as
 * "GMMA::Major::K": the value's index, or -1 if it is none of them.  Shared
 * by the GMMA and UMMA name parsers. */
int cl_atom_enum_arg(const char *arg, const char *prefix, const char *const *values);

int cl_gmma_lookup(const char *name, cl_mma_traits *traits);
/* The i-th GMMA family as an example name, or NULL past the end. */
const char *cl_gmma_example(int64_t i);
/* SM100 UMMA (atom_umma.c): the same for SM100_MMA_<kind>_{SS,TS}<...>. */
int cl_umma_lookup(const char *name, cl_mma_traits *traits);
const char *cl_umma_example(int64_t i);

struct cl_mma_atom {
  char name[256];
  cl_layout_t *thr_id, *layout[3];
  /* An operand whose traits' layout is no layout (its stride not congruent
   * with its shape, as CuTe declares SM80's 16x8x128 POPC A): that text,
   * with layout[i] NULL; empty for the others. */
  char malformed[3][128];
  cl_tuple_t *shape_mnk;
  int64_t bits[3];
};

struct cl_copy_atom {
  char op[200];
  char type[32];
  int64_t type_bits;
  cl_copy_kind kind;
  cl_layout_t *thr_id;
  cl_layout_t *bits[3]; /* src, dst, ref in bits */
  cl_layout_t *vals[3]; /* the same in values of the type */
};

/* The atom's thread-value layout of an operand (borrowed), or CL_E_TYPE
 * naming the condition where CuTe's traits give no layout for it. */
cl_status cl_mma_atom_operand(const cl_mma_atom_t *atom, cl_mma_operand operand, const cl_layout_t **out);

/* A copy of an atom (for the tiled objects, which own theirs). */
cl_status cl_mma_atom_clone(const cl_mma_atom_t *atom, cl_mma_atom_t **out);
cl_status cl_copy_atom_clone(const cl_copy_atom_t *atom, cl_copy_atom_t **out);

/* The text of a call: `name(arg0,arg1,...)` of formatted pieces. */
int64_t cl_atom_snprintf(char *buf, size_t cap, const char *text);

#endif
