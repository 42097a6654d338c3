/* SPDX-License-Identifier: BSD-3-Clause */
/* test_tensor.c: tensor views: making, access, views, fill/apply/
 * transform, the odometer, print_tensor and DLPack.  The copy engine has
 * its own tests (test_copy.c). */
#include <stdbool.h>

#include "test_util.h"

/* ------------------------------------------------------------ helpers */

static int32_t *iota32(int64_t n) {
  int32_t *a = malloc((size_t)n * sizeof *a);
  for (int64_t i = 0; i < n; i++)
    a[i] = (int32_t)i;
  return a;
}

/* ------------------------------------------------------------ element types */

static void test_dtype(void **state) {
  (void)state;
  assert_int_equal(cl_dtype_size(CL_DTYPE_INT8), 1);
  assert_int_equal(cl_dtype_size(CL_DTYPE_BFLOAT16), 2);
  assert_int_equal(cl_dtype_size(CL_DTYPE_FLOAT64), 8);
  assert_int_equal(cl_dtype_size(CL_DTYPE_NONE), 0);
  assert_int_equal(cl_dtype_size((cl_dtype)99), 0);
  assert_string_equal(cl_dtype_name(CL_DTYPE_UINT16), "uint16");
  assert_null(cl_dtype_name((cl_dtype)-1));
  for (int d = 0; d <= CL_DTYPE_FLOAT64; d++) {
    cl_dtype back = CL_DTYPE_NONE;
    assert_int_equal(cl_dtype_parse(cl_dtype_name((cl_dtype)d), &back), CL_OK);
    assert_int_equal(back, d);
  }
  cl_dtype x;
  assert_int_equal(cl_dtype_parse("float128", &x), CL_E_PARSE);
  assert_int_equal(cl_dtype_parse(NULL, &x), CL_E_NULL);
}

/* ------------------------------------------------------------ making */

static void test_create(void **state) {
  (void)state;
  float buf[64];
  cl_layout_t *l = lay("(4,8):(1,4)");
  cl_tensor_t *t = NULL;
  cl_tensor_desc d = {sizeof d, buf, 0, CL_DTYPE_FLOAT32, buf, sizeof buf};
  assert_int_equal(cl_tensor_create(&d, l, &t), CL_OK);
  assert_ptr_equal(cl_tensor_data(t), buf);
  assert_int_equal(cl_tensor_elem_size(t), 4);
  assert_int_equal(cl_tensor_dtype(t), CL_DTYPE_FLOAT32);
  assert_int_equal(cl_tensor_size(t), 32);
  assert_int_equal(cl_tensor_rank(t), 2);
  assert_layout_is(cl_tensor_layout(t), "(4,8):(1,4)");
  assert_true(cl_tensor_layout(t) != l); /* the tensor keeps its own copy */
  cl_tensor_desc back = {sizeof back, 0, 0, 0, 0, 0};
  assert_int_equal(cl_tensor_describe(t, &back), CL_OK);
  assert_ptr_equal(back.data, buf);
  assert_int_equal(back.elem_size, 4);
  assert_ptr_equal(back.extent_base, buf);
  assert_int_equal(back.extent_bytes, sizeof buf);
  cl_tensor_desc tiny = {8, 0, 0, 0, 0, 0}; /* older than any cl_tensor_desc */
  assert_int_equal(cl_tensor_describe(t, &tiny), CL_E_ABI);
  assert_int_equal(cl_tensor_describe(NULL, &back), CL_E_NULL);
  assert_int_equal(cl_tensor_describe(t, NULL), CL_E_NULL);
  int64_t lo, hi;
  assert_int_equal(cl_tensor_offset_range(t, &lo, &hi), CL_OK);
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 31);
  assert_int_equal(cl_tensor_check_bounds(t), CL_OK);
  cl_tensor_t *c = NULL;
  assert_int_equal(cl_tensor_copy_handle(t, &c), CL_OK);
  assert_layout_is(cl_tensor_layout(c), "(4,8):(1,4)");
  cl_tensor_free(c);
  cl_tensor_free(t);

  /* Errors, each leaving *out NULL. */
  t = (cl_tensor_t *)buf;
  assert_int_equal(cl_tensor_create(NULL, l, &t), CL_E_NULL);
  assert_null(t);
  assert_int_equal(cl_tensor_create(&d, NULL, &t), CL_E_NULL);
  assert_int_equal(cl_tensor_create(&d, l, NULL), CL_E_NULL);
  cl_tensor_desc small = d;
  small.struct_size = 8;
  assert_int_equal(cl_tensor_create(&small, l, &t), CL_E_ABI);
  assert_int_equal(cl_tensor_new(buf, 0, l, &t), CL_E_DOMAIN);      /* no size, no type */
  assert_int_equal(cl_tensor_new(buf, (size_t)INT32_MAX + 1, l, &t), CL_E_DOMAIN); /* offsets * size must fit */
  assert_non_null(strstr(cl_last_error(), "too large"));
  assert_null(t);
  cl_tensor_desc wrong = d;
  wrong.elem_size = 8;                                                /* float32 is 4 bytes */
  assert_int_equal(cl_tensor_create(&wrong, l, &t), CL_E_DOMAIN);
  wrong = d;
  wrong.dtype = (cl_dtype)77;
  assert_int_equal(cl_tensor_create(&wrong, l, &t), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_new(NULL, 4, l, &t), CL_E_NULL);       /* elements but no memory */
  cl_tensor_desc tight = d;
  tight.extent_bytes = sizeof buf / 2 - 1;                            /* 32 floats do not fit */
  assert_int_equal(cl_tensor_create(&tight, l, &t), CL_E_BOUNDS);
  assert_null(t);
  tight.extent_bytes = 128;
  assert_int_equal(cl_tensor_create(&tight, l, &t), CL_OK);          /* exactly fits */
  cl_tensor_free(t);
  cl_tensor_desc shifted = d;
  shifted.data = buf + 1;                                             /* starts inside, ends past */
  shifted.extent_bytes = 128;
  assert_int_equal(cl_tensor_create(&shifted, l, &t), CL_E_BOUNDS);
  cl_layout_free(l);

  l = lay("(2,2):(1,4611686018427387904)");
  assert_int_equal(cl_tensor_new(buf, 4, l, &t), CL_E_OVERFLOW);     /* byte offsets overflow */
  cl_layout_free(l);
  l = lay("(4,0):(1,4)");
  assert_int_equal(cl_tensor_new(NULL, 4, l, &t), CL_OK);            /* empty: no memory needed */
  assert_int_equal(cl_tensor_size(t), 0);
  cl_tensor_free(t);
  cl_layout_free(l);

  /* NULL-safe queries and frees. */
  assert_null(cl_tensor_data(NULL));
  assert_null(cl_tensor_layout(NULL));
  assert_int_equal(cl_tensor_size(NULL), 0);
  assert_int_equal(cl_tensor_elem_size(NULL), 0);
  cl_tensor_free(NULL);
}

static void test_negative_strides_and_extent(void **state) {
  (void)state;
  int32_t buf[12];
  for (int i = 0; i < 12; i++)
    buf[i] = i;
  /* A reversed view: element 0 at the end of the buffer. */
  cl_layout_t *l = lay("(3,4):(-1,-3)");
  cl_tensor_desc d = {sizeof d, buf + 11, 0, CL_DTYPE_INT32, buf, sizeof buf};
  cl_tensor_t *t = NULL;
  assert_int_equal(cl_tensor_create(&d, l, &t), CL_OK);
  int64_t lo, hi;
  cl_tensor_offset_range(t, &lo, &hi);
  assert_int_equal(lo, -11);
  assert_int_equal(hi, 0);
  for (int64_t i = 0; i < 12; i++) {
    int32_t v;
    assert_int_equal(cl_tensor_load(t, i, &v), CL_OK);
    assert_int_equal(v, 11 - i);
  }
  cl_tensor_free(t);
  d.data = buf + 10; /* one short: element 11 would be buf[-1] */
  assert_int_equal(cl_tensor_create(&d, l, &t), CL_E_BOUNDS);
  cl_layout_free(l);
}

static void test_alloc_and_like(void **state) {
  (void)state;
  cl_layout_t *l = lay("(3,(2,4)):(8,(-1,2))");
  cl_tensor_t *t = NULL;
  assert_int_equal(cl_tensor_alloc(l, 0, CL_DTYPE_INT64, &t), CL_OK);
  int64_t lo, hi;
  cl_tensor_offset_range(t, &lo, &hi);
  assert_int_equal(lo, -1);
  assert_int_equal(hi, 22);
  for (int64_t i = 0; i < cl_tensor_size(t); i++) {
    int64_t v = -1;
    assert_int_equal(cl_tensor_load(t, i, &v), CL_OK);
    assert_int_equal(v, 0); /* zeroed */
    v = i;
    assert_int_equal(cl_tensor_store(t, i, &v), CL_OK);
  }
  assert_int_equal(cl_tensor_check_bounds(t), CL_OK);

  /* make_tensor_like: same shape, compact strides in the order of t's. */
  cl_tensor_t *like = NULL;
  assert_int_equal(cl_make_tensor_like(t, &like), CL_OK);
  assert_layout_is(cl_tensor_layout(like), "(3,(2,4)):(8,(1,2))");
  assert_int_equal(cl_tensor_dtype(like), CL_DTYPE_INT64);
  assert_int_equal(cl_tensor_copy(like, t), CL_OK);
  for (int64_t i = 0; i < 24; i++) {
    int64_t v;
    cl_tensor_load(like, i, &v);
    assert_int_equal(v, i);
  }
  cl_tensor_t *frag = NULL;
  cl_layout_t *frag_layout = NULL;
  assert_int_equal(cl_make_fragment_like_tensor(t, &frag), CL_OK);
  assert_int_equal(cl_make_fragment_like(l, &frag_layout), CL_OK);
  assert_true(cl_layout_equal(cl_tensor_layout(frag), frag_layout));
  cl_layout_free(frag_layout);
  /* Views of an owning tensor are checked against its storage. */
  cl_layout_t *too_big = lay("(3,9):(8,2)");
  cl_tensor_t *v = NULL;
  assert_int_equal(cl_tensor_with_layout(like, too_big, &v), CL_E_BOUNDS);
  assert_null(v);
  cl_layout_free(too_big);
  cl_tensor_free(frag);
  cl_tensor_free(like);
  cl_tensor_free(t);
  assert_int_equal(cl_tensor_alloc(l, 0, CL_DTYPE_NONE, &t), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_alloc(NULL, 4, CL_DTYPE_NONE, &t), CL_E_NULL);
  assert_int_equal(cl_make_tensor_like(NULL, &t), CL_E_NULL);
  cl_layout_free(l);
}

/* ------------------------------------------------------------ access */

static void test_access(void **state) {
  (void)state;
  int32_t *buf = iota32(64);
  cl_tensor_t *t = tensor(buf, CL_DTYPE_INT32, "((2,2),(2,4)):((1,16),(2,4))");
  /* Linear coordinate: layout(i). */
  cl_layout_t *l = lay("((2,2),(2,4)):((1,16),(2,4))");
  for (int64_t i = 0; i < 32; i++) {
    int64_t off, expect;
    cl_layout_eval(l, i, &expect);
    assert_int_equal(cl_tensor_offset(t, i, &off), CL_OK);
    assert_int_equal(off, expect);
    void *p;
    assert_int_equal(cl_tensor_ptr(t, i, &p), CL_OK);
    assert_ptr_equal(p, buf + expect);
  }
  /* Hierarchical and per-mode coordinates name the same elements. */
  cl_tuple_t *crd = tup("((1,1),(1,2))"), *crd2 = tup("(3,5)"), *crd3 = tup("((1,1),5)");
  void *p1, *p2, *p3, *p4;
  assert_int_equal(cl_tensor_ptr_coord(t, crd, &p1), CL_OK);
  assert_int_equal(cl_tensor_ptr_coord(t, crd2, &p2), CL_OK);
  assert_int_equal(cl_tensor_ptr_coord(t, crd3, &p3), CL_OK);
  int64_t c[2] = {3, 5};
  assert_int_equal(cl_tensor_ptr_at(t, c, 2, &p4), CL_OK);
  assert_ptr_equal(p1, buf + 1 + 16 + 2 + 8);
  assert_ptr_equal(p2, p1);
  assert_ptr_equal(p3, p1);
  assert_ptr_equal(p4, p1);
  int32_t v = 0;
  assert_int_equal(cl_tensor_load_coord(t, crd, &v), CL_OK);
  assert_int_equal(v, 27);
  v = -5;
  assert_int_equal(cl_tensor_store_coord(t, crd2, &v), CL_OK);
  assert_int_equal(buf[27], -5);
  double f;
  assert_int_equal(cl_tensor_load_f64(t, 0, &f), CL_OK);
  assert_true(f == 0.0);
  cl_tuple_free(crd);
  cl_tuple_free(crd2);
  cl_tuple_free(crd3);

  /* Errors. */
  void *p = (void *)buf;
  int64_t off;
  assert_int_equal(cl_tensor_offset(t, 32, &off), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_offset(t, -1, &off), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_ptr(t, 32, &p), CL_E_DOMAIN);
  assert_null(p);
  const char *bad[][2] = {{"(4,0)", "d"}, {"((2,2),(2,4),1)", "r"}, {"((2,2),8)", "d"}, {"((_,0),1)", "t"},
                          {"(((1,0),0),1)", "r"}, {"(0,(0,4))", "d"}, {"(-1,0)", "d"}};
  for (size_t k = 0; k < COUNT_OF(bad); k++) {
    cl_tuple_t *x = tup(bad[k][0]);
    cl_status expect = bad[k][1][0] == 'd' ? CL_E_DOMAIN : bad[k][1][0] == 'r' ? CL_E_RANK : CL_E_TYPE;
    assert_int_equal(cl_tensor_ptr_coord(t, x, &p), expect);
    assert_null(p);
    cl_tuple_free(x);
  }
  int64_t c3[3] = {0, 0, 0}, cbad[2] = {4, 0};
  assert_int_equal(cl_tensor_ptr_at(t, c3, 3, &p), CL_E_RANK);
  assert_int_equal(cl_tensor_ptr_at(t, cbad, 2, &p), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_load(t, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_tensor_ptr(NULL, 0, &p), CL_E_NULL);
  cl_tensor_free(t);
  cl_layout_free(l);

  /* A rank-1 layout with an integer shape takes one coordinate. */
  t = tensor(buf, CL_DTYPE_INT32, "8:2");
  int64_t one = 3;
  assert_int_equal(cl_tensor_ptr_at(t, &one, 1, &p), CL_OK);
  assert_ptr_equal(p, buf + 6);
  cl_tensor_free(t);
  /* load_f64 needs a type. */
  t = raw_tensor(buf, 4, "8:1");
  assert_int_equal(cl_tensor_load_f64(t, 0, &f), CL_E_TYPE);
  cl_tensor_free(t);
  free(buf);
}

static void test_load_f64_types(void **state) {
  (void)state;
  /* Each element type converts exactly for these values. */
  int8_t i8 = -7;
  uint16_t u16 = 65535;
  int64_t i64 = -123456789012345;
  uint64_t u64 = 1ull << 63;
  uint16_t half_one_and_half = 0x3e00, half_min_sub = 0x0001, half_neg_two = 0xc000, bf16_pi = 0x4049;
  float f32 = 0.25f;
  struct {
    void *p;
    cl_dtype d;
    double expect;
  } cases[] = {
    {&i8, CL_DTYPE_INT8, -7},
    {&u16, CL_DTYPE_UINT16, 65535},
    {&i64, CL_DTYPE_INT64, -123456789012345.0},
    {&u64, CL_DTYPE_UINT64, 9223372036854775808.0},
    {&half_one_and_half, CL_DTYPE_FLOAT16, 1.5},
    {&half_min_sub, CL_DTYPE_FLOAT16, 5.9604644775390625e-08},
    {&half_neg_two, CL_DTYPE_FLOAT16, -2},
    {&bf16_pi, CL_DTYPE_BFLOAT16, 3.140625},
    {&f32, CL_DTYPE_FLOAT32, 0.25},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    cl_tensor_t *t = tensor(cases[k].p, cases[k].d, "1:0");
    double v = 0;
    assert_int_equal(cl_tensor_load_f64(t, 0, &v), CL_OK);
    assert_true(v == cases[k].expect);
    cl_tensor_free(t);
  }
}

/* ------------------------------------------------------------ views */

/* Every element of a view is the parent's element at the mapped coordinate. */
static void test_slice(void **state) {
  (void)state;
  int32_t *buf = iota32(256);
  cl_tensor_t *t = tensor(buf, CL_DTYPE_INT32, "((2,4),(4,8)):((64,1),(4,16))");
  const struct {
    const char *crd, *layout;
    int64_t first; /* the offset folded into the pointer */
  } cases[] = {
    {"(_,3)", "((2,4)):((64,1))", 12},
    {"(5,_)", "((4,8)):((4,16))", 66},
    {"((1,_),(_,2))", "(4,4):(1,4)", 64 + 32},
    {"((_,2),_)", "(2,(4,8)):(64,(4,16))", 2},
    {"(_,_)", "((2,4),(4,8)):((64,1),(4,16))", 0},
    {"(7,31)", "():()", 64 + 3 + 12 + 112},
  };
  for (size_t k = 0; k < COUNT_OF(cases); k++) {
    cl_tuple_t *crd = tup(cases[k].crd);
    cl_tensor_t *s = NULL;
    assert_int_equal(cl_tensor_slice(t, crd, &s), CL_OK);
    assert_layout_is(cl_tensor_layout(s), cases[k].layout);
    assert_ptr_equal(cl_tensor_data(s), buf + cases[k].first);
    int32_t v;
    assert_int_equal(cl_tensor_load(s, 0, &v), CL_OK);
    assert_int_equal(v, cases[k].first);
    cl_tensor_free(s);
    cl_tuple_free(crd);
  }
  const char *bad[] = {"(8,_)", "(_,32)", "(_,_,_)", "((_,_,_),_)", "(-1,_)"};
  const cl_status why[] = {CL_E_DOMAIN, CL_E_DOMAIN, CL_E_RANK, CL_E_RANK, CL_E_DOMAIN};
  for (size_t k = 0; k < COUNT_OF(bad); k++) {
    cl_tuple_t *crd = tup(bad[k]);
    cl_tensor_t *s = (cl_tensor_t *)buf;
    assert_int_equal(cl_tensor_slice(t, crd, &s), why[k]);
    assert_null(s);
    cl_tuple_free(crd);
  }
  cl_tensor_free(t);
  free(buf);
}

static void test_flatten_group(void **state) {
  (void)state;
  int32_t *buf = iota32(128);
  cl_tensor_t *t = tensor(buf, CL_DTYPE_INT32, "((2,4),(2,4)):((1,8),(2,16))"), *f = NULL, *g = NULL;
  assert_int_equal(cl_tensor_flatten(t, &f), CL_OK);
  assert_layout_is(cl_tensor_layout(f), "(2,4,2,4):(1,8,2,16)");
  assert_int_equal(cl_tensor_group(f, 1, 3, &g), CL_OK);
  assert_layout_is(cl_tensor_layout(g), "(2,(4,2),4):(1,(8,2),16)");
  for (int64_t i = 0; i < 64; i++) {
    int32_t a, b, c;
    cl_tensor_load(t, i, &a);
    cl_tensor_load(f, i, &b);
    cl_tensor_load(g, i, &c);
    assert_int_equal(a, b);
    assert_int_equal(a, c);
  }
  cl_tensor_t *bad = NULL;
  assert_int_equal(cl_tensor_group(f, 3, 5, &bad), CL_E_DOMAIN);
  cl_tensor_free(g);
  cl_tensor_free(f);
  cl_tensor_free(t);
  free(buf);
}

/* ------------------------------------------------------------ views through the algebra */

/* CuTe's answers (layout, and data offset in elements, or in bytes for
 * recast), from a CuTe C++ program with static integers. */
typedef enum view_op {
  V_LOCAL_TILE, V_INNER, V_OUTER, V_LOCAL_PARTITION, V_COMPOSE, V_COMPOSE_LAYOUT, V_LOGICAL, V_ZIPPED, V_RECAST
} view_op;

static void check_view(const char *tensor_layout, view_op op, const char *arg1, const char *arg2, int64_t index,
                       const char *expect_layout, int64_t expect_offset) {
  static int32_t buf[4096];
  int32_t *base = buf + 2048;
  cl_tensor_t *t = tensor(base, CL_DTYPE_INT32, tensor_layout), *v = NULL;
  bool layout_arg = op == V_LOCAL_PARTITION || op == V_COMPOSE_LAYOUT;
  cl_tuple_t *a = arg1 && !layout_arg ? tup(arg1) : NULL, *b = arg2 ? tup(arg2) : NULL;
  cl_layout_t *thr = layout_arg ? lay(arg1) : NULL;
  cl_status s = CL_E_UNSUPPORTED;
  switch (op) {
  case V_LOCAL_TILE: s = cl_local_tile(t, a, b, &v); break;
  case V_INNER: s = cl_inner_partition(t, a, b, &v); break;
  case V_OUTER: s = cl_outer_partition(t, a, b, &v); break;
  case V_LOCAL_PARTITION: s = cl_local_partition(t, thr, index, &v); break;
  case V_COMPOSE: s = cl_tensor_compose(t, a, &v); break;
  case V_COMPOSE_LAYOUT: s = cl_tensor_compose_layout(t, thr, &v); break;
  case V_LOGICAL: s = cl_tensor_logical_divide(t, a, &v); break;
  case V_ZIPPED: s = cl_tensor_zipped_divide(t, a, &v); break;
  case V_RECAST: s = cl_tensor_recast(t, (size_t)index, CL_DTYPE_NONE, &v); break;
  }
  if (s != CL_OK)
    fail_msg("view of %s with %s, %s: %d %s", tensor_layout, arg1, arg2 ? arg2 : "", s, cl_last_error());
  assert_layout_is(cl_tensor_layout(v), expect_layout);
  int64_t offset = (char *)cl_tensor_data(v) - (char *)base;
  assert_int_equal(offset, op == V_RECAST ? expect_offset : expect_offset * 4);
  /* Every element of the view is an element of the parent (in memory). */
  if (op != V_RECAST)
    for (int64_t i = 0; i < cl_tensor_size(v); i++) {
      void *p;
      assert_int_equal(cl_tensor_ptr(v, i, &p), CL_OK);
      assert_true((int32_t *)p >= base && (int32_t *)p < base + cl_layout_cosize(cl_tensor_layout(t)));
    }
  cl_tensor_free(v);
  cl_tensor_free(t);
  cl_tuple_free(a);
  cl_tuple_free(b);
  cl_layout_free(thr);
}

static void test_algebra_views(void **state) {
  (void)state;
  check_view("(8,12):(1,8)", V_LOCAL_TILE, "(4,3)", "(1,2)", 0, "(4,3):(1,8)", 52);
  check_view("(8,12):(1,8)", V_LOCAL_TILE, "(4,3)", "(1,_)", 0, "(4,3,4):(1,8,24)", 4);
  check_view("(8,12):(1,8)", V_LOCAL_TILE, "(4,3)", "5", 0, "(4,3):(1,8)", 52);
  check_view("(8,12):(1,8)", V_OUTER, "(4,3)", "(1,2)", 0, "(2,4):(4,24)", 17);
  check_view("(8,12):(1,8)", V_INNER, "(4,3)", "(_,2)", 0, "(4,3,2):(1,8,4)", 48);
  check_view("(8,12,5):(1,8,96)", V_LOCAL_TILE, "(4,3)", "(1,2)", 0, "(4,3,5):(1,8,96)", 52);
  check_view("(8,12,5):(1,8,96)", V_LOCAL_TILE, "(4,3)", "(1,2,3)", 0, "(4,3):(1,8)", 340);
  check_view("(16,64):(1,16)", V_LOCAL_PARTITION, "(2,16):(1,2)", NULL, 5, "(8,4):(2,256)", 33);
  check_view("(16,64):(1,16)", V_LOCAL_PARTITION, "(2,16):(16,1)", NULL, 5, "(8,4):(2,256)", 80);
  check_view("(16,64):(1,16)", V_LOCAL_PARTITION, "((2,2),8):((1,16),2)", NULL, 7, "(4,8):(4,128)", 49);
  check_view("(32):(1)", V_LOCAL_PARTITION, "8:1", NULL, 3, "((4)):((8))", 3);
  check_view("(8,12):(1,8)", V_LOCAL_TILE, "(4:2,3:1)", "(1,1)", 0, "(4,3):(2,8)", 25);
  check_view("(8,12):(1,8)", V_COMPOSE, "(4:2,3:4)", NULL, 0, "(4,3):(2,32)", 0);
  check_view("(8,12):(1,8)", V_ZIPPED, "(4,3)", NULL, 0, "((4,3),(2,4)):((1,8),(4,24))", 0);
  /* logical_divide keeps each mode's (tile, rest) where zipped_divide
   * gathers the tiles; the column-major (8,12) is the identity on [0,96), so
   * composing it with a layout gives that layout. */
  check_view("(8,12):(1,8)", V_LOGICAL, "(4,3)", NULL, 0, "((4,2),(3,4)):((1,4),(8,24))", 0);
  check_view("(8,12):(1,8)", V_COMPOSE_LAYOUT, "(4,3):(2,8)", NULL, 0, "(4,3):(2,8)", 0);
  /* recast: the offset is in bytes. */
  check_view("(4,8):(1,4)", V_RECAST, NULL, NULL, 8, "(2,8):(1,2)", 0);
  check_view("(4,8):(1,4)", V_RECAST, NULL, NULL, 2, "(8,8):(1,8)", 0);
  check_view("(4):(-1)", V_RECAST, NULL, NULL, 8, "(2):(-1)", -8);
  check_view("(4,2):(-1,-8)", V_RECAST, NULL, NULL, 8, "(2,2):(-1,-4)", -8);
  check_view("(4,6):(6,1)", V_RECAST, NULL, NULL, 8, "(4,3):(3,1)", 0);

  /* local_tile covers the tensor: tile (i,j) holds T(4i + m, 3j + n). */
  int32_t *buf = iota32(96);
  cl_tensor_t *t = tensor(buf, CL_DTYPE_INT32, "(8,12):(12,1)");
  cl_tuple_t *tiler = tup("(4,3)");
  for (int64_t i = 0; i < 2; i++)
    for (int64_t j = 0; j < 4; j++) {
      char text[64];
      snprintf(text, sizeof text, "(%lld,%lld)", (long long)i, (long long)j);
      cl_tuple_t *crd = tup(text);
      cl_tensor_t *tile = NULL;
      assert_int_equal(cl_local_tile(t, tiler, crd, &tile), CL_OK);
      for (int64_t m = 0; m < 4; m++)
        for (int64_t n = 0; n < 3; n++) {
          int64_t c[2] = {m, n};
          void *p;
          assert_int_equal(cl_tensor_ptr_at(tile, c, 2, &p), CL_OK);
          assert_int_equal(*(int32_t *)p, (4 * i + m) * 12 + 3 * j + n);
        }
      cl_tensor_free(tile);
      cl_tuple_free(crd);
    }
  /* local_partition: thread k of (2,16) owns T(k%2 + 2m, k/2 + 16n) of a (16,64) tensor. */
  int32_t *big = iota32(1024);
  cl_tensor_t *b = tensor(big, CL_DTYPE_INT32, "(16,64):(1,16)");
  cl_layout_t *thr = lay("(2,16):(1,2)");
  for (int64_t k = 0; k < 32; k++) {
    cl_tensor_t *part = NULL;
    assert_int_equal(cl_local_partition(b, thr, k, &part), CL_OK);
    for (int64_t m = 0; m < 8; m++)
      for (int64_t n = 0; n < 4; n++) {
        int64_t c[2] = {m, n};
        void *p;
        assert_int_equal(cl_tensor_ptr_at(part, c, 2, &p), CL_OK);
        assert_int_equal(*(int32_t *)p, (k % 2 + 2 * m) + 16 * (k / 2 + 16 * n));
      }
    cl_tensor_free(part);
  }
  /* Errors. */
  cl_tensor_t *v = NULL;
  assert_int_equal(cl_local_partition(b, thr, 32, &v), CL_E_DOMAIN);
  assert_int_equal(cl_local_partition(b, thr, -1, &v), CL_E_DOMAIN);
  cl_layout_t *bcast = lay("(2,16):(0,1)");
  assert_int_equal(cl_local_partition(b, bcast, 1, &v), CL_E_DOMAIN);
  cl_layout_free(bcast);
  cl_tuple_t *long_crd = tup("(0,0,0)");
  assert_int_equal(cl_local_tile(t, tiler, long_crd, &v), CL_E_RANK);
  assert_null(v);
  /* CuTe tiles 8 rows by 5 (the second tile hangs over the edge); with an
   * extent known, that tile is CL_E_BOUNDS. */
  cl_tuple_t *bad_tiler = tup("(5,3)");
  cl_tuple_t *zero = tup("(1,0)");
  cl_layout_t *rows = lay("(8,12):(12,1)");
  cl_tensor_t *held = NULL;
  assert_int_equal(cl_tensor_alloc(rows, 0, CL_DTYPE_INT32, &held), CL_OK);
  assert_int_equal(cl_local_tile(held, bad_tiler, zero, &v), CL_E_BOUNDS);
  assert_int_equal(cl_local_tile(t, bad_tiler, zero, &v), CL_OK); /* without an extent the caller vouches */
  cl_tensor_free(v);
  cl_tensor_free(held);
  cl_layout_free(rows);
  cl_tuple_t *out_of_range = tup("(2,0)");
  assert_int_equal(cl_local_tile(t, tiler, out_of_range, &v), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_recast(t, 5, CL_DTYPE_NONE, &v), CL_E_DIVISIBILITY); /* 4 -> 5 bytes: upcast<5> of stride 12 */
  assert_int_equal(cl_tensor_recast(t, 4, CL_DTYPE_INT64, &v), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_recast(t, 0, (cl_dtype)77, &v), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "unknown element type 77"));
  assert_int_equal(cl_tensor_recast(t, (size_t)INT32_MAX + 1, CL_DTYPE_NONE, &v), CL_E_DOMAIN);
  assert_non_null(strstr(cl_last_error(), "too large"));
  assert_null(v);
  assert_int_equal(cl_tensor_compose(NULL, tiler, &v), CL_E_NULL);
  /* Bounds: a view past the extent of an owning tensor. */
  cl_layout_t *small = lay("(4,4):(1,4)");
  cl_tensor_t *owned = NULL;
  assert_int_equal(cl_tensor_alloc(small, 4, CL_DTYPE_NONE, &owned), CL_OK);
  cl_tuple_t *wide = tup("(4:1,4:8)");
  assert_int_equal(cl_tensor_compose(owned, wide, &v), CL_E_BOUNDS);
  cl_tuple_free(wide);
  /* 4 rows divided by 3 is (3,2):(1,3) in CuTe, reaching row 5 of 4 */
  cl_tuple_t *by_three = tup("(3,_)"), *rank3 = tup("(2,2,2)");
  v = owned;
  assert_int_equal(cl_tensor_logical_divide(owned, by_three, &v), CL_E_BOUNDS);
  assert_null(v);
  assert_int_equal(cl_tensor_logical_divide(owned, rank3, &v), CL_E_RANK);
  assert_non_null(strstr(cl_last_error(), "too many modes in the tiler"));
  assert_int_equal(cl_tensor_logical_divide(NULL, by_three, &v), CL_E_NULL);
  assert_int_equal(cl_tensor_logical_divide(owned, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_tensor_logical_divide(owned, by_three, NULL), CL_E_NULL);
  cl_tuple_free(rank3);
  cl_tuple_free(by_three);
  cl_layout_t *far = lay("4:8");
  v = owned;
  assert_int_equal(cl_tensor_compose_layout(owned, far, &v), CL_E_BOUNDS);
  assert_null(v);
  assert_int_equal(cl_tensor_compose_layout(NULL, far, &v), CL_E_NULL);
  assert_int_equal(cl_tensor_compose_layout(owned, NULL, &v), CL_E_NULL);
  assert_int_equal(cl_tensor_compose_layout(owned, far, NULL), CL_E_NULL);
  cl_layout_free(far);
  cl_tensor_free(owned);
  cl_layout_free(small);
  cl_tuple_free(out_of_range);
  cl_tuple_free(zero);
  cl_tuple_free(bad_tiler);
  cl_tuple_free(long_crd);
  cl_layout_free(thr);
  cl_tensor_free(b);
  cl_tensor_free(t);
  cl_tuple_free(tiler);
  free(big);
  free(buf);
}

/* ------------------------------------------------------------ fill, apply, transform */

static void test_fill(void **state) {
  (void)state;
  static const char *const layouts[] = {"(4,6):(1,4)", "(4,6):(6,1)", "(4,6):(1,8)", "(4,6):(0,1)",
                                        "(3,(2,4)):(-1,(8,-3))", "(5,5):(1,7)", "1:0", "(64,3):(1,100)"};
  static const size_t elems[] = {1, 2, 4, 8, 3, 300};
  unsigned char value[300];
  for (size_t k = 0; k < sizeof value; k++)
    value[k] = (unsigned char)(k * 7 + 1);
  for (size_t li = 0; li < COUNT_OF(layouts); li++) {
    for (size_t ei = 0; ei < COUNT_OF(elems); ei++) {
      size_t e = elems[ei];
      cl_layout_t *l = lay(layouts[li]);
      cl_tensor_t *probe = NULL;
      unsigned char one;
      cl_tensor_new(&one, e, l, &probe);
      int64_t lo, hi;
      cl_tensor_offset_range(probe, &lo, &hi);
      cl_tensor_free(probe);
      size_t n = (size_t)(hi - lo + 3) * e;
      unsigned char *buf = malloc(n), *expect = malloc(n);
      memset(buf, 0x5A, n);
      memset(expect, 0x5A, n);
      unsigned char *base = buf + (size_t)(1 - lo) * e;
      cl_tensor_t *t = NULL;
      assert_int_equal(cl_tensor_new(base, e, l, &t), CL_OK);
      assert_int_equal(cl_tensor_fill(t, value), CL_OK);
      for (int64_t i = 0; i < cl_layout_size(l); i++) {
        int64_t o;
        cl_layout_eval(l, i, &o);
        memcpy(expect + (size_t)(1 - lo + o) * e, value, e);
      }
      assert_memory_equal(buf, expect, n);
      /* A uniform value takes the memset path. */
      unsigned char zero[300] = {0};
      assert_int_equal(cl_tensor_fill(t, zero), CL_OK);
      for (int64_t i = 0; i < cl_layout_size(l); i++) {
        int64_t o;
        cl_layout_eval(l, i, &o);
        memset(expect + (size_t)(1 - lo + o) * e, 0, e);
      }
      assert_memory_equal(buf, expect, n);
      cl_tensor_free(t);
      cl_layout_free(l);
      free(buf);
      free(expect);
    }
  }
  assert_int_equal(cl_tensor_fill(NULL, value), CL_E_NULL);
}

typedef struct visit {
  int64_t count;
  int32_t *seen;
  int64_t *index;
} visit;

static void record(void *ctx, void *elem, int64_t i) {
  visit *v = ctx;
  v->seen[v->count] = *(int32_t *)elem;
  v->index[v->count] = i;
  v->count++;
  *(int32_t *)elem += 1000;
}

static void test_apply(void **state) {
  (void)state;
  int32_t *buf = iota32(64);
  cl_tensor_t *t = tensor(buf, CL_DTYPE_INT32, "((2,3),(1,4)):((1,16),(7,2))");
  cl_layout_t *l = lay("((2,3),(1,4)):((1,16),(7,2))");
  int32_t seen[24];
  int64_t index[24];
  visit v = {0, seen, index};
  assert_int_equal(cl_tensor_apply(t, record, &v), CL_OK);
  assert_int_equal(v.count, 24);
  for (int64_t i = 0; i < 24; i++) {
    int64_t o;
    cl_layout_eval(l, i, &o);
    assert_int_equal(index[i], i); /* in order */
    assert_int_equal(seen[i], o);
    assert_int_equal(buf[o], o + 1000);
  }
  assert_int_equal(cl_tensor_apply(t, NULL, NULL), CL_E_NULL);
  cl_tensor_free(t);
  cl_layout_free(l);
  free(buf);
}

static void int_to_float(void *ctx, void *dst, const void *src) {
  float f = (float)*(const int32_t *)src * *(const float *)ctx;
  memcpy(dst, &f, sizeof f);
}

static void negate(void *ctx, void *dst, const void *src) {
  (void)ctx;
  *(int32_t *)dst = -*(const int32_t *)src;
}

static void test_transform(void **state) {
  (void)state;
  int32_t *in = iota32(24);
  float out[24];
  cl_tensor_t *src = tensor(in, CL_DTYPE_INT32, "(4,6):(6,1)"), *dst = tensor(out, CL_DTYPE_FLOAT32, "(4,6):(1,4)");
  float scale = 0.5f;
  assert_int_equal(cl_tensor_transform(dst, src, int_to_float, &scale), CL_OK);
  for (int r = 0; r < 4; r++)
    for (int c = 0; c < 6; c++)
      assert_true(out[r + 4 * c] == 0.5f * (float)(6 * r + c));
  /* In place through the same view is allowed; other overlap is not. */
  assert_int_equal(cl_tensor_transform(src, src, negate, NULL), CL_OK);
  assert_int_equal(in[5], -5);
  cl_tensor_t *alias = tensor(in, CL_DTYPE_INT32, "(4,6):(1,4)");
  assert_int_equal(cl_tensor_transform(alias, src, negate, NULL), CL_E_OVERLAP);
  cl_tensor_t *small = tensor(in, CL_DTYPE_INT32, "(4,5):(1,4)");
  assert_int_equal(cl_tensor_transform(dst, small, int_to_float, &scale), CL_E_DOMAIN);
  assert_int_equal(cl_tensor_transform(dst, src, NULL, NULL), CL_E_NULL);
  cl_tensor_free(small);
  cl_tensor_free(alias);
  cl_tensor_free(src);
  cl_tensor_free(dst);
  free(in);
}

/* ------------------------------------------------------------ odometer */

static void check_odometer(const char *text, void *ctx) {
  (void)ctx;
  cl_layout_t *l = lay(text);
  cl_odometer_t *it = NULL;
  assert_int_equal(cl_odometer_new(l, &it), CL_OK);
  int64_t size = cl_layout_size(l), off = 0, leaves = cl_odometer_leaves(it);
  assert_int_equal(cl_odometer_index(it), -1);
  int64_t *coord = malloc((size_t)(leaves + 1) * sizeof *coord);
  bool rank0 = cl_layout_rank(l) == 0; /* CuTe cannot evaluate (); its one offset is 0 */
  for (int64_t i = 0; i < size; i++) {
    int64_t expect = 0;
    if (!rank0)
      assert_int_equal(cl_layout_eval(l, i, &expect), CL_OK);
    assert_int_equal(cl_odometer_next(it, &off), 1);
    assert_int_equal(off, expect);
    assert_int_equal(cl_odometer_index(it), i);
    /* The flat coordinate is i split colexicographically over the leaves. */
    assert_int_equal(cl_odometer_coord(it, coord, leaves), CL_OK);
    int64_t back = 0, scale = 1;
    cl_tuple_t *shape = NULL, *flat = NULL;
    cl_layout_shape(l, &shape);
    cl_tuple_flatten(shape, &flat);
    for (int64_t k = 0; k < leaves; k++) {
      cl_tuple_t *e = NULL;
      int64_t ext;
      int64_t path = k;
      cl_tuple_get(flat, &path, 1, &e);
      cl_tuple_value(e, &ext);
      assert_true(coord[k] >= 0 && coord[k] < ext);
      back += coord[k] * scale;
      scale *= ext;
      cl_tuple_free(e);
    }
    assert_int_equal(back, i);
    cl_tuple_free(flat);
    cl_tuple_free(shape);
  }
  assert_int_equal(cl_odometer_next(it, &off), 0);
  /* Batches of every size give the same sequence. */
  int64_t batch[7];
  for (int64_t cap = 1; cap <= 7; cap++) {
    cl_odometer_reset(it);
    int64_t i = 0, got;
    while ((got = cl_odometer_next_batch(it, batch, cap)) > 0) {
      for (int64_t k = 0; k < got; k++, i++) {
        int64_t expect = 0;
        if (!rank0)
          cl_layout_eval(l, i, &expect);
        assert_int_equal(batch[k], expect);
      }
    }
    assert_int_equal(i, size);
  }
  assert_int_equal(cl_odometer_coord(it, coord, leaves + 1), CL_E_RANK);
  free(coord);
  cl_odometer_free(it);
  cl_layout_free(l);
}

static void test_odometer(void **state) {
  (void)state;
  static const int extents[] = {1, 2, 3};
  static const int strides[] = {0, 1, -2, 5};
  int n = for_each_small_layout(extents, COUNT_OF(extents), strides, COUNT_OF(strides), check_odometer, NULL);
  assert_true(n > 1000);
  check_odometer("((4,8),(2,(2,4))):((2,16),(1,(8,128)))", NULL);
  check_odometer("():()", NULL);
  check_odometer("(3,0):(1,3)", NULL);
  cl_odometer_t *it = NULL;
  assert_int_equal(cl_odometer_new(NULL, &it), CL_E_NULL);
  assert_int_equal(cl_odometer_next(NULL, NULL), 0);
  cl_odometer_free(NULL);
}

/* ------------------------------------------------------------ print_tensor */

static char *printed(const cl_tensor_t *t, unsigned flags) {
  int64_t n = cl_print_tensor(t, flags, NULL, 0);
  assert_true(n >= 0);
  char *s = malloc((size_t)n + 1);
  assert_int_equal(cl_print_tensor(t, flags, s, (size_t)n + 1), n);
  return s;
}

static void test_print_tensor(void **state) {
  (void)state;
  int32_t *buf = iota32(64);
  /* CuTe's print_tensor of int32 (%5d per element). */
  cl_tensor_t *t = tensor(buf, CL_DTYPE_INT32, "(2,3):(3,1)");
  char *s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "    0    1    2\n    3    4    5\n");
  free(s);
  s = printed(t, 0);
  char head[96];
  snprintf(head, sizeof head, "ptr[32b](%p) o (2,3):(3,1):\n", (void *)buf);
  assert_true(strncmp(s, head, strlen(head)) == 0);
  assert_string_equal(s + strlen(head), "    0    1    2\n    3    4    5\n");
  /* Truncation is snprintf's. */
  char small[8];
  assert_int_equal(cl_print_tensor(t, CL_PRINT_NO_HEADER, small, sizeof small), 32);
  assert_string_equal(small, "    0  ");
  free(s);
  cl_tensor_free(t);

  t = tensor(buf, CL_DTYPE_INT32, "4:2");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "    0\n    2\n    4\n    6\n");
  free(s);
  cl_tensor_free(t);

  /* Rank 3: tables of modes 0 and 1 for each coordinate of mode 2. */
  t = tensor(buf, CL_DTYPE_INT32, "(2,2,2):(1,2,4)");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "    0    2\n    1    3\n----------\n    4    6\n    5    7\n");
  free(s);
  cl_tensor_free(t);

  /* Rank 4: rank-3 blocks separated by '='. */
  t = tensor(buf, CL_DTYPE_INT32, "(1,2,2,2):(0,1,2,4)");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "    0    1\n----------\n    2    3\n==========\n    4    5\n----------\n    6    7\n");
  free(s);
  cl_tensor_free(t);

  /* Hierarchical modes print by their linear coordinate; rank 5 uses '#'. */
  t = tensor(buf, CL_DTYPE_INT32, "((2,2),1,1,1,2):((2,1),0,0,0,4)");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "    0\n    2\n    1\n    3\n#####\n    4\n    6\n    5\n    7\n");
  free(s);
  cl_tensor_free(t);

  /* Element types: CuTe's pretty_print formats. */
  float f[2] = {1.5f, -20.0f};
  t = tensor(f, CL_DTYPE_FLOAT32, "(1,2):(0,1)");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "  1.50e+00 -2.00e+01\n");
  free(s);
  cl_tensor_free(t);
  double d = 3.25;
  t = tensor(&d, CL_DTYPE_FLOAT64, "1:0");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "  3.250e+00\n");
  free(s);
  cl_tensor_free(t);
  uint16_t h[2] = {0x3c00, 0xc100}; /* 1.0, -2.5 */
  t = tensor(h, CL_DTYPE_FLOAT16, "2:1");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "    1.00\n   -2.50\n");
  free(s);
  cl_tensor_free(t);
  int8_t i8[2] = {-3, 7};
  t = tensor(i8, CL_DTYPE_INT8, "(1,2):(0,1)");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "  -3  7\n");
  free(s);
  cl_tensor_free(t);
  int64_t i64 = -42;
  t = tensor(&i64, CL_DTYPE_INT64, "():()");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "  -42\n"); /* rank 0: the one element */
  free(s);
  cl_tensor_free(t);
  unsigned char bytes[3] = {0xab, 0x01, 0xff};
  t = raw_tensor(bytes, 3, "1:0");
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_string_equal(s, "  0xab01ff\n");
  free(s);
  cl_tensor_free(t);

  /* The stream version writes the same text. */
  t = tensor(buf, CL_DTYPE_INT32, "(3,(2,2)):(4,(1,2))");
  FILE *tmp = tmpfile();
  assert_non_null(tmp);
  int64_t n = cl_print_tensor_file(t, CL_PRINT_NO_HEADER, tmp);
  s = printed(t, CL_PRINT_NO_HEADER);
  assert_int_equal(n, (int64_t)strlen(s));
  rewind(tmp);
  char *back = calloc((size_t)n + 1, 1);
  assert_int_equal(fread(back, 1, (size_t)n, tmp), (size_t)n);
  assert_string_equal(back, s);
  assert_string_equal(s, "    0    1    2    3\n    4    5    6    7\n    8    9   10   11\n");
  fclose(tmp);
  free(back);
  free(s);
  assert_int_equal(cl_print_tensor_file(t, 0, NULL), CL_E_NULL);
  assert_int_equal(cl_print_tensor(t, 0, NULL, 5), CL_E_NULL);
  cl_tensor_free(t);
  free(buf);
}

/* ------------------------------------------------------------ DLPack */

static void test_dlpack_import(void **state) {
  (void)state;
  float *buf = malloc(64 * sizeof *buf);
  for (int i = 0; i < 64; i++)
    buf[i] = (float)i;
  /* A 3x4 row-major array (strides NULL), starting 8 bytes in. */
  int64_t shape[2] = {3, 4};
  cl_dltensor_t dl = {buf, {1, 0}, 2, {2, 32, 1}, shape, NULL, 8};
  cl_tensor_t *t = NULL;
  assert_int_equal(cl_tensor_from_dlpack(&dl, &t), CL_OK);
  assert_layout_is(cl_tensor_layout(t), "(3,4):(4,1)");
  assert_int_equal(cl_tensor_dtype(t), CL_DTYPE_FLOAT32);
  assert_ptr_equal(cl_tensor_data(t), buf + 2);
  int64_t c[2] = {2, 1};
  void *p;
  assert_int_equal(cl_tensor_ptr_at(t, c, 2, &p), CL_OK);
  assert_true(*(float *)p == 2 + 9); /* numpy's a[2,1] */
  cl_tensor_free(t);

  /* Explicit strides, negative included: a[::-1, ::2] of an 4x8 array. */
  int64_t shape2[2] = {4, 4}, strides2[2] = {-8, 2};
  cl_dltensor_t rev = {buf, {1, 0}, 2, {2, 32, 1}, shape2, strides2, 24 * sizeof(float)};
  assert_int_equal(cl_tensor_from_dlpack(&rev, &t), CL_OK);
  assert_layout_is(cl_tensor_layout(t), "(4,4):(-8,2)");
  float v;
  int64_t crd[2] = {1, 3};
  assert_int_equal(cl_tensor_ptr_at(t, crd, 2, &p), CL_OK);
  memcpy(&v, p, sizeof v);
  assert_true(v == 24 - 8 + 6);
  cl_tensor_free(t);

  /* ndim 0 is a scalar. */
  cl_dltensor_t scalar = {buf + 5, {1, 0}, 0, {2, 32, 1}, NULL, NULL, 0};
  assert_int_equal(cl_tensor_from_dlpack(&scalar, &t), CL_OK);
  assert_layout_is(cl_tensor_layout(t), "():()");
  assert_int_equal(cl_tensor_size(t), 1);
  cl_tensor_free(t);

  /* Type codes. */
  const struct {
    uint8_t code, bits;
    uint16_t lanes;
    cl_dtype expect;
    size_t elem;
  } types[] = {{0, 8, 1, CL_DTYPE_INT8, 1},     {0, 64, 1, CL_DTYPE_INT64, 8},   {1, 16, 1, CL_DTYPE_UINT16, 2},
               {2, 16, 1, CL_DTYPE_FLOAT16, 2}, {2, 64, 1, CL_DTYPE_FLOAT64, 8}, {4, 16, 1, CL_DTYPE_BFLOAT16, 2},
               {5, 64, 1, CL_DTYPE_NONE, 8},    {2, 32, 4, CL_DTYPE_NONE, 16},   {6, 8, 1, CL_DTYPE_NONE, 1}};
  for (size_t k = 0; k < COUNT_OF(types); k++) {
    int64_t one = 2;
    cl_dltensor_t x = {buf, {1, 0}, 1, {types[k].code, types[k].bits, types[k].lanes}, &one, NULL, 0};
    assert_int_equal(cl_tensor_from_dlpack(&x, &t), CL_OK);
    assert_int_equal(cl_tensor_dtype(t), types[k].expect);
    assert_int_equal(cl_tensor_elem_size(t), types[k].elem);
    cl_tensor_free(t);
  }

  /* Errors. */
  cl_dltensor_t gpu = dl;
  gpu.device.device_type = 2; /* CUDA device memory */
  t = (cl_tensor_t *)buf;
  assert_int_equal(cl_tensor_from_dlpack(&gpu, &t), CL_E_UNSUPPORTED);
  assert_null(t);
  cl_dltensor_t bits = dl;
  bits.dtype.bits = 4;
  assert_int_equal(cl_tensor_from_dlpack(&bits, &t), CL_E_UNSUPPORTED);
  cl_dltensor_t neg = dl;
  neg.ndim = -1;
  assert_int_equal(cl_tensor_from_dlpack(&neg, &t), CL_E_DOMAIN);
  int64_t bad_shape[2] = {3, -4};
  cl_dltensor_t negext = dl;
  negext.shape = bad_shape;
  assert_int_equal(cl_tensor_from_dlpack(&negext, &t), CL_E_DOMAIN);
  cl_dltensor_t noshape = dl;
  noshape.shape = NULL;
  assert_int_equal(cl_tensor_from_dlpack(&noshape, &t), CL_E_NULL);
  assert_int_equal(cl_tensor_from_dlpack(NULL, &t), CL_E_NULL);
  cl_dltensor_t deep = dl;
  deep.ndim = CL_MAX_RANK + 1; /* refused before the shape is read */
  assert_int_equal(cl_tensor_from_dlpack(&deep, &t), CL_E_LIMIT);
  cl_dltensor_t far = dl;
  far.byte_offset = (uint64_t)INT64_MAX + 1;
  assert_int_equal(cl_tensor_from_dlpack(&far, &t), CL_E_OVERFLOW);
  assert_null(t);
  free(buf);
}

static void test_dlpack_export(void **state) {
  (void)state;
  double buf[128];
  int64_t shape[4], strides[4];
  cl_dltensor_t dl;
  const struct {
    const char *layout;
    int32_t ndim;
    int64_t shape[3], strides[3];
  } ok[] = {
    {"(3,4):(4,1)", 2, {3, 4}, {4, 1}},
    {"((2,4),3):((1,2),8)", 2, {8, 3}, {1, 8}},     /* a mode that coalesces */
    {"(5,(1,3)):(-2,(7,10))", 2, {5, 3}, {-2, 10}}, /* extent-1 leaves drop out */
    {"8:3", 1, {8}, {3}},
    {"(1):(9)", 1, {1}, {9}},                       /* a lone unit mode keeps its stride */
    {"(2,0):(1,2)", 2, {2, 0}, {1, 2}},
  };
  for (size_t k = 0; k < COUNT_OF(ok); k++) {
    cl_tensor_t *t = tensor(buf + 40, CL_DTYPE_FLOAT64, ok[k].layout);
    assert_int_equal(cl_tensor_to_dlpack(t, &dl, shape, strides, 4), CL_OK);
    assert_int_equal(dl.ndim, ok[k].ndim);
    assert_ptr_equal(dl.data, buf + 40);
    assert_int_equal(dl.byte_offset, 0);
    assert_int_equal(dl.device.device_type, 1);
    assert_int_equal(dl.dtype.code, 2);
    assert_int_equal(dl.dtype.bits, 64);
    assert_int_equal(dl.dtype.lanes, 1);
    for (int32_t d = 0; d < dl.ndim; d++) {
      assert_int_equal(dl.shape[d], ok[k].shape[d]);
      assert_int_equal(dl.strides[d], ok[k].strides[d]);
    }
    /* Round trip: the imported view reaches the same elements. */
    cl_tensor_t *back = NULL;
    assert_int_equal(cl_tensor_from_dlpack(&dl, &back), CL_OK);
    assert_int_equal(cl_tensor_size(back), cl_tensor_size(t));
    for (int64_t i = 0; i < cl_tensor_size(t); i++) {
      void *p, *q;
      assert_int_equal(cl_tensor_ptr(t, i, &p), CL_OK);
      assert_int_equal(cl_tensor_ptr(back, i, &q), CL_OK);
      assert_ptr_equal(p, q);
    }
    cl_tensor_free(back);
    cl_tensor_free(t);
  }
  /* Rank 0 and untyped elements. */
  cl_tensor_t *t = tensor(buf, CL_DTYPE_FLOAT64, "():()");
  assert_int_equal(cl_tensor_to_dlpack(t, &dl, NULL, NULL, 0), CL_OK);
  assert_int_equal(dl.ndim, 0);
  assert_null(dl.shape);
  cl_tensor_free(t);
  t = raw_tensor(buf, 40, "2:1");
  assert_int_equal(cl_tensor_to_dlpack(t, &dl, shape, strides, 4), CL_OK);
  assert_int_equal(dl.dtype.code, 3);
  assert_int_equal((int)dl.dtype.bits * dl.dtype.lanes, 320);
  cl_tensor_t *back = NULL;
  assert_int_equal(cl_tensor_from_dlpack(&dl, &back), CL_OK);
  assert_int_equal(cl_tensor_elem_size(back), 40);
  cl_tensor_free(back);
  cl_tensor_free(t);

  /* DLPack's type codes: kDLUInt 1 and kDLBfloat 4, each read back as the
   * same type; elements of 64 KiB have no DLDataType (bits is 16-bit). */
  const struct {
    cl_dtype dtype;
    uint8_t code, bits;
  } codes[] = {{CL_DTYPE_UINT8, 1, 8}, {CL_DTYPE_UINT64, 1, 64}, {CL_DTYPE_BFLOAT16, 4, 16}, {CL_DTYPE_INT16, 0, 16}};
  for (size_t k = 0; k < COUNT_OF(codes); k++) {
    t = tensor(buf, codes[k].dtype, "4:1");
    assert_int_equal(cl_tensor_to_dlpack(t, &dl, shape, strides, 4), CL_OK);
    assert_int_equal(dl.dtype.code, codes[k].code);
    assert_int_equal(dl.dtype.bits, codes[k].bits);
    assert_int_equal(cl_tensor_from_dlpack(&dl, &back), CL_OK);
    assert_int_equal(cl_tensor_dtype(back), codes[k].dtype);
    cl_tensor_free(back);
    cl_tensor_free(t);
  }
  t = raw_tensor(buf, 65536, "1:1");
  assert_int_equal(cl_tensor_to_dlpack(t, &dl, shape, strides, 4), CL_E_UNSUPPORTED);
  cl_tensor_free(t);

  /* Not one extent and stride per mode; too little room; NULLs. */
  t = tensor(buf, CL_DTYPE_FLOAT64, "((2,4),3):((1,3),8)");
  assert_int_equal(cl_tensor_to_dlpack(t, &dl, shape, strides, 4), CL_E_UNSUPPORTED);
  cl_tensor_free(t);
  t = tensor(buf, CL_DTYPE_FLOAT64, "(2,2,2,2,2):(1,2,4,8,16)");
  assert_int_equal(cl_tensor_to_dlpack(t, &dl, shape, strides, 4), CL_E_LIMIT);
  assert_int_equal(cl_tensor_to_dlpack(t, NULL, shape, strides, 8), CL_E_NULL);
  assert_int_equal(cl_tensor_to_dlpack(t, &dl, NULL, strides, 8), CL_E_NULL);
  cl_tensor_free(t);
}

/* ------------------------------------------------------------ allocation failure */

static int fail_after = -1;
static void *failing_alloc(void *ctx, size_t n) {
  (void)ctx;
  if (fail_after == 0)
    return NULL;
  if (fail_after > 0)
    fail_after--;
  return malloc(n);
}
static void *failing_realloc(void *ctx, void *p, size_t n) {
  (void)ctx;
  if (fail_after == 0)
    return NULL;
  if (fail_after > 0)
    fail_after--;
  return realloc(p, n);
}
static void plain_free(void *ctx, void *p) {
  (void)ctx;
  free(p);
}

/* Every allocation of a sequence of calls fails in turn: each call reports
 * CL_E_NOMEM or succeeds, and (under ASan) nothing leaks. */
static void test_allocation_failure(void **state) {
  (void)state;
  static float a[64 * 64], b[64 * 64];
  cl_allocator alloc = {failing_alloc, failing_realloc, plain_free, NULL};
  for (int k = 0; k < 40; k++) {
    cl_layout_t *dl = lay("((8,8),(8,8)):((1,512),(64,8))"), *sl = lay("(64,64):(64,1)");
    cl_tuple_t *crd = tup("(_,3)");
    fail_after = k;
    assert_int_equal(cl_set_allocator(&alloc), CL_OK);
    cl_tensor_t *dst = NULL, *src = NULL, *sl_view = NULL, *owned = NULL;
    cl_odometer_t *it = NULL;
    cl_status s1 = cl_tensor_new_typed(b, CL_DTYPE_FLOAT32, dl, &dst);
    cl_status s2 = cl_tensor_new_typed(a, CL_DTYPE_FLOAT32, sl, &src);
    if (s1 == CL_OK && s2 == CL_OK) {
      cl_status s = cl_tensor_copy(dst, src);
      assert_true(s == CL_OK || s == CL_E_NOMEM);
      s = cl_tensor_slice(dst, crd, &sl_view);
      assert_true(s == CL_OK || s == CL_E_NOMEM);
      s = cl_make_tensor_like(dst, &owned);
      assert_true(s == CL_OK || s == CL_E_NOMEM);
      int64_t n = cl_print_tensor(src, 0, NULL, 0);
      assert_true(n > 0 || n == CL_E_NOMEM);
    }
    cl_status s3 = cl_odometer_new(dl, &it);
    assert_true(s3 == CL_OK || s3 == CL_E_NOMEM);
    assert_true(s1 == CL_OK || (s1 == CL_E_NOMEM && dst == NULL));
    assert_true(s2 == CL_OK || (s2 == CL_E_NOMEM && src == NULL));
    cl_set_allocator(NULL);
    fail_after = -1;
    cl_odometer_free(it);
    cl_tensor_free(owned);
    cl_tensor_free(sl_view);
    cl_tensor_free(dst);
    cl_tensor_free(src);
    cl_tuple_free(crd);
    cl_layout_free(dl);
    cl_layout_free(sl);
  }
}

/* Byte extents, owned storage, thread coordinates and printed tensors near
 * the limits: an error status, never a wrapped size, a division by zero or a
 * table written past its allocation. */
static void test_overflow_and_limits(void **state) {
  (void)state;
  char buf[64];
  cl_tensor_t *t = (cl_tensor_t *)1;
  /* Owned storage spans hi - lo + 1 elements: strides of both signs near
   * 2^62 make that 2^63 + 1 (it used to wrap to a negative count). */
  static const char *const too_wide[] = {"(2,2):(4611686018427387904,-4611686018427387904)",
                                         "(2,2):(9223372036854775807,-9223372036854775807)",
                                         "9223372036854775807:2"};
  for (size_t i = 0; i < COUNT_OF(too_wide); i++) {
    cl_layout_t *l = lay(too_wide[i]);
    assert_int_equal(cl_tensor_alloc(l, 1, CL_DTYPE_NONE, &t), CL_E_OVERFLOW);
    assert_null(t);
    assert_non_null(strstr(cl_last_error(), "overflow"));
    cl_layout_free(l);
  }
  /* A view may reach the largest byte offset, and not one past it. */
  cl_layout_t *far = lay("2:9223372036854775806");
  assert_int_equal(cl_tensor_new(buf, 1, far, &t), CL_OK); /* bytes [0, 2^63 - 1) */
  cl_tensor_free(t);
  assert_int_equal(cl_tensor_new(buf, 2, far, &t), CL_E_OVERFLOW);
  cl_layout_free(far);
  far = lay("2:-4611686018427387904"); /* down to byte -2^63: below address 0 (test_address_space) */
  assert_int_equal(cl_tensor_new(buf, 2, far, &t), CL_E_OVERFLOW);
  cl_layout_free(far);

  /* print_tensor: a stride-0 view of 2^61 elements used to size its table of
   * offsets as 2^61 * 8 bytes, which wraps to 0 in size_t. */
  static const char *const too_many[] = {"2305843009213693952:0", "(1,(1048577)):(0,(0))", "(1024,1025):(0,0)",
                                         "(0,4611686018427387904):(0,0)", "(2,2,2,0,4611686018427387904):(1,2,4,0,0)"};
  for (size_t i = 0; i < COUNT_OF(too_many); i++) {
    cl_layout_t *l = lay(too_many[i]);
    assert_int_equal(cl_tensor_new(buf, 1, l, &t), CL_OK);
    assert_int_equal(cl_print_tensor(t, 0, buf, sizeof buf), CL_E_LIMIT);
    assert_non_null(strstr(cl_last_error(), "a picture shows"));
    cl_tensor_free(t);
    cl_layout_free(l);
  }
  cl_layout_t *most = lay("(1024,1024):(0,0)");
  assert_int_equal(cl_tensor_new(buf, 1, most, &t), CL_OK);
  assert_true(cl_print_tensor(t, CL_PRINT_NO_HEADER, NULL, 0) > 1048576 * 4);
  cl_tensor_free(t);
  cl_layout_free(most);

  /* local_partition: a thread mode of extent 0 has no coordinates (it used
   * to divide by it), and a coordinate beyond int64_t is an overflow. */
  cl_layout_t *data = lay("(8,8):(1,8)");
  cl_tensor_t *b = NULL, *v = (cl_tensor_t *)1;
  assert_int_equal(cl_tensor_new(buf, 1, data, &b), CL_OK);
  cl_layout_t *empty_mode = lay("(0,4):(1,1)"), *wide = lay("((4294967296,4294967296)):((1,1))");
  assert_int_equal(cl_local_partition(b, empty_mode, 1, &v), CL_E_DOMAIN);
  assert_null(v);
  assert_non_null(strstr(cl_last_error(), "has no threads"));
  assert_int_equal(cl_local_partition(b, wide, 4294967295, &v), CL_E_OVERFLOW);
  assert_null(v);
  cl_layout_free(empty_mode);
  cl_layout_free(wide);
  cl_tensor_free(b);
  cl_layout_free(data);
}

/* A view whose elements would lie below address 0 or past the top of the
 * address space has no memory to view: CL_E_OVERFLOW when it is made, never
 * a pointer that wraps.  (fuzz_tensor: composing a tensor with 3:-2^56+...
 * made a view whose cl_tensor_ptr computed such a pointer, which is
 * undefined behaviour; regressions/tensor/address-wraps-00a40175.) */
static void test_address_space(void **state) {
  (void)state;
  static char buf[64];
  cl_tensor_t *t = (cl_tensor_t *)1, *v = (cl_tensor_t *)1;
  cl_layout_t *src = lay("(6,1):(12,1)"), *down = lay("3:-72057594031414429");
  assert_int_equal(cl_tensor_new(buf, 1, src, &t), CL_OK);
  assert_int_equal(cl_tensor_compose_layout(t, down, &v), CL_E_OVERFLOW);
  assert_null(v);
  assert_non_null(strstr(cl_last_error(), "address space"));
  cl_tensor_free(t);
  t = (cl_tensor_t *)1;
  assert_int_equal(cl_tensor_new(buf, 1, down, &t), CL_E_OVERFLOW);
  assert_null(t);

  /* Just inside and just outside, at both ends: data 16 reaches down to
   * address 0 and not below; 16 bytes below the top reach up to it. */
  cl_layout_t *below = lay("2:-16"), *under = lay("2:-17"), *up = lay("16:1"), *over = lay("17:1");
  void *low = (void *)(uintptr_t)16, *high = (void *)(UINTPTR_MAX - 15);
  assert_int_equal(cl_tensor_new(low, 1, below, &t), CL_OK);
  cl_tensor_free(t);
  assert_int_equal(cl_tensor_new(low, 1, under, &t), CL_E_OVERFLOW);
  assert_int_equal(cl_tensor_new(high, 1, up, &t), CL_E_OVERFLOW); /* one past the last byte: UINTPTR_MAX + 1 */
  cl_layout_t *fits = lay("15:1");
  assert_int_equal(cl_tensor_new(high, 1, fits, &t), CL_OK);
  cl_tensor_free(t);
  assert_int_equal(cl_tensor_new(high, 1, over, &t), CL_E_OVERFLOW);
  cl_layout_free(fits);
  cl_layout_free(over);
  cl_layout_free(up);
  cl_layout_free(under);
  cl_layout_free(below);
  cl_layout_free(down);
  cl_layout_free(src);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_dtype),
    cmocka_unit_test(test_create),
    cmocka_unit_test(test_negative_strides_and_extent),
    cmocka_unit_test(test_alloc_and_like),
    cmocka_unit_test(test_access),
    cmocka_unit_test(test_load_f64_types),
    cmocka_unit_test(test_slice),
    cmocka_unit_test(test_flatten_group),
    cmocka_unit_test(test_algebra_views),
    cmocka_unit_test(test_fill),
    cmocka_unit_test(test_apply),
    cmocka_unit_test(test_transform),
    cmocka_unit_test(test_odometer),
    cmocka_unit_test(test_print_tensor),
    cmocka_unit_test(test_dlpack_import),
    cmocka_unit_test(test_dlpack_export),
    cmocka_unit_test(test_overflow_and_limits),
    cmocka_unit_test(test_address_space),
    cmocka_unit_test(test_allocation_failure),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
