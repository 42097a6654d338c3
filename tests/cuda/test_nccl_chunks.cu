/* SPDX-License-Identifier: BSD-3-Clause */
// test_nccl_chunks.cu: the NCCL executor's cutting of each peer's elements
// into chunks, on the host, without a GPU or a communicator.  It includes
// nccl/nccl.cu to reach its internal functions: for random plans of every
// family, chunk counts and least chunk sizes, the copies of every chunk, run
// by the host copy (cl_tensor_copy) over host buffers, must pack and unpack
// exactly what the whole pieces do.  And the environment's numbers.
#include "nccl.cu"

#include <cutelayout/tensor.h>

#include <random>
#include <vector>

#include "check.h"

// Runs a list's copies on the host.
static bool run_host(const copy_list &c) {
  for (size_t k = 0; k < c.n; k++)
    if (cl_tensor_copy(c.dst[k], c.src[k]) != CL_OK)
      return false;
  return true;
}

// The rank's pieces staged (as they would be without direct peers), packed
// from src and unpacked into dst chunk by chunk and whole: the same bytes.
static void check_plan(const char *a, const char *b, int64_t rank, int64_t chunks, int64_t least) {
  cl_dist_t *src = nullptr, *dst = nullptr;
  cl_dist_plan_t *plan = nullptr;
  bool made = cl_dist_parse(a, &src) == CL_OK && cl_dist_parse(b, &dst) == CL_OK &&
              cl_dist_plan_new(src, dst, 4, rank, &plan) == CL_OK;
  CHECK(made, "%s -> %s, rank %lld", a, b, (long long)rank);
  if (!made) {
    cl_dist_free(src);
    cl_dist_free(dst);
    return;
  }
  cl_nccl_exec e{};
  e.ranks = cl_dist_plan_ranks(plan);
  e.rank = rank;
  e.elem = 4;
  e.chunks = chunks;
  e.chunk_bytes = least;
  CHECK(load_side(plan, CL_DIST_SEND, e.ranks, &e.send) == CL_OK, "send side");
  CHECK(load_side(plan, CL_DIST_RECV, e.ranks, &e.recv) == CL_OK, "recv side");
  for (int64_t p = 0; p < e.ranks; p++)
    e.send.direct[p] = e.recv.direct[p] = -1;
  int64_t sent = stage(&e.send, e.ranks, -1), received = stage(&e.recv, e.ranks, -1);
  std::vector<int32_t> in(static_cast<size_t>(cl_dist_local_size(src))), wire(static_cast<size_t>(received));
  for (size_t i = 0; i < in.size(); i++)
    in[i] = int32_t(i * 7 + 3);
  for (size_t i = 0; i < wire.size(); i++)
    wire[i] = int32_t(i * 5 + 1);
  std::vector<int32_t> packed[2] = {std::vector<int32_t>(size_t(sent), -1), std::vector<int32_t>(size_t(sent), -2)};
  // (The places the destination leaves out, padding, stay as they are.)
  std::vector<int32_t> out[2] = {std::vector<int32_t>(size_t(cl_dist_local_size(dst)), -1),
                                 std::vector<int32_t>(size_t(cl_dist_local_size(dst)), -1)};
  copy_list pack[2] = {}, unpack[2] = {};
  int64_t cut_pieces = 0;
  for (int whole = 0; whole < 2; whole++) {
    e.send_buf = reinterpret_cast<char *>(packed[whole].data());
    for (int64_t p = 0; p < e.ranks; p++)
      for (int64_t c = 0; c < (whole ? 1 : chunks); c++) {
        int64_t lo = 0, hi = e.send.count[p];
        if (!whole)
          chunk_range(&e, e.send.count[p], c, &lo, &hi);
        CHECK(add_pack(&e, &pack[whole], p, reinterpret_cast<char *>(in.data()), lo, hi) == CL_OK, "pack");
        lo = 0, hi = e.recv.count[p];
        if (!whole)
          chunk_range(&e, e.recv.count[p], c, &lo, &hi);
        CHECK(add_unpack(&e, &unpack[whole], p, reinterpret_cast<char *>(wire.data()),
                         reinterpret_cast<char *>(out[whole].data()), lo, hi) == CL_OK,
              "unpack");
      }
    CHECK(run_host(pack[whole]) && run_host(unpack[whole]), "host copies");
    cut_pieces += whole ? -int64_t(pack[whole].n) : int64_t(pack[whole].n);
  }
  CHECK(packed[0] == packed[1], "%s -> %s, rank %lld, %lld chunks of %lld bytes: packed", a, b, (long long)rank,
        (long long)chunks, (long long)least);
  CHECK(out[0] == out[1], "%s -> %s, rank %lld, %lld chunks of %lld bytes: unpacked", a, b, (long long)rank,
        (long long)chunks, (long long)least);
  CHECK(chunks > 1 || cut_pieces == 0, "one chunk cuts nothing");
  for (int whole = 0; whole < 2; whole++) {
    release(&pack[whole]);
    release(&unpack[whole]);
  }
  free_side(&e.send, e.ranks);
  free_side(&e.recv, e.ranks);
  cl_dist_plan_free(plan);
  cl_dist_free(src);
  cl_dist_free(dst);
}

static void test_chunks(void) {
  const char *forms[] = {"Shard(0)",          "Shard(1)",         "Replicate",       "StridedShard(0,2)",
                         "StridedShard(1,3)", "BlockCyclic(0,2)", "BlockCyclic(1,3)"};
  std::mt19937 rng(29);
  for (int t = 0; t < 600; t++) {
    int p = 2 + int(rng() % 3);
    char a[96], b[96];
    int rows = 1 + int(rng() % 13), cols = 1 + int(rng() % 13);
    std::snprintf(a, sizeof a, "dist((%d,%d), %d, %s)", rows, cols, p, forms[rng() % 7]);
    std::snprintf(b, sizeof b, "dist((%d,%d), %d, %s)", rows, cols, p, forms[rng() % 7]);
    check_plan(a, b, int64_t(rng() % unsigned(p)), 1 + int64_t(rng() % max_chunks), 4 * (1 + int64_t(rng() % 3)));
  }
  // A 2-D mesh and a generic layout, cut into single elements.
  check_plan("dist((6,8), (2,2), Shard(0), Shard(1))", "dist((6,8), (2,2), Shard(1), BlockCyclic(0,1))", 3, 16, 4);
  check_plan("dist((4,6), 2, 12, ((2,2),6):((6,12),1))", "dist((4,6), 2, 12, (4,(3,2)):(1,(4,12)))", 1, 16, 4);
}

// Chunk boundaries: equal runs, none under the least size, both ends alike.
static void test_ranges(void) {
  cl_nccl_exec e{};
  e.elem = 2;
  e.chunks = 4;
  e.chunk_bytes = 8;
  int64_t lo = 0, hi = 0;
  CHECK(parts(&e, 100) == 4 && parts(&e, 7) == 1 && parts(&e, 8) == 2 && parts(&e, 0) == 1, "parts");
  chunk_range(&e, 100, 1, &lo, &hi);
  CHECK(lo == 25 && hi == 50, "chunk 1 of 100: [%lld, %lld)", (long long)lo, (long long)hi);
  chunk_range(&e, 7, 2, &lo, &hi);
  CHECK(lo == 7 && hi == 7, "past the parts: empty");
}

static void test_environment(void) {
  const char *name = "CUTELAYOUT_NCCL_TEST_NUMBER";
  struct {
    const char *text;
    int64_t want;
  } cases[] = {{"3", 3}, {"16", 16}, {"17", 5}, {"0", 5}, {"-2", 5}, {"4x", 5}, {"", 5}, {nullptr, 5}};
  for (const auto &c : cases) {
    if (c.text != nullptr)
      setenv(name, c.text, 1);
    else
      unsetenv(name);
    CHECK(from_environment(name, 16, 5) == c.want, "'%s'", c.text == nullptr ? "(unset)" : c.text);
  }
  unsetenv(name);
}

int main() {
  test_chunks();
  test_ranges();
  test_environment();
  if (failures > 0) {
    std::fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  return 0;
}
