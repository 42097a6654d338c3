// SPDX-License-Identifier: BSD-3-Clause
//! Raw declarations of libcutelayout's C API (`<cutelayout/cutelayout.h>`):
//! the functions the safe `cutelayout` crate and most programs need.  Every
//! function is `unsafe` to call; the rules are the C header's: results come
//! through the last (out) parameter and are NULL on failure, the caller frees
//! each handle with the matching `_free`, and handles are immutable, so any
//! number of threads may read one.
//!
//! The ABI is libcutelayout.so.1 (`CL_ABI_VERSION`); check
//! [`cl_abi_version`] and [`cl_abi_minor`] at start-up when the library may
//! be older than these declarations.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int};

/// The ABI these declarations describe (common.h's CL_ABI_VERSION / CL_ABI_MINOR).
pub const CL_ABI_VERSION: c_int = 1;
pub const CL_ABI_MINOR: c_int = 0;

/// `cl_status`: 0 is success, each failure a distinct negative code.
pub type cl_status = c_int;
pub const CL_OK: cl_status = 0;
pub const CL_E_NULL: cl_status = -1;
pub const CL_E_NOMEM: cl_status = -2;
pub const CL_E_PARSE: cl_status = -3;
pub const CL_E_OVERFLOW: cl_status = -4;
pub const CL_E_RANK: cl_status = -5;
pub const CL_E_DIVISIBILITY: cl_status = -6;
pub const CL_E_DOMAIN: cl_status = -7;
pub const CL_E_TYPE: cl_status = -8;
pub const CL_E_NOT_INJECTIVE: cl_status = -9;
pub const CL_E_LIMIT: cl_status = -10;
pub const CL_E_UNSUPPORTED: cl_status = -11;

/// Opaque handle of a layout (`cl_layout_t`).
#[repr(C)]
pub struct cl_layout_t {
    _private: [u8; 0],
}

/// Opaque handle of an int tuple (`cl_tuple_t`).
#[repr(C)]
pub struct cl_tuple_t {
    _private: [u8; 0],
}

extern "C" {
    // ---- common.h
    pub fn cl_status_string(status: c_int) -> *const c_char;
    pub fn cl_last_error() -> *const c_char;
    pub fn cl_version_string() -> *const c_char;
    pub fn cl_version_number() -> c_int;
    pub fn cl_abi_version() -> c_int;
    pub fn cl_abi_minor() -> c_int;

    // ---- tuple.h
    pub fn cl_tuple_parse(text: *const c_char, out: *mut *mut cl_tuple_t) -> cl_status;
    pub fn cl_tuple_format(t: *const cl_tuple_t, buf: *mut c_char, cap: usize) -> i64;
    pub fn cl_tuple_free(t: *mut cl_tuple_t);

    // ---- layout.h
    pub fn cl_layout_parse(text: *const c_char, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_layout_format(layout: *const cl_layout_t, buf: *mut c_char, cap: usize) -> i64;
    pub fn cl_layout_free(layout: *mut cl_layout_t);
    pub fn cl_layout_copy(layout: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_layout_make(shape: *const cl_tuple_t, stride: *const cl_tuple_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_layout_make_left(shape: *const cl_tuple_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_layout_size(layout: *const cl_layout_t) -> i64;
    pub fn cl_layout_cosize(layout: *const cl_layout_t) -> i64;
    pub fn cl_layout_size_checked(layout: *const cl_layout_t, out: *mut i64) -> cl_status;
    pub fn cl_layout_cosize_checked(layout: *const cl_layout_t, out: *mut i64) -> cl_status;
    pub fn cl_layout_rank(layout: *const cl_layout_t) -> i64;
    pub fn cl_layout_depth(layout: *const cl_layout_t) -> i64;
    pub fn cl_layout_equal(a: *const cl_layout_t, b: *const cl_layout_t) -> c_int;
    pub fn cl_layout_eval(layout: *const cl_layout_t, i: i64, index: *mut i64) -> cl_status;
    pub fn cl_layout_eval_coord(layout: *const cl_layout_t, crd: *const cl_tuple_t, index: *mut i64) -> cl_status;
    pub fn cl_layout_get(layout: *const cl_layout_t, path: *const i64, n: i64, out: *mut *mut cl_layout_t) -> cl_status;
}

/// `cl_allocator`: the hooks every allocation of the library goes through.
#[repr(C)]
pub struct cl_allocator {
    pub alloc: Option<unsafe extern "C" fn(ctx: *mut std::os::raw::c_void, size: usize) -> *mut std::os::raw::c_void>,
    pub realloc: Option<
        unsafe extern "C" fn(ctx: *mut std::os::raw::c_void, ptr: *mut std::os::raw::c_void, size: usize) -> *mut std::os::raw::c_void,
    >,
    pub free: Option<unsafe extern "C" fn(ctx: *mut std::os::raw::c_void, ptr: *mut std::os::raw::c_void)>,
    pub ctx: *mut std::os::raw::c_void,
}

extern "C" {
    /// Not thread-safe with respect to other library calls: set it once, first.
    pub fn cl_set_allocator(allocator: *const cl_allocator) -> cl_status;
}

// ---- algebra.h
extern "C" {
    pub fn cl_coalesce(layout: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_composition(a: *const cl_layout_t, b: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_composition_tiler(a: *const cl_layout_t, tiler: *const cl_tuple_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_complement(layout: *const cl_layout_t, cotarget: i64, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_complement_full(layout: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_right_inverse(layout: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_left_inverse(layout: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_logical_divide(a: *const cl_layout_t, b: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
    pub fn cl_logical_product(a: *const cl_layout_t, b: *const cl_layout_t, out: *mut *mut cl_layout_t) -> cl_status;
}
