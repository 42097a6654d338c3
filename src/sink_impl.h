/* SPDX-License-Identifier: BSD-3-Clause */
/* sink_impl.h: the one text-output buffer of the library.
 *
 * Every function that writes text (the formatters, print_layout and print1D,
 * the pictures, print_tensor, the copy planner's explanation) writes through
 * a cl_sink: either a caller's buffer, filled snprintf-style (at most cap
 * bytes, NUL included, while `len` counts the whole text), or a stream.
 * Writes never fail part-way from the writer's point of view: a full buffer
 * keeps counting, and a stream that refuses a write is remembered in
 * `failed` and reported once, by cl_sink_finish. */
#ifndef CUTELAYOUT_SINK_IMPL_H
#define CUTELAYOUT_SINK_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct cl_sink {
  char *buf;
  size_t cap, len;
  FILE *f;
  bool failed; /* the stream refused a write */
} cl_sink;

static inline cl_sink cl_sink_buffer(char *buf, size_t cap) {
  cl_sink o = {buf, cap, 0, NULL, false};
  return o;
}
static inline cl_sink cl_sink_stream(FILE *f) {
  cl_sink o = {NULL, 0, 0, f, false};
  return o;
}

void cl_sink_printf(cl_sink *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The n bytes at s. */
void cl_sink_write(cl_sink *o, const char *s, size_t n);
void cl_sink_puts(cl_sink *o, const char *s);
void cl_sink_int(cl_sink *o, int64_t v);
/* c, n times. */
void cl_sink_repeat(cl_sink *o, char c, int64_t n);

/* Ends the text: NUL-terminates a buffer (truncating if it is full) and
 * returns the length of the whole text, or CL_E_DOMAIN (naming `what`) when
 * a stream refused a write, or CL_E_OVERFLOW for more than INT64_MAX bytes. */
int64_t cl_sink_finish(cl_sink *o, const char *what);

#endif
