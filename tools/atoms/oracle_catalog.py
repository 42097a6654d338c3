#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Print the traits of CuTe's MMA and copy atoms, from CuTe itself.

Developer tool (not run by the build): it reads a CUTLASS checkout's headers
for the atoms' names, compiles one C++ program that prints each atom's
traits, and writes them as tab-separated rows

    mma   NAME  THR_ID  SHAPE_MNK  A_LAYOUT  B_LAYOUT  C_LAYOUT  BITS_A,BITS_B,BITS_C
    copy  NAME  THR_ID  SRC_BITS   DST_BITS  REF_BITS

with CuTe's static integers printed without '_'.  tools/atoms/gen_tables.py
turns these rows into the catalog's C tables (src/atom_table_*.c).

usage: oracle_catalog.py CUTLASS_DIR [CXX_INCLUDE_DIR...] > rows.tsv
"""
import os
import re
import subprocess
import sys
import tempfile

MMA_FILES = ["mma_sm61.hpp", "mma_sm70.hpp", "mma_sm75.hpp", "mma_sm80.hpp", "mma_sm89.hpp"]
COPY_FILES = ["copy_sm50.hpp", "copy_sm75.hpp", "copy_sm90.hpp"]
# SM100's copy operations live in namespaces (SM100::TMEM::LOAD, ...) that
# cute/atom/copy_traits_sm100.hpp brings into cute; its full specializations
# are the untemplated ones, every one with plain thread-value layouts.
COPY_TRAITS_SM100 = "copy_traits_sm100.hpp"
# SM120's warp MMAs are templates over their element types; each full or
# partial specialization in arch/mma_sm120.hpp (and, sparse, in
# arch/mma_sm120_sparse.hpp) is one instruction.
SM120_NAMESPACE = {"SM120_16x8x32_TN": "", "SM120_16x8x32_TN_VS": "SM120::BLOCKSCALED::",
                   "SM120_16x8x64_TN_VS": "SM120::BLOCKSCALED::", "SM120_SPARSE_16x8x64_TN": "SM120::SPARSE::",
                   "SM120_SPARSE_16x8x64_TN_VS": "SM120::BLOCKSCALED::SPARSE::",
                   "SM120_SPARSE_16x8x128_TN_VS": "SM120::BLOCKSCALED::SPARSE::"}


def struct_names(path):
    with open(path) as f:
        text = f.read()
    # Only plain structs: a template's name is followed by '<' somewhere.
    names = []
    for m in re.finditer(r"^(template\s*<[^>]*>\s*)?struct (\w+)\s*$", text, re.M):
        if m.group(1) is None and m.group(2) not in names:
            names.append(m.group(2))
    return names


def full_specializations(path, traits="Copy_Traits"):
    """The operations with a `template <> struct Copy_Traits<NAME>` (or
    MMA_Traits)."""
    with open(path) as f:
        text = f.read()
    return re.findall(r"^template\s*<>\s*struct %s<(\w+)>" % traits, text, re.M)


def sm120_instructions(path):
    """Every SM120 warp MMA of arch/mma_sm120.hpp (or _sparse.hpp) by its
    template arguments, with its namespace.

    A block-scaled one is a partial specialization over its scale-vector
    size VS; the values its instruction takes are those its body asserts."""
    with open(path) as f:
        text = f.read()
    names = []
    pattern = r"^template\s*<(int VS|)>\s*struct (SM120_(?:SPARSE_)?16x8x\d+_TN(?:_VS)?)<([^>]*)>\s*\{(.*?)^\};"
    for m in re.finditer(pattern, text, re.M | re.S):
        base, args = m.group(2), ",".join(a.strip() for a in m.group(3).split(","))
        if not m.group(1):
            names.append("%s%s<%s>" % (SM120_NAMESPACE[base], base, args))
            continue
        sizes = re.search(r"CUTE_STATIC_ASSERT\((VS == \d+(?: \|\| VS == \d+)*)", m.group(4)).group(1)
        for vs in re.findall(r"\d+", sizes):
            names.append("%s%s<%s>" % (SM120_NAMESPACE[base], base, args.replace(",VS", "," + vs)))
    return names


def main():
    cutlass = sys.argv[1]
    extra = sys.argv[2:]
    arch = os.path.join(cutlass, "include", "cute", "arch")
    mma = [n for f in MMA_FILES for n in struct_names(os.path.join(arch, f))]
    mma += full_specializations(os.path.join(cutlass, "include", "cute", "atom", "mma_traits_sm100.hpp"), "MMA_Traits")
    mma += sm120_instructions(os.path.join(arch, "mma_sm120.hpp"))
    mma += sm120_instructions(os.path.join(arch, "mma_sm120_sparse.hpp"))
    copy = [n for f in COPY_FILES for n in struct_names(os.path.join(arch, f))]
    copy += full_specializations(os.path.join(cutlass, "include", "cute", "atom", COPY_TRAITS_SM100))
    prog = ["#include <cute/tensor.hpp>", "#include <cute/atom/mma_atom.hpp>", "#include <cute/atom/copy_atom.hpp>",
            "#include <cute/atom/copy_traits_sm100.hpp>", "#include <cute/atom/mma_traits_sm120.hpp>",
            "#include <cute/atom/mma_traits_sm120_sparse.hpp>", "#include <cute/atom/mma_traits_sm100.hpp>",
            "using namespace cute;", "template <class X> void p(X const& x) { printf(\"\\t\"); print(x); }",
            "template <class T> void mma(const char *n) { using M = MMA_Traits<T>; printf(\"mma\\t%s\", n);",
            "  p(typename M::ThrID{}); p(typename M::Shape_MNK{}); p(typename M::ALayout{}); p(typename M::BLayout{});",
            "  p(typename M::CLayout{}); printf(\"\\t%d,%d,%d\\n\", int(sizeof_bits_v<typename M::ValTypeA>),",
            "  int(sizeof_bits_v<typename M::ValTypeB>), int(sizeof_bits_v<typename M::ValTypeC>)); }",
            "template <class T> void cpy(const char *n) { using C = Copy_Traits<T>; printf(\"copy\\t%s\", n);",
            "  p(typename C::ThrID{}); p(typename C::SrcLayout{}); p(typename C::DstLayout{}); p(typename C::RefLayout{});",
            "  printf(\"\\n\"); }",
            "int main() {"]
    prog += ['  mma<%s>("%s");' % (n, n) for n in mma]
    prog += ['  cpy<%s>("%s");' % (n, n) for n in copy]
    prog += ["}"]
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "catalog.cpp")
        exe = os.path.join(tmp, "catalog")
        with open(src, "w") as f:
            f.write("\n".join(prog) + "\n")
        cmd = ["g++", "-std=c++17", "-w", "-I", os.path.join(cutlass, "include")]
        for d in extra:
            cmd += ["-I", d]
        subprocess.run(cmd + [src, "-o", exe], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    sys.stdout.write(re.sub(r"(?<=[(,:\t])_(\d)", r"\1", out))


if __name__ == "__main__":
    main()
