/* main.c: the `cute-layout` command. */
#define _POSIX_C_SOURCE 200809L /* getline */
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

/* Reads lines of any length; memory is bounded by the longest line. */
static int eval_stream(FILE *in) {
  int status = 0;
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  while ((len = getline(&line, &cap, in)) >= 0) {
    while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
      line[--len] = '\0';
    /* A NUL byte would silently cut the expression short: refuse the line. */
    size_t nul = strlen(line);
    if ((ssize_t)nul < len) {
      printf("error: column %zu: a NUL byte cannot be part of an expression\n", nul + 1);
      status = 1;
      continue;
    }
    const char *text = line;
    while (*text == ' ' || *text == '\t')
      text++;
    if (*text == '\0' || *text == '#') {
      fputc('\n', stdout);
      continue;
    }
    status |= eval_and_print(text, stdout);
  }
  free(line);
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
    printf("cute-layout %s (library %s, ABI %d)\n", CL_VERSION_STRING, cl_version(), cl_abi_version());
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
