/* SPDX-License-Identifier: BSD-3-Clause */
/* draw.c: `cute-layout draw EXPR [--format svg|tex|txt] [--tv M,N] [-o FILE]`
 * (CONTRACT.md): evaluates EXPR with the eval language and draws the layout
 * it gives with render.h.
 *
 * A composed layout `A o offset o B` is drawn as its inner layout B, each
 * cell showing A(offset + B(crd)) (cl_render_composed).  The txt format of a
 * rank-2 layout or composed layout is exactly what `eval print_layout(EXPR)`
 * prints. */
#define _POSIX_C_SOURCE 200809L /* fileno, fstat, open_memstream */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "command.h"
#include "eval.h"

static const char draw_help[] =
  "\n"
  "Draws the layout that EXPR evaluates to (a layout or a composed layout).\n"
  "\n"
  "  -f, --format=svg|tex|txt\n"
  "                     svg (the default): an SVG picture, cells labelled with\n"
  "                     their index and coloured by it, heavier lines between\n"
  "                     the tiles of hierarchical modes; tex: the same picture\n"
  "                     as a LaTeX/TikZ document (pdflatex FILE.tex); txt:\n"
  "                     print_layout's table\n"
  "      --tv=M,N       read the layout as a thread-value layout (thr,val) -> index\n"
  "                     into an MxN tile (column-major); cells show T{thr}V{val}\n"
  "  -o, --output=FILE  write to FILE instead of standard output\n"
  "  -h, --help         this text\n"
  "\n"
  "examples:\n"
  "  cute-layout draw 'logical_divide(make_layout((8,8)),(2,4))' -o tiles.svg\n"
  "  cute-layout draw 'composition(Swizzle(3,3,3),make_layout((8,8),LayoutRight))' -f txt\n"
  "  cute-layout draw '((4,8),2):((2,8),1)' --tv 8,8 -o tv.svg\n";

typedef struct draw_args {
  const char *expr;
  const char *output;          /* NULL: standard output */
  cl_picture_format format;
  int64_t tile_rows, tile_cols; /* 0: not a TV picture */
} draw_args;

/* "M,N", "(M,N)" or "MxN": two positive integers. */
static int parse_tile(const char *text, int64_t *rows, int64_t *cols) {
  const char *p = text;
  bool paren = *p == '(';
  if (paren)
    p++;
  char *end;
  errno = 0;
  long long m = strtoll(p, &end, 10);
  if (end == p || (*end != ',' && *end != 'x') || errno)
    return -1;
  p = end + 1;
  long long n = strtoll(p, &end, 10);
  if (end == p || errno)
    return -1;
  if (paren && *end++ != ')')
    return -1;
  if (*end != '\0' || m < 1 || n < 1)
    return -1;
  *rows = m;
  *cols = n;
  return 0;
}

static const char *const format_names[] = {"svg", "tex", "txt", NULL};
static const cl_picture_format formats[] = {CL_PICTURE_SVG, CL_PICTURE_TEX, CL_PICTURE_TXT};

enum { OPT_TV = 256 };

/* Reads the command line into *a; returns -1 to go on, or the exit status
 * (0 after --help, 2 after a usage error). */
static int parse_args(int argc, char **argv, draw_args *a) {
  static const struct option longopts[] = {
    {"format", required_argument, NULL, 'f'},
    {"tv", required_argument, NULL, OPT_TV},
    {"output", required_argument, NULL, 'o'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  cli_options o = cli_options_start(argc, argv, "f:o:h", longopts);
  const char *arg;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    switch (c) {
    case CLI_OPERAND:
      if (a->expr != NULL)
        return usage_error(&command_draw, "expected one EXPR, got a second one, '%s' (quote the expression)", arg);
      a->expr = arg;
      break;
    case 'f': {
      size_t i = 0;
      while (format_names[i] != NULL && strcmp(arg, format_names[i]) != 0)
        i++;
      if (format_names[i] == NULL)
        return cli_choice_error(&command_draw, "--format", arg, format_names);
      a->format = formats[i];
      break;
    }
    case OPT_TV:
      if (parse_tile(arg, &a->tile_rows, &a->tile_cols) != 0)
        return usage_error(&command_draw, "--tv wants the tile as M,N (two positive integers), not '%s'", arg);
      break;
    case 'o':
      if (*arg == '\0')
        return usage_error(&command_draw, "--output needs a file name");
      a->output = arg;
      break;
    case 'h': return show_help(&command_draw);
    default: return cli_option_error(&command_draw, &o, c);
    }
  }
  if (a->expr == NULL)
    return usage_error(&command_draw, "expected an expression to draw");
  return -1;
}

/* Runs the renderer on the value: a layout or a composed layout. */
static int64_t render(const value *v, const draw_args *a, FILE *f) {
  cl_picture_options opt = CL_PICTURE_OPTIONS_INIT;
  opt.format = a->format;
  if (v->kind == V_COMPOSED)
    return a->tile_rows > 0 ? cl_render_composed_tv_file(v->composed, a->tile_rows, a->tile_cols, &opt, f)
                            : cl_render_composed_file(v->composed, &opt, f);
  return a->tile_rows > 0 ? cl_render_tv_file(v->layout, a->tile_rows, a->tile_cols, &opt, f)
                          : cl_render_layout_file(v->layout, &opt, f);
}

static const char *kind_name(value_kind k) {
  switch (k) {
  case V_TUPLE: return "a tuple or integer";
  case V_BOOL: return "a boolean";
  case V_TAG: return "a tag (LayoutLeft/LayoutRight)";
  case V_SWIZZLE: return "a swizzle (draw composition(Sw, L) instead)";
  case V_TEXT: return "text";
  default: return "nothing";
  }
}

/* Writes the picture to the file named output (standard output when NULL);
 * 0, or 1 after a message.  A failed write removes what it left, but only
 * from a regular file: output may name a device or a link to one
 * (/dev/stdout, /dev/full), which must survive. */
static int write_picture(const char *output, const char *picture, size_t len) {
  FILE *f = output ? fopen(output, "wb") : stdout;
  if (f == NULL) {
    return tool_error("draw: cannot write '%s': %s", output, strerror(errno));
  }
  struct stat st;
  bool regular_file = output && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  bool failed = fwrite(picture, 1, len, f) != len || fflush(f) != 0 || ferror(f);
  if (output && fclose(f) != 0)
    failed = true;
  if (failed) {
    tool_error("draw: writing the picture failed: %s", strerror(errno));
    if (regular_file)
      remove(output); /* no partial picture left behind */
    return 1;
  }
  return 0;
}

static int run_draw(int argc, char **argv) {
  draw_args a = {NULL, NULL, CL_PICTURE_SVG, 0, 0};
  int status = parse_args(argc, argv, &a);
  if (status >= 0)
    return status;
  value v;
  cl_status s = eval_expression(a.expr, &v);
  if (s != CL_OK) {
    tool_error("draw: %s", eval_error_message(s));
    value_free(&v);
    return 1;
  }
  if (v.kind != V_LAYOUT && v.kind != V_COMPOSED) {
    tool_error("draw: '%s' is %s, not a layout", a.expr, kind_name(v.kind));
    value_free(&v);
    return 1;
  }
  /* The picture is made in memory first: a layout too large to draw, or any
   * other failure to make it, leaves the file -o names untouched. */
  char *picture = NULL;
  size_t picture_len = 0;
  FILE *mem = open_memstream(&picture, &picture_len);
  cli_clear_error();
  int64_t n = mem != NULL ? render(&v, &a, mem) : cli_fail(CL_E_NOMEM, "out of memory");
  value_free(&v);
  if (mem != NULL && fclose(mem) != 0 && n >= 0)
    n = cli_fail(CL_E_NOMEM, "out of memory");
  if (n < 0) {
    tool_error("draw: %s", eval_error_message((cl_status)n));
    free(picture);
    return 1;
  }
  status = write_picture(a.output, picture, picture_len);
  free(picture);
  return status;
}


const command command_draw = {
  "draw", run_draw,
  "usage: cute-layout draw EXPR [--format svg|tex|txt] [--tv M,N] [-o FILE]\n",
  draw_help,
  "draw EXPR        a picture of a layout: SVG, TikZ or a table\n",
};
