/* SPDX-License-Identifier: BSD-3-Clause */
/* atom_gmma.c: SM90's warpgroup MMAs (GMMA) and their shared-memory layout
 * atoms.
 *
 * CuTe names a GMMA SM90_64xNxK_<types>_{SS,RS}[_TN][_SATURATE]: one row of
 * the table below per family of types, with N (a multiple of 8 up to 256)
 * as the parameter.  Their traits follow from M = 64, N and K:
 *
 *   ThrID    128:1                       (a warpgroup)
 *   A (SS)   (128,(64,K)):(0,(1,64))     every thread sees the whole tile
 *   A (RS)   the registers of one K step (a_register_layouts below)
 *   B        (128,(N,K)):(0,(1,N))
 *   C        ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512))
 *
 * (CuTe's GMMA::ABLayout<M,K>, ALayout_64xK and CLayout_64xN.)
 *
 * The sparse GMMAs, SM90::GMMA::SPARSE::GMMA_64xNxK_<types>_{SS,RS}[...],
 * are the same families with A's K doubled (A holds 2:4 structured-sparse
 * values, half of them stored, so CuTe's ValTypeA sparse_elem<2,T> has half
 * T's bits), one more template argument (GMMA::SparseSel, which metadata
 * lanes the instruction reads) and the same layouts for that K.  Their
 * metadata operand E has no place among the A, B and C layouts here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atom_impl.h"
#include "tuple_impl.h"

typedef enum gmma_args {
  ARGS_MAJORS, /* <GMMA::Major tnspA, GMMA::Major tnspB, ScaleIn = One, ScaleIn = One> */
  ARGS_SCALES, /* <ScaleIn = One, ScaleIn = One> */
  ARGS_NONE    /* no template */
} gmma_args;

typedef struct gmma_family {
  const char *types;  /* D, A, B as in the name: F32F16F16 */
  const char *suffix; /* after _SS / _RS */
  int k;
  int bits_a, bits_b, bits_c;
  gmma_args args;
  int sparse_n; /* N is 8, 16, 24, 32, then a multiple of 16 */
} gmma_family;

static const gmma_family families[] = {
  {"F16F16F16", "", 16, 16, 16, 16, ARGS_MAJORS, 0},
  {"F32F16F16", "", 16, 16, 16, 32, ARGS_MAJORS, 0},
  {"F32BF16BF16", "", 16, 16, 16, 32, ARGS_MAJORS, 0},
  {"F32TF32TF32", "_TN", 8, 32, 32, 32, ARGS_SCALES, 0},
  {"F16E4M3E4M3", "_TN", 32, 8, 8, 16, ARGS_SCALES, 0},
  {"F16E4M3E5M2", "_TN", 32, 8, 8, 16, ARGS_SCALES, 0},
  {"F16E5M2E4M3", "_TN", 32, 8, 8, 16, ARGS_SCALES, 0},
  {"F16E5M2E5M2", "_TN", 32, 8, 8, 16, ARGS_SCALES, 0},
  {"F32E4M3E4M3", "_TN", 32, 8, 8, 32, ARGS_SCALES, 0},
  {"F32E4M3E5M2", "_TN", 32, 8, 8, 32, ARGS_SCALES, 0},
  {"F32E5M2E4M3", "_TN", 32, 8, 8, 32, ARGS_SCALES, 0},
  {"F32E5M2E5M2", "_TN", 32, 8, 8, 32, ARGS_SCALES, 0},
  {"S32S8S8", "_TN", 32, 8, 8, 32, ARGS_NONE, 1},
  {"S32S8S8", "_TN_SATURATE", 32, 8, 8, 32, ARGS_NONE, 1},
  {"S32S8U8", "_TN", 32, 8, 8, 32, ARGS_NONE, 1},
  {"S32S8U8", "_TN_SATURATE", 32, 8, 8, 32, ARGS_NONE, 1},
  {"S32U8S8", "_TN", 32, 8, 8, 32, ARGS_NONE, 1},
  {"S32U8S8", "_TN_SATURATE", 32, 8, 8, 32, ARGS_NONE, 1},
  {"S32U8U8", "_TN", 32, 8, 8, 32, ARGS_NONE, 1},
  {"S32U8U8", "_TN_SATURATE", 32, 8, 8, 32, ARGS_NONE, 1},
};
#define NFAMILIES (sizeof families / sizeof families[0])

/* The A registers of an RS GMMA, by K (CuTe's ALayout_64x8/16/32). */
static const char *a_register_layout(int k) {
  switch (k) {
  case 8:
    return "((4,8,4),(2,2)):((64,1,16),(8,256))";
  case 16:
    return "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))";
  case 32:
    return "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))";
  default: /* 64: the sparse 8-bit GMMAs */
    return "((4,8,4),(8,2,2)):((512,1,16),(64,8,2048))";
  }
}

static bool n_allowed(const gmma_family *f, long n) {
  if (n < 8 || n > 256 || n % 8 != 0)
    return false;
  return !f->sparse_n || n <= 32 || n % 16 == 0;
}

const char *cl_gmma_example(int64_t i) {
  static const char *const examples[] = {
    "SM90_64x128x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x128x16_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x128x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x128x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x128x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x128x8_F32TF32TF32_SS_TN", "SM90_64x128x8_F32TF32TF32_RS_TN",
    "SM90_64x128x32_F32E4M3E4M3_SS_TN", "SM90_64x128x32_F16E4M3E4M3_SS_TN",
    "SM90_64x128x32_F32E4M3E4M3_RS_TN", "SM90_64x128x32_S32S8S8_SS_TN", "SM90_64x128x32_S32S8S8_RS_TN",
    "SM90::GMMA::SPARSE::GMMA_64x128x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90::GMMA::SPARSE::GMMA_64x128x32_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90::GMMA::SPARSE::GMMA_64x128x32_F32BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90::GMMA::SPARSE::GMMA_64x128x32_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>",
    "SM90::GMMA::SPARSE::GMMA_64x128x16_F32TF32TF32_SS_TN", "SM90::GMMA::SPARSE::GMMA_64x128x64_F32E4M3E4M3_SS_TN",
    "SM90::GMMA::SPARSE::GMMA_64x128x64_S32S8S8_SS_TN", "SM90::GMMA::SPARSE::GMMA_64x128x64_S32S8S8_RS_TN",
    NULL,
  };
  return i < (int64_t)(sizeof examples / sizeof examples[0]) ? examples[i] : NULL;
}

static const char *const majors[] = {"K", "MN", NULL};
static const char *const scales[] = {"One", "Neg", NULL};
static const char *const spsels[] = {"Zero", "One", NULL};

/* The kinds of template argument a GMMA takes, in order. */
typedef enum gmma_arg { ARG_MAJOR, ARG_SCALE, ARG_SPSEL } gmma_arg;

static const char *const arg_prefix[] = {"GMMA::Major::", "GMMA::ScaleIn::", "GMMA::SparseSel::"};
static const char *const *const arg_values[] = {majors, scales, spsels};
static const char *const arg_expected[] = {"GMMA::Major::K or GMMA::Major::MN",
                                           "GMMA::ScaleIn::One or GMMA::ScaleIn::Neg",
                                           "GMMA::SparseSel::Zero or GMMA::SparseSel::One"};

/* The template parameters of a family's struct: majors (ARGS_MAJORS), the
 * scales (all but ARGS_NONE), the sparse selector (sparse ones). */
static int template_params(const gmma_family *f, bool sparse, gmma_arg kind[5]) {
  int n = 0;
  if (f->args == ARGS_MAJORS) {
    kind[n++] = ARG_MAJOR;
    kind[n++] = ARG_MAJOR;
  }
  if (f->args != ARGS_NONE) {
    kind[n++] = ARG_SCALE;
    kind[n++] = ARG_SCALE;
  }
  if (sparse)
    kind[n++] = ARG_SPSEL;
  return n;
}

/* The canonical template text: the majors always, the scales when they or
 * the sparse selector are not the defaults, the selector when it is not. */
static void canonical_template(const gmma_arg *kind, const int *value, int nparams, char *canon, size_t cap) {
  int last = -1; /* the last argument printed */
  for (int i = 0; i < nparams; i++)
    if (kind[i] == ARG_MAJOR || value[i] != 0)
      last = kind[i] == ARG_SCALE ? i | 1 : i; /* both scales or none */
  canon[0] = '\0';
  size_t len = 0;
  for (int i = 0; i <= last && len < cap; i++)
    len += (size_t)snprintf(canon + len, cap - len, "%s%s%s", i == 0 ? "<" : ",", arg_prefix[kind[i]],
                            arg_values[kind[i]][value[i]]);
  if (last >= 0 && len < cap)
    snprintf(canon + len, cap - len, ">");
}

/* The template arguments of a GMMA, checked against its struct's
 * parameters and asserts, into the canonical text `canon` (empty for
 * none). */
static cl_status gmma_template(const char *base, const gmma_family *f, bool sparse, bool rs, char *args, char *canon,
                               size_t cap) {
  gmma_arg kind[5];
  int nparams = template_params(f, sparse, kind);
  char *arg[6];
  int n = 0;
  if (args[0] != '\0')
    for (char *tok = strtok(args, ","); tok != NULL; tok = strtok(NULL, ",")) {
      if (n == nparams)
        return nparams == 0 ? cl_fail(CL_E_TYPE, "%s takes no template arguments", base)
                            : cl_fail(CL_E_TYPE, "%s takes at most %d template arguments", base, nparams);
      arg[n++] = tok;
    }
  if (f->args == ARGS_MAJORS && n < 2)
    return cl_fail(CL_E_TYPE, "%s needs the major modes of A and B: %s<GMMA::Major::K,GMMA::Major::K>", base, base);
  int value[5] = {0, 0, 0, 0, 0};
  for (int i = 0; i < n; i++) {
    value[i] = cl_atom_enum_arg(arg[i], arg_prefix[kind[i]], arg_values[kind[i]]);
    if (value[i] < 0)
      return cl_fail(CL_E_TYPE, "%s: template argument %d must be %s, not '%s'", base, i + 1, arg_expected[kind[i]],
                     arg[i]);
  }
  if (rs && f->args == ARGS_MAJORS && value[0] != 0)
    return cl_fail(CL_E_TYPE, "%s: register source operand A must have K major layout (GMMA::Major::K)", base);
  canonical_template(kind, value, nparams, canon, cap);
  return CL_OK;
}

/* The name after SM90_ or SM90::GMMA::SPARSE::GMMA_ (64xNxK_...), split
 * into its base and its template arguments; false when it is no GMMA
 * name. */
static bool split_name(const char *name, char *base, size_t base_cap, char *args, size_t args_cap) {
  const char *lt = strchr(name, '<');
  size_t blen = lt != NULL ? (size_t)(lt - name) : strlen(name);
  if (blen >= base_cap)
    return false;
  memcpy(base, name, blen);
  base[blen] = '\0';
  args[0] = '\0';
  if (lt != NULL) {
    size_t alen = strlen(lt);
    if (alen < 2 || lt[alen - 1] != '>' || alen - 2 >= args_cap)
      return false;
    memcpy(args, lt + 1, alen - 2);
    args[alen - 2] = '\0';
  }
  return true;
}

static const char sparse_prefix[] = "SM90::GMMA::SPARSE::GMMA_";

int cl_gmma_lookup(const char *name, cl_mma_traits *t) {
  bool sparse = strncmp(name, sparse_prefix, sizeof sparse_prefix - 1) == 0;
  const char *shape = sparse ? name + sizeof sparse_prefix - 1 : strncmp(name, "SM90_", 5) == 0 ? name + 5 : NULL;
  long n, k;
  int used = 0;
  if (shape == NULL || sscanf(shape, "64x%ldx%ld_%n", &n, &k, &used) != 2 || used == 0)
    return 0;
  char base[128], args[192];
  if (!split_name(name, base, sizeof base, args, sizeof args))
    return 0;
  const char *rest = base + (shape - name) + used;
  for (size_t i = 0; i < NFAMILIES; i++) {
    const gmma_family *f = &families[i];
    size_t tl = strlen(f->types);
    if (strncmp(rest, f->types, tl) != 0 || rest[tl] != '_')
      continue;
    const char *mode = rest + tl + 1;
    bool rs = strncmp(mode, "RS", 2) == 0;
    if (!rs && strncmp(mode, "SS", 2) != 0)
      continue;
    if (strcmp(mode + 2, f->suffix) != 0)
      continue;
    long family_k = sparse ? 2L * f->k : f->k;
    if (k != family_k || !n_allowed(f, n))
      return 0;
    char canon[128];
    CL_TRY(gmma_template(base, f, sparse, rs, args, canon, sizeof canon));
    if (snprintf(t->name, sizeof t->name, "%s%s", base, canon) >= (int)sizeof t->name)
      return 0; /* longer than any name CuTe has */
    snprintf(t->thr_id, sizeof t->thr_id, "128:1");
    snprintf(t->shape_mnk, sizeof t->shape_mnk, "(64,%ld,%ld)", n, k);
    if (rs)
      snprintf(t->layout[0], sizeof t->layout[0], "%s", a_register_layout((int)k));
    else
      snprintf(t->layout[0], sizeof t->layout[0], "(128,(64,%ld)):(0,(1,64))", k);
    snprintf(t->layout[1], sizeof t->layout[1], "(128,(%ld,%ld)):(0,(1,%ld))", n, k, n);
    snprintf(t->layout[2], sizeof t->layout[2], "((4,8,4),(2,2,%ld)):((128,1,16),(64,8,512))", n / 8);
    /* sparse_elem<2,T>: two values of T in the bits of one stored */
    t->bits[0] = sparse ? f->bits_a / 2 : f->bits_a;
    t->bits[1] = f->bits_b;
    t->bits[2] = f->bits_c;
    return 1;
  }
  return 0;
}

/* ------------------------------------------------------------ smem atoms */

/* GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>: 8 rows of 16 << B
 * bytes (B = 0 for INTER, 1 for SW32, ...), K-major (rows along K) or
 * MN-major, under Swizzle<B,4,3> of byte addresses.  In elements of T the
 * swizzle's base is the 16-byte unit: log2(128 / bits). */
cl_status cl_gmma_smem_atom(const char *name, int32_t *swizzle_bits, int32_t *swizzle_base, int32_t *swizzle_shift,
                            cl_layout_t **out) {
  CHECK_OUT(out);
  CHECK_NULL(name);
  CHECK_NULL(swizzle_bits);
  CHECK_NULL(swizzle_base);
  CHECK_NULL(swizzle_shift);
  char major[4], sw[8], type[40];
  int used = 0;
  if (sscanf(name, "GMMA::Layout_%3[KMN]_%7[A-Z0-9]_Atom<%39[a-z0-9_]>%n", major, sw, type, &used) != 3 ||
      name[used] != '\0' || (strcmp(major, "K") != 0 && strcmp(major, "MN") != 0))
    return cl_fail(CL_E_DOMAIN, "unknown shared-memory layout atom '%s'", name);
  static const char *const swizzles[] = {"INTER", "SW32", "SW64", "SW128"};
  int b = -1;
  for (int i = 0; i < 4; i++)
    if (strcmp(sw, swizzles[i]) == 0)
      b = i;
  if (b < 0)
    return cl_fail(CL_E_DOMAIN, "unknown shared-memory layout atom '%s' (the swizzle is INTER, SW32, SW64 or SW128)", name);
  int64_t bits;
  CL_TRY(cl_atom_type_bits(type, &bits));
  if (bits > 128 || (bits & (bits - 1)) != 0)
    return cl_fail(CL_E_TYPE, "%s: a %lld-bit type does not divide the atom's 16-byte unit", name, (long long)bits);
  int log_bits = 0;
  while ((1 << log_bits) < bits)
    log_bits++;
  long row = (128L << b) / bits; /* elements in a row of 16 << b bytes */
  char text[64];
  if (major[0] == 'K')
    snprintf(text, sizeof text, "(8,%ld):(%ld,1)", row, row);
  else
    snprintf(text, sizeof text, "(%ld,8):(1,%ld)", row, row);
  CL_TRY(cl_layout_parse(text, out));
  *swizzle_bits = b;
  *swizzle_base = 7 - log_bits;
  *swizzle_shift = 3;
  return CL_OK;
}
