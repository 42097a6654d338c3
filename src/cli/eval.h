/* SPDX-License-Identifier: BSD-3-Clause */
/* eval.h: evaluation of one expression of the `cute-layout eval` language. */
#ifndef CLI_EVAL_H
#define CLI_EVAL_H

#include <stdio.h>
#include "value.h"

/* Evaluates one expression.  On failure the message for "error: ..." is
 * available from eval_error_message(). */
cl_status eval_expression(const char *text, value *out);
const char *eval_error_message(cl_status status);

/* Evaluates `text` and writes its output line(s) to f; returns 0 on success,
 * 1 when the expression failed (an "error: ..." line was written). */
int eval_and_print(const char *text, FILE *f);

#endif
