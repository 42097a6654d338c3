// SPDX-License-Identifier: BSD-3-Clause
//! A thin safe wrapper of libcutelayout: NVIDIA CuTe's layout algebra.
//!
//! ```
//! use cutelayout::Layout;
//! let l: Layout = "(2,4):(1,2)".parse().unwrap();
//! assert_eq!(l.eval(3).unwrap(), 3);
//! assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (8, 8, 2, 1));
//! assert_eq!(l.to_string(), "(2,4):(1,2)");
//! ```
//!
//! The algebra under CuTe's names, as methods and free functions:
//!
//! ```
//! use cutelayout::{logical_divide, Layout};
//! let a: Layout = "(4,2,3):(2,1,8)".parse()?;
//! let b: Layout = "4:2".parse()?;
//! assert_eq!(logical_divide(&a, &b)?.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
//! assert_eq!(a.zipped_divide_tiler("(2,3)")?.rank(), 2);
//! assert_eq!(Layout::parse("(2,2):(1,6)")?.complement(None)?.to_string(), "3:2");
//! # Ok::<(), cutelayout::Error>(())
//! ```
//!
//! Shapes, strides, coordinates and tilers are [`IntTuple`]s, built from Rust
//! values or parsed from text; every argument that takes one also takes
//! text ([`IntoTuple`]), and the queries return them:
//!
//! ```
//! use cutelayout::{IntTuple, Layout, Underscore};
//! let a = Layout::new((4, (2, 3)), (2, (1, 8)))?;
//! assert_eq!(a.shape()?, IntTuple::from((4, (2, 3))));
//! assert_eq!(a.eval_coord((1, (0, 2)))?, 18);
//! let tiled = a.logical_divide_tiler((Layout::parse("2:2")?, Underscore))?;
//! assert_eq!(tiled.to_string(), "((2,2),(2,3)):((4,2),(1,8))");
//! # Ok::<(), cutelayout::Error>(())
//! ```
//!
//! Swizzles and composed layouts are [`Swizzle`] and [`ComposedLayout`];
//! tensors over slices, with the library's fast copy, [`Tensor`] and
//! [`TensorMut`].
//!
//! A [`Layout`] owns its C handle and frees it on drop.  Layouts are
//! immutable, so they are `Send` and `Sync`, and `Clone` copies the handle.
//! Failures are [`Error`]s carrying the library's status code and its detail
//! message (`cl_last_error()`).
use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_int};
use std::ptr::{self, NonNull};
use std::str::FromStr;

pub use cutelayout_sys as sys;

/// `Display` as the library's formatter writes the value (`$format` called on
/// the handle `$get` takes from `$v`), and `Debug` as `Name(text)`.
macro_rules! text_form {
    ($ty:ident, $format:path, $v:ident => $get:expr) => {
        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let $v = self;
                let text = crate::formatted(|buf, cap| unsafe { $format($get, buf, cap) });
                f.write_str(&text.map_err(|_| std::fmt::Error)?)
            }
        }

        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, concat!(stringify!($ty), "({})"), self)
            }
        }
    };
}

/// `Hash` by the canonical text, for types whose equal values print alike.
macro_rules! hash_by_text {
    ($ty:ident) => {
        impl std::hash::Hash for $ty {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                self.to_string().hash(state)
            }
        }
    };
}

mod atoms;
mod banks;
mod composed;
mod coord;
mod int_tuple;
mod tensor;
pub use atoms::{Operand, Side, TiledCopy, TiledMma};
pub use banks::{
    bank_conflicts, bank_report, smem_wavefronts, swizzle_search, swizzle_search_padded, tiled_copy_bank_conflicts,
    tiled_copy_bank_report, BankCount, BankInstruction, SmemOp,
};
pub use composed::{AnyLayout, ComposedLayout, Swizzle};
pub use int_tuple::{Coord, IntTuple, IntoTuple, Kind, Shape, Tiler, Underscore};
pub use coord::CoordTensor;
pub use tensor::{copy, Tensor, TensorMut};

/// A failed library call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The `cl_status` code (negative).
    pub status: c_int,
    /// `cl_status_string(status)`, e.g. "malformed text".
    pub message: String,
    /// `cl_last_error()` right after the failure, e.g. "column 7: expected ')'"; may be empty.
    pub detail: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.detail.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.message, self.detail)
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

unsafe fn c_string(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

fn error(status: c_int) -> Error {
    // The detail is thread-local in the library and this runs on the calling
    // thread right after the failing call, before any other library call.
    unsafe {
        Error { status, message: c_string(sys::cl_status_string(status)), detail: c_string(sys::cl_last_error()) }
    }
}

fn check(status: c_int) -> Result<()> {
    if status == sys::CL_OK {
        Ok(())
    } else {
        Err(error(status))
    }
}

fn text_arg(text: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error {
        status: sys::CL_E_PARSE,
        message: "malformed text".to_string(),
        detail: "the text contains a NUL byte".to_string(),
    })
}

/// The library's version ("MAJOR.MINOR.PATCH").
pub fn version() -> String {
    unsafe { c_string(sys::cl_version_string()) }
}

/// True when the loaded library implements the ABI these bindings were written for.
pub fn abi_compatible() -> bool {
    unsafe { sys::cl_abi_version() == sys::CL_ABI_VERSION as c_int && sys::cl_abi_minor() >= sys::CL_ABI_MINOR as c_int }
}

/// The text of an snprintf-style formatter call `f(buf, cap)`.
fn formatted(f: impl Fn(*mut c_char, usize) -> i64) -> Result<String> {
    let need = f(ptr::null_mut(), 0);
    check(if need < 0 { need as c_int } else { sys::CL_OK })?;
    let mut buf = vec![0u8; need as usize + 1];
    f(buf.as_mut_ptr() as *mut c_char, buf.len());
    buf.truncate(need as usize);
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// CuTe's `Layout<Shape, Stride>`: a function from coordinates to indices.
pub struct Layout {
    raw: NonNull<sys::cl_layout_t>,
}

// The C handle is immutable once made and documented as safe to read from any
// number of threads; freeing happens only through the single owner.
unsafe impl Send for Layout {}
unsafe impl Sync for Layout {}

impl Layout {
    /// Takes ownership of a handle that a library call just returned.
    ///
    /// # Safety
    /// `raw` must be a live handle from libcutelayout that nothing else frees.
    pub unsafe fn from_raw(raw: *mut sys::cl_layout_t) -> Option<Layout> {
        NonNull::new(raw).map(|raw| Layout { raw })
    }

    /// The handle, still owned by `self`.
    pub fn as_ptr(&self) -> *const sys::cl_layout_t {
        self.raw.as_ptr()
    }

    pub(crate) fn adopt(status: c_int, raw: *mut sys::cl_layout_t) -> Result<Layout> {
        check(status)?;
        Ok(Layout { raw: NonNull::new(raw).expect("the library reported success with a NULL layout") })
    }

    /// Parses the canonical text, e.g. `(2,(2,2)):(4,(2,1))`.
    pub fn parse(text: &str) -> Result<Layout> {
        let text = text_arg(text)?;
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_parse(text.as_ptr(), &mut out) };
        Layout::adopt(status, out)
    }

    /// make_layout(shape, stride): each an [`IntTuple`], Rust values that
    /// convert to one, or text, e.g. `Layout::new((2, 4), (1, 2))` or
    /// `Layout::new("(2,4)", "(1,2)")`.  A shape's extents are integers >= 0
    /// (`CL_E_DOMAIN` for a negative one, which means nothing to CuTe).
    ///
    /// ```
    /// use cutelayout::Layout;
    /// assert_eq!(Layout::new((2, 4), (1, 2))?.to_string(), "(2,4):(1,2)");
    /// assert_eq!(Layout::left([2, 4])?.to_string(), "(2,4):(1,2)");
    /// assert_eq!(Layout::left((2, -4)).unwrap_err().status, cutelayout::sys::CL_E_DOMAIN);
    /// # Ok::<(), cutelayout::Error>(())
    /// ```
    pub fn new(shape: impl IntoTuple, stride: impl IntoTuple) -> Result<Layout> {
        let (shape, stride) = (shape.into_tuple()?, stride.into_tuple()?);
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_make(shape.as_ptr(), stride.as_ptr(), &mut out) };
        Layout::adopt(status, out)
    }

    /// make_layout(shape): the compact column-major (LayoutLeft) layout.
    pub fn left(shape: impl IntoTuple) -> Result<Layout> {
        let shape = shape.into_tuple()?;
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_make_left(shape.as_ptr(), &mut out) };
        Layout::adopt(status, out)
    }

    /// layout(i) for a linear coordinate i.
    pub fn eval(&self, i: i64) -> Result<i64> {
        let mut index = 0;
        check(unsafe { sys::cl_layout_eval(self.as_ptr(), i, &mut index) })?;
        Ok(index)
    }

    /// layout(crd) for a coordinate, e.g. `(1, (0, 1))` or the text `(1,(0,1))`.
    pub fn eval_coord(&self, crd: impl IntoTuple) -> Result<i64> {
        let crd = crd.into_tuple()?;
        let mut index = 0;
        check(unsafe { sys::cl_layout_eval_coord(self.as_ptr(), crd.as_ptr(), &mut index) })?;
        Ok(index)
    }

    /// get<i0, i1, ...>(layout): the sub-layout at a path of mode indices.
    pub fn mode(&self, path: &[i64]) -> Result<Layout> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_get(self.as_ptr(), path.as_ptr(), path.len() as i64, &mut out) };
        Layout::adopt(status, out)
    }

    /// The size of the domain (product of the shape).
    pub fn size(&self) -> i64 {
        unsafe { sys::cl_layout_size(self.as_ptr()) }
    }

    /// The size of the codomain, layout(size - 1) + 1.
    pub fn cosize(&self) -> i64 {
        unsafe { sys::cl_layout_cosize(self.as_ptr()) }
    }

    /// The number of top-level modes.
    pub fn rank(&self) -> i64 {
        unsafe { sys::cl_layout_rank(self.as_ptr()) }
    }

    /// The nesting depth of the shape (0 for an integer).
    pub fn depth(&self) -> i64 {
        unsafe { sys::cl_layout_depth(self.as_ptr()) }
    }

    /// The shape, e.g. `(2,(2,2))`.
    pub fn shape(&self) -> Result<IntTuple> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_shape(self.as_ptr(), &mut out) };
        IntTuple::adopt(status, out)
    }

    /// The stride (integers, or scaled bases such as `1@0`).
    pub fn stride(&self) -> Result<IntTuple> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_stride(self.as_ptr(), &mut out) };
        IntTuple::adopt(status, out)
    }

    /// CuTe's coshape: the extent of the codomain per value mode.
    pub fn coshape(&self) -> Result<IntTuple> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_coshape(self.as_ptr(), &mut out) };
        IntTuple::adopt(status, out)
    }

    /// Whether the strides hold scaled bases (a layout of coordinates, e.g. `(4,8):(1@0,1@1)`).
    pub fn is_coordinate(&self) -> bool {
        unsafe { sys::cl_layout_is_coordinate(self.as_ptr()) != 0 }
    }

    /// `[L(0), ..., L(size-1)]`, written by the library in one call.
    ///
    /// ```
    /// let l: cutelayout::Layout = "(2,2):(2,1)".parse()?;
    /// assert_eq!(l.indices()?, vec![0, 2, 1, 3]);
    /// # Ok::<(), cutelayout::Error>(())
    /// ```
    pub fn indices(&self) -> Result<Vec<i64>> {
        let n = self.size().max(0);
        let mut out = vec![0i64; n as usize];
        check(unsafe { sys::cl_layout_eval_range(self.as_ptr(), 0, n, out.as_mut_ptr()) })?;
        Ok(out)
    }
}

/// The layout algebra (algebra.h).  Each returns a
/// new layout, or the library's error where CuTe rejects the input (e.g.
/// `CL_E_DIVISIBILITY` for composition's divisibility conditions).
impl Layout {
    fn unary(&self, f: unsafe extern "C" fn(*const sys::cl_layout_t, *mut *mut sys::cl_layout_t) -> c_int) -> Result<Layout> {
        let mut out = ptr::null_mut();
        let status = unsafe { f(self.as_ptr(), &mut out) };
        Layout::adopt(status, out)
    }

    fn binary(
        &self,
        other: &Layout,
        f: unsafe extern "C" fn(*const sys::cl_layout_t, *const sys::cl_layout_t, *mut *mut sys::cl_layout_t) -> c_int,
    ) -> Result<Layout> {
        let mut out = ptr::null_mut();
        let status = unsafe { f(self.as_ptr(), other.as_ptr(), &mut out) };
        Layout::adopt(status, out)
    }

    /// coalesce(L): the same function with the fewest modes.
    pub fn coalesce(&self) -> Result<Layout> {
        self.unary(sys::cl_coalesce)
    }

    /// composition(self, b) = self o b: R(c) == self(b(c)) under CuTe's conditions.
    pub fn compose(&self, b: &Layout) -> Result<Layout> {
        self.binary(b, sys::cl_composition)
    }

    /// composition(self, tiler) for a [`Tiler`] mixing integers, layouts and
    /// `_`, as Rust values or text, e.g. `(3, 8)`, `"(3,8)"` or `"(_,2:2)"`.
    pub fn compose_tiler(&self, tiler: impl IntoTuple) -> Result<Layout> {
        self.with_tiler(tiler, sys::cl_composition_tiler)
    }

    /// complement(self, cotarget); `None` is complement(self) (cotarget cosize(filter(self))).
    pub fn complement(&self, cotarget: Option<i64>) -> Result<Layout> {
        match cotarget {
            Some(n) => {
                let mut out = ptr::null_mut();
                let status = unsafe { sys::cl_complement(self.as_ptr(), n, &mut out) };
                Layout::adopt(status, out)
            }
            None => self.unary(sys::cl_complement_full),
        }
    }

    /// right_inverse(L): R with L(R(i)) == i.
    pub fn right_inverse(&self) -> Result<Layout> {
        self.unary(sys::cl_right_inverse)
    }

    /// left_inverse(L): R with R(L(i)) == i.
    pub fn left_inverse(&self) -> Result<Layout> {
        self.unary(sys::cl_left_inverse)
    }

    /// logical_divide(self, b): (tile, rest).
    pub fn logical_divide(&self, b: &Layout) -> Result<Layout> {
        self.binary(b, sys::cl_logical_divide)
    }

    /// logical_product(self, b): (block, b's arrangement of copies).
    pub fn logical_product(&self, b: &Layout) -> Result<Layout> {
        self.binary(b, sys::cl_logical_product)
    }

    fn with_tiler(
        &self,
        tiler: impl IntoTuple,
        f: unsafe extern "C" fn(*const sys::cl_layout_t, *const sys::cl_tuple_t, *mut *mut sys::cl_layout_t) -> c_int,
    ) -> Result<Layout> {
        let tiler = tiler.into_tuple()?;
        let mut out = ptr::null_mut();
        let status = unsafe { f(self.as_ptr(), tiler.as_ptr(), &mut out) };
        Layout::adopt(status, out)
    }

    fn with_count(
        &self,
        n: i64,
        f: unsafe extern "C" fn(*const sys::cl_layout_t, i64, *mut *mut sys::cl_layout_t) -> c_int,
    ) -> Result<Layout> {
        let mut out = ptr::null_mut();
        let status = unsafe { f(self.as_ptr(), n, &mut out) };
        Layout::adopt(status, out)
    }

    /// upcast<n>(L): the layout over elements n times larger.
    pub fn upcast(&self, n: i64) -> Result<Layout> {
        self.with_count(n, sys::cl_upcast)
    }

    /// downcast<n>(L): the layout over elements n times smaller.
    pub fn downcast(&self, n: i64) -> Result<Layout> {
        self.with_count(n, sys::cl_downcast)
    }

    /// max_common_vector(self, b): how many consecutive elements both layouts keep contiguous.
    pub fn max_common_vector(&self, b: &Layout) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::cl_max_common_vector(self.as_ptr(), b.as_ptr(), &mut out) })?;
        Ok(out)
    }
}

/// One method per algebra function of two layouts (and its `_tiler` form,
/// the second operand a [`Tiler`]: Rust values such as `(2, 3)` or text such
/// as `(_,4:2)`),
/// and of one layout.
macro_rules! algebra {
    (binary [$($name:ident $tiler:ident => $f:ident $ft:ident,)*] unary [$($uname:ident => $uf:ident,)*]) => {
        impl Layout {
            $(
                #[doc = concat!("CuTe's `", stringify!($name), "(self, b)`.")]
                pub fn $name(&self, b: &Layout) -> Result<Layout> {
                    self.binary(b, sys::$f)
                }
                #[doc = concat!("CuTe's `", stringify!($name), "(self, tiler)` for a [`Tiler`] of integers, layouts and `_`.")]
                pub fn $tiler(&self, tiler: impl IntoTuple) -> Result<Layout> {
                    self.with_tiler(tiler, sys::$ft)
                }
            )*
            $(
                #[doc = concat!("CuTe's `", stringify!($uname), "(self)`.")]
                pub fn $uname(&self) -> Result<Layout> {
                    self.unary(sys::$uf)
                }
            )*
        }
    };
}

algebra! {
    binary [
    zipped_divide zipped_divide_tiler => cl_zipped_divide cl_zipped_divide_tiler,
    tiled_divide tiled_divide_tiler => cl_tiled_divide cl_tiled_divide_tiler,
    flat_divide flat_divide_tiler => cl_flat_divide cl_flat_divide_tiler,
    zipped_product zipped_product_tiler => cl_zipped_product cl_zipped_product_tiler,
    tiled_product tiled_product_tiler => cl_tiled_product cl_tiled_product_tiler,
    flat_product flat_product_tiler => cl_flat_product cl_flat_product_tiler,
    ]
    unary [
    filter => cl_filter,
    filter_zeros => cl_filter_zeros,
    flatten => cl_layout_flatten,
    nullspace => cl_nullspace,
    ]
}

impl Layout {
    /// logical_divide(self, tiler) for a [`Tiler`] of integers, layouts and `_`.
    pub fn logical_divide_tiler(&self, tiler: impl IntoTuple) -> Result<Layout> {
        self.with_tiler(tiler, sys::cl_logical_divide_tiler)
    }

    /// logical_product(self, tiler) for a [`Tiler`] of integers, layouts and `_`.
    pub fn logical_product_tiler(&self, tiler: impl IntoTuple) -> Result<Layout> {
        self.with_tiler(tiler, sys::cl_logical_product_tiler)
    }

    /// blocked_product(self, b): b's arrangement of self's blocks, mode by mode.
    pub fn blocked_product(&self, b: &Layout) -> Result<Layout> {
        self.binary(b, sys::cl_blocked_product)
    }

    /// raked_product(self, b): self's elements interleaved over b's arrangement.
    pub fn raked_product(&self, b: &Layout) -> Result<Layout> {
        self.binary(b, sys::cl_raked_product)
    }

    /// max_common_layout(self, b): the largest layout both keep contiguous.
    pub fn max_common_layout(&self, b: &Layout) -> Result<Layout> {
        self.binary(b, sys::cl_max_common_layout)
    }
}

/// CuTe's free functions: `f(a, b)` is `a.f(b)`.
macro_rules! free_functions {
    ($($name:ident),*) => {
        $(
            #[doc = concat!("CuTe's `", stringify!($name), "(a, b)`: [`Layout::", stringify!($name), "`].")]
            pub fn $name(a: &Layout, b: &Layout) -> Result<Layout> {
                a.$name(b)
            }
        )*
    };
}

free_functions!(logical_divide, zipped_divide, tiled_divide, flat_divide, logical_product, zipped_product,
                tiled_product, flat_product, blocked_product, raked_product, max_common_layout);

/// composition(a, b), CuTe's free-function spelling of [`Layout::compose`].
pub fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
    a.compose(b)
}

/// coalesce(L).
pub fn coalesce(l: &Layout) -> Result<Layout> {
    l.coalesce()
}

/// complement(L, cotarget).
pub fn complement(l: &Layout, cotarget: Option<i64>) -> Result<Layout> {
    l.complement(cotarget)
}

/// right_inverse(L).
pub fn right_inverse(l: &Layout) -> Result<Layout> {
    l.right_inverse()
}

/// left_inverse(L).
pub fn left_inverse(l: &Layout) -> Result<Layout> {
    l.left_inverse()
}

impl Drop for Layout {
    fn drop(&mut self) {
        unsafe { sys::cl_layout_free(self.raw.as_ptr()) }
    }
}

impl Clone for Layout {
    fn clone(&self) -> Layout {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_copy(self.as_ptr(), &mut out) };
        Layout::adopt(status, out).unwrap_or_else(|e| panic!("cl_layout_copy: {}", e))
    }
}

impl PartialEq for Layout {
    fn eq(&self, other: &Layout) -> bool {
        unsafe { sys::cl_layout_equal(self.as_ptr(), other.as_ptr()) != 0 }
    }
}

impl Eq for Layout {}

// Equal layouts have equal canonical texts.
hash_by_text!(Layout);
text_form!(Layout, sys::cl_layout_format, l => l.as_ptr());

impl FromStr for Layout {
    type Err = Error;
    fn from_str(text: &str) -> Result<Layout> {
        Layout::parse(text)
    }
}
