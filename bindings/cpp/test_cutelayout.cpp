/* SPDX-License-Identifier: BSD-3-Clause */
/* Tests of <cutelayout/cutelayout.hpp>: value semantics (copy, move, ==,
 * std::hash, streaming), evaluation against the definition of a layout, the
 * algebra against its defining properties on families of small layouts,
 * swizzles and composed layouts, tensors, pictures, and errors as
 * exceptions.  bindings/cpp/cxx_test.py builds it with g++ and clang++. */
#include <cutelayout/cutelayout.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <set>
#include <sstream>
#include <unordered_set>
#include <vector>

namespace cl = cutelayout;

static int failures = 0;

#define CHECK(cond)                                                                                                    \
  do {                                                                                                                 \
    if (!(cond)) {                                                                                                     \
      std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                                   \
      failures++;                                                                                                      \
    }                                                                                                                  \
  } while (0)

/* The expression throws cl::Error with this status. */
#define CHECK_THROWS(expr, expected_status)                                                                            \
  do {                                                                                                                 \
    int got_ = 0;                                                                                                      \
    try {                                                                                                              \
      (void)(expr);                                                                                                    \
    } catch (const cl::Error &e_) {                                                                                    \
      got_ = e_.status();                                                                                              \
      CHECK(!e_.detail().empty());                                                                                     \
      CHECK(std::string(e_.what()).find(e_.message()) == 0);                                                           \
    }                                                                                                                  \
    if (got_ != (expected_status)) {                                                                                   \
      std::fprintf(stderr, "%s:%d: %s threw status %d, expected %d\n", __FILE__, __LINE__, #expr, got_,             \
                   int(expected_status));                                                                              \
      failures++;                                                                                                      \
    }                                                                                                                  \
  } while (0)

template <class T> static std::string str(const T &x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

static std::vector<int64_t> values(const cl::Layout &l) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < l.size(); i++)
    out.push_back(l(i));
  return out;
}

static std::vector<int64_t> sorted(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  return v;
}

static std::vector<int64_t> iota(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  std::iota(v.begin(), v.end(), 0);
  return v;
}

/* layout(i) by its definition: i split colexicographically over the flat
 * shape (the last mode keeps the rest), times the strides. */
static int64_t by_definition(const std::vector<int64_t> &shape, const std::vector<int64_t> &stride, int64_t i) {
  int64_t index = 0;
  for (size_t k = 0; k < shape.size(); k++) {
    int64_t c = k + 1 == shape.size() ? i : i % shape[k];
    i /= shape[k];
    index += c * stride[k];
  }
  return index;
}

static void test_values() {
  cl::Layout a("(2,(2,2)):(4,(2,1))");
  cl::Layout b = a;  // copy
  CHECK(a == b);
  CHECK(b.get() != a.get());
  cl::Layout c = std::move(b);  // move
  CHECK(c == a);
  CHECK(b.get() == nullptr);
  CHECK_THROWS(b.size(), CL_E_NULL);
  b = c;  // assign back
  CHECK(b == a);
  CHECK(a != cl::Layout("(2,(2,2)):(4,(1,2))"));
  CHECK(str(a) == "(2,(2,2)):(4,(2,1))");
  CHECK(a.str() == str(a));
  CHECK(std::hash<cl::Layout>()(a) == std::hash<cl::Layout>()(cl::Layout(a.str())));
  std::unordered_set<cl::Layout> set{a, b, cl::Layout("8:1")};
  CHECK(set.size() == 2);
  CHECK(cl::Layout(" ( 2 , 4 ) : ( 1 , 2 ) ") == cl::Layout(cl::make_shape(2, 4), cl::make_stride(1, 2)));
  CHECK(cl::Layout(cl::make_shape(2, cl::make_tuple(3, 4))).str() == "(2,(3,4)):(1,(2,6))");

  cl::Tuple t("(2,(3,4))");
  cl::Tuple u = t;
  CHECK(t == u && str(u) == "(2,(3,4))");
  CHECK(std::hash<cl::Tuple>()(t) == std::hash<cl::Tuple>()(cl::make_tuple(2, cl::make_tuple(3, 4))));
  CHECK(t.rank() == 2 && t.depth() == 2 && t[1][0].value() == 3 && t.at({1, 1}).value() == 4);
  CHECK(t.kind() == CL_KIND_TUPLE && t[0].is_int());
  CHECK(cl::Tuple::ints({2, 3}).str() == "(2,3)");
  CHECK(cl::Tuple::underscore().kind() == CL_KIND_UNDERSCORE);
  cl::Tuple basis = cl::Tuple::basis(2, {1, 0});
  CHECK(basis.str() == "2@0@1");
  CHECK(basis.basis_parts().first == 2 && basis.basis_parts().second == (std::vector<int64_t>{1, 0}));
  cl::Tuple leaf(cl::Layout("2:3"));
  CHECK(leaf.kind() == CL_KIND_LAYOUT && leaf.layout() == cl::Layout("2:3"));
  CHECK(cl::make_tuple(cl::Layout("2:3"), 4).str() == "(2:3,4)");
  CHECK(cl::E({1}).str() == "1@1");

  CHECK(cl::version() == CUTELAYOUT_VERSION_STRING);
  CHECK(cl::version_number() == CUTELAYOUT_VERSION_NUMBER);
  CHECK(cl::abi_version() == CL_ABI_VERSION && cl::abi_minor() >= CL_ABI_MINOR);
}

static void test_errors() {
  try {
    cl::Layout bad("(2,4):(1,2");
    CHECK(false);
  } catch (const cl::Error &e) {
    CHECK(e.status() == CL_E_PARSE);
    CHECK(e.detail().find("column") != std::string::npos);
    CHECK(std::string(e.what()) == std::string(e.message()) + ": " + e.detail());
  }
  try {
    cl::composition(cl::Layout("(4,3):(3,1)"), cl::Layout("2:6"));
    CHECK(false);
  } catch (const std::runtime_error &e) {  // Error is a std::runtime_error
    CHECK(dynamic_cast<const cl::Error *>(&e) != nullptr);
  }
  CHECK_THROWS(cl::complement(cl::Layout("(2,2):(1,1)"), 8), CL_E_NOT_INJECTIVE);
  CHECK_THROWS(cl::Layout("(2,4):(1,2)")(cl::make_coord(1, 2, 3)), CL_E_RANK);
  CHECK_THROWS(cl::Layout("(2,4):(1,2)")[5], CL_E_DOMAIN);
  CHECK_THROWS(cl::shape_div(cl::Tuple(6), cl::Tuple(4)), CL_E_DIVISIBILITY);
  CHECK_THROWS(cl::Tuple("(1,2)").value(), CL_E_TYPE);
  CHECK_THROWS(cl::print1D(cl::Layout("2097152:1")), CL_E_LIMIT);
  CHECK_THROWS(cl::Swizzle(3, 3, 1), CL_E_DOMAIN);

  // Issue 23: text with a NUL inside is refused, not cut short at the NUL
  // (the C library would read "8:1" from each of these).
  using namespace std::string_literals;
  CHECK_THROWS(cl::Layout("8:1\0junk"s), CL_E_PARSE);
  CHECK_THROWS(cl::Layout(std::string_view("8:1\0junk", 8)), CL_E_PARSE);
  CHECK_THROWS(cl::Tuple("(2,3)\0"s), CL_E_PARSE);
  CHECK_THROWS(cl::Swizzle("Sw<3,3,3>\0x"s), CL_E_PARSE);
  CHECK_THROWS(cl::ComposedLayout("Sw<3,3,3> o 0 o 8:1\0"s), CL_E_PARSE);
  CHECK_THROWS(cl::dtype_parse("float\0x"s), CL_E_PARSE);
  try {
    cl::Layout l("8:1\0junk"s);
    CHECK(false);
  } catch (const cl::Error &e) {
    CHECK(e.detail() == "column 4: the text holds a NUL byte");
  }
  CHECK(str(cl::Layout(std::string_view("8:1\0junk", 3))) == "8:1"); // a view that ends before the NUL is fine
  cl::PictureOptions titled;
  titled.title = "a\0b"s;
  CHECK_THROWS(cl::draw(cl::Layout("2:1"), titled), CL_E_PARSE);

  // Issue 23: a negative extent means nothing to CuTe.
  CHECK_THROWS(cl::Layout("-4:1"), CL_E_DOMAIN);
  CHECK_THROWS(cl::Layout(cl::Tuple("(2,-3)")), CL_E_DOMAIN);
  CHECK_THROWS(cl::Layout(cl::Tuple("(2,-3)"), cl::Tuple("(1,2)")), CL_E_DOMAIN);
  CHECK(str(cl::Layout(cl::Tuple(int64_t(0)))) == "0:1"); // an empty mode, as in CuTe

  // Issue 23: tilers mixing integers, layouts and _ , with CuTe's answers.
  cl::Layout L("(8,6,4):(1,8,48)");
  cl::Tuple mixed = cl::make_tuple(2, cl::Layout("3:2"), cl::underscore());
  CHECK(str(mixed) == "(2,3:2,_)");
  CHECK(str(cl::logical_divide(L, mixed)) == "((2,4),(3,2),4):((1,2),(16,8),48)");
  CHECK(str(cl::composition(L, mixed)) == "(2,3,4):(1,16,48)");
  CHECK(str(cl::zipped_divide(L, cl::make_tuple(2, cl::Layout("3:2")))) == "((2,3),(4,2,4)):((1,16),(2,8,48))");
  CHECK(cl::evenly_divides(cl::Tuple("(8,6)"), cl::make_tuple(2, cl::Layout("3:2"))));
  CHECK(!cl::evenly_divides(cl::Tuple("(8,6)"), cl::make_tuple(2, cl::Layout("4:1"))));
}

static void test_evaluation() {
  for (int64_t s0 = 1; s0 <= 3; s0++)
    for (int64_t s1 = 1; s1 <= 3; s1++)
      for (int64_t d0 = 0; d0 <= 4; d0++)
        for (int64_t d1 = 0; d1 <= 4; d1++) {
          cl::Layout l(cl::make_shape(s0, s1), cl::make_stride(d0, d1));
          for (int64_t i = 0; i < s0 * s1; i++)
            CHECK(l(i) == by_definition({s0, s1}, {d0, d1}, i));
          CHECK(l.indices() == values(l));
        }
  cl::Layout l("(2,(2,2)):(4,(2,1))");
  CHECK(values(l) == (std::vector<int64_t>{0, 4, 2, 6, 1, 5, 3, 7}));
  CHECK(l(cl::Tuple("(1,(1,0))")) == 6);
  CHECK(l.value(5) == cl::Tuple(int64_t(5)));
  CHECK(l.eval_range(2, 3) == (std::vector<int64_t>{2, 6, 1}));
  CHECK(l.size() == 8 && l.cosize() == 8 && l.rank() == 2 && l.depth() == 2);
  CHECK(l.shape() == cl::Tuple("(2,(2,2))") && l.stride() == cl::Tuple("(4,(2,1))") && l.coshape() == cl::Tuple(8));
  CHECK(l[1] == cl::Layout("(2,2):(2,1)") && l.at({1, 0}) == cl::Layout("2:2"));
  cl_compiled_layout_t compiled = l.compile();
  for (int64_t i = 0; i < 8; i++)
    CHECK(cl_compiled_eval(&compiled, i) == l(i));

  cl::Layout id = cl::make_identity_layout(cl::make_shape(4, 8));
  CHECK(id.str() == "(4,8):(1@0,1@1)" && id.is_coordinate() && !l.is_coordinate());
  CHECK(id.value(5) == cl::Tuple("(1,1)"));
  CHECK(id.value(cl::make_coord(3, 5)) == cl::make_tuple(3, 5));
  CHECK(id == cl::Layout(cl::make_shape(4, 8), cl::make_stride(cl::E({0}), cl::E({1}))));
  CHECK_THROWS(id(5), CL_E_TYPE);

  cl::Odometer o(cl::Layout("(2,(3,2)):(6,(1,3))"));
  int64_t offset = -1;
  CHECK(o.index() == -1 && o.next(offset) && offset == 0 && o.next(offset) && offset == 6);
  CHECK(o.index() == 1 && o.coord() == (std::vector<int64_t>{1, 0, 0}));
  CHECK(o.next_batch(3) == (std::vector<int64_t>{1, 7, 2}));
  o.reset();
  CHECK(o.next_batch(100).size() == 12 && !o.next(offset));
}

static void test_tuples() {
  CHECK(cl::product(cl::Tuple("(2,(3,4))")) == 24 && cl::size(cl::Tuple("(2,3)")) == 6);
  CHECK(cl::sum(cl::Tuple("(2,(3,4))")) == 9);
  CHECK(cl::inner_product(cl::Tuple("(2,(3,4))"), cl::Tuple("(1,(2,6))")) == 32);
  CHECK(cl::flatten(cl::Tuple("(2,(3,(4,5)))")) == cl::Tuple("(2,3,4,5)"));
  CHECK(cl::unflatten(cl::Tuple("(2,3,4)"), cl::Tuple("(1,(1,1))")) == cl::Tuple("(2,(3,4))"));
  CHECK(cl::congruent(cl::Tuple("(1,(2,3))"), cl::Tuple("(4,(5,6))")));
  CHECK(cl::weakly_congruent(cl::Tuple("(1,2)"), cl::Tuple("(1,(2,3))")));
  CHECK(cl::compatible(cl::Tuple("(2,12)"), cl::Tuple("(2,(3,4))")));
  CHECK(cl::elem_less(cl::Tuple("(1,2)"), cl::Tuple("(2,3)")) && !cl::elem_less(cl::Tuple("(1,3)"), cl::Tuple("(2,3)")));
  CHECK(cl::shape_div(cl::Tuple("(12,8)"), cl::Tuple(4)) == cl::Tuple("(3,8)"));
  CHECK(cl::ceil_div(cl::Tuple("(7,9)"), cl::Tuple("(2,4)")) == cl::Tuple("(4,3)"));
  CHECK(cl::elem_scale(cl::Tuple("(2,3)"), cl::Tuple("(4,(2,5))")) == cl::Tuple("(8,30)"));
  CHECK(cl::prefix_product(cl::Tuple("(2,(3,4),5)")) == cl::Tuple("(1,(2,6),24)"));
  CHECK(cl::compact_col_major(cl::Tuple("(2,(3,4))")) == cl::Tuple("(1,(2,6))"));
  CHECK(cl::compact_row_major(cl::Tuple("(2,3,4)")) == cl::Tuple("(12,4,1)"));
  CHECK(cl::compact_order(cl::Tuple("(2,3,4)"), cl::Tuple("(1,2,0)")) == cl::Tuple("(4,8,1)"));
  cl::Tuple shape("(2,(3,4))");
  for (int64_t i = 0; i < 24; i++) {
    cl::Tuple crd = cl::idx2crd(cl::Tuple(i), shape);
    CHECK(crd == cl::make_tuple(i % 2, cl::make_tuple((i / 2) % 3, i / 6)));
    CHECK(cl::crd2idx(crd, shape) == i);
    CHECK(cl::crd2idx(crd, shape, cl::Tuple("(1,(2,6))")) == i);
    CHECK(cl::crd2idx(crd, cl::Layout(shape)) == i);
    CHECK(cl::crd2crd(crd, shape, cl::Tuple(24)) == cl::Tuple(i));
  }
  CHECK(cl::idx2crd(cl::Tuple(7), cl::Tuple("(2,4)"), cl::Tuple("(4,1)")) == cl::Tuple("(1,3)"));
}

static void test_algebra() {
  /* composition(A, B)(i) == A(B(i)) where CuTe's conditions hold strongly. */
  std::vector<cl::Layout> as{cl::Layout("(4,8):(8,1)"), cl::Layout("(2,(2,4)):(16,(1,4))"), cl::Layout("32:3")};
  for (const cl::Layout &a : as)
    for (int64_t s : {1, 2, 4, 8})
      for (int64_t d : {0, 1, 2, 4}) {
        cl::Layout b{cl::Tuple(s), cl::Tuple(d)};
        cl::Layout r = cl::composition(a, b);
        for (int64_t i = 0; i < s; i++)
          CHECK(r(i) == a(b(i)));
      }
  CHECK(cl::composition(cl::Layout("(6,2):(8,2)"), cl::Layout("(4,3):(3,1)")).str() == "((2,2),3):((24,2),8)");
  CHECK(cl::composition(cl::Layout("(12,(4,8)):(59,(13,1))"), cl::Tuple("(3,8)")) ==
        cl::composition(cl::Layout("(12,(4,8)):(59,(13,1))"), cl::make_tuple(cl::Layout("3:1"), cl::Layout("8:1"))));
  /* coalesce and filter keep the function / its image. */
  cl::Layout l("(2,(1,6)):(1,(6,2))");
  CHECK(values(cl::coalesce(l)) == values(l) && cl::coalesce(l).str() == "12:1");
  CHECK(values(cl::coalesce(l, cl::Tuple("(1,1)"))) == values(l));
  CHECK(cl::filter(cl::Layout("(2,(3,4)):(0,(1,0))")).str() == "3:1");
  CHECK(cl::filter(cl::Layout("(2,3):(0,1)"), cl::Tuple("(1,1)")).str() == "(1,3):(0,1)");
  CHECK(cl::filter_zeros(cl::Layout("(2,3):(0,1)")).str() == "(1,3):(0,1)");
  /* (L, complement(L, n)) is a bijection onto [0, n). */
  for (int64_t s : {1, 2, 3, 4})
    for (int64_t d : {1, 2, 3})
      for (int64_t k : {1, 2, 3}) {
        cl::Layout a{cl::Tuple(s), cl::Tuple(d)};
        CHECK(sorted(values(cl::make_layout(a, cl::complement(a, s * d * k)))) == iota(s * d * k));
      }
  CHECK(cl::complement(cl::Layout("(2,2):(1,6)")).str() == "3:2");
  CHECK(cl::complement(cl::Layout("4:2"), cl::Tuple("(2,24)")) == cl::complement(cl::Layout("4:2"), 48));
  /* The inverses. */
  cl::Layout t("(4,8):(8,1)");
  cl::Layout r = cl::right_inverse(t), li = cl::left_inverse(t);
  for (int64_t i = 0; i < 32; i++)
    CHECK(t(r(i)) == i && li(t(i)) == i);
  /* Divides and products arrange the same values. */
  cl::Layout a("(8,6):(1,8)"), b("(2,3):(1,8)");
  cl::Layout d = cl::logical_divide(a, b);
  CHECK(d[0] == cl::composition(a, b));
  for (const cl::Layout &x : {cl::zipped_divide(a, b), cl::tiled_divide(a, b), cl::flat_divide(a, b)})
    CHECK(sorted(values(x)) == sorted(values(d)));
  CHECK(cl::zipped_divide(a, cl::Tuple("(2,3)")).str() == "((2,3),(4,2)):((1,8),(2,24))");
  CHECK(cl::tiled_divide(a, cl::Tuple("(2,3)")).rank() == 3 && cl::flat_divide(a, cl::Tuple("(2,3)")).rank() == 4);
  CHECK(cl::logical_divide(a, cl::Tuple("(2,3)")) == cl::logical_divide(a, cl::make_tuple(cl::Layout("2:1"), cl::Layout("3:1"))));
  cl::Layout block("(2,2):(1,2)"), tiler("(3,4):(1,3)");
  for (const cl::Layout &p : {cl::logical_product(block, tiler), cl::zipped_product(block, tiler), cl::tiled_product(block, tiler),
                              cl::flat_product(block, tiler), cl::blocked_product(block, tiler), cl::raked_product(block, tiler)})
    CHECK(sorted(values(p)) == iota(48));
  /* By a tiler: mode by mode, each mode i the product of block's mode i with tiler i. */
  cl::Tuple by("(3,4)");
  cl::Layout modes = cl::logical_product(block, by);
  CHECK(modes == cl::make_layout(cl::logical_product(block[0], cl::Layout("3:1")), cl::logical_product(block[1], cl::Layout("4:1"))));
  for (const cl::Layout &p : {cl::zipped_product(block, by), cl::tiled_product(block, by), cl::flat_product(block, by)})
    CHECK(sorted(values(p)) == sorted(values(modes)));
  CHECK(cl::blocked_product(block, tiler).str() == "((2,3),(2,4)):((1,4),(2,12))");
  CHECK(cl::raked_product(block, tiler).str() == "((3,2),(4,2)):((4,1),(12,2))");
  CHECK(cl::zipped_divide(a, cl::Tuple("(2,3)")) == cl::zipped_divide(a, cl::make_tuple(2, 3)));
  /* Dividing by a layout: one tile mode and a rest, here (2,24):(1,2), both integral: all arrangements agree. */
  CHECK(cl::tiled_divide(a, cl::Layout("2:1")) == cl::logical_divide(a, cl::Layout("2:1")));
  CHECK(cl::flat_divide(a, cl::Layout("2:1")) == cl::logical_divide(a, cl::Layout("2:1")));
  cl::Layout tiled = cl::tile_to_shape(block, cl::Tuple("(4,6)"));
  CHECK(sorted(values(tiled)) == iota(24));
  CHECK(cl::tile_to_shape(block, cl::Tuple("(4,6)"), cl::Tuple("(1,0)")) != tiled);
  CHECK(cl::max_common_vector(cl::Layout("(4,8):(1,4)"), cl::Layout("32:1")) == 32);
  CHECK(cl::max_common_layout(cl::Layout("(4,8):(1,4)"), cl::Layout("32:1")).size() == 32);
  cl::Layout z("(2,3,4):(0,1,0)");
  cl::Layout n = cl::nullspace(z);
  for (int64_t i = 0; i < n.size(); i++)
    CHECK(z(n(i)) == 0);
  CHECK(cl::upcast(cl::Layout("(4,8):(1,4)"), 4).str() == "(1,8):(1,1)");
  CHECK(cl::downcast(cl::Layout("(4,8):(1,4)"), 2).str() == "(8,8):(1,8)");
  /* Making and rearranging. */
  CHECK(cl::make_layout(cl::Tuple("(2,4)"), cl::LayoutRight{}).str() == "(2,4):(4,1)");
  CHECK(cl::make_layout(cl::Tuple("(2,4)"), cl::LayoutLeft{}) == cl::make_layout(cl::Tuple("(2,4)")));
  CHECK(cl::make_layout(cl::Tuple("(2,4)"), cl::Tuple("(3,1)")).str() == "(2,4):(3,1)");
  CHECK(cl::make_layout(cl::Layout("2:1"), cl::Layout("4:2")).str() == "(2,4):(1,2)");
  CHECK(cl::make_ordered_layout(cl::Tuple("(2,3,4)"), cl::Tuple("(1,2,0)")).str() == "(2,3,4):(4,8,1)");
  CHECK(cl::make_layout_like(cl::Layout("(2,3):(9,1)")).str() == "(2,3):(3,1)");
  CHECK(cl::make_fragment_like(cl::Layout("(2,3):(3,1)")).size() == 6);
  cl::Layout m("(2,(3,4),5):(1,(2,6),24)");
  CHECK(cl::flatten(m).str() == "(2,3,4,5):(1,2,6,24)");
  CHECK(cl::unflatten(cl::flatten(m), m.shape()) == m);
  CHECK(cl::group(m, 0, 2).str() == "((2,(3,4)),5):((1,(2,6)),24)");
  CHECK(cl::take(m, 1, 3).str() == "((3,4),5):((2,6),24)");
  CHECK(cl::select(m, {2, 0}).str() == "(5,2):(24,1)");
  CHECK(cl::append(cl::Layout("2:1"), cl::Layout("3:2")).str() == "(2,3):(1,2)");
  CHECK(cl::append(cl::Layout("2:1")).str() == "(2,1):(1,0)");
  CHECK(cl::prepend(cl::Layout("2:1"), cl::Layout("3:2")).str() == "(3,2):(2,1)");
  CHECK(cl::prepend(cl::Layout("2:1")).str() == "(1,2):(0,1)");
  CHECK(cl::zip(cl::Layout("((2,3),(4,5)):((1,2),(6,24))")).str() == "((2,4),(3,5)):((1,6),(2,24))");
  CHECK(cl::get(m, {1, 0}) == m.at({1, 0}));
  cl::Layout s("(2,(3,4)):(12,(1,3))");
  auto [sliced, offset] = cl::slice_and_offset(cl::make_coord(1, cl::underscore()), s);
  CHECK(sliced == cl::slice(cl::make_coord(1, cl::underscore()), s));
  for (int64_t j = 0; j < 12; j++)
    CHECK(offset + sliced(j) == s(cl::make_coord(1, j)));
  auto [slice2, offset2] = cl::slice_and_offset_value(cl::make_coord(2, cl::underscore()), cl::make_identity_layout(cl::make_shape(4, 8)));
  CHECK(slice2.str() == "(8):(1@1)" && offset2 == cl::Tuple("(2,0)"));
}

static void test_swizzles() {
  for (int b : {1, 2, 3})
    for (int m : {0, 2, 3})
      for (int s : {3, -3, 4}) {
        cl::Swizzle sw(b, m, s);
        auto masks = sw.masks();
        CHECK(masks.first == ((int64_t(1) << b) - 1) << (m + std::max(0, s)));
        CHECK(masks.second == ((int64_t(1) << b) - 1) << (m - std::min(0, s)));
        for (int64_t x = 0; x < 4096; x++) {
          int64_t moved = s >= 0 ? (x & masks.first) >> s : (x & masks.first) << -s;
          CHECK(sw(x) == (x ^ moved));
        }
        CHECK(cl::Swizzle(sw.str()) == sw && sw.max_alignment() == int64_t(1) << m);
        CHECK(std::hash<cl::Swizzle>()(sw) == std::hash<cl::Swizzle>()(cl::Swizzle(b, m, s)));
      }
  CHECK(cl::make_swizzle(448, 56) == cl::Swizzle(3, 3, 3));
  CHECK(cl::upcast(cl::Swizzle(3, 3, 3), 2) == cl::Swizzle(3, 2, 3));
  CHECK(cl::downcast(cl::Swizzle(3, 3, 3), 2) == cl::Swizzle(3, 4, 3));
  CHECK(cl::composition(cl::Swizzle(1, 3, 3), cl::Swizzle(1, 4, 3)).masks().first == (64 | 128));
  cl_swizzle_t raw{3, 3, 3};
  CHECK(cl::Swizzle(raw) == cl::Swizzle(3, 3, 3));
  CHECK(str(cl::Swizzle(2, 4, -3)) == "Sw<2,4,-3>");

  cl::Swizzle sw(3, 3, 3);
  cl::Layout inner("(8,8):(8,1)");
  cl::AnyLayout any = cl::composition(sw, 5, inner);
  CHECK(std::holds_alternative<cl::ComposedLayout>(any));
  const cl::ComposedLayout &c = std::get<cl::ComposedLayout>(any);
  for (int64_t i = 0; i < 64; i++)
    CHECK(c(i) == sw(5 + inner(i)));
  CHECK(c(cl::make_coord(3, 5)) == sw(5 + inner(cl::make_coord(3, 5))));
  CHECK(c.offset() == 5 && std::get<cl::Swizzle>(c.outer()) == sw && std::get<cl::Layout>(c.inner()) == inner);
  CHECK(c.size() == 64 && c.cosize() == 64 && c.rank() == 2 && c.depth() == 1 && c.shape() == cl::Tuple("(8,8)"));
  CHECK(str(c) == "Sw<3,3,3> o 5 o (8,8):(8,1)" && str(any) == str(c));
  CHECK(cl::ComposedLayout(str(c)) == c && std::hash<cl::ComposedLayout>()(c) == std::hash<cl::ComposedLayout>()(cl::ComposedLayout(str(c))));
  cl::ComposedLayout copy = c;
  CHECK(copy == c);
  CHECK(std::holds_alternative<cl::Layout>(cl::composition(cl::Swizzle(0, 4, 3), 0, inner)));
  CHECK(std::get<cl::Layout>(cl::composition(cl::Swizzle(0, 4, 3), 0, inner)) == inner);
  CHECK(cl::make_composed_layout(cl::Swizzle(0, 4, 3), 0, inner).size() == 64);
  CHECK(std::holds_alternative<cl::ComposedLayout>(cl::composition(sw, inner)));
  cl_compiled_layout_t compiled = c.compile();
  for (int64_t i = 0; i < 64; i++)
    CHECK(cl_compiled_eval(&compiled, i) == c(i));

  /* The algebra of a composed layout acts on its inner layout. */
  cl::ComposedLayout z("Sw<3,3,3> o 0 o (8,8):(8,1)");
  auto inner_of = [](const cl::AnyLayout &x) { return std::get<cl::Layout>(std::get<cl::ComposedLayout>(x).inner()); };
  cl::Tuple tile("(2,4)");
  CHECK(inner_of(cl::logical_divide(z, tile)) == cl::logical_divide(inner, tile));
  CHECK(inner_of(cl::zipped_divide(z, tile)) == cl::zipped_divide(inner, tile));
  CHECK(inner_of(cl::tiled_divide(z, tile)) == cl::tiled_divide(inner, tile));
  CHECK(inner_of(cl::flat_divide(z, tile)) == cl::flat_divide(inner, tile));
  cl::Layout two("2:1");
  CHECK(inner_of(cl::logical_product(z, two)) == cl::logical_product(inner, two));
  CHECK(inner_of(cl::zipped_product(z, two)) == cl::zipped_product(inner, two));
  CHECK(inner_of(cl::tiled_product(z, two)) == cl::tiled_product(inner, two));
  CHECK(inner_of(cl::flat_product(z, two)) == cl::flat_product(inner, two));
  CHECK(inner_of(cl::logical_product(z, cl::Tuple("2"))) == cl::logical_product(inner, cl::Tuple("2")));
  CHECK(inner_of(cl::zipped_product(z, cl::Tuple("2"))) == cl::zipped_product(inner, cl::Tuple("2")));
  CHECK(inner_of(cl::tiled_product(z, cl::Tuple("2"))) == cl::tiled_product(inner, cl::Tuple("2")));
  CHECK(inner_of(cl::flat_product(z, cl::Tuple("2"))) == cl::flat_product(inner, cl::Tuple("2")));
  CHECK(inner_of(cl::logical_divide(z, cl::Layout("2:1"))) == cl::logical_divide(inner, cl::Layout("2:1")));
  CHECK(inner_of(cl::zipped_divide(z, cl::Layout("2:1"))) == cl::zipped_divide(inner, cl::Layout("2:1")));
  CHECK(inner_of(cl::tiled_divide(z, cl::Layout("2:1"))) == cl::tiled_divide(inner, cl::Layout("2:1")));
  CHECK(inner_of(cl::flat_divide(z, cl::Layout("2:1"))) == cl::flat_divide(inner, cl::Layout("2:1")));
  CHECK(inner_of(cl::blocked_product(z, cl::Layout("(2,2):(1,2)"))) == cl::blocked_product(inner, cl::Layout("(2,2):(1,2)")));
  CHECK(inner_of(cl::raked_product(z, cl::Layout("(2,2):(1,2)"))) == cl::raked_product(inner, cl::Layout("(2,2):(1,2)")));
  CHECK(inner_of(cl::composition(z, tile)) == cl::composition(inner, tile));
  CHECK(inner_of(cl::composition(z, cl::Layout("4:2"))) == cl::composition(inner, cl::Layout("4:2")));
  CHECK(inner_of(cl::coalesce(z)) == cl::coalesce(inner));
  CHECK(inner_of(cl::coalesce(z, cl::Tuple("(1,1)"))) == cl::coalesce(inner, cl::Tuple("(1,1)")));
  CHECK(inner_of(cl::filter(z, cl::Tuple("(1,1)"))) == cl::filter(inner, cl::Tuple("(1,1)")));
  CHECK(inner_of(cl::tile_to_shape(z, cl::Tuple("(16,16)"))) == cl::tile_to_shape(inner, cl::Tuple("(16,16)")));
  CHECK(inner_of(cl::tile_to_shape(z, cl::Tuple("(16,16)"), cl::Tuple("(1,0)"))) ==
        cl::tile_to_shape(inner, cl::Tuple("(16,16)"), cl::Tuple("(1,0)")));
  CHECK(inner_of(cl::get(z, {1})) == inner[1]);
  CHECK(inner_of(cl::take(z, 0, 1)) == cl::take(inner, 0, 1));
  CHECK(inner_of(cl::group(z, 0, 2)) == cl::group(inner, 0, 2));
  CHECK(inner_of(cl::flatten(z)) == cl::flatten(inner));
  CHECK(inner_of(cl::zip(z)) == cl::zip(inner));
  CHECK(cl::complement(z) == cl::complement(inner, cl::Tuple(64)));
  CHECK(cl::complement(z, cl::Tuple(128)) == cl::complement(inner, 128));
  CHECK(cl::make_fragment_like(z) == cl::make_fragment_like(inner));
  CHECK(cl::nullspace(z) == cl::Layout("1:0"));
  CHECK(cl::max_common_vector(z, inner) == 8 && cl::max_common_vector(inner, z) == 8 && cl::max_common_vector(z, z) == 64);
  CHECK(cl::max_common_layout(z, inner).size() == 8);
  CHECK(str(cl::slice(cl::make_coord(cl::underscore(), 3), z)) == str(cl::slice_and_offset(cl::make_coord(cl::underscore(), 3), z).first));
  CHECK(std::get<cl::Swizzle>(std::get<cl::ComposedLayout>(cl::upcast(z, 2)).outer()) == cl::Swizzle(3, 2, 3));
  CHECK(std::get<cl::Swizzle>(std::get<cl::ComposedLayout>(cl::downcast(z, 2)).outer()) == cl::Swizzle(3, 4, 3));
  /* CuTe's inverses move the swizzle through the inverse of B: the inverse
   * where B maps the swizzle's bits linearly (512:1). */
  cl::ComposedLayout w("Sw<3,3,3> o 0 o 512:1");
  cl::ComposedLayout ri = std::get<cl::ComposedLayout>(cl::right_inverse(w));
  cl::ComposedLayout le = std::get<cl::ComposedLayout>(cl::left_inverse(w));
  for (int64_t i = 0; i < 512; i++)
    CHECK(w(ri(i)) == i && le(w(i)) == i);
  /* Products with a swizzled layout: the swizzle acts on the copies. */
  cl::Swizzle s101(1, 0, 1);
  cl::ComposedLayout sb(s101, 0, cl::Layout("4:1"));
  cl::ComposedLayout p = std::get<cl::ComposedLayout>(cl::logical_product(cl::Layout("2:1"), sb));
  for (int64_t b = 0; b < 4; b++)
    for (int64_t a = 0; a < 2; a++)
      CHECK(p(a + 2 * b) == 2 * s101(b) + a);
  CHECK(cl::size(std::get<cl::ComposedLayout>(cl::zipped_product(cl::Layout("2:1"), sb))) == 8);
  CHECK(cl::size(std::get<cl::ComposedLayout>(cl::tiled_product(cl::Layout("2:1"), sb))) == 8);
  CHECK(cl::size(std::get<cl::ComposedLayout>(cl::flat_product(cl::Layout("2:1"), sb))) == 8);
  CHECK(cl::size(std::get<cl::ComposedLayout>(cl::composition(cl::Layout("64:1"), z))) == 64);
  CHECK(std::holds_alternative<cl::ComposedLayout>(cl::composition(inner, cl::Swizzle(1, 0, 2))));
  cl::ComposedLayout identity_outer(cl::Layout("64:1"), 0, cl::Layout("64:1"));
  CHECK(cl::size(std::get<cl::ComposedLayout>(cl::composition(z, identity_outer))) == 64);
  CHECK(cl::size(std::get<cl::ComposedLayout>(cl::make_layout(cl::Swizzle(2, 0, 2)))) == 4);
  CHECK(cl::print1D(cl::ComposedLayout("Sw<1,0,1> o 0 o 4:1")) == "0 1 3 2");
}

static void test_pictures() {
  cl::Layout l("(4,(2,2)):(4,(2,1))");
  std::string svg = cl::draw(l);
  size_t cells = 0;
  for (size_t at = svg.find("<text class=\"cell\""); at != std::string::npos; at = svg.find("<text class=\"cell\"", at + 1))
    cells++;
  CHECK(svg.rfind("<?xml", 0) == 0 && cells == 16);
  cl::PictureOptions txt;
  txt.format = CL_PICTURE_TXT;
  CHECK(cl::draw(l, txt) == cl::print_layout(l));
  CHECK(cl::draw_tv(cl::Layout("((2,2),2):((1,4),2)"), 4, 2).find(">T3V1<") != std::string::npos);
  cl::ComposedLayout c("Sw<1,0,1> o 0 o (4,2):(1,4)");
  CHECK(cl::draw(c).find("<svg") != std::string::npos && cl::draw_tv(c, 4, 2, txt).find("T0V0") != std::string::npos);
  cl::PictureOptions mapped = txt;
  mapped.map = [](int64_t i) { return 100 + i; };
  CHECK(cl::draw(cl::Layout("(2,2):(1,2)"), mapped).find("103") != std::string::npos);
  mapped.map = [](int64_t) -> int64_t { throw std::out_of_range("from the map"); };
  bool rethrown = false;
  try {
    cl::draw(cl::Layout("(2,2):(1,2)"), mapped);
  } catch (const std::out_of_range &) {
    rethrown = true;
  }
  CHECK(rethrown);
  std::vector<cl::Panel> panels;
  panels.push_back({cl::Layout("(4,2):(2,1)"), "A", 0, 0, -1});
  panels.push_back({c, "swizzled", 0, 0, 3});
  std::string both = cl::draw_panels(panels);
  CHECK(both.find("<g class=\"panel\"") != std::string::npos && both.find("swizzled") != std::string::npos);
  CHECK(cl::print1D(cl::Layout("(2,2):(2,1)")) == "0 2 1 3");
  CHECK(cl::print_layout(c).find("Sw<1,0,1>") != std::string::npos);
  CHECK_THROWS(cl::print_layout(cl::Layout("8:1")), CL_E_RANK);
}

static void test_tensors() {
  std::vector<float> data(32);
  for (size_t i = 0; i < data.size(); i++)
    data[i] = float(i);
  cl::Tensor t(data, cl::Layout("(4,8):(8,1)"));
  CHECK(t.size() == 32 && t.rank() == 2 && t.dtype() == CL_DTYPE_FLOAT32 && t.elem_size() == 4);
  CHECK(t.at<float>(1) == 8.0f && t.at<float>(cl::make_coord(1, 2)) == 10.0f && t.load_f64(2) == 16.0);
  CHECK(t.ptr({1, 2}) == &data[10] && t.ptr(cl::make_coord(1, 2)) == &data[10] && t.ptr(1) == &data[8]);
  CHECK(t.offset(1) == 8 && t.offset_range() == std::make_pair(int64_t(0), int64_t(31)) && t.data() == data.data());
  CHECK(t.layout() == cl::Layout("(4,8):(8,1)") && t.describe().extent_bytes == 128);
  t.store(cl::make_coord(0, 0), 100.0f);
  t.store(3, -1.0f);
  CHECK(data[0] == 100.0f && data[24] == -1.0f);
  CHECK_THROWS(t.at<double>(0), CL_E_TYPE);
  CHECK_THROWS(cl::Tensor(data, cl::Layout("(4,9):(8,1)")), CL_E_BOUNDS);
  CHECK_THROWS(t.with_layout(cl::Layout("33:1")), CL_E_BOUNDS);
  t.check_bounds();
  cl::Tensor column = t(cl::make_coord(cl::underscore(), 2));
  CHECK(column.size() == 4 && column.at<float>(1) == 10.0f);
  cl::Tensor copy = column;
  CHECK(copy.at<float>(2) == 18.0f);
  CHECK(t.str().rfind("ptr[32b](", 0) == 0 && !column.str(false).empty());

  /* Library memory lives as long as a view of it. */
  cl::Tensor view = cl::Tensor::alloc(cl::Layout("(4,4):(1,4)"), CL_DTYPE_INT32)(cl::make_coord(cl::underscore(), 1));
  view.fill(int32_t(7));
  CHECK(view.at<int32_t>(3) == 7);
  int64_t seen = 0;
  view.apply([&](void *elem, int64_t i) { seen += *static_cast<int32_t *>(elem) + i; });
  CHECK(seen == 4 * 7 + 0 + 1 + 2 + 3);

  /* copy is elementwise; transposes, broadcast, errors. */
  std::vector<double> src(6 * 5), dst(6 * 5, 0.0);
  for (size_t i = 0; i < src.size(); i++)
    src[i] = double(i) / 4;
  cl::Tensor s(src, cl::Layout("(6,5):(1,6)")), d(dst, cl::Layout("(6,5):(5,1)"));
  cl::copy(d, s);
  for (int64_t i = 0; i < 30; i++)
    CHECK(d.at<double>(i) == s.at<double>(i));
  std::vector<double> again(30);
  cl::copy(cl::Tensor(again, cl::Layout("(6,5):(5,1)")), s, CL_COPY_STORES_STREAMING);
  CHECK(again == dst);
  std::fill(again.begin(), again.end(), 0.0);
  cl::copy(cl::Tensor(again, cl::Layout("(6,5):(5,1)")), s, CL_COPY_STORES_AUTO, 3);
  CHECK(again == dst);
  CHECK_THROWS(cl::copy(cl::Tensor(again, cl::Layout("(6,5):(5,1)")), s, CL_COPY_STORES_AUTO, CL_COPY_MAX_THREADS + 1), CL_E_DOMAIN);
  CHECK(cl::copy_explain(d, s).find("kernel") != std::string::npos);
  CHECK_THROWS(cl::copy(s, cl::Tensor(src, cl::Layout("(6,5):(5,1)"))), CL_E_OVERLAP);
  std::vector<float> floats(30);
  CHECK_THROWS(cl::copy(d, cl::Tensor(floats, cl::Layout("30:1"))), CL_E_TYPE);
  CHECK_THROWS(cl::copy(d, t), CL_E_DOMAIN);  /* 30 and 32 elements */
  std::vector<int32_t> ints(30), halves(30);
  cl::Tensor ti(ints, cl::Layout("30:1"));
  cl::transform(ti, s, [](void *out, const void *in) { *static_cast<int32_t *>(out) = int32_t(*static_cast<const double *>(in) * 2); });
  CHECK(ints[12] == int32_t(src[12] * 2));

  /* Views through the algebra. */
  std::vector<int64_t> m(16 * 64);
  std::iota(m.begin(), m.end(), 0);
  cl::Tensor big(m, cl::Layout("(16,64):(64,1)"));
  cl::Tensor mine = cl::local_partition(big, cl::Layout("(2,16):(1,2)"), 5);  /* tensor.h: T(1 + 2m, 2 + 16n) */
  for (int64_t r = 0; r < 8; r++)
    for (int64_t c = 0; c < 4; c++)
      CHECK(mine.at<int64_t>(cl::make_coord(r, c)) == (1 + 2 * r) * 64 + 2 + 16 * c);
  cl::Tensor tile = cl::local_tile(big, cl::make_shape(8, 32), cl::make_coord(1, 1));
  CHECK(tile.at<int64_t>(cl::make_coord(0, 0)) == 8 * 64 + 32);
  CHECK(cl::inner_partition(big, cl::make_shape(8, 32), cl::make_coord(1, 1)).at<int64_t>(0) == 8 * 64 + 32);
  CHECK(cl::outer_partition(big, cl::make_shape(8, 32), cl::make_coord(1, 2)).at<int64_t>(0) == 64 + 2);
  CHECK(cl::flatten(big).rank() == 2 && cl::group(big, 0, 2).rank() == 1);
  CHECK(cl::composition(big, cl::make_shape(2, 3)).size() == 6 && cl::composition(big, cl::Layout("4:2")).at<int64_t>(1) == 128);
  CHECK(cl::logical_divide(big, cl::make_shape(8, 32)).layout() == cl::logical_divide(big.layout(), cl::make_shape(8, 32)));
  CHECK(cl::zipped_divide(big, cl::make_shape(8, 32)).layout() == cl::zipped_divide(big.layout(), cl::make_shape(8, 32)));
  CHECK(cl::size(big) == 1024 && cl::rank(big) == 2);
  cl::Tensor like = cl::make_tensor_like(big), frag = cl::make_fragment_like(big);
  CHECK(like.size() == 1024 && like.at<int64_t>(5) == 0 && frag.size() == 1024);
  std::vector<int32_t> four{0, 1, 2, 3};
  cl::Tensor halves_view = cl::Tensor(four, cl::Layout("4:1")).recast<int16_t>();
  CHECK(halves_view.size() == 8 && halves_view.at<int16_t>(2) == 1);
  CHECK(cl::Tensor(four, cl::Layout("4:1")).recast(2, CL_DTYPE_INT16).at<int16_t>(4) == 2);
  (void)halves;

  /* The C constructors and DLPack. */
  cl::Tensor raw(static_cast<void *>(four.data()), CL_DTYPE_INT32, cl::Layout("4:1"));
  cl::Tensor bytes(static_cast<void *>(four.data()), size_t(4), cl::Layout("4:1"));
  CHECK(raw.at<int32_t>(3) == 3 && bytes.dtype() == CL_DTYPE_NONE);
  cl::DLPackView dl = cl::to_dlpack(big);
  CHECK(dl.tensor.ndim == 2 && dl.shape[0] == 16 && dl.strides[0] == 64 && dl.tensor.shape == dl.shape.data());
  cl::Tensor back(dl.tensor);
  CHECK(back.layout() == big.layout() && back.dtype() == CL_DTYPE_INT64);
  CHECK(back.at<int64_t>(65) == 1 * 64 + 4);  /* 65 = (1,4) */
  CHECK(cl::dtype_name(CL_DTYPE_FLOAT32) == "float32" && cl::dtype_size(CL_DTYPE_INT16) == 2 &&
        cl::dtype_parse("uint8") == CL_DTYPE_UINT8);
  CHECK_THROWS(cl::dtype_parse("complex"), CL_E_PARSE);
}

/* The tuple and layout functions added to the C library this cycle: values
 * from the C headers' documented examples and by hand, and their errors. */
static void test_more_functions() {
  cl::Tuple t("(4,(6,10))");
  CHECK(cl::gcd(t) == 2 && (cl::max)(t) == 10 && (cl::min)(t) == 4);
  CHECK(str(cl::round_up(cl::Tuple("(5,7)"), cl::Tuple("(4,4)"))) == "(8,8)");
  CHECK(str(cl::product_each(cl::Tuple("(2,(3,4))"))) == "(2,12)");
  CHECK(str(cl::product_like(cl::Tuple("(2,(3,4))"), cl::Tuple("(1,1)"))) == "(2,12)");
  CHECK(str(cl::slice(cl::Tuple("(_,2,_)"), cl::Tuple("(3,4,5)"))) == "(3,5)");
  CHECK(str(cl::dice(cl::Tuple("(_,2,_)"), cl::Tuple("(3,4,5)"))) == "(4)");
  CHECK(str(cl::filter_zeros(cl::Tuple("(0,2)"), cl::Tuple("(0,2)"))) == "(1,2)");
  CHECK(str(cl::compact_col_major(cl::Tuple("(2,3)"), cl::Tuple(4))) == "(4,8)");
  CHECK(str(cl::compact_row_major(cl::Tuple("(2,3)"), cl::Tuple(4))) == "(12,4)");
  CHECK(cl::lex_less(cl::Tuple("(1,2)"), cl::Tuple("(2,0)")) && !cl::colex_less(cl::Tuple("(1,2)"), cl::Tuple("(2,0)")));
  CHECK(cl::colex_less(cl::Tuple("(2,0)"), cl::Tuple("(1,2)")));
  CHECK(cl::evenly_divides(cl::Tuple("(8,6)"), cl::Tuple("(4,3)")) && !cl::evenly_divides(cl::Tuple("(8,6)"), cl::Tuple("(3,3)")));
  CHECK(str(cl::common_refinement(cl::Tuple("((2,3),5)"), cl::Tuple("(6,5)"))) == "((2,3),5)");
  CHECK(str(cl::common_coarsening(cl::Tuple("(2,(3,5))"), cl::Tuple("((3,2),5)"))) == "30");
  CHECK_THROWS(cl::common_refinement(cl::Tuple("(2,(3,5))"), cl::Tuple("((3,2),5)")), CL_E_DOMAIN);
  CHECK_THROWS(cl::round_up(cl::Tuple("(5,7)"), cl::Tuple("(4,0)")), CL_E_DOMAIN);

  cl::Layout l("(4,3):(1,4)"), unit("1:0");
  CHECK(str(cl::append(l, unit, 4)) == "(4,3,1,1):(1,4,0,0)");
  CHECK(str(cl::prepend(l, unit, 3)) == "(1,4,3):(0,1,4)");
  CHECK_THROWS(cl::append(l, unit, 1), CL_E_DOMAIN);
  CHECK(str(cl::replace(l, 1, cl::Layout("5:7"))) == "(4,5):(1,7)");
  CHECK(str(cl::dice(cl::Tuple("(_,1)"), l)) == "(3):(4)");
  CHECK(str(cl::coprofile(cl::Layout("(2,(3,4)):(1,(2,6))"))) == "0");

  cl::Layout m("((2,3),(4,5)):((1,2),(6,24))");
  CHECK(str(cl::coalesce_mode(m, {1})) == "((2,3),20):((1,2),6)");
  CHECK(str(cl::composition_mode(m, cl::Tuple(2), {0})) == "(2,(4,5)):(1,(6,24))");
  CHECK(str(cl::logical_divide_mode(m, cl::Tuple(2), {1})) == "((2,3),(2,10)):((1,2),(6,12))");
  CHECK(cl::zipped_divide_mode(m, cl::Tuple(2), {1}) == cl::logical_divide_mode(m, cl::Tuple(2), {1}));
  CHECK(str(cl::logical_product_mode(m, cl::Tuple(2), {1})) == "((2,3),((4,5),2)):((1,2),((6,24),1))");
  CHECK_THROWS(cl::coalesce_mode(m, {2}), CL_E_DOMAIN);
  CHECK(str(cl::coalesce_z(cl::Layout("(2,1,6,1):(1,7,8,0)"))) == "(2,6,1):(1,8,0)");
  CHECK(str(cl::coalesce_z(m, cl::Tuple("(1,1)"))) == "(6,20):(1,6)");
  CHECK(str(cl::coalesce_z_mode(m, {0})) == "(6,(4,5)):(1,(6,24))");
  CHECK(str(cl::layout_add(l, cl::Layout("(4,3):(3,1)"))) == "(4,3):(4,5)");
  CHECK_THROWS(cl::layout_add(l, cl::Layout("5:1")), CL_E_DOMAIN);
  CHECK(str(cl::greatest_common_domain(cl::Tuple("(5,3,4)"), cl::Tuple("(10,6)"))) == "(5,2):(1,30)");
  CHECK(str(cl::domain_distribute(cl::Tuple("(15,14)"), cl::Tuple(6))) == "(3,2):(1,15)");
  auto moved = cl::domain_offset(cl::Tuple("(1,2)"), l);
  CHECK(moved.first == l && moved.second == l(cl::Tuple("(1,2)")));
  cl::Layout divided = cl::logical_divide(cl::Layout("(8,6):(1,8)"), cl::Tuple("(2,3)"));
  CHECK(str(cl::tile_unzip(divided, cl::Tuple("(2,3)"))) == "((2,3),(4,2)):((1,8),(2,24))");
  CHECK(cl::tile_unzip(divided, cl::Tuple("(2,3)")) == cl::zipped_divide(cl::Layout("(8,6):(1,8)"), cl::Tuple("(2,3)")));
  CHECK(cl::max_alignment(cl::Layout("(8,4):(1,8)")) == 32 && cl::max_alignment(cl::Layout("(8,4):(1,16)")) == 8);
  CHECK(str(cl::recast_layout(cl::Layout("(8,4):(1,8)"), 16, 32)) == "(4,4):(1,4)");
  CHECK_THROWS(cl::recast_layout(l, 0, 8), CL_E_DOMAIN);

  cl::ComposedLayout c("Sw<2,0,3> o 0 o (8,8):(8,1)");
  CHECK(cl::max_alignment(c) == 1);
  CHECK(str(cl::append(c, unit, 3)) == "Sw<2,0,3> o 0 o (8,8,1):(8,1,0)");
  CHECK(str(cl::recast_layout(c, 16, 32)) == "Sw<1,0,3> o 0 o (8,4):(4,1)");
  auto piece = cl::domain_offset(cl::Tuple("(1,1)"), c);
  CHECK(str(piece.first) == "Sw<2,0,3> o 9 o (8,8):(8,1)" && piece.second == 0); /* the offset B(1,1) moves inside */
  auto zipped = cl::tile_unzip(std::get<cl::ComposedLayout>(cl::logical_divide(c, cl::Tuple("(2,4)"))), cl::Tuple("(2,4)"));
  CHECK(str(zipped) == "Sw<2,0,3> o 0 o ((2,4),(4,2)):((8,1),(16,4))");
}

/* Coordinate tensors: CuTe's printed forms (coord_tensor.h's examples), the
 * partitions by hand, value semantics and errors. */
static void test_coord_tensors() {
  cl::CoordTensor id = cl::make_identity_tensor(cl::Tuple("(4,8)"));
  CHECK(str(id) == "ArithTuple(0,0) o (4,8):(1@0,1@1)");
  CHECK(str(id(5)) == "(1,1)" && str(id(cl::Tuple("(3,7)"))) == "(3,7)");
  for (int64_t i = 0; i < 32; i++) /* the identity: element i is its own coordinate */
    CHECK(id(i) == cl::idx2crd(cl::Tuple(i), cl::Tuple("(4,8)")));
  CHECK(str(cl::slice(cl::Tuple("(_,2)"), id)) == "ArithTuple(0,2) o (4):(1@0)");
  cl::CoordTensor big = cl::make_identity_tensor(cl::Tuple("(8,8)"));
  CHECK(str(cl::local_tile(big, cl::Tuple("(4,4)"), cl::Tuple("(1,0)"))) == "ArithTuple(4,0) o (4,4):(1@0,1@1)");
  CHECK(str(cl::local_tile(big, cl::Tuple("(4,4,2)"), cl::Tuple("(1,_,0)"), cl::Tuple("(1,_,1)"))) ==
        "ArithTuple(4,0) o (4,2):(1@0,1@1)");
  CHECK(str(cl::outer_partition(big, cl::Tuple("(4,4)"), cl::Tuple("(1,0)"))) == "ArithTuple(1,0) o (2,2):(4@0,4@1)");
  /* thread 3 of a 2x2 thread layout is at (1,1): every second row and column from there */
  CHECK(str(cl::local_partition(big, cl::Layout("(2,2):(1,2)"), 3)) == "ArithTuple(1,1) o (4,4):(2@0,2@1)");
  cl::CoordTensor ct = cl::make_coord_tensor(cl::Layout("(2,3):(1,2)"));
  CHECK(str(ct.origin()) == "0" && str(ct(4)) == "4");
  cl::CoordTensor n(cl::Tuple("(1,2)"), cl::Layout("(2,2):(1@0,1@1)"));
  CHECK(str(n(3)) == "(2,3)" && str(n.with_layout(cl::Layout("4:1@1"))) == "ArithTuple(1,2) o 4:1@1");
  CHECK(n.layout() == cl::Layout("(2,2):(1@0,1@1)") && n.origin() == cl::Tuple("(1,2)"));
  cl::CoordTensor copy = n;
  CHECK(copy == n && copy.get() != n.get() && copy != id);
  CHECK(std::hash<cl::CoordTensor>()(copy) == std::hash<cl::CoordTensor>()(n));
  CHECK(cl::draw(id).find("<svg") != std::string::npos);
  CHECK_THROWS(cl::make_identity_tensor(cl::Tuple("(4,_)")), CL_E_TYPE);
  CHECK_THROWS(cl::slice(cl::Tuple("(_,2,3)"), id), CL_E_RANK);
  CHECK_THROWS(cl::CoordTensor(cl::Tuple("(1,_)"), cl::Layout("2:1")), CL_E_TYPE);
}

/* The nested composed layouts' constructor and sides, and the copy plan. */
static void test_nested_and_plan() {
  cl::Swizzle sw(1, 0, 2);
  cl::ComposedLayout inner("Sw<1,0,2> o 0 o 16:1");
  cl::ComposedLayout nested = cl::make_composed_nested(sw, 0, inner);
  CHECK(str(nested) == "Sw<1,0,2> o 0 o Sw<1,0,2> o 0 o 16:1");
  CHECK(nested == cl::ComposedLayout(str(nested)));
  for (int64_t i = 0; i < 16; i++) /* i -> outer(0 + inner(i)): the swizzle applied twice is the identity */
    CHECK(nested(i) == i && inner(i) == sw(i));
  cl::Sides parts = cl::sides(nested);
  CHECK(std::holds_alternative<cl::Swizzle>(parts.outer) && std::get<cl::Swizzle>(parts.outer) == sw);
  CHECK(parts.offset == 0 && std::get<cl::ComposedLayout>(parts.inner) == inner);
  cl::ComposedLayout plain = cl::make_composed_nested(cl::Layout("16:1"), 2, cl::Layout("(4,4):(4,1)"));
  CHECK(str(plain) == "16:1 o 2 o (4,4):(4,1)");
  CHECK(std::get<cl::Layout>(cl::sides(plain).inner) == cl::Layout("(4,4):(4,1)"));

  std::vector<float> a(64 * 64), b(64 * 64);
  cl::Tensor col(a, cl::Layout("(64,64):(1,64)")), row(b, cl::Layout("(64,64):(64,1)"));
  cl_copy_plan_t same = cl::copy_plan(row, cl::Tensor(a, cl::Layout("(64,64):(64,1)")));
  CHECK(same.kernel == CL_COPY_KERNEL_MEMCPY && same.elem_size == 4);
  cl_copy_plan_t turn = cl::copy_plan(row, col);
  CHECK(turn.kernel == CL_COPY_KERNEL_TRANSPOSE && turn.rank == 2);
  CHECK(cl::copy_plan(row, col, CL_COPY_STORES_STREAMING).flags & CL_COPY_PLAN_STREAMING);
  CHECK_THROWS(cl::copy_plan(row, cl::Tensor(a, cl::Layout("(64,32):(1,64)"))), CL_E_DOMAIN);
  CHECK_THROWS(cl::copy_plan(row, col, CL_COPY_STORES_AUTO, -1), CL_E_DOMAIN);
}

/* banks.h: the counts the C tests derive by hand, the report's totals, the search. */
static void test_banks() {
  cl::Layout rows("((8,4),8):((1,64),8)");
  cl::BankCount plain = cl::bank_conflicts(cl::SmemAccess{rows, 16, CL_SMEM_LDMATRIX}, cl::Layout("(8,64):(64,1)"));
  CHECK(plain.wavefronts == 32 && plain.ideal == 4);
  cl::ComposedLayout sw128("Sw<3,3,3> o 0 o (8,64):(64,1)");
  CHECK(cl::bank_conflicts(rows, sw128, 16).wavefronts == 4);
  cl::BankReport r(cl::SmemAccess{rows, 16}, sw128);
  CHECK(r.size() == 1 && r[0].bytes == 16 && r.lane(0, 8).first == 64);
  CHECK(r.totals().wavefronts == 4);
  std::array<int64_t, 32> lanes;
  lanes.fill(256);
  CHECK(cl::smem_wavefronts(CL_SMEM_LOAD, lanes, 16).wavefronts == 2);
  CHECK(cl::swizzle_search(cl::Layout("(8,64):(64,1)"), {cl::SmemAccess{rows, 16, CL_SMEM_LDMATRIX}}).str() ==
        "Sw<3,3,3> o 0 o (8,64):(64,1)");
  CHECK_THROWS(cl::bank_conflicts(rows, cl::Layout("8:1"), 16), CL_E_DOMAIN);
  CHECK_THROWS(cl::swizzle_search(cl::Layout("8:1"), {}), CL_E_DOMAIN);
  /* padding where no swizzle serves a column read and a read with a step down and across */
  cl::Layout column("(32,1):(32,0)"), mixed("((2,2,2,2,2),1):((33,1,4,8,16),0)");
  cl::SmemChoice padded =
      cl::swizzle_search_padded(cl::Layout("(32,32):(32,1)"), {cl::SmemAccess{column, 32}, cl::SmemAccess{mixed, 32}});
  CHECK(std::get<cl::Layout>(padded.layout).str() == "(32,32):(33,1)");
  CHECK(padded.choice.padding == 1 && padded.choice.leading == 32);
  CHECK(padded.choice.wavefronts == padded.choice.ideal);
  CHECK(cl::bank_conflicts(column, padded.layout, 32).wavefronts == 1);
  cl::SmemChoice swizzled = cl::swizzle_search_padded(cl::Layout("(8,64):(64,1)"), {cl::SmemAccess{rows, 16, CL_SMEM_LDMATRIX}});
  CHECK(std::get<cl::ComposedLayout>(swizzled.layout).str() == "Sw<3,3,3> o 0 o (8,64):(64,1)");
  CHECK(swizzled.choice.padding == 0 && swizzled.choice.wavefronts == 4);
  CHECK_THROWS(cl::swizzle_search_padded(cl::Layout("8:1"), {}), CL_E_DOMAIN);
}

/* Atoms: CuTe's answers (tests/cute_atoms.tsv has them from CuTe itself),
 * the defining property of a tiled C layout, partitions as views. */
static void test_atoms() {
  cl::MmaAtom atom("SM80_16x8x16_F32F16F16F32_TN");
  CHECK(atom.str() == "SM80_16x8x16_F32F16F16F32_TN");
  CHECK(atom.thr_id().str() == "32:1");
  CHECK(atom.shape_mnk().str() == "(16,8,16)");
  CHECK(atom.layout_tv(CL_OPERAND_A).str() == "((4,8),(2,2,2)):((32,1),(16,8,128))");
  CHECK(atom.value_bits(CL_OPERAND_C) == 32);
  cl::TiledMMA mma(atom, cl::Layout("(2,2,1):(1,2,0)"));
  CHECK(mma.str() == "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0),(_,_,_))");
  CHECK(mma.atom().str() == atom.str());
  CHECK(mma.size() == 128);
  CHECK(mma.tile_shape().str() == "(32,16,16)");
  CHECK(mma.thr_layout_vmnk().str() == "(32,2,2,1):(1,32,64,0)");
  cl::Layout c = mma.layout_tv(CL_OPERAND_C);
  std::vector<int64_t> seen = c.indices();
  std::sort(seen.begin(), seen.end());
  std::vector<int64_t> all(32 * 16);
  std::iota(all.begin(), all.end(), 0);
  CHECK(seen == all);
  CHECK(mma.thrfrg(CL_OPERAND_C, cl::Layout("(32,16):(1,32)")).size() == 512);
  auto part = mma.partition(CL_OPERAND_A, 5, cl::Layout("(64,32):(1,64)"));
  CHECK(part.first.str() == "((2,2,2),2,2):((64,8,512),32,1024)");
  std::vector<float> data(64 * 32);
  cl::Tensor t(data, cl::Layout("(64,32):(1,64)"));
  cl::Tensor view = mma.partition(CL_OPERAND_A, 5, t);
  CHECK(view.layout().str() == part.first.str());
  CHECK_THROWS(mma.partition(CL_OPERAND_A, 128, t), CL_E_DOMAIN);
  CHECK_THROWS(cl::MmaAtom("SM80_16x8x16_F32F16F16F32_TM"), CL_E_DOMAIN);
  CHECK_THROWS(cl::TiledMMA(atom, cl::Layout("(2,2,1,1):(1,2,0,0)")), CL_E_RANK);
  cl::TiledMMA perm(atom, cl::Layout("(2,2,1):(1,2,0)"), cl::Tuple("(_,32,_)"));
  CHECK(perm.tile_shape().str() == "(32,32,16)");
  cl::TiledMMA one{atom};
  CHECK(one.size() == 32);

  cl::CopyAtom ldsm("SM75_U32x4_LDSM_N", "half_t");
  CHECK(ldsm.str() == "copy_atom(SM75_U32x4_LDSM_N,half_t)");
  CHECK(ldsm.kind() == CL_COPY_LDMATRIX);
  CHECK(ldsm.value_bits() == 16);
  CHECK(ldsm.access_bits(CL_COPY_DST) == 128);
  CHECK(ldsm.thr_id().str() == "32:1");
  CHECK(ldsm.layout(CL_COPY_DST).str() == "(32,(2,4)):(2,(1,64))");
  CHECK(ldsm.layout(CL_COPY_DST, true).str() == "(32,(32,4)):(32,(1,1024))");
  CHECK_THROWS(cl::CopyAtom("SM75_U32x4_LDSM_N", "uint128_t"), CL_E_TYPE);
  cl::TiledCopy copy_a(ldsm, mma, CL_OPERAND_A);
  CHECK(copy_a.kind() == CL_COPY_LDMATRIX);
  CHECK(copy_a.size() == 128);
  CHECK(copy_a.tiler_mn().str() == "(32,16)");
  CHECK(copy_a.side_tv(CL_COPY_SRC).str() == "((16,2,2,2),(8,1)):((1,256,16,0),(32,0))");
  CHECK(copy_a.layout_tv().str() == mma.layout_tv(CL_OPERAND_A).str());
  CHECK(copy_a.tidfrg(CL_COPY_SRC, cl::Layout("(32,16):(1,32)")).size() == 1024);
  /* bank_conflicts(tiled_copy, L): the ldmatrix reads over 32-byte rows are 2-way conflicted, over the
   * 128-byte swizzle not (the suite's pairs ldsm4-A-row16 and ldsm4-A-sw128, measured on an H100) */
  cl::BankCount rows16 = cl::bank_conflicts(copy_a, cl::Layout("(32,16):(16,1)"));
  CHECK(rows16.wavefronts == 32 && rows16.ideal == 16);
  cl::ComposedLayout sw128_rows("Sw<3,3,3> o 0 o (32,16):(64,1)");
  CHECK(cl::bank_conflicts(copy_a, sw128_rows).wavefronts == 16);
  cl::BankReport copy_report = cl::bank_report(copy_a, sw128_rows);
  CHECK(copy_report.size() == 4 && copy_report[0].bytes == 16 && copy_report.totals().ideal == 16);
  CHECK(copy_report.lane(0, 0).first == copy_a.side_tv(CL_COPY_SRC)(0));
  CHECK_THROWS(cl::bank_conflicts(copy_a, cl::Layout("8:1")), CL_E_DOMAIN);
  cl::TiledCopy plain(cl::CopyAtom("UniversalCopy<uint128_t>", "half_t"), cl::Layout("(32,8):(8,1)"),
                      cl::Layout("(1,8):(0,1)"));
  CHECK(plain.str() == "make_tiled_copy(copy_atom(UniversalCopy<uint128_t>,half_t),(32,8):(8,1),(1,8):(0,1))");
  std::vector<uint16_t> tile(64 * 64);
  cl::Tensor src(tile, cl::Layout("(64,64):(64,1)"));
  CHECK(plain.partition(CL_COPY_SRC, 3, src).size() == 16);
  CHECK(plain.partition(CL_COPY_DST, 3, cl::Layout("(64,64):(64,1)")).first.size() == 16);
  CHECK(plain.retile(cl::Layout("(8,2,2):(1,8,16)")).size() == 32);
  CHECK_THROWS(plain.partition(CL_COPY_SRC, 256, src), CL_E_DOMAIN);
  /* swizzled tensors: CuTe's answers (tests/cute_atoms.tsv) */
  cl::ComposedLayout sw128("Sw<3,3,3> o 0 o (64,64):(64,1)");
  auto swa = mma.partition(CL_OPERAND_A, 5, sw128);
  CHECK(std::get<cl::Layout>(swa.first).str() == "((2,2,2),2,4):((1,512,-8),2048,16)" && swa.second == 74);
  auto swd = plain.partition(CL_COPY_DST, 13, sw128);
  CHECK(std::get<cl::Layout>(swd.first).str() == "((8,1),2,1):((1,0),2048,0)" && swd.second == 96);
  cl::TiledCopy ldsm_rows(ldsm, cl::Layout("(32,1):(1,0)"), cl::Layout("(1,8):(0,1)"));
  auto sws = ldsm_rows.partition(CL_COPY_SRC, 7, cl::ComposedLayout("Sw<3,3,3> o 0 o (32,64):(64,1)"));
  CHECK(std::get<cl::ComposedLayout>(sws.first).str() == "Sw<3,3,3> o 256 o (((2,4),1),1,8):(((1,64),0),0,8)" &&
        sws.second == 1536);
  auto swr = plain.retile(cl::ComposedLayout("Sw<3,3,3> o 0 o (8,2,2):(1,64,128)"));
  CHECK(swr.second == 0 && std::get<cl::Layout>(swr.first).size() == 32);

  CHECK(cl::atom_type_bits("float_e4m3_t") == 8);
  CHECK(cl::atom_catalog(CL_ATOM_SMEM).size() == 8);
  auto smem = cl::gmma_smem_atom("GMMA::Layout_K_SW128_Atom<half_t>");
  CHECK(smem.first[0] == 3 && smem.first[1] == 3 && smem.first[2] == 3);
  CHECK(smem.second.str() == "(8,64):(64,1)");
}

int main() {
  test_values();
  test_banks();
  test_errors();
  test_evaluation();
  test_tuples();
  test_algebra();
  test_swizzles();
  test_pictures();
  test_tensors();
  test_more_functions();
  test_coord_tensors();
  test_nested_and_plan();
  test_atoms();
  if (failures) {
    std::fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  std::printf("all checks passed\n");
  return 0;
}
