// SPDX-License-Identifier: BSD-3-Clause
// harness.cu: runs each (access, shared-memory layout) pair of a lanes file
// (written by tests/banks/banks_suite lanes) as one kernel that issues the
// instructions the access stands for, so that Nsight Compute can count their
// shared-memory wavefronts (tools/banks/run.sh).  One launch per pair, in the
// file's order; nothing else in a kernel touches shared memory.
//
// Lanes file: for each pair a line
//   pair NAME OP BYTES THREADS VECTORS SMEM_BYTES
// (OP: ld st ldsm1 ldsm2 ldsm4 stsm1 stsm2 stsm4 cpasync) and then VECTORS
// lines of THREADS byte addresses each (-1: the thread takes no part).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

enum Op { LD, ST, LDSM, STSM, CPASYNC };

template <int BYTES> __device__ __forceinline__ uint32_t ld_shared(uint32_t a) {
  uint32_t x = 0, y = 0, z = 0, w = 0;
  if (BYTES == 1) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(x) : "r"(a));
  if (BYTES == 2) asm volatile("ld.shared.u16 %0, [%1];" : "=r"(x) : "r"(a));
  if (BYTES == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(x) : "r"(a));
  if (BYTES == 8) asm volatile("ld.shared.v2.u32 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));
  if (BYTES == 16) asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a));
  return x ^ y ^ z ^ w;
}

template <int BYTES> __device__ __forceinline__ void st_shared(uint32_t a, uint32_t v) {
  if (BYTES == 1) asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "r"(v));
  if (BYTES == 2) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "r"(v));
  if (BYTES == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v));
  if (BYTES == 8) asm volatile("st.shared.v2.u32 [%0], {%1,%2};" ::"r"(a), "r"(v), "r"(v));
  if (BYTES == 16) asm volatile("st.shared.v4.u32 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(v), "r"(v), "r"(v), "r"(v));
}

template <int N> __device__ __forceinline__ uint32_t ldsm(uint32_t a) {
  uint32_t x = 0, y = 0, z = 0, w = 0;
  if (N == 1) asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(x) : "r"(a));
  if (N == 2) asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));
  if (N == 4)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w) : "r"(a));
  return x ^ y ^ z ^ w;
}

template <int N> __device__ __forceinline__ void stsm(uint32_t a, uint32_t v) {
  if (N == 1) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(v));
  if (N == 2) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" ::"r"(a), "r"(v), "r"(v));
  if (N == 4)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(v), "r"(v), "r"(v), "r"(v));
}

template <int BYTES> __device__ __forceinline__ void cp_async(uint32_t a, const void *g) {
  if (BYTES == 4) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(a), "l"(g));
  if (BYTES == 8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(a), "l"(g));
  // .ca for 16 bytes too: the L1-bypassing .cg form writes shared memory by a
  // path that the LSU's wavefront counters do not see.
  if (BYTES == 16) asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(a), "l"(g));
}

// Thread t's k-th access is at byte address addr[k * threads + t] of shared
// memory.  ldmatrix / stmatrix are warp-wide: every lane takes part (lanes
// whose rows the instruction does not read give address 0).
template <int OP, int BYTES, int N>
__global__ void pair_kernel(const int *addr, int vectors, int threads, const unsigned char *global, uint32_t *out) {
  extern __shared__ __align__(128) unsigned char smem[];
  const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
  const int t = threadIdx.x;
  uint32_t acc = 0;
  if (OP == CPASYNC) {
    // cp.async reads global memory coalesced, each instruction one
    // contiguous run, from lines already in L1 (read here first), and one
    // instruction at a time (warp by warp, each waited for): then its writes
    // are grouped as the instruction's lanes are.  Data that arrives from L2
    // in pieces, while other warps' copies are in flight, can take a
    // wavefront or two more (seen on an H100), which is a property of the
    // global side, not of the shared-memory layout.
    for (int k = 0; k < vectors; k++)
      acc ^= *(const volatile unsigned char *)(global + ((size_t)k * threads + t) * BYTES);
    __syncthreads();
    for (int w = 0; w < threads / 32; w++) {
      if (t / 32 == w)
        for (int k = 0; k < vectors; k++) {
          const int a = addr[k * threads + t];
          if (a >= 0) cp_async<BYTES>(base + a, global + ((size_t)k * threads + t) * BYTES);
          asm volatile("cp.async.wait_all;" ::: "memory");
        }
      __syncthreads();
    }
  }
  for (int k = 0; OP != CPASYNC && k < vectors; k++) {
    const int a = addr[k * threads + t];
    if (OP == LD && a >= 0) acc ^= ld_shared<BYTES>(base + a);
    if (OP == ST && a >= 0) st_shared<BYTES>(base + a, t);
    if (OP == LDSM) acc ^= ldsm<N>(base + (a >= 0 ? a : 0));
    if (OP == STSM) stsm<N>(base + (a >= 0 ? a : 0), t);
  }
  out[t] = acc;
}

typedef void (*kernel_t)(const int *, int, int, const unsigned char *, uint32_t *);

static kernel_t kernel_for(const std::string &op, int bytes) {
#define K(O, B, N) pair_kernel<O, B, N>
  if (op == "ld" || op == "st") {
    bool ld = op == "ld";
    switch (bytes) {
    case 1: return ld ? K(LD, 1, 0) : K(ST, 1, 0);
    case 2: return ld ? K(LD, 2, 0) : K(ST, 2, 0);
    case 4: return ld ? K(LD, 4, 0) : K(ST, 4, 0);
    case 8: return ld ? K(LD, 8, 0) : K(ST, 8, 0);
    case 16: return ld ? K(LD, 16, 0) : K(ST, 16, 0);
    }
  }
  if (op == "ldsm1") return K(LDSM, 16, 1);
  if (op == "ldsm2") return K(LDSM, 16, 2);
  if (op == "ldsm4") return K(LDSM, 16, 4);
  if (op == "stsm1") return K(STSM, 16, 1);
  if (op == "stsm2") return K(STSM, 16, 2);
  if (op == "stsm4") return K(STSM, 16, 4);
  if (op == "cpasync") {
    switch (bytes) {
    case 4: return K(CPASYNC, 4, 0);
    case 8: return K(CPASYNC, 8, 0);
    case 16: return K(CPASYNC, 16, 0);
    }
  }
#undef K
  return nullptr;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s LANES_FILE\n", argv[0]);
    return 2;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    perror(argv[1]);
    return 2;
  }
  const size_t smem_max = 227 * 1024, global_bytes = (size_t)64 << 20;
  unsigned char *global = nullptr;
  uint32_t *out = nullptr;
  CHECK(cudaMalloc(&global, global_bytes));
  CHECK(cudaMemset(global, 0x5a, global_bytes));
  CHECK(cudaMalloc(&out, 1024 * sizeof(uint32_t)));
  char word[64], name[256], op[32];
  int pairs = 0;
  while (fscanf(f, "%63s", word) == 1) {
    int bytes, threads, vectors;
    long smem_bytes;
    if (strcmp(word, "pair") != 0 ||
        fscanf(f, "%255s %31s %d %d %d %ld", name, op, &bytes, &threads, &vectors, &smem_bytes) != 6) {
      fprintf(stderr, "bad lanes file at pair %d\n", pairs);
      return 2;
    }
    std::vector<int> addr((size_t)vectors * threads);
    for (auto &a : addr)
      if (fscanf(f, "%d", &a) != 1) {
        fprintf(stderr, "short pair %s\n", name);
        return 2;
      }
    kernel_t k = kernel_for(op, bytes);
    if (!k || threads % 32 != 0 || threads > 1024 || smem_bytes > (long)smem_max ||
        addr.size() * 16 > global_bytes) {
      fprintf(stderr, "pair %s: cannot run %s of %d bytes, %d threads, %ld bytes\n", name, op, bytes, threads, smem_bytes);
      return 2;
    }
    int *daddr = nullptr;
    CHECK(cudaMalloc(&daddr, addr.size() * sizeof(int) + 4));
    CHECK(cudaMemcpy(daddr, addr.data(), addr.size() * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_max));
    k<<<1, threads, smem_bytes>>>(daddr, vectors, threads, global, out);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(daddr));
    printf("%d\t%s\n", pairs, name);
    pairs++;
  }
  fclose(f);
  CHECK(cudaFree(global));
  CHECK(cudaFree(out));
  fprintf(stderr, "%d pairs\n", pairs);
  return 0;
}
