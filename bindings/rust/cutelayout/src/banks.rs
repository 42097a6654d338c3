// SPDX-License-Identifier: BSD-3-Clause
//! Shared-memory bank conflicts and the swizzle search (banks.h).
use std::ptr;

use crate::{check, sys, AnyLayout, ComposedLayout, Layout, Result, TiledCopy};

/// The instruction an access stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmemOp {
    /// `ld.shared` of 8 to 128 bits.
    Load,
    /// `st.shared` of 8 to 128 bits.
    Store,
    /// `ldmatrix`: each lane names a 16-byte row, eight rows a matrix.
    Ldmatrix,
    /// `stmatrix`: the same rows, written.
    Stmatrix,
    /// `cp.async`: its 4-, 8- or 16-byte writes to shared memory.
    CpAsync,
}

impl SmemOp {
    fn raw(self) -> sys::cl_smem_op {
        match self {
            SmemOp::Load => sys::CL_SMEM_LOAD,
            SmemOp::Store => sys::CL_SMEM_STORE,
            SmemOp::Ldmatrix => sys::CL_SMEM_LDMATRIX,
            SmemOp::Stmatrix => sys::CL_SMEM_STMATRIX,
            SmemOp::CpAsync => sys::CL_SMEM_CP_ASYNC,
        }
    }
}

/// Wavefronts on NVIDIA's model, and the fewest possible for the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BankCount {
    pub wavefronts: i64,
    pub ideal: i64,
}

/// One instruction of an access: warp `warp`'s `index`-th vector, and each
/// lane's first tile index and element offset (-1 where a lane takes no part).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BankInstruction {
    pub warp: i64,
    pub index: i64,
    pub bytes: i64,
    pub count: BankCount,
    pub tile: [i64; 32],
    pub offset: [i64; 32],
}

fn smem_fn(smem: &AnyLayout) -> sys::cl_layout_fn_t {
    let none = sys::cl_swizzle_t { bits: 0, base: 0, shift: 0 };
    match smem {
        AnyLayout::Plain(l) => sys::cl_layout_fn_t {
            fn_: sys::cl_fn { kind: sys::CL_FN_LAYOUT, swizzle: none, layout: l.as_ptr() },
            composed: ptr::null(),
        },
        AnyLayout::Composed(c) => sys::cl_layout_fn_t {
            fn_: sys::cl_fn { kind: sys::CL_FN_COMPOSED, swizzle: none, layout: ptr::null() },
            composed: c.as_ptr(),
        },
    }
}

fn access(tv: &Layout, bits: i64, op: SmemOp) -> sys::cl_smem_access_t {
    sys::cl_smem_access_t { tv: tv.as_ptr(), bits, op: op.raw(), vector_bits: 0, matrices: 0 }
}

/// Every instruction of the access `tv` (thread, value) -> tile index, of
/// `bits`-bit elements, over the shared-memory layout `smem`.
///
/// ```
/// use cutelayout::{bank_report, AnyLayout, ComposedLayout, Layout, SmemOp};
/// let rows = Layout::parse("((8,4),8):((1,64),8)")?;
/// let sw = AnyLayout::Composed(ComposedLayout::parse("Sw<3,3,3> o 0 o (8,64):(64,1)")?);
/// let report = bank_report(&rows, &sw, 16, SmemOp::Ldmatrix)?;
/// assert_eq!(report.len(), 1);
/// assert_eq!((report[0].count.wavefronts, report[0].tile[8]), (4, 64));
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub fn bank_report(tv: &Layout, smem: &AnyLayout, bits: i64, op: SmemOp) -> Result<Vec<BankInstruction>> {
    let a = access(tv, bits, op);
    let mut report = ptr::null_mut();
    check(unsafe { sys::cl_bank_conflicts(&a, smem_fn(smem), &mut report) })?;
    instructions_of(report)
}

/// The instructions of a report the library made, which it frees.
fn instructions_of(report: *mut sys::cl_bank_report_t) -> Result<Vec<BankInstruction>> {
    let mut out = Vec::new();
    let result = (|| {
        let count = unsafe { sys::cl_bank_report_count(report) };
        for i in 0..count {
            let mut raw = sys::cl_bank_instruction_t { warp: 0, index: 0, bytes: 0, wavefronts: 0, ideal: 0 };
            check(unsafe { sys::cl_bank_report_instruction(report, i, &mut raw) })?;
            let (mut tile, mut offset) = ([0i64; 32], [0i64; 32]);
            for lane in 0..32 {
                check(unsafe {
                    sys::cl_bank_report_lane(report, i, lane as i64, &mut tile[lane], &mut offset[lane])
                })?;
            }
            out.push(BankInstruction {
                warp: raw.warp,
                index: raw.index,
                bytes: raw.bytes,
                count: BankCount { wavefronts: raw.wavefronts, ideal: raw.ideal },
                tile,
                offset,
            });
        }
        Ok(())
    })();
    unsafe { sys::cl_bank_report_free(report) };
    result.map(|()| out)
}

/// `bank_conflicts(tiled_copy, L)`: every instruction of a tiled copy over
/// one tile, on its shared-memory side (the source of `ldmatrix`, the
/// destination of `stmatrix` and `cp.async`, otherwise the source).
///
/// ```
/// use cutelayout::{tiled_copy_bank_report, AnyLayout, Layout, TiledCopy};
/// let cp = TiledCopy::new("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(16,8):(8,1)", Some("(1,8):(0,1)"))?;
/// let report = tiled_copy_bank_report(&cp, &AnyLayout::Plain(Layout::parse("(16,64):(64,1)")?))?;
/// assert_eq!((report.len(), report[0].bytes, report[0].count.wavefronts), (4, 16, 4));
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub fn tiled_copy_bank_report(copy: &TiledCopy, smem: &AnyLayout) -> Result<Vec<BankInstruction>> {
    let mut report = ptr::null_mut();
    check(unsafe { sys::cl_bank_conflicts_tiled_copy(copy.as_ptr(), smem_fn(smem), &mut report) })?;
    instructions_of(report)
}

/// `bank_conflicts(tiled_copy, L)`: the totals of a tiled copy's own
/// instructions.
///
/// ```
/// use cutelayout::{tiled_copy_bank_conflicts, AnyLayout, ComposedLayout, Layout, TiledCopy};
/// // 16-byte cp.async writes, eight threads down a column of 128-byte rows
/// let cp = TiledCopy::new("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(16,8):(1,16)", Some("(1,8):(0,1)"))?;
/// let plain = tiled_copy_bank_conflicts(&cp, &AnyLayout::Plain(Layout::parse("(16,64):(64,1)")?))?;
/// assert_eq!((plain.wavefronts, plain.ideal), (128, 16));
/// let sw = AnyLayout::Composed(ComposedLayout::parse("Sw<3,3,3> o 0 o (16,64):(64,1)")?);
/// assert_eq!(tiled_copy_bank_conflicts(&cp, &sw)?.wavefronts, 16);
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub fn tiled_copy_bank_conflicts(copy: &TiledCopy, smem: &AnyLayout) -> Result<BankCount> {
    let report = tiled_copy_bank_report(copy, smem)?;
    Ok(report.iter().fold(BankCount { wavefronts: 0, ideal: 0 }, |t, i| BankCount {
        wavefronts: t.wavefronts + i.count.wavefronts,
        ideal: t.ideal + i.count.ideal,
    }))
}

/// CuTe-style `bank_conflicts(tv, L, bits)` for instruction `op`: the totals.
///
/// ```
/// use cutelayout::{bank_conflicts, AnyLayout, Layout, SmemOp};
/// let rows = Layout::parse("((8,4),8):((1,64),8)")?;
/// let plain = AnyLayout::Plain(Layout::parse("(8,64):(64,1)")?);
/// let c = bank_conflicts(&rows, &plain, 16, SmemOp::Ldmatrix)?;
/// assert_eq!((c.wavefronts, c.ideal), (32, 4));
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub fn bank_conflicts(tv: &Layout, smem: &AnyLayout, bits: i64, op: SmemOp) -> Result<BankCount> {
    let a = access(tv, bits, op);
    let mut report = ptr::null_mut();
    check(unsafe { sys::cl_bank_conflicts(&a, smem_fn(smem), &mut report) })?;
    let mut count = BankCount { wavefronts: 0, ideal: 0 };
    let status = unsafe { sys::cl_bank_report_totals(report, &mut count.wavefronts, &mut count.ideal) };
    unsafe { sys::cl_bank_report_free(report) };
    check(status).map(|()| count)
}

/// One instruction from its 32 lanes' byte addresses (-1: none).
///
/// ```
/// use cutelayout::{smem_wavefronts, SmemOp};
/// assert_eq!(smem_wavefronts(SmemOp::Load, &[256; 32], 16)?.wavefronts, 2);
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub fn smem_wavefronts(op: SmemOp, lanes: &[i64; 32], bytes: i64) -> Result<BankCount> {
    let mut count = BankCount { wavefronts: 0, ideal: 0 };
    check(unsafe {
        sys::cl_smem_wavefronts(op.raw(), lanes.as_ptr(), bytes, &mut count.wavefronts, &mut count.ideal)
    })?;
    Ok(count)
}

/// `swizzle_search`: `Sw<B,M,S> o 0 o smem` with the fewest wavefronts for
/// all the accesses (each a TV layout and its instruction).
///
/// ```
/// use cutelayout::{swizzle_search, Layout, SmemOp};
/// let rows = Layout::parse("((8,4),8):((1,64),8)")?;
/// let found = swizzle_search(&Layout::parse("(8,64):(64,1)")?, 16, &[(&rows, SmemOp::Ldmatrix)])?;
/// assert_eq!(found.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub fn swizzle_search(smem: &Layout, bits: i64, accesses: &[(&Layout, SmemOp)]) -> Result<ComposedLayout> {
    let raw: Vec<sys::cl_smem_access_t> = accesses.iter().map(|(tv, op)| access(tv, bits, *op)).collect();
    let mut best = sys::cl_swizzle_t { bits: 0, base: 0, shift: 0 };
    check(unsafe {
        sys::cl_swizzle_search(smem.as_ptr(), raw.as_ptr(), raw.len() as i64, &mut best, ptr::null_mut(), ptr::null_mut())
    })?;
    ComposedLayout::parse(&format!("Sw<{},{},{}> o 0 o {}", best.bits, best.base, best.shift, smem))
}

/// `swizzle_search_padded`: as [`swizzle_search`], and where no swizzle is
/// conflict-free, `smem` with its leading stride padded (smallest padding
/// first) when that takes fewer wavefronts: a plain layout then.
///
/// ```
/// use cutelayout::{swizzle_search_padded, AnyLayout, Layout, SmemOp};
/// let (column, mixed) = (Layout::parse("(32,1):(32,0)")?, Layout::parse("((2,2,2,2,2),1):((33,1,4,8,16),0)")?);
/// let smem = Layout::parse("(32,32):(32,1)")?;
/// let found = swizzle_search_padded(&smem, 32, &[(&column, SmemOp::Load), (&mixed, SmemOp::Load)])?;
/// assert!(matches!(&found, AnyLayout::Plain(l) if l.to_string() == "(32,32):(33,1)"));
/// # Ok::<(), cutelayout::Error>(())
/// ```
pub fn swizzle_search_padded(smem: &Layout, bits: i64, accesses: &[(&Layout, SmemOp)]) -> Result<AnyLayout> {
    let raw: Vec<sys::cl_smem_access_t> = accesses.iter().map(|(tv, op)| access(tv, bits, *op)).collect();
    let none = sys::cl_swizzle_t { bits: 0, base: 0, shift: 0 };
    let mut choice =
        sys::cl_smem_choice_t { swizzle: none, leading: 0, padding: 0, wavefronts: 0, ideal: 0, cosize: 0 };
    let mut chosen = ptr::null_mut();
    check(unsafe {
        sys::cl_swizzle_search_padded(smem.as_ptr(), raw.as_ptr(), raw.len() as i64, &mut choice, &mut chosen)
    })?;
    let layout = unsafe { Layout::from_raw(chosen) }.expect("the library reported success with a NULL layout");
    if choice.padding > 0 {
        return Ok(AnyLayout::Plain(layout));
    }
    let sw = choice.swizzle;
    Ok(AnyLayout::Composed(ComposedLayout::parse(&format!("Sw<{},{},{}> o 0 o {}", sw.bits, sw.base, sw.shift, smem))?))
}
