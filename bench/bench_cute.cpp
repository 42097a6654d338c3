/* SPDX-License-Identifier: BSD-3-Clause */
// bench_cute.cpp: the eval workloads of bench_eval.c through CuTe C++, with
// run-time integers (int64_t extents and strides that the compiler cannot
// see), for the ratio cute-layout / CuTe.  Built only with
// -Dcute_dir=/path/to/cutlass; no CUTLASS code is part of this project.
//
// layout(i) here is CuTe's own inline evaluation (crd2idx of an integral
// coordinate: `%` and `/` per mode), compiled into the benchmark loop, which
// is the fastest way a C++ user evaluates a run-time layout.
#include <cute/layout.hpp>

#include <cstring>

#include "bench_cute.h"
#include "bench_util.h"

using namespace cute;

namespace {

// Run-time values: laundered through an empty asm so that they are not
// constants for the optimizer.
int64_t rt(int64_t v) {
  bench_do_not_optimize(v);
  asm volatile("" : "+r"(v));
  return v;
}

template <class Layout>
struct eval_ctx {
  Layout layout;
  int64_t mask;
};

template <class Layout>
void run(void *ctx, int64_t iters) {
  auto *c = static_cast<eval_ctx<Layout> *>(ctx);
  Layout layout = c->layout;
  int64_t mask = c->mask, acc = 0;
  for (int64_t k = 0; k < iters; k++)
    acc += layout(k & mask);
  bench_do_not_optimize(acc);
}

// The three layouts of bench_eval.c, built once.
auto make_rank2() { return make_layout(make_shape(rt(64), rt(32)), make_stride(rt(32), rt(1))); }
auto make_rank4() {
  return make_layout(make_shape(rt(8), rt(4), rt(8), rt(16)), make_stride(rt(4), rt(1), rt(512), rt(32)));
}
auto make_hier() {
  return make_layout(make_shape(make_shape(rt(4), rt(8)), make_shape(rt(2), make_shape(rt(2), rt(4)))),
                     make_stride(make_stride(rt(2), rt(16)), make_stride(rt(1), make_stride(rt(8), rt(128)))));
}
auto make_odd() { return make_layout(make_shape(rt(6), rt(5), rt(7)), make_stride(rt(1), rt(8), rt(48))); }
using rank2_t = decltype(make_rank2());
using rank4_t = decltype(make_rank4());
using hier_t = decltype(make_hier());
using odd_t = decltype(make_odd());

eval_ctx<rank2_t> &rank2() {
  static eval_ctx<rank2_t> c{make_rank2(), 2048 - 1};
  return c;
}
eval_ctx<rank4_t> &rank4() {
  static eval_ctx<rank4_t> c{make_rank4(), 4096 - 1};
  return c;
}
eval_ctx<hier_t> &hier() {
  static eval_ctx<hier_t> c{make_hier(), 512 - 1};
  return c;
}
eval_ctx<odd_t> &odd() {
  static eval_ctx<odd_t> c{make_odd(), 128 - 1};  // i < 128 <= size 210
  return c;
}

}  // namespace

// (64,32):(32,1), (8,4,8,16):(4,1,512,32), ((4,8),(2,(2,4))):((2,16),(1,(8,128))), (6,5,7):(1,8,48)
extern "C" bench_cute_fn bench_cute_eval_fn(const char *name) {
  if (std::strcmp(name, "rank2") == 0)
    return run<rank2_t>;
  if (std::strcmp(name, "rank4") == 0)
    return run<rank4_t>;
  if (std::strcmp(name, "odd") == 0)
    return run<odd_t>;
  return run<hier_t>;
}

extern "C" void *bench_cute_eval_ctx(const char *name) {
  if (std::strcmp(name, "rank2") == 0)
    return &rank2();
  if (std::strcmp(name, "rank4") == 0)
    return &rank4();
  if (std::strcmp(name, "odd") == 0)
    return &odd();
  return &hier();
}
