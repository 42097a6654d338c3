/* SPDX-License-Identifier: BSD-3-Clause */
// bench_gpu.cu: the `gpu` group of cute-layout-bench (built with the CUDA
// module): copies between layouts on the GPU and layouts evaluated in
// kernels.
//
// Copies (cl_cuda_tensor_copy, one line per workload and element type,
// float32 and float16), each against cudaMemcpyAsync device to device of the
// same bytes, measured alternately in the same run.  GB/s counts the bytes
// read plus the bytes written.  The workloads are numpy's / PyTorch's
// x.permute(p) copied into a contiguous tensor (x row-major):
//   transpose-4096, transpose-16384   a square matrix, permute (1,0)
//   permute-64^4-3102, permute-128^4-3102, permute-64^4-0213, permute-128^3-201
//   ldiv-tiles-4096    logical_divide of a column-major 4096x4096 by 32x32
//                      tiles, ((32,128),(32,128)):((1,32),(4096,131072)), to
//                      the row-major layout of that shape (each tile's
//                      elements together)
//   swizzle-4096       a 4096x4096 matrix stored as CuTe's 128-byte swizzled
//                      shared-memory tiles (Sw<3,3,3> o (8,64):(64,1) for
//                      16-bit elements, Sw<3,2,3> o (8,32):(32,1) for 32-bit,
//                      tiled over the matrix), to row-major
//                      (cl_cuda_composed_copy)
// Timing: each timed run queues N copies behind a kernel that holds the GPU
// for a few milliseconds, so that the queue is full when the copies start
// and the events time the GPU's work, not the host's (the host's cost per
// call is its own line, copy-call); buffers rotate so that the bytes of one
// round exceed the L2 cache.  Medians of 15 runs; the spread (the 10th and
// 90th percentiles of the runs) goes to standard error.
//
// Evaluation (a kernel where every thread evaluates layout(i) for 2048
// consecutive i and sums them), in billions of evaluations per second:
//   eval-rank4      (8,4,8,16):(4,1,512,32)   as the eval group's rank4
//   eval-rank4-odd  (3,5,7,9):(45,1,135,5)    extents that are not powers of two
// against a loop of `/` and `%` with the extents and strides as kernel
// parameters, and with -Dcute_dir against CuTe's Layout with run-time int and
// int64_t (bench_gpu_cute.cu).
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cutelayout/cuda.h>

#include "bench_gpu_cute.h"
#include "bench_cuda.h"
#include "bench_util.h"

namespace {

#define CUDA_CHECK(call) BENCH_CUDA_CHECK("gpu", call)

constexpr int kRuns = 15;
constexpr double kRunSeconds = 0.002;     // GPU time of one timed run
constexpr size_t kRotateBytes = 256 << 20;  // bytes one round of rotating buffers spans, beyond L2

// Holds the GPU for `ns` nanoseconds, so that what is queued behind it starts
// back to back.
__global__ void hold(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

__global__ void fill(unsigned *p, size_t words, unsigned seed) {
  for (size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < words; k += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(k) * 2654435761u ^ seed;
    x ^= x >> 15;
    x *= 2246822519u;
    p[k] = x ^ (x >> 13);
  }
}

// Counts the i where dst(i) != src(i), both views evaluated on the device.
template <int E>
__global__ void count_wrong(const char *dst, const cl_compiled_layout_t dl, const char *src,
                            const cl_compiled_layout_t sl, unsigned long long *wrong) {
  unsigned long long bad = 0;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < dl.size; i += int64_t(gridDim.x) * blockDim.x) {
    const char *d = dst + cl_compiled_eval(&dl, i) * E, *s = src + cl_compiled_eval(&sl, i) * E;
    bool same = true;
    for (int b = 0; b < E; b++)
      same &= d[b] == s[b];
    bad += !same;
  }
  if (bad)
    atomicAdd(wrong, bad);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[size_t(p * double(v.size() - 1) + 0.5)];
}

// An operation queued k times (k selects the rotating buffer).
struct operation {
  virtual void queue(int k) = 0;
  virtual ~operation() = default;
};

// Seconds per operation: N operations behind a hold, timed by events.
double timed(operation &op, int n, cudaEvent_t start, cudaEvent_t stop) {
  hold<<<1, 1>>>(10000000);  // 10 ms: far longer than queueing n operations takes
  CUDA_CHECK(cudaEventRecord(start));
  for (int k = 0; k < n; k++)
    op.queue(k);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return double(ms) * 1e-3 / n;
}

struct comparison {
  double seconds, baseline, ratio;  // medians; ratio: baseline time over ours (throughput ratio)
  double fast, slow;                // 10th and 90th percentile of our runs, seconds
};

comparison compare(operation &op, operation &base) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  timed(op, 3, start, stop);  // warm-up: module load, first touch of the buffers
  timed(base, 3, start, stop);
  double once = timed(op, 4, start, stop);
  int n = int(std::min(200.0, std::max(4.0, kRunSeconds / once)));
  std::vector<double> ours, theirs, ratio;
  for (int r = 0; r < kRuns; r++) {
    ours.push_back(timed(op, n, start, stop));
    theirs.push_back(timed(base, n, start, stop));
    ratio.push_back(theirs.back() / ours.back());
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return {median(ours), median(theirs), median(ratio), percentile(ours, 0.1), percentile(ours, 0.9)};
}

// ---------------------------------------------------------------- copies

cl_layout_t *parse(const std::string &text) {
  cl_layout_t *l = nullptr;
  bench_check(cl_layout_parse(text.c_str(), &l), text.c_str());
  return l;
}

std::string tuple_text(const std::vector<int64_t> &v) {
  std::string t = "(";
  for (size_t k = 0; k < v.size(); k++)
    t += (k ? "," : "") + std::to_string(v[k]);
  return t + ")";
}

// x.permute(perm) of a row-major x of `shape`, and the row-major layout of
// the permuted shape: src and dst of the copy.
void permute_layouts(const std::vector<int64_t> &shape, const std::vector<int> &perm, std::string *dst,
                     std::string *src) {
  size_t r = shape.size();
  std::vector<int64_t> stride(r), pshape(r), pstride(r), dstride(r);
  int64_t step = 1;
  for (size_t k = r; k-- > 0;) {
    stride[k] = step;
    step *= shape[k];
  }
  for (size_t k = 0; k < r; k++) {
    pshape[k] = shape[size_t(perm[k])];
    pstride[k] = stride[size_t(perm[k])];
  }
  step = 1;
  for (size_t k = r; k-- > 0;) {
    dstride[k] = step;
    step *= pshape[k];
  }
  *src = tuple_text(pshape) + ":" + tuple_text(pstride);
  *dst = tuple_text(pshape) + ":" + tuple_text(dstride);
}

struct buffers {
  size_t bytes = 0;
  std::vector<char *> dst, src;
  buffers(size_t n, int pairs) : bytes(n) {
    for (int k = 0; k < pairs; k++) {
      char *d, *s;
      CUDA_CHECK(cudaMalloc(&d, n));
      CUDA_CHECK(cudaMalloc(&s, n));
      fill<<<1024, 256>>>(reinterpret_cast<unsigned *>(s), n / 4, unsigned(k + 1));
      CUDA_CHECK(cudaMemset(d, 0xff, n));
      dst.push_back(d);
      src.push_back(s);
    }
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  ~buffers() {
    for (char *p : dst)
      cudaFree(p);
    for (char *p : src)
      cudaFree(p);
  }
  int pairs() const { return int(dst.size()); }
};

int pairs_for(size_t bytes) { return int(std::min<size_t>(64, std::max<size_t>(1, (kRotateBytes + 2 * bytes - 1) / (2 * bytes)))); }

struct memcpy_op : operation {
  buffers &b;
  explicit memcpy_op(buffers &buf) : b(buf) {}
  void queue(int k) override {
    int p = k % b.pairs();
    CUDA_CHECK(cudaMemcpyAsync(b.dst[size_t(p)], b.src[size_t(p)], b.bytes, cudaMemcpyDeviceToDevice));
  }
};

struct tensor_op : operation {
  std::vector<cl_tensor_t *> dst, src;
  void queue(int k) override {
    size_t p = size_t(k) % dst.size();
    bench_check(cl_cuda_tensor_copy(dst[p], src[p], nullptr), "cl_cuda_tensor_copy");
  }
  ~tensor_op() override {
    for (cl_tensor_t *t : dst)
      cl_tensor_free(t);
    for (cl_tensor_t *t : src)
      cl_tensor_free(t);
  }
};

struct composed_op : operation {
  buffers &b;
  const cl_composed_t *dl, *sl;
  size_t elem;
  composed_op(buffers &buf, const cl_composed_t *d, const cl_composed_t *s, size_t e) : b(buf), dl(d), sl(s), elem(e) {}
  void queue(int k) override {
    int p = k % b.pairs();
    bench_check(cl_cuda_composed_copy(b.dst[size_t(p)], dl, b.src[size_t(p)], sl, elem, nullptr),
                "cl_cuda_composed_copy");
  }
};

void verify(const char *name, const char *dst, const cl_compiled_layout_t &dl, const char *src,
            const cl_compiled_layout_t &sl, size_t elem) {
  unsigned long long *wrong, host = 0;
  CUDA_CHECK(cudaMalloc(&wrong, sizeof *wrong));
  CUDA_CHECK(cudaMemset(wrong, 0, sizeof *wrong));
  if (elem == 2)
    count_wrong<2><<<1024, 256>>>(dst, dl, src, sl, wrong);
  else
    count_wrong<4><<<1024, 256>>>(dst, dl, src, sl, wrong);
  CUDA_CHECK(cudaMemcpy(&host, wrong, sizeof host, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaFree(wrong));
  if (host != 0) {
    std::fprintf(stderr, "cute-layout-bench: gpu/%s is wrong at %llu elements\n", name, host);
    std::exit(1);
  }
}

void report(const std::string &name, double bytes, const comparison &c) {
  bench_report("gpu", name.c_str(), 2 * bytes / c.seconds * 1e-9, "GB/s", c.ratio, "cudaMemcpy");
  std::fprintf(stderr, "gpu/%s: %.1f GB/s (runs p10 %.1f, p90 %.1f), cudaMemcpy %.1f GB/s\n", name.c_str(),
               2 * bytes / c.seconds * 1e-9, 2 * bytes / c.slow * 1e-9, 2 * bytes / c.fast * 1e-9,
               2 * bytes / c.baseline * 1e-9);
}

// Runs op once, checks every element against the compiled layouts of its
// two sides, then times it against cudaMemcpyAsync of the same bytes.
void check_and_time(const std::string &name, operation &op, buffers &b, const cl_compiled_layout_t &dc,
                    const cl_compiled_layout_t &sc, size_t elem) {
  op.queue(0);
  verify(name.c_str(), b.dst[0], dc, b.src[0], sc, elem);
  memcpy_op base(b);
  report(name, double(b.bytes), compare(op, base));
}

void copy_workload(const std::string &name, const std::string &dst_text, const std::string &src_text, size_t elem) {
  cl_layout_t *dl = parse(dst_text), *sl = parse(src_text);
  int64_t size = cl_layout_size(dl);
  size_t bytes = size_t(size) * elem;
  buffers b(bytes, pairs_for(bytes));
  tensor_op op;
  cl_dtype dtype = elem == 2 ? CL_DTYPE_FLOAT16 : CL_DTYPE_FLOAT32;
  for (int p = 0; p < b.pairs(); p++) {
    cl_tensor_t *d, *s;
    bench_check(cl_tensor_new_typed(b.dst[size_t(p)], dtype, dl, &d), "cl_tensor_new_typed");
    bench_check(cl_tensor_new_typed(b.src[size_t(p)], dtype, sl, &s), "cl_tensor_new_typed");
    op.dst.push_back(d);
    op.src.push_back(s);
  }
  cl_compiled_layout_t dc, sc;
  bench_check(cl_layout_compile(dl, &dc), "cl_layout_compile");
  bench_check(cl_layout_compile(sl, &sc), "cl_layout_compile");
  check_and_time(name, op, b, dc, sc, elem);
  cl_layout_free(dl);
  cl_layout_free(sl);
}

void swizzle_workload(const std::string &name, size_t elem) {
  // A 128-byte row of the atom holds 2^(M+3) elements in 8 runs of 2^M.
  const char *atom = elem == 2 ? "Sw<3,3,3> o 0 o (8,64):(64,1)" : "Sw<3,2,3> o 0 o (8,32):(32,1)";
  cl_composed_t *a = nullptr, *src = nullptr, *dst = nullptr;
  cl_layout_t *inner = nullptr, *row_major = parse("(4096,4096):(4096,1)");
  cl_tuple_t *shape = nullptr;
  bench_check(cl_composed_parse(atom, &a), atom);
  bench_check(cl_tuple_parse("(4096,4096)", &shape), "cl_tuple_parse");
  bench_check(cl_composed_tile_to_shape(a, shape, nullptr, &inner, &src), "cl_composed_tile_to_shape");
  cl_swizzle_t identity;
  bench_check(cl_swizzle_make(0, 0, 0, &identity), "cl_swizzle_make");
  bench_check(cl_make_composed_layout(cl_fn_swizzle(identity), 0, cl_fn_layout(row_major), &dst),
              "cl_make_composed_layout");
  if (src == nullptr) {
    std::fprintf(stderr, "cute-layout-bench: gpu/%s: tile_to_shape gave a plain layout\n", name.c_str());
    std::exit(1);
  }
  size_t bytes = size_t(4096) * 4096 * elem;
  buffers b(bytes, pairs_for(bytes));
  composed_op op(b, dst, src, elem);
  cl_compiled_layout_t dc, sc;
  bench_check(cl_composed_compile(dst, &dc), "cl_composed_compile");
  bench_check(cl_composed_compile(src, &sc), "cl_composed_compile");
  check_and_time(name, op, b, dc, sc, elem);
  cl_composed_free(a);
  cl_composed_free(src);
  cl_composed_free(dst);
  cl_layout_free(inner);
  cl_layout_free(row_major);
  cl_tuple_free(shape);
}

// Host time of one cl_cuda_tensor_copy call (planned once, then from the
// thread's plan cache) against one cudaMemcpyAsync call, both of a tiny copy.
void call_overhead() {
  cl_layout_t *dl = parse("(64,64):(64,1)"), *sl = parse("(64,64):(1,64)");
  buffers b(64 * 64 * 4, 1);
  cl_tensor_t *d, *s;
  bench_check(cl_tensor_new(b.dst[0], 4, dl, &d), "cl_tensor_new");
  bench_check(cl_tensor_new(b.src[0], 4, sl, &s), "cl_tensor_new");
  const int calls = 200;  // fewer than the launch queue holds: the host never waits for the GPU
  std::vector<double> ours, theirs;
  for (int r = 0; r < kRuns; r++) {
    int64_t t0 = bench_now_ns();
    for (int k = 0; k < calls; k++)
      bench_check(cl_cuda_tensor_copy(d, s, nullptr), "cl_cuda_tensor_copy");
    int64_t t1 = bench_now_ns();
    CUDA_CHECK(cudaDeviceSynchronize());
    int64_t t2 = bench_now_ns();
    for (int k = 0; k < calls; k++)
      CUDA_CHECK(cudaMemcpyAsync(b.dst[0], b.src[0], b.bytes, cudaMemcpyDeviceToDevice));
    int64_t t3 = bench_now_ns();
    CUDA_CHECK(cudaDeviceSynchronize());
    ours.push_back(double(t1 - t0) * 1e-9 / calls);
    theirs.push_back(double(t3 - t2) * 1e-9 / calls);
  }
  bench_report("gpu", "copy-call", median(ours) * 1e6, "us", median(ours) / median(theirs), "cudaMemcpyAsync-call");
  cl_tensor_free(d);
  cl_tensor_free(s);
  cl_layout_free(dl);
  cl_layout_free(sl);
}

// ---------------------------------------------------------------- evaluation

constexpr int64_t kPerThread = 2048;

// Every thread sums layout(i) over kPerThread consecutive i (wrapping at the
// size), from a start of its own.
__global__ void eval_compiled(const cl_compiled_layout_t layout, int64_t *out) {
  int64_t tid = int64_t(blockIdx.x) * blockDim.x + threadIdx.x, size = layout.size;
  int64_t i = tid * 7 % size, acc = 0;
  for (int64_t k = 0; k < kPerThread; k++) {
    acc += cl_compiled_eval(&layout, i);
    i = i + 1 == size ? 0 : i + 1;
  }
  out[tid] = acc;
}

struct flat4 {
  int64_t shape[4], stride[4];
};

__global__ void eval_divmod(const flat4 layout, int64_t size, int64_t *out) {
  int64_t tid = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int64_t i = tid * 7 % size, acc = 0;
  for (int64_t k = 0; k < kPerThread; k++) {
    int64_t rest = i, index = 0;
#pragma unroll
    for (int m = 0; m < 4; m++) {
      index += rest % layout.shape[m] * layout.stride[m];
      rest /= layout.shape[m];
    }
    acc += index;
    i = i + 1 == size ? 0 : i + 1;
  }
  out[tid] = acc;
}

struct kernel_op : operation {
  void (*run)(void *ctx, unsigned blocks, int64_t *out);
  void *ctx;
  unsigned blocks;
  int64_t *out;
  void queue(int) override { run(ctx, blocks, out); }
};

struct eval_ctx {
  cl_compiled_layout_t compiled;
  flat4 flat;
  int64_t size;
};

void run_compiled(void *ctx, unsigned blocks, int64_t *out) {
  eval_compiled<<<blocks, 256>>>(static_cast<eval_ctx *>(ctx)->compiled, out);
}

void run_divmod(void *ctx, unsigned blocks, int64_t *out) {
  auto *c = static_cast<eval_ctx *>(ctx);
  eval_divmod<<<blocks, 256>>>(c->flat, c->size, out);
}

#ifdef CL_BENCH_CUTE
struct cute_ctx {
  int bits;
  const eval_ctx *eval;
};

void run_cute(void *ctx, unsigned blocks, int64_t *out) {
  auto *c = static_cast<cute_ctx *>(ctx);
  bench_gpu_cute_eval(c->bits, c->eval->flat.shape, c->eval->flat.stride, kPerThread, blocks, out);
}
#endif

void eval_workload(const char *name, const char *text, const int64_t (&shape)[4], const int64_t (&stride)[4]) {
  cl_layout_t *l = parse(text);
  eval_ctx ctx;
  bench_check(cl_layout_compile(l, &ctx.compiled), "cl_layout_compile");
  std::memcpy(ctx.flat.shape, shape, sizeof shape);
  std::memcpy(ctx.flat.stride, stride, sizeof stride);
  ctx.size = cl_layout_size(l);
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  unsigned blocks = unsigned(sms) * 16;
  int64_t threads = int64_t(blocks) * 256;
  int64_t *out, *out2;
  CUDA_CHECK(cudaMalloc(&out, size_t(threads) * sizeof *out));
  CUDA_CHECK(cudaMalloc(&out2, size_t(threads) * sizeof *out2));
  kernel_op ours, divmod;
  ours.run = run_compiled;
  divmod.run = run_divmod;
  ours.ctx = divmod.ctx = &ctx;
  ours.blocks = divmod.blocks = blocks;
  ours.out = out;
  divmod.out = out2;
  // Both kernels compute the same sums.
  ours.queue(0);
  divmod.queue(0);
  std::vector<int64_t> a(static_cast<size_t>(threads)), b(static_cast<size_t>(threads));
  CUDA_CHECK(cudaMemcpy(a.data(), out, a.size() * sizeof a[0], cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(b.data(), out2, b.size() * sizeof b[0], cudaMemcpyDeviceToHost));
  if (a != b) {
    std::fprintf(stderr, "cute-layout-bench: gpu/%s: the compiled layout and the div/mod loop disagree\n", name);
    std::exit(1);
  }
  double evals = double(threads) * kPerThread;
  comparison c = compare(ours, divmod);
  bench_report("gpu", name, evals / c.seconds * 1e-9, "Geval/s", c.ratio, "div-mod-loop");
  std::fprintf(stderr, "gpu/%s: %.1f Geval/s (runs p10 %.1f, p90 %.1f), div-mod loop %.1f Geval/s\n", name,
               evals / c.seconds * 1e-9, evals / c.slow * 1e-9, evals / c.fast * 1e-9, evals / c.baseline * 1e-9);
#ifdef CL_BENCH_CUTE
  for (int bits : {32, 64}) {
    cute_ctx cc = {bits, &ctx};
    kernel_op cute;
    cute.run = run_cute;
    cute.ctx = &cc;
    cute.blocks = blocks;
    cute.out = out2;
    cute.queue(0);
    CUDA_CHECK(cudaMemcpy(b.data(), out2, b.size() * sizeof b[0], cudaMemcpyDeviceToHost));
    if (a != b) {
      std::fprintf(stderr, "cute-layout-bench: gpu/%s: the compiled layout and CuTe disagree\n", name);
      std::exit(1);
    }
    comparison v = compare(ours, cute);
    bench_report("gpu", name, evals / v.seconds * 1e-9, "Geval/s", v.ratio,
                 bits == 32 ? "cute-runtime-int32" : "cute-runtime-int64");
    std::fprintf(stderr, "gpu/%s: CuTe int%d %.1f Geval/s\n", name, bits, evals / v.baseline * 1e-9);
  }
#endif
  CUDA_CHECK(cudaFree(out));
  CUDA_CHECK(cudaFree(out2));
  cl_layout_free(l);
}

}  // namespace

extern "C" void bench_gpu(void) {
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("gpu: skipped, no GPU (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "no device");
    return;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::fprintf(stderr, "gpu: %s, %d SMs, %d MB L2\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  struct permute {
    const char *name;
    std::vector<int64_t> shape;
    std::vector<int> perm;
  };
  const permute permutes[] = {
      {"transpose-4096", {4096, 4096}, {1, 0}},
      {"transpose-16384", {16384, 16384}, {1, 0}},
      {"permute-64^4-3102", {64, 64, 64, 64}, {3, 1, 0, 2}},
      {"permute-128^4-3102", {128, 128, 128, 128}, {3, 1, 0, 2}},
      {"permute-64^4-0213", {64, 64, 64, 64}, {0, 2, 1, 3}},
      {"permute-128^3-201", {128, 128, 128}, {2, 0, 1}},
  };
  for (size_t elem : {size_t(4), size_t(2)}) {
    const char *type = elem == 4 ? "-f32" : "-f16";
    for (const permute &p : permutes) {
      std::string dst, src;
      permute_layouts(p.shape, p.perm, &dst, &src);
      copy_workload(std::string(p.name) + type, dst, src, elem);
    }
    copy_workload(std::string("ldiv-tiles-4096") + type, "((32,128),(32,128)):((524288,4096),(128,1))",
                  "((32,128),(32,128)):((1,32),(4096,131072))", elem);
    swizzle_workload(std::string("swizzle-4096") + type, elem);
  }
  call_overhead();
  const int64_t pow2_shape[4] = {8, 4, 8, 16}, pow2_stride[4] = {4, 1, 512, 32};
  const int64_t odd_shape[4] = {3, 5, 7, 9}, odd_stride[4] = {45, 1, 135, 5};
  eval_workload("eval-rank4", "(8,4,8,16):(4,1,512,32)", pow2_shape, pow2_stride);
  eval_workload("eval-rank4-odd", "(3,5,7,9):(45,1,135,5)", odd_shape, odd_stride);
}
