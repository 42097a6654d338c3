/* SPDX-License-Identifier: BSD-3-Clause */
/* draw.h: the `cute-layout draw` command (draw.c). */
#ifndef CLI_DRAW_H
#define CLI_DRAW_H

/* Runs `cute-layout draw ARGS...` (argv without the command name); returns
 * the exit status: 0 success, 1 a failed expression or picture, 2 a usage
 * error. */
int command_draw(int argc, char **argv);

#endif
