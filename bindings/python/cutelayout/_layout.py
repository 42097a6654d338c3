# SPDX-License-Identifier: BSD-3-Clause
"""Layouts, swizzles and composed layouts (layout.h, eval.h, compiled.h,
swizzle.h): the objects.  The algebra on them is _algebra.py."""
import operator
from ctypes import POINTER, byref, c_int64, c_void_p

from . import _values
from ._handles import LayoutBase, LayoutLeft, LayoutRight, native  # noqa: F401 (LayoutLeft, LayoutRight: re-exported)
from ._ffi import (CuteLayoutError, Owned, capi, check, cl_compiled_layout_t, cl_fn, cl_layout_fn_t, cl_swizzle_t, out_call,
                   snprintf_text)
from ._values import Tuple, _int_out, has_underscore, value_of


def _path(path):
    path = tuple(operator.index(i) for i in path)
    return (c_int64 * len(path))(*path), len(path)


class _Function:
    """What layouts and composed layouts share: evaluation, slicing, modes,
    text, equality, pickling and pictures."""
    __slots__ = ()

    def _call(self, *crd):
        """L(i) for a linear coordinate i, L(crd) or L(c0, c1, ...) for a
        (hierarchical) coordinate; with `_` (or None) in the coordinate, CuTe's
        slice: the sub-layout over the `_` modes."""
        if not crd:
            raise TypeError('a layout takes a coordinate')
        crd = crd[0] if len(crd) == 1 else crd
        if has_underscore(crd):
            return self.slice(crd)
        if isinstance(crd, (tuple, list)):
            return self._eval_coord(Tuple(crd))
        return self._eval(operator.index(crd))

    __call__ = _call  # (Layout's base class evaluates L(i) itself, then calls _call for the rest)

    def __getitem__(self, key):
        """L[i], L[i, j]: the mode get<i,j>(L).  L[:, 2] or L[None, 2]: CuTe's
        slice L(_, 2)."""
        if has_underscore(key):
            return self.slice(key)
        return self.get(*(key if isinstance(key, tuple) else (key,)))

    def __len__(self):
        """size(L): the number of coordinates."""
        return self.size()

    def __iter__(self):
        """L(0), L(1), ..., L(size-1)."""
        return (self(i) for i in range(self.size()))

    def __repr__(self):
        return '%s(%r)' % (type(self).__name__, str(self))

    def __hash__(self):
        return hash((type(self), str(self)))

    def __reduce__(self):
        return (type(self), (str(self),))

    def __copy__(self):
        return self  # immutable

    def __deepcopy__(self, memo):
        return self

    def _repr_svg_(self):
        """The picture of the layout, for Jupyter (None when too large to draw)."""
        from ._picture import draw
        try:
            return draw(self)
        except CuteLayoutError:
            return None

    def _repr_html_(self):
        svg = self._repr_svg_()
        if svg is None:
            return None
        svg = svg[svg.index('<svg'):]  # inline: without the XML declaration
        return '<div class="cutelayout">%s</div>' % svg

    def slice_and_offset(self, crd):
        """CuTe's slice_and_offset(crd, L): (slice(crd, L), L(crd) with `_` as 0)."""
        from ._algebra import slice_and_offset
        return slice_and_offset(crd, self)


class Layout(LayoutBase, _Function):
    """CuTe's Layout: a function from coordinates to indices given by a shape
    and a congruent stride.

        Layout("(2,4):(1,2)")        from the canonical text
        Layout((2, 4), (1, 2))       from a shape and a stride
        Layout((2, 4))               compact column-major (LayoutLeft)
        Layout((2, 4), LayoutRight)  compact row-major
        Layout((4, 8), (E(0), E(1))) a coordinate layout (scaled-basis strides)

    Immutable and hashable; the C handle it owns is freed with the object.
    L(i) and L(crd) evaluate, L[i] is a mode, L[:, 2] a slice, len(L) the
    size, iter(L) the values; repr(L) round-trips; pickles as its text.
    """
    __slots__ = ()

    # The handle, construction, L(i), text, equality, hashing, shape,
    # stride, is_coordinate, size, cosize, rank and depth are LayoutBase's
    # (_handles: the compiled extension's type, or its ctypes equivalent);
    # _adopt(handle) wraps a handle a C call returned.

    @property
    def coshape(self):
        """coshape(L): the cosize, or for a coordinate layout the bound of its values."""
        return value_of(out_call(capi.cl_layout_coshape, self))

    # ---- evaluation
    def _eval(self, i):
        if self.is_coordinate:
            return value_of(out_call(capi.cl_layout_eval_tuple, self, i))
        return _int_out(capi.cl_layout_eval, self, i)

    def _eval_coord(self, crd):
        if self.is_coordinate:
            return value_of(out_call(capi.cl_layout_eval_coord_tuple, self, crd))
        return _int_out(capi.cl_layout_eval_coord, self, crd)

    def indices(self, begin=0, count=None):
        """L(begin), ..., L(begin+count-1) (by default every L(i), i < size)
        as a numpy int64 array, computed by the library without a Python loop."""
        import numpy
        if count is None:
            count = self.size() - begin
        out = numpy.empty(max(count, 0), dtype=numpy.int64)
        check(capi.cl_layout_eval_range(self, begin, count, out.ctypes.data_as(POINTER(c_int64))))
        return out

    def odometer(self):
        """An Odometer over L(0), L(1), ... (one addition per step)."""
        return Odometer(self)

    def compile(self):
        """The CompiledLayout: plain data that evaluates L(i) inline (compiled.h)."""
        out = cl_compiled_layout_t()
        check(capi.cl_layout_compile(self, byref(out)))
        return CompiledLayout(out)

    # ---- modes (also module functions: get, slice, flatten, ...)
    def get(self, *path):
        """get<i,j,...>(L): the sub-layout at a path of mode indices."""
        return Layout._adopt(out_call(capi.cl_layout_get, self, *_path(path)))

    def slice(self, crd):
        """CuTe's slice(crd, L): the sub-layout over the `_` positions of crd."""
        return Layout._adopt(out_call(capi.cl_layout_slice, Tuple(crd), self))


if native is not None:
    native.register(layout_class=Layout)  # the extension reuses its objects (_native.c, layout_spare)


class Swizzle:
    """CuTe's Swizzle<B,M,S>: x ^ ((x & yyy_msk) >> S), printed Sw<B,M,S>.

        Swizzle(3, 3, 3) or Swizzle("Sw<3,3,3>")

    Sw(x) applies it; composition(Sw, L) makes a swizzled layout."""
    __slots__ = ('bits', 'base', 'shift')

    def __init__(self, bits, base=None, shift=None):
        out = cl_swizzle_t()
        if isinstance(bits, str):
            if base is not None or shift is not None:
                raise TypeError('Swizzle(text) takes no other argument')
            check(capi.cl_swizzle_parse(bits.encode(), byref(out)))
        else:
            if base is None or shift is None:
                raise TypeError('Swizzle(bits, base, shift)')
            check(capi.cl_swizzle_make(operator.index(bits), operator.index(base), operator.index(shift), byref(out)))
        self._set(out)

    def _set(self, c):
        object.__setattr__(self, 'bits', c.bits)
        object.__setattr__(self, 'base', c.base)
        object.__setattr__(self, 'shift', c.shift)

    @classmethod
    def _adopt(cls, c):
        self = cls.__new__(cls)
        self._set(c)
        return self

    def __setattr__(self, name, value):
        raise AttributeError('Swizzle is immutable')

    @property
    def _as_parameter_(self):
        return cl_swizzle_t(self.bits, self.base, self.shift)

    def __call__(self, offset):
        """The swizzle function at an index."""
        return _int_out(capi.cl_swizzle_apply, self, operator.index(offset))

    @property
    def masks(self):
        """(yyy_msk, zzz_msk), CuTe's masks."""
        yyy, zzz = c_int64(), c_int64()
        check(capi.cl_swizzle_masks(self, byref(yyy), byref(zzz)))
        return yyy.value, zzz.value

    def max_alignment(self):
        """2^M: the largest aligned run the swizzle leaves in place."""
        return check(capi.cl_swizzle_max_alignment(self))

    def __eq__(self, other):
        if not isinstance(other, Swizzle):
            return NotImplemented
        return bool(capi.cl_swizzle_equal(self, other))

    def __hash__(self):
        return hash((Swizzle, self.bits, self.base, self.shift))

    def __str__(self):
        return snprintf_text(capi.cl_swizzle_format, self)

    def __repr__(self):
        return 'Swizzle(%d, %d, %d)' % (self.bits, self.base, self.shift)

    def __reduce__(self):
        return (Swizzle, (self.bits, self.base, self.shift))


def make_swizzle(yyy, zzz):
    """CuTe's make_swizzle<Y,Z>(): the swizzle with masks yyy and zzz."""
    out = cl_swizzle_t()
    check(capi.cl_make_swizzle(operator.index(yyy), operator.index(zzz), byref(out)))
    return Swizzle._adopt(out)


def fn_arg(f):
    """The cl_fn (a borrowed view) of a Layout or a Swizzle."""
    if isinstance(f, Layout):
        return cl_fn(capi.CL_FN_LAYOUT, cl_swizzle_t(), f._as_parameter_)
    if isinstance(f, Swizzle):
        return cl_fn(capi.CL_FN_SWIZZLE, f._as_parameter_, None)
    raise TypeError('expected a Layout or a Swizzle, got %r' % (f,))


def side_arg(f):
    """The cl_layout_fn_t (a borrowed view) of a Layout, a Swizzle or a
    ComposedLayout, which then nests."""
    if isinstance(f, ComposedLayout):
        return cl_layout_fn_t(cl_fn(capi.CL_FN_COMPOSED, cl_swizzle_t(), None), f._as_parameter_)
    return cl_layout_fn_t(fn_arg(f), None)


def _side_value(s):
    """The Layout, Swizzle or ComposedLayout a cl_layout_fn_t from
    cl_composed_sides describes (a copy of the borrowed handle)."""
    if s.composed:
        return ComposedLayout._adopt(out_call(capi.cl_composed_copy, c_void_p(s.composed)))
    if s.fn.kind == capi.CL_FN_SWIZZLE:
        return Swizzle._adopt(s.fn.swizzle)
    return Layout._adopt(out_call(capi.cl_layout_copy, c_void_p(s.fn.layout)))


class ComposedLayout(_Function, Owned):
    """CuTe's ComposedLayout A o offset o B: the function i -> A(offset + B(i)),
    each of A and B a Layout, a Swizzle or a ComposedLayout (which nests, as
    CuTe's ComposedLayout<A, O, B> does).

        ComposedLayout("Sw<3,3,3> o 0 o (8,8):(8,1)")
        ComposedLayout(Swizzle(3, 3, 3), 0, Layout("(8,8):(8,1)"))

    The second form is make_composed_layout (never simplified); CuTe's
    composition(Sw, offset, L) may give a plain Layout instead.  The inner
    function B defines the domain: size, shape, rank and coordinates are B's."""
    __slots__ = ('_as_parameter_', '__weakref__')

    def __init__(self, outer, offset=None, inner=None):
        self._as_parameter_ = c_void_p()
        out = byref(self._as_parameter_)
        if isinstance(outer, ComposedLayout) and offset is None and inner is None:
            check(capi.cl_composed_copy(outer, out))
        elif isinstance(outer, str) and offset is None and inner is None:
            check(capi.cl_composed_parse(outer.encode(), out))
        elif offset is not None and inner is not None:
            check(capi.cl_make_composed_nested(side_arg(_as_fn(outer)), operator.index(offset),
                                               side_arg(_as_fn(inner)), out))
        else:
            raise TypeError('ComposedLayout(text) or ComposedLayout(outer, offset, inner)')

    @classmethod
    def _adopt(cls, handle):
        """Wraps a handle the library just returned (ownership moves here)."""
        self = cls.__new__(cls)
        self._as_parameter_ = handle
        return self

    _free = capi.cl_composed_free

    def __str__(self):
        return snprintf_text(capi.cl_composed_format, self)

    def __eq__(self, other):
        if not isinstance(other, ComposedLayout):
            return NotImplemented
        return bool(capi.cl_composed_equal(self, other))

    __hash__ = _Function.__hash__

    def _parts(self):
        outer, inner, offset = cl_layout_fn_t(), cl_layout_fn_t(), c_int64()
        check(capi.cl_composed_sides(self, byref(outer), byref(offset), byref(inner)))
        return outer, offset.value, inner

    @property
    def outer(self):
        """A, the function applied last (a Layout, a Swizzle or a ComposedLayout)."""
        return _side_value(self._parts()[0])

    @property
    def offset(self):
        return self._parts()[1]

    @property
    def inner(self):
        """B, the function applied first, which defines the domain."""
        return _side_value(self._parts()[2])

    @property
    def shape(self):
        return value_of(out_call(capi.cl_composed_shape, self))

    def size(self):
        return _int_out(capi.cl_composed_size, self)

    def cosize(self):
        return _int_out(capi.cl_composed_cosize, self)

    def rank(self):
        return check(capi.cl_composed_rank(self))

    def depth(self):
        return check(capi.cl_composed_depth(self))

    def _eval(self, i):
        return _int_out(capi.cl_composed_eval, self, i)

    def _eval_coord(self, crd):
        return _int_out(capi.cl_composed_eval_coord, self, crd)

    def indices(self):
        """Every C(i), i < size, as a numpy int64 array (compiled and
        evaluated in C where the extension is built and C compiles)."""
        import numpy
        if native is not None:
            out = numpy.empty(self.size(), dtype=numpy.int64)
            try:
                native.eval_into(self._as_parameter_, 1, 0, out)
                return out
            except CuteLayoutError:
                pass  # not compilable (e.g. a nested composed layout): one call per element
        return numpy.fromiter(iter(self), dtype=numpy.int64, count=self.size())

    def compile(self):
        """The CompiledLayout of a swizzled layout Sw o offset o L (compiled.h)."""
        out = cl_compiled_layout_t()
        check(capi.cl_composed_compile(self, byref(out)))
        return CompiledLayout(out)

    def get(self, *path):
        """get<i,j,...>(C) = composition(A, offset, get<i,j,...>(B))."""
        return either(capi.cl_composed_get, self, *_path(path))

    def slice(self, crd):
        """CuTe's slice(crd, C)."""
        return either(capi.cl_composed_slice, Tuple(crd), self)


def either(fn, *args):
    """fn(*args, &layout, &composed): the Layout or the ComposedLayout it made."""
    layout, composed = c_void_p(), c_void_p()
    check(fn(*args, byref(layout), byref(composed)))
    return Layout._adopt(layout) if layout else ComposedLayout._adopt(composed)


def _as_fn(x):
    """A Layout, ComposedLayout or Swizzle, parsed when given as text; a
    shape (an int or a tuple of ints) is make_layout(shape), as in the CLI."""
    if isinstance(x, (Layout, ComposedLayout, Swizzle)):
        return x
    if isinstance(x, str):
        return parse(x)
    if isinstance(x, (int, tuple, list)) and not isinstance(x, bool):
        return Layout(x)
    raise TypeError('expected a Layout, a ComposedLayout, a Swizzle, a shape or the text of one, got %r' % (x,))


def parse(text):
    """The value of a canonical text: a Layout, a ComposedLayout
    (`A o offset o B`), a Swizzle (`Sw<B,M,S>`), or else an int tuple."""
    stripped = text.strip()
    if ' o ' in stripped or stripped.endswith(' o') or ')o' in stripped.replace(' ', ''):
        return ComposedLayout(text)
    if stripped.startswith('Sw'):
        return Swizzle(text)
    if ':' in stripped:
        try:
            return Layout(text)
        except ValueError:
            pass
    return Tuple(text).value()


class Odometer(Owned):
    """Every offset of a layout in order, L(0), L(1), ..., one addition per
    step (tensor.h's odometer).  A mutable iterator: one thread at a time."""
    __slots__ = ('_as_parameter_', '_layout')

    def __init__(self, layout):
        self._layout = layout if isinstance(layout, Layout) else Layout(layout)
        self._as_parameter_ = out_call(capi.cl_odometer_new, self._layout)

    _free = capi.cl_odometer_free

    def __iter__(self):
        return self

    def __next__(self):
        offset = c_int64()
        if not capi.cl_odometer_next(self, byref(offset)):
            raise StopIteration
        return offset.value

    def next_batch(self, cap):
        """Up to cap next offsets, as a list ([] at the end)."""
        out = (c_int64 * cap)()
        n = check(capi.cl_odometer_next_batch(self, out, cap))
        return list(out[:n])

    @property
    def index(self):
        """The linear coordinate of the offset last returned (-1 before the first)."""
        return capi.cl_odometer_index(self)

    @property
    def coord(self):
        """The flat coordinate (one int per leaf of the shape) of the offset last returned."""
        n = check(capi.cl_odometer_leaves(self))
        out = (c_int64 * n)()
        check(capi.cl_odometer_coord(self, out, n))
        return tuple(out)

    def reset(self):
        """Back to the start."""
        capi.cl_odometer_reset(self)


class CompiledLayout:
    """A compiled layout (compiled.h): plain data that C, C++ or CUDA code
    evaluates inline with cl_compiled_eval, without calling the library:
    `.struct` is the cl_compiled_layout_t as a ctypes structure, bytes(c)
    its bytes (e.g. a kernel argument)."""
    __slots__ = ('struct',)

    def __init__(self, struct):
        self.struct = struct

    @property
    def size(self):
        """The domain: the compiled value is the layout's for 0 <= i < size."""
        return self.struct.size

    def __bytes__(self):
        return bytes(self.struct)


_values.make_layout_from_text = Layout
