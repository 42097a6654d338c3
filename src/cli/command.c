/* SPDX-License-Identifier: BSD-3-Clause */
/* command.c: option parsing and usage errors, shared by every command
 * (command.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "suggest.h"

const command *command_find(const char *name) {
  for (size_t i = 0; cli_commands[i] != NULL; i++)
    if (strcmp(cli_commands[i]->name, name) == 0)
      return cli_commands[i];
  return NULL;
}

int show_help(const command *cmd) {
  fputs(cmd->synopsis, stdout);
  fputs(cmd->help, stdout);
  return 0;
}

int usage_error(const command *cmd, const char *fmt, ...) {
  fputs("cute-layout: ", stderr);
  if (cmd->name != NULL)
    fprintf(stderr, "%s: ", cmd->name);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n%sTry 'cute-layout %s%s--help' for more information.\n", cmd->synopsis, cmd->name ? cmd->name : "",
          cmd->name ? " " : "");
  return 2;
}

int tool_error(const char *fmt, ...) {
  fputs("cute-layout: ", stderr);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return 1;
}

/* ------------------------------------------------------------ options */

cli_options cli_options_start(int argc, char **argv, const char *shortopts, const struct option *longopts) {
  cli_options o = {argc, argv, "", longopts, false, NULL};
  /* '-': operands are returned in order, between the options (nothing is
   * permuted, so an operand is seen before getopt could take it for an
   * option); ':': a missing value is reported as ':', and getopt itself
   * prints nothing. */
  snprintf(o.shortopts, sizeof o.shortopts, "-:%s", shortopts);
  opterr = 0;
  /* getopt starts afresh (forgets an earlier argv and re-reads the ordering
   * from the option string) only in a call that finds optind 0; make that
   * call now, on no arguments, so that cli_next_option may move optind past
   * a negative number before getopt first looks at argv. */
  static char *no_arguments[] = {"cute-layout", NULL};
  optind = 0;
  (void)getopt_long(1, no_arguments, o.shortopts, longopts, NULL);
  optind = 1;
  return o;
}

/* A negative integer, as an expression of the eval language may start. */
static bool is_negative_number(const char *arg) { return arg[0] == '-' && isdigit((unsigned char)arg[1]); }

int cli_next_option(cli_options *o, const char **arg) {
  *arg = NULL;
  int next = optind;
  if (!o->operands_only && next < o->argc && is_negative_number(o->argv[next])) {
    optind = next + 1;
    *arg = o->argv[next];
    return CLI_OPERAND;
  }
  if (o->operands_only) {
    if (next >= o->argc)
      return CLI_END;
    optind = next + 1;
    *arg = o->argv[next];
    return CLI_OPERAND;
  }
  /* The element getopt works on: a cluster of short options stays at optind
   * until its last letter. */
  o->current = next < o->argc ? o->argv[next] : NULL;
  int c = getopt_long(o->argc, o->argv, o->shortopts, o->longopts, NULL);
  if (c == -1) {
    o->operands_only = true; /* the end, or `--`: the rest are operands */
    return cli_next_option(o, arg);
  }
  *arg = optarg;
  return c;
}

/* The long options whose names start with the `len` letters of name. */
static int matching_options(const struct option *longopts, const char *name, size_t len, const struct option **exact,
                            char *list, size_t cap) {
  int n = 0;
  *exact = NULL;
  list[0] = '\0';
  for (const struct option *opt = longopts; opt != NULL && opt->name != NULL; opt++) {
    if (strncmp(opt->name, name, len) != 0)
      continue;
    if (strlen(opt->name) == len)
      *exact = opt;
    size_t used = strlen(list);
    snprintf(list + used, cap - used, "%s--%s", n > 0 ? ", " : "", opt->name);
    n++;
  }
  return n;
}

static int long_option_error(const command *cmd, const cli_options *o, int code) {
  const char *name = o->current + 2;
  size_t len = strcspn(name, "=");
  const struct option *exact;
  char list[256];
  int n = matching_options(o->longopts, name, len, &exact, list, sizeof list);
  if (code == ':')
    return usage_error(cmd, "option '--%.*s' needs a value", (int)len, name);
  if (exact != NULL || n == 1)
    return usage_error(cmd, "option '--%.*s' takes no value", (int)len, name);
  if (n > 1)
    return usage_error(cmd, "option '--%.*s' is ambiguous: %s", (int)len, name, list);
  char word[64];
  snprintf(word, sizeof word, "%.*s", (int)(len < 63 ? len : 63), name);
  suggestion s = suggestion_start(word);
  for (const struct option *opt = o->longopts; opt != NULL && opt->name != NULL; opt++)
    suggestion_offer(&s, opt->name);
  const char *near = suggestion_result(&s);
  if (near != NULL)
    return usage_error(cmd, "unknown option '--%.*s'; did you mean '--%s'?", (int)len, name, near);
  return usage_error(cmd, "unknown option '--%.*s'", (int)len, name);
}

int cli_option_error(const command *cmd, const cli_options *o, int code) {
  if (o->current != NULL && strncmp(o->current, "--", 2) == 0)
    return long_option_error(cmd, o, code);
  if (code == ':')
    return usage_error(cmd, "option '-%c' needs a value", optopt);
  if (isprint(optopt))
    return usage_error(cmd, "unknown option '-%c'", optopt);
  return usage_error(cmd, "unknown option byte 0x%02x", (unsigned char)optopt);
}

int cli_choice_error(const command *cmd, const char *option, const char *value, const char *const *choices) {
  char list[256] = "";
  for (size_t i = 0; choices[i] != NULL; i++) {
    size_t used = strlen(list);
    snprintf(list + used, sizeof list - used, "%s%s", i == 0 ? "" : choices[i + 1] == NULL ? " or " : ", ", choices[i]);
  }
  const char *near = suggest_from(value, choices);
  if (near != NULL)
    return usage_error(cmd, "%s must be %s, not '%s'; did you mean '%s'?", option, list, value, near);
  return usage_error(cmd, "%s must be %s, not '%s'", option, list, value);
}

/* ------------------------------------------------------------ the tool */

const command *const cli_commands[] = {&command_eval, &command_functions, &command_copy, &command_draw, &command_explain, &command_help, NULL};

const command command_tool = {
  NULL, NULL,
  "usage: cute-layout [--help | --version] COMMAND [ARGS]\n",
  "\n"
  "NVIDIA CuTe's layout algebra at run time.\n",
  NULL,
};

/* Prints each line of text indented by two spaces. */
static void put_indented(const char *text) {
  for (const char *line = text; *line != '\0';) {
    size_t n = strcspn(line, "\n");
    printf("  %.*s\n", (int)n, line);
    line += n + (line[n] == '\n');
  }
}

int tool_help(void) {
  show_help(&command_tool);
  fputs("\ncommands:\n", stdout);
  for (size_t i = 0; cli_commands[i] != NULL; i++)
    put_indented(cli_commands[i]->listing);
  fputs("\n"
        "options:\n"
        "  -h, --help       this text\n"
        "  -V, --version    the version of the tool and library\n"
        "\n"
        "'cute-layout COMMAND --help' describes a command.\n"
        "\n"
        "examples:\n"
        "  cute-layout eval 'make_layout((2,(2,2)),(4,(2,1)))'\n"
        "  cute-layout eval 'print_layout((4,8):(8,1))'\n"
        "  cute-layout eval 'logical_divide(make_layout((256,512)),(128,64))'\n"
        "  cute-layout draw 'logical_divide(make_layout((8,8)),(2,4))' -o tiles.svg\n"
        "\n"
        "exit status: 0 on success, 1 if an expression or the work failed, 2 for a usage error.\n",
        stdout);
  return 0;
}

/* The usage error for an unknown command name. */
int unknown_command(const command *cmd, const char *name) {
  suggestion s = suggestion_start(name);
  for (size_t i = 0; cli_commands[i] != NULL; i++)
    suggestion_offer(&s, cli_commands[i]->name);
  const char *near = suggestion_result(&s);
  if (near != NULL)
    return usage_error(cmd, "unknown command '%s'; did you mean '%s'?", name, near);
  return usage_error(cmd, "unknown command '%s'", name);
}

static int run_help(int argc, char **argv) {
  static const struct option longopts[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
  const char *topic = NULL;
  cli_options o = cli_options_start(argc, argv, "h", longopts);
  const char *arg;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    switch (c) {
    case CLI_OPERAND:
      if (topic != NULL)
        return usage_error(&command_help, "expected one COMMAND, got a second one, '%s'", arg);
      topic = arg;
      break;
    case 'h': return show_help(&command_help);
    default: return cli_option_error(&command_help, &o, c);
    }
  }
  if (topic == NULL)
    return tool_help();
  const command *cmd = command_find(topic);
  return cmd != NULL ? show_help(cmd) : unknown_command(&command_help, topic);
}

const command command_help = {
  "help", run_help,
  "usage: cute-layout help [COMMAND]\n",
  "\n"
  "Describes COMMAND (as 'cute-layout COMMAND --help' does), or the tool.\n",
  "help [COMMAND]   describe the tool, or a command\n",
};
