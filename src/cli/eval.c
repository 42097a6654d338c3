/* SPDX-License-Identifier: BSD-3-Clause */
/* eval.c: the expression language of `cute-layout eval` (CONTRACT.md).
 *
 *   expr    := layout ('o' layout)*          a composed layout when 'o' appears
 *   layout  := primary [':' primary]         SHAPE:STRIDE
 *   primary := INT ('@' INT)* | '(' [expr (',' expr)*] ')' | NAME | NAME '(' [expr (',' expr)*] ')'
 *            | 'Sw' '<' INT ',' INT ',' INT '>'
 *
 * INT@i@j is a scaled basis, CuTe's E<j,i>{} * INT (tuple.h).
 *
 * Expressions are evaluated as they are parsed.  Nesting is bounded so that
 * hostile input cannot exhaust the stack. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "eval.h"
#include "fn_atom.h"
#include "suggest.h"

#define MAX_NESTING 256
#define MAX_ARGS 64

typedef struct parser {
  const char *text;
  size_t pos;
  int depth;
} parser;

static void skip_space(parser *p) {
  while (isspace((unsigned char)p->text[p->pos]))
    p->pos++;
}

static cl_status expected(parser *p, const char *what) {
  char c = p->text[p->pos];
  if (c == '\0')
    return cli_fail(CL_E_PARSE, "column %zu: expected %s, found the end of the expression", p->pos + 1, what);
  if (isprint((unsigned char)c))
    return cli_fail(CL_E_PARSE, "column %zu: expected %s, found '%c'", p->pos + 1, what, c);
  return cli_fail(CL_E_PARSE, "column %zu: expected %s, found byte 0x%02x", p->pos + 1, what, (unsigned char)c);
}

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The name at the current position (not consumed): its length. */
static size_t name_length(const parser *p) {
  size_t n = 0;
  if (!is_name_start(p->text[p->pos]))
    return 0;
  while (is_name_char(p->text[p->pos + n]))
    n++;
  return n;
}

static cl_status parse_expr(parser *p, value *out);

static cl_status parse_int_literal(parser *p, int64_t *out) {
  size_t start = p->pos;
  bool negative = p->text[p->pos] == '-';
  if (negative)
    p->pos++;
  if (!isdigit((unsigned char)p->text[p->pos]))
    return expected(p, "a digit");
  int64_t v = 0;
  while (isdigit((unsigned char)p->text[p->pos])) {
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, p->text[p->pos] - '0', &v))
      return cli_fail(CL_E_OVERFLOW, "column %zu: integer does not fit in 64 bits", start + 1);
    p->pos++;
  }
  if (!negative) {
    if (v == INT64_MIN)
      return cli_fail(CL_E_OVERFLOW, "column %zu: integer does not fit in 64 bits", start + 1);
    v = -v;
  }
  *out = v;
  return CL_OK;
}

/* After an integer k: '@' i '@' j ... makes the scaled basis k@i@j, whose
 * path is CuTe's E<..., j, i> (innermost index written first). */
static cl_status parse_basis_path(parser *p, int64_t scale, value *out) {
  int64_t path[64];
  int n = 0;
  for (;;) {
    size_t before = p->pos;
    skip_space(p);
    if (p->text[p->pos] != '@') {
      p->pos = before;
      break;
    }
    p->pos++;
    skip_space(p);
    if (!isdigit((unsigned char)p->text[p->pos]))
      return expected(p, "a basis index (a non-negative integer)");
    if (n == 64)
      return cli_fail(CL_E_LIMIT, "column %zu: a scaled basis of more than 64 indices", p->pos + 1);
    TRY(parse_int_literal(p, &path[n]));
    n++;
  }
  if (n == 0)
    return value_of_int(scale, out);
  int64_t order[64];
  for (int k = 0; k < n; k++)
    order[k] = path[n - 1 - k];
  cl_tuple_t *t = NULL;
  TRY(cl_tuple_basis(scale, order, n, &t));
  *out = value_of_tuple(t);
  return CL_OK;
}

static void free_values(value *vs, int n) {
  for (int i = 0; i < n; i++)
    value_free(&vs[i]);
}

/* '(' [expr (',' expr)*] ')' into args; *n is the count. */
static cl_status parse_list(parser *p, value *args, int *n) {
  *n = 0;
  p->pos++; /* '(' */
  skip_space(p);
  if (p->text[p->pos] == ')') {
    p->pos++;
    return CL_OK;
  }
  for (;;) {
    if (*n == MAX_ARGS) {
      free_values(args, *n);
      return cli_fail(CL_E_LIMIT, "column %zu: more than %d elements in one list", p->pos + 1, MAX_ARGS);
    }
    cl_status s = parse_expr(p, &args[*n]);
    if (s != CL_OK) {
      free_values(args, *n);
      return s;
    }
    (*n)++;
    skip_space(p);
    if (p->text[p->pos] == ',') {
      p->pos++;
      continue;
    }
    if (p->text[p->pos] == ')') {
      p->pos++;
      return CL_OK;
    }
    free_values(args, *n);
    return expected(p, "',' or ')'");
  }
}

/* A tuple value from evaluated elements: integers, '_', tuples and layouts. */
static cl_status make_tuple_value(const value *elems, int n, size_t column, value *out) {
  const cl_tuple_t *parts[MAX_ARGS];
  cl_tuple_t *owned[MAX_ARGS];
  int nowned = 0;
  cl_status s = CL_OK;
  for (int i = 0; i < n && s == CL_OK; i++) {
    if (elems[i].kind == V_TUPLE) {
      parts[i] = elems[i].tuple;
    } else if (elems[i].kind == V_LAYOUT) {
      s = cl_tuple_from_layout(elems[i].layout, &owned[nowned]);
      if (s == CL_OK)
        parts[i] = owned[nowned++];
    } else {
      s = cli_fail(CL_E_TYPE, "column %zu: element %d of a tuple must be an integer, a tuple or a layout", column, i + 1);
    }
  }
  cl_tuple_t *t = NULL;
  if (s == CL_OK)
    s = cl_tuple_make(parts, n, &t);
  for (int i = 0; i < nowned; i++)
    cl_tuple_free(owned[i]);
  if (s == CL_OK)
    *out = value_of_tuple(t);
  return s;
}

/* "column N: unknown function 'NAME'", and the known function nearest to it. */
static cl_status unknown_function(const char *name, size_t column) {
  const char *near = builtin_nearest(name);
  if (near != NULL)
    return cli_fail(CL_E_DOMAIN, "column %zu: unknown function '%s'; did you mean '%s'?", column, name, near);
  return cli_fail(CL_E_DOMAIN, "column %zu: unknown function '%s'", column, name);
}

/* Does msg start with the function's name, as "NAME: ...", "NAME<...>" or
 * "NAME(...)"? */
static bool names_function(const char *msg, const char *name) {
  size_t n = strlen(name);
  return strncmp(msg, name, n) == 0 && (msg[n] == ':' || msg[n] == '<' || msg[n] == '(');
}

/* The message of a failed call names the function: arguments are evaluated
 * before the call, so a call that fails is the innermost one that did, and
 * its name goes in front of whatever the builtin or the library said. */
static cl_status call_failed(const char *name, cl_status status) {
  const char *msg = eval_error_message(status);
  if (names_function(msg, name))
    return msg == cli_error() ? status : cli_fail(status, "%s", msg);
  char detail[512];
  snprintf(detail, sizeof detail, "%s", msg); /* msg may be cli_fail's own buffer */
  return cli_fail(status, "%s: %s", name, detail);
}

static cl_status call_builtin(const char *name, size_t column, value *args, int nargs, value *out) {
  const builtin *b = builtin_find(name);
  cl_status s;
  if (b == NULL) {
    s = unknown_function(name, column);
  } else if (nargs < b->min_args || (b->max_args >= 0 && nargs > b->max_args)) {
    s = cli_fail(CL_E_RANK, "%s: wrong number of arguments (%d); usage: %s", name, nargs, b->usage);
  } else {
    cli_clear_error();
    s = b->fn(name, args, nargs, out);
    if (s != CL_OK)
      s = call_failed(name, s);
  }
  free_values(args, nargs);
  return s;
}

static cl_status parse_swizzle_literal(parser *p, value *out) {
  /* 'Sw' '<' INT ',' INT ',' INT '>' */
  p->pos += 2;
  int64_t num[3];
  for (int i = 0; i < 3; i++) {
    skip_space(p);
    if (p->text[p->pos] != (i == 0 ? '<' : ','))
      return expected(p, i == 0 ? "'<'" : "','");
    p->pos++;
    skip_space(p);
    TRY(parse_int_literal(p, &num[i]));
  }
  skip_space(p);
  if (p->text[p->pos] != '>')
    return expected(p, "'>'");
  p->pos++;
  value args[3];
  for (int i = 0; i < 3; i++) {
    cl_status s = value_of_int(num[i], &args[i]);
    if (s != CL_OK) {
      free_values(args, i);
      return s;
    }
  }
  return call_builtin("Swizzle", p->pos, args, 3, out);
}

/* The names that are values, not calls. */
static const char *const value_names[] = {"_", "LayoutLeft", "LayoutRight", "true", "false", NULL};

/* A name that is no value: a function called without arguments, or a
 * misspelt value or function. */
static cl_status unknown_name(const char *name, size_t column) {
  if (builtin_find(name) != NULL)
    return cli_fail(CL_E_PARSE, "column %zu: '%s' is a function: call it as %s(...)", column, name, name);
  suggestion near = suggestion_start(name);
  for (size_t i = 0; value_names[i] != NULL; i++)
    suggestion_offer(&near, value_names[i]);
  builtin_offer_names(&near);
  if (suggestion_result(&near) != NULL)
    return cli_fail(CL_E_PARSE, "column %zu: unknown name '%s'; did you mean '%s'?", column, name, suggestion_result(&near));
  return cli_fail(CL_E_PARSE, "column %zu: unknown name '%s'", column, name);
}

/* A name of CuTe's catalog of atoms (fn_atom.h), or an unknown name. */
static cl_status atom_name(const char *name, size_t column, value *out) {
  /* a function's name without its call is not a misspelt atom */
  if (builtin_find(name) != NULL)
    return unknown_name(name, column);
  bool known;
  cl_status s = cli_atom_name_value(name, out, &known);
  if (known && s != CL_OK) {
    char detail[512];
    snprintf(detail, sizeof detail, "%s", eval_error_message(s));
    return cli_fail(s, "column %zu: %s", column, detail);
  }
  if (known)
    return s;
  bool near = strstr(cli_unknown_atom("name", name) == CL_E_DOMAIN ? cli_error() : "", "did you mean") != NULL;
  if (near || strchr(name, '<') != NULL || strchr(name, ':') != NULL || strncmp(name, "SM", 2) == 0) {
    char detail[512];
    snprintf(detail, sizeof detail, "%s", cli_error());
    return cli_fail(CL_E_DOMAIN, "column %zu: %s", column, detail);
  }
  return unknown_name(name, column);
}

/* Appends to name (a C++ name just read) the rest of a qualified or
 * templated name: `::NAME` parts and one `<...>` of template arguments
 * (nested brackets allowed), white space dropped, as CuTe's atoms are
 * written: GMMA::Layout_K_SW128_Atom<half_t>,
 * SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>. */
static cl_status parse_qualified_name(parser *p, char *name, size_t cap, size_t column) {
  size_t n = strlen(name);
  for (;;) {
    size_t at = p->pos;
    while (isspace((unsigned char)p->text[at]))
      at++;
    if (p->text[at] == ':' && p->text[at + 1] == ':') {
      at += 2;
      while (isspace((unsigned char)p->text[at]))
        at++;
      size_t k = 0;
      if (!is_name_start(p->text[at]))
        return cli_fail(CL_E_PARSE, "column %zu: expected a name after '::'", at + 1);
      while (is_name_char(p->text[at + k]))
        k++;
      if (n + k + 3 >= cap)
        return cli_fail(CL_E_PARSE, "column %zu: name too long", column);
      memcpy(name + n, "::", 2);
      memcpy(name + n + 2, p->text + at, k);
      n += k + 2;
      name[n] = '\0';
      p->pos = at + k;
      continue;
    }
    if (p->text[at] == '<' && strchr(name, '<') == NULL) {
      int depth = 0;
      do {
        char c = p->text[at];
        if (c == '\0')
          return cli_fail(CL_E_PARSE, "column %zu: '<' of the template arguments is never closed", column);
        depth += c == '<' ? 1 : c == '>' ? -1 : 0;
        if (!isspace((unsigned char)c)) {
          if (n + 2 >= cap)
            return cli_fail(CL_E_PARSE, "column %zu: name too long", column);
          name[n++] = c;
        }
        at++;
      } while (depth > 0);
      name[n] = '\0';
      p->pos = at;
      continue;
    }
    return CL_OK;
  }
}

/* The whitepaper's mode-targeted call name[i,j,...](args...): the builtin
 * `name[]` with the mode's indices after the arguments. */
static cl_status parse_mode_call(parser *p, const char *name, size_t column, value *out) {
  int64_t mode[MAX_ARGS];
  int nmode = 0;
  p->pos++; /* '[' */
  for (;;) {
    skip_space(p);
    if (nmode == MAX_ARGS)
      return cli_fail(CL_E_LIMIT, "column %zu: a mode path of more than %d indices", p->pos + 1, MAX_ARGS);
    TRY(parse_int_literal(p, &mode[nmode++]));
    skip_space(p);
    if (p->text[p->pos] == ']')
      break;
    if (p->text[p->pos] != ',')
      return expected(p, "',' or ']'");
    p->pos++;
  }
  p->pos++;
  skip_space(p);
  if (p->text[p->pos] != '(')
    return expected(p, "'(' and the arguments of the mode-targeted call");
  char targeted[80];
  snprintf(targeted, sizeof targeted, "%s[]", name);
  if (builtin_find(targeted) == NULL)
    return cli_fail(CL_E_PARSE, "column %zu: %s has no mode-targeted form %s[mode](...)", column, name, name);
  value args[MAX_ARGS];
  int n;
  TRY(parse_list(p, args, &n));
  if (n + nmode > MAX_ARGS) {
    free_values(args, n);
    return cli_fail(CL_E_LIMIT, "column %zu: too many arguments and mode indices", column);
  }
  for (int k = 0; k < nmode; k++) {
    cl_status s = value_of_int(mode[k], &args[n]);
    if (s != CL_OK) {
      free_values(args, n);
      return s;
    }
    n++;
  }
  return call_builtin(targeted, column, args, n, out);
}

static cl_status parse_primary(parser *p, value *out) {
  skip_space(p);
  size_t column = p->pos + 1;
  char c = p->text[p->pos];
  if (c == '-' || isdigit((unsigned char)c)) {
    int64_t v;
    TRY(parse_int_literal(p, &v));
    return parse_basis_path(p, v, out);
  }
  if (c == '(') {
    value elems[MAX_ARGS];
    int n;
    TRY(parse_list(p, elems, &n));
    cl_status s = make_tuple_value(elems, n, column, out);
    free_values(elems, n);
    return s;
  }
  size_t len = name_length(p);
  if (len == 0)
    return expected(p, "an integer, '(', '_' or a name");
  if (len == 2 && strncmp(p->text + p->pos, "Sw", 2) == 0) {
    size_t after = p->pos + 2;
    while (isspace((unsigned char)p->text[after]))
      after++;
    if (p->text[after] == '<')
      return parse_swizzle_literal(p, out);
  }
  char name[256];
  if (len >= 64)
    return cli_fail(CL_E_PARSE, "column %zu: name too long", column);
  memcpy(name, p->text + p->pos, len);
  name[len] = '\0';
  p->pos += len;
  TRY(parse_qualified_name(p, name, sizeof name, column));
  skip_space(p);
  if (strchr(name, '<') != NULL || strchr(name, ':') != NULL)
    return atom_name(name, column, out);
  if (p->text[p->pos] == '[')
    return parse_mode_call(p, name, column, out);
  if (p->text[p->pos] == '(') {
    value args[MAX_ARGS];
    int n;
    TRY(parse_list(p, args, &n));
    return call_builtin(name, column, args, n, out);
  }
  if (strcmp(name, "_") == 0) {
    cl_tuple_t *t;
    TRY(cl_tuple_underscore(&t));
    *out = value_of_tuple(t);
    return CL_OK;
  }
  if (strcmp(name, "LayoutLeft") == 0 || strcmp(name, "LayoutRight") == 0) {
    *out = (value){.kind = V_TAG, .num = {name[6] == 'R'}};
    return CL_OK;
  }
  if (strcmp(name, "true") == 0 || strcmp(name, "false") == 0) {
    *out = value_of_bool(name[0] == 't');
    return CL_OK;
  }
  return atom_name(name, column, out);
}

/* primary [':' primary]: a layout literal or expression. */
static cl_status parse_layout(parser *p, value *out) {
  value shape;
  skip_space(p);
  size_t shape_column = p->pos + 1;
  TRY(parse_primary(p, &shape));
  skip_space(p);
  if (p->text[p->pos] != ':') {
    *out = shape;
    return CL_OK;
  }
  size_t column = p->pos + 1;
  p->pos++;
  value stride;
  cl_status s = parse_primary(p, &stride);
  if (s != CL_OK) {
    value_free(&shape);
    return s;
  }
  cl_layout_t *l = NULL;
  if (shape.kind != V_TUPLE || stride.kind != V_TUPLE)
    s = cli_fail(CL_E_TYPE, "column %zu: a layout is SHAPE:STRIDE with int tuples on both sides", column);
  else
    s = cl_layout_make(shape.tuple, stride.tuple, &l);
  if (s == CL_E_RANK)
    s = cli_fail(s, "column %zu: the stride is not congruent with the shape", column);
  else if (s == CL_E_DOMAIN) /* a negative extent */
    s = cli_fail(s, "column %zu: %s", shape_column, cl_last_error());
  value_free(&shape);
  value_free(&stride);
  if (s == CL_OK)
    *out = value_of_layout(l);
  return s;
}

/* Is the next token the composition operator 'o' (a lone letter o)? */
static bool at_compose_operator(parser *p) {
  skip_space(p);
  return p->text[p->pos] == 'o' && !is_name_char(p->text[p->pos + 1]);
}

/* The chain F0 o K1 o F1 o ... o Fm (or the short F0 o F1), nested to the
 * right as CuTe's composition(C, X) nests: F0 o K1 o (F1 o K2 o (...)).
 * Takes the values. */
static cl_status nest_composed(value *parts, int n, size_t column, value *out) {
  if (n <= 3)
    return call_builtin("make_composed_layout", column, parts, n, out);
  if (n % 2 == 0) {
    free_values(parts, n);
    return cli_fail(CL_E_PARSE, "column %zu: a composed layout is OUTER o OFFSET o INNER (each side may be one itself)",
                    column);
  }
  value acc;
  cl_status s = call_builtin("make_composed_layout", column, parts + n - 3, 3, &acc);
  int k = n - 3;
  while (k > 0) {
    k -= 2;
    if (s != CL_OK) {
      value_free(&parts[k]);
      value_free(&parts[k + 1]);
      continue;
    }
    value args[3] = {parts[k], parts[k + 1], acc};
    s = call_builtin("make_composed_layout", column, args, 3, &acc);
  }
  if (s == CL_OK)
    *out = acc;
  return s;
}

static cl_status parse_expr(parser *p, value *out) {
  if (++p->depth > MAX_NESTING)
    return cli_fail(CL_E_LIMIT, "column %zu: expression nested deeper than %d levels", p->pos + 1, MAX_NESTING);
  value parts[MAX_ARGS];
  int n = 0;
  size_t column = p->pos + 1;
  cl_status s = parse_layout(p, &parts[0]);
  if (s == CL_OK)
    n = 1;
  while (s == CL_OK && at_compose_operator(p)) {
    if (n == MAX_ARGS) {
      free_values(parts, n);
      return cli_fail(CL_E_LIMIT, "column %zu: more than %d parts in one composed layout", p->pos + 1, MAX_ARGS);
    }
    p->pos++;
    s = parse_layout(p, &parts[n]);
    if (s == CL_OK)
      n++;
  }
  if (s != CL_OK) {
    free_values(parts, n);
    return s;
  }
  p->depth--;
  if (n == 1) {
    *out = parts[0];
    return CL_OK;
  }
  return nest_composed(parts, n, column, out);
}

cl_status eval_expression(const char *text, value *out) {
  cli_clear_error();
  *out = (value){0};
  parser p = {text, 0, 0};
  cl_status s = parse_expr(&p, out);
  if (s == CL_OK) {
    skip_space(&p);
    if (p.text[p.pos] != '\0') {
      value_free(out);
      s = expected(&p, "the end of the expression");
    }
  }
  return s;
}

const char *eval_error_message(cl_status status) {
  if (cli_error()[0] != '\0')
    return cli_error();
  if (cl_last_error()[0] != '\0')
    return cl_last_error();
  return cl_status_string(status);
}

/* One line of output: no newlines inside a message. */
static void put_message(FILE *f, const char *msg) {
  for (const char *c = msg; *c; c++)
    fputc(*c == '\n' || *c == '\r' ? ' ' : *c, f);
}

int eval_and_print(const char *text, FILE *f) {
  value v;
  cl_status s = eval_expression(text, &v);
  char *shown = s == CL_OK ? value_format(&v) : NULL;
  if (s == CL_OK && shown == NULL)
    s = cli_fail(CL_E_NOMEM, "out of memory");
  if (s != CL_OK) {
    fputs("error: ", f);
    put_message(f, eval_error_message(s));
    fputc('\n', f);
    value_free(&v);
    return 1;
  }
  fputs(shown, f);
  fputc('\n', f);
  free(shown);
  value_free(&v);
  return 0;
}

/* ------------------------------------------------------------ tables */

/* Each module of functions adds its table here. */
static const builtin *const tables[] = {
  cli_builtins_tuple, cli_builtins_layout, cli_builtins_print, cli_builtins_algebra, cli_builtins_tuple_ops,
  cli_builtins_swizzle, cli_builtins_coord, cli_builtins_layout_ops, cli_builtins_atom, cli_builtins_banks, NULL,
};

const builtin *builtin_find(const char *name) {
  /* Later tables take precedence, so a module can extend an earlier name
   * (e.g. the algebra's "coalesce" with more argument forms). */
  const builtin *found = NULL;
  for (size_t t = 0; tables[t] != NULL; t++)
    for (const builtin *b = tables[t]; b->name != NULL; b++)
      if (strcmp(b->name, name) == 0)
        found = b;
  return found;
}

const builtin *builtin_find_before(const builtin *table, const char *name) {
  const builtin *found = NULL;
  for (size_t t = 0; tables[t] != NULL && tables[t] != table; t++)
    for (const builtin *b = tables[t]; b->name != NULL; b++)
      if (strcmp(b->name, name) == 0)
        found = b;
  return found;
}

cl_status builtin_delegate(const builtin *table, const char *name, const value *args, int nargs, value *out) {
  const builtin *b = builtin_find_before(table, name);
  if (b == NULL)
    return cli_fail(CL_E_TYPE, "%s: no form of it takes these arguments", name);
  if (nargs < b->min_args || (b->max_args >= 0 && nargs > b->max_args))
    return cli_fail(CL_E_RANK, "%s: wrong number of arguments (%d); usage: %s", name, nargs, b->usage);
  return b->fn(name, args, nargs, out);
}

void builtin_each(void (*fn)(const builtin *b, void *ctx), void *ctx) {
  for (size_t t = 0; tables[t] != NULL; t++)
    for (const builtin *b = tables[t]; b->name != NULL; b++)
      fn(b, ctx);
}

/* The mode-targeted forms (`op[]`) are reached through their op's name. */
static void offer_name(const builtin *b, void *ctx) {
  if (strchr(b->name, '[') == NULL)
    suggestion_offer(ctx, b->name);
}

void builtin_offer_names(suggestion *s) { builtin_each(offer_name, s); }

const char *builtin_nearest(const char *name) {
  suggestion s = suggestion_start(name);
  builtin_offer_names(&s);
  return suggestion_result(&s);
}
