// SPDX-License-Identifier: BSD-3-Clause
//! Swizzles and composed layouts (swizzle.h).
use std::fmt;
use std::hash::{Hash, Hasher};
use std::os::raw::c_int;
use std::ptr::{self, NonNull};
use std::str::FromStr;

use crate::{check, sys, text_arg, Error, IntoTuple, Layout, Result};

/// CuTe's `Swizzle<B, M, S>`: a bit permutation of offsets, a plain value.
///
/// ```
/// use cutelayout::Swizzle;
/// let sw: Swizzle = "Sw<3,4,3>".parse()?;
/// assert_eq!(sw.apply(0b1000_0000)?, 0b1001_0000);  // bit 7 (in the yyy mask) is xor'ed into bit 4
/// assert_eq!(sw.to_string(), "Sw<3,4,3>");
/// # Ok::<(), cutelayout::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct Swizzle(sys::cl_swizzle_t);

impl Swizzle {
    /// Swizzle<bits, base, shift>, checked as CuTe checks it.
    pub fn new(bits: i32, base: i32, shift: i32) -> Result<Swizzle> {
        let mut out = sys::cl_swizzle_t { bits: 0, base: 0, shift: 0 };
        check(unsafe { sys::cl_swizzle_make(bits.into(), base.into(), shift.into(), &mut out) })?;
        Ok(Swizzle(out))
    }

    /// The swizzled offset.
    pub fn apply(&self, offset: i64) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::cl_swizzle_apply(self.0, offset, &mut out) })?;
        Ok(out)
    }

    /// (bits, base, shift).
    pub fn params(&self) -> (i32, i32, i32) {
        (self.0.bits, self.0.base, self.0.shift)
    }
}

impl PartialEq for Swizzle {
    fn eq(&self, other: &Swizzle) -> bool {
        unsafe { sys::cl_swizzle_equal(self.0, other.0) != 0 }
    }
}

impl Eq for Swizzle {}

impl Hash for Swizzle {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.params().hash(state)
    }
}

text_form!(Swizzle, sys::cl_swizzle_format, s => s.0);

impl FromStr for Swizzle {
    type Err = Error;
    fn from_str(text: &str) -> Result<Swizzle> {
        let text = text_arg(text)?;
        let mut out = sys::cl_swizzle_t { bits: 0, base: 0, shift: 0 };
        check(unsafe { sys::cl_swizzle_parse(text.as_ptr(), &mut out) })?;
        Ok(Swizzle(out))
    }
}

/// CuTe's `ComposedLayout<A, offset, B>`: `i -> A(offset + B(i))`, e.g. a
/// swizzled shared-memory layout `Sw<3,3,3> o 0 o (8,64):(64,1)`.
///
/// ```
/// use cutelayout::{AnyLayout, ComposedLayout};
/// let c: ComposedLayout = "Sw<1,0,1> o 0 o (2,2):(2,1)".parse()?;
/// assert_eq!(c.size()?, 4);
/// assert_eq!((0..4).map(|i| c.eval(i)).collect::<Result<Vec<_>, _>>()?, vec![0, 3, 1, 2]);
/// // Operations answer a plain Layout or a ComposedLayout, as CuTe's do.
/// match c.logical_divide("2")? {
///     AnyLayout::Composed(d) => assert_eq!(d.size()?, 4),
///     AnyLayout::Plain(l) => panic!("expected a composed layout, got {}", l),
/// }
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub struct ComposedLayout {
    raw: NonNull<sys::cl_composed_t>,
}

// Immutable once made, like a Layout.
unsafe impl Send for ComposedLayout {}
unsafe impl Sync for ComposedLayout {}

/// The result of an operation that, as in CuTe, gives a plain layout for
/// some inputs and a composed layout for others.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyLayout {
    Plain(Layout),
    Composed(ComposedLayout),
}

impl fmt::Display for AnyLayout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyLayout::Plain(l) => l.fmt(f),
            AnyLayout::Composed(c) => c.fmt(f),
        }
    }
}

pub(crate) fn either(status: c_int, layout: *mut sys::cl_layout_t, composed: *mut sys::cl_composed_t) -> Result<AnyLayout> {
    check(status)?;
    Ok(match NonNull::new(composed) {
        Some(raw) => AnyLayout::Composed(ComposedLayout { raw }),
        None => AnyLayout::Plain(Layout::adopt(status, layout)?),
    })
}

type TilerFn = unsafe extern "C" fn(
    *const sys::cl_composed_t,
    *const sys::cl_tuple_t,
    *mut *mut sys::cl_layout_t,
    *mut *mut sys::cl_composed_t,
) -> c_int;

impl ComposedLayout {
    pub(crate) fn as_ptr(&self) -> *const sys::cl_composed_t {
        self.raw.as_ptr()
    }

    /// Parses CuTe's text, `A o offset o B`.
    pub fn parse(text: &str) -> Result<ComposedLayout> {
        let text = text_arg(text)?;
        let mut out = ptr::null_mut();
        check(unsafe { sys::cl_composed_parse(text.as_ptr(), &mut out) })?;
        Ok(ComposedLayout { raw: NonNull::new(out).expect("cl_composed_parse succeeded with a NULL result") })
    }

    /// The value at linear coordinate i.
    pub fn eval(&self, i: i64) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::cl_composed_eval(self.as_ptr(), i, &mut out) })?;
        Ok(out)
    }

    /// The size of the domain (the inner layout's).
    pub fn size(&self) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::cl_composed_size(self.as_ptr(), &mut out) })?;
        Ok(out)
    }

    /// The size of the codomain.
    pub fn cosize(&self) -> Result<i64> {
        let mut out = 0;
        check(unsafe { sys::cl_composed_cosize(self.as_ptr(), &mut out) })?;
        Ok(out)
    }

    fn with_tiler(&self, tiler: impl IntoTuple, f: TilerFn) -> Result<AnyLayout> {
        let tiler = tiler.into_tuple()?;
        let (mut layout, mut composed) = (ptr::null_mut(), ptr::null_mut());
        let status = unsafe { f(self.as_ptr(), tiler.as_ptr(), &mut layout, &mut composed) };
        either(status, layout, composed)
    }

    /// composition(self, tiler).
    pub fn compose_tiler(&self, tiler: impl IntoTuple) -> Result<AnyLayout> {
        self.with_tiler(tiler, sys::cl_composed_composition)
    }

    /// logical_divide(self, tiler).
    pub fn logical_divide(&self, tiler: impl IntoTuple) -> Result<AnyLayout> {
        self.with_tiler(tiler, sys::cl_composed_logical_divide)
    }

    /// zipped_divide(self, tiler).
    pub fn zipped_divide(&self, tiler: impl IntoTuple) -> Result<AnyLayout> {
        self.with_tiler(tiler, sys::cl_composed_zipped_divide)
    }

    /// logical_product(self, tiler).
    pub fn logical_product(&self, tiler: impl IntoTuple) -> Result<AnyLayout> {
        self.with_tiler(tiler, sys::cl_composed_logical_product)
    }

    /// right_inverse(self).
    pub fn right_inverse(&self) -> Result<AnyLayout> {
        let (mut layout, mut composed) = (ptr::null_mut(), ptr::null_mut());
        let status = unsafe { sys::cl_composed_right_inverse(self.as_ptr(), &mut layout, &mut composed) };
        either(status, layout, composed)
    }

    /// coalesce(self).
    pub fn coalesce(&self) -> Result<AnyLayout> {
        let (mut layout, mut composed) = (ptr::null_mut(), ptr::null_mut());
        let status = unsafe { sys::cl_composed_coalesce(self.as_ptr(), ptr::null(), &mut layout, &mut composed) };
        either(status, layout, composed)
    }
}

impl Drop for ComposedLayout {
    fn drop(&mut self) {
        unsafe { sys::cl_composed_free(self.raw.as_ptr()) }
    }
}

impl Clone for ComposedLayout {
    fn clone(&self) -> ComposedLayout {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_composed_copy(self.as_ptr(), &mut out) };
        check(status).unwrap_or_else(|e| panic!("cl_composed_copy: {}", e));
        ComposedLayout { raw: NonNull::new(out).expect("cl_composed_copy succeeded with a NULL result") }
    }
}

impl PartialEq for ComposedLayout {
    fn eq(&self, other: &ComposedLayout) -> bool {
        unsafe { sys::cl_composed_equal(self.as_ptr(), other.as_ptr()) != 0 }
    }
}

impl Eq for ComposedLayout {}

hash_by_text!(ComposedLayout);
text_form!(ComposedLayout, sys::cl_composed_format, c => c.as_ptr());

impl FromStr for ComposedLayout {
    type Err = Error;
    fn from_str(text: &str) -> Result<ComposedLayout> {
        ComposedLayout::parse(text)
    }
}
