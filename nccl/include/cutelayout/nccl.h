/* SPDX-License-Identifier: BSD-3-Clause */
/* nccl.h: redistributions of tensors spread over several GPUs (dist.h's
 * plans) run on NCCL, the optional library libcutelayout-nccl (pkg-config
 * package cute-layout-nccl; neither the core nor the CUDA module depends on
 * it).  docs/distributed.md.
 *
 *   cl_nccl_exec_new(plan, comm, &exec);       // once per plan and rank
 *   cl_nccl_exec_run(exec, src, dst, stream);  // as often as needed
 *   cl_nccl_exec_free(exec);
 *
 * An executor belongs to one rank: it is made from that rank's plan
 * (cl_dist_plan_new with the communicator's rank) and the rank's NCCL
 * communicator, on the communicator's GPU, and owns its staging buffers.
 * Each run sends straight from src what goes to a peer contiguous and in
 * order there, receives straight into dst what comes contiguous there,
 * packs the rest with the CUDA module's copy kernels
 * (cl_cuda_tensor_copy_batched) from the source layout into a send buffer
 * and unpacks the rest from a receive buffer into the destination layout,
 * moving it all with ncclSend/ncclRecv to and from every peer in one NCCL
 * group (one ncclAllGather where every rank's part is an all-gather's); the
 * rank's own pieces are copied from src to dst directly.  The environment
 * variables CUTELAYOUT_NCCL_CHUNKS and CUTELAYOUT_NCCL_CHUNK_BYTES, read by
 * cl_nccl_exec_new, cut the exchange into several groups
 * (docs/distributed.md).  Every rank must run it (NCCL's point-to-point
 * calls pair up).
 *
 * Conventions as cuda.h's: work is queued on `stream` and the functions
 * return once it is; failures are statuses with a detail in
 * cl_last_error():
 *   CL_E_NULL         a NULL argument;
 *   CL_E_NOMEM        host memory ran out;
 *   CL_E_DEVICE       a CUDA or NCCL call failed (the detail names it and
 *                     its message), or buffers that are not device memory of
 *                     the communicator's GPU;
 *   CL_E_UNSUPPORTED  an element size other than 1, 2, 4, 8 or 16 bytes;
 *   CL_E_DOMAIN       a communicator whose size or rank is not the plan's;
 *   CL_E_RANK         ranks that planned different redistributions. */
#ifndef CUTELAYOUT_NCCL_H
#define CUTELAYOUT_NCCL_H

#include <cutelayout/cuda.h>
#include <cutelayout/cutelayout.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NCCL's ncclComm_t (struct ncclComm *), named here so that this header
 * needs none of NCCL's: an ncclComm_t converts to it without a cast. */
typedef struct ncclComm *cl_nccl_comm_t;

typedef struct cl_nccl_exec cl_nccl_exec_t;

/* An executor of `plan` over `comm` (whose size must be the plan's number of
 * ranks and whose rank the plan's rank, else CL_E_DOMAIN; the plan's element
 * size 1, 2, 4, 8 or 16, else CL_E_UNSUPPORTED).  Copies the plan's pieces
 * (the plan may be freed afterwards) and allocates, on the communicator's
 * GPU, a send buffer of the elements this rank sends to other ranks and a
 * receive buffer of those it receives from them: at most twice the local
 * shard when neither distribution replicates, in general the plan's
 * counts, less what is sent or received in place.  Talks to no other rank.  The result is the caller's
 * (cl_nccl_exec_free). */
CL_API cl_status cl_nccl_exec_new(const cl_dist_plan_t *plan, cl_nccl_comm_t comm, cl_nccl_exec_t **out);

/* Runs the redistribution on stream: src is this rank's local buffer of the
 * source distribution, dst its local buffer of the destination one (device
 * memory of the communicator's GPU, each of the distribution's local size in
 * elements; they must not overlap).  Elements of dst that the destination
 * distribution does not place (an uneven split's padding) are not written.
 * The first run of an executor first checks that all ranks hold the same
 * plan: an ncclAllReduce of the minimum and maximum of cl_dist_plan_hash
 * over the ranks, with whether each can take part in an all-gather and the
 * chunks each asked for, then a synchronisation of stream (later runs are
 * fully asynchronous, on stream and on a second stream of the executor's
 * that stream waits for); CL_E_RANK when the ranks disagree, and the next
 * run checks again.  So the first run of every rank must be able to progress on its own
 * (one thread or process per rank; ranks driven by one thread need
 * cl_nccl_exec_check_plan first).  The executor must not run on two streams
 * at once (its buffers are shared). */
CL_API cl_status cl_nccl_exec_run(cl_nccl_exec_t *exec, const void *src, void *dst, cl_cuda_stream_t stream);

/* The first run's plan check alone, queued on stream without waiting: for
 * ranks driven by one thread, which calls it for every rank inside
 * ncclGroupStart()/ncclGroupEnd(), then cl_nccl_exec_check_plan_result for
 * each after synchronising the streams. */
CL_API cl_status cl_nccl_exec_check_plan(cl_nccl_exec_t *exec, cl_cuda_stream_t stream);
/* The check's answer once its stream is synchronised: CL_OK when all ranks
 * hold the same plan (runs then skip the check), CL_E_RANK otherwise,
 * CL_E_DOMAIN when no check was queued. */
CL_API cl_status cl_nccl_exec_check_plan_result(cl_nccl_exec_t *exec);

/* Bytes of device memory the executor holds (its staging buffers); 0 for
 * NULL. */
CL_API size_t cl_nccl_exec_staging_bytes(const cl_nccl_exec_t *exec);

/* Frees an executor and its buffers; NULL is a no-op. */
CL_API void cl_nccl_exec_free(cl_nccl_exec_t *exec);

#ifdef __cplusplus
}
#endif
#endif
