/* SPDX-License-Identifier: BSD-3-Clause */
/* cutelayout.hpp: cute-layout for C++17, header-only, on the C library.
 *
 *   #include <cutelayout/cutelayout.hpp>
 *   namespace cl = cutelayout;
 *   cl::Layout a("(6,2):(8,2)"), b("(4,3):(3,1)");
 *   cl::Layout r = cl::composition(a, b);          // ((2,2),3):((24,2),8)
 *   int64_t i = r(5);                               // r evaluated at 5
 *   std::cout << r << " has size " << r.size() << "\n";
 *
 * Value types own their C handle (RAII): Tuple, Layout, ComposedLayout,
 * Tensor and Odometer free it in their destructor; copying copies the value
 * (a new handle), moving moves the handle (the moved-from object is empty,
 * and using it throws CL_E_NULL).  Swizzle is a plain value.  Text
 * constructors are explicit: cl::Layout("8:1"), cl::Tuple("(2,4)").
 *
 * Errors are exceptions: cutelayout::Error, a std::runtime_error whose
 * status() is the cl_status and detail() the library's cl_last_error().
 *
 * Free functions have CuTe's names and argument order.  Where CuTe returns
 * a plain Layout for some inputs and a ComposedLayout for others, the
 * function returns AnyLayout, a std::variant<Layout, ComposedLayout>
 * (streamable; std::visit applies a function to either).
 *
 * Tensors view memory the caller owns (a pointer, a std::vector: the vector
 * must outlive the view) or memory the library allocates (Tensor::alloc),
 * which views derived from it keep alive.  Elements are read and written
 * as T through at<T>() / store(); the element size must match. */
#ifndef CUTELAYOUT_CUTELAYOUT_HPP
#define CUTELAYOUT_CUTELAYOUT_HPP

#if !defined(__cplusplus) || (__cplusplus < 201703L && !(defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "<cutelayout/cutelayout.hpp> needs C++17"
#endif

#include <cstddef>
#include <cstdint>
#include <array>
#include <cstdio>
#include <exception>
#include <functional>
#include <initializer_list>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <array>
#include <vector>

#include "cutelayout.h"

namespace cutelayout {

/* ================================================================ errors */

/* A failed library call: status() is the cl_status (negative), what() is
 * "message: detail", detail() the library's cl_last_error() text. */
class Error : public std::runtime_error {
public:
  Error(int status, std::string detail)
      : std::runtime_error(describe(status, detail)), status_(status), detail_(std::move(detail)) {}
  int status() const noexcept { return status_; }
  const std::string &detail() const noexcept { return detail_; }
  /* cl_status_string(status()). */
  const char *message() const noexcept { return cl_status_string(status_); }

private:
  static std::string describe(int status, const std::string &detail) {
    std::string m = cl_status_string(status);
    return detail.empty() ? m : m + ": " + detail;
  }
  int status_;
  std::string detail_;
};

namespace detail {

/* Throws the Error of a failure status (the detail is thread-local in the
 * library and read at once). */
inline int64_t check(int64_t status) {
  if (status < 0)
    throw Error(static_cast<int>(status), cl_last_error());
  return status;
}

/* The text of an snprintf-style function f(args..., buf, cap). */
template <class F, class... A> std::string text(F f, const A &...args) {
  int64_t need = check(f(args..., nullptr, 0));
  std::vector<char> buf(static_cast<size_t>(need) + 1);
  check(f(args..., buf.data(), buf.size()));
  return std::string(buf.data(), static_cast<size_t>(need));
}

/* Text for the C library, which reads a string up to its first NUL: a NUL
 * inside the text would cut it short there without a word, so it is refused
 * (CL_E_PARSE, naming its column) rather than passed on. */
inline std::string c_text(std::string_view text) {
  size_t nul = text.find('\0');
  if (nul != std::string_view::npos)
    throw Error(CL_E_PARSE, "column " + std::to_string(nul + 1) + ": the text holds a NUL byte");
  return std::string(text);
}

/* s.c_str(), once c_text has checked s for a NUL. */
inline const char *c_text_of(const std::string &s) {
  c_text(s);
  return s.c_str();
}

/* f(args..., &out) for a function whose last parameter is its result. */
template <class Out, class F, class... A> Out out(F f, const A &...args) {
  Out value{};
  check(f(args..., &value));
  return value;
}

/* An owned C handle: freed by Free, copied by Copy. */
template <class T, void (*Free)(T *), cl_status (*Copy)(const T *, T **)> class Owned {
public:
  Owned(const Owned &other) : p_(other.p_ ? out<T *>(Copy, other.p_) : nullptr) {}
  Owned(Owned &&other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
  Owned &operator=(const Owned &other) {
    Owned copy(other);
    std::swap(p_, copy.p_);
    return *this;
  }
  Owned &operator=(Owned &&other) noexcept {
    std::swap(p_, other.p_);
    return *this;
  }
  ~Owned() { Free(p_); }
  /* The C handle, still owned by this object. */
  const T *get() const noexcept { return p_; }
  /* Gives the C handle up: the caller frees it. */
  T *release() noexcept { return std::exchange(p_, nullptr); }

protected:
  explicit Owned(T *p) noexcept : p_(p) {}
  T *p_;
};

inline size_t hash_text(const std::string &s) { return std::hash<std::string>()(s); }

/* For handles the library cannot copy (atoms and tiled atoms): copying the
 * C++ object fails with CL_E_UNSUPPORTED. */
template <class T> cl_status no_copy(const T *, T **out) {
  *out = nullptr;
  return CL_E_UNSUPPORTED;
}

} // namespace detail

class Layout;
class ComposedLayout;
class Tensor;

/* ================================================================ version */

/* The loaded library's version, "MAJOR.MINOR.PATCH", and as a number. */
inline std::string version() { return cl_version_string(); }
inline int version_number() { return cl_version_number(); }
/* The ABI of the loaded library (CL_ABI_VERSION, CL_ABI_MINOR). */
inline int abi_version() { return cl_abi_version(); }
inline int abi_minor() { return cl_abi_minor(); }
/* Routes the library's allocations through `allocator` (before any other call). */
inline void set_allocator(const cl_allocator *allocator) { detail::check(cl_set_allocator(allocator)); }

/* ================================================================ Tuple */

/* CuTe's IntTuple: an integer, `_`, a scaled basis, a layout, or a tuple of
 * these.  Made from text (Tuple("(2,(3,4))")), or with make_tuple(2, 3). */
class Tuple : public detail::Owned<cl_tuple_t, cl_tuple_free, cl_tuple_copy> {
public:
  explicit Tuple(const char *text) : Owned(detail::out<cl_tuple_t *>(cl_tuple_parse, text)) {}
  /* Text with an embedded NUL is refused (Error CL_E_PARSE), not cut short. */
  explicit Tuple(std::string_view text) : Tuple(detail::c_text(text).c_str()) {}
  /* The integer leaf `value`. */
  explicit Tuple(int64_t value) : Owned(detail::out<cl_tuple_t *>(cl_tuple_int, value)) {}
  /* A leaf holding a copy of a layout (for tilers). */
  explicit Tuple(const Layout &layout);
  /* Takes ownership of a handle the library returned. */
  static Tuple adopt(cl_tuple_t *handle) { return Tuple(handle, 0); }

  /* CuTe's `_`. */
  static Tuple underscore() { return adopt(detail::out<cl_tuple_t *>(cl_tuple_underscore)); }
  /* The flat tuple of integers (values...). */
  static Tuple ints(const std::vector<int64_t> &values) {
    return adopt(detail::out<cl_tuple_t *>(cl_tuple_from_ints, values.data(), int64_t(values.size())));
  }
  /* The tuple (elements...). */
  static Tuple make(const std::vector<Tuple> &elements) {
    std::vector<const cl_tuple_t *> handles;
    for (const Tuple &e : elements)
      handles.push_back(e.get());
    return adopt(detail::out<cl_tuple_t *>(cl_tuple_make, handles.data(), int64_t(handles.size())));
  }
  /* CuTe's E<path...>{} * scale, printed scale@path[n-1]@...@path[0]. */
  static Tuple basis(int64_t scale, const std::vector<int64_t> &path) {
    return adopt(detail::out<cl_tuple_t *>(cl_tuple_basis, scale, path.data(), int64_t(path.size())));
  }

  cl_kind kind() const {
    if (!get())
      throw Error(CL_E_NULL, "a moved-from Tuple");
    return cl_tuple_kind(get());
  }
  bool is_int() const { return kind() == CL_KIND_INT; }
  /* The integer of an integer leaf (else CL_E_TYPE). */
  int64_t value() const { return detail::out<int64_t>(cl_tuple_value, get()); }
  /* The layout of a layout leaf. */
  Layout layout() const;
  /* Scale and path (CuTe's order) of a scaled basis. */
  std::pair<int64_t, std::vector<int64_t>> basis_parts() const {
    int64_t scale = 0, n = 0;
    detail::check(cl_tuple_basis_parts(get(), &scale, nullptr, 0, &n));
    std::vector<int64_t> path(static_cast<size_t>(n));
    detail::check(cl_tuple_basis_parts(get(), &scale, path.data(), n, &n));
    return {scale, path};
  }
  int64_t rank() const { return detail::check(cl_tuple_rank(get())); }
  int64_t depth() const { return detail::check(cl_tuple_depth(get())); }
  /* get<i0,i1,...>(t). */
  Tuple at(std::initializer_list<int64_t> path) const {
    return adopt(detail::out<cl_tuple_t *>(cl_tuple_get, get(), path.begin(), int64_t(path.size())));
  }
  Tuple operator[](int64_t i) const { return at({i}); }

  std::string str() const { return detail::text(cl_tuple_format, get()); }
  friend bool operator==(const Tuple &a, const Tuple &b) { return cl_tuple_equal(a.get(), b.get()) != 0; }
  friend bool operator!=(const Tuple &a, const Tuple &b) { return !(a == b); }
  friend std::ostream &operator<<(std::ostream &os, const Tuple &t) { return os << t.str(); }

private:
  Tuple(cl_tuple_t *handle, int) : Owned(handle) {}
};

namespace detail {
inline Tuple tuple_arg(const Tuple &t) { return t; }
inline Tuple tuple_arg(int64_t v) { return Tuple(v); }
inline Tuple tuple_arg(int v) { return Tuple(int64_t(v)); }
inline Tuple tuple_arg(const char *text) { return Tuple(text); }
inline Tuple tuple_arg(std::string_view text) { return Tuple(text); }
Tuple tuple_arg(const Layout &layout);
} // namespace detail

/* CuTe's make_tuple / make_shape / make_stride / make_coord: elements are
 * Tuples, integers, Layouts or text. */
template <class... A> Tuple make_tuple(const A &...elements) { return Tuple::make({detail::tuple_arg(elements)...}); }
template <class... A> Tuple make_shape(const A &...e) { return make_tuple(e...); }
template <class... A> Tuple make_stride(const A &...e) { return make_tuple(e...); }
template <class... A> Tuple make_coord(const A &...e) { return make_tuple(e...); }
/* CuTe's `_`. */
inline Tuple underscore() { return Tuple::underscore(); }
/* CuTe's E<path...>{}: the unit scaled basis, E({0}) is 1@0. */
inline Tuple E(std::initializer_list<int64_t> path) { return Tuple::basis(1, path); }

/* ---- int_tuple.hpp and stride.hpp ---- */
namespace detail {
inline Tuple tuple_out(cl_status (*f)(const cl_tuple_t *, cl_tuple_t **), const Tuple &a) {
  return Tuple::adopt(out<cl_tuple_t *>(f, a.get()));
}
inline Tuple tuple_out(cl_status (*f)(const cl_tuple_t *, const cl_tuple_t *, cl_tuple_t **), const Tuple &a,
                       const Tuple &b) {
  return Tuple::adopt(out<cl_tuple_t *>(f, a.get(), b.get()));
}
inline bool predicate(cl_status (*f)(const cl_tuple_t *, const cl_tuple_t *, int *), const Tuple &a, const Tuple &b) {
  return out<int>(f, a.get(), b.get()) != 0;
}
} // namespace detail

inline int64_t rank(const Tuple &t) { return t.rank(); }
inline int64_t depth(const Tuple &t) { return t.depth(); }
inline int64_t product(const Tuple &t) { return detail::out<int64_t>(cl_tuple_product, t.get()); }
inline int64_t size(const Tuple &t) { return product(t); }
inline int64_t sum(const Tuple &t) { return detail::out<int64_t>(cl_tuple_sum, t.get()); }
inline int64_t inner_product(const Tuple &a, const Tuple &b) {
  return detail::out<int64_t>(cl_tuple_inner_product, a.get(), b.get());
}
inline Tuple flatten(const Tuple &t) { return detail::tuple_out(cl_tuple_flatten, t); }
inline Tuple unflatten(const Tuple &flat, const Tuple &profile) { return detail::tuple_out(cl_tuple_unflatten, flat, profile); }
inline bool congruent(const Tuple &a, const Tuple &b) { return detail::predicate(cl_tuple_congruent, a, b); }
inline bool weakly_congruent(const Tuple &a, const Tuple &b) { return detail::predicate(cl_tuple_weakly_congruent, a, b); }
inline bool compatible(const Tuple &a, const Tuple &b) { return detail::predicate(cl_tuple_compatible, a, b); }
inline bool elem_less(const Tuple &a, const Tuple &b) { return detail::predicate(cl_elem_less, a, b); }
inline Tuple shape_div(const Tuple &a, const Tuple &b) { return detail::tuple_out(cl_tuple_shape_div, a, b); }
inline Tuple ceil_div(const Tuple &a, const Tuple &b) { return detail::tuple_out(cl_tuple_ceil_div, a, b); }
inline Tuple elem_scale(const Tuple &a, const Tuple &b) { return detail::tuple_out(cl_tuple_elem_scale, a, b); }
inline Tuple prefix_product(const Tuple &a) { return detail::tuple_out(cl_tuple_prefix_product, a); }
inline Tuple compact_col_major(const Tuple &shape) { return detail::tuple_out(cl_compact_col_major, shape); }
inline Tuple compact_row_major(const Tuple &shape) { return detail::tuple_out(cl_compact_row_major, shape); }
inline Tuple compact_order(const Tuple &shape, const Tuple &order) { return detail::tuple_out(cl_compact_order, shape, order); }
inline int64_t crd2idx(const Tuple &crd, const Tuple &shape, const Tuple &stride) {
  return detail::out<int64_t>(cl_crd2idx, crd.get(), shape.get(), stride.get());
}
inline int64_t crd2idx(const Tuple &crd, const Tuple &shape) {
  return detail::out<int64_t>(cl_crd2idx_shape, crd.get(), shape.get());
}
inline Tuple idx2crd(const Tuple &idx, const Tuple &shape) { return detail::tuple_out(cl_idx2crd, idx, shape); }
inline Tuple idx2crd(const Tuple &idx, const Tuple &shape, const Tuple &stride) {
  return Tuple::adopt(detail::out<cl_tuple_t *>(cl_idx2crd_strided, idx.get(), shape.get(), stride.get()));
}
inline Tuple crd2crd(const Tuple &crd, const Tuple &src_shape, const Tuple &dst_shape) {
  return Tuple::adopt(detail::out<cl_tuple_t *>(cl_crd2crd, crd.get(), src_shape.get(), dst_shape.get()));
}
/* The reductions over a tuple's leaves (gcd, max, min: CuTe's), in parentheses
 * so that a max or min macro (<windows.h>) cannot expand them. */
inline int64_t gcd(const Tuple &t) { return detail::out<int64_t>(cl_tuple_gcd, t.get()); }
inline int64_t(max)(const Tuple &t) { return detail::out<int64_t>(cl_tuple_max, t.get()); }
inline int64_t(min)(const Tuple &t) { return detail::out<int64_t>(cl_tuple_min, t.get()); }
inline Tuple round_up(const Tuple &a, const Tuple &b) { return detail::tuple_out(cl_tuple_round_up, a, b); }
inline Tuple product_each(const Tuple &t) { return detail::tuple_out(cl_tuple_product_each, t); }
inline Tuple product_like(const Tuple &t, const Tuple &guide) { return detail::tuple_out(cl_tuple_product_like, t, guide); }
/* slice(crd, t) keeps the modes where crd has '_', dice(crd, t) the others. */
inline Tuple slice(const Tuple &crd, const Tuple &t) { return detail::tuple_out(cl_tuple_slice, crd, t); }
inline Tuple dice(const Tuple &crd, const Tuple &t) { return detail::tuple_out(cl_tuple_dice, crd, t); }
/* filter_zeros(a, b): b with each subtree at a 0 leaf of a made 1s; filter_zeros(t, t) is CuTe's filter_zeros(t). */
inline Tuple filter_zeros(const Tuple &a, const Tuple &b) { return detail::tuple_out(cl_tuple_filter_zeros, a, b); }
/* The compact strides of shape starting from current (CuTe's second argument). */
inline Tuple compact_col_major(const Tuple &shape, const Tuple &current) {
  return detail::tuple_out(cl_compact_col_major_from, shape, current);
}
inline Tuple compact_row_major(const Tuple &shape, const Tuple &current) {
  return detail::tuple_out(cl_compact_row_major_from, shape, current);
}
inline bool lex_less(const Tuple &a, const Tuple &b) { return detail::predicate(cl_lex_less, a, b); }
inline bool colex_less(const Tuple &a, const Tuple &b) { return detail::predicate(cl_colex_less, a, b); }
inline bool evenly_divides(const Tuple &shape, const Tuple &tiler) { return detail::predicate(cl_evenly_divides, shape, tiler); }
/* The whitepaper's refinement order on shapes (tuple.h). */
inline Tuple common_refinement(const Tuple &a, const Tuple &b) { return detail::tuple_out(cl_common_refinement, a, b); }
inline Tuple common_coarsening(const Tuple &a, const Tuple &b) { return detail::tuple_out(cl_common_coarsening, a, b); }

/* ================================================================ Layout */

/* CuTe's Layout: a function from coordinates to indices, shape:stride. */
class Layout : public detail::Owned<cl_layout_t, cl_layout_free, cl_layout_copy> {
public:
  explicit Layout(const char *text) : Owned(detail::out<cl_layout_t *>(cl_layout_parse, text)) {}
  /* Text with an embedded NUL is refused (Error CL_E_PARSE), not cut short. */
  explicit Layout(std::string_view text) : Layout(detail::c_text(text).c_str()) {}
  /* make_layout(shape): compact column-major (LayoutLeft). */
  explicit Layout(const Tuple &shape) : Owned(detail::out<cl_layout_t *>(cl_layout_make_left, shape.get())) {}
  /* make_layout(shape, stride); strides may hold scaled bases. */
  Layout(const Tuple &shape, const Tuple &stride)
      : Owned(detail::out<cl_layout_t *>(cl_layout_make, shape.get(), stride.get())) {}
  static Layout adopt(cl_layout_t *handle) { return Layout(handle, 0); }

  Tuple shape() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_layout_shape, get())); }
  Tuple stride() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_layout_stride, get())); }
  Tuple coshape() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_layout_coshape, get())); }
  int64_t size() const { return detail::out<int64_t>(cl_layout_size_checked, get()); }
  int64_t cosize() const { return detail::out<int64_t>(cl_layout_cosize_checked, get()); }
  int64_t rank() const { return detail::check(cl_layout_rank(get())); }
  int64_t depth() const { return detail::check(cl_layout_depth(get())); }
  /* True when the strides hold scaled bases (the values are coordinates). */
  bool is_coordinate() const { return cl_layout_is_coordinate(get()) != 0; }

  /* L(i) and L(crd): an index (CL_E_TYPE for a coordinate layout: see value()). */
  int64_t operator()(int64_t i) const { return detail::out<int64_t>(cl_layout_eval, get(), i); }
  int64_t operator()(const Tuple &crd) const { return detail::out<int64_t>(cl_layout_eval_coord, get(), crd.get()); }
  /* L(i) and L(crd) as a value: an integer, a scaled basis or a tuple. */
  Tuple value(int64_t i) const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_layout_eval_tuple, get(), i)); }
  Tuple value(const Tuple &crd) const {
    return Tuple::adopt(detail::out<cl_tuple_t *>(cl_layout_eval_coord_tuple, get(), crd.get()));
  }
  /* L(begin), ..., L(begin + count - 1); indices() is every L(i), i < size. */
  std::vector<int64_t> eval_range(int64_t begin, int64_t count) const {
    std::vector<int64_t> out(count > 0 ? static_cast<size_t>(count) : 0);
    detail::check(cl_layout_eval_range(get(), begin, count, out.data()));
    return out;
  }
  std::vector<int64_t> indices() const { return eval_range(0, size()); }
  /* The compiled layout (compiled.h): plain data for cl_compiled_eval. */
  cl_compiled_layout_t compile() const { return detail::out<cl_compiled_layout_t>(cl_layout_compile, get()); }

  /* get<i0,i1,...>(L); L[i] is mode i. */
  Layout at(std::initializer_list<int64_t> path) const {
    return adopt(detail::out<cl_layout_t *>(cl_layout_get, get(), path.begin(), int64_t(path.size())));
  }
  Layout operator[](int64_t i) const { return at({i}); }

  std::string str() const { return detail::text(cl_layout_format, get()); }
  friend bool operator==(const Layout &a, const Layout &b) { return cl_layout_equal(a.get(), b.get()) != 0; }
  friend bool operator!=(const Layout &a, const Layout &b) { return !(a == b); }
  friend std::ostream &operator<<(std::ostream &os, const Layout &l) { return os << l.str(); }

private:
  Layout(cl_layout_t *handle, int) : Owned(handle) {}
};

inline Tuple::Tuple(const Layout &layout) : Owned(detail::out<cl_tuple_t *>(cl_tuple_from_layout, layout.get())) {}
inline Layout Tuple::layout() const { return Layout::adopt(detail::out<cl_layout_t *>(cl_tuple_layout, get())); }
inline Tuple detail::tuple_arg(const Layout &layout) { return Tuple(layout); }

/* ================================================================ Swizzle */

/* CuTe's Swizzle<B,M,S>: x ^ ((x & yyy_msk) >> S), printed Sw<B,M,S>. */
class Swizzle {
public:
  Swizzle(int64_t bits, int64_t base, int64_t shift) : s_(detail::out<cl_swizzle_t>(cl_swizzle_make, bits, base, shift)) {}
  explicit Swizzle(const char *text) : s_(detail::out<cl_swizzle_t>(cl_swizzle_parse, text)) {}
  explicit Swizzle(std::string_view text) : Swizzle(detail::c_text(text).c_str()) {}
  /* A cl_swizzle_t from C, validated. */
  explicit Swizzle(cl_swizzle_t s) : s_(s) { detail::check(cl_swizzle_validate(s)); }
  const cl_swizzle_t &raw() const noexcept { return s_; }
  int bits() const noexcept { return s_.bits; }
  int base() const noexcept { return s_.base; }
  int shift() const noexcept { return s_.shift; }

  int64_t operator()(int64_t offset) const { return detail::out<int64_t>(cl_swizzle_apply, s_, offset); }
  /* CuTe's yyy_msk and zzz_msk. */
  std::pair<int64_t, int64_t> masks() const {
    int64_t yyy = 0, zzz = 0;
    detail::check(cl_swizzle_masks(s_, &yyy, &zzz));
    return {yyy, zzz};
  }
  int64_t max_alignment() const { return cl_swizzle_max_alignment(s_); }

  std::string str() const { return detail::text(cl_swizzle_format, s_); }
  friend bool operator==(const Swizzle &a, const Swizzle &b) { return cl_swizzle_equal(a.s_, b.s_) != 0; }
  friend bool operator!=(const Swizzle &a, const Swizzle &b) { return !(a == b); }
  friend std::ostream &operator<<(std::ostream &os, const Swizzle &s) { return os << s.str(); }

private:
  cl_swizzle_t s_;
};

/* CuTe's make_swizzle<Y,Z>(): the swizzle with masks yyy and zzz. */
inline Swizzle make_swizzle(int64_t yyy, int64_t zzz) { return Swizzle(detail::out<cl_swizzle_t>(cl_make_swizzle, yyy, zzz)); }
inline Swizzle composition(const Swizzle &a, const Swizzle &b) {
  return Swizzle(detail::out<cl_swizzle_t>(cl_swizzle_composition, a.raw(), b.raw()));
}
inline Swizzle upcast(const Swizzle &s, int64_t n) { return Swizzle(detail::out<cl_swizzle_t>(cl_swizzle_upcast, s.raw(), n)); }
inline Swizzle downcast(const Swizzle &s, int64_t n) {
  return Swizzle(detail::out<cl_swizzle_t>(cl_swizzle_downcast, s.raw(), n));
}

/* ========================================================= ComposedLayout */

/* A function of a composed layout: a Layout or a Swizzle. */
using Function = std::variant<Layout, Swizzle>;

namespace detail {
/* The cl_fn (a borrowed view) of a Layout or a Swizzle. */
inline cl_fn fn(const Layout &l) { return cl_fn_layout(l.get()); }
inline cl_fn fn(const Swizzle &s) { return cl_fn_swizzle(s.raw()); }
inline cl_fn fn(const Function &f) {
  return std::holds_alternative<Layout>(f) ? fn(std::get<Layout>(f)) : fn(std::get<Swizzle>(f));
}
inline Function function_of(const cl_fn &f) {
  if (f.kind == CL_FN_SWIZZLE)
    return Swizzle(f.swizzle);
  return Layout::adopt(out<cl_layout_t *>(cl_layout_copy, f.layout));
}
} // namespace detail

/* CuTe's ComposedLayout A o offset o B: i -> A(offset + B(i)). */
class ComposedLayout : public detail::Owned<cl_composed_t, cl_composed_free, cl_composed_copy> {
public:
  explicit ComposedLayout(const char *text) : Owned(detail::out<cl_composed_t *>(cl_composed_parse, text)) {}
  explicit ComposedLayout(std::string_view text) : ComposedLayout(detail::c_text(text).c_str()) {}
  /* make_composed_layout(outer, offset, inner): never simplified. */
  ComposedLayout(const Function &outer, int64_t offset, const Function &inner)
      : Owned(detail::out<cl_composed_t *>(cl_make_composed_layout, detail::fn(outer), offset, detail::fn(inner))) {}
  static ComposedLayout adopt(cl_composed_t *handle) { return ComposedLayout(handle, 0); }

  Function outer() const { return detail::function_of(parts().outer); }
  int64_t offset() const { return parts().offset; }
  Function inner() const { return detail::function_of(parts().inner); }

  Tuple shape() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_composed_shape, get())); }
  int64_t size() const { return detail::out<int64_t>(cl_composed_size, get()); }
  int64_t cosize() const { return detail::out<int64_t>(cl_composed_cosize, get()); }
  int64_t rank() const { return detail::check(cl_composed_rank(get())); }
  int64_t depth() const { return detail::check(cl_composed_depth(get())); }
  int64_t operator()(int64_t i) const { return detail::out<int64_t>(cl_composed_eval, get(), i); }
  int64_t operator()(const Tuple &crd) const { return detail::out<int64_t>(cl_composed_eval_coord, get(), crd.get()); }
  /* The compiled layout of Sw o offset o L (compiled.h). */
  cl_compiled_layout_t compile() const { return detail::out<cl_compiled_layout_t>(cl_composed_compile, get()); }

  std::string str() const { return detail::text(cl_composed_format, get()); }
  friend bool operator==(const ComposedLayout &a, const ComposedLayout &b) {
    return cl_composed_equal(a.get(), b.get()) != 0;
  }
  friend bool operator!=(const ComposedLayout &a, const ComposedLayout &b) { return !(a == b); }
  friend std::ostream &operator<<(std::ostream &os, const ComposedLayout &c) { return os << c.str(); }

private:
  ComposedLayout(cl_composed_t *handle, int) : Owned(handle) {}
  struct Parts {
    cl_fn outer, inner;
    int64_t offset;
  };
  Parts parts() const {
    Parts p{};
    detail::check(cl_composed_parts(get(), &p.outer, &p.offset, &p.inner));
    return p;
  }
};

/* A Layout or a ComposedLayout: what CuTe's functions on composed layouts answer. */
using AnyLayout = std::variant<Layout, ComposedLayout>;

inline std::ostream &operator<<(std::ostream &os, const AnyLayout &l) {
  std::visit([&os](const auto &x) { os << x; }, l);
  return os;
}
inline std::ostream &operator<<(std::ostream &os, const Function &f) {
  std::visit([&os](const auto &x) { os << x; }, f);
  return os;
}

namespace detail {
/* f(args..., &out) returning a new layout. */
template <class F, class... A> Layout make(F f, const A &...args) { return Layout::adopt(out<cl_layout_t *>(f, args...)); }
/* f(args..., &layout, &composed): the one it set. */
template <class F, class... A> AnyLayout either(F f, const A &...args) {
  cl_layout_t *layout = nullptr;
  cl_composed_t *composed = nullptr;
  check(f(args..., &layout, &composed));
  if (layout)
    return Layout::adopt(layout);
  return ComposedLayout::adopt(composed);
}
inline const cl_tuple_t *optional(const Tuple *t) { return t ? t->get() : nullptr; }
/* f(args..., &handle, &offset): the new object and the offset. */
template <class Object, class Handle, class F, class... A> std::pair<Object, int64_t> with_offset(F f, const A &...args) {
  Handle *out = nullptr;
  int64_t offset = 0;
  check(f(args..., &out, &offset));
  return {Object::adopt(out), offset};
}
} // namespace detail

/* ============================================================ making */

inline Layout make_layout(const Tuple &shape) { return Layout(shape); }
inline Layout make_layout(const Tuple &shape, const Tuple &stride) { return Layout(shape, stride); }
/* CuTe's LayoutLeft / LayoutRight tags. */
struct LayoutLeft {};
struct LayoutRight {};
inline Layout make_layout(const Tuple &shape, LayoutLeft) { return Layout(shape); }
inline Layout make_layout(const Tuple &shape, LayoutRight) { return detail::make(cl_layout_make_right, shape.get()); }
/* make_layout(L0, L1, ...): the layouts as modes. */
inline Layout make_layout(const std::vector<Layout> &modes) {
  std::vector<const cl_layout_t *> handles;
  for (const Layout &m : modes)
    handles.push_back(m.get());
  return detail::make(cl_layout_concat, handles.data(), int64_t(handles.size()));
}
template <class... L, class = std::enable_if_t<(std::is_same_v<L, Layout> && ...)>>
Layout make_layout(const Layout &first, const L &...rest) {
  return make_layout(std::vector<Layout>{first, rest...});
}
/* make_layout(Swizzle): composition(Sw, 0, (M+B+|S|):1). */
inline AnyLayout make_layout(const Swizzle &s) { return detail::either(cl_make_layout_from_swizzle, s.raw()); }
inline Layout make_ordered_layout(const Tuple &shape, const Tuple &order) {
  return detail::make(cl_layout_make_ordered, shape.get(), order.get());
}
inline Layout make_identity_layout(const Tuple &shape) { return detail::make(cl_make_identity_layout, shape.get()); }
inline Layout make_layout_like(const Layout &l) { return detail::make(cl_make_layout_like, l.get()); }
inline Layout make_fragment_like(const Layout &l) { return detail::make(cl_make_fragment_like, l.get()); }
inline Layout make_fragment_like(const ComposedLayout &c) { return detail::make(cl_composed_make_fragment_like, c.get()); }
inline ComposedLayout make_composed_layout(const Function &outer, int64_t offset, const Function &inner) {
  return ComposedLayout(outer, offset, inner);
}

/* A side of a nested composed layout: a Layout, a Swizzle or itself a
 * ComposedLayout, as CuTe's ComposedLayout<A, O, B> nests. */
using Side = std::variant<Layout, Swizzle, ComposedLayout>;
namespace detail {
inline cl_layout_fn_t side(const Side &s) {
  if (const ComposedLayout *c = std::get_if<ComposedLayout>(&s))
    return cl_layout_fn_composed(c->get());
  if (const Layout *l = std::get_if<Layout>(&s))
    return cl_layout_fn_of(fn(*l));
  return cl_layout_fn_of(fn(std::get<Swizzle>(s)));
}
inline Side side_of(const cl_layout_fn_t &f) {
  if (f.composed)
    return ComposedLayout::adopt(out<cl_composed_t *>(cl_composed_copy, f.composed));
  if (f.fn.kind == CL_FN_SWIZZLE)
    return Swizzle(f.fn.swizzle);
  return Layout::adopt(out<cl_layout_t *>(cl_layout_copy, f.fn.layout));
}
} // namespace detail
/* make_composed_layout(outer, offset, inner) where either side may be a composed layout. */
inline ComposedLayout make_composed_nested(const Side &outer, int64_t offset, const Side &inner) {
  return ComposedLayout::adopt(
      detail::out<cl_composed_t *>(cl_make_composed_nested, detail::side(outer), offset, detail::side(inner)));
}
/* The three parts of a composed layout, a nested side as a ComposedLayout (parts() gives CL_FN_COMPOSED there). */
struct Sides {
  Side outer;
  int64_t offset;
  Side inner;
};
inline Sides sides(const ComposedLayout &c) {
  cl_layout_fn_t outer{}, inner{};
  int64_t offset = 0;
  detail::check(cl_composed_sides(c.get(), &outer, &offset, &inner));
  return {detail::side_of(outer), offset, detail::side_of(inner)};
}

/* ============================================================ queries */

inline Tuple shape(const Layout &l) { return l.shape(); }
inline Tuple shape(const ComposedLayout &c) { return c.shape(); }
inline Tuple stride(const Layout &l) { return l.stride(); }
inline Tuple coshape(const Layout &l) { return l.coshape(); }
inline int64_t size(const Layout &l) { return l.size(); }
inline int64_t size(const ComposedLayout &c) { return c.size(); }
inline int64_t cosize(const Layout &l) { return l.cosize(); }
inline int64_t cosize(const ComposedLayout &c) { return c.cosize(); }
inline int64_t rank(const Layout &l) { return l.rank(); }
inline int64_t rank(const ComposedLayout &c) { return c.rank(); }
inline int64_t depth(const Layout &l) { return l.depth(); }
inline int64_t depth(const ComposedLayout &c) { return c.depth(); }
inline int64_t crd2idx(const Tuple &crd, const Layout &l) { return l(crd); }

/* ============================================================ modes */

inline Layout get(const Layout &l, std::initializer_list<int64_t> path) { return l.at(path); }
inline AnyLayout get(const ComposedLayout &c, std::initializer_list<int64_t> path) {
  return detail::either(cl_composed_get, c.get(), path.begin(), int64_t(path.size()));
}
inline Tuple get(const Tuple &t, std::initializer_list<int64_t> path) { return t.at(path); }
inline Layout slice(const Tuple &crd, const Layout &l) { return detail::make(cl_layout_slice, crd.get(), l.get()); }
inline AnyLayout slice(const Tuple &crd, const ComposedLayout &c) { return detail::either(cl_composed_slice, crd.get(), c.get()); }
/* slice_and_offset(crd, L): the slice and L(crd) with '_' as 0. */
inline std::pair<Layout, int64_t> slice_and_offset(const Tuple &crd, const Layout &l) {
  return detail::with_offset<Layout, cl_layout_t>(cl_layout_slice_and_offset, crd.get(), l.get());
}
/* The same for any layout: the offset as a value (a coordinate layout's is a tuple). */
inline std::pair<Layout, Tuple> slice_and_offset_value(const Tuple &crd, const Layout &l) {
  cl_layout_t *out = nullptr;
  cl_tuple_t *offset = nullptr;
  detail::check(cl_layout_slice_and_offset_tuple(crd.get(), l.get(), &out, &offset));
  return {Layout::adopt(out), Tuple::adopt(offset)};
}
inline std::pair<AnyLayout, int64_t> slice_and_offset(const Tuple &crd, const ComposedLayout &c) {
  cl_layout_t *layout = nullptr;
  cl_composed_t *composed = nullptr;
  int64_t offset = 0;
  detail::check(cl_composed_slice_and_offset(crd.get(), c.get(), &layout, &composed, &offset));
  if (layout)
    return {Layout::adopt(layout), offset};
  return {ComposedLayout::adopt(composed), offset};
}
inline Layout flatten(const Layout &l) { return detail::make(cl_layout_flatten, l.get()); }
inline AnyLayout flatten(const ComposedLayout &c) { return detail::either(cl_composed_flatten, c.get()); }
inline Layout unflatten(const Layout &l, const Tuple &profile) { return detail::make(cl_layout_unflatten, l.get(), profile.get()); }
inline Layout group(const Layout &l, int64_t b, int64_t e) { return detail::make(cl_layout_group, l.get(), b, e); }
inline AnyLayout group(const ComposedLayout &c, int64_t b, int64_t e) { return detail::either(cl_composed_group, c.get(), b, e); }
inline Layout take(const Layout &l, int64_t b, int64_t e) { return detail::make(cl_layout_take, l.get(), b, e); }
inline AnyLayout take(const ComposedLayout &c, int64_t b, int64_t e) { return detail::either(cl_composed_take, c.get(), b, e); }
inline Layout select(const Layout &l, const std::vector<int64_t> &modes) {
  return detail::make(cl_layout_select, l.get(), modes.data(), int64_t(modes.size()));
}
/* append(L, X) / prepend(L, X); without X, 1:0. */
inline Layout append(const Layout &l, const Layout &x) { return detail::make(cl_layout_append, l.get(), x.get()); }
inline Layout append(const Layout &l) { return detail::make(cl_layout_append, l.get(), static_cast<const cl_layout_t *>(nullptr)); }
inline Layout prepend(const Layout &l, const Layout &x) { return detail::make(cl_layout_prepend, l.get(), x.get()); }
inline Layout prepend(const Layout &l) { return detail::make(cl_layout_prepend, l.get(), static_cast<const cl_layout_t *>(nullptr)); }
inline Layout zip(const Layout &l) { return detail::make(cl_layout_zip, l.get()); }
inline AnyLayout zip(const ComposedLayout &c) { return detail::either(cl_composed_zip, c.get()); }

/* ============================================================ algebra */

inline Layout coalesce(const Layout &l) { return detail::make(cl_coalesce, l.get()); }
inline Layout coalesce(const Layout &l, const Tuple &profile) { return detail::make(cl_coalesce_profile, l.get(), profile.get()); }
inline AnyLayout coalesce(const ComposedLayout &c) { return detail::either(cl_composed_coalesce, c.get(), detail::optional(nullptr)); }
inline AnyLayout coalesce(const ComposedLayout &c, const Tuple &profile) {
  return detail::either(cl_composed_coalesce, c.get(), profile.get());
}
inline Layout filter(const Layout &l) { return detail::make(cl_filter, l.get()); }
inline Layout filter(const Layout &l, const Tuple &profile) { return detail::make(cl_filter_profile, l.get(), profile.get()); }
inline AnyLayout filter(const ComposedLayout &c, const Tuple &profile) {
  return detail::either(cl_composed_filter, c.get(), profile.get());
}
inline Layout filter_zeros(const Layout &l) { return detail::make(cl_filter_zeros, l.get()); }

/* composition(A, B) = A o B; B a layout, a tiler tuple, a swizzle or a composed layout. */
inline Layout composition(const Layout &a, const Layout &b) { return detail::make(cl_composition, a.get(), b.get()); }
inline Layout composition(const Layout &a, const Tuple &tiler) { return detail::make(cl_composition_tiler, a.get(), tiler.get()); }
inline AnyLayout composition(const Layout &a, const Swizzle &s) { return detail::either(cl_composition_with_swizzle, a.get(), s.raw()); }
inline AnyLayout composition(const Layout &a, const ComposedLayout &c) {
  return detail::either(cl_composition_with_composed, a.get(), c.get());
}
inline AnyLayout composition(const ComposedLayout &c, const Tuple &tiler) {
  return detail::either(cl_composed_composition, c.get(), tiler.get());
}
inline AnyLayout composition(const ComposedLayout &c, const Layout &b) { return composition(c, Tuple(b)); }
inline AnyLayout composition(const ComposedLayout &a, const ComposedLayout &b) {
  return detail::either(cl_composed_composition_with_composed, a.get(), b.get());
}
/* composition(A, offset, B): a Layout when A is an identity swizzle, else a ComposedLayout. */
inline AnyLayout composition(const Function &outer, int64_t offset, const Function &inner) {
  return detail::either(cl_composition_offset, detail::fn(outer), offset, detail::fn(inner));
}
inline AnyLayout composition(const Swizzle &s, const Layout &l) { return composition(Function(s), 0, Function(l)); }

inline Layout complement(const Layout &l, int64_t cotarget) { return detail::make(cl_complement, l.get(), cotarget); }
inline Layout complement(const Layout &l, const Tuple &cotarget) {
  return detail::make(cl_complement_shape, l.get(), cotarget.get());
}
inline Layout complement(const Layout &l) { return detail::make(cl_complement_full, l.get()); }
inline Layout complement(const ComposedLayout &c) { return detail::make(cl_composed_complement, c.get(), detail::optional(nullptr)); }
inline Layout complement(const ComposedLayout &c, const Tuple &cotarget) {
  return detail::make(cl_composed_complement, c.get(), cotarget.get());
}
inline Layout right_inverse(const Layout &l) { return detail::make(cl_right_inverse, l.get()); }
inline Layout left_inverse(const Layout &l) { return detail::make(cl_left_inverse, l.get()); }
inline AnyLayout right_inverse(const ComposedLayout &c) { return detail::either(cl_composed_right_inverse, c.get()); }
inline AnyLayout left_inverse(const ComposedLayout &c) { return detail::either(cl_composed_left_inverse, c.get()); }

/* The divides and products: by a layout, by a tiler, and of a composed layout (by a tiler or a layout). */
inline Layout logical_divide(const Layout &a, const Layout &b) { return detail::make(cl_logical_divide, a.get(), b.get()); }
inline Layout logical_divide(const Layout &a, const Tuple &t) { return detail::make(cl_logical_divide_tiler, a.get(), t.get()); }
inline AnyLayout logical_divide(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_logical_divide, c.get(), t.get()); }
inline AnyLayout logical_divide(const ComposedLayout &c, const Layout &b) { return logical_divide(c, Tuple(b)); }
inline Layout zipped_divide(const Layout &a, const Layout &b) { return detail::make(cl_zipped_divide, a.get(), b.get()); }
inline Layout zipped_divide(const Layout &a, const Tuple &t) { return detail::make(cl_zipped_divide_tiler, a.get(), t.get()); }
inline AnyLayout zipped_divide(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_zipped_divide, c.get(), t.get()); }
inline AnyLayout zipped_divide(const ComposedLayout &c, const Layout &b) { return zipped_divide(c, Tuple(b)); }
inline Layout tiled_divide(const Layout &a, const Layout &b) { return detail::make(cl_tiled_divide, a.get(), b.get()); }
inline Layout tiled_divide(const Layout &a, const Tuple &t) { return detail::make(cl_tiled_divide_tiler, a.get(), t.get()); }
inline AnyLayout tiled_divide(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_tiled_divide, c.get(), t.get()); }
inline AnyLayout tiled_divide(const ComposedLayout &c, const Layout &b) { return tiled_divide(c, Tuple(b)); }
inline Layout flat_divide(const Layout &a, const Layout &b) { return detail::make(cl_flat_divide, a.get(), b.get()); }
inline Layout flat_divide(const Layout &a, const Tuple &t) { return detail::make(cl_flat_divide_tiler, a.get(), t.get()); }
inline AnyLayout flat_divide(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_flat_divide, c.get(), t.get()); }
inline AnyLayout flat_divide(const ComposedLayout &c, const Layout &b) { return flat_divide(c, Tuple(b)); }
inline Layout logical_product(const Layout &a, const Layout &b) { return detail::make(cl_logical_product, a.get(), b.get()); }
inline Layout logical_product(const Layout &a, const Tuple &t) { return detail::make(cl_logical_product_tiler, a.get(), t.get()); }
inline AnyLayout logical_product(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_logical_product, c.get(), t.get()); }
inline AnyLayout logical_product(const ComposedLayout &c, const Layout &b) { return logical_product(c, Tuple(b)); }
inline Layout zipped_product(const Layout &a, const Layout &b) { return detail::make(cl_zipped_product, a.get(), b.get()); }
inline Layout zipped_product(const Layout &a, const Tuple &t) { return detail::make(cl_zipped_product_tiler, a.get(), t.get()); }
inline AnyLayout zipped_product(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_zipped_product, c.get(), t.get()); }
inline AnyLayout zipped_product(const ComposedLayout &c, const Layout &b) { return zipped_product(c, Tuple(b)); }
inline Layout tiled_product(const Layout &a, const Layout &b) { return detail::make(cl_tiled_product, a.get(), b.get()); }
inline Layout tiled_product(const Layout &a, const Tuple &t) { return detail::make(cl_tiled_product_tiler, a.get(), t.get()); }
inline AnyLayout tiled_product(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_tiled_product, c.get(), t.get()); }
inline AnyLayout tiled_product(const ComposedLayout &c, const Layout &b) { return tiled_product(c, Tuple(b)); }
inline Layout flat_product(const Layout &a, const Layout &b) { return detail::make(cl_flat_product, a.get(), b.get()); }
inline Layout flat_product(const Layout &a, const Tuple &t) { return detail::make(cl_flat_product_tiler, a.get(), t.get()); }
inline AnyLayout flat_product(const ComposedLayout &c, const Tuple &t) { return detail::either(cl_composed_flat_product, c.get(), t.get()); }
inline AnyLayout flat_product(const ComposedLayout &c, const Layout &b) { return flat_product(c, Tuple(b)); }
/* The products of a layout with a swizzled layout (swizzle_layout.hpp). */
inline AnyLayout logical_product(const Layout &a, const ComposedLayout &b) {
  return detail::either(cl_logical_product_with_composed, a.get(), b.get());
}
inline AnyLayout zipped_product(const Layout &a, const ComposedLayout &b) {
  return detail::either(cl_zipped_product_with_composed, a.get(), b.get());
}
inline AnyLayout tiled_product(const Layout &a, const ComposedLayout &b) {
  return detail::either(cl_tiled_product_with_composed, a.get(), b.get());
}
inline AnyLayout flat_product(const Layout &a, const ComposedLayout &b) {
  return detail::either(cl_flat_product_with_composed, a.get(), b.get());
}
inline Layout blocked_product(const Layout &block, const Layout &tiler) {
  return detail::make(cl_blocked_product, block.get(), tiler.get());
}
inline Layout raked_product(const Layout &block, const Layout &tiler) { return detail::make(cl_raked_product, block.get(), tiler.get()); }
inline AnyLayout blocked_product(const ComposedLayout &block, const Layout &tiler) {
  return detail::either(cl_composed_blocked_product, block.get(), tiler.get());
}
inline AnyLayout raked_product(const ComposedLayout &block, const Layout &tiler) {
  return detail::either(cl_composed_raked_product, block.get(), tiler.get());
}
inline Layout tile_to_shape(const Layout &block, const Tuple &shape) {
  return detail::make(cl_tile_to_shape, block.get(), shape.get(), detail::optional(nullptr));
}
inline Layout tile_to_shape(const Layout &block, const Tuple &shape, const Tuple &order) {
  return detail::make(cl_tile_to_shape, block.get(), shape.get(), order.get());
}
inline AnyLayout tile_to_shape(const ComposedLayout &block, const Tuple &shape) {
  return detail::either(cl_composed_tile_to_shape, block.get(), shape.get(), detail::optional(nullptr));
}
inline AnyLayout tile_to_shape(const ComposedLayout &block, const Tuple &shape, const Tuple &order) {
  return detail::either(cl_composed_tile_to_shape, block.get(), shape.get(), order.get());
}
/* The modes of a layout: append<N>(L, X) and prepend<N>(L, X) pad with X up
 * to rank n; replace<I>(L, X); dice(crd, L) keeps the modes slice drops; the
 * coprofile (the strides' profile). */
inline Layout append(const Layout &l, const Layout &x, int64_t n) { return detail::make(cl_layout_append_to, l.get(), x.get(), n); }
inline AnyLayout append(const ComposedLayout &c, const Layout &x, int64_t n) {
  return detail::either(cl_composed_append, c.get(), x.get(), n);
}
inline Layout prepend(const Layout &l, const Layout &x, int64_t n) { return detail::make(cl_layout_prepend_to, l.get(), x.get(), n); }
inline Layout replace(const Layout &l, int64_t i, const Layout &x) { return detail::make(cl_layout_replace, l.get(), i, x.get()); }
inline Layout dice(const Tuple &crd, const Layout &l) { return detail::make(cl_layout_dice, crd.get(), l.get()); }
inline Tuple coprofile(const Layout &l) { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_layout_coprofile, l.get())); }

/* The algebra on the modes named by a path (CuTe's template index I...):
 * coalesce<I...>(L), composition(L, tiler) at a mode, and the divides and
 * product there. */
inline Layout coalesce_mode(const Layout &l, const std::vector<int64_t> &mode) {
  return detail::make(cl_coalesce_mode, l.get(), mode.data(), int64_t(mode.size()));
}
inline Layout composition_mode(const Layout &l, const Tuple &tiler, const std::vector<int64_t> &mode) {
  return detail::make(cl_composition_mode, l.get(), tiler.get(), mode.data(), int64_t(mode.size()));
}
inline Layout logical_divide_mode(const Layout &l, const Tuple &tiler, const std::vector<int64_t> &mode) {
  return detail::make(cl_logical_divide_mode, l.get(), tiler.get(), mode.data(), int64_t(mode.size()));
}
inline Layout zipped_divide_mode(const Layout &l, const Tuple &tiler, const std::vector<int64_t> &mode) {
  return detail::make(cl_zipped_divide_mode, l.get(), tiler.get(), mode.data(), int64_t(mode.size()));
}
inline Layout logical_product_mode(const Layout &l, const Tuple &tiler, const std::vector<int64_t> &mode) {
  return detail::make(cl_logical_product_mode, l.get(), tiler.get(), mode.data(), int64_t(mode.size()));
}
/* The whitepaper's coalesce that keeps a trailing extent-1 mode (algebra.h),
 * of the whole layout, of a mode, or by a profile. */
inline Layout coalesce_z(const Layout &l) { return detail::make(cl_coalesce_z, l.get()); }
inline Layout coalesce_z(const Layout &l, const Tuple &profile) { return detail::make(cl_coalesce_z_profile, l.get(), profile.get()); }
inline Layout coalesce_z_mode(const Layout &l, const std::vector<int64_t> &mode) {
  return detail::make(cl_coalesce_z_mode, l.get(), mode.data(), int64_t(mode.size()));
}
/* The whitepaper's layout sum, domains and distribution (algebra.h). */
inline Layout layout_add(const Layout &a, const Layout &b) { return detail::make(cl_layout_add, a.get(), b.get()); }
inline Layout greatest_common_domain(const Tuple &a, const Tuple &b) {
  return detail::make(cl_greatest_common_domain, a.get(), b.get());
}
inline Layout domain_distribute(const Tuple &shape, const Tuple &n) { return detail::make(cl_domain_distribute, shape.get(), n.get()); }
/* domain_offset(crd, L): CuTe's pair, L unchanged and L(crd) ('_' as 0). */
inline std::pair<Layout, int64_t> domain_offset(const Tuple &crd, const Layout &l) {
  return detail::with_offset<Layout, cl_layout_t>(cl_domain_offset, crd.get(), l.get());
}
inline std::pair<ComposedLayout, int64_t> domain_offset(const Tuple &crd, const ComposedLayout &c) {
  return detail::with_offset<ComposedLayout, cl_composed_t>(cl_composed_domain_offset, crd.get(), c.get());
}
/* tile_unzip(L, tiler): the rank-2 modes at the tiler's leaves gathered into ((tiles...), (rests...)). */
inline Layout tile_unzip(const Layout &l, const Tuple &tiler) { return detail::make(cl_tile_unzip, l.get(), tiler.get()); }
inline AnyLayout tile_unzip(const ComposedLayout &c, const Tuple &tiler) {
  return detail::either(cl_composed_tile_unzip, c.get(), tiler.get());
}
/* max_alignment(L): the largest N for which upcast<N>(L) succeeds. */
inline int64_t max_alignment(const Layout &l) { return detail::out<int64_t>(cl_max_alignment, l.get()); }
inline int64_t max_alignment(const ComposedLayout &c) { return detail::out<int64_t>(cl_composed_max_alignment, c.get()); }
/* recast_layout<Old, New>(L), with the element widths in bits. */
inline Layout recast_layout(const Layout &l, int64_t old_bits, int64_t new_bits) {
  return detail::make(cl_recast_layout, l.get(), old_bits, new_bits);
}
inline AnyLayout recast_layout(const ComposedLayout &c, int64_t old_bits, int64_t new_bits) {
  return detail::either(cl_composed_recast_layout, c.get(), old_bits, new_bits);
}
inline int64_t max_common_vector(const Layout &a, const Layout &b) {
  return detail::out<int64_t>(cl_max_common_vector, a.get(), b.get());
}
inline int64_t max_common_vector(const ComposedLayout &a, const Layout &b) {
  return detail::out<int64_t>(cl_composed_max_common_vector, a.get(), b.get());
}
inline int64_t max_common_vector(const Layout &a, const ComposedLayout &b) { return max_common_vector(b, a); }
inline int64_t max_common_vector(const ComposedLayout &a, const ComposedLayout &b) {
  return detail::out<int64_t>(cl_composed_max_common_vector2, a.get(), b.get());
}
inline Layout max_common_layout(const Layout &a, const Layout &b) { return detail::make(cl_max_common_layout, a.get(), b.get()); }
inline Layout max_common_layout(const ComposedLayout &a, const Layout &b) {
  return detail::make(cl_composed_max_common_layout, a.get(), b.get());
}
inline Layout nullspace(const Layout &l) { return detail::make(cl_nullspace, l.get()); }
inline Layout nullspace(const ComposedLayout &c) { return detail::make(cl_composed_nullspace, c.get()); }
inline Layout upcast(const Layout &l, int64_t n) { return detail::make(cl_upcast, l.get(), n); }
inline Layout downcast(const Layout &l, int64_t n) { return detail::make(cl_downcast, l.get(), n); }
inline AnyLayout upcast(const ComposedLayout &c, int64_t n) { return detail::either(cl_composed_upcast, c.get(), n); }
inline AnyLayout downcast(const ComposedLayout &c, int64_t n) { return detail::either(cl_composed_downcast, c.get(), n); }

/* ============================================================ pictures */

/* What draw() draws (render.h's cl_picture_options). */
struct PictureOptions {
  cl_picture_format format = CL_PICTURE_SVG;
  std::string title;                    /* empty: the layout's text */
  cl_colour_scheme colour = CL_COLOUR_AUTO;
  int64_t element_bytes = 0;            /* for CL_COLOUR_BANK (0: 4) */
  std::function<int64_t(int64_t)> map;  /* shown instead of each index */
};

namespace detail {
/* cl_picture_options for a PictureOptions; an exception of the map is kept
 * and thrown after the C call (it must not cross C frames). */
class Picture {
public:
  explicit Picture(const PictureOptions &o) : options_(o) {
    c_.format = o.format;
    c_.title = o.title.empty() ? nullptr : c_text_of(options_.title);
    c_.colour = o.colour;
    c_.element_bytes = o.element_bytes;
    if (options_.map) {
      c_.map = &Picture::call_map;
      c_.map_ctx = this;
    }
  }
  Picture(const Picture &) = delete;
  Picture &operator=(const Picture &) = delete;
  const cl_picture_options *get() const { return &c_; }
  template <class F, class... A> std::string render(F f, const A &...args) {
    try {
      return text(f, args..., get());
    } catch (const Error &) {
      if (error_)
        std::rethrow_exception(error_);
      throw;
    }
  }

private:
  static cl_status call_map(void *ctx, int64_t index, int64_t *out) {
    auto *self = static_cast<Picture *>(ctx);
    try {
      *out = self->options_.map(index);
      return CL_OK;
    } catch (...) {
      self->error_ = std::current_exception();
      return CL_E_DOMAIN;
    }
  }
  PictureOptions options_;
  cl_picture_options c_ = CL_PICTURE_OPTIONS_INIT;
  std::exception_ptr error_;
};
} // namespace detail

/* The picture of a layout as a grid (SVG by default), or with tv (tile rows,
 * columns) of a thread-value layout. */
inline std::string draw(const Layout &l, const PictureOptions &o = {}) {
  return detail::Picture(o).render(cl_render_layout, l.get());
}
inline std::string draw_tv(const Layout &l, int64_t rows, int64_t cols, const PictureOptions &o = {}) {
  return detail::Picture(o).render(cl_render_tv, l.get(), rows, cols);
}
inline std::string draw(const ComposedLayout &c, const PictureOptions &o = {}) {
  return detail::Picture(o).render(cl_render_composed, c.get());
}
inline std::string draw_tv(const ComposedLayout &c, int64_t rows, int64_t cols, const PictureOptions &o = {}) {
  return detail::Picture(o).render(cl_render_composed_tv, c.get(), rows, cols);
}
/* One panel of draw_panels: a layout or composed layout, its title, a TV
 * tile (rows, cols > 0) and the cell to outline (-1: none). */
struct Panel {
  AnyLayout layout;
  std::string title;
  int64_t tile_rows = 0, tile_cols = 0;
  int64_t highlight = -1;
};
inline std::string draw_panels(const std::vector<Panel> &panels, const PictureOptions &o = {}) {
  std::vector<cl_picture_panel> c;
  for (const Panel &p : panels) {
    cl_picture_panel q{};
    if (const Layout *l = std::get_if<Layout>(&p.layout))
      q.layout = l->get();
    else
      q.composed = std::get<ComposedLayout>(p.layout).get();
    q.title = p.title.empty() ? nullptr : detail::c_text_of(p.title);
    q.tile_rows = p.tile_rows;
    q.tile_cols = p.tile_cols;
    q.highlight = p.highlight;
    c.push_back(q);
  }
  return detail::Picture(o).render(cl_render_panels, c.data(), c.size());
}
/* CuTe's print_layout (a rank-2 table) and print1D. */
inline std::string print_layout(const Layout &l) { return detail::text(cl_print_layout, l.get()); }
inline std::string print_layout(const ComposedLayout &c) { return detail::text(cl_composed_print_layout, c.get()); }
inline std::string print1D(const Layout &l) { return detail::text(cl_print_1d, l.get()); }
inline std::string print1D(const ComposedLayout &c) { return detail::text(cl_composed_print_1d, c.get()); }

/* ============================================================ tensors */

namespace detail {
template <class T> constexpr cl_dtype dtype_of() {
  if constexpr (std::is_same_v<T, int8_t>) return CL_DTYPE_INT8;
  else if constexpr (std::is_same_v<T, int16_t>) return CL_DTYPE_INT16;
  else if constexpr (std::is_same_v<T, int32_t>) return CL_DTYPE_INT32;
  else if constexpr (std::is_same_v<T, int64_t>) return CL_DTYPE_INT64;
  else if constexpr (std::is_same_v<T, uint8_t>) return CL_DTYPE_UINT8;
  else if constexpr (std::is_same_v<T, uint16_t>) return CL_DTYPE_UINT16;
  else if constexpr (std::is_same_v<T, uint32_t>) return CL_DTYPE_UINT32;
  else if constexpr (std::is_same_v<T, uint64_t>) return CL_DTYPE_UINT64;
  else if constexpr (std::is_same_v<T, float>) return CL_DTYPE_FLOAT32;
  else if constexpr (std::is_same_v<T, double>) return CL_DTYPE_FLOAT64;
  else return CL_DTYPE_NONE;
}
struct TensorFree {
  void operator()(cl_tensor_t *t) const { cl_tensor_free(t); }
};
} // namespace detail

/* The name of an element type ("float32"), its size, and the type of a name. */
inline std::string dtype_name(cl_dtype d) {
  const char *name = cl_dtype_name(d);
  return name ? name : "";
}
inline size_t dtype_size(cl_dtype d) { return cl_dtype_size(d); }
inline cl_dtype dtype_parse(std::string_view name) {
  return detail::out<cl_dtype>(cl_dtype_parse, detail::c_text(name).c_str());
}

/* CuTe's Tensor on the host: memory seen through a layout.  A view: copies
 * share nothing but the memory; memory the library allocated lives as long
 * as any view of it. */
class Tensor {
public:
  /* A view of data through layout, with the element type T (an arithmetic
   * type) or, for other T, sizeof(T) untyped bytes. */
  template <class T> Tensor(T *data, const Layout &layout) : Tensor(desc(data, sizeof(T), detail::dtype_of<T>()), layout) {}
  /* A view of a vector's elements, bounds-checked against the vector. */
  template <class T> Tensor(std::vector<T> &v, const Layout &layout) : Tensor(bounded(v.data(), v.size()), layout) {}
  /* The general constructor (tensor.h's cl_tensor_create): with an extent, bounds-checked. */
  Tensor(const cl_tensor_desc &d, const Layout &layout) : h_(detail::out<cl_tensor_t *>(cl_tensor_create, &d, layout.get())) {}
  /* Shorthands of C: untyped elements of elem_size bytes, or typed. */
  Tensor(void *data, size_t elem_size, const Layout &layout)
      : h_(detail::out<cl_tensor_t *>(cl_tensor_new, data, elem_size, layout.get())) {}
  Tensor(void *data, cl_dtype dtype, const Layout &layout)
      : h_(detail::out<cl_tensor_t *>(cl_tensor_new_typed, data, dtype, layout.get())) {}
  /* A view of a DLPack tensor (its memory must outlive the view). */
  explicit Tensor(const cl_dltensor_t &dl) : h_(detail::out<cl_tensor_t *>(cl_tensor_from_dlpack, &dl)) {}
  /* Zeroed memory the library allocates for layout, freed with the last view of it. */
  static Tensor alloc(const Layout &layout, cl_dtype dtype, size_t elem_size = 0) {
    return adopt_owner(detail::out<cl_tensor_t *>(cl_tensor_alloc, layout.get(), elem_size, dtype));
  }
  /* Takes ownership of a tensor that owns its memory (cl_tensor_alloc, cl_make_tensor_like). */
  static Tensor adopt_owner(cl_tensor_t *handle) {
    std::shared_ptr<cl_tensor_t> owner(handle, detail::TensorFree());
    return Tensor(detail::out<cl_tensor_t *>(cl_tensor_copy_handle, handle), owner);
  }

  Tensor(const Tensor &other) : h_(detail::out<cl_tensor_t *>(cl_tensor_copy_handle, other.get())), owner_(other.owner_) {}
  Tensor(Tensor &&) noexcept = default;
  Tensor &operator=(const Tensor &other) {
    Tensor copy(other);
    return *this = std::move(copy);
  }
  Tensor &operator=(Tensor &&) noexcept = default;
  ~Tensor() = default;
  const cl_tensor_t *get() const noexcept { return h_.get(); }

  /* ---- queries */
  Layout layout() const { return Layout::adopt(detail::out<cl_layout_t *>(cl_layout_copy, cl_tensor_layout(get()))); }
  void *data() const { return cl_tensor_data(get()); }
  size_t elem_size() const { return cl_tensor_elem_size(get()); }
  cl_dtype dtype() const { return cl_tensor_dtype(get()); }
  int64_t size() const { return detail::check(cl_tensor_size(get())); }
  int64_t rank() const { return detail::check(cl_tensor_rank(get())); }
  cl_tensor_desc describe() const {
    cl_tensor_desc d{};
    d.struct_size = sizeof d;
    detail::check(cl_tensor_describe(get(), &d));
    return d;
  }
  std::pair<int64_t, int64_t> offset_range() const {
    int64_t lo = 0, hi = 0;
    detail::check(cl_tensor_offset_range(get(), &lo, &hi));
    return {lo, hi};
  }
  void check_bounds() const { detail::check(cl_tensor_check_bounds(get())); }

  /* ---- elements */
  int64_t offset(int64_t i) const { return detail::out<int64_t>(cl_tensor_offset, get(), i); }
  void *ptr(int64_t i) const { return detail::out<void *>(cl_tensor_ptr, get(), i); }
  void *ptr(const Tuple &crd) const { return detail::out<void *>(cl_tensor_ptr_coord, get(), crd.get()); }
  /* CuTe's tensor(c0, c1, ...): one linear coordinate per mode. */
  void *ptr(std::initializer_list<int64_t> c) const {
    return detail::out<void *>(cl_tensor_ptr_at, get(), c.begin(), int64_t(c.size()));
  }
  template <class T> T at(int64_t i) const {
    T value{};
    detail::check(cl_tensor_load(get(), i, element_of<T>(&value)));
    return value;
  }
  template <class T> T at(const Tuple &crd) const {
    T value{};
    detail::check(cl_tensor_load_coord(get(), crd.get(), element_of<T>(&value)));
    return value;
  }
  template <class T> void store(int64_t i, const T &value) const {
    detail::check(cl_tensor_store(get(), i, element_of<T>(&value)));
  }
  template <class T> void store(const Tuple &crd, const T &value) const {
    detail::check(cl_tensor_store_coord(get(), crd.get(), element_of<T>(&value)));
  }
  /* Element i of a typed tensor as a double. */
  double load_f64(int64_t i) const { return detail::out<double>(cl_tensor_load_f64, get(), i); }
  template <class T> void fill(const T &value) const { detail::check(cl_tensor_fill(get(), element_of<T>(&value))); }
  /* fn(element address, i) for every i in order. */
  template <class F> void apply(F fn) const {
    Callback<F> cb{fn, nullptr};
    detail::check(cl_tensor_apply(get(), &Callback<F>::apply, &cb));
    if (cb.error)
      std::rethrow_exception(cb.error);
  }

  /* ---- views */
  Tensor operator()(const Tuple &crd) const { return slice(crd); }
  Tensor slice(const Tuple &crd) const { return view(detail::out<cl_tensor_t *>(cl_tensor_slice, get(), crd.get())); }
  Tensor with_layout(const Layout &l) const { return view(detail::out<cl_tensor_t *>(cl_tensor_with_layout, get(), l.get())); }
  Tensor recast(size_t elem_size, cl_dtype dtype = CL_DTYPE_NONE) const {
    return view(detail::out<cl_tensor_t *>(cl_tensor_recast, get(), elem_size, dtype));
  }
  template <class T> Tensor recast() const { return recast(sizeof(T), detail::dtype_of<T>()); }

  std::string str(bool header = true) const { return detail::text(cl_print_tensor, get(), header ? 0u : CL_PRINT_NO_HEADER); }
  friend std::ostream &operator<<(std::ostream &os, const Tensor &t) { return os << t.str(); }

  /* A view made by the library from this tensor (shares its owner). */
  Tensor view(cl_tensor_t *handle) const { return Tensor(handle, owner_); }

private:
  Tensor(cl_tensor_t *handle, std::shared_ptr<cl_tensor_t> owner) : h_(handle), owner_(std::move(owner)) {}
  template <class T> static cl_tensor_desc desc(T *data, size_t size, cl_dtype dtype) {
    cl_tensor_desc d{};
    d.struct_size = sizeof d;
    d.data = const_cast<std::remove_const_t<T> *>(data);
    d.elem_size = size;
    d.dtype = dtype;
    return d;
  }
  template <class T> static cl_tensor_desc bounded(T *data, size_t n) {
    cl_tensor_desc d = desc(data, sizeof(T), detail::dtype_of<T>());
    d.extent_base = data;
    d.extent_bytes = n * sizeof(T);
    return d;
  }
  template <class T> void *element_of(const T *value) const {
    if (sizeof(T) != elem_size())
      throw Error(CL_E_TYPE, "an element of " + std::to_string(sizeof(T)) + " bytes for a tensor of " +
                                 std::to_string(elem_size()) + "-byte elements");
    return const_cast<T *>(value);
  }
  template <class F> struct Callback {
    F &fn;
    std::exception_ptr error;
    static void apply(void *ctx, void *elem, int64_t i) {
      auto *self = static_cast<Callback *>(ctx);
      if (self->error)
        return;
      try {
        self->fn(elem, i);
      } catch (...) {
        self->error = std::current_exception();
      }
    }
  };
  std::unique_ptr<cl_tensor_t, detail::TensorFree> h_;
  std::shared_ptr<cl_tensor_t> owner_;
};

inline Tensor flatten(const Tensor &t) { return t.view(detail::out<cl_tensor_t *>(cl_tensor_flatten, t.get())); }
inline Tensor group(const Tensor &t, int64_t b, int64_t e) { return t.view(detail::out<cl_tensor_t *>(cl_tensor_group, t.get(), b, e)); }
inline Tensor composition(const Tensor &t, const Tuple &tiler) {
  return t.view(detail::out<cl_tensor_t *>(cl_tensor_compose, t.get(), tiler.get()));
}
inline Tensor composition(const Tensor &t, const Layout &l) {
  return t.view(detail::out<cl_tensor_t *>(cl_tensor_compose_layout, t.get(), l.get()));
}
inline Tensor logical_divide(const Tensor &t, const Tuple &tiler) {
  return t.view(detail::out<cl_tensor_t *>(cl_tensor_logical_divide, t.get(), tiler.get()));
}
inline Tensor zipped_divide(const Tensor &t, const Tuple &tiler) {
  return t.view(detail::out<cl_tensor_t *>(cl_tensor_zipped_divide, t.get(), tiler.get()));
}
inline Tensor inner_partition(const Tensor &t, const Tuple &tiler, const Tuple &coord) {
  return t.view(detail::out<cl_tensor_t *>(cl_inner_partition, t.get(), tiler.get(), coord.get()));
}
inline Tensor local_tile(const Tensor &t, const Tuple &tiler, const Tuple &coord) {
  return t.view(detail::out<cl_tensor_t *>(cl_local_tile, t.get(), tiler.get(), coord.get()));
}
inline Tensor outer_partition(const Tensor &t, const Tuple &tiler, const Tuple &coord) {
  return t.view(detail::out<cl_tensor_t *>(cl_outer_partition, t.get(), tiler.get(), coord.get()));
}
inline Tensor local_partition(const Tensor &t, const Layout &thr, int64_t index) {
  return t.view(detail::out<cl_tensor_t *>(cl_local_partition, t.get(), thr.get(), index));
}
/* New tensors owning memory like t's (make_fragment_like: mode 0 column-major). */
inline Tensor make_tensor_like(const Tensor &t) {
  return Tensor::adopt_owner(detail::out<cl_tensor_t *>(cl_make_tensor_like, t.get()));
}
inline Tensor make_fragment_like(const Tensor &t) {
  return Tensor::adopt_owner(detail::out<cl_tensor_t *>(cl_make_fragment_like_tensor, t.get()));
}
inline int64_t size(const Tensor &t) { return t.size(); }
inline int64_t rank(const Tensor &t) { return t.rank(); }

/* dst(i) = src(i) for every i, with the library's fast copy (memcpy order). */
inline void copy(const Tensor &dst, const Tensor &src) { detail::check(cl_tensor_copy(dst.get(), src.get())); }
/* The same with options: streaming or cached stores, and up to
 * CL_COPY_MAX_THREADS threads. */
inline void copy(const Tensor &dst, const Tensor &src, cl_copy_stores_t stores, int threads = 1) {
  cl_copy_options_t o{};
  o.struct_size = sizeof o;
  o.stores = stores;
  o.threads = threads;
  detail::check(cl_tensor_copy_ex(dst.get(), src.get(), &o));
}
/* The plan copy() would run (tensor.h's cl_copy_plan_t: the kernel, the joint
 * modes, the flags), after the same checks; nothing is copied. */
inline cl_copy_plan_t copy_plan(const Tensor &dst, const Tensor &src, cl_copy_stores_t stores = CL_COPY_STORES_AUTO,
                                int threads = 1) {
  cl_copy_options_t o{};
  o.struct_size = sizeof o;
  o.stores = stores;
  o.threads = threads;
  cl_copy_plan_t plan{};
  plan.struct_size = sizeof plan;
  detail::check(cl_tensor_copy_plan(dst.get(), src.get(), &o, &plan));
  return plan;
}
/* The plan copy() would use, one line. */
inline std::string copy_explain(const Tensor &dst, const Tensor &src) {
  return detail::text(cl_tensor_copy_explain, dst.get(), src.get());
}
/* fn(dst element address, src element address) for every i (CuTe's transform). */
template <class F> void transform(const Tensor &dst, const Tensor &src, F fn) {
  struct Ctx {
    F &fn;
    std::exception_ptr error;
  } ctx{fn, nullptr};
  auto call = [](void *c, void *d, const void *s) {
    auto *self = static_cast<Ctx *>(c);
    if (self->error)
      return;
    try {
      self->fn(d, s);
    } catch (...) {
      self->error = std::current_exception();
    }
  };
  detail::check(cl_tensor_transform(dst.get(), src.get(), call, &ctx));
  if (ctx.error)
    std::rethrow_exception(ctx.error);
}

/* A DLPack description of t (each mode one extent and stride): the struct
 * points into the shape and strides vectors it carries. */
struct DLPackView {
  cl_dltensor_t tensor{};
  std::vector<int64_t> shape, strides;
  DLPackView() = default;
  DLPackView(DLPackView &&) = default;
  DLPackView &operator=(DLPackView &&) = default;
  DLPackView(const DLPackView &) = delete;  // tensor points into this object's vectors
  DLPackView &operator=(const DLPackView &) = delete;
};
inline DLPackView to_dlpack(const Tensor &t) {
  DLPackView v;
  size_t n = static_cast<size_t>(t.rank() > 0 ? t.rank() : 1);
  v.shape.resize(n);
  v.strides.resize(n);
  detail::check(cl_tensor_to_dlpack(t.get(), &v.tensor, v.shape.data(), v.strides.data(), int64_t(n)));
  return v;  // moving the vectors keeps their buffers, so the pointers stay valid
}

/* ====================================================== coordinate tensors */

namespace detail {
/* A coordinate tensor has no copy function in C: its copy is a new tensor of
 * the same origin and layout. */
inline cl_status coord_tensor_copy(const cl_coord_tensor_t *t, cl_coord_tensor_t **out) {
  return cl_coord_tensor_new(cl_coord_tensor_origin(t), cl_coord_tensor_layout(t), out);
}
} // namespace detail

/* CuTe's coordinate tensors (coord_tensor.h): an origin (a value) plus a
 * layout whose strides may be scaled bases; element i is origin + layout(i).
 * make_identity_tensor(shape) is the usual one, for predication. */
class CoordTensor : public detail::Owned<cl_coord_tensor_t, cl_coord_tensor_free, detail::coord_tensor_copy> {
public:
  CoordTensor(const Tuple &origin, const Layout &layout)
      : Owned(detail::out<cl_coord_tensor_t *>(cl_coord_tensor_new, origin.get(), layout.get())) {}
  static CoordTensor adopt(cl_coord_tensor_t *handle) { return CoordTensor(handle); }

  Tuple origin() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_tuple_copy, cl_coord_tensor_origin(get()))); }
  Layout layout() const { return Layout::adopt(detail::out<cl_layout_t *>(cl_layout_copy, cl_coord_tensor_layout(get()))); }
  /* origin + layout(i), origin + layout(crd). */
  Tuple operator()(int64_t i) const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_coord_tensor_eval, get(), i)); }
  Tuple operator()(const Tuple &crd) const {
    return Tuple::adopt(detail::out<cl_tuple_t *>(cl_coord_tensor_eval_coord, get(), crd.get()));
  }
  /* The same origin with another layout: any layout operation on the tensor. */
  CoordTensor with_layout(const Layout &l) const {
    return adopt(detail::out<cl_coord_tensor_t *>(cl_coord_tensor_with_layout, get(), l.get()));
  }
  std::string str() const { return detail::text(cl_coord_tensor_format, get()); }
  friend std::ostream &operator<<(std::ostream &os, const CoordTensor &t) { return os << t.str(); }
  friend bool operator==(const CoordTensor &a, const CoordTensor &b) { return a.origin() == b.origin() && a.layout() == b.layout(); }
  friend bool operator!=(const CoordTensor &a, const CoordTensor &b) { return !(a == b); }

private:
  explicit CoordTensor(cl_coord_tensor_t *handle) noexcept : Owned(handle) {}
};

inline CoordTensor make_identity_tensor(const Tuple &shape) {
  return CoordTensor::adopt(detail::out<cl_coord_tensor_t *>(cl_make_identity_tensor, shape.get()));
}
inline CoordTensor make_coord_tensor(const Layout &l) {
  return CoordTensor::adopt(detail::out<cl_coord_tensor_t *>(cl_make_coord_tensor, l.get()));
}
/* tensor(crd) with '_'. */
inline CoordTensor slice(const Tuple &crd, const CoordTensor &t) {
  return CoordTensor::adopt(detail::out<cl_coord_tensor_t *>(cl_coord_tensor_slice, t.get(), crd.get()));
}
/* local_tile(t, tiler, coord[, proj]), outer_partition(t, tiler, coord), local_partition(t, thr_layout, index[, proj]). */
inline CoordTensor local_tile(const CoordTensor &t, const Tuple &tiler, const Tuple &coord) {
  return CoordTensor::adopt(
      detail::out<cl_coord_tensor_t *>(cl_coord_local_tile, t.get(), tiler.get(), coord.get(), detail::optional(nullptr)));
}
inline CoordTensor local_tile(const CoordTensor &t, const Tuple &tiler, const Tuple &coord, const Tuple &proj) {
  return CoordTensor::adopt(detail::out<cl_coord_tensor_t *>(cl_coord_local_tile, t.get(), tiler.get(), coord.get(), proj.get()));
}
inline CoordTensor outer_partition(const CoordTensor &t, const Tuple &tiler, const Tuple &coord) {
  return CoordTensor::adopt(detail::out<cl_coord_tensor_t *>(cl_coord_outer_partition, t.get(), tiler.get(), coord.get()));
}
inline CoordTensor local_partition(const CoordTensor &t, const Layout &thr_layout, int64_t index) {
  return CoordTensor::adopt(
      detail::out<cl_coord_tensor_t *>(cl_coord_local_partition, t.get(), thr_layout.get(), index, detail::optional(nullptr)));
}
inline CoordTensor local_partition(const CoordTensor &t, const Layout &thr_layout, int64_t index, const Tuple &proj) {
  return CoordTensor::adopt(
      detail::out<cl_coord_tensor_t *>(cl_coord_local_partition, t.get(), thr_layout.get(), index, proj.get()));
}
inline std::string draw(const CoordTensor &t, const PictureOptions &o = {}) {
  return detail::Picture(o).render(cl_render_coord_tensor, t.get());
}

/* ============================================================ odometer */

/* Every offset of a layout in order, one addition per step. */
class Odometer {
public:
  explicit Odometer(const Layout &l) : h_(detail::out<cl_odometer_t *>(cl_odometer_new, l.get())) {}
  Odometer(Odometer &&) noexcept = default;
  Odometer &operator=(Odometer &&) noexcept = default;
  /* The next offset into *offset; false at the end. */
  bool next(int64_t &offset) { return cl_odometer_next(h_.get(), &offset) != 0; }
  /* Up to cap next offsets. */
  std::vector<int64_t> next_batch(int64_t cap) {
    std::vector<int64_t> out(static_cast<size_t>(cap));
    out.resize(static_cast<size_t>(detail::check(cl_odometer_next_batch(h_.get(), out.data(), cap))));
    return out;
  }
  int64_t index() const { return cl_odometer_index(h_.get()); }
  std::vector<int64_t> coord() const {
    std::vector<int64_t> c(static_cast<size_t>(detail::check(cl_odometer_leaves(h_.get()))));
    detail::check(cl_odometer_coord(h_.get(), c.data(), int64_t(c.size())));
    return c;
  }
  void reset() { cl_odometer_reset(h_.get()); }

private:
  struct Free {
    void operator()(cl_odometer_t *o) const { cl_odometer_free(o); }
  };
  std::unique_ptr<cl_odometer_t, Free> h_;
};

/* ---- shared-memory bank conflicts (banks.h) ---- */

/* One access: a TV layout (thread, value) -> tile index, of bits-bit
 * elements, standing for instruction op (vector_bits 0: the widest;
 * matrices for ldmatrix / stmatrix, 0: 4). */
struct SmemAccess {
  Layout tv;
  int64_t bits;
  cl_smem_op op = CL_SMEM_LOAD;
  int64_t vector_bits = 0;
  int64_t matrices = 0;
  cl_smem_access_t raw() const { return cl_smem_access_t{tv.get(), bits, op, vector_bits, matrices}; }
};

/* Wavefronts and the fewest possible for the same bytes. */
struct BankCount {
  int64_t wavefronts;
  int64_t ideal;
};

/* Every instruction of an access over a shared-memory layout. */
class BankReport {
public:
  BankReport(const SmemAccess &access, const Side &smem) {
    cl_smem_access_t a = access.raw();
    h_.reset(detail::out<cl_bank_report_t *>(cl_bank_conflicts, &a, detail::side(smem)));
  }
  /* Takes ownership of a report the C API made. */
  static BankReport adopt(cl_bank_report_t *r) { return BankReport(r); }
  int64_t size() const { return detail::check(cl_bank_report_count(h_.get())); }
  cl_bank_instruction_t operator[](int64_t i) const {
    return detail::out<cl_bank_instruction_t>(cl_bank_report_instruction, h_.get(), i);
  }
  /* Lane `lane`'s first tile index and element offset in instruction i (-1, -1: none). */
  std::pair<int64_t, int64_t> lane(int64_t i, int64_t lane) const {
    int64_t tile = 0, offset = 0;
    detail::check(cl_bank_report_lane(h_.get(), i, lane, &tile, &offset));
    return {tile, offset};
  }
  BankCount totals() const {
    BankCount t{0, 0};
    detail::check(cl_bank_report_totals(h_.get(), &t.wavefronts, &t.ideal));
    return t;
  }

private:
  explicit BankReport(cl_bank_report_t *r) : h_(r) {}
  struct Free {
    void operator()(cl_bank_report_t *r) const { cl_bank_report_free(r); }
  };
  std::unique_ptr<cl_bank_report_t, Free> h_;
};

/* bank_conflicts(tv, L, bits): the contract's (w, i) of a warp-wide load. */
inline BankCount bank_conflicts(const SmemAccess &access, const Side &smem) { return BankReport(access, smem).totals(); }
inline BankCount bank_conflicts(const Layout &tv, const Side &smem, int64_t bits) {
  return bank_conflicts(SmemAccess{tv, bits}, smem);
}
/* One instruction from its 32 lanes' byte addresses (-1: none). */
inline BankCount smem_wavefronts(cl_smem_op op, const std::array<int64_t, 32> &lanes, int64_t bytes) {
  BankCount c{0, 0};
  detail::check(cl_smem_wavefronts(op, lanes.data(), bytes, &c.wavefronts, &c.ideal));
  return c;
}
/* swizzle_search: Sw<B,M,S> o 0 o smem with the fewest wavefronts for all the accesses. */
inline ComposedLayout swizzle_search(const Layout &smem, const std::vector<SmemAccess> &accesses) {
  std::vector<cl_smem_access_t> raw;
  for (const SmemAccess &a : accesses)
    raw.push_back(a.raw());
  cl_swizzle_t best{};
  detail::check(cl_swizzle_search(smem.get(), raw.data(), int64_t(raw.size()), &best, nullptr, nullptr));
  return make_composed_layout(Swizzle(best), 0, smem);
}
/* swizzle_search_padded: the layout chosen (smem padded, a Layout, where
 * padding beats every swizzle; else Sw<B,M,S> o 0 o smem) and the choice's
 * numbers (swizzle, leading stride, padding, wavefronts, ideal, cosize). */
struct SmemChoice {
  Side layout;
  cl_smem_choice_t choice;
};
inline SmemChoice swizzle_search_padded(const Layout &smem, const std::vector<SmemAccess> &accesses) {
  std::vector<cl_smem_access_t> raw;
  for (const SmemAccess &a : accesses)
    raw.push_back(a.raw());
  cl_smem_choice_t choice{};
  cl_layout_t *padded = nullptr;
  detail::check(cl_swizzle_search_padded(smem.get(), raw.data(), int64_t(raw.size()), &choice, &padded));
  Layout chosen = Layout::adopt(padded);
  if (choice.padding > 0)
    return SmemChoice{chosen, choice};
  return SmemChoice{make_composed_layout(Swizzle(choice.swizzle), 0, smem), choice};
}
/* ================================================================ atoms */

/* The names of a family of the atom catalog (CL_ATOM_MMA, CL_ATOM_COPY, ...). */
inline std::vector<std::string> atom_catalog(cl_atom_family family) {
  std::vector<std::string> names;
  for (int64_t i = 0; cl_atom_catalog_name(family, i) != nullptr; i++)
    names.emplace_back(cl_atom_catalog_name(family, i));
  return names;
}
/* The width in bits of a CuTe element type ("half_t": 16). */
inline int64_t atom_type_bits(const std::string &type) { return detail::out<int64_t>(cl_atom_type_bits, type.c_str()); }
/* A GMMA shared-memory layout atom in elements: its swizzle {B, M, S}
 * (B == 0: none) and the layout under it. */
inline std::pair<std::array<int32_t, 3>, Layout> gmma_smem_atom(const std::string &name) {
  std::array<int32_t, 3> sw{};
  cl_layout_t *l = nullptr;
  detail::check(cl_gmma_smem_atom(name.c_str(), &sw[0], &sw[1], &sw[2], &l));
  return {sw, Layout::adopt(l)};
}

/* CuTe's MMA_Atom of an operation's name (atom.h):
 * MmaAtom("SM80_16x8x16_F32F16F16F32_TN"). */
class MmaAtom : public detail::Owned<cl_mma_atom_t, cl_mma_atom_free, detail::no_copy<cl_mma_atom_t>> {
public:
  explicit MmaAtom(const std::string &name) : Owned(detail::out<cl_mma_atom_t *>(cl_mma_atom_new, name.c_str())) {}
  std::string str() const { return detail::text(cl_mma_atom_format, get()); }
  Layout thr_id() const { return Layout::adopt(detail::out<cl_layout_t *>(cl_mma_atom_thr_id, get())); }
  Tuple shape_mnk() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_mma_atom_shape_mnk, get())); }
  /* ALayout, BLayout or CLayout of the traits. */
  Layout layout_tv(cl_mma_operand op) const {
    return Layout::adopt(detail::out<cl_layout_t *>(cl_mma_atom_layout_tv, get(), op));
  }
  int64_t value_bits(cl_mma_operand op) const { return detail::check(cl_mma_atom_value_bits(get(), op)); }
  static MmaAtom adopt(cl_mma_atom_t *handle) { return MmaAtom(handle, 0); }

private:
  MmaAtom(cl_mma_atom_t *handle, int) : Owned(handle) {}
};

/* CuTe's Copy_Atom<OP, T>: CopyAtom("SM75_U32x4_LDSM_N", "half_t"). */
class CopyAtom : public detail::Owned<cl_copy_atom_t, cl_copy_atom_free, detail::no_copy<cl_copy_atom_t>> {
public:
  CopyAtom(const std::string &op, const std::string &type)
      : Owned(detail::out<cl_copy_atom_t *>(cl_copy_atom_new, op.c_str(), type.c_str())) {}
  std::string str() const { return detail::text(cl_copy_atom_format, get()); }
  cl_copy_kind kind() const { return cl_copy_atom_kind(get()); }
  int64_t value_bits() const { return detail::check(cl_copy_atom_value_bits(get())); }
  int64_t access_bits(cl_copy_side side) const { return detail::check(cl_copy_atom_access_bits(get(), side)); }
  Layout thr_id() const { return Layout::adopt(detail::out<cl_layout_t *>(cl_copy_atom_thr_id, get())); }
  Layout layout(cl_copy_side side, bool in_bits = false) const {
    return Layout::adopt(detail::out<cl_layout_t *>(cl_copy_atom_layout, get(), side, in_bits ? 1 : 0));
  }
};

/* make_tiled_mma(atom, atom_layout, permutation). */
class TiledMMA : public detail::Owned<cl_tiled_mma_t, cl_tiled_mma_free, detail::no_copy<cl_tiled_mma_t>> {
public:
  explicit TiledMMA(const MmaAtom &atom) : Owned(detail::out<cl_tiled_mma_t *>(cl_make_tiled_mma, atom.get(), nullptr, nullptr)) {}
  TiledMMA(const MmaAtom &atom, const Layout &atom_layout)
      : Owned(detail::out<cl_tiled_mma_t *>(cl_make_tiled_mma, atom.get(), atom_layout.get(), nullptr)) {}
  TiledMMA(const MmaAtom &atom, const Layout &atom_layout, const Tuple &permutation)
      : Owned(detail::out<cl_tiled_mma_t *>(cl_make_tiled_mma, atom.get(), atom_layout.get(), permutation.get())) {}
  std::string str() const { return detail::text(cl_tiled_mma_format, get()); }
  MmaAtom atom() const { return MmaAtom::adopt(detail::out<cl_mma_atom_t *>(cl_tiled_mma_atom, get())); }
  int64_t size() const { return detail::check(cl_tiled_mma_size(get())); }
  Layout thr_layout_vmnk() const { return Layout::adopt(detail::out<cl_layout_t *>(cl_tiled_mma_thr_layout_vmnk, get())); }
  Tuple tile_shape() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_tiled_mma_tile_shape, get())); }
  Layout layout_tv(cl_mma_operand op) const {
    return Layout::adopt(detail::out<cl_layout_t *>(cl_tiled_mma_layout_tv, get(), op));
  }
  Layout thrfrg(cl_mma_operand op, const Layout &l) const {
    return Layout::adopt(detail::out<cl_layout_t *>(cl_tiled_mma_thrfrg, get(), op, l.get()));
  }
  /* get_slice(thr).partition_A/B/C of a layout: the thread's layout and its offset. */
  std::pair<Layout, int64_t> partition(cl_mma_operand op, int64_t thr, const Layout &l) const {
    cl_layout_t *out = nullptr;
    int64_t offset = 0;
    detail::check(cl_tiled_mma_partition(get(), op, thr, l.get(), &out, &offset));
    return {Layout::adopt(out), offset};
  }
  /* The same of a composed (swizzled) layout: the offset folds into it, or
   * a swizzle decays to a plain layout. */
  std::pair<AnyLayout, int64_t> partition(cl_mma_operand op, int64_t thr, const ComposedLayout &c) const {
    cl_layout_t *layout = nullptr;
    cl_composed_t *composed = nullptr;
    int64_t offset = 0;
    detail::check(cl_tiled_mma_partition_composed(get(), op, thr, c.get(), &layout, &composed, &offset));
    if (layout)
      return {Layout::adopt(layout), offset};
    return {ComposedLayout::adopt(composed), offset};
  }
  /* The same of a tensor: a view of its memory. */
  Tensor partition(cl_mma_operand op, int64_t thr, const Tensor &t) const {
    return t.view(detail::out<cl_tensor_t *>(cl_tiled_mma_partition_tensor, get(), op, thr, t.get()));
  }
};

/* make_tiled_copy(copy_atom, thr, val) and make_tiled_copy_A/B/C. */
class TiledCopy : public detail::Owned<cl_tiled_copy_t, cl_tiled_copy_free, detail::no_copy<cl_tiled_copy_t>> {
public:
  TiledCopy(const CopyAtom &atom, const Layout &thr, const Layout &val)
      : Owned(detail::out<cl_tiled_copy_t *>(cl_make_tiled_copy, atom.get(), thr.get(), val.get())) {}
  TiledCopy(const CopyAtom &atom, const TiledMMA &mma, cl_mma_operand op)
      : Owned(detail::out<cl_tiled_copy_t *>(cl_make_tiled_copy_operand, atom.get(), mma.get(), op)) {}
  std::string str() const { return detail::text(cl_tiled_copy_format, get()); }
  int64_t size() const { return detail::check(cl_tiled_copy_size(get())); }
  cl_copy_kind kind() const {
    cl_copy_atom_t *a = detail::out<cl_copy_atom_t *>(cl_tiled_copy_atom, get());
    cl_copy_kind k = cl_copy_atom_kind(a);
    cl_copy_atom_free(a);
    return k;
  }
  Layout layout_tv() const { return Layout::adopt(detail::out<cl_layout_t *>(cl_tiled_copy_layout_tv, get())); }
  Tuple tiler_mn() const { return Tuple::adopt(detail::out<cl_tuple_t *>(cl_tiled_copy_tiler_mn, get())); }
  /* get_layoutS_TV() (CL_COPY_SRC) or get_layoutD_TV() (CL_COPY_DST). */
  Layout side_tv(cl_copy_side side) const {
    return Layout::adopt(detail::out<cl_layout_t *>(cl_tiled_copy_side_tv, get(), side));
  }
  Layout tidfrg(cl_copy_side side, const Layout &l) const {
    return Layout::adopt(detail::out<cl_layout_t *>(cl_tiled_copy_tidfrg, get(), side, l.get()));
  }
  Layout retile(const Layout &l) const { return Layout::adopt(detail::out<cl_layout_t *>(cl_tiled_copy_retile, get(), l.get())); }
  /* retile of a composed (swizzled) fragment, and the offset its data moves by. */
  std::pair<AnyLayout, int64_t> retile(const ComposedLayout &c) const {
    cl_layout_t *layout = nullptr;
    cl_composed_t *composed = nullptr;
    int64_t offset = 0;
    detail::check(cl_tiled_copy_retile_composed(get(), c.get(), &layout, &composed, &offset));
    if (layout)
      return {Layout::adopt(layout), offset};
    return {ComposedLayout::adopt(composed), offset};
  }
  std::pair<Layout, int64_t> partition(cl_copy_side side, int64_t thr, const Layout &l) const {
    cl_layout_t *out = nullptr;
    int64_t offset = 0;
    detail::check(cl_tiled_copy_partition(get(), side, thr, l.get(), &out, &offset));
    return {Layout::adopt(out), offset};
  }
  std::pair<AnyLayout, int64_t> partition(cl_copy_side side, int64_t thr, const ComposedLayout &c) const {
    cl_layout_t *layout = nullptr;
    cl_composed_t *composed = nullptr;
    int64_t offset = 0;
    detail::check(cl_tiled_copy_partition_composed(get(), side, thr, c.get(), &layout, &composed, &offset));
    if (layout)
      return {Layout::adopt(layout), offset};
    return {ComposedLayout::adopt(composed), offset};
  }
  Tensor partition(cl_copy_side side, int64_t thr, const Tensor &t) const {
    return t.view(detail::out<cl_tensor_t *>(cl_tiled_copy_partition_tensor, get(), side, thr, t.get()));
  }
};

/* bank_conflicts(tiled_copy, L): the copy's own instructions over one tile,
 * on its shared-memory side (banks.h), and their totals. */
inline BankReport bank_report(const TiledCopy &copy, const Side &smem) {
  return BankReport::adopt(detail::out<cl_bank_report_t *>(cl_bank_conflicts_tiled_copy, copy.get(), detail::side(smem)));
}
inline BankCount bank_conflicts(const TiledCopy &copy, const Side &smem) { return bank_report(copy, smem).totals(); }

} // namespace cutelayout

/* std::hash: equal values hash equally (by their canonical text). */
namespace std {
template <> struct hash<cutelayout::Tuple> {
  size_t operator()(const cutelayout::Tuple &t) const { return cutelayout::detail::hash_text(t.str()); }
};
template <> struct hash<cutelayout::Layout> {
  size_t operator()(const cutelayout::Layout &l) const { return cutelayout::detail::hash_text(l.str()); }
};
template <> struct hash<cutelayout::ComposedLayout> {
  size_t operator()(const cutelayout::ComposedLayout &c) const { return cutelayout::detail::hash_text(c.str()); }
};
template <> struct hash<cutelayout::CoordTensor> {
  size_t operator()(const cutelayout::CoordTensor &t) const { return cutelayout::detail::hash_text(t.str()); }
};
template <> struct hash<cutelayout::Swizzle> {
  size_t operator()(const cutelayout::Swizzle &s) const { return cutelayout::detail::hash_text(s.str()); }
};
} // namespace std

#endif
