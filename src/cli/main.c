/* SPDX-License-Identifier: BSD-3-Clause */
/* main.c: the `cute-layout` command. */
#define _POSIX_C_SOURCE 200809L /* getc_unlocked */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "copy_demo.h"
#include "draw.h"
#include "eval.h"

static const char usage_text[] =
  "usage: cute-layout COMMAND [ARGS]\n"
  "\n"
  "NVIDIA CuTe's layout algebra at run time.\n"
  "\n"
  "commands:\n"
  "  eval EXPR...   evaluate each expression, one output line each\n"
  "  eval -         evaluate one expression per line of standard input\n"
  "  functions      list the functions of the expression language\n"
  "  copy SRC DST   copy a generated tensor between two layouts and print both (copy --help)\n"
  "  draw EXPR      a picture of a layout: SVG, TikZ or a table (draw --help)\n"
  "  --help         this text\n"
  "  --version      the version of the tool and library\n"
  "\n"
  "examples:\n"
  "  cute-layout eval 'make_layout((2,(2,2)),(4,(2,1)))'\n"
  "  cute-layout eval 'print_layout((4,8):(8,1))'\n"
  "  cute-layout eval 'logical_divide(make_layout((256,512)),(128,64))'\n"
  "\n"
  "exit status: 0 if every expression succeeded, 1 if any failed, 2 for a usage error.\n";

/* The longest line `eval -` evaluates.  A longer one is an error line,
 * skipped to its end without being held, so that memory stays bounded
 * whatever the input (a legitimate expression is far shorter: a tuple has at
 * most CL_MAX_RANK elements and CL_MAX_DEPTH levels). */
#define MAX_LINE_BYTES ((size_t)1 << 24)

typedef enum line_status { LINE_OK, LINE_END, LINE_TOO_LONG, LINE_NOMEM } line_status;

typedef struct line_buf {
  char *text; /* NUL-terminated after LINE_OK */
  size_t len, cap;
} line_buf;

/* Makes room for one more byte and the NUL after it, up to MAX_LINE_BYTES. */
static line_status line_reserve(line_buf *line) {
  if (line->len + 1 < line->cap)
    return LINE_OK;
  if (line->cap >= MAX_LINE_BYTES)
    return LINE_TOO_LONG;
  size_t cap = line->cap < 256 ? 256 : line->cap * 2;
  char *text = realloc(line->text, cap < MAX_LINE_BYTES ? cap : MAX_LINE_BYTES);
  if (text == NULL)
    return LINE_NOMEM;
  line->text = text;
  line->cap = cap < MAX_LINE_BYTES ? cap : MAX_LINE_BYTES;
  return LINE_OK;
}

/* Reads one line, without its '\n'.  After a failure the rest of the line
 * is read and dropped, so the next call starts at the next line. */
static line_status read_line(FILE *in, line_buf *line) {
  line->len = 0;
  line_status status = line_reserve(line);
  int c = getc_unlocked(in);
  if (c == EOF)
    return LINE_END;
  for (; c != EOF && c != '\n'; c = getc_unlocked(in)) {
    if (status == LINE_OK)
      status = line_reserve(line);
    if (status == LINE_OK)
      line->text[line->len++] = (char)c;
  }
  if (status == LINE_OK)
    line->text[line->len] = '\0';
  return status;
}

/* One expression per line, one answer line each; memory is bounded by the
 * longest line, and by MAX_LINE_BYTES whatever the input. */
static int eval_stream(FILE *in) {
  int status = 0;
  line_buf line = {NULL, 0, 0};
  line_status read;
  while ((read = read_line(in, &line)) != LINE_END) {
    if (read == LINE_TOO_LONG || read == LINE_NOMEM) {
      if (read == LINE_TOO_LONG)
        printf("error: the line is longer than %zu bytes, the longest expression 'eval -' reads\n", MAX_LINE_BYTES - 1);
      else
        printf("error: out of memory reading the line\n");
      status = 1;
      continue;
    }
    size_t len = line.len;
    while (len > 0 && line.text[len - 1] == '\r')
      line.text[--len] = '\0';
    /* A NUL byte would silently cut the expression short: refuse the line. */
    size_t nul = strlen(line.text);
    if (nul < len) {
      printf("error: column %zu: a NUL byte cannot be part of an expression\n", nul + 1);
      status = 1;
      continue;
    }
    const char *text = line.text;
    while (*text == ' ' || *text == '\t')
      text++;
    if (*text == '\0' || *text == '#') {
      fputc('\n', stdout);
      continue;
    }
    status |= eval_and_print(text, stdout);
  }
  free(line.text);
  return status;
}

/* A name several tables define is listed once: by the entry that answers it. */
static void print_builtin(const builtin *b, void *ctx) {
  (void)ctx;
  if (builtin_find(b->name) == b)
    printf("  %s\n", b->usage);
}

static int command_eval(int argc, char **argv) {
  if (argc < 1) {
    fputs("cute-layout eval: expected expressions or '-'\n", stderr);
    return 2;
  }
  if (argc == 1 && strcmp(argv[0], "-") == 0)
    return eval_stream(stdin);
  int status = 0;
  for (int i = 0; i < argc; i++)
    status |= eval_and_print(argv[i], stdout);
  return status;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return 2;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (strcmp(cmd, "--version") == 0) {
    printf("cute-layout %s (library %s, ABI %d)\n", CUTELAYOUT_VERSION_STRING, cl_version_string(),
           cl_abi_version());
    return 0;
  }
  if (strcmp(cmd, "eval") == 0)
    return command_eval(argc - 2, argv + 2);
  if (strcmp(cmd, "copy") == 0)
    return command_copy(argc - 2, argv + 2);
  if (strcmp(cmd, "draw") == 0)
    return command_draw(argc - 2, argv + 2);
  if (strcmp(cmd, "functions") == 0) {
    builtin_each(print_builtin, NULL);
    return 0;
  }
  fprintf(stderr, "cute-layout: unknown command '%s'\n\n%s", cmd, usage_text);
  return 2;
}
