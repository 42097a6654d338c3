/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_tune.h: the host copy's strategies for this processor, chosen by
 * measurement and remembered in a cache file (copy_tune.c).
 *
 * The planner (copy_plan.c) keeps every candidate strategy; where a choice
 * between two of them depends on the processor rather than on the copy, it
 * asks here.  The answer comes, in this order, from
 *   1. CUTELAYOUT_COPY_TUNE: "off" (the defaults below, nothing measured or
 *      read), or a comma-separated list of "staged" / "direct" (both
 *      staging choices), "narrow-staged" / "narrow-direct" (that of 1- and
 *      2-byte elements alone), "prefetch" / "noprefetch", "runs" /
 *      "noruns", "tall" / "notall", "narrow-tall" / "narrow-notall" (that
 *      of 1- and 2-byte elements), "ahead" / "noahead", "gather" /
 *      "nogather", "midstream" / "nomidstream", "wide-midstream" /
 *      "wide-nomidstream" (that of 16-byte elements), "packed" /
 *      "nopacked" and "narrow-lines" / "narrow-nolines", each forcing
 *      its choice, later words over earlier ones (the others are measured,
 *      cached or the defaults); CUTELAYOUT_COPY_STAGING = "1" / "0" forces
 *      both staging choices alone, as before;
 *   2. what this process measured (cl_copy_calibrate, or lazily at the first
 *      copy of TUNE_LAZY_BYTES or more);
 *   3. the cache file $XDG_CACHE_HOME/cute-layout/copy-wisdom (else
 *      $HOME/.cache/...), when it names this processor and this version of
 *      the library;
 *   4. the defaults.
 * Every choice gives the same bytes; only the speed differs. */
#ifndef CUTELAYOUT_COPY_TUNE_H
#define CUTELAYOUT_COPY_TUNE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cl_copy_tuning {
  /* Transposes of elements of 4 to 16 bytes whose dst rows are a multiple
   * of 256 bytes apart go through a staging buffer and are written out as
   * runs per dst row (default: no). */
  bool staged;
  /* The same for elements of 1 and 2 bytes, which fill the buffer with
   * narrow tiles, a kernel of its own (copy_exec.c), so the answer can
   * differ: on AMD EPYC (Zen 5) staging took the byte transpose from
   * 0.33x memcpy to 0.25x while the float one measured either way
   * (default: no). */
  bool staged_narrow;
  /* Direct transposes of elements of 4 to 16 bytes whose src rows lie back
   * to back (a permutation's short rows, read in address order) stack four
   * line tiles per strip instead of two, so each dst row takes runs of 256
   * bytes: more src rows per strip cost nothing there, and on AMD EPYC
   * (Zen 5) streaming stores ran at 0.6 of a plain copy's speed in runs of
   * 128 bytes and at 1.0 in runs of 256 (default: no). */
  bool tall;
  /* The same for 1- and 2-byte elements, whose strips of four tiles are
   * stashed quads (copy_simd.h), a kernel of their own, where the copy
   * streams: on AMD EPYC (Zen 5) the byte permutation 256^3 (2,0,1) ran
   * at 0.28-0.43x memcpy with pairs, 0.49-0.58x with quads (default:
   * no). */
  bool tall_narrow;
  /* Long src rows (more than 2 KiB) are prefetched a few tiles ahead
   * along each strip: on AMD EPYC (Zen 5) the 4000 x 4000 float transpose
   * ran at 0.34-0.46x memcpy without, 0.60-0.76x with (default: no). */
  bool ahead;
  /* Short src rows (2 KiB or less) are prefetched a strip ahead (default:
   * yes). */
  bool prefetch;
  /* Streamed transposes whose dst rows start at different offsets in a
   * cache line go through the staging buffer too, each row's run streamed
   * past its unaligned ends (default: yes). */
  bool runs;
  /* Source runs shorter than a line tile, or taking every other element,
   * are moved through vectors: short tiles, compaction, gathered
   * transposes (copy_exec.c); else an element at a time, or as whole
   * tiles moved back over columns already written (default: yes). */
  bool gather;
  /* Transposes of elements of 1 to 8 bytes, of CL_COPY_MIDSTREAM_BYTES up
   * to 16 MiB, stream their stores too, where CL_COPY_STORES_AUTO leaves
   * them to the caller's cache: on the GPU machine's Xeon (300 MiB of L3),
   * streaming copy-random's transposes of 8 to 16 MiB took its median from
   * 0.62-0.74x memcpy to 0.74-0.80x, the float transpose 1193 x 2009 1.75x
   * as fast (default: no). */
  bool midstream;
  /* The same for 16-byte elements, whose tiles (4 x 4) write one line into
   * each dst row: on AMD EPYC (Zen 5) copy-random's f32, f64 and byte
   * transposes of that size ran 1.2-1.6x as fast streamed, its 16-byte
   * permutation with dst rows of 2 KiB at 0.46x (default: no). */
  bool midstream_wide;
  /* Streamed transposes whose dst rows are short (PACKED_ROW_BYTES or
   * less, copy_plan.c) and back to back transpose blocks of whole rows
   * into the staging buffer with cached stores and stream each block out
   * as one run, where line tiles would stream pieces of rows: on the GPU
   * machine's Xeon, copy-random's permutations with dst rows of 266 bytes
   * ran at 0.26x memcpy so (default: no). */
  bool packed;
  /* Staged transposes of 1- and 2-byte elements fill the buffer with line
   * tiles (64 / E src rows each) instead of narrow tiles (16 rows, each
   * staged line filled by several strips): on AMD EPYC (Zen 5), staging
   * forced, copy-random's staged byte and float16 transposes ran 1.2-2.9x
   * as fast so, on the GPU machine's Xeon 1.1-1.5x, where narrow tiles had
   * once won on a 4096 x 4096 byte transpose (default: no). */
  bool narrow_lines;
} cl_copy_tuning;

/* The smallest copy that the midstream choice streams: the size it is
 * measured on. */
#define CL_COPY_MIDSTREAM_BYTES ((int64_t)8 << 20)

/* The tuning for a copy of `bytes` bytes: forced, measured, cached or the
 * defaults, as above.  A copy of TUNE_LAZY_BYTES or more measures when
 * nothing is known yet (once per process and cache directory: a smaller
 * copy would pay more for the measurement than it could gain).  Never
 * fails: whatever cannot be read, measured or written leaves the
 * defaults. */
cl_copy_tuning cl_copy_tuning_for(int64_t bytes);

#define CL_COPY_TUNE_LAZY_BYTES ((int64_t)16 << 20)

#endif
