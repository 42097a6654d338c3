// SPDX-License-Identifier: BSD-3-Clause
//! Issue 23: typed IntTuples, coordinates and tilers; text with a NUL; shapes
//! with negative extents.  Expected values are CuTe's (compiled with CuTe
//! C++, every integer static) or follow from the canonical text.
use std::collections::HashSet;

use cutelayout::{sys, IntTuple, IntoTuple, Kind, Layout, Underscore};

fn lay(text: &str) -> Layout {
    text.parse().unwrap()
}

#[test]
fn built_from_rust_values_prints_the_canonical_text() {
    assert_eq!(IntTuple::from(8).to_string(), "8");
    assert_eq!(IntTuple::from(-3i64).to_string(), "-3");
    assert_eq!(IntTuple::from((2, (3, 4))).to_string(), "(2,(3,4))");
    assert_eq!(IntTuple::from([2, 3, 4]).to_string(), "(2,3,4)");
    assert_eq!(IntTuple::from(vec![8]).to_string(), "(8)");
    assert_eq!(IntTuple::from(Vec::<i64>::new()).to_string(), "()");
    assert_eq!(IntTuple::from((Underscore, 2)).to_string(), "(_,2)");
    assert_eq!(IntTuple::from((2, lay("3:2"), Underscore)).to_string(), "(2,3:2,_)");
    assert_eq!(IntTuple::from(([1, 2], vec![(3, 4)])).to_string(), "((1,2),((3,4)))");
    assert_eq!(format!("{:?}", IntTuple::from((2, 3))), "IntTuple((2,3))");
}

#[test]
fn equality_parsing_and_structure() {
    let t: IntTuple = " ( 2 , ( 3 , 4 ) ) ".parse().unwrap();
    assert_eq!(t, IntTuple::from((2, (3, 4))));
    assert_eq!(t, "(2,(3,4))");
    assert_ne!(t, "(2,3,4)");
    assert_ne!(IntTuple::from(vec![8]), IntTuple::from(8));
    assert_eq!((t.kind(), t.rank(), t.depth()), (Kind::Tuple, 2, 2));
    assert_eq!(t.get(0).unwrap().value(), Some(2));
    assert_eq!(t.get(1).unwrap(), IntTuple::from((3, 4)));
    assert!(t.get(2).is_none());
    assert_eq!(t.elements().len(), 2);
    assert_eq!(IntTuple::from(Underscore).kind(), Kind::Underscore);
    let tiler = IntTuple::from((lay("3:2"), 4));
    assert_eq!(tiler.get(0).unwrap().kind(), Kind::Layout);
    assert_eq!(tiler.get(0).unwrap().layout().unwrap(), lay("3:2"));
    assert_eq!(IntTuple::parse("1@0").unwrap().kind(), Kind::Basis);
    let set: HashSet<IntTuple> = ["(2,3)", " (2, 3)", "(3,2)"].iter().map(|s| s.parse().unwrap()).collect();
    assert_eq!(set.len(), 2);
    assert_eq!(t.clone(), t);
    assert_eq!("(2,3)".into_tuple().unwrap(), IntTuple::from((2, 3)));
    assert_eq!(String::from("(2,3)").into_tuple().unwrap(), IntTuple::from((2, 3)));
    let e = IntTuple::parse("(2,").unwrap_err();
    assert_eq!(e.status, sys::CL_E_PARSE);
}

#[test]
fn queries_return_int_tuples() {
    let l = lay("(2,(2,2)):(4,(2,1))");
    let shape: IntTuple = l.shape().unwrap();
    assert_eq!(shape, IntTuple::from((2, (2, 2))));
    assert_eq!(l.stride().unwrap(), IntTuple::from((4, (2, 1))));
    assert_eq!(l.coshape().unwrap(), IntTuple::from(8));
    assert_eq!(lay("(4,8):(1@0,1@1)").stride().unwrap().get(1).unwrap(), "1@1");
}

#[test]
fn coordinates_are_values_or_text() {
    let l = lay("(2,(2,2)):(4,(2,1))");
    assert_eq!(l.eval_coord((1, (1, 0))).unwrap(), 6);
    assert_eq!(l.eval_coord([1, 3]).unwrap(), l.eval_coord("(1,3)").unwrap());
    assert_eq!(l.eval_coord(5).unwrap(), l.eval(5).unwrap());
}

#[test]
fn tilers_mix_integers_layouts_and_underscores() {
    // CuTe: logical_divide(L, make_tile(_2{}, Layout<_3,_2>{}, _)) etc.
    let l = lay("(8,6,4):(1,8,48)");
    let mixed = (2, lay("3:2"), Underscore);
    assert_eq!(l.logical_divide_tiler(mixed.clone_tuple()).unwrap().to_string(),
               "((2,4),(3,2),4):((1,2),(16,8),48)");
    assert_eq!(l.compose_tiler((2, lay("3:2"), Underscore)).unwrap().to_string(), "(2,3,4):(1,16,48)");
    assert_eq!(l.zipped_divide_tiler((2, lay("3:2"))).unwrap().to_string(), "((2,3),(4,2,4)):((1,16),(2,8,48))");
    assert_eq!(l.flat_divide_tiler((2, lay("3:2"))).unwrap().to_string(), "(2,3,4,2,4):(1,16,2,8,48)");
    assert_eq!(l.logical_product_tiler((2, lay("3:2"))).unwrap().to_string(), "((8,2),(6,3),4):((1,8),(8,2),48)");
    assert_eq!(l.zipped_product_tiler([lay("2:1"), lay("3:2")]).unwrap().to_string(),
               "((8,6),(2,3,4)):((1,8),(8,2,48))");
    assert_eq!(l.logical_divide_tiler((2, lay("3:2"), Underscore)).unwrap(), l.logical_divide_tiler("(2,3:2,_)").unwrap());
    // CuTe rejects zipped_divide with `_` over a rank-1 mode (zip2_by's "Mismatched Ranks").
    assert_eq!(l.zipped_divide_tiler((2, 3, Underscore)).unwrap_err().status, sys::CL_E_RANK);
}

trait CloneTuple {
    fn clone_tuple(&self) -> IntTuple;
}

impl CloneTuple for (i32, Layout, Underscore) {
    fn clone_tuple(&self) -> IntTuple {
        IntTuple::from((self.0, &self.1, self.2))
    }
}

#[test]
fn text_with_a_nul_is_refused() {
    for text in ["8:1\0junk", "\0"] {
        let e = Layout::parse(text).unwrap_err();
        assert_eq!(e.status, sys::CL_E_PARSE);
        assert!(e.detail.contains("NUL"), "{}", e.detail);
        assert_eq!(IntTuple::parse(text).unwrap_err().status, sys::CL_E_PARSE);
    }
    assert!(text_parse_error(lay("8:1").compose_tiler("(2)\0,junk")));
    assert!(text_parse_error(Layout::new("(2,4)\0", "(1,2)")));
}

fn text_parse_error(r: cutelayout::Result<Layout>) -> bool {
    matches!(r, Err(e) if e.status == sys::CL_E_PARSE)
}

#[test]
fn negative_extents_are_refused() {
    for r in [Layout::parse("-4:1"), Layout::left(-4), Layout::left((2, -3)), Layout::new((2, -3), (1, 2)),
              Layout::parse("(2,(3,-1)):(1,(2,6))")] {
        let e = r.unwrap_err();
        assert_eq!(e.status, sys::CL_E_DOMAIN);
        assert!(e.detail.contains("negative extent"), "{}", e.detail);
    }
    assert_eq!(lay("8:1").logical_divide_tiler(-2).unwrap_err().status, sys::CL_E_DOMAIN);
    // 0 is an empty mode, as in CuTe; strides may be negative.
    assert_eq!(Layout::left(0).unwrap().to_string(), "0:1");
    assert_eq!(Layout::new((2, 4), (-1, 2)).unwrap().to_string(), "(2,4):(-1,2)");
}
