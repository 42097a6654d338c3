# SPDX-License-Identifier: BSD-3-Clause
"""pycute's names and call forms on libcutelayout, so that code written for
CUTLASS's pure-Python pycute runs unchanged:

    from cutelayout import pycute           # instead of: import pycute
    from cutelayout.pycute import *         # instead of: from pycute import *

Layout(shape, stride), Swizzle(bits, base, shift), ComposedLayout(B, offset,
A), the int-tuple functions (flatten, product, shape_div, prefix_product,
idx2crd, crd2idx, crd2crd, slice_, has_none, ...) and the algebra
(composition, complement, right_inverse, left_inverse, logical_divide,
zipped_divide, tiled_divide, logical_product, zipped_product, tiled_product,
blocked_product, raked_product, coalesce, filter, make_layout,
slice_and_offset, size, cosize) behave as pycute's do: len(L) is the rank,
L[i] a mode, iteration runs over the modes, str(L) is "(4, 8):(8, 1)",
`.shape` and `.stride` are Python tuples, None is the slicing wildcard and
a tiler mode that is left alone.

The answers are CuTe C++'s (the library's) where pycute's differ: size-1
modes, left_inverse of a non-injective layout, composition(1:1, 1:1),
logical_product(A, n) (pycute divides there).  docs/python.md lists them."""
import functools
import itertools

from . import _algebra, _values
from ._layout import ComposedLayout as _ComposedLayout, Layout as _Layout, Swizzle as _Swizzle, \
    make_swizzle as _make_swizzle

# --------------------------------------------------------------- typing


class _IntegerMeta(type):
    def __instancecheck__(cls, x):
        return isinstance(x, int) and not isinstance(x, bool)

    def __subclasscheck__(cls, c):
        return issubclass(c, int) and c is not bool


class Integer(metaclass=_IntegerMeta):
    """pycute.typing.Integer: isinstance(x, Integer) for ints (not bool)."""


# ----------------------------------------------------------- int tuples

def is_int(x):
    return isinstance(x, Integer)


def is_tuple(x):
    return isinstance(x, tuple)


def flatten(t):
    """The leaves of t as a flat tuple; (t,) for an int."""
    if not is_tuple(t):
        return (t,)
    return _as_tuple(_values.tuple_flatten(t))


def _as_tuple(x):
    return x if is_tuple(x) else (x,)


def signum(a):
    return bool(a > 0) - bool(a < 0)


def product(a):
    return _values.product(a)


def inner_product(a, b):
    return _values.inner_product(a, b)


def tuple_max(a):
    return _values.tuple_max(a)


def elem_scale(a, b):
    return _values.elem_scale(a, b)


def shape_div(a, b):
    return _values.shape_div(a, b)


def prefix_product(a, init=1):
    """The exclusive prefix products of a, times init (congruent with a;
    unlike compact_col_major, a size-1 mode keeps its product)."""
    if is_tuple(init):
        if not is_tuple(a) or len(a) != len(init):
            raise ValueError('prefix_product: %r and %r have different ranks' % (a, init))
        return tuple(prefix_product(x, i) for x, i in zip(a, init))
    return _scaled(_values.prefix_product(a), init)


def _scaled(t, k):
    return tuple(_scaled(x, k) for x in t) if is_tuple(t) else t * k


def idx2crd(idx, shape, stride=None):
    return _values.idx2crd(idx, shape, stride)


def crd2idx(crd, shape, stride=None):
    if stride is None:
        stride = prefix_product(shape)
    return _values.crd2idx_tuple(0 if crd is None else crd, shape, stride)


def crd2crd(crd, dst_shape, src_shape=None):
    """pycute's argument order: the coordinate crd (of src_shape) as a
    coordinate of dst_shape."""
    if is_tuple(crd) and not is_tuple(dst_shape) and src_shape is not None:
        return crd2idx(crd, src_shape)
    if is_tuple(crd) and is_tuple(dst_shape):
        if len(crd) != len(dst_shape):
            raise ValueError('crd2crd: %r and %r have different ranks' % (crd, dst_shape))
        return tuple(crd2crd(x, y) for x, y in zip(crd, dst_shape))
    if is_tuple(dst_shape):
        return idx2crd(crd, dst_shape)
    if is_tuple(crd):
        raise ValueError('crd2crd of a tuple into an int needs src_shape')
    if not crd < dst_shape:
        raise ValueError('crd2crd: %r is outside %r' % (crd, dst_shape))
    return crd


def slice_(crd, trg):
    """trg's elements at crd's None positions, flattened (CuTe's slice)."""
    if crd is None:
        return (trg,)
    if not is_tuple(crd):
        return ()
    return _as_tuple(_values.tuple_slice(crd, trg))


def has_none(a):
    return any(has_none(v) for v in a) if is_tuple(a) else a is None


# --------------------------------------------------------------- values

class LayoutBase:
    """pycute's base of Layout and ComposedLayout (is_layout)."""


def is_layout(x):
    return isinstance(x, LayoutBase)


class Layout(_Layout, LayoutBase):
    """pycute's Layout(shape, stride=None) on a library layout: len(L) is the
    rank, L[i] the i-th mode, iter(L) the modes, str(L) "(4, 8):(8, 1)"."""
    __slots__ = ()

    def __len__(self):
        return self.rank() if is_tuple(self.shape) else 1

    def __getitem__(self, i):
        if not is_tuple(self.shape):
            if i != 0:
                raise IndexError('mode %r of a rank-1 layout' % (i,))
            return self
        shape, stride = self.shape[i], self.stride[i]
        return Layout(shape, stride)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def _call(self, *args):
        return _pc(super()._call(*args))

    def __str__(self):
        return '%s:%s' % (self.shape, self.stride)

    def __repr__(self):
        return 'Layout(%s,%s)' % (self.shape, self.stride)

    def __reduce__(self):
        return (Layout, (self.shape, self.stride))

    __hash__ = _Layout.__hash__


class Swizzle(_Swizzle):
    """pycute's Swizzle(bits, base, shift), printed SW_bits_base_shift."""
    __slots__ = ()

    @property
    def yyy_msk(self):
        return self.masks[0]

    @property
    def zzz_msk(self):
        return self.masks[1]

    def size(self):
        return 1 << (self.bits + self.base + abs(self.shift))

    def cosize(self):
        return self.size()

    def __str__(self):
        return 'SW_%d_%d_%d' % (self.bits, self.base, self.shift)

    def __repr__(self):
        return 'Swizzle(%d,%d,%d)' % (self.bits, self.base, self.shift)


class ComposedLayout(_ComposedLayout, LayoutBase):
    """pycute's ComposedLayout(layoutB, offset, layoutA): i -> B(offset + A(i))."""
    __slots__ = ()

    @property
    def layoutB(self):
        return _pc(self.outer)

    @property
    def layoutA(self):
        return _pc(self.inner)

    def __len__(self):
        return len(self.layoutA)

    def __getitem__(self, i):
        return ComposedLayout(self.outer, self.offset, self.layoutA[i])

    def __str__(self):
        return '%s o %s o %s' % (self.layoutB, self.offset, self.layoutA)

    def __repr__(self):
        return 'ComposedLayout(%r,%r,%r)' % (self.layoutB, self.offset, self.layoutA)

    def __reduce__(self):
        return (ComposedLayout, (self.layoutB, self.offset, self.layoutA))


def _pc(x):
    """A result as pycute's classes."""
    if isinstance(x, _Layout) and not isinstance(x, Layout):
        return Layout(x)
    if isinstance(x, _ComposedLayout) and not isinstance(x, ComposedLayout):
        return ComposedLayout(x)
    if isinstance(x, _Swizzle) and not isinstance(x, Swizzle):
        return Swizzle(x.bits, x.base, x.shift)
    return x


def _fn(x):
    """A layout argument: an int is Layout(x), as in pycute."""
    return Layout(x) if is_int(x) else x


def _tiler(b):
    """pycute's second operand: None (leave the mode), an int (Layout(b)), a
    layout, or a tuple of those by mode."""
    if b is None or is_int(b):
        return _fn(b)
    if is_tuple(b):
        return tuple(_tiler(x) for x in b)
    return b


# --------------------------------------------------------------- algebra

def make_layout(*layouts):
    """The layouts as the modes of one (or the layouts of one iterable)."""
    if len(layouts) == 1 and not is_layout(layouts[0]):
        layouts = tuple(layouts[0])
    return _pc(_algebra.make_layout(*layouts)) if layouts else Layout((), ())


def size(layout):
    return layout.size() if is_layout(layout) else product(layout)


def cosize(layout):
    return layout.cosize()


def coalesce(layout, profile=None):
    return _pc(_algebra.coalesce(_fn(layout), profile))


def filter(layout, profile=None):  # noqa: A001 (pycute's name)
    return _pc(_algebra.filter(_fn(layout), profile))


def composition(layoutA, layoutB):
    if layoutB is None:
        return layoutA
    return _pc(_algebra.composition(_fn(layoutA), _tiler(layoutB)))


def complement(layout, max_idx=1):
    return _pc(_algebra.complement(_fn(layout), max_idx))


def right_inverse(layout):
    return None if layout is None else _pc(_algebra.right_inverse(_fn(layout)))


def left_inverse(layout):
    return None if layout is None else _pc(_algebra.left_inverse(_fn(layout)))


def _tiling(name):
    op = getattr(_algebra, name)

    def f(layoutA, layoutB):
        if layoutB is None and name.startswith('logical'):
            return layoutA
        return _pc(op(_fn(layoutA), _tiler(layoutB)))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = 'pycute\'s %s(layoutA, layoutB), with CuTe C++\'s answer.' % name
    return f


logical_divide = _tiling('logical_divide')
zipped_divide = _tiling('zipped_divide')
tiled_divide = _tiling('tiled_divide')
logical_product = _tiling('logical_product')
zipped_product = _tiling('zipped_product')
tiled_product = _tiling('tiled_product')
blocked_product = _tiling('blocked_product')
raked_product = _tiling('raked_product')


def slice_and_offset(crd, layout):
    """(the sub-layout over crd's None positions, the offset of the rest)."""
    sliced, offset = _algebra.slice_and_offset(crd, layout)
    return _pc(sliced), offset


def make_swizzle(yyy_msk, zzz_msk):
    return _pc(_make_swizzle(yyy_msk, zzz_msk))


def shiftr(a, s):
    return a >> s if s > 0 else shiftl(a, -s)


def shiftl(a, s):
    return a << s if s > 0 else shiftr(a, -s)


# pycute's star import also gives these two.
chain = itertools.chain
reduce = functools.reduce
