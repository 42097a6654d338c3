/* SPDX-License-Identifier: BSD-3-Clause */
/* test_nomem.c: allocation failure, call by call.
 *
 * For a representative call of every module, check_call() first runs it with
 * a counting allocator and finds that it makes N allocations; then, for
 * k = 1..N, it fails the k-th allocation, once in each of two modes:
 *   - sticky: the k-th allocation and every later one fail (memory is gone);
 *   - once:   only the k-th fails and the later ones succeed again, which
 *             catches cleanup that goes wrong after a partial success.
 * Each failing run must return exactly CL_E_NOMEM (the negative status for
 * functions returning a length), leave every out-parameter NULL, say "out of
 * memory" in cl_last_error(), write nothing into the caller's memory and
 * free every block it took.  Its inputs must come out unchanged and usable:
 * the same text, the same values, and the call, run again with memory,
 * gives the same result as the first time.
 *
 * Evaluation is promised to allocate nothing (eval.h): the plan compiled by
 * the first cl_layout_eval lives in the handle.  test_first_evaluation checks
 * that promise with every allocation failing. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "test_util.h"

/* ------------------------------------------------------ the counting allocator */

typedef enum fail_mode {
  FAIL_NEVER,
  FAIL_STICKY, /* the fail_at-th allocation and all later ones */
  FAIL_ONCE    /* only the fail_at-th allocation */
} fail_mode;

typedef struct counting {
  long live;     /* blocks allocated and not yet freed */
  long total;    /* allocations attempted (alloc and realloc calls) */
  long fail_at;  /* 1-based index of the first allocation to fail */
  fail_mode mode;
} counting;

static counting heap;

static bool should_fail(void) {
  long nth = ++heap.total;
  switch (heap.mode) {
  case FAIL_STICKY: return nth >= heap.fail_at;
  case FAIL_ONCE: return nth == heap.fail_at;
  default: return false;
  }
}

static void *counting_alloc(void *ctx, size_t size) {
  (void)ctx;
  if (should_fail())
    return NULL;
  void *p = malloc(size);
  if (p != NULL)
    heap.live++;
  return p;
}

static void *counting_realloc(void *ctx, void *ptr, size_t size) {
  (void)ctx;
  if (should_fail())
    return NULL; /* ptr stays allocated, as with realloc */
  void *p = realloc(ptr, size);
  if (p != NULL && ptr == NULL)
    heap.live++;
  return p;
}

static void counting_free(void *ctx, void *ptr) {
  (void)ctx;
  if (ptr != NULL)
    heap.live--;
  free(ptr);
}

static void heap_arm(fail_mode mode, long fail_at) {
  heap.total = 0;
  heap.mode = mode;
  heap.fail_at = fail_at;
}

static int setup_heap(void **state) {
  (void)state;
  heap = (counting){0, 0, 0, FAIL_NEVER};
  cl_allocator hook = {counting_alloc, counting_realloc, counting_free, NULL};
  return cl_set_allocator(&hook) == CL_OK ? 0 : -1;
}

static int teardown_heap(void **state) {
  (void)state;
  return heap.live == 0 && cl_set_allocator(NULL) == CL_OK ? 0 : -1;
}

/* ------------------------------------------------------------ inputs */

/* Two buffers of int32 elements that the tensor inputs view. */
#define MEM_ELEMS 16384
static int32_t mem[2][MEM_ELEMS];

static void fill_mem_pattern(void) {
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < MEM_ELEMS; i++)
      mem[b][i] = (int32_t)(b * 1000003 + i * 7 + 1);
}

static bool mem_has_pattern(void) {
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < MEM_ELEMS; i++)
      if (mem[b][i] != (int32_t)(b * 1000003 + i * 7 + 1))
        return false;
  return true;
}

/* An int32 tensor over mem[buffer] + offset, bounded by that buffer. */
typedef struct tensor_spec {
  const char *layout;
  int buffer;
  int64_t offset;
} tensor_spec;

#define MAX_IN 3
#define SAMPLES 80

typedef struct inputs {
  cl_tuple_t *t[MAX_IN];
  cl_layout_t *l[MAX_IN];
  cl_composed_t *c[MAX_IN];
  cl_tensor_t *x[MAX_IN];
} inputs;

/* One call under test: the inputs as text, and the call itself. */
typedef struct results results;
typedef int64_t (*call_fn)(const inputs *in, results *r);
typedef struct nomem_case {
  const char *name;
  call_fn call;
  const char *tuples[MAX_IN];
  const char *layouts[MAX_IN];
  const char *composed[MAX_IN];
  tensor_spec tensors[MAX_IN];
} nomem_case;

/* What the inputs looked like before any call: their text and values. */
typedef struct snapshot {
  char text[4 * MAX_IN][1024];
  int64_t value[3 * MAX_IN][SAMPLES + 1]; /* layouts, composed layouts, tensors' layouts */
  int nvalues[3 * MAX_IN];
  void *data[MAX_IN];
} snapshot;

/* The linear coordinates sampled: the first ones, then a spread up to size. */
static int sample_points(int64_t size, int64_t *at) {
  int n = 0;
  for (int64_t i = 0; i < 48 && i < size; i++)
    at[n++] = i;
  for (int64_t k = 1; size > 48 && k < SAMPLES - 48; k++)
    at[n++] = size / (SAMPLES - 48) * k + k % 3;
  at[n++] = size > 0 ? size - 1 : 0;
  return n;
}

/* FNV-1a of a string. */
static int64_t text_hash(const char *s) {
  uint64_t h = 14695981039346656037u;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return (int64_t)h;
}

/* A layout's values at the sample points; a coordinate layout's as the
 * hashes of their text. */
static void sample_layout(const cl_layout_t *l, int64_t *values, int *n) {
  int64_t at[SAMPLES + 1];
  int64_t size = cl_layout_size(l);
  *n = sample_points(size > 0 ? size : 1, at);
  for (int k = 0; k < *n; k++) {
    if (!cl_layout_is_coordinate(l)) {
      assert_int_equal(cl_layout_eval(l, at[k], &values[k]), CL_OK);
      continue;
    }
    cl_tuple_t *v = NULL;
    assert_int_equal(cl_layout_eval_tuple(l, at[k], &v), CL_OK);
    values[k] = text_hash(tuple_text(v));
    cl_tuple_free(v);
  }
}

static void sample_composed(const cl_composed_t *c, int64_t *values, int *n) {
  int64_t at[SAMPLES + 1], size = 64;
  if (cl_composed_size(c, &size) != CL_OK || size > 1024)
    size = 1024;
  *n = sample_points(size, at);
  for (int k = 0; k < *n; k++)
    assert_int_equal(cl_composed_eval(c, at[k], &values[k]), CL_OK);
}

static void make_inputs(const nomem_case *c, inputs *in) {
  memset(in, 0, sizeof *in);
  for (int k = 0; k < MAX_IN; k++) {
    if (c->tuples[k] != NULL)
      in->t[k] = tup(c->tuples[k]);
    if (c->layouts[k] != NULL)
      in->l[k] = lay(c->layouts[k]);
    if (c->composed[k] != NULL)
      assert_int_equal(cl_composed_parse(c->composed[k], &in->c[k]), CL_OK);
    const tensor_spec *ts = &c->tensors[k];
    if (ts->layout != NULL) {
      cl_layout_t *l = lay(ts->layout);
      cl_tensor_desc desc = {sizeof desc, mem[ts->buffer] + ts->offset, 0, CL_DTYPE_INT32, mem[ts->buffer],
                             sizeof mem[ts->buffer]};
      cl_status s = cl_tensor_create(&desc, l, &in->x[k]);
      if (s != CL_OK)
        fail_msg("%s: tensor input %s: %s", c->name, ts->layout, cl_last_error());
      cl_layout_free(l);
    }
  }
}

static void free_inputs(inputs *in) {
  for (int k = 0; k < MAX_IN; k++) {
    cl_tuple_free(in->t[k]);
    cl_layout_free(in->l[k]);
    cl_composed_free(in->c[k]);
    cl_tensor_free(in->x[k]);
  }
}

/* The snapshot is taken from copies parsed from the inputs' text, so that
 * the inputs themselves are evaluated for the first time only after the
 * calls under test have run on them. */
static void take_snapshot(const inputs *in, snapshot *s) {
  memset(s, 0, sizeof *s);
  for (int k = 0; k < MAX_IN; k++) {
    if (in->t[k] != NULL)
      assert_true(cl_tuple_format(in->t[k], s->text[k], sizeof s->text[k]) < (int64_t)sizeof s->text[k]);
    if (in->l[k] != NULL) {
      assert_true(cl_layout_format(in->l[k], s->text[MAX_IN + k], sizeof s->text[0]) < (int64_t)sizeof s->text[0]);
      cl_layout_t *copy = lay(s->text[MAX_IN + k]);
      sample_layout(copy, s->value[k], &s->nvalues[k]);
      cl_layout_free(copy);
    }
    if (in->c[k] != NULL) {
      assert_true(cl_composed_format(in->c[k], s->text[2 * MAX_IN + k], sizeof s->text[0]) < (int64_t)sizeof s->text[0]);
      cl_composed_t *copy = NULL;
      assert_int_equal(cl_composed_parse(s->text[2 * MAX_IN + k], &copy), CL_OK);
      sample_composed(copy, s->value[MAX_IN + k], &s->nvalues[MAX_IN + k]);
      cl_composed_free(copy);
    }
    if (in->x[k] != NULL) {
      s->data[k] = cl_tensor_data(in->x[k]);
      assert_true(cl_layout_format(cl_tensor_layout(in->x[k]), s->text[3 * MAX_IN + k], sizeof s->text[0]) <
                  (int64_t)sizeof s->text[0]);
      cl_layout_t *copy = lay(s->text[3 * MAX_IN + k]);
      sample_layout(copy, s->value[2 * MAX_IN + k], &s->nvalues[2 * MAX_IN + k]);
      cl_layout_free(copy);
    }
  }
}

/* The inputs still read as in the snapshot: same text, same values. */
static void check_inputs(const char *name, const inputs *in, const snapshot *s) {
  char text[1024];
  int64_t values[SAMPLES + 1];
  int n;
  for (int k = 0; k < MAX_IN; k++) {
    if (in->t[k] != NULL) {
      cl_tuple_format(in->t[k], text, sizeof text);
      if (strcmp(text, s->text[k]) != 0)
        fail_msg("%s: tuple input %d changed: %s, was %s", name, k, text, s->text[k]);
    }
    if (in->l[k] != NULL) {
      cl_layout_format(in->l[k], text, sizeof text);
      if (strcmp(text, s->text[MAX_IN + k]) != 0)
        fail_msg("%s: layout input %d changed: %s, was %s", name, k, text, s->text[MAX_IN + k]);
      sample_layout(in->l[k], values, &n);
      assert_int_equal(n, s->nvalues[k]);
      assert_memory_equal(values, s->value[k], (size_t)n * sizeof *values);
    }
    if (in->c[k] != NULL) {
      cl_composed_format(in->c[k], text, sizeof text);
      if (strcmp(text, s->text[2 * MAX_IN + k]) != 0)
        fail_msg("%s: composed input %d changed: %s, was %s", name, k, text, s->text[2 * MAX_IN + k]);
      sample_composed(in->c[k], values, &n);
      assert_int_equal(n, s->nvalues[MAX_IN + k]);
      assert_memory_equal(values, s->value[MAX_IN + k], (size_t)n * sizeof *values);
    }
    if (in->x[k] != NULL) {
      assert_ptr_equal(cl_tensor_data(in->x[k]), s->data[k]);
      assert_int_equal(cl_tensor_elem_size(in->x[k]), sizeof(int32_t));
      const cl_layout_t *l = cl_tensor_layout(in->x[k]);
      cl_layout_format(l, text, sizeof text);
      if (strcmp(text, s->text[3 * MAX_IN + k]) != 0)
        fail_msg("%s: tensor input %d changed: %s, was %s", name, k, text, s->text[3 * MAX_IN + k]);
      sample_layout(l, values, &n);
      assert_int_equal(n, s->nvalues[2 * MAX_IN + k]);
      assert_memory_equal(values, s->value[2 * MAX_IN + k], (size_t)n * sizeof *values);
      for (int i = 0; i < n && i < 48; i++) {
        int64_t offset;
        assert_int_equal(cl_tensor_offset(in->x[k], i, &offset), CL_OK);
        assert_int_equal(offset, values[i]);
      }
    }
  }
}

/* ------------------------------------------------------------ results */

#define OUT_CAP ((size_t)1 << 20)

/* Every kind of result a call may hand back.  The pointer slots start out
 * holding UNSET, so that the slots a call writes are its out-parameters. */
struct results {
  cl_tuple_t *tuple;
  cl_layout_t *layout;
  cl_composed_t *composed;
  cl_tensor_t *tensor;
  cl_odometer_t *odometer;
  char *string;
  cl_coord_tensor_t *ctensor;
  int64_t value;  /* a scalar result */
  char *buf;      /* OUT_CAP bytes for snprintf-style functions */
  FILE *file;     /* for the _file functions */
  int64_t dims[2][8];
  cl_dltensor_t dl;
};

enum { SLOT_TUPLE, SLOT_LAYOUT, SLOT_COMPOSED, SLOT_TENSOR, SLOT_ODOMETER, SLOT_STRING, SLOT_CTENSOR, SLOTS };
static const char *const slot_names[SLOTS] = {"tuple", "layout", "composed", "tensor", "odometer", "string",
                                              "coordinate tensor"};

static char unset_mark;
#define UNSET ((void *)&unset_mark)
/* The scalar result before the call: a failing call leaves it so, or 0. */
#define VALUE_UNSET ((int64_t)-777777777)

static void **slot(results *r, int k) {
  switch (k) {
  case SLOT_TUPLE: return (void **)&r->tuple;
  case SLOT_LAYOUT: return (void **)&r->layout;
  case SLOT_COMPOSED: return (void **)&r->composed;
  case SLOT_TENSOR: return (void **)&r->tensor;
  case SLOT_ODOMETER: return (void **)&r->odometer;
  case SLOT_CTENSOR: return (void **)&r->ctensor;
  default: return (void **)&r->string;
  }
}

static void results_begin(results *r, char *buf) {
  memset(r, 0, sizeof *r);
  for (int k = 0; k < SLOTS; k++)
    *slot(r, k) = UNSET;
  r->value = VALUE_UNSET;
  r->buf = buf;
  memset(buf, 0, 64);
  r->file = tmpfile();
  assert_non_null(r->file);
}

static void results_end(results *r) {
  if (r->tuple != UNSET) cl_tuple_free(r->tuple);
  if (r->layout != UNSET) cl_layout_free(r->layout);
  if (r->composed != UNSET) cl_composed_free(r->composed);
  if (r->tensor != UNSET) cl_tensor_free(r->tensor);
  if (r->odometer != UNSET) cl_odometer_free(r->odometer);
  if (r->string != UNSET) cl_string_free(r->string);
  if (r->ctensor != UNSET) cl_coord_tensor_free(r->ctensor);
  fclose(r->file);
}

/* The slots a successful call wrote. */
static unsigned written_slots(results *r) {
  unsigned mask = 0;
  for (int k = 0; k < SLOTS; k++)
    if (*slot(r, k) != UNSET)
      mask |= 1u << k;
  return mask;
}

/* FNV-1a over everything a successful call produced. */
static uint64_t digest_bytes(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 1099511628211u;
  return h;
}

static uint64_t digest_text(uint64_t h, const char *s) { return digest_bytes(h, s, strlen(s) + 1); }

static uint64_t digest_results(results *r, int64_t ret) {
  static char text[1 << 16];
  uint64_t h = digest_bytes(14695981039346656037u, &ret, sizeof ret);
  if (r->tuple != UNSET && r->tuple != NULL)
    h = digest_text(h, tuple_text(r->tuple));
  if (r->layout != UNSET && r->layout != NULL)
    h = digest_text(h, layout_text(r->layout));
  if (r->composed != UNSET && r->composed != NULL) {
    assert_true(cl_composed_format(r->composed, text, sizeof text) < (int64_t)sizeof text);
    h = digest_text(h, text);
  }
  if (r->tensor != UNSET && r->tensor != NULL) {
    h = digest_text(h, layout_text(cl_tensor_layout(r->tensor)));
    size_t elem = cl_tensor_elem_size(r->tensor);
    h = digest_bytes(h, &elem, sizeof elem);
    /* A view's place in the caller's memory; owned storage moves. */
    const char *data = cl_tensor_data(r->tensor), *base = (const char *)mem;
    if (data >= base && data < base + sizeof mem) {
      ptrdiff_t at = data - base;
      h = digest_bytes(h, &at, sizeof at);
    }
  }
  if (r->odometer != UNSET && r->odometer != NULL) {
    int64_t offsets[64];
    int64_t n = cl_odometer_next_batch(r->odometer, offsets, 64);
    h = digest_bytes(h, offsets, (size_t)n * sizeof *offsets);
  }
  if (r->string != UNSET && r->string != NULL)
    h = digest_text(h, r->string);
  if (r->ctensor != UNSET && r->ctensor != NULL) {
    assert_true(cl_coord_tensor_format(r->ctensor, text, sizeof text) < (int64_t)sizeof text);
    h = digest_text(h, text);
  }
  h = digest_bytes(h, &r->value, sizeof r->value);
  h = digest_bytes(h, r->dims, sizeof r->dims);
  if (ret > 0 && (size_t)ret < OUT_CAP)
    h = digest_bytes(h, r->buf, (size_t)ret);
  long written = ftell(r->file);
  h = digest_bytes(h, &written, sizeof written);
  return h;
}

/* ------------------------------------------------------------ check_call */

static long calls_checked, failure_points;

/* A known message in cl_last_error(), so that a failure that sets none shows. */
static void prime_last_error(void) {
  assert_int_equal(cl_tuple_int(0, NULL), CL_E_NULL);
}

/* One run of the call with the allocator armed; returns what the call did. */
static int64_t run_call(call_fn fn, const inputs *in, results *r, char *buf, fail_mode mode, long fail_at) {
  results_begin(r, buf);
  fill_mem_pattern();
  prime_last_error();
  heap_arm(mode, fail_at);
  int64_t ret = fn(in, r);
  heap.mode = FAIL_NEVER; /* heap.total keeps the count of this run */
  return ret;
}

/* The call succeeds with N allocations, and with any one of them failing
 * (alone or with all later ones) it fails cleanly and harmlessly. */
static void check_call(const char *name, call_fn fn, const inputs *in) {
  static char buf[OUT_CAP];
  snapshot before;
  results r;
  take_snapshot(in, &before);
  long baseline = heap.live;

  int64_t ret = run_call(fn, in, &r, buf, FAIL_NEVER, 0);
  long needed = heap.total;
  if (ret < 0)
    fail_msg("%s: fails without any allocation failing: %lld (%s)", name, (long long)ret, cl_last_error());
  unsigned outs = written_slots(&r);
  uint64_t expected = digest_results(&r, ret);
  results_end(&r);
  if (heap.live != baseline)
    fail_msg("%s: leaks %ld blocks on success", name, heap.live - baseline);
  calls_checked++;
  if (getenv("NOMEM_VERBOSE") != NULL)
    printf("%-48s %3ld allocations\n", name, needed);

  for (fail_mode mode = FAIL_STICKY; mode <= FAIL_ONCE; mode++) {
    for (long k = 1; k <= needed; k++) {
      const char *how = mode == FAIL_STICKY ? "from" : "only";
      ret = run_call(fn, in, &r, buf, mode, k);
      failure_points++;
      if (ret != CL_E_NOMEM)
        fail_msg("%s: allocation %ld of %ld failing (%s) gives %lld, not CL_E_NOMEM (%s)", name, k, needed, how,
                 (long long)ret, cl_last_error());
      if (strstr(cl_last_error(), "out of memory") == NULL)
        fail_msg("%s: allocation %ld failing (%s): the error detail is \"%s\"", name, k, how, cl_last_error());
      for (int s = 0; s < SLOTS; s++)
        if ((outs >> s & 1u) && *slot(&r, s) != NULL)
          fail_msg("%s: allocation %ld failing (%s): the %s out-parameter is not NULL", name, k, how, slot_names[s]);
      if (r.value != VALUE_UNSET && r.value != 0)
        fail_msg("%s: allocation %ld failing (%s): the scalar result is %lld, half made", name, k, how,
                 (long long)r.value);
      if (ftell(r.file) != 0)
        fail_msg("%s: allocation %ld failing (%s): %ld bytes written to the stream", name, k, how, ftell(r.file));
      if (!mem_has_pattern())
        fail_msg("%s: allocation %ld failing (%s): the tensors' memory was written", name, k, how);
      results_end(&r);
      if (heap.live != baseline)
        fail_msg("%s: allocation %ld failing (%s) leaks %ld blocks", name, k, how, heap.live - baseline);

      /* The inputs are intact, and the call works on them again. */
      check_inputs(name, in, &before);
      ret = run_call(fn, in, &r, buf, FAIL_NEVER, 0);
      if (ret < 0)
        fail_msg("%s: after allocation %ld failed (%s), the call fails: %lld (%s)", name, k, how, (long long)ret,
                 cl_last_error());
      if (heap.total != needed)
        fail_msg("%s: after allocation %ld failed (%s), the call makes %ld allocations, not %ld", name, k, how,
                 heap.total, needed);
      if (digest_results(&r, ret) != expected)
        fail_msg("%s: after allocation %ld failed (%s), the call gives another result", name, k, how);
      results_end(&r);
      assert_int_equal(heap.live, baseline);
    }
  }
  check_inputs(name, in, &before);
}

static void check_cases(const nomem_case *cases, size_t n) {
  long live = heap.live;
  for (size_t i = 0; i < n; i++) {
    inputs in;
    make_inputs(&cases[i], &in);
    check_call(cases[i].name, cases[i].call, &in);
    free_inputs(&in);
  }
  assert_int_equal(heap.live, live);
}

/* ------------------------------------------------------------ the inputs used */

/* A hierarchical layout (size 512, cosize 512). */
#define HIER "((4,8),(2,(2,4))):((2,16),(1,(8,128)))"
/* Twenty-five modes (2,(1,1,2)), strides decreasing so that nothing
 * coalesces: 151 nodes in the shape, so that a builder grows twice (from its
 * 64 inline nodes: one alloc, one realloc), and 50 modes after coalescing,
 * more than the algebra's inline arrays hold. */
#define BIG_SHAPE \
  "((2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2," \
  "(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1," \
  "1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1,2)),(2,(1,1," \
  "2)))"
#define BIG_STRIDE \
  "((562949953421312,(0,0,281474976710656)),(140737488355328,(0,0,70368744177664)),(35184372088832,(0," \
  "0,17592186044416)),(8796093022208,(0,0,4398046511104)),(2199023255552,(0,0,1099511627776))," \
  "(549755813888,(0,0,274877906944)),(137438953472,(0,0,68719476736)),(34359738368,(0,0,17179869184))," \
  "(8589934592,(0,0,4294967296)),(2147483648,(0,0,1073741824)),(536870912,(0,0,268435456)),(134217728," \
  "(0,0,67108864)),(33554432,(0,0,16777216)),(8388608,(0,0,4194304)),(2097152,(0,0,1048576)),(524288," \
  "(0,0,262144)),(131072,(0,0,65536)),(32768,(0,0,16384)),(8192,(0,0,4096)),(2048,(0,0,1024)),(512,(0," \
  "0,256)),(128,(0,0,64)),(32,(0,0,16)),(8,(0,0,4)),(2,(0,0,1)))"
#define BIG_ORDER \
  "((100,(99,98,97)),(96,(95,94,93)),(92,(91,90,89)),(88,(87,86,85)),(84,(83,82,81)),(80,(79,78,77))," \
  "(76,(75,74,73)),(72,(71,70,69)),(68,(67,66,65)),(64,(63,62,61)),(60,(59,58,57)),(56,(55,54,53)),(52," \
  "(51,50,49)),(48,(47,46,45)),(44,(43,42,41)),(40,(39,38,37)),(36,(35,34,33)),(32,(31,30,29)),(28,(27," \
  "26,25)),(24,(23,22,21)),(20,(19,18,17)),(16,(15,14,13)),(12,(11,10,9)),(8,(7,6,5)),(4,(3,2,1)))"
#define BIG_CRD \
  "(_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_))," \
  "_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_)),_,(1,(0,0,_)),_)"
#define BIG_FLAT_SHAPE \
  "(2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2," \
  "1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1,2,2,1,1," \
  "2)"
#define BIG_FLAT_STRIDE \
  "(562949953421312,0,0,281474976710656,140737488355328,0,0,70368744177664,35184372088832,0,0," \
  "17592186044416,8796093022208,0,0,4398046511104,2199023255552,0,0,1099511627776,549755813888,0,0," \
  "274877906944,137438953472,0,0,68719476736,34359738368,0,0,17179869184,8589934592,0,0,4294967296," \
  "2147483648,0,0,1073741824,536870912,0,0,268435456,134217728,0,0,67108864,33554432,0,0,16777216," \
  "8388608,0,0,4194304,2097152,0,0,1048576,524288,0,0,262144,131072,0,0,65536,32768,0,0,16384,8192,0,0," \
  "4096,2048,0,0,1024,512,0,0,256,128,0,0,64,32,0,0,16,8,0,0,4,2,0,0,1)"
#define BIG BIG_SHAPE ":" BIG_STRIDE
#define BIG_FLAT BIG_FLAT_SHAPE ":" BIG_FLAT_STRIDE
/* Thirteen modes (2,(1,2)) of the same kind (size 2^26), where a swizzle
 * moved through the layout must stay a swizzle of 32-bit masks. */
#define MID_SHAPE \
  "((2,(1,2)),(2,(1,2)),(2,(1,2)),(2,(1,2)),(2,(1,2)),(2,(1,2)),(2,(1,2)),(2,(1,2)),(2,(1,2)),(2,(1," \
  "2)),(2,(1,2)),(2,(1,2)),(2,(1,2)))"
#define MID_STRIDE \
  "((33554432,(0,16777216)),(8388608,(0,4194304)),(2097152,(0,1048576)),(524288,(0,262144)),(131072,(0," \
  "65536)),(32768,(0,16384)),(8192,(0,4096)),(2048,(0,1024)),(512,(0,256)),(128,(0,64)),(32,(0,16)),(8," \
  "(0,4)),(2,(0,1)))"
#define MID MID_SHAPE ":" MID_STRIDE
/* Twenty modes with a hole between each two: complement has work to do. */
#define GAPS \
  "(2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2):(1,4,16,64,256,1024,4096,16384,65536,262144,1048576," \
  "4194304,16777216,67108864,268435456,1073741824,4294967296,17179869184,68719476736,274877906944)"
#define SWIZZLED "Sw<3,4,3> o 0 o " BIG
#define SWIZZLED_MID "Sw<3,4,3> o 0 o " MID
#define OUTER_LAYOUT "(64,64):(64,1) o 0 o ((4,8),(2,(2,4))):((1,16),(4,(8,128)))"
/* A composed layout nested in another, as composition(L, right_inverse(L)) makes. */
#define NESTED "Sw<3,4,3> o 0 o Sw<2,4,3> o 0 o " MID
#define NESTED_LEFT "(64,64):(64,1) o 4 o " SWIZZLED_MID
/* Tensors of 8192 int32 elements with 26 leaves (more than the tensor
 * module's inline arrays), and a 32 x 16 tile in another order. */
#define T_BIG \
  "((2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,1),(2,1)):((4096,0),(2048,0)," \
  "(1024,0),(512,0),(256,0),(128,0),(64,0),(32,0),(16,0),(8,0),(4,0),(2,0),(1,0))"
#define T_TILE "(32,16,(4,4)):(1,32,(512,2048))"
/* 16384 elements in 14 modes (2,1,1,1), column-major and the other way
 * round: copying between them permutes every bit of the index; and the
 * layout's text is longer than print_tensor's buffer on the stack. */
#define T_WIDE_SHAPE \
  "((2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1," \
  "1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1),(2,1,1,1))"
#define T_WIDE T_WIDE_SHAPE ":" \
  "((1,0,0,0),(2,0,0,0),(4,0,0,0),(8,0,0,0),(16,0,0,0),(32,0,0,0),(64,0,0,0),(128,0,0,0),(256,0,0," \
  "0),(512,0,0,0),(1024,0,0,0),(2048,0,0,0),(4096,0,0,0),(8192,0,0,0))"
#define T_WIDE_T T_WIDE_SHAPE ":" \
  "((8192,0,0,0),(4096,0,0,0),(2048,0,0,0),(1024,0,0,0),(512,0,0,0),(256,0,0,0),(128,0,0,0),(64,0," \
  "0,0),(32,0,0,0),(16,0,0,0),(8,0,0,0),(4,0,0,0),(2,0,0,0),(1,0,0,0))"


/* ------------------------------------------------------------ text */

static int64_t call_tuple_parse(const inputs *in, results *r) {
  (void)in;
  return cl_tuple_parse(BIG_SHAPE, &r->tuple);
}
static int64_t call_layout_parse(const inputs *in, results *r) {
  (void)in;
  return cl_layout_parse(BIG, &r->layout);
}
static int64_t call_composed_parse(const inputs *in, results *r) {
  (void)in;
  return cl_composed_parse(SWIZZLED, &r->composed);
}
static int64_t call_tuple_to_string(const inputs *in, results *r) { return cl_tuple_to_string(in->t[0], &r->string); }
static int64_t call_layout_to_string(const inputs *in, results *r) { return cl_layout_to_string(in->l[0], &r->string); }
static int64_t call_composed_to_string(const inputs *in, results *r) {
  return cl_composed_to_string(in->c[0], &r->string);
}
static int64_t call_tuple_format(const inputs *in, results *r) { return cl_tuple_format(in->t[0], r->buf, 8); }
static int64_t call_layout_format(const inputs *in, results *r) { return cl_layout_format(in->l[0], r->buf, 8); }
static int64_t call_composed_format(const inputs *in, results *r) { return cl_composed_format(in->c[0], r->buf, 8); }

static const nomem_case text_cases[] = {
  {"cl_tuple_parse", call_tuple_parse, {0}, {0}, {0}, {{0}}},
  {"cl_layout_parse", call_layout_parse, {0}, {0}, {0}, {{0}}},
  {"cl_composed_parse", call_composed_parse, {0}, {0}, {0}, {{0}}},
  {"cl_tuple_to_string", call_tuple_to_string, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_layout_to_string", call_layout_to_string, {0}, {BIG}, {0}, {{0}}},
  {"cl_composed_to_string", call_composed_to_string, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_tuple_format", call_tuple_format, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_layout_format", call_layout_format, {0}, {BIG}, {0}, {{0}}},
  {"cl_composed_format", call_composed_format, {0}, {0}, {SWIZZLED}, {{0}}},
};

static void test_text(void **state) {
  (void)state;
  check_cases(text_cases, COUNT_OF(text_cases));
}

/* ------------------------------------------------------------ tuples and strides */

static int64_t call_tuple_int(const inputs *in, results *r) {
  (void)in;
  return cl_tuple_int(42, &r->tuple);
}
static int64_t call_tuple_underscore(const inputs *in, results *r) {
  (void)in;
  return cl_tuple_underscore(&r->tuple);
}
static int64_t call_tuple_from_ints(const inputs *in, results *r) {
  (void)in;
  int64_t values[100];
  for (int i = 0; i < 100; i++)
    values[i] = i * i;
  return cl_tuple_from_ints(values, 100, &r->tuple);
}
static int64_t call_tuple_make(const inputs *in, results *r) {
  const cl_tuple_t *elems[] = {in->t[0], in->t[1], in->t[0]};
  return cl_tuple_make(elems, 3, &r->tuple);
}
static int64_t call_tuple_from_layout(const inputs *in, results *r) { return cl_tuple_from_layout(in->l[0], &r->tuple); }
static int64_t call_tuple_copy(const inputs *in, results *r) { return cl_tuple_copy(in->t[0], &r->tuple); }
static int64_t call_tuple_layout(const inputs *in, results *r) { return cl_tuple_layout(in->t[0], &r->layout); }
static int64_t call_tuple_get(const inputs *in, results *r) {
  const int64_t path[] = {4, 1};
  return cl_tuple_get(in->t[0], path, 2, &r->tuple);
}
static int64_t call_tuple_flatten(const inputs *in, results *r) { return cl_tuple_flatten(in->t[0], &r->tuple); }
static int64_t call_tuple_unflatten(const inputs *in, results *r) {
  return cl_tuple_unflatten(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_tuple_shape_div(const inputs *in, results *r) {
  return cl_tuple_shape_div(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_tuple_ceil_div(const inputs *in, results *r) {
  return cl_tuple_ceil_div(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_tuple_elem_scale(const inputs *in, results *r) {
  return cl_tuple_elem_scale(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_tuple_prefix_product(const inputs *in, results *r) {
  return cl_tuple_prefix_product(in->t[0], &r->tuple);
}
static int64_t call_compact_col_major(const inputs *in, results *r) { return cl_compact_col_major(in->t[0], &r->tuple); }
static int64_t call_compact_row_major(const inputs *in, results *r) { return cl_compact_row_major(in->t[0], &r->tuple); }
static int64_t call_compact_col_major_from(const inputs *in, results *r) {
  return cl_compact_col_major_from(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_compact_row_major_from(const inputs *in, results *r) {
  return cl_compact_row_major_from(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_tuple_product_each(const inputs *in, results *r) { return cl_tuple_product_each(in->t[0], &r->tuple); }
static int64_t call_tuple_product_like(const inputs *in, results *r) {
  return cl_tuple_product_like(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_tuple_round_up(const inputs *in, results *r) { return cl_tuple_round_up(in->t[0], in->t[1], &r->tuple); }
static int64_t call_tuple_filter_zeros(const inputs *in, results *r) {
  return cl_tuple_filter_zeros(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_evenly_divides(const inputs *in, results *r) {
  int even = 0;
  cl_status s = cl_evenly_divides(in->t[0], in->t[1], &even);
  r->value = even;
  return s;
}
static int64_t call_common_refinement(const inputs *in, results *r) {
  return cl_common_refinement(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_common_coarsening(const inputs *in, results *r) {
  return cl_common_coarsening(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_compact_order(const inputs *in, results *r) {
  return cl_compact_order(in->t[0], in->t[1], &r->tuple);
}
static int64_t call_crd2idx(const inputs *in, results *r) {
  return cl_crd2idx(in->t[0], in->t[1], in->t[2], &r->value);
}
static int64_t call_crd2idx_shape(const inputs *in, results *r) {
  return cl_crd2idx_shape(in->t[0], in->t[1], &r->value);
}
static int64_t call_idx2crd(const inputs *in, results *r) { return cl_idx2crd(in->t[0], in->t[1], &r->tuple); }
static int64_t call_idx2crd_strided(const inputs *in, results *r) {
  return cl_idx2crd_strided(in->t[0], in->t[1], in->t[2], &r->tuple);
}
static int64_t call_crd2crd(const inputs *in, results *r) {
  return cl_crd2crd(in->t[0], in->t[1], in->t[2], &r->tuple);
}
static int64_t call_tuple_depth(const inputs *in, results *r) {
  (void)r;
  return cl_tuple_depth(in->t[0]);
}
static int64_t call_tuple_compatible(const inputs *in, results *r) {
  int yes = 0;
  cl_status s = cl_tuple_compatible(in->t[0], in->t[1], &yes);
  r->value = yes;
  return s;
}

static const nomem_case tuple_cases[] = {
  {"cl_tuple_int", call_tuple_int, {0}, {0}, {0}, {{0}}},
  {"cl_tuple_underscore", call_tuple_underscore, {0}, {0}, {0}, {{0}}},
  {"cl_tuple_from_ints", call_tuple_from_ints, {0}, {0}, {0}, {{0}}},
  {"cl_tuple_make", call_tuple_make, {BIG_SHAPE, "(_,2:1)"}, {0}, {0}, {{0}}},
  {"cl_tuple_from_layout", call_tuple_from_layout, {0}, {BIG}, {0}, {{0}}},
  {"cl_tuple_copy", call_tuple_copy, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_layout", call_tuple_layout, {BIG}, {0}, {0}, {{0}}},
  {"cl_tuple_get", call_tuple_get, {BIG_STRIDE}, {0}, {0}, {{0}}},
  {"cl_tuple_flatten", call_tuple_flatten, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_unflatten", call_tuple_unflatten, {BIG_FLAT_SHAPE, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_shape_div", call_tuple_shape_div, {BIG_STRIDE, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_ceil_div", call_tuple_ceil_div, {BIG_SHAPE, "(3,2,5)"}, {0}, {0}, {{0}}},
  {"cl_tuple_elem_scale", call_tuple_elem_scale, {BIG_SHAPE, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_prefix_product", call_tuple_prefix_product, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_compact_col_major", call_compact_col_major, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_compact_row_major", call_compact_row_major, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_compact_order", call_compact_order, {BIG_SHAPE, BIG_ORDER}, {0}, {0}, {{0}}},
  {"cl_common_refinement", call_common_refinement, {BIG_SHAPE, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_common_coarsening", call_common_coarsening, {BIG_SHAPE, BIG_FLAT_SHAPE}, {0}, {0}, {{0}}},
  {"cl_compact_col_major_from", call_compact_col_major_from, {BIG_SHAPE, "7"}, {0}, {0}, {{0}}},
  {"cl_compact_row_major_from", call_compact_row_major_from, {BIG_SHAPE, "5"}, {0}, {0}, {{0}}},
  {"cl_tuple_product_each", call_tuple_product_each, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_product_like", call_tuple_product_like, {BIG_SHAPE, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_round_up", call_tuple_round_up, {BIG_SHAPE, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_filter_zeros", call_tuple_filter_zeros, {BIG_ORDER, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_evenly_divides", call_evenly_divides, {BIG_SHAPE, "7"}, {0}, {0}, {{0}}},
  {"cl_crd2idx", call_crd2idx, {"1000", BIG_SHAPE, BIG_STRIDE}, {0}, {0}, {{0}}},
  {"cl_crd2idx_shape", call_crd2idx_shape, {BIG_ORDER, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_idx2crd", call_idx2crd, {"1000", BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_idx2crd_strided", call_idx2crd_strided, {"1000", BIG_SHAPE, BIG_STRIDE}, {0}, {0}, {{0}}},
  {"cl_crd2crd", call_crd2crd, {"12345", BIG_SHAPE, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_depth", call_tuple_depth, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_compatible", call_tuple_compatible, {BIG_SHAPE, BIG_SHAPE}, {0}, {0}, {{0}}},
};

static void test_tuple(void **state) {
  (void)state;
  check_cases(tuple_cases, COUNT_OF(tuple_cases));
}

/* ------------------------------------------------------------ layouts */

static int64_t call_layout_make(const inputs *in, results *r) { return cl_layout_make(in->t[0], in->t[1], &r->layout); }
static int64_t call_layout_make_left_default(const inputs *in, results *r) {
  return cl_layout_make(in->t[0], NULL, &r->layout);
}
static int64_t call_layout_make_left(const inputs *in, results *r) { return cl_layout_make_left(in->t[0], &r->layout); }
static int64_t call_layout_make_right(const inputs *in, results *r) {
  return cl_layout_make_right(in->t[0], &r->layout);
}
static int64_t call_layout_make_ordered(const inputs *in, results *r) {
  return cl_layout_make_ordered(in->t[0], in->t[1], &r->layout);
}
static int64_t call_layout_concat(const inputs *in, results *r) {
  const cl_layout_t *parts[] = {in->l[0], in->l[1], in->l[0]};
  return cl_layout_concat(parts, 3, &r->layout);
}
static int64_t call_make_layout_like(const inputs *in, results *r) { return cl_make_layout_like(in->l[0], &r->layout); }
static int64_t call_make_fragment_like(const inputs *in, results *r) {
  return cl_make_fragment_like(in->l[0], &r->layout);
}
static int64_t call_layout_copy(const inputs *in, results *r) { return cl_layout_copy(in->l[0], &r->layout); }
static int64_t call_layout_shape(const inputs *in, results *r) { return cl_layout_shape(in->l[0], &r->tuple); }
static int64_t call_layout_stride(const inputs *in, results *r) { return cl_layout_stride(in->l[0], &r->tuple); }
static int64_t call_layout_coshape(const inputs *in, results *r) { return cl_layout_coshape(in->l[0], &r->tuple); }
static int64_t call_layout_get(const inputs *in, results *r) {
  const int64_t path[] = {5, 1};
  return cl_layout_get(in->l[0], path, 2, &r->layout);
}
static int64_t call_layout_eval_coord(const inputs *in, results *r) {
  return cl_layout_eval_coord(in->l[0], in->t[0], &r->value);
}
static int64_t call_layout_slice(const inputs *in, results *r) { return cl_layout_slice(in->t[0], in->l[0], &r->layout); }
static int64_t call_layout_slice_and_offset(const inputs *in, results *r) {
  return cl_layout_slice_and_offset(in->t[0], in->l[0], &r->layout, &r->value);
}
static int64_t call_layout_flatten(const inputs *in, results *r) { return cl_layout_flatten(in->l[0], &r->layout); }
static int64_t call_layout_unflatten(const inputs *in, results *r) {
  return cl_layout_unflatten(in->l[0], in->t[0], &r->layout);
}
static int64_t call_layout_group(const inputs *in, results *r) { return cl_layout_group(in->l[0], 2, 11, &r->layout); }
static int64_t call_layout_take(const inputs *in, results *r) { return cl_layout_take(in->l[0], 1, 12, &r->layout); }
static int64_t call_layout_select(const inputs *in, results *r) {
  const int64_t modes[] = {12, 0, 5, 5, 3, 7, 8, 9, 10, 11, 1, 2, 4, 6, 12};
  return cl_layout_select(in->l[0], modes, (int64_t)COUNT_OF(modes), &r->layout);
}
static int64_t call_layout_append(const inputs *in, results *r) {
  return cl_layout_append(in->l[0], in->l[1], &r->layout);
}
static int64_t call_layout_prepend(const inputs *in, results *r) { return cl_layout_prepend(in->l[0], NULL, &r->layout); }
static int64_t call_layout_zip(const inputs *in, results *r) { return cl_layout_zip(in->l[0], &r->layout); }

static int64_t call_layout_dice(const inputs *in, results *r) { return cl_layout_dice(in->t[0], in->l[0], &r->layout); }
static int64_t call_tuple_slice(const inputs *in, results *r) { return cl_tuple_slice(in->t[0], in->t[1], &r->tuple); }
static int64_t call_tuple_dice(const inputs *in, results *r) { return cl_tuple_dice(in->t[0], in->t[1], &r->tuple); }
static int64_t call_domain_offset(const inputs *in, results *r) {
  return cl_domain_offset(in->t[0], in->l[0], &r->layout, &r->value);
}
static int64_t call_layout_replace(const inputs *in, results *r) {
  return cl_layout_replace(in->l[0], 3, in->l[1], &r->layout);
}
static int64_t call_layout_append_to(const inputs *in, results *r) {
  return cl_layout_append_to(in->l[0], in->l[1], 40, &r->layout);
}
static int64_t call_layout_prepend_to(const inputs *in, results *r) {
  return cl_layout_prepend_to(in->l[0], NULL, 30, &r->layout);
}
static int64_t call_layout_coprofile(const inputs *in, results *r) { return cl_layout_coprofile(in->l[0], &r->tuple); }

static const nomem_case layout_cases[] = {
  {"cl_layout_dice", call_layout_dice, {BIG_CRD}, {BIG}, {0}, {{0}}},
  {"cl_tuple_slice", call_tuple_slice, {BIG_CRD, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_tuple_dice", call_tuple_dice, {BIG_CRD, BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_domain_offset", call_domain_offset, {BIG_ORDER}, {BIG}, {0}, {{0}}},
  {"cl_layout_replace", call_layout_replace, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_layout_append_to", call_layout_append_to, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_layout_prepend_to", call_layout_prepend_to, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_coprofile", call_layout_coprofile, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_make", call_layout_make, {BIG_SHAPE, BIG_STRIDE}, {0}, {0}, {{0}}},
  {"cl_layout_make (LayoutLeft)", call_layout_make_left_default, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_layout_make_left", call_layout_make_left, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_layout_make_right", call_layout_make_right, {BIG_SHAPE}, {0}, {0}, {{0}}},
  {"cl_layout_make_ordered", call_layout_make_ordered, {BIG_SHAPE, BIG_ORDER}, {0}, {0}, {{0}}},
  {"cl_layout_concat", call_layout_concat, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_make_layout_like", call_make_layout_like, {0}, {BIG}, {0}, {{0}}},
  {"cl_make_fragment_like", call_make_fragment_like, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_copy", call_layout_copy, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_shape", call_layout_shape, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_stride", call_layout_stride, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_coshape", call_layout_coshape, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_get", call_layout_get, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_eval_coord", call_layout_eval_coord, {BIG_ORDER}, {BIG}, {0}, {{0}}},
  {"cl_layout_slice", call_layout_slice, {BIG_CRD}, {BIG}, {0}, {{0}}},
  {"cl_layout_slice_and_offset", call_layout_slice_and_offset, {BIG_CRD}, {BIG}, {0}, {{0}}},
  {"cl_layout_flatten", call_layout_flatten, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_unflatten", call_layout_unflatten, {BIG_SHAPE}, {BIG_FLAT}, {0}, {{0}}},
  {"cl_layout_group", call_layout_group, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_take", call_layout_take, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_select", call_layout_select, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_append", call_layout_append, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_layout_prepend", call_layout_prepend, {0}, {BIG}, {0}, {{0}}},
  {"cl_layout_zip", call_layout_zip, {0}, {BIG}, {0}, {{0}}},
};

static void test_layout(void **state) {
  (void)state;
  check_cases(layout_cases, COUNT_OF(layout_cases));
}

/* ------------------------------------------------------------ the algebra */

static int64_t call_coalesce(const inputs *in, results *r) { return cl_coalesce(in->l[0], &r->layout); }
static int64_t call_coalesce_profile(const inputs *in, results *r) {
  return cl_coalesce_profile(in->l[0], in->t[0], &r->layout);
}
static int64_t call_filter_zeros(const inputs *in, results *r) { return cl_filter_zeros(in->l[0], &r->layout); }
static int64_t call_filter(const inputs *in, results *r) { return cl_filter(in->l[0], &r->layout); }
static int64_t call_filter_profile(const inputs *in, results *r) {
  return cl_filter_profile(in->l[0], in->t[0], &r->layout);
}
static int64_t call_composition(const inputs *in, results *r) { return cl_composition(in->l[0], in->l[1], &r->layout); }
static int64_t call_composition_tiler(const inputs *in, results *r) {
  return cl_composition_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_complement(const inputs *in, results *r) {
  return cl_complement(in->l[0], (int64_t)1 << 42, &r->layout);
}
static int64_t call_complement_shape(const inputs *in, results *r) {
  return cl_complement_shape(in->l[0], in->t[0], &r->layout);
}
static int64_t call_complement_full(const inputs *in, results *r) { return cl_complement_full(in->l[0], &r->layout); }
static int64_t call_right_inverse(const inputs *in, results *r) { return cl_right_inverse(in->l[0], &r->layout); }
static int64_t call_left_inverse(const inputs *in, results *r) { return cl_left_inverse(in->l[0], &r->layout); }
static int64_t call_logical_divide(const inputs *in, results *r) {
  return cl_logical_divide(in->l[0], in->l[1], &r->layout);
}
static int64_t call_logical_divide_tiler(const inputs *in, results *r) {
  return cl_logical_divide_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_zipped_divide(const inputs *in, results *r) { return cl_zipped_divide(in->l[0], in->l[1], &r->layout); }
static int64_t call_zipped_divide_tiler(const inputs *in, results *r) {
  return cl_zipped_divide_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_tiled_divide(const inputs *in, results *r) { return cl_tiled_divide(in->l[0], in->l[1], &r->layout); }
static int64_t call_tiled_divide_tiler(const inputs *in, results *r) {
  return cl_tiled_divide_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_flat_divide(const inputs *in, results *r) { return cl_flat_divide(in->l[0], in->l[1], &r->layout); }
static int64_t call_flat_divide_tiler(const inputs *in, results *r) {
  return cl_flat_divide_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_logical_product(const inputs *in, results *r) {
  return cl_logical_product(in->l[0], in->l[1], &r->layout);
}
static int64_t call_logical_product_tiler(const inputs *in, results *r) {
  return cl_logical_product_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_zipped_product(const inputs *in, results *r) {
  return cl_zipped_product(in->l[0], in->l[1], &r->layout);
}
static int64_t call_zipped_product_tiler(const inputs *in, results *r) {
  return cl_zipped_product_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_tiled_product(const inputs *in, results *r) { return cl_tiled_product(in->l[0], in->l[1], &r->layout); }
static int64_t call_tiled_product_tiler(const inputs *in, results *r) {
  return cl_tiled_product_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_flat_product(const inputs *in, results *r) { return cl_flat_product(in->l[0], in->l[1], &r->layout); }
static int64_t call_flat_product_tiler(const inputs *in, results *r) {
  return cl_flat_product_tiler(in->l[0], in->t[0], &r->layout);
}
static int64_t call_blocked_product(const inputs *in, results *r) {
  return cl_blocked_product(in->l[0], in->l[1], &r->layout);
}
static int64_t call_raked_product(const inputs *in, results *r) { return cl_raked_product(in->l[0], in->l[1], &r->layout); }
static int64_t call_tile_to_shape(const inputs *in, results *r) {
  return cl_tile_to_shape(in->l[0], in->t[0], in->t[1], &r->layout);
}
static int64_t call_max_common_vector(const inputs *in, results *r) {
  return cl_max_common_vector(in->l[0], in->l[1], &r->value);
}
static int64_t call_max_common_layout(const inputs *in, results *r) {
  return cl_max_common_layout(in->l[0], in->l[1], &r->layout);
}
static int64_t call_nullspace(const inputs *in, results *r) { return cl_nullspace(in->l[0], &r->layout); }
static int64_t call_upcast(const inputs *in, results *r) { return cl_upcast(in->l[0], 2, &r->layout); }
static int64_t call_downcast(const inputs *in, results *r) { return cl_downcast(in->l[0], 2, &r->layout); }

#define TILER "(2,_,(2,2),_,2:1)"
#define LAYOUT_TILER "(2:2,_,(2,2):(1,2),4:1)"

static int64_t call_recast_layout(const inputs *in, results *r) {
  return cl_recast_layout(in->l[0], 32, 16, &r->layout);
}
static int64_t call_max_alignment(const inputs *in, results *r) { return cl_max_alignment(in->l[0], &r->value); }
static int64_t call_domain_distribute(const inputs *in, results *r) {
  return cl_domain_distribute(in->t[0], in->t[1], &r->layout);
}
static int64_t call_tile_unzip(const inputs *in, results *r) {
  cl_layout_t *divided = NULL;
  r->layout = NULL;
  cl_status s = cl_logical_divide_tiler(in->l[0], in->t[0], &divided);
  if (s == CL_OK)
    s = cl_tile_unzip(divided, in->t[0], &r->layout);
  cl_layout_free(divided);
  return s;
}

static int64_t call_coalesce_z(const inputs *in, results *r) { return cl_coalesce_z(in->l[0], &r->layout); }
static int64_t call_coalesce_z_profile(const inputs *in, results *r) {
  return cl_coalesce_z_profile(in->l[0], in->t[0], &r->layout);
}
static int64_t call_greatest_common_domain(const inputs *in, results *r) {
  return cl_greatest_common_domain(in->t[0], in->t[1], &r->layout);
}
static int64_t call_layout_add(const inputs *in, results *r) { return cl_layout_add(in->l[0], in->l[1], &r->layout); }
static int64_t call_logical_divide_mode(const inputs *in, results *r) {
  int64_t mode[2] = {1, 0};
  return cl_logical_divide_mode(in->l[0], in->t[0], mode, 2, &r->layout);
}
static int64_t call_coalesce_mode(const inputs *in, results *r) {
  int64_t mode = 3;
  return cl_coalesce_mode(in->l[0], &mode, 1, &r->layout);
}

static const nomem_case algebra_cases[] = {
  {"cl_coalesce_z", call_coalesce_z, {0}, {BIG}, {0}, {{0}}},
  {"cl_coalesce_z_profile", call_coalesce_z_profile, {"(1,_,(1,1))"}, {BIG}, {0}, {{0}}},
  {"cl_greatest_common_domain", call_greatest_common_domain, {BIG_SHAPE, BIG_FLAT_SHAPE}, {0}, {0}, {{0}}},
  {"cl_layout_add", call_layout_add, {0}, {BIG, BIG_FLAT}, {0}, {{0}}},
  {"cl_logical_divide_mode", call_logical_divide_mode, {"2"}, {BIG}, {0}, {{0}}},
  {"cl_coalesce_mode", call_coalesce_mode, {0}, {BIG}, {0}, {{0}}},
  {"cl_recast_layout", call_recast_layout, {0}, {BIG}, {0}, {{0}}},
  {"cl_max_alignment", call_max_alignment, {0}, {BIG}, {0}, {{0}}},
  {"cl_domain_distribute", call_domain_distribute, {BIG_SHAPE, "1024"}, {0}, {0}, {{0}}},
  {"cl_tile_unzip", call_tile_unzip, {"(2,(2,_))"}, {HIER}, {0}, {{0}}},
  {"cl_coalesce", call_coalesce, {0}, {BIG}, {0}, {{0}}},
  {"cl_coalesce_profile", call_coalesce_profile, {"(1,1,(1,1),1,_,(1,(1,1)))"}, {BIG}, {0}, {{0}}},
  {"cl_filter_zeros", call_filter_zeros, {0}, {BIG}, {0}, {{0}}},
  {"cl_filter", call_filter, {0}, {BIG}, {0}, {{0}}},
  {"cl_filter_profile", call_filter_profile, {"(1,1,(1,1),1,_,(1,(1,1)))"}, {BIG}, {0}, {{0}}},
  {"cl_composition", call_composition, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_composition_tiler", call_composition_tiler, {"(2:1,_,(2,2):(1,2),_,2,(1,(1,2)))"}, {BIG}, {0}, {{0}}},
  {"cl_complement", call_complement, {0}, {GAPS}, {0}, {{0}}},
  {"cl_complement_shape", call_complement_shape, {"(1024,(4096,1024))"}, {GAPS}, {0}, {{0}}},
  {"cl_complement_full", call_complement_full, {0}, {GAPS}, {0}, {{0}}},
  {"cl_right_inverse", call_right_inverse, {0}, {BIG}, {0}, {{0}}},
  {"cl_left_inverse", call_left_inverse, {0}, {GAPS}, {0}, {{0}}},
  {"cl_logical_divide", call_logical_divide, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_logical_divide_tiler", call_logical_divide_tiler, {LAYOUT_TILER}, {BIG}, {0}, {{0}}},
  {"cl_zipped_divide", call_zipped_divide, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_zipped_divide_tiler", call_zipped_divide_tiler, {TILER}, {BIG}, {0}, {{0}}},
  {"cl_tiled_divide", call_tiled_divide, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_tiled_divide_tiler", call_tiled_divide_tiler, {TILER}, {BIG}, {0}, {{0}}},
  {"cl_flat_divide", call_flat_divide, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_flat_divide_tiler", call_flat_divide_tiler, {TILER}, {BIG}, {0}, {{0}}},
  {"cl_logical_product", call_logical_product, {0}, {HIER, GAPS}, {0}, {{0}}},
  {"cl_logical_product_tiler", call_logical_product_tiler, {LAYOUT_TILER}, {BIG}, {0}, {{0}}},
  {"cl_zipped_product", call_zipped_product, {0}, {HIER, GAPS}, {0}, {{0}}},
  {"cl_zipped_product_tiler", call_zipped_product_tiler, {TILER}, {BIG}, {0}, {{0}}},
  {"cl_tiled_product", call_tiled_product, {0}, {HIER, GAPS}, {0}, {{0}}},
  {"cl_tiled_product_tiler", call_tiled_product_tiler, {TILER}, {BIG}, {0}, {{0}}},
  {"cl_flat_product", call_flat_product, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_flat_product_tiler", call_flat_product_tiler, {TILER}, {BIG}, {0}, {{0}}},
  {"cl_blocked_product", call_blocked_product, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_raked_product", call_raked_product, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_tile_to_shape", call_tile_to_shape, {"((16,16),(8,(4,16)))", "(1,0)"}, {HIER}, {0}, {{0}}},
  {"cl_max_common_vector", call_max_common_vector, {0}, {BIG, BIG_FLAT}, {0}, {{0}}},
  {"cl_max_common_layout", call_max_common_layout, {0}, {BIG, BIG_FLAT}, {0}, {{0}}},
  {"cl_nullspace", call_nullspace, {0}, {BIG}, {0}, {{0}}},
  {"cl_upcast", call_upcast, {0}, {BIG}, {0}, {{0}}},
  {"cl_downcast", call_downcast, {0}, {BIG}, {0}, {{0}}},
};

static void test_algebra(void **state) {
  (void)state;
  check_cases(algebra_cases, COUNT_OF(algebra_cases));
}

/* ------------------------------------------------------------ swizzles and composed layouts */

static const cl_swizzle_t SW343 = {3, 4, 3};

static int64_t call_make_composed_layout(const inputs *in, results *r) {
  return cl_make_composed_layout(cl_fn_layout(in->l[1]), 7, cl_fn_layout(in->l[0]), &r->composed);
}
static int64_t call_composed_copy(const inputs *in, results *r) { return cl_composed_copy(in->c[0], &r->composed); }
static int64_t call_composed_shape(const inputs *in, results *r) { return cl_composed_shape(in->c[0], &r->tuple); }
static int64_t call_composed_eval_coord(const inputs *in, results *r) {
  return cl_composed_eval_coord(in->c[0], in->t[0], &r->value);
}
static int64_t call_composition_offset(const inputs *in, results *r) {
  return cl_composition_offset(cl_fn_swizzle(SW343), 0, cl_fn_layout(in->l[0]), &r->layout, &r->composed);
}
static int64_t call_composition_offset_identity(const inputs *in, results *r) {
  const cl_swizzle_t identity = {0, 4, 3};
  return cl_composition_offset(cl_fn_swizzle(identity), 0, cl_fn_layout(in->l[0]), &r->layout, &r->composed);
}
static int64_t call_composition_with_swizzle(const inputs *in, results *r) {
  const cl_swizzle_t sw = {2, 0, 3};
  return cl_composition_with_swizzle(in->l[0], sw, &r->layout, &r->composed);
}
static int64_t call_make_layout_from_swizzle(const inputs *in, results *r) {
  (void)in;
  return cl_make_layout_from_swizzle(SW343, &r->layout, &r->composed);
}
static int64_t call_composed_slice_and_offset(const inputs *in, results *r) {
  return cl_composed_slice_and_offset(in->t[0], in->c[0], &r->layout, &r->composed, &r->value);
}
static int64_t call_composed_slice(const inputs *in, results *r) {
  return cl_composed_slice(in->t[0], in->c[0], &r->layout, &r->composed);
}
static int64_t call_composed_get(const inputs *in, results *r) {
  const int64_t path[] = {3, 1};
  return cl_composed_get(in->c[0], path, 2, &r->layout, &r->composed);
}
static int64_t call_composed_take(const inputs *in, results *r) {
  return cl_composed_take(in->c[0], 2, 11, &r->layout, &r->composed);
}
static int64_t call_composed_group(const inputs *in, results *r) {
  return cl_composed_group(in->c[0], 2, 11, &r->layout, &r->composed);
}
static int64_t call_composed_flatten(const inputs *in, results *r) {
  return cl_composed_flatten(in->c[0], &r->layout, &r->composed);
}
static int64_t call_composed_zip(const inputs *in, results *r) { return cl_composed_zip(in->c[0], &r->layout, &r->composed); }
static int64_t call_composed_composition(const inputs *in, results *r) {
  return cl_composed_composition(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_logical_divide(const inputs *in, results *r) {
  return cl_composed_logical_divide(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_zipped_divide(const inputs *in, results *r) {
  return cl_composed_zipped_divide(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_tiled_divide(const inputs *in, results *r) {
  return cl_composed_tiled_divide(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_flat_divide(const inputs *in, results *r) {
  return cl_composed_flat_divide(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_logical_product(const inputs *in, results *r) {
  return cl_composed_logical_product(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_zipped_product(const inputs *in, results *r) {
  return cl_composed_zipped_product(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_tiled_product(const inputs *in, results *r) {
  return cl_composed_tiled_product(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_flat_product(const inputs *in, results *r) {
  return cl_composed_flat_product(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_blocked_product(const inputs *in, results *r) {
  return cl_composed_blocked_product(in->c[0], in->l[0], &r->layout, &r->composed);
}
static int64_t call_composed_raked_product(const inputs *in, results *r) {
  return cl_composed_raked_product(in->c[0], in->l[0], &r->layout, &r->composed);
}
static int64_t call_composed_tile_to_shape(const inputs *in, results *r) {
  return cl_composed_tile_to_shape(in->c[0], in->t[0], NULL, &r->layout, &r->composed);
}
static int64_t call_composed_coalesce(const inputs *in, results *r) {
  return cl_composed_coalesce(in->c[0], NULL, &r->layout, &r->composed);
}
static int64_t call_composed_coalesce_profile(const inputs *in, results *r) {
  return cl_composed_coalesce(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_filter(const inputs *in, results *r) {
  return cl_composed_filter(in->c[0], in->t[0], &r->layout, &r->composed);
}
static int64_t call_composed_complement(const inputs *in, results *r) {
  return cl_composed_complement(in->c[0], in->t[0], &r->layout);
}
static int64_t call_composed_right_inverse(const inputs *in, results *r) {
  return cl_composed_right_inverse(in->c[0], &r->layout, &r->composed);
}
static int64_t call_composed_left_inverse(const inputs *in, results *r) {
  return cl_composed_left_inverse(in->c[0], &r->layout, &r->composed);
}
static int64_t call_composed_upcast(const inputs *in, results *r) {
  return cl_composed_upcast(in->c[0], 2, &r->layout, &r->composed);
}
static int64_t call_composed_downcast(const inputs *in, results *r) {
  return cl_composed_downcast(in->c[0], 2, &r->layout, &r->composed);
}
static int64_t call_composed_parse_nested(const inputs *in, results *r) {
  (void)in;
  return cl_composed_parse(NESTED, &r->composed);
}
static int64_t call_make_composed_nested(const inputs *in, results *r) {
  return cl_make_composed_nested(cl_layout_fn_composed(in->c[0]), 3, cl_layout_fn_composed(in->c[1]), &r->composed);
}
static int64_t call_composition_with_composed(const inputs *in, results *r) {
  return cl_composition_with_composed(in->l[0], in->c[0], &r->layout, &r->composed);
}
static int64_t call_composed_composition_with_composed(const inputs *in, results *r) {
  return cl_composed_composition_with_composed(in->c[0], in->c[1], &r->layout, &r->composed);
}
static int64_t call_logical_product_with_composed(const inputs *in, results *r) {
  return cl_logical_product_with_composed(in->l[0], in->c[0], &r->layout, &r->composed);
}
static int64_t call_zipped_product_with_composed(const inputs *in, results *r) {
  return cl_zipped_product_with_composed(in->l[0], in->c[0], &r->layout, &r->composed);
}
static int64_t call_tiled_product_with_composed(const inputs *in, results *r) {
  return cl_tiled_product_with_composed(in->l[0], in->c[0], &r->layout, &r->composed);
}
static int64_t call_flat_product_with_composed(const inputs *in, results *r) {
  return cl_flat_product_with_composed(in->l[0], in->c[0], &r->layout, &r->composed);
}
static int64_t call_composed_max_common_vector(const inputs *in, results *r) {
  return cl_composed_max_common_vector(in->c[0], in->l[0], &r->value);
}
static int64_t call_composed_max_common_vector2(const inputs *in, results *r) {
  return cl_composed_max_common_vector2(in->c[0], in->c[1], &r->value);
}
static int64_t call_composed_max_common_layout(const inputs *in, results *r) {
  return cl_composed_max_common_layout(in->c[0], in->l[0], &r->layout);
}
static int64_t call_composed_make_fragment_like(const inputs *in, results *r) {
  return cl_composed_make_fragment_like(in->c[0], &r->layout);
}
static int64_t call_composed_nullspace(const inputs *in, results *r) { return cl_composed_nullspace(in->c[0], &r->layout); }

#define SWIZZLED_HIER "Sw<3,4,3> o 0 o " HIER
#define SMALL_SWIZZLED "Sw<2,1,2> o 0 o (8,8):(8,1)"

static int64_t call_composed_append(const inputs *in, results *r) {
  return cl_composed_append(in->c[0], in->l[0], 6, &r->layout, &r->composed);
}
static int64_t call_composed_domain_offset(const inputs *in, results *r) {
  return cl_composed_domain_offset(in->t[0], in->c[0], &r->composed, &r->value);
}
static int64_t call_composed_max_alignment(const inputs *in, results *r) {
  return cl_composed_max_alignment(in->c[0], &r->value);
}
static int64_t call_composed_recast_layout(const inputs *in, results *r) {
  return cl_composed_recast_layout(in->c[0], 16, 64, &r->layout, &r->composed);
}
static int64_t call_composed_tile_unzip(const inputs *in, results *r) {
  cl_layout_t *l = NULL;
  cl_composed_t *divided = NULL;
  r->layout = NULL;
  r->composed = NULL;
  cl_status s = cl_composed_logical_divide(in->c[0], in->t[0], &l, &divided);
  if (s == CL_OK)
    s = cl_composed_tile_unzip(divided, in->t[0], &r->layout, &r->composed);
  cl_layout_free(l);
  cl_composed_free(divided);
  return s;
}

static const nomem_case swizzle_cases[] = {
  {"cl_composed_append", call_composed_append, {0}, {HIER}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_domain_offset", call_composed_domain_offset, {"((1,2),(1,(1,3)))"}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_max_alignment", call_composed_max_alignment, {0}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_recast_layout", call_composed_recast_layout, {0}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_tile_unzip", call_composed_tile_unzip, {"(2,(2,_))"}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_make_composed_layout", call_make_composed_layout, {0}, {BIG, HIER}, {0}, {{0}}},
  {"cl_composed_copy", call_composed_copy, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_shape", call_composed_shape, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_eval_coord", call_composed_eval_coord, {BIG_ORDER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composition_offset", call_composition_offset, {0}, {BIG}, {0}, {{0}}},
  {"cl_composition_offset (identity swizzle)", call_composition_offset_identity, {0}, {BIG}, {0}, {{0}}},
  {"cl_composition_with_swizzle", call_composition_with_swizzle, {0}, {HIER}, {0}, {{0}}},
  {"cl_make_layout_from_swizzle", call_make_layout_from_swizzle, {0}, {0}, {0}, {{0}}},
  {"cl_composed_slice_and_offset", call_composed_slice_and_offset, {BIG_CRD}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_slice", call_composed_slice, {BIG_CRD}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_slice (decays to a layout)", call_composed_slice, {"((_,3),(_,(1,2)))"}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_slice_and_offset (swizzle in the strides)", call_composed_slice_and_offset, {"((_,_),(1,(_,2)))"}, {0},
   {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_slice (outer layout)", call_composed_slice, {"((1,_),(_,(1,_)))"}, {0}, {OUTER_LAYOUT}, {{0}}},
  {"cl_composed_get", call_composed_get, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_take", call_composed_take, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_group", call_composed_group, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_flatten", call_composed_flatten, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_zip", call_composed_zip, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_composition", call_composed_composition, {LAYOUT_TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_logical_divide", call_composed_logical_divide, {LAYOUT_TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_zipped_divide", call_composed_zipped_divide, {TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_tiled_divide", call_composed_tiled_divide, {TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_flat_divide", call_composed_flat_divide, {TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_logical_product", call_composed_logical_product, {LAYOUT_TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_zipped_product", call_composed_zipped_product, {TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_tiled_product", call_composed_tiled_product, {TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_flat_product", call_composed_flat_product, {TILER}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_blocked_product", call_composed_blocked_product, {0}, {HIER}, {SWIZZLED}, {{0}}},
  {"cl_composed_raked_product", call_composed_raked_product, {0}, {HIER}, {SWIZZLED}, {{0}}},
  {"cl_composed_tile_to_shape", call_composed_tile_to_shape, {"((16,16),(8,(4,16)))"}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_coalesce", call_composed_coalesce, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_coalesce (profile)", call_composed_coalesce_profile, {"(1,1,(1,1))"}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_filter", call_composed_filter, {"(1,1,(1,1))"}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_complement", call_composed_complement, {"(1024,(4096,1024))"}, {0}, {"Sw<3,4,3> o 0 o " GAPS}, {{0}}},
  {"cl_composed_right_inverse", call_composed_right_inverse, {0}, {0}, {SWIZZLED_MID}, {{0}}},
  {"cl_composed_left_inverse", call_composed_left_inverse, {0}, {0}, {SWIZZLED_MID}, {{0}}},
  {"cl_composed_right_inverse (outer layout)", call_composed_right_inverse, {0}, {0}, {OUTER_LAYOUT}, {{0}}},
  {"cl_composed_left_inverse (outer layout)", call_composed_left_inverse, {0}, {0}, {OUTER_LAYOUT}, {{0}}},
  {"cl_composed_upcast", call_composed_upcast, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_downcast", call_composed_downcast, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composition_with_composed", call_composition_with_composed, {0}, {MID}, {"Sw<3,4,3> o 0 o " HIER}, {{0}}},
  {"cl_composed_parse (nested)", call_composed_parse_nested, {0}, {0}, {0}, {{0}}},
  {"cl_make_composed_nested", call_make_composed_nested, {0}, {0}, {SWIZZLED_MID, OUTER_LAYOUT}, {{0}}},
  {"cl_composed_copy (nested)", call_composed_copy, {0}, {0}, {NESTED}, {{0}}},
  {"cl_composed_right_inverse (nested)", call_composed_right_inverse, {0}, {0}, {NESTED}, {{0}}},
  {"cl_composed_left_inverse (nested left)", call_composed_left_inverse, {0}, {0}, {NESTED_LEFT}, {{0}}},
  {"cl_composed_composition (nested)", call_composed_composition, {MID_SHAPE}, {0}, {NESTED}, {{0}}},
  {"cl_composed_logical_divide (nested)", call_composed_logical_divide, {"(2,4)"}, {0}, {NESTED}, {{0}}},
  {"cl_composed_downcast (nested)", call_composed_downcast, {0}, {0}, {NESTED}, {{0}}},
  {"cl_composed_slice_and_offset (nested)", call_composed_slice_and_offset, {"(1,_,_,_,_,_,_,_,_,_,_,_,_)"}, {0},
   {"(64,64):(64,1) o 2 o " SWIZZLED_MID}, {{0}}},
  {"cl_composition_with_composed (nested)", call_composition_with_composed, {0}, {MID}, {NESTED}, {{0}}},
  {"cl_composed_composition_with_composed", call_composed_composition_with_composed, {0}, {0},
   {OUTER_LAYOUT, "(64,64):(64,1) o 0 o " HIER}, {{0}}},
  {"cl_composed_composition_with_composed (nesting)", call_composed_composition_with_composed, {0}, {0},
   {SWIZZLED_MID, "Sw<2,4,-3> o 0 o " MID}, {{0}}},
  {"cl_logical_product_with_composed", call_logical_product_with_composed, {0}, {HIER}, {SWIZZLED}, {{0}}},
  {"cl_zipped_product_with_composed", call_zipped_product_with_composed, {0}, {HIER}, {SWIZZLED}, {{0}}},
  {"cl_tiled_product_with_composed", call_tiled_product_with_composed, {0}, {HIER}, {SWIZZLED}, {{0}}},
  {"cl_flat_product_with_composed", call_flat_product_with_composed, {0}, {HIER}, {SWIZZLED}, {{0}}},
  {"cl_composed_max_common_vector", call_composed_max_common_vector, {0}, {BIG}, {SWIZZLED}, {{0}}},
  {"cl_composed_max_common_vector2", call_composed_max_common_vector2, {0}, {0}, {SWIZZLED, "Sw<2,4,3> o 0 o " BIG},
   {{0}}},
  {"cl_composed_max_common_layout", call_composed_max_common_layout, {0}, {BIG}, {SWIZZLED}, {{0}}},
  {"cl_composed_make_fragment_like", call_composed_make_fragment_like, {0}, {0}, {SWIZZLED}, {{0}}},
  {"cl_composed_nullspace", call_composed_nullspace, {0}, {0}, {SWIZZLED}, {{0}}},
};

static void test_swizzle(void **state) {
  (void)state;
  check_cases(swizzle_cases, COUNT_OF(swizzle_cases));
}

/* ------------------------------------------------------------ tensors */

static int64_t call_tensor_create(const inputs *in, results *r) {
  cl_tensor_desc desc = {sizeof desc, mem[0], 0, CL_DTYPE_INT32, mem[0], sizeof mem[0]};
  return cl_tensor_create(&desc, in->l[0], &r->tensor);
}
static int64_t call_tensor_new(const inputs *in, results *r) {
  return cl_tensor_new(mem[0], sizeof(int32_t), in->l[0], &r->tensor);
}
static int64_t call_tensor_new_typed(const inputs *in, results *r) {
  return cl_tensor_new_typed(mem[0], CL_DTYPE_INT32, in->l[0], &r->tensor);
}
static int64_t call_tensor_alloc(const inputs *in, results *r) {
  return cl_tensor_alloc(in->l[0], 0, CL_DTYPE_FLOAT64, &r->tensor);
}
static int64_t call_make_tensor_like(const inputs *in, results *r) { return cl_make_tensor_like(in->x[0], &r->tensor); }
static int64_t call_make_fragment_like_tensor(const inputs *in, results *r) {
  return cl_make_fragment_like_tensor(in->x[0], &r->tensor);
}
static int64_t call_tensor_copy_handle(const inputs *in, results *r) {
  return cl_tensor_copy_handle(in->x[0], &r->tensor);
}
static int64_t call_tensor_slice(const inputs *in, results *r) { return cl_tensor_slice(in->x[0], in->t[0], &r->tensor); }
static int64_t call_tensor_with_layout(const inputs *in, results *r) {
  return cl_tensor_with_layout(in->x[0], in->l[0], &r->tensor);
}
static int64_t call_tensor_flatten(const inputs *in, results *r) { return cl_tensor_flatten(in->x[0], &r->tensor); }
static int64_t call_tensor_group(const inputs *in, results *r) { return cl_tensor_group(in->x[0], 2, 11, &r->tensor); }
static int64_t call_tensor_compose(const inputs *in, results *r) {
  return cl_tensor_compose(in->x[0], in->t[0], &r->tensor);
}
static int64_t call_tensor_compose_layout(const inputs *in, results *r) {
  return cl_tensor_compose_layout(in->x[0], in->l[0], &r->tensor);
}
static int64_t call_tensor_logical_divide(const inputs *in, results *r) {
  return cl_tensor_logical_divide(in->x[0], in->t[0], &r->tensor);
}
static int64_t call_tensor_zipped_divide(const inputs *in, results *r) {
  return cl_tensor_zipped_divide(in->x[0], in->t[0], &r->tensor);
}
static int64_t call_inner_partition(const inputs *in, results *r) {
  return cl_inner_partition(in->x[0], in->t[0], in->t[1], &r->tensor);
}
static int64_t call_local_tile(const inputs *in, results *r) {
  return cl_local_tile(in->x[0], in->t[0], in->t[1], &r->tensor);
}
static int64_t call_outer_partition(const inputs *in, results *r) {
  return cl_outer_partition(in->x[0], in->t[0], in->t[1], &r->tensor);
}
static int64_t call_local_partition(const inputs *in, results *r) {
  return cl_local_partition(in->x[0], in->l[0], 5, &r->tensor);
}
static int64_t call_tensor_recast(const inputs *in, results *r) {
  return cl_tensor_recast(in->x[0], 0, CL_DTYPE_INT16, &r->tensor);
}
static int64_t call_tensor_copy(const inputs *in, results *r) {
  (void)r;
  return cl_tensor_copy(in->x[1], in->x[0]);
}
static int64_t call_tensor_copy_streaming(const inputs *in, results *r) {
  (void)r;
  cl_copy_options_t opt = {sizeof opt, CL_COPY_STORES_STREAMING, 4, NULL};
  return cl_tensor_copy_ex(in->x[1], in->x[0], &opt);
}
/* A pool made, used for one copy and freed within the call. */
static int64_t call_copy_pool(const inputs *in, results *r) {
  (void)r;
  cl_copy_pool_t *pool = NULL;
  cl_status s = cl_copy_pool_new(2, &pool);
  if (s != CL_OK)
    return s;
  cl_copy_options_t opt = {sizeof opt, CL_COPY_STORES_AUTO, 4, pool};
  s = cl_tensor_copy_ex(in->x[1], in->x[0], &opt);
  cl_copy_pool_free(pool);
  return s;
}
static int64_t call_tensor_copy_plan(const inputs *in, results *r) {
  (void)r;
  static cl_copy_plan_t plan;
  plan.struct_size = sizeof plan;
  return cl_tensor_copy_plan(in->x[1], in->x[0], NULL, &plan);
}
static int64_t call_tensor_copy_explain(const inputs *in, results *r) {
  return cl_tensor_copy_explain(in->x[1], in->x[0], r->buf, OUT_CAP);
}
static int64_t call_tensor_fill(const inputs *in, results *r) {
  (void)r;
  const int32_t value = -1;
  return cl_tensor_fill(in->x[0], &value);
}
static void negate_element(void *ctx, void *elem, int64_t i) {
  (void)ctx;
  (void)i;
  *(int32_t *)elem = -*(int32_t *)elem;
}
static int64_t call_tensor_apply(const inputs *in, results *r) {
  (void)r;
  return cl_tensor_apply(in->x[0], negate_element, NULL);
}
static void copy_element(void *ctx, void *dst, const void *src) {
  (void)ctx;
  memcpy(dst, src, sizeof(int32_t));
}
static int64_t call_tensor_transform(const inputs *in, results *r) {
  (void)r;
  return cl_tensor_transform(in->x[1], in->x[0], copy_element, NULL);
}
static int64_t call_odometer_new(const inputs *in, results *r) { return cl_odometer_new(in->l[0], &r->odometer); }
static int64_t call_print_tensor(const inputs *in, results *r) { return cl_print_tensor(in->x[0], 0, r->buf, OUT_CAP); }
static int64_t call_print_tensor_file(const inputs *in, results *r) { return cl_print_tensor_file(in->x[0], 0, r->file); }
static int64_t call_tensor_from_dlpack(const inputs *in, results *r) {
  (void)in;
  /* 30 dimensions with row-major strides left to the library. */
  int64_t shape[30];
  for (int k = 0; k < 30; k++)
    shape[k] = k % 7 == 3 ? 1 : 2;
  for (int k = 13; k < 30; k++)
    shape[k] = 1;
  cl_dltensor_t dl = {mem[0], {1, 0}, 30, {0, 32, 1}, shape, NULL, 0};
  return cl_tensor_from_dlpack(&dl, &r->tensor);
}
static int64_t call_tensor_to_dlpack(const inputs *in, results *r) {
  return cl_tensor_to_dlpack(in->x[0], &r->dl, r->dims[0], r->dims[1], 8);
}
static int64_t call_tensor_ptr_coord(const inputs *in, results *r) {
  void *p = NULL;
  cl_status s = cl_tensor_ptr_coord(in->x[0], in->t[0], &p);
  r->value = (int64_t)((char *)p - (char *)mem[0]);
  return s;
}
static int64_t call_tensor_check_bounds(const inputs *in, results *r) {
  (void)r;
  return cl_tensor_check_bounds(in->x[0]);
}
static int64_t call_tensor_offset_range(const inputs *in, results *r) {
  int64_t lo = 0, hi = 0;
  cl_status s = cl_tensor_offset_range(in->x[0], &lo, &hi);
  r->value = hi - lo;
  return s;
}

#define ON_MEM0(layout) {{layout, 0, 0}}
#define ON_MEM0_MEM1(src, dst) {{src, 0, 0}, {dst, 1, 0}}

static const nomem_case tensor_cases[] = {
  {"cl_tensor_create", call_tensor_create, {0}, {T_BIG}, {0}, {{0}}},
  {"cl_tensor_new", call_tensor_new, {0}, {T_BIG}, {0}, {{0}}},
  {"cl_tensor_new_typed", call_tensor_new_typed, {0}, {T_BIG}, {0}, {{0}}},
  {"cl_tensor_alloc", call_tensor_alloc, {0}, {T_BIG}, {0}, {{0}}},
  {"cl_make_tensor_like", call_make_tensor_like, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_make_fragment_like_tensor", call_make_fragment_like_tensor, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_copy_handle", call_tensor_copy_handle, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_slice", call_tensor_slice, {"(_,(1,0),_,(_,0),(1,_),_,_,_,(0,0),_,_,_,_)"}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_with_layout", call_tensor_with_layout, {0}, {T_BIG}, {0}, ON_MEM0(T_TILE)},
  {"cl_tensor_flatten", call_tensor_flatten, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_group", call_tensor_group, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_compose", call_tensor_compose, {"(2:1,_,(2,1):(1,2),_,2)"}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_compose_layout", call_tensor_compose_layout, {0}, {HIER}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_logical_divide", call_tensor_logical_divide, {"(8,4)"}, {0}, {0}, ON_MEM0(T_TILE)},
  {"cl_tensor_zipped_divide", call_tensor_zipped_divide, {"(8,4)"}, {0}, {0}, ON_MEM0(T_TILE)},
  {"cl_inner_partition", call_inner_partition, {"(8,4)", "(1,2)"}, {0}, {0}, ON_MEM0(T_TILE)},
  {"cl_local_tile", call_local_tile, {"(8,4)", "(1,2)"}, {0}, {0}, ON_MEM0(T_TILE)},
  {"cl_outer_partition", call_outer_partition, {"(8,4)", "(3,1)"}, {0}, {0}, ON_MEM0(T_TILE)},
  {"cl_local_partition", call_local_partition, {0}, {"(4,8):(8,1)"}, {0}, ON_MEM0(T_TILE)},
  {"cl_tensor_recast", call_tensor_recast, {0}, {0}, {0}, ON_MEM0(T_TILE)},
  {"cl_tensor_copy", call_tensor_copy, {0}, {0}, {0}, ON_MEM0_MEM1(T_BIG, T_TILE)},
  {"cl_tensor_copy (transpose)", call_tensor_copy, {0}, {0}, {0},
   ON_MEM0_MEM1("(4,4,4,4):(16,128,1,4)", "(4,4,4,4):(1,4,16,64)")},
  {"cl_copy_pool_new, cl_tensor_copy_ex through it", call_copy_pool, {0}, {0}, {0},
   ON_MEM0_MEM1("(4,4,4,4):(16,128,1,4)", "(4,4,4,4):(1,4,16,64)")},
  {"cl_tensor_copy (14 modes permuted)", call_tensor_copy, {0}, {0}, {0}, ON_MEM0_MEM1(T_WIDE, T_WIDE_T)},
  {"cl_tensor_copy (interleaved in one buffer)", call_tensor_copy, {0}, {0}, {0}, {{"4096:2", 0, 0}, {"4096:2", 0, 1}}},
  {"cl_tensor_copy_ex (streaming)", call_tensor_copy_streaming, {0}, {0}, {0}, ON_MEM0_MEM1(T_WIDE, T_WIDE_T)},
  {"cl_tensor_copy_ex (staged transpose)", call_tensor_copy_streaming, {0}, {0}, {0},
   ON_MEM0_MEM1("(1024,16):(16,1)", "(1024,16):(1,1024)")},
  {"cl_tensor_copy_plan", call_tensor_copy_plan, {0}, {0}, {0}, ON_MEM0_MEM1(T_BIG, T_TILE)},
  {"cl_tensor_copy_plan (14 modes permuted)", call_tensor_copy_plan, {0}, {0}, {0}, ON_MEM0_MEM1(T_WIDE, T_WIDE_T)},
  {"cl_tensor_copy_explain", call_tensor_copy_explain, {0}, {0}, {0}, ON_MEM0_MEM1(T_BIG, T_TILE)},
  {"cl_tensor_copy_explain (transpose)", call_tensor_copy_explain, {0}, {0}, {0},
   ON_MEM0_MEM1("(4,4,4,4):(16,128,1,4)", "(4,4,4,4):(1,4,16,64)")},
  {"cl_tensor_copy_explain (14 modes permuted)", call_tensor_copy_explain, {0}, {0}, {0}, ON_MEM0_MEM1(T_WIDE, T_WIDE_T)},
  {"cl_tensor_fill", call_tensor_fill, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_apply", call_tensor_apply, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_transform", call_tensor_transform, {0}, {0}, {0}, ON_MEM0_MEM1(T_WIDE, T_WIDE_T)},
  {"cl_odometer_new", call_odometer_new, {0}, {T_BIG}, {0}, {{0}}},
  {"cl_print_tensor", call_print_tensor, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_print_tensor_file", call_print_tensor_file, {0}, {0}, {0}, ON_MEM0(T_WIDE)},
  {"cl_tensor_from_dlpack", call_tensor_from_dlpack, {0}, {0}, {0}, {{0}}},
  {"cl_tensor_to_dlpack", call_tensor_to_dlpack, {0}, {0}, {0}, ON_MEM0(T_TILE)},
  {"cl_tensor_ptr_coord", call_tensor_ptr_coord, {"((1,0),(0,0),(1,0),(1,0),(1,0),(1,0),(1,0),(1,0),(1,0),(1,0),"
                                                  "(1,0),(1,0),(1,0))"}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_check_bounds", call_tensor_check_bounds, {0}, {0}, {0}, ON_MEM0(T_BIG)},
  {"cl_tensor_offset_range", call_tensor_offset_range, {0}, {0}, {0}, ON_MEM0(T_BIG)},
};

static void test_tensor(void **state) {
  (void)state;
  check_cases(tensor_cases, COUNT_OF(tensor_cases));
}

/* ------------------------------------------------------------ pictures and evaluation */

static int64_t call_print_layout(const inputs *in, results *r) { return cl_print_layout(in->l[0], r->buf, OUT_CAP); }
static int64_t call_print_1d(const inputs *in, results *r) { return cl_print_1d(in->l[0], r->buf, OUT_CAP); }
static int64_t render_as(const inputs *in, results *r, cl_picture_format format) {
  cl_picture_options options = CL_PICTURE_OPTIONS_INIT;
  options.format = format;
  return cl_render_layout(in->l[0], &options, r->buf, OUT_CAP);
}
static int64_t call_render_svg(const inputs *in, results *r) { return render_as(in, r, CL_PICTURE_SVG); }
static int64_t call_render_tex(const inputs *in, results *r) { return render_as(in, r, CL_PICTURE_TEX); }
static int64_t call_render_txt(const inputs *in, results *r) { return render_as(in, r, CL_PICTURE_TXT); }
static int64_t call_render_layout_file(const inputs *in, results *r) {
  cl_picture_options options = CL_PICTURE_OPTIONS_INIT;
  options.title = "a title";
  return cl_render_layout_file(in->l[0], &options, r->file);
}
static int64_t call_render_layout_file_txt(const inputs *in, results *r) {
  cl_picture_options options = CL_PICTURE_OPTIONS_INIT;
  options.format = CL_PICTURE_TXT;
  return cl_render_layout_file(in->l[0], &options, r->file);
}
static int64_t render_tv_as(const inputs *in, results *r, cl_picture_format format) {
  cl_picture_options options = CL_PICTURE_OPTIONS_INIT;
  options.format = format;
  return cl_render_tv(in->l[0], 8, 8, &options, r->buf, OUT_CAP);
}
static int64_t call_render_tv_svg(const inputs *in, results *r) { return render_tv_as(in, r, CL_PICTURE_SVG); }
static int64_t call_render_tv_tex(const inputs *in, results *r) { return render_tv_as(in, r, CL_PICTURE_TEX); }
static int64_t call_render_tv_txt(const inputs *in, results *r) { return render_tv_as(in, r, CL_PICTURE_TXT); }
static int64_t call_render_tv_file(const inputs *in, results *r) {
  return cl_render_tv_file(in->l[0], 8, 8, NULL, r->file);
}
/* A grid with an outline beside a TV tile, bank colours: every step of a
 * figure of several panels. */
static int64_t panels_as(const inputs *in, results *r, cl_picture_format format) {
  cl_picture_options options = CL_PICTURE_OPTIONS_INIT;
  options.format = format;
  options.colour = CL_COLOUR_BANK;
  options.title = "a caption";
  cl_picture_panel panels[2] = {{in->l[0], NULL, NULL, 0, 0, 3}, {in->l[1], NULL, "tv", 8, 8, 5}};
  return cl_render_panels(panels, 2, &options, r->buf, OUT_CAP);
}
static int64_t call_render_panels_svg(const inputs *in, results *r) { return panels_as(in, r, CL_PICTURE_SVG); }
static int64_t call_render_panels_tex(const inputs *in, results *r) { return panels_as(in, r, CL_PICTURE_TEX); }
static int64_t call_render_panels_txt(const inputs *in, results *r) { return panels_as(in, r, CL_PICTURE_TXT); }
static int64_t call_render_panels_file(const inputs *in, results *r) {
  cl_picture_panel panels[3] = {{in->l[0], NULL, NULL, 0, 0, -1}, {in->l[1], NULL, NULL, 8, 8, -1},
                                {NULL, in->c[0], NULL, 0, 0, 7}};
  return cl_render_panels_file(panels, 3, NULL, r->file);
}
static int64_t call_composed_print_layout(const inputs *in, results *r) {
  return cl_composed_print_layout(in->c[0], r->buf, OUT_CAP);
}
static int64_t call_composed_print_1d(const inputs *in, results *r) {
  return cl_composed_print_1d(in->c[0], r->buf, OUT_CAP);
}
static int64_t call_render_composed(const inputs *in, results *r) {
  return cl_render_composed(in->c[0], NULL, r->buf, OUT_CAP);
}
static int64_t call_render_composed_file(const inputs *in, results *r) {
  cl_picture_options options = CL_PICTURE_OPTIONS_INIT;
  options.format = CL_PICTURE_TEX;
  return cl_render_composed_file(in->c[0], &options, r->file);
}
static int64_t call_render_composed_tv(const inputs *in, results *r) {
  return cl_render_composed_tv(in->c[0], 8, 8, NULL, r->buf, OUT_CAP);
}
static int64_t call_render_composed_tv_file(const inputs *in, results *r) {
  return cl_render_composed_tv_file(in->c[0], 8, 8, NULL, r->file);
}
static int64_t call_layout_eval_range(const inputs *in, results *r) {
  static int64_t out[4096];
  cl_status s = cl_layout_eval_range(in->l[0], 1000, 4096, out);
  r->value = (int64_t)digest_bytes(0, out, sizeof out);
  return s;
}

#define TV "((4,8),2):((2,8),1)"

static const nomem_case render_cases[] = {
  {"cl_print_layout", call_print_layout, {0}, {HIER}, {0}, {{0}}},
  {"cl_print_1d", call_print_1d, {0}, {HIER}, {0}, {{0}}},
  {"cl_render_layout (SVG)", call_render_svg, {0}, {HIER}, {0}, {{0}}},
  {"cl_render_layout (TeX)", call_render_tex, {0}, {HIER}, {0}, {{0}}},
  {"cl_render_layout (text, rank 3)", call_render_txt, {0}, {"(4,(2,4),(2,2)):(1,(4,64),(8,16))"}, {0}, {{0}}},
  {"cl_render_layout_file", call_render_layout_file, {0}, {HIER}, {0}, {{0}}},
  {"cl_render_layout_file (print_layout's table)", call_render_layout_file_txt, {0}, {HIER}, {0}, {{0}}},
  {"cl_render_tv (SVG)", call_render_tv_svg, {0}, {TV}, {0}, {{0}}},
  {"cl_render_tv (TeX)", call_render_tv_tex, {0}, {TV}, {0}, {{0}}},
  {"cl_render_tv (text)", call_render_tv_txt, {0}, {TV}, {0}, {{0}}},
  {"cl_render_tv_file", call_render_tv_file, {0}, {TV}, {0}, {{0}}},
  {"cl_render_panels (SVG)", call_render_panels_svg, {0}, {HIER, TV}, {0}, {{0}}},
  {"cl_render_panels (TeX)", call_render_panels_tex, {0}, {HIER, TV}, {0}, {{0}}},
  {"cl_render_panels (text)", call_render_panels_txt, {0}, {HIER, TV}, {0}, {{0}}},
  {"cl_render_panels_file", call_render_panels_file, {0}, {HIER, TV}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_print_layout", call_composed_print_layout, {0}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_composed_print_1d", call_composed_print_1d, {0}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_render_composed", call_render_composed, {0}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_render_composed_file (TeX)", call_render_composed_file, {0}, {0}, {SWIZZLED_HIER}, {{0}}},
  {"cl_render_composed_tv", call_render_composed_tv, {0}, {0}, {"Sw<2,0,3> o 0 o " TV}, {{0}}},
  {"cl_render_composed_tv_file", call_render_composed_tv_file, {0}, {0}, {"Sw<2,0,3> o 0 o " TV}, {{0}}},
  {"cl_layout_eval_range", call_layout_eval_range, {0}, {BIG}, {0}, {{0}}},
};

static void test_render_and_eval(void **state) {
  (void)state;
  check_cases(render_cases, COUNT_OF(render_cases));
}

/* ------------------------------------------------------------ the evaluation plan */

/* The first evaluation of a handle compiles its plan into room the handle
 * already has (eval.h): with every allocation failing it still answers, and
 * exactly; so do the later evaluations. */
static void test_first_evaluation(void **state) {
  (void)state;
  const char *texts[] = {HIER, BIG, GAPS, BIG_FLAT, "(3,(5,7)):(-1,(35,5))"};
  for (size_t t = 0; t < COUNT_OF(texts); t++) {
    cl_layout_t *fresh = lay(texts[t]), *reference = lay(texts[t]);
    cl_tuple_t *shape = NULL, *stride = NULL;
    assert_int_equal(cl_layout_shape(reference, &shape), CL_OK);
    assert_int_equal(cl_layout_stride(reference, &stride), CL_OK);
    int64_t at[SAMPLES + 1];
    int n = sample_points(cl_layout_size(reference), at);
    long live = heap.live;
    for (int k = 0; k < n; k++) {
      /* The tree evaluation, which has no plan, is the reference. */
      cl_tuple_t *i = NULL;
      assert_int_equal(cl_tuple_int(at[k], &i), CL_OK);
      int64_t expected, got, range;
      assert_int_equal(cl_crd2idx(i, shape, stride, &expected), CL_OK);
      cl_tuple_free(i);
      heap_arm(FAIL_STICKY, 1);
      assert_int_equal(cl_layout_eval(fresh, at[k], &got), CL_OK);
      assert_int_equal(cl_layout_eval_range(fresh, at[k], 1, &range), CL_OK);
      long allocations = heap.total;
      heap_arm(FAIL_NEVER, 0);
      assert_int_equal(allocations, 0);
      assert_int_equal(got, expected);
      assert_int_equal(range, expected);
    }
    assert_int_equal(heap.live, live);
    cl_tuple_free(shape);
    cl_tuple_free(stride);
    cl_layout_free(fresh);
    cl_layout_free(reference);
  }
}

/* ------------------------------------------------------ coordinate layouts */

#define ID_HIER "((4,8),(2,(2,4))):((1@0@0,1@1@0),(1@0@1,(1@0@1@1,1@1@1@1)))"
#define ID_2D "(41,55):(1@0,1@1)"
#define ID_SHAPE "((4,8),(2,(2,4)))"

/* The coordinate tensor the tensor calls read: made before them, outside
 * the counting of their allocations. */
static cl_coord_tensor_t *coord_input;

static int64_t call_tuple_basis(const inputs *in, results *r) {
  const int64_t path[] = {1, 0, 2};
  (void)in;
  return cl_tuple_basis(3, path, 3, &r->tuple);
}
static int64_t call_make_identity_layout(const inputs *in, results *r) {
  return cl_make_identity_layout(in->t[0], &r->layout);
}
static int64_t call_eval_tuple(const inputs *in, results *r) { return cl_layout_eval_tuple(in->l[0], 77, &r->tuple); }
static int64_t call_eval_coord_tuple(const inputs *in, results *r) {
  return cl_layout_eval_coord_tuple(in->l[0], in->t[0], &r->tuple);
}
static int64_t call_slice_and_offset_tuple(const inputs *in, results *r) {
  return cl_layout_slice_and_offset_tuple(in->t[0], in->l[0], &r->layout, &r->tuple);
}
static int64_t call_coordinate_coshape(const inputs *in, results *r) { return cl_layout_coshape(in->l[0], &r->tuple); }
static int64_t call_coordinate_cosize(const inputs *in, results *r) {
  return cl_layout_cosize_checked(in->l[0], &r->value);
}
static int64_t call_elem_less(const inputs *in, results *r) {
  int less = 0;
  cl_status s = cl_elem_less(in->t[0], in->t[1], &less);
  r->value = less;
  return s;
}
static int64_t call_coordinate_print_1d(const inputs *in, results *r) { return cl_print_1d(in->l[0], r->buf, OUT_CAP); }
static int64_t call_coordinate_render(const inputs *in, results *r) {
  return cl_render_layout(in->l[0], NULL, r->buf, OUT_CAP);
}
static int64_t call_make_identity_tensor(const inputs *in, results *r) {
  return cl_make_identity_tensor(in->t[0], &r->ctensor);
}
static int64_t call_make_coord_tensor(const inputs *in, results *r) { return cl_make_coord_tensor(in->l[0], &r->ctensor); }
static int64_t call_coord_tensor_new(const inputs *in, results *r) {
  return cl_coord_tensor_new(in->t[0], in->l[0], &r->ctensor);
}
static int64_t call_coord_tensor_with_layout(const inputs *in, results *r) {
  return cl_coord_tensor_with_layout(coord_input, in->l[0], &r->ctensor);
}
static int64_t call_coord_tensor_eval(const inputs *in, results *r) {
  (void)in;
  return cl_coord_tensor_eval(coord_input, 100, &r->tuple);
}
static int64_t call_coord_tensor_eval_coord(const inputs *in, results *r) {
  return cl_coord_tensor_eval_coord(coord_input, in->t[0], &r->tuple);
}
static int64_t call_coord_tensor_slice(const inputs *in, results *r) {
  return cl_coord_tensor_slice(coord_input, in->t[0], &r->ctensor);
}
static int64_t call_coord_local_tile(const inputs *in, results *r) {
  return cl_coord_local_tile(coord_input, in->t[0], in->t[1], NULL, &r->ctensor);
}
static int64_t call_coord_local_tile_proj(const inputs *in, results *r) {
  return cl_coord_local_tile(coord_input, in->t[0], in->t[1], in->t[2], &r->ctensor);
}
static int64_t call_coord_outer_partition(const inputs *in, results *r) {
  return cl_coord_outer_partition(coord_input, in->t[0], in->t[1], &r->ctensor);
}
static int64_t call_coord_local_partition(const inputs *in, results *r) {
  return cl_coord_local_partition(coord_input, in->l[0], 13, NULL, &r->ctensor);
}
static int64_t call_coord_local_partition_proj(const inputs *in, results *r) {
  return cl_coord_local_partition(coord_input, in->l[0], 13, in->t[0], &r->ctensor);
}
static int64_t call_coord_tensor_format(const inputs *in, results *r) {
  (void)in;
  return cl_coord_tensor_format(coord_input, r->buf, OUT_CAP);
}
static int64_t call_render_coord_tensor(const inputs *in, results *r) {
  (void)in;
  return cl_render_coord_tensor(coord_input, NULL, r->buf, OUT_CAP);
}
static int64_t call_render_coord_tensor_file(const inputs *in, results *r) {
  (void)in;
  cl_picture_options options = CL_PICTURE_OPTIONS_INIT;
  options.format = CL_PICTURE_TXT;
  return cl_render_coord_tensor_file(coord_input, &options, r->file);
}

static const nomem_case coordinate_cases[] = {
  {"cl_tuple_basis", call_tuple_basis, {0}, {0}, {0}, {{0}}},
  {"cl_make_identity_layout", call_make_identity_layout, {ID_SHAPE}, {0}, {0}, {{0}}},
  {"cl_layout_eval_tuple", call_eval_tuple, {0}, {ID_HIER}, {0}, {{0}}},
  {"cl_layout_eval_tuple (integer layout)", call_eval_tuple, {0}, {HIER}, {0}, {{0}}},
  {"cl_layout_eval_coord_tuple", call_eval_coord_tuple, {"((1,2),(1,(1,3)))"}, {ID_HIER}, {0}, {{0}}},
  {"cl_layout_slice_and_offset_tuple", call_slice_and_offset_tuple, {"((1,_),(_,(1,2)))"}, {ID_HIER}, {0}, {{0}}},
  {"cl_layout_coshape (coordinates)", call_coordinate_coshape, {0}, {ID_HIER}, {0}, {{0}}},
  {"cl_layout_cosize_checked (coordinates)", call_coordinate_cosize, {0}, {ID_HIER}, {0}, {{0}}},
  {"cl_elem_less", call_elem_less, {"((1,2),(1,(1,3)))", ID_SHAPE}, {0}, {0}, {{0}}},
  {"cl_coalesce (coordinates)", call_coalesce, {0}, {"((4,8),(2,(2,4))):((1@0,4@0),(1@1,(2@1,4@1)))"}, {0}, {{0}}},
  {"cl_composition (coordinates on the left)", call_composition, {0}, {ID_HIER, "(8,(2,4)):(1,(32,8))"}, {0},
   {{0}}},
  {"cl_composition (coordinates on the right)", call_composition, {0}, {HIER, ID_HIER}, {0}, {{0}}},
  {"cl_logical_divide_tiler (coordinates)", call_logical_divide_tiler, {"(3,4:2)"}, {ID_2D}, {0}, {{0}}},
  {"cl_logical_product (coordinate tiler)", call_logical_product, {0}, {"(4,2):(4,2)", "(2,2):(0@1,2@0)"}, {0}, {{0}}},
  {"cl_print_1d (coordinates)", call_coordinate_print_1d, {0}, {ID_HIER}, {0}, {{0}}},
  {"cl_render_layout (coordinates)", call_coordinate_render, {0}, {ID_HIER}, {0}, {{0}}},
  {"cl_make_identity_tensor", call_make_identity_tensor, {ID_SHAPE}, {0}, {0}, {{0}}},
  {"cl_make_coord_tensor", call_make_coord_tensor, {0}, {ID_HIER}, {0}, {{0}}},
  {"cl_coord_tensor_new", call_coord_tensor_new, {"(3,(4,5))"}, {ID_2D}, {0}, {{0}}},
  {"cl_coord_tensor_with_layout", call_coord_tensor_with_layout, {0}, {ID_2D}, {0}, {{0}}},
  {"cl_coord_tensor_eval", call_coord_tensor_eval, {0}, {0}, {0}, {{0}}},
  {"cl_coord_tensor_eval_coord", call_coord_tensor_eval_coord, {"(3,7)"}, {0}, {0}, {{0}}},
  {"cl_coord_tensor_slice", call_coord_tensor_slice, {"(_,7)"}, {0}, {0}, {{0}}},
  {"cl_coord_local_tile", call_coord_local_tile, {"(8,16)", "(2,3)"}, {0}, {0}, {{0}}},
  {"cl_coord_local_tile (projection)", call_coord_local_tile_proj, {"(8,16,4)", "(2,_,3)", "(1,_,1)"}, {0}, {0},
   {{0}}},
  {"cl_coord_outer_partition", call_coord_outer_partition, {"(4,8)", "(1,2)"}, {0}, {0}, {{0}}},
  {"cl_coord_local_partition", call_coord_local_partition, {0}, {"(4,8):(8,1)"}, {0}, {{0}}},
  {"cl_coord_local_partition (projection)", call_coord_local_partition_proj, {"(1,_,1)"}, {"(4,2,8):(8,32,1)"}, {0},
   {{0}}},
  {"cl_coord_tensor_format", call_coord_tensor_format, {0}, {0}, {0}, {{0}}},
  {"cl_render_coord_tensor", call_render_coord_tensor, {0}, {0}, {0}, {{0}}},
  {"cl_render_coord_tensor_file", call_render_coord_tensor_file, {0}, {0}, {0}, {{0}}},
};

static void test_coordinates(void **state) {
  (void)state;
  cl_tuple_t *shape = tup("(41,55)");
  assert_int_equal(cl_make_identity_tensor(shape, &coord_input), CL_OK);
  cl_tuple_free(shape);
  check_cases(coordinate_cases, COUNT_OF(coordinate_cases));
  cl_coord_tensor_free(coord_input);
  coord_input = NULL;
}

/* ------------------------------------------------------------ distributions */

/* A distribution's text form, or a negative status; the distribution itself
 * lives only inside the call. */
static int64_t dist_text_of(cl_status s, cl_dist_t **d, results *r) {
  int64_t n = s == CL_OK ? cl_dist_format(*d, r->buf, OUT_CAP) : s;
  cl_dist_free(*d);
  return n;
}
static int64_t call_dist_parse_placements(const inputs *in, results *r) {
  (void)in;
  cl_dist_t *d = NULL;
  return dist_text_of(cl_dist_parse("dist((6,10), (2,2), Shard(0), BlockCyclic(1,3))", &d), &d, r);
}
static int64_t call_dist_parse_generic(const inputs *in, results *r) {
  (void)in;
  cl_dist_t *d = NULL;
  return dist_text_of(cl_dist_parse("dist((8,8), 4, 32, ((4,2),8,2):((1,64),4,32))", &d), &d, r);
}
static int64_t call_dist_from_placements(const inputs *in, results *r) {
  cl_placement_t p[2] = {{CL_PLACE_STRIDED_SHARD, 1, 2}, {CL_PLACE_REPLICATE, 0, 0}};
  cl_dist_t *d = NULL;
  return dist_text_of(cl_dist_from_placements(in->t[0], in->t[1], p, 2, &d), &d, r);
}
static int64_t call_dist_new(const inputs *in, results *r) {
  cl_dist_t *d = NULL;
  return dist_text_of(cl_dist_new(in->t[0], 2, 32, in->l[0], &d), &d, r);
}
/* A view of a distribution made outside the armed allocator would not do:
 * the distribution is made inside, as a caller would. */
static int64_t call_dist_layout(const inputs *in, results *r) {
  cl_dist_t *d = NULL;
  r->layout = NULL;
  r->tuple = NULL;
  cl_status s = cl_dist_new(in->t[0], 2, 32, in->l[0], &d);
  if (s == CL_OK)
    s = cl_dist_layout(d, &r->layout);
  if (s == CL_OK && (s = cl_dist_shape(d, &r->tuple)) != CL_OK) {
    cl_layout_free(r->layout);
    r->layout = NULL;
  }
  cl_dist_free(d);
  return s;
}
static int64_t call_dist_plan(const inputs *in, results *r) {
  (void)in;
  cl_dist_t *a = NULL, *b = NULL;
  cl_dist_plan_t *plan = NULL;
  int64_t offset = 0;
  r->layout = NULL;
  cl_status s = cl_dist_parse("dist((6,10), (2,2), Replicate, Shard(1))", &a);
  if (s == CL_OK)
    s = cl_dist_parse("dist((6,10), 4, BlockCyclic(0,2))", &b);
  if (s == CL_OK)
    s = cl_dist_plan_new(a, b, 2, 1, &plan);
  if (s == CL_OK)
    s = cl_dist_plan_piece(plan, 2, CL_DIST_RECV, 0, &offset, &r->layout);
  if (s == CL_OK)
    r->value = offset + 1000 * cl_dist_plan_is_all_to_all(plan);
  cl_dist_plan_free(plan);
  cl_dist_free(a);
  cl_dist_free(b);
  return s;
}

/* Rank boundaries that cut rows: the modes do not separate, and the
 * reference walk (every element) plans. */
static int64_t call_dist_plan_by_elements(const inputs *in, results *r) {
  (void)in;
  cl_dist_t *a = NULL, *b = NULL;
  cl_dist_plan_t *plan = NULL;
  int64_t offset = 0;
  r->layout = NULL;
  cl_status s = cl_dist_parse("dist((2,9), 3, 6, (2,9):(9,1))", &a);
  if (s == CL_OK)
    s = cl_dist_parse("dist((2,9), 3, Shard(1))", &b);
  if (s == CL_OK)
    s = cl_dist_plan_new(a, b, 2, 1, &plan);
  if (s == CL_OK)
    s = cl_dist_plan_piece(plan, 0, CL_DIST_SEND, 0, &offset, &r->layout);
  if (s == CL_OK)
    r->value = offset;
  cl_dist_plan_free(plan);
  cl_dist_free(a);
  cl_dist_free(b);
  return s;
}

static const nomem_case dist_cases[] = {
  {"cl_dist_parse (placements)", call_dist_parse_placements, {0}, {0}, {0}, {{0}}},
  {"cl_dist_parse (generic)", call_dist_parse_generic, {0}, {0}, {0}, {{0}}},
  {"cl_dist_from_placements", call_dist_from_placements, {"(6,10)", "(4,2)"}, {0}, {0}, {{0}}},
  {"cl_dist_new", call_dist_new, {"(8,8)"}, {"((4,2),8):((1,32),4)"}, {0}, {{0}}},
  {"cl_dist_new (checked place by place)", call_dist_new, {"(3,2)"}, {"(3,2):(2,3)"}, {0}, {{0}}},
  {"cl_dist_layout, cl_dist_shape", call_dist_layout, {"(8,8)"}, {"((4,2),8):((1,32),4)"}, {0}, {{0}}},
  {"cl_dist_plan_new, cl_dist_plan_piece", call_dist_plan, {0}, {0}, {0}, {{0}}},
  {"cl_dist_plan_new by elements", call_dist_plan_by_elements, {0}, {0}, {0}, {{0}}},
};

static void test_distributions(void **state) {
  (void)state;
  check_cases(dist_cases, COUNT_OF(dist_cases));
}

/* ------------------------------------------------------------ totals */

static void test_totals(void **state) {
  (void)state;
  printf("[ nomem    ] %ld calls, %ld allocation failures injected\n", calls_checked, failure_points);
  assert_true(calls_checked > 150);
}

int main(void) {
  /* The staged transpose's buffer is an allocation to fail, whatever this
   * processor prefers (copy_kernels.h). */
  setenv("CUTELAYOUT_COPY_STAGING", "1", 1);
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_first_evaluation),
    cmocka_unit_test(test_text),
    cmocka_unit_test(test_tuple),
    cmocka_unit_test(test_layout),
    cmocka_unit_test(test_algebra),
    cmocka_unit_test(test_swizzle),
    cmocka_unit_test(test_tensor),
    cmocka_unit_test(test_render_and_eval),
    cmocka_unit_test(test_coordinates),
    cmocka_unit_test(test_distributions),
    cmocka_unit_test(test_totals),
  };
  return cmocka_run_group_tests(tests, setup_heap, teardown_heap);
}
