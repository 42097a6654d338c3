/* SPDX-License-Identifier: BSD-3-Clause */
/* explain_command.c: `cute-layout explain EXPR [--format text|svg] [-o FILE]`:
 * the steps of the definition of the operation EXPR calls (explain.h), as
 * text, or the intermediate layouts as pictures side by side.
 *
 * EXPR is one call NAME(ARG[,ARG]) of the eval language; its arguments are
 * evaluated as `eval` would, and NAME names the operation explained. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "eval.h"

static const char explain_help[] =
  "\n"
  "Explains why the operation EXPR calls gives what it gives: the steps of its\n"
  "definition, each with the rule that produced it, a sentence with the numbers,\n"
  "the intermediate value, and an expression of the eval language that recomputes\n"
  "it (paste it into `cute-layout eval`).  Steps indented under a step explain it.\n"
  "EXPR calls one of: coalesce, composition, complement, right_inverse,\n"
  "left_inverse, logical_divide, zipped_divide, tiled_divide, flat_divide,\n"
  "logical_product, zipped_product, tiled_product, flat_product, blocked_product,\n"
  "raked_product.  When the operation fails, the explanation ends with the step\n"
  "that breaks its precondition, and the exit status is 1.\n"
  "\n"
  "  -f, --format=text|svg\n"
  "                     text (the default); svg: the layouts of the main steps\n"
  "                     and the result side by side (at most 8 pictures)\n"
  "  -o, --output=FILE  write to FILE instead of standard output\n"
  "  -h, --help         this text\n"
  "\n"
  "examples:\n"
  "  cute-layout explain 'composition((4,6):(1,4),3:2)'\n"
  "  cute-layout explain 'complement((2,2):(1,6),24)'\n"
  "  cute-layout explain 'zipped_divide(make_layout((6,4)),(4,2))' -f svg -o steps.svg\n";

typedef struct call {
  char name[64];
  value arg[2];
  int nargs;
} call;

static void call_free(call *c) {
  for (int i = 0; i < c->nargs; i++)
    value_free(&c->arg[i]);
}

/* NAME(ARG[,ARG]): the name and each argument's value. */
static int parse_call(const char *expr, call *c) {
  const char *p = expr;
  while (isspace((unsigned char)*p))
    p++;
  size_t n = 0;
  while (isalnum((unsigned char)p[n]) || p[n] == '_')
    n++;
  const char *open = p + n;
  while (isspace((unsigned char)*open))
    open++;
  if (n == 0 || n >= sizeof c->name || *open != '(')
    return tool_error("explain: expected a call NAME(ARG,...) of the operation to explain, not '%s'", expr);
  memcpy(c->name, p, n);
  c->name[n] = '\0';
  const char *arg = open + 1, *q = arg;
  int depth = 0;
  for (;; q++) {
    if (*q == '\0')
      return tool_error("explain: the call '%s' is missing its closing ')'", expr);
    if (*q == '(' || *q == '<')
      depth++;
    else if ((*q == ')' || *q == '>') && depth > 0)
      depth--;
    else if ((*q == ',' || *q == ')') && depth == 0) {
      if (c->nargs == 2)
        return tool_error("explain: %s: at most two arguments", c->name);
      size_t len = (size_t)(q - arg);
      char *text = malloc(len + 1);
      if (text == NULL)
        return tool_error("out of memory");
      memcpy(text, arg, len);
      text[len] = '\0';
      cl_status s = eval_expression(text, &c->arg[c->nargs]);
      free(text);
      if (s != CL_OK)
        return tool_error("explain: %s: argument %d: %s", c->name, c->nargs + 1, eval_error_message(s));
      c->nargs++;
      arg = q + 1;
      if (*q == ')')
        break;
    }
  }
  for (q++; isspace((unsigned char)*q); q++)
    ;
  if (*q != '\0')
    return tool_error("explain: unexpected text after the call: '%s'", q);
  return 0;
}

/* The explanation of the call, or an exit status. */
static int explain_call(const call *c, cl_explanation_t **out) {
  if (c->nargs == 0 || c->arg[0].kind != V_LAYOUT)
    return tool_error("explain: %s: the first argument must be a layout", c->name);
  cl_tuple_t *arg = NULL;
  cl_status s = CL_OK;
  if (c->nargs == 2) {
    const value *v = &c->arg[1];
    if (v->kind == V_LAYOUT)
      s = cl_tuple_from_layout(v->layout, &arg);
    else if (v->kind == V_TUPLE)
      s = cl_tuple_copy(v->tuple, &arg);
    else
      return tool_error("explain: %s: the second argument must be a layout, an integer or a tuple", c->name);
  }
  if (s == CL_OK)
    s = cl_explain(c->name, c->arg[0].layout, arg, out);
  cl_tuple_free(arg);
  if (s != CL_OK)
    return tool_error("%s", cl_last_error()[0] ? cl_last_error() : cl_status_string(s));
  return 0;
}

/* The figure: the layouts of the steps at depth 0 (the first ones when
 * there are too many) and the result, each titled with its number, rule
 * and value. */
static int64_t render_steps(const cl_explanation_t *e, FILE *f) {
  cl_picture_panel panels[CL_PICTURE_MAX_PANELS];
  char titles[CL_PICTURE_MAX_PANELS][160];
  size_t count = 0;
  int64_t n = cl_explanation_count(e), number = 0;
  for (int64_t i = 0; i < n; i++) {
    if (cl_explanation_depth(e, i) != 0)
      continue;
    number++;
    const cl_layout_t *l = cl_explanation_layout(e, i);
    bool last = i == n - 1;
    if (l == NULL || (count == CL_PICTURE_MAX_PANELS - 1 && !last))
      continue;
    snprintf(titles[count], sizeof titles[count], "%lld %s: %s", (long long)number, cl_explanation_rule(e, i),
             cl_explanation_value(e, i));
    panels[count] = (cl_picture_panel){l, NULL, titles[count], 0, 0, -1};
    count++;
  }
  if (count == 0)
    return cli_fail(CL_E_DOMAIN, "explain: no step has a layout to draw");
  cl_picture_options opt = CL_PICTURE_OPTIONS_INIT;
  return cl_render_panels_file(panels, count, &opt, f);
}

static int write_output(const char *path, const char *text, size_t len) {
  FILE *f = path ? fopen(path, "w") : stdout;
  if (f == NULL)
    return tool_error("explain: cannot write %s", path);
  size_t written = fwrite(text, 1, len, f);
  if (path != NULL && fclose(f) != 0)
    written = 0;
  return written == len ? 0 : tool_error("explain: writing %s failed", path ? path : "standard output");
}

static int run_explain(int argc, char **argv) {
  static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  static const char *const formats[] = {"text", "svg", NULL};
  const char *expr = NULL, *output = NULL;
  bool svg = false;
  cli_options o = cli_options_start(argc, argv, "f:o:h", longopts);
  const char *arg;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    switch (c) {
    case CLI_OPERAND:
      if (expr != NULL)
        return usage_error(&command_explain, "one expression only (quote it)");
      expr = arg;
      break;
    case 'f':
      if (strcmp(arg, "text") != 0 && strcmp(arg, "svg") != 0)
        return cli_choice_error(&command_explain, "--format", arg, formats);
      svg = strcmp(arg, "svg") == 0;
      break;
    case 'o': output = arg; break;
    case 'h': return show_help(&command_explain);
    default: return cli_option_error(&command_explain, &o, c);
    }
  }
  if (expr == NULL)
    return usage_error(&command_explain, "expected an expression");
  call c = {.nargs = 0};
  int status = parse_call(expr, &c);
  cl_explanation_t *e = NULL;
  if (status == 0)
    status = explain_call(&c, &e);
  call_free(&c);
  if (status != 0)
    return status;
  char *text = NULL;
  size_t len = 0;
  if (svg) {
    FILE *mem = open_memstream(&text, &len);
    cli_clear_error();
    int64_t n = mem != NULL ? render_steps(e, mem) : cli_fail(CL_E_NOMEM, "out of memory");
    if (mem != NULL && fclose(mem) != 0 && n >= 0)
      n = cli_fail(CL_E_NOMEM, "out of memory");
    if (n < 0)
      status = tool_error("explain: %s", eval_error_message((cl_status)n));
  } else if (cl_explanation_text(e, &text) != CL_OK) {
    status = tool_error("%s", cl_last_error());
  } else {
    len = strlen(text);
  }
  if (status == 0)
    status = write_output(output, text, len);
  if (svg)
    free(text);
  else
    cl_string_free(text);
  cl_status op = cl_explanation_status(e);
  if (status == 0 && op != CL_OK) {
    const char *why = cl_explanation_sentence(e, cl_explanation_count(e) - 1);
    status = tool_error("explain: %s fails: %s", c.name, why);
  }
  cl_explanation_free(e);
  return status;
}

const command command_explain = {
  "explain", run_explain,
  "usage: cute-layout explain EXPR [--format text|svg] [-o FILE]\n",
  explain_help,
  "explain EXPR     the steps of an operation of the algebra, and why\n",
};
