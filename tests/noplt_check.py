#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A program's per-element calls go through the GOT, not a PLT stub.

common.h marks the functions a program calls per element CL_NOPLT (GCC's
noplt): this compiles a call of each as position-independent code with the
build's C compiler and reads the assembly.  Skipped (77) where the compiler
lacks the attribute (clang) or the target is not x86-64, whose assembly is
what is read here.
"""
import argparse
import os
import subprocess
import sys
import tempfile

# The functions declared CL_NOPLT, each called once below.
PER_ELEMENT = ["cl_layout_eval", "cl_composed_eval", "cl_swizzle_apply", "cl_tensor_offset"]

CALLER = """
#include <cutelayout/cutelayout.h>
int64_t at(const cl_layout_t *l, const cl_composed_t *c, cl_swizzle_t sw, const cl_tensor_t *t, int64_t i) {
  int64_t a = 0, b = 0, d = 0, e = 0;
  cl_status s = cl_layout_eval(l, i, &a) | cl_composed_eval(c, i, &b) | cl_swizzle_apply(sw, i, &d) |
                cl_tensor_offset(t, i, &e);
  return s == CL_OK ? a + b + d + e : -1;
}
"""

PROBE = """
#if !defined(__x86_64__) || !defined(__has_attribute)
#error no
#elif !__has_attribute(noplt)
#error no
#endif
"""


def compile_to_asm(cc, include, source, work):
    path = os.path.join(work, "caller.c")
    with open(path, "w") as f:
        f.write(source)
    return subprocess.run(cc + ["-std=c11", "-O2", "-fPIC", "-S", "-o", "-", "-I", include, path],
                          capture_output=True, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--include", required=True)
    ap.add_argument("--cc", nargs="+", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        if compile_to_asm(args.cc, args.include, PROBE, work).returncode != 0:
            print("the compiler has no noplt attribute or the target is not x86-64: skipped")
            return 77
        r = compile_to_asm(args.cc, args.include, CALLER, work)
        if r.returncode != 0:
            print(r.stderr, file=sys.stderr)
            return 1
        failed = False
        for name in PER_ELEMENT:
            calls = [line.strip() for line in r.stdout.splitlines()
                     if "call" in line and (name + "@") in line]
            print(name + ": " + (", ".join(calls) or "no call"))
            if not calls:
                print(name + " is not called in the assembly", file=sys.stderr)
                failed = True
            elif any("GOTPCREL" not in c for c in calls):
                print(name + " is called through the PLT: CL_NOPLT is missing from its declaration", file=sys.stderr)
                failed = True
        if failed:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
