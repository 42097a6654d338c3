/* SPDX-License-Identifier: BSD-3-Clause */
// bench_gpu_random.cu: the `gpu-random` group of cute-layout-bench (built
// with the CUDA module): how cl_cuda_tensor_copy and cl_cuda_composed_copy
// fare off the gpu group's shapes.
//
// A fixed seed draws 200 workloads, each a copy between two layouts of the
// same coordinates, 8 to 256 MiB of data (log-uniform), from families in the
// style of the host's copy-random group:
//   perm     x.permute(P) of a row-major array of rank 2 to 6, extents from 1
//            to 5000 (powers of two, odd numbers, primes), elements of 1, 2,
//            4, 8 and 16 bytes, into the row-major array of its shape;
//   image    images NCHW -> NHWC and back, 1 to 4 channels;
//   heads    attention's head split (B,S,H,D) -> (B,H,S,D);
//   slice    a permutation whose source or destination is a strided slice
//            of a larger array (padded rows, or every other element of a
//            mode), starting a few elements into its buffer (unaligned);
//   nounit   a matrix slice with a step of 2 to 4 in its rows copied
//            transposed into a column slice of a wider matrix: no side has
//            a unit stride;
//   bcast    a source that repeats along one or two modes (stride 0), e.g.
//            x.expand(...), into a row-major array;
//   swizzle  a matrix stored as CuTe's 128-byte swizzled shared-memory tiles
//            (Sw<3,M,3>) to or from row-major (cl_cuda_composed_copy);
//   hier     hierarchical layouts from the algebra (logical and zipped
//            divides, blocked and raked products of a 2-D layout by a tile)
//            to or from the row-major layout of their shape.
// Each workload is checked element by element on the GPU, then timed against
// cudaMemcpyAsync device to device of the same bytes (the destination's),
// run for run in this process: the line's ratio is the median of the paired
// ratios (D2D time over ours), GB/s counts bytes read plus written as the gpu
// group does.  Buffers rotate within two 1 GiB pools so that one round
// exceeds the L2 cache.  Then CONTRACT.md's summary lines (min, p10, median,
// the three worst by name) and, on standard error, each family's minimum and
// median.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cutelayout/cuda.h>

#include "bench_cuda.h"
#include "bench_random.h"
#include "bench_util.h"

namespace {

#define CUDA_CHECK(call) BENCH_CUDA_CHECK("gpu-random", call)

constexpr uint64_t kSeed = 0x5eed2727;
constexpr int64_t kMinBytes = int64_t(8) << 20, kMaxBytes = int64_t(256) << 20;
constexpr int64_t kMaxExtent = 5000;
constexpr size_t kPool = size_t(1) << 30;          // bytes of each of the two pools
constexpr size_t kRotateBytes = size_t(256) << 20;  // bytes one round of rotation spans, beyond L2
constexpr int kRuns = 7;                            // paired runs per workload
constexpr double kRunSeconds = 0.001;               // GPU time of one timed run
constexpr unsigned long long kHoldNs = 2000000;     // the queue fills behind 2 ms

// ---------------------------------------------------------------- drawing

bench_rng rng = {kSeed};
uint64_t rng_next() { return bench_rng_next(&rng); }
int64_t rng_range(int64_t lo, int64_t hi) { return bench_rng_range(&rng, lo, hi); }
int64_t extent_near(int64_t x) { return bench_extent_near(&rng, x, kMaxExtent); }

const int64_t elem_sizes[] = {1, 2, 4, 8, 16};
// Bytes of data, log-uniform in [kMinBytes, kMaxBytes].
int64_t draw_bytes() {
  double u = double(rng_next() >> 11) / double(1ull << 53);
  return int64_t(double(kMinBytes) * std::pow(double(kMaxBytes) / double(kMinBytes), u));
}

// One workload: its layouts (a swizzle on either side for composed copies),
// the byte offset of each side's origin in its buffer, the element size.
struct workload {
  std::string name, family;
  int64_t elem = 4;
  std::string dst, src;        // layouts, or composed layouts when composed
  bool composed = false;
  int64_t dst_shift = 0, src_shift = 0;  // elements from the buffer's start
};

int64_t volume(const std::vector<int64_t> &n) {
  int64_t v = 1;
  for (int64_t x : n)
    v *= x;
  return v;
}

std::string tuple_text(const std::vector<int64_t> &v) {
  std::string t = "(";
  for (size_t k = 0; k < v.size(); k++)
    t += (k ? "," : "") + std::to_string(v[k]);
  return t + ")";
}

std::string layout_text(const std::vector<int64_t> &n, const std::vector<int64_t> &stride) {
  return tuple_text(n) + ":" + tuple_text(stride);
}

// Strides of the compact layout that walks the modes in `order` (fastest
// first) over extents n padded by pad[k] elements.
std::vector<int64_t> compact(const std::vector<int64_t> &n, const std::vector<int64_t> &order,
                             const std::vector<int64_t> &pad = {}) {
  std::vector<int64_t> stride(n.size());
  int64_t s = 1;
  for (int64_t k : order) {
    stride[size_t(k)] = s;
    s *= n[size_t(k)] + (pad.empty() ? 0 : pad[size_t(k)]);
  }
  return stride;
}

// Extents of rank r (mode 0 fastest), each in [1, kMaxExtent], whose volume
// of e-byte elements lies in [kMinBytes, kMaxBytes]; now and then one is
// tiny (1 to 7).
std::vector<int64_t> draw_extents(int r, int64_t e) {
  for (;;) {
    int64_t left = draw_bytes() / e;
    std::vector<int64_t> n(static_cast<size_t>(r));
    for (int k = 0; k < r; k++) {
      if (r > 2 && k + 1 < r && rng_next() % 8 == 0) {
        n[size_t(k)] = rng_range(1, 7);
      } else {
        double base = std::pow(double(left), 1.0 / double(r - k));
        if (k + 1 < r)
          base *= double(rng_range(50, 200)) / 100.0;
        n[size_t(k)] = extent_near(int64_t(base));
      }
      left = std::max<int64_t>(1, left / n[size_t(k)]);
    }
    int64_t bytes = volume(n) * e;
    if (bytes >= kMinBytes && bytes <= kMaxBytes)
      return n;
  }
}

// A random permutation of [0, r) other than the identity.
std::vector<int64_t> draw_permutation(int r) {
  std::vector<int64_t> perm(static_cast<size_t>(r));
  for (;;) {
    for (int k = 0; k < r; k++)
      perm[size_t(k)] = k;
    for (int k = r - 1; k > 0; k--)
      std::swap(perm[size_t(k)], perm[size_t(rng_range(0, k))]);
    for (int k = 0; k < r; k++)
      if (perm[size_t(k)] != k)
        return perm;
  }
}

std::string extents_name(const std::vector<int64_t> &n) {
  std::string t;
  for (size_t k = 0; k < n.size(); k++)
    t += (k ? "x" : "") + std::to_string(n[k]);
  return t;
}

std::vector<int64_t> identity(size_t r) {
  std::vector<int64_t> v(r);
  for (size_t k = 0; k < r; k++)
    v[k] = int64_t(k);
  return v;
}

// perm: src row-major over n (mode 0 fastest), dst the row-major array of
// src.permute(P), which walks the modes in the order perm.
struct perm_draw {
  std::vector<int64_t> n, perm, ds, ss;
};

perm_draw draw_perm(int r, int64_t e) {
  perm_draw p;
  p.n = draw_extents(r, e);
  p.perm = draw_permutation(r);
  p.ss = compact(p.n, identity(size_t(r)));
  p.ds = compact(p.n, p.perm);
  return p;
}

std::string perm_name(const char *family, const perm_draw &p, int64_t e) {
  std::string t = std::string(family) + std::to_string(p.n.size()) + "-" + bench_elem_name(e) + "-" + extents_name(p.n) + "-";
  for (int64_t k : p.perm)
    t += std::to_string(k);
  return t;
}

workload make_perm(int r, int64_t e) {
  perm_draw p = draw_perm(r, e);
  workload w;
  w.family = "perm";
  w.name = perm_name("perm", p, e);
  w.elem = e;
  w.dst = layout_text(p.n, p.ds);
  w.src = layout_text(p.n, p.ss);
  return w;
}

// image: modes (W, H, C, N); NCHW is compact in that order, NHWC in (C, W,
// H, N).
workload make_image(int64_t e, bool to_nhwc) {
  int64_t c = rng_range(1, 4), side;
  do
    side = extent_near(rng_range(160, 2048));
  while (side * side * c * e > kMaxBytes / 2);
  int64_t wd = side, ht = extent_near(side * rng_range(60, 140) / 100);
  int64_t batch = std::max<int64_t>(1, draw_bytes() / (wd * ht * c * e));
  std::vector<int64_t> n = {wd, ht, c, batch}, nchw = {0, 1, 2, 3}, nhwc = {2, 0, 1, 3};
  workload w;
  w.family = "image";
  w.elem = e;
  w.src = layout_text(n, compact(n, to_nhwc ? nchw : nhwc));
  w.dst = layout_text(n, compact(n, to_nhwc ? nhwc : nchw));
  w.name = std::string("image-") + bench_elem_name(e) + (to_nhwc ? "-nchw2nhwc-" : "-nhwc2nchw-") + std::to_string(batch) +
           "x" + std::to_string(c) + "x" + std::to_string(ht) + "x" + std::to_string(wd);
  return w;
}

// heads: modes (D, H, S, B); (B,S,H,D) row-major is compact in that order,
// (B,H,S,D) in (D, S, H, B); split or merge.
workload make_heads(int64_t e, bool split) {
  static const int64_t dims[] = {64, 80, 96, 128}, heads[] = {8, 12, 16, 32};
  int64_t d = dims[rng_next() % 4], h = heads[rng_next() % 4], s;
  do
    s = extent_near(rng_range(256, 4096));
  while (d * h * s * e > kMaxBytes);
  int64_t b = std::max<int64_t>(1, draw_bytes() / (d * h * s * e));
  std::vector<int64_t> n = {d, h, s, b}, bshd = {0, 1, 2, 3}, bhsd = {0, 2, 1, 3};
  workload w;
  w.family = "heads";
  w.elem = e;
  w.src = layout_text(n, compact(n, split ? bshd : bhsd));
  w.dst = layout_text(n, compact(n, split ? bhsd : bshd));
  w.name = std::string("heads-") + bench_elem_name(e) + (split ? "-split-" : "-merge-") + std::to_string(b) + "x" +
           std::to_string(s) + "x" + std::to_string(h) + "x" + std::to_string(d);
  return w;
}

// slice: a permutation whose source (or destination) is a slice of a larger
// array, starting 1 to 7 elements into it: rows padded by a few elements, or
// every other element of one mode.
workload make_slice(int64_t e, bool on_src) {
  int r = int(rng_range(2, 4));
  perm_draw p = draw_perm(r, e);
  std::vector<int64_t> &st = on_src ? p.ss : p.ds;
  std::string how;
  if (rng_next() % 2) {
    int64_t sk = st[size_t(rng_range(0, r - 1))];
    for (int64_t &x : st)
      if (x >= sk)
        x *= 2;
    how = "-step2";
  } else {
    std::vector<int64_t> pad(static_cast<size_t>(r)), order = identity(size_t(r));
    for (int k = 0; k < r; k++)
      pad[size_t(k)] = rng_range(0, std::min<int64_t>(7, p.n[size_t(k)] / 8));
    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return st[size_t(a)] < st[size_t(b)]; });
    st = compact(p.n, order, pad);
    how = "-pad";
  }
  workload w;
  w.family = "slice";
  w.elem = e;
  w.dst = layout_text(p.n, p.ds);
  w.src = layout_text(p.n, p.ss);
  (on_src ? w.src_shift : w.dst_shift) = rng_range(1, 7);
  w.name = perm_name(on_src ? "slice-src" : "slice-dst", p, e) + how + "-at" +
           std::to_string(on_src ? w.src_shift : w.dst_shift);
  return w;
}

// nounit: a slice of a matrix copied transposed into a column slice of a
// wider matrix, coordinates (i, j) with i < M fastest: src takes every
// step-th element of its rows, (i, j) -> i * step + j * ld_src; dst every
// other column of a wider row-major matrix, (i, j) -> i * ld_dst + 2 * j.
// Neither side has a unit stride, and their smallest strides lie in
// different modes.
workload make_nounit(int64_t e) {
  std::vector<int64_t> n = draw_extents(2, e);
  int64_t step = rng_range(2, 3);
  workload w;
  w.family = "nounit";
  w.elem = e;
  w.src = layout_text(n, {step, n[0] * step + rng_range(0, 9)});
  w.dst = layout_text(n, {2 * n[1] + rng_range(1, 9), 2});
  w.name = std::string("nounit-") + bench_elem_name(e) + "-" + extents_name(n) + "-step" + std::to_string(step);
  return w;
}

// bcast: src repeats along one or two modes of a permutation (stride 0).
workload make_bcast(int64_t e) {
  int r = int(rng_range(2, 4));
  perm_draw p = draw_perm(r, e);
  int zeros = r > 2 ? int(rng_range(1, 2)) : 1;
  std::vector<int64_t> which = identity(size_t(r));
  for (int k = r - 1; k > 0; k--)
    std::swap(which[size_t(k)], which[size_t(rng_range(0, k))]);
  std::vector<bool> zero(size_t(r), false);
  for (int k = 0; k < zeros; k++)
    zero[size_t(which[size_t(k)])] = true;
  int64_t s = 1;
  std::string tag;
  for (int k = 0; k < r; k++) {
    if (zero[size_t(k)]) {
      p.ss[size_t(k)] = 0;
      tag += std::to_string(k);
    } else {
      p.ss[size_t(k)] = s;
      s *= p.n[size_t(k)];
    }
  }
  workload w;
  w.family = "bcast";
  w.elem = e;
  w.dst = layout_text(p.n, p.ds);
  w.src = layout_text(p.n, p.ss);
  w.name = perm_name("bcast", p, e) + "-zero" + tag;
  return w;
}

// swizzle: an M x N matrix stored as 128-byte swizzled tiles (8 rows of 128
// bytes, Sw<3,M,3> with 2^M elements in 16 bytes) tiled over the matrix, to
// (or from) row-major.
workload make_swizzle(int64_t e) {
  if (e > 8)
    e = 8;
  int m = 4 - (e == 1 ? 0 : e == 2 ? 1 : e == 4 ? 2 : 3);  // log2(elements per 16 bytes)
  int64_t cols = int64_t(8) << m, rows = 8;                  // the atom: 8 x (128 bytes)
  int64_t target = draw_bytes() / e;
  int64_t gm = std::max<int64_t>(1, int64_t(std::sqrt(double(target))) / rows * int64_t(rng_range(50, 200)) / 100);
  int64_t gn = std::max<int64_t>(1, target / (gm * rows * cols));
  int64_t mm = gm * rows, nn = gn * cols;
  char atom[96];
  std::snprintf(atom, sizeof atom, "Sw<3,%d,3> o 0 o (%lld,%lld):(%lld,1)", m, (long long)rows, (long long)cols,
                (long long)cols);
  bool to_rowmajor = rng_next() % 2;
  workload w;
  w.family = "swizzle";
  w.elem = e;
  w.composed = true;
  std::string tiled = std::string("tile:") + atom + "@" + std::to_string(mm) + "," + std::to_string(nn);
  std::string row = "Sw<0,0,0> o 0 o (" + std::to_string(mm) + "," + std::to_string(nn) + "):(" + std::to_string(nn) +
                    ",1)";
  w.dst = to_rowmajor ? row : tiled;
  w.src = to_rowmajor ? tiled : row;
  w.name = std::string("swizzle-") + bench_elem_name(e) + "-" + std::to_string(mm) + "x" + std::to_string(nn) +
           (to_rowmajor ? "-to-rowmajor" : "-from-rowmajor");
  return w;
}

cl_layout_t *parse_layout(const std::string &text) {
  cl_layout_t *l = nullptr;
  bench_check(cl_layout_parse(text.c_str(), &l), text.c_str());
  return l;
}

std::string text_of(const cl_layout_t *l) {
  char buf[512];
  cl_layout_format(l, buf, sizeof buf);
  return buf;
}

// hier: an (M, N) column-major layout cut by a tile with one of the
// algebra's divides or built by one of its products, copied to (or from)
// the row-major layout of the same shape.
workload make_hier(int64_t e, int op) {
  static const char *const ops[] = {"logical_divide", "zipped_divide", "blocked_product", "raked_product"};
  int64_t tm = int64_t(1) << rng_range(2, 6), tn = int64_t(1) << rng_range(2, 6);
  int64_t cells = std::max<int64_t>(64, draw_bytes() / (e * tm * tn));
  int64_t gm = rng_range(8, std::min<int64_t>(cells / 8, 1024)), gn = cells / gm;
  cl_layout_t *out = nullptr;
  if (op < 2) {
    cl_layout_t *whole = parse_layout("(" + std::to_string(gm * tm) + "," + std::to_string(gn * tn) + "):(1," +
                                      std::to_string(gm * tm) + ")");
    cl_tuple_t *tile;
    bench_check(cl_tuple_parse(("(" + std::to_string(tm) + "," + std::to_string(tn) + ")").c_str(), &tile),
                "cl_tuple_parse");
    bench_check(op == 0 ? cl_logical_divide_tiler(whole, tile, &out) : cl_zipped_divide_tiler(whole, tile, &out),
                ops[op]);
    cl_tuple_free(tile);
    cl_layout_free(whole);
  } else {
    cl_layout_t *block = parse_layout("(" + std::to_string(tm) + "," + std::to_string(tn) + "):(1," +
                                      std::to_string(tm) + ")");
    cl_layout_t *grid = parse_layout("(" + std::to_string(gm) + "," + std::to_string(gn) + "):(1," +
                                     std::to_string(gm) + ")");
    bench_check(op == 2 ? cl_blocked_product(block, grid, &out) : cl_raked_product(block, grid, &out), ops[op]);
    cl_layout_free(block);
    cl_layout_free(grid);
  }
  cl_tuple_t *shape;
  cl_layout_t *row;
  bench_check(cl_layout_shape(out, &shape), "cl_layout_shape");
  bench_check(cl_layout_make_right(shape, &row), "cl_layout_make_right");
  cl_tuple_free(shape);
  bool gather = rng_next() % 2;  // dst row-major, src the algebra's layout
  workload w;
  w.family = "hier";
  w.elem = e;
  w.dst = text_of(gather ? row : out);
  w.src = text_of(gather ? out : row);
  w.name = std::string("hier-") + ops[op] + "-" + bench_elem_name(e) + "-" + std::to_string(gm * tm) + "x" +
           std::to_string(gn * tn) + "-tile" + std::to_string(tm) + "x" + std::to_string(tn) +
           (gather ? "-to-rowmajor" : "-from-rowmajor");
  cl_layout_free(out);
  cl_layout_free(row);
  return w;
}

// The workloads, in a fixed order from the seed.
std::vector<workload> draw_workloads() {
  rng.state = kSeed;
  std::vector<workload> w;
  for (int k = 0; k < 100; k++)  // every element size, ranks 2 to 6
    w.push_back(make_perm(2 + k % 5, elem_sizes[(k / 5) % 5]));
  for (int k = 0; k < 16; k++)
    w.push_back(make_image(elem_sizes[k % 3], k % 4 != 3));
  for (int k = 0; k < 8; k++)
    w.push_back(make_heads(elem_sizes[1 + k % 2], k % 2 == 0));
  for (int k = 0; k < 24; k++)
    w.push_back(make_slice(elem_sizes[k % 5], k % 2 == 0));
  for (int k = 0; k < 8; k++)
    w.push_back(make_nounit(elem_sizes[k % 4]));
  for (int k = 0; k < 16; k++)
    w.push_back(make_bcast(elem_sizes[k % 5]));
  for (int k = 0; k < 12; k++)
    w.push_back(make_swizzle(elem_sizes[k % 4]));
  for (int k = 0; k < 16; k++)
    w.push_back(make_hier(elem_sizes[k % 4], k % 4));
  return w;
}

// ---------------------------------------------------------------- running

__global__ void hold(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    __nanosleep(1000);
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

__global__ void fill(unsigned *p, size_t words) {
  for (size_t k = size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < words; k += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(k) * 2654435761u;
    x ^= x >> 15;
    x *= 2246822519u;
    p[k] = x ^ (x >> 13);
  }
}

// Counts the i where dst(i) != src(i) (e bytes each), both sides evaluated
// on the device.
__global__ void count_wrong(const char *dst, const cl_compiled_layout_t dl, const char *src,
                            const cl_compiled_layout_t sl, int e, unsigned long long *wrong) {
  unsigned long long bad = 0;
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < dl.size; i += int64_t(gridDim.x) * blockDim.x) {
    const char *d = dst + cl_compiled_eval(&dl, i) * e, *s = src + cl_compiled_eval(&sl, i) * e;
    bool same = true;
    for (int b = 0; b < e; b++)
      same &= d[b] == s[b];
    bad += !same;
  }
  if (bad)
    atomicAdd(wrong, bad);
}

// One prepared workload: the copy of pair k and the D2D of the same bytes.
struct prepared {
  std::vector<cl_tensor_t *> dst, src;  // tensor copies
  cl_composed_t *dl = nullptr, *sl = nullptr;  // composed copies
  std::vector<char *> dptr, sptr;       // each pair's data pointers
  int64_t elem = 0;
  size_t bytes = 0;  // the destination's bytes
  char *pool_d = nullptr, *pool_s = nullptr;
  size_t stride = 0;  // bytes between pairs in the pools
  int pairs = 0;
  void copy(int k) {
    size_t p = size_t(k % pairs);
    if (dl != nullptr)
      bench_check(cl_cuda_composed_copy(dptr[p], dl, sptr[p], sl, size_t(elem), nullptr), "cl_cuda_composed_copy");
    else
      bench_check(cl_cuda_tensor_copy(dst[p], src[p], nullptr), "cl_cuda_tensor_copy");
  }
  void d2d(int k) {
    size_t p = size_t(k % pairs);
    CUDA_CHECK(cudaMemcpyAsync(pool_d + p * stride, pool_s + p * stride, bytes, cudaMemcpyDeviceToDevice));
  }
  ~prepared() {
    for (cl_tensor_t *t : dst)
      cl_tensor_free(t);
    for (cl_tensor_t *t : src)
      cl_tensor_free(t);
    cl_composed_free(dl);
    cl_composed_free(sl);
  }
};

// Seconds per call of what(k), n calls behind a hold.
template <typename F> double timed(F what, int n, cudaEvent_t start, cudaEvent_t stop) {
  hold<<<1, 1>>>(kHoldNs);
  CUDA_CHECK(cudaEventRecord(start));
  for (int k = 0; k < n; k++)
    what(k);
  CUDA_CHECK(cudaEventRecord(stop));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  return double(ms) * 1e-3 / n;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

cl_composed_t *composed_of(const std::string &text) {
  cl_composed_t *c = nullptr;
  if (text.rfind("tile:", 0) == 0) {  // tile:<atom>@M,N: the atom tiled over the shape
    size_t at = text.find('@');
    cl_composed_t *atom = nullptr;
    cl_tuple_t *shape = nullptr;
    cl_layout_t *inner = nullptr;
    bench_check(cl_composed_parse(text.substr(5, at - 5).c_str(), &atom), "cl_composed_parse");
    bench_check(cl_tuple_parse(("(" + text.substr(at + 1) + ")").c_str(), &shape), "cl_tuple_parse");
    bench_check(cl_composed_tile_to_shape(atom, shape, nullptr, &inner, &c), "cl_composed_tile_to_shape");
    if (c == nullptr) {
      std::fprintf(stderr, "cute-layout-bench: gpu-random: tile_to_shape gave a plain layout\n");
      std::exit(1);
    }
    cl_layout_free(inner);
    cl_tuple_free(shape);
    cl_composed_free(atom);
    return c;
  }
  bench_check(cl_composed_parse(text.c_str(), &c), text.c_str());
  return c;
}

// The bytes a side reaches from its buffer's start, past its origin shift.
size_t reach_bytes(int64_t shift, int64_t elem, const cl_layout_t *l) {
  return size_t((shift + cl_layout_cosize(l)) * elem);
}

struct result {
  double ratio, gbps;
  std::string name, family;
};

result run_workload(const workload &w, char *pool_d, char *pool_s, unsigned long long *wrong, cudaEvent_t start,
                    cudaEvent_t stop) {
  prepared p;
  p.elem = w.elem;
  p.pool_d = pool_d;
  p.pool_s = pool_s;
  cl_compiled_layout_t dc, sc;
  size_t dreach, sreach;
  int64_t size;
  cl_layout_t *dl = nullptr, *sl = nullptr;
  if (w.composed) {
    p.dl = composed_of(w.dst);
    p.sl = composed_of(w.src);
    bench_check(cl_composed_compile(p.dl, &dc), "cl_composed_compile");
    bench_check(cl_composed_compile(p.sl, &sc), "cl_composed_compile");
    cl_fn outer, inner;
    int64_t offset;
    bench_check(cl_composed_parts(p.dl, &outer, &offset, &inner), "cl_composed_parts");
    dreach = reach_bytes(0, w.elem, inner.layout);
    bench_check(cl_composed_parts(p.sl, &outer, &offset, &inner), "cl_composed_parts");
    sreach = reach_bytes(0, w.elem, inner.layout);
    size = dc.size;
  } else {
    dl = parse_layout(w.dst);
    sl = parse_layout(w.src);
    bench_check(cl_layout_compile(dl, &dc), "cl_layout_compile");
    bench_check(cl_layout_compile(sl, &sc), "cl_layout_compile");
    dreach = reach_bytes(w.dst_shift, w.elem, dl);
    sreach = reach_bytes(w.src_shift, w.elem, sl);
    size = cl_layout_size(dl);
  }
  p.bytes = size_t(size * w.elem);
  p.stride = (std::max({dreach, sreach, p.bytes}) + 4095) / 4096 * 4096;
  if (p.stride > kPool) {
    std::fprintf(stderr, "cute-layout-bench: gpu-random/%s reaches past its pool\n", w.name.c_str());
    std::exit(1);
  }
  p.pairs = int(std::max<size_t>(1, std::min(kPool / p.stride, (kRotateBytes + 2 * p.bytes - 1) / (2 * p.bytes))));
  for (int k = 0; k < p.pairs; k++) {
    char *d = pool_d + size_t(k) * p.stride + size_t(w.dst_shift * w.elem);
    char *s = pool_s + size_t(k) * p.stride + size_t(w.src_shift * w.elem);
    p.dptr.push_back(d);
    p.sptr.push_back(s);
    if (!w.composed) {
      cl_tensor_t *td, *ts;
      bench_check(cl_tensor_new(d, size_t(w.elem), dl, &td), "cl_tensor_new");
      bench_check(cl_tensor_new(s, size_t(w.elem), sl, &ts), "cl_tensor_new");
      p.dst.push_back(td);
      p.src.push_back(ts);
    }
  }
  // Checked: pair 0 written over a destination of 0xff bytes.
  CUDA_CHECK(cudaMemset(pool_d, 0xff, p.stride));
  CUDA_CHECK(cudaMemset(wrong, 0, sizeof *wrong));
  p.copy(0);
  count_wrong<<<1024, 256>>>(p.dptr[0], dc, p.sptr[0], sc, int(w.elem), wrong);
  unsigned long long bad = 0;
  CUDA_CHECK(cudaMemcpy(&bad, wrong, sizeof bad, cudaMemcpyDeviceToHost));
  if (bad != 0) {
    std::fprintf(stderr, "cute-layout-bench: gpu-random/%s is wrong at %llu elements\n", w.name.c_str(), bad);
    std::exit(1);
  }
  auto ours = [&](int k) { p.copy(k); };
  auto theirs = [&](int k) { p.d2d(k); };
  timed(ours, 2, start, stop);  // warm-up
  timed(theirs, 2, start, stop);
  double once = timed(ours, 2, start, stop);
  int n = int(std::min(100.0, std::max(2.0, kRunSeconds / once)));
  std::vector<double> a, b, ratio;
  for (int r = 0; r < kRuns; r++) {
    a.push_back(timed(ours, n, start, stop));
    b.push_back(timed(theirs, n, start, stop));
    ratio.push_back(b.back() / a.back());
  }
  result res = {median(ratio), 2.0 * double(p.bytes) / median(a) * 1e-9, w.name, w.family};
  bench_report("gpu-random", w.name.c_str(), res.gbps, "GB/s", res.ratio, "cudaMemcpy");
  cl_layout_free(dl);
  cl_layout_free(sl);
  return res;
}

}  // namespace

extern "C" void bench_gpu_random(void) {
  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("gpu-random: skipped, no GPU (%s)\n", e != cudaSuccess ? cudaGetErrorString(e) : "no device");
    return;
  }
  cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::vector<workload> work = draw_workloads();
  std::fprintf(stderr, "gpu-random: %s, %zu workloads\n", prop.name, work.size());
  char *pool_d, *pool_s;
  unsigned long long *wrong;
  CUDA_CHECK(cudaMalloc(&pool_d, kPool));
  CUDA_CHECK(cudaMalloc(&pool_s, kPool));
  CUDA_CHECK(cudaMalloc(&wrong, sizeof *wrong));
  fill<<<1024, 256>>>(reinterpret_cast<unsigned *>(pool_s), kPool / 4);
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<result> res;
  for (const workload &w : work)
    res.push_back(run_workload(w, pool_d, pool_s, wrong, start, stop));
  std::sort(res.begin(), res.end(), [](const result &a, const result &b) { return a.ratio < b.ratio; });
  size_t count = res.size();
  const struct {
    const char *name;
    size_t at;
  } stats[] = {{"min", 0}, {"p10", (count - 1) / 10}, {"median", (count - 1) / 2}};
  for (const auto &s : stats)
    bench_report("gpu-random", s.name, res[s.at].gbps, "GB/s", res[s.at].ratio, "cudaMemcpy");
  for (size_t k = 0; k < 3 && k < count; k++)
    bench_report("gpu-random", ("worst-" + std::to_string(k + 1) + "-" + res[k].name).c_str(), res[k].gbps, "GB/s",
                 res[k].ratio, "cudaMemcpy");
  for (const char *family : {"perm", "image", "heads", "slice", "nounit", "bcast", "swizzle", "hier"}) {
    std::vector<double> r;
    for (const result &x : res)
      if (x.family == family)
        r.push_back(x.ratio);
    if (!r.empty())
      std::fprintf(stderr, "gpu-random: family %s: %zu workloads, min %.2fx, median %.2fx cudaMemcpy\n", family,
                   r.size(), *std::min_element(r.begin(), r.end()), median(r));
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  CUDA_CHECK(cudaFree(pool_d));
  CUDA_CHECK(cudaFree(pool_s));
  CUDA_CHECK(cudaFree(wrong));
}
