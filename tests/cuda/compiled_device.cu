/* SPDX-License-Identifier: BSD-3-Clause */
// compiled_device.cu: compiled.h in CUDA code, as the GPU module builds on
// it.  nvcc must accept the inline evaluator in device code (a kernel that
// takes the compiled layout by value: plain data, no call into the library),
// and the same functions, compiled by nvcc for the host, must agree with
// cl_layout_eval.  No GPU is needed: the kernel is compiled, not launched.
#include <cstdio>

#include <cutelayout/cutelayout.h>

__global__ void eval_kernel(cl_compiled_layout_t layout, int64_t *out) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < layout.size)
    out[i] = cl_compiled_eval(&layout, i);
}

// A __device__ function may call it too, through a pointer to any memory.
__device__ int64_t eval_from(const cl_compiled_layout_t *layout, int64_t i) { return cl_compiled_eval(layout, i); }

static int check(const char *text, bool composed) {
  cl_compiled_layout_t c;
  cl_layout_t *layout = nullptr;
  cl_composed_t *swizzled = nullptr;
  int status = composed ? cl_composed_parse(text, &swizzled) : cl_layout_parse(text, &layout);
  if (status == CL_OK)
    status = composed ? cl_composed_compile(swizzled, &c) : cl_layout_compile(layout, &c);
  int wrong = status != CL_OK;
  for (int64_t i = 0; status == CL_OK && i < c.size; i++) {
    int64_t index = -1;
    status = composed ? cl_composed_eval(swizzled, i, &index) : cl_layout_eval(layout, i, &index);
    wrong += status != CL_OK || index != cl_compiled_eval(&c, i);
  }
  if (wrong)
    std::fprintf(stderr, "compiled_device: %s: %d wrong (%s)\n", text, wrong, cl_last_error());
  cl_layout_free(layout);
  cl_composed_free(swizzled);
  return wrong;
}

int main() {
  int wrong = check("((4,8),(2,(2,4))):((2,16),(1,(8,128)))", false) + check("(3,5,7):(-1,-3,-15)", false) +
              check("Sw<3,3,3> o 0 o (8,64):(64,1)", true) + check("Sw<2,2,-3> o 5 o (8,8):(8,1)", true);
  if (wrong == 0)
    std::printf("compiled_device: nvcc's host code agrees with the library\n");
  return wrong != 0;
}
