/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_tensor.c: tensor views and the copy engine on inputs decoded from
 * arbitrary bytes.
 *
 * The input is an operation selector, a flags byte, two layouts (src and
 * dst, decoded by decode.h: at most 8 leaves, 3 levels, extents
 * mostly 1..8, strides mostly -8..25 with 0 among them, now and then a huge
 * or negative value), element sizes and types, the byte offsets of the two
 * base pointers into two fixed 64 KiB buffers (or both into the first, to
 * make overlaps), optional extents inside the buffers, and the operation's
 * parameters.  Tensors of more than MAX_SIZE elements are skipped once made.
 *
 * Every tensor made is held to tensor.h: made without an extent only when
 * its elements lie inside its buffer (checked here first, so that nothing
 * reads or writes outside the buffers); with one, cl_tensor_create fails
 * with CL_E_BOUNDS exactly when an element lies outside it.  Then:
 *
 *   copy          success: dst(i) == src(i) for every i, byte for byte, and
 *                 no other byte of either buffer changed; failure: nothing
 *                 changed, CL_E_DOMAIN / CL_E_TYPE as documented, and
 *                 CL_E_OVERLAP exactly when a brute-force check finds dst
 *                 not injective or sharing a byte with src (the footprints
 *                 here are far below the 16 MiB bound of exactness);
 *                 cl_tensor_copy_explain fails exactly when the copy does;
 *                 cl_tensor_copy_ex with any options and any kernel set
 *                 (CUTELAYOUT_COPY_ISA) likewise; cl_tensor_copy_plan
 *                 fails exactly when the copy does, and its plan, run as
 *                 tensor.h defines it, copies the same
 *   fill          every dst element equals the value, nothing else changed
 *   views         (slice, divides, compose, partitions, recast, flatten,
 *                 group) every element pointer is data + layout(i) * elem
 *                 and lies inside the extent; flatten and group keep every
 *                 pointer; a slice's element j is the source's element at
 *                 the coordinate with its free modes filled by j; a
 *                 partition's elements are elements of the zipped divide it
 *                 slices; a downcast's bytes are bytes of the source's
 *   eval_range,   agree with cl_layout_eval for every i
 *   odometer
 *   dlpack        to_dlpack then from_dlpack gives the same pointers
 *   print_tensor  snprintf-style: the same length at every capacity, the
 *                 text NUL-terminated inside the buffer, nothing written past
 *                 it; or a negative status with a message
 *
 * A failure must always be clean: a negative status, a NULL result and a
 * message from cl_last_error(). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdbool.h>
#include <string.h>

#include <cutelayout/cutelayout.h>
#include "decode.h"
#include "fuzz.h"

__extension__ typedef __int128 wide;

/* Tensors with more elements are not enumerated (the input is skipped). */
#define MAX_SIZE 4096
/* Views with more elements than this are not enumerated. */
#define MAX_VIEW 65536
#define BUF_BYTES 65536

/* ------------------------------------------------------------ decoding */

/* A tiler: a tuple of 1 to 3 elements, each '_', an integer, a small layout
 * or a pair of integers; or (rarely) a bare integer. */
static cl_tuple_t *decode_tiler(reader *r) {
  text_buf t = {{0}, 0};
  uint8_t head = next_byte(r);
  if (head % 16 == 0) {
    put_int(&t, 1 + head / 16 % 8);
  } else {
    int rank = 1 + head % 3;
    put(&t, "(");
    for (int k = 0; k < rank; k++) {
      if (k > 0)
        put(&t, ",");
      uint8_t b = next_byte(r);
      switch (b % 4) {
      case 0: put(&t, "_"); break;
      case 1: put_int(&t, 1 + b / 4 % 8); break;
      case 2:
        put_int(&t, 1 + b / 4 % 4);
        put(&t, ":");
        put_int(&t, (int64_t)(next_byte(r) % 7) - 1);
        break;
      default:
        put(&t, "(");
        put_int(&t, 1 + b / 4 % 4);
        put(&t, ",");
        put_int(&t, 1 + b / 16 % 4);
        put(&t, ")");
      }
    }
    put(&t, ")");
  }
  cl_tuple_t *tiler = NULL;
  if (cl_tuple_parse(t.buf, &tiler) != CL_OK)
    return NULL;
  return tiler;
}

/* A partition coordinate: an integer, or a tuple of 0 to 3 integers and
 * '_'. */
static cl_tuple_t *decode_coord(reader *r) {
  text_buf t = {{0}, 0};
  uint8_t head = next_byte(r);
  if (head % 4 == 0) {
    put_int(&t, head / 4 % 12);
  } else {
    int rank = head / 4 % 4;
    put(&t, "(");
    for (int k = 0; k < rank; k++) {
      if (k > 0)
        put(&t, ",");
      uint8_t b = next_byte(r);
      if (b % 5 == 0)
        put(&t, "_");
      else
        put_int(&t, b / 5 % 9);
    }
    put(&t, ")");
  }
  cl_tuple_t *crd = NULL;
  if (cl_tuple_parse(t.buf, &crd) != CL_OK)
    return NULL;
  return crd;
}

/* An element size and type: mostly a type and its size, sometimes opaque
 * bytes of an odd size, sometimes a type with the wrong size. */
static void decode_element(reader *r, size_t *elem_size, cl_dtype *dtype) {
  static const size_t opaque[] = {1, 2, 3, 4, 6, 8, 12, 16};
  uint8_t b = next_byte(r);
  if (b % 4 == 0) {
    *dtype = CL_DTYPE_NONE;
    *elem_size = opaque[b / 4 % 8];
  } else {
    *dtype = (cl_dtype)(1 + b / 4 % 12);
    *elem_size = b % 4 == 3 && b >= 0xF0 ? opaque[b % 8] : 0;
  }
}

/* ------------------------------------------------------------ buffers */

/* Two buffers, refilled with the same pseudo-random bytes before every
 * input, and their contents before the operation. */
static _Alignas(64) unsigned char mem[2][BUF_BYTES];
static unsigned char before[2][BUF_BYTES];
static unsigned char pattern[2][BUF_BYTES];

static void reset_buffers(void) {
  if (pattern[0][1] == 0 && pattern[0][2] == 0) {
    uint32_t x = 0x9e3779b9u;
    for (int b = 0; b < 2; b++)
      for (size_t k = 0; k < BUF_BYTES; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        pattern[b][k] = (unsigned char)(x >> 7);
      }
  }
  memcpy(mem, pattern, sizeof mem);
}

/* ------------------------------------------------------------ tensors */

/* A tensor and what this file knows of it independently of the library:
 * its element offsets (by cl_layout_eval) and byte positions in its buffer. */
typedef struct side {
  cl_tensor_t *t;
  int buf;               /* 0 or 1: which of mem[] */
  int64_t data_off;      /* byte offset of the data pointer in the buffer */
  size_t elem;
  bool has_extent;
  int64_t ext_lo, ext_hi; /* the extent [ext_lo, ext_hi) in buffer bytes */
  int64_t size;
  int64_t off[MAX_SIZE];  /* layout(i) */
} side;

static side sides[2];


static bool tuple_int(const cl_tuple_t *t, int64_t k, int64_t *out) {
  cl_tuple_t *e = NULL;
  bool ok = cl_tuple_get(t, &k, 1, &e) == CL_OK && cl_tuple_value(e, out) == CL_OK;
  cl_tuple_free(e);
  return ok;
}

/* Whether every leaf extent of l is positive. */
static bool positive_extents(const cl_layout_t *l) {
  cl_layout_t *flat = NULL;
  cl_tuple_t *shape = NULL;
  FUZZ_CHECK(cl_layout_flatten(l, &flat) == CL_OK && cl_layout_shape(flat, &shape) == CL_OK);
  bool ok = true;
  int64_t rank = cl_tuple_rank(shape);
  for (int64_t k = 0; ok && k < rank; k++) {
    int64_t extent = 0;
    ok = tuple_int(shape, k, &extent) && extent > 0;
  }
  cl_tuple_free(shape);
  cl_layout_free(flat);
  return ok;
}

static bool has_empty_tuple(const cl_layout_t *l) {
  char *text = NULL;
  FUZZ_CHECK(cl_layout_to_string(l, &text) == CL_OK);
  bool empty = strstr(text, "()") != NULL;
  cl_string_free(text);
  return empty;
}

/* Makes side s's tensor over `layout` and checks cl_tensor_create against
 * the offsets computed here.  False when the input goes no further: the
 * tensor could not be made, it is too large to enumerate, or (without an
 * extent) it reaches outside its buffer. */
static bool make_side(side *s, const cl_layout_t *layout, reader *r, int buf, size_t elem, cl_dtype dtype) {
  uint8_t how = next_byte(r);
  unsigned where = next_u16(r);
  s->buf = buf;
  s->t = NULL;
  /* The data pointer: the start, the middle, or anywhere, aligned to the
   * element size (rounded to a power of two) like real data. */
  s->data_off = how % 4 == 0 ? 0 : how % 4 == 1 ? BUF_BYTES / 2 : (int64_t)where;
  size_t resolved = elem != 0 ? elem : cl_dtype_size(dtype);
  size_t align = 1;
  while (align * 2 <= resolved && align < 16)
    align *= 2;
  s->data_off -= s->data_off % (int64_t)align;
  /* The extent: none, the whole buffer, or a part of it. */
  s->has_extent = how / 4 % 4 != 0;
  s->ext_lo = 0;
  s->ext_hi = BUF_BYTES;
  if (how / 4 % 4 == 3) {
    unsigned a = next_u16(r), b = next_u16(r);
    s->ext_lo = a < b ? a : b;
    s->ext_hi = a < b ? b : a;
  }
  cl_tensor_desc desc = {sizeof desc, mem[buf] + s->data_off, elem, dtype,
                         s->has_extent ? mem[buf] + s->ext_lo : NULL, s->has_extent ? (size_t)(s->ext_hi - s->ext_lo) : 0};
  cl_status st = cl_tensor_create(&desc, layout, &s->t);
  if (st != CL_OK)
    check_failure(st, s->t);

  /* What this file expects: a known type's size must match it. */
  bool type_ok = resolved != 0 && (dtype == CL_DTYPE_NONE || elem == 0 || elem == cl_dtype_size(dtype));
  int64_t size = 0;
  bool enumerable = cl_layout_size_checked(layout, &size) == CL_OK && size >= 1 && size <= MAX_SIZE &&
                    positive_extents(layout);
  bool fits = true, inside = true;
  wide lowest = 0, highest = 0;
  for (int64_t i = 0; enumerable && i < size; i++) {
    int64_t o;
    cl_status e = cl_layout_eval(layout, i, &o);
    if (e == CL_E_DOMAIN && has_empty_tuple(layout)) {
      /* The evaluation maps no coordinate through `()` (as fuzz_algebra.c
       * knows), so there are no offsets to compare with: made, not used. */
      enumerable = false;
      break;
    }
    if (e != CL_OK) {
      FUZZ_CHECK(e == CL_E_OVERFLOW);
      fits = false;
      break;
    }
    s->off[i] = o;
    lowest = i == 0 || o < lowest ? o : lowest;
    highest = i == 0 || o > highest ? o : highest;
    wide pos = (wide)s->data_off + (wide)o * (wide)resolved;
    inside &= pos >= (s->has_extent ? s->ext_lo : 0) && pos + (wide)resolved <= (s->has_extent ? s->ext_hi : BUF_BYTES);
  }
  /* Byte offsets of the elements' bytes that leave int64_t: CL_E_OVERFLOW. */
  if (fits && enumerable &&
      (lowest * (wide)resolved < INT64_MIN || (highest + 1) * (wide)resolved > INT64_MAX))
    fits = false;
  if (enumerable && type_ok) {
    /* An index that does not fit in int64_t, or a byte offset of one that
     * may not, must fail; otherwise only the extent decides. */
    if (!fits)
      FUZZ_CHECK(st != CL_OK);
    else if (s->has_extent)
      FUZZ_CHECK(inside ? st == CL_OK : st == CL_E_BOUNDS);
  }
  if (!type_ok)
    FUZZ_CHECK(st == CL_E_DOMAIN);
  if (st != CL_OK)
    return false;
  FUZZ_CHECK(cl_tensor_elem_size(s->t) == resolved && cl_tensor_dtype(s->t) == dtype);
  s->elem = resolved;
  s->size = cl_tensor_size(s->t);
  if (!enumerable || !fits || !inside) {
    cl_tensor_free(s->t);
    s->t = NULL;
    return false;
  }
  FUZZ_CHECK(s->size == size);
  int64_t lo = 0, hi = 0, want_lo = INT64_MAX, want_hi = INT64_MIN;
  for (int64_t i = 0; i < size; i++) {
    want_lo = s->off[i] < want_lo ? s->off[i] : want_lo;
    want_hi = s->off[i] > want_hi ? s->off[i] : want_hi;
  }
  FUZZ_CHECK(cl_tensor_offset_range(s->t, &lo, &hi) == CL_OK && lo == want_lo && hi == want_hi);
  return true;
}

/* The byte position in its buffer of element i of a side. */
static int64_t position(const side *s, int64_t i) { return s->data_off + s->off[i] * (int64_t)s->elem; }

/* Every byte of both buffers equals its copy from before, except where
 * `written` (a bitmap over buffer `wbuf`, or NULL) says. */
static void check_unchanged(int wbuf, const uint8_t *written) {
  for (int b = 0; b < 2; b++) {
    if (written == NULL || b != wbuf) {
      FUZZ_CHECK(memcmp(mem[b], before[b], BUF_BYTES) == 0);
      continue;
    }
    for (size_t k = 0; k < BUF_BYTES; k++)
      if (!written[k])
        FUZZ_CHECK(mem[b][k] == before[b][k]);
  }
}

/* ------------------------------------------------------------ algorithms */

static uint8_t dst_bytes[BUF_BYTES], src_bytes[BUF_BYTES];

/* The digit-weighted offset of position t of a plan's tail (tensor.h). */
static int64_t tail_offset(int64_t t, int64_t rank, const int64_t *extent, const int64_t *stride) {
  int64_t off = 0;
  for (int64_t k = 0; k < rank; k++) {
    off += t % extent[k] * stride[k];
    t /= extent[k];
  }
  return off;
}

/* Runs a plan unit by unit as tensor.h defines it on copies of the buffers
 * and compares the destination with what the copy must write. */
static uint8_t plan_mem[2][BUF_BYTES];
static void check_plan(const cl_copy_plan_t *p, const side *dst, const side *src) {
  memcpy(plan_mem, mem, sizeof plan_mem);
  int64_t units = 1, tails = 1, unit = p->vector * p->elem_size;
  for (int64_t k = 0; k < p->rank; k++)
    units *= p->extent[k];
  for (int64_t k = 0; k < p->dst_tail_rank; k++)
    tails *= p->dst_tail_extent[k];
  FUZZ_CHECK(p->elem_size == (int64_t)dst->elem && units * tails * p->vector == (p->kernel ? dst->size : 1));
  for (int64_t t = 0; t < tails && p->kernel != CL_COPY_KERNEL_NONE; t++)
    for (int64_t u = 0; u < units; u++) {
      int64_t od = p->dst_offset + tail_offset(t, p->dst_tail_rank, p->dst_tail_extent, p->dst_tail_stride) +
                   tail_offset(u, p->rank, p->extent, p->dst_stride);
      int64_t os = p->src_offset + tail_offset(t, p->src_tail_rank, p->src_tail_extent, p->src_tail_stride) +
                   tail_offset(u, p->rank, p->extent, p->src_stride);
      int64_t db = dst->data_off + od * p->elem_size, sb = src->data_off + os * p->elem_size;
      FUZZ_CHECK(db >= 0 && db + unit <= BUF_BYTES && sb >= 0 && sb + unit <= BUF_BYTES);
      memcpy(plan_mem[dst->buf] + db, mem[src->buf] + sb, (size_t)unit);
    }
  for (int64_t i = 0; i < dst->size; i++)
    FUZZ_CHECK(memcmp(plan_mem[dst->buf] + position(dst, i), mem[src->buf] + position(src, i), dst->elem) == 0);
}

static void op_copy(const side *dst, const side *src, bool explain_only, uint8_t cap_byte) {
  memcpy(before, mem, sizeof mem);
  /* What the copy must do, by brute force: the documented requirements in
   * their order, then injectivity and byte disjointness. */
  cl_status expected = CL_OK;
  cl_dtype dd = cl_tensor_dtype(dst->t), sd = cl_tensor_dtype(src->t);
  if (dst->size != src->size)
    expected = CL_E_DOMAIN;
  else if (dst->elem != src->elem || (dd != CL_DTYPE_NONE && sd != CL_DTYPE_NONE && dd != sd))
    expected = CL_E_TYPE;
  /* dst_bytes[p] == 2 marks an element start (offsets are whole elements,
   * so distinct ones share no byte); meeting one again means two
   * coordinates reach it. */
  memset(dst_bytes, 0, sizeof dst_bytes);
  bool injective = true;
  for (int64_t i = 0; i < dst->size && injective; i++) {
    int64_t p = position(dst, i);
    injective = dst_bytes[p] != 2;
    memset(dst_bytes + p, 1, dst->elem);
    dst_bytes[p] = 2;
  }
  bool disjoint = true;
  if (dst->buf == src->buf) {
    memset(src_bytes, 0, sizeof src_bytes);
    for (int64_t i = 0; i < src->size; i++)
      memset(src_bytes + position(src, i), 1, src->elem);
    for (int64_t i = 0; i < dst->size && disjoint; i++)
      for (size_t k = 0; k < dst->elem && disjoint; k++)
        disjoint = !src_bytes[position(dst, i) + (int64_t)k];
  }
  if (expected == CL_OK && (!injective || !disjoint))
    expected = CL_E_OVERLAP;

  /* The plan's description fails exactly as the copy would, and writes
   * nothing but its buffer. */
  size_t cap = cap_byte % 3 == 0 ? 0 : cap_byte % 3 == 1 ? 1 + cap_byte / 3 % 64 : 4096;
  char *text = malloc(cap + 1);
  FUZZ_CHECK(text != NULL);
  text[cap] = '#';
  int64_t n = cl_tensor_copy_explain(dst->t, src->t, cap > 0 ? text : NULL, cap);
  FUZZ_CHECK(text[cap] == '#');
  if (n >= 0) {
    FUZZ_CHECK(expected == CL_OK);
    if (cap > 0) {
      size_t len = (size_t)n < cap ? (size_t)n : cap - 1;
      FUZZ_CHECK(text[len] == '\0' && strlen(text) == len);
    }
  } else {
    FUZZ_CHECK(n == expected);
    FUZZ_CHECK(cl_last_error()[0] != '\0');
  }
  free(text);
  check_unchanged(0, NULL);
  if (explain_only)
    return;

  /* The plan fails exactly as the copy would; run as tensor.h defines it,
   * on a copy of the buffers, it copies what the copy must. */
  cl_copy_options_t opt = {sizeof opt, (cl_copy_stores_t)(cap_byte / 3 % 3), cap_byte / 27 % 3, NULL};
  static cl_copy_plan_t plan;
  plan.struct_size = sizeof plan;
  cl_status ps = cl_tensor_copy_plan(dst->t, src->t, &opt, &plan);
  FUZZ_CHECK(ps == expected);
  if (ps == CL_OK)
    check_plan(&plan, dst, src);

  /* The copy, through cl_tensor_copy_ex half the time: any way of storing,
   * any kernel set (copy_kernels.h), each of which must give the same. */
  cl_status s;
  if (cap_byte & 0x80) {
    static const char *const isas[] = {"scalar", "sse2", "avx2", "avx512"};
    setenv("CUTELAYOUT_COPY_ISA", isas[cap_byte / 9 % 4], 1);
    s = cl_tensor_copy_ex(dst->t, src->t, &opt);
    unsetenv("CUTELAYOUT_COPY_ISA");
  } else {
    s = cl_tensor_copy(dst->t, src->t);
  }
  if (s != expected)
    fprintf(stderr, "copy: status %d (%s), expected %d\n", (int)s, cl_last_error(), (int)expected);
  FUZZ_CHECK(s == expected);
  if (s != CL_OK) {
    FUZZ_CHECK(cl_last_error()[0] != '\0');
    check_unchanged(0, NULL);
    return;
  }
  memset(dst_bytes, 0, sizeof dst_bytes);
  for (int64_t i = 0; i < dst->size; i++) {
    int64_t p = position(dst, i);
    FUZZ_CHECK(memcmp(mem[dst->buf] + p, before[src->buf] + position(src, i), dst->elem) == 0);
    memset(dst_bytes + p, 1, dst->elem);
  }
  check_unchanged(dst->buf, dst_bytes);
}

static void op_fill(const side *dst, reader *r) {
  unsigned char value[16];
  for (size_t k = 0; k < sizeof value; k++)
    value[k] = next_byte(r);
  memcpy(before, mem, sizeof mem);
  cl_status s = cl_tensor_fill(dst->t, value);
  if (s != CL_OK) {
    /* Any valid tensor can be filled; only an allocation may fail. */
    FUZZ_CHECK(s == CL_E_NOMEM && cl_last_error()[0] != '\0');
    check_unchanged(0, NULL);
    return;
  }
  memset(dst_bytes, 0, sizeof dst_bytes);
  for (int64_t i = 0; i < dst->size; i++) {
    int64_t p = position(dst, i);
    FUZZ_CHECK(memcmp(mem[dst->buf] + p, value, dst->elem) == 0);
    memset(dst_bytes + p, 1, dst->elem);
  }
  check_unchanged(dst->buf, dst_bytes);
}

/* ------------------------------------------------------------ views */

static int compare_ptr(const void *a, const void *b) {
  uintptr_t x = *(const uintptr_t *)a, y = *(const uintptr_t *)b;
  return (x > y) - (x < y);
}

/* The sorted element addresses of a view, when it has at most MAX_VIEW. */
typedef struct ptr_set {
  int64_t n;
  uintptr_t p[MAX_VIEW];
} ptr_set;

static ptr_set sets[2];

static bool in_set(const ptr_set *set, uintptr_t p) {
  return bsearch(&p, set->p, (size_t)set->n, sizeof p, compare_ptr) != NULL;
}

/* Checks a view of s: its element pointers are data + layout(i) * elem,
 * inside the extent (the source's) when there is one; collects them into
 * *set when set is not NULL.  False when the view is too large to list. */
static bool check_view(const side *s, const cl_tensor_t *view, ptr_set *set) {
  int64_t n = cl_tensor_size(view);
  FUZZ_CHECK(n >= 0);
  if (n > MAX_VIEW)
    return false;
  cl_tensor_desc d;
  memset(&d, 0, sizeof d);
  d.struct_size = sizeof d;
  FUZZ_CHECK(cl_tensor_describe(view, &d) == CL_OK);
  FUZZ_CHECK((d.extent_base != NULL) == s->has_extent);
  if (s->has_extent)
    FUZZ_CHECK(d.extent_base == mem[s->buf] + s->ext_lo && d.extent_bytes == (size_t)(s->ext_hi - s->ext_lo));
  const cl_layout_t *layout = cl_tensor_layout(view);
  uintptr_t data = (uintptr_t)cl_tensor_data(view);
  uintptr_t lo = (uintptr_t)(mem[s->buf] + s->ext_lo), hi = (uintptr_t)(mem[s->buf] + s->ext_hi);
  /* A rank-0 view (a slice at an integer coordinate) has one element at
   * offset 0, which cl_tensor_ptr knows; the layout's evaluation maps no
   * coordinate through `()`, nor does the tensor's elsewhere. */
  bool rank0 = cl_layout_rank(layout) == 0;
  if (!rank0 && has_empty_tuple(layout))
    return false;
  for (int64_t i = 0; i < n; i++) {
    int64_t o = 0;
    void *p = NULL;
    FUZZ_CHECK(rank0 || cl_layout_eval(layout, i, &o) == CL_OK);
    FUZZ_CHECK(cl_tensor_ptr(view, i, &p) == CL_OK);
    uintptr_t want = data + (uintptr_t)((wide)o * (wide)d.elem_size);
    FUZZ_CHECK((uintptr_t)p == want);
    if (s->has_extent)
      FUZZ_CHECK((uintptr_t)p >= lo && (uintptr_t)p + d.elem_size <= hi);
    if (set != NULL)
      set->p[i] = (uintptr_t)p;
  }
  if (set != NULL) {
    set->n = n;
    qsort(set->p, (size_t)n, sizeof set->p[0], compare_ptr);
  }
  return true;
}

static uintptr_t side_ptr(const side *s, int64_t i) { return (uintptr_t)(mem[s->buf] + position(s, i)); }

/* The same elements in the same order (flatten, group). */
static void check_same_pointers(const side *s, const cl_tensor_t *view) {
  FUZZ_CHECK(cl_tensor_size(view) == s->size);
  (void)check_view(s, view, NULL);
  for (int64_t i = 0; i < s->size; i++) {
    void *p;
    FUZZ_CHECK(cl_tensor_ptr(view, i, &p) == CL_OK && (uintptr_t)p == side_ptr(s, i));
  }
}

static void op_flatten_group(const side *s, reader *r) {
  cl_tensor_t *v = NULL;
  uint8_t b = next_byte(r);
  if (b % 3 == 0) {
    if (SUCCEEDED(cl_tensor_flatten(s->t, &v), v))
      check_same_pointers(s, v);
  } else {
    int64_t rank = cl_tensor_rank(s->t);
    int64_t begin = (int64_t)(b / 3 % 6) - 1, end = (int64_t)(next_byte(r) % 6) - 1;
    cl_status st = cl_tensor_group(s->t, begin, end, &v);
    if (succeeded(st, v))
      check_same_pointers(s, v);
    else if (begin >= 0 && begin <= end && end <= rank)
      FUZZ_CHECK(st == CL_E_NOMEM);
  }
  cl_tensor_free(v);
}

/* A slice at one integer or '_' per top-level mode: element j of the view
 * is the source's element whose free modes' coordinates split j
 * colexicographically. */
static void op_slice(const side *s, reader *r) {
  int64_t rank = cl_tensor_rank(s->t);
  bool bare = cl_layout_depth(cl_tensor_layout(s->t)) == 0;
  int64_t c[16], extent[16];
  bool free_mode[16];
  bool in_range = true;
  text_buf t = {{0}, 0};
  if (rank > 16)
    return;
  if (!bare)
    put(&t, "(");
  for (int64_t k = 0; k < rank; k++) {
    cl_layout_t *mode = NULL;
    if (bare)
      FUZZ_CHECK(cl_layout_copy(cl_tensor_layout(s->t), &mode) == CL_OK);
    else
      FUZZ_CHECK(cl_layout_get(cl_tensor_layout(s->t), &k, 1, &mode) == CL_OK);
    FUZZ_CHECK(cl_layout_size_checked(mode, &extent[k]) == CL_OK);
    cl_layout_free(mode);
    uint8_t b = next_byte(r);
    free_mode[k] = b % 3 == 0;
    c[k] = (int64_t)(b / 3) % (extent[k] + (b >= 0xF8 ? 2 : 0));
    in_range &= free_mode[k] || c[k] < extent[k];
    if (k > 0)
      put(&t, ",");
    if (free_mode[k])
      put(&t, "_");
    else
      put_int(&t, c[k]);
  }
  if (!bare)
    put(&t, ")");
  cl_tuple_t *crd = NULL;
  if (cl_tuple_parse(t.buf, &crd) != CL_OK)
    return;
  cl_tensor_t *v = NULL;
  cl_status st = cl_tensor_slice(s->t, crd, &v);
  if (!succeeded(st, v)) {
    /* A coordinate inside the shape and of its profile can always be
     * sliced: the view's elements are some of the source's. */
    FUZZ_CHECK(!in_range || st == CL_E_NOMEM);
  } else {
    FUZZ_CHECK(in_range);
    (void)check_view(s, v, NULL);
    int64_t free_size = 1;
    for (int64_t k = 0; k < rank; k++)
      free_size *= free_mode[k] ? extent[k] : 1;
    FUZZ_CHECK(cl_tensor_size(v) == free_size);
    for (int64_t j = 0; j < free_size; j++) {
      int64_t rest = j;
      for (int64_t k = 0; k < rank; k++)
        if (free_mode[k]) {
          c[k] = rest % extent[k];
          rest /= extent[k];
        }
      void *want = NULL, *got = NULL;
      FUZZ_CHECK(cl_tensor_ptr_at(s->t, c, bare ? 1 : rank, &want) == CL_OK);
      FUZZ_CHECK(cl_tensor_ptr(v, j, &got) == CL_OK && got == want);
    }
  }
  cl_tensor_free(v);
  cl_tuple_free(crd);
}

typedef cl_status (*tiler_view)(const cl_tensor_t *, const cl_tuple_t *, cl_tensor_t **);

static void op_tiler_view(const side *s, reader *r, int which) {
  static const tiler_view views[] = {cl_tensor_logical_divide, cl_tensor_zipped_divide, cl_tensor_compose};
  cl_tuple_t *tiler = decode_tiler(r);
  if (tiler == NULL)
    return;
  cl_tensor_t *v = NULL;
  if (SUCCEEDED(views[which](s->t, tiler, &v), v))
    (void)check_view(s, v, NULL);
  cl_tensor_free(v);
  cl_tuple_free(tiler);
}

static void op_compose_layout(const side *s, const cl_layout_t *b) {
  cl_tensor_t *v = NULL;
  if (SUCCEEDED(cl_tensor_compose_layout(s->t, b, &v), v))
    (void)check_view(s, v, NULL);
  cl_tensor_free(v);
}

/* A partition's elements are elements of the zipped divide it slices (when
 * that view can be made: with an extent it may reach outside where the
 * partition does not). */
static void check_partition(const side *s, const cl_tensor_t *v, const cl_tuple_t *tiler) {
  ptr_set *zipped_set = &sets[0], *view_set = &sets[1];
  if (!check_view(s, v, view_set))
    return;
  cl_tensor_t *zipped = NULL;
  if (tiler != NULL && cl_tensor_zipped_divide(s->t, tiler, &zipped) == CL_OK && check_view(s, zipped, zipped_set))
    for (int64_t i = 0; i < view_set->n; i++)
      FUZZ_CHECK(in_set(zipped_set, view_set->p[i]));
  cl_tensor_free(zipped);
}

typedef cl_status (*partition_view)(const cl_tensor_t *, const cl_tuple_t *, const cl_tuple_t *, cl_tensor_t **);

static void op_partition(const side *s, reader *r, int which) {
  static const partition_view views[] = {cl_inner_partition, cl_local_tile, cl_outer_partition};
  cl_tuple_t *tiler = decode_tiler(r), *coord = decode_coord(r);
  cl_tensor_t *v = NULL;
  if (tiler != NULL && coord != NULL && SUCCEEDED(views[which](s->t, tiler, coord, &v), v))
    check_partition(s, v, tiler);
  cl_tensor_free(v);
  cl_tuple_free(coord);
  cl_tuple_free(tiler);
}

/* local_partition(T, thr, index): outer_partition by product_each(shape(thr)). */
static void op_local_partition(const side *s, const cl_layout_t *thr, reader *r) {
  int64_t index = next_byte(r) % 40;
  cl_tensor_t *v = NULL;
  if (!SUCCEEDED(cl_local_partition(s->t, thr, index, &v), v))
    return;
  text_buf t = {{0}, 0};
  int64_t rank = cl_layout_rank(thr);
  bool bare = cl_layout_depth(thr) == 0;
  /* A tuple even for an integer shape: CuTe's product_each wraps it. */
  put(&t, "(");
  for (int64_t k = 0; k < rank; k++) {
    cl_layout_t *mode = NULL;
    int64_t extent = 0;
    if (bare)
      FUZZ_CHECK(cl_layout_copy(thr, &mode) == CL_OK);
    else
      FUZZ_CHECK(cl_layout_get(thr, &k, 1, &mode) == CL_OK);
    FUZZ_CHECK(cl_layout_size_checked(mode, &extent) == CL_OK);
    cl_layout_free(mode);
    if (k > 0)
      put(&t, ",");
    put_int(&t, extent);
  }
  put(&t, ")");
  cl_tuple_t *tiler = NULL;
  if (cl_tuple_parse(t.buf, &tiler) != CL_OK)
    tiler = NULL;
  check_partition(s, v, tiler);
  cl_tuple_free(tiler);
  cl_tensor_free(v);
}

/* How many leaves of l have stride 1 or -1. */
static int unit_stride_leaves(const cl_layout_t *l) {
  cl_layout_t *flat = NULL;
  cl_tuple_t *stride = NULL;
  FUZZ_CHECK(cl_layout_flatten(l, &flat) == CL_OK && cl_layout_stride(flat, &stride) == CL_OK);
  int count = 0;
  int64_t rank = cl_tuple_rank(stride);
  for (int64_t k = 0; k < rank; k++) {
    int64_t d = 0;
    count += tuple_int(stride, k, &d) && (d == 1 || d == -1);
  }
  cl_tuple_free(stride);
  cl_layout_free(flat);
  return count;
}

/* recast: a valid view; the bytes of a downcast are bytes of the source's
 * elements when at most one leaf has a unit stride.  (CuTe's downcast
 * stretches every unit-stride leaf, a size-1 one too, so (7,1):(1,1) of
 * 4-byte elements becomes (28,4):(1,1) of bytes, which reaches 3 bytes past
 * the source's; tensor.h promises CuTe's recast_layout, and the extent, when
 * there is one, still bounds the view.) */
static void op_recast(const side *s, reader *r) {
  size_t elem;
  cl_dtype dtype;
  decode_element(r, &elem, &dtype);
  cl_tensor_t *v = NULL;
  if (!SUCCEEDED(cl_tensor_recast(s->t, elem, dtype, &v), v))
    return;
  size_t new_elem = cl_tensor_elem_size(v);
  FUZZ_CHECK(new_elem == (elem != 0 ? elem : cl_dtype_size(dtype)));
  if (!check_view(s, v, NULL) || new_elem >= s->elem || s->elem % new_elem != 0 ||
      unit_stride_leaves(cl_tensor_layout(s->t)) > 1) {
    cl_tensor_free(v);
    return;
  }
  memset(src_bytes, 0, sizeof src_bytes);
  for (int64_t i = 0; i < s->size; i++)
    memset(src_bytes + position(s, i), 1, s->elem);
  for (int64_t i = 0; i < cl_tensor_size(v); i++) {
    void *p;
    FUZZ_CHECK(cl_tensor_ptr(v, i, &p) == CL_OK);
    int64_t pos = (int64_t)((uintptr_t)p - (uintptr_t)mem[s->buf]);
    FUZZ_CHECK(pos >= 0 && pos + (int64_t)new_elem <= BUF_BYTES);
    for (size_t k = 0; k < new_elem; k++)
      FUZZ_CHECK(src_bytes[pos + (int64_t)k]);
  }
  cl_tensor_free(v);
}

/* ------------------------------------------------------------ the rest */

static void op_print(const side *s, reader *r) {
  uint8_t b = next_byte(r);
  unsigned flags = b & 1 ? CL_PRINT_NO_HEADER : 0;
  size_t cap = b / 2 % 3 == 0 ? 0 : b / 2 % 3 == 1 ? (size_t)(b / 6 % 40) : (size_t)1 << 18;
  char *text = malloc(cap + 1);
  FUZZ_CHECK(text != NULL);
  text[cap] = '#';
  int64_t n = cl_print_tensor(s->t, flags, cap > 0 ? text : NULL, cap);
  FUZZ_CHECK(text[cap] == '#');
  if (n < 0) {
    FUZZ_CHECK(n >= CL_E_ABI && cl_last_error()[0] != '\0');
  } else {
    if (cap > 0) {
      size_t len = (size_t)n < cap ? (size_t)n : cap - 1;
      FUZZ_CHECK(text[len] == '\0' && strlen(text) == len);
    }
    /* The full text has the length announced, and begins with what fit. */
    char *full = malloc((size_t)n + 1);
    FUZZ_CHECK(full != NULL);
    FUZZ_CHECK(cl_print_tensor(s->t, flags, full, (size_t)n + 1) == n);
    FUZZ_CHECK(strlen(full) == (size_t)n);
    if (cap > 0)
      FUZZ_CHECK(strncmp(full, text, strlen(text)) == 0);
    free(full);
  }
  free(text);
}

static void op_dlpack(const side *s) {
  int64_t shape[8], strides[8];
  cl_dltensor_t dl;
  cl_status st = cl_tensor_to_dlpack(s->t, &dl, shape, strides, 8);
  if (st != CL_OK) {
    FUZZ_CHECK(st < 0 && cl_last_error()[0] != '\0');
    return;
  }
  FUZZ_CHECK(dl.ndim == cl_tensor_rank(s->t));
  cl_tensor_t *back = NULL;
  FUZZ_CHECK(SUCCEEDED(cl_tensor_from_dlpack(&dl, &back), back));
  FUZZ_CHECK(cl_tensor_size(back) == s->size && cl_tensor_elem_size(back) == s->elem);
  for (int64_t i = 0; i < s->size; i++) {
    void *p;
    FUZZ_CHECK(cl_tensor_ptr(back, i, &p) == CL_OK && (uintptr_t)p == side_ptr(s, i));
  }
  cl_tensor_free(back);
}

static void op_odometer(const side *s, reader *r) {
  cl_odometer_t *it = NULL;
  const cl_layout_t *l = cl_tensor_layout(s->t);
  FUZZ_CHECK(SUCCEEDED(cl_odometer_new(l, &it), it));
  FUZZ_CHECK(cl_odometer_index(it) == -1);
  int64_t offset, leaves = cl_odometer_leaves(it);
  for (int64_t i = 0; i < s->size; i++) {
    FUZZ_CHECK(cl_odometer_next(it, &offset) == 1 && offset == s->off[i]);
    FUZZ_CHECK(cl_odometer_index(it) == i);
  }
  FUZZ_CHECK(cl_odometer_next(it, &offset) == 0);
  FUZZ_CHECK(leaves >= 0);
  cl_odometer_reset(it);
  int64_t batch[17], cap = 1 + next_byte(r) % 17, done = 0, got;
  while ((got = cl_odometer_next_batch(it, batch, cap)) > 0) {
    FUZZ_CHECK(got <= cap && done + got <= s->size);
    for (int64_t k = 0; k < got; k++)
      FUZZ_CHECK(batch[k] == s->off[done + k]);
    done += got;
  }
  FUZZ_CHECK(got == 0 && done == s->size);
  cl_odometer_free(it);
}

static void op_eval_range(const side *s, reader *r) {
  static int64_t range[MAX_SIZE + 8];
  int64_t begin = (int64_t)(next_byte(r) % 7) - 3;
  int64_t count = next_byte(r) % (s->size + 6);
  const cl_layout_t *l = cl_tensor_layout(s->t);
  cl_status st = cl_layout_eval_range(l, begin, count, range);
  bool some_fails = false;
  for (int64_t j = 0; j < count; j++) {
    int64_t o;
    cl_status e = cl_layout_eval(l, begin + j, &o);
    some_fails |= e != CL_OK;
    if (st == CL_OK)
      FUZZ_CHECK(e == CL_OK && o == range[j]);
    else
      FUZZ_CHECK(range[j] == 0);
  }
  if (st != CL_OK)
    FUZZ_CHECK(st == CL_E_OVERFLOW && some_fails);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  uint8_t op = next_byte(&r), flags = next_byte(&r);
  cl_layout_t *a = decode_layout(&r);
  cl_layout_t *b = decode_layout(&r);
  size_t src_elem, dst_elem;
  cl_dtype src_dtype, dst_dtype;
  decode_element(&r, &src_elem, &src_dtype);
  if (flags & 2) {
    decode_element(&r, &dst_elem, &dst_dtype);
  } else {
    dst_elem = src_elem;
    dst_dtype = flags & 4 ? CL_DTYPE_NONE : src_dtype;
  }
  if (getenv("FUZZ_TENSOR_TRACE") != NULL) {
    char *ta = NULL, *tb = NULL;
    if (a != NULL && b != NULL && cl_layout_to_string(a, &ta) == CL_OK && cl_layout_to_string(b, &tb) == CL_OK)
      fprintf(stderr, "op %d, flags %d, src = %s (%zu bytes, %s), dst = %s (%zu bytes, %s)\n", op % 20, flags, ta,
              src_elem, cl_dtype_name(src_dtype), tb, dst_elem, cl_dtype_name(dst_dtype));
    cl_string_free(tb);
    cl_string_free(ta);
  }
  reset_buffers();
  side *src = &sides[0], *dst = &sides[1];
  bool two = op % 20 < 3 || op % 20 == 18;
  bool ok = a != NULL && b != NULL && make_side(src, a, &r, 0, src_elem, src_dtype);
  if (ok && two)
    ok = make_side(dst, b, &r, flags & 1 || op % 20 == 18 ? 0 : 1, dst_elem, dst_dtype);
  if (ok) {
    switch (op % 20) {
    case 0: op_copy(dst, src, false, next_byte(&r)); break;
    case 1: op_copy(dst, src, true, next_byte(&r)); break;
    case 2: op_fill(dst, &r); break;
    case 3: op_slice(src, &r); break;
    case 4: op_tiler_view(src, &r, 0); break;
    case 5: op_tiler_view(src, &r, 1); break;
    case 6: op_tiler_view(src, &r, 2); break;
    case 7: op_compose_layout(src, b); break;
    case 8: op_partition(src, &r, 0); break;
    case 9: op_partition(src, &r, 1); break;
    case 10: op_partition(src, &r, 2); break;
    case 11: op_local_partition(src, b, &r); break;
    case 12: op_recast(src, &r); break;
    case 13: op_flatten_group(src, &r); break;
    case 14: op_print(src, &r); break;
    case 15: op_dlpack(src); break;
    case 16: op_odometer(src, &r); break;
    case 17: op_eval_range(src, &r); break;
    case 18: op_copy(dst, src, false, next_byte(&r)); break; /* within one buffer */
    default: op_fill(src, &r); break;
    }
  }
  cl_tensor_free(dst->t);
  cl_tensor_free(src->t);
  dst->t = src->t = NULL;
  cl_layout_free(b);
  cl_layout_free(a);
  return 0;
}
