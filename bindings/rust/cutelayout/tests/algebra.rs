// SPDX-License-Identifier: BSD-3-Clause
//! Mirrors the algebra tests of bindings/python/test_cutelayout.py.
use cutelayout::{composition, sys, Layout};

fn l(text: &str) -> Layout {
    Layout::parse(text).unwrap()
}

#[test]
fn composition_is_function_composition() {
    // Strong divisibility (powers of two) and B single-mode or compact: see the Python test.
    let r#as = ["(4,8):(8,1)", "(2,(2,4)):(16,(1,4))", "32:3", "(8,4):(1,8)"];
    let mut bs = Vec::new();
    for s in [1, 2, 4, 8] {
        for d in [0, 1, 2, 4, 8] {
            bs.push(Layout::new(&s.to_string(), &d.to_string()).unwrap());
        }
    }
    for s0 in [1, 2, 4] {
        for s1 in [1, 2, 4] {
            bs.push(Layout::new(&format!("({},{})", s0, s1), &format!("(1,{})", s0)).unwrap());
            bs.push(Layout::new(&format!("({},{})", s0, s1), &format!("({},1)", s1)).unwrap());
        }
    }
    for a in r#as.iter().map(|t| l(t)) {
        for b in &bs {
            let r = composition(&a, b).unwrap();
            for i in 0..b.size() {
                assert_eq!(r.eval(i).unwrap(), a.eval(b.eval(i).unwrap()).unwrap(), "composition({}, {}) = {}", a, b, r);
            }
        }
    }
}

#[test]
fn cute_examples() {
    assert_eq!(l("20:2").compose(&l("(5,4):(4,1)")).unwrap().to_string(), "(5,4):(8,2)");
    assert_eq!(l("(10,2):(16,4)").compose(&l("(5,4):(1,5)")).unwrap().to_string(), "(5,(2,2)):(16,(80,4))");
    assert_eq!(l("(6,2):(8,2)").compose(&l("(4,3):(3,1)")).unwrap().to_string(), "((2,2),3):((24,2),8)");
    assert_eq!(l("(4,8):(8,1)").compose(&l("4:2")).unwrap().to_string(), "(2,2):(16,1)");
    assert_eq!(
        l("(12,(4,8)):(59,(13,1))").compose_tiler("(3,8)").unwrap(),
        l("(12,(4,8)):(59,(13,1))").compose_tiler("(3:1,8:1)").unwrap()
    );
    assert_eq!(l("(2,2):(1,6)").complement(None).unwrap().to_string(), "3:2");
    assert_eq!(l("4:1").complement(Some(24)).unwrap().to_string(), "6:4");
    assert_eq!(l("(2,2):(1,6)").complement(Some(24)).unwrap().to_string(), "(3,2):(2,12)");
    assert_eq!(l("(4,2,3):(2,1,8)").logical_divide(&l("4:2")).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(l("(2,2):(4,1)").logical_product(&l("6:1")).unwrap().to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(l("(2,(1,6)):(1,(6,2))").coalesce().unwrap().to_string(), "12:1");
}

#[test]
fn inverses() {
    for t in ["(4,8):(8,1)", "(2,(2,4)):(16,(1,4))", "(8,4):(1,8)"] {
        let a = l(t);
        let r = a.right_inverse().unwrap();
        for i in 0..r.size() {
            assert_eq!(a.eval(r.eval(i).unwrap()).unwrap(), i, "right_inverse({}) = {}", a, r);
        }
        let li = a.left_inverse().unwrap();
        for i in 0..a.size() {
            assert_eq!(li.eval(a.eval(i).unwrap()).unwrap(), i, "left_inverse({}) = {}", a, li);
        }
    }
}

#[test]
fn errors() {
    let e = l("(4,3):(3,1)").compose(&l("2:6")).unwrap_err();
    assert_eq!(e.status, sys::CL_E_DIVISIBILITY);
    assert!(!e.detail.is_empty());
    let e = l("(2,2):(1,1)").complement(Some(8)).unwrap_err();
    assert_eq!(e.status, sys::CL_E_NOT_INJECTIVE);
}
