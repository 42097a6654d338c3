// SPDX-License-Identifier: BSD-3-Clause
//! Drop frees the handle: count the library's live allocations through its
//! allocator hook.  A test binary of its own, because the hook is process-wide
//! and must be set before any other library call.
use std::alloc::{alloc, dealloc, realloc, Layout as MemLayout};
use std::os::raw::c_void;
use std::sync::atomic::{AtomicI64, Ordering};

use cutelayout::{sys, Layout};

static LIVE: AtomicI64 = AtomicI64::new(0);
const HEADER: usize = 16; // keeps the block 16-byte aligned, holds its size

fn mem(size: usize) -> MemLayout {
    MemLayout::from_size_align(size + HEADER, HEADER).unwrap()
}

unsafe extern "C" fn count_alloc(_ctx: *mut c_void, size: usize) -> *mut c_void {
    let p = alloc(mem(size));
    if p.is_null() {
        return p as *mut c_void;
    }
    *(p as *mut usize) = size;
    LIVE.fetch_add(1, Ordering::SeqCst);
    p.add(HEADER) as *mut c_void
}

unsafe extern "C" fn count_free(_ctx: *mut c_void, ptr: *mut c_void) {
    if ptr.is_null() {
        return;
    }
    let p = (ptr as *mut u8).sub(HEADER);
    dealloc(p, mem(*(p as *mut usize)));
    LIVE.fetch_sub(1, Ordering::SeqCst);
}

unsafe extern "C" fn count_realloc(ctx: *mut c_void, ptr: *mut c_void, size: usize) -> *mut c_void {
    if ptr.is_null() {
        return count_alloc(ctx, size);
    }
    let p = (ptr as *mut u8).sub(HEADER);
    let q = realloc(p, mem(*(p as *mut usize)), size + HEADER);
    if q.is_null() {
        return q as *mut c_void;
    }
    *(q as *mut usize) = size;
    q.add(HEADER) as *mut c_void
}

#[test]
fn drop_returns_every_allocation() {
    let hooks = sys::cl_allocator {
        alloc: Some(count_alloc),
        realloc: Some(count_realloc),
        free: Some(count_free),
        ctx: std::ptr::null_mut(),
    };
    assert_eq!(unsafe { sys::cl_set_allocator(&hooks) }, sys::CL_OK);

    let before = LIVE.load(Ordering::SeqCst);
    {
        let a = Layout::parse("(2,(2,2)):(4,(2,1))").unwrap();
        let b = a.clone();
        let m = a.mode(&[1]).unwrap();
        let n = Layout::new("(2,4)", "(1,2)").unwrap();
        assert!(LIVE.load(Ordering::SeqCst) >= before + 4, "each handle is an allocation");
        assert!(Layout::parse("(2,").is_err());
        let _ = (b.to_string(), m.eval(1), n.eval_coord("(1,1)"));
    }
    assert_eq!(LIVE.load(Ordering::SeqCst), before, "a handle leaked");

    assert_eq!(unsafe { sys::cl_set_allocator(std::ptr::null()) }, sys::CL_OK);
}
