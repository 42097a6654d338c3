/* SPDX-License-Identifier: BSD-3-Clause */
/* atom.c: MMA and copy atoms by CuTe's names (atom.h).
 *
 * The untemplated atoms are rows of atom_tables.c; the templated ones are
 * families whose layouts follow from a template argument: SM90 GMMA
 * (atom_gmma.c), SM100 UMMA (atom_umma.c), UniversalFMA, and the copies of one value of a type
 * (UniversalCopy<S>, cp.async<S>, AutoVectorizingCopy). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atom_impl.h"
#include "cutelayout/algebra.h"
#include "tuple_impl.h"

/* ------------------------------------------------------------ element types */

typedef struct type_row {
  const char *name;
  int64_t bits;
} type_row;

/* CuTe's element types and their sizeof_bits. */
static const type_row types[] = {
  {"half_t", 16},       {"bfloat16_t", 16},  {"tfloat32_t", 32},   {"float", 32},        {"double", 64},
  {"int8_t", 8},        {"uint8_t", 8},      {"int16_t", 16},      {"uint16_t", 16},     {"int32_t", 32},
  {"uint32_t", 32},     {"int64_t", 64},     {"uint64_t", 64},     {"uint128_t", 128},   {"float_e4m3_t", 8},
  {"float_e5m2_t", 8},  {"float_e2m1_t", 4}, {"float_e2m3_t", 6},  {"float_e3m2_t", 6},  {"int4_t", 4},
  {"uint4_t", 4},       {"uint1_t", 1},      {"bool", 8},          {"char", 8},          {"int", 32},
  {NULL, 0},
};

cl_status cl_atom_type_bits(const char *type, int64_t *bits) {
  CHECK_NULL(type);
  CHECK_NULL(bits);
  for (const type_row *t = types; t->name != NULL; t++)
    if (strcmp(t->name, type) == 0) {
      *bits = t->bits;
      return CL_OK;
    }
  return cl_fail(CL_E_DOMAIN, "unknown element type '%s'", type);
}

/* ------------------------------------------------------------ names */

/* name without white space into buf (CL_E_LIMIT if it does not fit). */
static cl_status squeeze(const char *name, char *buf, size_t cap) {
  size_t n = 0;
  for (const char *c = name; *c; c++) {
    if (isspace((unsigned char)*c))
      continue;
    if (n + 1 >= cap)
      return cl_fail(CL_E_LIMIT, "name too long: '%.40s...'", name);
    buf[n++] = *c;
  }
  buf[n] = '\0';
  return CL_OK;
}

/* Splits "BASE<ARGS>" into base and args (args empty when there are none);
 * 0 when the brackets are unbalanced. */
static int split_template(const char *name, char *base, size_t base_cap, char *args, size_t args_cap) {
  const char *lt = strchr(name, '<');
  size_t n = lt != NULL ? (size_t)(lt - name) : strlen(name);
  if (n >= base_cap)
    return 0;
  memcpy(base, name, n);
  base[n] = '\0';
  args[0] = '\0';
  if (lt == NULL)
    return 1;
  size_t len = strlen(lt);
  if (len < 2 || lt[len - 1] != '>' || len - 2 >= args_cap)
    return 0;
  memcpy(args, lt + 1, len - 2);
  args[len - 2] = '\0';
  return 1;
}

static const cl_mma_row *const mma_tables[] = {cl_mma_table_sm61, cl_mma_table_sm70, cl_mma_table_sm75,
                                               cl_mma_table_sm80, cl_mma_table_sm89, cl_mma_table_sm100,
                                               cl_mma_table_sm120, NULL};
static const cl_copy_row *const copy_tables[] = {cl_copy_table_sm50, cl_copy_table_sm75, cl_copy_table_sm90,
                                                 cl_copy_table_sm100, NULL};

/* The copy operations with a template argument: one value of the type. */
typedef struct copy_family {
  const char *name;
  const char *example;
  cl_copy_kind kind;
  int64_t min_bits, max_bits; /* the widths the instruction takes (bits of S) */
} copy_family;

static const copy_family copy_families[] = {
  {"UniversalCopy", "UniversalCopy<uint32_t>", CL_COPY_PLAIN, 1, 1 << 20},
  {"SM80_CP_ASYNC_CACHEALWAYS", "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", CL_COPY_CP_ASYNC, 32, 128},
  {"SM80_CP_ASYNC_CACHEGLOBAL", "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", CL_COPY_CP_ASYNC, 128, 128},
  {"SM80_CP_ASYNC_CACHEALWAYS_ZFILL", "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint128_t>", CL_COPY_CP_ASYNC, 32, 128},
  {"SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>", CL_COPY_CP_ASYNC, 128, 128},
  {NULL, NULL, CL_COPY_PLAIN, 0, 0},
};

static const char *const smem_examples[] = {
  "GMMA::Layout_K_INTER_Atom<half_t>", "GMMA::Layout_K_SW32_Atom<half_t>", "GMMA::Layout_K_SW64_Atom<half_t>",
  "GMMA::Layout_K_SW128_Atom<half_t>", "GMMA::Layout_MN_INTER_Atom<half_t>", "GMMA::Layout_MN_SW32_Atom<half_t>",
  "GMMA::Layout_MN_SW64_Atom<half_t>", "GMMA::Layout_MN_SW128_Atom<half_t>", NULL,
};

static const char *mma_name_at(int64_t i) {
  for (size_t t = 0; mma_tables[t] != NULL; t++)
    for (const cl_mma_row *r = mma_tables[t]; r->name != NULL; r++)
      if (i-- == 0)
        return r->name;
  if (i-- == 0)
    return "UniversalFMA<float,float,float,float>";
  for (int64_t g = 0; cl_gmma_example(g) != NULL; g++)
    if (i-- == 0)
      return cl_gmma_example(g);
  return cl_umma_example(i);
}

static const char *copy_name_at(int64_t i) {
  for (size_t t = 0; copy_tables[t] != NULL; t++)
    for (const cl_copy_row *r = copy_tables[t]; r->name != NULL; r++)
      if (i-- == 0)
        return r->name;
  for (const copy_family *f = copy_families; f->name != NULL; f++)
    if (i-- == 0)
      return f->example;
  if (i-- == 0)
    return "AutoVectorizingCopy";
  if (i-- == 0)
    return "AutoVectorizingCopyWithAssumedAlignment<128>";
  return NULL;
}

int cl_atom_enum_arg(const char *arg, const char *prefix, const char *const *values) {
  size_t n = strlen(prefix);
  if (strncmp(arg, prefix, n) != 0)
    return -1;
  for (int i = 0; values[i] != NULL; i++)
    if (strcmp(arg + n, values[i]) == 0)
      return i;
  return -1;
}

const char *cl_atom_catalog_name(cl_atom_family family, int64_t i) {
  if (i < 0)
    return NULL;
  switch (family) {
  case CL_ATOM_MMA:
    return mma_name_at(i);
  case CL_ATOM_COPY:
    return copy_name_at(i);
  case CL_ATOM_TYPE:
    return i < (int64_t)(sizeof types / sizeof types[0]) ? types[i].name : NULL;
  case CL_ATOM_SMEM:
    return i < 8 ? smem_examples[i] : NULL;
  }
  return NULL;
}

/* ------------------------------------------------------------ MMA atoms */

static void traits_of_row(const cl_mma_row *r, cl_mma_traits *t) {
  snprintf(t->name, sizeof t->name, "%s", r->name);
  snprintf(t->thr_id, sizeof t->thr_id, "%s", r->thr_id);
  snprintf(t->shape_mnk, sizeof t->shape_mnk, "%s", r->shape_mnk);
  snprintf(t->layout[0], sizeof t->layout[0], "%s", r->a);
  snprintf(t->layout[1], sizeof t->layout[1], "%s", r->b);
  snprintf(t->layout[2], sizeof t->layout[2], "%s", r->c);
  t->bits[0] = r->bits_a;
  t->bits[1] = r->bits_b;
  t->bits[2] = r->bits_c;
}

/* UniversalFMA<D,A,B,C> (A defaults to D, B to A, C to D): one thread, one
 * value of each operand. */
static int universal_fma(const char *name, cl_mma_traits *t) {
  char base[64], args[160];
  if (!split_template(name, base, sizeof base, args, sizeof args) || strcmp(base, "UniversalFMA") != 0)
    return 0;
  char type[4][40];
  int n = 0;
  for (char *tok = strtok(args, ","); tok != NULL && n < 5; tok = strtok(NULL, ","), n++)
    if (n < 4)
      snprintf(type[n], sizeof type[n], "%s", tok);
  if (n < 1 || n > 4)
    return cl_fail(CL_E_TYPE, "UniversalFMA takes 1 to 4 element types (D,A,B,C), not %d", n);
  if (n < 2)
    memcpy(type[1], type[0], sizeof type[0]);
  if (n < 3)
    memcpy(type[2], type[1], sizeof type[1]);
  if (n < 4)
    memcpy(type[3], type[0], sizeof type[0]);
  int64_t bits[4];
  for (int i = 0; i < 4; i++)
    CL_TRY(cl_atom_type_bits(type[i], &bits[i]));
  snprintf(t->name, sizeof t->name, "UniversalFMA<%s,%s,%s,%s>", type[0], type[1], type[2], type[3]);
  snprintf(t->thr_id, sizeof t->thr_id, "1:0");
  snprintf(t->shape_mnk, sizeof t->shape_mnk, "(1,1,1)");
  for (int i = 0; i < 3; i++)
    snprintf(t->layout[i], sizeof t->layout[i], "(1,1):(0,0)");
  t->bits[0] = bits[1];
  t->bits[1] = bits[2];
  t->bits[2] = bits[3];
  return 1;
}

/* The traits of an MMA name: 1 found, 0 unknown, or a failure status. */
static int mma_lookup(const char *name, cl_mma_traits *t) {
  for (size_t k = 0; mma_tables[k] != NULL; k++)
    for (const cl_mma_row *r = mma_tables[k]; r->name != NULL; r++)
      if (strcmp(r->name, name) == 0) {
        traits_of_row(r, t);
        return 1;
      }
  int found = universal_fma(name, t);
  if (found != 0)
    return found;
  found = cl_gmma_lookup(name, t);
  if (found != 0)
    return found;
  return cl_umma_lookup(name, t);
}

static cl_status parse_layout_field(const char *text, cl_layout_t **out) { return cl_layout_parse(text, out); }

/* Does SHAPE:STRIDE nest its stride as its shape?  (Both with every
 * integer read as one digit: the same text then.) */
static bool congruent_text(const char *layout) {
  const char *stride = strchr(layout, ':');
  if (stride == NULL)
    return true;
  const char *a = layout, *b = stride + 1;
  while (a < stride && *b != '\0') {
    bool digits = isdigit((unsigned char)*a) && isdigit((unsigned char)*b);
    if (!digits && *a != *b)
      return false;
    for (a++, b++; digits && isdigit((unsigned char)*a); a++)
      ;
    for (; digits && isdigit((unsigned char)*b); b++)
      ;
  }
  return a == stride && *b == '\0';
}

/* An operand's layout text: parsed, or kept as CuTe's text where it is no
 * layout (any use of that operand is then an error, as in CuTe). */
static cl_status parse_operand(cl_mma_atom_t *a, int operand, const char *text) {
  if (congruent_text(text))
    return parse_layout_field(text, &a->layout[operand]);
  snprintf(a->malformed[operand], sizeof a->malformed[operand], "%s", text);
  return CL_OK;
}

void cl_mma_atom_free(cl_mma_atom_t *atom) {
  if (atom == NULL)
    return;
  cl_layout_free(atom->thr_id);
  for (int i = 0; i < 3; i++)
    cl_layout_free(atom->layout[i]);
  cl_tuple_free(atom->shape_mnk);
  cl_dealloc(atom);
}

static cl_status mma_atom_of_traits(const cl_mma_traits *t, cl_mma_atom_t **out) {
  cl_mma_atom_t *a = cl_alloc(sizeof *a);
  if (a == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  memset(a, 0, sizeof *a);
  memcpy(a->name, t->name, sizeof a->name);
  memcpy(a->bits, t->bits, sizeof a->bits);
  cl_status s = parse_layout_field(t->thr_id, &a->thr_id);
  for (int i = 0; i < 3 && s == CL_OK; i++)
    s = parse_operand(a, i, t->layout[i]);
  if (s == CL_OK)
    s = cl_tuple_parse(t->shape_mnk, &a->shape_mnk);
  if (s != CL_OK) {
    cl_mma_atom_free(a);
    return s;
  }
  *out = a;
  return CL_OK;
}

cl_status cl_mma_atom_new(const char *name, cl_mma_atom_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(name);
  char key[256];
  CL_TRY(squeeze(name, key, sizeof key));
  cl_mma_traits t;
  int found = mma_lookup(key, &t);
  if (found < 0)
    return (cl_status)found;
  if (found == 0)
    return cl_fail(CL_E_DOMAIN, "unknown MMA atom '%s'", key);
  return mma_atom_of_traits(&t, out);
}

cl_status cl_mma_atom_clone(const cl_mma_atom_t *atom, cl_mma_atom_t **out) {
  cl_mma_atom_t *a = cl_alloc(sizeof *a);
  if (a == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  memset(a, 0, sizeof *a);
  memcpy(a->name, atom->name, sizeof a->name);
  memcpy(a->bits, atom->bits, sizeof a->bits);
  memcpy(a->malformed, atom->malformed, sizeof a->malformed);
  cl_status s = cl_layout_copy(atom->thr_id, &a->thr_id);
  for (int i = 0; i < 3 && s == CL_OK; i++)
    if (atom->layout[i] != NULL)
      s = cl_layout_copy(atom->layout[i], &a->layout[i]);
  if (s == CL_OK)
    s = cl_tuple_copy(atom->shape_mnk, &a->shape_mnk);
  if (s != CL_OK) {
    cl_mma_atom_free(a);
    return s;
  }
  *out = a;
  return CL_OK;
}

int64_t cl_atom_snprintf(char *buf, size_t cap, const char *text) {
  size_t n = strlen(text);
  if (buf != NULL && cap > 0) {
    size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(buf, text, k);
    buf[k] = '\0';
  }
  return (int64_t)n;
}

int64_t cl_mma_atom_format(const cl_mma_atom_t *atom, char *buf, size_t cap) {
  if (atom == NULL)
    return -1;
  return cl_atom_snprintf(buf, cap, atom->name);
}

cl_status cl_mma_atom_thr_id(const cl_mma_atom_t *atom, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  return cl_layout_copy(atom->thr_id, out);
}

cl_status cl_mma_atom_shape_mnk(const cl_mma_atom_t *atom, cl_tuple_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  return cl_tuple_copy(atom->shape_mnk, out);
}

static cl_status check_operand(cl_mma_operand operand) {
  if ((int)operand < 0 || (int)operand > 2)
    return cl_fail(CL_E_DOMAIN, "operand %d is none of A (0), B (1), C (2)", (int)operand);
  return CL_OK;
}

cl_status cl_mma_atom_operand(const cl_mma_atom_t *atom, cl_mma_operand operand, const cl_layout_t **out) {
  CL_TRY(check_operand(operand));
  if (atom->layout[operand] == NULL)
    return cl_fail(CL_E_TYPE,
                   "%s: CuTe's %cLayout %s is not a layout (its stride is not congruent with its shape), so CuTe "
                   "compiles no use of operand %c (Mismatched Ranks)",
                   atom->name, "ABC"[operand], atom->malformed[operand], "ABC"[operand]);
  *out = atom->layout[operand];
  return CL_OK;
}

cl_status cl_mma_atom_layout_tv(const cl_mma_atom_t *atom, cl_mma_operand operand, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  const cl_layout_t *tv = NULL;
  CL_TRY(cl_mma_atom_operand(atom, operand, &tv));
  return cl_layout_copy(tv, out);
}

int64_t cl_mma_atom_value_bits(const cl_mma_atom_t *atom, cl_mma_operand operand) {
  if (atom == NULL || (int)operand < 0 || (int)operand > 2)
    return -1;
  return atom->bits[operand];
}

/* ------------------------------------------------------------ copy atoms */

typedef struct copy_traits {
  char op[200];
  const char *thr_id;
  char layout[3][160]; /* src, dst, ref in bits */
  cl_copy_kind kind;
} copy_traits;

/* One value of S bits (of D bits at the destination) per thread. */
static void one_value(copy_traits *t, int64_t src_bits, int64_t dst_bits) {
  t->thr_id = "1:0";
  snprintf(t->layout[0], sizeof t->layout[0], "(1,%lld):(0,1)", (long long)src_bits);
  snprintf(t->layout[1], sizeof t->layout[1], "(1,%lld):(0,1)", (long long)dst_bits);
  snprintf(t->layout[2], sizeof t->layout[2], "(1,%lld):(0,1)", (long long)src_bits);
}

static int copy_family_lookup(const char *base, char *args, copy_traits *t) {
  for (const copy_family *f = copy_families; f->name != NULL; f++) {
    if (strcmp(f->name, base) != 0)
      continue;
    char *comma = strchr(args, ',');
    const char *dst = comma != NULL ? comma + 1 : args;
    if (comma != NULL)
      *comma = '\0';
    if (args[0] == '\0')
      return cl_fail(CL_E_TYPE, "%s needs its value type: %s", base, f->example);
    int64_t sbits, dbits;
    CL_TRY(cl_atom_type_bits(args, &sbits));
    CL_TRY(cl_atom_type_bits(dst, &dbits));
    if (sbits < f->min_bits || sbits > f->max_bits || (f->kind == CL_COPY_CP_ASYNC && (sbits & (sbits - 1)) != 0))
      return cl_fail(CL_E_TYPE, "%s<%s>: the instruction cannot move %lld-bit values (it takes %lld to %lld bits)", base,
                     args, (long long)sbits, (long long)f->min_bits, (long long)f->max_bits);
    if (f->kind == CL_COPY_CP_ASYNC && sbits != dbits)
      return cl_fail(CL_E_TYPE, "%s: cp.async requires source and destination types of one size", base);
    if (strcmp(args, dst) == 0)
      snprintf(t->op, sizeof t->op, "%s<%s>", base, args);
    else
      snprintf(t->op, sizeof t->op, "%s<%s,%s>", base, args, dst);
    one_value(t, sbits, dbits);
    t->kind = f->kind;
    return 1;
  }
  return 0;
}

static int copy_lookup(const char *name, copy_traits *t) {
  char base[64], args[64];
  if (!split_template(name, base, sizeof base, args, sizeof args))
    return 0;
  if (args[0] == '\0' && strchr(name, '<') == NULL)
    for (size_t k = 0; copy_tables[k] != NULL; k++)
      for (const cl_copy_row *r = copy_tables[k]; r->name != NULL; r++)
        if (strcmp(r->name, name) == 0) {
          snprintf(t->op, sizeof t->op, "%s", r->name);
          t->thr_id = r->thr_id;
          snprintf(t->layout[0], sizeof t->layout[0], "%s", r->src);
          snprintf(t->layout[1], sizeof t->layout[1], "%s", r->dst);
          snprintf(t->layout[2], sizeof t->layout[2], "%s", r->ref);
          t->kind = r->kind;
          return 1;
        }
  /* AutoVectorizingCopy: no instruction of its own, so its layouts are the
   * one-bit placeholders of CuTe's traits. */
  bool autovec = strcmp(name, "AutoVectorizingCopy") == 0;
  if (autovec || strcmp(base, "AutoVectorizingCopyWithAssumedAlignment") == 0) {
    if (!autovec) {
      char *end;
      long long align = strtoll(args, &end, 10);
      if (args[0] == '\0' || *end != '\0' || align <= 0 || (align & (align - 1)) != 0)
        return cl_fail(CL_E_TYPE, "%s: the alignment must be a power of two number of bits, not '%s'", base, args);
    }
    snprintf(t->op, sizeof t->op, "%s", name);
    t->thr_id = "1:0";
    for (int i = 0; i < 3; i++)
      snprintf(t->layout[i], sizeof t->layout[i], "(1,1):(0,0)");
    t->kind = CL_COPY_PLAIN;
    return 1;
  }
  return copy_family_lookup(base, args, t);
}

void cl_copy_atom_free(cl_copy_atom_t *atom) {
  if (atom == NULL)
    return;
  cl_layout_free(atom->thr_id);
  for (int i = 0; i < 3; i++) {
    cl_layout_free(atom->bits[i]);
    cl_layout_free(atom->vals[i]);
  }
  cl_dealloc(atom);
}

static const char *const side_names[3] = {"Src", "Dst", "Ref"};

/* The side's layout in values of the type (CuTe's recast_layout<uint1_t,
 * T>), which must keep one row per thread (Copy_Atom's static_assert). */
static cl_status values_of_side(cl_copy_atom_t *a, int side) {
  if (cl_recast_layout(a->bits[side], 1, a->type_bits, &a->vals[side]) != CL_OK) {
    char why[256]; /* cl_fail writes the buffer cl_last_error() reads */
    snprintf(why, sizeof why, "%s", cl_last_error());
    return cl_fail(CL_E_TYPE, "copy_atom(%s,%s): the instruction cannot move %lld-bit values (%s)", a->op, a->type,
                   (long long)a->type_bits, why);
  }
  int64_t threads = cl_layout_size(a->thr_id);
  cl_layout_t *thr_mode = NULL;
  int64_t zero = 0;
  CL_TRY(cl_layout_get(a->vals[side], &zero, 1, &thr_mode));
  int64_t n = cl_layout_size(thr_mode);
  cl_layout_free(thr_mode);
  if (n != threads)
    return cl_fail(CL_E_TYPE, "copy_atom(%s,%s): the instruction cannot move %lld-bit values (CopyOperation is not valid for %s of ValType)",
                   a->op, a->type, (long long)a->type_bits, side_names[side]);
  return CL_OK;
}

static cl_status copy_atom_build(cl_copy_atom_t *a, const copy_traits *t) {
  CL_TRY(cl_layout_parse(t->thr_id, &a->thr_id));
  for (int i = 0; i < 3; i++)
    CL_TRY(cl_layout_parse(t->layout[i], &a->bits[i]));
  for (int i = 0; i < 3; i++)
    CL_TRY(values_of_side(a, i));
  return CL_OK;
}

cl_status cl_copy_atom_new(const char *op, const char *type, cl_copy_atom_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(op);
  CHECK_NULL(type);
  char key[64], tkey[32];
  CL_TRY(squeeze(op, key, sizeof key));
  CL_TRY(squeeze(type, tkey, sizeof tkey));
  int64_t type_bits;
  CL_TRY(cl_atom_type_bits(tkey, &type_bits));
  copy_traits t;
  int found = copy_lookup(key, &t);
  if (found < 0)
    return (cl_status)found;
  if (found == 0)
    return cl_fail(CL_E_DOMAIN, "unknown copy operation '%s'", key);
  cl_copy_atom_t *a = cl_alloc(sizeof *a);
  if (a == NULL)
    return cl_fail(CL_E_NOMEM, "out of memory");
  memset(a, 0, sizeof *a);
  snprintf(a->op, sizeof a->op, "%s", t.op);
  snprintf(a->type, sizeof a->type, "%s", tkey);
  a->type_bits = type_bits;
  a->kind = t.kind;
  cl_status s = copy_atom_build(a, &t);
  if (s != CL_OK) {
    cl_copy_atom_free(a);
    return s;
  }
  *out = a;
  return CL_OK;
}

cl_status cl_copy_atom_clone(const cl_copy_atom_t *atom, cl_copy_atom_t **out) {
  return cl_copy_atom_new(atom->op, atom->type, out);
}

int64_t cl_copy_atom_format(const cl_copy_atom_t *atom, char *buf, size_t cap) {
  if (atom == NULL)
    return -1;
  char text[256];
  snprintf(text, sizeof text, "copy_atom(%s,%s)", atom->op, atom->type);
  return cl_atom_snprintf(buf, cap, text);
}

cl_copy_kind cl_copy_atom_kind(const cl_copy_atom_t *atom) { return atom == NULL ? (cl_copy_kind)-1 : atom->kind; }

int64_t cl_copy_atom_value_bits(const cl_copy_atom_t *atom) { return atom == NULL ? -1 : atom->type_bits; }

int64_t cl_copy_atom_access_bits(const cl_copy_atom_t *atom, cl_copy_side side) {
  if (atom == NULL || (int)side < 0 || (int)side > 2)
    return -1;
  cl_layout_t *val_mode = NULL;
  int64_t one = 1;
  if (cl_layout_get(atom->bits[side], &one, 1, &val_mode) != CL_OK)
    return -1;
  int64_t n = cl_layout_size(val_mode);
  cl_layout_free(val_mode);
  return n;
}

cl_status cl_copy_atom_thr_id(const cl_copy_atom_t *atom, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  return cl_layout_copy(atom->thr_id, out);
}

cl_status cl_copy_atom_layout(const cl_copy_atom_t *atom, cl_copy_side side, int in_bits, cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(atom);
  if ((int)side < 0 || (int)side > 2)
    return cl_fail(CL_E_DOMAIN, "side %d is none of source (0), destination (1), reference (2)", (int)side);
  return cl_layout_copy(in_bits ? atom->bits[side] : atom->vals[side], out);
}
