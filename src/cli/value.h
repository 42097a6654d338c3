/* SPDX-License-Identifier: BSD-3-Clause */
/* value.h: the values of the `cute-layout eval` expression language.
 *
 * The tool is a client of the public API only: every value is a public
 * handle (or a plain number), and every builtin calls the library. */
#ifndef CLI_VALUE_H
#define CLI_VALUE_H

#include <stdbool.h>
#include <cutelayout/cutelayout.h>

typedef enum value_kind {
  V_NONE = 0,
  V_TUPLE,    /* an integer, '_', an int tuple, or a tuple mixing layouts (a tiler) */
  V_LAYOUT,   /* a layout */
  V_BOOL,     /* true / false */
  V_TAG,      /* LayoutLeft (num[0] == 0) or LayoutRight (num[0] == 1) */
  V_SWIZZLE,  /* Sw<num[0],num[1],num[2]> */
  V_COMPOSED, /* a composed layout, ptr owned (see value_free) */
  V_TEXT,     /* a printed picture (print_layout, print1D): text owned */
  V_COORD,    /* a coordinate tensor (make_identity_tensor): ctensor owned */
  V_NAME,     /* a name that is no value by itself (a copy operation, an element type): text owned */
  V_ATOM      /* an MMA or copy atom, tiled or not (fn_atom.c): atom owned, num[0] its kind */
} value_kind;

typedef struct value {
  value_kind kind;
  cl_tuple_t *tuple;
  cl_layout_t *layout;
  void *composed;
  int64_t num[3];
  char *text;
  cl_coord_tensor_t *ctensor;
  void *atom;
} value;

/* How V_COMPOSED values are freed and printed: hooks that point to
 * fn_swizzle.c's functions, which own the composed-layout handles. */
extern void (*cli_composed_free)(void *composed);
extern char *(*cli_composed_format)(const void *composed);
void cli_swizzle_free_composed(void *composed);
char *cli_swizzle_format_composed(const void *composed);

/* V_ATOM values: freed and printed by fn_atom.c. */
void cli_atom_free(void *atom, int64_t kind);
char *cli_atom_format(const void *atom, int64_t kind);

void value_free(value *v);
/* The canonical text of v into a malloc'ed string (NULL on allocation failure). */
char *value_format(const value *v);

/* Constructors that take ownership of the handle. */
value value_of_tuple(cl_tuple_t *t);
value value_of_layout(cl_layout_t *l);
value value_of_bool(bool b);
value value_of_text(char *text);
value value_of_coord_tensor(cl_coord_tensor_t *t);
/* An integer value (allocates; V_NONE on failure). */
cl_status value_of_int(int64_t i, value *out);

/* ---- argument access for builtins ---- */
bool is_int(const value *v);
bool is_tuple(const value *v); /* V_TUPLE that is not a single integer or '_' */
bool is_layout(const value *v);
bool is_coord_tensor(const value *v);

/* Returns the status of expr from the calling function unless it is CL_OK. */
#define TRY(expr)                   \
  do {                              \
    cl_status try_status_ = (expr); \
    if (try_status_ != CL_OK)       \
      return try_status_;           \
  } while (0)

/* Records the message the tool prints after "error: " for the current
 * expression, and returns status.  Without it the library's cl_last_error()
 * (or the status string) is printed. */
cl_status cli_fail(cl_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
const char *cli_error(void);
void cli_clear_error(void);

/* Argument extraction: each fails with a message naming the function and the
 * argument position. */
cl_status arg_int(const char *fn, const value *args, int i, int64_t *out);
cl_status arg_tuple(const char *fn, const value *args, int i, const cl_tuple_t **out); /* any V_TUPLE */
cl_status arg_layout(const char *fn, const value *args, int i, const cl_layout_t **out);

#endif
