/* SPDX-License-Identifier: BSD-3-Clause */
// nccl.cu: dist.h's plans run on NCCL (nccl.h): an executor keeps one rank's
// pieces and its staging buffers; a run moves each peer's elements straight
// from src or into dst where they lie contiguous there, packs and unpacks the
// rest, and exchanges with every peer.
#include <cuda_runtime.h>
#include <nccl.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cuda_impl.h"
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

// The copies of one step (a chunk's packing, the own pieces, a chunk's
// unpacking) as tensor pairs, made once per pair of run buffers, and their
// checked plans: a run only queues them (planning and checking a pair costs
// microseconds of host time, during which the GPU waits).
struct copy_list {
  cl_tensor_t **dst, **src;
  size_t n, cap;
  cl_cuda_batch batch;
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

// The exchange with every peer goes in up to `chunks` NCCL groups (each peer's
// elements cut in that many equal runs, none under chunk_bytes): chunk c is
// packed on a second stream while chunk c - 1 moves, and unpacked while
// chunk c + 1 does.  CUTELAYOUT_NCCL_CHUNKS sets the number (1 to
// max_chunks), CUTELAYOUT_NCCL_CHUNK_BYTES the least size; the ranks take
// the smallest any of them asked for.  One group is the default: on 4 H200s
// every number of chunks above 1 was slower (the packing beside NCCL's
// kernels slows them more than it hides; docs/distributed.md).
const int64_t max_chunks = 16;
const int64_t default_chunks = 1;
const int64_t default_chunk_bytes = int64_t(1) << 20;
// The plan check's values: the hash, its complement, whether this rank can
// take part in an all-gather, the chunks and the chunk bytes asked for.
const int check_values = 5;

// A positive integer of the environment, at most `most`; `otherwise` when it
// is unset or not one.
int64_t from_environment(const char *name, int64_t most, int64_t otherwise) {
  const char *text = std::getenv(name);
  if (text == nullptr || *text == '\0')
    return otherwise;
  char *end = nullptr;
  long long value = std::strtoll(text, &end, 10);
  return *end == '\0' && value >= 1 && value <= most ? int64_t(value) : otherwise;
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
  // Asked for on this rank, and agreed by the ranks in the first run's check.
  int64_t chunks_asked, chunks, chunk_bytes_asked, chunk_bytes;
  // All-gather: every rank sends one contiguous range to all and receives
  // each rank's at rank * count of one contiguous range (decided on all
  // ranks at once, by the first run's check).
  bool gather_here, gather;
  int64_t gather_src, gather_dst, gather_count;
  side send, recv;
  char *send_buf, *recv_buf; // device memory
  size_t send_bytes, recv_bytes;
  uint64_t *check_buf; // device: the check's values, their minimum over the ranks
  cudaStream_t aside;  // packing, own copies and unpacking beside the exchange
  cudaEvent_t fork, joined, packed[max_chunks], received[max_chunks]; // of chunk c
  // The views of the last run's buffers: pack[c], unpack[c] for chunk c,
  // own[0] the own pieces' first step, own[1] the second.
  const void *views_src;
  void *views_dst;
  copy_list pack[max_chunks], unpack[max_chunks], own[2];
  const void *checked_src; // the last buffers found device memory of the GPU
  void *checked_dst;
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
  TRY(new_event(&e->fork));
  TRY(new_event(&e->joined));
  for (int64_t k = 0; k < max_chunks; k++) {
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
  // With nothing to pack or unpack there is nothing to overlap: one group.
  if (sent + received == 0)
    e->chunks_asked = e->chunks = 1;
  device_scope scope;
  TRY(scope.enter(e->device));
  TRY(make_streams(e));
  TRY(alloc_device(reinterpret_cast<void **>(&e->send_buf), e->send_bytes));
  TRY(alloc_device(reinterpret_cast<void **>(&e->recv_buf), e->recv_bytes));
  return alloc_device(reinterpret_cast<void **>(&e->check_buf), check_values * sizeof(uint64_t));
}

// ---- the views of a run's buffers ----

void clear(copy_list *c) {
  cl_cuda_batch_release(&c->batch);
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

// A layout's flat modes, fastest first (caller frees both arrays).
cl_status flat_modes(const cl_layout_t *layout, int64_t **extent, int64_t **stride, int64_t *n) {
  *extent = *stride = nullptr;
  cl_layout_t *flat = nullptr;
  cl_tuple_t *t[2] = {nullptr, nullptr};
  cl_status st = cl_layout_flatten(layout, &flat);
  if (st == CL_OK)
    st = cl_layout_shape(flat, &t[0]);
  if (st == CL_OK)
    st = cl_layout_stride(flat, &t[1]);
  *n = st == CL_OK ? cl_tuple_rank(t[0]) : 0;
  if (st == CL_OK) {
    *extent = static_cast<int64_t *>(std::malloc(size_t(*n) * sizeof(int64_t)));
    *stride = static_cast<int64_t *>(std::malloc(size_t(*n) * sizeof(int64_t)));
    if (*extent == nullptr || *stride == nullptr)
      st = fail(CL_E_NOMEM, "cl_nccl_exec_run: out of memory");
  }
  for (int side = 0; side < 2 && st == CL_OK; side++) {
    int64_t *into = side == 0 ? *extent : *stride;
    if (cl_tuple_kind(t[side]) == CL_KIND_INT)
      st = cl_tuple_value(t[side], &into[0]);
    for (int64_t i = 0; i < *n && st == CL_OK && cl_tuple_kind(t[side]) != CL_KIND_INT; i++) {
      cl_tuple_t *leaf = nullptr;
      st = cl_tuple_get(t[side], &i, 1, &leaf);
      if (st == CL_OK)
        st = cl_tuple_value(leaf, &into[i]);
      cl_tuple_free(leaf);
    }
  }
  cl_tuple_free(t[0]);
  cl_tuple_free(t[1]);
  cl_layout_free(flat);
  return st;
}

// The layout of modes 0 .. i - 1 of (extent, stride) followed by `steps`
// steps of mode i (when i < n).
cl_status block_layout(const int64_t *extent, const int64_t *stride, int64_t n, int64_t i, int64_t steps,
                       cl_layout_t **out) {
  int64_t *e = static_cast<int64_t *>(std::malloc(size_t(n + 1) * sizeof(int64_t)));
  int64_t *d = static_cast<int64_t *>(std::malloc(size_t(n + 1) * sizeof(int64_t)));
  cl_status st = e != nullptr && d != nullptr ? CL_OK : fail(CL_E_NOMEM, "cl_nccl_exec_run: out of memory");
  int64_t k = i;
  if (st == CL_OK) {
    std::memcpy(e, extent, size_t(i) * sizeof(int64_t));
    std::memcpy(d, stride, size_t(i) * sizeof(int64_t));
    if (i < n) {
      e[k] = steps;
      d[k++] = stride[i];
    }
  }
  cl_tuple_t *shape = nullptr, *strides = nullptr;
  if (st == CL_OK)
    st = cl_tuple_from_ints(e, k, &shape);
  if (st == CL_OK)
    st = cl_tuple_from_ints(d, k, &strides);
  if (st == CL_OK)
    st = cl_layout_make(shape, strides, out);
  cl_tuple_free(shape);
  cl_tuple_free(strides);
  std::free(e);
  std::free(d);
  return st;
}

// Adds the copies of elements [a, b) of a piece, between the local buffer
// (through the piece's layout) and `staging` (contiguous, element a first):
// packing when to_staging, else unpacking.  A whole piece is one copy; a
// part is cut in blocks, each the largest that starts at a multiple of the
// product P of the modes before some mode i and takes whole modes below i
// and consecutive steps of mode i, so its elements are offset + (modes
// below i, steps of i) with no carry.
cl_status add_range(const cl_nccl_exec *e, copy_list *c, const piece &pc, int64_t a, int64_t b, char *local,
                    char *staging, bool to_staging) {
  char *at_local = local + pc.offset * e->elem;
  if (a == 0 && b == pc.size)
    return to_staging ? add_copy(c, staging, nullptr, at_local, pc.layout, e->elem, pc.size)
                      : add_copy(c, at_local, pc.layout, staging, nullptr, e->elem, pc.size);
  int64_t *extent = nullptr, *stride = nullptr, n = 0;
  cl_status st = flat_modes(pc.layout, &extent, &stride, &n);
  for (int64_t at = a; at < b && st == CL_OK;) {
    int64_t i = 0, below = 1;
    while (i < n && at % (below * extent[i]) == 0 && below * extent[i] <= b - at)
      below *= extent[i++];
    int64_t steps = i < n ? std::min((b - at) / below, extent[i] - (at / below) % extent[i]) : 1;
    int64_t offset = 0;
    cl_layout_t *block = nullptr;
    st = cl_layout_eval(pc.layout, at, &offset);
    if (st == CL_OK)
      st = block_layout(extent, stride, n, i, steps, &block);
    char *here = at_local + offset * int64_t(e->elem), *there = staging + (at - a) * int64_t(e->elem);
    if (st == CL_OK)
      st = to_staging ? add_copy(c, there, nullptr, here, block, e->elem, steps * below)
                      : add_copy(c, here, block, there, nullptr, e->elem, steps * below);
    cl_layout_free(block);
    at += steps * below;
  }
  std::free(extent);
  std::free(stride);
  return st;
}

// How many chunks a peer's n elements go in (both ends compute the same),
// and chunk c's elements [*lo, *hi).
int64_t parts(const cl_nccl_exec *e, int64_t n) {
  int64_t by_size = int64_t(size_t(n) * e->elem / size_t(e->chunk_bytes));
  return std::max<int64_t>(1, std::min(e->chunks, by_size));
}

void chunk_range(const cl_nccl_exec *e, int64_t n, int64_t c, int64_t *lo, int64_t *hi) {
  int64_t k = parts(e, n);
  *lo = c < k ? n * c / k : n;
  *hi = c < k ? n * (c + 1) / k : n;
}

// The copies of elements [lo, hi) of what goes to (send) or comes from
// (recv) peer p, between the local buffer and staging.
cl_status add_chunk(const cl_nccl_exec *e, const side *s, copy_list *c, int64_t p, int64_t lo, int64_t hi, char *local,
                    char *staging, bool to_staging) {
  int64_t at = 0; // the first element of piece k in p's elements
  for (int64_t k = s->first[p]; k < s->first[p + 1] && at < hi; k++) {
    const piece &pc = s->pieces[k];
    int64_t a = std::max(lo, at) - at, b = std::min(hi, at + pc.size) - at;
    if (a < b)
      TRY(add_range(e, c, pc, a, b, local, staging + (pc.staged + a) * int64_t(e->elem), to_staging));
    at += pc.size;
  }
  return CL_OK;
}

cl_status add_pack(cl_nccl_exec *e, copy_list *c, int64_t p, const char *src, int64_t lo, int64_t hi) {
  return add_chunk(e, &e->send, c, p, lo, hi, const_cast<char *>(src), e->send_buf, true);
}

cl_status add_unpack(cl_nccl_exec *e, copy_list *c, int64_t p, char *staging, char *dst, int64_t lo, int64_t hi) {
  return add_chunk(e, &e->recv, c, p, lo, hi, dst, staging, false);
}

// The own pieces: src to dst directly, or packed then unpacked through the
// send buffer where the two sides cut them differently.
cl_status add_own(cl_nccl_exec *e, const char *src, char *dst) {
  int64_t r = e->rank;
  if (!e->local_direct) {
    TRY(add_pack(e, &e->own[0], r, src, 0, e->send.count[r]));
    return add_unpack(e, &e->own[1], r, e->send_buf, dst, 0, e->recv.count[r]);
  }
  for (int64_t k = 0; k < e->send.first[r + 1] - e->send.first[r]; k++) {
    const piece &from = e->send.pieces[e->send.first[r] + k];
    const piece &to = e->recv.pieces[e->recv.first[r] + k];
    TRY(add_copy(&e->own[0], dst + to.offset * e->elem, to.layout, const_cast<char *>(src) + from.offset * e->elem,
                 from.layout, e->elem, to.size));
  }
  return CL_OK;
}

cl_status prepare(copy_list *c) {
  return cl_cuda_batch_prepare(c->dst, c->src, c->n, "cl_nccl_exec_run", &c->batch);
}

// Makes the views of src and dst, unless the last run's were of the same
// buffers.
cl_status make_views(cl_nccl_exec *e, const char *src, char *dst) {
  if (e->views_src == src && e->views_dst == dst)
    return CL_OK;
  e->views_src = nullptr;
  e->views_dst = nullptr;
  for (int64_t c = 0; c < max_chunks; c++) {
    clear(&e->pack[c]);
    clear(&e->unpack[c]);
  }
  clear(&e->own[0]);
  clear(&e->own[1]);
  for (int64_t c = 0; c < e->chunks; c++)
    for (int64_t p = 0; p < e->ranks; p++) {
      int64_t lo = 0, hi = 0;
      if (p == e->rank)
        continue;
      chunk_range(e, e->send.count[p], c, &lo, &hi);
      if (e->send.direct[p] < 0)
        TRY(add_pack(e, &e->pack[c], p, src, lo, hi));
      chunk_range(e, e->recv.count[p], c, &lo, &hi);
      if (e->recv.direct[p] < 0)
        TRY(add_unpack(e, &e->unpack[c], p, e->recv_buf, dst, lo, hi));
    }
  TRY(add_own(e, src, dst));
  for (int64_t c = 0; c < e->chunks; c++) {
    TRY(prepare(&e->pack[c]));
    TRY(prepare(&e->unpack[c]));
  }
  TRY(prepare(&e->own[0]));
  TRY(prepare(&e->own[1]));
  e->views_src = src;
  e->views_dst = dst;
  return CL_OK;
}

// ---- a run ----

cl_status copy(const copy_list *c, cudaStream_t stream) {
  return cl_cuda_batch_launch(&c->batch, stream);
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

// Queues chunk c of the sends to and receives from every peer in one NCCL
// group.
cl_status exchange(cl_nccl_exec *e, const char *src, char *dst, int64_t c, cudaStream_t stream) {
  ncclResult_t r = ncclGroupStart();
  for (int64_t p = 0; p < e->ranks && r == ncclSuccess; p++) {
    if (p == e->rank)
      continue;
    int64_t lo = 0, hi = 0;
    chunk_range(e, e->send.count[p], c, &lo, &hi);
    const char *out = e->send.direct[p] >= 0 ? src + size_t(e->send.direct[p] + lo) * e->elem
                                             : e->send_buf + size_t(e->send.staged[p] + lo) * e->elem;
    if (hi > lo)
      r = ncclSend(out, size_t(hi - lo) * e->elem, ncclUint8, int(p), e->comm, stream);
    chunk_range(e, e->recv.count[p], c, &lo, &hi);
    char *in = e->recv.direct[p] >= 0 ? dst + size_t(e->recv.direct[p] + lo) * e->elem
                                      : e->recv_buf + size_t(e->recv.staged[p] + lo) * e->elem;
    if (r == ncclSuccess && hi > lo)
      r = ncclRecv(in, size_t(hi - lo) * e->elem, ncclUint8, int(p), e->comm, stream);
  }
  ncclResult_t end = ncclGroupEnd();
  if (r == ncclSuccess)
    r = end;
  return r == ncclSuccess ? CL_OK : nccl_fail(r, "cl_nccl_exec_run: ncclSend/ncclRecv");
}

// The packing of every chunk on the second stream, ahead of the chunk's
// exchange on stream; then the own copies there, beside the exchanges; a
// chunk's unpacking there once it has arrived; stream waits for it all.
cl_status run_chunks(cl_nccl_exec *e, const char *src, char *dst, cudaStream_t stream) {
  TRY(after(e->aside, e->fork, stream));
  for (int64_t c = 0; c < e->chunks; c++)
    if (e->pack[c].n > 0) {
      TRY(copy(&e->pack[c], e->aside));
      TRY(record(e->packed[c], e->aside));
    }
  TRY(copy(&e->own[0], e->aside));
  TRY(copy(&e->own[1], e->aside));
  for (int64_t c = 0; c < e->chunks; c++) {
    if (e->pack[c].n > 0) {
      cudaError_t ce = cudaStreamWaitEvent(stream, e->packed[c], 0);
      if (ce != cudaSuccess)
        return cuda_fail(ce, "cl_nccl_exec_run: cudaStreamWaitEvent");
    }
    TRY(exchange(e, src, dst, c, stream));
    if (e->unpack[c].n > 0) {
      TRY(after(e->aside, e->received[c], stream));
      TRY(copy(&e->unpack[c], e->aside));
    }
  }
  return after(stream, e->joined, e->aside);
}

// NCCL reads and writes src and dst directly, and does not check them (by
// default): they must be device memory of the communicator's GPU.
cl_status check_buffer(const void *p, int device, const char *name) {
  cudaPointerAttributes attr;
  cudaError_t ce = cudaPointerGetAttributes(&attr, p);
  if (ce != cudaSuccess)
    return cuda_fail(ce, "cl_nccl_exec_run: cudaPointerGetAttributes");
  if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
    return fail(CL_E_DEVICE, "cl_nccl_exec_run: %s is not device memory", name);
  if (attr.device != device)
    return fail(CL_E_DEVICE, "cl_nccl_exec_run: %s is memory of GPU %d, the communicator's is GPU %d", name,
                attr.device, device);
  return CL_OK;
}

cl_status check_buffers(cl_nccl_exec *e, const char *src, char *dst) {
  if (e->checked_src == src && e->checked_dst == dst)
    return CL_OK;
  TRY(check_buffer(src, e->device, "src"));
  TRY(check_buffer(dst, e->device, "dst"));
  e->checked_src = src;
  e->checked_dst = dst;
  return CL_OK;
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
  e->chunks_asked = e->chunks = from_environment("CUTELAYOUT_NCCL_CHUNKS", max_chunks, default_chunks);
  e->chunk_bytes_asked = e->chunk_bytes =
      from_environment("CUTELAYOUT_NCCL_CHUNK_BYTES", INT64_C(1) << 40, default_chunk_bytes);
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
  // min(~h) over the ranks is ~max(h): one reduction gives both ends,
  // whether every rank can take part in an all-gather, and the chunks all
  // can use.
  uint64_t h[check_values] = {exec->hash, ~exec->hash, exec->gather_here ? 1u : 0u, uint64_t(exec->chunks_asked),
                              uint64_t(exec->chunk_bytes_asked)};
  cudaError_t ce = cudaMemcpyAsync(exec->check_buf, h, sizeof h, cudaMemcpyHostToDevice, stream);
  if (ce == cudaSuccess)
    ce = cudaStreamSynchronize(stream); // h lives on this stack frame
  if (ce != cudaSuccess)
    return cuda_fail(ce, "cl_nccl_exec_check_plan: copying the plan's hash to the GPU");
  ncclResult_t r =
      ncclAllReduce(exec->check_buf, exec->check_buf, check_values, ncclUint64, ncclMin, exec->comm, stream);
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
  uint64_t h[check_values];
  cudaError_t ce = cudaMemcpy(h, exec->check_buf, sizeof h, cudaMemcpyDeviceToHost);
  if (ce != cudaSuccess)
    return cuda_fail(ce, "cl_nccl_exec_check_plan_result: reading the reduced hashes");
  exec->check_queued = false;
  if (h[0] != exec->hash || ~h[1] != exec->hash)
    return fail(CL_E_RANK, "cl_nccl_exec_run: the ranks planned different redistributions (plan hashes from %016llx to "
                           "%016llx; this rank's %016llx)",
                (unsigned long long)h[0], (unsigned long long)~h[1], (unsigned long long)exec->hash);
  exec->gather = h[2] == 1;
  if (exec->chunks != int64_t(h[3]) || exec->chunk_bytes != int64_t(h[4]))
    exec->views_src = exec->views_dst = nullptr; // cut for other chunks
  exec->chunks = int64_t(h[3]);
  exec->chunk_bytes = int64_t(h[4]);
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
  TRY(check_buffers(exec, from, to));
  if (exec->gather)
    return all_gather(exec, from, to, s);
  TRY(make_views(exec, from, to));
  return run_chunks(exec, from, to, s);
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
    for (int64_t c = 0; c < max_chunks; c++) {
      if (exec->packed[c] != nullptr)
        cudaEventDestroy(exec->packed[c]);
      if (exec->received[c] != nullptr)
        cudaEventDestroy(exec->received[c]);
    }
  }
  for (int64_t c = 0; c < max_chunks; c++) {
    release(&exec->pack[c]);
    release(&exec->unpack[c]);
  }
  release(&exec->own[0]);
  release(&exec->own[1]);
  free_side(&exec->send, exec->ranks);
  free_side(&exec->recv, exec->ranks);
  std::free(exec);
}

} // extern "C"
