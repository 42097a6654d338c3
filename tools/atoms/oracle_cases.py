#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""CuTe's answers for atoms, tiled MMAs, tiled copies and partitions, as
EXPR<TAB>EXPECTED rows for tests/cute_atoms.tsv.

Developer tool (not run by the build): each case is an eval expression and
the C++ that computes the same value with CuTe, every integer static; one
program prints them all.

usage: oracle_cases.py CUTLASS_DIR [CXX_INCLUDE_DIR...] > cases.tsv
"""
import os
import re
import subprocess
import sys
import tempfile


def cpp_tuple(text, maker):
    """An int tuple's text as static C++ (make_shape / make_stride)."""
    text = text.strip()
    if text.startswith("("):
        parts, depth, cur = [], 0, ""
        for c in text[1:-1]:
            if c == "," and depth == 0:
                parts.append(cur)
                cur = ""
                continue
            depth += c == "("
            depth -= c == ")"
            cur += c
        parts.append(cur)
        return "%s(%s)" % (maker, ",".join(cpp_tuple(p, maker) for p in parts))
    if text == "_":
        return "_"
    return "Int<%s>{}" % text


def cpp_layout(text):
    if ":" not in text:
        return "make_layout(%s)" % cpp_tuple(text, "make_shape")
    shape, stride = text.split(":")
    return "make_layout(%s,%s)" % (cpp_tuple(shape, "make_shape"), cpp_tuple(stride, "make_stride"))


def cpp_tile(text):
    """A permutation such as (_,8:1,(4,4):(4,1))."""
    inner, parts, depth, cur = text.strip()[1:-1], [], 0, ""
    for c in inner:
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += c == "("
        depth -= c == ")"
        cur += c
    parts.append(cur)
    out = []
    for p in parts:
        p = p.strip()
        out.append("_" if p == "_" else cpp_layout(p) if ":" in p else "Int<%s>{}" % p)
    return "make_tile(%s)" % ",".join(out)


MMA_ATOMS = ["SM61_DP4A", "SM70_8x8x4_F32F16F16F32_NT", "SM70_8x8x4_F16F16F16F16_TN", "SM75_16x8x8_F32F16F16F32_TN",
             "SM75_8x8x16_S32S8S8S32_TN", "SM80_16x8x16_F32F16F16F32_TN", "SM80_16x8x8_F32TF32TF32F32_TN",
             "SM80_8x8x4_F64F64F64F64_TN", "SM80_16x8x32_S32S8S8S32_TN", "SM80_16x8x64_S32S4S4S32_TN",
             "SM89_16x8x32_F32E4M3E4M3F32_TN", "SM80_16x8x8_F16F16F16F16_TN",
             "SM80_16x8x256_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC",
             "SM100_2x1x1_F32F32F32F32", "SM100_1x2x1_F32F32F32F32",
             "SM120_16x8x32_TN<float_e2m1_t,float_e4m3_t,float>", "SM120_16x8x32_TN<float_e5m2_t,float_e3m2_t,half_t>",
             "SM120::BLOCKSCALED::SM120_16x8x32_TN_VS<float_e4m3_t,float_e2m3_t,float,float_ue8m0_t,32>",
             "SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16>",
             "SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e2m1_t,half_t>",
             "SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e2m1_t,float_e5m2_t,float>",
             "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS<float_e3m2_t,float_e4m3_t,float,float_ue8m0_t,64>",
             "SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,32>"]
# CuTe's traits give these an A that is no layout (a stride not congruent
# with its shape): CuTe compiles no use of A, so only B and C are cases.
NO_A = ["SM80_16x8x128_S32U1U1S32_TN_ANDPOPC"]
GMMA = [("SM90_64x%dx16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", [8, 64, 128, 256]),
        ("SM90_64x%dx16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::MN>", [16, 96]),
        ("SM90_64x%dx8_F32TF32TF32_SS_TN", [24, 128]), ("SM90_64x%dx8_F32TF32TF32_RS_TN", [32]),
        ("SM90_64x%dx32_F32E4M3E4M3_SS_TN", [40, 256]), ("SM90_64x%dx32_S32S8S8_RS_TN", [48]),
        ("SM90_64x%dx16_F32BF16BF16_SS<GMMA::Major::MN,GMMA::Major::K>", [200])]
# SM90 sparse GMMA: A's K is twice the dense family's (A's values 2:4 sparse).
SPARSE_GMMA = [("SM90::GMMA::SPARSE::GMMA_64x%dx32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>", [8, 64]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx32_F32F16F16_SS<GMMA::Major::MN,GMMA::Major::MN>", [16, 256]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx32_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::MN>", [24, 200]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx32_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K,GMMA::ScaleIn::One,GMMA::ScaleIn::One,GMMA::SparseSel::One>", [128]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx16_F32TF32TF32_SS_TN", [8, 128]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx16_F32TF32TF32_RS_TN", [40]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx64_F16E4M3E5M2_SS_TN", [56]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx64_F32E5M2E4M3_RS_TN<GMMA::ScaleIn::Neg,GMMA::ScaleIn::One>", [248]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx64_S32S8S8_SS_TN", [32, 256]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx64_S32U8S8_RS_TN_SATURATE", [48]),
               ("SM90::GMMA::SPARSE::GMMA_64x%dx64_S32S8U8_RS_TN<GMMA::SparseSel::One>", [24])]
# SM100 UMMA: kind, then (types, M, N, majors) instances; 2x1SM M = 128/256.
UMMA = [("SM100_MMA_TF32_SS", "tfloat32_t,tfloat32_t,float", [(64, 8, "K,K"), (128, 256, "MN,K")]),
        ("SM100_MMA_TF32_TS", "tfloat32_t,tfloat32_t,float", [(64, 24, "K,MN"), (128, 48, "K,K")]),
        ("SM100_MMA_TF32_2x1SM_SS", "tfloat32_t,tfloat32_t,float", [(128, 16, "K,K"), (256, 256, "MN,MN")]),
        ("SM100_MMA_TF32_2x1SM_TS", "tfloat32_t,tfloat32_t,float", [(256, 32, "K,MN")]),
        ("SM100_MMA_F16BF16_SS", "half_t,half_t,float", [(64, 64, "K,K"), (128, 256, "K,MN")]),
        ("SM100_MMA_F16BF16_SS", "bfloat16_t,bfloat16_t,float", [(128, 8, "MN,MN")]),
        ("SM100_MMA_F16BF16_SS", "half_t,half_t,half_t", [(64, 200, "K,K")]),
        ("SM100_MMA_F16BF16_TS", "half_t,half_t,float", [(64, 8, "K,K"), (128, 112, "K,MN")]),
        ("SM100_MMA_F16BF16_2x1SM_SS", "half_t,half_t,float", [(128, 64, "K,K"), (256, 64, "K,MN"), (256, 240, "MN,K")]),
        ("SM100_MMA_F16BF16_2x1SM_TS", "bfloat16_t,bfloat16_t,float", [(128, 96, "K,K"), (256, 256, "K,MN")]),
        ("SM100_MMA_S8_SS", "int8_t,int8_t,int32_t", [(64, 8, "K,K"), (128, 144, "MN,K")]),
        ("SM100_MMA_S8_SS", "uint8_t,int8_t,int32_t", [(128, 256, "K,MN")]),
        ("SM100_MMA_S8_TS", "int8_t,uint8_t,int32_t", [(64, 16, "K,K"), (128, 8, "K,MN")]),
        ("SM100_MMA_S8_2x1SM_SS", "int8_t,int8_t,int32_t", [(128, 32, "K,K"), (256, 160, "MN,MN")]),
        ("SM100_MMA_S8_2x1SM_TS", "int8_t,int8_t,int32_t", [(256, 64, "K,K")]),
        ("SM100_MMA_F8F6F4_SS", "float_e4m3_t,float_e4m3_t,float", [(64, 8, "K,K"), (128, 256, "MN,MN")]),
        ("SM100_MMA_F8F6F4_SS", "float_e2m1_t,float_e5m2_t,half_t", [(128, 40, "K,K")]),
        ("SM100_MMA_F8F6F4_TS", "float_e5m2_t,float_e2m3_t,float", [(64, 56, "K,K"), (128, 128, "K,MN")]),
        ("SM100_MMA_F8F6F4_2x1SM_SS", "float_e4m3_t,float_e3m2_t,float", [(128, 16, "K,K"), (256, 96, "MN,MN")]),
        ("SM100_MMA_F8F6F4_2x1SM_TS", "float_e4m3_t,float_e4m3_t,float", [(256, 128, "K,K")]),
        # block-scaled: the scale-factor type after C (and MXF4's VS after N)
        ("SM100_MMA_MXF8F6F4_SS", "float_e4m3_t,float_e4m3_t,float,float_ue8m0_t", [(128, 64, "K,K")]),
        ("SM100_MMA_MXF8F6F4_SS", "float_e2m1_t,float_e5m2_t,half_t,float_ue8m0_t", [(128, 8, "MN,K")]),
        ("SM100_MMA_MXF8F6F4_2x1SM_SS", "float_e4m3_t,float_e2m3_t,float,float_ue8m0_t", [(256, 16, "K,MN")]),
        ("SM100_MMA_MXF8F6F4_2x1SM_SS", "float_e3m2_t,float_e4m3_t,float,float_ue8m0_t", [(256, 256, "K,K")]),
        ("SM100_MMA_MXF4_SS", "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t", [(128, 128, "32,K,K")]),
        ("SM100_MMA_MXF4_SS", "float_e2m1_t,float_e2m1_t,float,float_ue4m3_t", [(128, 24, "16,K,K")]),
        ("SM100_MMA_MXF4_2x1SM_SS", "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t", [(128, 32, "32,K,K")]),
        ("SM100_MMA_MXF4_2x1SM_SS", "float_e2m1_t,float_e2m1_t,float,float_ue4m3_t", [(256, 256, "16,K,K")]),
        # sparse (A 2:4 structured-sparse, K doubled), one CTA
        ("SM100_MMA_TF32_SS_SPARSE", "tfloat32_t,tfloat32_t,float", [(64, 8, "K,K"), (128, 248, "MN,K")]),
        ("SM100_MMA_F16BF16_SS_SPARSE", "half_t,half_t,float", [(128, 64, "K,MN"), (64, 256, "MN,MN")]),
        ("SM100_MMA_F16BF16_SS_SPARSE", "bfloat16_t,bfloat16_t,float", [(64, 40, "K,K")]),
        ("SM100_MMA_S8_SS_SPARSE", "int8_t,uint8_t,int32_t", [(64, 8, "K,K"), (128, 144, "K,MN")]),
        ("SM100_MMA_F8F6F4_SS_SPARSE", "float_e4m3_t,float_e4m3_t,float", [(64, 24, "K,K"), (128, 32, "MN,K")]),
        ("SM100_MMA_F8F6F4_SS_SPARSE", "float_e2m1_t,float_e3m2_t,half_t", [(128, 256, "K,K")]),
        ("SM100_MMA_MXF8F6F4_SS_SPARSE", "float_e4m3_t,float_e2m1_t,float,float_ue8m0_t", [(128, 8, "K,MN"), (128, 256, "K,K")]),
        ("SM100_MMA_MXF4NVF4_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t", [(128, 64, "64,K,K")]),
        ("SM100_MMA_MXF4NVF4_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue4m3_t", [(128, 136, "32,K,K")]),
        ("SM100_MMA_TF32_2x1SM_SS_SPARSE", "tfloat32_t,tfloat32_t,float", [(128, 16, "K,MN"), (256, 256, "K,K")]),
        ("SM100_MMA_F16BF16_2x1SM_SS_SPARSE", "bfloat16_t,bfloat16_t,float", [(256, 48, "MN,K")]),
        ("SM100_MMA_S8_2x1SM_SS_SPARSE", "uint8_t,uint8_t,int32_t", [(128, 96, "K,K")]),
        ("SM100_MMA_F8F6F4_2x1SM_SS_SPARSE", "float_e4m3_t,float_e2m3_t,float", [(256, 32, "K,MN")]),
        ("SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE", "float_e5m2_t,float_e4m3_t,float,float_ue8m0_t", [(256, 16, "K,K")]),
        ("SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE", "float_e2m1_t,float_e2m1_t,float,float_ue8m0_t", [(128, 64, "64,K,K"), (256, 256, "32,MN,K")])]
# _SCALED: a uint32_t ScaleC after the majors
UMMA_SCALED = ["SM100_MMA_F16BF16_SS_SCALED<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::MN,1>",
               "SM100_MMA_F16BF16_TS_SCALED<bfloat16_t,bfloat16_t,float,64,8,UMMA::Major::K,UMMA::Major::K,2,UMMA::ScaleIn::Neg>",
               "SM100_MMA_TF32_TS_SCALED<tfloat32_t,tfloat32_t,float,128,48,UMMA::Major::K,UMMA::Major::MN,0>",
               "SM100_MMA_TF32_2x1SM_TS_SCALED<tfloat32_t,tfloat32_t,float,256,64,UMMA::Major::K,UMMA::Major::K,1>",
               "SM100_MMA_F16BF16_2x1SM_SS_SCALED<half_t,half_t,half_t,128,32,UMMA::Major::MN,UMMA::Major::K,7>",
               "SM100_MMA_F16BF16_2x1SM_TS_SCALED<half_t,half_t,float,256,256,UMMA::Major::K,UMMA::Major::MN,1>",
               # CuTe's interleaved-complex specializations: complex<16-bit> A and B, float C, K of 32-bit elements
               "SM100_MMA_F16BF16_SS_SCALED<cutlass::complex<half_t>,cutlass::complex<half_t>,float,128,64,UMMA::Major::K,UMMA::Major::MN,1>",
               "SM100_MMA_F16BF16_TS_SCALED<cutlass::complex<bfloat16_t>,cutlass::complex<bfloat16_t>,float,64,40,UMMA::Major::K,UMMA::Major::K,3,UMMA::ScaleIn::Neg>",
               "SM100_MMA_F16BF16_2x1SM_SS_SCALED<cutlass::complex<half_t>,cutlass::complex<half_t>,float,256,16,UMMA::Major::MN,UMMA::Major::K,1>",
               "SM100_MMA_F16BF16_2x1SM_TS_SCALED<cutlass::complex<bfloat16_t>,cutlass::complex<bfloat16_t>,float,128,96,UMMA::Major::K,UMMA::Major::MN,0>"]
# The interleaved complex TF32 UMMAs: no type arguments (complex<tfloat32_t> A and B, float C)
UMMA_INTERLEAVED = ["SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,64,UMMA::Major::K,UMMA::Major::K>",
                    "SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<64,8,UMMA::Major::K,UMMA::Major::K,UMMA::ScaleIn::Neg>",
                    "SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<256,256,UMMA::Major::K,UMMA::Major::K>",
                    "SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN<128,32,UMMA::Major::K,UMMA::Major::K,UMMA::ScaleIn::One,UMMA::ScaleIn::One,UMMA::Saturate::True>"]
UMMA_TILED = [("SM100_MMA_F16BF16_SS<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", "(1,2,1)", None),
              ("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,UMMA::Major::K,UMMA::Major::K>", "(2,1,1)", None),
              ("SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,64,UMMA::Major::K,UMMA::Major::K>", "(1,2,1)", None)]


def umma_names():
    for kind, types, insts in UMMA:
        for m, n, majors in insts:
            vs = "".join("," + x for x in majors.split(",")[:-2])
            a, b = majors.split(",")[-2:]
            yield "%s<%s,%d,%d%s,UMMA::Major::%s,UMMA::Major::%s>" % (kind, types, m, n, vs, a, b)


TILED = [("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1)", None), ("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(2,1,0)", None),
         ("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1)", "(32,32,16)"),
         ("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1)", "(_,(8,2,2):(1,16,8),_)"),
         ("SM80_16x8x16_F32F16F16F32_TN", "(4,1,1)", "(64,16:2,_)"),
         ("SM70_8x8x4_F32F16F16F32_NT", "(2,2,1)", None), ("SM75_16x8x8_F32F16F16F32_TN", "(1,2)", None),
         ("SM61_DP4A", "(16,8,1)", None), ("SM80_8x8x4_F64F64F64F64_TN", "(2,2,1)", "(16,16,8)"),
         ("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "(2,1,1)", None),
         ("SM90_64x64x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>", "(1,2,1)", "(_,_,32)"),
         ("SM80_16x8x8_F32TF32TF32F32_TN", "(2,4,1):(4,1,0)", None), ("SM80_16x8x16_F32F16F16F32_TN", None, None),
         ("SM80_16x8x128_S32U1U1S32_TN_ANDPOPC", "(2,2,1)", None), ("SM100_2x1x1_F32F32F32F32", "(2,4,1)", None),
         ("SM120_16x8x32_TN<float_e2m1_t,float_e4m3_t,float>", "(2,2,1)", None),
         ("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,16>", "(2,1,1)", "(_,16,_)"),
         ("SM120::SPARSE::SM120_SPARSE_16x8x64_TN<float_e4m3_t,float_e4m3_t,float>", "(2,2,1)", None),
         ("SM90::GMMA::SPARSE::GMMA_64x64x32_F16F16F16_SS<GMMA::Major::K,GMMA::Major::MN>", "(2,1,1)", None)]
TENSORS = ["(64,32)", "(128,64):(64,1)", "(32,64,2)", "(48,40)"]
COPIES = [("UniversalCopy<uint128_t>", "half_t", "(32,8):(8,1)", "(1,8)"),
          ("UniversalCopy<uint32_t>", "float", "(16,8)", None),
          ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "(16,8):(8,1)", "(1,8)"),
          ("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "float", "(8,16)", "(2,1)"),
          ("AutoVectorizingCopy", "half_t", "(4,8)", "(4,2)"),
          ("UniversalCopy<uint64_t>", "half_t", "((4,2),8):((16,1),2)", "(2,(2,2)):(1,(4,2))"),
          ("SM75_U32x4_LDSM_N", "half_t", "(32,1)", "(1,8)"),
          ("SM90_U32x4_STSM_N", "half_t", "(32,1)", "(1,8)"),
          ("SM100_TMEM_LOAD_32dp32b8x", "float", "(32,4):(1,32)", "(1,256)"),
          ("SM100_TMEM_STORE_16dp256b1x", "float", "(32,1)", "(1,128)"),
          ("SM100_LOAD_256bit_CACHE_NOALLOCATION", "half_t", "(8,4):(4,1)", "(1,16)"),
          ("SM100_U8x16_STSM_T", "uint8_t", "(32,1)", "(1,16)")]
COPY_MMA = [("SM75_U32x4_LDSM_N", "half_t", 0), ("SM75_U32x2_LDSM_N", "half_t", 1), ("SM75_U16x4_LDSM_T", "half_t", 1),
            ("SM75_U32x1_LDSM_N", "half_t", 1), ("UniversalCopy<uint32_t>", "half_t", 0),
            ("SM90_U32x2_STSM_N", "half_t", 2), ("UniversalCopy<float>", "float", 2),
            ("SM75_U16x2_LDSM_T", "half_t", 0), ("SM90_U16x4_STSM_T", "half_t", 2)]


# Tensors over composed (swizzled) layouts: (swizzle B,M,S, offset, inner
# layout).  The thread index is static (get_slice(Int<thr>{})), as every
# integer of a case is: a dynamic one makes CuTe keep a swizzle's offset as
# MixedBits and its decayed strides dynamic, unmerged.
COMPOSED = [((3, 3, 3), 0, "(64,64):(64,1)"), ((2, 3, 3), 0, "(64,64):(1,64)"), ((3, 3, 3), 0, "(32,64):(64,1)"),
            ((1, 2, 3), 0, "(64,32):(32,1)")]
COMPOSED_PARTS = [("mma", TILED[0], "A", 5), ("mma", TILED[0], "C", 37), ("mma", TILED[0], "B", 100),
                  ("mma", TILED[3], "C", 5), ("copy", 6, "S", 7), ("copy", 0, "D", 13), ("copy", 7, "D", 3)]
RETILE_COPY = ("UniversalCopy<uint64_t>", "half_t", "(32,8):(8,1)", "(1,4)")
RETILE_COMPOSED = [((1, 2, 3), 3, "(4,2,2):(1,4,8)"), ((3, 3, 3), 0, "(8,2,2):(1,64,128)"),
                   ((2, 2, 3), 0, "((2,2),2,4):((1,2),16,32)"), ((3, 3, 3), 0, "(8,8,2):(1,64,8)")]


def composed_expr(sw, offset, inner):
    return "Sw<%d,%d,%d> o %d o %s" % (sw + (offset, inner))


def composed_cpp(sw, offset, inner):
    return "composition(Swizzle<%d,%d,%d>{}, Int<%d>{}, %s)" % (sw + (offset, cpp_layout(inner)))


class Prog:
    def __init__(self):
        self.lines = []

    def case(self, expr, cpp):
        self.lines.append('  printf("%%s\\t", "%s"); print(%s); printf("\\n");' % (expr, cpp))

    def part(self, expr, setup, tensor):
        self.lines.append('  do { %s; printf("%%s\\t(", "%s"); print(p.layout()); printf(",%%d)\\n", int(p.data() - base)); } while (0);'
                          % (setup, expr))


def cpp_name(atom):
    """C++ needs <> after an alias template whose arguments all default."""
    if atom.startswith("SM90") and "<" not in atom and re.search("TF32|E4M3|E5M2|SPARSE", atom):
        return atom + "<>"
    return atom


def tiled_cpp(atom, layout, perm):
    args = ["%s{}" % cpp_name(atom)]
    if layout is not None or perm is not None:
        args.append(cpp_layout(layout) if layout else "Layout<Shape<_1,_1,_1>>{}")
    if perm is not None:
        args.append(cpp_tile(perm))
    return "make_tiled_mma(%s)" % ", ".join(args)


def tiled_expr(atom, layout, perm):
    args = [atom] + ([layout or "(1,1,1)"] if layout or perm else []) + ([perm] if perm else [])
    return "make_tiled_mma(%s)" % ",".join(args)


def main():
    cutlass = sys.argv[1]
    p = Prog()
    for atom in MMA_ATOMS + [g % n for g, ns in GMMA + SPARSE_GMMA for n in ns] + list(umma_names()) + UMMA_SCALED + UMMA_INTERLEAVED:
        t = "MMA_Atom<%s>" % cpp_name(atom)
        p.case("thr_id(%s)" % atom, "typename %s::ThrID{}" % t)
        p.case("shape_mnk(%s)" % atom, "typename %s::Shape_MNK{}" % t)
        for x in "BC" if atom in NO_A else "ABC":
            p.case("layout%s_TV(%s)" % (x, atom), "typename %s::Layout%s_TV{}" % (t, x))
    for n, (atom, layout, perm) in enumerate(TILED):
        e, c = tiled_expr(atom, layout, perm), tiled_cpp(atom, layout, perm)
        p.case("thr_layout_vmnk(%s)" % e, "%s.get_thr_layout_vmnk()" % c)
        p.case("tile_shape(%s)" % e, "tile_shape(%s)" % c)
        operands = "BC" if atom in NO_A else "ABC"
        for x in operands:
            p.case("layout%s_TV(%s)" % (x, e), "%s.get_layout%s_TV()" % (c, x))
        for tensor in TENSORS[n % len(TENSORS):][:1]:
            for thr in (5, 37):
                for x in operands:
                    p.part("partition_%s(%s,%d,%s)" % (x, e, thr, tensor),
                           "auto m = %s; if (%d >= size(m)) break; auto p = m.get_slice(%d).partition_%s(make_tensor(base, %s))"
                           % (c, thr, thr, x, cpp_layout(tensor)), tensor)
    for atom, layout, perm in UMMA_TILED:
        e, c = tiled_expr(atom, layout, perm), tiled_cpp(atom, layout, perm)
        p.case("thr_layout_vmnk(%s)" % e, "%s.get_thr_layout_vmnk()" % c)
        p.case("tile_shape(%s)" % e, "tile_shape(%s)" % c)
        for x in "ABC":
            p.case("layout%s_TV(%s)" % (x, e), "%s.get_layout%s_TV()" % (c, x))
    mma_e, mma_c = tiled_expr(*TILED[0]), tiled_cpp(*TILED[0])
    copies = []
    for op, ty, thr, val in COPIES:
        e = "make_tiled_copy(copy_atom(%s,%s),%s%s)" % (op, ty, thr, "," + val if val else "")
        c = "make_tiled_copy(Copy_Atom<%s,%s>{}, %s%s)" % (op, ty, cpp_layout(thr), ", " + cpp_layout(val) if val else "")
        copies.append((e, c))
    for op, ty, which in COPY_MMA:
        x = "ABC"[which]
        for atom, layout, perm in [TILED[0], TILED[3], TILED[9]]:
            if "SM90" in atom and which != 2:
                continue
            copies.append(("make_tiled_copy_%s(copy_atom(%s,%s),%s)" % (x, op, ty, tiled_expr(atom, layout, perm)),
                           "make_tiled_copy_%s(Copy_Atom<%s,%s>{}, %s)" % (x, op, ty, tiled_cpp(atom, layout, perm))))
    for n, (kind, what, x, thr) in enumerate(COMPOSED_PARTS):
        sw, off, inner = COMPOSED[n % len(COMPOSED)]
        if kind == "mma":
            e, c = tiled_expr(*what), tiled_cpp(*what)
        else:
            e, c = copies[what]
        p.part("partition_%s(%s,%d,%s)" % (x, e, thr, composed_expr(sw, off, inner)),
               "auto t = %s; auto p = t.get_slice(Int<%d>{}).partition_%s(make_tensor(base, %s))"
               % (c, thr, x, composed_cpp(sw, off, inner)), None)
    op, ty, thr, val = RETILE_COPY
    e = "make_tiled_copy(copy_atom(%s,%s),%s,%s)" % (op, ty, thr, val)
    c = "make_tiled_copy(Copy_Atom<%s,%s>{}, %s, %s)" % (op, ty, cpp_layout(thr), cpp_layout(val))
    for sw, off, inner in RETILE_COMPOSED:
        p.case("retile(%s,%s)" % (e, composed_expr(sw, off, inner)),
               "%s.retile(make_tensor(base, %s)).layout()" % (c, composed_cpp(sw, off, inner)))
    for n, (e, c) in enumerate(copies):
        p.case("layoutS_TV(%s)" % e, "%s.get_layoutS_TV()" % c)
        p.case("layoutD_TV(%s)" % e, "%s.get_layoutD_TV()" % c)
        p.case("tiler_mn(%s)" % e, "typename decltype(%s)::Tiler_MN{}" % c)
        for tensor in TENSORS[n % 3:][:1]:
            for thr in (7,):
                for x in "SD":
                    p.part("partition_%s(%s,%d,%s)" % (x, e, thr, tensor),
                           "auto tc = %s; if (%d >= size<0>(typename decltype(tc)::TiledLayout_TV{})) break; auto p = tc.get_slice(%d).partition_%s(make_tensor(base, %s))"
                           % (c, thr, thr, x, cpp_layout(tensor)), tensor)
    prog = ["#include <cute/tensor.hpp>", "#include <cute/atom/mma_atom.hpp>", "#include <cute/atom/copy_atom.hpp>",
            "#include <cute/atom/mma_traits_sm90_gmma.hpp>", "#include <cute/arch/mma_sm90_gmma_ext.hpp>", "#include <cute/atom/mma_traits_sm90_gmma_ext.hpp>",
            "#include <cute/atom/mma_traits_sm90_gmma_sparse.hpp>", "#include <cute/arch/mma_sm90_gmma_sparse_ext.hpp>",
            "#include <cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp>",
            "#include <cute/atom/copy_traits_sm100.hpp>", "#include <cute/atom/mma_traits_sm120.hpp>",
            "#include <cute/atom/mma_traits_sm120_sparse.hpp>",
            "#include <cute/atom/mma_traits_sm100.hpp>", "using namespace cute;",
            "int main() { half_t *base = reinterpret_cast<half_t *>(uintptr_t(1) << 32);"]
    prog += p.lines + ["}"]
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "cases.cpp"), os.path.join(tmp, "cases")
        with open(src, "w") as f:
            f.write("\n".join(prog) + "\n")
        cmd = ["g++", "-std=c++17", "-w", "-O0", "-I", os.path.join(cutlass, "include")]
        for d in sys.argv[2:]:
            cmd += ["-I", d]
        subprocess.run(cmd + [src, "-o", exe], check=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        expr, want = line.split("\t")
        print("%s\t%s" % (expr, re.sub(r"(?<!\w)_(-?\d)", r"\1", want)))


if __name__ == "__main__":
    main()
