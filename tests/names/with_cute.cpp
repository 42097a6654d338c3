// SPDX-License-Identifier: BSD-3-Clause
// CuTe's headers and ours in one C++ translation unit (issue 12), compiled by
// coexist.py with -Wall -Wextra -Werror in both orders (CUTELAYOUT_FIRST)
// when meson is given a CUTLASS checkout (-Dcute_dir).  No CuTe macro
// (CUTE_*) may change our declarations, and none of our macros CuTe's: both
// libraries then agree on a layout, evaluated at every coordinate.
#if CUTELAYOUT_FIRST
#include <cutelayout/cutelayout.h>
#include <cute/tensor.hpp>
#else
#include <cute/tensor.hpp>
#include <cutelayout/cutelayout.h>
#endif
#include <cstdio>

int main() {
  using namespace cute;
  auto cute_layout = make_layout(make_shape(Int<2>{}, make_shape(Int<2>{}, Int<2>{})),
                                 make_stride(Int<4>{}, make_stride(Int<2>{}, Int<1>{})));
  cl_layout_t *ours = nullptr;
  if (cl_layout_parse("(2,(2,2)):(4,(2,1))", &ours) != CL_OK) {
    std::fprintf(stderr, "cl_layout_parse failed: %s\n", cl_last_error());
    return 1;
  }
  int failures = 0;
  if (cl_layout_size(ours) != int64_t(size(cute_layout)) || cl_layout_cosize(ours) != int64_t(cosize(cute_layout)))
    failures++;
  for (int64_t i = 0; i < cl_layout_size(ours); i++) {
    int64_t index = -1;
    if (cl_layout_eval(ours, i, &index) != CL_OK || index != int64_t(cute_layout(i))) {
      std::fprintf(stderr, "layout(%lld): cute-layout %lld, CuTe %lld\n", (long long)i, (long long)index,
                   (long long)cute_layout(i));
      failures++;
    }
  }
  cl_layout_free(ours);
  if (failures == 0)
    std::printf("C++ with CuTe, %s first: ok\n", CUTELAYOUT_FIRST ? "cute-layout" : "CuTe");
  return failures == 0 ? 0 : 1;
}
