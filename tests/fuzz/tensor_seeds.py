#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Writes the seed corpus of fuzz_tensor (tests/fuzz/corpus/tensor/).

Each seed is spelled in the input format fuzz_tensor.c decodes: an operation,
a flags byte, two layouts, element types, where the tensors lie and the
operation's parameters.  Run from the repository root:

    python3 tests/fuzz/tensor_seeds.py
"""
import hashlib
import os

OPS = dict(copy=0, explain=1, fill=2, slice=3, logical_divide=4, zipped_divide=5, compose=6,
           compose_layout=7, inner=8, local_tile=9, outer=10, local_partition=11, recast=12,
           flatten_group=13, print=14, dlpack=15, odometer=16, eval_range=17, copy_one_buffer=18,
           fill_src=19)
ELEM = dict(int8=1, uint8=17, float16=33, int32=9, float32=41, float64=45, int64=13,
            bytes3=8, bytes4=12, bytes16=28)


def mode(m, depth=0):
    """A leaf (extent, stride) or a list of modes."""
    if isinstance(m, list):
        return bytes([(1 if depth == 0 else 0) | len(m) << 2]) + b"".join(mode(x, depth + 1) for x in m)
    extent, stride = m
    ext = bytes([extent - 1]) if 1 <= extent <= 8 else bytes([0xF7]) + extent.to_bytes(8, "big", signed=True)
    std = bytes([stride + 8]) if -8 <= stride <= 25 else bytes([0xEF]) + stride.to_bytes(8, "big", signed=True)
    return bytes([0 if depth == 0 else 1]) + ext + std


def side(offset=0, extent="whole", lo=0, hi=65536):
    how = {0: 0, 32768: 1}.get(offset, 2) | {"none": 0, "whole": 1, "part": 3}[extent] << 2
    b = bytes([how]) + offset.to_bytes(2, "big")
    if extent == "part":
        b += lo.to_bytes(2, "big") + min(hi, 65535).to_bytes(2, "big")
    return b


def seed(op, a, b, elem="int32", dst_elem=None, flags=0, src=None, dst=None, params=b""):
    if dst_elem is not None:
        flags |= 2
    out = bytes([OPS[op], flags]) + mode(a) + mode(b) + bytes([ELEM[elem]])
    if dst_elem is not None:
        out += bytes([ELEM[dst_elem]])
    out += src or side()
    if OPS[op] < 3 or OPS[op] == 18:
        out += dst or side()
    return out + params


M44 = [(4, 1), (4, 4)]
T44 = [(4, 4), (4, 1)]
seeds = [
    seed("copy", M44, M44, params=b"\x02"),
    seed("copy", M44, T44, params=b"\x02"),
    seed("copy", [(8, 1), (8, 8)], [(8, 8), (8, 1)], "float64", params=b"\x01"),
    seed("copy", [(4, 0), (4, 1)], M44, params=b"\x02"),                       # broadcast source
    seed("copy", [(8, -1)], [(8, 1)], src=side(32768), params=b"\x02"),         # negative stride
    seed("copy", M44, [(4, 1), (4, 0)], params=b"\x02"),                       # dst not injective
    seed("copy", M44, [[(2, 1), (2, 2)], [(2, 4), (2, 8)]], "bytes3", params=b"\x05"),
    seed("copy", [(6, 2)], [(6, 2)], flags=1, dst=side(4), params=b"\x02"),     # interleaved in one buffer
    seed("copy", [(6, 1)], [(6, 1)], flags=1, dst=side(8), params=b"\x02"),     # shifted: overlap
    seed("copy", M44, [(4, 1), (3, 4)], params=b"\x02"),                       # sizes differ
    seed("copy", M44, M44, "int32", "float32", params=b"\x02"),                # types differ
    seed("copy", M44, M44, "int32", "int8", params=b"\x02"),                   # sizes of elements differ
    seed("copy", [(4, 1 << 40)], M44, params=b"\x02"),                         # offsets overflow
    seed("copy", [(8, 1), (8, 8), (8, 64)], [(8, 64), (8, 1), (8, 8)], "bytes16", params=b"\x02"),
    seed("copy_one_buffer", [(16, 1)], [(16, -1)], dst=side(32768), params=b"\x02"),
    seed("explain", M44, T44, params=b"\x04"),
    seed("explain", M44, T44, params=b"\x00"),
    seed("fill", M44, [(4, 0), (4, 2)], params=bytes(range(1, 17))),
    seed("fill", M44, [(3, 5), (2, -1)], "bytes3", dst=side(100, "part", 0, 200), params=b"\xAA" * 16),
    seed("fill_src", [(7, 3)], M44, "int8", params=b"\x7F" * 16),
    seed("slice", M44, M44, params=b"\x00\x04"),
    seed("slice", [[(2, 1), (2, 4)], [(2, 2), (2, 8)]], M44, params=b"\x06\x00"),
    seed("slice", [(4, 1), (4, 4), (2, 16)], M44, params=b"\x03\x00\x06"),
    seed("logical_divide", [(8, 1), (8, 8)], M44, params=b"\x01\x09\x0d"),
    seed("zipped_divide", [(8, 1), (8, 8)], M44, params=b"\x01\x0a\x03\x0d"),
    seed("compose", [(8, 1), (8, 8)], M44, params=b"\x02\x0a\x03\x02"),
    seed("compose_layout", [(8, 1), (8, 8)], [(4, 2), (2, 1)]),
    seed("inner", [(8, 1), (8, 8)], M44, params=b"\x01\x09\x0d\x08\x06\x0b"),
    seed("local_tile", [(8, 8), (8, 1)], M44, src=side(0, "part", 0, 256), params=b"\x01\x09\x0d\x04"),
    seed("outer", [(8, 1), (8, 8)], M44, params=b"\x01\x09\x0d\x08\x06\x06"),
    seed("local_partition", [(8, 1), (8, 8)], [(2, 1), (4, 2)], params=b"\x05"),
    seed("local_partition", [(8, 1), (8, 8)], [(2, 0), (4, 2)], params=b"\x05"),
    seed("recast", [(8, 1), (4, 8)], M44, "int32", params=bytes([ELEM["int8"]])),
    seed("recast", [(8, 1), (4, 8)], M44, "int8", params=bytes([ELEM["int32"]])),
    seed("recast", [(8, -1), (4, 8)], M44, "int8", src=side(32768), params=bytes([ELEM["float16"]])),
    seed("flatten_group", [[(2, 1), (2, 2)], (3, 4)], M44, params=b"\x00"),
    seed("flatten_group", [(2, 1), (2, 2), (3, 4)], M44, params=b"\x04\x03"),
    seed("print", M44, M44, "float32", params=b"\x04"),
    seed("print", [(2, 1), (2, 2), (2, 4)], M44, "int8", params=b"\x05"),
    seed("print", [(3, 1)], M44, "bytes3", params=b"\x06"),
    seed("print", [(2, 1), [(2, 2), (2, 4)], [(2, 8), (2, 16)]], M44, "float16", params=b"\x02"),
    seed("dlpack", [(4, -1), (4, 4)], M44, "float32", src=side(32768)),
    seed("dlpack", [[(2, 1), (2, 2)], (3, 4)], M44, "bytes3"),
    seed("odometer", [[(2, 1), (3, 7)], (4, -2), (2, 0)], M44, src=side(32768), params=b"\x04"),
    seed("eval_range", [(3, 5), (4, -2)], M44, src=side(32768), params=b"\x01\x14"),
    seed("eval_range", [(3, 1 << 62), (4, 1 << 62)], M44, params=b"\x01\x14"),
]

out = os.path.join(os.path.dirname(__file__), "corpus", "tensor")
os.makedirs(out, exist_ok=True)
for s in seeds:
    with open(os.path.join(out, hashlib.sha1(s).hexdigest()[:16]), "wb") as f:
        f.write(s)
