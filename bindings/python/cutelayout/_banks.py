# SPDX-License-Identifier: BSD-3-Clause
"""Shared-memory bank conflicts and the swizzle search (banks.h): a thin
layer over the C functions.

    >>> from cutelayout import bank_conflicts, swizzle_search
    >>> bank_conflicts("((8,4),8):((1,64),8)", "(8,64):(64,1)", 16, op="ldmatrix")
    (32, 4)
    >>> swizzle_search("(8,64):(64,1)", 16, "((8,4),8):((1,64),8)", op="ldmatrix")
    ComposedLayout('Sw<3,3,3> o 0 o (8,64):(64,1)')
    >>> swizzle_search("(32,32):(32,1)", 32, "(32,1):(32,0)", "((2,2,2,2,2),1):((33,1,4,8,16),0)", padding=True)
    Layout('(32,32):(33,1)')

An access is a TV layout (thread, value) -> tile index, over a shared-memory
layout (a Layout or a ComposedLayout, tile index -> element offset), of
elements of `bits` bits, standing for instruction `op`: "ld", "st",
"ldmatrix", "stmatrix" or "cp.async"."""
from collections import namedtuple
from ctypes import byref, c_int64

from ._ffi import Owned, capi, check, cl_bank_instruction_t, cl_smem_access_t, cl_smem_choice_t, cl_swizzle_t, out_call
from ._layout import ComposedLayout, Layout, Swizzle, _as_fn, side_arg

OPS = {'ld': 'CL_SMEM_LOAD', 'st': 'CL_SMEM_STORE', 'ldmatrix': 'CL_SMEM_LDMATRIX', 'stmatrix': 'CL_SMEM_STMATRIX',
       'cp.async': 'CL_SMEM_CP_ASYNC'}

Instruction = namedtuple('Instruction', 'warp index bytes wavefronts ideal tile offset')
Instruction.__doc__ = """One instruction of a report: warp `warp`'s `index`-th vector, `bytes` a
lane, its wavefronts and the ideal, and each lane's first tile index and
element offset (-1 for a lane that takes no part)."""


def _op(op):
    if op not in OPS:
        raise ValueError('op must be one of %s, not %r' % (', '.join(OPS), op))
    return getattr(capi, OPS[op])


def _access(tv, bits, op, vector_bits, matrices):
    tv = _as_fn(tv)
    if not isinstance(tv, Layout):
        raise TypeError('a TV layout is a Layout, not %r' % (tv,))
    return tv, cl_smem_access_t(tv._as_parameter_, bits, _op(op), vector_bits, matrices)


class _Report(Owned):
    __slots__ = ('_as_parameter_', '__weakref__')
    _free = capi.cl_bank_report_free


def _report(tv, smem, bits, op, vector_bits, matrices):
    # tv and smem stay referenced here while the call borrows their handles
    tv, access = _access(tv, bits, op, vector_bits, matrices)
    smem = _as_fn(smem)
    report = _Report()
    report._as_parameter_ = out_call(capi.cl_bank_conflicts, byref(access), side_arg(smem))
    return report


def bank_report(tv, smem, bits, op='ld', vector_bits=0, matrices=0):
    """Every instruction of the access over smem, as a list of Instruction."""
    report = _report(tv, smem, bits, op, vector_bits, matrices)
    out = []
    for i in range(check(capi.cl_bank_report_count(report))):
        ins = cl_bank_instruction_t()
        check(capi.cl_bank_report_instruction(report, i, byref(ins)))
        tiles, offsets = [], []
        for lane in range(32):
            tile, offset = c_int64(), c_int64()
            check(capi.cl_bank_report_lane(report, i, lane, byref(tile), byref(offset)))
            tiles.append(tile.value)
            offsets.append(offset.value)
        out.append(Instruction(ins.warp, ins.index, ins.bytes, ins.wavefronts, ins.ideal, tuple(tiles), tuple(offsets)))
    return out


def bank_conflicts(tv, smem, bits=None, op='ld', vector_bits=0, matrices=0):
    """(wavefronts, ideal) of the access over smem: CuTe's bank_conflicts.
    bank_conflicts(tiled_copy, smem) counts a TiledCopy's own instructions
    on its shared-memory side."""
    if bits is None:
        smem = _as_fn(smem)
        report = _Report()
        report._as_parameter_ = out_call(capi.cl_bank_conflicts_tiled_copy, tv, side_arg(smem))
    else:
        report = _report(tv, smem, bits, op, vector_bits, matrices)
    w, i = c_int64(), c_int64()
    check(capi.cl_bank_report_totals(report, byref(w), byref(i)))
    return w.value, i.value


def smem_wavefronts(op, lanes, bytes):
    """(wavefronts, ideal) of one instruction from its 32 lanes' byte addresses (-1: none)."""
    if len(lanes) != 32:
        raise ValueError('an instruction has 32 lanes, not %d' % len(lanes))
    w, i = c_int64(), c_int64()
    check(capi.cl_smem_wavefronts(_op(op), (c_int64 * 32)(*lanes), bytes, byref(w), byref(i)))
    return w.value, i.value


def swizzle_search(smem, bits, *tvs, op='ld', padding=False):
    """Sw<B,M,S> o 0 o smem with the fewest wavefronts for all the accesses
    (TV layouts, each of instruction op, or (tv, op) pairs).  With
    padding=True, where no swizzle is conflict-free, smem with its leading
    stride padded when that takes fewer wavefronts (a plain Layout; C's
    cl_swizzle_search_padded)."""
    smem = _as_fn(smem)
    if not isinstance(smem, Layout):
        raise TypeError('the search swizzles a Layout, not %r' % (smem,))
    held, accesses = [], []
    for tv in tvs:
        tv, tv_op = tv if isinstance(tv, tuple) else (tv, op)
        layout, access = _access(tv, bits, tv_op, 0, 0)
        held.append(layout)
        accesses.append(access)
    array = (cl_smem_access_t * len(accesses))(*accesses)
    if padding:
        choice = cl_smem_choice_t()
        chosen = Layout._adopt(out_call(capi.cl_swizzle_search_padded, smem, array, len(accesses), byref(choice)))
        if choice.padding > 0:
            return chosen
        sw = choice.swizzle
        return ComposedLayout(Swizzle(sw.bits, sw.base, sw.shift), 0, smem)
    best = cl_swizzle_t()
    check(capi.cl_swizzle_search(smem, (cl_smem_access_t * len(accesses))(*accesses), len(accesses), byref(best),
                                 None, None))
    return ComposedLayout(Swizzle(best.bits, best.base, best.shift), 0, smem)
