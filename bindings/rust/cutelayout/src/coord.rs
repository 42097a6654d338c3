// SPDX-License-Identifier: BSD-3-Clause
//! Coordinate tensors (coord_tensor.h): CuTe's identity tensors, the usual
//! way to predicate a tile that overhangs its tensor.
use std::ptr::{self, NonNull};

use crate::{check, sys, IntTuple, IntoTuple, Layout, Result};

/// A coordinate tensor: an origin (an integer, a scaled basis or a tuple of
/// them) plus a layout whose strides may be scaled bases; element `i` is
/// `origin + layout(i)`, printed as CuTe prints it.
///
/// ```
/// use cutelayout::CoordTensor;
/// let id = CoordTensor::identity("(4,8)")?;
/// assert_eq!(id.to_string(), "ArithTuple(0,0) o (4,8):(1@0,1@1)");
/// assert_eq!(id.eval(5)?, "(1,1)");
/// let tile = CoordTensor::identity("(8,8)")?.local_tile("(4,4)", "(1,0)")?;
/// assert_eq!(tile.to_string(), "ArithTuple(4,0) o (4,4):(1@0,1@1)");
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub struct CoordTensor {
    raw: NonNull<sys::cl_coord_tensor_t>,
}

// Immutable once made, like a Layout.
unsafe impl Send for CoordTensor {}
unsafe impl Sync for CoordTensor {}

impl CoordTensor {
    fn adopt(status: std::os::raw::c_int, raw: *mut sys::cl_coord_tensor_t) -> Result<CoordTensor> {
        check(status)?;
        Ok(CoordTensor { raw: NonNull::new(raw).expect("the library reported success with a NULL tensor") })
    }

    fn as_ptr(&self) -> *const sys::cl_coord_tensor_t {
        self.raw.as_ptr()
    }

    /// CuTe's `make_identity_tensor(shape)`: element `crd` is `crd`.
    pub fn identity(shape: impl IntoTuple) -> Result<CoordTensor> {
        let shape = shape.into_tuple()?;
        let mut out = ptr::null_mut();
        CoordTensor::adopt(unsafe { sys::cl_make_identity_tensor(shape.as_ptr(), &mut out) }, out)
    }

    /// CuTe's `make_coord_tensor(layout)`: the layout from a zero origin.
    pub fn of_layout(layout: &Layout) -> Result<CoordTensor> {
        let mut out = ptr::null_mut();
        CoordTensor::adopt(unsafe { sys::cl_make_coord_tensor(layout.as_ptr(), &mut out) }, out)
    }

    /// A tensor from an origin (a value such as `(1,2)` or `3@1`) and a layout.
    pub fn new(origin: impl IntoTuple, layout: &Layout) -> Result<CoordTensor> {
        let origin = origin.into_tuple()?;
        let mut out = ptr::null_mut();
        CoordTensor::adopt(unsafe { sys::cl_coord_tensor_new(origin.as_ptr(), layout.as_ptr(), &mut out) }, out)
    }

    /// The element at linear coordinate `i`, as CuTe prints it.
    pub fn eval(&self, i: i64) -> Result<IntTuple> {
        let mut out = ptr::null_mut();
        IntTuple::adopt(unsafe { sys::cl_coord_tensor_eval(self.as_ptr(), i, &mut out) }, out)
    }

    /// The element at a (hierarchical) coordinate such as `(1,(2,0))`.
    pub fn eval_coord(&self, crd: impl IntoTuple) -> Result<IntTuple> {
        let crd = crd.into_tuple()?;
        let mut out = ptr::null_mut();
        IntTuple::adopt(unsafe { sys::cl_coord_tensor_eval_coord(self.as_ptr(), crd.as_ptr(), &mut out) }, out)
    }

    /// The origin, as CuTe prints it.
    pub fn origin(&self) -> Result<IntTuple> {
        let origin = unsafe { sys::cl_coord_tensor_origin(self.as_ptr()) };
        let mut out = std::ptr::null_mut();
        IntTuple::adopt(unsafe { sys::cl_tuple_copy(origin, &mut out) }, out)
    }

    /// A copy of the layout.
    pub fn layout(&self) -> Result<Layout> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_layout_copy(sys::cl_coord_tensor_layout(self.as_ptr()), &mut out) };
        Layout::adopt(status, out)
    }

    /// The same origin with another layout: any layout operation on the tensor.
    pub fn with_layout(&self, layout: &Layout) -> Result<CoordTensor> {
        let mut out = ptr::null_mut();
        CoordTensor::adopt(unsafe { sys::cl_coord_tensor_with_layout(self.as_ptr(), layout.as_ptr(), &mut out) }, out)
    }

    /// CuTe's `tensor(crd)` with `_` in `crd`.
    pub fn slice(&self, crd: impl IntoTuple) -> Result<CoordTensor> {
        let crd = crd.into_tuple()?;
        let mut out = ptr::null_mut();
        CoordTensor::adopt(unsafe { sys::cl_coord_tensor_slice(self.as_ptr(), crd.as_ptr(), &mut out) }, out)
    }

    /// CuTe's `local_tile(tensor, tiler, coord)`: the tile at `coord`.
    pub fn local_tile(&self, tiler: impl IntoTuple, coord: impl IntoTuple) -> Result<CoordTensor> {
        let (tiler, coord) = (tiler.into_tuple()?, coord.into_tuple()?);
        let mut out = ptr::null_mut();
        let status =
            unsafe { sys::cl_coord_local_tile(self.as_ptr(), tiler.as_ptr(), coord.as_ptr(), ptr::null(), &mut out) };
        CoordTensor::adopt(status, out)
    }

    /// CuTe's `outer_partition(tensor, tiler, coord)`: element `coord` of every tile.
    pub fn outer_partition(&self, tiler: impl IntoTuple, coord: impl IntoTuple) -> Result<CoordTensor> {
        let (tiler, coord) = (tiler.into_tuple()?, coord.into_tuple()?);
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_coord_outer_partition(self.as_ptr(), tiler.as_ptr(), coord.as_ptr(), &mut out) };
        CoordTensor::adopt(status, out)
    }

    /// CuTe's `local_partition(tensor, thr_layout, index)`: what thread `index` owns.
    pub fn local_partition(&self, thr_layout: &Layout, index: i64) -> Result<CoordTensor> {
        let mut out = ptr::null_mut();
        let status = unsafe {
            sys::cl_coord_local_partition(self.as_ptr(), thr_layout.as_ptr(), index, ptr::null(), &mut out)
        };
        CoordTensor::adopt(status, out)
    }
}

impl Drop for CoordTensor {
    fn drop(&mut self) {
        unsafe { sys::cl_coord_tensor_free(self.raw.as_ptr()) }
    }
}

impl Clone for CoordTensor {
    fn clone(&self) -> CoordTensor {
        let mut out = ptr::null_mut();
        let status = unsafe {
            sys::cl_coord_tensor_new(sys::cl_coord_tensor_origin(self.as_ptr()), sys::cl_coord_tensor_layout(self.as_ptr()), &mut out)
        };
        CoordTensor::adopt(status, out).unwrap_or_else(|e| panic!("cl_coord_tensor_new: {}", e))
    }
}

impl PartialEq for CoordTensor {
    fn eq(&self, other: &CoordTensor) -> bool {
        self.to_string() == other.to_string() // the text is canonical: origin and layout
    }
}

impl Eq for CoordTensor {}

hash_by_text!(CoordTensor);
text_form!(CoordTensor, sys::cl_coord_tensor_format, t => t.as_ptr());
