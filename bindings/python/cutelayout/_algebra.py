# SPDX-License-Identifier: BSD-3-Clause
"""CuTe's free functions on layouts, composed layouts, swizzles, tensors and
int tuples, under CuTe's names and argument order (algebra.h, layout.h,
swizzle.h, tuple.h).  Each takes its arguments as objects or as their text
and dispatches on their kinds to the C function that computes it; where
CuTe answers a ComposedLayout for some inputs and a Layout for others, so
does the function."""
import operator
from ctypes import byref, c_int64, c_void_p

from . import _values
from ._ffi import capi, check, out_call
from ._handles import native
from ._layout import ComposedLayout, Layout, LayoutLeft, LayoutRight, Swizzle, _as_fn, _path, either, fn_arg, parse
from ._values import Tuple, _int_out, optional_tuple, value_of

# Set by _tensor: the Tensor class, for the functions that also take tensors.
TENSOR_TYPES = ()


def _layout(fn, *args):
    return Layout._adopt(out_call(fn, *args))


def _operand(b):
    """A function (Layout, ComposedLayout, Swizzle) or, for anything else, a
    tiler or shape as a Tuple."""
    if isinstance(b, (Layout, ComposedLayout, Swizzle, Tuple)):
        return b
    if isinstance(b, str):
        b = parse(b)
        return b if isinstance(b, (Layout, ComposedLayout, Swizzle)) else Tuple(b)
    return Tuple(b)


def _tiler(b):
    """A tiler tuple; a layout becomes a tuple holding it (a layout leaf)."""
    b = _operand(b)
    if isinstance(b, Tuple):
        return b
    if isinstance(b, Layout):
        return Tuple(b)
    raise TypeError('expected a Layout or a tiler (ints, Layouts and _ in tuples), got %r' % (b,))


def _kinds_error(name, *args):
    return TypeError('%s: no form for %s' % (name, ', '.join(type(a).__name__ for a in args)))


# ================================================================ making

def make_layout(*args):
    """CuTe's make_layout:
        make_layout(shape)                     LayoutLeft strides
        make_layout(shape, stride)             ints or scaled bases
        make_layout(shape, LayoutRight)        or LayoutLeft
        make_layout(L0, L1, ...)               the layouts as modes
        make_layout(Swizzle)                   composition(Sw, 0, (M+B+|S|):1)"""
    if len(args) == 1 and isinstance(args[0], Swizzle):
        return either(capi.cl_make_layout_from_swizzle, args[0])
    if all(isinstance(a, Layout) for a in args):
        if native is not None and args:
            return native.concat(*args)
        handles = (c_void_p * max(len(args), 1))(*(a._as_parameter_ for a in args))
        return _layout(capi.cl_layout_concat, handles, len(args))
    if len(args) in (1, 2):
        return Layout(*args)
    raise TypeError('make_layout(shape[, stride]), make_layout(L0, L1, ...) or make_layout(Swizzle)')


def make_ordered_layout(shape, order):
    """Compact strides in the order of `order` (CuTe's make_ordered_layout)."""
    return _layout(capi.cl_layout_make_ordered, Tuple(shape), Tuple(order))


def make_identity_layout(shape):
    """The coordinate layout mapping each coordinate of shape to itself: (4,8):(1@0,1@1)."""
    return _layout(capi.cl_make_identity_layout, Tuple(shape))


def make_layout_like(layout):
    """L's shape with compact strides in the order of L's strides."""
    return _layout(capi.cl_make_layout_like, _as_fn(layout))


def make_fragment_like(x):
    """CuTe's make_fragment_like of a layout, a swizzled layout or a tensor."""
    if isinstance(x, TENSOR_TYPES):
        return x.make_fragment_like()
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return _layout(capi.cl_composed_make_fragment_like, x)
    return _layout(capi.cl_make_fragment_like, x)


def make_composed_layout(outer, offset, inner):
    """The ComposedLayout outer o offset o inner, never simplified."""
    return ComposedLayout(outer, offset, inner)


# ================================================================ queries

def _query(x, layout_method, tuple_fn):
    if isinstance(x, (Layout, ComposedLayout)) or isinstance(x, TENSOR_TYPES):
        return getattr(x, layout_method)()
    if isinstance(x, str):
        return _query(parse(x), layout_method, tuple_fn)
    return tuple_fn(x)


def size(x):
    """size: of a layout, a composed layout, a tensor, or an int tuple (its product)."""
    return _query(x, 'size', _values.product)


def cosize(x):
    """cosize of a layout or composed layout."""
    return _as_fn(x).cosize()


def rank(x):
    """rank: modes of a layout or tensor, elements of a tuple (1 for an int)."""
    return _query(x, 'rank', _values.tuple_rank)


def depth(x):
    """depth: nesting of a layout's shape or of a tuple (0 for an int)."""
    return _query(x, 'depth', _values.tuple_depth)


def shape(x):
    """shape of a layout, composed layout or tensor."""
    return _as_fn(x).shape if not isinstance(x, TENSOR_TYPES) else x.shape


def stride(x):
    """stride of a layout or tensor."""
    return _as_fn(x).stride if not isinstance(x, TENSOR_TYPES) else x.stride


def coshape(x):
    """coshape of a layout."""
    return _as_fn(x).coshape


def get(x, *path):
    """CuTe's get<i,j,...>: a mode of a layout / composed layout, an element of a tuple."""
    if isinstance(x, (Layout, ComposedLayout)):
        return x.get(*path)
    return _values.tuple_get(x, path)


def crd2idx(crd, shape, stride=None):
    """crd2idx(crd, shape), crd2idx(crd, shape, stride) or crd2idx(crd, L) = L(crd)."""
    if isinstance(shape, Layout):
        return shape(crd)
    return _values.crd2idx_tuple(crd, shape, stride)


# =============================================================== modes

def _is_function(x):
    return isinstance(x, (Layout, ComposedLayout, Swizzle)) or (isinstance(x, str) and ':' in x)


def slice(crd, x):  # noqa: A001 (CuTe's name)
    """CuTe's slice(crd, L): the sub-layout over the `_` positions of crd
    (of a tuple: its elements there, flattened)."""
    if not _is_function(x):
        return _values.tuple_slice(crd, x)
    return _as_fn(x).slice(crd)


def dice(crd, x):
    """CuTe's dice(crd, L), the mirror of slice: the sub-layout over the
    integer positions of crd (of a tuple: its elements there)."""
    if not _is_function(x):
        return _values.tuple_dice(crd, x)
    return _layout(capi.cl_layout_dice, Tuple(crd), _as_fn(x))


def domain_offset(crd, x):
    """CuTe's domain_offset(crd, L): (L, L(crd)) with each `_` as 0."""
    x = _as_fn(x)
    out, offset = c_void_p(), c_int64()
    if isinstance(x, ComposedLayout):
        check(capi.cl_composed_domain_offset(Tuple(crd), x, byref(out), byref(offset)))
        return ComposedLayout._adopt(out), offset.value
    check(capi.cl_domain_offset(Tuple(crd), x, byref(out), byref(offset)))
    return Layout._adopt(out), offset.value


def slice_and_offset(crd, x):
    """(slice(crd, L), offset): the offset is L(crd) with each `_` as 0."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        layout, composed, offset = c_void_p(), c_void_p(), c_int64()
        check(capi.cl_composed_slice_and_offset(Tuple(crd), x, byref(layout), byref(composed), byref(offset)))
        return (Layout._adopt(layout) if layout else ComposedLayout._adopt(composed)), offset.value
    out = c_void_p()
    if x.is_coordinate:
        offset = c_void_p()
        check(capi.cl_layout_slice_and_offset_tuple(Tuple(crd), x, byref(out), byref(offset)))
        return Layout._adopt(out), value_of(offset)
    offset = c_int64()
    check(capi.cl_layout_slice_and_offset(Tuple(crd), x, byref(out), byref(offset)))
    return Layout._adopt(out), offset.value


def flatten(x):
    """flatten of a layout, composed layout, tensor, or tuple."""
    if isinstance(x, TENSOR_TYPES):
        return x.flatten()
    if isinstance(x, (Layout, ComposedLayout, str)):
        x = _as_fn(x)
        if isinstance(x, ComposedLayout):
            return either(capi.cl_composed_flatten, x)
        return _layout(capi.cl_layout_flatten, x)
    return _values.tuple_flatten(x)


def unflatten(x, profile):
    """L's modes (or a flat tuple's elements) folded into profile's structure."""
    if isinstance(x, (Layout, str)):
        return _layout(capi.cl_layout_unflatten, _as_fn(x), Tuple(profile))
    return _values.tuple_unflatten(x, profile)


def group(x, begin, end):
    """group<b,e>: modes [b, e) become one (e = -1: to the end)."""
    if isinstance(x, TENSOR_TYPES):
        return x.group(begin, end)
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_group, x, begin, end)
    return _layout(capi.cl_layout_group, x, begin, end)


def take(x, begin, end):
    """take<b,e>: modes [b, e)."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_take, x, begin, end)
    return _layout(capi.cl_layout_take, x, begin, end)


def select(layout, *modes):
    """select<i...>: the listed modes, in order."""
    return _layout(capi.cl_layout_select, _as_fn(layout), *_path(modes))


def append(layout, x=None, n=None):
    """append(L, X): X (default 1:0) as a new last mode; with n, CuTe's
    append<n>(L, X): L padded with copies of X up to n modes."""
    layout, x = _as_fn(layout), None if x is None else _as_fn(x)
    if isinstance(layout, ComposedLayout):
        if n is None:
            raise TypeError('append of a composed layout takes n (CuTe\'s append<N>)')
        return either(capi.cl_composed_append, layout, x, operator.index(n))
    if n is None:
        return _layout(capi.cl_layout_append, layout, x)
    return _layout(capi.cl_layout_append_to, layout, x, operator.index(n))


def prepend(layout, x=None, n=None):
    """prepend(L, X): X (default 1:0) as a new first mode; with n, CuTe's
    prepend<n>(L, X): L padded at the front with copies of X up to n modes."""
    layout, x = _as_fn(layout), None if x is None else _as_fn(x)
    if n is None:
        return _layout(capi.cl_layout_prepend, layout, x)
    return _layout(capi.cl_layout_prepend_to, layout, x, operator.index(n))


def replace(layout, i, x):
    """CuTe's replace<i>(L, X): L with mode i replaced by X."""
    return _layout(capi.cl_layout_replace, _as_fn(layout), operator.index(i), _as_fn(x))


def coprofile(layout):
    """CuTe's coprofile(L): zeros shaped like L's values (0 for integer strides)."""
    return value_of(out_call(capi.cl_layout_coprofile, _as_fn(layout)))


def zip(x):  # noqa: A001 (CuTe's name)
    """CuTe's zip: ((a,b),(c,d)) -> ((a,c),(b,d))."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_zip, x)
    return _layout(capi.cl_layout_zip, x)


# ============================================================= algebra

def coalesce(x, profile=None, mode=None):
    """coalesce(L): the same function on [0, size(L)) with the fewest modes;
    coalesce(L, profile) coalesces at the profile's leaves; mode=(i, ...)
    coalesces only that mode (the whitepaper's coalesce[i])."""
    x = _as_fn(x)
    if mode is not None:
        return _layout(capi.cl_coalesce_mode, x, *_path(_mode_path(mode)))
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_coalesce, x, optional_tuple(profile))
    if profile is None:
        return _layout(capi.cl_coalesce, x)
    return _layout(capi.cl_coalesce_profile, x, Tuple(profile))


def filter(x, profile=None):  # noqa: A001 (CuTe's name)
    """filter(L) = coalesce(filter_zeros(L)); filter(L, profile) at the profile's leaves."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_filter, x, optional_tuple(profile))
    if profile is None:
        return _layout(capi.cl_filter, x)
    return _layout(capi.cl_filter_profile, x, Tuple(profile))


def filter_zeros(x, y=None):
    """filter_zeros(L): every stride-0 leaf's extent replaced by 1; of int
    tuples, CuTe's filter_zeros(a[, b])."""
    if _is_function(x):
        return _layout(capi.cl_filter_zeros, _as_fn(x))
    return _values.tuple_filter_zeros(x, y)


def _mode_path(mode):
    return (mode,) if isinstance(mode, int) else tuple(mode)


def coalesce_z(x, profile=None, mode=None):
    """The whitepaper's coalesce_z: coalesce that also drops stride-0 modes'
    distinctions (by profile, or at one mode)."""
    x = _as_fn(x)
    if mode is not None:
        return _layout(capi.cl_coalesce_z_mode, x, *_path(_mode_path(mode)))
    if profile is not None:
        return _layout(capi.cl_coalesce_z_profile, x, Tuple(profile))
    return _layout(capi.cl_coalesce_z, x)


def layout_add(a, b):
    """The whitepaper's layout_add: R(d) = A(d) + B(d) on their greatest common domain."""
    return _layout(capi.cl_layout_add, _as_fn(a), _as_fn(b))


def greatest_common_domain(a, b):
    """The whitepaper's greatest_common_domain of two shapes, as a layout."""
    return _layout(capi.cl_greatest_common_domain, Tuple(a), Tuple(b))


def _at_mode(name, fn, doc):
    def f(a, tiler, mode):
        return _layout(fn, _as_fn(a), _tiler(tiler), *_path(_mode_path(mode)))

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


composition_mode = _at_mode('composition_mode', capi.cl_composition_mode,
                            "composition_mode(A, B, mode): A with the mode at path `mode` composed with B "
                            "(the whitepaper's composition[i,...]).")
logical_divide_mode = _at_mode('logical_divide_mode', capi.cl_logical_divide_mode,
                               "logical_divide_mode(A, B, mode): the whitepaper's logical_divide[i,...].")
zipped_divide_mode = _at_mode('zipped_divide_mode', capi.cl_zipped_divide_mode,
                              "zipped_divide_mode(A, B, mode): the whitepaper's zipped_divide[i,...].")
logical_product_mode = _at_mode('logical_product_mode', capi.cl_logical_product_mode,
                                "logical_product_mode(A, B, mode): the whitepaper's logical_product[i,...].")


def max_alignment(x):
    """CuTe's max_alignment(L): the largest vector of contiguous elements L always has."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return _int_out(capi.cl_composed_max_alignment, x)
    return _int_out(capi.cl_max_alignment, x)


def recast_layout(x, old_bits, new_bits):
    """CuTe's recast_layout<Old, New>(L) with the types given by their sizes in bits."""
    x, old_bits, new_bits = _as_fn(x), operator.index(old_bits), operator.index(new_bits)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_recast_layout, x, old_bits, new_bits)
    return _layout(capi.cl_recast_layout, x, old_bits, new_bits)


def domain_distribute(shape, n):
    """CuTe's domain_distribute(shape, n): n elements spread over shape's leaves, as a layout."""
    return _layout(capi.cl_domain_distribute, Tuple(shape), Tuple(n))


def tile_unzip(x, tiler):
    """CuTe's tile_unzip(L, tiler): a logical_divide's result in zipped_divide's order."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_tile_unzip, x, _tiler(tiler))
    return _layout(capi.cl_tile_unzip, x, _tiler(tiler))


def composition(*args):
    """CuTe's composition:
        composition(A, B)          A o B, R(c) == A(B(c)); B a Layout, a tiler
                                   (ints, Layouts and _ in tuples), a Swizzle
                                   or a ComposedLayout; A a Layout, a
                                   ComposedLayout, a Swizzle or a Tensor
        composition(A, offset, B)  i -> A(offset + B(i)), A and B Layouts or
                                   Swizzles (a Layout when A is an identity
                                   swizzle, else a ComposedLayout)
    DivisibilityError where CuTe's divisibility conditions fail."""
    if len(args) == 3:
        outer, offset, inner = args
        return either(capi.cl_composition_offset, fn_arg(_as_fn(outer)), operator.index(offset),
                      fn_arg(_as_fn(inner)))
    if len(args) != 2:
        raise TypeError('composition(A, B) or composition(A, offset, B)')
    a, b = args
    if isinstance(a, TENSOR_TYPES):
        return a.compose(b)
    a, b = _as_fn(a), _operand(b)
    if isinstance(a, Layout):
        if isinstance(b, Layout):
            return _layout(capi.cl_composition, a, b)
        if isinstance(b, Tuple):
            return _layout(capi.cl_composition_tiler, a, b)
        if isinstance(b, Swizzle):
            return either(capi.cl_composition_with_swizzle, a, b)
        return either(capi.cl_composition_with_composed, a, b)
    if isinstance(a, ComposedLayout):
        if isinstance(b, ComposedLayout):
            return either(capi.cl_composed_composition_with_composed, a, b)
        return either(capi.cl_composed_composition, a, _tiler(b))
    if isinstance(b, Swizzle):
        return Swizzle._adopt(out_call(capi.cl_swizzle_composition, a, b, out_type=type(a._as_parameter_)))
    if isinstance(b, Layout):
        return composition(a, 0, b)
    raise _kinds_error('composition', a, b)


def complement(x, cotarget=None):
    """complement(L, cotarget): the ordered layout C disjoint from L with (L, C)
    covering [0, cotarget); cotarget an int or a shape, by default
    cosize(filter(L)).  NotInjectiveError where CuTe detects a non-injective L."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return _layout(capi.cl_composed_complement, x, optional_tuple(cotarget))
    if cotarget is None:
        return _layout(capi.cl_complement_full, x)
    if isinstance(cotarget, int):
        return _layout(capi.cl_complement, x, cotarget)
    return _layout(capi.cl_complement_shape, x, Tuple(cotarget))


def right_inverse(x):
    """right_inverse(L): R with L(R(i)) == i for every i < size(R)."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_right_inverse, x)
    return _layout(capi.cl_right_inverse, x)


def left_inverse(x):
    """left_inverse(L): R with R(L(i)) == i for every i < size(L)."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return either(capi.cl_composed_left_inverse, x)
    return _layout(capi.cl_left_inverse, x)


def _tiling(name, plain, by_tiler, composed, with_composed, doc):
    """A divide or product f(A, B): plain(A, B) for layouts, by_tiler(A, T)
    for a tiler, composed(C, T) for a composed A, with_composed(A, C) (the
    products of CuTe's swizzle_layout.hpp) for a swizzled B; a Tensor A
    answers it itself."""
    def f(a, b):
        if isinstance(a, TENSOR_TYPES) and hasattr(a, name):
            return getattr(a, name)(b)
        a, b = _as_fn(a), _operand(b)
        if isinstance(a, ComposedLayout):
            return either(composed, a, _tiler(b))
        if isinstance(a, Layout):
            if isinstance(b, Layout):
                return _layout(plain, a, b)
            if isinstance(b, Tuple):
                return _layout(by_tiler, a, b)
            if isinstance(b, ComposedLayout) and with_composed:
                return either(with_composed, a, b)
        raise _kinds_error(name, a, b)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


logical_divide = _tiling('logical_divide', capi.cl_logical_divide, capi.cl_logical_divide_tiler,
                         capi.cl_composed_logical_divide, None, """logical_divide(A, B): (tile, rest), the tile B of A
and its repetitions: composition(A, make_layout(B, complement(B, shape(A)))); by mode for a tiler.""")
zipped_divide = _tiling('zipped_divide', capi.cl_zipped_divide, capi.cl_zipped_divide_tiler,
                        capi.cl_composed_zipped_divide, None,
                        'zipped_divide(A, B): ((tile modes...), (rest modes...)).')
tiled_divide = _tiling('tiled_divide', capi.cl_tiled_divide, capi.cl_tiled_divide_tiler,
                       capi.cl_composed_tiled_divide, None, 'tiled_divide(A, B): ((tile modes...), rest modes...).')
flat_divide = _tiling('flat_divide', capi.cl_flat_divide, capi.cl_flat_divide_tiler, capi.cl_composed_flat_divide,
                      None, 'flat_divide(A, B): (tile modes..., rest modes...).')
logical_product = _tiling('logical_product', capi.cl_logical_product, capi.cl_logical_product_tiler,
                          capi.cl_composed_logical_product, capi.cl_logical_product_with_composed,
                          """logical_product(A, B): (A, composition(complement(A, size(A)*cosize(B)), B)),
B's arrangement of copies of A.""")
zipped_product = _tiling('zipped_product', capi.cl_zipped_product, capi.cl_zipped_product_tiler,
                         capi.cl_composed_zipped_product, capi.cl_zipped_product_with_composed,
                         'zipped_product(A, B): the logical product arranged as zipped_divide.')
tiled_product = _tiling('tiled_product', capi.cl_tiled_product, capi.cl_tiled_product_tiler,
                        capi.cl_composed_tiled_product, capi.cl_tiled_product_with_composed,
                        'tiled_product(A, B): the logical product arranged as tiled_divide.')
flat_product = _tiling('flat_product', capi.cl_flat_product, capi.cl_flat_product_tiler,
                       capi.cl_composed_flat_product, capi.cl_flat_product_with_composed,
                       'flat_product(A, B): the logical product arranged as flat_divide.')


def blocked_product(block, tiler):
    """blocked_product(A, B): each mode of B repeats the block A, ((a0,p0),(a1,p1),...)."""
    block = _as_fn(block)
    if isinstance(block, ComposedLayout):
        return either(capi.cl_composed_blocked_product, block, _as_fn(tiler))
    return _layout(capi.cl_blocked_product, block, _as_fn(tiler))


def raked_product(block, tiler):
    """raked_product(A, B): the copies of A interleaved, ((p0,a0),(p1,a1),...)."""
    block = _as_fn(block)
    if isinstance(block, ComposedLayout):
        return either(capi.cl_composed_raked_product, block, _as_fn(tiler))
    return _layout(capi.cl_raked_product, block, _as_fn(tiler))


def tile_to_shape(block, shape, order=None):
    """Copies of L blocked to fill shape, in the given order of modes:
    column-major by default or with LayoutLeft, row-major with LayoutRight
    (the order (R-1, ..., 1, 0) of the shape's R modes), or an order tuple."""
    block = _as_fn(block)
    if order is LayoutLeft:
        order = None
    elif order is LayoutRight:
        order = tuple(reversed(range(_values.tuple_rank(shape))))
    if isinstance(block, ComposedLayout):
        return either(capi.cl_composed_tile_to_shape, block, Tuple(shape), optional_tuple(order))
    return _layout(capi.cl_tile_to_shape, block, Tuple(shape), optional_tuple(order))


def max_common_vector(a, b):
    """How many elements A and B both map contiguously (symmetric for swizzled layouts)."""
    a, b = _as_fn(a), _as_fn(b)
    if isinstance(a, ComposedLayout) and isinstance(b, ComposedLayout):
        return _int_out(capi.cl_composed_max_common_vector2, a, b)
    if isinstance(a, ComposedLayout):
        return _int_out(capi.cl_composed_max_common_vector, a, b)
    if isinstance(b, ComposedLayout):
        return _int_out(capi.cl_composed_max_common_vector, b, a)
    return _int_out(capi.cl_max_common_vector, a, b)


def max_common_layout(a, b):
    """The layout R of the common contiguous vector: A(R(i)) == i == B(R(i))."""
    a, b = _as_fn(a), _as_fn(b)
    if isinstance(a, ComposedLayout):
        return _layout(capi.cl_composed_max_common_layout, a, b)
    return _layout(capi.cl_max_common_layout, a, b)


def nullspace(x):
    """nullspace(L): the layout R of L's stride-0 modes, L(R(i)) == 0."""
    x = _as_fn(x)
    if isinstance(x, ComposedLayout):
        return _layout(capi.cl_composed_nullspace, x)
    return _layout(capi.cl_nullspace, x)


def _cast(name, on_layout, on_composed, on_swizzle, doc):
    def f(x, n):
        x, n = _as_fn(x), operator.index(n)
        if isinstance(x, ComposedLayout):
            return either(on_composed, x, n)
        if isinstance(x, Swizzle):
            return Swizzle._adopt(out_call(on_swizzle, x, n, out_type=type(x._as_parameter_)))
        return _layout(on_layout, x, n)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return f


upcast = _cast('upcast', capi.cl_upcast, capi.cl_composed_upcast, capi.cl_swizzle_upcast,
               'upcast(x, n): a layout, swizzled layout or swizzle over elements n times larger.')
downcast = _cast('downcast', capi.cl_downcast, capi.cl_composed_downcast, capi.cl_swizzle_downcast,
                 'downcast(x, n): a layout, swizzled layout or swizzle over elements n times smaller.')


# The common case of each (layouts, tilers as tuples, an int cotarget) taken
# in C by the extension, without the Python frames above; every other kind of
# argument reaches the function as defined here.
if native is not None:
    for _name in ('coalesce', 'filter', 'right_inverse', 'left_inverse', 'complement', 'composition',
                  'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'logical_product',
                  'zipped_product', 'tiled_product', 'flat_product', 'blocked_product', 'raked_product'):
        globals()[_name] = native.dispatch(_name, globals()[_name])
    del _name
