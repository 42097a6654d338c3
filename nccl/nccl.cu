/* SPDX-License-Identifier: BSD-3-Clause */
// nccl.cu: dist.h's plans run on NCCL (nccl.h): an executor keeps one rank's
// pieces and its staging buffers; a run moves each peer's elements straight
// from src or into dst where they lie contiguous there, packs and unpacks the
// rest, and exchanges with every peer.
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "cuda_status.h"
#include <cutelayout/nccl.h>

#define TRY(expr)                                                                                                      \
  do {                                                                                                                 \
    cl_status try_status_ = (expr);                                                                                    \
    if (try_status_ != CL_OK)                                                                                          \
      return try_status_;                                                                                              \
  } while (0)

namespace {

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
  int64_t *direct; // where they lie contiguous, in order, in the local buffer; -1 when staged
};

// The copies of one step (a round's packing, the own pieces, a round's
// unpacking) as tensor pairs, made once per pair of run buffers.
struct copy_list {
  cl_tensor_t **dst, **src;
  size_t n, cap;
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

// How the exchange is ordered (CUTELAYOUT_NCCL_SCHEDULE): every peer in one
// NCCL group after all packing, or P - 1 rounds (round k sends to rank + k
// and receives from rank - k) whose packing runs on a second stream while
// the earlier rounds move, and whose unpacking while the later ones do.
enum schedule { SCHEDULE_GROUP, SCHEDULE_ROUNDS };

} // namespace

struct cl_nccl_exec {
  ncclComm_t comm;
  int device;
  int64_t ranks, rank;
  size_t elem;
  uint64_t hash;
  bool checked, check_queued;
  bool local_direct; // the own pieces pair up one to one: copied src to dst
  schedule order;
  // All-gather: every rank sends one contiguous range to all and receives
  // each rank's at rank * count of one contiguous range (decided on all
  // ranks at once, by the first run's check).
  bool gather_here, gather;
  int64_t gather_src, gather_dst, gather_count;
  side send, recv;
  char *send_buf, *recv_buf; // device memory
  size_t send_bytes, recv_bytes;
  uint64_t *check_buf; // device: min(hash), min(~hash), min(gather_here) over the ranks
  cudaStream_t aside;  // packing, own copies and unpacking beside the exchange
  cudaEvent_t fork, joined, *packed, *received; // packed[k], received[k]: round k
  // The views of the last run's buffers: pack[k], unpack[k] for round k
  // (k = 1 .. ranks - 1), own[0] the own pieces' first step, own[1] the second.
  const void *views_src;
  void *views_dst;
  copy_list *pack, *unpack, own[2];
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
  std::free(s->direct);
}

// Whether a layout lists 0, 1, ..., size - 1 in order: its coalesced form is
// size:1 (or it has at most one element).
cl_status is_identity(const cl_layout_t *layout, bool *out) {
  *out = cl_layout_size(layout) <= 1;
  if (*out)
    return CL_OK;
  cl_layout_t *flat = nullptr;
  cl_tuple_t *shape = nullptr, *stride = nullptr;
  cl_status st = cl_coalesce(layout, &flat);
  if (st == CL_OK)
    st = cl_layout_shape(flat, &shape);
  if (st == CL_OK)
    st = cl_layout_stride(flat, &stride);
  int64_t one = 0;
  if (st == CL_OK && cl_tuple_kind(stride) == CL_KIND_INT)
    st = cl_tuple_value(stride, &one);
  *out = st == CL_OK && cl_tuple_kind(stride) == CL_KIND_INT && one == 1;
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  cl_layout_free(flat);
  return st;
}

// Where peer p's elements lie contiguous and in order in the local buffer
// (its pieces each the identity, one after another), or -1.
cl_status contiguous_start(const side *s, int64_t p, int64_t *start) {
  *start = -1;
  int64_t next = -1;
  for (int64_t k = s->first[p]; k < s->first[p + 1]; k++) {
    const piece &pc = s->pieces[k];
    bool identity = false;
    TRY(is_identity(pc.layout, &identity));
    if (!identity || (next >= 0 && pc.offset != next))
      return CL_OK;
    next = pc.offset + pc.size;
  }
  if (s->first[p + 1] > s->first[p])
    *start = s->pieces[s->first[p]].offset;
  return CL_OK;
}

// Copies the plan's pieces of one direction and finds the peers whose
// elements need no staging.
cl_status load_side(const cl_dist_plan_t *plan, cl_dist_direction dir, int64_t ranks, side *s) {
  s->first = static_cast<int64_t *>(std::calloc(size_t(ranks + 1), sizeof(int64_t)));
  s->count = static_cast<int64_t *>(std::calloc(size_t(ranks), sizeof(int64_t)));
  s->staged = static_cast<int64_t *>(std::calloc(size_t(ranks), sizeof(int64_t)));
  s->direct = static_cast<int64_t *>(std::calloc(size_t(ranks), sizeof(int64_t)));
  if (s->first == nullptr || s->count == nullptr || s->staged == nullptr || s->direct == nullptr)
    return fail(CL_E_NOMEM, "cl_nccl_exec_new: out of memory");
  for (int64_t p = 0; p < ranks; p++) {
    int64_t pieces = 0;
    TRY(cl_dist_plan_peer(plan, p, dir, &s->count[p], &pieces));
    s->first[p + 1] = s->first[p] + pieces;
  }
  s->pieces = static_cast<piece *>(std::calloc(size_t(s->first[ranks]) + 1, sizeof(piece)));
  if (s->pieces == nullptr)
    return fail(CL_E_NOMEM, "cl_nccl_exec_new: out of memory");
  for (int64_t p = 0; p < ranks; p++) {
    for (int64_t k = s->first[p]; k < s->first[p + 1]; k++) {
      piece *pc = &s->pieces[k];
      TRY(cl_dist_plan_piece(plan, p, dir, k - s->first[p], &pc->offset, &pc->layout));
      pc->size = cl_layout_size(pc->layout);
    }
    TRY(contiguous_start(s, p, &s->direct[p]));
  }
  return CL_OK;
}

// Places the pieces of every peer but `skip` that are not moved directly in
// the staging buffer, in peer order; returns its length in elements.
int64_t stage(side *s, int64_t ranks, int64_t skip) {
  int64_t at = 0;
  for (int64_t p = 0; p < ranks; p++) {
    s->staged[p] = at;
    if (p == skip || s->direct[p] >= 0)
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

// Whether this rank's part is an all-gather's: the same contiguous range of
// src to every rank (itself included), and every rank's elements received
// contiguous at rank * count of one range of dst.
void find_gather(cl_nccl_exec *e) {
  int64_t count = e->send.count[0];
  e->gather_here = count > 0;
  e->gather_count = count;
  e->gather_src = e->send.direct[0];
  e->gather_dst = e->recv.direct[0];
  for (int64_t p = 0; p < e->ranks && e->gather_here; p++)
    e->gather_here = e->send.count[p] == count && e->recv.count[p] == count && e->send.direct[p] >= 0 &&
                     e->send.direct[p] == e->gather_src && e->recv.direct[p] == e->gather_dst + p * count;
}

schedule schedule_from_environment() {
  const char *name = std::getenv("CUTELAYOUT_NCCL_SCHEDULE");
  if (name != nullptr && std::strcmp(name, "rounds") == 0)
    return SCHEDULE_ROUNDS;
  if (name != nullptr && std::strcmp(name, "group") == 0)
    return SCHEDULE_GROUP;
  return SCHEDULE_ROUNDS;
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

cl_status new_event(cudaEvent_t *event) {
  cudaError_t e = cudaEventCreateWithFlags(event, cudaEventDisableTiming);
  return e == cudaSuccess ? CL_OK : cuda_fail(e, "cl_nccl_exec_new: cudaEventCreate");
}

// The second stream and the events that order it against the caller's.
cl_status make_streams(cl_nccl_exec *e) {
  cudaError_t ce = cudaStreamCreateWithFlags(&e->aside, cudaStreamNonBlocking);
  if (ce != cudaSuccess) {
    e->aside = nullptr;
    return cuda_fail(ce, "cl_nccl_exec_new: cudaStreamCreate");
  }
  e->packed = static_cast<cudaEvent_t *>(std::calloc(size_t(e->ranks), sizeof(cudaEvent_t)));
  e->received = static_cast<cudaEvent_t *>(std::calloc(size_t(e->ranks), sizeof(cudaEvent_t)));
  if (e->packed == nullptr || e->received == nullptr)
    return fail(CL_E_NOMEM, "cl_nccl_exec_new: out of memory");
  TRY(new_event(&e->fork));
  TRY(new_event(&e->joined));
  for (int64_t k = 0; k < e->ranks; k++) {
    TRY(new_event(&e->packed[k]));
    TRY(new_event(&e->received[k]));
  }
  return CL_OK;
}

cl_status build(cl_nccl_exec *e, const cl_dist_plan_t *plan) {
  TRY(load_side(plan, CL_DIST_SEND, e->ranks, &e->send));
  TRY(load_side(plan, CL_DIST_RECV, e->ranks, &e->recv));
  e->local_direct = pieces_pair_up(e);
  find_gather(e);
  // The own elements always go through copies, never NCCL.
  e->send.direct[e->rank] = e->recv.direct[e->rank] = -1;
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
  e->pack = new (std::nothrow) copy_list[size_t(e->ranks)]();
  e->unpack = new (std::nothrow) copy_list[size_t(e->ranks)]();
  if (e->pack == nullptr || e->unpack == nullptr)
    return fail(CL_E_NOMEM, "cl_nccl_exec_new: out of memory");
  device_scope scope;
  TRY(scope.enter(e->device));
  TRY(make_streams(e));
  TRY(alloc_device(reinterpret_cast<void **>(&e->send_buf), e->send_bytes));
  TRY(alloc_device(reinterpret_cast<void **>(&e->recv_buf), e->recv_bytes));
  return alloc_device(reinterpret_cast<void **>(&e->check_buf), 3 * sizeof(uint64_t));
}

// ---- the views of a run's buffers ----

void clear(copy_list *c) {
  for (size_t k = 0; k < c->n; k++) {
    cl_tensor_free(c->dst[k]);
    cl_tensor_free(c->src[k]);
  }
  c->n = 0;
}

void release(copy_list *c) {
  clear(c);
  std::free(c->dst);
  std::free(c->src);
  c->dst = c->src = nullptr;
  c->cap = 0;
}

cl_status push(copy_list *c, cl_tensor_t *d, cl_tensor_t *s) {
  if (c->n == c->cap) {
    size_t grown = c->cap == 0 ? 8 : 2 * c->cap;
    cl_tensor_t **nd = static_cast<cl_tensor_t **>(std::realloc(c->dst, grown * sizeof *nd));
    if (nd != nullptr)
      c->dst = nd;
    cl_tensor_t **ns = nd == nullptr ? nullptr : static_cast<cl_tensor_t **>(std::realloc(c->src, grown * sizeof *ns));
    if (ns != nullptr)
      c->src = ns;
    if (nd == nullptr || ns == nullptr) {
      cl_tensor_free(d);
      cl_tensor_free(s);
      return fail(CL_E_NOMEM, "cl_nccl_exec_run: out of memory");
    }
    c->cap = grown;
  }
  c->dst[c->n] = d;
  c->src[c->n] = s;
  c->n++;
  return CL_OK;
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

// Adds the copy of `size` elements between two places (a null layout: the
// contiguous elements of staging).
cl_status add_copy(copy_list *c, char *to, const cl_layout_t *to_layout, char *from, const cl_layout_t *from_layout,
                   size_t elem, int64_t size) {
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
  return push(c, d, s);
}

cl_status add_pack(cl_nccl_exec *e, copy_list *c, int64_t p, const char *src) {
  for (int64_t k = e->send.first[p]; k < e->send.first[p + 1]; k++) {
    const piece &pc = e->send.pieces[k];
    TRY(add_copy(c, e->send_buf + pc.staged * e->elem, nullptr, const_cast<char *>(src) + pc.offset * e->elem,
                 pc.layout, e->elem, pc.size));
  }
  return CL_OK;
}

cl_status add_unpack(cl_nccl_exec *e, copy_list *c, int64_t p, char *staging, char *dst) {
  for (int64_t k = e->recv.first[p]; k < e->recv.first[p + 1]; k++) {
    const piece &pc = e->recv.pieces[k];
    TRY(add_copy(c, dst + pc.offset * e->elem, pc.layout, staging + pc.staged * e->elem, nullptr, e->elem, pc.size));
  }
  return CL_OK;
}

// The own pieces: src to dst directly, or packed then unpacked through the
// send buffer where the two sides cut them differently.
cl_status add_own(cl_nccl_exec *e, const char *src, char *dst) {
  int64_t r = e->rank;
  if (!e->local_direct) {
    TRY(add_pack(e, &e->own[0], r, src));
    return add_unpack(e, &e->own[1], r, e->send_buf, dst);
  }
  for (int64_t k = 0; k < e->send.first[r + 1] - e->send.first[r]; k++) {
    const piece &from = e->send.pieces[e->send.first[r] + k];
    const piece &to = e->recv.pieces[e->recv.first[r] + k];
    TRY(add_copy(&e->own[0], dst + to.offset * e->elem, to.layout, const_cast<char *>(src) + from.offset * e->elem,
                 from.layout, e->elem, to.size));
  }
  return CL_OK;
}

int64_t send_peer(const cl_nccl_exec *e, int64_t round) { return (e->rank + round) % e->ranks; }
int64_t recv_peer(const cl_nccl_exec *e, int64_t round) { return (e->rank - round + e->ranks) % e->ranks; }

// Makes the views of src and dst, unless the last run's were of the same
// buffers.
cl_status make_views(cl_nccl_exec *e, const char *src, char *dst) {
  if (e->views_src == src && e->views_dst == dst)
    return CL_OK;
  e->views_src = nullptr;
  e->views_dst = nullptr;
  for (int64_t k = 0; k < e->ranks; k++) {
    clear(&e->pack[k]);
    clear(&e->unpack[k]);
  }
  clear(&e->own[0]);
  clear(&e->own[1]);
  for (int64_t k = 1; k < e->ranks; k++) {
    if (e->send.direct[send_peer(e, k)] < 0)
      TRY(add_pack(e, &e->pack[k], send_peer(e, k), src));
    if (e->recv.direct[recv_peer(e, k)] < 0)
      TRY(add_unpack(e, &e->unpack[k], recv_peer(e, k), e->recv_buf, dst));
  }
  TRY(add_own(e, src, dst));
  e->views_src = src;
  e->views_dst = dst;
  return CL_OK;
}

// ---- a run ----

cl_status copy(const copy_list *c, cudaStream_t stream) {
  return cl_cuda_tensor_copy_batched(c->dst, c->src, c->n, stream);
}

// Every round's copies of `lists` in one batched launch.
cl_status copy_rounds(const cl_nccl_exec *e, const copy_list *lists, cudaStream_t stream) {
  size_t n = 0;
  for (int64_t k = 1; k < e->ranks; k++)
    n += lists[k].n;
  if (n == 0)
    return CL_OK;
  cl_tensor_t **dst = static_cast<cl_tensor_t **>(std::malloc(n * sizeof *dst));
  cl_tensor_t **src = static_cast<cl_tensor_t **>(std::malloc(n * sizeof *src));
  cl_status st = dst != nullptr && src != nullptr ? CL_OK : fail(CL_E_NOMEM, "cl_nccl_exec_run: out of memory");
  for (int64_t k = 1, at = 0; k < e->ranks && st == CL_OK; k++)
    for (size_t i = 0; i < lists[k].n; i++, at++) {
      dst[at] = lists[k].dst[i];
      src[at] = lists[k].src[i];
    }
  if (st == CL_OK)
    st = cl_cuda_tensor_copy_batched(dst, src, n, stream);
  std::free(dst);
  std::free(src);
  return st;
}

cl_status record(cudaEvent_t event, cudaStream_t stream) {
  cudaError_t ce = cudaEventRecord(event, stream);
  return ce == cudaSuccess ? CL_OK : cuda_fail(ce, "cl_nccl_exec_run: cudaEventRecord");
}

// `waiting` waits for what `stream` has queued so far (through event).
cl_status after(cudaStream_t waiting, cudaEvent_t event, cudaStream_t stream) {
  TRY(record(event, stream));
  cudaError_t ce = cudaStreamWaitEvent(waiting, event, 0);
  return ce == cudaSuccess ? CL_OK : cuda_fail(ce, "cl_nccl_exec_run: cudaStreamWaitEvent");
}

// Queues the sends and receives of the given rounds (first .. last) in one
// NCCL group.
cl_status exchange(cl_nccl_exec *e, const char *src, char *dst, int64_t first, int64_t last, cudaStream_t stream) {
  ncclResult_t r = ncclGroupStart();
  for (int64_t k = first; k <= last && r == ncclSuccess; k++) {
    int64_t to = send_peer(e, k), from = recv_peer(e, k);
    size_t out = size_t(e->send.count[to]) * e->elem, in = size_t(e->recv.count[from]) * e->elem;
    const char *out_at = e->send.direct[to] >= 0 ? src + size_t(e->send.direct[to]) * e->elem
                                                 : e->send_buf + size_t(e->send.staged[to]) * e->elem;
    char *in_at = e->recv.direct[from] >= 0 ? dst + size_t(e->recv.direct[from]) * e->elem
                                            : e->recv_buf + size_t(e->recv.staged[from]) * e->elem;
    if (out > 0)
      r = ncclSend(out_at, out, ncclUint8, int(to), e->comm, stream);
    if (r == ncclSuccess && in > 0)
      r = ncclRecv(in_at, in, ncclUint8, int(from), e->comm, stream);
  }
  ncclResult_t end = ncclGroupEnd();
  if (r == ncclSuccess)
    r = end;
  return r == ncclSuccess ? CL_OK : nccl_fail(r, "cl_nccl_exec_run: ncclSend/ncclRecv");
}

// Packing, the exchange and unpacking each one step on stream; the own
// copies beside them on the second stream.
cl_status run_grouped(cl_nccl_exec *e, const char *src, char *dst, cudaStream_t stream) {
  TRY(after(e->aside, e->fork, stream));
  TRY(copy(&e->own[0], e->aside));
  TRY(copy(&e->own[1], e->aside));
  TRY(copy_rounds(e, e->pack, stream));
  TRY(exchange(e, src, dst, 1, e->ranks - 1, stream));
  TRY(copy_rounds(e, e->unpack, stream));
  return after(stream, e->joined, e->aside);
}

// Round k's packing on the second stream ahead of its exchange on stream,
// its unpacking on the second stream once it has arrived; the own copies
// between the packing and the unpacking.
cl_status run_rounds(cl_nccl_exec *e, const char *src, char *dst, cudaStream_t stream) {
  TRY(after(e->aside, e->fork, stream));
  for (int64_t k = 1; k < e->ranks; k++)
    if (e->pack[k].n > 0) {
      TRY(copy(&e->pack[k], e->aside));
      TRY(record(e->packed[k], e->aside));
    }
  TRY(copy(&e->own[0], e->aside));
  TRY(copy(&e->own[1], e->aside));
  for (int64_t k = 1; k < e->ranks; k++) {
    if (e->pack[k].n > 0) {
      cudaError_t ce = cudaStreamWaitEvent(stream, e->packed[k], 0);
      if (ce != cudaSuccess)
        return cuda_fail(ce, "cl_nccl_exec_run: cudaStreamWaitEvent");
    }
    TRY(exchange(e, src, dst, k, k, stream));
    if (e->unpack[k].n > 0) {
      TRY(after(e->aside, e->received[k], stream));
      TRY(copy(&e->unpack[k], e->aside));
    }
  }
  return after(stream, e->joined, e->aside);
}

cl_status all_gather(cl_nccl_exec *e, const char *src, char *dst, cudaStream_t stream) {
  ncclResult_t r = ncclAllGather(src + size_t(e->gather_src) * e->elem, dst + size_t(e->gather_dst) * e->elem,
                                 size_t(e->gather_count) * e->elem, ncclUint8, e->comm, stream);
  return r == ncclSuccess ? CL_OK : nccl_fail(r, "cl_nccl_exec_run: ncclAllGather");
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
  e->order = schedule_from_environment();
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
  // min(~h) over the ranks is ~max(h): one reduction gives both ends, and
  // whether every rank can take part in an all-gather.
  uint64_t h[3] = {exec->hash, ~exec->hash, exec->gather_here ? 1u : 0u};
  cudaError_t ce = cudaMemcpyAsync(exec->check_buf, h, sizeof h, cudaMemcpyHostToDevice, stream);
  if (ce == cudaSuccess)
    ce = cudaStreamSynchronize(stream); // h lives on this stack frame
  if (ce != cudaSuccess)
    return cuda_fail(ce, "cl_nccl_exec_check_plan: copying the plan's hash to the GPU");
  ncclResult_t r = ncclAllReduce(exec->check_buf, exec->check_buf, 3, ncclUint64, ncclMin, exec->comm, stream);
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
  uint64_t h[3];
  cudaError_t ce = cudaMemcpy(h, exec->check_buf, sizeof h, cudaMemcpyDeviceToHost);
  if (ce != cudaSuccess)
    return cuda_fail(ce, "cl_nccl_exec_check_plan_result: reading the reduced hashes");
  exec->check_queued = false;
  if (h[0] != exec->hash || ~h[1] != exec->hash)
    return fail(CL_E_RANK, "cl_nccl_exec_run: the ranks planned different redistributions (plan hashes from %016llx to "
                           "%016llx; this rank's %016llx)",
                (unsigned long long)h[0], (unsigned long long)~h[1], (unsigned long long)exec->hash);
  exec->gather = h[2] == 1;
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
  const char *from = static_cast<const char *>(src);
  char *to = static_cast<char *>(dst);
  cudaStream_t s = static_cast<cudaStream_t>(stream);
  if (exec->gather)
    return all_gather(exec, from, to, s);
  TRY(make_views(exec, from, to));
  return exec->order == SCHEDULE_ROUNDS ? run_rounds(exec, from, to, s) : run_grouped(exec, from, to, s);
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
    cudaFree(exec->check_buf);
    if (exec->aside != nullptr)
      cudaStreamDestroy(exec->aside);
    for (cudaEvent_t ev : {exec->fork, exec->joined})
      if (ev != nullptr)
        cudaEventDestroy(ev);
    for (int64_t k = 0; k < exec->ranks; k++) {
      if (exec->packed != nullptr && exec->packed[k] != nullptr)
        cudaEventDestroy(exec->packed[k]);
      if (exec->received != nullptr && exec->received[k] != nullptr)
        cudaEventDestroy(exec->received[k]);
    }
  }
  std::free(exec->packed);
  std::free(exec->received);
  if (exec->pack != nullptr)
    for (int64_t k = 0; k < exec->ranks; k++)
      release(&exec->pack[k]);
  if (exec->unpack != nullptr)
    for (int64_t k = 0; k < exec->ranks; k++)
      release(&exec->unpack[k]);
  release(&exec->own[0]);
  release(&exec->own[1]);
  delete[] exec->pack;
  delete[] exec->unpack;
  free_side(&exec->send, exec->ranks);
  free_side(&exec->recv, exec->ranks);
  std::free(exec);
}

} // extern "C"
