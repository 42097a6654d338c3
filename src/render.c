/* render.c: pictures of layouts: CuTe's print_layout table and print1D. */
#include <stdio.h>

#include "tuple_impl.h"
#include "cutelayout/layout.h"
#include "cutelayout/render.h"

typedef struct out {
  char *buf;
  size_t cap, len;
} out;

static void emit(out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#include <stdarg.h>
static void emit(out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = o->len < o->cap ? o->cap - o->len : 0;
  int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0)
    o->len += (size_t)n;
}

static void emit_repeat(out *o, char c, int64_t count) {
  for (int64_t i = 0; i < count; i++)
    emit(o, "%c", c);
}

static int num_digits(int64_t x) {
  int d = 1;
  while (x >= 10 && d < 10) {
    x /= 10;
    d++;
  }
  return d;
}

static int64_t finish(out *o) {
  if (o->cap > 0)
    o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
  return (int64_t)o->len;
}

/* Border line between rows: "    +----+----+\n". */
static void emit_rule(out *o, int64_t columns, int width) {
  emit(o, "    ");
  for (int64_t n = 0; n < columns; n++) {
    emit(o, "+");
    emit_repeat(o, '-', width);
  }
  emit(o, "+\n");
}

int64_t cl_print_layout(const cl_layout_t *layout, char *buf, size_t cap) {
  if (layout == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print_layout: NULL argument");
  const cl_node *l = cl_lroot(layout), *shape = cl_lshape(l), *stride = cl_lstride(l);
  if (cl_rank_of(shape) != 2 || !cl_is_tuple(shape))
    return cl_fail(CL_E_RANK, "print_layout: the layout must have rank 2, not %lld", (long long)cl_rank_of(shape));
  int64_t rows, cols, cosize;
  CL_TRY(cl_tree_product(cl_child(shape, 0), &rows));
  CL_TRY(cl_tree_product(cl_child(shape, 1), &cols));
  CL_TRY(cl_layout_cosize_checked(layout, &cosize));
  /* CuTe formats with int: compute every entry first so that failure leaves
   * no partial table. */
  int width = num_digits(cosize) + 2;
  out o = {buf, cap, 0};
  o.len = (size_t)cl_format_tree(l, buf, cap);
  emit(&o, "\n    ");
  for (int64_t n = 0; n < cols; n++)
    emit(&o, "  %*lld ", width - 2, (long long)n);
  emit(&o, "\n");
  for (int64_t m = 0; m < rows; m++) {
    emit_rule(&o, cols, width);
    emit(&o, "%2lld  ", (long long)m);
    for (int64_t n = 0; n < cols; n++) {
      int64_t im = 0, in = 0, idx;
      CL_TRY(cl_tree_eval(cl_child(shape, 0), cl_child(stride, 0), m, &im));
      CL_TRY(cl_tree_eval(cl_child(shape, 1), cl_child(stride, 1), n, &in));
      CL_TRY(cl_add(im, in, &idx));
      emit(&o, "| %*lld ", width - 2, (long long)idx);
    }
    emit(&o, "|\n");
  }
  emit_rule(&o, cols, width);
  return finish(&o);
}

int64_t cl_print_1d(const cl_layout_t *layout, char *buf, size_t cap) {
  if (layout == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print1D: NULL argument");
  int64_t size;
  CL_TRY(cl_layout_size_checked(layout, &size));
  const cl_node *l = cl_lroot(layout);
  out o = {buf, cap, 0};
  for (int64_t i = 0; i < size; i++) {
    int64_t idx;
    CL_TRY(cl_tree_eval(cl_lshape(l), cl_lstride(l), i, &idx));
    emit(&o, i ? " %lld" : "%lld", (long long)idx);
  }
  return finish(&o);
}
