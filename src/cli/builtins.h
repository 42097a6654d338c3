/* SPDX-License-Identifier: BSD-3-Clause */
/* builtins.h: the functions of the `cute-layout eval` language.
 *
 * Each group of functions lives in its own fn_*.c file and exports a table
 * ending in an entry with a NULL name; eval.c searches the tables in
 * cli_builtin_tables.  A builtin gets its evaluated arguments (it does not
 * own them) and stores its result in *out. */
#ifndef CLI_BUILTINS_H
#define CLI_BUILTINS_H

#include "value.h"

struct suggestion;

typedef cl_status (*builtin_fn)(const char *name, const value *args, int nargs, value *out);

typedef struct builtin {
  const char *name;
  int min_args, max_args; /* max_args < 0: any number */
  builtin_fn fn;
  const char *usage;      /* for --help and error messages */
} builtin;

extern const builtin cli_builtins_tuple[];
extern const builtin cli_builtins_layout[];
extern const builtin cli_builtins_print[];
extern const builtin cli_builtins_algebra[];
extern const builtin cli_builtins_tuple_ops[];
extern const builtin cli_builtins_swizzle[];
extern const builtin cli_builtins_coord[];
extern const builtin cli_builtins_layout_ops[];
extern const builtin cli_builtins_atom[];
extern const builtin cli_builtins_banks[];

/* Looks a name up in every table; NULL if unknown. */
const builtin *builtin_find(const char *name);
/* The entry for `name` in the tables before `table`: the one that an entry
 * of `table` extends with more argument forms (NULL if none). */
const builtin *builtin_find_before(const builtin *table, const char *name);
/* Calls that entry with the arguments (checking its argument count), or
 * fails naming `name` when there is none. */
cl_status builtin_delegate(const builtin *table, const char *name, const value *args, int nargs, value *out);
/* A pair (X, offset), X a layout or a composed layout (either one set; the
 * handle is taken over), as CuTe prints slice_and_offset's result. */
cl_status cli_pair_result(cl_layout_t *layout, cl_composed_t *composed, int64_t offset, value *out);
/* Calls fn for every builtin (for --help's list). */
void builtin_each(void (*fn)(const builtin *b, void *ctx), void *ctx);
/* The known function nearest to a misspelt name, or NULL (suggest.h). */
const char *builtin_nearest(const char *name);
/* Offers every function's name to a suggestion (suggest.h). */
void builtin_offer_names(struct suggestion *s);

#endif
