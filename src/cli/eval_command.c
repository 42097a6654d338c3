/* SPDX-License-Identifier: BSD-3-Clause */
/* eval_command.c: `cute-layout eval` and `cute-layout functions`.
 *
 * `eval -` answers each line of standard input as soon as it has read it:
 * another program may drive it through a pipe, writing one expression and
 * waiting for its answer.  Answers are buffered while more input is at hand
 * and flushed before a read that would wait for more, so that a batch of any
 * length streams at full speed and an interactive client never waits on an
 * answer sitting in our buffer. */
#define _POSIX_C_SOURCE 200809L /* poll */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cutelayout/cutelayout.h>

#include "builtins.h"
#include "command.h"
#include "eval.h"

/* ------------------------------------------------------------ input */

/* The longest line `eval -` evaluates.  A longer one is an error line,
 * skipped to its end without being held, so that memory stays bounded
 * whatever the input (a legitimate expression is far shorter: a tuple has at
 * most CL_MAX_RANK elements and CL_MAX_DEPTH levels). */
#define MAX_LINE_BYTES ((size_t)1 << 24)

typedef struct line_reader {
  int fd;
  size_t pos, len; /* the unread bytes are buf[pos, len) */
  int error;       /* errno of a failed read, 0 at the end of the input */
  bool at_end;
  char buf[1 << 16];
} line_reader;

/* Whether a read from fd would return at once (input, the end of it, or an
 * error); when poll cannot tell, it is taken as "no". */
static bool input_at_hand(int fd) {
  struct pollfd p = {.fd = fd, .events = POLLIN};
  return poll(&p, 1, 0) > 0;
}

/* Reads the next block of input; false at its end or on an error.  Our
 * answers so far go out first unless more input is already waiting. */
static bool refill(line_reader *r) {
  if (r->at_end)
    return false;
  if (!input_at_hand(r->fd))
    fflush(stdout);
  ssize_t n;
  do
    n = read(r->fd, r->buf, sizeof r->buf);
  while (n < 0 && errno == EINTR);
  if (n <= 0) {
    r->at_end = true;
    r->error = n < 0 ? errno : 0;
    return false;
  }
  r->pos = 0;
  r->len = (size_t)n;
  return true;
}

typedef enum line_status { LINE_OK, LINE_END, LINE_TOO_LONG, LINE_NOMEM } line_status;

typedef struct line_buf {
  char *text; /* NUL-terminated after LINE_OK */
  size_t len, cap;
} line_buf;

/* Appends n bytes, keeping room for the NUL, up to MAX_LINE_BYTES in all. */
static line_status line_append(line_buf *line, const char *bytes, size_t n) {
  if (n >= MAX_LINE_BYTES - line->len)
    return LINE_TOO_LONG;
  size_t need = line->len + n + 1;
  if (need > line->cap) {
    size_t cap = line->cap < 256 ? 256 : line->cap;
    while (cap < need)
      cap *= 2;
    if (cap > MAX_LINE_BYTES)
      cap = MAX_LINE_BYTES;
    char *text = realloc(line->text, cap);
    if (text == NULL)
      return LINE_NOMEM;
    line->text = text;
    line->cap = cap;
  }
  memcpy(line->text + line->len, bytes, n);
  line->len += n;
  return LINE_OK;
}

/* Reads one line, without its '\n'.  After a failure the rest of the line
 * is read and dropped, so the next call starts at the next line. */
static line_status read_line(line_reader *r, line_buf *line) {
  line->len = 0;
  line_status status = line_append(line, "", 0);
  for (bool started = false;; started = true) {
    if (r->pos == r->len && !refill(r)) {
      if (!started)
        return LINE_END;
      break; /* a last line without '\n' */
    }
    const char *start = r->buf + r->pos;
    const char *newline = memchr(start, '\n', r->len - r->pos);
    size_t n = newline != NULL ? (size_t)(newline - start) : r->len - r->pos;
    if (status == LINE_OK)
      status = line_append(line, start, n);
    r->pos += n;
    if (newline != NULL) {
      r->pos++;
      break;
    }
  }
  if (status == LINE_OK)
    line->text[line->len] = '\0';
  return status;
}

/* ------------------------------------------------------------ eval */

/* Answers one line of `eval -`: its value, an error line, or an empty line
 * for a blank line or a comment.  Returns 0, or 1 for an error line. */
static int answer_line(line_buf *line) {
  size_t len = line->len;
  while (len > 0 && line->text[len - 1] == '\r')
    line->text[--len] = '\0';
  /* A NUL byte would silently cut the expression short: refuse the line. */
  size_t nul = strlen(line->text);
  if (nul < len) {
    printf("error: column %zu: a NUL byte cannot be part of an expression\n", nul + 1);
    return 1;
  }
  const char *text = line->text + strspn(line->text, " \t");
  if (*text == '\0' || *text == '#') {
    fputc('\n', stdout);
    return 0;
  }
  return eval_and_print(text, stdout);
}

/* One expression per line, one answer line each; memory is bounded by the
 * longest line, and by MAX_LINE_BYTES whatever the input. */
static int eval_stream(int fd) {
  int status = 0;
  static line_reader reader;
  reader = (line_reader){.fd = fd};
  line_buf line = {NULL, 0, 0};
  for (line_status read; (read = read_line(&reader, &line)) != LINE_END;) {
    if (read == LINE_TOO_LONG) {
      printf("error: the line is longer than %zu bytes, the longest expression 'eval -' reads\n", MAX_LINE_BYTES - 1);
      status = 1;
    } else if (read == LINE_NOMEM) {
      printf("error: out of memory reading the line\n");
      status = 1;
    } else {
      status |= answer_line(&line);
    }
  }
  free(line.text);
  if (reader.error != 0) {
    fflush(stdout);
    return tool_error("eval: reading standard input: %s", strerror(reader.error));
  }
  return status;
}

static int run_eval(int argc, char **argv) {
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  /* Expressions are evaluated once the whole command line has been read, so
   * that a usage error anywhere in it evaluates nothing. */
  const char **exprs = malloc((size_t)argc * sizeof *exprs);
  if (exprs == NULL)
    return tool_error("out of memory");
  int n = 0;
  cli_options o = cli_options_start(argc, argv, "h", longopts);
  const char *arg;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    switch (c) {
    case CLI_OPERAND: exprs[n++] = arg; break;
    case 'h': free(exprs); return show_help(&command_eval);
    default: free(exprs); return cli_option_error(&command_eval, &o, c);
    }
  }
  if (n == 0) {
    free(exprs);
    return usage_error(&command_eval, "expected expressions, or '-' to read them from standard input");
  }
  int status = 0;
  for (int i = 0; i < n; i++)
    status |= strcmp(exprs[i], "-") == 0 ? eval_stream(STDIN_FILENO) : eval_and_print(exprs[i], stdout);
  free(exprs);
  return status;
}

const command command_eval = {
  "eval", run_eval,
  "usage: cute-layout eval EXPR...\n"
  "       cute-layout eval -\n",
  "\n"
  "Evaluates each expression of CuTe's layout algebra and prints one line for it:\n"
  "its value, or 'error: MESSAGE'.  With '-', reads one expression per line of\n"
  "standard input and answers each line as soon as it is read; empty lines and\n"
  "lines starting with '#' are answered with an empty line.  'cute-layout\n"
  "functions' lists the functions.\n"
  "\n"
  "examples:\n"
  "  cute-layout eval 'make_layout((2,(2,2)),(4,(2,1)))'\n"
  "  cute-layout eval 'print_layout((4,8):(8,1))'\n"
  "  cute-layout eval 'logical_divide(make_layout((256,512)),(128,64))'\n"
  "  printf 'size((2,3))\\nrank((2,3))\\n' | cute-layout eval -\n"
  "\n"
  "exit status: 0 if every expression succeeded, 1 if any failed, 2 for a usage error.\n",
  "eval EXPR...     evaluate each expression, one output line each\n"
  "eval -           evaluate one expression per line of standard input\n",
};

/* ------------------------------------------------------------ functions */

/* A name several tables define is listed once: by the entry that answers it. */
static void print_builtin(const builtin *b, void *ctx) {
  (void)ctx;
  if (builtin_find(b->name) == b)
    printf("  %s\n", b->usage);
}

/* The atom catalog's names, one "FAMILY NAME" line each: what a picker
 * (the playground's) offers, in the catalog's order. */
static void print_catalog(void) {
  static const char *const families[] = {"mma", "copy", "type", "smem"};
  for (int f = 0; f < 4; f++)
    for (int64_t i = 0; cl_atom_catalog_name((cl_atom_family)f, i) != NULL; i++)
      printf("%s %s\n", families[f], cl_atom_catalog_name((cl_atom_family)f, i));
}

static int run_functions(int argc, char **argv) {
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {"atoms", no_argument, NULL, 'a'},
                                           {NULL, 0, NULL, 0}};
  cli_options o = cli_options_start(argc, argv, "h", longopts);
  const char *arg;
  bool atoms = false;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    switch (c) {
    case CLI_OPERAND: return usage_error(&command_functions, "takes no arguments, not '%s'", arg);
    case 'a': atoms = true; break;
    case 'h': return show_help(&command_functions);
    default: return cli_option_error(&command_functions, &o, c);
    }
  }
  if (atoms)
    print_catalog();
  else
    builtin_each(print_builtin, NULL);
  return 0;
}

const command command_functions = {
  "functions", run_functions,
  "usage: cute-layout functions [--atoms]\n",
  "\n"
  "Lists the functions of the expression language of 'cute-layout eval', each\n"
  "with the arguments it takes (L a layout, C a composed layout, Sw a swizzle,\n"
  "t an integer tuple).\n"
  "\n"
  "options:\n"
  "      --atoms        list the atom catalog instead, one 'FAMILY NAME' line each:\n"
  "                     mma (MMA operations), copy (copy operations), type (element\n"
  "                     types), smem (GMMA shared-memory layout atoms)\n",
  "functions        list the functions of the expression language\n",
};
