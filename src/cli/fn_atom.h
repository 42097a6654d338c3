/* SPDX-License-Identifier: BSD-3-Clause */
/* fn_atom.h: atoms in the eval language (fn_atom.c). */
#ifndef CLI_FN_ATOM_H
#define CLI_FN_ATOM_H

#include "value.h"

/* The kinds of V_ATOM values (value.num[0]). */
typedef enum atom_kind { A_MMA_ATOM = 0, A_COPY_ATOM = 1, A_TILED_MMA = 2, A_TILED_COPY = 3 } atom_kind;

/* The value a name of the catalog stands for: an MMA atom, a shared-memory
 * layout atom, or a V_NAME (a copy operation, an element type).  *known is
 * false (and nothing is set) when the catalog does not have the name. */
cl_status cli_atom_name_value(const char *name, value *out, bool *known);
/* "unknown WHAT 'NAME'; did you mean '...'?" */
cl_status cli_unknown_atom(const char *what, const char *name);

/* The pictures of a tiled MMA (A, B, C) or a tiled copy (source,
 * destination): TV layouts on their tiles, for `cute-layout draw`. */
typedef struct atom_panels {
  int count;
  cl_layout_t *layout[3];
  int64_t rows[3], cols[3];
  const char *title[3];
} atom_panels;
cl_status cli_atom_panels(const value *v, atom_panels *p);
void cli_atom_panels_free(atom_panels *p);

#endif
