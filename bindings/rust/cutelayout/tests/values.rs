// SPDX-License-Identifier: BSD-3-Clause
//! Hash, the queries, swizzles and composed layouts, tensors and copies
//! through the safe crate (values from CuTe's documented examples and the
//! definitions, checked exhaustively on small layouts).
use std::collections::HashSet;

use cutelayout::{copy, AnyLayout, ComposedLayout, Layout, Swizzle, Tensor, TensorMut};

fn lay(text: &str) -> Layout {
    text.parse().unwrap()
}

#[test]
fn hash_follows_equality() {
    let set: HashSet<Layout> = ["(2,4):(1,2)", " (2,4) : (1,2) ", "(2,4):(4,1)"].iter().map(|t| lay(t)).collect();
    assert_eq!(set.len(), 2);
}

#[test]
fn queries() {
    let l = lay("(2,(2,2)):(4,(2,1))");
    assert_eq!(l.shape().unwrap(), "(2,(2,2))");
    assert_eq!(l.stride().unwrap(), "(4,(2,1))");
    assert_eq!(l.indices().unwrap(), (0..8).map(|i| l.eval(i).unwrap()).collect::<Vec<_>>());
    assert!(!l.is_coordinate());
    assert!(lay("(4,8):(1@0,1@1)").is_coordinate());
}

#[test]
fn divides_and_products_keep_the_function() {
    // zipped/tiled/flat forms are rearrangements of logical_divide/product: same values in order.
    let a = lay("(8,6):(1,8)");
    let b = lay("(2,3):(1,2)");
    let logical = a.logical_divide(&b).unwrap().coalesce().unwrap();
    for d in [a.zipped_divide(&b), a.tiled_divide(&b), a.flat_divide(&b)] {
        let d = d.unwrap();
        assert_eq!(d.size(), a.size());
        assert_eq!(d.coalesce().unwrap().indices().unwrap().len(), logical.indices().unwrap().len());
    }
    assert_eq!(a.zipped_divide_tiler("(2,3)").unwrap().rank(), 2);
    let p = lay("(2,2):(1,2)").blocked_product(&lay("(3,4):(1,3)")).unwrap();
    assert_eq!((p.size(), p.cosize()), (48, 48));
    assert!(lay("(4,3):(3,1)").compose(&lay("2:6")).is_err()); // CuTe's divisibility condition
    assert_eq!(lay("(4,8):(1,4)").upcast(4).unwrap().to_string(), "(1,8):(1,1)");
    assert_eq!(lay("(4,8):(1,4)").max_common_vector(&lay("32:1")).unwrap(), 32);
}

#[test]
fn swizzles_and_composed_layouts() {
    let sw: Swizzle = "Sw<2,0,2>".parse().unwrap();
    for x in 0..16 {
        assert_eq!(sw.apply(x).unwrap(), x ^ ((x >> 2) & 3));
    }
    assert!("Sw<2,0,1>".parse::<Swizzle>().is_err()); // |S| must be >= B
    let c: ComposedLayout = "Sw<2,0,2> o 0 o (4,4):(4,1)".parse().unwrap();
    let inner = lay("(4,4):(4,1)");
    for i in 0..16 {
        assert_eq!(c.eval(i).unwrap(), sw.apply(inner.eval(i).unwrap()).unwrap());
    }
    assert_eq!(c.clone(), c);
    match c.right_inverse().unwrap() {
        AnyLayout::Composed(r) => assert_eq!(r.size().unwrap(), 16),
        AnyLayout::Plain(r) => assert_eq!(r.size(), 16),
    }
}

#[test]
fn tensors_copy_by_layout() {
    let a: Vec<u16> = (0..24).collect();
    let mut b = vec![0u16; 24];
    let (row, col) = (lay("(4,6):(6,1)"), lay("(4,6):(1,4)"));
    let src = Tensor::new(&a, &row).unwrap();
    let mut dst = TensorMut::new(&mut b, &col).unwrap();
    copy(&mut dst, &src).unwrap();
    for i in 0..24 {
        assert_eq!(*dst.get(i).unwrap(), *src.get(i).unwrap());
    }
    drop(dst);
    for i in 0..24 {
        assert_eq!(b[col.eval(i).unwrap() as usize], a[row.eval(i).unwrap() as usize]);
    }
    let mut small = vec![0u16; 8];
    let mut wrong = TensorMut::new(&mut small, &lay("8:1")).unwrap();
    assert!(copy(&mut wrong, &src).is_err()); // sizes differ
}
