# SPDX-License-Identifier: BSD-3-Clause
"""Coordinate tensors (coord_tensor.h), CuTe's identity tensors: an origin
coordinate and a layout with scaled-basis strides, whose element at each
coordinate is a coordinate.  Tiled and partitioned like a data tensor, they
say which global coordinates each thread owns, and elem_less(coordinate,
shape) whether each is inside the data: CUTLASS's predication.

    >>> from cutelayout import make_identity_tensor, local_tile
    >>> C = make_identity_tensor((6, 10))
    >>> local_tile(C, (4, 4), (1, 2))
    CoordTensor('ArithTuple(4,8) o (4,4):(1@0,1@1)')
    >>> local_tile(C, (4, 4), (1, 2))(3, 1)
    (7, 9)
"""
from ._ffi import Owned, capi, out_call, snprintf_text
from ._layout import Layout, _as_fn
from ._values import Tuple, _, optional_tuple, parse_value, value_of


def _coord_out(fn, *args):
    return CoordTensor._adopt(out_call(fn, *args))


class CoordTensor(Owned):
    """A coordinate tensor: CoordTensor(origin, layout), or from
    make_identity_tensor(shape) / make_coord_tensor(layout).  T(i), T(crd) and
    T(i, j, ...) are the coordinates there; T[crd] with `_` (or None, `:`) is
    CuTe's slice tensor(_, j), moving the origin."""
    __slots__ = ('_as_parameter_', '__weakref__')
    _free = capi.cl_coord_tensor_free

    def __init__(self, origin, layout):
        self._as_parameter_ = out_call(capi.cl_coord_tensor_new, Tuple(origin), _as_fn(layout))

    @classmethod
    def _adopt(cls, handle):
        self = cls.__new__(cls)
        self._as_parameter_ = handle
        return self

    @property
    def origin(self):
        """The origin coordinate (an int, a scaled basis or a tuple of them)."""
        return parse_value(snprintf_text(capi.cl_tuple_format, capi.cl_coord_tensor_origin(self)))

    @property
    def layout(self):
        """The tensor's layout (a copy)."""
        return Layout._adopt(out_call(capi.cl_layout_copy, capi.cl_coord_tensor_layout(self)))

    def __call__(self, *crd):
        crd = crd[0] if len(crd) == 1 else crd
        if isinstance(crd, int):
            return value_of(out_call(capi.cl_coord_tensor_eval, self, crd))
        return value_of(out_call(capi.cl_coord_tensor_eval_coord, self, Tuple(crd)))

    def __getitem__(self, crd):
        if not isinstance(crd, tuple):
            crd = (crd,)
        return _coord_out(capi.cl_coord_tensor_slice, self, Tuple(tuple(_underscores(c) for c in crd)))

    def with_layout(self, layout):
        """The same origin with another layout (any layout operation on a coordinate tensor)."""
        return _coord_out(capi.cl_coord_tensor_with_layout, self, _as_fn(layout))

    def local_tile(self, tiler, coord, proj=None):
        return _coord_out(capi.cl_coord_local_tile, self, Tuple(tiler), Tuple(coord), optional_tuple(proj))

    def outer_partition(self, tiler, coord):
        return _coord_out(capi.cl_coord_outer_partition, self, Tuple(tiler), Tuple(coord))

    def local_partition(self, thr_layout, index, proj=None):
        return _coord_out(capi.cl_coord_local_partition, self, _as_fn(thr_layout), index, optional_tuple(proj))

    def size(self):
        return self.layout.size()

    def __len__(self):
        return self.size()

    def __str__(self):
        return snprintf_text(capi.cl_coord_tensor_format, self)

    def __repr__(self):
        return 'CoordTensor(%r)' % str(self)

    def _repr_svg_(self):
        from ._picture import draw
        return draw(self)


def _underscores(c):
    return _ if c is None or (isinstance(c, slice) and c == slice(None)) else c


def make_identity_tensor(shape):
    """CuTe's make_identity_tensor(shape): ArithTuple(0,...) o make_identity_layout(shape)."""
    return _coord_out(capi.cl_make_identity_tensor, Tuple(shape))


def make_coord_tensor(layout):
    """CuTe's make_coord_tensor(layout): the layout at origin coprofile(layout)."""
    return _coord_out(capi.cl_make_coord_tensor, _as_fn(layout))
