# SPDX-License-Identifier: BSD-3-Clause
"""CuTe's MMA and copy atoms, tiled MMAs and tiled copies (atom.h): names in,
Layouts out.

    >>> from cutelayout import MmaAtom, TiledMMA, CopyAtom, TiledCopy
    >>> mma = TiledMMA("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)")
    >>> mma.layout_tv("C").size(), mma.tile_shape()
    (512, (32, 16, 16))
    >>> mma.partition("A", 5, "(64,32):(1,64)")
    (Layout('((2,2,2),2,2):((64,8,512),32,1024)'), 129)
    >>> str(TiledCopy.for_mma(CopyAtom("SM75_U32x4_LDSM_N", "half_t"), mma, "A").side_tv("S"))
    '((16,2,2,2),(8,1)):((1,256,16,0),(32,0))'
"""
from ctypes import c_int32, c_int64, c_void_p, byref

from ._ffi import Owned, capi, check, out_call, snprintf_text
from ._layout import ComposedLayout, Layout
from ._tensor import Tensor
from ._values import Tuple, value_of

_OPERANDS = {'A': 0, 'B': 1, 'C': 2}
_SIDES = {'S': 0, 'D': 1, 'SRC': 0, 'DST': 1, 'REF': 2}
KINDS = ('plain', 'ldmatrix', 'stmatrix', 'cp.async')
FAMILIES = {'mma': 0, 'copy': 1, 'type': 2, 'smem': 3}


def _operand(x):
    return _OPERANDS[x.upper()] if isinstance(x, str) else int(x)


def _side(x):
    return _SIDES[x.upper()] if isinstance(x, str) else int(x)


def _layout(x):
    return x if isinstance(x, Layout) else Layout(x)


def _either(layout, composed):
    """The one handle an either-or result set (swizzle.h)."""
    return Layout._adopt(layout) if layout else ComposedLayout._adopt(composed)


def catalog(family='mma'):
    """The catalog's names of a family: 'mma', 'copy', 'type' or 'smem'."""
    names, i = [], 0
    while True:
        name = capi.cl_atom_catalog_name(FAMILIES[family], i)
        if name is None:
            return names
        names.append(name.decode())
        i += 1


def type_bits(type_name):
    """The width in bits of a CuTe element type ('half_t' -> 16)."""
    return out_call(capi.cl_atom_type_bits, type_name.encode(), out_type=c_int64).value


def gmma_smem_atom(name):
    """A GMMA shared-memory layout atom in elements: ((B, M, S), Layout)."""
    b, m, s = c_int32(), c_int32(), c_int32()
    out = c_void_p()
    check(capi.cl_gmma_smem_atom(name.encode(), byref(b), byref(m), byref(s), byref(out)))
    return (b.value, m.value, s.value), Layout._adopt(out)


class MmaAtom(Owned):
    """CuTe's MMA_Atom of an operation's name: MmaAtom('SM80_16x8x16_F32F16F16F32_TN')."""
    __slots__ = ('_as_parameter_',)
    _free = capi.cl_mma_atom_free

    def __init__(self, name):
        self._as_parameter_ = out_call(capi.cl_mma_atom_new, str(name).encode())

    @classmethod
    def _adopt(cls, handle):
        self = cls.__new__(cls)
        self._as_parameter_ = handle
        return self

    def __str__(self):
        return snprintf_text(capi.cl_mma_atom_format, self)

    def __repr__(self):
        return 'MmaAtom(%r)' % str(self)

    def thr_id(self):
        return Layout._adopt(out_call(capi.cl_mma_atom_thr_id, self))

    def shape_mnk(self):
        return value_of(out_call(capi.cl_mma_atom_shape_mnk, self))

    def layout_tv(self, operand):
        """The traits' ALayout, BLayout or CLayout (operand 'A', 'B', 'C')."""
        return Layout._adopt(out_call(capi.cl_mma_atom_layout_tv, self, _operand(operand)))

    def value_bits(self, operand):
        return capi.cl_mma_atom_value_bits(self, _operand(operand))


class CopyAtom(Owned):
    """CuTe's Copy_Atom<OP, T>: CopyAtom('SM75_U32x4_LDSM_N', 'half_t')."""
    __slots__ = ('_as_parameter_',)
    _free = capi.cl_copy_atom_free

    def __init__(self, op, type_name):
        self._as_parameter_ = out_call(capi.cl_copy_atom_new, op.encode(), type_name.encode())

    @classmethod
    def _adopt(cls, handle):
        self = cls.__new__(cls)
        self._as_parameter_ = handle
        return self

    def __str__(self):
        return snprintf_text(capi.cl_copy_atom_format, self)

    def __repr__(self):
        return 'CopyAtom<%s>' % str(self)

    def kind(self):
        """'plain', 'ldmatrix', 'stmatrix' or 'cp.async'."""
        return KINDS[capi.cl_copy_atom_kind(self)]

    def value_bits(self):
        return capi.cl_copy_atom_value_bits(self)

    def access_bits(self, side='S'):
        return capi.cl_copy_atom_access_bits(self, _side(side))

    def thr_id(self):
        return Layout._adopt(out_call(capi.cl_copy_atom_thr_id, self))

    def layout(self, side='S', in_bits=False):
        return Layout._adopt(out_call(capi.cl_copy_atom_layout, self, _side(side), int(bool(in_bits))))


class TiledMMA(Owned):
    """make_tiled_mma(atom, atom_layout=None, permutation=None)."""
    __slots__ = ('_as_parameter_',)
    _free = capi.cl_tiled_mma_free

    def __init__(self, atom, atom_layout=None, permutation=None):
        atom = atom if isinstance(atom, MmaAtom) else MmaAtom(atom)
        layout = None if atom_layout is None else _layout(atom_layout)
        perm = None if permutation is None else Tuple(permutation)
        self._as_parameter_ = out_call(capi.cl_make_tiled_mma, atom, layout, perm)

    def __str__(self):
        return snprintf_text(capi.cl_tiled_mma_format, self)

    def __repr__(self):
        return '<%s>' % str(self)

    def atom(self):
        return MmaAtom._adopt(out_call(capi.cl_tiled_mma_atom, self))

    def size(self):
        return capi.cl_tiled_mma_size(self)

    def thr_layout_vmnk(self):
        return Layout._adopt(out_call(capi.cl_tiled_mma_thr_layout_vmnk, self))

    def tile_shape(self):
        return value_of(out_call(capi.cl_tiled_mma_tile_shape, self))

    def layout_tv(self, operand):
        """get_layoutA_TV(), ... (operand 'A', 'B' or 'C')."""
        return Layout._adopt(out_call(capi.cl_tiled_mma_layout_tv, self, _operand(operand)))

    def thrfrg(self, operand, layout):
        return Layout._adopt(out_call(capi.cl_tiled_mma_thrfrg, self, _operand(operand), _layout(layout)))

    def partition(self, operand, thr, tensor):
        """get_slice(thr).partition_X of a Tensor (a Tensor view) or of a
        layout ((Layout, offset))."""
        if isinstance(tensor, Tensor):
            return tensor._view(out_call(capi.cl_tiled_mma_partition_tensor, self, _operand(operand), thr, tensor))
        out, offset = c_void_p(), c_int64()
        if isinstance(tensor, ComposedLayout):  # a swizzled tensor: the offset folds into the composed layout
            layout, composed = c_void_p(), c_void_p()
            check(capi.cl_tiled_mma_partition_composed(self, _operand(operand), thr, tensor, byref(layout),
                                                       byref(composed), byref(offset)))
            return _either(layout, composed), offset.value
        check(capi.cl_tiled_mma_partition(self, _operand(operand), thr, _layout(tensor), byref(out), byref(offset)))
        return Layout._adopt(out), offset.value


class TiledCopy(Owned):
    """make_tiled_copy(copy_atom, thr_layout, val_layout=None); for_mma for
    make_tiled_copy_A/B/C."""
    __slots__ = ('_as_parameter_',)
    _free = capi.cl_tiled_copy_free

    def __init__(self, atom, thr_layout, val_layout=None):
        val = None if val_layout is None else _layout(val_layout)
        self._as_parameter_ = out_call(capi.cl_make_tiled_copy, atom, _layout(thr_layout), val)

    @classmethod
    def for_mma(cls, atom, mma, operand):
        self = cls.__new__(cls)
        self._as_parameter_ = out_call(capi.cl_make_tiled_copy_operand, atom, mma, _operand(operand))
        return self

    def __str__(self):
        return snprintf_text(capi.cl_tiled_copy_format, self)

    def __repr__(self):
        return '<%s>' % str(self)

    def atom(self):
        return CopyAtom._adopt(out_call(capi.cl_tiled_copy_atom, self))

    def size(self):
        return capi.cl_tiled_copy_size(self)

    def layout_tv(self):
        return Layout._adopt(out_call(capi.cl_tiled_copy_layout_tv, self))

    def tiler_mn(self):
        return value_of(out_call(capi.cl_tiled_copy_tiler_mn, self))

    def side_tv(self, side):
        """get_layoutS_TV() (side 'S') or get_layoutD_TV() ('D')."""
        return Layout._adopt(out_call(capi.cl_tiled_copy_side_tv, self, _side(side)))

    def tidfrg(self, side, layout):
        return Layout._adopt(out_call(capi.cl_tiled_copy_tidfrg, self, _side(side), _layout(layout)))

    def retile(self, layout):
        """retile of a thread's fragment: a Layout, or for a ComposedLayout
        (a swizzled fragment) the (Layout or ComposedLayout, offset) pair."""
        if isinstance(layout, ComposedLayout):
            out, composed, offset = c_void_p(), c_void_p(), c_int64()
            check(capi.cl_tiled_copy_retile_composed(self, layout, byref(out), byref(composed), byref(offset)))
            return _either(out, composed), offset.value
        return Layout._adopt(out_call(capi.cl_tiled_copy_retile, self, _layout(layout)))

    def partition(self, side, thr, tensor):
        """get_slice(thr).partition_S/D of a Tensor (a view) or a layout."""
        if isinstance(tensor, Tensor):
            return tensor._view(out_call(capi.cl_tiled_copy_partition_tensor, self, _side(side), thr, tensor))
        out, offset = c_void_p(), c_int64()
        if isinstance(tensor, ComposedLayout):
            layout, composed = c_void_p(), c_void_p()
            check(capi.cl_tiled_copy_partition_composed(self, _side(side), thr, tensor, byref(layout), byref(composed),
                                                        byref(offset)))
            return _either(layout, composed), offset.value
        check(capi.cl_tiled_copy_partition(self, _side(side), thr, _layout(tensor), byref(out), byref(offset)))
        return Layout._adopt(out), offset.value
