// SPDX-License-Identifier: BSD-3-Clause
//! Finds libcutelayout for the linker, without any build-dependency crate:
//!   CUTELAYOUT_LIB_DIR  a directory holding libcutelayout.so (or .a)
//!   CUTELAYOUT_STATIC   set to 1 to link libcutelayout.a
//! otherwise `pkg-config --libs-only-L cute-layout`, otherwise the linker's
//! default search path.
use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=CUTELAYOUT_LIB_DIR");
    println!("cargo:rerun-if-env-changed=CUTELAYOUT_STATIC");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");

    if let Ok(dir) = env::var("CUTELAYOUT_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
    } else if let Ok(out) = Command::new("pkg-config").args(["--libs-only-L", "cute-layout"]).output() {
        if out.status.success() {
            for flag in String::from_utf8_lossy(&out.stdout).split_whitespace() {
                if let Some(dir) = flag.strip_prefix("-L") {
                    println!("cargo:rustc-link-search=native={}", dir);
                }
            }
        }
    }
    let kind = if env::var("CUTELAYOUT_STATIC").map(|v| v == "1").unwrap_or(false) { "static" } else { "dylib" };
    println!("cargo:rustc-link-lib={}=cutelayout", kind);
}
