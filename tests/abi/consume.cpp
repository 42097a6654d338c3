/* SPDX-License-Identifier: BSD-3-Clause */
// consume.cpp: a C++17 program against the installed library, through
// `pkg-config --cflags --libs cute-layout` only.  The headers must compile as
// C++ (extern "C", no C-only constructs); the handles fit std::unique_ptr.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>

#include <cutelayout/cutelayout.h>

namespace {

struct LayoutDeleter {
  void operator()(cl_layout_t *layout) const noexcept { cl_layout_free(layout); }
};
using Layout = std::unique_ptr<cl_layout_t, LayoutDeleter>;

Layout parse(const std::string &text) {
  cl_layout_t *raw = nullptr;
  if (int status = cl_layout_parse(text.c_str(), &raw); status != CL_OK)
    throw std::runtime_error(std::string(cl_status_string(status)) + ": " + cl_last_error());
  return Layout(raw);
}

std::string to_string(const Layout &layout) {
  std::string text(static_cast<std::size_t>(cl_layout_format(layout.get(), nullptr, 0)), '\0');
  cl_layout_format(layout.get(), text.data(), text.size() + 1);
  return text;
}

int failures = 0;

void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "consume.cpp: %s\n", what);
    failures++;
  }
}

}  // namespace

int main() {
  check(cl_abi_compatible() != 0, "cl_abi_compatible()");
  Layout layout = parse("(4,8):(8,1)");
  check(to_string(layout) == "(4,8):(8,1)", "round trip");
  check(cl_layout_size(layout.get()) == 32, "size");
  check(cl_layout_cosize(layout.get()) == 32, "cosize");
  std::int64_t index = -1;
  check(cl_layout_eval(layout.get(), 5, &index) == CL_OK && index == 9, "L(5) == 9");
  // The compiled layout is plain data: copied by value, evaluated inline.
  cl_compiled_layout_t compiled{};
  check(cl_layout_compile(layout.get(), &compiled) == CL_OK, "cl_layout_compile");
  const cl_compiled_layout_t copy = compiled;
  for (std::int64_t i = 0; i < 32; i++)
    check(cl_layout_eval(layout.get(), i, &index) == CL_OK && cl_compiled_eval(&copy, i) == index, "cl_compiled_eval");
  try {
    parse("(4,8):");
    check(false, "bad text must throw");
  } catch (const std::runtime_error &e) {
    check(std::string(e.what()).find("malformed") != std::string::npos, e.what());
  }
  if (failures == 0)
    std::printf("C++17 consumer: ok (cute-layout %s)\n", cl_version_string());
  return failures != 0;
}
