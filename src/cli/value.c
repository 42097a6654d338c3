/* SPDX-License-Identifier: BSD-3-Clause */
/* value.c: values of the eval language and argument access for builtins. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "value.h"

static char error_text[512];

cl_status cli_fail(cl_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_text, sizeof error_text, fmt, ap);
  va_end(ap);
  return status;
}

const char *cli_error(void) { return error_text; }
void cli_clear_error(void) { error_text[0] = '\0'; }

/* Composed layouts belong to the swizzle builtins (fn_swizzle.c). */
void (*cli_composed_free)(void *composed) = cli_swizzle_free_composed;
char *(*cli_composed_format)(const void *composed) = cli_swizzle_format_composed;

void value_free(value *v) {
  cl_tuple_free(v->tuple);
  cl_layout_free(v->layout);
  if (v->composed != NULL && cli_composed_free != NULL)
    cli_composed_free(v->composed);
  free(v->text);
  cl_coord_tensor_free(v->ctensor);
  if (v->kind == V_ATOM)
    cli_atom_free(v->atom, v->num[0]);
  memset(v, 0, sizeof *v);
}

value value_of_tuple(cl_tuple_t *t) { return (value){.kind = V_TUPLE, .tuple = t}; }
value value_of_layout(cl_layout_t *l) { return (value){.kind = V_LAYOUT, .layout = l}; }
value value_of_bool(bool b) { return (value){.kind = V_BOOL, .num = {b}}; }
value value_of_text(char *text) { return (value){.kind = V_TEXT, .text = text}; }
value value_of_coord_tensor(cl_coord_tensor_t *t) { return (value){.kind = V_COORD, .ctensor = t}; }

cl_status value_of_int(int64_t i, value *out) {
  cl_tuple_t *t;
  cl_status s = cl_tuple_int(i, &t);
  *out = s == CL_OK ? value_of_tuple(t) : (value){0};
  return s;
}

static char *dup_text(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d != NULL)
    memcpy(d, s, n);
  return d;
}

char *value_format(const value *v) {
  char *s = NULL;
  char small[64];
  switch (v->kind) {
  case V_TUPLE:
    if (cl_tuple_to_string(v->tuple, &s) != CL_OK)
      return NULL;
    break;
  case V_LAYOUT:
    if (cl_layout_to_string(v->layout, &s) != CL_OK)
      return NULL;
    break;
  case V_BOOL: return dup_text(v->num[0] ? "true" : "false");
  case V_TAG: return dup_text(v->num[0] ? "LayoutRight" : "LayoutLeft");
  case V_SWIZZLE:
    snprintf(small, sizeof small, "Sw<%lld,%lld,%lld>", (long long)v->num[0], (long long)v->num[1], (long long)v->num[2]);
    return dup_text(small);
  case V_COMPOSED: return cli_composed_format ? cli_composed_format(v->composed) : NULL;
  case V_TEXT: return dup_text(v->text);
  case V_NAME: return dup_text(v->text);
  case V_ATOM: return cli_atom_format(v->atom, v->num[0]);
  case V_COORD: {
    int64_t n = cl_coord_tensor_format(v->ctensor, NULL, 0);
    char *text = n < 0 ? NULL : malloc((size_t)n + 1);
    if (text != NULL)
      cl_coord_tensor_format(v->ctensor, text, (size_t)n + 1);
    return text;
  }
  default: return dup_text("");
  }
  /* Library strings are freed with cl_string_free: copy into malloc'ed memory. */
  char *d = dup_text(s);
  cl_string_free(s);
  return d;
}

bool is_int(const value *v) { return v->kind == V_TUPLE && cl_tuple_kind(v->tuple) == CL_KIND_INT; }
bool is_tuple(const value *v) { return v->kind == V_TUPLE && cl_tuple_kind(v->tuple) == CL_KIND_TUPLE; }
bool is_layout(const value *v) { return v->kind == V_LAYOUT; }
bool is_coord_tensor(const value *v) { return v->kind == V_COORD; }

static const char *kind_name(const value *v) {
  switch (v->kind) {
  case V_TUPLE:
    switch (cl_tuple_kind(v->tuple)) {
    case CL_KIND_INT: return "an integer";
    case CL_KIND_UNDERSCORE: return "'_'";
    default: return "a tuple";
    }
  case V_LAYOUT: return "a layout";
  case V_BOOL: return "a boolean";
  case V_TAG: return "a layout tag";
  case V_SWIZZLE: return "a swizzle";
  case V_COMPOSED: return "a composed layout";
  case V_TEXT: return "a picture";
  case V_COORD: return "a coordinate tensor";
  default: return "nothing";
  }
}

cl_status arg_int(const char *fn, const value *args, int i, int64_t *out) {
  if (!is_int(&args[i]))
    return cli_fail(CL_E_TYPE, "%s: argument %d must be an integer, not %s", fn, i + 1, kind_name(&args[i]));
  return cl_tuple_value(args[i].tuple, out);
}

cl_status arg_tuple(const char *fn, const value *args, int i, const cl_tuple_t **out) {
  if (args[i].kind != V_TUPLE)
    return cli_fail(CL_E_TYPE, "%s: argument %d must be an integer or a tuple, not %s", fn, i + 1, kind_name(&args[i]));
  *out = args[i].tuple;
  return CL_OK;
}

cl_status arg_layout(const char *fn, const value *args, int i, const cl_layout_t **out) {
  if (args[i].kind != V_LAYOUT)
    return cli_fail(CL_E_TYPE, "%s: argument %d must be a layout, not %s", fn, i + 1, kind_name(&args[i]));
  *out = args[i].layout;
  return CL_OK;
}
