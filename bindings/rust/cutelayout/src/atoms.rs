// SPDX-License-Identifier: BSD-3-Clause
//! CuTe's tiled MMAs and tiled copies (atom.h): atom names in, layouts out.
//!
//! ```
//! use cutelayout::{Operand, TiledMma};
//! let mma = TiledMma::new("SM80_16x8x16_F32F16F16F32_TN", Some("(2,2,1):(1,2,0)"), None).unwrap();
//! assert_eq!(mma.to_string(), "make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0),(_,_,_))");
//! assert_eq!(mma.tile_shape().unwrap(), "(32,16,16)");
//! let (part, offset) = mma.partition(Operand::A, 5, "(64,32):(1,64)").unwrap();
//! assert_eq!((part.to_string().as_str(), offset), ("((2,2,2),2,2):((64,8,512),32,1024)", 129));
//! ```
use std::ptr::{self, NonNull};

use crate::composed::either;
use crate::{check, formatted, sys, text_arg, AnyLayout, ComposedLayout, IntTuple, Layout, Result};

/// The operands of an MMA, D = A * B + C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    A,
    B,
    C,
}

impl Operand {
    fn raw(self) -> sys::cl_mma_operand {
        match self {
            Operand::A => sys::CL_OPERAND_A,
            Operand::B => sys::CL_OPERAND_B,
            Operand::C => sys::CL_OPERAND_C,
        }
    }
}

/// The sides of a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Src,
    Dst,
}

impl Side {
    fn raw(self) -> sys::cl_copy_side {
        match self {
            Side::Src => sys::CL_COPY_SRC,
            Side::Dst => sys::CL_COPY_DST,
        }
    }
}

fn layout_out(f: impl FnOnce(*mut *mut sys::cl_layout_t) -> std::os::raw::c_int) -> Result<Layout> {
    let mut out = ptr::null_mut();
    check(f(&mut out))?;
    Ok(unsafe { Layout::from_raw(out) }.expect("the library reported success with a NULL layout"))
}

/// CuTe's make_tiled_mma(atom, atom_layout, permutation).
pub struct TiledMma(NonNull<sys::cl_tiled_mma_t>);

// Immutable once made; the library allows concurrent reads.
unsafe impl Send for TiledMma {}
unsafe impl Sync for TiledMma {}

impl TiledMma {
    /// The atom by CuTe's name; the atom layout and permutation as text.
    pub fn new(atom: &str, atom_layout: Option<&str>, permutation: Option<&str>) -> Result<TiledMma> {
        let name = text_arg(atom)?;
        let mut a = ptr::null_mut();
        check(unsafe { sys::cl_mma_atom_new(name.as_ptr(), &mut a) })?;
        let layout = atom_layout.map(Layout::parse).transpose();
        let perm = permutation.map(IntTuple::parse).transpose();
        let result = match (layout, perm) {
            (Ok(layout), Ok(perm)) => {
                let mut out = ptr::null_mut();
                let status = unsafe {
                    sys::cl_make_tiled_mma(
                        a,
                        layout.as_ref().map_or(ptr::null(), |l| l.as_ptr()),
                        perm.as_ref().map_or(ptr::null(), |p| p.as_ptr()),
                        &mut out,
                    )
                };
                check(status).map(|_| TiledMma(NonNull::new(out).expect("NULL tiled MMA")))
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        unsafe { sys::cl_mma_atom_free(a) };
        result
    }

    /// The number of threads.
    pub fn size(&self) -> i64 {
        unsafe { sys::cl_tiled_mma_size(self.0.as_ptr()) }
    }

    /// (tile_size<0>, tile_size<1>, tile_size<2>).
    pub fn tile_shape(&self) -> Result<IntTuple> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tiled_mma_tile_shape(self.0.as_ptr(), &mut out) };
        IntTuple::adopt(status, out)
    }

    /// get_thr_layout_vmnk().
    pub fn thr_layout_vmnk(&self) -> Result<Layout> {
        layout_out(|out| unsafe { sys::cl_tiled_mma_thr_layout_vmnk(self.0.as_ptr(), out) })
    }

    /// get_layoutA_TV(), get_layoutB_TV(), get_layoutC_TV().
    pub fn layout_tv(&self, operand: Operand) -> Result<Layout> {
        layout_out(|out| unsafe { sys::cl_tiled_mma_layout_tv(self.0.as_ptr(), operand.raw(), out) })
    }

    /// get_slice(thr).partition_A/B/C of a tensor with this layout: the
    /// thread's layout and its offset.
    pub fn partition(&self, operand: Operand, thr: i64, layout: &str) -> Result<(Layout, i64)> {
        let l = Layout::parse(layout)?;
        let mut offset = 0i64;
        let part = layout_out(|out| unsafe {
            sys::cl_tiled_mma_partition(self.0.as_ptr(), operand.raw(), thr, l.as_ptr(), out, &mut offset)
        })?;
        Ok((part, offset))
    }

    /// The same partition of a tensor whose layout is a composed (swizzled)
    /// layout, as CuTe gives it: the thread's offset folds into the composed
    /// layout, or a swizzle decays to a plain layout with the offset beside.
    ///
    /// ```
    /// use cutelayout::{Operand, TiledMma};
    /// let mma = TiledMma::new("SM80_16x8x16_F32F16F16F32_TN", Some("(2,2,1):(1,2,0)"), None).unwrap();
    /// let (part, offset) = mma.partition_composed(Operand::A, 5, "Sw<3,3,3> o 0 o (64,64):(64,1)").unwrap();
    /// assert_eq!((part.to_string().as_str(), offset), ("((2,2,2),2,4):((1,512,-8),2048,16)", 74));
    /// ```
    pub fn partition_composed(&self, operand: Operand, thr: i64, layout: &str) -> Result<(AnyLayout, i64)> {
        let c = ComposedLayout::parse(layout)?;
        let (mut plain, mut composed, mut offset) = (ptr::null_mut(), ptr::null_mut(), 0i64);
        let status = unsafe {
            sys::cl_tiled_mma_partition_composed(self.0.as_ptr(), operand.raw(), thr, c.as_ptr(), &mut plain,
                                                 &mut composed, &mut offset)
        };
        Ok((either(status, plain, composed)?, offset))
    }
}

impl Drop for TiledMma {
    fn drop(&mut self) {
        unsafe { sys::cl_tiled_mma_free(self.0.as_ptr()) }
    }
}

impl std::fmt::Display for TiledMma {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = formatted(|buf, cap| unsafe { sys::cl_tiled_mma_format(self.0.as_ptr(), buf, cap) });
        f.write_str(&text.map_err(|_| std::fmt::Error)?)
    }
}

/// CuTe's make_tiled_copy(copy_atom(op, type), thr, val).
pub struct TiledCopy(NonNull<sys::cl_tiled_copy_t>);

unsafe impl Send for TiledCopy {}
unsafe impl Sync for TiledCopy {}

impl TiledCopy {
    /// make_tiled_copy(copy_atom(op, value_type), thr_layout, val_layout).
    pub fn new(op: &str, value_type: &str, thr_layout: &str, val_layout: Option<&str>) -> Result<TiledCopy> {
        let (op, ty) = (text_arg(op)?, text_arg(value_type)?);
        let thr = Layout::parse(thr_layout)?;
        let val = val_layout.map(Layout::parse).transpose()?;
        let mut a = ptr::null_mut();
        check(unsafe { sys::cl_copy_atom_new(op.as_ptr(), ty.as_ptr(), &mut a) })?;
        let mut out = ptr::null_mut();
        let status = unsafe {
            sys::cl_make_tiled_copy(a, thr.as_ptr(), val.as_ref().map_or(ptr::null(), |l| l.as_ptr()), &mut out)
        };
        unsafe { sys::cl_copy_atom_free(a) };
        check(status)?;
        Ok(TiledCopy(NonNull::new(out).expect("NULL tiled copy")))
    }

    /// The number of threads.
    pub fn size(&self) -> i64 {
        unsafe { sys::cl_tiled_copy_size(self.0.as_ptr()) }
    }

    pub(crate) fn as_ptr(&self) -> *const sys::cl_tiled_copy_t {
        self.0.as_ptr()
    }

    /// Tiler_MN.
    pub fn tiler_mn(&self) -> Result<IntTuple> {
        let mut out = ptr::null_mut();
        let status = unsafe { sys::cl_tiled_copy_tiler_mn(self.0.as_ptr(), &mut out) };
        IntTuple::adopt(status, out)
    }

    /// get_layoutS_TV() or get_layoutD_TV().
    pub fn side_tv(&self, side: Side) -> Result<Layout> {
        layout_out(|out| unsafe { sys::cl_tiled_copy_side_tv(self.0.as_ptr(), side.raw(), out) })
    }

    /// get_slice(thr).partition_S/D of a tensor with this layout.
    pub fn partition(&self, side: Side, thr: i64, layout: &str) -> Result<(Layout, i64)> {
        let l = Layout::parse(layout)?;
        let mut offset = 0i64;
        let part = layout_out(|out| unsafe {
            sys::cl_tiled_copy_partition(self.0.as_ptr(), side.raw(), thr, l.as_ptr(), out, &mut offset)
        })?;
        Ok((part, offset))
    }

    /// partition_S / partition_D of a tensor whose layout is a composed
    /// (swizzled) layout, as `TiledMma::partition_composed`.
    pub fn partition_composed(&self, side: Side, thr: i64, layout: &str) -> Result<(AnyLayout, i64)> {
        let c = ComposedLayout::parse(layout)?;
        let (mut plain, mut composed, mut offset) = (ptr::null_mut(), ptr::null_mut(), 0i64);
        let status = unsafe {
            sys::cl_tiled_copy_partition_composed(self.0.as_ptr(), side.raw(), thr, c.as_ptr(), &mut plain,
                                                  &mut composed, &mut offset)
        };
        Ok((either(status, plain, composed)?, offset))
    }

    /// retile of a composed (swizzled) fragment, and the offset its data
    /// moves by.
    pub fn retile_composed(&self, layout: &str) -> Result<(AnyLayout, i64)> {
        let c = ComposedLayout::parse(layout)?;
        let (mut plain, mut composed, mut offset) = (ptr::null_mut(), ptr::null_mut(), 0i64);
        let status = unsafe {
            sys::cl_tiled_copy_retile_composed(self.0.as_ptr(), c.as_ptr(), &mut plain, &mut composed, &mut offset)
        };
        Ok((either(status, plain, composed)?, offset))
    }
}

impl Drop for TiledCopy {
    fn drop(&mut self) {
        unsafe { sys::cl_tiled_copy_free(self.0.as_ptr()) }
    }
}

impl std::fmt::Display for TiledCopy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = formatted(|buf, cap| unsafe { sys::cl_tiled_copy_format(self.0.as_ptr(), buf, cap) });
        f.write_str(&text.map_err(|_| std::fmt::Error)?)
    }
}
