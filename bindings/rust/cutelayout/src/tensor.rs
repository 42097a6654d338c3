// SPDX-License-Identifier: BSD-3-Clause
//! Tensors over Rust slices (tensor.h): memory seen through a layout, and the
//! library's fast copy between two of them.
use std::marker::PhantomData;
use std::mem::size_of;
use std::os::raw::c_void;
use std::ptr::{self, NonNull};

use crate::{check, sys, Layout, Result};

/// A view of a slice through a layout: element i is `data[layout(i)]`.
/// The library knows the slice's extent and refuses (CL_E_BOUNDS) a layout
/// that reaches outside it.
///
/// ```
/// use cutelayout::{copy, Layout, Tensor, TensorMut};
/// let a: Vec<f32> = (0..16).map(|x| x as f32).collect();
/// let mut b = vec![0f32; 16];
/// let src = Tensor::new(&a, &"(4,4):(4,1)".parse()?)?;   // row-major
/// assert_eq!(*src.get(1)?, 4.0);
/// let mut dst = TensorMut::new(&mut b, &"(4,4):(1,4)".parse()?)?;
/// copy(&mut dst, &src)?;                                   // b is a transposed
/// drop(dst);
/// assert_eq!(b[1], 4.0);
/// assert!(Tensor::new(&a, &Layout::parse("(4,5):(1,4)")?).is_err());   // past the slice
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub struct Tensor<'a, T: Copy> {
    raw: NonNull<sys::cl_tensor_t>,
    data: &'a [T],
    layout: Layout,
}

/// A mutable view of a slice through a layout, the destination of [`copy`].
pub struct TensorMut<'a, T: Copy> {
    raw: NonNull<sys::cl_tensor_t>,
    data: *mut T,
    len: usize,
    layout: Layout,
    _borrow: PhantomData<&'a mut [T]>,
}

fn create<T>(data: *const T, len: usize, layout: &Layout) -> Result<NonNull<sys::cl_tensor_t>> {
    let desc = sys::cl_tensor_desc {
        struct_size: size_of::<sys::cl_tensor_desc>(),
        data: data as *mut c_void,
        elem_size: size_of::<T>(),
        dtype: sys::CL_DTYPE_NONE,
        extent_base: data as *const c_void,
        extent_bytes: len * size_of::<T>(),
    };
    let mut out = ptr::null_mut();
    check(unsafe { sys::cl_tensor_create(&desc, layout.as_ptr(), &mut out) })?;
    Ok(NonNull::new(out).expect("cl_tensor_create succeeded with a NULL result"))
}

/// The slice position of element i (the library checked the layout's reach).
fn position(layout: &Layout, i: i64) -> Result<usize> {
    Ok(layout.eval(i)? as usize)
}

impl<'a, T: Copy> Tensor<'a, T> {
    /// A view of `data` through `layout` (which is copied).
    pub fn new(data: &'a [T], layout: &Layout) -> Result<Tensor<'a, T>> {
        let raw = create(data.as_ptr(), data.len(), layout)?;
        Ok(Tensor { raw, data, layout: layout.clone() })
    }

    /// Element i (CuTe's `T(i)`).
    pub fn get(&self, i: i64) -> Result<&T> {
        Ok(&self.data[position(&self.layout, i)?])
    }

    /// The view's layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

impl<'a, T: Copy> TensorMut<'a, T> {
    /// A mutable view of `data` through `layout` (which is copied).
    pub fn new(data: &'a mut [T], layout: &Layout) -> Result<TensorMut<'a, T>> {
        let raw = create(data.as_ptr(), data.len(), layout)?;
        Ok(TensorMut { raw, data: data.as_mut_ptr(), len: data.len(), layout: layout.clone(), _borrow: PhantomData })
    }

    fn slice(&mut self) -> &mut [T] {
        // The view holds the unique borrow of these len elements for 'a.
        unsafe { std::slice::from_raw_parts_mut(self.data, self.len) }
    }

    /// Element i.
    pub fn get(&mut self, i: i64) -> Result<&mut T> {
        let at = position(&self.layout, i)?;
        Ok(&mut self.slice()[at])
    }

    /// The view's layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

/// `dst(i) = src(i)` for every i, by the library's copy engine (the two
/// layouts coalesced jointly, transposes through vector registers).  Errors:
/// sizes differ (CL_E_DOMAIN), element sizes differ.
pub fn copy<T: Copy>(dst: &mut TensorMut<'_, T>, src: &Tensor<'_, T>) -> Result<()> {
    check(unsafe { sys::cl_tensor_copy(dst.raw.as_ptr(), src.raw.as_ptr()) })
}

impl<T: Copy> Drop for Tensor<'_, T> {
    fn drop(&mut self) {
        unsafe { sys::cl_tensor_free(self.raw.as_ptr()) }
    }
}

impl<T: Copy> Drop for TensorMut<'_, T> {
    fn drop(&mut self) {
        unsafe { sys::cl_tensor_free(self.raw.as_ptr()) }
    }
}
