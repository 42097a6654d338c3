/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_demo.h: the `cute-layout copy` command (copy_demo.c). */
#ifndef CLI_COPY_DEMO_H
#define CLI_COPY_DEMO_H

/* Runs `cute-layout copy ARGS...` (argv without the command name); returns
 * the exit status: 0 success, 1 a failed copy, 2 a usage error. */
int command_copy(int argc, char **argv);

#endif
