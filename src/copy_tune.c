/* SPDX-License-Identifier: BSD-3-Clause */
/* copy_tune.c: the host copy's strategies chosen for this processor by a
 * short measurement, remembered in a cache file as FFTW remembers its
 * wisdom (copy_tune.h says where each answer comes from).
 *
 * No rule names a vendor: the measurement times each candidate on a copy
 * that exercises it and keeps the faster.  What it settles (measured on
 * 2-core AMD EPYC and Intel Xeon machines, docs/performance.md, "Copies"):
 * whether streaming one line into each of many dst rows a multiple of 256
 * bytes apart is slow enough that staging pays (on AMD Zen 3 it ran at a
 * third of the speed of 256-byte runs; on Sapphire Rapids staging cost
 * 10-25%), separately for 1- and 2-byte elements, whose staging kernel is
 * another (on AMD Zen 5 it cost the byte transpose a quarter of its speed
 * while floats gained or lost a little from one measurement to the next),
 * and whether short src rows want a software prefetch. */
#define _POSIX_C_SOURCE 200809L
#include "copy_tune.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "copy_kernels.h"
#include "copy_plan.h"

#ifdef CL_COPY_X86
#include <cpuid.h>
#endif

static const cl_copy_tuning defaults = {.staged = false,
                                        .staged_narrow = false,
                                        .prefetch = true,
                                        .runs = true,
                                        .tall = false,
                                        .tall_narrow = false,
                                        .ahead = false,
                                        .gather = true,
                                        .midstream = false,
                                        .midstream_wide = false,
                                        .packed = false,
                                        .narrow_lines = false};

/* ------------------------------------------------------------ the environment */

/* Every choice: its member, its line in the cache file, and the words of
 * CUTELAYOUT_COPY_TUNE that force it on and off ("staged" and "direct"
 * force staged_narrow as well), in the file's order. */
#define CHOICE(m, key, on, off) {offsetof(cl_copy_tuning, m), key, on, off}
static const struct choice_name {
  size_t member;
  const char *key, *on, *off;
} choices[] = {
    CHOICE(staged, "staged", "staged", "direct"),
    CHOICE(staged_narrow, "staged-narrow", "narrow-staged", "narrow-direct"),
    CHOICE(prefetch, "prefetch", "prefetch", "noprefetch"),
    CHOICE(runs, "runs", "runs", "noruns"),
    CHOICE(tall, "tall", "tall", "notall"),
    CHOICE(tall_narrow, "tall-narrow", "narrow-tall", "narrow-notall"),
    CHOICE(ahead, "ahead", "ahead", "noahead"),
    CHOICE(gather, "gather", "gather", "nogather"),
    CHOICE(midstream, "midstream", "midstream", "nomidstream"),
    CHOICE(midstream_wide, "midstream-wide", "wide-midstream", "wide-nomidstream"),
    CHOICE(packed, "packed", "packed", "nopacked"),
    CHOICE(narrow_lines, "narrow-lines", "narrow-lines", "narrow-nolines"),
};
#undef CHOICE
#define CHOICES (sizeof choices / sizeof choices[0])

/* The choice at byte `offset` of *t (an offsetof of a bool member). */
static bool *flag_at(cl_copy_tuning *t, size_t offset) { return (bool *)((char *)t + offset); }

static bool *member(cl_copy_tuning *t, size_t k) { return flag_at(t, choices[k].member); }

/* The choices forced by the environment: -1 none, else 0 or 1. */
typedef struct forced {
  bool off;
  int value[CHOICES];
} forced;

/* The places of staged and staged_narrow in choices. */
enum { STAGED = 0, STAGED_NARROW = 1 };

/* Forces choice k, and staged_narrow with staged. */
static void force(forced *f, size_t k, bool on) {
  f->value[k] = on;
  if (k == STAGED)
    f->value[STAGED_NARROW] = on;
}

static forced read_env(void) {
  forced f = {false, {0}};
  for (size_t k = 0; k < CHOICES; k++)
    f.value[k] = -1;
  const char *tune = getenv("CUTELAYOUT_COPY_TUNE");
  if (tune != NULL && strcmp(tune, "off") == 0) {
    f.off = true;
  } else if (tune != NULL) {
    /* Room for every word at once: a list cut short would drop its last
     * words silently (64 bytes held only the first 63 of
     * "direct,tall,prefetch,noruns,gather,narrow-tall,narrow-direct,ahead"). */
    char buf[512];
    snprintf(buf, sizeof buf, "%s", tune);
    char *save = NULL;
    for (char *w = strtok_r(buf, ",", &save); w != NULL; w = strtok_r(NULL, ",", &save))
      for (size_t k = 0; k < CHOICES; k++)
        if (strcmp(w, choices[k].on) == 0 || strcmp(w, choices[k].off) == 0)
          force(&f, k, strcmp(w, choices[k].on) == 0);
  }
  const char *staging = getenv("CUTELAYOUT_COPY_STAGING");
  if (staging != NULL && (strcmp(staging, "0") == 0 || strcmp(staging, "1") == 0))
    force(&f, STAGED, staging[0] == '1');
  return f;
}

static cl_copy_tuning apply(cl_copy_tuning t, forced f) {
  for (size_t k = 0; k < CHOICES; k++)
    if (f.value[k] >= 0)
      *member(&t, k) = f.value[k] == 1;
  return t;
}

/* Whether some choice is left to the measurement or the file. */
static bool any_unforced(forced f) {
  for (size_t k = 0; k < CHOICES; k++)
    if (f.value[k] < 0)
      return true;
  return false;
}

/* ------------------------------------------------------------ the cache file */

/* 2: with runs; 3: with staged-narrow and tall; 4: with gather; 5: with
 * tall-narrow and ahead; 6: with midstream, midstream-wide, packed and
 * narrow-lines. */
#define WISDOM_HEADER "cute-layout copy wisdom 6"
#define WISDOM_NAME "copy-wisdom"
#define PATH_CAP 4096

/* The processor's model name (its brand string), which keys the file. */
static void processor_name(char *out, size_t cap) {
  snprintf(out, cap, "unknown");
#ifdef CL_COPY_X86
  unsigned regs[12];
  if (__get_cpuid_max(0x80000000u, NULL) < 0x80000004u)
    return;
  for (unsigned k = 0; k < 3; k++)
    __get_cpuid(0x80000002u + k, &regs[4 * k], &regs[4 * k + 1], &regs[4 * k + 2], &regs[4 * k + 3]);
  char brand[49];
  memcpy(brand, regs, 48);
  brand[48] = '\0';
  char *b = brand;
  while (*b == ' ')
    b++;
  size_t n = strlen(b);
  while (n > 0 && b[n - 1] == ' ')
    b[--n] = '\0';
  for (char *c = b; *c; c++)
    if (*c == '\n' || *c == '\r')
      *c = ' ';
  if (n > 0)
    snprintf(out, cap, "%s", b);
#endif
}

/* The directory of the cache file: $XDG_CACHE_HOME/cute-layout (an absolute
 * path, as the XDG specification wants) or $HOME/.cache/cute-layout; false
 * when there is neither. */
static bool cache_dir(char *out, size_t cap) {
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  int n;
  if (xdg != NULL && xdg[0] == '/')
    n = snprintf(out, cap, "%s/cute-layout", xdg);
  else if (home != NULL && home[0] == '/')
    n = snprintf(out, cap, "%s/.cache/cute-layout", home);
  else
    return false;
  return n > 0 && (size_t)n + sizeof WISDOM_NAME + 16 < cap;
}

/* The file's text for tuning t: a header, the key, the choices. */
static int wisdom_text(char *out, size_t cap, const char *processor, cl_copy_tuning t) {
  int n = snprintf(out, cap, "%s\nlibrary %s\nprocessor %s\n", WISDOM_HEADER, CUTELAYOUT_VERSION_STRING, processor);
  for (size_t k = 0; k < CHOICES && n > 0 && (size_t)n < cap; k++)
    n += snprintf(out + n, cap - (size_t)n, "%s %d\n", choices[k].key, *member(&t, k));
  return n;
}

/* Reads the file in dir: true, with *t, only when it is whole and names this
 * processor and this library. */
static bool read_wisdom(const char *dir, const char *processor, cl_copy_tuning *t) {
  char path[PATH_CAP], text[1024];
  snprintf(path, sizeof path, "%s/%s", dir, WISDOM_NAME);
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return false;
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  /* Each choice's value from its line, then the file must be exactly what
   * wisdom_text writes for those values, or it is not used. */
  cl_copy_tuning c = defaults;
  for (size_t k = 0; k < CHOICES; k++) {
    char line[32];
    snprintf(line, sizeof line, "\n%s ", choices[k].key);
    const char *at = strstr(text, line);
    if (at == NULL)
      return false;
    *member(&c, k) = at[strlen(line)] == '1';
  }
  char expect[1024];
  wisdom_text(expect, sizeof expect, processor, c);
  if (strcmp(text, expect) != 0)
    return false;
  *t = c;
  return true;
}

/* mkdir -p of dir's last two components at most (the cache home, then
 * cute-layout); errors show up when the file is written. */
static void make_dirs(const char *dir) {
  char parent[PATH_CAP];
  snprintf(parent, sizeof parent, "%s", dir);
  char *slash = strrchr(parent, '/');
  if (slash != NULL && slash != parent) {
    *slash = '\0';
    mkdir(parent, 0755);
  }
  mkdir(dir, 0755);
}

/* Writes the file atomically: a temporary file in the same directory,
 * renamed over the old one, so a reader sees the old file or the new one,
 * whole.  Failures are silent: the cache is an optimisation. */
static void write_wisdom(const char *dir, const char *processor, cl_copy_tuning t) {
  char path[PATH_CAP], tmp[PATH_CAP], text[1024];
  make_dirs(dir);
  snprintf(path, sizeof path, "%s/%s", dir, WISDOM_NAME);
  snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, WISDOM_NAME);
  int fd = mkstemp(tmp);
  if (fd < 0)
    return;
  int n = wisdom_text(text, sizeof text, processor, t);
  bool ok = n > 0 && write(fd, text, (size_t)n) == (ssize_t)n;
  ok = close(fd) == 0 && ok;
  if (!ok || rename(tmp, path) != 0)
    unlink(tmp);
}

/* ------------------------------------------------------------ measuring */

/* Each candidate is timed on copies of this many bytes, this many times,
 * alternating with its rival; the faster minimum wins.  Six copies of
 * 8 MiB per candidate and eight choices keep the whole measurement near
 * half a second on a 2-core AMD EPYC shared with compilers.  With
 * three, on that machine, the float staging choice came out one way or
 * the other from one call to the next.
 *
 * Each copy takes the next of CAL_SLICES slices of CAL_BYTES on each side,
 * so that its source is not left in the last-level cache by the copy
 * before: the choices are for copies of 16 MiB and more, which come from
 * memory.  Timed on one slice again and again, on AMD Zen 5, staging the
 * float transpose looked 1.2-1.3x faster and was 0.9-1.0x as fast from
 * memory, and prefetching the permutation looked the same either way and
 * was 1.3-1.4x faster from memory: the old measurement chose as much by
 * chance as by the processor. */
#define CAL_BYTES ((int64_t)8 << 20)
#define CAL_SLICES 4
#define CAL_REPS 5

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A copy of `elem`-byte elements to measure: dst <- src, layouts as text.
 * A large copy's choices are timed with streaming stores, each copy on the
 * next slices (from memory); a midsize copy's (midstream, midstream_wide)
 * with the stores that the tuning gives a copy of its size, on the same
 * slices every time, where its data can stay in the last-level cache as
 * that of repeated copies of this size does. */
typedef struct cal_copy {
  const char *dtext, *stext;
  size_t elem;
  bool midsize;
} cal_copy;

/* The measurement's buffers, CAL_SLICES slices of CAL_BYTES each, and the
 * slice the next copy takes. */
typedef struct cal_buffers {
  char *d, *s;
  int64_t next;
} cal_buffers;

/* The copy c on the next slices of b (its own when midsize), planned with
 * tuning t and the stores c takes, run once; its time in ns, or -1. */
static int64_t time_copy(cal_buffers *b, cal_copy c, cl_copy_tuning t) {
  int64_t slice = c.midsize ? 0 : b->next++ % CAL_SLICES * CAL_BYTES;
  char *dbuf = b->d + slice, *sbuf = b->s + slice;
  cl_layout_t *dl = NULL, *sl = NULL;
  cl_tensor_t *dst = NULL, *src = NULL;
  int64_t ns = -1;
  if (cl_layout_parse(c.dtext, &dl) == CL_OK && cl_layout_parse(c.stext, &sl) == CL_OK &&
      cl_tensor_new(dbuf, c.elem, dl, &dst) == CL_OK && cl_tensor_new(sbuf, c.elem, sl, &src) == CL_OK) {
    cl_leaves fd, fs;
    if (cl_leaves_init(&fd, dst->layout, true) == CL_OK) {
      if (cl_leaves_init(&fs, src->layout, true) == CL_OK) {
        cl_copy_job job;
        cl_copy_stores_t stores = c.midsize ? CL_COPY_STORES_AUTO : CL_COPY_STORES_STREAMING;
        if (cl_copy_job_make(&job, dst, &fd, &fs, stores, &t) == CL_OK) {
          int64_t t0 = now_ns();
          if (cl_copy_job_run(&job, dbuf, sbuf, 1, NULL) == CL_OK)
            ns = now_ns() - t0;
          cl_copy_job_release(&job);
        }
        cl_leaves_release(&fs);
      }
      cl_leaves_release(&fd);
    }
  }
  cl_tensor_free(dst);
  cl_tensor_free(src);
  cl_layout_free(dl);
  cl_layout_free(sl);
  return ns;
}

/* A choice (a bool member of cl_copy_tuning, at byte `choice`) and the
 * copy it is timed on, with the member at byte `with` set in both
 * candidates (where the choice only concerns copies that another choice
 * leads to; `with` == `choice`: none). */
typedef struct cal_choice {
  size_t choice;
  cal_copy copy;
  size_t with;
} cal_choice;

/* The best time of candidate a and of b on the copy c: each run once to warm
 * up, then CAL_REPS alternating runs, each candidate's minimum; *ok is
 * cleared when a run fails. */
static void best_times(cal_buffers *buf, cal_copy c, cl_copy_tuning a, cl_copy_tuning b, int64_t *best_a,
                       int64_t *best_b, bool *ok) {
  *best_a = *best_b = INT64_MAX;
  for (int r = 0; r <= CAL_REPS; r++) {
    int64_t ta = time_copy(buf, c, a), tb = time_copy(buf, c, b);
    if (ta < 0 || tb < 0) {
      *ok = false;
      return;
    }
    if (r > 0 && ta < *best_a)
      *best_a = ta;
    if (r > 0 && tb < *best_b)
      *best_b = tb;
  }
}

/* Flips the choice c of *t when the flipped tuning runs c's copy faster. */
static void choose_by_timing(cal_buffers *buf, const cal_choice *c, cl_copy_tuning *t, bool *ok) {
  cl_copy_tuning mine = *t;
  if (c->with != c->choice)
    *flag_at(&mine, c->with) = true;
  cl_copy_tuning other = mine;
  bool *flipped = flag_at(&other, c->choice);
  *flipped = !*flipped;
  int64_t best_mine, best_other;
  best_times(buf, c->copy, mine, other, &best_mine, &best_other, ok);
  if (*ok && best_other < best_mine)
    *flag_at(t, c->choice) = *flipped;
}

/* Measures each choice on a copy that exercises it:
 *   staged: 1024 x 2048 floats transposed, dst rows 4 KiB apart;
 *   narrow_lines: 2048 x 4096 bytes transposed, dst rows 2 KiB apart,
 *   staged in both candidates (whether staging pays is timed next, with
 *   the tiles this chose);
 *   staged_narrow: the same copy;
 *   prefetch and tall: 128^3 floats permuted (2,0,1) (numpy's order), src
 *   rows of 512 bytes, back to back;
 *   tall_narrow: 128 x 256 x 256 bytes permuted (2,0,1), src rows of 256
 *   bytes, back to back;
 *   ahead: 1000 x 2000 floats transposed, src rows of 8000 bytes;
 *   runs: 1001 x 2000 floats transposed, dst rows 4004 bytes apart, so
 *   they start at every offset in a line;
 *   gather: 441505 x 19 bytes transposed, src rows of 19 bytes (short
 *   tiles, else an element at a time): the bytes the gathers are for; a
 *   float transpose with 36-byte rows, timed before, came out even on AMD
 *   Zen 5 (1.79 ms either way), so the choice fell by chance, while bytes
 *   took 2.0-2.6 ms gathered against 4.8-8.3 ms not;
 *   midstream: 2048 x 1024 floats transposed (8 MiB, the smallest copy the
 *   choice concerns), dst rows 4 KiB apart, a midsize copy (above);
 *   midstream_wide: 4096 x 128 16-byte elements, dst rows 2 KiB apart,
 *   each taking a line of every row per tile, a midsize copy: on AMD EPYC
 *   (Zen 5) streaming won the float transpose by 1.1-1.3x and lost this
 *   one by 2.4-2.5x, while on the GPU machine's Xeon copy-random's
 *   transposes of both kinds ran 1.7-2.5x as fast streamed;
 *   packed: 31500 x 133 2-byte elements transposed, dst rows of 266 bytes,
 *   back to back. */
static cl_status measure(cl_copy_tuning *out) {
  const size_t bytes = (size_t)(CAL_SLICES * CAL_BYTES);
  char *dbuf = cl_alloc(bytes), *sbuf = cl_alloc(bytes);
  cl_status s = CL_OK;
  if (dbuf == NULL || sbuf == NULL) {
    s = cl_fail(CL_E_NOMEM, "out of memory");
  } else {
    memset(dbuf, 0, bytes);
    memset(sbuf, 0x5a, bytes); /* every page touched before the timings */
    cal_buffers buf = {dbuf, sbuf, 0};
    /* In this order: prefetch and tall are timed on the same copy, and each
     * choice is timed with the ones before it settled. */
    /* Each choice timed alone, or WITH another set in both candidates. */
#define ALONE(m, d, s, e, midsize) {offsetof(cl_copy_tuning, m), {d, s, e, midsize}, offsetof(cl_copy_tuning, m)}
#define WITH(m, w, d, s, e, midsize) {offsetof(cl_copy_tuning, m), {d, s, e, midsize}, offsetof(cl_copy_tuning, w)}
    static const cal_choice timed[] = {
        ALONE(staged, "(1024,2048):(1,1024)", "(1024,2048):(2048,1)", 4, false),
        WITH(narrow_lines, staged_narrow, "(2048,4096):(1,2048)", "(2048,4096):(4096,1)", 1, false),
        ALONE(staged_narrow, "(2048,4096):(1,2048)", "(2048,4096):(4096,1)", 1, false),
        ALONE(prefetch, "(128,128,128):(128,1,16384)", "(128,128,128):(16384,128,1)", 4, false),
        ALONE(tall, "(128,128,128):(128,1,16384)", "(128,128,128):(16384,128,1)", 4, false),
        ALONE(tall_narrow, "(128,256,256):(256,1,32768)", "(128,256,256):(65536,256,1)", 1, false),
        ALONE(ahead, "(1000,2000):(1,1000)", "(1000,2000):(2000,1)", 4, false),
        ALONE(runs, "(1001,2000):(1,1001)", "(1001,2000):(2000,1)", 4, false),
        ALONE(gather, "(441505,19):(1,441505)", "(441505,19):(19,1)", 1, false),
        ALONE(midstream, "(1024,2048):(1,1024)", "(1024,2048):(2048,1)", 4, true),
        ALONE(midstream_wide, "(128,4096):(1,128)", "(128,4096):(4096,1)", 16, true),
        ALONE(packed, "(133,31500):(1,133)", "(133,31500):(31500,1)", 2, false),
    };
#undef ALONE
#undef WITH
    bool ok = true;
    cl_copy_tuning t = defaults;
    for (size_t k = 0; k < sizeof timed / sizeof timed[0]; k++)
      choose_by_timing(&buf, &timed[k], &t, &ok);
    if (ok)
      *out = t;
    else
      s = cl_fail(CL_E_NOMEM, "copy calibration: out of memory");
  }
  cl_dealloc(dbuf);
  cl_dealloc(sbuf);
  return s;
}

/* ------------------------------------------------------------ the process's answer */

/* What this process knows, for the cache directory `dir` ("" when there is
 * none); guarded by lock, as copies may run in several threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
  bool known;
  char dir[PATH_CAP];
  cl_copy_tuning tuning;
} state;

/* Settles the tuning for the current cache directory: the file, else a
 * measurement (then written to the file), else the defaults.  Under lock. */
static void settle(const char *dir) {
  char processor[64];
  processor_name(processor, sizeof processor);
  cl_copy_tuning t = defaults;
  if (dir[0] == '\0' || !read_wisdom(dir, processor, &t)) {
    if (measure(&t) == CL_OK) {
      if (dir[0] != '\0')
        write_wisdom(dir, processor, t);
    } else {
      t = defaults;
    }
  }
  state.known = true;
  snprintf(state.dir, sizeof state.dir, "%s", dir);
  state.tuning = t;
}

cl_copy_tuning cl_copy_tuning_for(int64_t bytes) {
  forced f = read_env();
  if (f.off)
    return apply(defaults, f);
  cl_copy_tuning t = defaults;
  if (any_unforced(f)) {
    char dir[PATH_CAP];
    if (!cache_dir(dir, sizeof dir))
      dir[0] = '\0';
    pthread_mutex_lock(&lock);
    if (bytes >= CL_COPY_TUNE_LAZY_BYTES && (!state.known || strcmp(state.dir, dir) != 0))
      settle(dir);
    if (state.known)
      t = state.tuning;
    pthread_mutex_unlock(&lock);
  }
  return apply(t, f);
}

cl_status cl_copy_calibrate(void) {
  char dir[PATH_CAP];
  if (!cache_dir(dir, sizeof dir))
    dir[0] = '\0';
  char processor[64];
  processor_name(processor, sizeof processor);
  pthread_mutex_lock(&lock);
  cl_copy_tuning t;
  cl_status s = measure(&t);
  if (s == CL_OK) {
    state.known = true;
    snprintf(state.dir, sizeof state.dir, "%s", dir);
    state.tuning = t;
    if (dir[0] != '\0')
      write_wisdom(dir, processor, t);
  }
  pthread_mutex_unlock(&lock);
  return s;
}
