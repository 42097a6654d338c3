// SPDX-License-Identifier: BSD-3-Clause
//! Mirrors bindings/python/test_cutelayout.py.
use cutelayout::{sys, Layout};

/// layout(i) from the definition: split i colexicographically over the flat
/// shape (the last mode takes what is left), inner product with the stride.
fn by_definition(shape: &[i64], stride: &[i64], mut i: i64) -> i64 {
    let mut index = 0;
    for (k, (&s, &d)) in shape.iter().zip(stride).enumerate() {
        let c = if k == shape.len() - 1 { i } else { i % s };
        i /= s;
        index += c * d;
    }
    index
}

fn text(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    format!("({})", items.join(","))
}

#[test]
fn abi_and_version() {
    assert!(cutelayout::abi_compatible());
    let v = cutelayout::version();
    assert_eq!(v.split('.').count(), 3, "{}", v);
    if let Ok(expected) = std::env::var("CUTELAYOUT_EXPECTED_VERSION") {
        assert_eq!(v, expected);
    }
}

#[test]
fn text_round_trip() {
    for t in ["8:1", "(2,4):(1,2)", "(2,(2,2)):(4,(2,1))", "((2,3),4):((1,2),6)", "(8):(1)"] {
        assert_eq!(Layout::parse(t).unwrap().to_string(), t);
    }
    let l: Layout = " ( 2 , 4 ) : ( 1 , 2 ) ".parse().unwrap();
    assert_eq!(l.to_string(), "(2,4):(1,2)");
    assert_eq!(format!("{:?}", l), "Layout((2,4):(1,2))");
}

#[test]
fn eval_is_the_definition() {
    let mut checked = 0;
    for rank in 1..=2usize {
        for shape_code in 0..3i64.pow(rank as u32) {
            for stride_code in 0..5i64.pow(rank as u32) {
                let shape: Vec<i64> = (0..rank).map(|k| shape_code / 3i64.pow(k as u32) % 3 + 1).collect();
                let stride: Vec<i64> = (0..rank).map(|k| stride_code / 5i64.pow(k as u32) % 5).collect();
                let l = Layout::new(&text(&shape), &text(&stride)).unwrap();
                for i in 0..l.size() {
                    assert_eq!(l.eval(i).unwrap(), by_definition(&shape, &stride, i), "{} at {}", l, i);
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 3 * 5 + 9 * 25);
}

#[test]
fn coordinates_and_queries() {
    let l = Layout::parse("(2,(2,2)):(4,(2,1))").unwrap();
    let all: Vec<i64> = (0..8).map(|i| l.eval(i).unwrap()).collect();
    assert_eq!(all, vec![0, 4, 2, 6, 1, 5, 3, 7]);
    assert_eq!(l.eval_coord("(1,(1,0))").unwrap(), 6);
    assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (8, 8, 2, 2));
    assert_eq!(l.mode(&[1]).unwrap().to_string(), "(2,2):(2,1)");
    assert_eq!(l.mode(&[1, 0]).unwrap().to_string(), "2:2");
    let s = Layout::parse("8:2").unwrap();
    assert_eq!((s.size(), s.cosize(), s.rank(), s.depth()), (8, 15, 1, 0));
}

#[test]
fn constructors_clone_equality() {
    assert_eq!(Layout::new("(2,4)", "(1,2)").unwrap().to_string(), "(2,4):(1,2)");
    assert_eq!(Layout::left("(2,(3,4))").unwrap().to_string(), "(2,(3,4)):(1,(2,6))");
    let a = Layout::parse("(2,4):(1,2)").unwrap();
    let b = a.clone();
    drop(a);
    assert_eq!(b, Layout::new("(2,4)", "(1,2)").unwrap());
    assert_ne!(b, Layout::parse("(2,4):(4,1)").unwrap());
}

#[test]
fn errors_carry_status_and_detail() {
    let e = Layout::parse("(2,4):(1,2").unwrap_err();
    assert_eq!(e.status, sys::CL_E_PARSE);
    assert_eq!(e.message, "malformed text");
    assert!(e.detail.contains("column"), "{}", e.detail);
    assert!(e.to_string().contains(&e.detail));
    for t in ["", "(2,4)", "(2,4):(1,2,3)", "(2,4):(1,a)", "((((2))", ")", "8:\u{0}1"] {
        let e = Layout::parse(t).unwrap_err();
        assert!(e.status < 0 && !e.detail.is_empty(), "{:?}: {:?}", t, e);
    }
    assert!(Layout::new("(2,4)", "(1,2,3)").is_err());
    let e = Layout::parse("(2,4):(1,2)").unwrap().eval_coord("(1,2,3)").unwrap_err();
    assert_eq!(e.status, sys::CL_E_RANK);
    assert!(Layout::parse("(2,4):(1,2)").unwrap().mode(&[5]).is_err());
}

#[test]
fn layouts_cross_threads() {
    let l = std::sync::Arc::new(Layout::parse("(4,8):(8,1)").unwrap());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let l = l.clone();
            std::thread::spawn(move || (0..32).map(|i| l.eval(i).unwrap()).sum::<i64>())
        })
        .collect();
    for h in handles {
        assert_eq!(h.join().unwrap(), (0..32).sum::<i64>());
    }
}
