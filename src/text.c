/* SPDX-License-Identifier: BSD-3-Clause */
/* text.c: the canonical text form of CONTRACT.md, parsed and formatted.
 *
 *   value := term [':' term]        a layout when ':' is present
 *   term  := INT ('@' INDEX)* | '_' | '(' [value (',' value)*] ')'
 *
 * INT@i@j is CuTe's scaled basis E<j,i> times INT, written as CuTe prints it
 * (innermost index first).
 *
 * White space may stand between any two tokens.  Nesting is limited to
 * CL_MAX_DEPTH, so recursion depth is bounded whatever the input. */
#include <ctype.h>
#include <stdio.h>

#include "sink_impl.h"
#include "tuple_impl.h"
#include "cutelayout/layout.h"
#include "cutelayout/text.h"

typedef struct parser {
  const char *text;
  size_t pos;
  int depth;
  cl_builder *b;
} parser;

static void skip_space(parser *p) {
  while (isspace((unsigned char)p->text[p->pos]))
    p->pos++;
}

static bool fail_at(parser *p, const char *expected) {
  char c = p->text[p->pos];
  if (c == '\0')
    cl_b_set_error(p->b, cl_fail(CL_E_PARSE, "column %zu: expected %s, found the end of the text", p->pos + 1, expected));
  else if (isprint((unsigned char)c))
    cl_b_set_error(p->b, cl_fail(CL_E_PARSE, "column %zu: expected %s, found '%c'", p->pos + 1, expected, c));
  else
    cl_b_set_error(p->b, cl_fail(CL_E_PARSE, "column %zu: expected %s, found byte 0x%02x", p->pos + 1, expected, (unsigned char)c));
  return false;
}

/* An integer literal into *out (false, with the builder failed, if none). */
static bool read_int(parser *p, int64_t *out) {
  size_t start = p->pos;
  bool negative = false;
  if (p->text[p->pos] == '-') {
    negative = true;
    p->pos++;
  }
  if (!isdigit((unsigned char)p->text[p->pos]))
    return fail_at(p, "a digit");
  /* Accumulate negatively so that INT64_MIN parses. */
  int64_t v = 0;
  while (isdigit((unsigned char)p->text[p->pos])) {
    int d = p->text[p->pos] - '0';
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, d, &v)) {
      cl_b_set_error(p->b, cl_fail(CL_E_OVERFLOW, "column %zu: integer does not fit in 64 bits", start + 1));
      return false;
    }
    p->pos++;
  }
  if (!negative) {
    if (v == INT64_MIN) {
      cl_b_set_error(p->b, cl_fail(CL_E_OVERFLOW, "column %zu: integer does not fit in 64 bits", start + 1));
      return false;
    }
    v = -v;
  }
  *out = v;
  return true;
}

/* An integer, or a scaled basis when '@' follows: k@i@j is E<j,i> * k, its
 * indices read innermost first, as CuTe prints them. */
static bool parse_int(parser *p) {
  int64_t v, path[CL_MAX_DEPTH];
  if (!read_int(p, &v))
    return false;
  int64_t n = 0;
  for (;;) {
    size_t before = p->pos;
    skip_space(p);
    if (p->text[p->pos] != '@') {
      p->pos = before;
      break;
    }
    p->pos++;
    skip_space(p);
    size_t at = p->pos;
    int64_t index;
    if (!isdigit((unsigned char)p->text[p->pos]))
      return fail_at(p, "a basis index (a non-negative integer)");
    if (!read_int(p, &index))
      return false;
    if (n == CL_MAX_DEPTH || index >= CL_MAX_RANK) {
      cl_b_set_error(p->b, cl_fail(CL_E_LIMIT, "column %zu: a scaled basis has at most %d indices, each below %d",
                                   at + 1, CL_MAX_DEPTH, CL_MAX_RANK));
      return false;
    }
    path[n++] = index;
  }
  if (n == 0) {
    cl_b_int(p->b, v);
    return true;
  }
  for (int64_t i = 0, j = n - 1; i < j; i++, j--) {
    int64_t t = path[i];
    path[i] = path[j];
    path[j] = t;
  }
  cl_b_basis(p->b, v, path, n);
  return p->b->status == CL_OK;
}

static bool parse_value(parser *p);

static bool parse_term(parser *p) {
  skip_space(p);
  char c = p->text[p->pos];
  if (c == '-' || isdigit((unsigned char)c))
    return parse_int(p);
  if (c == '_') {
    p->pos++;
    cl_b_underscore(p->b);
    return true;
  }
  if (c != '(')
    return fail_at(p, "an integer, '_' or '('");
  if (++p->depth > CL_MAX_DEPTH) {
    cl_b_set_error(p->b, cl_fail(CL_E_LIMIT, "column %zu: nesting deeper than %d levels", p->pos + 1, CL_MAX_DEPTH));
    return false;
  }
  p->pos++;
  int32_t at = cl_b_open(p->b, CL_KIND_TUPLE);
  skip_space(p);
  if (p->text[p->pos] != ')') {
    for (int64_t rank = 1;; rank++) {
      /* Refused at the first element too many, before the rest is read:
       * a huge tuple costs neither time nor memory. */
      if (rank > CL_MAX_RANK) {
        cl_b_set_error(p->b, cl_fail(CL_E_LIMIT, "column %zu: a tuple of more than %d elements; at most %d are allowed",
                                     p->pos + 1, CL_MAX_RANK, CL_MAX_RANK));
        return false;
      }
      if (!parse_value(p))
        return false;
      skip_space(p);
      if (p->text[p->pos] == ',') {
        p->pos++;
        continue;
      }
      if (p->text[p->pos] == ')')
        break;
      return fail_at(p, "',' or ')'");
    }
  }
  p->pos++;
  p->depth--;
  cl_b_close(p->b, at);
  return p->b->status == CL_OK;
}

/* A term, or two terms joined by ':' making a layout node. */
static bool parse_value(parser *p) {
  int32_t at = cl_b_open(p->b, CL_KIND_LAYOUT);
  size_t start = p->pos;
  if (!parse_term(p) || p->b->status != CL_OK)
    return false;
  skip_space(p);
  if (p->text[p->pos] != ':') {
    /* Not a layout: drop the provisional layout node in front of the term. */
    memmove(p->b->nodes + at, p->b->nodes + at + 1, (size_t)(p->b->count - at - 1) * sizeof(cl_node));
    p->b->count--;
    return true;
  }
  p->pos++;
  size_t stride_col = p->pos;
  if (!parse_term(p))
    return false;
  cl_b_close(p->b, at);
  if (p->b->status != CL_OK)
    return false;
  const cl_node *l = &p->b->nodes[at];
  if (!cl_tree_all_int(cl_lshape(l)) || !cl_tree_stride_leaves(cl_lstride(l))) {
    cl_b_set_error(p->b, cl_fail(CL_E_PARSE, "column %zu: a layout's shape holds integers only, its stride integers and scaled bases", start + 1));
    return false;
  }
  cl_status shape_ok = cl_require_shape(cl_lshape(l), "a layout's shape");
  if (shape_ok != CL_OK) {
    char why[256]; /* cl_fail writes where cl_last_error() reads */
    snprintf(why, sizeof why, "%s", cl_last_error());
    cl_b_set_error(p->b, cl_fail(shape_ok, "column %zu: %s", start + 1, why));
    return false;
  }
  if (!cl_tree_congruent(cl_lshape(l), cl_lstride(l))) {
    cl_b_set_error(p->b, cl_fail(CL_E_PARSE, "column %zu: the stride is not congruent with the shape", stride_col + 1));
    return false;
  }
  return true;
}

/* Parses the whole text as one value into b. */
static cl_status parse_all(const char *text, cl_builder *b) {
  parser p = {text, 0, 0, b};
  if (parse_value(&p)) {
    skip_space(&p);
    if (text[p.pos] != '\0')
      fail_at(&p, "the end of the text");
  }
  return b->status;
}

cl_status cl_tuple_parse(const char *text, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(text);
  cl_builder b;
  cl_b_init(&b);
  parse_all(text, &b);
  return cl_b_finish_tuple(&b, out);
}

cl_status cl_layout_parse(const char *text, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(text);
  cl_builder b;
  cl_b_init(&b);
  if (parse_all(text, &b) == CL_OK && b.nodes[0].kind != CL_KIND_LAYOUT)
    cl_b_set_error(&b, cl_fail(CL_E_PARSE, "column %zu: expected ':' and a stride (a layout is SHAPE:STRIDE)", strlen(text) + 1));
  return cl_b_finish_layout(&b, out);
}

/* ------------------------------------------------------------ formatting */

static void put_tree(cl_sink *o, const cl_node *n) {
  switch (n->kind) {
  case CL_KIND_INT: cl_sink_int(o, n->value); return;
  case CL_KIND_UNDERSCORE: cl_sink_write(o, "_", 1); return;
  case CL_KIND_BASIS:
    cl_sink_int(o, n->value);
    for (int32_t k = n->rank; k >= 1; k--) {
      cl_sink_write(o, "@", 1);
      cl_sink_int(o, n[k].value);
    }
    return;
  case CL_KIND_LAYOUT:
    put_tree(o, cl_lshape(n));
    cl_sink_write(o, ":", 1);
    put_tree(o, cl_lstride(n));
    return;
  default:
    cl_sink_write(o, "(", 1);
    CL_FOR_EACH_CHILD(c, n) {
      if (c != cl_first(n))
        cl_sink_write(o, ",", 1);
      put_tree(o, c);
    }
    cl_sink_write(o, ")", 1);
  }
}

void cl_sink_tree(cl_sink *o, const cl_node *root) { put_tree(o, root); }

/* Writes the text of a tree snprintf-style; returns the full length. */
int64_t cl_format_tree(const cl_node *root, char *buf, size_t cap) {
  cl_sink o = cl_sink_buffer(buf, cap);
  put_tree(&o, root);
  return cl_sink_finish(&o, "format");
}

int64_t cl_tuple_format(const cl_tuple_t *t, char *buf, size_t cap) {
  if (t == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_tuple_format: NULL argument");
  return cl_format_tree(cl_troot(t), buf, cap);
}

int64_t cl_layout_format(const cl_layout_t *layout, char *buf, size_t cap) {
  if (layout == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_layout_format: NULL argument");
  return cl_format_tree(cl_lroot(layout), buf, cap);
}

/* Allocating variants, for callers that do not want to size a buffer. */
static char *format_alloc(const cl_node *root) {
  int64_t n = cl_format_tree(root, NULL, 0);
  char *s = cl_alloc((size_t)n + 1);
  if (s != NULL)
    cl_format_tree(root, s, (size_t)n + 1);
  return s;
}

cl_status cl_tuple_to_string(const cl_tuple_t *t, char **out) {
  CHECK_OUT(out);
  CHECK_NULL(t);
  *out = format_alloc(cl_troot(t));
  return *out ? CL_OK : cl_fail(CL_E_NOMEM, "out of memory");
}

cl_status cl_layout_to_string(const cl_layout_t *layout, char **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  *out = format_alloc(cl_lroot(layout));
  return *out ? CL_OK : cl_fail(CL_E_NOMEM, "out of memory");
}

void cl_string_free(char *s) { cl_dealloc(s); }
