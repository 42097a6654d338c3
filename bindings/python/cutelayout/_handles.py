# SPDX-License-Identifier: BSD-3-Clause
"""The floor of owned handles: `Tuple` (a cl_tuple_t made from a Python
value) and `LayoutBase` (a cl_layout_t: construction, L(i), text, equality,
queries), from the compiled extension cutelayout._native when it is built
and loads, else their ctypes equivalents below, which behave the same but
cost a microsecond or more per call.  `native` is the extension module (its
algebra on two layouts) or None.

Both types pass themselves to ctypes (`_as_parameter_`, the handle's
address) and wrap a handle a ctypes call returned (`Layout._adopt(handle)`,
`Tuple.adopt(handle)`), so the package's ctypes calls take either.

The values they convert (ints, nested tuples, `_`, scaled bases, layout
leaves) are those of _values, which registers its `_` and ScaledBasis here
(`register`); the stride tags LayoutLeft and LayoutRight live here, as
Layout() takes them."""
import operator
import os
from ctypes import byref, c_int64, c_void_p

from ._ffi import Owned, capi, check, error_class, negative_extent_error, snprintf_text


class _Strides:
    """LayoutLeft / LayoutRight: CuTe's tags for compact column- / row-major
    strides, as the second argument of Layout() and make_layout()."""
    __slots__ = ('name',)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return self.name

    def __reduce__(self):
        return self.name


LayoutLeft = _Strides('LayoutLeft')
LayoutRight = _Strides('LayoutRight')


def _make_error(status, detail):
    return error_class(status)(status, detail)


def _load_native():
    """The extension module, or None where it is not built, does not load,
    or CUTELAYOUT_NO_EXTENSION is set (the ctypes floor, for tests)."""
    if os.environ.get('CUTELAYOUT_NO_EXTENSION'):
        return None
    try:
        from . import _native as module
    except ImportError:
        return None
    return module


native = _load_native()

# ------------------------------------------------------ the ctypes floor
# The same types over ctypes, for a package without its extension.

_registered = {}


def _is_underscore(value):
    return value is None or value is _registered.get('underscore') or value == slice(None) or \
        (isinstance(value, str) and value == '_')


def _c_text(s):
    if '\0' in s:
        raise ValueError('text with an embedded NUL character')
    return s.encode()


def _leaf_text(value, shape):
    if _is_underscore(value):
        return '_'
    if isinstance(value, bool):
        raise TypeError('a coordinate or shape is made of integers, not booleans')
    if isinstance(value, (tuple, list)):
        return '(' + ','.join(_leaf_text(v, shape) for v in value) + ')'
    if isinstance(value, _registered.get('scaled_basis', ())) or isinstance(value, LayoutBase):
        return str(value)
    if isinstance(value, str):
        raise TypeError('expected an int, a tuple of ints, _ or a Layout, got %r' % (value,))
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError('expected an int, a tuple of ints, _ or a Layout, got %r' % (value,)) from None
    if not -2**63 <= v < 2**63:
        raise OverflowError('%r does not fit in a 64-bit integer' % (value,))
    if shape and v < 0:
        raise negative_extent_error(v)
    return str(v)


def _tuple_handle(value, shape=False):
    """A fresh cl_tuple_t of a Python value (or, at the top level, its text)."""
    out = c_void_p()
    text = value if isinstance(value, str) and not _is_underscore(value) else _leaf_text(value, shape)
    check(capi.cl_tuple_parse(_c_text(text), byref(out)))
    return out


def _address(handle):
    handle = handle if isinstance(handle, c_void_p) else c_void_p(handle)
    if not handle:
        raise ValueError('a NULL handle')
    return handle


class _Tuple(Owned):
    __slots__ = ('_as_parameter_',)

    def __init__(self, value):
        self._as_parameter_ = _tuple_handle(value)

    @classmethod
    def adopt(cls, handle):
        self = cls.__new__(cls)
        self._as_parameter_ = _address(handle)
        return self

    _free = capi.cl_tuple_free

    def value(self):
        return _registered['parse_value'](snprintf_text(capi.cl_tuple_format, self))


class _LayoutBase(Owned):
    __slots__ = ('_as_parameter_', '__weakref__')

    def __init__(self, shape, stride=None):
        out = c_void_p()
        if isinstance(shape, (_LayoutBase, str)):
            if stride is not None:
                raise TypeError('Layout(layout) and Layout(text) take no stride')
            if isinstance(shape, str):
                check(capi.cl_layout_parse(_c_text(shape), byref(out)))
                self._as_parameter_ = out
                if any(e < 0 for e in _flat(self.shape)):
                    raise negative_extent_error(min(_flat(self.shape)))
                return
            check(capi.cl_layout_copy(shape, byref(out)))
        else:
            s = _Tuple.adopt(_tuple_handle(shape, shape=True))
            if stride is None or stride is LayoutLeft:
                check(capi.cl_layout_make_left(s, byref(out)))
            elif stride is LayoutRight:
                check(capi.cl_layout_make_right(s, byref(out)))
            else:
                check(capi.cl_layout_make(s, _Tuple(stride), byref(out)))
        self._as_parameter_ = out

    @classmethod
    def _adopt(cls, handle):
        self = cls.__new__(cls)
        self._as_parameter_ = _address(handle)
        return self

    _free = capi.cl_layout_free

    def __call__(self, *crd):
        return self._call(*crd)

    def __str__(self):
        return snprintf_text(capi.cl_layout_format, self)

    def __eq__(self, other):
        if not isinstance(other, _LayoutBase):
            return NotImplemented
        return bool(capi.cl_layout_equal(self, other))

    def __hash__(self):
        return hash(str(self))

    @property
    def shape(self):
        return _owned_value(capi.cl_layout_shape, self)

    @property
    def stride(self):
        return _owned_value(capi.cl_layout_stride, self)

    @property
    def is_coordinate(self):
        return bool(capi.cl_layout_is_coordinate(self))

    def size(self):
        return _count(capi.cl_layout_size_checked, self)

    def cosize(self):
        return _count(capi.cl_layout_cosize_checked, self)

    def rank(self):
        return capi.cl_layout_rank(self)

    def depth(self):
        return capi.cl_layout_depth(self)


def _flat(t):
    return [x for v in t for x in _flat(v)] if isinstance(t, tuple) else [t]


def _owned_value(fn, *args):
    out = c_void_p()
    check(fn(*args, byref(out)))
    return _Tuple.adopt(out).value()


def _count(fn, *args):
    out = c_int64()
    check(fn(*args, byref(out)))
    return out.value


def register(underscore, scaled_basis, parse_value):
    """_values' `_`, ScaledBasis and text parser, which the conversions use."""
    _registered.update(underscore=underscore, scaled_basis=scaled_basis, parse_value=parse_value)
    if native is not None:
        native.register(make_error=_make_error, underscore=underscore, scaled_basis=scaled_basis,
                        layout_left=LayoutLeft, layout_right=LayoutRight, parse_value=parse_value)


if native is not None:
    Tuple, LayoutBase = native.Tuple, native.Layout
else:
    Tuple, LayoutBase = _Tuple, _LayoutBase
