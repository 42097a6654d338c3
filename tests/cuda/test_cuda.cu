/* SPDX-License-Identifier: BSD-3-Clause */
// test_cuda.cu: the CUDA module (cuda.h).
//
//   test_cuda plan   what needs no GPU: plans (cl_cuda_tensor_copy_explain),
//                    argument errors, DLPack views, and CL_E_DEVICE from every
//                    function when there is no GPU;
//   test_cuda gpu    on a GPU (exit 77, skipped, without one): every kernel
//                    against the host copy for random layouts (element sizes
//                    1 to 16 bytes, odd extents, negative and zero strides,
//                    unaligned pointers), swizzled copies, device evaluation
//                    of random layouts against the host, and the memory
//                    checks (host pointers, views past their allocation)
//                    leaving the CUDA context usable.
//
// Written without cmocka, so that it builds wherever nvcc does.  Each check
// prints what failed; the exit status counts the failures.
#include <cuda_runtime.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <cutelayout/cuda.h>

#include "check.h"

#define CUDA_OK(call)                                                                             \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

static cl_layout_t *layout(const char *text) {
  cl_layout_t *l = nullptr;
  if (cl_layout_parse(text, &l) != CL_OK) {
    std::fprintf(stderr, "cl_layout_parse(%s): %s\n", text, cl_last_error());
    std::exit(1);
  }
  return l;
}

static cl_composed_t *composed(const char *text) {
  cl_composed_t *c = nullptr;
  if (cl_composed_parse(text, &c) != CL_OK) {
    std::fprintf(stderr, "cl_composed_parse(%s): %s\n", text, cl_last_error());
    std::exit(1);
  }
  return c;
}

static cl_tensor_t *tensor(void *data, size_t elem, const cl_layout_t *l) {
  cl_tensor_t *t = nullptr;
  if (cl_tensor_new(data, elem, l, &t) != CL_OK) {
    std::fprintf(stderr, "cl_tensor_new: %s\n", cl_last_error());
    std::exit(1);
  }
  return t;
}

static std::string layout_text(const cl_layout_t *l) {
  char buf[512];
  cl_layout_format(l, buf, sizeof buf);
  return buf;
}

// ------------------------------------------------------------ plans (no GPU)

// The plan of dst <- src at 256-byte aligned addresses.
static std::string plan_of(const char *dst, const char *src, size_t elem = 4) {
  // Addresses only: nothing is read or written.
  char *dst_memory = reinterpret_cast<char *>(uintptr_t(1) << 40), *src_memory = dst_memory + (uintptr_t(1) << 36);
  cl_layout_t *dl = layout(dst), *sl = layout(src);
  cl_tensor_t *d = tensor(dst_memory, elem, dl), *s = tensor(src_memory, elem, sl);
  char buf[1024] = "";
  int64_t n = cl_cuda_tensor_copy_explain(d, s, buf, sizeof buf);
  CHECK(n >= 0 && size_t(n) == std::strlen(buf), "explain %s <- %s: %lld (%s)", dst, src, (long long)n,
        cl_last_error());
  CHECK(cl_cuda_tensor_copy_explain(d, s, nullptr, 0) == n, "the length without a buffer");
  cl_tensor_free(d);
  cl_tensor_free(s);
  cl_layout_free(dl);
  cl_layout_free(sl);
  return buf;
}

static void expect_plan(const char *dst, const char *src, const char *expected, size_t elem = 4) {
  std::string got = plan_of(dst, src, elem);
  CHECK(got.find(expected) != std::string::npos, "%s <- %s: plan '%s' lacks '%s'", dst, src, got.c_str(), expected);
}

static void test_plans() {
  // One contiguous run: a memcpy, of the whole copy.
  expect_plan("(16,4):(1,16)", "(16,4):(1,16)", "kernel memcpy, 256-byte accesses");
  expect_plan("(4,16):(16,1)", "((2,2),16):((16,32),1)", "kernel memcpy, 256-byte accesses");
  expect_plan("(4,16):(16,1)", "((2,2),16):((32,16),1)", "kernel vector, 16-byte accesses, modes (16:1<-1,2:16<-32,2:32<-16)");
  // The common run of 8 floats becomes two 16-byte vectors per row.
  expect_plan("(8,5,6):(1,8,40)", "(8,5,6):(1,48,8)", "kernel vector, 16-byte accesses, modes (8:1<-1,5:8<-48,6:40<-8)");
  // An odd run: one element at a time.
  expect_plan("(3,5):(1,3)", "(3,5):(1,4)", "kernel vector, 4-byte accesses");
  expect_plan("(3,5):(1,3)", "(3,5):(1,4)", "kernel vector, 2-byte accesses", 2);
  // Odd runs of two windows at least (four of 4-byte elements): the rows
  // kernel, 16-byte windows.
  expect_plan("(67,29,33):(1,67,1943)", "(67,29,33):(1,2211,67)",
              "kernel rows, 16-byte accesses, 957 rows of 67 elements", 1);
  expect_plan("(67,29,33):(1,67,1943)", "(67,29,33):(1,2211,67)", "kernel rows, 16-byte accesses", 4);
  expect_plan("(13,29,33):(1,13,377)", "(13,29,33):(1,429,13)", "kernel vector, 4-byte accesses", 4);
  expect_plan("(64,29,33):(1,64,1856)", "(64,29,33):(1,2112,64)", "kernel vector, 16-byte accesses", 1);
  expect_plan("(67,29,33):(1,67,1943)", "(67,29,33):(1,2211,67)", "kernel vector, 8-byte accesses", 8);
  // Negative src strides flip with dst's; a broadcast src has stride 0.
  expect_plan("(8,4):(-1,8)", "(8,4):(-1,8)", "kernel memcpy");
  expect_plan("(8,4):(1,8)", "(8,4):(1,0)", "kernel vector, 16-byte accesses, modes (8:1<-1,4:8<-0)");
  // Transposes: dst's unit mode is not src's.
  expect_plan("(64,64):(64,1)", "(64,64):(1,64)",
              "kernel transpose, 16-byte accesses, tiles 64x64, 64 dst-contiguous steps (1 mode) by 64 "
              "src-contiguous steps (1 mode), batch 1");
  expect_plan("(64,64):(64,1)", "(64,64):(1,64)", "kernel transpose, 16-byte accesses, tiles 64x64", 2);
  expect_plan("(64,64):(64,1)", "(64,64):(1,64)", "kernel transpose, 16-byte accesses, tiles 32x32", 8);
  // Odd extents of 1- and 2-byte elements: the tile kernel with 16-byte
  // windows, tiles 128 bytes along i.
  expect_plan("(257,263):(263,1)", "(257,263):(1,257)",
              "kernel tile, 16-byte accesses, tiles 128x129, 263 dst steps of 1 (1 mode) by 257 src steps of 1 (1 mode), "
              "batch 1", 1);
  expect_plan("(257,263):(263,1)", "(257,263):(1,257)", "kernel tile, 16-byte accesses, tiles 64x144", 2);
  // A tile's columns that continue one another in dst: written as one run.
  expect_plan("(64,301):(1,64)", "(64,301):(301,1)", "kernel tile, 16-byte accesses, tiles 64x289", 1);
  expect_plan("(64,301):(1,64)", "(64,301):(301,1)", "batch 1, dst columns in one run", 1);
  // Runs under 64 bytes: element-wise tiles.
  expect_plan("(63,64):(64,1)", "(63,64):(1,63)", "kernel tile, 1-byte accesses", 1);
  // CUTELAYOUT_CUDA_TILES=scalar: no kernel of 16-byte windows (a baseline).
  setenv("CUTELAYOUT_CUDA_TILES", "scalar", 1);
  expect_plan("(257,263):(263,1)", "(257,263):(1,257)", "kernel tile, 1-byte accesses", 1);
  expect_plan("(67,29,33):(1,67,1943)", "(67,29,33):(1,2211,67)", "kernel vector, 1-byte accesses", 1);
  unsetenv("CUTELAYOUT_CUDA_TILES");
  // 16-byte elements: no wider access; the tile kernel.
  expect_plan("(64,64):(64,1)", "(64,64):(1,64)", "kernel tile, 16-byte accesses, tiles 32x32", 16);
  // An odd extent: one element per access, the tile kernel, whose tiles
  // take the 63 steps whole.
  expect_plan("(63,64):(64,1)", "(63,64):(1,63)",
              "kernel tile, 4-byte accesses, tiles 64x63, 64 dst steps of 1 (1 mode) by 63 src steps of 1 (1 mode), "
              "batch 1");
  expect_plan("(62,64):(64,1)", "(62,64):(1,62)", "kernel transpose, 4-byte accesses", 2);
  // numpy's a.transpose(3,1,0,2).copy() of a row-major 64^4: dst's unit
  // mode is one i run, src's the j run, the other two modes the batch.
  expect_plan("(64,64,64,64):(4096,262144,1,64)", "(64,64,64,64):(262144,4096,64,1)",
              "64 dst-contiguous steps (1 mode) by 64 src-contiguous steps (1 mode), batch 4096");
  // Of 8^4: too short a src run for tiles.
  expect_plan("(8,8,8,8):(64,512,1,8)", "(8,8,8,8):(512,64,8,1)", "kernel vector, 4-byte accesses");
  // 128^3 (2,0,1): two modes merge, contiguous on both sides.
  expect_plan("(128,128,128):(128,1,16384)", "(128,128,128):(16384,128,1)",
              "16384 dst-contiguous steps (1 mode) by 128 src-contiguous steps (1 mode), batch 1");
  // logical_divide tiles: both runs gather two modes to fill a tile's edge.
  expect_plan("((4,8),(4,8)):((256,32),(8,1))", "((4,8),(4,8)):((1,4),(32,128))",
              "32 dst-contiguous steps (2 modes) by 32 src-contiguous steps (2 modes), batch 1");
  expect_plan("((32,128),(32,128)):((524288,4096),(128,1))", "((32,128),(32,128)):((1,32),(4096,131072))",
              "128 dst-contiguous steps (1 mode) by 4096 src-contiguous steps (2 modes), batch 32");
  // A batch of small transposes.
  expect_plan("(32,32,5):(32,1,1024)", "(32,32,5):(1,32,1024)", "batch 5");
  // Runs too short for tiles.
  expect_plan("(2,64):(64,1)", "(2,64):(1,2)", "kernel vector");
  // Images NCHW -> NHWC of bytes: wide tiles of the channels whole by as
  // many pixels as fit, whose columns (pixels) are one run in dst; of 8-byte
  // elements with 3 channels, a run of 3 steps: the vector kernel; with 8,
  // element-wise tiles of the channels whole by 256 pixels.
  expect_plan("(50,70,3,2):(3,150,1,10500)", "(50,70,3,2):(1,50,3500,10500)",
              "kernel tile, 16-byte accesses, tiles 3x3500, 3 dst steps of 1 (1 mode) by 3500 src steps of 1 (1 mode), "
              "batch 2, dst columns in one run", 1);
  expect_plan("(50,70,8,2):(8,400,1,28000)", "(50,70,8,2):(1,50,3500,28000)",
              "kernel tile, 16-byte accesses, tiles 8x2529, 8 dst steps of 1 (1 mode) by 3500 src steps of 1 (1 mode), "
              "batch 2, dst columns in one run", 1);
  expect_plan("(50,70,3,2):(3,150,1,10500)", "(50,70,3,2):(1,50,3500,10500)", "kernel vector", 8);
  expect_plan("(50,70,8,2):(8,400,1,28000)", "(50,70,8,2):(1,50,3500,28000)",
              "kernel tile, 8-byte accesses, tiles 8x256", 8);
  // The other way (NHWC -> NCHW), a run of 3 steps on the source: the vector kernel.
  expect_plan("(50,70,3,2):(1,50,3500,10500)", "(50,70,3,2):(3,150,1,10500)", "kernel vector", 1);
  // A tile of 8x35 would leave most threads idle.
  expect_plan("(5,7,8,2):(8,40,1,280)", "(5,7,8,2):(1,5,35,280)", "kernel vector", 1);
  // No unit stride on either side: tiles along each side's smallest stride.
  expect_plan("(300,200):(401,2)", "(300,200):(2,605)",
              "kernel tile, 4-byte accesses, tiles 64x64, 200 dst steps of 2 (1 mode) by 300 src steps of 2 (1 mode)");
  // A source that repeats (stride 0) along dst's unit mode: tiles along src's
  // smallest nonzero stride.
  expect_plan("(64,64):(1,64)", "(64,64):(0,1)", "kernel transpose, 16-byte accesses, tiles 64x64");
  expect_plan("(63,64):(1,63)", "(63,64):(0,1)", "kernel tile, 4-byte accesses, tiles 63x64");
  // Unaligned pointers keep accesses narrow.
  {
    static char memory[1 << 16] __attribute__((aligned(256)));
    cl_layout_t *l = layout("(64,64):(64,1)"), *t = layout("(64,64):(1,64)");
    cl_tensor_t *d = tensor(memory + 4, 4, l), *s = tensor(memory + (1 << 15), 4, t);
    char buf[512];
    CHECK(cl_cuda_tensor_copy_explain(d, s, buf, sizeof buf) > 0, "explain");
    CHECK(std::strstr(buf, "kernel tile, 4-byte accesses") != nullptr, "%s", buf);
    cl_tensor_free(d);
    cl_tensor_free(s);
    cl_layout_free(l);
    cl_layout_free(t);
  }
  // No common refinement: the generic kernel.
  expect_plan("(4,3):(3,1)", "(3,4):(4,1)", "kernel generic, 4-byte accesses");
  // Nothing to copy.
  expect_plan("(0,4):(1,1)", "(4,0):(1,1)", "kernel nothing");
  // Text cut to the buffer, length of the whole.
  {
    static char memory[1 << 16] __attribute__((aligned(256)));
    cl_layout_t *l = layout("(64,64):(64,1)"), *t = layout("(64,64):(1,64)");
    cl_tensor_t *d = tensor(memory, 4, l), *s = tensor(memory + (1 << 15), 4, t);
    char small[8];
    int64_t n = cl_cuda_tensor_copy_explain(d, s, small, sizeof small);
    CHECK(n > 8 && std::strcmp(small, "kernel ") == 0, "cut: %lld '%s'", (long long)n, small);
    CHECK(cl_cuda_tensor_copy_explain(d, s, nullptr, 4) == CL_E_NULL, "NULL buf with a capacity");
    cl_tensor_free(d);
    cl_tensor_free(s);
    cl_layout_free(l);
    cl_layout_free(t);
  }
}

// Argument errors found before any CUDA call.
static void test_argument_errors() {
  static char memory[1 << 12] __attribute__((aligned(256)));
  cl_layout_t *l8 = layout("8:1"), *l4 = layout("4:1"), *bcast = layout("8:0");
  cl_tensor_t *a = tensor(memory, 4, l8), *b = tensor(memory + 1024, 4, l8), *c = tensor(memory + 2048, 4, l4);
  cl_tensor_t *odd = tensor(memory, 3, l8), *odd2 = tensor(memory + 1024, 3, l8), *big = tensor(memory, 32, l8),
              *big2 = tensor(memory + 1024, 32, l8), *wide = tensor(memory + 2048, 8, l8);
  cl_tensor_t *same = tensor(memory + 16, 4, l8), *broadcast_dst = tensor(memory, 4, bcast);
  char buf[64];
  CHECK(cl_cuda_tensor_copy(nullptr, b, nullptr) == CL_E_NULL, "NULL dst");
  CHECK(std::strcmp(cl_last_error(), "cl_cuda_tensor_copy: argument 'dst' is NULL") == 0, "%s", cl_last_error());
  CHECK(cl_cuda_tensor_copy(a, nullptr, nullptr) == CL_E_NULL, "NULL src");
  CHECK(cl_cuda_tensor_copy_explain(nullptr, b, buf, sizeof buf) == CL_E_NULL, "explain NULL dst");
  CHECK(cl_cuda_tensor_copy(a, c, nullptr) == CL_E_DOMAIN, "sizes differ");
  CHECK(cl_cuda_tensor_copy(a, wide, nullptr) == CL_E_TYPE, "element sizes differ");
  CHECK(cl_cuda_tensor_copy(odd, odd2, nullptr) == CL_E_UNSUPPORTED, "3-byte elements");
  CHECK(std::strstr(cl_last_error(), "3 bytes") != nullptr, "%s", cl_last_error());
  CHECK(cl_cuda_tensor_copy_explain(big, big2, buf, sizeof buf) == CL_E_UNSUPPORTED, "32-byte elements");
  CHECK(cl_cuda_tensor_copy(a, same, nullptr) == CL_E_OVERLAP, "overlap");
  cl_tensor_t *misaligned = tensor(memory + 2048 + 2, 4, l8);
  CHECK(cl_cuda_tensor_copy(a, misaligned, nullptr) == CL_E_UNSUPPORTED, "a float at an odd address");
  CHECK(std::strstr(cl_last_error(), "not a multiple of the 4-byte element size") != nullptr, "%s", cl_last_error());
  cl_composed_t *plain8 = composed("Sw<0,0,0> o 0 o 8:1");
  CHECK(cl_cuda_composed_copy(memory + 1, plain8, memory + 2048, plain8, 2, nullptr) == CL_E_UNSUPPORTED,
        "an odd address");
  cl_composed_free(plain8);
  cl_tensor_free(misaligned);
  CHECK(cl_cuda_tensor_copy(broadcast_dst, b, nullptr) == CL_E_OVERLAP, "a broadcast destination");

  cl_composed_t *sw = composed("Sw<3,3,3> o 0 o (8,64):(64,1)"), *rm = composed("Sw<0,0,0> o 0 o (8,64):(64,1)");
  cl_composed_t *small = composed("Sw<0,0,0> o 0 o (8,32):(32,1)"), *twice = composed("Sw<0,0,0> o 0 o (8,64):(1,1)");
  cl_composed_t *outer_layout = composed("(8,64):(64,1) o 0 o Sw<3,3,3>");
  CHECK(cl_cuda_composed_copy(nullptr, rm, memory, sw, 2, nullptr) == CL_E_NULL, "NULL dst");
  CHECK(cl_cuda_composed_copy(memory, nullptr, memory, sw, 2, nullptr) == CL_E_NULL, "NULL dst_layout");
  CHECK(cl_cuda_composed_copy(memory, rm, nullptr, sw, 2, nullptr) == CL_E_NULL, "NULL src");
  CHECK(cl_cuda_composed_copy(memory, rm, memory, nullptr, 2, nullptr) == CL_E_NULL, "NULL src_layout");
  CHECK(cl_cuda_composed_copy(memory, rm, memory + 2048, sw, 6, nullptr) == CL_E_UNSUPPORTED, "6-byte elements");
  CHECK(cl_cuda_composed_copy(memory, rm, memory + 2048, sw, size_t(1) << 40, nullptr) == CL_E_UNSUPPORTED,
        "huge elements");
  CHECK(cl_cuda_composed_copy(memory, small, memory + 2048, sw, 2, nullptr) == CL_E_DOMAIN, "sizes differ");
  CHECK(cl_cuda_composed_copy(memory, twice, memory + 2048, sw, 2, nullptr) == CL_E_OVERLAP, "dst not injective");
  CHECK(cl_cuda_composed_copy(memory, rm, memory + 512, sw, 2, nullptr) == CL_E_OVERLAP, "overlapping ranges");
  CHECK(cl_cuda_composed_copy(memory, rm, memory + 2048, outer_layout, 2, nullptr) == CL_E_UNSUPPORTED,
        "a layout outside");

  cl_compiled_layout_t compiled;
  CHECK(cl_layout_compile(l8, &compiled) == CL_OK, "compile");
  int64_t *out = reinterpret_cast<int64_t *>(memory);
  CHECK(cl_cuda_compiled_indices(nullptr, 0, 1, out, nullptr) == CL_E_NULL, "NULL layout");
  CHECK(cl_cuda_compiled_indices(&compiled, 0, 1, nullptr, nullptr) == CL_E_NULL, "NULL out");
  CHECK(cl_cuda_compiled_indices(&compiled, -1, 1, out, nullptr) == CL_E_DOMAIN, "i0 < 0");
  CHECK(cl_cuda_compiled_indices(&compiled, 0, -1, out, nullptr) == CL_E_DOMAIN, "n < 0");
  CHECK(cl_cuda_compiled_indices(&compiled, 4, 5, out, nullptr) == CL_E_DOMAIN, "past the end");
  CHECK(cl_cuda_compiled_indices(&compiled, 8, 0, out, nullptr) == CL_OK, "an empty range");
  CHECK(cl_cuda_layout_indices(nullptr, 0, 1, out, nullptr) == CL_E_NULL, "NULL layout");
  cl_layout_t *tuple_stride = nullptr;
  if (cl_layout_parse("(2,2):(1@0,1@1)", &tuple_stride) == CL_OK) /* coordinate strides, where parsed */
    CHECK(cl_cuda_layout_indices(tuple_stride, 0, 1, out, nullptr) == CL_E_TYPE, "coordinate strides");
  cl_layout_free(tuple_stride);

  cl_composed_free(sw);
  cl_composed_free(rm);
  cl_composed_free(small);
  cl_composed_free(twice);
  cl_composed_free(outer_layout);
  for (cl_tensor_t *t : {a, b, c, odd, odd2, big, big2, wide, same, broadcast_dst})
    cl_tensor_free(t);
  cl_layout_free(l8);
  cl_layout_free(l4);
  cl_layout_free(bcast);
}

static void test_dlpack() {
  float data[24];
  int64_t shape[3] = {2, 3, 4}, strides[3] = {1, 2, 6};
  cl_dltensor_t dl = {};
  dl.data = data;
  dl.device.device_type = 2; /* kDLCUDA */
  dl.ndim = 3;
  dl.dtype.code = 2;
  dl.dtype.bits = 32;
  dl.dtype.lanes = 1;
  dl.shape = shape;
  dl.strides = strides;
  dl.byte_offset = 8;
  cl_tensor_t *t = nullptr;
  CHECK(cl_cuda_tensor_from_dlpack(&dl, &t) == CL_OK, "kDLCUDA: %s", cl_last_error());
  CHECK(t != nullptr && layout_text(cl_tensor_layout(t)) == "(2,3,4):(1,2,6)", "layout");
  CHECK(cl_tensor_data(t) == reinterpret_cast<char *>(data) + 8, "byte_offset");
  CHECK(cl_tensor_dtype(t) == CL_DTYPE_FLOAT32, "dtype");
  cl_tensor_free(t);
  dl.device.device_type = 13; /* kDLCUDAManaged */
  CHECK(cl_cuda_tensor_from_dlpack(&dl, &t) == CL_OK, "kDLCUDAManaged");
  cl_tensor_free(t);
  dl.device.device_type = 1; /* kDLCPU: the core's */
  CHECK(cl_cuda_tensor_from_dlpack(&dl, &t) == CL_E_UNSUPPORTED && t == nullptr, "kDLCPU");
  dl.device.device_type = 2;
  dl.ndim = -1;
  CHECK(cl_cuda_tensor_from_dlpack(&dl, &t) == CL_E_DOMAIN, "the core's checks");
  CHECK(cl_cuda_tensor_from_dlpack(nullptr, &t) == CL_E_NULL, "NULL dl");
  CHECK(cl_cuda_tensor_from_dlpack(&dl, nullptr) == CL_E_NULL, "NULL out");
}

// Every function that needs a GPU says so when there is none.
static void test_batched_arguments() {
  static char memory[1 << 12] __attribute__((aligned(256)));
  cl_layout_t *l = layout("8:1");
  cl_tensor_t *a = tensor(memory, 4, l);
  const cl_tensor_t *one[1] = {a};
  CHECK(cl_cuda_tensor_copy_batched(nullptr, one, 1, nullptr) == CL_E_NULL, "NULL dst");
  CHECK(std::strstr(cl_last_error(), "'dst'") != nullptr, "%s", cl_last_error());
  CHECK(cl_cuda_tensor_copy_batched(one, nullptr, 1, nullptr) == CL_E_NULL, "NULL src");
  CHECK(cl_cuda_tensor_copy_batched(nullptr, nullptr, 0, nullptr) == CL_OK, "count 0 queues nothing");
  cl_tensor_free(a);
  cl_layout_free(l);
}

static void test_without_gpu() {
  static char memory[1 << 12] __attribute__((aligned(256)));
  cl_layout_t *l = layout("8:1");
  cl_tensor_t *a = tensor(memory, 4, l), *b = tensor(memory + 1024, 4, l);
  CHECK(cl_cuda_tensor_copy(a, b, nullptr) == CL_E_DEVICE, "copy");
  CHECK(std::strstr(cl_last_error(), "no usable GPU") != nullptr, "%s", cl_last_error());
  cl_composed_t *sw = composed("Sw<3,3,3> o 0 o (8,64):(64,1)"), *rm = composed("Sw<0,0,0> o 0 o (8,64):(64,1)");
  CHECK(cl_cuda_composed_copy(memory, rm, memory + 2048, sw, 2, nullptr) == CL_E_DEVICE, "composed copy");
  CHECK(cl_cuda_layout_indices(l, 0, 8, reinterpret_cast<int64_t *>(memory), nullptr) == CL_E_DEVICE, "indices");
  const cl_tensor_t *da[1] = {a}, *sa[1] = {b};
  CHECK(cl_cuda_tensor_copy_batched(da, sa, 1, nullptr) == CL_E_DEVICE, "batched");
  cl_composed_free(sw);
  cl_composed_free(rm);
  cl_tensor_free(a);
  cl_tensor_free(b);
  cl_layout_free(l);
}

// ------------------------------------------------------------ on the GPU

static std::mt19937_64 rng(20261124);

static int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

// A random flat layout of `shape`: compact strides in a random order,
// sometimes padded, sometimes negative, and for a source sometimes 0.
static cl_layout_t *random_layout(const std::vector<int64_t> &shape, bool source) {
  size_t r = shape.size();
  std::vector<size_t> order(r);
  for (size_t k = 0; k < r; k++)
    order[k] = k;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int64_t> stride(r);
  int64_t step = pick(0, 3) == 0 ? pick(2, 3) : 1;
  for (size_t k : order) {
    stride[k] = step;
    step *= shape[k] + (pick(0, 5) == 0 ? pick(1, 3) : 0);
  }
  for (size_t k = 0; k < r; k++) {
    if (pick(0, 5) == 0)
      stride[k] = -stride[k];
    if (source && pick(0, 9) == 0)
      stride[k] = 0;
  }
  std::string text = "(";
  for (size_t k = 0; k < r; k++)
    text += (k ? "," : "") + std::to_string(shape[k]);
  text += "):(";
  for (size_t k = 0; k < r; k++)
    text += (k ? "," : "") + std::to_string(stride[k]);
  text += ")";
  return layout(text.c_str());
}

// A buffer for a view: the bytes its layout reaches, plus `misalign`
// elements before them; device and host copies of the same random bytes.
struct buffer {
  size_t bytes = 0;
  int64_t origin = 0;  // byte offset of the element at offset 0
  char *device = nullptr;
  std::vector<char> host;
};

static buffer make_buffer(const cl_layout_t *l, size_t elem, int64_t misalign) {
  cl_tensor_t *probe = tensor(reinterpret_cast<void *>(uintptr_t(1) << 40), elem, l);
  int64_t lo = 0, hi = 0;
  cl_tensor_offset_range(probe, &lo, &hi);
  cl_tensor_free(probe);
  buffer b;
  b.origin = (misalign - lo) * int64_t(elem);
  b.bytes = size_t((hi - lo + 1 + misalign + 1) * int64_t(elem));
  b.host.resize(b.bytes);
  for (char &c : b.host)
    c = char(pick(0, 255));
  CUDA_OK(cudaMalloc(&b.device, b.bytes));
  CUDA_OK(cudaMemcpy(b.device, b.host.data(), b.bytes, cudaMemcpyHostToDevice));
  return b;
}

static int copies_checked = 0;

// dst <- src on the GPU and on the host, from the same random bytes; every
// byte of the destination buffer must agree (none written that should not be).
// Misalignments of each side in elements (random 0 to 3 when negative).
static void check_copy(const cl_layout_t *dl, const cl_layout_t *sl, size_t elem, const char *what,
                       int64_t dst_misalign = -1, int64_t src_misalign = -1) {
  buffer d = make_buffer(dl, elem, dst_misalign < 0 ? pick(0, 3) : dst_misalign),
         s = make_buffer(sl, elem, src_misalign < 0 ? pick(0, 3) : src_misalign);
  cl_tensor_t *gd = tensor(d.device + d.origin, elem, dl), *gs = tensor(s.device + s.origin, elem, sl);
  cl_tensor_t *hd = tensor(d.host.data() + d.origin, elem, dl), *hs = tensor(s.host.data() + s.origin, elem, sl);
  char plan[512] = "";
  cl_cuda_tensor_copy_explain(gd, gs, plan, sizeof plan);
  cl_status gs_status = cl_cuda_tensor_copy(gd, gs, nullptr);
  cl_status hs_status = cl_tensor_copy(hd, hs);
  CHECK(gs_status == hs_status, "%s: %s <- %s, %zu bytes: GPU %d, host %d (%s)", what, layout_text(dl).c_str(),
        layout_text(sl).c_str(), elem, gs_status, hs_status, cl_last_error());
  std::vector<char> back(d.bytes);
  CUDA_OK(cudaMemcpy(back.data(), d.device, d.bytes, cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t k = 0; k < d.bytes; k++)
    wrong += back[k] != d.host[k];
  CHECK(wrong == 0, "%s: %s <- %s, %zu-byte elements: %zu bytes differ from the host copy (plan: %s)", what,
        layout_text(dl).c_str(), layout_text(sl).c_str(), elem, wrong, plan);
  copies_checked++;
  for (cl_tensor_t *t : {gd, gs, hd, hs})
    cl_tensor_free(t);
  CUDA_OK(cudaFree(d.device));
  CUDA_OK(cudaFree(s.device));
}

static void check_copy_text(const char *dst, const char *src, size_t elem) {
  cl_layout_t *dl = layout(dst), *sl = layout(src);
  check_copy(dl, sl, elem, "case");
  cl_layout_free(dl);
  cl_layout_free(sl);
}

static const size_t elem_sizes[] = {1, 2, 4, 8, 16};

static void test_copy_cases() {
  for (size_t e : elem_sizes) {
    // Transposes whose edges are not whole tiles, whole vectors, or either.
    check_copy_text("(96,130):(130,1)", "(96,130):(1,96)", e);
    check_copy_text("(67,61):(61,1)", "(67,61):(1,67)", e);
    check_copy_text("(128,64):(64,1)", "(128,64):(1,128)", e);
    // Permutes as numpy's transpose(...).copy() of row-major arrays.
    check_copy_text("(16,16,16,16):(256,4096,1,16)", "(16,16,16,16):(4096,256,16,1)", e);      // (3,1,0,2)
    check_copy_text("(12,20,12,20):(4800,20,240,1)", "(12,20,12,20):(4800,240,20,1)", e);      // (0,2,1,3)
    check_copy_text("(40,36,44):(36,1,1440)", "(40,36,44):(1584,44,1)", e);                    // (2,0,1)
    // logical_divide tiles of a column-major 64x64, gathered row-major.
    check_copy_text("((8,8),(8,8)):((512,8),(64,1))", "((8,8),(8,8)):((1,8),(64,512))", e);
    // Negative strides, a broadcast, no common refinement, a contiguous run.
    check_copy_text("(64,64):(-64,1)", "(64,64):(1,-64)", e);
    check_copy_text("(32,8):(1,32)", "(32,8):(1,0)", e);
    check_copy_text("(4,3):(3,1)", "(3,4):(4,1)", e);
    check_copy_text("(1000):(1)", "(1000):(1)", e);
    // The tile kernel: prime extents (edges of every tile predicated), a
    // batch, images NCHW <-> NHWC with 3 channels, no unit stride on either
    // side, a broadcast along dst's unit mode, runs of two modes.
    check_copy_text("(257,263):(263,1)", "(257,263):(1,257)", e);
    check_copy_text("(67,61,3):(61,1,4087)", "(67,61,3):(1,67,4087)", e);
    check_copy_text("(50,70,3,2):(3,150,1,10500)", "(50,70,3,2):(1,50,3500,10500)", e);
    check_copy_text("(50,70,3,2):(1,50,3500,10500)", "(50,70,3,2):(3,150,1,10500)", e);
    check_copy_text("(50,70,8,2):(8,400,1,28000)", "(50,70,8,2):(1,50,3500,28000)", e);
    check_copy_text("(50,70,8,2):(1,50,3500,28000)", "(50,70,8,2):(8,400,1,28000)", e);
    check_copy_text("(300,200):(401,2)", "(300,200):(2,605)", e);
    check_copy_text("(63,64):(1,63)", "(63,64):(0,1)", e);
    check_copy_text("((7,9),(5,11)):((55,385),(1,5))", "((7,9),(5,11)):((1,7),(63,315))", e);
    check_copy_text("(1031,3):(3,1)", "(1031,3):(1,-1031)", e);
  }
}

// The kernels of 16-byte windows (wide tiles of 1- and 2-byte elements,
// rows of 1-, 2- and 4-byte ones; element-wise tiles for 4-byte elements'
// transposes) at every alignment of either side within a window: rows and
// columns that start anywhere in a window and end anywhere, windows cut by
// the buffer's first and last bytes (each buffer ends one element past the
// view), columns written as one run (images), short runs on either side,
// odd common runs (the rows kernel), a source that repeats its rows.
static void test_wide_kernels() {
  const char *const cases[][2] = {
      {"(67,61):(61,1)", "(67,61):(1,67)"},
      {"(257,263):(263,1)", "(257,263):(1,257)"},
      {"(3,700,2):(1,3,2100)", "(3,700,2):(700,1,2100)"},           // NCHW -> NHWC, 3 channels
      {"(700,3,2):(1,700,2100)", "(700,3,2):(3,1,2100)"},           // and back
      {"(2,1031):(1,2)", "(2,1031):(1031,1)"},                      // 2 channels
      {"(5,29,37):(1,5,145)", "(5,29,37):(1073,37,1)"},             // short dst run, j of one mode
      {"((64,3),(64,2)):((1,8192),(64,4096))", "((64,3),(64,2)):((128,24576),(1,64))"},
      {"(130,9):(9,1)", "(130,9):(1,130)"},                         // a short j run
      {"(64,301):(1,64)", "(64,301):(301,1)"},                      // dst columns in one run
      {"(130,70):(1,130)", "(130,70):(70,1)"},                      // runs of 64 bytes and more
      {"(37,64,41):(1,2368,37)", "(37,64,41):(64,1,2368)"},
      {"(67,29,33):(1,67,1943)", "(67,29,33):(1,2211,67)"},         // rows of 67 elements
      {"(133,20,9):(1,133,2660)", "(133,20,9):(1,1197,133)"},
      {"(100,50):(1,100)", "(100,50):(1,103)"},                     // padded src rows
      {"(701,7):(1,701)", "(701,7):(1,0)"},                         // one src row, repeated
  };
  for (size_t e : {size_t(1), size_t(2), size_t(4)})
    for (const auto &c : cases) {
      cl_layout_t *dl = layout(c[0]), *sl = layout(c[1]);
      for (int64_t m = 0; m < int64_t(16 / e); m++) {
        check_copy(dl, sl, e, "16-byte windows", m, (m * 7 + 3) % int64_t(16 / e));
        check_copy(dl, sl, e, "16-byte windows", (m * 5 + 1) % int64_t(16 / e), m);
      }
      cl_layout_free(dl);
      cl_layout_free(sl);
    }
}

static void test_copy_random(int rounds) {
  for (int round = 0; round < rounds; round++) {
    size_t rank = size_t(pick(1, 4));
    std::vector<int64_t> shape(rank);
    for (int64_t &n : shape)
      n = pick(0, 9) == 0 ? pick(1, 3) : pick(1, 9) < 3 ? pick(60, 140) : pick(2, 24);
    int64_t size = 1;
    for (int64_t n : shape)
      size *= n;
    if (size > (1 << 21))
      continue;
    cl_layout_t *dl = random_layout(shape, false), *sl = random_layout(shape, true);
    check_copy(dl, sl, elem_sizes[pick(0, 4)], "random");
    cl_layout_free(dl);
    cl_layout_free(sl);
  }
}

// Swizzled tiles to row-major and back, against cl_composed_eval.
static void check_composed(const char *dst_text, const char *src_text, size_t elem) {
  cl_composed_t *dc = composed(dst_text), *sc = composed(src_text);
  cl_compiled_layout_t dcomp, scomp;
  CHECK(cl_composed_compile(dc, &dcomp) == CL_OK && cl_composed_compile(sc, &scomp) == CL_OK, "compile");
  int64_t size = dcomp.size, cos = 0;
  for (int64_t i = 0; i < size; i++) {
    int64_t a = cl_compiled_eval(&dcomp, i), b = cl_compiled_eval(&scomp, i);
    cos = std::max(cos, std::max(a, b) + 1);
  }
  size_t bytes = size_t(cos) * elem;
  std::vector<char> src(bytes), dst(bytes), expect(bytes), back(bytes);
  for (char &c : src)
    c = char(pick(0, 255));
  for (char &c : dst)
    c = char(pick(0, 255));
  expect = dst;
  for (int64_t i = 0; i < size; i++) {
    int64_t a = 0, b = 0;
    CHECK(cl_composed_eval(dc, i, &a) == CL_OK && cl_composed_eval(sc, i, &b) == CL_OK, "eval");
    std::memcpy(&expect[size_t(a) * elem], &src[size_t(b) * elem], elem);
  }
  char *gd, *gsrc;
  CUDA_OK(cudaMalloc(&gd, bytes));
  CUDA_OK(cudaMalloc(&gsrc, bytes));
  CUDA_OK(cudaMemcpy(gd, dst.data(), bytes, cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(gsrc, src.data(), bytes, cudaMemcpyHostToDevice));
  cl_status s = cl_cuda_composed_copy(gd, dc, gsrc, sc, elem, nullptr);
  CHECK(s == CL_OK, "%s <- %s: %s", dst_text, src_text, cl_last_error());
  CUDA_OK(cudaMemcpy(back.data(), gd, bytes, cudaMemcpyDeviceToHost));
  CHECK(back == expect, "%s <- %s, %zu-byte elements: differs from the host", dst_text, src_text, elem);
  CUDA_OK(cudaFree(gd));
  CUDA_OK(cudaFree(gsrc));
  cl_composed_free(dc);
  cl_composed_free(sc);
}

static void test_composed() {
  for (size_t e : elem_sizes) {
    check_composed("Sw<0,0,0> o 0 o (8,64):(64,1)", "Sw<3,3,3> o 0 o (8,64):(64,1)", e);
    check_composed("Sw<3,3,3> o 0 o ((8,4),64):((64,512),1)", "Sw<0,0,0> o 0 o ((8,4),64):((64,512),1)", e);
    check_composed("Sw<0,0,0> o 0 o (64,8):(1,64)", "Sw<2,2,-3> o 32 o (8,64):(64,1)", e);
    check_composed("Sw<0,0,0> o 0 o (16,32):(32,1)", "Sw<3,1,4> o 0 o (16,32):(1,16)", e);
  }
}

// cl_cuda_tensor_copy_batched: more pairs than one launch takes, of every
// kind of plan (a contiguous run, a transpose, broadcast, odd extents, an
// empty one), each against the host copy; then its errors.
static void test_batched() {
  const char *pairs[][2] = {{"(1000):(1)", "(1000):(1)"},        {"(64,64):(64,1)", "(64,64):(1,64)"},
                            {"(67,61):(61,1)", "(67,61):(1,67)"}, {"(32,8):(1,32)", "(32,8):(1,0)"},
                            {"(0,4):(1,0)", "(0,4):(1,0)"},       {"(4,3):(3,1)", "(3,4):(4,1)"},
                            {"(5,7,3):(3,15,1)", "(5,7,3):(1,5,35)"}};
  const size_t kinds = sizeof pairs / sizeof pairs[0], count = 2 * CL_CUDA_BATCH_PAIRS + 3;
  std::vector<cl_tensor_t *> gd, gs;
  std::vector<std::vector<char>> expect;
  std::vector<buffer> bufs;
  for (size_t k = 0; k < count; k++) {
    size_t elem = elem_sizes[k % 5];
    cl_layout_t *dl = layout(pairs[k % kinds][0]), *sl = layout(pairs[k % kinds][1]);
    buffer d = make_buffer(dl, elem, int64_t(k % 3)), s = make_buffer(sl, elem, int64_t(k % 2));
    cl_tensor_t *hd = tensor(d.host.data() + d.origin, elem, dl), *hs = tensor(s.host.data() + s.origin, elem, sl);
    CHECK(cl_tensor_copy(hd, hs) == CL_OK, "host copy: %s", cl_last_error());
    expect.push_back(d.host);
    gd.push_back(tensor(d.device + d.origin, elem, dl));
    gs.push_back(tensor(s.device + s.origin, elem, sl));
    bufs.push_back(d);
    bufs.push_back(s);
    cl_tensor_free(hd);
    cl_tensor_free(hs);
    cl_layout_free(dl);
    cl_layout_free(sl);
  }
  CHECK(cl_cuda_tensor_copy_batched(gd.data(), gs.data(), count, nullptr) == CL_OK, "batched: %s", cl_last_error());
  for (size_t k = 0; k < count; k++) {
    std::vector<char> back(bufs[2 * k].bytes);
    CUDA_OK(cudaMemcpy(back.data(), bufs[2 * k].device, back.size(), cudaMemcpyDeviceToHost));
    CHECK(back == expect[k], "batched pair %zu (%s <- %s) differs from the host copy", k, pairs[k % kinds][0],
          pairs[k % kinds][1]);
  }
  // Errors: NULL arrays, a bad pair (nothing queued: the destinations keep
  // their bytes), count 0.
  CUDA_OK(cudaMemset(bufs[0].device, 0, bufs[0].bytes));
  std::vector<cl_tensor_t *> bad_d = {gd[0], gd[1]}, bad_s = {gs[0], gs[3]};
  cl_status st = cl_cuda_tensor_copy_batched(bad_d.data(), bad_s.data(), 2, nullptr);
  CHECK(st < 0 && std::strncmp(cl_last_error(), "pair 1: ", 8) == 0, "a bad pair: %d %s", st,
        cl_last_error());
  std::vector<char> back(bufs[0].bytes), zeros(bufs[0].bytes, 0);
  CUDA_OK(cudaMemcpy(back.data(), bufs[0].device, back.size(), cudaMemcpyDeviceToHost));
  CHECK(back == zeros, "nothing queued when a pair fails");
  for (size_t k = 0; k < count; k++) {
    cl_tensor_free(gd[k]);
    cl_tensor_free(gs[k]);
  }
  for (buffer &b : bufs)
    CUDA_OK(cudaFree(b.device));
}

// Device evaluation: a kernel of this test evaluates compiled layouts passed
// by value (as any user's kernel would), and cl_cuda_compiled_indices does
// too; both against cl_layout_eval / cl_composed_eval on the host.
__global__ void eval_kernel(const cl_compiled_layout_t layout, int64_t *out) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < layout.size; i += int64_t(gridDim.x) * blockDim.x)
    out[i] = cl_compiled_eval(&layout, i);
}

static std::string random_layout_text() {
  // Hierarchical shapes: each top mode a leaf or a pair.
  int rank = int(pick(1, 4));
  std::string shape = "(", stride = "(";
  for (int k = 0; k < rank; k++) {
    auto leaf = [&](std::string &sh, std::string &st) {
      sh += std::to_string(pick(1, 9) < 4 ? int64_t(1) << pick(0, 3) : pick(1, 9));
      int64_t d = pick(-200, 200);
      st += std::to_string(pick(0, 4) == 0 ? 0 : d);
    };
    if (k) {
      shape += ",";
      stride += ",";
    }
    if (pick(0, 3) == 0) {
      shape += "(";
      stride += "(";
      leaf(shape, stride);
      shape += ",";
      stride += ",";
      leaf(shape, stride);
      shape += ")";
      stride += ")";
    } else {
      leaf(shape, stride);
    }
  }
  return shape + "):" + stride + ")";
}

static void test_device_eval(int layouts) {
  int64_t *out;
  const int64_t cap = 1 << 16;
  CUDA_OK(cudaMalloc(&out, cap * sizeof *out));
  std::vector<int64_t> got(cap), got2(cap);
  int checked = 0;
  for (int round = 0; checked < layouts && round < 20 * layouts; round++) {
    bool swizzled = round % 4 == 3;
    std::string text = random_layout_text();
    cl_layout_t *l = layout(text.c_str());
    cl_composed_t *c = nullptr;
    cl_compiled_layout_t compiled;
    cl_status s;
    if (swizzled) {
      cl_swizzle_t sw;
      int64_t b = pick(1, 3), m = pick(0, 4), sh = pick(0, 1) ? pick(b, 5) : -pick(b, 5);
      CHECK(cl_swizzle_make(b, m, sh, &sw) == CL_OK, "swizzle");
      int64_t offset = pick(0, 64), lo = 0, hi = 0;
      cl_tensor_t *probe = tensor(reinterpret_cast<void *>(uintptr_t(1) << 40), 1, l);
      cl_tensor_offset_range(probe, &lo, &hi);
      cl_tensor_free(probe);
      if (offset + lo < 0)
        offset = -lo;  // CuTe's swizzles act on non-negative indices
      CHECK(cl_make_composed_layout(cl_fn_swizzle(sw), offset, cl_fn_layout(l), &c) == CL_OK, "compose");
      s = cl_composed_compile(c, &compiled);
    } else {
      s = cl_layout_compile(l, &compiled);
    }
    if (s != CL_OK || compiled.size > cap) {
      cl_composed_free(c);
      cl_layout_free(l);
      continue;
    }
    int64_t n = compiled.size;
    if (n > 0) {
      eval_kernel<<<64, 128>>>(compiled, out);
      CUDA_OK(cudaGetLastError());
      CUDA_OK(cudaMemcpy(got.data(), out, size_t(n) * sizeof *out, cudaMemcpyDeviceToHost));
      int64_t i0 = pick(0, n - 1), m = pick(0, n - i0);
      CHECK((c ? cl_cuda_compiled_indices(&compiled, i0, m, out, nullptr)
               : cl_cuda_layout_indices(l, i0, m, out, nullptr)) == CL_OK,
            "indices: %s", cl_last_error());
      CUDA_OK(cudaMemcpy(got2.data(), out, size_t(m) * sizeof *out, cudaMemcpyDeviceToHost));
      int wrong = 0;
      for (int64_t i = 0; i < n; i++) {
        int64_t expect = 0;
        cl_status es = c ? cl_composed_eval(c, i, &expect) : cl_layout_eval(l, i, &expect);
        wrong += es != CL_OK || got[size_t(i)] != expect || (i >= i0 && i < i0 + m && got2[size_t(i - i0)] != expect);
      }
      CHECK(wrong == 0, "%s%s: %d indices differ from the host", swizzled ? "swizzled " : "", text.c_str(), wrong);
      checked++;
    }
    cl_composed_free(c);
    cl_layout_free(l);
  }
  CHECK(checked == layouts, "only %d of %d layouts evaluated", checked, layouts);
  CUDA_OK(cudaFree(out));
  std::printf("test_cuda: %d layouts evaluated on the device\n", checked);
}

// The memory checks refuse what would fault on the device, and leave the
// CUDA context usable.
static void test_memory_checks() {
  // Allocations of 2 MiB, a multiple of any allocation granularity, so that
  // the driver's idea of where they end is the program's.
  const size_t floats = (2 << 20) / sizeof(float);
  cl_layout_t *l = layout("(64,64):(64,1)"), *t = layout("(64,64):(1,64)"), *big = layout("(1024,1024):(1024,1)");
  float *dev, *pinned;
  std::vector<float> host(64 * 64);
  CUDA_OK(cudaMalloc(&dev, floats * sizeof(float)));
  CUDA_OK(cudaMallocHost(&pinned, 64 * 64 * sizeof(float)));
  cl_tensor_t *d = tensor(dev, 4, l), *s = tensor(dev + 64 * 64, 4, t);
  cl_tensor_t *on_host = tensor(host.data(), 4, t), *on_pinned = tensor(pinned, 4, t);
  cl_tensor_t *last = tensor(dev + floats - 64 * 64, 4, t);     /* the allocation's last 64x64 */
  cl_tensor_t *past = tensor(dev + floats - 64 * 64 + 1, 4, t); /* one element past its end */
  CHECK(cl_cuda_tensor_copy(d, on_host, nullptr) == CL_E_DEVICE, "host memory");
  CHECK(std::strstr(cl_last_error(), "not device memory") != nullptr, "%s", cl_last_error());
  CHECK(cl_cuda_tensor_copy(on_host, s, nullptr) == CL_E_DEVICE, "host memory as dst");
  CHECK(cl_cuda_tensor_copy(d, on_pinned, nullptr) == CL_E_DEVICE, "pinned host memory");
  CHECK(cl_cuda_tensor_copy(d, past, nullptr) == CL_E_BOUNDS, "past the allocation: %s", cl_last_error());
  CHECK(std::strstr(cl_last_error(), "past the end") != nullptr, "%s", cl_last_error());
  CHECK(cl_cuda_tensor_copy(d, last, nullptr) == CL_OK, "the allocation's end: %s", cl_last_error());
  int64_t *idx;
  const int64_t room = (2 << 20) / 8;
  CUDA_OK(cudaMalloc(&idx, size_t(room) * sizeof *idx));
  CHECK(cl_cuda_layout_indices(big, 0, room + 1, idx, nullptr) == CL_E_BOUNDS, "indices past the allocation");
  CHECK(cl_cuda_layout_indices(big, 1, room, idx, nullptr) == CL_OK, "indices: %s", cl_last_error());
  CHECK(cl_cuda_layout_indices(l, 0, 10, reinterpret_cast<int64_t *>(host.data()), nullptr) == CL_E_DEVICE,
        "indices to host memory");
  // The context still works: a copy after the refusals.
  CHECK(cl_cuda_tensor_copy(d, s, nullptr) == CL_OK, "a good copy: %s", cl_last_error());
  CHECK(cudaDeviceSynchronize() == cudaSuccess, "the context is usable");
  std::vector<int64_t> back(static_cast<size_t>(room));
  CUDA_OK(cudaMemcpy(back.data(), idx, back.size() * sizeof back[0], cudaMemcpyDeviceToHost));
  int wrong = 0;
  for (int64_t k = 0; k < room; k++)
    wrong += back[size_t(k)] != (k + 1) % 1024 * 1024 + (k + 1) / 1024;
  CHECK(wrong == 0, "indices of (1024,1024):(1024,1): %d wrong", wrong);
  // A stream other than the default.
  cudaStream_t stream;
  CUDA_OK(cudaStreamCreate(&stream));
  CHECK(cl_cuda_tensor_copy(s, d, stream) == CL_OK, "on a stream");
  CUDA_OK(cudaStreamSynchronize(stream));
  CUDA_OK(cudaStreamDestroy(stream));
  for (cl_tensor_t *x : {d, s, on_host, on_pinned, last, past})
    cl_tensor_free(x);
  CUDA_OK(cudaFree(idx));
  CUDA_OK(cudaFree(dev));
  CUDA_OK(cudaFreeHost(pinned));
  cl_layout_free(l);
  cl_layout_free(t);
  cl_layout_free(big);
}

// Copies of at most 1 MiB: the vector kernel where tiles would serve a
// larger copy; CUTELAYOUT_CUDA_SMALL=off keeps the tiles (which the other
// tests, on small layouts, exercise).
static void test_small_plans() {
  unsetenv("CUTELAYOUT_CUDA_SMALL");
  expect_plan("(32,32):(32,1)", "(32,32):(1,32)", "kernel vector, 4-byte accesses, modes (32:1<-32,32:32<-1)");
  expect_plan("(32,32):(32,1)", "(32,32):(1,32)", "kernel vector, 2-byte accesses", 2);
  expect_plan("(256,256):(256,1)", "(256,256):(1,256)", "kernel vector, 4-byte accesses");     // 256 KiB
  expect_plan("(257,256):(256,1)", "(257,256):(1,257)", "kernel tile, 4-byte accesses");       // 256 KiB + 1 KiB
  expect_plan("(256,512):(512,1)", "(256,512):(1,256)", "kernel vector, 2-byte accesses", 2); // 256 KiB
  expect_plan("(256,513):(513,1)", "(256,513):(1,256)", "kernel tile, 16-byte accesses", 2);
  // 1-, 8- and 16-byte elements keep their tiles.
  expect_plan("(64,64):(64,1)", "(64,64):(1,64)", "kernel transpose, 16-byte accesses, tiles 64x64", 1);
  expect_plan("(64,64):(64,1)", "(64,64):(1,64)", "kernel transpose, 16-byte accesses, tiles 32x32", 8);
  expect_plan("(64,64):(64,1)", "(64,64):(1,64)", "kernel tile, 16-byte accesses, tiles 32x32", 16);
  // Small copies keep the memcpy and the vectors of a common run.
  expect_plan("(16,4):(1,16)", "(16,4):(1,16)", "kernel memcpy, 256-byte accesses");
  expect_plan("(8,5,6):(1,8,40)", "(8,5,6):(1,48,8)", "kernel vector, 16-byte accesses");
  setenv("CUTELAYOUT_CUDA_SMALL", "off", 1);
  expect_plan("(32,32):(32,1)", "(32,32):(1,32)", "kernel transpose, 16-byte accesses, tiles 64x64");
  setenv("CUTELAYOUT_CUDA_SMALL", "no", 1);  // only "off" turns it off
  expect_plan("(32,32):(32,1)", "(32,32):(1,32)", "kernel vector");
  setenv("CUTELAYOUT_CUDA_SMALL", "off", 1);
}

// The small copies' plans on the GPU against the host: random layouts of
// every element size (the same generator as test_copy_random), transposes
// at the threshold.
static void test_small_copies(int rounds) {
  unsetenv("CUTELAYOUT_CUDA_SMALL");
  test_copy_random(rounds);
  check_copy_text("(32,32):(32,1)", "(32,32):(1,32)", 4);
  check_copy_text("(256,256):(256,1)", "(256,256):(1,256)", 4);
  check_copy_text("(256,512):(512,1)", "(256,512):(1,256)", 2);
  check_copy_text("(67,61,3):(61,1,4087)", "(67,61,3):(1,67,4087)", 2);
  check_copy_text("(2,5,2,5,5,10):(1,2,10,20,100,500)", "(2,5,2,5,5,10):(2500,500,100,50,10,1)", 4);
  setenv("CUTELAYOUT_CUDA_SMALL", "off", 1);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "plan";
  // The tests below of tiles on small layouts need them on at that size.
  setenv("CUTELAYOUT_CUDA_SMALL", "off", 1);
  int devices = 0;
  bool gpu = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  cudaGetLastError();
  if (std::strcmp(mode, "plan") == 0) {
    test_plans();
    test_argument_errors();
    test_batched_arguments();
    test_dlpack();
    test_small_plans();
    if (!gpu)
      test_without_gpu();
  } else if (std::strcmp(mode, "gpu") == 0) {
    if (!gpu) {
      std::printf("test_cuda: no GPU: skipped\n");
      return 77;
    }
    int rounds = argc > 2 ? std::atoi(argv[2]) : 400;
    test_copy_cases();
    test_wide_kernels();
    test_copy_random(rounds);
    test_small_copies(rounds / 4);
    test_composed();
    test_batched();
    test_device_eval(4 * rounds);
    test_memory_checks();
    CUDA_OK(cudaDeviceSynchronize());
    std::printf("test_cuda: %d copies checked against the host\n", copies_checked);
  } else {
    std::fprintf(stderr, "usage: test_cuda [plan|gpu [ROUNDS]]\n");
    return 2;
  }
  if (failures)
    std::fprintf(stderr, "test_cuda %s: %d failures\n", mode, failures);
  return failures ? 1 : 0;
}
