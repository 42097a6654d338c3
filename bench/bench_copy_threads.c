/* SPDX-License-Identifier: BSD-3-Clause */
/* bench_copy_threads.c: the `copy-threads` group of cute-layout-bench: large
 * transposes and permutations (256 MiB) split between T threads
 * (cl_copy_options_t's threads), each against memcpy of the same bytes split
 * between T threads the same way (T contiguous pieces, a thread created per
 * piece and call, as the copy does), timed run for run in this process.
 * T = 2, 4, 8 and 16, or the comma-separated list in
 * CUTE_LAYOUT_BENCH_THREAD_LIST.  Lines:
 *   copy-threads/<workload>-<T>threads  <GB/s>  <ratio>x memcpy-<T>threads */
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cutelayout/cutelayout.h>

#include "bench_util.h"

#define BYTES ((size_t)256 << 20)
#define PAIRED_RUNS 5
#define MAX_T 64

typedef struct threads_case {
  const cl_tensor_t *dst, *src;
  char *dst_mem, *src_mem;
  size_t bytes;
  int threads;
} threads_case;

static void run_copy(void *ctx, int64_t iters) {
  threads_case *c = ctx;
  cl_copy_options_t opt = {sizeof opt, CL_COPY_STORES_AUTO, c->threads, NULL};
  for (int64_t k = 0; k < iters; k++) {
    bench_check(cl_tensor_copy_ex(c->dst, c->src, &opt), "cl_tensor_copy_ex");
    bench_clobber();
  }
}

typedef struct piece {
  char *d;
  const char *s;
  size_t n;
} piece;

static void *copy_piece(void *arg) {
  piece *p = arg;
  memcpy(p->d, p->s, p->n);
  return NULL;
}

/* memcpy of the bytes in `threads` contiguous pieces, one thread each (the
 * first on the calling thread). */
static void run_memcpy(void *ctx, int64_t iters) {
  threads_case *c = ctx;
  int t = c->threads;
  piece p[MAX_T];
  pthread_t tid[MAX_T];
  for (int64_t k = 0; k < iters; k++) {
    for (int i = 0; i < t; i++) {
      size_t lo = c->bytes * (size_t)i / (size_t)t / 64 * 64, hi = c->bytes * (size_t)(i + 1) / (size_t)t / 64 * 64;
      if (i == t - 1)
        hi = c->bytes;
      p[i] = (piece){c->dst_mem + lo, c->src_mem + lo, hi - lo};
    }
    for (int i = 1; i < t; i++)
      if (pthread_create(&tid[i], NULL, copy_piece, &p[i]) != 0) {
        fprintf(stderr, "cute-layout-bench: copy-threads: cannot create a thread\n");
        exit(1);
      }
    copy_piece(&p[0]);
    for (int i = 1; i < t; i++)
      pthread_join(tid[i], NULL);
    bench_clobber();
  }
}

static void run_case(const char *name, const char *dst_text, const char *src_text, size_t elem, const int *ts, int nt,
                     char *dst_mem, char *src_mem) {
  cl_layout_t *dl, *sl;
  bench_check(cl_layout_parse(dst_text, &dl), dst_text);
  bench_check(cl_layout_parse(src_text, &sl), src_text);
  cl_tensor_t *dst, *src;
  bench_check(cl_tensor_new(dst_mem, elem, dl, &dst), "cl_tensor_new");
  bench_check(cl_tensor_new(src_mem, elem, sl, &src), "cl_tensor_new");
  threads_case c = {dst, src, dst_mem, src_mem, (size_t)cl_layout_size(dl) * elem, 1};
  for (int k = 0; k < nt; k++) {
    c.threads = ts[k];
    bench_pair pair = bench_compare_runs(run_memcpy, &c, run_copy, &c, 1, PAIRED_RUNS);
    char line[128], base[32];
    snprintf(line, sizeof line, "%s-%dthreads", name, ts[k]);
    snprintf(base, sizeof base, "memcpy-%dthreads", ts[k]);
    bench_report("copy-threads", line, 2.0 * (double)c.bytes / pair.b * 1e-9, "GB/s", pair.ratio, base);
  }
  cl_tensor_free(dst);
  cl_tensor_free(src);
  cl_layout_free(dl);
  cl_layout_free(sl);
}

void bench_copy_threads(void);
void bench_copy_threads(void) {
  int ts[16] = {2, 4, 8, 16}, nt = 4;
  const char *list = getenv("CUTE_LAYOUT_BENCH_THREAD_LIST");
  if (list != NULL) {
    nt = 0;
    for (const char *p = list; *p && nt < 16;) {
      int t = atoi(p);
      if (t >= 1 && t <= MAX_T)
        ts[nt++] = t;
      p = strchr(p, ',');
      if (p == NULL)
        break;
      p++;
    }
  }
  char *src_mem = aligned_alloc(64, BYTES), *dst_mem = aligned_alloc(64, BYTES);
  if (src_mem == NULL || dst_mem == NULL) {
    fprintf(stderr, "cute-layout-bench: copy-threads: out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < BYTES; i++)
    src_mem[i] = (char)(i * 7 + i / 4093);
  memset(dst_mem, 0, BYTES);
  run_case("transpose-8192x8192", "(8192,8192):(8192,1)", "(8192,8192):(1,8192)", 4, ts, nt, dst_mem, src_mem);
  run_case("transpose-16384x16384-u8", "(16384,16384):(16384,1)", "(16384,16384):(1,16384)", 1, ts, nt, dst_mem,
           src_mem);
  run_case("transpose-8192x4096-f64", "(8192,4096):(4096,1)", "(8192,4096):(1,8192)", 8, ts, nt, dst_mem, src_mem);
  /* numpy's a.transpose(2,0,1).copy() of a row-major 256x512x512 float array. */
  run_case("permute-256x512x512-201", "(512,512,256):(131072,1,512)", "(512,512,256):(1,512,262144)", 4, ts, nt,
           dst_mem, src_mem);
  free(src_mem);
  free(dst_mem);
}
