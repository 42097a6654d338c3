/* SPDX-License-Identifier: BSD-3-Clause */
/* command.h: the commands of `cute-layout`, and the one way they read their
 * options and report usage errors.
 *
 * Each command is a `command` (its name, its texts and the function that
 * runs it) listed in main.c's table.  A command reads its arguments with
 * getopt_long through cli_next_option():
 *
 *   static const struct option longopts[] = {{"output", required_argument, NULL, 'o'}, ..., {0}};
 *   cli_options o = cli_options_start(argc, argv, "o:h", longopts);
 *   const char *arg;
 *   for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;)
 *     switch (c) {
 *     case CLI_OPERAND: ... arg is the next operand ...
 *     case 'o': ... arg is the option's value ...
 *     case 'h': return show_help(&command_draw);
 *     default: return cli_option_error(&command_draw, &o, c);
 *     }
 *
 * Options and operands may come in any order (`draw -o x.svg EXPR -f txt`),
 * `-oFILE`, `-o FILE`, `--output=FILE` and `--output FILE` are one, long
 * options may be abbreviated, and `--` ends the options.  An operand that
 * starts with '-' and a digit is a negative integer of the eval language,
 * never an option. */
#ifndef CLI_COMMAND_H
#define CLI_COMMAND_H

#include <getopt.h>
#include <stdbool.h>

typedef struct command {
  const char *name;
  /* argv[0] is the command's name; returns the exit status: 0 success, 1 a
   * failure, 2 a usage error. */
  int (*run)(int argc, char **argv);
  const char *synopsis; /* "usage: cute-layout NAME ..." lines, for errors */
  const char *help;     /* the rest of --help, after the synopsis */
  const char *listing;  /* "NAME ARGS   what it does" lines for `cute-layout --help` */
} command;

extern const command command_eval, command_functions, command_copy, command_draw, command_explain, command_help;

/* The commands in the order `cute-layout --help` lists them; NULL-terminated. */
extern const command *const cli_commands[];
const command *command_find(const char *name);

/* The tool itself, for its usage errors (its name is NULL). */
extern const command command_tool;
/* `cute-layout --help`: the tool's synopsis and its commands; returns 0. */
int tool_help(void);
/* The usage error of cmd for a command name that names none; suggests the
 * nearest.  Returns 2. */
int unknown_command(const command *cmd, const char *name);

/* Prints the command's synopsis and help to standard output; returns 0. */
int show_help(const command *cmd);

/* Prints "cute-layout: NAME: MESSAGE", the synopsis and a pointer to --help
 * to standard error; returns 2, the exit status of a usage error. */
int usage_error(const command *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints "cute-layout: MESSAGE" to standard error (a failure that is not a
 * usage error); returns 1. */
int tool_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

enum { CLI_END = -1, CLI_OPERAND = 1 };

typedef struct cli_options {
  int argc;
  char **argv;
  char shortopts[64];
  const struct option *longopts;
  bool operands_only;  /* after `--` */
  const char *current; /* the element getopt_long last worked on */
} cli_options;

cli_options cli_options_start(int argc, char **argv, const char *shortopts, const struct option *longopts);

/* The next operand (CLI_OPERAND, *arg the operand) or option (its code, *arg
 * its value or NULL), or CLI_END.  A code cli_option_error() reports is '?'
 * (an unknown, ambiguous or misused option) or ':' (one missing its value). */
int cli_next_option(cli_options *o, const char **arg);

/* The usage error for the '?' or ':' that cli_next_option() returned;
 * suggests the nearest option to a misspelt one.  Returns 2. */
int cli_option_error(const command *cmd, const cli_options *o, int code);

/* The usage error for an option whose value is not one of `choices`
 * (NULL-terminated): names them all, and the nearest.  Returns 2. */
int cli_choice_error(const command *cmd, const char *option, const char *value, const char *const *choices);

#endif
