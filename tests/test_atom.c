/* SPDX-License-Identifier: BSD-3-Clause */
/* test_atom.c: the atom catalog, tiled MMAs and tiled copies (atom.h).
 *
 * The catalog's invariants are checked on every entry: each thread-value
 * layout has one row per thread of ThrID and stays inside its operand's
 * tile, C (every thread writes distinct elements) is injective, and a copy's
 * sides move whole values of the element type.  Tiled MMAs and copies are
 * checked by their defining properties (a tiled C layout is a bijection onto
 * the tile; a partition of a tensor is a view of the same memory); CuTe's
 * exact answers are in tests/cute_atoms.tsv. */
#include "test_util.h"

static cl_mma_atom_t *mma(const char *name) {
  cl_mma_atom_t *a = NULL;
  if (cl_mma_atom_new(name, &a) != CL_OK)
    fail_msg("%s: %s", name, cl_last_error());
  return a;
}

static cl_copy_atom_t *copy_atom(const char *op, const char *type) {
  cl_copy_atom_t *a = NULL;
  if (cl_copy_atom_new(op, type, &a) != CL_OK)
    fail_msg("copy_atom(%s,%s): %s", op, type, cl_last_error());
  return a;
}

static int64_t mode_size(const cl_layout_t *l, int64_t i) {
  cl_layout_t *m = NULL;
  assert_int_equal(cl_layout_get(l, &i, 1, &m), CL_OK);
  int64_t n = cl_layout_size(m);
  cl_layout_free(m);
  return n;
}

/* Every value of l lies in [0, cosize_bound); injective: no value twice. */
static void check_codomain(const cl_layout_t *l, int64_t bound, bool injective, const char *what) {
  int64_t n = cl_layout_size(l);
  unsigned char *seen = calloc((size_t)bound, 1);
  assert_non_null(seen);
  for (int64_t i = 0; i < n; i++) {
    int64_t v;
    assert_int_equal(cl_layout_eval(l, i, &v), CL_OK);
    if (v < 0 || v >= bound)
      fail_msg("%s: value %lld at %lld outside the tile of %lld", what, (long long)v, (long long)i, (long long)bound);
    if (injective && seen[v])
      fail_msg("%s: value %lld twice", what, (long long)v);
    seen[v] = 1;
  }
  free(seen);
}

static int64_t tuple_at(const cl_tuple_t *t, int64_t i) {
  cl_tuple_t *e = NULL;
  int64_t v;
  assert_int_equal(cl_tuple_get(t, &i, 1, &e), CL_OK);
  assert_int_equal(cl_tuple_product(e, &v), CL_OK);
  cl_tuple_free(e);
  return v;
}

static void check_mma_atom(const char *name) {
  cl_mma_atom_t *a = mma(name);
  cl_layout_t *thr = NULL, *tv[3] = {NULL, NULL, NULL};
  cl_tuple_t *mnk = NULL;
  assert_int_equal(cl_mma_atom_thr_id(a, &thr), CL_OK);
  assert_int_equal(cl_mma_atom_shape_mnk(a, &mnk), CL_OK);
  int64_t m = tuple_at(mnk, 0), n = tuple_at(mnk, 1), k = tuple_at(mnk, 2);
  int64_t tiles[3] = {m * k, n * k, m * n};
  for (int op = 0; op < 3; op++) {
    cl_status s = cl_mma_atom_layout_tv(a, (cl_mma_operand)op, &tv[op]);
    if (op == 0 && strstr(name, "_16x8x128_S32U1U1S32_TN_") != NULL) {
      /* CuTe's A of these is no layout: an error naming the condition */
      assert_int_equal(s, CL_E_TYPE);
      assert_non_null(strstr(cl_last_error(), "((4,8),(32,2)):((512,1),((16,8))) is not a layout"));
      assert_null(tv[op]);
      continue;
    }
    assert_int_equal(s, CL_OK);
    if (mode_size(tv[op], 0) != cl_layout_size(thr))
      fail_msg("%s: operand %c has %lld threads, ThrID %lld", name, "ABC"[op], (long long)mode_size(tv[op], 0),
               (long long)cl_layout_size(thr));
    check_codomain(tv[op], tiles[op], op == 2, name);
    assert_true(cl_mma_atom_value_bits(a, (cl_mma_operand)op) > 0);
  }
  /* C covers the whole tile: each element is some thread's value */
  assert_int_equal(cl_layout_size(tv[2]), m * n);
  char buf[256];
  assert_true(cl_mma_atom_format(a, buf, sizeof buf) > 0);
  cl_mma_atom_t *again = mma(buf); /* the canonical name names the same atom */
  cl_mma_atom_free(again);
  for (int op = 0; op < 3; op++)
    cl_layout_free(tv[op]);
  cl_layout_free(thr);
  cl_tuple_free(mnk);
  cl_mma_atom_free(a);
}

static void catalog_mma_invariants(void **state) {
  (void)state;
  int64_t count = 0;
  for (int64_t i = 0; cl_atom_catalog_name(CL_ATOM_MMA, i) != NULL; i++, count++)
    check_mma_atom(cl_atom_catalog_name(CL_ATOM_MMA, i));
  assert_true(count > 170);
  /* every N of a GMMA family, SS and RS */
  for (int n = 8; n <= 256; n += 8) {
    char name[128];
    snprintf(name, sizeof name, "SM90_64x%dx16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>", n);
    check_mma_atom(name);
    snprintf(name, sizeof name, "SM90_64x%dx32_F32E4M3E5M2_RS_TN", n);
    check_mma_atom(name);
  }
  assert_null(cl_atom_catalog_name(CL_ATOM_MMA, -1));
  assert_null(cl_atom_catalog_name((cl_atom_family)9, 0));
}

/* SM90 sparse GMMA: every N CuTe defines for a family keeps the invariants
 * (A's tile M x K with K twice the dense family's); the N it lacks, a dense
 * K, A of an RS in MN and a misplaced selector are errors. */
static void sparse_gmma(void **state) {
  (void)state;
  int found_f16 = 0, found_s8 = 0;
  for (int n = 8; n <= 264; n += 8) {
    char f16[160], s8[160];
    snprintf(f16, sizeof f16, "SM90::GMMA::SPARSE::GMMA_64x%dx32_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::MN>", n);
    snprintf(s8, sizeof s8, "SM90::GMMA::SPARSE::GMMA_64x%dx64_S32U8U8_SS_TN_SATURATE", n);
    cl_mma_atom_t *a = NULL;
    if (cl_mma_atom_new(f16, &a) == CL_OK) {
      found_f16++;
      check_mma_atom(f16);
      /* sparse_elem<2,bfloat16_t>: two values in 16 bits */
      assert_int_equal(cl_mma_atom_value_bits(a, CL_OPERAND_A), 8);
      assert_int_equal(cl_mma_atom_value_bits(a, CL_OPERAND_B), 16);
    }
    cl_mma_atom_free(a);
    a = NULL;
    cl_status s = cl_mma_atom_new(s8, &a);
    if (s == CL_OK) {
      found_s8++;
      check_mma_atom(s8);
      assert_int_equal(cl_mma_atom_value_bits(a, CL_OPERAND_A), 4);
    } else {
      assert_int_equal(s, CL_E_DOMAIN); /* no such N: an unknown name */
    }
    cl_mma_atom_free(a);
  }
  /* CuTe's headers: N = 8..256 by 8; the 8-bit ones 8, 16, 24, 32, then by 16 */
  assert_int_equal(found_f16, 32);
  assert_int_equal(found_s8, 18);
  check_mma_atom("SM90::GMMA::SPARSE::GMMA_64x40x16_F32TF32TF32_RS_TN");
  check_mma_atom("SM90::GMMA::SPARSE::GMMA_64x64x64_F32E4M3E4M3_SS_TN<GMMA::ScaleIn::Neg,GMMA::ScaleIn::Neg>");

  /* the canonical name: defaults dropped, a selector keeps the scales before it */
  static const struct {
    const char *in, *canon;
  } names[] = {
    {"SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN,GMMA::ScaleIn::One,GMMA::ScaleIn::One,"
     "GMMA::SparseSel::Zero>",
     "SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN>"},
    {"SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN,GMMA::ScaleIn::One,GMMA::ScaleIn::One,"
     "GMMA::SparseSel::One>",
     "SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN,GMMA::ScaleIn::One,GMMA::ScaleIn::One,"
     "GMMA::SparseSel::One>"},
    {"SM90::GMMA::SPARSE::GMMA_64x8x16_F32TF32TF32_SS_TN<GMMA::ScaleIn::One,GMMA::ScaleIn::Neg>",
     "SM90::GMMA::SPARSE::GMMA_64x8x16_F32TF32TF32_SS_TN<GMMA::ScaleIn::One,GMMA::ScaleIn::Neg>"},
    {"SM90::GMMA::SPARSE::GMMA_64x8x16_F32TF32TF32_SS_TN<GMMA::ScaleIn::One>", "SM90::GMMA::SPARSE::GMMA_64x8x16_F32TF32TF32_SS_TN"},
    {"SM90::GMMA::SPARSE::GMMA_64x32x64_S32S8S8_RS_TN<GMMA::SparseSel::One>",
     "SM90::GMMA::SPARSE::GMMA_64x32x64_S32S8S8_RS_TN<GMMA::SparseSel::One>"},
    {"SM90::GMMA::SPARSE::GMMA_64x32x64_S32S8S8_RS_TN<GMMA::SparseSel::Zero>", "SM90::GMMA::SPARSE::GMMA_64x32x64_S32S8S8_RS_TN"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    cl_mma_atom_t *a = mma(names[i].in);
    char buf[256];
    assert_true(cl_mma_atom_format(a, buf, sizeof buf) > 0);
    assert_string_equal(buf, names[i].canon);
    cl_mma_atom_free(a);
  }

  cl_mma_atom_t *a = (cl_mma_atom_t *)1;
  /* the dense K under the sparse name, and an N the 8-bit family lacks */
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x64x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", &a),
                   CL_E_DOMAIN);
  assert_null(a);
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x40x64_S32S8S8_SS_TN", &a), CL_E_DOMAIN);
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_RS<GMMA::Major::MN,GMMA::Major::K>", &a),
                   CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "K major"));
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K,"
                                   "GMMA::SparseSel::One>",
                                   &a),
                   CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "GMMA::ScaleIn::One or GMMA::ScaleIn::Neg"));
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x64x64_S32S8S8_SS_TN<GMMA::SparseSel::Two>", &a), CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "GMMA::SparseSel::Zero or GMMA::SparseSel::One"));
  assert_int_equal(
      cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x64x64_S32S8S8_SS_TN<GMMA::SparseSel::One,GMMA::SparseSel::One>", &a),
      CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "at most 1 template arguments"));
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS", &a), CL_E_TYPE);
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS<GMMA::Major::K", &a), CL_E_DOMAIN);
  assert_int_equal(cl_mma_atom_new("SM90::GMMA::SPARSE::GMMA_", &a), CL_E_DOMAIN);
  /* longer than any GMMA name before its template arguments: unknown; longer
   * than any atom's name: a limit */
  char longer[400];
  snprintf(longer, sizeof longer, "SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS%090d", 0);
  assert_int_equal(cl_mma_atom_new(longer, &a), CL_E_DOMAIN);
  snprintf(longer, sizeof longer, "SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K,%0250d>", 0);
  assert_int_equal(cl_mma_atom_new(longer, &a), CL_E_LIMIT);
  assert_null(a);
}

/* SM120's sparse warp MMAs: A of K 64 (128 block-scaled 4-bit) in sparse_elem
 * values, B as CuTe's traits declare it (uint8_t, uint4_t), whatever the
 * types; a type pair or VS the instruction lacks is an unknown name. */
static void sparse_sm120(void **state) {
  (void)state;
  static const struct {
    const char *name;
    int64_t k, bits_a, bits_b, bits_c;
  } atoms[] = {
    {"SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e2m1_t,float_e4m3_t,half_t>", 64, 2, 8, 16},
    {"SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e5m2_t,float_e2m3_t,float>", 64, 4, 8, 32},
    {"SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,64>", 64, 4, 8, 32},
    {"SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,32>", 128, 2, 4, 32},
  };
  for (size_t i = 0; i < sizeof atoms / sizeof atoms[0]; i++) {
    check_mma_atom(atoms[i].name);
    cl_mma_atom_t *a = mma(atoms[i].name);
    cl_tuple_t *mnk = NULL;
    assert_int_equal(cl_mma_atom_shape_mnk(a, &mnk), CL_OK);
    assert_int_equal(tuple_at(mnk, 2), atoms[i].k);
    assert_int_equal(cl_mma_atom_value_bits(a, CL_OPERAND_A), atoms[i].bits_a);
    assert_int_equal(cl_mma_atom_value_bits(a, CL_OPERAND_B), atoms[i].bits_b);
    assert_int_equal(cl_mma_atom_value_bits(a, CL_OPERAND_C), atoms[i].bits_c);
    cl_tuple_free(mnk);
    cl_mma_atom_free(a);
  }
  cl_mma_atom_t *a = NULL;
  assert_int_equal(cl_mma_atom_new("SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,double>", &a),
                   CL_E_DOMAIN);
  assert_int_equal(cl_mma_atom_new("SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<float_e4m3_t,float_e4m3_t,"
                                   "float,float_ue8m0_t,32>",
                                   &a),
                   CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "unknown MMA atom"));
  assert_null(a);
}

/* SM100 UMMA: every M and N (in steps of 8) and majors of a family; the
 * instances CuTe accepts (counted from its asserts) keep the invariants. */
static int umma_accepted_vs(const char *kind, const char *types, const char *after_n) {
  static const char *const majors[] = {"K", "MN"};
  int accepted = 0;
  for (int m = 32; m <= 256; m *= 2)
    for (int n = 8; n <= 264; n += 8)
      for (int ab = 0; ab < 4; ab++) {
        char name[192];
        snprintf(name, sizeof name, "SM100_MMA_%s<%s,%d,%d%s,UMMA::Major::%s,UMMA::Major::%s>", kind, types, m, n,
                 after_n, majors[ab >> 1], majors[ab & 1]);
        cl_mma_atom_t *a = NULL;
        cl_status s = cl_mma_atom_new(name, &a);
        if (s != CL_OK) {
          assert_int_equal(s, CL_E_TYPE);
          assert_null(a);
          continue;
        }
        cl_mma_atom_free(a);
        check_mma_atom(name);
        accepted++;
      }
  return accepted;
}

static int umma_accepted(const char *kind, const char *types) { return umma_accepted_vs(kind, types, ""); }

/* SM100's _SCALED kinds: the instances (M, N by 8, majors, ScaleC 5) CuTe
 * accepts keep the invariants and are as many as the dense kind's; ScaleC
 * is part of the canonical name. */
static int umma_scaled_accepted(const char *kind, const char *types) {
  static const char *const majors[] = {"K", "MN"};
  int accepted = 0;
  for (int m = 32; m <= 256; m *= 2)
    for (int n = 8; n <= 264; n += 8)
      for (int ab = 0; ab < 4; ab++) {
        char name[192];
        snprintf(name, sizeof name, "SM100_MMA_%s<%s,%d,%d,UMMA::Major::%s,UMMA::Major::%s,5>", kind, types, m, n,
                 majors[ab >> 1], majors[ab & 1]);
        cl_mma_atom_t *a = NULL;
        cl_status s = cl_mma_atom_new(name, &a);
        if (s != CL_OK) {
          assert_int_equal(s, CL_E_TYPE);
          continue;
        }
        accepted++;
        char buf[256];
        assert_true(cl_mma_atom_format(a, buf, sizeof buf) > 0);
        assert_string_equal(buf, name);
        cl_mma_atom_free(a);
        if (n % 64 == 0)
          check_mma_atom(name);
      }
  return accepted;
}

static void umma_scaled(void **state) {
  (void)state;
  assert_int_equal(umma_scaled_accepted("F16BF16_SS_SCALED", "half_t,half_t,float"), 2 * 32 * 4);
  assert_int_equal(umma_scaled_accepted("F16BF16_TS_SCALED", "bfloat16_t,bfloat16_t,float"), (32 + 16) * 2);
  assert_int_equal(umma_scaled_accepted("TF32_TS_SCALED", "tfloat32_t,tfloat32_t,float"), (32 + 16) * 2);
  assert_int_equal(umma_scaled_accepted("F16BF16_2x1SM_SS_SCALED", "half_t,half_t,half_t"), 2 * 16 * 4);
  assert_int_equal(umma_scaled_accepted("F16BF16_2x1SM_TS_SCALED", "half_t,half_t,float"), 2 * 8 * 2);
  assert_int_equal(umma_scaled_accepted("TF32_2x1SM_TS_SCALED", "tfloat32_t,tfloat32_t,float"), 2 * 8 * 2);
  /* CuTe gives SM100_MMA_TF32_SS_SCALED no traits: no atom */
  cl_mma_atom_t *a = NULL;
  assert_int_equal(
      cl_mma_atom_new("SM100_MMA_TF32_SS_SCALED<tfloat32_t,tfloat32_t,float,128,64,UMMA::Major::K,UMMA::Major::K,1>", &a),
      CL_E_DOMAIN);
  /* ScaleC missing, or not a uint32_t; the trailing arguments after it */
  assert_int_equal(cl_mma_atom_new("SM100_MMA_F16BF16_SS_SCALED<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", &a),
                   CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "ScaleC"));
  assert_int_equal(
      cl_mma_atom_new("SM100_MMA_F16BF16_SS_SCALED<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K,4294967296>", &a),
      CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "must be a uint32_t"));
  assert_int_equal(cl_mma_atom_new("SM100_MMA_F16BF16_SS_SCALED<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K,1,"
                                   "UMMA::Saturate::True>",
                                   &a),
                   CL_E_TYPE);
  assert_null(a);
  a = mma("SM100_MMA_F16BF16_TS_SCALED<half_t,half_t,float,64,8,UMMA::Major::K,UMMA::Major::K,4294967295,UMMA::ScaleIn::One,"
          "UMMA::ScaleIn::One,UMMA::Saturate::False>");
  char buf[256];
  cl_mma_atom_format(a, buf, sizeof buf);
  assert_string_equal(buf, "SM100_MMA_F16BF16_TS_SCALED<half_t,half_t,float,64,8,UMMA::Major::K,UMMA::Major::K,4294967295>");
  cl_mma_atom_free(a);
}

/* The K of an MMA atom's shape (M,N,K). */
static int64_t atom_k(const char *name) {
  cl_mma_atom_t *a = mma(name);
  cl_tuple_t *mnk = NULL;
  assert_int_equal(cl_mma_atom_shape_mnk(a, &mnk), CL_OK);
  int64_t k = tuple_at(mnk, 2);
  cl_tuple_free(mnk);
  cl_mma_atom_free(a);
  return k;
}

/* The interleaved-complex UMMAs: SM100_MMA_TF32[_2x1SM]_TS_INTERLEAVED_...
 * (no type arguments, both majors K) and the cutlass::complex<16-bit>
 * instances of the F16BF16 _SCALED kinds.  K is 256 bits of a complex
 * element: 4 complex<tfloat32_t>, 8 complex<half_t>. */
static int umma_interleaved_accepted(const char *kind) {
  static const char *const majors[] = {"K", "MN"};
  int accepted = 0;
  for (int m = 32; m <= 256; m *= 2)
    for (int n = 8; n <= 264; n += 8)
      for (int ab = 0; ab < 4; ab++) {
        char name[192];
        snprintf(name, sizeof name, "SM100_MMA_%s<%d,%d,UMMA::Major::%s,UMMA::Major::%s>", kind, m, n, majors[ab >> 1],
                 majors[ab & 1]);
        cl_mma_atom_t *a = NULL;
        cl_status s = cl_mma_atom_new(name, &a);
        if (s != CL_OK) {
          assert_int_equal(s, CL_E_TYPE);
          continue;
        }
        accepted++;
        char buf[256];
        assert_true(cl_mma_atom_format(a, buf, sizeof buf) > 0);
        assert_string_equal(buf, name);
        cl_mma_atom_free(a);
        if (n % 64 == 0) {
          check_mma_atom(name);
          assert_int_equal(atom_k(name), 4);
        }
      }
  return accepted;
}

static void umma_interleaved(void **state) {
  (void)state;
  /* 1SM: M 64 (N by 8) or 128 (N by 16); 2x1SM: M 128|256, N by 32; K,K only */
  assert_int_equal(umma_interleaved_accepted("TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN"), 32 + 16);
  assert_int_equal(umma_interleaved_accepted("TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN"), 2 * 8);
  static const char saturating[] = "SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,32,UMMA::Major::K,"
                                    "UMMA::Major::K,UMMA::ScaleIn::One,UMMA::ScaleIn::One,UMMA::Saturate::True>";
  cl_mma_atom_t *a = mma(saturating);
  char buf[256];
  cl_mma_atom_format(a, buf, sizeof buf);
  assert_string_equal(buf, saturating);
  cl_mma_atom_free(a);
  /* the complex F16BF16 _SCALED instances: as many as the real ones */
  assert_int_equal(umma_scaled_accepted("F16BF16_SS_SCALED", "cutlass::complex<half_t>,cutlass::complex<half_t>,float"),
                   2 * 32 * 4);
  assert_int_equal(
      umma_scaled_accepted("F16BF16_TS_SCALED", "cutlass::complex<bfloat16_t>,cutlass::complex<bfloat16_t>,float"),
      (32 + 16) * 2);
  assert_int_equal(
      umma_scaled_accepted("F16BF16_2x1SM_SS_SCALED", "cutlass::complex<half_t>,cutlass::complex<half_t>,float"),
      2 * 16 * 4);
  assert_int_equal(
      umma_scaled_accepted("F16BF16_2x1SM_TS_SCALED", "cutlass::complex<half_t>,cutlass::complex<half_t>,float"),
      2 * 8 * 2);
  assert_int_equal(atom_k("SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<half_t>,cutlass::complex<half_t>,float,128,64,"
                          "UMMA::Major::K,UMMA::Major::K,1>"),
                   8);
  /* what CuTe rejects: each with its reason */
  static const struct {
    const char *name, *why;
  } rejected[] = {
    {"SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,64,UMMA::Major::K,UMMA::Major::MN>",
     "B from shared memory"},
    {"SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,64,UMMA::Major::MN,UMMA::Major::K>", "K-major"},
    {"SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,24,UMMA::Major::K,UMMA::Major::K>", "N must be"},
    {"SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<64,64,UMMA::Major::K,UMMA::Major::K>", "M must be"},
    {"SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN",
     "needs its template arguments: SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<M,N,"},
    {"SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,64,UMMA::Major::K>", "(M,N,a_major,b_major)"},
    {"SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<tfloat32_t,tfloat32_t,float,128,64,UMMA::Major::K,"
     "UMMA::Major::K>",
     "must be integers"},
    {"SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<half_t>,cutlass::complex<half_t>,half_t,128,64,UMMA::Major::K,"
     "UMMA::Major::K,1>",
     "16-bit types"},
    {"SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<half_t>,cutlass::complex<bfloat16_t>,float,128,64,UMMA::Major::K,"
     "UMMA::Major::K,1>",
     "16-bit types"},
    {"SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<float>,cutlass::complex<float>,float,128,64,UMMA::Major::K,"
     "UMMA::Major::K,1>",
     "16-bit part, not float"},
    {"SM100_MMA_F16BF16_TS_SCALED<cutlass::complex<int16_t>,cutlass::complex<int16_t>,float,128,64,UMMA::Major::K,"
     "UMMA::Major::K,1>",
     "no format for int16_t"},
    {"SM100_MMA_F16BF16_SS<cutlass::complex<half_t>,cutlass::complex<half_t>,float,128,64,UMMA::Major::K,"
     "UMMA::Major::K>",
     "16-bit types"},
    {"SM100_MMA_TF32_TS_SCALED<cutlass::complex<half_t>,cutlass::complex<half_t>,float,128,64,UMMA::Major::K,"
     "UMMA::Major::K,1>",
     "no format for cutlass::complex<half_t>"},
  };
  for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
    a = NULL;
    assert_int_equal(cl_mma_atom_new(rejected[i].name, &a), CL_E_TYPE);
    if (strstr(cl_last_error(), rejected[i].why) == NULL)
      fail_msg("%s: '%s' lacks '%s'", rejected[i].name, cl_last_error(), rejected[i].why);
    assert_null(a);
  }
  /* a complex of an unknown or missing part is an unknown type */
  assert_int_equal(cl_mma_atom_new("SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<halff_t>,cutlass::complex<half_t>,"
                                   "float,128,64,UMMA::Major::K,UMMA::Major::K,1>",
                                   &a),
                   CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "halff_t"));
  assert_int_equal(cl_mma_atom_new("SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<>,cutlass::complex<half_t>,float,"
                                   "128,64,UMMA::Major::K,UMMA::Major::K,1>",
                                   &a),
                   CL_E_DOMAIN);
  assert_null(a);
}

static void umma_families(void **state) {
  (void)state;
  /* block-scaled: M 128 (256 for MXF8F6F4's 2x1SM, 128|256 for MXF4's) */
  assert_int_equal(umma_accepted("MXF8F6F4_SS", "float_e4m3_t,float_e2m1_t,float,float_ue8m0_t"), 32 * 4);
  assert_int_equal(umma_accepted("MXF8F6F4_2x1SM_SS", "float_e5m2_t,float_e3m2_t,float,float_ue4m3_t"), 16 * 4);
  assert_int_equal(umma_accepted_vs("MXF4_SS", "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t", ",32"), 32 * 4);
  assert_int_equal(umma_accepted_vs("MXF4_2x1SM_SS", "float_e2m1_t,float_e2m1_t,float,float_ue4m3_t", ",16"), 2 * 16 * 4);
  cl_mma_atom_t *mx = mma("SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,16,UMMA::Major::K,"
                          "UMMA::Major::MN>");
  cl_tuple_t *mx_mnk = NULL;
  assert_int_equal(cl_mma_atom_shape_mnk(mx, &mx_mnk), CL_OK);
  assert_int_equal(tuple_at(mx_mnk, 2), 64); /* K: 256 bits of 4-bit values */
  cl_tuple_free(mx_mnk);
  cl_mma_atom_free(mx);
  /* 1SM SS: M 64|128, N 8..256 by 8, any majors */
  assert_int_equal(umma_accepted("F16BF16_SS", "half_t,half_t,float"), 2 * 32 * 4);
  assert_int_equal(umma_accepted("TF32_SS", "tfloat32_t,tfloat32_t,float"), 2 * 32 * 4);
  /* 1SM TS: A K-major; N by 8 for M 64, by 16 for M 128 */
  assert_int_equal(umma_accepted("F16BF16_TS", "bfloat16_t,bfloat16_t,float"), (32 + 16) * 2);
  assert_int_equal(umma_accepted("F8F6F4_TS", "float_e2m1_t,float_e4m3_t,float"), (32 + 16) * 2);
  /* 2x1SM: M 128|256; N by 16 (SS) or by 32 (TS) */
  assert_int_equal(umma_accepted("F16BF16_2x1SM_SS", "half_t,half_t,half_t"), 2 * 16 * 4);
  assert_int_equal(umma_accepted("TF32_2x1SM_TS", "tfloat32_t,tfloat32_t,float"), 2 * 8 * 2);
  /* S8: N 8 or by 16 (1SM), by 32 (2x1SM) */
  assert_int_equal(umma_accepted("S8_SS", "int8_t,uint8_t,int32_t"), 2 * 17 * 4);
  assert_int_equal(umma_accepted("S8_2x1SM_SS", "int8_t,int8_t,int32_t"), 2 * 8 * 4);
  /* F8F6F4 SS: N by 8 (16 for 2x1SM) with B K-major, twice that MN-major */
  assert_int_equal(umma_accepted("F8F6F4_SS", "float_e4m3_t,float_e5m2_t,float"), 2 * (32 + 16) * 2);
  assert_int_equal(umma_accepted("F8F6F4_2x1SM_SS", "float_e3m2_t,float_e2m3_t,float"), 2 * (16 + 8) * 2);
  /* sparse (1SM SS): N as the dense SS kinds, but F8F6F4's by 16 when M is
   * 128 whatever B's major */
  assert_int_equal(umma_accepted("TF32_SS_SPARSE", "tfloat32_t,tfloat32_t,float"), 2 * 32 * 4);
  assert_int_equal(umma_accepted("F16BF16_SS_SPARSE", "bfloat16_t,bfloat16_t,half_t"), 2 * 32 * 4);
  assert_int_equal(umma_accepted("S8_SS_SPARSE", "uint8_t,int8_t,int32_t"), 2 * 17 * 4);
  assert_int_equal(umma_accepted("F8F6F4_SS_SPARSE", "float_e2m1_t,float_e5m2_t,float"), (32 + 16) * 4);
  /* block-scaled sparse: M 128 only; MXF4NVF4's VS 32, or 64 for float_e2m1_t with float_ue8m0_t */
  assert_int_equal(umma_accepted("MXF8F6F4_SS_SPARSE", "float_e4m3_t,float_e2m1_t,float,float_ue8m0_t"), 32 * 4);
  assert_int_equal(umma_accepted_vs("MXF4NVF4_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue4m3_t", ",32"), 32 * 4);
  assert_int_equal(umma_accepted_vs("MXF4NVF4_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t", ",64"), 32 * 4);
  assert_int_equal(umma_accepted_vs("MXF4NVF4_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue4m3_t", ",64"), 0);
  assert_int_equal(umma_accepted_vs("MXF4NVF4_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t", ",16"), 0);
  /* 2x1SM sparse: N by 16 (by 32 for S8 and F8F6F4, whatever B's major) */
  assert_int_equal(umma_accepted("TF32_2x1SM_SS_SPARSE", "tfloat32_t,tfloat32_t,float"), 2 * 16 * 4);
  assert_int_equal(umma_accepted("F16BF16_2x1SM_SS_SPARSE", "half_t,half_t,float"), 2 * 16 * 4);
  assert_int_equal(umma_accepted("S8_2x1SM_SS_SPARSE", "int8_t,int8_t,int32_t"), 2 * 8 * 4);
  assert_int_equal(umma_accepted("F8F6F4_2x1SM_SS_SPARSE", "float_e2m3_t,float_e2m1_t,float"), 2 * 8 * 4);
  assert_int_equal(umma_accepted("MXF8F6F4_2x1SM_SS_SPARSE", "float_e4m3_t,float_e4m3_t,float,float_ue8m0_t"), 16 * 4);
  assert_int_equal(umma_accepted_vs("MXF4NVF4_2x1SM_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue4m3_t", ",32"),
                   2 * 16 * 4);
  /* their K is 512 bits of A's type (64 for F8F6F4), A's element half A's bits */
  static const struct {
    const char *name;
    int64_t k, bits_a;
  } sparse[] = {
    {"SM100_MMA_TF32_SS_SPARSE<tfloat32_t,tfloat32_t,float,64,8,UMMA::Major::K,UMMA::Major::K>", 16, 16},
    {"SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,16,UMMA::Major::MN,UMMA::Major::K>", 32, 8},
    {"SM100_MMA_S8_SS_SPARSE<int8_t,int8_t,int32_t,64,8,UMMA::Major::K,UMMA::Major::K>", 64, 4},
    {"SM100_MMA_F8F6F4_SS_SPARSE<float_e2m1_t,float_e4m3_t,float,128,32,UMMA::Major::K,UMMA::Major::K>", 64, 2},
    {"SM100_MMA_MXF8F6F4_SS_SPARSE<float_e5m2_t,float_e4m3_t,float,float_ue4m3_t,128,8,UMMA::Major::MN,UMMA::Major::K>", 64,
     4},
    /* CuTe's ValTypeA sparse_elem<4,uint8_t>: 2 bits */
    {"SM100_MMA_MXF4NVF4_SS_SPARSE<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,64,UMMA::Major::K,UMMA::Major::K>", 128,
     2},
  };
  for (size_t i = 0; i < sizeof sparse / sizeof sparse[0]; i++) {
    cl_mma_atom_t *sp = mma(sparse[i].name);
    cl_tuple_t *sp_mnk = NULL;
    assert_int_equal(cl_mma_atom_shape_mnk(sp, &sp_mnk), CL_OK);
    assert_int_equal(tuple_at(sp_mnk, 2), sparse[i].k);
    assert_int_equal(cl_mma_atom_value_bits(sp, CL_OPERAND_A), sparse[i].bits_a);
    cl_tuple_free(sp_mnk);
    cl_mma_atom_free(sp);
  }
  cl_mma_atom_t *bad = NULL;
  assert_int_equal(
      cl_mma_atom_new("SM100_MMA_S8_SS_SPARSE<int8_t,int8_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", &bad), CL_E_TYPE);
  assert_int_equal(
      cl_mma_atom_new("SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,256,64,UMMA::Major::K,UMMA::Major::K>", &bad),
      CL_E_TYPE);
  assert_int_equal(cl_mma_atom_new("SM100_MMA_F8F6F4_SS_SPARSE<float_e4m3_t,float_e4m3_t,float,128,24,UMMA::Major::K,"
                                   "UMMA::Major::MN>",
                                   &bad),
                   CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "when M is 128"));
  assert_null(bad);
  /* K is 256 bits of A's type, 32 for F8F6F4 whatever the width; 2x1SM
   * splits M between its two threads (CTAs) */
  cl_mma_atom_t *a = mma("SM100_MMA_S8_2x1SM_TS<int8_t,int8_t,int32_t,256,64,UMMA::Major::K,UMMA::Major::K>");
  cl_tuple_t *mnk = NULL;
  assert_int_equal(cl_mma_atom_shape_mnk(a, &mnk), CL_OK);
  assert_int_equal(tuple_at(mnk, 2), 32);
  cl_tuple_free(mnk);
  cl_layout_t *l = NULL;
  assert_int_equal(cl_mma_atom_layout_tv(a, CL_OPERAND_A, &l), CL_OK);
  int64_t first = -1;
  assert_int_equal(cl_layout_eval(l, 1, &first), CL_OK);
  assert_int_equal(first, 128);
  cl_layout_free(l);
  cl_mma_atom_free(a);
  /* non-default trailing arguments are kept in the canonical name */
  a = mma("SM100_MMA_F16BF16_TS<half_t,half_t,float,64,8,UMMA::Major::K,UMMA::Major::K,UMMA::ScaleIn::One,"
          "UMMA::ScaleIn::One,UMMA::Saturate::True>");
  char buf[256];
  cl_mma_atom_format(a, buf, sizeof buf);
  assert_string_equal(buf, "SM100_MMA_F16BF16_TS<half_t,half_t,float,64,8,UMMA::Major::K,UMMA::Major::K,"
                           "UMMA::ScaleIn::One,UMMA::ScaleIn::One,UMMA::Saturate::True>");
  cl_mma_atom_free(a);
  a = mma("SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,64,8,UMMA::Major::K,UMMA::Major::K,UMMA::ScaleIn::One,"
          "UMMA::ScaleIn::One>");
  cl_mma_atom_format(a, buf, sizeof buf);
  assert_string_equal(buf, "SM100_MMA_TF32_SS<tfloat32_t,tfloat32_t,float,64,8,UMMA::Major::K,UMMA::Major::K>");
  cl_mma_atom_free(a);
}

/* What CuTe's asserts reject: each an error naming the condition. */
static void umma_errors(void **state) {
  (void)state;
  static const struct {
    const char *name;
    cl_status status;
    const char *says;
  } cases[] = {
    {"SM100_MMA_F16BF16_SS", CL_E_TYPE, "needs its template arguments"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64>", CL_E_TYPE, "at least 7"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,float,M,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE, "must be integers"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,UMMA::Major::T,UMMA::Major::K>", CL_E_TYPE, "argument 6"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K,UMMA::ScaleIn::Half>", CL_E_TYPE,
     "argument 8 must be UMMA::ScaleIn::One or UMMA::ScaleIn::Neg"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K,UMMA::ScaleIn::One,"
     "UMMA::ScaleIn::One,UMMA::Saturate::True>",
     CL_E_TYPE, "at most 9"},
    {"SM100_MMA_S8_SS<int8_t,int8_t,int32_t,128,64,UMMA::Major::K,UMMA::Major::K,UMMA::ScaleIn::One>", CL_E_TYPE,
     "UMMA::Saturate::False or UMMA::Saturate::True"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,float,96,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "M must be 64 or 128"},
    {"SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,64,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "M must be 128 or 256"},
    {"SM100_MMA_F16BF16_TS<half_t,half_t,float,128,24,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "multiple of 16 from 16 to 256 when M is 128"},
    {"SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e4m3_t,float,128,8,UMMA::Major::K,UMMA::Major::MN>", CL_E_TYPE,
     "when B is MN-major"},
    {"SM100_MMA_F16BF16_TS<half_t,half_t,float,128,256,UMMA::Major::MN,UMMA::Major::K>", CL_E_TYPE,
     "must be K-major"},
    {"SM100_MMA_S8_SS<int8_t,int8_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE, "must be int32_t"},
    {"SM100_MMA_F16BF16_SS<tfloat32_t,tfloat32_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "16-bit types"},
    {"SM100_MMA_TF32_SS<float,float,float,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE, "no format for float"},
    {"SM100_MMA_F8F6F4_TS<int4_t,float_e4m3_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "no format for int4_t"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,double,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "half_t, float or int32_t"},
    {"SM100_MMA_F16BF16_SS<half_t,halff_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_DOMAIN,
     "unknown element type 'halff_t'"},
    {"SM100_MMA_TF32_SS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE, "32-bit types"},
    {"SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,64,64,UMMA::Major::K,UMMA::Major::K>",
     CL_E_TYPE, "M must be 128, not 64"},
    {"SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,8,UMMA::Major::K,UMMA::Major::K>",
     CL_E_TYPE, "VS must be 16 or 32, not 8"},
    {"SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,32,UMMA::Major::K,UMMA::Major::K>",
     CL_E_TYPE, "VS = 32 needs"},
    {"SM100_MMA_MXF4_SS<int4_t,int4_t,float,float_ue4m3_t,128,64,16,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "no format for int4_t"},
    {"SM100_MMA_MXF4_SS<float_e4m3_t,float_e2m1_t,float,float_ue4m3_t,128,64,16,UMMA::Major::K,UMMA::Major::K>",
     CL_E_TYPE, "4-bit types"},
    {"SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_e4m3_t,128,64,UMMA::Major::K,UMMA::Major::K>",
     CL_E_TYPE, "scale-factor type must be"},
    {"SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,UMMA::Major::K,UMMA::Major::K>",
     CL_E_TYPE, "at least 9 template arguments (A,B,C,SF,M,N,VS,a_major,b_major)"},
    {"SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,64,V,UMMA::Major::K,UMMA::Major::K>",
     CL_E_TYPE, "M, N and VS"},
    {"SM100_MMA_S8_TS<half_t,int8_t,int32_t,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE, "8-bit types"},
    {"SM100_MMA_F8F6F4_SS<half_t,float_e4m3_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "at most 8 bits"},
    {"SM100_MMA_F16BF16_TS<half_t,half_t,float,64,260,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "multiple of 8 from 8 to 256 when M is 64, not 260"},
    {"SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e4m3_t,float,128,12,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "when B is K-major"},
    {"SM100_MMA_S8_2x1SM_SS<int8_t,int8_t,int32_t,256,48,UMMA::Major::K,UMMA::Major::K>", CL_E_TYPE,
     "multiple of 32 from 32 to 256, not 48"},
    {"SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K,1,2,3,4,5,6,7,8,9,10>", CL_E_TYPE,
     "too many template arguments"},
    {"SM100_MMA_F16BF16_SS<half_t,a_type_name_much_longer_than_any_type_of_cute_t,float,128,64,UMMA::Major::K,UMMA::Major::K>",
     CL_E_DOMAIN, "unknown element type"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cl_mma_atom_t *a = (cl_mma_atom_t *)1;
    assert_int_equal(cl_mma_atom_new(cases[i].name, &a), cases[i].status);
    assert_null(a);
    if (strstr(cl_last_error(), cases[i].says) == NULL)
      fail_msg("%s: '%s' does not say '%s'", cases[i].name, cl_last_error(), cases[i].says);
  }
  /* a name of no UMMA family is unknown */
  cl_mma_atom_t *a = NULL;
  assert_int_equal(cl_mma_atom_new("SM100_MMA_F16BF16_XS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", &a),
                   CL_E_DOMAIN);
  assert_int_equal(cl_mma_atom_new("SM100_MMA_F16BF16_SS_AND_A_NAME_LONGER_THAN_ANY_FAMILY_OF_CUTE_HAS<half_t>", &a),
                   CL_E_DOMAIN);
}

static void catalog_copy_invariants(void **state) {
  (void)state;
  int64_t atoms = 0;
  for (int64_t i = 0; cl_atom_catalog_name(CL_ATOM_COPY, i) != NULL; i++) {
    const char *op = cl_atom_catalog_name(CL_ATOM_COPY, i);
    for (int64_t t = 0; cl_atom_catalog_name(CL_ATOM_TYPE, t) != NULL; t++) {
      const char *type = cl_atom_catalog_name(CL_ATOM_TYPE, t);
      cl_copy_atom_t *a = NULL;
      cl_status s = cl_copy_atom_new(op, type, &a);
      if (s == CL_E_TYPE) { /* an element type this instruction cannot move */
        assert_null(a);
        continue;
      }
      if (s != CL_OK)
        fail_msg("copy_atom(%s,%s): %s", op, type, cl_last_error());
      atoms++;
      cl_layout_t *thr = NULL;
      assert_int_equal(cl_copy_atom_thr_id(a, &thr), CL_OK);
      for (int side = 0; side < 3; side++) {
        cl_layout_t *vals = NULL, *bits = NULL;
        assert_int_equal(cl_copy_atom_layout(a, (cl_copy_side)side, 0, &vals), CL_OK);
        assert_int_equal(cl_copy_atom_layout(a, (cl_copy_side)side, 1, &bits), CL_OK);
        assert_int_equal(mode_size(vals, 0), cl_layout_size(thr));
        assert_int_equal(mode_size(bits, 0), cl_layout_size(thr));
        int64_t access = cl_copy_atom_access_bits(a, (cl_copy_side)side);
        assert_int_equal(access, mode_size(bits, 1));
        cl_layout_free(vals);
        cl_layout_free(bits);
      }
      assert_true(cl_copy_atom_kind(a) >= CL_COPY_PLAIN && cl_copy_atom_kind(a) <= CL_COPY_CP_ASYNC);
      int64_t bits;
      assert_int_equal(cl_atom_type_bits(type, &bits), CL_OK);
      assert_int_equal(cl_copy_atom_value_bits(a), bits);
      cl_layout_free(thr);
      cl_copy_atom_free(a);
    }
  }
  assert_true(atoms > 100);
}

static void copy_atom_kinds_and_widths(void **state) {
  (void)state;
  cl_copy_atom_t *ldsm = copy_atom("SM75_U32x4_LDSM_N", "half_t");
  assert_int_equal(cl_copy_atom_kind(ldsm), CL_COPY_LDMATRIX);
  assert_int_equal(cl_copy_atom_access_bits(ldsm, CL_COPY_DST), 128);
  assert_int_equal(cl_copy_atom_value_bits(ldsm), 16);
  cl_layout_t *dst = NULL;
  assert_int_equal(cl_copy_atom_layout(ldsm, CL_COPY_DST, 0, &dst), CL_OK);
  assert_layout_is(dst, "(32,(2,4)):(2,(1,64))");
  cl_layout_free(dst);
  char buf[64];
  assert_int_equal(cl_copy_atom_format(ldsm, buf, sizeof buf), (int64_t)strlen("copy_atom(SM75_U32x4_LDSM_N,half_t)"));
  assert_string_equal(buf, "copy_atom(SM75_U32x4_LDSM_N,half_t)");
  cl_copy_atom_free(ldsm);
  cl_copy_atom_t *stsm = copy_atom("SM90_U16x8_STSM_T", "half_t");
  assert_int_equal(cl_copy_atom_kind(stsm), CL_COPY_STMATRIX);
  cl_copy_atom_free(stsm);
  cl_copy_atom_t *cp = copy_atom("SM80_CP_ASYNC_CACHEGLOBAL< uint128_t >", "half_t");
  assert_int_equal(cl_copy_atom_kind(cp), CL_COPY_CP_ASYNC);
  assert_int_equal(cl_copy_atom_access_bits(cp, CL_COPY_SRC), 128);
  cl_copy_atom_format(cp, buf, sizeof buf);
  assert_string_equal(buf, "copy_atom(SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>,half_t)");
  cl_copy_atom_free(cp);
  cl_copy_atom_t *mixed = copy_atom("UniversalCopy<uint32_t,float>", "half_t");
  cl_copy_atom_format(mixed, buf, sizeof buf);
  assert_string_equal(buf, "copy_atom(UniversalCopy<uint32_t,float>,half_t)");
  cl_copy_atom_free(mixed);
  cl_copy_atom_t *avc = copy_atom("AutoVectorizingCopyWithAssumedAlignment<64>", "float");
  assert_int_equal(cl_copy_atom_kind(avc), CL_COPY_PLAIN);
  cl_copy_atom_free(avc);
}

static void atom_errors(void **state) {
  (void)state;
  cl_mma_atom_t *a = (cl_mma_atom_t *)1;
  assert_int_equal(cl_mma_atom_new("SM80_16x8x16_F32F16F16F32_TM", &a), CL_E_DOMAIN);
  assert_null(a);
  assert_non_null(strstr(cl_last_error(), "SM80_16x8x16_F32F16F16F32_TM"));
  assert_int_equal(cl_mma_atom_new(NULL, &a), CL_E_NULL);
  assert_int_equal(cl_mma_atom_new("SM61_DP4A", NULL), CL_E_NULL);
  /* GMMA: N outside the family, a missing or bad major, A of an RS in MN */
  assert_int_equal(cl_mma_atom_new("SM90_64x264x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", &a), CL_E_DOMAIN);
  assert_int_equal(cl_mma_atom_new("SM90_64x40x32_S32S8S8_SS_TN", &a), CL_E_DOMAIN);
  assert_int_equal(cl_mma_atom_new("SM90_64x128x16_F32F16F16_SS", &a), CL_E_TYPE);
  assert_int_equal(cl_mma_atom_new("SM90_64x128x16_F32F16F16_SS<GMMA::Major::X,GMMA::Major::K>", &a), CL_E_TYPE);
  assert_int_equal(cl_mma_atom_new("SM90_64x128x16_F32F16F16_RS<GMMA::Major::MN,GMMA::Major::K>", &a), CL_E_TYPE);
  assert_int_equal(cl_mma_atom_new("SM90_64x128x32_S32S8S8_SS_TN<GMMA::ScaleIn::One>", &a), CL_E_TYPE);
  assert_int_equal(
      cl_mma_atom_new("SM90_64x8x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K,GMMA::ScaleIn::One,GMMA::ScaleIn::One,X>", &a),
      CL_E_TYPE);
  assert_int_equal(cl_mma_atom_new("UniversalFMA<float,half_t,half_t,float,int>", &a), CL_E_TYPE);
  assert_int_equal(cl_mma_atom_new("UniversalFMA<quux>", &a), CL_E_DOMAIN);
  /* scales other than the default are part of the canonical name */
  a = mma("SM90_64x8x8_F32TF32TF32_SS_TN<GMMA::ScaleIn::Neg,GMMA::ScaleIn::One>");
  char buf[128];
  cl_mma_atom_format(a, buf, sizeof buf);
  assert_string_equal(buf, "SM90_64x8x8_F32TF32TF32_SS_TN<GMMA::ScaleIn::Neg,GMMA::ScaleIn::One>");
  cl_mma_atom_free(a);
  a = mma("UniversalFMA<float>");
  cl_mma_atom_format(a, buf, sizeof buf);
  assert_string_equal(buf, "UniversalFMA<float,float,float,float>");
  cl_layout_t *l = (cl_layout_t *)1;
  assert_int_equal(cl_mma_atom_layout_tv(a, (cl_mma_operand)3, &l), CL_E_DOMAIN);
  assert_null(l);
  assert_int_equal(cl_mma_atom_value_bits(a, (cl_mma_operand)-1), -1);
  cl_mma_atom_free(a);
  assert_int_equal(cl_mma_atom_format(NULL, buf, sizeof buf), -1);
  cl_mma_atom_free(NULL);

  cl_copy_atom_t *c = (cl_copy_atom_t *)1;
  assert_int_equal(cl_copy_atom_new("SM75_U32x4_LDSM_M", "half_t", &c), CL_E_DOMAIN);
  assert_null(c);
  assert_int_equal(cl_copy_atom_new("SM75_U32x4_LDSM_N", "halff_t", &c), CL_E_DOMAIN);
  assert_int_equal(cl_copy_atom_new("SM75_U32x4_LDSM_N", "uint128_t", &c), CL_E_TYPE);
  assert_int_equal(cl_copy_atom_new("SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>", "half_t", &c), CL_E_TYPE);
  assert_int_equal(cl_copy_atom_new("SM80_CP_ASYNC_CACHEALWAYS<uint64_t,uint32_t>", "half_t", &c), CL_E_TYPE);
  assert_int_equal(cl_copy_atom_new("UniversalCopy", "half_t", &c), CL_E_TYPE);
  assert_int_equal(cl_copy_atom_new("AutoVectorizingCopyWithAssumedAlignment<12>", "half_t", &c), CL_E_TYPE);
  assert_int_equal(cl_copy_atom_new(NULL, "half_t", &c), CL_E_NULL);
  assert_int_equal(cl_copy_atom_kind(NULL), (cl_copy_kind)-1);
  assert_int_equal(cl_copy_atom_value_bits(NULL), -1);
  assert_int_equal(cl_copy_atom_access_bits(NULL, CL_COPY_SRC), -1);
  assert_int_equal(cl_copy_atom_format(NULL, NULL, 0), -1);
  c = copy_atom("UniversalCopy<uint32_t>", "float");
  assert_int_equal(cl_copy_atom_layout(c, (cl_copy_side)5, 0, &l), CL_E_DOMAIN);
  assert_int_equal(cl_copy_atom_access_bits(c, (cl_copy_side)5), -1);
  cl_copy_atom_free(c);
  cl_copy_atom_free(NULL);
  int64_t bits;
  assert_int_equal(cl_atom_type_bits("float_e4m3_t", &bits), CL_OK);
  assert_int_equal(bits, 8);
  assert_int_equal(cl_atom_type_bits("floaty", &bits), CL_E_DOMAIN);
}

static void smem_atoms(void **state) {
  (void)state;
  static const struct {
    const char *name;
    int32_t b, m;
    const char *layout;
  } cases[] = {
    {"GMMA::Layout_K_SW128_Atom<half_t>", 3, 3, "(8,64):(64,1)"},
    {"GMMA::Layout_K_SW128_Atom<float>", 3, 2, "(8,32):(32,1)"},
    {"GMMA::Layout_K_INTER_Atom<half_t>", 0, 3, "(8,8):(8,1)"},
    {"GMMA::Layout_MN_SW64_Atom<uint8_t>", 2, 4, "(64,8):(1,64)"},
    {"GMMA::Layout_MN_SW32_Atom<double>", 1, 1, "(4,8):(1,4)"},
  };
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    int32_t b, m, s;
    cl_layout_t *l = NULL;
    assert_int_equal(cl_gmma_smem_atom(cases[i].name, &b, &m, &s, &l), CL_OK);
    assert_int_equal(b, cases[i].b);
    assert_int_equal(m, cases[i].m);
    assert_int_equal(s, 3);
    assert_layout_is(l, cases[i].layout);
    cl_layout_free(l);
  }
  int32_t b, m, s;
  cl_layout_t *l = NULL;
  assert_int_equal(cl_gmma_smem_atom("GMMA::Layout_K_SW256_Atom<half_t>", &b, &m, &s, &l), CL_E_DOMAIN);
  assert_int_equal(cl_gmma_smem_atom("GMMA::Layout_Q_SW32_Atom<half_t>", &b, &m, &s, &l), CL_E_DOMAIN);
  assert_int_equal(cl_gmma_smem_atom("GMMA::Layout_K_SW32_Atom<float_e2m3_t>", &b, &m, &s, &l), CL_E_TYPE);
  assert_int_equal(cl_gmma_smem_atom("GMMA::Layout_K_SW32_Atom<half_t>", NULL, &m, &s, &l), CL_E_NULL);
  for (int64_t i = 0; cl_atom_catalog_name(CL_ATOM_SMEM, i) != NULL; i++) {
    assert_int_equal(cl_gmma_smem_atom(cl_atom_catalog_name(CL_ATOM_SMEM, i), &b, &m, &s, &l), CL_OK);
    cl_layout_free(l);
  }
}

static cl_tiled_mma_t *tiled(const char *atom, const char *layout, const char *perm) {
  cl_mma_atom_t *a = mma(atom);
  cl_layout_t *l = layout ? lay(layout) : NULL;
  cl_tuple_t *p = perm ? tup(perm) : NULL;
  cl_tiled_mma_t *m = NULL;
  if (cl_make_tiled_mma(a, l, p, &m) != CL_OK)
    fail_msg("make_tiled_mma(%s): %s", atom, cl_last_error());
  cl_layout_free(l);
  cl_tuple_free(p);
  cl_mma_atom_free(a);
  return m;
}

/* A tiled MMA's C layout maps (thread, value) one to one onto the tile;
 * A and B stay inside theirs. */
static void check_tiled_mma(cl_tiled_mma_t *m) {
  cl_tuple_t *shape = NULL;
  assert_int_equal(cl_tiled_mma_tile_shape(m, &shape), CL_OK);
  int64_t tm = tuple_at(shape, 0), tn = tuple_at(shape, 1), tk = tuple_at(shape, 2);
  int64_t tiles[3] = {tm * tk, tn * tk, tm * tn};
  for (int op = 0; op < 3; op++) {
    cl_layout_t *tv = NULL;
    assert_int_equal(cl_tiled_mma_layout_tv(m, (cl_mma_operand)op, &tv), CL_OK);
    assert_int_equal(mode_size(tv, 0), cl_tiled_mma_size(m));
    check_codomain(tv, tiles[op], op == 2, "tiled");
    if (op == 2)
      assert_int_equal(cl_layout_size(tv), tm * tn);
    cl_layout_free(tv);
  }
  cl_tuple_free(shape);
}

static void tiled_mma_properties(void **state) {
  (void)state;
  cl_tiled_mma_t *m = tiled("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", NULL);
  check_tiled_mma(m);
  assert_int_equal(cl_tiled_mma_size(m), 128);
  char buf[160];
  cl_tiled_mma_format(m, buf, sizeof buf);
  assert_string_equal(buf, "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0),(_,_,_))");
  cl_layout_t *vmnk = NULL;
  assert_int_equal(cl_tiled_mma_thr_layout_vmnk(m, &vmnk), CL_OK);
  assert_layout_is(vmnk, "(32,2,2,1):(1,32,64,0)");
  cl_layout_free(vmnk);
  cl_mma_atom_t *atom = NULL;
  assert_int_equal(cl_tiled_mma_atom(m, &atom), CL_OK);
  cl_mma_atom_free(atom);
  cl_tiled_mma_free(m);
  m = tiled("SM80_16x8x16_F32F16F16F32_TN", "(2,2):(1,2)", "(_,(8,2,2):(1,16,8),32)");
  check_tiled_mma(m);
  cl_tiled_mma_format(m, buf, sizeof buf);
  assert_string_equal(buf, "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0),(_,(8,2,2):(1,16,8),32))");
  cl_tiled_mma_free(m);
  m = tiled("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "(2,1,1):(1,0,0)", NULL);
  check_tiled_mma(m);
  cl_tiled_mma_free(m);
  m = tiled("SM70_8x8x4_F32F16F16F32_NT", "(2,2,1):(1,2,0)", NULL);
  check_tiled_mma(m);
  cl_tiled_mma_free(m);
  m = tiled("SM61_DP4A", NULL, NULL);
  check_tiled_mma(m);
  cl_tiled_mma_free(m);
}

/* partition_C of every thread: the threads' elements together are the
 * tensor's, each once; the partitioned tensor views the same memory. */
static void tiled_mma_partitions(void **state) {
  (void)state;
  cl_tiled_mma_t *m = tiled("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", NULL);
  float data[64 * 32];
  cl_tensor_t *t = tensor(data, CL_DTYPE_FLOAT32, "(64,32):(32,1)");
  unsigned char seen[64 * 32] = {0};
  for (int64_t thr = 0; thr < 128; thr++) {
    cl_tensor_t *p = NULL;
    assert_int_equal(cl_tiled_mma_partition_tensor(m, CL_OPERAND_C, thr, t, &p), CL_OK);
    cl_layout_t *l = NULL;
    int64_t offset;
    assert_int_equal(cl_tiled_mma_partition(m, CL_OPERAND_C, thr, cl_tensor_layout(t), &l, &offset), CL_OK);
    assert_true(cl_layout_equal(l, cl_tensor_layout(p)));
    assert_ptr_equal(cl_tensor_data(p), data + offset);
    for (int64_t i = 0; i < cl_tensor_size(p); i++) {
      void *ptr;
      assert_int_equal(cl_tensor_ptr(p, i, &ptr), CL_OK);
      int64_t e = (float *)ptr - data;
      assert_true(e >= 0 && e < 64 * 32);
      assert_false(seen[e]);
      seen[e] = 1;
    }
    cl_layout_free(l);
    cl_tensor_free(p);
  }
  for (int i = 0; i < 64 * 32; i++)
    assert_true(seen[i]);
  cl_layout_t *l = NULL, *frg = NULL;
  int64_t offset = 7;
  assert_int_equal(cl_tiled_mma_partition(m, CL_OPERAND_A, 128, cl_tensor_layout(t), &l, &offset), CL_E_DOMAIN);
  assert_int_equal(offset, 0);
  assert_int_equal(cl_tiled_mma_partition(m, CL_OPERAND_A, -1, cl_tensor_layout(t), &l, &offset), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_mma_partition(m, (cl_mma_operand)4, 0, cl_tensor_layout(t), &l, &offset), CL_E_DOMAIN);
  cl_layout_t *vec = lay("64:1");
  assert_int_equal(cl_tiled_mma_partition(m, CL_OPERAND_A, 0, vec, &l, &offset), CL_E_RANK);
  assert_int_equal(cl_tiled_mma_thrfrg(m, CL_OPERAND_B, vec, &frg), CL_E_RANK);
  assert_int_equal(cl_tiled_mma_thrfrg(m, (cl_mma_operand)3, vec, &frg), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_mma_layout_tv(m, (cl_mma_operand)3, &frg), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_mma_partition_tensor(m, CL_OPERAND_A, 0, NULL, (cl_tensor_t **)&frg), CL_E_NULL);
  cl_layout_free(vec);
  cl_tensor_free(t);
  cl_tiled_mma_free(m);
}

static void tiled_mma_errors(void **state) {
  (void)state;
  cl_mma_atom_t *a = mma("SM80_16x8x16_F32F16F16F32_TN");
  cl_tiled_mma_t *m = (cl_tiled_mma_t *)1;
  cl_layout_t *rank4 = lay("(2,2,1,1):(1,2,0,0)");
  assert_int_equal(cl_make_tiled_mma(a, rank4, NULL, &m), CL_E_RANK);
  assert_null(m);
  cl_tuple_t *perm4 = tup("(_,_,_,_)");
  assert_int_equal(cl_make_tiled_mma(a, NULL, perm4, &m), CL_E_RANK);
  cl_tuple_t *leaf = tup("8");
  assert_int_equal(cl_make_tiled_mma(a, NULL, leaf, &m), CL_E_TYPE);
  cl_tuple_t *nested = tup("((2,2),_,_)");
  assert_int_equal(cl_make_tiled_mma(a, NULL, nested, &m), CL_OK);
  cl_tiled_mma_free(m);
  assert_int_equal(cl_make_tiled_mma(NULL, NULL, NULL, &m), CL_E_NULL);
  assert_int_equal(cl_tiled_mma_format(NULL, NULL, 0), -1);
  assert_int_equal(cl_tiled_mma_size(NULL), -1);
  cl_tiled_mma_free(NULL);
  cl_layout_free(rank4);
  cl_tuple_free(perm4);
  cl_tuple_free(leaf);
  cl_tuple_free(nested);
  cl_mma_atom_free(a);
}

static cl_tiled_copy_t *tiled_copy(const char *op, const char *type, const char *thr, const char *val) {
  cl_copy_atom_t *a = copy_atom(op, type);
  cl_layout_t *t = lay(thr), *v = val ? lay(val) : NULL;
  cl_tiled_copy_t *c = NULL;
  if (cl_make_tiled_copy(a, t, v, &c) != CL_OK)
    fail_msg("make_tiled_copy: %s", cl_last_error());
  cl_layout_free(t);
  cl_layout_free(v);
  cl_copy_atom_free(a);
  return c;
}

/* A tiled copy's S and D layouts stay in the tile; one made of thread and
 * value layouts covers it, each element once (one made for an MMA operand
 * may give an element to several threads, as the MMA does). */
static void check_tiled_copy(const cl_tiled_copy_t *c, bool injective) {
  cl_tuple_t *tiler = NULL;
  assert_int_equal(cl_tiled_copy_tiler_mn(c, &tiler), CL_OK);
  int64_t tile;
  assert_int_equal(cl_tuple_product(tiler, &tile), CL_OK);
  for (int side = 0; side < 2; side++) {
    cl_layout_t *tv = NULL;
    assert_int_equal(cl_tiled_copy_side_tv(c, (cl_copy_side)side, &tv), CL_OK);
    check_codomain(tv, tile, injective, "tiled copy");
    if (injective)
      assert_int_equal(cl_layout_size(tv), tile);
    cl_layout_free(tv);
  }
  cl_tuple_free(tiler);
}

static void tiled_copy_properties(void **state) {
  (void)state;
  cl_tiled_copy_t *c = tiled_copy("UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(1,8):(0,1)");
  check_tiled_copy(c, true);
  assert_int_equal(cl_tiled_copy_size(c), 256);
  char buf[256];
  cl_tiled_copy_format(c, buf, sizeof buf);
  assert_string_equal(buf, "make_tiled_copy(copy_atom(UniversalCopy<uint128_t>,half_t),(32,8):(8,1),(1,8):(0,1))");
  cl_layout_t *tv = NULL;
  assert_int_equal(cl_tiled_copy_layout_tv(c, &tv), CL_OK);
  assert_layout_is(tv, "((8,32),8):((256,1),32)");
  cl_layout_free(tv);
  cl_copy_atom_t *a = NULL;
  assert_int_equal(cl_tiled_copy_atom(c, &a), CL_OK);
  cl_copy_atom_free(a);
  /* partitions of a tensor are views of its memory, and cover it */
  uint16_t data[64 * 64];
  cl_tensor_t *t = tensor(data, CL_DTYPE_UINT16, "(64,64):(64,1)");
  unsigned char seen[64 * 64] = {0};
  for (int64_t thr = 0; thr < 256; thr++) {
    cl_tensor_t *p = NULL;
    assert_int_equal(cl_tiled_copy_partition_tensor(c, CL_COPY_SRC, thr, t, &p), CL_OK);
    for (int64_t i = 0; i < cl_tensor_size(p); i++) {
      void *ptr;
      assert_int_equal(cl_tensor_ptr(p, i, &ptr), CL_OK);
      int64_t e = (uint16_t *)ptr - data;
      assert_false(seen[e]);
      seen[e] = 1;
    }
    cl_tensor_free(p);
  }
  for (int i = 0; i < 64 * 64; i++)
    assert_true(seen[i]);
  cl_layout_t *l = NULL;
  int64_t offset;
  assert_int_equal(cl_tiled_copy_partition(c, CL_COPY_DST, 256, cl_tensor_layout(t), &l, &offset), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_copy_partition(c, CL_COPY_REF, 0, cl_tensor_layout(t), &l, &offset), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_copy_side_tv(c, CL_COPY_REF, &l), CL_E_DOMAIN);
  cl_layout_t *vec = lay("64:1");
  assert_int_equal(cl_tiled_copy_tidfrg(c, CL_COPY_SRC, vec, &l), CL_E_RANK);
  /* retile regroups a fragment: the same elements, (AtomV, RestV, ...) */
  cl_layout_t *frg = lay("(8,2,2):(1,8,16)");
  assert_int_equal(cl_tiled_copy_retile(c, frg, &l), CL_OK);
  assert_int_equal(cl_layout_size(l), 32);
  cl_layout_free(l);
  assert_int_equal(cl_tiled_copy_retile(c, NULL, &l), CL_E_NULL);
  cl_layout_free(frg);
  cl_layout_free(vec);
  cl_tensor_free(t);
  cl_tiled_copy_free(c);

  c = tiled_copy("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(16,8):(8,1)", "(1,8):(0,1)");
  check_tiled_copy(c, true);
  cl_tiled_copy_free(c);
}

static void tiled_copy_of_mma(void **state) {
  (void)state;
  cl_tiled_mma_t *m = tiled("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", NULL);
  static const struct {
    const char *op;
    cl_mma_operand operand;
  } cases[] = {{"SM75_U32x4_LDSM_N", CL_OPERAND_A}, {"SM75_U16x4_LDSM_T", CL_OPERAND_B},
               {"SM90_U32x2_STSM_N", CL_OPERAND_C}, {"UniversalCopy<uint32_t>", CL_OPERAND_A}};
  for (size_t i = 0; i < COUNT_OF(cases); i++) {
    cl_copy_atom_t *a = copy_atom(cases[i].op, "half_t");
    cl_tiled_copy_t *c = NULL;
    if (cl_make_tiled_copy_operand(a, m, cases[i].operand, &c) != CL_OK)
      fail_msg("make_tiled_copy_%c(%s): %s", "ABC"[cases[i].operand], cases[i].op, cl_last_error());
    check_tiled_copy(c, false);
    char buf[256];
    assert_true(cl_tiled_copy_format(c, buf, sizeof buf) > 0);
    assert_non_null(strstr(buf, "make_tiled_copy_"));
    cl_tiled_copy_free(c);
    cl_copy_atom_free(a);
  }
  cl_copy_atom_t *a = copy_atom("SM75_U32x4_LDSM_N", "half_t");
  cl_tiled_copy_t *c = (cl_tiled_copy_t *)1;
  assert_int_equal(cl_make_tiled_copy_operand(a, m, (cl_mma_operand)3, &c), CL_E_DOMAIN);
  assert_null(c);
  /* ldmatrix needs 32 threads: 16 are too few */
  cl_layout_t *thr = lay("(16,1):(1,0)");
  assert_int_equal(cl_make_tiled_copy(a, thr, NULL, &c), CL_E_DIVISIBILITY);
  assert_int_equal(cl_make_tiled_copy(a, NULL, NULL, &c), CL_E_NULL);
  cl_layout_free(thr);
  assert_int_equal(cl_tiled_copy_format(NULL, NULL, 0), -1);
  assert_int_equal(cl_tiled_copy_size(NULL), -1);
  cl_tiled_copy_free(NULL);
  cl_copy_atom_free(a);
  cl_tiled_mma_free(m);
}

/* SM80's 1-bit 16x8x128 POPC atoms: CuTe's traits give A a stride not
 * congruent with its shape.  CuTe builds the atom and the tiled MMA and
 * computes B and C; every use of A is an error naming the condition. */
static void popc_operand_a_is_no_layout(void **state) {
  (void)state;
  cl_mma_atom_t *a = mma("SM80_16x8x128_S32U1U1S32_TN_XORPOPC");
  cl_tiled_mma_t *m = NULL;
  assert_int_equal(cl_make_tiled_mma(a, NULL, NULL, &m), CL_OK);
  cl_layout_t *tv = NULL;
  assert_int_equal(cl_tiled_mma_layout_tv(m, CL_OPERAND_A, &tv), CL_E_TYPE);
  assert_non_null(strstr(cl_last_error(), "SM80_16x8x128_S32U1U1S32_TN_XORPOPC"));
  assert_null(tv);
  assert_int_equal(cl_tiled_mma_layout_tv(m, CL_OPERAND_B, &tv), CL_OK);
  assert_layout_is(tv, "((4,8),(32,(1,1))):((256,1),(8,(0,0)))");
  cl_layout_free(tv);
  cl_layout_t *tensor = NULL, *part = NULL;
  int64_t offset = -1;
  assert_int_equal(cl_layout_parse("(32,256):(1,32)", &tensor), CL_OK);
  assert_int_equal(cl_tiled_mma_partition(m, CL_OPERAND_A, 3, tensor, &part, &offset), CL_E_TYPE);
  assert_null(part);
  /* the tiled MMA's own copy of the atom keeps the condition */
  cl_mma_atom_t *inner = NULL;
  assert_int_equal(cl_tiled_mma_atom(m, &inner), CL_OK);
  assert_int_equal(cl_mma_atom_layout_tv(inner, CL_OPERAND_A, &tv), CL_E_TYPE);
  assert_int_equal(cl_mma_atom_layout_tv(inner, CL_OPERAND_C, &tv), CL_OK);
  assert_layout_is(tv, "((4,8),(2,2)):((32,1),(16,8))");
  cl_layout_free(tv);
  cl_mma_atom_free(inner);
  cl_layout_free(tensor);
  cl_tiled_mma_free(m);
  cl_mma_atom_free(a);
}

static cl_composed_t *composed(const char *text) {
  cl_composed_t *c = NULL;
  if (cl_composed_parse(text, &c) != CL_OK)
    fail_msg("%s: %s", text, cl_last_error());
  return c;
}

/* Partitions and retile of composed (swizzled) layouts: CuTe's answers
 * (tools/atoms/oracle_cases.py), a composed result and a decayed one, and
 * the error paths. */
static void composed_partitions(void **state) {
  (void)state;
  cl_mma_atom_t *a = mma("SM80_16x8x16_F32F16F16F32_TN");
  cl_layout_t *atom_layout = NULL;
  assert_int_equal(cl_layout_parse("(2,2,1):(1,2,0)", &atom_layout), CL_OK);
  cl_tiled_mma_t *m = NULL;
  assert_int_equal(cl_make_tiled_mma(a, atom_layout, NULL, &m), CL_OK);
  cl_composed_t *sw = composed("Sw<2,3,3> o 0 o (64,64):(1,64)"), *c = NULL;
  cl_layout_t *l = NULL;
  int64_t offset = -1;
  assert_int_equal(cl_tiled_mma_partition_composed(m, CL_OPERAND_C, 37, sw, &l, &c, &offset), CL_OK);
  assert_null(l);
  char text[256];
  cl_composed_format(c, text, sizeof text);
  assert_string_equal(text, "Sw<2,3,3> o 144 o ((2,2),2,4):((64,8),32,1024)");
  assert_int_equal(offset, 1);
  cl_composed_free(c);
  cl_composed_t *sw128 = composed("Sw<3,3,3> o 0 o (64,64):(64,1)");
  assert_int_equal(cl_tiled_mma_partition_composed(m, CL_OPERAND_A, 5, sw128, &l, &c, &offset), CL_OK);
  assert_null(c);
  assert_layout_is(l, "((2,2,2),2,4):((1,512,-8),2048,16)");
  assert_int_equal(offset, 74);
  cl_layout_free(l);
  /* errors: a thread outside, NULLs, an inner function that is no layout */
  assert_int_equal(cl_tiled_mma_partition_composed(m, CL_OPERAND_A, 128, sw128, &l, &c, &offset), CL_E_DOMAIN);
  assert_true(l == NULL && c == NULL && offset == 0);
  assert_int_equal(cl_tiled_mma_partition_composed(m, (cl_mma_operand)3, 0, sw128, &l, &c, &offset), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_mma_partition_composed(NULL, CL_OPERAND_A, 0, sw128, &l, &c, &offset), CL_E_NULL);
  assert_int_equal(cl_tiled_mma_partition_composed(m, CL_OPERAND_A, 0, NULL, &l, &c, &offset), CL_E_NULL);
  assert_int_equal(cl_tiled_mma_partition_composed(m, CL_OPERAND_A, 0, sw128, &l, &c, NULL), CL_E_NULL);
  assert_int_equal(cl_tiled_mma_partition_composed(m, CL_OPERAND_A, 0, sw128, NULL, &c, &offset), CL_E_NULL);
  cl_composed_t *inner_sw = composed("(8,8):(8,1) o 0 o Sw<3,3,3>");
  assert_int_equal(cl_tiled_mma_partition_composed(m, CL_OPERAND_A, 0, inner_sw, &l, &c, &offset), CL_E_UNSUPPORTED);

  cl_copy_atom_t *ldsm = copy_atom("SM75_U32x4_LDSM_N", "half_t");
  cl_layout_t *thr = NULL, *val = NULL;
  assert_int_equal(cl_layout_parse("(32,1):(1,0)", &thr), CL_OK);
  assert_int_equal(cl_layout_parse("(1,8):(0,1)", &val), CL_OK);
  cl_tiled_copy_t *tc = NULL;
  assert_int_equal(cl_make_tiled_copy(ldsm, thr, val, &tc), CL_OK);
  cl_composed_t *rows = composed("Sw<3,3,3> o 0 o (32,64):(64,1)");
  assert_int_equal(cl_tiled_copy_partition_composed(tc, CL_COPY_SRC, 7, rows, &l, &c, &offset), CL_OK);
  cl_composed_format(c, text, sizeof text);
  assert_string_equal(text, "Sw<3,3,3> o 256 o (((2,4),1),1,8):(((1,64),0),0,8)");
  assert_int_equal(offset, 1536);
  cl_composed_free(c);
  assert_int_equal(cl_tiled_copy_partition_composed(tc, CL_COPY_SRC, 32, rows, &l, &c, &offset), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_copy_partition_composed(tc, (cl_copy_side)5, 0, rows, &l, &c, &offset), CL_E_DOMAIN);
  assert_int_equal(cl_tiled_copy_partition_composed(NULL, CL_COPY_SRC, 0, rows, &l, &c, &offset), CL_E_NULL);
  assert_int_equal(cl_tiled_copy_partition_composed(tc, CL_COPY_SRC, 0, NULL, &l, &c, &offset), CL_E_NULL);
  assert_int_equal(cl_tiled_copy_partition_composed(tc, CL_COPY_SRC, 0, rows, &l, &c, NULL), CL_E_NULL);
  assert_int_equal(cl_tiled_copy_partition_composed(tc, CL_COPY_SRC, 0, inner_sw, &l, &c, &offset), CL_E_UNSUPPORTED);

  /* retile: a decayed swizzle (CuTe: ((4,2),2,2):((1,4),72,144)) and an
   * offset that stays in the composed layout */
  cl_copy_atom_t *u64 = copy_atom("UniversalCopy<uint64_t>", "half_t");
  cl_layout_t *thr2 = NULL, *val2 = NULL;
  assert_int_equal(cl_layout_parse("(32,8):(8,1)", &thr2), CL_OK);
  assert_int_equal(cl_layout_parse("(1,4):(0,1)", &val2), CL_OK);
  cl_tiled_copy_t *uc = NULL;
  assert_int_equal(cl_make_tiled_copy(u64, thr2, val2, &uc), CL_OK);
  cl_composed_t *frag = composed("Sw<3,3,3> o 0 o (8,2,2):(1,64,128)");
  assert_int_equal(cl_tiled_copy_retile_composed(uc, frag, &l, &c, &offset), CL_OK);
  assert_null(c);
  assert_layout_is(l, "((4,2),2,2):((1,4),72,144)");
  assert_int_equal(offset, 0);
  cl_layout_free(l);
  assert_int_equal(cl_tiled_copy_retile_composed(uc, frag, &l, &c, NULL), CL_E_NULL);
  assert_int_equal(cl_tiled_copy_retile_composed(NULL, frag, &l, &c, &offset), CL_E_NULL);
  assert_int_equal(cl_tiled_copy_retile_composed(uc, NULL, &l, &c, &offset), CL_E_NULL);
  assert_int_equal(cl_tiled_copy_retile_composed(uc, inner_sw, &l, &c, &offset), CL_E_UNSUPPORTED);

  cl_composed_free(frag);
  cl_tiled_copy_free(uc);
  cl_layout_free(thr2);
  cl_layout_free(val2);
  cl_copy_atom_free(u64);
  cl_composed_free(rows);
  cl_tiled_copy_free(tc);
  cl_layout_free(thr);
  cl_layout_free(val);
  cl_copy_atom_free(ldsm);
  cl_composed_free(inner_sw);
  cl_composed_free(sw128);
  cl_composed_free(sw);
  cl_tiled_mma_free(m);
  cl_layout_free(atom_layout);
  cl_mma_atom_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(catalog_mma_invariants), cmocka_unit_test(sparse_gmma), cmocka_unit_test(sparse_sm120), cmocka_unit_test(umma_families), cmocka_unit_test(umma_scaled), cmocka_unit_test(umma_interleaved), cmocka_unit_test(umma_errors), cmocka_unit_test(catalog_copy_invariants),
    cmocka_unit_test(copy_atom_kinds_and_widths), cmocka_unit_test(atom_errors),
    cmocka_unit_test(smem_atoms), cmocka_unit_test(tiled_mma_properties),
    cmocka_unit_test(tiled_mma_partitions), cmocka_unit_test(tiled_mma_errors),
    cmocka_unit_test(tiled_copy_properties), cmocka_unit_test(tiled_copy_of_mma),
    cmocka_unit_test(popc_operand_a_is_no_layout), cmocka_unit_test(composed_partitions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
