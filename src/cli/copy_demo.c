/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_demo.c: `cute-layout copy SRC DST [--type T]`: cl_tensor_copy between
 * two layouts on a small generated array, printing both tensors.
 *
 * The source memory holds 0, 1, 2, ... (the value of each slot is its offset
 * from the tensor's base pointer), so printing the source shows its layout's
 * index function, and printing the destination after the copy shows where
 * every element went.  A client of the public API only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "eval.h"

static const char copy_help[] =
  "\n"
  "Copies a tensor over layout SRC into a tensor over layout DST (dst(i) = src(i)\n"
  "for every linear coordinate i) with the library's tensor copy and prints both\n"
  "tensors as CuTe's print_tensor does, the destination's memory in order, and\n"
  "the copy plan.  SRC and DST are expressions of 'cute-layout eval' that give\n"
  "layouts of one size.  The source memory holds its own offsets: 0, 1, 2, ...\n"
  "\n"
  "  -t, --type=T   element type: int8 int16 int32 int64 uint8 uint16 uint32 uint64\n"
  "                 float16 bfloat16 float32 float64 (default int32)\n"
  "  -h, --help     this text\n"
  "\n"
  "examples:\n"
  "  cute-layout copy '(4,8):(1,4)' '(4,8):(8,1)'            a transpose\n"
  "  cute-layout copy '(4,8):(0,1)' 'make_layout((4,8))'     a broadcast source\n"
  "  cute-layout copy 'logical_divide(make_layout((4,8)),(2,4))' 'make_layout((4,8),LayoutRight)'\n";

/* The layout an expression evaluates to (a new handle), or NULL after
 * printing the error. */
static cl_layout_t *layout_arg(const char *what, const char *text) {
  value v;
  cl_status s = eval_expression(text, &v);
  if (s != CL_OK) {
    tool_error("copy: %s: %s", what, eval_error_message(s));
    return NULL;
  }
  cl_layout_t *copy = NULL;
  if (v.kind != V_LAYOUT)
    tool_error("copy: %s: '%s' is not a layout", what, text);
  else if (cl_layout_copy(v.layout, &copy) != CL_OK)
    tool_error("copy: %s: out of memory", what);
  value_free(&v);
  return copy;
}

/* IEEE binary16 of a small integer-valued double (exact below 2048). */
static uint16_t half_of(double x) {
  if (x == 0)
    return 0;
  uint16_t sign = x < 0 ? 0x8000 : 0;
  double a = x < 0 ? -x : x;
  int exp = 0;
  while (a >= 2.0) {
    a /= 2.0;
    exp++;
  }
  while (a < 1.0) {
    a *= 2.0;
    exp--;
  }
  if (exp > 15)
    return sign | 0x7c00; /* infinity */
  uint16_t mant = (uint16_t)((a - 1.0) * 1024.0 + 0.5);
  return (uint16_t)(sign | (uint16_t)((exp + 15) << 10) | mant);
}

/* bfloat16 of a double: the top half of the float, rounded to nearest even. */
static uint16_t bfloat_of(double x) {
  float f = (float)x;
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  bits += 0x7fff + ((bits >> 16) & 1);
  return (uint16_t)(bits >> 16);
}

/* Stores the number x as an element of type d at p. */
static void store_number(void *p, cl_dtype d, double x) {
  switch (d) {
#define AS(T)            \
  {                      \
    T v = (T)x;          \
    memcpy(p, &v, sizeof v); \
    return;              \
  }
  case CL_DTYPE_INT8: AS(int8_t)
  case CL_DTYPE_INT16: AS(int16_t)
  case CL_DTYPE_INT32: AS(int32_t)
  case CL_DTYPE_INT64: AS(int64_t)
  case CL_DTYPE_UINT8: AS(uint8_t)
  case CL_DTYPE_UINT16: AS(uint16_t)
  case CL_DTYPE_UINT32: AS(uint32_t)
  case CL_DTYPE_UINT64: AS(uint64_t)
  case CL_DTYPE_FLOAT32: AS(float)
  case CL_DTYPE_FLOAT64: AS(double)
#undef AS
  case CL_DTYPE_FLOAT16: {
    uint16_t h = half_of(x);
    memcpy(p, &h, sizeof h);
    return;
  }
  case CL_DTYPE_BFLOAT16: {
    uint16_t h = bfloat_of(x);
    memcpy(p, &h, sizeof h);
    return;
  }
  default: return;
  }
}

/* A one-row view of every slot a tensor's layout reaches, lowest first. */
static cl_status memory_row(const cl_tensor_t *t, cl_tensor_t **out) {
  int64_t lo, hi;
  cl_status s = cl_tensor_offset_range(t, &lo, &hi);
  if (s != CL_OK)
    return s;
  char text[64];
  snprintf(text, sizeof text, "(1,%lld):(0,1)", (long long)(hi - lo + 1));
  cl_layout_t *row = NULL;
  if ((s = cl_layout_parse(text, &row)) != CL_OK)
    return s;
  char *base = (char *)cl_tensor_data(t) + lo * (int64_t)cl_tensor_elem_size(t);
  s = cl_tensor_new_typed(base, cl_tensor_dtype(t), row, out);
  cl_layout_free(row);
  return s;
}

static void print_section(const char *title, const cl_layout_t *layout, const cl_tensor_t *t) {
  char *text = NULL;
  if (cl_layout_to_string(layout, &text) == CL_OK)
    printf("%s %s:\n", title, text);
  cl_string_free(text);
  cl_print_tensor_file(t, CL_PRINT_NO_HEADER, stdout);
}

static int fail(const char *what, cl_status s) {
  return tool_error("copy: %s%s", what, cl_last_error()[0] ? cl_last_error() : cl_status_string(s));
}

/* The element types the library names, for --type's error message. */
static void dtype_names(const char **names, size_t cap) {
  size_t n = 0;
  for (int d = CL_DTYPE_NONE + 1; n + 1 < cap && cl_dtype_name((cl_dtype)d) != NULL; d++)
    names[n++] = cl_dtype_name((cl_dtype)d);
  names[n] = NULL;
}

static int parse_type(const char *name, cl_dtype *out) {
  if (cl_dtype_parse(name, out) == CL_OK && *out != CL_DTYPE_NONE)
    return 0;
  const char *names[32];
  dtype_names(names, sizeof names / sizeof names[0]);
  return cli_choice_error(&command_copy, "--type", name, names);
}

/* Copies between tensors over the layouts the two expressions give and
 * prints them; returns the exit status. */
static int copy_and_print(const char *src_text, const char *dst_text, cl_dtype dtype) {
  int status = 1;
  cl_layout_t *src_layout = layout_arg("SRC", src_text), *dst_layout = NULL;
  cl_tensor_t *src = NULL, *dst = NULL, *dst_mem = NULL;
  cl_status s;
  if (src_layout == NULL || (dst_layout = layout_arg("DST", dst_text)) == NULL)
    goto done;
  if (cl_layout_size(src_layout) != cl_layout_size(dst_layout)) {
    tool_error("copy: SRC has %lld elements, DST %lld", (long long)cl_layout_size(src_layout),
               (long long)cl_layout_size(dst_layout));
    goto done;
  }
  if ((s = cl_tensor_alloc(src_layout, 0, dtype, &src)) != CL_OK) {
    fail("SRC: ", s);
    goto done;
  }
  if ((s = cl_tensor_alloc(dst_layout, 0, dtype, &dst)) != CL_OK) {
    fail("DST: ", s);
    goto done;
  }
  /* The source memory: each slot holds its offset from the base pointer. */
  int64_t lo, hi;
  cl_tensor_offset_range(src, &lo, &hi);
  char *base = cl_tensor_data(src);
  size_t e = cl_tensor_elem_size(src);
  for (int64_t offset = lo; offset <= hi; offset++)
    store_number(base + offset * (int64_t)e, dtype, (double)offset);

  if ((s = cl_tensor_copy(dst, src)) != CL_OK) {
    fail("", s);
    goto done;
  }
  print_section("src", src_layout, src);
  print_section("dst", dst_layout, dst);
  if ((s = memory_row(dst, &dst_mem)) != CL_OK) {
    fail("", s);
    goto done;
  }
  printf("dst memory, lowest address first:\n");
  cl_print_tensor_file(dst_mem, CL_PRINT_NO_HEADER, stdout);
  char plan[512];
  if (cl_tensor_copy_explain(dst, src, plan, sizeof plan) >= 0)
    printf("plan: %s\n", plan);
  status = 0;
done:
  cl_tensor_free(dst_mem);
  cl_tensor_free(src);
  cl_tensor_free(dst);
  cl_layout_free(src_layout);
  cl_layout_free(dst_layout);
  return status;
}

static int run_copy(int argc, char **argv) {
  static const struct option longopts[] = {
    {"type", required_argument, NULL, 't'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
  };
  const char *positional[2] = {NULL, NULL};
  int npos = 0;
  cl_dtype dtype = CL_DTYPE_INT32;
  cli_options o = cli_options_start(argc, argv, "t:h", longopts);
  const char *arg;
  for (int c; (c = cli_next_option(&o, &arg)) != CLI_END;) {
    switch (c) {
    case CLI_OPERAND:
      if (npos == 2)
        return usage_error(&command_copy, "expected SRC and DST, got a third layout, '%s'", arg);
      positional[npos++] = arg;
      break;
    case 't':
      if (parse_type(arg, &dtype) != 0)
        return 2;
      break;
    case 'h': return show_help(&command_copy);
    default: return cli_option_error(&command_copy, &o, c);
    }
  }
  if (npos != 2)
    return usage_error(&command_copy, "expected SRC and DST layouts");
  return copy_and_print(positional[0], positional[1], dtype);
}

const command command_copy = {
  "copy", run_copy,
  "usage: cute-layout copy SRC DST [--type T]\n",
  copy_help,
  "copy SRC DST     copy a generated tensor between two layouts and print both\n",
};
