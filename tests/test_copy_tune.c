/* SPDX-License-Identifier: BSD-3-Clause */
/* test_copy_tune.c: the host copy's choice of strategies (copy_tune.c):
 * every forced choice copies the same bytes, CUTELAYOUT_COPY_TUNE forces
 * and turns off, and the cache file is used when it is whole and this
 * processor's and version's, measured and rewritten when it is missing,
 * corrupt or another version's, and skipped silently when it cannot be
 * written.
 *
 * Which choice is in force shows in the plan's flags of copies of 16 MiB
 * (the size from which a copy settles the choice): a transpose whose dst
 * rows are 8 KiB apart (STAGED when staging is chosen), the same of bytes
 * (STAGED when staging is chosen for 1- and 2-byte elements), a
 * permutation with src rows of 512 bytes (PREFETCH when prefetching is),
 * a transpose whose dst rows are 8196 bytes apart, so at every offset
 * in a line (STAGED when their runs are streamed), and a transpose whose
 * src run takes every other element (GATHERED when gathers are chosen);
 * a transpose of 8 MiB (STREAMING when transposes that size stream), the
 * same of 16-byte elements (a float64 vector of 2, STREAMING likewise); and
 * one whose dst rows are 128 bytes, back to back (STAGED when packed).
 * The process remembers its choice per cache directory, so each case
 * points XDG_CACHE_HOME at a fresh one. */
#define _POSIX_C_SOURCE 200809L /* setenv, mkdtemp */
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

#define BIG ((size_t)17 << 20) /* 16 MiB and the padding of runs_now's rows */

static char *big_d, *big_s;

/* The plan flags of the 16 MiB copy dtext <- stext of type `type`. */
static unsigned big_flags_of(const char *dtext, const char *stext, cl_dtype type) {
  cl_layout_t *dl = lay(dtext), *sl = lay(stext);
  cl_tensor_t *d = NULL, *s = NULL;
  assert_int_equal(cl_tensor_new_typed(big_d, type, dl, &d), CL_OK);
  assert_int_equal(cl_tensor_new_typed(big_s, type, sl, &s), CL_OK);
  cl_copy_plan_t *plan = calloc(1, sizeof *plan);
  plan->struct_size = sizeof *plan;
  assert_int_equal(cl_tensor_copy_plan(d, s, NULL, plan), CL_OK);
  unsigned flags = plan->flags;
  free(plan);
  cl_tensor_free(d);
  cl_tensor_free(s);
  cl_layout_free(dl);
  cl_layout_free(sl);
  return flags;
}

/* The same of floats. */
static unsigned big_flags(const char *dtext, const char *stext) {
  return big_flags_of(dtext, stext, CL_DTYPE_FLOAT32);
}

static bool staged_now(void) {
  return (big_flags("(2048,2048):(1,2048)", "(2048,2048):(2048,1)") & CL_COPY_PLAN_STAGED) != 0;
}
static bool narrow_staged_now(void) {
  return (big_flags_of("(4096,4096):(1,4096)", "(4096,4096):(4096,1)", CL_DTYPE_UINT8) & CL_COPY_PLAN_STAGED) != 0;
}
static bool runs_now(void) {
  return (big_flags("(2048,2048):(1,2049)", "(2048,2048):(2048,1)") & CL_COPY_PLAN_STAGED) != 0;
}
static bool gathered_now(void) {
  return (big_flags("(2048,2048):(1,2048)", "(2048,2048):(4097,2)") & CL_COPY_PLAN_GATHERED) != 0;
}
/* 8 MiB: under the size from which a copy streams by default. */
static bool midstream_now(void) {
  return (big_flags("(1024,2048):(1,1024)", "(1024,2048):(2048,1)") & CL_COPY_PLAN_STREAMING) != 0;
}
static bool midstream_wide_now(void) {
  return (big_flags_of("(2,128,4096):(1,2,256)", "(2,128,4096):(1,8192,2)", CL_DTYPE_FLOAT64) &
          CL_COPY_PLAN_STREAMING) != 0;
}
static bool packed_now(void) {
  return (big_flags("(32,131072):(1,32)", "(32,131072):(131072,1)") & CL_COPY_PLAN_STAGED) != 0;
}
static bool prefetched_now(void) {
  return (big_flags("(128,128,256):(128,1,16384)", "(128,128,256):(16384,128,1)") & CL_COPY_PLAN_PREFETCH) != 0;
}

/* ------------------------------------------------------------ the cache directory */

static char root[64];
static int dirs;

/* A fresh XDG_CACHE_HOME under root (not created: the library makes it);
 * its wisdom file's path in *file. */
static void fresh_cache(char *file, size_t cap) {
  char home[128];
  snprintf(home, sizeof home, "%s/c%d", root, dirs++);
  setenv("XDG_CACHE_HOME", home, 1);
  snprintf(file, cap, "%s/cute-layout/copy-wisdom", home);
}

/* Creates the directories of a cache file and writes text into it. */
static void plant(const char *file, const char *text) {
  char dir[256];
  snprintf(dir, sizeof dir, "%s", file);
  *strrchr(dir, '/') = '\0';
  char home[256];
  snprintf(home, sizeof home, "%s", dir);
  *strrchr(home, '/') = '\0';
  mkdir(home, 0700);
  mkdir(dir, 0700);
  FILE *f = fopen(file, "wb");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static char *slurp(const char *file) {
  static char text[1024];
  FILE *f = fopen(file, "rb");
  if (f == NULL)
    return NULL;
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  return text;
}

/* The value of line `key` of a wisdom text: -1 when absent. */
static int value_of(const char *text, const char *key) {
  char pat[32];
  snprintf(pat, sizeof pat, "\n%s ", key);
  const char *p = strstr(text, pat);
  return p ? atoi(p + strlen(pat)) : -1;
}

/* A well-formed file as this library writes it: header, library version,
 * processor, choices. */
static void expect_wisdom(const char *file) {
  const char *text = slurp(file);
  assert_non_null(text);
  assert_true(strncmp(text, "cute-layout copy wisdom 6\nlibrary ", 34) == 0);
  assert_non_null(strstr(text, "\nlibrary " CUTELAYOUT_VERSION_STRING "\nprocessor "));
  int staged = value_of(text, "staged"), narrow = value_of(text, "staged-narrow");
  int prefetch = value_of(text, "prefetch"), runs = value_of(text, "runs"), tall = value_of(text, "tall");
  int gather = value_of(text, "gather"), tall_narrow = value_of(text, "tall-narrow");
  int ahead = value_of(text, "ahead"), midstream = value_of(text, "midstream"), packed = value_of(text, "packed");
  int wide = value_of(text, "midstream-wide"), lines = value_of(text, "narrow-lines");
  assert_true(wide == 0 || wide == 1);
  assert_true(lines == 0 || lines == 1);
  assert_true(midstream == 0 || midstream == 1);
  assert_true(packed == 0 || packed == 1);
  assert_true(gather == 0 || gather == 1);
  assert_true(tall_narrow == 0 || tall_narrow == 1);
  assert_true(ahead == 0 || ahead == 1);
  assert_true(staged == 0 || staged == 1);
  assert_true(tall == 0 || tall == 1);
  assert_true(narrow == 0 || narrow == 1);
  assert_true(prefetch == 0 || prefetch == 1);
  assert_true(runs == 0 || runs == 1);
  /* The choice measured is the one in force. */
  assert_int_equal(staged_now(), staged == 1);
  assert_int_equal(narrow_staged_now(), narrow == 1);
  assert_int_equal(prefetched_now(), prefetch == 1);
  assert_int_equal(runs_now(), runs == 1);
  assert_int_equal(gathered_now(), gather == 1);
  assert_int_equal(midstream_now(), midstream == 1);
  assert_int_equal(packed_now(), packed == 1);
  assert_int_equal(midstream_wide_now(), wide == 1);
}

/* ------------------------------------------------------------ tests */

/* Missing: the first 16 MiB copy measures and writes the file; a smaller
 * copy before it does neither. */
static char measured[1024]; /* the file the first case wrote, for the others */
static void test_cache_missing(void **state) {
  (void)state;
  char file[256];
  fresh_cache(file, sizeof file);
  assert_null(slurp(file));
  float a[64 * 64], b[64 * 64];
  cl_tensor_t *d = NULL, *s = NULL;
  cl_layout_t *dl = lay("(64,64):(1,64)"), *sl = lay("(64,64):(64,1)");
  assert_int_equal(cl_tensor_new_typed(b, CL_DTYPE_FLOAT32, dl, &d), CL_OK);
  assert_int_equal(cl_tensor_new_typed(a, CL_DTYPE_FLOAT32, sl, &s), CL_OK);
  for (int k = 0; k < 64 * 64; k++)
    a[k] = (float)k;
  assert_int_equal(cl_tensor_copy(d, s), CL_OK);
  assert_true(b[1] == 64.0f);
  assert_null(slurp(file));
  cl_tensor_free(d);
  cl_tensor_free(s);
  cl_layout_free(dl);
  cl_layout_free(sl);
  big_flags("(2048,2048):(1,2048)", "(2048,2048):(2048,1)");
  expect_wisdom(file);
  snprintf(measured, sizeof measured, "%s", slurp(file));
}

/* A whole file of this processor and version is used as it stands: each
 * of the 256 choices of the first eight, planted, is the one in force, the
 * ninth (midstream) and the eleventh (midstream-wide) set by their parity
 * and the tenth (packed) by its opposite, so that these take both values
 * (nothing measured; the tall and ahead choices show in no plan flag, but
 * a file not taken would be rewritten with the measured choices, which the
 * loop cannot all match). */
static void test_cache_used(void **state) {
  (void)state;
  for (int k = 0; k < 256; k++) {
    char file[256], text[1024];
    fresh_cache(file, sizeof file);
    snprintf(text, sizeof text, "%s", measured);
    char *st = strstr(text, "\nstaged ") + 8, *pf = strstr(text, "\nprefetch ") + 10, *ru = strstr(text, "\nruns ") + 6;
    char *na = strstr(text, "\nstaged-narrow ") + 15, *ta = strstr(text, "\ntall ") + 6;
    char *ga = strstr(text, "\ngather ") + 8, *tn = strstr(text, "\ntall-narrow ") + 13;
    char *ah = strstr(text, "\nahead ") + 7, *ms = strstr(text, "\nmidstream ") + 11;
    const bool mid = __builtin_parity((unsigned)k) != 0;
    *ms = (char)('0' + mid);
    *(strstr(text, "\npacked ") + 8) = (char)('0' + !mid);
    *(strstr(text, "\nmidstream-wide ") + 16) = (char)('0' + mid);
    *st = (char)('0' + (k & 1));
    *pf = (char)('0' + ((k >> 1) & 1));
    *ru = (char)('0' + ((k >> 2) & 1));
    *na = (char)('0' + ((k >> 3) & 1));
    *ta = (char)('0' + ((k >> 4) & 1));
    *ga = (char)('0' + ((k >> 5) & 1));
    *tn = (char)('0' + ((k >> 6) & 1));
    *ah = (char)('0' + (k >> 7));
    plant(file, text);
    assert_int_equal(staged_now(), (k & 1) != 0);
    assert_int_equal(prefetched_now(), ((k >> 1) & 1) != 0);
    assert_int_equal(runs_now(), ((k >> 2) & 1) != 0);
    assert_int_equal(narrow_staged_now(), ((k >> 3) & 1) != 0);
    assert_int_equal(gathered_now(), ((k >> 5) & 1) != 0);
    assert_int_equal(midstream_now(), mid);
    assert_int_equal(packed_now(), !mid);
    assert_int_equal(midstream_wide_now(), mid);
    assert_string_equal(slurp(file), text);
  }
}

/* Corrupt or another version's: measured again and rewritten. */
static void test_cache_rewritten(void **state) {
  (void)state;
  char text[1024], format2[1024];
  snprintf(text, sizeof text, "%s", measured);
  char *version = strstr(text, "\nlibrary ") + 9;
  version[0] = version[0] == '9' ? '8' : '9'; /* another version */
  /* The previous formats: header 2, no staged-narrow line (nor tall,
   * gather); header 3, no gather line. */
  snprintf(format2, sizeof format2, "%s", measured);
  format2[strlen("cute-layout copy wisdom ")] = '2';
  char *narrow = strstr(format2, "\nstaged-narrow ");
  memmove(narrow, narrow + strlen("\nstaged-narrow 0"), strlen(narrow + strlen("\nstaged-narrow 0")) + 1);
  *strstr(format2, "\ntall ") = '\0';
  strcat(format2, "\n");
  assert_non_null(strstr(format2, "\nstaged "));
  assert_null(strstr(format2, "narrow"));
  char format3[1024];
  snprintf(format3, sizeof format3, "%s", measured);
  format3[strlen("cute-layout copy wisdom ")] = '3';
  *strstr(format3, "\ngather ") = '\0';
  strcat(format3, "\n");
  /* Header 4: no tall-narrow and ahead lines. */
  char format4[1024];
  snprintf(format4, sizeof format4, "%s", measured);
  format4[strlen("cute-layout copy wisdom ")] = '4';
  char *tall_narrow = strstr(format4, "\ntall-narrow ");
  const size_t cut = strlen("\ntall-narrow 0\nahead 0");
  memmove(tall_narrow, tall_narrow + cut, strlen(tall_narrow + cut) + 1);
  assert_null(strstr(format4, "tall-narrow"));
  assert_null(strstr(format4, "ahead"));
  assert_non_null(strstr(format4, "\ngather "));
  /* Header 5: no midstream line. */
  char format5[1024];
  snprintf(format5, sizeof format5, "%s", measured);
  format5[strlen("cute-layout copy wisdom ")] = '5';
  *strstr(format5, "\nmidstream ") = '\0';
  strcat(format5, "\n");
  assert_non_null(strstr(format5, "\nahead "));
  const char *bad[] = {"", "cute-layout copy wisdom 1\n", "garbage\x01\x02", text, format2, format3, format4, format5};
  for (size_t k = 0; k < COUNT_OF(bad); k++) {
    char file[256];
    fresh_cache(file, sizeof file);
    plant(file, bad[k]);
    staged_now();
    expect_wisdom(file);
  }
}

/* A cache that cannot be written (its directory would be inside a regular
 * file): the copy runs as usual and no file appears. */
static void test_cache_unwritable(void **state) {
  (void)state;
  char blocker[128], file[256];
  snprintf(blocker, sizeof blocker, "%s/blocker", root);
  FILE *f = fopen(blocker, "wb");
  assert_non_null(f);
  fclose(f);
  setenv("XDG_CACHE_HOME", blocker, 1);
  snprintf(file, sizeof file, "%s/cute-layout/copy-wisdom", blocker);
  unsigned flags = big_flags("(2048,2048):(1,2048)", "(2048,2048):(2048,1)");
  assert_true(flags == CL_COPY_PLAN_STREAMING || flags == (CL_COPY_PLAN_STREAMING | CL_COPY_PLAN_STAGED));
  assert_null(slurp(file));
  assert_int_equal(cl_copy_calibrate(), CL_OK);
  unlink(blocker);
}

/* Without an absolute XDG_CACHE_HOME the file goes under $HOME/.cache; with
 * neither, nothing is cached and copies still run. */
static void test_cache_home(void **state) {
  (void)state;
  char home[128], file[256];
  snprintf(home, sizeof home, "%s/home", root);
  mkdir(home, 0700);
  snprintf(file, sizeof file, "%s/.cache/cute-layout/copy-wisdom", home);
  const char *old_home = getenv("HOME");
  char saved[256];
  snprintf(saved, sizeof saved, "%s", old_home ? old_home : "");
  setenv("HOME", home, 1);
  setenv("XDG_CACHE_HOME", "relative/cache", 1);
  staged_now();
  expect_wisdom(file);
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  unsigned flags = big_flags("(2048,2048):(1,2048)", "(2048,2048):(2048,1)");
  assert_true(flags == CL_COPY_PLAN_STREAMING || flags == (CL_COPY_PLAN_STREAMING | CL_COPY_PLAN_STAGED));
  if (old_home != NULL)
    setenv("HOME", saved, 1);
}

/* CUTELAYOUT_COPY_TUNE: off leaves the defaults (direct, prefetch, runs, gather, no midstream, not packed) and reads
 * nothing; a list forces each named choice, the others as measured; an
 * unknown word is ignored. */
static void test_env(void **state) {
  (void)state;
  char file[256], text[1024];
  fresh_cache(file, sizeof file);
  snprintf(text, sizeof text, "%s", measured);
  *(strstr(text, "\nstaged ") + 8) = '1';
  *(strstr(text, "\nstaged-narrow ") + 15) = '0';
  *(strstr(text, "\nprefetch ") + 10) = '0';
  *(strstr(text, "\nruns ") + 6) = '0';
  *(strstr(text, "\ngather ") + 8) = '0';
  *(strstr(text, "\nmidstream ") + 11) = '1';
  *(strstr(text, "\npacked ") + 8) = '1';
  *(strstr(text, "\nmidstream-wide ") + 16) = '0';
  plant(file, text);
  setenv("CUTELAYOUT_COPY_TUNE", "off", 1);
  assert_false(staged_now());
  assert_false(narrow_staged_now());
  assert_true(prefetched_now());
  assert_true(runs_now());
  assert_true(gathered_now());
  assert_false(midstream_now());
  assert_false(midstream_wide_now());
  assert_false(packed_now());
  setenv("CUTELAYOUT_COPY_TUNE", "runs", 1);
  assert_true(runs_now());
  assert_false(gathered_now()); /* the file's */
  assert_true(midstream_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "nomidstream", 1);
  assert_false(midstream_now());
  assert_false(gathered_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "nogather,midstream", 1);
  assert_true(midstream_now());
  assert_true(packed_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "nopacked", 1);
  assert_false(packed_now());
  assert_true(midstream_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "nopacked,packed", 1);
  assert_true(packed_now());
  assert_false(midstream_wide_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "wide-midstream", 1);
  assert_true(midstream_wide_now());
  assert_true(midstream_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "nomidstream,wide-midstream,wide-nomidstream", 1);
  assert_false(midstream_wide_now());
  assert_false(midstream_now());
  setenv("CUTELAYOUT_COPY_TUNE", "gather", 1);
  assert_true(gathered_now());
  setenv("CUTELAYOUT_COPY_TUNE", "nogather", 1);
  assert_false(gathered_now());
  setenv("CUTELAYOUT_COPY_TUNE", "runs", 1);
  assert_true(staged_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "noruns", 1);
  assert_false(runs_now());
  assert_false(narrow_staged_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "direct", 1);
  assert_false(staged_now());
  assert_false(narrow_staged_now());
  assert_false(prefetched_now()); /* the file's */
  /* narrow-staged and narrow-direct force the choice of 1- and 2-byte
   * elements alone; later words win. */
  setenv("CUTELAYOUT_COPY_TUNE", "narrow-staged", 1);
  assert_true(narrow_staged_now());
  assert_true(staged_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "direct,narrow-staged", 1);
  assert_true(narrow_staged_now());
  assert_false(staged_now());
  setenv("CUTELAYOUT_COPY_TUNE", "narrow-staged,direct", 1);
  assert_false(narrow_staged_now());
  setenv("CUTELAYOUT_COPY_TUNE", "staged,narrow-direct", 1);
  assert_true(staged_now());
  assert_false(narrow_staged_now());
  /* tall and notall are read (the choice shows in no plan flag; test_copy
   * checks its copies) and leave the others as they were. */
  setenv("CUTELAYOUT_COPY_TUNE", "tall", 1);
  assert_true(staged_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "notall,noprefetch", 1);
  assert_false(prefetched_now());
  assert_true(staged_now());
  /* So are narrow-tall and narrow-notall (that of 1- and 2-byte elements). */
  setenv("CUTELAYOUT_COPY_TUNE", "narrow-tall,noruns", 1);
  assert_false(runs_now());
  assert_true(staged_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "narrow-notall", 1);
  assert_true(staged_now());
  assert_false(runs_now()); /* the file's */
  /* So are narrow-lines and narrow-nolines (test_copy checks their copies). */
  setenv("CUTELAYOUT_COPY_TUNE", "narrow-lines,noruns", 1);
  assert_false(runs_now());
  assert_true(staged_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "narrow-nolines", 1);
  assert_true(staged_now());
  assert_false(runs_now()); /* the file's */
  /* So are ahead and noahead. */
  setenv("CUTELAYOUT_COPY_TUNE", "ahead,gather", 1);
  assert_true(gathered_now());
  assert_true(staged_now()); /* the file's */
  setenv("CUTELAYOUT_COPY_TUNE", "noahead", 1);
  assert_false(gathered_now()); /* the file's */
  /* The older spelling forces both. */
  unsetenv("CUTELAYOUT_COPY_TUNE");
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
  assert_true(narrow_staged_now());
  assert_true(staged_now());
  setenv("CUTELAYOUT_COPY_STAGING", "0", 1);
  assert_false(narrow_staged_now());
  assert_false(staged_now());
  unsetenv("CUTELAYOUT_COPY_STAGING");
  setenv("CUTELAYOUT_COPY_TUNE", "prefetch", 1);
  assert_true(staged_now()); /* the file's */
  assert_true(prefetched_now());
  setenv("CUTELAYOUT_COPY_TUNE", "staged,noprefetch,turbo", 1);
  assert_true(staged_now());
  assert_false(prefetched_now());
  setenv("CUTELAYOUT_COPY_TUNE", "", 1);
  assert_true(staged_now());
  assert_false(prefetched_now());
  /* A long list is read to its end (a 64-byte copy of it once dropped the
   * words past its 63rd byte). */
  setenv("CUTELAYOUT_COPY_TUNE",
         "staged,narrow-staged,prefetch,runs,tall,narrow-tall,ahead,gather,noprefetch,nogather,direct", 1);
  assert_false(staged_now());
  assert_false(prefetched_now());
  assert_false(gathered_now());
  assert_true(runs_now());
  unsetenv("CUTELAYOUT_COPY_TUNE");
}

/* cl_copy_calibrate measures now and writes the file, over a planted one. */
static void test_calibrate(void **state) {
  (void)state;
  char file[256];
  fresh_cache(file, sizeof file);
  plant(file, "stale");
  assert_int_equal(cl_copy_calibrate(), CL_OK);
  expect_wisdom(file);
}

/* Allocations that fail: those of `big` bytes or more, and every one from
 * the `from`-th on (0: none). */
static struct {
  size_t big;
  long from, count;
} failing;

static void *failing_alloc(void *ctx, size_t size) {
  (void)ctx;
  if (size >= failing.big || (failing.from > 0 && ++failing.count >= failing.from))
    return NULL;
  return malloc(size);
}
static void *failing_realloc(void *ctx, void *ptr, size_t size) {
  (void)ctx;
  if (size >= failing.big || (failing.from > 0 && ++failing.count >= failing.from))
    return NULL;
  return realloc(ptr, size);
}
static void failing_free(void *ctx, void *ptr) {
  (void)ctx;
  free(ptr);
}

/* cl_copy_calibrate without memory: its buffers, or a plan it times, cannot
 * be had; CL_E_NOMEM, the file planted before left as it was, and the
 * choice in force still the file's. */
static void test_calibrate_nomem(void **state) {
  (void)state;
  char file[256], text[1024];
  fresh_cache(file, sizeof file);
  snprintf(text, sizeof text, "%s", measured);
  *(strstr(text, "\nstaged ") + 8) = '1';
  plant(file, text);
  assert_true(staged_now()); /* the file, read before memory runs out */
  const cl_allocator hook = {failing_alloc, failing_realloc, failing_free, NULL};
  const long from[] = {0, 3, 40};
  for (size_t k = 0; k < COUNT_OF(from); k++) {
    failing.big = k == 0 ? (size_t)1 << 20 : SIZE_MAX; /* the buffers; then a later allocation */
    failing.from = from[k];
    failing.count = 0;
    assert_int_equal(cl_set_allocator(&hook), CL_OK);
    cl_status s = cl_copy_calibrate();
    assert_int_equal(cl_set_allocator(NULL), CL_OK);
    assert_int_equal(s, CL_E_NOMEM);
    assert_non_null(strstr(cl_last_error(), "out of memory"));
    assert_string_equal(slurp(file), text);
    assert_true(staged_now());
  }
}

/* Every choice copies the same bytes: a transpose that stages (dst rows 512
 * bytes apart) and a permutation that prefetches (short src rows), with
 * streaming stores, against the definition. */
static void test_same_values(void **state) {
  (void)state;
  static const char *const tunes[] = {"off",           "staged,prefetch", "staged,noprefetch",
                                      "direct,prefetch", "direct,noprefetch", "runs",
                                      "noruns",          "narrow-staged",   "narrow-direct",
                                      "tall",            "notall",          "gather",
                                      "nogather",        "narrow-tall",     "narrow-notall",
                                      "ahead",           "noahead",         "midstream",
                                      "nomidstream",     "packed",          "nopacked",
                                      "wide-midstream",  "wide-nomidstream", "narrow-lines",
                                      "narrow-nolines"};
  static const char *const pairs[][2] = {
      {"(128,600):(1,128)", "(128,600):(600,1)"},
      {"(700,100):(1,701)", "(700,100):(100,1)"}, /* dst rows at every offset in a line: runs */
      {"(40,64,37):(64,1,2560)", "(40,64,37):(2368,37,1)"},
      {"(256,300):(1,256)", "(256,300):(300,1)"},
      {"(300,40):(1,300)", "(300,40):(81,2)"},  /* every other element: gathered, else an element at a time */
      {"(3000,9):(1,3000)", "(3000,9):(9,1)"},  /* src rows of 9: short tiles, else an element at a time */
      {"(3000,9):(9,1)", "(3000,9):(18,2)"},    /* dst contiguous, src every other element: compacted */
  };
  enum { N = 96 * 1024 }; /* the largest of the three */
  static uint32_t src[N], dst[N], want[N];
  const cl_copy_options_t opt = {sizeof opt, CL_COPY_STORES_STREAMING, 0, NULL};
  for (size_t p = 0; p < COUNT_OF(pairs); p++) {
    cl_layout_t *dl = lay(pairs[p][0]), *sl = lay(pairs[p][1]);
    int64_t n = cl_layout_size(dl);
    for (int64_t i = 0; i < n; i++)
      src[i] = (uint32_t)rnd();
    memset(want, 0, sizeof want);
    for (int64_t i = 0; i < n; i++) {
      int64_t od, os;
      cl_layout_eval(dl, i, &od);
      cl_layout_eval(sl, i, &os);
      want[od] = src[os];
    }
    unsigned seen = 0;
    for (size_t t = 0; t < COUNT_OF(tunes); t++) {
      setenv("CUTELAYOUT_COPY_TUNE", tunes[t], 1);
      memset(dst, 0, sizeof dst);
      cl_tensor_t *d = NULL, *s = NULL;
      assert_int_equal(cl_tensor_new(dst, 4, dl, &d), CL_OK);
      assert_int_equal(cl_tensor_new(src, 4, sl, &s), CL_OK);
      assert_int_equal(cl_tensor_copy_ex(d, s, &opt), CL_OK);
      assert_memory_equal(dst, want, sizeof dst);
      cl_copy_plan_t *plan = calloc(1, sizeof *plan);
      plan->struct_size = sizeof *plan;
      assert_int_equal(cl_tensor_copy_plan(d, s, &opt, plan), CL_OK);
      seen |= 1u << (plan->flags & (CL_COPY_PLAN_STAGED | CL_COPY_PLAN_PREFETCH | CL_COPY_PLAN_GATHERED));
      free(plan);
      cl_tensor_free(d);
      cl_tensor_free(s);
    }
    /* The forced choices did change the plan where they apply (the last
     * two copies' choice shows only in what runs). */
    if (p + 2 < COUNT_OF(pairs))
      assert_true(__builtin_popcount(seen) >= 2);
    cl_layout_free(dl);
    cl_layout_free(sl);
  }
  unsetenv("CUTELAYOUT_COPY_TUNE");
}

/* Removes what the tests made under root. */
static void clean(void) {
  char cmd[128];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  if (system(cmd) != 0)
    fprintf(stderr, "could not remove %s\n", root);
}

int main(void) {
  unsetenv("CUTELAYOUT_COPY_TUNE");
  unsetenv("CUTELAYOUT_COPY_STAGING");
  snprintf(root, sizeof root, "/tmp/cl-tune-XXXXXX");
  if (mkdtemp(root) == NULL)
    return 1;
  big_d = aligned_alloc(64, BIG);
  big_s = aligned_alloc(64, 2 * BIG); /* room for gathered_now's src */
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cache_missing),    cmocka_unit_test(test_cache_used),
      cmocka_unit_test(test_cache_rewritten),  cmocka_unit_test(test_cache_unwritable),
      cmocka_unit_test(test_cache_home),
      cmocka_unit_test(test_env),              cmocka_unit_test(test_calibrate),
      cmocka_unit_test(test_calibrate_nomem),
      cmocka_unit_test(test_same_values),
  };
  int failed = cmocka_run_group_tests(tests, NULL, NULL);
  free(big_d);
  free(big_s);
  clean();
  return failed;
}
