/* SPDX-License-Identifier: BSD-3-Clause */
/* atom_umma.c: SM100's tensor-core MMAs (UMMA, tcgen05.mma), the dense and
 * block-scaled kinds.
 *
 * CuTe names them SM100_MMA_<kind>[_2x1SM]_{SS,TS}<A,B,C,M,N,a_major,b_major,
 * ...>: the element types, the tile's M and N and the major modes are
 * template arguments, so each kind is a family of atoms.  One CTA (1SM)
 * issues the whole tile; a pair of CTAs (2x1SM) splits M, N between them.
 * Their traits follow from M, N and K = 256 bits of A's type (32 for
 * F8F6F4, whatever the width):
 *
 *   1SM   ThrID 1:0  A (1,(M,K)):(0,(1,M))          B (1,(N,K)):(0,(1,N))
 *                    C (1,(M,N)):(0,(1,M))
 *   2x1SM ThrID 2:1  A (2,(M/2,K)):(M/2,(1,M))      B (2,(N/2,K)):(N/2,(1,N))
 *                    C (2,(M/2,N)):(M/2,(1,M))
 *
 * The block-scaled kinds (MXF8F6F4, MXF4) add a scale-factor type after C
 * and, for MXF4, a scale-vector size after N; their layouts are the same.
 * The sparse kinds (<kind>[_2x1SM]_SS_SPARSE) take A 2:4 structured-sparse:
 * K is 512 bits of A's type (64 for F8F6F4) and A's element, CuTe's
 * sparse_elem<2,A>, has half A's bits; the layouts are the dense ones.
 * The _SCALED kinds (those CuTe gives traits: TF32 TS, F16BF16) take a
 * uint32_t ScaleC after the majors, the rest as their dense kinds. (CuTe's
 * SM100_MMA_TF32_SS_SCALED has no traits, so no atom.)
 *
 * Every condition CuTe's structs, traits and instruction descriptor assert
 * is checked here, so that an instance CuTe rejects is an error naming it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atom_impl.h"
#include "tuple_impl.h"

/* The rule for the element width of A and B. */
typedef enum umma_bits {
  BITS_32,      /* both 32 bits (TF32) */
  BITS_16,      /* both 16 bits (F16BF16) */
  BITS_8,       /* both 8 bits (S8) */
  BITS_AT_MOST8, /* each at most 8 bits (F8F6F4, MXF8F6F4) */
  BITS_4         /* both 4 bits (MXF4) */
} umma_bits;

/* The rule for N: a multiple of `n_step` from n_step to 256, the step
 * doubled where `doubled` says (M = 128, or B MN-major), and 8 allowed
 * besides where `n8` is set. */
typedef enum umma_double { DOUBLE_NEVER, DOUBLE_M128, DOUBLE_B_MN } umma_double;

/* The template arguments after the first seven. */
typedef enum umma_tail {
  TAIL_SCALES,         /* ScaleIn a_neg, ScaleIn b_neg */
  TAIL_SATURATE,       /* Saturate c_sat */
  TAIL_SCALES_SATURATE /* ScaleIn, ScaleIn, Saturate */
} umma_tail;

/* The block-scaled kinds' extra arguments: a scale-factor type after C,
 * and for MXF4 the scale-vector size VS after N. */
typedef enum umma_scaled { SCALED_NOT, SCALED_SF, SCALED_SF_VS } umma_scaled;

typedef struct umma_family {
  const char *name; /* after SM100_MMA_ */
  umma_bits bits;
  bool two_sm, ts, c_int32;
  int n_step;
  umma_double doubled;
  bool n8;
  umma_tail tail;
  umma_scaled scaled;
  int m_only; /* the one M the kind takes (0: the usual two) */
  bool sparse; /* _SPARSE: A 2:4 structured-sparse, K doubled */
  bool scale_c; /* _SCALED: a uint32_t ScaleC after the majors */
  bool interleaved; /* _INTERLEAVED_..._TN: no type arguments, A and B complex<tfloat32_t>, C float */
} umma_family;

static const umma_family families[] = {
  {"TF32_SS", BITS_32, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, false, false, false},
  {"TF32_TS", BITS_32, false, true, false, 8, DOUBLE_M128, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0, false, false,
   false},
  {"TF32_2x1SM_SS", BITS_32, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, false, false,
   false},
  {"TF32_2x1SM_TS", BITS_32, true, true, false, 32, DOUBLE_NEVER, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0, false,
   false, false},
  {"F16BF16_SS", BITS_16, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, false, false, false},
  {"F16BF16_TS", BITS_16, false, true, false, 8, DOUBLE_M128, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0, false,
   false, false},
  {"F16BF16_2x1SM_SS", BITS_16, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, false, false,
   false},
  {"F16BF16_2x1SM_TS", BITS_16, true, true, false, 32, DOUBLE_NEVER, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0,
   false, false, false},
  {"S8_SS", BITS_8, false, false, true, 16, DOUBLE_NEVER, true, TAIL_SATURATE, SCALED_NOT, 0, false, false, false},
  {"S8_TS", BITS_8, false, true, false, 16, DOUBLE_NEVER, true, TAIL_SCALES_SATURATE, SCALED_NOT, 0, false, false,
   false},
  {"S8_2x1SM_SS", BITS_8, true, false, false, 32, DOUBLE_NEVER, false, TAIL_SATURATE, SCALED_NOT, 0, false, false,
   false},
  {"S8_2x1SM_TS", BITS_8, true, true, false, 32, DOUBLE_NEVER, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0, false,
   false, false},
  {"F8F6F4_SS", BITS_AT_MOST8, false, false, false, 8, DOUBLE_B_MN, false, TAIL_SCALES, SCALED_NOT, 0, false, false,
   false},
  {"F8F6F4_TS", BITS_AT_MOST8, false, true, false, 8, DOUBLE_M128, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0, false,
   false, false},
  {"F8F6F4_2x1SM_SS", BITS_AT_MOST8, true, false, false, 16, DOUBLE_B_MN, false, TAIL_SCALES, SCALED_NOT, 0, false,
   false, false},
  {"F8F6F4_2x1SM_TS", BITS_AT_MOST8, true, true, false, 32, DOUBLE_NEVER, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0,
   false, false, false},
  {"MXF8F6F4_SS", BITS_AT_MOST8, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF, 128, false,
   false, false},
  {"MXF8F6F4_2x1SM_SS", BITS_AT_MOST8, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF, 256,
   false, false, false},
  {"MXF4_SS", BITS_4, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF_VS, 128, false, false, false},
  {"MXF4_2x1SM_SS", BITS_4, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF_VS, 0, false, false,
   false},
  {"TF32_SS_SPARSE", BITS_32, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, true, false,
   false},
  {"F16BF16_SS_SPARSE", BITS_16, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, true, false,
   false},
  {"S8_SS_SPARSE", BITS_8, false, false, true, 16, DOUBLE_NEVER, true, TAIL_SATURATE, SCALED_NOT, 0, true, false,
   false},
  {"F8F6F4_SS_SPARSE", BITS_AT_MOST8, false, false, false, 8, DOUBLE_M128, false, TAIL_SCALES, SCALED_NOT, 0, true,
   false, false},
  {"MXF8F6F4_SS_SPARSE", BITS_AT_MOST8, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF, 128,
   true, false, false},
  {"MXF4NVF4_SS_SPARSE", BITS_4, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF_VS, 128, true,
   false, false},
  {"TF32_2x1SM_SS_SPARSE", BITS_32, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, true,
   false, false},
  {"F16BF16_2x1SM_SS_SPARSE", BITS_16, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, true,
   false, false},
  {"S8_2x1SM_SS_SPARSE", BITS_8, true, false, false, 32, DOUBLE_NEVER, false, TAIL_SATURATE, SCALED_NOT, 0, true,
   false, false},
  {"F8F6F4_2x1SM_SS_SPARSE", BITS_AT_MOST8, true, false, false, 32, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0,
   true, false, false},
  {"MXF8F6F4_2x1SM_SS_SPARSE", BITS_AT_MOST8, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF,
   256, true, false, false},
  {"MXF4NVF4_2x1SM_SS_SPARSE", BITS_4, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_SF_VS, 0,
   true, false, false},
  {"TF32_TS_SCALED", BITS_32, false, true, false, 8, DOUBLE_M128, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0, false,
   true, false},
  {"TF32_2x1SM_TS_SCALED", BITS_32, true, true, false, 32, DOUBLE_NEVER, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0,
   false, true, false},
  {"F16BF16_SS_SCALED", BITS_16, false, false, false, 8, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, false, true,
   false},
  {"F16BF16_TS_SCALED", BITS_16, false, true, false, 8, DOUBLE_M128, false, TAIL_SCALES_SATURATE, SCALED_NOT, 0,
   false, true, false},
  {"F16BF16_2x1SM_SS_SCALED", BITS_16, true, false, false, 16, DOUBLE_NEVER, false, TAIL_SCALES, SCALED_NOT, 0, false,
   true, false},
  {"F16BF16_2x1SM_TS_SCALED", BITS_16, true, true, false, 32, DOUBLE_NEVER, false, TAIL_SCALES_SATURATE, SCALED_NOT,
   0, false, true, false},
  {"TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN", BITS_32, false, true, false, 8, DOUBLE_M128, false,
   TAIL_SCALES_SATURATE, SCALED_NOT, 0, false, false, true},
  {"TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN", BITS_32, true, true, false, 32, DOUBLE_NEVER, false,
   TAIL_SCALES_SATURATE, SCALED_NOT, 0, false, false, true},
};
#define NFAMILIES (sizeof families / sizeof families[0])

const char *cl_umma_example(int64_t i) {
  static const char *const examples[] = {
    "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_TF32_TS<tfloat32_t,tfloat32_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_TF32_2x1SM_SS<tfloat32_t,tfloat32_t,float,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_TF32_2x1SM_TS<tfloat32_t,tfloat32_t,float,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_TS<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_2x1SM_TS<half_t,half_t,float,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_S8_TS<int8_t,int8_t,int32_t,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_S8_2x1SM_SS<int8_t,int8_t,int32_t,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_S8_2x1SM_TS<int8_t,int8_t,int32_t,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e4m3_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F8F6F4_TS<float_e4m3_t,float_e4m3_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F8F6F4_2x1SM_SS<float_e4m3_t,float_e4m3_t,float,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F8F6F4_2x1SM_TS<float_e4m3_t,float_e4m3_t,float,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_MXF8F6F4_2x1SM_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,256,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,256,32,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,256,256,32,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_TF32_SS_SPARSE<tfloat32_t,tfloat32_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_S8_SS_SPARSE<int8_t,int8_t,int32_t,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F8F6F4_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_MXF8F6F4_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,256,64,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_F16BF16_SS_SCALED<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K,1>",
    "SM100_MMA_F16BF16_TS_SCALED<half_t,half_t,float,128,256,UMMA::Major::K,UMMA::Major::K,1>",
    "SM100_MMA_TF32_TS_SCALED<tfloat32_t,tfloat32_t,float,128,256,UMMA::Major::K,UMMA::Major::K,1>",
    "SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<half_t>,cutlass::complex<half_t>,float,128,256,UMMA::Major::K,"
    "UMMA::Major::K,1>",
    "SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,256,UMMA::Major::K,UMMA::Major::K>",
    "SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<256,256,UMMA::Major::K,UMMA::Major::K>",
    NULL,
  };
  return i < (int64_t)(sizeof examples / sizeof examples[0]) ? examples[i] : NULL;
}

/* The element types UMMA's instruction descriptor has a format for (CuTe's
 * to_UMMAFormat, of those this library names), and for C (to_CFormat). */
static bool ab_format(const char *type) {
  static const char *const formats[] = {"half_t",       "bfloat16_t",   "tfloat32_t",   "uint8_t",      "int8_t",
                                        "float_e4m3_t", "float_e5m2_t", "float_e2m3_t", "float_e3m2_t", "float_e2m1_t",
                                        NULL};
  for (int i = 0; formats[i] != NULL; i++)
    if (strcmp(type, formats[i]) == 0)
      return true;
  return false;
}

static bool c_format(const char *type) {
  return strcmp(type, "half_t") == 0 || strcmp(type, "float") == 0 || strcmp(type, "int32_t") == 0;
}

/* CuTe's cutlass::complex<X>: X into `inner` (NULL if `type` is none). */
static const char *complex_inner(const char *type, char *inner, size_t cap) {
  static const char prefix[] = "cutlass::complex<";
  size_t n = strlen(type), p = sizeof prefix - 1;
  if (n <= p + 1 || strncmp(type, prefix, p) != 0 || type[n - 1] != '>' || n - p - 1 >= cap)
    return NULL;
  memcpy(inner, type + p, n - p - 1);
  inner[n - p - 1] = '\0';
  return inner;
}

/* The bits of an element type, a complex one twice its part's. */
static cl_status umma_type_bits(const char *type, int64_t *bits) {
  char inner[40];
  if (complex_inner(type, inner, sizeof inner) == NULL)
    return cl_atom_type_bits(type, bits);
  CL_TRY(cl_atom_type_bits(inner, bits));
  *bits *= 2;
  return CL_OK;
}

/* CuTe's interleaved-complex specialization of the F16BF16 _SCALED traits
 * (A and B cutlass::complex<X> of one 16-bit X, C float; the instruction
 * reads X): does it apply, and does X pass its asserts? 0 not this case,
 * 1 it applies and holds, or a failure status. */
static int complex_scaled(const char *base, const umma_family *f, char type[3][40]) {
  char inner[2][40];
  if (!(f->scale_c && f->bits == BITS_16) || complex_inner(type[0], inner[0], sizeof inner[0]) == NULL ||
      complex_inner(type[1], inner[1], sizeof inner[1]) == NULL || strcmp(inner[0], inner[1]) != 0 ||
      strcmp(type[2], "float") != 0)
    return 0;
  int64_t bits;
  CL_TRY(cl_atom_type_bits(inner[0], &bits));
  if (bits != 16)
    return cl_fail(CL_E_TYPE, "%s: complex A and B need a 16-bit part, not %s (%lld bits)", base, inner[0],
                   (long long)bits);
  if (!ab_format(inner[0]))
    return cl_fail(CL_E_TYPE, "%s: UMMA has no format for %s, the part of A and B", base, inner[0]);
  return 1;
}

/* Does the family's width rule hold for A and B of `a` and `b` bits? */
static bool bits_allowed(umma_bits rule, int64_t a, int64_t b) {
  switch (rule) {
  case BITS_32:
    return a == 32 && b == 32;
  case BITS_16:
    return a == 16 && b == 16;
  case BITS_8:
    return a == 8 && b == 8;
  case BITS_4:
    return a == 4 && b == 4;
  default:
    return a <= 8 && b <= 8;
  }
}

static const char *bits_rule_text(umma_bits rule) {
  switch (rule) {
  case BITS_32:
    return "A and B must both be 32-bit types";
  case BITS_16:
    return "A and B must both be 16-bit types";
  case BITS_8:
    return "A and B must both be 8-bit types";
  case BITS_4:
    return "A and B must both be 4-bit types";
  default:
    return "A and B must be types of at most 8 bits";
  }
}

/* The step of N for this M and B major (see umma_family). */
static long step_of_n(const umma_family *f, long m, bool b_mn) {
  bool doubled = (f->doubled == DOUBLE_M128 && m == 128) || (f->doubled == DOUBLE_B_MN && b_mn);
  return doubled ? 2L * f->n_step : f->n_step;
}

/* An integer template argument, or -1 if it is none. */
static long int_arg(const char *arg) {
  char *end;
  long v = strtol(arg, &end, 10);
  return end != arg && *end == '\0' && v >= 0 && v <= 1L << 20 ? v : -1;
}

/* A uint32_t template argument (ScaleC), or -1 if it is none. */
static long long uint32_arg(const char *arg) {
  char *end;
  long long v = strtoll(arg, &end, 10);
  return end != arg && *end == '\0' && v >= 0 && v <= 0xFFFFFFFFLL ? v : -1;
}

static const char *const majors[] = {"K", "MN", NULL};
static const char *const scales[] = {"One", "Neg", NULL};
static const char *const saturates[] = {"False", "True", NULL};

/* An enumerator template argument: its spelling before the value, and
 * the values (CuTe's default first). */
typedef struct enum_kind {
  const char *prefix;
  const char *const *values;
} enum_kind;

static const enum_kind scale_in = {"UMMA::ScaleIn::", scales};
static const enum_kind saturate = {"UMMA::Saturate::", saturates};

/* The arguments after the seventh (the family's tail): into `extra`
 * (0 = CuTe's default), and their canonical text into `canon`, which
 * keeps arguments up to the last that differs from its default. */
static cl_status tail_args(const char *base, const umma_family *f, int fixed, char **arg, int n, int *extra,
                           char *canon, size_t cap) {
  const enum_kind *const scales_saturate[] = {&scale_in, &scale_in, &saturate};
  const enum_kind *const *kind = f->tail == TAIL_SATURATE ? scales_saturate + 2 : scales_saturate;
  int most = f->tail == TAIL_SCALES ? 2 : f->tail == TAIL_SATURATE ? 1 : 3;
  if (n > most)
    return cl_fail(CL_E_TYPE, "%s takes at most %d template arguments, not %d", base, fixed + most, fixed + n);
  int last = -1;
  for (int i = 0; i < n; i++) {
    extra[i] = cl_atom_enum_arg(arg[i], kind[i]->prefix, kind[i]->values);
    if (extra[i] < 0)
      return cl_fail(CL_E_TYPE, "%s: template argument %d must be %s%s or %s%s, not '%s'", base,
                     fixed + 1 + i, kind[i]->prefix, kind[i]->values[0], kind[i]->prefix, kind[i]->values[1], arg[i]);
    if (extra[i] != 0)
      last = i;
  }
  canon[0] = '\0';
  for (int i = 0; i <= last; i++) {
    size_t len = strlen(canon);
    snprintf(canon + len, cap - len, ",%s%s", kind[i]->prefix, kind[i]->values[extra[i]]);
  }
  return CL_OK;
}

/* MXF4's scale-vector sizes: this one for any types and scale factors, twice
 * it for float_e2m1_t with float_ue8m0_t (16 and 32; 32 and 64 sparse). */
static long free_vs(const umma_family *f) { return f->sparse ? 32 : 16; }

/* The static_asserts of CuTe's struct, traits and instruction descriptor
 * for M, N, the majors and the types, in the order CuTe checks them. */
/* The scale-factor type and vector size of a block-scaled kind: CuTe's
 * MXF4 traits and its block-scaled instruction descriptor. */
static cl_status check_scales(const char *base, const umma_family *f, char type[3][40], const char *sf, long vs) {
  bool ue8m0 = strcmp(sf, "float_ue8m0_t") == 0;
  long strict = 2 * free_vs(f);
  if (f->scaled == SCALED_SF_VS && vs == strict &&
      !(strcmp(type[0], "float_e2m1_t") == 0 && strcmp(type[1], "float_e2m1_t") == 0 && ue8m0))
    return cl_fail(CL_E_TYPE, "%s: VS = %ld needs A and B float_e2m1_t and scale factors float_ue8m0_t", base, strict);
  for (int i = 0; i < 2; i++)
    if (!ab_format(type[i]))
      return cl_fail(CL_E_TYPE, "%s: UMMA has no format for %s as %c", base, type[i], "AB"[i]);
  if (!ue8m0 && strcmp(sf, "float_ue4m3_t") != 0)
    return cl_fail(CL_E_TYPE, "%s: the scale-factor type must be float_ue8m0_t or float_ue4m3_t, not %s", base, sf);
  return CL_OK;
}

static cl_status check_instance(const char *base, const umma_family *f, char type[3][40], long m, long n,
                                int a_major, int b_major, const char *sf, long vs) {
  int64_t bits[3];
  for (int i = 0; i < 3; i++)
    CL_TRY(umma_type_bits(type[i], &bits[i]));
  if (f->c_int32 && strcmp(type[2], "int32_t") != 0)
    return cl_fail(CL_E_TYPE, "%s: the accumulator type C must be int32_t, not %s", base, type[2]);
  long m_lo = f->two_sm ? 128 : 64;
  if (f->m_only != 0 && m != f->m_only)
    return cl_fail(CL_E_TYPE, "%s: M must be %d, not %ld", base, f->m_only, m);
  if (m != m_lo && m != 2 * m_lo)
    return cl_fail(CL_E_TYPE, "%s: M must be %ld or %ld (%s), not %ld", base, m_lo, 2 * m_lo,
                   f->two_sm ? "a pair of CTAs" : "one CTA", m);
  long step = step_of_n(f, m, b_major == 1);
  if (!((f->n8 && n == 8) || (n % step == 0 && n >= step && n <= 256)))
    return cl_fail(CL_E_TYPE, "%s: N must be %sa multiple of %ld from %ld to 256%s, not %ld", base, f->n8 ? "8 or " : "",
                   step, step,
                   f->doubled == DOUBLE_M128   ? (m == 128 ? " when M is 128" : " when M is 64")
                   : f->doubled == DOUBLE_B_MN ? (b_major == 1 ? " when B is MN-major" : " when B is K-major")
                                               : "",
                   n);
  if (f->scaled == SCALED_SF_VS && vs != free_vs(f) && vs != 2 * free_vs(f))
    return cl_fail(CL_E_TYPE, "%s: the scale-vector size VS must be %ld or %ld, not %ld", base, free_vs(f),
                   2 * free_vs(f), vs);
  if (f->ts && a_major != 0)
    return cl_fail(CL_E_TYPE, "%s: A comes from tensor memory and must be K-major (UMMA::Major::K)", base);
  if (f->interleaved) /* its types are fixed; B too must be K-major */
    return b_major == 0 ? CL_OK
                        : cl_fail(CL_E_TYPE, "%s: B from shared memory must be K-major (UMMA::Major::K)", base);
  int special = complex_scaled(base, f, type);
  if (special != 0)
    return special < 0 ? (cl_status)special : CL_OK;
  if (!bits_allowed(f->bits, bits[0], bits[1]))
    return cl_fail(CL_E_TYPE, "%s: %s, not %s (%lld bits) and %s (%lld bits)", base, bits_rule_text(f->bits), type[0],
                   (long long)bits[0], type[1], (long long)bits[1]);
  if (f->scaled != SCALED_NOT) /* no format for C: the block-scaled descriptor has none */
    return check_scales(base, f, type, sf, vs);
  for (int i = 0; i < 2; i++)
    if (!ab_format(type[i]))
      return cl_fail(CL_E_TYPE, "%s: UMMA has no format for %s as %c", base, type[i], "AB"[i]);
  if (!c_format(type[2]))
    return cl_fail(CL_E_TYPE, "%s: the accumulator type C must be half_t, float or int32_t, not %s", base, type[2]);
  return CL_OK;
}

/* The family whose name follows "SM100_MMA_" in `base`, or NULL. */
static const umma_family *family_of(const char *base) {
  static const char prefix[] = "SM100_MMA_";
  if (strncmp(base, prefix, sizeof prefix - 1) != 0)
    return NULL;
  for (size_t i = 0; i < NFAMILIES; i++)
    if (strcmp(base + sizeof prefix - 1, families[i].name) == 0)
      return &families[i];
  return NULL;
}

static void fill_traits(const umma_family *f, long m, long n, const int64_t *bits, cl_mma_traits *t) {
  long k = f->bits == BITS_AT_MOST8 ? 32 : f->bits == BITS_4 ? 64 : 256 / bits[0];
  if (f->sparse)
    k *= 2; /* the instruction reads twice the K of A's stored values */
  snprintf(t->shape_mnk, sizeof t->shape_mnk, "(%ld,%ld,%ld)", m, n, k);
  if (f->two_sm) {
    snprintf(t->thr_id, sizeof t->thr_id, "2:1");
    snprintf(t->layout[0], sizeof t->layout[0], "(2,(%ld,%ld)):(%ld,(1,%ld))", m / 2, k, m / 2, m);
    snprintf(t->layout[1], sizeof t->layout[1], "(2,(%ld,%ld)):(%ld,(1,%ld))", n / 2, k, n / 2, n);
    snprintf(t->layout[2], sizeof t->layout[2], "(2,(%ld,%ld)):(%ld,(1,%ld))", m / 2, n, m / 2, m);
  } else {
    snprintf(t->thr_id, sizeof t->thr_id, "1:0");
    snprintf(t->layout[0], sizeof t->layout[0], "(1,(%ld,%ld)):(0,(1,%ld))", m, k, m);
    snprintf(t->layout[1], sizeof t->layout[1], "(1,(%ld,%ld)):(0,(1,%ld))", n, k, n);
    snprintf(t->layout[2], sizeof t->layout[2], "(1,(%ld,%ld)):(0,(1,%ld))", m, n, m);
  }
  memcpy(t->bits, bits, sizeof t->bits);
  if (f->sparse)
    t->bits[0] = bits[0] / 2; /* sparse_elem<2,A>: two values in one A's bits */
}

/* The comma-separated template arguments in `args` (split in place) into
 * arg[0..*n). */
static cl_status split_args(const char *base, char *args, char **arg, int cap, int *n) {
  *n = 0;
  for (char *tok = strtok(args, ","); tok != NULL; tok = strtok(NULL, ",")) {
    if (*n == cap)
      return cl_fail(CL_E_TYPE, "%s: too many template arguments", base);
    arg[(*n)++] = tok;
  }
  return CL_OK;
}

int cl_umma_lookup(const char *name, cl_mma_traits *t) {
  char base[64], args[256];
  const char *lt = strchr(name, '<');
  size_t blen = lt != NULL ? (size_t)(lt - name) : strlen(name);
  if (blen >= sizeof base)
    return 0;
  memcpy(base, name, blen);
  base[blen] = '\0';
  const umma_family *f = family_of(base);
  if (f == NULL)
    return 0;
  size_t alen = lt != NULL ? strlen(lt) : 0;
  if (lt == NULL || alen < 2 || lt[alen - 1] != '>' || alen - 2 >= sizeof args)
    return cl_fail(CL_E_TYPE, "%s needs its template arguments: %s<%sM,N,UMMA::Major::K,UMMA::Major::K>", base, base,
                   f->interleaved ? "" : "A,B,C,");
  memcpy(args, lt + 1, alen - 2);
  args[alen - 2] = '\0';
  char *arg[16];
  int n;
  CL_TRY(split_args(base, args, arg, 16, &n));
  /* A,B,C[,SF],M,N[,VS],a_major,b_major (the interleaved kinds: no A,B,C) */
  int ntypes = f->interleaved ? 0 : 3;
  int sf_at = f->scaled != SCALED_NOT ? 3 : -1, m_at = ntypes + (sf_at > 0),
      vs_at = f->scaled == SCALED_SF_VS ? m_at + 2 : -1;
  int major_at = m_at + 2 + (vs_at > 0), fixed = major_at + 2 + f->scale_c;
  if (n < fixed)
    return cl_fail(CL_E_TYPE, "%s needs at least %d template arguments (%s%sM,N,%sa_major,b_major%s), not %d", base,
                   fixed, ntypes > 0 ? "A,B,C," : "", sf_at > 0 ? "SF," : "", vs_at > 0 ? "VS," : "",
                   f->scale_c ? ",ScaleC" : "", n);
  static const char *const complex_tf32[3] = {"cutlass::complex<tfloat32_t>", "cutlass::complex<tfloat32_t>", "float"};
  char type[3][40];
  for (int i = 0; i < 3; i++) {
    const char *ty = f->interleaved ? complex_tf32[i] : arg[i];
    if (snprintf(type[i], sizeof type[i], "%s", ty) >= (int)sizeof type[i])
      return cl_fail(CL_E_DOMAIN, "unknown element type '%s'", ty);
  }
  long m = int_arg(arg[m_at]), nn = int_arg(arg[m_at + 1]), vs = vs_at > 0 ? int_arg(arg[vs_at]) : 0;
  if (m < 0 || nn < 0 || vs < 0)
    return cl_fail(CL_E_TYPE, "%s: M, N%s (template arguments %d, %d%s) must be integers", base, vs_at > 0 ? " and VS" : "",
                   m_at + 1, m_at + 2, vs_at > 0 ? ", 7" : "");
  int major[2];
  for (int i = 0; i < 2; i++) {
    major[i] = cl_atom_enum_arg(arg[major_at + i], "UMMA::Major::", majors);
    if (major[i] < 0)
      return cl_fail(CL_E_TYPE, "%s: template argument %d must be UMMA::Major::K or UMMA::Major::MN, not '%s'", base,
                     major_at + 1 + i, arg[major_at + i]);
  }
  char scale_c[24] = ""; /* ",", a uint32_t, NUL; sized for any long long so that -Wformat-truncation can prove it */
  if (f->scale_c) {
    long long c = uint32_arg(arg[major_at + 2]);
    if (c < 0)
      return cl_fail(CL_E_TYPE, "%s: template argument %d (ScaleC) must be a uint32_t, not '%s'", base, major_at + 3,
                     arg[major_at + 2]);
    snprintf(scale_c, sizeof scale_c, ",%lld", c);
  }
  int extra[3];
  char tail[96];
  CL_TRY(tail_args(base, f, fixed, arg + fixed, n - fixed, extra, tail, sizeof tail));
  const char *sf = sf_at > 0 ? arg[sf_at] : "";
  CL_TRY(check_instance(base, f, type, m, nn, major[0], major[1], sf, vs));
  char sf_arg[48] = "", vs_arg[24] = "";
  if (sf_at > 0)
    snprintf(sf_arg, sizeof sf_arg, "%.40s,", sf);
  if (vs_at > 0)
    snprintf(vs_arg, sizeof vs_arg, ",%ld", vs);
  char types[128] = "";
  if (!f->interleaved)
    snprintf(types, sizeof types, "%s,%s,%s,", type[0], type[1], type[2]);
  if (snprintf(t->name, sizeof t->name, "%s<%s%s%ld,%ld%s,UMMA::Major::%s,UMMA::Major::%s%s%s>", base, types, sf_arg, m,
               nn, vs_arg, majors[major[0]], majors[major[1]], scale_c, tail) >= (int)sizeof t->name)
    return cl_fail(CL_E_LIMIT, "name too long: '%.40s...'", name);
  int64_t bits[3];
  for (int i = 0; i < 3; i++)
    CL_TRY(umma_type_bits(type[i], &bits[i]));
  fill_traits(f, m, nn, bits, t);
  return 1;
}
