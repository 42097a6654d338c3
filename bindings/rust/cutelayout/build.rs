// SPDX-License-Identifier: BSD-3-Clause
//! The rpath of the library cutelayout-sys links, for this crate's tests,
//! examples and doc tests: they then run without LD_LIBRARY_PATH.
//! cutelayout-sys (links = "cutelayout") passes the directory on as
//! DEP_CUTELAYOUT_LIB_DIR when it found a shared library outside the
//! linker's default path; nothing is added otherwise.
use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=DEP_CUTELAYOUT_LIB_DIR");
    if let Ok(dirs) = env::var("DEP_CUTELAYOUT_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dirs);
    }
}
