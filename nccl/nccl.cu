/* SPDX-License-Identifier: BSD-3-Clause */
// nccl.cu: dist.h's plans run on NCCL (nccl.h): an executor keeps one rank's
// pieces and its staging buffers; a run packs, exchanges and unpacks.
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda_status.h"
#include <cutelayout/nccl.h>

#define TRY(expr)                                                                                                      \
  do {                                                                                                                 \
    cl_status try_status_ = (expr);                                                                                    \
    if (try_status_ != CL_OK)                                                                                          \
      return try_status_;                                                                                              \
  } while (0)

namespace {

// Pieces at most this long are packed together by one batched kernel launch;
// longer ones each take cl_cuda_tensor_copy's own plan (memcpy, tiles).
const int64_t small_piece = 4096;

struct piece {
  int64_t offset;      // in the rank's local buffer (elements)
  int64_t staged;      // in the staging buffer (elements)
  int64_t size;        // elements
  cl_layout_t *layout; // over the local buffer, from offset
};

// One direction's pieces, those of peer p at [first[p], first[p + 1]).
struct side {
  piece *pieces;
  int64_t *first;
  int64_t *count;  // elements per peer
  int64_t *staged; // where peer p's elements start in the staging buffer
};

using cl_cuda_status::fail;
using cl_cuda_status::null_argument;

cl_status cuda_fail(cudaError_t e, const char *what) {
  cudaGetLastError();
  return fail(CL_E_DEVICE, "%s: %s", what, cudaGetErrorString(e));
}

cl_status nccl_fail(ncclResult_t r, const char *what) {
  return fail(CL_E_DEVICE, "%s: %s", what, ncclGetErrorString(r));
}

} // namespace

struct cl_nccl_exec {
  ncclComm_t comm;
  int device;
  int64_t ranks, rank;
  size_t elem;
  uint64_t hash;
  bool checked, check_queued;
  bool local_direct; // the own pieces pair up one to one: copied src to dst
  side send, recv;
  char *send_buf, *recv_buf; // device memory
  size_t send_bytes, recv_bytes;
  uint64_t *hash_buf; // device: min(hash), min(~hash) over the ranks
};

namespace {

void free_side(side *s, int64_t ranks) {
  if (s->pieces != nullptr && s->first != nullptr)
    for (int64_t k = 0; k < s->first[ranks]; k++)
      cl_layout_free(s->pieces[k].layout);
  std::free(s->pieces);
  std::free(s->first);
  std::free(s->count);
  std::free(s->staged);
}

// Copies the plan's pieces of one direction and lays the peers' elements out
// one after another in a staging buffer, skipping the own rank's when it is
// copied directly.
cl_status load_side(const cl_dist_plan_t *plan, cl_dist_direction dir, int64_t ranks, side *s) {
  s->first = static_cast<int64_t *>(std::calloc(size_t(ranks + 1), sizeof(int64_t)));
  s->count = static_cast<int64_t *>(std::calloc(size_t(ranks), sizeof(int64_t)));
  s->staged = static_cast<int64_t *>(std::calloc(size_t(ranks), sizeof(int64_t)));
  if (s->first == nullptr || s->count == nullptr || s->staged == nullptr)
    return fail(CL_E_NOMEM, "cl_nccl_exec_new: out of memory");
  for (int64_t p = 0; p < ranks; p++) {
    int64_t pieces = 0;
    cl_status st = cl_dist_plan_peer(plan, p, dir, &s->count[p], &pieces);
    if (st != CL_OK)
      return st;
    s->first[p + 1] = s->first[p] + pieces;
  }
  s->pieces = static_cast<piece *>(std::calloc(size_t(s->first[ranks]) + 1, sizeof(piece)));
  if (s->pieces == nullptr)
    return fail(CL_E_NOMEM, "cl_nccl_exec_new: out of memory");
  for (int64_t p = 0; p < ranks; p++)
    for (int64_t k = s->first[p]; k < s->first[p + 1]; k++) {
      piece *pc = &s->pieces[k];
      cl_status st = cl_dist_plan_piece(plan, p, dir, k - s->first[p], &pc->offset, &pc->layout);
      if (st != CL_OK)
        return st;
      pc->size = cl_layout_size(pc->layout);
    }
  return CL_OK;
}

// Places the pieces of every peer (but `skip`) in the staging buffer, in peer
// order; returns its length in elements.
int64_t stage(side *s, int64_t ranks, int64_t skip) {
  int64_t at = 0;
  for (int64_t p = 0; p < ranks; p++) {
    s->staged[p] = at;
    if (p == skip)
      continue;
    for (int64_t k = s->first[p]; k < s->first[p + 1]; k++) {
      s->pieces[k].staged = at;
      at += s->pieces[k].size;
    }
  }
  return at;
}

// The own rank's pieces can be copied src to dst pairwise when both lists cut
// the elements at the same places.
bool pieces_pair_up(const cl_nccl_exec *e) {
  int64_t r = e->rank;
  if (e->send.first[r + 1] - e->send.first[r] != e->recv.first[r + 1] - e->recv.first[r])
    return false;
  for (int64_t k = 0; k < e->send.first[r + 1] - e->send.first[r]; k++)
    if (e->send.pieces[e->send.first[r] + k].size != e->recv.pieces[e->recv.first[r] + k].size)
      return false;
  return true;
}

cl_status check_comm(const cl_dist_plan_t *plan, ncclComm_t comm, int *device) {
  int count = 0, rank = 0;
  ncclResult_t r = ncclCommCount(comm, &count);
  if (r == ncclSuccess)
    r = ncclCommUserRank(comm, &rank);
  if (r == ncclSuccess)
    r = ncclCommCuDevice(comm, device);
  if (r != ncclSuccess)
    return nccl_fail(r, "cl_nccl_exec_new: asking the communicator its size, rank and device");
  if (count != cl_dist_plan_ranks(plan) || rank != cl_dist_plan_rank(plan))
    return fail(CL_E_DOMAIN, "cl_nccl_exec_new: the communicator is rank %d of %d, the plan rank %lld of %lld", rank,
                count, (long long)cl_dist_plan_rank(plan), (long long)cl_dist_plan_ranks(plan));
  return CL_OK;
}

bool supported_elem(size_t elem) { return elem == 1 || elem == 2 || elem == 4 || elem == 8 || elem == 16; }

// Runs the rest of a call with the communicator's GPU current, and puts the
// caller's back on the way out.
struct device_scope {
  int saved = -1;
  cl_status enter(int device) {
    cudaError_t e = cudaGetDevice(&saved);
    if (e == cudaSuccess && saved != device)
      e = cudaSetDevice(device);
    if (e != cudaSuccess) {
      saved = -1;
      return cuda_fail(e, "selecting the communicator's GPU");
    }
    return CL_OK;
  }
  ~device_scope() {
    if (saved >= 0)
      cudaSetDevice(saved);
  }
};

cl_status alloc_device(void **p, size_t bytes) {
  *p = nullptr;
  if (bytes == 0)
    return CL_OK;
  cudaError_t e = cudaMalloc(p, bytes);
  return e == cudaSuccess ? CL_OK : cuda_fail(e, "cl_nccl_exec_new: cudaMalloc of a staging buffer");
}

cl_status build(cl_nccl_exec *e, const cl_dist_plan_t *plan) {
  TRY(load_side(plan, CL_DIST_SEND, e->ranks, &e->send));
  TRY(load_side(plan, CL_DIST_RECV, e->ranks, &e->recv));
  e->local_direct = pieces_pair_up(e);
  int64_t sent = stage(&e->send, e->ranks, e->local_direct ? e->rank : -1);
  int64_t received = stage(&e->recv, e->ranks, e->rank);
  // Without direct copies the own elements go through the send buffer.
  if (!e->local_direct) {
    int64_t at = e->send.staged[e->rank];
    for (int64_t k = e->recv.first[e->rank]; k < e->recv.first[e->rank + 1]; k++) {
      e->recv.pieces[k].staged = at;
      at += e->recv.pieces[k].size;
    }
  }
  e->send_bytes = size_t(sent) * e->elem;
  e->recv_bytes = size_t(received) * e->elem;
  device_scope scope;
  TRY(scope.enter(e->device));
  TRY(alloc_device(reinterpret_cast<void **>(&e->send_buf), e->send_bytes));
  TRY(alloc_device(reinterpret_cast<void **>(&e->recv_buf), e->recv_bytes));
  return alloc_device(reinterpret_cast<void **>(&e->hash_buf), 2 * sizeof(uint64_t));
}

// A view of `size` elements at data: contiguous (layout null) or through layout.
cl_status view(char *data, size_t elem, int64_t size, const cl_layout_t *layout, cl_tensor_t **out) {
  if (layout != nullptr)
    return cl_tensor_new(data, elem, layout, out);
  char text[32];
  std::snprintf(text, sizeof text, "%lld:1", (long long)size);
  cl_layout_t *contiguous = nullptr;
  TRY(cl_layout_parse(text, &contiguous));
  cl_status st = cl_tensor_new(data, elem, contiguous, out);
  cl_layout_free(contiguous);
  return st;
}

// The copies of one step (pack, unpack or the local part): small ones
// gathered for batched launches, large ones queued at once.
struct copies {
  cl_tensor_t **dst = nullptr, **src = nullptr;
  size_t n = 0, cap = 0;
  ~copies() {
    for (size_t k = 0; k < n; k++) {
      cl_tensor_free(dst[k]);
      cl_tensor_free(src[k]);
    }
    std::free(dst);
    std::free(src);
  }
  cl_status add(cl_tensor_t *d, cl_tensor_t *s, int64_t size, cl_cuda_stream_t stream) {
    if (size > small_piece) {
      cl_status st = cl_cuda_tensor_copy(d, s, stream);
      cl_tensor_free(d);
      cl_tensor_free(s);
      return st;
    }
    if (n == cap) {
      size_t grown = cap == 0 ? 16 : 2 * cap;
      cl_tensor_t **nd = static_cast<cl_tensor_t **>(std::realloc(dst, grown * sizeof *nd));
      if (nd != nullptr)
        dst = nd;
      cl_tensor_t **ns = nd == nullptr ? nullptr : static_cast<cl_tensor_t **>(std::realloc(src, grown * sizeof *ns));
      if (ns != nullptr)
        src = ns;
      if (nd == nullptr || ns == nullptr) {
        cl_tensor_free(d);
        cl_tensor_free(s);
        return fail(CL_E_NOMEM, "cl_nccl_exec_run: out of memory");
      }
      cap = grown;
    }
    dst[n] = d;
    src[n] = s;
    n++;
    return CL_OK;
  }
  cl_status flush(cl_cuda_stream_t stream) { return cl_cuda_tensor_copy_batched(dst, src, n, stream); }
};

// Queues a copy between a piece of a local buffer and its place in staging
// (to_staging: pack) or between two pieces of local buffers.
cl_status add_copy(copies *c, char *to, const cl_layout_t *to_layout, char *from, const cl_layout_t *from_layout,
                   size_t elem, int64_t size, cl_cuda_stream_t stream) {
  if (size == 0)
    return CL_OK;
  cl_tensor_t *d = nullptr, *s = nullptr;
  cl_status st = view(to, elem, size, to_layout, &d);
  if (st == CL_OK)
    st = view(from, elem, size, from_layout, &s);
  if (st != CL_OK) {
    cl_tensor_free(d);
    cl_tensor_free(s);
    return st;
  }
  return c->add(d, s, size, stream);
}

cl_status pack(cl_nccl_exec *e, const char *src, char *dst, cl_cuda_stream_t stream) {
  copies c;
  size_t elem = e->elem;
  for (int64_t p = 0; p < e->ranks; p++) {
    if (p == e->rank && e->local_direct)
      continue;
    for (int64_t k = e->send.first[p]; k < e->send.first[p + 1]; k++) {
      const piece &pc = e->send.pieces[k];
      TRY(add_copy(&c, e->send_buf + pc.staged * elem, nullptr, const_cast<char *>(src) + pc.offset * elem,
                      pc.layout, elem, pc.size, stream));
    }
  }
  if (e->local_direct)
    for (int64_t k = 0; k < e->send.first[e->rank + 1] - e->send.first[e->rank]; k++) {
      const piece &from = e->send.pieces[e->send.first[e->rank] + k];
      const piece &to = e->recv.pieces[e->recv.first[e->rank] + k];
      TRY(add_copy(&c, dst + to.offset * elem, to.layout, const_cast<char *>(src) + from.offset * elem,
                      from.layout, elem, to.size, stream));
    }
  return c.flush(stream);
}

cl_status unpack(cl_nccl_exec *e, char *dst, cl_cuda_stream_t stream) {
  copies c;
  size_t elem = e->elem;
  for (int64_t p = 0; p < e->ranks; p++) {
    if (p == e->rank && e->local_direct)
      continue;
    char *staging = p == e->rank ? e->send_buf : e->recv_buf;
    for (int64_t k = e->recv.first[p]; k < e->recv.first[p + 1]; k++) {
      const piece &pc = e->recv.pieces[k];
      TRY(add_copy(&c, dst + pc.offset * elem, pc.layout, staging + pc.staged * elem, nullptr, elem, pc.size,
                      stream));
    }
  }
  return c.flush(stream);
}

cl_status exchange(cl_nccl_exec *e, cudaStream_t stream) {
  ncclResult_t r = ncclGroupStart();
  for (int64_t p = 0; p < e->ranks && r == ncclSuccess; p++) {
    if (p == e->rank)
      continue;
    size_t out = size_t(e->send.count[p]) * e->elem, in = size_t(e->recv.count[p]) * e->elem;
    if (out > 0)
      r = ncclSend(e->send_buf + size_t(e->send.staged[p]) * e->elem, out, ncclUint8, int(p), e->comm, stream);
    if (r == ncclSuccess && in > 0)
      r = ncclRecv(e->recv_buf + size_t(e->recv.staged[p]) * e->elem, in, ncclUint8, int(p), e->comm, stream);
  }
  ncclResult_t end = ncclGroupEnd();
  if (r == ncclSuccess)
    r = end;
  return r == ncclSuccess ? CL_OK : nccl_fail(r, "cl_nccl_exec_run: ncclSend/ncclRecv");
}

} // namespace

extern "C" {

cl_status cl_nccl_exec_new(const cl_dist_plan_t *plan, cl_nccl_comm_t comm, cl_nccl_exec_t **out) {
  if (out == nullptr)
    return null_argument("cl_nccl_exec_new", "out");
  *out = nullptr;
  if (plan == nullptr)
    return null_argument("cl_nccl_exec_new", "plan");
  if (comm == nullptr)
    return null_argument("cl_nccl_exec_new", "comm");
  size_t elem = cl_dist_plan_elem_size(plan);
  if (!supported_elem(elem))
    return fail(CL_E_UNSUPPORTED, "cl_nccl_exec_new: element size %zu is not 1, 2, 4, 8 or 16 bytes", elem);
  int device = 0;
  TRY(check_comm(plan, comm, &device));
  cl_nccl_exec *e = static_cast<cl_nccl_exec *>(std::calloc(1, sizeof *e));
  if (e == nullptr)
    return fail(CL_E_NOMEM, "cl_nccl_exec_new: out of memory");
  e->comm = comm;
  e->device = device;
  e->ranks = cl_dist_plan_ranks(plan);
  e->rank = cl_dist_plan_rank(plan);
  e->elem = elem;
  e->hash = cl_dist_plan_hash(plan);
  cl_status st = build(e, plan);
  if (st != CL_OK) {
    cl_nccl_exec_free(e);
    return st;
  }
  *out = e;
  return CL_OK;
}

cl_status cl_nccl_exec_check_plan(cl_nccl_exec_t *exec, cl_cuda_stream_t stream) {
  if (exec == nullptr)
    return null_argument("cl_nccl_exec_check_plan", "exec");
  device_scope scope;
  TRY(scope.enter(exec->device));
  // min(~h) over the ranks is ~max(h): one reduction gives both ends.
  uint64_t h[2] = {exec->hash, ~exec->hash};
  cudaError_t ce = cudaMemcpyAsync(exec->hash_buf, h, sizeof h, cudaMemcpyHostToDevice, stream);
  if (ce == cudaSuccess)
    ce = cudaStreamSynchronize(stream); // h lives on this stack frame
  if (ce != cudaSuccess)
    return cuda_fail(ce, "cl_nccl_exec_check_plan: copying the plan's hash to the GPU");
  ncclResult_t r = ncclAllReduce(exec->hash_buf, exec->hash_buf, 2, ncclUint64, ncclMin, exec->comm, stream);
  if (r != ncclSuccess)
    return nccl_fail(r, "cl_nccl_exec_check_plan: ncclAllReduce");
  exec->check_queued = true;
  return CL_OK;
}

cl_status cl_nccl_exec_check_plan_result(cl_nccl_exec_t *exec) {
  if (exec == nullptr)
    return null_argument("cl_nccl_exec_check_plan_result", "exec");
  if (!exec->check_queued)
    return fail(CL_E_DOMAIN, "cl_nccl_exec_check_plan_result: no check was queued (cl_nccl_exec_check_plan)");
  device_scope scope;
  TRY(scope.enter(exec->device));
  uint64_t h[2];
  cudaError_t ce = cudaMemcpy(h, exec->hash_buf, sizeof h, cudaMemcpyDeviceToHost);
  if (ce != cudaSuccess)
    return cuda_fail(ce, "cl_nccl_exec_check_plan_result: reading the reduced hashes");
  exec->check_queued = false;
  if (h[0] != exec->hash || ~h[1] != exec->hash)
    return fail(CL_E_RANK, "cl_nccl_exec_run: the ranks planned different redistributions (plan hashes from %016llx to "
                           "%016llx; this rank's %016llx)",
                (unsigned long long)h[0], (unsigned long long)~h[1], (unsigned long long)exec->hash);
  exec->checked = true;
  return CL_OK;
}

cl_status cl_nccl_exec_run(cl_nccl_exec_t *exec, const void *src, void *dst, cl_cuda_stream_t stream) {
  if (exec == nullptr)
    return null_argument("cl_nccl_exec_run", "exec");
  if (src == nullptr)
    return null_argument("cl_nccl_exec_run", "src");
  if (dst == nullptr)
    return null_argument("cl_nccl_exec_run", "dst");
  device_scope scope;
  TRY(scope.enter(exec->device));
  if (!exec->checked) {
    TRY(cl_nccl_exec_check_plan(exec, stream));
    cudaError_t ce = cudaStreamSynchronize(stream);
    if (ce != cudaSuccess)
      return cuda_fail(ce, "cl_nccl_exec_run: waiting for the plan check");
    TRY(cl_nccl_exec_check_plan_result(exec));
  }
  TRY(pack(exec, static_cast<const char *>(src), static_cast<char *>(dst), stream));
  TRY(exchange(exec, stream));
  return unpack(exec, static_cast<char *>(dst), stream);
}

size_t cl_nccl_exec_staging_bytes(const cl_nccl_exec_t *exec) {
  return exec == nullptr ? 0 : exec->send_bytes + exec->recv_bytes;
}

void cl_nccl_exec_free(cl_nccl_exec_t *exec) {
  if (exec == nullptr)
    return;
  device_scope scope;
  bool on_device = scope.enter(exec->device) == CL_OK;
  if (on_device) {
    cudaFree(exec->send_buf);
    cudaFree(exec->recv_buf);
    cudaFree(exec->hash_buf);
  }
  free_side(&exec->send, exec->ranks);
  free_side(&exec->recv, exec->ranks);
  std::free(exec);
}

} // extern "C"
