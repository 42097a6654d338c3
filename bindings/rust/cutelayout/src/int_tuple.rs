// SPDX-License-Identifier: BSD-3-Clause
//! CuTe's IntTuple as a Rust value: shapes, strides, coordinates and tilers.
use std::ptr::{self, NonNull};
use std::str::FromStr;

use crate::{check, sys, text_arg, Error, Layout, Result};

/// CuTe's IntTuple: an integer, a tuple of IntTuples, and in coordinates and
/// tilers also `_` ([`Underscore`]), a layout, or a scaled basis such as `1@0`.
///
/// Made from Rust values (integers, [`Underscore`], layouts, tuples, arrays
/// and `Vec`s of these, nested), or parsed from the canonical text.  It
/// prints as that text, and compares equal to another IntTuple of the same
/// value or to its text:
///
/// ```
/// use cutelayout::{IntTuple, Layout, Underscore};
/// let shape = IntTuple::from((2, (3, 4)));
/// assert_eq!(shape.to_string(), "(2,(3,4))");
/// assert_eq!(shape, "(2,(3,4))".parse::<IntTuple>()?);
/// assert_eq!(shape, "(2,(3,4))");
/// assert_eq!(IntTuple::from([2, 3]), "(2,3)");
/// assert_eq!(IntTuple::from(vec![8]), "(8)"); // a rank-1 tuple is not 8
/// assert_eq!(IntTuple::from(8), "8");
/// // A tiler mixing integers, layouts and `_`:
/// let tiler = IntTuple::from((2, Layout::parse("3:2")?, Underscore));
/// assert_eq!(tiler, "(2,3:2,_)");
/// // Queries return IntTuples.
/// let l = Layout::parse("(2,(2,2)):(4,(2,1))")?;
/// assert_eq!(l.shape()?, IntTuple::from((2, (2, 2))));
/// assert_eq!(l.shape()?.get(1).unwrap(), IntTuple::from((2, 2)));
/// assert_eq!(l.stride()?.rank(), 2);
/// # Ok::<(), cutelayout::Error>(())
/// ```
///
/// Conversions from Rust values panic only where the library refuses to
/// build at all: past its limits (4096 elements in one tuple, 64 levels of
/// nesting) or out of memory.  Text that fails to parse is an [`Error`].
pub struct IntTuple(NonNull<sys::cl_tuple_t>);

// The C handle is immutable once made and safe to read from any thread.
unsafe impl Send for IntTuple {}
unsafe impl Sync for IntTuple {}

/// CuTe's `_`: in a coordinate, every index of its mode (a slice); in a
/// tiler, the mode left whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Underscore;

/// What an [`IntTuple`] is at its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// An integer.
    Int,
    /// A tuple (possibly empty).
    Tuple,
    /// `_`.
    Underscore,
    /// A layout (in a tiler).
    Layout,
    /// A scaled basis such as `1@0` (in the strides of coordinate layouts).
    Basis,
}

impl IntTuple {
    /// Takes ownership of a handle that a library call just returned.
    pub(crate) fn adopt(status: std::os::raw::c_int, raw: *mut sys::cl_tuple_t) -> Result<IntTuple> {
        check(status)?;
        Ok(IntTuple(NonNull::new(raw).expect("the library reported success with a NULL tuple")))
    }

    /// A value the library builds unless it is out of memory or past its limits.
    fn built(status: std::os::raw::c_int, raw: *mut sys::cl_tuple_t) -> IntTuple {
        IntTuple::adopt(status, raw).unwrap_or_else(|e| panic!("cutelayout: cannot build the tuple: {}", e))
    }

    /// The handle, still owned by `self`.
    pub fn as_ptr(&self) -> *const sys::cl_tuple_t {
        self.0.as_ptr()
    }

    /// Parses the canonical text, e.g. `(2,(3,4))`, `(_,2)`, `(2:3,_)`.
    pub fn parse(text: &str) -> Result<IntTuple> {
        let text = text_arg(text)?;
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_parse(text.as_ptr(), &mut out) };
        IntTuple::adopt(status, out)
    }

    /// The tuple of these elements, e.g. for a rank known only at run time.
    pub fn tuple(elements: &[IntTuple]) -> Result<IntTuple> {
        let handles: Vec<*const sys::cl_tuple_t> = elements.iter().map(IntTuple::as_ptr).collect();
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_make(handles.as_ptr(), handles.len() as i64, &mut out) };
        IntTuple::adopt(status, out)
    }

    /// What the value is at its root.
    pub fn kind(&self) -> Kind {
        match unsafe { sys::cl_tuple_kind(self.as_ptr()) } {
            sys::CL_KIND_INT => Kind::Int,
            sys::CL_KIND_UNDERSCORE => Kind::Underscore,
            sys::CL_KIND_LAYOUT => Kind::Layout,
            sys::CL_KIND_BASIS => Kind::Basis,
            _ => Kind::Tuple,
        }
    }

    /// The integer, when the value is one.
    pub fn value(&self) -> Option<i64> {
        let mut v = 0;
        match unsafe { sys::cl_tuple_value(self.as_ptr(), &mut v) } {
            sys::CL_OK => Some(v),
            _ => None,
        }
    }

    /// The layout, when the value is one (an element of a tiler).
    pub fn layout(&self) -> Option<Layout> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_layout(self.as_ptr(), &mut out) };
        Layout::adopt(status, out).ok()
    }

    /// CuTe's rank: the number of elements of a tuple, 1 for anything else.
    pub fn rank(&self) -> i64 {
        unsafe { sys::cl_tuple_rank(self.as_ptr()) }
    }

    /// CuTe's depth: 0 for an integer, 1 + the deepest element for a tuple.
    pub fn depth(&self) -> i64 {
        unsafe { sys::cl_tuple_depth(self.as_ptr()) }
    }

    /// Element `i` of a tuple (CuTe's `get<i>`); `None` past the end or for a leaf.
    pub fn get(&self, i: usize) -> Option<IntTuple> {
        if self.kind() != Kind::Tuple {
            return None;
        }
        let path = [i as i64];
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_get(self.as_ptr(), path.as_ptr(), 1, &mut out) };
        IntTuple::adopt(status, out).ok()
    }

    /// The elements of a tuple, in order (empty for a leaf).
    pub fn elements(&self) -> Vec<IntTuple> {
        (0..).map_while(|i| self.get(i)).collect()
    }
}

impl Drop for IntTuple {
    fn drop(&mut self) {
        unsafe { sys::cl_tuple_free(self.0.as_ptr()) }
    }
}

impl Clone for IntTuple {
    fn clone(&self) -> IntTuple {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_copy(self.as_ptr(), &mut out) };
        IntTuple::built(status, out)
    }
}

impl PartialEq for IntTuple {
    fn eq(&self, other: &IntTuple) -> bool {
        unsafe { sys::cl_tuple_equal(self.as_ptr(), other.as_ptr()) != 0 }
    }
}

impl Eq for IntTuple {}

/// Equal to text that parses to an equal value (`"(2, 3)"` equals `(2,3)`).
impl PartialEq<str> for IntTuple {
    fn eq(&self, text: &str) -> bool {
        IntTuple::parse(text).map(|t| t == *self).unwrap_or(false)
    }
}

impl PartialEq<&str> for IntTuple {
    fn eq(&self, text: &&str) -> bool {
        *self == **text
    }
}

impl PartialEq<String> for IntTuple {
    fn eq(&self, text: &String) -> bool {
        *self == **text
    }
}

impl FromStr for IntTuple {
    type Err = Error;
    fn from_str(text: &str) -> Result<IntTuple> {
        IntTuple::parse(text)
    }
}

hash_by_text!(IntTuple);
text_form!(IntTuple, sys::cl_tuple_format, t => t.as_ptr());

/// The integer leaf.
impl From<i64> for IntTuple {
    fn from(value: i64) -> IntTuple {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_int(value, &mut out) };
        IntTuple::built(status, out)
    }
}

macro_rules! from_integer {
    ($($t:ty),*) => {
        $(
            #[doc = concat!("The integer leaf, from an `", stringify!($t), "`.")]
            impl From<$t> for IntTuple {
                fn from(value: $t) -> IntTuple {
                    IntTuple::from(value as i64)
                }
            }
        )*
    };
}

// i32 is what an integer literal in a tuple such as (2, 3) defaults to.
from_integer!(i32, u32, i16, u16, i8, u8);

/// `_`.
impl From<Underscore> for IntTuple {
    fn from(_: Underscore) -> IntTuple {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_underscore(&mut out) };
        IntTuple::built(status, out)
    }
}

/// A leaf holding a copy of the layout (an element of a tiler).
impl From<&Layout> for IntTuple {
    fn from(layout: &Layout) -> IntTuple {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tuple_from_layout(layout.as_ptr(), &mut out) };
        IntTuple::built(status, out)
    }
}

/// A leaf holding the layout (an element of a tiler).
impl From<Layout> for IntTuple {
    fn from(layout: Layout) -> IntTuple {
        IntTuple::from(&layout)
    }
}

impl From<&IntTuple> for IntTuple {
    fn from(t: &IntTuple) -> IntTuple {
        t.clone()
    }
}

fn tuple_of(elements: Vec<IntTuple>) -> IntTuple {
    IntTuple::tuple(&elements).unwrap_or_else(|e| panic!("cutelayout: cannot build the tuple: {}", e))
}

/// The tuple of the elements, e.g. `[2, 3]` is `(2,3)`.
impl<T: Into<IntTuple>, const N: usize> From<[T; N]> for IntTuple {
    fn from(elements: [T; N]) -> IntTuple {
        tuple_of(elements.into_iter().map(Into::into).collect())
    }
}

/// The tuple of the elements, e.g. `vec![2, 3]` is `(2,3)`.
impl<T: Into<IntTuple>> From<Vec<T>> for IntTuple {
    fn from(elements: Vec<T>) -> IntTuple {
        tuple_of(elements.into_iter().map(Into::into).collect())
    }
}

macro_rules! from_rust_tuple {
    ($(($($name:ident),+))*) => {
        $(
            /// The tuple of the elements, e.g. `(2, (3, 4))` is `(2,(3,4))`.
            #[allow(non_snake_case)]
            impl<$($name: Into<IntTuple>),+> From<($($name,)+)> for IntTuple {
                fn from(($($name,)+): ($($name,)+)) -> IntTuple {
                    tuple_of(vec![$($name.into()),+])
                }
            }
        )*
    };
}

from_rust_tuple! {
    (A)
    (A, B)
    (A, B, C)
    (A, B, C, D)
    (A, B, C, D, E)
    (A, B, C, D, E, F)
    (A, B, C, D, E, F, G)
    (A, B, C, D, E, F, G, H)
}

/// What a shape, stride, coordinate or tiler argument may be: an
/// [`IntTuple`] or anything that converts to one (integers, [`Underscore`],
/// layouts, tuples, arrays, `Vec`s), or text to parse (`&str`, `String`).
///
/// ```
/// use cutelayout::{Layout, Underscore};
/// let a = Layout::parse("(8,6):(1,8)")?;
/// assert_eq!(a.zipped_divide_tiler((2, 3))?, a.zipped_divide_tiler("(2,3)")?);
/// assert_eq!(a.logical_divide_tiler((Layout::parse("2:2")?, Underscore))?.to_string(), "((2,(2,2)),6):((2,(1,4)),8)");
/// assert_eq!(a.eval_coord((1, 2))?, 17);
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub trait IntoTuple {
    /// The value as an [`IntTuple`]; text that does not parse is an error.
    fn into_tuple(self) -> Result<IntTuple>;
}

impl<T: Into<IntTuple>> IntoTuple for T {
    fn into_tuple(self) -> Result<IntTuple> {
        Ok(self.into())
    }
}

impl IntoTuple for &str {
    fn into_tuple(self) -> Result<IntTuple> {
        IntTuple::parse(self)
    }
}

impl IntoTuple for &String {
    fn into_tuple(self) -> Result<IntTuple> {
        IntTuple::parse(self)
    }
}

impl IntoTuple for String {
    fn into_tuple(self) -> Result<IntTuple> {
        IntTuple::parse(&self)
    }
}

/// A coordinate: integers and `_`, nested as the shape is.
pub type Coord = IntTuple;
/// A tiler: integers, layouts and `_`, one per mode it tiles.
pub type Tiler = IntTuple;
/// A shape: non-negative integers.
pub type Shape = IntTuple;
