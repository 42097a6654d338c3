/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_algebra.c: the layout algebra on layouts decoded from arbitrary bytes.
 *
 * The input is an operation selector, two layouts A and B (at most 8 leaves,
 * 3 levels deep, extents mostly 1..8 and strides mostly -8..25, sometimes a
 * huge or negative value to reach the overflow paths) and an integer
 * parameter.  The operation runs; a failure must be a clean one (a negative
 * status, a NULL result, a message), and a success must satisfy the
 * operation's defining property, checked exhaustively over the result's
 * domain whenever the layouts involved are small enough to enumerate:
 *
 *   layout(i)           the library's evaluation (and eval_range) against an
 *                       exact 128-bit evaluation of the flattened modes;
 *                       CL_E_OVERFLOW when the value does not fit (or, at
 *                       the library's choice, when a partial sum does not)
 *   coalesce(A)         the same function as A on [0, size(A)), depth <= 1
 *   filter(A)           coalesce(filter_zeros(A))
 *   composition(A,B)    C(i) == A(B(i)) wherever B(i) is inside A's domain,
 *                       along each leaf mode of B (CuTe composes mode by
 *                       mode), everywhere for a linear A; (beyond A's domain
 *                       CuTe's answer depends on how A was coalesced, so
 *                       there is nothing to hold it to)
 *   complement(A,M)     for an injective A with non-negative strides: the
 *                       result is increasing, (filter(A), C) is injective
 *                       and, when A's strides divide one another, its
 *                       codomain reaches M
 *   right_inverse(A)    A(R(i)) == i, R(i) inside A's domain
 *   left_inverse(A)     R(A(i)) == i for an injective A
 *   logical_divide      composition(A, make_layout(B, complement(B, shape(coalesce(A)))))
 *   logical_product     make_layout(A, composition(complement(A, size(A)*cosize(B)), B))
 *   zipped/tiled/flat   the same function as the logical divide / product
 *   blocked/raked       the same values as the logical product, rearranged
 *   by-mode tilers      mode k of the result is the operation on mode k
 *   max_common_layout   B(R(i)) == i (and A(R(i)) == i inside A's domain),
 *                       size(R) == max_common_vector(A, B)
 *   nullspace(A)        A(R(i)) == 0
 *   tile_to_shape       size(result) == size(shape)
 *   composed layouts    Swizzle o offset o A evaluates as the swizzle of
 *                       offset + A(i); nested in another, Sw o 0 o C, as
 *                       the swizzle of C(i), and the right inverse R of
 *                       that has N(R(j)) == j
 *   coalesce_z(A)       the same function as A at every i in [0, size + 8),
 *                       depth <= 1, idempotent
 *   layout_add(A,B)     R(i) == A(i) + B(i), symmetric
 *   greatest_common_domain(shape A, shape B): symmetric, its size divides
 *                       both sizes, composition of make_layout(shape) by it
 *                       admissible for both
 *   op[mode](A,B)       mode `mode` of the result is op(mode of A, B), the
 *                       other top-level modes unchanged
 *   common_refinement / common_coarsening: symmetric, compatible with both
 *   max_alignment(A)    upcast<it>(coalesce(A)) succeeds
 *   tile_unzip          tile_unzip(logical_divide(A,B),B) == zipped_divide(A,B)
 *   compiled layouts    cl_layout_compile succeeds exactly when every value
 *                       fits (unless coalesce(A) has too many modes: LIMIT),
 *                       and cl_compiled_eval gives the same values, also
 *                       for Swizzle o offset o A (cl_composed_compile)
 *
 *   coordinate layouts  A with scaled-basis strides (op >= 0xF0): its values
 *                       exist or fail cleanly, coalesce keeps them,
 *                       composition(B, identity(shape(B))) == B, and the
 *                       rest (composition, divides, complement, coordinate
 *                       tensors, local_tile, local_partition, elem_less,
 *                       pictures) fail cleanly or succeed
 *
 * Other operations (upcast, downcast, make_layout_like, ...) only have to
 * fail cleanly or succeed. */
#include <stdbool.h>
#include <string.h>

#include <cutelayout/cutelayout.h>
#include "decode.h"
#include "fuzz.h"

__extension__ typedef __int128 wide;

#define MAX_MODES 64
/* Results with up to this many elements are checked exhaustively. */
#define MAX_VALUES 65536
/* Injectivity is checked on a bitmap of the values below this bound. */
#define MAX_CODOMAIN (1 << 20)

/* ------------------------------------------------------------ decoding */

static int64_t decode_param(reader *r) {
  uint8_t b = next_byte(r);
  return b < 0xF0 ? b % 80 : special_value(r, b);
}

/* ------------------------------------------------------ reference values */

/* A layout flattened, and its values on [0, size) when they can be listed. */
typedef struct fnvals {
  int n;
  int64_t shape[MAX_MODES];
  int64_t stride[MAX_MODES];
  int64_t size;
  bool nonneg; /* every stride >= 0 */
  int64_t v[MAX_VALUES];
} fnvals;

static bool fits(wide v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* The exact value of the flattened layout at i >= 0: coordinates split
 * colexicographically, the last mode taking the rest, summed in 128 bits.
 * *partial_overflow tells whether some partial sum of the terms, in an
 * order of the library's choosing (it sums the tree, inner tuples first),
 * may leave int64_t: whether the sum of the negative or of the positive
 * terms does. */
static wide exact_eval(const fnvals *f, int64_t i, bool *partial_overflow) {
  wide negative = 0, positive = 0;
  for (int k = 0; k < f->n; k++) {
    int64_t c = k == f->n - 1 ? i : i % f->shape[k];
    if (k < f->n - 1)
      i /= f->shape[k];
    wide term = (wide)c * f->stride[k];
    if (term < 0)
      negative += term;
    else
      positive += term;
  }
  *partial_overflow = !fits(negative) || !fits(positive);
  return negative + positive;
}

static bool tuple_int(const cl_tuple_t *t, int64_t k, int64_t *out) {
  cl_tuple_t *e = NULL;
  bool ok = cl_tuple_get(t, &k, 1, &e) == CL_OK && cl_tuple_value(e, out) == CL_OK;
  cl_tuple_free(e);
  return ok;
}

/* The compiled form of l (compiled.h) against its values: it compiles exactly
 * when every value fits (the extremes of layout(i) that it checks are
 * values), unless coalesce(l) has more modes than it holds. */
static void check_compiled(const cl_layout_t *l, const fnvals *f, bool all_fit) {
  cl_compiled_layout_t c;
  cl_status s = cl_layout_compile(l, &c);
  FUZZ_CHECK(s == CL_OK || c.size == 0);
  if (s == CL_E_LIMIT) {
    FUZZ_CHECK(f->n > CL_COMPILED_MAX_MODES);
    return;
  }
  FUZZ_CHECK(s == (all_fit ? CL_OK : CL_E_OVERFLOW));
  FUZZ_CHECK(s != CL_OK || c.size == f->size);
  for (int64_t i = 0; s == CL_OK && i < f->size; i++)
    FUZZ_CHECK(cl_compiled_eval(&c, i) == f->v[i]);
}

/* Reads l's flattened modes and, when its extents are positive, it holds no
 * `()` and it has at most MAX_VALUES elements, all its values: true then.
 * On the way, the library's evaluation must agree with exact_eval: the same
 * value when it fits in int64_t, CL_E_OVERFLOW when it does not. */
static bool read_values(const cl_layout_t *l, fnvals *f) {
  char *text = NULL;
  FUZZ_CHECK(cl_layout_to_string(l, &text) == CL_OK);
  bool empty_tuple = strstr(text, "()") != NULL;
  cl_string_free(text);
  if (empty_tuple)
    return false;
  cl_layout_t *flat = NULL;
  cl_tuple_t *shape = NULL, *stride = NULL;
  FUZZ_CHECK(cl_layout_flatten(l, &flat) == CL_OK);
  FUZZ_CHECK(cl_layout_shape(flat, &shape) == CL_OK && cl_layout_stride(flat, &stride) == CL_OK);
  int64_t rank = cl_tuple_rank(shape);
  FUZZ_CHECK(rank >= 1);
  bool ok = rank <= MAX_MODES;
  f->n = (int)rank;
  f->size = 1;
  f->nonneg = true;
  for (int k = 0; ok && k < f->n; k++) {
    FUZZ_CHECK(tuple_int(shape, k, &f->shape[k]) && tuple_int(stride, k, &f->stride[k]));
    ok = f->shape[k] > 0 && !__builtin_mul_overflow(f->size, f->shape[k], &f->size) && f->size <= MAX_VALUES;
    f->nonneg &= f->stride[k] >= 0;
  }
  cl_tuple_free(stride);
  cl_tuple_free(shape);
  cl_layout_free(flat);
  if (!ok)
    return false;
  int64_t size;
  FUZZ_CHECK(cl_layout_size_checked(l, &size) == CL_OK && size == f->size);
  bool all_fit = true;
  for (int64_t i = 0; i < f->size; i++) {
    bool partial_overflow;
    wide exact = exact_eval(f, i, &partial_overflow);
    int64_t index = 0;
    cl_status s = cl_layout_eval(l, i, &index);
    if (fits(exact) && partial_overflow && s == CL_E_OVERFLOW) {
      /* The library may stop where a partial sum leaves int64_t although a
       * later term brings it back: an error, never a wrong value, so
       * accepted. */
      all_fit = false;
    } else if (fits(exact)) {
      if (s != CL_OK || index != (int64_t)exact)
        fprintf(stderr, "layout(%lld): %lld, status %d, expected %lld\n", (long long)i, (long long)index, (int)s,
                (long long)exact);
      FUZZ_CHECK(s == CL_OK && index == (int64_t)exact);
      f->v[i] = index;
    } else {
      FUZZ_CHECK(s == CL_E_OVERFLOW);
      all_fit = false;
    }
  }
  check_compiled(l, f, all_fit);
  /* The range evaluation agrees with the single one, also just outside the
   * domain where the last mode takes the rest. */
  static int64_t range[MAX_VALUES + 4];
  cl_status range_status = cl_layout_eval_range(l, -2, f->size + 4, range);
  if (range_status == CL_OK) {
    for (int64_t j = 0; j < f->size + 4; j++) {
      int64_t index;
      FUZZ_CHECK(cl_layout_eval(l, j - 2, &index) == CL_OK && index == range[j]);
    }
  } else {
    FUZZ_CHECK(range_status == CL_E_OVERFLOW);
    bool some_overflow = !all_fit;
    for (int64_t j = -2; j < f->size + 2 && !some_overflow; j++) {
      int64_t index;
      some_overflow = cl_layout_eval(l, j, &index) == CL_E_OVERFLOW;
    }
    FUZZ_CHECK(some_overflow);
  }
  return all_fit;
}

/* Four reference slots, reused by every input. */
static fnvals slot[4];

static bool injective(const fnvals *f) {
  static uint8_t seen[MAX_CODOMAIN / 8];
  bool ok = true;
  int64_t set = 0;
  for (; set < f->size; set++) {
    int64_t v = f->v[set];
    if (v < 0 || v >= MAX_CODOMAIN || (seen[v / 8] >> (v % 8) & 1)) {
      ok = false;
      break;
    }
    seen[v / 8] |= (uint8_t)(1u << (v % 8));
  }
  for (int64_t i = 0; i < set; i++)
    seen[f->v[i] / 8] = 0;
  return ok;
}


static void check_same_function(const cl_layout_t *a, const cl_layout_t *b) {
  fnvals *fa = &slot[2], *fb = &slot[3];
  int64_t sa = 0, sb = 0;
  cl_status size_a = cl_layout_size_checked(a, &sa), size_b = cl_layout_size_checked(b, &sb);
  FUZZ_CHECK(size_a == size_b && sa == sb);
  if (read_values(a, fa)) {
    FUZZ_CHECK(read_values(b, fb));
    FUZZ_CHECK(memcmp(fa->v, fb->v, (size_t)fa->size * sizeof fa->v[0]) == 0);
  }
}

static int compare_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void check_same_values(const cl_layout_t *a, const cl_layout_t *b) {
  fnvals *fa = &slot[2], *fb = &slot[3];
  if (!read_values(a, fa))
    return;
  FUZZ_CHECK(read_values(b, fb) && fa->size == fb->size);
  qsort(fa->v, (size_t)fa->size, sizeof fa->v[0], compare_i64);
  qsort(fb->v, (size_t)fb->size, sizeof fb->v[0], compare_i64);
  FUZZ_CHECK(memcmp(fa->v, fb->v, (size_t)fa->size * sizeof fa->v[0]) == 0);
}

/* ------------------------------------------------------------ operations */

static void op_coalesce(const cl_layout_t *a) {
  cl_layout_t *c = NULL;
  if (!SUCCEEDED(cl_coalesce(a, &c), c))
    return;
  int64_t depth = cl_layout_depth(c);
  FUZZ_CHECK(depth == 0 || depth == 1);
  if (read_values(a, &slot[0])) {
    FUZZ_CHECK(read_values(c, &slot[1]) && slot[1].size == slot[0].size);
    FUZZ_CHECK(memcmp(slot[0].v, slot[1].v, (size_t)slot[0].size * sizeof slot[0].v[0]) == 0);
  }
  cl_layout_free(c);
}

static void op_filter(const cl_layout_t *a) {
  cl_layout_t *f = NULL, *z = NULL, *cz = NULL;
  bool ok = SUCCEEDED(cl_filter(a, &f), f);
  if (SUCCEEDED(cl_filter_zeros(a, &z), z) && SUCCEEDED(cl_coalesce(z, &cz), cz)) {
    FUZZ_CHECK(ok && cl_layout_equal(f, cz));
    check_same_function(z, f);
  }
  cl_layout_free(cz);
  cl_layout_free(z);
  cl_layout_free(f);
}

/* Whether A o s:d is A's function on the points j*d, j < s, by the
 * divisibility conditions: at each boundary P between coalesced modes of A
 * that the points cross, d divides P and s is a multiple of the P/d points
 * below it, or P divides d.  CuTe asserts only a weaker condition (it lets
 * a stride below a mode's extent through, e.g. (6,2):(1,6) o 2:4), and its
 * answer is then not A's function, so such leaves are not checked. */
static bool divisible_leaf(const fnvals *coalesced, int64_t s, int64_t d) {
  if (d <= 0)
    return false;
  /* In 128 bits: s * d and the boundaries below it may not fit in 64. */
  wide extent = (wide)s * d, boundary = 1;
  for (int m = 0; m + 1 < coalesced->n; m++) {
    int64_t shape = coalesced->shape[m];
    if (shape <= 0)
      return false;
    if (boundary > extent / shape)
      break;
    boundary *= shape;
    if (boundary >= extent)
      break;
    bool ok = (boundary % d == 0 && s % (boundary / d) == 0) || d % boundary == 0;
    if (!ok)
      return false;
  }
  return true;
}

/* CuTe composes A with each leaf mode of B on its own and adds the
 * results, so C(i) == A(B(i)) holds along each leaf mode of B that meets the
 * divisibility conditions (the coordinates with one leaf coordinate
 * nonzero), and everywhere when A is linear (coalesces to a single mode)
 * and every leaf of B stays inside its domain; only where B(i) lies in A's
 * domain. */
static void check_composition(const cl_layout_t *a, const cl_layout_t *b, const cl_layout_t *c) {
  fnvals *fa = &slot[0], *fb = &slot[1], *fc = &slot[2], *fcoalesced = &slot[3];
  int64_t sb = 0, sc = 0;
  cl_status size_b = cl_layout_size_checked(b, &sb), size_c = cl_layout_size_checked(c, &sc);
  FUZZ_CHECK(size_b != CL_OK || (size_c == CL_OK && sb == sc));
  if (!read_values(a, fa) || !read_values(b, fb))
    return;
  if (!read_values(c, fc)) /* values outside int64_t: the evaluation checks did it */
    return;
  FUZZ_CHECK(fc->size == fb->size);
  cl_layout_t *coalesced = NULL;
  FUZZ_CHECK(cl_coalesce(a, &coalesced) == CL_OK && read_values(coalesced, fcoalesced));
  bool linear = cl_layout_depth(coalesced) == 0;
  cl_layout_free(coalesced);
  /* The leaf modes of B are composed one by one: each must stay inside A's
   * domain, or its part of C is CuTe's extension of A beyond it. */
  int64_t leaf_step = 1;
  for (int k = 0; linear && k < fb->n; k++) {
    for (int64_t j = 0; j < fb->shape[k]; j++)
      linear &= fb->v[j * leaf_step] >= 0 && fb->v[j * leaf_step] < fa->size;
    leaf_step *= fb->shape[k];
  }
  for (int64_t i = 0; linear && i < fc->size; i++) {
    int64_t bi = fb->v[i];
    if (bi >= 0 && bi < fa->size)
      FUZZ_CHECK(fc->v[i] == fa->v[bi]);
  }
  int64_t step = 1; /* the linear index of coordinate 1 in leaf k of B */
  for (int k = 0; k < fb->n; k++) {
    for (int64_t j = 0; divisible_leaf(fcoalesced, fb->shape[k], fb->stride[k]) && j < fb->shape[k]; j++) {
      int64_t bi = fb->v[j * step];
      if (bi >= 0 && bi < fa->size)
        FUZZ_CHECK(fc->v[j * step] == fa->v[bi]);
    }
    step *= fb->shape[k];
  }
}

static void op_composition(const cl_layout_t *a, const cl_layout_t *b) {
  cl_layout_t *c = NULL;
  if (SUCCEEDED(cl_composition(a, b, &c), c))
    check_composition(a, b, c);
  cl_layout_free(c);
}

/* Whether the modes of f, by increasing stride, each start where the
 * previous one ends or at a multiple of it.  Only then does CuTe's
 * complement reach its cotarget: it divides each stride by the extent
 * covered so far without checking that the division is exact. */
static bool divisible_strides(const fnvals *f) {
  int64_t order[MAX_MODES];
  for (int k = 0; k < f->n; k++) {
    int j = k;
    for (; j > 0 && f->stride[order[j - 1]] > f->stride[k]; j--)
      order[j] = order[j - 1];
    order[j] = k;
  }
  for (int k = 1; k < f->n; k++) {
    wide covered = (wide)f->shape[order[k - 1]] * f->stride[order[k - 1]];
    if (covered == 0 || f->stride[order[k]] % covered != 0)
      return false;
  }
  return true;
}

/* The checks of complement(A, cotarget) for an injective A with
 * non-negative strides. */
static void check_complement(const cl_layout_t *a, int64_t cotarget, const cl_layout_t *c) {
  fnvals *fa = &slot[0], *ff = &slot[1], *fc = &slot[2];
  if (!read_values(a, fa) || !fa->nonneg || cotarget < 0)
    return;
  cl_layout_t *filtered = NULL;
  FUZZ_CHECK(cl_filter(a, &filtered) == CL_OK);
  bool readable = read_values(filtered, ff);
  cl_layout_free(filtered);
  if (!readable || !injective(ff) || !read_values(c, fc))
    return;
  for (int64_t j = 1; j < fc->size; j++)
    FUZZ_CHECK(fc->v[j] > fc->v[j - 1]);
  int64_t fmax = 0, cmax = fc->size > 0 ? fc->v[fc->size - 1] : 0;
  for (int64_t i = 0; i < ff->size; i++)
    fmax = ff->v[i] > fmax ? ff->v[i] : fmax;
  if (divisible_strides(ff))
    FUZZ_CHECK((wide)fmax + cmax + 1 >= cotarget);
  if ((wide)ff->size * fc->size > MAX_VALUES || fmax + cmax >= MAX_CODOMAIN)
    return;
  fnvals *pair = &slot[3];
  pair->size = 0;
  for (int64_t j = 0; j < fc->size; j++)
    for (int64_t i = 0; i < ff->size; i++)
      pair->v[pair->size++] = ff->v[i] + fc->v[j];
  FUZZ_CHECK(injective(pair));
}

static void op_complement(const cl_layout_t *a, int64_t cotarget) {
  cl_layout_t *c = NULL;
  if (SUCCEEDED(cl_complement(a, cotarget, &c), c))
    check_complement(a, cotarget, c);
  cl_layout_free(c);
  cl_layout_t *full = NULL, *filtered = NULL;
  if (SUCCEEDED(cl_complement_full(a, &full), full) && cl_filter(a, &filtered) == CL_OK) {
    int64_t cosize;
    if (cl_layout_cosize_checked(filtered, &cosize) == CL_OK)
      check_complement(a, cosize, full);
  }
  cl_layout_free(filtered);
  cl_layout_free(full);
}

static void op_right_inverse(const cl_layout_t *a) {
  cl_layout_t *r = NULL;
  fnvals *fa = &slot[0], *fr = &slot[1];
  if (SUCCEEDED(cl_right_inverse(a, &r), r) && read_values(a, fa)) {
    FUZZ_CHECK(read_values(r, fr));
    for (int64_t i = 0; i < fr->size; i++) {
      FUZZ_CHECK(fr->v[i] >= 0 && fr->v[i] < fa->size);
      FUZZ_CHECK(fa->v[fr->v[i]] == i);
    }
  }
  cl_layout_free(r);
}

static void op_left_inverse(const cl_layout_t *a) {
  cl_layout_t *r = NULL;
  fnvals *fa = &slot[0], *fr = &slot[1];
  if (SUCCEEDED(cl_left_inverse(a, &r), r) && read_values(a, fa) && fa->nonneg && injective(fa) &&
      read_values(r, fr)) {
    for (int64_t i = 0; i < fa->size; i++) {
      FUZZ_CHECK(fa->v[i] < fr->size);
      FUZZ_CHECK(fr->v[fa->v[i]] == i);
    }
  }
  cl_layout_free(r);
}

/* composition(A, make_layout(B, complement(B, shape(coalesce(A))))) */
static cl_status divide_by_definition(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {
  cl_layout_t *coalesced = NULL, *rest = NULL, *tiler = NULL;
  cl_tuple_t *cotarget = NULL;
  *out = NULL;
  cl_status s = cl_coalesce(a, &coalesced);
  if (s == CL_OK)
    s = cl_layout_shape(coalesced, &cotarget);
  if (s == CL_OK)
    s = cl_complement_shape(b, cotarget, &rest);
  if (s == CL_OK) {
    const cl_layout_t *modes[2] = {b, rest};
    s = cl_layout_concat(modes, 2, &tiler);
  }
  if (s == CL_OK)
    s = cl_composition(a, tiler, out);
  cl_layout_free(tiler);
  cl_layout_free(rest);
  cl_tuple_free(cotarget);
  cl_layout_free(coalesced);
  return s;
}

/* make_layout(A, composition(complement(A, size(A)*cosize(B)), B)) */
static cl_status product_by_definition(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {
  cl_layout_t *rest = NULL, *arranged = NULL;
  int64_t size, cosize, cotarget;
  *out = NULL;
  cl_status s = cl_layout_size_checked(a, &size);
  if (s == CL_OK)
    s = cl_layout_cosize_checked(b, &cosize);
  if (s == CL_OK && __builtin_mul_overflow(size, cosize, &cotarget))
    s = CL_E_OVERFLOW;
  if (s == CL_OK)
    s = cl_complement(a, cotarget, &rest);
  if (s == CL_OK)
    s = cl_composition(rest, b, &arranged);
  if (s == CL_OK) {
    const cl_layout_t *modes[2] = {a, arranged};
    s = cl_layout_concat(modes, 2, out);
  }
  cl_layout_free(arranged);
  cl_layout_free(rest);
  return s;
}

typedef cl_status (*binary_op)(const cl_layout_t *, const cl_layout_t *, cl_layout_t **);

/* The logical divide or product against its definition, and its zipped,
 * tiled and flat forms as the same function. */
static void op_logical(const cl_layout_t *a, const cl_layout_t *b, binary_op logical, binary_op definition,
                       const binary_op *forms, size_t nforms) {
  cl_layout_t *r = NULL, *expected = NULL;
  bool ok = SUCCEEDED(logical(a, b, &r), r);
  cl_status def = definition(a, b, &expected);
  int64_t b_size = 1;
  if (def == CL_E_DOMAIN && cl_layout_size_checked(b, &b_size) == CL_OK && b_size == 0) {
    /* A tiler of size 0 has a negative cosize, so the product's definition
     * asks complement for a negative extent, which the library refuses,
     * while CuTe's product is an ordinary layout (test_algebra.c holds
     * CuTe's answers): nothing here to compare against. */
    cl_layout_free(r);
    return;
  }
  bool expected_ok = def == CL_OK;
  FUZZ_CHECK(ok == expected_ok);
  if (ok) {
    FUZZ_CHECK(cl_layout_equal(r, expected));
    for (size_t k = 0; k < nforms; k++) {
      cl_layout_t *form = NULL;
      FUZZ_CHECK(SUCCEEDED(forms[k](a, b, &form), form));
      check_same_function(r, form);
      cl_layout_free(form);
    }
  }
  cl_layout_free(expected);
  cl_layout_free(r);
}

static void op_blocked_raked(const cl_layout_t *a, const cl_layout_t *b, binary_op product) {
  cl_layout_t *r = NULL, *logical = NULL;
  if (SUCCEEDED(product(a, b, &r), r) && SUCCEEDED(cl_logical_product(a, b, &logical), logical)) {
    int64_t sr = 0, sl = 0;
    cl_status size_r = cl_layout_size_checked(r, &sr), size_l = cl_layout_size_checked(logical, &sl);
    /* The same extents in another order: a size whose left-to-right
     * product overflows before it reaches a zero extent is an overflow (as
     * CuTe's fold would be) while the other order gives 0, so only sizes
     * that both exist are compared. */
    if (size_r == CL_OK && size_l == CL_OK) {
      FUZZ_CHECK(sr == sl);
      check_same_values(logical, r);
    } else {
      FUZZ_CHECK(size_r == CL_E_OVERFLOW || size_l == CL_E_OVERFLOW);
    }
  }
  cl_layout_free(logical);
  cl_layout_free(r);
}

typedef cl_status (*tiler_op)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);

/* A by-mode tiler (element 0 B, element 1 an integer or '_'): mode k of the
 * result is the operation on mode k of A; modes past the tiler are dropped
 * (composition) or kept (divides and products). */
static void op_tiler(const cl_layout_t *a, const cl_layout_t *b, int64_t param, tiler_op by_tiler, binary_op on_mode,
                     bool keeps_rest) {
  char *btext = NULL;
  FUZZ_CHECK(cl_layout_to_string(b, &btext) == CL_OK);
  int64_t n = param % 9;
  char tiler_text[1200];
  if (param % 10 == 9)
    snprintf(tiler_text, sizeof tiler_text, "(%s,_)", btext);
  else
    snprintf(tiler_text, sizeof tiler_text, "(%s,%lld)", btext, (long long)n);
  cl_string_free(btext);
  cl_tuple_t *tiler = NULL;
  if (cl_tuple_parse(tiler_text, &tiler) != CL_OK)
    return;
  cl_layout_t *r = NULL;
  if (SUCCEEDED(by_tiler(a, tiler, &r), r)) {
    int64_t rank_a = cl_layout_rank(a), rank_r = cl_layout_rank(r);
    FUZZ_CHECK(rank_a >= 2);
    FUZZ_CHECK(rank_r == (keeps_rest ? rank_a : 2));
    for (int64_t k = 0; k < rank_r; k++) {
      cl_layout_t *mode = NULL, *got = NULL, *expected = NULL, *tile = NULL;
      FUZZ_CHECK(cl_layout_get(a, &k, 1, &mode) == CL_OK && cl_layout_get(r, &k, 1, &got) == CL_OK);
      cl_status s;
      if (k == 0) {
        s = on_mode(mode, b, &expected);
      } else if (k == 1 && param % 10 != 9) {
        /* An integer n tiles as n:1 (composition) or make_layout(n). */
        char tile_text[64];
        snprintf(tile_text, sizeof tile_text, "%lld:%d", (long long)n, n == 1 && keeps_rest ? 0 : 1);
        FUZZ_CHECK(cl_layout_parse(tile_text, &tile) == CL_OK);
        s = on_mode(mode, tile, &expected);
      } else {
        s = cl_layout_copy(mode, &expected);
      }
      FUZZ_CHECK(s == CL_OK && cl_layout_equal(got, expected));
      cl_layout_free(tile);
      cl_layout_free(expected);
      cl_layout_free(got);
      cl_layout_free(mode);
    }
  }
  cl_layout_free(r);
  cl_tuple_free(tiler);
}

static void op_max_common(const cl_layout_t *a, const cl_layout_t *b) {
  int64_t n = 0;
  cl_status vs = cl_max_common_vector(a, b, &n);
  cl_layout_t *r = NULL;
  if (!SUCCEEDED(cl_max_common_layout(a, b, &r), r)) {
    FUZZ_CHECK(vs != CL_OK);
    return;
  }
  FUZZ_CHECK(vs == CL_OK);
  fnvals *fa = &slot[0], *fb = &slot[1], *fr = &slot[2];
  /* Negative extents are CuTe's too, and give it negative vectors. */
  if (read_values(a, fa) && read_values(b, fb)) {
    int64_t size;
    FUZZ_CHECK(n >= 1 && cl_layout_size_checked(r, &size) == CL_OK && size == n);
    FUZZ_CHECK(read_values(r, fr));
    for (int64_t i = 0; i < fr->size; i++) {
      int64_t c = fr->v[i];
      FUZZ_CHECK(c >= 0 && c < fb->size && fb->v[c] == i);
      if (c < fa->size)
        FUZZ_CHECK(fa->v[c] == i);
    }
  }
  cl_layout_free(r);
}

static void op_nullspace(const cl_layout_t *a) {
  cl_layout_t *r = NULL;
  fnvals *fa = &slot[0], *fr = &slot[1];
  if (SUCCEEDED(cl_nullspace(a, &r), r) && read_values(a, fa) && read_values(r, fr)) {
    for (int64_t i = 0; i < fr->size; i++)
      FUZZ_CHECK(fr->v[i] >= 0 && fr->v[i] < fa->size && fa->v[fr->v[i]] == 0);
  }
  cl_layout_free(r);
}

static void op_tile_to_shape(const cl_layout_t *a, const cl_layout_t *b) {
  cl_tuple_t *shape = NULL;
  FUZZ_CHECK(cl_layout_shape(b, &shape) == CL_OK);
  cl_layout_t *r = NULL;
  if (SUCCEEDED(cl_tile_to_shape(a, shape, NULL, &r), r)) {
    int64_t want, got;
    if (cl_tuple_product(shape, &want) == CL_OK)
      FUZZ_CHECK(cl_layout_size_checked(r, &got) == CL_OK && got == want);
  }
  cl_layout_free(r);
  cl_tuple_free(shape);
}

/* Operations held only to failing cleanly. */
static void op_clean(const cl_layout_t *a, const cl_layout_t *b, int64_t param, int which) {
  cl_layout_t *r = NULL;
  cl_status s;
  switch (which) {
  case 0: s = cl_upcast(a, param, &r); break;
  case 1: s = cl_downcast(a, param, &r); break;
  case 2: s = cl_make_layout_like(a, &r); break;
  case 3: s = cl_make_fragment_like(a, &r); break;
  case 4: s = cl_layout_zip(a, &r); break;
  default: {
    cl_tuple_t *profile = NULL;
    FUZZ_CHECK(cl_layout_shape(b, &profile) == CL_OK);
    s = cl_coalesce_profile(a, profile, &r);
    cl_tuple_free(profile);
  }
  }
  if (succeeded(s, r) && which >= 2 && which <= 4) {
    int64_t sa, sr;
    if (cl_layout_size_checked(a, &sa) == CL_OK)
      FUZZ_CHECK(cl_layout_size_checked(r, &sr) == CL_OK && sr == sa);
  }
  cl_layout_free(r);
}

/* N = Sw o 0 o C, a composed layout nested in another: N(i) == Sw(C(i))
 * wherever C(i) exists (and n > 0 says how many i to try), its text parses
 * back to it, and a right inverse R that it has satisfies N(R(j)) == j. */
static void check_nested(const cl_composed_t *c, cl_swizzle_t sw, int64_t n) {
  cl_composed_t *nested = NULL;
  if (!SUCCEEDED(cl_make_composed_nested(cl_layout_fn_of(cl_fn_swizzle(sw)), 0, cl_layout_fn_composed(c), &nested), nested))
    return;
  for (int64_t i = 0; i < n && i < 4096; i++) {
    int64_t inner, got, want;
    if (cl_composed_eval(c, i, &inner) != CL_OK)
      continue;
    FUZZ_CHECK(cl_composed_eval(nested, i, &got) == CL_OK);
    FUZZ_CHECK(cl_swizzle_apply(sw, inner, &want) == CL_OK);
    FUZZ_CHECK(got == (inner >= INT32_MIN && inner <= INT32_MAX ? (int64_t)(int32_t)(uint32_t)(uint64_t)want : want));
  }
  char *text = NULL;
  if (SUCCEEDED(cl_composed_to_string(nested, &text), text)) {
    cl_composed_t *again = NULL;
    FUZZ_CHECK(cl_composed_parse(text, &again) == CL_OK && cl_composed_equal(nested, again));
    cl_composed_free(again);
  }
  cl_string_free(text);
  cl_layout_t *rl = NULL;
  cl_composed_t *rc = NULL;
  int64_t size;
  if (n > 0 && SUCCEEDED(cl_composed_right_inverse(nested, &rl, &rc), rl != NULL ? (void *)rl : (void *)rc) &&
      (rl != NULL ? cl_layout_size_checked(rl, &size) : cl_composed_size(rc, &size)) == CL_OK) {
    for (int64_t j = 0; j < size && j < 4096; j++) {
      int64_t at, back;
      cl_status s = rl != NULL ? cl_layout_eval(rl, j, &at) : cl_composed_eval(rc, j, &at);
      if (s != CL_OK || at < 0 || at >= n || cl_composed_eval(nested, at, &back) != CL_OK)
        continue;
      FUZZ_CHECK(back == j);
    }
  }
  cl_layout_free(rl);
  cl_composed_free(rc);
  cl_composed_free(nested);
}

/* Swizzle<bits,base,shift> o offset o A evaluates to the swizzle of
 * offset + A(i) wherever the composed evaluation succeeds. */
static void op_composed(const cl_layout_t *a, int64_t param) {
  cl_swizzle_t sw;
  if (cl_swizzle_make(param % 4, param / 4 % 5, param / 20 % 8 - 4, &sw) != CL_OK)
    return;
  int64_t offset = param % 3 == 0 ? 0 : param;
  cl_composed_t *c = NULL;
  fnvals *fa = &slot[0];
  if (!SUCCEEDED(cl_make_composed_layout(cl_fn_swizzle(sw), offset, cl_fn_layout(a), &c), c))
    return;
  bool listed = read_values(a, fa);
  if (listed) {
    /* Compiled, it evaluates everywhere in the domain, to the same values. */
    cl_compiled_layout_t compiled;
    cl_status cs = cl_composed_compile(c, &compiled);
    FUZZ_CHECK(cs == CL_OK || cs == CL_E_OVERFLOW || cs == CL_E_LIMIT);
    for (int64_t i = 0; i < fa->size; i++) {
      int64_t got, want;
      cl_status s = cl_composed_eval(c, i, &got);
      FUZZ_CHECK(cs != CL_OK || (s == CL_OK && cl_compiled_eval(&compiled, i) == got));
      if (s != CL_OK)
        continue;
      FUZZ_CHECK(cl_swizzle_apply(sw, offset + fa->v[i], &want) == CL_OK && got == want);
    }
  }
  check_nested(c, sw, listed ? fa->size : 0);
  char *s = NULL;
  if (SUCCEEDED(cl_composed_to_string(c, &s), s)) {
    cl_composed_t *again = NULL;
    FUZZ_CHECK(cl_composed_parse(s, &again) == CL_OK && cl_composed_equal(c, again));
    cl_composed_free(again);
  }
  cl_string_free(s);
  cl_composed_free(c);
}

/* ---- the whitepaper's algebra and the rest of layout.hpp ---- */

static void op_coalesce_z(const cl_layout_t *a) {
  cl_layout_t *r = NULL, *again = NULL;
  if (!SUCCEEDED(cl_coalesce_z(a, &r), r))
    return;
  int64_t size_a, size_r;
  if (cl_layout_size_checked(a, &size_a) == CL_OK) {
    FUZZ_CHECK(cl_layout_size_checked(r, &size_r) == CL_OK && size_r == size_a);
    FUZZ_CHECK(cl_layout_depth(r) <= 1);
    for (int64_t i = 0; size_a >= 0 && size_a <= MAX_VALUES && i < size_a + 8; i++) {
      int64_t x, y;
      cl_status sa = cl_layout_eval(a, i, &x), sr = cl_layout_eval(r, i, &y);
      if (sa == CL_OK && sr == CL_OK)
        FUZZ_CHECK(x == y);
    }
  }
  FUZZ_CHECK(cl_coalesce_z(r, &again) == CL_OK && cl_layout_equal(r, again));
  cl_layout_free(again);
  cl_layout_free(r);
}

static void op_layout_add(const cl_layout_t *a, const cl_layout_t *b) {
  cl_layout_t *r = NULL, *q = NULL;
  cl_status s = cl_layout_add(a, b, &r);
  if (!succeeded(s, r))
    return;
  FUZZ_CHECK(cl_layout_add(b, a, &q) == CL_OK && cl_layout_equal(r, q));
  fnvals *fa = &slot[0], *fb = &slot[1], *fr = &slot[2];
  if (read_values(a, fa) && read_values(b, fb) && read_values(r, fr)) {
    FUZZ_CHECK(fa->size == fr->size && fb->size == fr->size);
    for (int64_t i = 0; i < fr->size; i++)
      FUZZ_CHECK((wide)fr->v[i] == (wide)fa->v[i] + fb->v[i]);
  }
  cl_layout_free(q);
  cl_layout_free(r);
}

static void op_common_domain(const cl_layout_t *a, const cl_layout_t *b) {
  cl_tuple_t *sa = NULL, *sb = NULL;
  FUZZ_CHECK(cl_layout_shape(a, &sa) == CL_OK && cl_layout_shape(b, &sb) == CL_OK);
  cl_layout_t *g = NULL, *h = NULL;
  if (SUCCEEDED(cl_greatest_common_domain(sa, sb, &g), g)) {
    FUZZ_CHECK(cl_greatest_common_domain(sb, sa, &h) == CL_OK && cl_layout_equal(g, h));
    FUZZ_CHECK(cl_layout_depth(g) == 1);
    int64_t na, nb, ng;
    FUZZ_CHECK(cl_layout_size_checked(g, &ng) == CL_OK && ng >= 1);
    if (cl_tuple_product(sa, &na) == CL_OK && cl_tuple_product(sb, &nb) == CL_OK)
      FUZZ_CHECK(na % ng == 0 && nb % ng == 0);
    for (int k = 0; k < 2; k++) {
      cl_layout_t *full = NULL, *c = NULL;
      /* CuTe composes nothing into a layout it cannot coalesce (one whose
       * shape holds an empty tuple), so the post-condition is for the others. */
      cl_layout_t *flat = NULL;
      /* Nor where CuTe's ceil_div, (a + b - 1) / b, overflows on the way
       * (a trailing size-1 mode after a mode of 2^63 - 1): an overflow
       * status, as for any intermediate past int64_t. */
      if (cl_layout_make_left(k ? sb : sa, &full) == CL_OK && cl_coalesce(full, &flat) == CL_OK) {
        cl_status s = cl_composition(full, g, &c);
        FUZZ_CHECK(s == CL_OK || s == CL_E_OVERFLOW);
      }
      cl_layout_free(flat);
      cl_layout_free(c);
      cl_layout_free(full);
    }
  }
  cl_tuple_t *r = NULL, *q = NULL;
  int ok = 0;
  cl_status s = cl_common_refinement(sa, sb, &r);
  if (succeeded(s, r)) {
    FUZZ_CHECK(cl_common_refinement(sb, sa, &q) == CL_OK && cl_tuple_equal(r, q));
    FUZZ_CHECK(cl_tuple_compatible(sa, r, &ok) == CL_OK && ok && cl_tuple_compatible(sb, r, &ok) == CL_OK && ok);
  }
  cl_tuple_free(r);
  cl_tuple_free(q);
  r = q = NULL;
  s = cl_common_coarsening(sa, sb, &r);
  if (succeeded(s, r)) {
    FUZZ_CHECK(cl_common_coarsening(sb, sa, &q) == CL_OK && cl_tuple_equal(r, q));
    FUZZ_CHECK(cl_tuple_compatible(r, sa, &ok) == CL_OK && ok && cl_tuple_compatible(r, sb, &ok) == CL_OK && ok);
  }
  cl_tuple_free(r);
  cl_tuple_free(q);
  cl_layout_free(g);
  cl_layout_free(h);
  cl_tuple_free(sa);
  cl_tuple_free(sb);
}

static void op_at_mode(const cl_layout_t *a, const cl_layout_t *b, int64_t param) {
  uint64_t choice = (uint64_t)param; /* param may be negative */
  int64_t mode = (int64_t)(choice % 4);
  cl_tuple_t *tiler = NULL;
  FUZZ_CHECK(cl_tuple_from_layout(b, &tiler) == CL_OK);
  typedef cl_status (*at_fn)(const cl_layout_t *, const cl_tuple_t *, const int64_t *, int64_t, cl_layout_t **);
  typedef cl_status (*whole_fn)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);
  static const at_fn at[] = {cl_composition_mode, cl_logical_divide_mode, cl_zipped_divide_mode, cl_logical_product_mode};
  static const whole_fn whole[] = {cl_composition_tiler, cl_logical_divide_tiler, cl_zipped_divide_tiler,
                                   cl_logical_product_tiler};
  int which = (int)(choice / 4 % 4);
  cl_layout_t *r = NULL, *m = NULL, *expect = NULL, *got = NULL;
  if (SUCCEEDED(at[which](a, tiler, &mode, 1, &r), r)) {
    FUZZ_CHECK(cl_layout_get(a, &mode, 1, &m) == CL_OK);
    FUZZ_CHECK(whole[which](m, tiler, &expect) == CL_OK);
    /* An integer-shaped A is its own mode 0: the operation replaces all of it. */
    int64_t rank = cl_layout_depth(a) == 0 ? 0 : cl_layout_rank(a);
    if (rank == 0)
      FUZZ_CHECK(cl_layout_equal(r, expect));
    else
      FUZZ_CHECK(cl_layout_get(r, &mode, 1, &got) == CL_OK && cl_layout_equal(got, expect) &&
                 cl_layout_rank(r) == rank);
    for (int64_t k = 0; rank > 1 && k < rank; k++) {
      if (k == mode)
        continue;
      cl_layout_t *x = NULL, *y = NULL;
      FUZZ_CHECK(cl_layout_get(a, &k, 1, &x) == CL_OK && cl_layout_get(r, &k, 1, &y) == CL_OK && cl_layout_equal(x, y));
      cl_layout_free(x);
      cl_layout_free(y);
    }
  }
  cl_layout_free(r);
  cl_layout_free(m);
  cl_layout_free(expect);
  cl_layout_free(got);
  cl_tuple_free(tiler);
}

/* Whether every value of sorted v[0..n) lies in an aligned block of `width`
 * values that all occur: CuTe's max_alignment promises this of the layout's
 * image (its codomain can be read as vectors of that width), not that
 * upcast accepts the layout as written (upcast needs each stride to divide,
 * and (2,5,8):(5,1,22) has alignment 2 through its sorted modes). */
static bool image_in_aligned_blocks(const int64_t *v, int64_t n, int64_t width) {
  for (int64_t i = 0; i < n; i++) {
    int64_t rem = v[i] % width, start, last;
    if (rem < 0)
      rem += width;
    if (__builtin_sub_overflow(v[i], rem, &start) || __builtin_add_overflow(start, width - 1, &last))
      continue; /* a block past int64_t's edge: no layout value to compare */
    for (int64_t j = 0; j < width; j++) {
      int64_t x = start + j; /* <= last: no overflow */
      if (!bsearch(&x, v, (size_t)n, sizeof *v, compare_i64))
        return false;
    }
  }
  return true;
}

static void op_max_alignment(const cl_layout_t *a) {
  int64_t n = 0;
  cl_status s = cl_max_alignment(a, &n);
  if (s != CL_OK) {
    check_failure(s, NULL);
    return;
  }
  /* CuTe's gcd keeps a sign ((2,3):(1,-7) has alignment -1, as CuTe C++
   * prints), and a layout of size 0 may have alignment 0: the width is the
   * magnitude (none to check for INT64_MIN, which has no int64_t one). */
  int64_t width = n == INT64_MIN ? 0 : n < 0 ? -n : n;
  fnvals *f = &slot[0];
  if (width > 0 && read_values(a, f)) {
    qsort(f->v, (size_t)f->size, sizeof f->v[0], compare_i64);
    FUZZ_CHECK(image_in_aligned_blocks(f->v, f->size, width));
  }
}

static void op_tile_unzip(const cl_layout_t *a, const cl_layout_t *b) {
  cl_tuple_t *tiler = NULL;
  FUZZ_CHECK(cl_tuple_from_layout(b, &tiler) == CL_OK);
  cl_layout_t *ld = NULL, *zd = NULL, *un = NULL;
  if (cl_logical_divide(a, b, &ld) == CL_OK && SUCCEEDED(cl_zipped_divide(a, b, &zd), zd))
    FUZZ_CHECK(cl_tile_unzip(ld, tiler, &un) == CL_OK && cl_layout_equal(un, zd));
  cl_layout_free(ld);
  cl_layout_free(zd);
  cl_layout_free(un);
  cl_tuple_free(tiler);
}

/* ------------------------------------------------------ coordinate layouts */

/* A with each integer of its stride turned, as param's bits say, into the
 * scaled basis d@k (k in 0..2) or kept. */
static cl_layout_t *coordinates_of(const cl_layout_t *a, int64_t param) {
  cl_tuple_t *shape = NULL, *stride = NULL;
  char shape_text[1024], stride_text[1024], text[4200];
  FUZZ_CHECK(cl_layout_shape(a, &shape) == CL_OK && cl_layout_stride(a, &stride) == CL_OK);
  FUZZ_CHECK(cl_tuple_format(shape, shape_text, sizeof shape_text) < (int64_t)sizeof shape_text);
  FUZZ_CHECK(cl_tuple_format(stride, stride_text, sizeof stride_text) < (int64_t)sizeof stride_text);
  cl_tuple_free(shape);
  cl_tuple_free(stride);
  size_t len = (size_t)snprintf(text, sizeof text, "%s:", shape_text);
  uint64_t bits = (uint64_t)param * 0x9E3779B97F4A7C15u;
  for (const char *c = stride_text; *c && len + 8 < sizeof text; c++) {
    text[len++] = *c;
    bool ends_integer = (*c >= '0' && *c <= '9') && !(c[1] >= '0' && c[1] <= '9');
    if (ends_integer && (bits & 3) != 3)
      len += (size_t)snprintf(text + len, sizeof text - len, "@%d", (int)(bits % 3));
    if (ends_integer)
      bits = bits >> 2 | bits << 62;
  }
  text[len] = '\0';
  cl_layout_t *c = NULL;
  FUZZ_CHECK(cl_layout_parse(text, &c) == CL_OK);
  return c;
}

/* A value whose bases are on one index (d@k) as the coordinate c[0..3) and
 * whether it is an integer (then c[0] holds it). */
static bool flat_coordinate(const cl_tuple_t *v, int64_t c[3], bool *integer) {
  c[0] = c[1] = c[2] = 0;
  *integer = cl_tuple_kind(v) == CL_KIND_INT;
  if (*integer)
    return cl_tuple_value(v, &c[0]) == CL_OK;
  if (cl_tuple_kind(v) == CL_KIND_BASIS) {
    int64_t scale, path[2], n;
    FUZZ_CHECK(cl_tuple_basis_parts(v, &scale, path, 2, &n) == CL_OK);
    FUZZ_CHECK(n == 1 && path[0] < 3);
    c[path[0]] = scale;
    return true;
  }
  int64_t r = cl_tuple_rank(v);
  FUZZ_CHECK(cl_tuple_kind(v) == CL_KIND_TUPLE && r <= 3);
  for (int64_t k = 0; k < r; k++)
    FUZZ_CHECK(tuple_int(v, k, &c[k]));
  return true;
}

static bool same_coordinate(const cl_tuple_t *x, const cl_tuple_t *y) {
  int64_t a[3], b[3];
  bool ia, ib;
  flat_coordinate(x, a, &ia);
  flat_coordinate(y, b, &ib);
  if (ia && ib)
    return a[0] == b[0];
  if (ia || ib) /* only a 0 stands for a coordinate */
    return (ia ? a : b)[0] == 0 && memcmp(ia ? b : a, (int64_t[3]){0, 0, 0}, sizeof a) == 0;
  return memcmp(a, b, sizeof a) == 0;
}

static void op_coordinates(const cl_layout_t *a, const cl_layout_t *b, int64_t param, int which) {
  cl_layout_t *c = coordinates_of(a, param), *r = NULL;
  int64_t size = 0;
  bool small = cl_layout_size_checked(c, &size) == CL_OK && size >= 0 && size <= 4096;
  switch (which) {
  case 0: /* values, and coalesce keeps them */
    if (small && SUCCEEDED(cl_coalesce(c, &r), r)) {
      for (int64_t i = 0; i < size; i++) {
        cl_tuple_t *v = NULL, *w = NULL;
        bool have = SUCCEEDED(cl_layout_eval_tuple(c, i, &v), v);
        if (have && SUCCEEDED(cl_layout_eval_tuple(r, i, &w), w))
          FUZZ_CHECK(same_coordinate(v, w));
        cl_tuple_free(v);
        cl_tuple_free(w);
      }
    }
    break;
  case 1: { /* composition(B, identity(shape(B))) == B */
    cl_tuple_t *shape = NULL;
    cl_layout_t *id = NULL;
    FUZZ_CHECK(cl_layout_shape(b, &shape) == CL_OK);
    if (SUCCEEDED(cl_make_identity_layout(shape, &id), id) && SUCCEEDED(cl_composition(b, id, &r), r))
      FUZZ_CHECK(cl_layout_equal(r, b));
    cl_layout_free(id);
    cl_tuple_free(shape);
    break;
  }
  case 2: (void)SUCCEEDED(cl_composition(c, b, &r), r); break;
  case 3: (void)SUCCEEDED(cl_composition(b, c, &r), r); break;
  case 4: (void)SUCCEEDED(cl_logical_divide(c, b, &r), r); break;
  case 5: (void)SUCCEEDED(cl_logical_product(b, c, &r), r); break;
  case 6: (void)SUCCEEDED(cl_complement_full(c, &r), r); break;
  case 7: {
    cl_tuple_t *t = NULL;
    (void)SUCCEEDED(cl_layout_coshape(c, &t), t);
    cl_tuple_free(t);
    break;
  }
  case 8: { /* coordinate tensors: tile and partition A's identity tensor by B */
    cl_tuple_t *shape = NULL, *tiler = NULL, *coord = NULL;
    cl_coord_tensor_t *t = NULL, *tile = NULL, *part = NULL;
    FUZZ_CHECK(cl_layout_shape(a, &shape) == CL_OK && cl_layout_shape(b, &tiler) == CL_OK);
    FUZZ_CHECK(cl_tuple_int(param % 5, &coord) == CL_OK);
    if (SUCCEEDED(cl_make_identity_tensor(shape, &t), t) &&
        SUCCEEDED(cl_coord_local_tile(t, tiler, coord, NULL, &tile), tile) &&
        SUCCEEDED(cl_coord_local_partition(tile, b, param % 7, NULL, &part), part) && small) {
      int64_t n = cl_layout_size(cl_coord_tensor_layout(part));
      for (int64_t i = 0; i < n && i < 4096; i++) {
        cl_tuple_t *v = NULL;
        if (SUCCEEDED(cl_coord_tensor_eval(part, i, &v), v)) {
          int less = 0;
          cl_status s = cl_elem_less(v, shape, &less);
          FUZZ_CHECK(s == CL_OK || (s < 0 && less == 0));
        }
        cl_tuple_free(v);
      }
    }
    cl_coord_tensor_free(part);
    cl_coord_tensor_free(tile);
    cl_coord_tensor_free(t);
    cl_tuple_free(coord);
    cl_tuple_free(tiler);
    cl_tuple_free(shape);
    break;
  }
  default: { /* pictures */
    static char buf[1 << 16];
    int64_t n = small ? cl_print_1d(c, buf, sizeof buf) : 0;
    FUZZ_CHECK(n >= 0 || n >= CL_E_ABI);
    n = small && size <= 256 ? cl_render_layout(c, NULL, buf, sizeof buf) : 0;
    FUZZ_CHECK(n >= 0 || n >= CL_E_ABI);
  }
  }
  cl_layout_free(r);
  cl_layout_free(c);
}

static const binary_op divide_forms[] = {cl_zipped_divide, cl_tiled_divide, cl_flat_divide};
static const binary_op product_forms[] = {cl_zipped_product, cl_tiled_product, cl_flat_product};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  uint8_t op = next_byte(&r);
  cl_layout_t *a = decode_layout(&r);
  cl_layout_t *b = decode_layout(&r);
  int64_t param = decode_param(&r);
  if (a == NULL || b == NULL) {
    cl_layout_free(a);
    cl_layout_free(b);
    return 0;
  }
  if (getenv("FUZZ_ALGEBRA_TRACE") != NULL) {
    /* What the input decodes to, for reading a crash. */
    char *ta = NULL, *tb = NULL;
    if (cl_layout_to_string(a, &ta) == CL_OK && cl_layout_to_string(b, &tb) == CL_OK)
      fprintf(stderr, "op %d, A = %s, B = %s, param %lld\n", op % 20, ta, tb, (long long)param);
    cl_string_free(tb);
    cl_string_free(ta);
  }
  if (op >= 0xF0) {
    if (getenv("FUZZ_ALGEBRA_TRACE") != NULL)
      fprintf(stderr, "coordinates %d, param %lld\n", op % 10, (long long)param);
    op_coordinates(a, b, param, op % 10);
    cl_layout_free(b);
    cl_layout_free(a);
    return 0;
  }
  switch (op % 20) {
  case 0: (void)read_values(a, &slot[0]); break;
  case 1: op_coalesce(a); break;
  case 2: op_filter(a); break;
  case 3: op_composition(a, b); break;
  case 4: op_complement(a, param); break;
  case 5: op_right_inverse(a); break;
  case 6: op_left_inverse(a); break;
  case 7: op_logical(a, b, cl_logical_divide, divide_by_definition, divide_forms, 3); break;
  case 8: op_logical(a, b, cl_logical_product, product_by_definition, product_forms, 3); break;
  case 9: op_blocked_raked(a, b, cl_blocked_product); break;
  case 10: op_blocked_raked(a, b, cl_raked_product); break;
  case 11: op_tiler(a, b, param, cl_composition_tiler, cl_composition, false); break;
  case 12: op_tiler(a, b, param, cl_logical_divide_tiler, cl_logical_divide, true); break;
  case 13: op_tiler(a, b, param, cl_logical_product_tiler, cl_logical_product, true); break;
  case 14: op_max_common(a, b); break;
  case 15: op_nullspace(a); break;
  case 16: op_tile_to_shape(a, b); break;
  case 17: op_composed(a, param); break;
  default:
    switch (op / 20) {
    case 6: op_coalesce_z(a); break;
    case 7: op_layout_add(a, b); break;
    case 8: op_common_domain(a, b); break;
    case 9: op_at_mode(a, b, param); break;
    case 10: op_max_alignment(a); break;
    case 11: op_tile_unzip(a, b); break;
    default: op_clean(a, b, param, op / 20 % 6); break;
    }
    break;
  }
  cl_layout_free(b);
  cl_layout_free(a);
  return 0;
}
