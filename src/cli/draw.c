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

#include "draw.h"
#include "eval.h"

static const char draw_usage[] =
  "usage: cute-layout draw EXPR [--format svg|tex|txt] [--tv M,N] [-o FILE]\n"
  "\n"
  "Draws the layout that EXPR evaluates to (a layout or a composed layout).\n"
  "\n"
  "  --format svg   an SVG picture: cells labelled with their index and coloured\n"
  "                 by it, heavier lines between the tiles of hierarchical modes\n"
  "                 (the default)\n"
  "  --format tex   the same picture as a LaTeX/TikZ document (pdflatex FILE.tex)\n"
  "  --format txt   print_layout's table\n"
  "  --tv M,N       read the layout as a thread-value layout (thr,val) -> index\n"
  "                 into an MxN tile (column-major); cells show T{thr}V{val}\n"
  "  -o FILE        write to FILE instead of standard output\n"
  "\n"
  "examples:\n"
  "  cute-layout draw 'logical_divide(make_layout((8,8)),(2,4))' -o tiles.svg\n"
  "  cute-layout draw 'composition(Swizzle(3,3,3),make_layout((8,8),LayoutRight))' --format txt\n"
  "  cute-layout draw '((4,8),2):((2,8),1)' --tv 8,8 -o tv.svg\n";

typedef struct draw_args {
  const char *expr;
  const char *output;          /* NULL: standard output */
  cl_picture_format format;
  int64_t tile_rows, tile_cols; /* 0: not a TV picture */
} draw_args;

static int usage_error(const char *fmt, const char *arg) {
  fputs("cute-layout draw: ", stderr);
  fprintf(stderr, fmt, arg);
  fputs("\n\n", stderr);
  fputs(draw_usage, stderr);
  return 2;
}

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

/* The value of an option: "--opt VALUE" or "--opt=VALUE". */
static const char *option_value(int argc, char **argv, int *i, const char *name) {
  size_t len = strlen(name);
  if (strncmp(argv[*i], name, len) != 0)
    return NULL;
  if (argv[*i][len] == '=')
    return argv[*i] + len + 1;
  if (argv[*i][len] != '\0')
    return NULL;
  if (*i + 1 >= argc)
    return "";
  return argv[++*i];
}

static int parse_args(int argc, char **argv, draw_args *a) {
  bool options_done = false;
  for (int i = 0; i < argc; i++) {
    const char *v;
    if (options_done || argv[i][0] != '-' || argv[i][1] == '\0') {
      if (a->expr != NULL)
        return usage_error("expected one EXPR, got a second one, '%s' (quote the expression)", argv[i]);
      a->expr = argv[i];
    } else if (strcmp(argv[i], "--") == 0) {
      options_done = true;
    } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(draw_usage, stdout);
      return 0;
    } else if ((v = option_value(argc, argv, &i, "--format")) != NULL) {
      if (strcmp(v, "svg") == 0)
        a->format = CL_PICTURE_SVG;
      else if (strcmp(v, "tex") == 0)
        a->format = CL_PICTURE_TEX;
      else if (strcmp(v, "txt") == 0)
        a->format = CL_PICTURE_TXT;
      else
        return usage_error("--format must be svg, tex or txt, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--tv")) != NULL) {
      if (parse_tile(v, &a->tile_rows, &a->tile_cols) != 0)
        return usage_error("--tv wants the tile as M,N (two positive integers), not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "-o")) != NULL ||
               (v = option_value(argc, argv, &i, "--output")) != NULL) {
      if (*v == '\0')
        return usage_error("%s needs a file name", "-o");
      a->output = v;
    } else {
      return usage_error("unknown option '%s'", argv[i]);
    }
  }
  if (a->expr == NULL)
    return usage_error("%s", "expected an expression to draw");
  return -1; /* go on */
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
    fprintf(stderr, "error: cannot write '%s': %s\n", output, strerror(errno));
    return 1;
  }
  struct stat st;
  bool regular_file = output && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode);
  bool failed = fwrite(picture, 1, len, f) != len || fflush(f) != 0 || ferror(f);
  if (output && fclose(f) != 0)
    failed = true;
  if (failed) {
    fprintf(stderr, "error: writing the picture failed: %s\n", strerror(errno));
    if (regular_file)
      remove(output); /* no partial picture left behind */
    return 1;
  }
  return 0;
}

int command_draw(int argc, char **argv) {
  draw_args a = {NULL, NULL, CL_PICTURE_SVG, 0, 0};
  int status = parse_args(argc, argv, &a);
  if (status >= 0)
    return status;
  value v;
  cl_status s = eval_expression(a.expr, &v);
  if (s != CL_OK) {
    fprintf(stderr, "error: %s\n", eval_error_message(s));
    value_free(&v);
    return 1;
  }
  if (v.kind != V_LAYOUT && v.kind != V_COMPOSED) {
    fprintf(stderr, "error: draw: '%s' is %s, not a layout\n", a.expr, kind_name(v.kind));
    value_free(&v);
    return 1;
  }
  /* The picture is made in memory first: a layout too large to draw, or any
   * other failure to make it, leaves the file -o names untouched. */
  char *picture = NULL;
  size_t picture_len = 0;
  FILE *mem = open_memstream(&picture, &picture_len);
  cli_clear_error();
  int64_t n = mem != NULL ? render(&v, &a, mem) : cli_fail(CL_E_NOMEM, "draw: out of memory");
  value_free(&v);
  if (mem != NULL && fclose(mem) != 0 && n >= 0)
    n = cli_fail(CL_E_NOMEM, "draw: out of memory");
  if (n < 0) {
    fprintf(stderr, "error: %s\n", eval_error_message((cl_status)n));
    free(picture);
    return 1;
  }
  status = write_picture(a.output, picture, picture_len);
  free(picture);
  return status;
}

