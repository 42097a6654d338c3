// SPDX-License-Identifier: BSD-3-Clause
// OpenCL's headers and ours in one C++ translation unit (issue 12), compiled
// by coexist.py with -Wall -Wextra -Werror in both orders (CUTELAYOUT_FIRST).
// In C++ a clash also shows where C would accept a compatible redeclaration:
// two typedefs of one name to different types, an enumerator declared twice.
#define CL_TARGET_OPENCL_VERSION 300
#if CUTELAYOUT_FIRST
#include <cutelayout/cutelayout.h>
#include <CL/opencl.h>
#else
#include <CL/opencl.h>
#include <cutelayout/cutelayout.h>
#endif
#include <cstdio>
#include <memory>
#include <string>

namespace {

struct LayoutFree {
  void operator()(cl_layout_t *layout) const { cl_layout_free(layout); }
};
using Layout = std::unique_ptr<cl_layout_t, LayoutFree>;

Layout parse(const char *text) {
  cl_layout_t *layout = nullptr;
  return Layout(cl_layout_parse(text, &layout) == CL_OK ? layout : nullptr);
}

bool check(bool ok, const char *what) {
  if (!ok)
    std::fprintf(stderr, "check failed: %s\n", what);
  return ok;
}

}  // namespace

int main() {
  cl_version v = CL_MAKE_VERSION(3, 0, 1);
  cl_int opencl_status = CL_SUCCESS;
  Layout layout = parse("(2,(2,2)):(4,(2,1))");
  int64_t index = -1;
  bool ok = check(CL_VERSION_MAJOR(v) == 3 && CL_VERSION_PATCH(v) == 1, "OpenCL's CL_VERSION_* macros") &&
            check(opencl_status == 0, "CL_SUCCESS") &&
            check(std::string(cl_version_string()) == CUTELAYOUT_VERSION_STRING, "cl_version_string()") &&
            check(CUTELAYOUT_VERSION_NUMBER == CUTELAYOUT_VERSION_MAJOR * 10000 + CUTELAYOUT_VERSION_MINOR * 100 +
                                                   CUTELAYOUT_VERSION_PATCH,
                  "CUTELAYOUT_VERSION_NUMBER") &&
            check(layout != nullptr, "cl_layout_parse") &&
            check(cl_layout_eval(layout.get(), 1, &index) == CL_OK && index == 4, "cl_layout_eval");
  if (ok)
    std::printf("C++, %s first: ok\n", CUTELAYOUT_FIRST ? "cute-layout" : "OpenCL");
  return ok ? 0 : 1;
}
