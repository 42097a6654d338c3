/* SPDX-License-Identifier: BSD-3-Clause */
/* main.c: the `cute-layout` command: the tool's own options, then the
 * command named by the first operand (command.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "command.h"

/* Standard output's last buffered bytes are written here, where a failure
 * (a full disk) can still change the exit status. */
static int finish_output(int status) {
  if (fflush(stdout) != 0 || ferror(stdout)) {
    tool_error("writing standard output: %s", strerror(errno));
    return status == 0 ? 1 : status;
  }
  return status;
}

static int run(int argc, char **argv) {
  static const struct option longopts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
  };
  cli_options o = cli_options_start(argc, argv, "hV", longopts);
  const char *arg;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    switch (c) {
    case CLI_OPERAND: {
      const command *cmd = command_find(arg);
      if (cmd == NULL)
        return unknown_command(&command_tool, arg);
      int first = optind - 1; /* the command's name is its argv[0] */
      return cmd->run(argc - first, argv + first);
    }
    case 'h': return tool_help();
    case 'V':
      printf("cute-layout %s (library %s, ABI %d)\n", CUTELAYOUT_VERSION_STRING, cl_version_string(),
             cl_abi_version());
      return 0;
    default: return cli_option_error(&command_tool, &o, c);
    }
  }
  return usage_error(&command_tool, "expected a command");
}

int main(int argc, char **argv) { return finish_output(run(argc, argv)); }
