/* swizzle.c: swizzle functions and composed layouts (CuTe's swizzle.hpp,
 * swizzle_layout.hpp and layout_composed.hpp).
 *
 * Swizzle<B,M,S> acting on an index x:
 *
 *     x = 0b ...xxx YYY xxx...xxx ZZZ xxxx        (M low bits kept)
 *     f(x) = x ^ shiftr(x & yyy_msk, S)           ZZZ ^= YYY
 *
 * A composed layout A o offset o B is the function i -> A(offset + B(i)).
 * CuTe forwards nearly every operation to B (which defines the domain) and
 * re-wraps the result; only slicing and inversion look inside a swizzle. */
#include <ctype.h>
#include <stdio.h>

#include "tuple_impl.h"
#include "cutelayout/algebra.h"
#include "cutelayout/layout.h"
#include "cutelayout/text.h"
#include "cutelayout/swizzle.h"

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
static int64_t yyy_msk(cl_swizzle_t sw) { return int_mask(sw.bits, sw.base + (sw.shift > 0 ? sw.shift : 0)); }
static int64_t zzz_msk(cl_swizzle_t sw) { return int_mask(sw.bits, sw.base - (sw.shift < 0 ? sw.shift : 0)); }

/* CuTe's shiftr: right by s, or left by -s.  Left shifts go through uint64_t
 * (well defined); the right shift of a negative value is arithmetic. */
static int64_t shiftr(int64_t x, int32_t s) {
  return s >= 0 ? x >> s : (int64_t)((uint64_t)x << -s);
}

/* For validated swizzles only. */
static int64_t swizzle_of(cl_swizzle_t sw, int64_t offset) {
  return offset ^ shiftr(offset & yyy_msk(sw), sw.shift);
}

cl_status cl_swizzle_apply(cl_swizzle_t sw, int64_t offset, int64_t *out) {
  CHECK_NULL(out);
  CL_TRY(cl_swizzle_validate(sw));
  *out = swizzle_of(sw, offset);
  return CL_OK;
}

cl_status cl_swizzle_masks(cl_swizzle_t sw, int64_t *yyy, int64_t *zzz) {
  CL_TRY(cl_swizzle_validate(sw));
  if (yyy != NULL)
    *yyy = yyy_msk(sw);
  if (zzz != NULL)
    *zzz = zzz_msk(sw);
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
      (uint32_t)(yyy_msk(sw) | zzz_msk(sw)) != (y | z))
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
  uint32_t y = (uint32_t)(yyy_msk(a) ^ yyy_msk(b)), z = (uint32_t)(zzz_msk(a) ^ zzz_msk(b));
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

/* One side of a composed layout, owning its layout. */
typedef struct fn_part {
  cl_fn_kind kind;
  cl_swizzle_t swizzle;
  cl_layout_t *layout;
} fn_part;

struct cl_composed {
  fn_part outer;  /* CuTe's layout_a() */
  int64_t offset; /* CuTe's offset() */
  fn_part inner;  /* CuTe's layout_b(): defines the domain */
  /* The C++ type of CuTe's static offset matters in one place: the identity
   * swizzle is dropped by composition(Swizzle<0,M,S>, Int<0>, L) only for an
   * int 0.  upcast/downcast scale the offset by their uint32_t template
   * argument, which makes it unsigned, and the operations that pass the
   * offset on keep its type. */
  bool unsigned_offset;
};

static cl_status check_fn(cl_fn f, const char *side) {
  if (f.kind == CL_FN_SWIZZLE)
    return cl_swizzle_validate(f.swizzle);
  if (f.kind != CL_FN_LAYOUT)
    return cl_fail(CL_E_TYPE, "make_composed_layout: the %s function is neither a layout nor a swizzle", side);
  if (f.layout == NULL)
    return cl_fail(CL_E_NULL, "make_composed_layout: the %s layout is NULL", side);
  return CL_OK;
}

static cl_status own_fn(cl_fn f, fn_part *part) {
  *part = (fn_part){f.kind, f.kind == CL_FN_SWIZZLE ? f.swizzle : (cl_swizzle_t){0, 0, 0}, NULL};
  return f.kind == CL_FN_LAYOUT ? cl_layout_copy(f.layout, &part->layout) : CL_OK;
}

static cl_fn view_of(const fn_part *part) {
  return part->kind == CL_FN_SWIZZLE ? cl_fn_swizzle(part->swizzle) : cl_fn_layout(part->layout);
}

static cl_status make_composed(cl_fn outer, int64_t offset, bool unsigned_offset, cl_fn inner, cl_composed_t **out) {
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
  return make_composed(outer, offset, false, inner, out);
}

void cl_composed_free(cl_composed_t *composed) {
  if (composed == NULL)
    return;
  cl_layout_free(composed->outer.layout);
  cl_layout_free(composed->inner.layout);
  cl_dealloc(composed);
}

cl_status cl_composed_copy(const cl_composed_t *composed, cl_composed_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(composed);
  return make_composed(view_of(&composed->outer), composed->offset, composed->unsigned_offset, view_of(&composed->inner), out);
}

cl_status cl_composed_parts(const cl_composed_t *composed, cl_fn *outer, int64_t *offset, cl_fn *inner) {
  CHECK_NULL(composed);
  if (outer != NULL)
    *outer = view_of(&composed->outer);
  if (offset != NULL)
    *offset = composed->offset;
  if (inner != NULL)
    *inner = view_of(&composed->inner);
  return CL_OK;
}

static bool fn_equal(const fn_part *a, const fn_part *b) {
  if (a->kind != b->kind)
    return false;
  return a->kind == CL_FN_SWIZZLE ? cl_swizzle_equal(a->swizzle, b->swizzle) : cl_layout_equal(a->layout, b->layout);
}

int cl_composed_equal(const cl_composed_t *a, const cl_composed_t *b) {
  return a && b && a->offset == b->offset && fn_equal(&a->outer, &b->outer) && fn_equal(&a->inner, &b->inner);
}

/* ---- text ---- */

/* Formats one side into buf (snprintf-style, from position len). */
static int64_t format_fn(const fn_part *f, char *buf, size_t cap, int64_t len) {
  size_t at = (size_t)len < cap ? (size_t)len : cap;
  char *dst = cap > 0 ? buf + at : NULL;
  size_t room = cap - at;
  int64_t n = f->kind == CL_FN_SWIZZLE ? cl_swizzle_format(f->swizzle, dst, room) : cl_layout_format(f->layout, dst, room);
  return n < 0 ? n : len + n;
}

int64_t cl_composed_format(const cl_composed_t *composed, char *buf, size_t cap) {
  if (composed == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "cl_composed_format: NULL argument");
  int64_t len = format_fn(&composed->outer, buf, cap, 0);
  if (len < 0)
    return len;
  char middle[48];
  int n = snprintf(middle, sizeof middle, " o %lld o ", (long long)composed->offset);
  if ((size_t)len < cap)
    snprintf(buf + len, cap - (size_t)len, "%s", middle);
  return format_fn(&composed->inner, buf, cap, len + n);
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

static cl_status parse_part_fn(const char *text, part_text p, const char *after, char *scratch, fn_part *out) {
  memset(scratch, ' ', p.begin);
  memcpy(scratch + p.begin, text + p.begin, p.end - p.begin);
  scratch[p.end] = '\0';
  scanner sc = {scratch, p.begin};
  skip_space(&sc);
  *out = (fn_part){CL_FN_LAYOUT, {0, 0, 0}, NULL};
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

cl_status cl_composed_parse(const char *text, cl_composed_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(text);
  size_t len = strlen(text);
  part_text parts[3];
  int n = 0;
  size_t begin = 0;
  for (size_t i = 0; i <= len; i++) {
    if (text[i] != 'o' && text[i] != '\0')
      continue;
    if (n == 2 && text[i] == 'o')
      return cl_fail(CL_E_PARSE, "column %zu: expected the end of the text (a composed layout is A o OFFSET o B)", i + 1);
    parts[n++] = (part_text){begin, i};
    begin = i + 1;
  }
  if (n < 2)
    return cl_fail(CL_E_PARSE, "column %zu: expected 'o' (a composed layout is A o OFFSET o B)", len + 1);
  char *scratch = cl_alloc(len + 1);
  if (scratch == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  fn_part outer = {CL_FN_LAYOUT, {0, 0, 0}, NULL}, inner = outer;
  int64_t offset = 0;
  cl_status s = parse_part_fn(text, parts[0], "'o'", scratch, &outer);
  if (s == CL_OK && n == 3)
    s = parse_part_offset(text, parts[1], scratch, &offset);
  if (s == CL_OK)
    s = parse_part_fn(text, parts[n - 1], "the end of the text", scratch, &inner);
  if (s == CL_OK)
    s = cl_make_composed_layout(view_of(&outer), offset, view_of(&inner), out);
  cl_layout_free(outer.layout);
  cl_layout_free(inner.layout);
  cl_dealloc(scratch);
  return s;
}

/* ---- queries ---- */

/* The inner layout, which defines the domain, or CL_E_UNSUPPORTED. */
static cl_status inner_layout(const cl_composed_t *c, const char *what, const cl_layout_t **out) {
  CHECK_NULL(c);
  if (c->inner.kind != CL_FN_LAYOUT)
    return cl_fail(CL_E_UNSUPPORTED, "%s: not defined for a composed layout whose inner function is a swizzle", what);
  *out = c->inner.layout;
  return CL_OK;
}

cl_status cl_composed_size(const cl_composed_t *composed, int64_t *out) {
  CHECK_NULL(out);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "size", &b));
  return cl_layout_size_checked(b, out);
}

cl_status cl_composed_cosize(const cl_composed_t *composed, int64_t *out) {
  CHECK_NULL(out);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "cosize", &b));
  return cl_layout_cosize_checked(b, out);
}

cl_status cl_composed_shape(const cl_composed_t *composed, cl_tuple_t **out) {
  CHECK_OUT(out);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "shape", &b));
  return cl_layout_shape(b, out);
}

int64_t cl_composed_rank(const cl_composed_t *composed) {
  const cl_layout_t *b = NULL;
  cl_status s = inner_layout(composed, "rank", &b);
  return s == CL_OK ? cl_layout_rank(b) : s;
}

int64_t cl_composed_depth(const cl_composed_t *composed) {
  const cl_layout_t *b = NULL;
  cl_status s = inner_layout(composed, "depth", &b);
  return s == CL_OK ? cl_layout_depth(b) : s;
}

/* ---- evaluation ---- */

/* f(x) for one side at an integer x.  A layout's indices are CuTe's int:
 * where x fits in an int, the swizzle is applied as CuTe applies it to an
 * int, in 32-bit arithmetic (which matters only when a mask reaches bit 31). */
static cl_status apply_fn(const fn_part *f, int64_t x, int64_t *out) {
  if (f->kind == CL_FN_SWIZZLE) {
    int64_t r = swizzle_of(f->swizzle, x);
    *out = x >= INT32_MIN && x <= INT32_MAX ? (int64_t)(int32_t)(uint32_t)(uint64_t)r : r;
    return CL_OK;
  }
  return cl_layout_eval(f->layout, x, out);
}

/* An unsigned offset is a C++ unsigned int: arithmetic with it wraps
 * modulo 2^32, and so do the values it makes. */
static int64_t wrap32(int64_t v) { return (int64_t)(uint32_t)(uint64_t)v; }

static cl_status offset_plus(const cl_composed_t *c, int64_t x, int64_t *out) {
  if (c->unsigned_offset) {
    *out = wrap32((int64_t)((uint64_t)c->offset + (uint64_t)x));
    return CL_OK;
  }
  return cl_add(c->offset, x, out);
}

/* outer(offset + b), CuTe's (A o O o B)(c) once b = B(c) is known. */
static cl_status apply_outer(const cl_composed_t *c, int64_t b, int64_t *out) {
  int64_t x;
  CL_TRY(offset_plus(c, b, &x));
  CL_TRY(apply_fn(&c->outer, x, out));
  if (c->unsigned_offset)
    *out = wrap32(*out);
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
  } else {
    int64_t i;
    if (cl_tuple_value(crd, &i) != CL_OK)
      return cl_fail(CL_E_TYPE, "a swizzle takes an integer coordinate");
    b = swizzle_of(composed->inner.swizzle, i);
  }
  return apply_outer(composed, b, index);
}

/* ---- composition with swizzles ---- */

/* Hands out exactly one of a layout and a composed layout. */
static void clear_either(cl_layout_t **layout, cl_composed_t **composed) {
  if (layout != NULL)
    *layout = NULL;
  if (composed != NULL)
    *composed = NULL;
}

#define CHECK_EITHER(layout, composed) \
  do { CHECK_NULL(layout); CHECK_NULL(composed); clear_either(layout, composed); } while (0)

static bool is_identity_swizzle(cl_fn f) { return f.kind == CL_FN_SWIZZLE && f.swizzle.bits == 0; }

/* CuTe's three-argument composition, for an offset of either C++ type. */
static cl_status composition3(cl_fn outer, int64_t offset, bool unsigned_offset, cl_fn inner, cl_layout_t **layout,
                              cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CL_TRY(check_fn(outer, "outer"));
  CL_TRY(check_fn(inner, "inner"));
  /* Swizzle<0,M,S> is the identity; CuTe drops it when the offset is Int<0>. */
  if (is_identity_swizzle(outer) && offset == 0 && !unsigned_offset && inner.kind == CL_FN_LAYOUT)
    return cl_layout_copy(inner.layout, layout);
  return make_composed(outer, offset, unsigned_offset, inner, composed);
}

cl_status cl_composition_offset(cl_fn outer, int64_t offset, cl_fn inner, cl_layout_t **layout, cl_composed_t **composed) {
  return composition3(outer, offset, false, inner, layout, composed);
}

/* composition(A, offset, inner) with the inner layout handed over (freed
 * here), the offset's type taken from the composed layout it came from
 * (NULL: an int). */
static cl_status rewrap(cl_fn outer, int64_t offset, const cl_composed_t *from, cl_layout_t *inner, cl_layout_t **layout,
                        cl_composed_t **composed) {
  bool unsigned_offset = from != NULL && from->unsigned_offset;
  cl_status s = composition3(outer, offset, unsigned_offset, cl_fn_layout(inner), layout, composed);
  cl_layout_free(inner);
  return s;
}

cl_status cl_composition_with_swizzle(const cl_layout_t *layout, cl_swizzle_t swizzle, cl_layout_t **out_layout,
                                      cl_composed_t **out_composed) {
  CHECK_EITHER(out_layout, out_composed);
  CHECK_NULL(layout);
  CL_TRY(cl_swizzle_validate(swizzle));
  int64_t active_y, active_z;
  CL_TRY(cl_layout_eval(layout, yyy_msk(swizzle), &active_y));
  CL_TRY(cl_layout_eval(layout, zzz_msk(swizzle), &active_z));
  cl_swizzle_t moved;
  CL_TRY(cl_make_swizzle(active_y, active_z, &moved));
  return cl_composition_offset(cl_fn_swizzle(moved), 0, cl_fn_layout(layout), out_layout, out_composed);
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
  return rewrap(cl_fn_swizzle(swizzle), 0, NULL, identity, layout, composed);
}

/* ---- pictures ---- */

typedef struct text_out {
  char *buf;
  size_t cap, len;
} text_out;

static void emit(text_out *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#include <stdarg.h>
static void emit(text_out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = o->len < o->cap ? o->cap - o->len : 0;
  int n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
  va_end(ap);
  if (n > 0)
    o->len += (size_t)n;
}

static int64_t finish_text(text_out *o) {
  if (o->cap > 0)
    o->buf[o->len < o->cap ? o->len : o->cap - 1] = '\0';
  return (int64_t)o->len;
}

/* CuTe's num_digits: decimal digits of a non-negative int, at most 10. */
static int num_digits(int64_t x) {
  int d = 1;
  for (int64_t p = 10; d < 10 && x >= p; p *= 10)
    d++;
  return d;
}

static void emit_rule(text_out *o, int64_t columns, int width) {
  emit(o, "    ");
  for (int64_t n = 0; n < columns; n++) {
    emit(o, "+");
    for (int i = 0; i < width; i++)
      emit(o, "-");
  }
  emit(o, "+\n");
}

/* composed((m,n)) for the rank-2 inner layout: each integer coordinate is
 * split within its own mode, as CuTe's layout(m,n) does. */
static cl_status eval_2d(const cl_composed_t *c, int64_t m, int64_t n, int64_t *out) {
  const cl_node *l = cl_lroot(c->inner.layout), *shape = cl_lshape(l), *stride = cl_lstride(l);
  int64_t im, in, b;
  CL_TRY(cl_tree_eval(cl_child(shape, 0), cl_child(stride, 0), m, &im));
  CL_TRY(cl_tree_eval(cl_child(shape, 1), cl_child(stride, 1), n, &in));
  CL_TRY(cl_add(im, in, &b));
  CL_TRY(apply_outer(c, b, out));
  if (c->unsigned_offset)
    *out = (int32_t)*out; /* CuTe prints int(C(m,n)) */
  return CL_OK;
}

int64_t cl_composed_print_layout(const cl_composed_t *composed, char *buf, size_t cap) {
  if (composed == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print_layout: NULL argument");
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "print_layout", &b));
  const cl_node *shape = cl_lshape(cl_lroot(b));
  if (!cl_is_tuple(shape) || shape->rank != 2)
    return cl_fail(CL_E_RANK, "print_layout: the layout must have rank 2, not %lld", (long long)cl_rank_of(shape));
  int64_t rows, cols, cosize;
  CL_TRY(cl_tree_product(cl_child(shape, 0), &rows));
  CL_TRY(cl_tree_product(cl_child(shape, 1), &cols));
  CL_TRY(cl_layout_cosize_checked(b, &cosize));
  /* Every entry is computed before anything is written, so that a failure
   * leaves no partial table. */
  for (int64_t m = 0; m < rows; m++)
    for (int64_t n = 0; n < cols; n++) {
      int64_t idx;
      CL_TRY(eval_2d(composed, m, n, &idx));
    }
  int width = num_digits(cosize) + 2;
  text_out o = {buf, cap, 0};
  int64_t head = cl_composed_format(composed, buf, cap);
  if (head < 0)
    return head;
  o.len = (size_t)head;
  emit(&o, "\n    ");
  for (int64_t n = 0; n < cols; n++)
    emit(&o, "  %*lld ", width - 2, (long long)n);
  emit(&o, "\n");
  for (int64_t m = 0; m < rows; m++) {
    emit_rule(&o, cols, width);
    emit(&o, "%2lld  ", (long long)m);
    for (int64_t n = 0; n < cols; n++) {
      int64_t idx = 0;
      eval_2d(composed, m, n, &idx);
      emit(&o, "| %*lld ", width - 2, (long long)idx);
    }
    emit(&o, "|\n");
  }
  emit_rule(&o, cols, width);
  return finish_text(&o);
}

int64_t cl_composed_print_1d(const cl_composed_t *composed, char *buf, size_t cap) {
  if (composed == NULL || (buf == NULL && cap > 0))
    return cl_fail(CL_E_NULL, "print1D: NULL argument");
  int64_t size;
  CL_TRY(cl_composed_size(composed, &size));
  for (int64_t i = 0; i < size; i++) {
    int64_t idx;
    CL_TRY(cl_composed_eval(composed, i, &idx));
  }
  text_out o = {buf, cap, 0};
  for (int64_t i = 0; i < size; i++) {
    int64_t idx = 0;
    cl_composed_eval(composed, i, &idx);
    emit(&o, i ? " %lld" : "%lld", (long long)idx);
  }
  return finish_text(&o);
}

/* ======================================================= composed operations */

/* composition(A, B) of two layouts (algebra.h), CuTe's divisibility
 * conditions checked. */
static cl_status compose(const cl_layout_t *a, const cl_layout_t *b, cl_layout_t **out) {
  return cl_composition(a, b, out);
}

/* ---- lifting an operation on B to A o offset o B ---- */

typedef cl_status (*inner_op)(const cl_layout_t *inner, const void *arg, cl_layout_t **out);

/* CuTe's pattern composition(A, offset, f(B)), with the three-argument
 * composition's simplification of an identity swizzle. */
static cl_status lift(const cl_composed_t *c, const char *what, inner_op f, const void *arg, cl_layout_t **layout,
                      cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(c, what, &b));
  cl_layout_t *fb;
  CL_TRY(f(b, arg, &fb));
  return rewrap(view_of(&c->outer), c->offset, c, fb, layout, composed);
}

typedef struct path_arg {
  const int64_t *path;
  int64_t n;
} path_arg;
typedef struct range_arg {
  int64_t begin, end;
} range_arg;

static cl_status get_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const path_arg *p = arg;
  return cl_layout_get(b, p->path, p->n, out);
}
static cl_status take_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const range_arg *r = arg;
  return cl_layout_take(b, r->begin, r->end, out);
}
static cl_status group_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const range_arg *r = arg;
  return cl_layout_group(b, r->begin, r->end, out);
}
static cl_status flatten_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  (void)arg;
  return cl_layout_flatten(b, out);
}
static cl_status zip_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  (void)arg;
  return cl_layout_zip(b, out);
}

cl_status cl_composed_get(const cl_composed_t *composed, const int64_t *path, int64_t n, cl_layout_t **layout,
                          cl_composed_t **out_composed) {
  path_arg p = {path, n};
  return lift(composed, "get", get_op, &p, layout, out_composed);
}
cl_status cl_composed_take(const cl_composed_t *composed, int64_t begin, int64_t end, cl_layout_t **layout,
                           cl_composed_t **out_composed) {
  range_arg r = {begin, end};
  return lift(composed, "take", take_op, &r, layout, out_composed);
}
cl_status cl_composed_group(const cl_composed_t *composed, int64_t begin, int64_t end, cl_layout_t **layout,
                            cl_composed_t **out_composed) {
  range_arg r = {begin, end};
  return lift(composed, "group", group_op, &r, layout, out_composed);
}
cl_status cl_composed_flatten(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return lift(composed, "flatten", flatten_op, NULL, layout, out_composed);
}
cl_status cl_composed_zip(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return lift(composed, "zip", zip_op, NULL, layout, out_composed);
}

cl_status cl_composed_make_fragment_like(const cl_composed_t *composed, cl_layout_t **out) {
  CHECK_OUT(out);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "make_fragment_like", &b));
  if (composed->outer.kind != CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "make_fragment_like: CuTe defines it for a swizzled composed layout only");
  return cl_make_fragment_like(b, out);
}

cl_status cl_composed_nullspace(const cl_composed_t *composed, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(composed);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_leaf(&lb, 1, 0);
  return cl_lb_finish(&lb, out);
}

/* ---- slicing ---- */

/* CuTe's all_underscore: every leaf is '_' (so `()` qualifies). */
static bool all_underscore(const cl_node *crd) {
  const cl_node *end = crd + crd->span;
  for (const cl_node *n = crd; n < end; n++)
    if (cl_is_leaf(n) && n->kind != CL_KIND_UNDERSCORE)
      return false;
  return true;
}

/* CuTe's dice(crd, t): the parts of t at the integer positions of crd.  The
 * nested integer positions are spliced into one flat tuple; an integer crd
 * keeps the whole of t, and '_' keeps nothing. */
static void lift_dice(cl_builder *b, const cl_node *crd, const cl_node *t) {
  if (cl_is_tuple(crd)) {
    if (!cl_is_tuple(t) || crd->rank != t->rank) {
      cl_b_set_error(b, cl_fail(CL_E_RANK, "slice: the coordinate's profile does not match the layout's"));
      return;
    }
    const cl_node *x = cl_first(t);
    CL_FOR_EACH_CHILD(c, crd) {
      lift_dice(b, c, x);
      x = cl_next(x);
    }
  } else if (crd->kind == CL_KIND_INT) {
    cl_b_copy(b, t);
  } else if (crd->kind != CL_KIND_UNDERSCORE) {
    cl_b_set_error(b, cl_fail(CL_E_TYPE, "slice: a coordinate holds integers and '_' only"));
  }
}

static void dice_tree(cl_builder *b, const cl_node *crd, const cl_node *t) {
  if (crd->kind == CL_KIND_INT) {
    cl_b_copy(b, t);
    return;
  }
  int32_t at = cl_b_open(b, CL_KIND_TUPLE);
  lift_dice(b, crd, t);
  cl_b_close(b, at);
}

static cl_status dice_layout(const cl_tuple_t *crd, const cl_layout_t *layout, cl_layout_t **out) {
  const cl_node *l = cl_lroot(layout);
  cl_lbuilder lb;
  cl_lb_init(&lb);
  dice_tree(&lb.shape, cl_troot(crd), cl_lshape(l));
  dice_tree(&lb.stride, cl_troot(crd), cl_lstride(l));
  return cl_lb_finish(&lb, out);
}

static cl_status dice_coord(const cl_tuple_t *crd, cl_tuple_t **out) {
  cl_builder b;
  cl_b_init(&b);
  dice_tree(&b, cl_troot(crd), cl_troot(crd));
  return cl_b_finish_tuple(&b, out);
}

/* The extents of CuTe's projection layout of Swizzle<B,M,S>:
 * (2^M, 2^B, 2^(|S|-B), 2^B, 1) = (kept, zzz-or-yyy, between, yyy-or-zzz, beyond). */
static void projection_extents(cl_swizzle_t sw, int64_t extent[5]) {
  int s = sw.shift < 0 ? -sw.shift : sw.shift;
  extent[0] = INT64_C(1) << sw.base;
  extent[1] = INT64_C(1) << sw.bits;
  extent[2] = INT64_C(1) << (s - sw.bits);
  extent[3] = INT64_C(1) << sw.bits;
  extent[4] = 1;
}

/* swizzle_anti_zy (only_zy false): the index bits the swizzle leaves alone,
 * with the strides of the compact layout of those extents (0 for extent 1, as
 * CuTe's compact strides) and size(sw) beyond it;
 * swizzle_only_zy (only_zy true): the yyy and zzz bits, 0 beyond. */
static cl_status swizzle_projection(cl_swizzle_t sw, bool only_zy, cl_layout_t **out) {
  int64_t extent[5], compact[5], size = 1;
  projection_extents(sw, extent);
  for (int i = 0; i < 5; i++) {
    compact[i] = extent[i] == 1 ? 0 : size;
    size *= extent[i];
  }
  static const bool mixed[5] = {false, true, false, true, false};
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_mark m = cl_lb_open(&lb);
  for (int i = 0; i < 4; i++)
    cl_lb_leaf(&lb, extent[i], mixed[i] == only_zy ? compact[i] : 0);
  cl_lb_leaf(&lb, extent[4], only_zy ? 0 : size);
  cl_lb_close(&lb, m);
  return cl_lb_finish(&lb, out);
}

/* CuTe's to_mixed_bits(layout, crd) with every value known: for each leaf of
 * the layout (extent s, stride d, coordinate c), s*d must be 0 or a power of
 * two, and the bits (c*d) & ((s-1)*d) are XORed together. */
static cl_status mixed_bits_tree(const cl_node *shape, const cl_node *stride, const cl_node *crd, int64_t *out) {
  if (cl_is_tuple(shape)) {
    if (!cl_is_tuple(crd) || crd->rank != shape->rank)
      return cl_fail(CL_E_RANK, "slice: mismatched ranks in the swizzle's bit projection");
    if (shape->rank == 0)
      return cl_fail(CL_E_DOMAIN, "slice: CuTe cannot fold the bits of an empty mode");
    int64_t acc = 0;
    const cl_node *d = cl_first(stride), *c = cl_first(crd);
    CL_FOR_EACH_CHILD(s, shape) {
      int64_t bits;
      CL_TRY(mixed_bits_tree(s, d, c, &bits));
      acc ^= bits;
      d = cl_next(d);
      c = cl_next(c);
    }
    *out = acc;
    return CL_OK;
  }
  if (cl_is_tuple(crd))
    return cl_fail(CL_E_RANK, "slice: mismatched ranks in the swizzle's bit projection");
  int64_t span, value, mask;
  CL_TRY(cl_mul(shape->value, stride->value, &span));
  if (span != 0 && (span & (span - 1)) != 0)
    return cl_fail(CL_E_DOMAIN, "slice: the swizzled bits need power-of-two shape*stride, not %lld*%lld",
                   (long long)shape->value, (long long)stride->value);
  CL_TRY(cl_mul(crd->value, stride->value, &value));
  CL_TRY(cl_mul(shape->value - 1, stride->value, &mask));
  *out = value & mask;
  return CL_OK;
}

static cl_status to_mixed_bits(const cl_layout_t *layout, const cl_tuple_t *crd, int64_t *out) {
  const cl_node *l = cl_lroot(layout);
  cl_builder natural;
  cl_b_init(&natural);
  cl_b_idx2crd(&natural, cl_troot(crd), cl_lshape(l));
  cl_status s = natural.status;
  if (s == CL_OK)
    s = mixed_bits_tree(cl_lshape(l), cl_lstride(l), natural.nodes, out);
  cl_b_release(&natural);
  return s;
}

/* make_swizzle_strides: the strides of the B single-bit modes of one field
 * once the offset's bits are fixed.  For the zzz field (zzz_field true):
 * +Z<<i, or -Z<<i when the offset has the matching yyy bit (the swizzle
 * flips it back); for the yyy field: (Y+Z)<<i, or (Y-Z)<<i when the offset
 * has the matching zzz bit.  Z and Y are the lowest bits of the masks. */
static void swizzle_strides(cl_lbuilder *lb, bool zzz_field, int64_t z, int64_t y, int64_t offset, int bits) {
  for (int i = 0; i < bits; i++) {
    int64_t bit = INT64_C(1) << i, stride;
    if (zzz_field)
      stride = (offset & y * bit) == 0 ? z * bit : -z * bit;
    else
      stride = (offset & z * bit) == 0 ? (y + z) * bit : (y - z) * bit;
    cl_lb_leaf(lb, 2, stride);
  }
}

/* The swizzle with its yyy/zzz bits of the offset fixed, as a plain layout
 * (valid where its argument has no yyy and zzz bits in common):
 * (2^M, 2,..,2, 2^(|S|-B), 2,..,2, 1) : (1, lo.., 2^(M+B), hi.., 2^(M+B+|S|)). */
static cl_status swizzle_as_layout(cl_swizzle_t sw, int64_t offset, cl_layout_t **out) {
  int64_t zzz = zzz_msk(sw), yyy = yyy_msk(sw);
  int64_t z = zzz & -zzz, y = yyy & -yyy;
  int s = sw.shift < 0 ? -sw.shift : sw.shift;
  cl_lbuilder lb;
  cl_lb_init(&lb);
  cl_lb_mark m = cl_lb_open(&lb);
  cl_lb_leaf(&lb, INT64_C(1) << sw.base, 1);
  swizzle_strides(&lb, z < y, z, y, offset, sw.bits);
  cl_lb_leaf(&lb, INT64_C(1) << (s - sw.bits), INT64_C(1) << (sw.base + sw.bits));
  swizzle_strides(&lb, z > y, z, y, offset, sw.bits);
  cl_lb_leaf(&lb, 1, INT64_C(1) << (sw.base + sw.bits + s));
  cl_lb_close(&lb, m);
  return cl_lb_finish(&lb, out);
}

/* The state of one swizzled slice, freed in one place. */
typedef struct swizzle_slice {
  cl_layout_t *sliced, *diced, *anti_zy, *only_zy, *diced_anti_zy, *diced_only_zy, *sliced_only_zy, *as_layout;
  cl_tuple_t *diced_crd;
} swizzle_slice;

static void swizzle_slice_release(swizzle_slice *w) {
  cl_layout_free(w->sliced);
  cl_layout_free(w->diced);
  cl_layout_free(w->anti_zy);
  cl_layout_free(w->only_zy);
  cl_layout_free(w->diced_anti_zy);
  cl_layout_free(w->diced_only_zy);
  cl_layout_free(w->sliced_only_zy);
  cl_layout_free(w->as_layout);
  cl_tuple_free(w->diced_crd);
}

/* swizzle_layout.hpp's slice_and_offset for Sw o offset o B and a
 * coordinate with at least one integer. */
static cl_status slice_swizzled(const cl_tuple_t *crd, const cl_composed_t *c, swizzle_slice *w, cl_layout_t **layout,
                                cl_composed_t **composed, int64_t *offset) {
  cl_swizzle_t sw = c->outer.swizzle;
  const cl_layout_t *b = c->inner.layout;
  /* The part of B that stays, and the part the coordinate consumes. */
  CL_TRY(cl_layout_slice(crd, b, &w->sliced));
  const cl_node *rest = cl_lshape(cl_lroot(w->sliced));
  if (cl_is_tuple(rest) && rest->rank == 0)
    return cl_fail(CL_E_DOMAIN, "slice: a swizzled layout needs a '_' in the coordinate (CuTe cannot compose the swizzle with the empty layout left)");
  CL_TRY(dice_layout(crd, b, &w->diced));
  CL_TRY(dice_coord(crd, &w->diced_crd));
  CL_TRY(swizzle_projection(sw, false, &w->anti_zy));
  CL_TRY(swizzle_projection(sw, true, &w->only_zy));
  CL_TRY(compose(w->anti_zy, w->diced, &w->diced_anti_zy));
  CL_TRY(compose(w->only_zy, w->diced, &w->diced_only_zy));
  /* The consumed yyy/zzz bits interact with the swizzle: they join the
   * composed offset; the other consumed bits pass through as an offset. */
  int64_t mixed, offset_anti_zy;
  CL_TRY(to_mixed_bits(w->diced_only_zy, w->diced_crd, &mixed));
  int64_t offset_only_zy = c->unsigned_offset ? wrap32(c->offset ^ mixed) : c->offset ^ mixed;
  CL_TRY(cl_layout_eval_coord(w->diced_anti_zy, w->diced_crd, &offset_anti_zy));
  /* The yyy/zzz bits the remaining layout reaches: its last index's image. */
  int64_t size, active;
  CL_TRY(compose(w->only_zy, w->sliced, &w->sliced_only_zy));
  CL_TRY(cl_layout_size_checked(w->sliced_only_zy, &size));
  CL_TRY(cl_layout_eval(w->sliced_only_zy, size - 1, &active));
  if ((active & ~swizzle_of(sw, active)) != 0) {
    /* It reaches a yyy bit and its zzz partner: the swizzle stays. */
    CL_TRY(composition3(cl_fn_swizzle(sw), offset_only_zy, c->unsigned_offset, cl_fn_layout(w->sliced), layout, composed));
    *offset = offset_anti_zy;
    return CL_OK;
  }
  /* It never sees both bits of a pair: the swizzle becomes strides. */
  CL_TRY(swizzle_as_layout(sw, offset_only_zy, &w->as_layout));
  int64_t total;
  if (c->unsigned_offset)
    total = wrap32(swizzle_of(sw, offset_only_zy) + offset_anti_zy);
  else
    CL_TRY(cl_add(swizzle_of(sw, offset_only_zy), offset_anti_zy, &total));
  CL_TRY(compose(w->as_layout, w->sliced, layout));
  *offset = total;
  return CL_OK;
}

cl_status cl_composed_slice_and_offset(const cl_tuple_t *crd, const cl_composed_t *composed, cl_layout_t **layout,
                                       cl_composed_t **out_composed, int64_t *offset) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(offset);
  *offset = 0;
  CHECK_NULL(crd);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "slice", &b));
  if (composed->outer.kind == CL_FN_LAYOUT) {
    /* ComposedLayout{A, offset + B(crd), slice(crd, B)}: no simplification. */
    cl_layout_t *sliced;
    int64_t b_offset, total;
    CL_TRY(cl_layout_slice_and_offset(crd, b, &sliced, &b_offset));
    cl_status s = offset_plus(composed, b_offset, &total);
    if (s == CL_OK)
      s = make_composed(view_of(&composed->outer), total, composed->unsigned_offset, cl_fn_layout(sliced), out_composed);
    cl_layout_free(sliced);
    return s;
  }
  if (all_underscore(cl_troot(crd))) {
    cl_layout_t *sliced;
    CL_TRY(cl_layout_slice(crd, b, &sliced));
    return rewrap(view_of(&composed->outer), composed->offset, composed, sliced, layout, out_composed);
  }
  swizzle_slice w = {0};
  cl_status s = slice_swizzled(crd, composed, &w, layout, out_composed, offset);
  swizzle_slice_release(&w);
  if (s != CL_OK) {
    clear_either(layout, out_composed);
    *offset = 0;
  }
  return s;
}

cl_status cl_composed_slice(const cl_tuple_t *crd, const cl_composed_t *composed, cl_layout_t **layout,
                            cl_composed_t **out_composed) {
  int64_t offset;
  return cl_composed_slice_and_offset(crd, composed, layout, out_composed, &offset);
}

/* ---- the layout algebra on B ---- */

typedef cl_status (*tiler_fn)(const cl_layout_t *, const cl_tuple_t *, cl_layout_t **);
typedef cl_status (*layout_fn)(const cl_layout_t *, const cl_layout_t *, cl_layout_t **);

typedef struct tiler_arg {
  tiler_fn f;
  const cl_tuple_t *tiler;
} tiler_arg;

static cl_status tiler_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const tiler_arg *t = arg;
  return t->f(b, t->tiler, out);
}

static cl_status lift_tiler(const cl_composed_t *c, const char *what, tiler_fn f, const cl_tuple_t *tiler, cl_layout_t **layout,
                            cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(tiler);
  tiler_arg t = {f, tiler};
  return lift(c, what, tiler_op, &t, layout, composed);
}

#define COMPOSED_TILER_OP(name, algebra_fn)                                                                        \
  cl_status cl_composed_##name(const cl_composed_t *composed, const cl_tuple_t *tiler, cl_layout_t **layout,      \
                               cl_composed_t **out_composed) {                                                   \
    return lift_tiler(composed, #name, algebra_fn, tiler, layout, out_composed);                                 \
  }
COMPOSED_TILER_OP(composition, cl_composition_tiler)
COMPOSED_TILER_OP(logical_divide, cl_logical_divide_tiler)
COMPOSED_TILER_OP(zipped_divide, cl_zipped_divide_tiler)
COMPOSED_TILER_OP(tiled_divide, cl_tiled_divide_tiler)
COMPOSED_TILER_OP(flat_divide, cl_flat_divide_tiler)
COMPOSED_TILER_OP(logical_product, cl_logical_product_tiler)
COMPOSED_TILER_OP(zipped_product, cl_zipped_product_tiler)
COMPOSED_TILER_OP(tiled_product, cl_tiled_product_tiler)
COMPOSED_TILER_OP(flat_product, cl_flat_product_tiler)

typedef struct layout_arg {
  layout_fn f;
  const cl_layout_t *other;
} layout_arg;

static cl_status layout_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const layout_arg *t = arg;
  return t->f(b, t->other, out);
}

cl_status cl_composed_blocked_product(const cl_composed_t *composed, const cl_layout_t *tiler, cl_layout_t **layout,
                                      cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(tiler);
  layout_arg t = {cl_blocked_product, tiler};
  return lift(composed, "blocked_product", layout_op, &t, layout, out_composed);
}

cl_status cl_composed_raked_product(const cl_composed_t *composed, const cl_layout_t *tiler, cl_layout_t **layout,
                                    cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(tiler);
  layout_arg t = {cl_raked_product, tiler};
  return lift(composed, "raked_product", layout_op, &t, layout, out_composed);
}

typedef struct shape_order {
  const cl_tuple_t *shape, *order;
} shape_order;

static cl_status tile_to_shape_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  const shape_order *t = arg;
  return cl_tile_to_shape(b, t->shape, t->order, out);
}

cl_status cl_composed_tile_to_shape(const cl_composed_t *composed, const cl_tuple_t *shape, const cl_tuple_t *order,
                                    cl_layout_t **layout, cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(shape);
  shape_order t = {shape, order};
  return lift(composed, "tile_to_shape", tile_to_shape_op, &t, layout, out_composed);
}

static cl_status coalesce_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  return arg == NULL ? cl_coalesce(b, out) : cl_coalesce_profile(b, arg, out);
}

cl_status cl_composed_coalesce(const cl_composed_t *composed, const cl_tuple_t *profile, cl_layout_t **layout,
                               cl_composed_t **out_composed) {
  return lift(composed, "coalesce", coalesce_op, profile, layout, out_composed);
}

static cl_status filter_op(const cl_layout_t *b, const void *arg, cl_layout_t **out) {
  return cl_filter_profile(b, arg, out);
}

cl_status cl_composed_filter(const cl_composed_t *composed, const cl_tuple_t *profile, cl_layout_t **layout,
                             cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  CHECK_NULL(composed);
  if (profile == NULL)
    return cl_fail(CL_E_UNSUPPORTED, "filter: CuTe filters a composed layout only by a profile, filter(C, profile)");
  return lift(composed, "filter", filter_op, profile, layout, out_composed);
}

cl_status cl_composed_complement(const cl_composed_t *composed, const cl_tuple_t *cotarget, cl_layout_t **out) {
  CHECK_OUT(out);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "complement", &b));
  int64_t n;
  if (cotarget == NULL) {
    CL_TRY(cl_layout_cosize_checked(b, &n));
    return cl_complement(b, n, out);
  }
  if (cl_tuple_kind(cotarget) == CL_KIND_INT && cl_tuple_value(cotarget, &n) == CL_OK)
    return cl_complement(b, n, out);
  return cl_complement_shape(b, cotarget, out);
}

/* ---- inverses ---- */

typedef cl_status (*inverse_fn)(const cl_layout_t *, cl_layout_t **);

/* The inverse of one side as an owned part: a swizzle is its own inverse. */
static cl_status invert_part(const fn_part *f, inverse_fn inverse, fn_part *out) {
  *out = (fn_part){f->kind, f->swizzle, NULL};
  return f->kind == CL_FN_SWIZZLE ? CL_OK : inverse(f->layout, &out->layout);
}

static cl_status composed_inverse(const cl_composed_t *c, inverse_fn inverse, const char *what, cl_layout_t **layout,
                                  cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(c);
  if (c->outer.kind == CL_FN_SWIZZLE && c->offset == 0 && c->inner.kind == CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "%s: the inverse of Sw o 0 o Sw2 is the swizzle composition(Sw2, Sw), not a layout", what);
  int64_t minus_offset;
  if (c->unsigned_offset)
    minus_offset = wrap32(-c->offset);
  else
    CL_TRY(cl_sub(0, c->offset, &minus_offset));
  fn_part inv_inner, inv_outer;
  CL_TRY(invert_part(&c->inner, inverse, &inv_inner));
  cl_status s = invert_part(&c->outer, inverse, &inv_outer);
  if (s == CL_OK) {
    if (c->outer.kind == CL_FN_SWIZZLE && c->offset == 0)
      /* CuTe: composition(inverse(B), Sw), the swizzle moved through. */
      s = cl_composition_with_swizzle(inv_inner.layout, c->outer.swizzle, layout, composed);
    else
      s = composition3(view_of(&inv_inner), minus_offset, c->unsigned_offset, view_of(&inv_outer), layout, composed);
  }
  cl_layout_free(inv_inner.layout);
  cl_layout_free(inv_outer.layout);
  return s;
}

cl_status cl_composed_right_inverse(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_inverse(composed, cl_right_inverse, "right_inverse", layout, out_composed);
}

cl_status cl_composed_left_inverse(const cl_composed_t *composed, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_inverse(composed, cl_left_inverse, "left_inverse", layout, out_composed);
}

/* ---- upcast / downcast ---- */

static cl_status cast_part(const fn_part *f, int64_t n, bool up, fn_part *out) {
  *out = (fn_part){f->kind, {0, 0, 0}, NULL};
  if (f->kind == CL_FN_SWIZZLE)
    return up ? cl_swizzle_upcast(f->swizzle, n, &out->swizzle) : cl_swizzle_downcast(f->swizzle, n, &out->swizzle);
  return up ? cl_upcast(f->layout, n, &out->layout) : cl_downcast(f->layout, n, &out->layout);
}

static cl_status composed_cast(const cl_composed_t *c, int64_t n, bool up, cl_layout_t **layout, cl_composed_t **composed) {
  CHECK_EITHER(layout, composed);
  CHECK_NULL(c);
  /* CuTe scales the offset by the uint32_t template argument n: in
   * unsigned int arithmetic, so a negative offset wraps. */
  if (n <= 0 || n > INT32_MAX)
    return cl_fail(CL_E_DOMAIN, "%s<%lld>: the factor must be a positive int", up ? "upcast" : "downcast", (long long)n);
  uint32_t offset32 = (uint32_t)(uint64_t)c->offset, n32 = (uint32_t)n;
  if (up && offset32 % n32 != 0)
    return cl_fail(CL_E_DIVISIBILITY, "upcast<%lld>: the offset %lld is not a multiple of %lld", (long long)n,
                   (long long)c->offset, (long long)n);
  int64_t offset = up ? offset32 / n32 : (uint32_t)(offset32 * n32);
  fn_part outer, inner = {CL_FN_LAYOUT, {0, 0, 0}, NULL};
  cl_status s = cast_part(&c->outer, n, up, &outer);
  if (s == CL_OK)
    s = cast_part(&c->inner, n, up, &inner);
  if (s == CL_OK)
    s = composition3(view_of(&outer), offset, true, view_of(&inner), layout, composed);
  cl_layout_free(outer.layout);
  cl_layout_free(inner.layout);
  return s;
}

cl_status cl_composed_upcast(const cl_composed_t *composed, int64_t n, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_cast(composed, n, true, layout, out_composed);
}

cl_status cl_composed_downcast(const cl_composed_t *composed, int64_t n, cl_layout_t **layout, cl_composed_t **out_composed) {
  return composed_cast(composed, n, false, layout, out_composed);
}

/* ---- a layout composed with a composed layout ---- */

/* composition(X, f) for X a layout or a composed layout and f a layout or a
 * swizzle: the second step of composition(L, A o 0 o B). */
static cl_status compose_either_with(const cl_layout_t *xl, const cl_composed_t *xc, const fn_part *f, cl_layout_t **layout,
                                     cl_composed_t **composed) {
  if (xl != NULL) {
    if (f->kind == CL_FN_SWIZZLE)
      return cl_composition_with_swizzle(xl, f->swizzle, layout, composed);
    return compose(xl, f->layout, layout);
  }
  /* composition(A' o o' o B', f) = composition(A', o', composition(B', f)). */
  cl_layout_t *bl = NULL;
  cl_composed_t *bc = NULL;
  if (f->kind == CL_FN_SWIZZLE)
    CL_TRY(cl_composition_with_swizzle(xc->inner.layout, f->swizzle, &bl, &bc));
  else
    CL_TRY(compose(xc->inner.layout, f->layout, &bl));
  if (bc != NULL) {
    cl_composed_free(bc);
    return cl_fail(CL_E_UNSUPPORTED, "composition: the result would nest one composed layout in another");
  }
  return rewrap(view_of(&xc->outer), xc->offset, xc, bl, layout, composed);
}

cl_status cl_composition_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                       cl_composed_t **out_composed) {
  CHECK_EITHER(out_layout, out_composed);
  CHECK_NULL(layout);
  CHECK_NULL(composed);
  if (composed->offset != 0)
    return cl_fail(CL_E_DOMAIN, "composition(L, C): CuTe requires the composed layout's offset to be 0, not %lld",
                   (long long)composed->offset);
  cl_layout_t *xl = NULL;
  cl_composed_t *xc = NULL;
  if (composed->outer.kind == CL_FN_SWIZZLE)
    CL_TRY(cl_composition_with_swizzle(layout, composed->outer.swizzle, &xl, &xc));
  else
    CL_TRY(compose(layout, composed->outer.layout, &xl));
  cl_status s = compose_either_with(xl, xc, &composed->inner, out_layout, out_composed);
  cl_layout_free(xl);
  cl_composed_free(xc);
  return s;
}

cl_status cl_composed_composition_with_composed(const cl_composed_t *a, const cl_composed_t *b, cl_layout_t **layout,
                                                cl_composed_t **out_composed) {
  CHECK_EITHER(layout, out_composed);
  const cl_layout_t *ab = NULL;
  CL_TRY(inner_layout(a, "composition", &ab));
  CHECK_NULL(b);
  cl_layout_t *bl = NULL;
  cl_composed_t *bc = NULL;
  CL_TRY(cl_composition_with_composed(ab, b, &bl, &bc));
  if (bc != NULL) {
    cl_composed_free(bc);
    return cl_fail(CL_E_UNSUPPORTED, "composition: the result would nest one composed layout in another");
  }
  return rewrap(view_of(&a->outer), a->offset, a, bl, layout, out_composed);
}

/* logical_product(L, Sw o 0 o B): the product of L with B, and the swizzle
 * that acts on it as Sw acts on B.  The yyy and zzz bits that B reaches,
 * (P o B)(size-1) with P the projection on them, are followed through B and
 * then through the product's second mode. */
static cl_status product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, layout_fn arrange,
                                       cl_layout_t **out_layout, cl_composed_t **out_composed) {
  CHECK_EITHER(out_layout, out_composed);
  CHECK_NULL(layout);
  const cl_layout_t *b = NULL;
  CL_TRY(inner_layout(composed, "logical_product", &b));
  if (composed->outer.kind != CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "logical_product(L, C): CuTe defines it for a swizzled composed layout only");
  if (composed->offset != 0)
    return cl_fail(CL_E_DOMAIN, "logical_product(L, C): CuTe requires the swizzle offset to be 0, not %lld",
                   (long long)composed->offset);
  cl_swizzle_t sw = composed->outer.swizzle;
  cl_layout_t *product = NULL, *only_zy = NULL, *b_only_zy = NULL, *arranged = NULL;
  cl_tuple_t *crd = NULL;
  int64_t size, active, moved[2] = {0, 0};
  cl_status s = cl_logical_product(layout, b, &product);
  if (s == CL_OK)
    s = swizzle_projection(sw, true, &only_zy);
  if (s == CL_OK)
    s = compose(only_zy, b, &b_only_zy);
  if (s == CL_OK)
    s = cl_layout_size_checked(b_only_zy, &size);
  if (s == CL_OK)
    s = cl_layout_eval(b_only_zy, size - 1, &active);
  /* new_layout(0, B(active & mask)) for the yyy and the zzz mask */
  int64_t masks[2] = {yyy_msk(sw), zzz_msk(sw)};
  for (int k = 0; k < 2 && s == CL_OK; k++) {
    int64_t through_b, crd_values[2];
    s = cl_layout_eval(b, active & masks[k], &through_b);
    crd_values[0] = 0;
    crd_values[1] = through_b;
    if (s == CL_OK)
      s = cl_tuple_from_ints(crd_values, 2, &crd);
    if (s == CL_OK)
      s = cl_layout_eval_coord(product, crd, &moved[k]);
    cl_tuple_free(crd);
    crd = NULL;
  }
  cl_swizzle_t moved_sw;
  if (s == CL_OK)
    s = cl_make_swizzle(moved[0], moved[1], &moved_sw);
  if (s == CL_OK && arrange != NULL)
    s = arrange(layout, b, &arranged);
  if (s == CL_OK)
    s = cl_composition_offset(cl_fn_swizzle(moved_sw), 0, cl_fn_layout(arranged ? arranged : product), out_layout,
                              out_composed);
  cl_layout_free(product);
  cl_layout_free(only_zy);
  cl_layout_free(b_only_zy);
  cl_layout_free(arranged);
  return s;
}

/* The other products of (L, C) arrange the logical product's modes: with a
 * layout (not a tuple) as tiler, zipped_product leaves them as they are. */
cl_status cl_logical_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                           cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, NULL, out_layout, out_composed);
}
cl_status cl_zipped_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                          cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, cl_zipped_product, out_layout, out_composed);
}
cl_status cl_tiled_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                         cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, cl_tiled_product, out_layout, out_composed);
}
cl_status cl_flat_product_with_composed(const cl_layout_t *layout, const cl_composed_t *composed, cl_layout_t **out_layout,
                                        cl_composed_t **out_composed) {
  return product_with_composed(layout, composed, cl_flat_product, out_layout, out_composed);
}

/* ---- common vectors ---- */

static cl_status swizzled_inner(const cl_composed_t *c, const char *what, const cl_layout_t **b) {
  CL_TRY(inner_layout(c, what, b));
  if (c->outer.kind != CL_FN_SWIZZLE)
    return cl_fail(CL_E_UNSUPPORTED, "%s: CuTe defines it for a swizzled composed layout only", what);
  return CL_OK;
}

cl_status cl_composed_max_common_vector(const cl_composed_t *composed, const cl_layout_t *layout, int64_t *out) {
  CHECK_NULL(out);
  CHECK_NULL(layout);
  const cl_layout_t *b = NULL;
  CL_TRY(swizzled_inner(composed, "max_common_vector", &b));
  int64_t v;
  CL_TRY(cl_max_common_vector(b, layout, &v));
  int64_t base = INT64_C(1) << composed->outer.swizzle.base;
  *out = v < base ? v : base;
  return CL_OK;
}

cl_status cl_composed_max_common_vector2(const cl_composed_t *a, const cl_composed_t *b, int64_t *out) {
  CHECK_NULL(out);
  const cl_layout_t *ab = NULL, *bb = NULL;
  CL_TRY(swizzled_inner(a, "max_common_vector", &ab));
  CL_TRY(swizzled_inner(b, "max_common_vector", &bb));
  int64_t v;
  CL_TRY(cl_max_common_vector(ab, bb, &v));
  if (!cl_swizzle_equal(a->outer.swizzle, b->outer.swizzle)) {
    int64_t base_a = INT64_C(1) << a->outer.swizzle.base, base_b = INT64_C(1) << b->outer.swizzle.base;
    v = v < base_a ? v : base_a;
    v = v < base_b ? v : base_b;
  }
  *out = v;
  return CL_OK;
}

cl_status cl_composed_max_common_layout(const cl_composed_t *composed, const cl_layout_t *layout, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(layout);
  const cl_layout_t *b = NULL;
  CL_TRY(swizzled_inner(composed, "max_common_layout", &b));
  cl_layout_t *common;
  CL_TRY(cl_max_common_layout(b, layout, &common));
  int64_t size, base = INT64_C(1) << composed->outer.swizzle.base;
  cl_status s = cl_layout_size_checked(common, &size);
  if (s != CL_OK || base >= size) {
    if (s == CL_OK)
      *out = common;
    else
      cl_layout_free(common);
    return s;
  }
  /* common.compose(base): its first 2^M elements */
  cl_tuple_t *tile = NULL;
  s = cl_tuple_int(base, &tile);
  if (s == CL_OK)
    s = cl_composition_tiler(common, tile, out);
  cl_tuple_free(tile);
  cl_layout_free(common);
  return s;
}
