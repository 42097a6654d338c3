/* SPDX-License-Identifier: BSD-3-Clause */
// test_nccl.cu: the NCCL executor (nccl.h).  `args`: the argument checks that
// need no GPU.  `gpu`: redistributions between random pairs of distributions
// of every family, every element size, over all visible GPUs (at least 2,
// else skipped) in one process, one thread per rank, each rank's result
// compared with a reference computed on the host from cl_dist_locate; and
// the errors that need a communicator.  A plain program (no cmocka), so it
// runs on GPU machines without it.
#include <cuda_runtime.h>
#include <nccl.h>
#include <pthread.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <cutelayout/nccl.h>

#include "check.h"

static cl_dist_t *parse(const char *text) {
  cl_dist_t *d = nullptr;
  cl_status s = cl_dist_parse(text, &d);
  if (s != CL_OK) {
    std::fprintf(stderr, "cannot parse %s: %s\n", text, cl_last_error());
    std::exit(1);
  }
  return d;
}

static std::vector<std::string> families(int p);

// The GPU test's distributions parse and plan, for 2 and 4 ranks (so that the
// GPU run fails only on what needs a GPU).
static void test_families(void) {
  for (int p = 2; p <= 4; p += 2) {
    std::vector<std::string> fam = families(p);
    CHECK(fam.size() == 26, "%zu families over %d ranks", fam.size(), p);
    for (const std::string &text : fam) {
      cl_dist_t *d = parse(text.c_str());
      cl_dist_plan_t *plan = nullptr;
      CHECK(cl_dist_plan_new(d, d, 16, p - 1, &plan) == CL_OK, "plan of %s", text.c_str());
      cl_dist_plan_free(plan);
      cl_dist_free(d);
    }
  }
}

static void test_args(void) {
  cl_dist_t *a = parse("dist((4,6), 2, Shard(0))"), *b = parse("dist((4,6), 2, Shard(1))");
  cl_dist_plan_t *plan = nullptr, *plan3 = nullptr;
  CHECK(cl_dist_plan_new(a, b, 4, 0, &plan) == CL_OK, "plan");
  CHECK(cl_dist_plan_new(a, b, 3, 0, &plan3) == CL_OK, "plan of 3-byte elements");
  cl_nccl_exec_t *e = reinterpret_cast<cl_nccl_exec_t *>(1);
  // A communicator that is never asked: the checks before it fail first.
  cl_nccl_comm_t fake = reinterpret_cast<cl_nccl_comm_t>(16);
  CHECK(cl_nccl_exec_new(plan, fake, nullptr) == CL_E_NULL, "out NULL");
  CHECK(cl_nccl_exec_new(nullptr, fake, &e) == CL_E_NULL && e == nullptr, "plan NULL clears out");
  CHECK(std::strstr(cl_last_error(), "'plan'") != nullptr, "message names plan");
  CHECK(cl_nccl_exec_new(plan, nullptr, &e) == CL_E_NULL, "comm NULL");
  CHECK(std::strstr(cl_last_error(), "'comm'") != nullptr, "message names comm");
  CHECK(cl_nccl_exec_new(plan3, fake, &e) == CL_E_UNSUPPORTED && e == nullptr, "3-byte elements");
  CHECK(std::strstr(cl_last_error(), "element size 3") != nullptr, "message names the size");
  char buf[4];
  CHECK(cl_nccl_exec_run(nullptr, buf, buf, nullptr) == CL_E_NULL, "run exec NULL");
  CHECK(cl_nccl_exec_check_plan(nullptr, nullptr) == CL_E_NULL, "check exec NULL");
  CHECK(cl_nccl_exec_check_plan_result(nullptr) == CL_E_NULL, "result exec NULL");
  CHECK(cl_nccl_exec_staging_bytes(nullptr) == 0, "staging of NULL");
  cl_nccl_exec_free(nullptr);
  cl_dist_plan_free(plan);
  cl_dist_plan_free(plan3);
  cl_dist_free(a);
  cl_dist_free(b);
}

// ---- on GPUs ----

static uint8_t byte_of(int64_t i, size_t b) { return uint8_t(i * 131 + int64_t(b) * 7 + 1); }

// Rank r's local buffer of distribution d holding the global tensor, the
// places d does not use left at `fill`.
static std::vector<uint8_t> local_buffer(const cl_dist_t *d, int64_t r, size_t elem, uint8_t fill) {
  std::vector<uint8_t> buf(size_t(cl_dist_local_size(d)) * elem, fill);
  for (int64_t i = 0; i < cl_dist_size(d); i++)
    for (int64_t k = 0; k < cl_dist_replicas(d); k++) {
      int64_t rank = -1, offset = -1;
      if (cl_dist_locate(d, i, k, &rank, &offset) != CL_OK) {
        std::fprintf(stderr, "locate failed: %s\n", cl_last_error());
        std::exit(1);
      }
      if (rank == r)
        for (size_t b = 0; b < elem; b++)
          buf[size_t(offset) * elem + b] = byte_of(i, b);
    }
  return buf;
}

struct job {
  ncclComm_t comm;
  int rank;
  const cl_dist_t *src, *dst;
  const cl_dist_t *plan_dst; // the rank's own idea of dst (to make plans disagree)
  size_t elem;
  cl_status status; // of the first run
  bool ok;
  size_t staging;
  cl_nccl_exec_t *exec; // made by the rank's thread when null
  bool host;            // run on host buffers (which must be refused)
};

// The rank's executor (null, with j->status, when it cannot be made).
static cl_nccl_exec_t *make_exec(job *j) {
  cl_dist_plan_t *plan = nullptr;
  cl_nccl_exec_t *exec = nullptr;
  if (cl_dist_plan_new(j->src, j->plan_dst, j->elem, j->rank, &plan) != CL_OK) {
    j->status = CL_E_DOMAIN;
    return nullptr;
  }
  j->status = cl_nccl_exec_new(plan, reinterpret_cast<cl_nccl_comm_t>(j->comm), &exec);
  cl_dist_plan_free(plan);
  return exec;
}

static void *run_rank(void *arg) {
  job *j = static_cast<job *>(arg);
  j->ok = false;
  cudaSetDevice(j->rank);
  cl_nccl_exec_t *exec = j->exec != nullptr ? j->exec : make_exec(j);
  if (exec == nullptr)
    return nullptr;
  j->staging = cl_nccl_exec_staging_bytes(exec);
  if (j->host) { // the plan check runs, then the buffers are refused
    std::vector<uint8_t> src(size_t(cl_dist_local_size(j->src)) * j->elem);
    std::vector<uint8_t> dst(size_t(cl_dist_local_size(j->dst)) * j->elem);
    j->status = cl_nccl_exec_run(exec, src.data(), dst.data(), nullptr);
    cl_nccl_exec_free(exec);
    return nullptr;
  }
  std::vector<uint8_t> in = local_buffer(j->src, j->rank, j->elem, 0xEE);
  std::vector<uint8_t> want = local_buffer(j->dst, j->rank, j->elem, 0xCD);
  std::vector<uint8_t> got(want.size());
  void *src = nullptr, *dst = nullptr;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMalloc(&src, in.size());
  cudaMalloc(&dst, want.size());
  cudaMemcpy(src, in.data(), in.size(), cudaMemcpyHostToDevice);
  j->ok = true;
  for (int round = 0; round < 2 && j->ok; round++) {
    cudaMemset(dst, 0xCD, want.size());
    cl_status s = cl_nccl_exec_run(exec, src, dst, stream);
    if (round == 0)
      j->status = s;
    if (s != CL_OK) {
      j->ok = false;
      break;
    }
    cudaError_t ce = cudaStreamSynchronize(stream);
    if (ce == cudaSuccess)
      ce = cudaMemcpy(got.data(), dst, got.size(), cudaMemcpyDeviceToHost);
    j->ok = ce == cudaSuccess && got == want;
  }
  cudaFree(src);
  cudaFree(dst);
  cudaStreamDestroy(stream);
  cl_nccl_exec_free(exec);
  return nullptr;
}

// Runs src -> dst on every rank (rank `odd` planning odd_dst instead, when
// given); returns each rank's job.
static std::vector<job> run_all(const std::vector<ncclComm_t> &comms, const cl_dist_t *src, const cl_dist_t *dst,
                                size_t elem, int odd = -1, const cl_dist_t *odd_dst = nullptr, bool host = false) {
  int n = int(comms.size());
  std::vector<job> jobs(n);
  std::vector<pthread_t> threads(n);
  for (int r = 0; r < n; r++) {
    jobs[r] = job{comms[r], r, src, dst, r == odd ? odd_dst : dst, elem, CL_OK, false, 0, nullptr, host};
    pthread_create(&threads[r], nullptr, run_rank, &jobs[r]);
  }
  for (int r = 0; r < n; r++)
    pthread_join(threads[r], nullptr);
  return jobs;
}

static std::vector<std::string> families(int p) {
  std::vector<std::string> shapes = {"(7,10)", "(8,6)"};
  std::vector<std::string> out;
  char t[160];
  for (const std::string &s : shapes) {
    const char *forms[] = {"Shard(0)", "Shard(1)", "Replicate", "StridedShard(0,2)", "StridedShard(1,2)",
                           "BlockCyclic(0,2)", "BlockCyclic(1,3)"};
    for (const char *f : forms) {
      std::snprintf(t, sizeof t, "dist(%s, %d, %s)", s.c_str(), p, f);
      out.push_back(t);
    }
    if (p % 2 == 0) {
      const char *meshes[] = {"Shard(0), Shard(1)", "Shard(1), Shard(0)", "Shard(0), Replicate",
                              "Replicate, Shard(1)", "BlockCyclic(0,2), BlockCyclic(1,2)", "Shard(1), Shard(1)"};
      for (const char *m : meshes) {
        std::snprintf(t, sizeof t, "dist(%s, (%d,2), %s)", s.c_str(), p / 2, m);
        out.push_back(t);
      }
    }
  }
  return out;
}

// Elements contiguous in the source are sent from it, those contiguous in
// the destination received into it, an all-gather's into place: only the
// rest is staged.  Each redistribution is also checked against the host.
static void test_in_place(const std::vector<ncclComm_t> &comms) {
  int p = int(comms.size());
  char t[3][96];
  std::snprintf(t[0], sizeof t[0], "dist((16,16), %d, Shard(0))", p);
  std::snprintf(t[1], sizeof t[1], "dist((16,16), %d, Shard(1))", p);
  std::snprintf(t[2], sizeof t[2], "dist((16,16), %d, Replicate)", p);
  cl_dist_t *rows = parse(t[0]), *cols = parse(t[1]), *all = parse(t[2]);
  struct {
    const cl_dist_t *src, *dst;
    size_t staged; // elements
  } cases[] = {
      {rows, cols, size_t(p - 1) * 256 / size_t(p * p)}, // packed to send, received in place
      {cols, rows, size_t(p - 1) * 256 / size_t(p * p)}, // sent in place, unpacked
      {rows, all, 0},                                    // an all-gather
  };
  for (const auto &c : cases) {
    std::vector<job> jobs = run_all(comms, c.src, c.dst, 4);
    for (int q = 0; q < p; q++) {
      CHECK(jobs[q].status == CL_OK && jobs[q].ok, "in place, rank %d", q);
      CHECK(jobs[q].staging == c.staged * 4, "rank %d staged %zu bytes, not %zu", q, jobs[q].staging, c.staged * 4);
    }
  }
  if (p == 4) { // a 2x2 mesh's transposition: whole buffers to one peer
    cl_dist_t *a = parse("dist((8,8), (2,2), Shard(0), Shard(1))"), *b = parse("dist((8,8), (2,2), Shard(1), Shard(0))");
    std::vector<job> jobs = run_all(comms, a, b, 2);
    for (int q = 0; q < p; q++)
      CHECK(jobs[q].status == CL_OK && jobs[q].ok && jobs[q].staging == 0, "2x2 mesh, rank %d staged %zu bytes", q,
            jobs[q].staging);
    cl_dist_free(a);
    cl_dist_free(b);
  }
  cl_dist_free(rows);
  cl_dist_free(cols);
  cl_dist_free(all);
}

// Ranks that ask for different chunks take the fewest, the smallest: rank
// 0 asks for 1 chunk, the others for 5 of at least one element.
static void test_chunks_agree(const std::vector<ncclComm_t> &comms, const std::vector<std::string> &fam) {
  int p = int(comms.size());
  cl_dist_t *a = parse(fam[0].c_str()), *b = parse(fam[1].c_str());
  std::vector<job> jobs(p);
  std::vector<pthread_t> threads(p);
  for (int r = 0; r < p; r++) {
    // The variables are read by cl_nccl_exec_new, made before the thread starts.
    setenv("CUTELAYOUT_NCCL_CHUNKS", r == 0 ? "1" : "5", 1);
    setenv("CUTELAYOUT_NCCL_CHUNK_BYTES", "1", 1);
    jobs[r] = job{comms[r], r, a, b, b, 8, CL_OK, false, 0, nullptr, false};
    jobs[r].exec = make_exec(&jobs[r]);
    pthread_create(&threads[r], nullptr, run_rank, &jobs[r]);
  }
  for (int r = 0; r < p; r++)
    pthread_join(threads[r], nullptr);
  for (int q = 0; q < p; q++)
    CHECK(jobs[q].status == CL_OK && jobs[q].ok, "chunks asked differently, rank %d", q);
  unsetenv("CUTELAYOUT_NCCL_CHUNKS");
  unsetenv("CUTELAYOUT_NCCL_CHUNK_BYTES");
  cl_dist_free(a);
  cl_dist_free(b);
}

static int test_gpu(void) {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev < 2) {
    std::printf("SKIP: %d GPU(s); the NCCL tests need 2\n", ndev);
    return 77;
  }
  std::vector<ncclComm_t> comms(ndev);
  ncclResult_t r = ncclCommInitAll(comms.data(), ndev, nullptr);
  if (r != ncclSuccess) {
    std::fprintf(stderr, "ncclCommInitAll: %s\n", ncclGetErrorString(r));
    return 1;
  }
  std::vector<std::string> fam = families(ndev);
  std::srand(29);
  const size_t elems[] = {1, 2, 4, 8, 16};
  int pairs = 0;
  // Every family to every other of its shape once, then random pairs.
  std::vector<std::pair<int, int>> cases;
  int half = int(fam.size()) / 2;
  for (int a = 0; a < half; a++)
    cases.push_back({a, (a + 1) % half});
  for (int k = 0; k < 60; k++) {
    int base = (std::rand() % 2) * half;
    cases.push_back({base + std::rand() % half, base + std::rand() % half});
  }
  for (size_t c = 0; c < cases.size(); c++) {
    cl_dist_t *a = parse(fam[cases[c].first].c_str()), *b = parse(fam[cases[c].second].c_str());
    size_t elem = elems[c % 5];
    // The exchange in 1 to 16 chunks of at least 1 to 3 elements (read when
    // an executor is made): pieces cut at every kind of place.
    const char *chunks[] = {"1", "2", "3", "4", "16", "7"};
    char least[8];
    std::snprintf(least, sizeof least, "%zu", elem * (1 + c % 3));
    setenv("CUTELAYOUT_NCCL_CHUNKS", chunks[c % 6], 1);
    setenv("CUTELAYOUT_NCCL_CHUNK_BYTES", least, 1);
    std::vector<job> jobs = run_all(comms, a, b, elem);
    for (int q = 0; q < ndev; q++)
      CHECK(jobs[q].status == CL_OK && jobs[q].ok, "%s -> %s, %zu-byte elements, %s chunks of %s bytes, rank %d",
            fam[cases[c].first].c_str(), fam[cases[c].second].c_str(), elem, chunks[c % 6], least, q);
    // Staging: what goes to and comes from other ranks, no more.
    if (cl_dist_replicas(a) == 1 && cl_dist_replicas(b) == 1)
      for (int q = 0; q < ndev; q++)
        CHECK(jobs[q].staging <= 2 * size_t(cl_dist_local_size(a) > cl_dist_local_size(b) ? cl_dist_local_size(a)
                                                                                            : cl_dist_local_size(b)) * elem,
              "staging %zu bytes", jobs[q].staging);
    pairs++;
    cl_dist_free(a);
    cl_dist_free(b);
  }
  std::printf("%d redistributions on %d GPUs\n", pairs, ndev);
  unsetenv("CUTELAYOUT_NCCL_CHUNKS");
  unsetenv("CUTELAYOUT_NCCL_CHUNK_BYTES");
  test_in_place(comms);
  test_chunks_agree(comms, fam);

  // Ranks that planned different redistributions: CL_E_RANK on every rank.
  cl_dist_t *a = parse(fam[0].c_str()), *b = parse(fam[1].c_str()), *c = parse(fam[2].c_str());
  std::vector<job> jobs = run_all(comms, a, b, 4, 0, c);
  for (int q = 0; q < ndev; q++)
    CHECK(jobs[q].status == CL_E_RANK, "rank %d of disagreeing plans answered %d", q, int(jobs[q].status));

  // Host buffers: refused before NCCL would read or write them in place
  // (Shard(0) -> Replicate is an all-gather straight between the buffers).
  {
    char t[2][64];
    std::snprintf(t[0], sizeof t[0], "dist((8,8), %d, Shard(0))", ndev);
    std::snprintf(t[1], sizeof t[1], "dist((8,8), %d, Replicate)", ndev);
    cl_dist_t *rows = parse(t[0]), *all = parse(t[1]);
    jobs = run_all(comms, rows, all, 4, -1, nullptr, true);
    for (int q = 0; q < ndev; q++)
      CHECK(jobs[q].status == CL_E_DEVICE, "rank %d ran on host buffers: %d", q, int(jobs[q].status));
    cl_dist_free(rows);
    cl_dist_free(all);
  }

  // A communicator of another rank than the plan's.
  cudaSetDevice(0);
  cl_dist_plan_t *plan = nullptr;
  cl_nccl_exec_t *exec = nullptr;
  CHECK(cl_dist_plan_new(a, b, 4, 1, &plan) == CL_OK, "plan of rank 1");
  CHECK(cl_nccl_exec_new(plan, reinterpret_cast<cl_nccl_comm_t>(comms[0]), &exec) == CL_E_DOMAIN && exec == nullptr,
        "rank 0's communicator with rank 1's plan");
  cl_dist_plan_free(plan);
  cl_dist_free(a);
  cl_dist_free(b);
  cl_dist_free(c);
  for (ncclComm_t comm : comms)
    ncclCommDestroy(comm);
  return 0;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "args";
  int rc = 0;
  if (std::strcmp(what, "args") == 0) {
    test_args();
    test_families();
  }
  else if (std::strcmp(what, "gpu") == 0)
    rc = test_gpu();
  else {
    std::fprintf(stderr, "usage: test_nccl args|gpu\n");
    return 2;
  }
  if (failures > 0) {
    std::fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  return rc;
}
