/* SPDX-License-Identifier: BSD-3-Clause */
/* swizzle.c: swizzle functions and composed layouts (CuTe's swizzle.hpp,
 * swizzle_layout.hpp and layout_composed.hpp).
 *
 * Swizzle<B,M,S> acting on an index x:
 *
 *     x = 0b ...xxx YYY xxx...xxx ZZZ xxxx        (M low bits kept)
 *     f(x) = x ^ shiftr(x & cl_sw_yyy_msk, S)           ZZZ ^= YYY
 *
 * A composed layout A o offset o B is the function i -> A(offset + B(i)).
 * CuTe forwards nearly every operation to B (which defines the domain) and
 * re-wraps the result; only slicing and inversion look inside a swizzle. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>

#include "map_impl.h"
#include "render_impl.h"
#include "eval_plan_impl.h"
#include "swizzle_impl.h"
#include "cutelayout/compiled.h"
#include "cutelayout/layout.h"
#include "cutelayout/text.h"

/* ================================================================ swizzle */

static int64_t iabs64(int64_t v) { return v < 0 ? -v : v; }

/* CuTe builds its masks as constant expressions of type int.  A shift by 32
 * or more, or a mask that does not fit in 32 bits, is ill-formed there, so
 * these are the conditions under which Swizzle<B,M,S> compiles. */
static cl_status check_swizzle(int64_t b, int64_t m, int64_t s) {
  if (b < 0)
    return cl_fail(CL_E_DOMAIN, "Swizzle<%lld,%lld,%lld>: BBits must be >= 0", (long long)b, (long long)m, (long long)s);
  if (m < 0)
    return cl_fail(CL_E_DOMAIN, "Swizzle<%lld,%lld,%lld>: MBase must be >= 0", (long long)b, (long long)m, (long long)s);
  if (s < INT32_MIN || s > INT32_MAX || b > INT32_MAX || m > INT32_MAX || iabs64(s) < b)
    return cl_fail(CL_E_DOMAIN, "Swizzle<%lld,%lld,%lld>: abs(SShift) must be >= BBits", (long long)b, (long long)m,
                   (long long)s);
  if (m + iabs64(s) > 31 || (b > 0 && b + m + iabs64(s) > 32))
    return cl_fail(CL_E_DOMAIN, "Swizzle<%lld,%lld,%lld>: its masks do not fit in a 32-bit int (needs MBase+|SShift| <= 31 and BBits+MBase+|SShift| <= 32)",
                   (long long)b, (long long)m, (long long)s);
  return CL_OK;
}

cl_status cl_swizzle_validate(cl_swizzle_t sw) { return check_swizzle(sw.bits, sw.base, sw.shift); }

cl_status cl_swizzle_make(int64_t bits, int64_t base, int64_t shift, cl_swizzle_t *out) {
  CHECK_NULL(out);
  *out = (cl_swizzle_t){0, 0, 0};
  CL_TRY(check_swizzle(bits, base, shift));
  *out = (cl_swizzle_t){(int32_t)bits, (int32_t)base, (int32_t)shift};
  return CL_OK;
}

/* The masks as CuTe's `int` constants (bit 31 may be set, which makes them
 * negative), widened to 64 bits the way C++ widens an int: sign-extended. */
static int64_t int_mask(int32_t bits, int32_t at) {
  uint32_t ones = bits == 0 ? 0u : (uint32_t)((UINT64_C(1) << bits) - 1);
  return (int64_t)(int32_t)(ones << at);
}
int64_t cl_sw_yyy_msk(cl_swizzle_t sw) { return int_mask(sw.bits, sw.base + (sw.shift > 0 ? sw.shift : 0)); }
int64_t cl_sw_zzz_msk(cl_swizzle_t sw) { return int_mask(sw.bits, sw.base - (sw.shift < 0 ? sw.shift : 0)); }

/* CuTe's shiftr: right by s, or left by -s.  Left shifts go through uint64_t
 * (well defined); the right shift of a negative value is arithmetic. */
static int64_t shiftr(int64_t x, int32_t s) {
  return s >= 0 ? x >> s : (int64_t)((uint64_t)x << -s);
}

/* For validated swizzles only. */
int64_t cl_sw_apply(cl_swizzle_t sw, int64_t offset) {
  return offset ^ shiftr(offset & cl_sw_yyy_msk(sw), sw.shift);
}

cl_status cl_swizzle_apply(cl_swizzle_t sw, int64_t offset, int64_t *out) {
  CHECK_NULL(out);
  CL_TRY(cl_swizzle_validate(sw));
  *out = cl_sw_apply(sw, offset);
  return CL_OK;
}

cl_status cl_swizzle_masks(cl_swizzle_t sw, int64_t *yyy, int64_t *zzz) {
  CL_TRY(cl_swizzle_validate(sw));
  if (yyy != NULL)
    *yyy = cl_sw_yyy_msk(sw);
  if (zzz != NULL)
    *zzz = cl_sw_zzz_msk(sw);
  return CL_OK;
}

static int popcount32(uint32_t x) { return __builtin_popcount(x); }
static int countr_zero32(uint32_t x) { return x == 0 ? 32 : __builtin_ctz(x); }

/* make_swizzle<Y,Z>: B = popcount, M = the lower of the two lowest set bits,
 * S = their distance; valid only if Y|Z is exactly that swizzle's code. */
cl_status cl_make_swizzle(int64_t yyy, int64_t zzz, cl_swizzle_t *out) {
  CHECK_NULL(out);
  *out = (cl_swizzle_t){0, 0, 0};
  if (yyy < 0 || yyy > UINT32_MAX || zzz < 0 || zzz > UINT32_MAX)
    return cl_fail(CL_E_DOMAIN, "make_swizzle<%lld,%lld>: the masks must be unsigned 32-bit values", (long long)yyy,
                   (long long)zzz);
  uint32_t y = (uint32_t)yyy, z = (uint32_t)zzz;
  if (popcount32(y) != popcount32(z))
    return cl_fail(CL_E_DOMAIN, "make_swizzle<%lld,%lld>: number of bits in Y and Z don't match", (long long)yyy,
                   (long long)zzz);
  int tz_y = countr_zero32(y), tz_z = countr_zero32(z);
  cl_swizzle_t sw = {popcount32(y), (tz_y < tz_z ? tz_y : tz_z) % 32, tz_y - tz_z};
  if (check_swizzle(sw.bits, sw.base, sw.shift) != CL_OK ||
      (uint32_t)(cl_sw_yyy_msk(sw) | cl_sw_zzz_msk(sw)) != (y | z))
    return cl_fail(CL_E_DOMAIN, "make_swizzle<%lld,%lld>: the masks are not those of a swizzle (Y and Z must be runs of bits of one length)",
                   (long long)yyy, (long long)zzz);
  *out = sw;
  return CL_OK;
}

cl_status cl_swizzle_composition(cl_swizzle_t a, cl_swizzle_t b, cl_swizzle_t *out) {
  CHECK_NULL(out);
  *out = (cl_swizzle_t){0, 0, 0};
  CL_TRY(cl_swizzle_validate(a));
  CL_TRY(cl_swizzle_validate(b));
  if (a.shift != b.shift)
    return cl_fail(CL_E_DOMAIN, "composition(Sw<%d,%d,%d>, Sw<%d,%d,%d>): can only merge swizzles of the same shift",
                   a.bits, a.base, a.shift, b.bits, b.base, b.shift);
  /* CuTe stores the XORed int masks in uint32_t variables. */
  uint32_t y = (uint32_t)(cl_sw_yyy_msk(a) ^ cl_sw_yyy_msk(b)), z = (uint32_t)(cl_sw_zzz_msk(a) ^ cl_sw_zzz_msk(b));
  return cl_make_swizzle(y, z, out);
}

static bool is_pow2(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }
static int log2_of(int64_t n) { return 63 - __builtin_clzll((unsigned long long)n); }

/* upcast<N>: indices of N-times larger elements; the kept low bits shrink by
 * log2(N), and once they are gone the swizzled bits shrink instead. */
cl_status cl_swizzle_upcast(cl_swizzle_t sw, int64_t n, cl_swizzle_t *out) {
  CHECK_NULL(out);
  *out = (cl_swizzle_t){0, 0, 0};
  CL_TRY(cl_swizzle_validate(sw));
  if (!is_pow2(n) || n > INT32_MAX)
    return cl_fail(CL_E_DOMAIN, "upcast<%lld>(Sw<%d,%d,%d>): N must be a power of two", (long long)n, sw.bits, sw.base, sw.shift);
  int new_m = sw.base - log2_of(n);
  if (new_m >= 0)
    return cl_swizzle_make(sw.bits, new_m, sw.shift, out);
  return cl_swizzle_make(sw.bits + new_m > 0 ? sw.bits + new_m : 0, 0, sw.shift, out);
}

cl_status cl_swizzle_downcast(cl_swizzle_t sw, int64_t n, cl_swizzle_t *out) {
  CHECK_NULL(out);
  *out = (cl_swizzle_t){0, 0, 0};
  CL_TRY(cl_swizzle_validate(sw));
  if (!is_pow2(n) || n > INT32_MAX)
    return cl_fail(CL_E_DOMAIN, "downcast<%lld>(Sw<%d,%d,%d>): N must be a power of two", (long long)n, sw.bits, sw.base, sw.shift);
  return cl_swizzle_make(sw.bits, sw.base + log2_of(n), sw.shift, out);
}

int64_t cl_swizzle_max_alignment(cl_swizzle_t sw) {
  cl_status s = cl_swizzle_validate(sw);
  return s == CL_OK ? INT64_C(1) << sw.base : s;
}

int cl_swizzle_equal(cl_swizzle_t a, cl_swizzle_t b) {
  return a.bits == b.bits && a.base == b.base && a.shift == b.shift;
}

/* ---- text ---- */

typedef struct scanner {
  const char *text;
  size_t pos;
} scanner;

static void skip_space(scanner *sc) {
  while (isspace((unsigned char)sc->text[sc->pos]))
    sc->pos++;
}

static cl_status expected(const scanner *sc, const char *what) {
  char c = sc->text[sc->pos];
  if (c == '\0')
    return cl_fail(CL_E_PARSE, "column %zu: expected %s, found the end of the text", sc->pos + 1, what);
  if (isprint((unsigned char)c))
    return cl_fail(CL_E_PARSE, "column %zu: expected %s, found '%c'", sc->pos + 1, what, c);
  return cl_fail(CL_E_PARSE, "column %zu: expected %s, found byte 0x%02x", sc->pos + 1, what, (unsigned char)c);
}

static cl_status expect_char(scanner *sc, char c, const char *what) {
  skip_space(sc);
  if (sc->text[sc->pos] != c)
    return expected(sc, what);
  sc->pos++;
  return CL_OK;
}

static cl_status scan_int(scanner *sc, int64_t *out) {
  skip_space(sc);
  size_t start = sc->pos;
  bool negative = sc->text[sc->pos] == '-';
  if (negative)
    sc->pos++;
  if (!isdigit((unsigned char)sc->text[sc->pos]))
    return expected(sc, "a digit");
  int64_t v = 0; /* accumulated negatively so that INT64_MIN parses */
  for (; isdigit((unsigned char)sc->text[sc->pos]); sc->pos++)
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_sub_overflow(v, sc->text[sc->pos] - '0', &v))
      return cl_fail(CL_E_OVERFLOW, "column %zu: integer does not fit in 64 bits", start + 1);
  if (!negative && v == INT64_MIN)
    return cl_fail(CL_E_OVERFLOW, "column %zu: integer does not fit in 64 bits", start + 1);
  *out = negative ? v : -v;
  return CL_OK;
}

/* 'Sw' '<' INT ',' INT ',' INT '>' at the scanner's position. */
static cl_status scan_swizzle(scanner *sc, cl_swizzle_t *out) {
  skip_space(sc);
  if (sc->text[sc->pos] != 'S' || sc->text[sc->pos + 1] != 'w')
    return expected(sc, "'Sw<'");
  sc->pos += 2;
  int64_t v[3];
  CL_TRY(expect_char(sc, '<', "'<'"));
  CL_TRY(scan_int(sc, &v[0]));
  CL_TRY(expect_char(sc, ',', "','"));
  CL_TRY(scan_int(sc, &v[1]));
  CL_TRY(expect_char(sc, ',', "','"));
  CL_TRY(scan_int(sc, &v[2]));
  CL_TRY(expect_char(sc, '>', "'>'"));
  return cl_swizzle_make(v[0], v[1], v[2], out);
}

cl_status cl_swizzle_parse(const char *text, cl_swizzle_t *out) {
  CHECK_NULL(out);
  *out = (cl_swizzle_t){0, 0, 0};
  CHECK_NULL(text);
  scanner sc = {text, 0};
  cl_swizzle_t sw;
  CL_TRY(scan_swizzle(&sc, &sw));
  skip_space(&sc);
  if (text[sc.pos] != '\0')
    return expected(&sc, "the end of the text");
  *out = sw;
  return CL_OK;
}

int64_t cl_swizzle_format(cl_swizzle_t sw, char *buf, size_t cap) {
  if (buf == NULL && cap > 0)
    return cl_fail(CL_E_NULL, "cl_swizzle_format: NULL buffer");
  return snprintf(buf, cap, "Sw<%d,%d,%d>", sw.bits, sw.base, sw.shift);
}

/* ======================================================== composed layouts */

static cl_status check_fn(cl_layout_fn_t side_fn, const char *side) {
  if (side_fn.composed != NULL)
    return CL_OK;
  cl_fn f = side_fn.fn;
  if (f.kind == CL_FN_COMPOSED)
    return cl_fail(CL_E_NULL, "make_composed_layout: the %s composed layout is NULL", side);
  if (f.kind == CL_FN_SWIZZLE)
    return cl_swizzle_validate(f.swizzle);
  if (f.kind != CL_FN_LAYOUT)
    return cl_fail(CL_E_TYPE, "make_composed_layout: the %s function is neither a layout nor a swizzle", side);
  if (f.layout == NULL)
    return cl_fail(CL_E_NULL, "make_composed_layout: the %s layout is NULL", side);
  if (cl_layout_is_coordinate(f.layout))
    return cl_fail(CL_E_UNSUPPORTED, "make_composed_layout: the %s layout's strides hold scaled bases; composed layouts "
                                     "of coordinate layouts are not supported", side);
  return CL_OK;
}

static cl_status own_fn(cl_layout_fn_t side, cl_sw_part *part) {
  cl_fn f = side.fn;
  if (side.composed != NULL) {
    *part = (cl_sw_part){CL_FN_COMPOSED, {0, 0, 0}, NULL, NULL};
    return cl_composed_copy(side.composed, &part->composed);
  }
  *part = (cl_sw_part){f.kind, f.kind == CL_FN_SWIZZLE ? f.swizzle : (cl_swizzle_t){0, 0, 0}, NULL, NULL};
  return f.kind == CL_FN_LAYOUT ? cl_layout_copy(f.layout, &part->layout) : CL_OK;
}

cl_layout_fn_t cl_sw_view(const cl_sw_part *part) {
  if (part->kind == CL_FN_COMPOSED)
    return cl_layout_fn_composed(part->composed);
  return part->kind == CL_FN_SWIZZLE ? cl_side_swizzle(part->swizzle) : cl_side_layout(part->layout);
}

void cl_sw_release_part(cl_sw_part *part) {
  cl_layout_free(part->layout);
  cl_composed_free(part->composed);
}

cl_status cl_sw_make_composed(cl_layout_fn_t outer, int64_t offset, bool unsigned_offset, cl_layout_fn_t inner,
                              cl_composed_t **out) {
  CHECK_OUT(out);
  CL_TRY(check_fn(outer, "outer"));
  CL_TRY(check_fn(inner, "inner"));
  cl_composed_t *c = cl_alloc(sizeof *c);
  if (c == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  *c = (cl_composed_t){.offset = offset, .unsigned_offset = unsigned_offset};
  cl_status s = own_fn(outer, &c->outer);
  if (s == CL_OK)
    s = own_fn(inner, &c->inner);
  if (s != CL_OK) {
    cl_composed_free(c);
    return s;
  }
  *out = c;
  return CL_OK;
}

cl_status cl_make_composed_layout(cl_fn outer, int64_t offset, cl_fn inner, cl_composed_t **out) {
  CHECK_OUT(out);
  if (outer.kind == CL_FN_COMPOSED || inner.kind == CL_FN_COMPOSED)
    return cl_fail(CL_E_TYPE, "make_composed_layout: a cl_fn holds no composed layout; nest one with cl_make_composed_nested");
  return cl_sw_make_composed(cl_layout_fn_of(outer), offset, false, cl_layout_fn_of(inner), out);
}

cl_status cl_make_composed_nested(cl_layout_fn_t outer, int64_t offset, cl_layout_fn_t inner, cl_composed_t **out) {
  return cl_sw_make_composed(outer, offset, false, inner, out);
}

void cl_composed_free(cl_composed_t *composed) {
  if (composed == NULL)
    return;
  cl_sw_release_part(&composed->outer);
  cl_sw_release_part(&composed->inner);
  cl_dealloc(composed);
}

cl_status cl_composed_copy(const cl_composed_t *composed, cl_composed_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(composed);
  return cl_sw_make_composed(cl_sw_view(&composed->outer), composed->offset, composed->unsigned_offset, cl_sw_view(&composed->inner), out);
}

cl_status cl_composed_parts(const cl_composed_t *composed, cl_fn *outer, int64_t *offset, cl_fn *inner) {
  CHECK_NULL(composed);
  if (outer != NULL)
    *outer = cl_sw_view(&composed->outer).fn;
  if (offset != NULL)
    *offset = composed->offset;
  if (inner != NULL)
    *inner = cl_sw_view(&composed->inner).fn;
  return CL_OK;
}

cl_status cl_composed_sides(const cl_composed_t *composed, cl_layout_fn_t *outer, int64_t *offset, cl_layout_fn_t *inner) {
  CHECK_NULL(composed);
  if (outer != NULL)
    *outer = cl_sw_view(&composed->outer);
  if (offset != NULL)
    *offset = composed->offset;
  if (inner != NULL)
    *inner = cl_sw_view(&composed->inner);
  return CL_OK;
}

static bool fn_equal(const cl_sw_part *a, const cl_sw_part *b) {
  if (a->kind != b->kind)
    return false;
  if (a->kind == CL_FN_COMPOSED)
    return cl_composed_equal(a->composed, b->composed);
  return a->kind == CL_FN_SWIZZLE ? cl_swizzle_equal(a->swizzle, b->swizzle) : cl_layout_equal(a->layout, b->layout);
}

int cl_composed_equal(const cl_composed_t *a, const cl_composed_t *b) {
  return a && b && a->offset == b->offset && fn_equal(&a->outer, &b->outer) && fn_equal(&a->inner, &b->inner);
}

/* ---- text ---- */

static void format_composed(const cl_composed_t *c, cl_sink *o);

/* A nested composed layout prints inline, without parentheses, as CuTe's. */
static void format_part(const cl_sw_part *f, cl_sink *o) {
  if (f->kind == CL_FN_COMPOSED)
    format_composed(f->composed, o);
  else if (f->kind == CL_FN_SWIZZLE)
    cl_sink_printf(o, "Sw<%d,%d,%d>", f->swizzle.bits, f->swizzle.base, f->swizzle.shift);
  else
    cl_sink_tree(o, cl_lroot(f->layout));
}

/* CuTe's print: A, " o ", the offset, " o ", B. */
static void format_composed(const cl_composed_t *c, cl_sink *o) {
  format_part(&c->outer, o);
  cl_sink_printf(o, " o %lld o ", (long long)c->offset);
  format_part(&c->inner, o);
}

int64_t cl_composed_format(const cl_composed_t *composed, char *buf, size_t cap) {
  if (composed == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_composed_format: NULL argument");
  cl_sink o = cl_sink_buffer(buf, cap);
  format_composed(composed, &o);
  return cl_sink_finish(&o, "cl_composed_format");
}

cl_status cl_composed_to_string(const cl_composed_t *composed, char **out) {
  CHECK_OUT(out);
  CHECK_NULL(composed);
  int64_t n = cl_composed_format(composed, NULL, 0);
  if (n < 0)
    return (cl_status)n;
  char *s = cl_alloc((size_t)n + 1);
  if (s == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  cl_composed_format(composed, s, (size_t)n + 1);
  *out = s;
  return CL_OK;
}

/* The parts of `A o offset o B` are separated by the letter 'o', which no
 * layout, integer or swizzle text contains.  Each part is parsed on a copy of
 * the text in which everything before it is blanked, so the column numbers
 * in error messages are those of the whole text. */
typedef struct part_text {
  size_t begin, end; /* [begin, end) in the text */
} part_text;

static cl_status parse_part_fn(const char *text, part_text p, const char *after, char *scratch, cl_sw_part *out) {
  memset(scratch, ' ', p.begin);
  memcpy(scratch + p.begin, text + p.begin, p.end - p.begin);
  scratch[p.end] = '\0';
  scanner sc = {scratch, p.begin};
  skip_space(&sc);
  *out = (cl_sw_part){CL_FN_LAYOUT, {0, 0, 0}, NULL, NULL};
  if (scratch[sc.pos] == 'S') {
    out->kind = CL_FN_SWIZZLE;
    CL_TRY(scan_swizzle(&sc, &out->swizzle));
    skip_space(&sc);
    return scratch[sc.pos] == '\0' ? CL_OK : expected(&sc, after);
  }
  if (scratch[sc.pos] == '\0')
    return expected(&sc, "a layout or a swizzle");
  return cl_layout_parse(scratch, &out->layout);
}

static cl_status parse_part_offset(const char *text, part_text p, char *scratch, int64_t *out) {
  memset(scratch, ' ', p.begin);
  memcpy(scratch + p.begin, text + p.begin, p.end - p.begin);
  scratch[p.end] = '\0';
  scanner sc = {scratch, p.begin};
  CL_TRY(scan_int(&sc, out));
  skip_space(&sc);
  return scratch[sc.pos] == '\0' ? CL_OK : expected(&sc, "'o'");
}

/* The parts of the text, split at each 'o': [begin, end) pairs. */
static part_text *split_parts(const char *text, size_t len, int *n) {
  int count = 1;
  for (size_t i = 0; i < len; i++)
    count += text[i] == 'o';
  part_text *parts = cl_alloc((size_t)count * sizeof *parts);
  if (parts == NULL)
    return NULL;
  size_t begin = 0;
  *n = 0;
  for (size_t i = 0; i <= len; i++)
    if (text[i] == 'o' || text[i] == '\0') {
      parts[(*n)++] = (part_text){begin, i};
      begin = i + 1;
    }
  return parts;
}

/* F0 o K1 o F1 o ... o Fm from its parsed functions and offsets, nested to
 * the right: F0 o K1 o (F1 o K2 o (... o Fm)). */
static cl_status nest_right(const cl_sw_part *fns, const int64_t *offsets, int m, cl_composed_t **out) {
  cl_composed_t *acc = NULL;
  cl_status s = CL_OK;
  for (int k = m - 1; k >= 0 && s == CL_OK; k--) {
    cl_composed_t *next = NULL;
    cl_layout_fn_t inner = acc != NULL ? cl_layout_fn_composed(acc) : cl_sw_view(&fns[k + 1]);
    s = cl_sw_make_composed(cl_sw_view(&fns[k]), offsets[k], false, inner, &next);
    cl_composed_free(acc);
    acc = next;
  }
  if (s == CL_OK)
    *out = acc;
  return s;
}

cl_status cl_composed_parse(const char *text, cl_composed_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(text);
  size_t len = strlen(text);
  int n = 0;
  part_text *parts = split_parts(text, len, &n);
  if (parts == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  if (n < 2 || (n > 2 && n % 2 == 0)) {
    cl_dealloc(parts);
    return cl_fail(CL_E_PARSE, "column %zu: expected %s (a composed layout is A o OFFSET o B, and B may be one itself)",
                   len + 1, n < 2 ? "'o'" : "'o' and the inner function after the last offset");
  }
  /* m compositions: F0 o F1 (short form, m = 1), or F0 o K1 o F1 ... */
  int m = n == 2 ? 1 : n / 2, step = n == 2 ? 1 : 2;
  char *scratch = cl_alloc(len + 1);
  cl_sw_part *fns = cl_alloc((size_t)(m + 1) * sizeof *fns);
  int64_t *offsets = cl_alloc((size_t)m * sizeof *offsets);
  cl_status s = scratch && fns && offsets ? CL_OK : cl_fail(CL_E_NOMEM, "out of memory");
  int parsed = 0;
  for (int k = 0; s == CL_OK && k <= m; k++) {
    s = parse_part_fn(text, parts[k * step], k == m ? "the end of the text" : "'o'", scratch, &fns[k]);
    parsed += s == CL_OK;
    if (s == CL_OK && k < m) {
      offsets[k] = 0;
      if (step == 2)
        s = parse_part_offset(text, parts[k * step + 1], scratch, &offsets[k]);
    }
  }
  if (s == CL_OK)
    s = nest_right(fns, offsets, m, out);
  for (int k = 0; k < parsed; k++)
    cl_sw_release_part(&fns[k]);
  cl_dealloc(offsets);
  cl_dealloc(fns);
  cl_dealloc(scratch);
  cl_dealloc(parts);
  return s;
}

/* ---- queries ---- */

/* The inner function as a layout, or CL_E_UNSUPPORTED. */
cl_status cl_sw_inner_layout(const cl_composed_t *c, const char *what, const cl_layout_t **out) {
  CHECK_NULL(c);
  if (c->inner.kind == CL_FN_COMPOSED)
    return cl_fail(CL_E_UNSUPPORTED, "%s: CuTe defines it here for a composed layout whose inner function is a layout, "
                                     "not a composed layout", what);
  if (c->inner.kind != CL_FN_LAYOUT)
    return cl_fail(CL_E_UNSUPPORTED, "%s: not defined for a composed layout whose inner function is a swizzle", what);
  *out = c->inner.layout;
  return CL_OK;
}

/* CuTe's size, shape, cosize ... of A o O o B are B's, whatever B is. */
cl_status cl_sw_domain_layout(const cl_composed_t *c, const char *what, const cl_layout_t **out) {
  CHECK_NULL(c);
  while (c->inner.kind == CL_FN_COMPOSED)
    c = c->inner.composed;
  if (c->inner.kind != CL_FN_LAYOUT)
    return cl_fail(CL_E_UNSUPPORTED, "%s: not defined for a composed layout whose inner function is a swizzle", what);
  *out = c->inner.layout;
  return CL_OK;
}

cl_status cl_composed_size(const cl_composed_t *composed, int64_t *out) {
  CHECK_NULL(out);
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_domain_layout(composed, "size", &b));
  return cl_layout_size_checked(b, out);
}

cl_status cl_composed_cosize(const cl_composed_t *composed, int64_t *out) {
  CHECK_NULL(out);
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_domain_layout(composed, "cosize", &b));
  return cl_layout_cosize_checked(b, out);
}

cl_status cl_composed_shape(const cl_composed_t *composed, cl_tuple_t **out) {
  CHECK_OUT(out);
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_domain_layout(composed, "shape", &b));
  return cl_layout_shape(b, out);
}

int64_t cl_composed_rank(const cl_composed_t *composed) {
  const cl_layout_t *b = NULL;
  cl_status s = cl_sw_domain_layout(composed, "rank", &b);
  return s == CL_OK ? cl_layout_rank(b) : s;
}

int64_t cl_composed_depth(const cl_composed_t *composed) {
  const cl_layout_t *b = NULL;
  cl_status s = cl_sw_domain_layout(composed, "depth", &b);
  return s == CL_OK ? cl_layout_depth(b) : s;
}

/* ---- evaluation ---- */

/* f(x) for one side at an integer x.  A layout's indices are CuTe's int:
 * where x fits in an int, the swizzle is applied as CuTe applies it to an
 * int, in 32-bit arithmetic (which matters only when a mask reaches bit 31). */
static cl_status apply_fn(const cl_sw_part *f, int64_t x, int64_t *out) {
  if (f->kind == CL_FN_COMPOSED)
    return cl_composed_eval(f->composed, x, out);
  if (f->kind == CL_FN_SWIZZLE) {
    int64_t r = cl_sw_apply(f->swizzle, x);
    *out = x >= INT32_MIN && x <= INT32_MAX ? (int64_t)(int32_t)(uint32_t)(uint64_t)r : r;
    return CL_OK;
  }
  return cl_layout_eval(f->layout, x, out);
}

/* An unsigned offset is a C++ unsigned int: arithmetic with it wraps
 * modulo 2^32, and so do the values it makes. */
int64_t cl_sw_wrap32(int64_t v) { return (int64_t)(uint32_t)(uint64_t)v; }

cl_status cl_sw_offset_plus(const cl_composed_t *c, int64_t x, int64_t *out) {
  if (c->unsigned_offset) {
    *out = cl_sw_wrap32((int64_t)((uint64_t)c->offset + (uint64_t)x));
    return CL_OK;
  }
  return cl_add(c->offset, x, out);
}

/* outer(offset + b), CuTe's (A o O o B)(c) once b = B(c) is known. */
static cl_status apply_outer(const cl_composed_t *c, int64_t b, int64_t *out) {
  int64_t x;
  CL_TRY(cl_sw_offset_plus(c, b, &x));
  CL_TRY(apply_fn(&c->outer, x, out));
  if (c->unsigned_offset)
    *out = cl_sw_wrap32(*out);
  return CL_OK;
}

cl_status cl_composed_eval(const cl_composed_t *composed, int64_t i, int64_t *index) {
  CHECK_NULL(composed);
  CHECK_NULL(index);
  int64_t b;
  CL_TRY(apply_fn(&composed->inner, i, &b));
  return apply_outer(composed, b, index);
}

cl_status cl_composed_eval_coord(const cl_composed_t *composed, const cl_tuple_t *crd, int64_t *index) {
  CHECK_NULL(composed);
  CHECK_NULL(crd);
  CHECK_NULL(index);
  int64_t b;
  if (composed->inner.kind == CL_FN_LAYOUT) {
    CL_TRY(cl_layout_eval_coord(composed->inner.layout, crd, &b));
  } else if (composed->inner.kind == CL_FN_COMPOSED) {
    CL_TRY(cl_composed_eval_coord(composed->inner.composed, crd, &b));
  } else {
    int64_t i;
    if (cl_tuple_value(crd, &i) != CL_OK)
      return cl_fail(CL_E_TYPE, "a swizzle takes an integer coordinate");
    b = cl_sw_apply(composed->inner.swizzle, i);
  }
  return apply_outer(composed, b, index);
}

/* ---- compiled (compiled.h) ---- */

/* Sw o offset o L as compiled.h's x = offset + L(i), x ^ (((x & mask) >> shr)
 * << shl), exactly as cl_composed_eval computes it.  That holds when
 *   - both swizzle masks lie in bits 0..30: the XORed bits are then below
 *     bit 31, so a value inside int's range stays there and apply_fn's int
 *     reading changes nothing;
 *   - offset + L(i) never leaves int64_t (where cl_composed_eval reports an
 *     overflow), or for an unsigned offset never leaves [0, 2^32) (where it
 *     wraps): over the domain L(i) ranges over [low, high] (cl_plan_check). */
cl_status cl_composed_compile(const cl_composed_t *composed, cl_compiled_layout_t *out) {
  CHECK_NULL(out);
  memset(out, 0, sizeof *out);
  CHECK_NULL(composed);
  if (composed->outer.kind != CL_FN_SWIZZLE || composed->inner.kind != CL_FN_LAYOUT)
    return cl_fail(CL_E_UNSUPPORTED, "cl_composed_compile: only a swizzled layout Sw<B,M,S> o offset o L compiles");
  cl_swizzle_t sw = composed->outer.swizzle;
  if (cl_sw_yyy_msk(sw) < 0 || cl_sw_zzz_msk(sw) < 0)
    return cl_fail(CL_E_OVERFLOW, "cl_composed_compile: Sw<%d,%d,%d> reaches bit 31, where CuTe's int arithmetic wraps",
                   (int)sw.bits, (int)sw.base, (int)sw.shift);
  const cl_layout_t *inner = composed->inner.layout;
  CL_TRY(cl_compile_layout(inner, composed->offset == 0 && cl_sw_yyy_msk(sw) == 0, out));
  cl_plan_bounds b;
  cl_plan_check(cl_lshape(cl_lroot(inner)), cl_lstride(cl_lroot(inner)), &b); /* CL_OK: the layout compiled */
  int64_t low, high, offset = composed->offset;
  bool fits = !__builtin_add_overflow(offset, b.low, &low) && !__builtin_add_overflow(offset, b.high, &high);
  if (composed->unsigned_offset)
    fits = fits && low >= 0 && high <= (int64_t)UINT32_MAX;
  if (b.size > 0 && !fits) {
    memset(out, 0, sizeof *out);
    return cl_fail(CL_E_OVERFLOW, "cl_composed_compile: offset %lld + the layout's indices [%lld, %lld] leave %s",
                   (long long)offset, (long long)b.low, (long long)b.high,
                   composed->unsigned_offset ? "[0, 2^32), where CuTe's unsigned offset wraps" : "int64_t");
  }
  out->offset = offset;
  out->swizzle_mask = (uint64_t)cl_sw_yyy_msk(sw);
  out->swizzle_shr = (uint8_t)(sw.shift > 0 ? sw.shift : 0);
  out->swizzle_shl = (uint8_t)(sw.shift < 0 ? -sw.shift : 0);
  return CL_OK;
}

/* ---- composition with swizzles ---- */

/* Puts a context in front of the detail message of a failure. */
cl_status cl_sw_fail_context(cl_status status, const char *fmt, ...) {
  char context[160], detail[256];
  snprintf(detail, sizeof detail, "%s", cl_last_error());
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(context, sizeof context, fmt, ap);
  va_end(ap);
  return cl_fail(status, "%s: %s", context, detail);
}

/* Hands out exactly one of a layout and a composed layout. */
void cl_sw_clear_either(cl_layout_t **layout, cl_composed_t **composed) {
  if (layout != NULL)
    *layout = NULL;
  if (composed != NULL)
    *composed = NULL;
}

static bool is_identity_swizzle(cl_layout_fn_t f) {
  return f.composed == NULL && f.fn.kind == CL_FN_SWIZZLE && f.fn.swizzle.bits == 0;
}

/* CuTe's three-argument composition, for an offset of either C++ type. */
cl_status cl_sw_composition3(cl_layout_fn_t outer, int64_t offset, bool unsigned_offset, cl_layout_fn_t inner,
                             cl_layout_t **layout, cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CL_TRY(check_fn(outer, "outer"));
  CL_TRY(check_fn(inner, "inner"));
  /* Swizzle<0,M,S> is the identity; CuTe drops it when the offset is Int<0>
   * and the inner function a Layout. */
  if (is_identity_swizzle(outer) && offset == 0 && !unsigned_offset && inner.composed == NULL &&
      inner.fn.kind == CL_FN_LAYOUT)
    return cl_layout_copy(inner.fn.layout, layout);
  return cl_sw_make_composed(outer, offset, unsigned_offset, inner, composed);
}

cl_status cl_composition_offset(cl_fn outer, int64_t offset, cl_fn inner, cl_layout_t **layout, cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  if (outer.kind == CL_FN_COMPOSED || inner.kind == CL_FN_COMPOSED)
    return cl_fail(CL_E_TYPE, "composition: a cl_fn holds no composed layout; nest one with cl_make_composed_nested");
  return cl_sw_composition3(cl_layout_fn_of(outer), offset, false, cl_layout_fn_of(inner), layout, composed);
}

/* composition(A, offset, inner) with the inner layout handed over (freed
 * here), the offset's type taken from the composed layout it came from
 * (NULL: an int). */
cl_status cl_sw_rewrap(cl_layout_fn_t outer, int64_t offset, const cl_composed_t *from, cl_layout_t *il,
                       cl_composed_t *ic, cl_layout_t **layout, cl_composed_t **composed) {
  bool unsigned_offset = from != NULL && from->unsigned_offset;
  cl_status s = cl_sw_composition3(outer, offset, unsigned_offset, cl_side_either(il, ic), layout, composed);
  cl_layout_free(il);
  cl_composed_free(ic);
  return s;
}

cl_status cl_composition_with_swizzle(const cl_layout_t *layout, cl_swizzle_t swizzle, cl_layout_t **out_layout,
                                      cl_composed_t **out_composed) {
  CHECK_EITHER(out_layout, out_composed);
  CHECK_NULL(layout);
  CL_TRY(cl_swizzle_validate(swizzle));
  int64_t active_y, active_z;
  CL_TRY(cl_layout_eval(layout, cl_sw_yyy_msk(swizzle), &active_y));
  CL_TRY(cl_layout_eval(layout, cl_sw_zzz_msk(swizzle), &active_z));
  cl_swizzle_t moved;
  cl_status s = cl_make_swizzle(active_y, active_z, &moved);
  if (s != CL_OK)
    return cl_sw_fail_context(s, "composition(L, Sw<%d,%d,%d>): L maps the swizzle's masks to %lld and %lld", swizzle.bits,
                        swizzle.base, swizzle.shift, (long long)active_y, (long long)active_z);
  return cl_sw_composition3(cl_side_swizzle(moved), 0, false, cl_side_layout(layout), out_layout, out_composed);
}

cl_status cl_make_layout_from_swizzle(cl_swizzle_t swizzle, cl_layout_t **layout, cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CL_TRY(cl_swizzle_validate(swizzle));
  /* CuTe's extent is M+B+|S| (not 2^(M+B+|S|)); kept as CuTe has it. */
  int64_t extent = (int64_t)swizzle.base + swizzle.bits + iabs64(swizzle.shift);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_leaf(&lb, extent, 1);
  cl_layout_t *identity;
  CL_TRY(cl_lb_finish(&lb, &identity));
  return cl_sw_rewrap(cl_side_swizzle(swizzle), 0, NULL, identity, NULL, layout, composed);
}

/* ---- the composed layout as a map (map_impl.h) ---- */

static cl_status composed_at(const void *self, int64_t i, int64_t *value) { return cl_composed_eval(self, i, value); }
static void composed_text(const void *self, cl_sink *o) { format_composed(self, o); }
static cl_status composed_cosize(const void *self, int64_t *out) { return cl_composed_cosize(self, out); }

/* Its domain is the inner layout's shape (CL_E_UNSUPPORTED for a swizzle). */
cl_status cl_fnmap_of_composed(const cl_composed_t *c, const char *what, cl_fnmap *out) {
  const cl_layout_t *b = NULL;
  CL_TRY(cl_sw_domain_layout(c, what, &b));
  *out = (cl_fnmap){cl_lshape(cl_lroot(b)), c, composed_at, composed_text, composed_cosize, c->unsigned_offset, NULL};
  return CL_OK;
}

/* ---- pictures ---- */

int64_t cl_composed_print_layout(const cl_composed_t *composed, char *buf, size_t cap) {
  if (composed == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print_layout: NULL argument");
  cl_fnmap m;
  CL_TRY(cl_fnmap_of_composed(composed, "print_layout", &m));
  cl_sink o = cl_sink_buffer(buf, cap);
  return cl_print_layout_map(&m, &o);
}

int64_t cl_composed_print_1d(const cl_composed_t *composed, char *buf, size_t cap) {
  if (composed == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print1D: NULL argument");
  cl_fnmap m;
  CL_TRY(cl_fnmap_of_composed(composed, "print1D", &m));
  cl_sink o = cl_sink_buffer(buf, cap);
  return cl_print_1d_map(&m, &o);
}

static int64_t render_composed(const cl_composed_t *c, int64_t tile_rows, int64_t tile_cols,
                               const cl_picture_options *options, cl_sink *o) {
  if (c == NULL)
    return cl_fail(CL_E_NULL, "render: the composed layout is NULL");
  cl_fnmap m;
  if (cl_fnmap_of_composed(c, "render", &m) != CL_OK)
    return cl_fail(CL_E_UNSUPPORTED, "render: the composed layout's innermost function is a swizzle, which has no grid");
  return tile_rows == 0 ? cl_render_map(&m, options, o) : cl_render_map_tv(&m, tile_rows, tile_cols, options, o);
}

int64_t cl_render_composed(const cl_composed_t *composed, const cl_picture_options *options, char *buf, size_t cap) {
  if (buf == NULL && cap > 0)
    return cl_fail(CL_E_NULL, "render: buf is NULL");
  cl_sink o = cl_sink_buffer(buf, cap);
  return render_composed(composed, 0, 0, options, &o);
}

int64_t cl_render_composed_file(const cl_composed_t *composed, const cl_picture_options *options, FILE *f) {
  if (f == NULL)
    return cl_fail(CL_E_NULL, "render: the stream is NULL");
  cl_sink o = cl_sink_stream(f);
  return render_composed(composed, 0, 0, options, &o);
}

/* A TV tile of 0 rows is refused here, not taken for the grid picture. */
static cl_status check_tile(int64_t tile_rows, int64_t tile_cols) {
  if (tile_rows < 1 || tile_cols < 1)
    return cl_fail(CL_E_DOMAIN, "TV picture: the tile %lldx%lld is empty", (long long)tile_rows, (long long)tile_cols);
  return CL_OK;
}

int64_t cl_render_composed_tv(const cl_composed_t *composed, int64_t tile_rows, int64_t tile_cols,
                              const cl_picture_options *options, char *buf, size_t cap) {
  if (buf == NULL && cap > 0)
    return cl_fail(CL_E_NULL, "render: buf is NULL");
  CL_TRY(check_tile(tile_rows, tile_cols));
  cl_sink o = cl_sink_buffer(buf, cap);
  return render_composed(composed, tile_rows, tile_cols, options, &o);
}

int64_t cl_render_composed_tv_file(const cl_composed_t *composed, int64_t tile_rows, int64_t tile_cols,
                                   const cl_picture_options *options, FILE *f) {
  if (f == NULL)
    return cl_fail(CL_E_NULL, "render: the stream is NULL");
  CL_TRY(check_tile(tile_rows, tile_cols));
  cl_sink o = cl_sink_stream(f);
  return render_composed(composed, tile_rows, tile_cols, options, &o);
}
