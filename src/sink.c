/* SPDX-License-Identifier: BSD-3-Clause */
/* sink.c: the text-output buffer (sink_impl.h). */
#include <stdarg.h>
#include <string.h>

#include "sink_impl.h"
#include "tuple_impl.h"

void cl_sink_printf(cl_sink *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n;
  if (o->f != NULL) {
    n = vfprintf(o->f, fmt, ap);
    if (n < 0)
      o->failed = true;
  } else {
    size_t room = o->len < o->cap ? o->cap - o->len : 0;
    n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
  }
  va_end(ap);
  if (n > 0)
    o->len += (size_t)n;
}

void cl_sink_write(cl_sink *o, const char *s, size_t n) {
  if (o->f != NULL) {
    if (n > 0 && fwrite(s, 1, n, o->f) != n)
      o->failed = true;
  } else if (o->len < o->cap) {
    size_t room = o->cap - o->len;
    memcpy(o->buf + o->len, s, n < room ? n : room);
  }
  o->len += n;
}

void cl_sink_puts(cl_sink *o, const char *s) { cl_sink_write(o, s, strlen(s)); }

void cl_sink_int(cl_sink *o, int64_t v) {
  char digits[24];
  int n = snprintf(digits, sizeof digits, "%lld", (long long)v);
  cl_sink_write(o, digits, (size_t)n);
}

void cl_sink_repeat(cl_sink *o, char c, int64_t n) {
  char run[64];
  memset(run, c, sizeof run);
  for (; n > 0; n -= (int64_t)sizeof run)
    cl_sink_write(o, run, n < (int64_t)sizeof run ? (size_t)n : sizeof run);
}

int64_t cl_sink_finish(cl_sink *o, const char *what) {
  if (o->f == NULL && o->cap > 0)
    o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
  if (o->failed)
    return cl_fail(CL_E_DOMAIN, "%s: writing to the stream failed", what);
  if (o->len > INT64_MAX)
    return cl_fail(CL_E_OVERFLOW, "%s: longer than INT64_MAX bytes", what);
  return (int64_t)o->len;
}
