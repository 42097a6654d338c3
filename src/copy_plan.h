/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_plan.h: the copy engine's plan (copy_plan.c) and its execution
 * (copy_exec.c), shared with tensor_copy.c, which checks a copy and runs it.
 *
 * A copy dst(i) = src(i) for i in [0, size) visits the same linear
 * coordinate in two layouts.  Splitting both layouts into their leaves and
 * refining the two lists of extents into one ("joint modes", each with a dst
 * stride and a src stride) turns it into a loop nest over joint modes, whose
 * order is free because dst is injective and does not overlap src.  The
 * plan then
 *   1. flips modes so every dst stride is positive, sorts them by dst stride
 *      and merges neighbours that are contiguous in both layouts (a joint
 *      coalesce);
 *   2. folds a leading mode that is unit-stride in both into the element: the
 *      common contiguous vector (CuTe's max_common_vector), moved by memcpy;
 *   3. picks a kernel: one memcpy; a strided 2-D loop; or, when dst's fastest
 *      mode is not src's fastest (a transpose), tiles of whole cache lines
 *      over a run of modes along which dst is contiguous (i) and a run along
 *      which src is contiguous (j);
 *   4. walks the remaining modes with an odometer (mixed-radix counter: one
 *      addition per step, a subtraction on carry, never a division).
 * When the two extent lists have no common refinement (e.g. (2,3) against
 * (3,2)), the refinable prefix still forms the joint modes and the rest of
 * each layout is walked by its own odometer (the tails). */
#ifndef CUTELAYOUT_COPY_PLAN_H
#define CUTELAYOUT_COPY_PLAN_H

#include "copy_tune.h"
#include "joint_modes.h"
#include "tensor_impl.h"

/* Advances the mixed-radix counter idx (radices shape[0..n), leaf 0 fastest)
 * by one, moving *off along the strides; false after the last position. */
static inline bool cl_odo_step(int64_t n, const int64_t *shape, const int64_t *stride, int64_t *idx, int64_t *off) {
  for (int64_t k = 0; k < n; k++) {
    if (++idx[k] < shape[k]) {
      *off += stride[k];
      return true;
    }
    idx[k] = 0;
    *off -= (shape[k] - 1) * stride[k];
  }
  return false;
}

/* One allocation (or the inline buffer) for the arrays of one call, zeroed. */
typedef struct cl_scratch {
  int64_t *p;
  int64_t inline_buf[192];
} cl_scratch;
cl_status cl_scratch_init(cl_scratch *s, int64_t words);
void cl_scratch_release(cl_scratch *s);

/* cl_jmode (joint_modes.h): here its strides are in bytes. */

typedef enum cl_copy_kind { CL_COPY_ONE, CL_COPY_STRIDED, CL_COPY_TRANSPOSE } cl_copy_kind;
typedef enum cl_copy_channels { CL_CHANNELS_NONE, CL_CHANNELS_INTERLEAVE, CL_CHANNELS_DEINTERLEAVE } cl_copy_channels;

typedef struct cl_copy_job {
  int64_t elem;   /* bytes per kernel element: the common vector folded in */
  int64_t vector; /* original elements per kernel element */
  int64_t r;      /* joint modes m[0..r) */
  cl_jmode *m;
  int64_t slots;  /* room in m: grow_run (copy_plan.c) may split a mode in two */
  int64_t base_d, base_s; /* byte offsets of the first element after flips */
  cl_copy_kind kind;
  /* Transpose: two runs of joint modes, each walked as one index through a
   * table of offsets.  i: m[0..ichain), along which dst is contiguous (m[0]
   * its unit mode, each next mode continuing it), in steps whose src offsets
   * are is[i]; j: the next jchain modes, along which src is contiguous, jn
   * steps whose dst offsets are jd[j].  A run of a single mode has no table
   * (offset = step * stride). */
  int64_t ichain, in, jchain, jn;
  int64_t *is, *jd;
  /* Gathered: the j run is one mode along which src takes every other
   * element (a slice of step 2), compacted into a buffer before it is
   * transposed (copy_exec.c); else j steps are src-contiguous. */
  bool gathered;
  /* The tuning's gather choice: short tiles for short or ragged src runs,
   * whole-vector compaction, gathered runs (else elements, whole tiles). */
  bool gather;
  bool tiles;       /* line tiles (elements of 1, 2, 4, 8 or 16 bytes), else element by element */
  bool nontemporal; /* stream the stores past the cache */
  bool staged;      /* tiles go through a staging buffer, written out as runs per dst row */
  bool stream_runs; /* staged, dst rows at different offsets in a line: runs streamed past their ends */
  bool narrow_lines; /* staged 1- and 2-byte elements fill the buffer with line tiles, not narrow ones */
  bool packed;      /* dst rows short and back to back: blocks of stage_rows whole rows transposed into the
                     * staging buffer, each streamed out as one run (copy_exec.c, packed_rows) */
  int64_t stage_run, stage_rows; /* staged: bytes per dst row of a block, dst rows per block */
  bool prefetch;    /* fetch the next strip's src lines ahead (short src rows) */
  bool ahead;       /* fetch each strip's own src lines a few tiles ahead (long src rows) */
  bool tall;        /* direct strips stack four tiles, not two (src rows back to back; 1 and 2 bytes: stashed quads) */
  /* Strided, a few channels (copy_plan.c, choose_channels): m[1] is the
   * channel mode and m[0] the pixels, packed on one side (dst when
   * interleave, src when deinterleave), planar on the other. */
  cl_copy_channels channels;
  /* Tails past the common refinement, walked independently (byte strides). */
  int64_t tn_d, tn_s;
  int64_t *td_shape, *td_stride, *ts_shape, *ts_stride;
  cl_scratch mem;
} cl_copy_job;

/* The plan for dst(i) = src(i), from the leaves of both layouts (extent-1
 * leaves dropped), storing as `stores` says, choosing between strategies as
 * `tuning` says (NULL: as cl_copy_tuning_for says for this processor);
 * checks nothing about overlap.  Release with cl_copy_job_release. */
cl_status cl_copy_job_make(cl_copy_job *p, const cl_tensor_t *dst, const cl_leaves *fd, const cl_leaves *fs,
                            cl_copy_stores_t stores, const cl_copy_tuning *tuning);
void cl_copy_job_release(cl_copy_job *p);
/* The public description of a job (cl_copy_plan_t, tensor.h) for tensors of
 * elem_size-byte elements; the job has at most 62 modes and tail modes
 * (each has an extent of at least 2), so the fixed arrays always hold them. */
void cl_copy_job_describe(const cl_copy_job *p, int64_t elem_size, cl_copy_plan_t *out);
/* The modes the kernel moves itself (the odometer walks the rest). */
int64_t cl_copy_job_inner(const cl_copy_job *p);

/* Runs a plan with up to `threads` threads (1 <= threads <=
 * CL_COPY_MAX_THREADS; copy_exec.c): the pool's and the caller's when pool
 * is not NULL, else each created for the call and joined before it
 * returns.  CL_E_NOMEM when the staging buffers cannot be had; nothing is
 * written then. */
cl_status cl_copy_job_run(const cl_copy_job *p, char *dst, const char *src, int threads, cl_copy_pool_t *pool);

/* Steps of j per chunk of a direct transpose: the tiles of one strip of i
 * sweep a chunk, then the next strip does, so a chunk's dst rows are
 * written a line at a time each while its src rows (4 KiB of each, for
 * 4-byte elements) are read as sequential streams. */
#define CL_COPY_CHUNK_STEPS 1024

/* A staged transpose's buffer (bytes), its shortest and longest run per
 * dst row, and the most dst rows it holds. */
#define CL_COPY_STAGE_BYTES ((int64_t)256 << 10)
#define CL_COPY_STAGE_RUN 256
#define CL_COPY_STAGE_RUN_MAX 4096
#define CL_COPY_STAGE_ROWS 1024
/* Fewer dst rows than this are never staged: see transpose_strategy. */
#define CL_COPY_STAGE_MIN_ROWS 64

#endif
