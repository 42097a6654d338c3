// SPDX-License-Identifier: BSD-3-Clause
// Tiled MMAs and copies: CuTe's answers (tests/cute_atoms.tsv has them from
// CuTe itself) and errors.
use cutelayout::{Operand, Side, TiledCopy, TiledMma};

#[test]
fn tiled_mma() {
    let mma = TiledMma::new("SM80_16x8x16_F32F16F16F32_TN", Some("(2,2,1):(1,2,0)"), None).unwrap();
    assert_eq!(mma.size(), 128);
    assert_eq!(mma.thr_layout_vmnk().unwrap().to_string(), "(32,2,2,1):(1,32,64,0)");
    assert_eq!(
        mma.layout_tv(Operand::A).unwrap().to_string(),
        "((4,8,2,2),((2,2,2),(1,1))):((64,1,16,0),((32,8,256),(0,0)))"
    );
    assert_eq!(mma.layout_tv(Operand::C).unwrap().size(), 512);
    assert!(mma.partition(Operand::B, 128, "(64,32):(1,64)").is_err());
    assert!(TiledMma::new("SM80_16x8x16_F32F16F16F32_TM", None, None).is_err());
    let perm = TiledMma::new("SM80_16x8x16_F32F16F16F32_TN", Some("(2,2,1):(1,2,0)"), Some("(_,32,_)")).unwrap();
    assert_eq!(perm.tile_shape().unwrap(), "(32,32,16)");
}

#[test]
fn tiled_copy() {
    let c = TiledCopy::new("UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", Some("(1,8):(0,1)")).unwrap();
    assert_eq!(c.to_string(), "make_tiled_copy(copy_atom(UniversalCopy<uint128_t>,half_t),(32,8):(8,1),(1,8):(0,1))");
    assert_eq!(c.size(), 256);
    assert_eq!(c.tiler_mn().unwrap(), "(32,64)");
    assert_eq!(c.side_tv(Side::Src).unwrap().to_string(), "((8,32),(8,1)):((256,1),(32,0))");
    let (part, offset) = c.partition(Side::Dst, 3, "(128,64):(64,1)").unwrap();
    assert_eq!((part.to_string().as_str(), offset), ("((8,1),4,1):((1,0),2048,0)", 24));
    assert!(TiledCopy::new("SM75_U32x4_LDSM_N", "double", "(32,1):(1,0)", None).is_err());
}

// bank_conflicts(tiled_copy, L): the CLI's answers for the suite's cp.async
// pairs (docs/bank-conflicts.md), and the report's instructions summing to them.
#[test]
fn tiled_copy_banks() {
    use cutelayout::{tiled_copy_bank_conflicts, tiled_copy_bank_report, AnyLayout, ComposedLayout, Layout};
    let rows = AnyLayout::Plain(Layout::parse("(16,64):(64,1)").unwrap());
    let along = TiledCopy::new("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(16,8):(8,1)", Some("(1,8):(0,1)")).unwrap();
    let c = tiled_copy_bank_conflicts(&along, &rows).unwrap();
    assert_eq!((c.wavefronts, c.ideal), (16, 16));
    let down = TiledCopy::new("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(16,8):(1,16)", Some("(1,8):(0,1)")).unwrap();
    let report = tiled_copy_bank_report(&down, &rows).unwrap();
    assert_eq!(report.len(), 4);
    assert_eq!(report.iter().map(|i| i.count.wavefronts).sum::<i64>(), 128);
    assert_eq!(report[0].offset[1], 64);
    let sw = AnyLayout::Composed(ComposedLayout::parse("Sw<3,3,3> o 0 o (16,64):(64,1)").unwrap());
    assert_eq!(tiled_copy_bank_conflicts(&down, &sw).unwrap().wavefronts, 16);
    assert!(tiled_copy_bank_conflicts(&down, &AnyLayout::Plain(Layout::parse("8:1").unwrap())).is_err());
}
