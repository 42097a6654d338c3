/* SPDX-License-Identifier: BSD-3-Clause */
/* dist.h: tensors spread over several ranks (GPUs), and the plan that moves
 * one from a distribution to another (docs/distributed.md).
 *
 * A distribution of a tensor of global shape (n_0, ..., n_{D-1}) over P
 * ranks, each holding a local buffer of L elements, is a layout whose
 * codomain is rank * L + offset:
 *
 *     layout(c_0, ..., c_{D-1}, k) = rank * L + offset
 *
 * Mode d of the layout takes the global coordinate c_d (its size may exceed
 * n_d: an uneven split is the even split of a padded extent, whose padding is
 * never read nor written); the optional last mode k counts the replicas of
 * every element (size 1 when nothing is replicated; Replicate on a mesh
 * dimension makes it that dimension, with the rank stride times L).  Shard,
 * Replicate, strided shards, uneven shards, ScaLAPACK's block-cyclic splits,
 * meshes of them and any tiled layout are all such layouts.
 *
 * Everything here is a pure function of layouts: no GPU is needed.  The
 * CUDA module's NCCL executor runs the plans. */
#ifndef CUTELAYOUT_DIST_H
#define CUTELAYOUT_DIST_H

#include "common.h"
#include "layout.h"
#include "tuple.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cl_dist cl_dist_t;
typedef struct cl_dist_plan cl_dist_plan_t;

/* How one dimension of a device mesh splits the tensor (PyTorch's DTensor
 * placements, and ScaLAPACK's block-cyclic split).  This struct is frozen
 * for the life of ABI 1. */
typedef enum cl_placement_kind {
  CL_PLACE_REPLICATE = 0,     /* every rank of the mesh dimension holds the whole */
  CL_PLACE_SHARD = 1,         /* dimension dim cut in contiguous blocks of ceil(n / ranks) */
  CL_PLACE_STRIDED_SHARD = 2, /* dim cut in param * ranks blocks, dealt round-robin (param: split factor) */
  CL_PLACE_BLOCK_CYCLIC = 3   /* dim cut in blocks of param elements, dealt round-robin */
} cl_placement_kind;

typedef struct cl_placement {
  cl_placement_kind kind;
  int64_t dim;   /* the tensor dimension split (not read for Replicate) */
  int64_t param; /* split factor (strided shard) or block size (block-cyclic); else 0 */
} cl_placement_t;

/* A distribution of a tensor of global shape `shape` (a positive integer or
 * a flat tuple of them) over `ranks` ranks of `local_size` elements each,
 * given by `layout` as described above: rank D (no replicas) or D + 1 (the
 * last mode counts replicas), mode d of size at least shape[d].  Checks that
 * every element and replica lands in [0, ranks * local_size) (CL_E_BOUNDS
 * otherwise), that no two land on the same place and that no two replicas of
 * one element share a rank (CL_E_NOT_INJECTIVE); CL_E_RANK when the layout's
 * rank is neither D nor D + 1, CL_E_DOMAIN when a mode is smaller than its
 * extent or ranks, local_size or an extent is below 1, CL_E_TYPE when shape
 * is not flat.  Costs time and memory linear in the elements.  The result
 * is the caller's (cl_dist_free). */
CL_API cl_status cl_dist_new(const cl_tuple_t *shape, int64_t ranks, int64_t local_size, const cl_layout_t *layout,
                             cl_dist_t **out);

/* The distribution of a tensor of global shape `shape` over a device mesh of
 * shape `mesh` (flat; ranks numbered row-major over it, as torch's
 * DeviceMesh), mesh dimension m placing the tensor as placements[m] (n of
 * them, n == rank of mesh).  Several mesh dimensions sharding one tensor
 * dimension split it in mesh order (the first outermost, as DTensor does);
 * they must be of one kind and parameter.  A split that does not divide the
 * extent pads it: Shard of n over q ranks gives blocks of ceil(n / q), the
 * last ones short or empty; block-cyclic of block b gives ceil(n / (b q))
 * rounds.  Each rank stores its local block row-major (as torch's local
 * tensors), padded to the same size on every rank.  CL_E_DOMAIN for a dim
 * outside the shape, a non-positive parameter or mesh extent, n not the
 * mesh's rank; CL_E_UNSUPPORTED when one tensor dimension is split by
 * placements of different kinds or parameters. */
CL_API cl_status cl_dist_from_placements(const cl_tuple_t *shape, const cl_tuple_t *mesh,
                                         const cl_placement_t *placements, int64_t n, cl_dist_t **out);

/* Parses a distribution's text form:
 *     dist(SHAPE, RANKS, LOCAL_SIZE, LAYOUT)         e.g. dist((8,8), 4, 16, (8,(2,4)):(1,(8,16)))
 *     dist(SHAPE, MESH, PLACEMENT, ...)              e.g. dist((8,8), (2,2), Shard(0), Shard(1))
 * PLACEMENT is Shard(d), Replicate, StridedShard(d,s) or BlockCyclic(d,b).
 * CL_E_PARSE for malformed text, then the statuses of cl_dist_new /
 * cl_dist_from_placements. */
CL_API cl_status cl_dist_parse(const char *text, cl_dist_t **out);

/* Writes the generic text form dist(SHAPE, RANKS, LOCAL_SIZE, LAYOUT) as
 * cl_layout_format does (snprintf semantics); returns its length, or a
 * negative status. */
CL_API int64_t cl_dist_format(const cl_dist_t *dist, char *buf, size_t cap);

/* Frees a distribution; NULL is a no-op. */
CL_API void cl_dist_free(cl_dist_t *dist);

/* The number of ranks, the local buffer's size in elements, the number of
 * replicas of each element, and the number of elements of the global
 * tensor; -1 for NULL. */
CL_API int64_t cl_dist_ranks(const cl_dist_t *dist);
CL_API int64_t cl_dist_local_size(const cl_dist_t *dist);
CL_API int64_t cl_dist_replicas(const cl_dist_t *dist);
CL_API int64_t cl_dist_size(const cl_dist_t *dist);

/* The global shape, and the layout (always with its replica mode last). */
CL_API cl_status cl_dist_shape(const cl_dist_t *dist, cl_tuple_t **out);
CL_API cl_status cl_dist_layout(const cl_dist_t *dist, cl_layout_t **out);

/* Where replica `replica` of the element of global index i (colexicographic
 * over the global shape, as a layout's index) lives: its rank and its offset
 * in that rank's local buffer.  CL_E_DOMAIN when i or replica is out of
 * range. */
CL_API cl_status cl_dist_locate(const cl_dist_t *dist, int64_t i, int64_t replica, int64_t *rank, int64_t *offset);

/* Which way a piece of a plan goes, seen from the plan's rank. */
typedef enum cl_dist_direction {
  CL_DIST_SEND = 0, /* read from this rank's source buffer, sent to the peer */
  CL_DIST_RECV = 1  /* received from the peer, written to this rank's destination buffer */
} cl_dist_direction;

/* The plan of rank `rank` for moving a tensor of elements of elem_size
 * bytes from distribution src to distribution dst (the same global shape and
 * number of ranks).  Every rank computes its own from the same arguments and
 * the plans agree: what rank s sends to q, in order, is what q receives from
 * s.  An element needed by q is sent by q itself when q holds it in src (a
 * local copy), else by its replica q mod replicas(src); a replicated
 * destination receives its own copy on every replica.  For each peer the
 * elements are listed in the order of their global coordinates, the modes
 * taken fastest first by the source's local stride along them (a row-major
 * source is read row by row), then by destination replica, as pieces, each an offset plus a layout over the local buffer, merged into
 * as few as a greedy coalescing finds.  CL_E_RANK when the global shapes
 * differ, CL_E_DOMAIN when the numbers of ranks differ, rank is not one of
 * them or elem_size is 0.  Costs time linear in the global elements (times
 * the replicas), memory linear in this rank's. */
CL_API cl_status cl_dist_plan_new(const cl_dist_t *src, const cl_dist_t *dst, size_t elem_size, int64_t rank,
                                  cl_dist_plan_t **out);

/* Frees a plan; NULL is a no-op. */
CL_API void cl_dist_plan_free(cl_dist_plan_t *plan);

/* The plan's number of ranks, its own rank, and its element size; -1 (0 for
 * the size) for NULL. */
CL_API int64_t cl_dist_plan_ranks(const cl_dist_plan_t *plan);
CL_API int64_t cl_dist_plan_rank(const cl_dist_plan_t *plan);
CL_API size_t cl_dist_plan_elem_size(const cl_dist_plan_t *plan);

/* What the plan's rank sends to (CL_DIST_SEND) or receives from
 * (CL_DIST_RECV) rank `peer`: the number of elements and of pieces (the
 * plan's own rank as peer: its local copy).  CL_E_DOMAIN for a peer or
 * direction out of range. */
CL_API cl_status cl_dist_plan_peer(const cl_dist_plan_t *plan, int64_t peer, cl_dist_direction direction,
                                   int64_t *elements, int64_t *pieces);

/* Piece `piece` of that list: the j-th element of the piece is at local
 * offset *offset + layout(j) of the source buffer (send) or the destination
 * buffer (receive).  The layout is the caller's.  CL_E_DOMAIN for an index
 * out of range. */
CL_API cl_status cl_dist_plan_piece(const cl_dist_plan_t *plan, int64_t peer, cl_dist_direction direction,
                                    int64_t piece, int64_t *offset, cl_layout_t **layout);

/* Nonzero when the pattern is a regular all-to-all: every rank sends the
 * same nonzero number of elements to every other rank (one collective can
 * move it). */
CL_API int cl_dist_plan_is_all_to_all(const cl_dist_plan_t *plan);

/* A hash of what every rank's plan depends on (both distributions, the
 * element size and the counts between all pairs of ranks): equal on all
 * ranks exactly when they planned the same redistribution.  0 for NULL. */
CL_API uint64_t cl_dist_plan_hash(const cl_dist_plan_t *plan);

#ifdef __cplusplus
}
#endif

#endif
