// SPDX-License-Identifier: BSD-3-Clause
//! Finds libcutelayout for the linker, without any build-dependency crate:
//!   CUTELAYOUT_LIB_DIR  a directory holding libcutelayout.so (or .a)
//!   CUTELAYOUT_STATIC   set to 1 to link libcutelayout.a (with the libraries
//!                       its pkg-config file lists in Libs.private)
//! otherwise `pkg-config --libs cute-layout` (`--static` for a static link).
//! Without either, the build stops and says what to install or set.
//!
//! A shared library found outside the linker's default path (any directory
//! given by CUTELAYOUT_LIB_DIR or by a -L of pkg-config) gets an rpath, so
//! that programs run without LD_LIBRARY_PATH: this crate's own tests get it
//! here (cargo:rustc-link-arg), and the directory is passed on to the build
//! scripts of crates that depend on this one as DEP_CUTELAYOUT_LIB_DIR
//! (cutelayout's build.rs adds the same rpath to its tests, examples and
//! doc tests).  Cargo passes no link argument on to a program that merely
//! depends on a crate: such a program's own build.rs prints the rpath, or
//! it is built with RUSTFLAGS="-C link-arg=-Wl,-rpath,DIR".
use std::env;
use std::process::Command;

const HELP: &str = "cutelayout-sys: libcutelayout not found. Install it (Debian: apt install libcutelayout-dev; \
from its source tree: meson setup build && meson install -C build), or set PKG_CONFIG_PATH to the directory of \
cute-layout.pc, or CUTELAYOUT_LIB_DIR to the directory of libcutelayout.so";

/// `pkg-config ARGS cute-layout`'s flags, or None when pkg-config or the package is missing.
fn pkg_config(static_link: bool) -> Option<Vec<String>> {
    let mut cmd = Command::new("pkg-config");
    cmd.arg("--libs");
    if static_link {
        cmd.arg("--static");
    }
    let out = cmd.arg("cute-layout").output().ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).split_whitespace().map(str::to_owned).collect())
}

/// The rpath of a shared library found in `dir`, and `dir` for dependents.
fn runtime_path(dir: &str) {
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir);
    println!("cargo:lib_dir={}", dir);
}

fn main() {
    for var in ["CUTELAYOUT_LIB_DIR", "CUTELAYOUT_STATIC", "PKG_CONFIG_PATH"] {
        println!("cargo:rerun-if-env-changed={}", var);
    }
    let static_link = env::var("CUTELAYOUT_STATIC").map(|v| v == "1").unwrap_or(false);
    let kind = if static_link { "static" } else { "dylib" };
    if let Ok(dir) = env::var("CUTELAYOUT_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir);
        println!("cargo:rustc-link-lib={}=cutelayout", kind);
        if !static_link {
            runtime_path(&dir);
        }
        if static_link {
            // What cute-layout.pc's Libs.private names, for a build tree without a .pc file.
            println!("cargo:rustc-link-lib=dylib=m");
            println!("cargo:rustc-link-lib=dylib=pthread");
        }
        return;
    }
    let flags = match pkg_config(static_link) {
        Some(flags) => flags,
        None => panic!("{}", HELP),
    };
    for flag in flags {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={}", dir);
            if !static_link {
                runtime_path(dir);
            }
        } else if let Some(lib) = flag.strip_prefix("-l") {
            // The library itself as asked; what it needs (Libs.private) as the system has it.
            let lib_kind = if lib == "cutelayout" { kind } else { "dylib" };
            println!("cargo:rustc-link-lib={}={}", lib_kind, lib);
        } else if flag == "-pthread" {
            println!("cargo:rustc-link-lib=dylib=pthread");
        }
    }
}
