// SPDX-License-Identifier: BSD-3-Clause
// Coordinate tensors: CuTe's printed forms (coord_tensor.h's examples), the
// partitions worked out by hand, value semantics and errors.
use cutelayout::{CoordTensor, IntTuple, Layout, Underscore};

#[test]
fn identity_tensor_is_its_own_coordinates() {
    let id = CoordTensor::identity("(4,8)").unwrap();
    assert_eq!(id.to_string(), "ArithTuple(0,0) o (4,8):(1@0,1@1)");
    for i in 0..32 {
        assert_eq!(id.eval(i).unwrap(), IntTuple::from((i % 4, i / 4)));
        assert_eq!(id.eval(i).unwrap(), format!("({},{})", i % 4, i / 4));
    }
    assert_eq!(id.eval_coord("(3,7)").unwrap(), "(3,7)");
    assert_eq!(id.origin().unwrap(), "(0,0)");
    assert_eq!(id.layout().unwrap(), Layout::parse("(4,8):(1@0,1@1)").unwrap());
    assert_eq!(id.slice("(_,2)").unwrap().to_string(), "ArithTuple(0,2) o (4):(1@0)");
}

#[test]
fn partitions() {
    let big = CoordTensor::identity("(8,8)").unwrap();
    assert_eq!(big.local_tile("(4,4)", "(1,0)").unwrap().to_string(), "ArithTuple(4,0) o (4,4):(1@0,1@1)");
    assert_eq!(big.outer_partition("(4,4)", "(1,0)").unwrap().to_string(), "ArithTuple(1,0) o (2,2):(4@0,4@1)");
    // thread 3 of a 2x2 thread layout sits at (1,1): every second row and column from there
    let thr = Layout::parse("(2,2):(1,2)").unwrap();
    assert_eq!(big.local_partition(&thr, 3).unwrap().to_string(), "ArithTuple(1,1) o (4,4):(2@0,2@1)");
}

#[test]
fn values_and_errors() {
    let n = CoordTensor::new("(1,2)", &Layout::parse("(2,2):(1@0,1@1)").unwrap()).unwrap();
    assert_eq!(n.eval(3).unwrap(), "(2,3)");
    let moved = n.with_layout(&Layout::parse("4:1@1").unwrap()).unwrap();
    assert_eq!(moved.to_string(), "ArithTuple(1,2) o 4:1@1");
    let copy = n.clone();
    assert_eq!(copy, n);
    assert_ne!(copy, moved);
    let plain = CoordTensor::of_layout(&Layout::parse("(2,3):(1,2)").unwrap()).unwrap();
    assert_eq!((plain.origin().unwrap(), plain.eval(4).unwrap()), (IntTuple::from(0), IntTuple::from(4)));
    // Coordinates and tilers as Rust values.
    let big = CoordTensor::identity((8, 8)).unwrap();
    assert_eq!(big.eval_coord((3, 7)).unwrap(), IntTuple::from((3, 7)));
    assert_eq!(big.local_tile((4, Layout::parse("4:1").unwrap()), (1, 0)).unwrap().to_string(),
               "ArithTuple(4,0) o (4,4):(1@0,1@1)");
    assert_eq!(big.slice((Underscore, 2)).unwrap().to_string(), "ArithTuple(0,2) o (8):(1@0)");
    assert!(CoordTensor::identity("(4,_)").is_err());
    assert!(CoordTensor::identity("(4,").is_err());
    assert!(CoordTensor::identity("(4,8)").unwrap().slice("(_,2,3)").is_err());
    assert!(CoordTensor::new("(1,_)", &Layout::parse("2:1").unwrap()).is_err());
}
