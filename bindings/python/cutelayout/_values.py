# SPDX-License-Identifier: BSD-3-Clause
"""CuTe's IntTuples as Python values, and the functions on them (tuple.h).

An IntTuple is a Python int or a (nested) tuple of them.  Its leaves may also
be `_` (CuTe's slicing wildcard; None and `:` are accepted for it), a
ScaledBasis such as E(0) or 2*E(1) (CuTe's E<i...>{} * k, the strides of
coordinate layouts) or a Layout (in tilers).  Results come back in the same
form: ints, tuples, `_`, ScaledBasis and Layout objects."""
import operator
from ctypes import c_int, c_int64

from . import _handles
from ._ffi import capi, check, out_call, snprintf_text
from ._handles import Tuple


class _Underscore:
    """CuTe's `_`: keep this mode (in a slice), or any value (in a tiler)."""
    __slots__ = ()

    def __repr__(self):
        return '_'

    def __reduce__(self):
        return '_'


_ = _Underscore()


class ScaledBasis:
    """CuTe's E<path...>{} * scale: the coordinate that holds `scale` at
    get<path...> and 0 elsewhere.  E(0), E(1) are the unit strides of
    make_identity_layout; 2*E(1, 0) is CuTe's E<1,0>{} * 2, printed `2@0@1`
    (CuTe prints the indices innermost first)."""
    __slots__ = ('scale', 'path')

    def __init__(self, scale, path):
        self.scale = operator.index(scale)
        self.path = tuple(operator.index(i) for i in path)
        if not self.path:
            raise ValueError('a scaled basis needs at least one index (E<> is the integer 1)')

    def __mul__(self, k):
        try:
            return ScaledBasis(self.scale * operator.index(k), self.path)
        except TypeError:
            return NotImplemented

    __rmul__ = __mul__

    def __eq__(self, other):
        if not isinstance(other, ScaledBasis):
            return NotImplemented
        return (self.scale, self.path) == (other.scale, other.path)

    def __hash__(self):
        return hash((ScaledBasis, self.scale, self.path))

    def __str__(self):
        return '%d@%s' % (self.scale, '@'.join(str(i) for i in reversed(self.path)))

    def __repr__(self):
        unit = 'E(%s)' % ', '.join(str(i) for i in self.path)
        return unit if self.scale == 1 else '%d*%s' % (self.scale, unit)


def E(*path):
    """CuTe's E<path...>{}: the unit scaled basis, E(0) = `1@0`."""
    return ScaledBasis(1, path)


def is_underscore(value):
    return value is None or value is _ or value == slice(None) or (isinstance(value, str) and value == '_')


def has_underscore(value):
    if isinstance(value, (tuple, list)):
        return any(has_underscore(v) for v in value)
    return is_underscore(value)


# Set by _layout: the Layout class's constructor from text (layouts are leaves of tilers).
make_layout_from_text = None


def text(value):
    """The canonical text of a Python value (see the module's docstring); a
    str is taken to be text already."""
    if isinstance(value, str):
        return value
    return snprintf_text(capi.cl_tuple_format, Tuple(value))


def optional_tuple(value):
    """A Tuple, or None (a NULL pointer) for None."""
    return None if value is None else Tuple(value)


def value_of(handle):
    """The Python value of a fresh cl_tuple_t handle, which is then freed."""
    return Tuple.adopt(handle).value()


def parse_value(s):
    """The Python value of a tuple's canonical text: ints, `_`, `k@i@j`
    (scaled bases), `S:D` (layout leaves) and parenthesised tuples."""
    pos = 0

    def atom():
        nonlocal pos
        if s[pos] == '(':
            pos += 1
            items = []
            while s[pos] != ')':
                items.append(element())
                if s[pos] == ',':
                    pos += 1
            pos += 1
            return tuple(items)
        if s[pos] == '_':
            pos += 1
            return _
        start = pos
        while pos < len(s) and s[pos] not in ',):':
            pos += 1
        parts = [int(x) for x in s[start:pos].split('@')]
        return parts[0] if len(parts) == 1 else ScaledBasis(parts[0], reversed(parts[1:]))

    def element():
        nonlocal pos
        start = pos
        value = atom()
        if pos < len(s) and s[pos] == ':':
            pos += 1
            atom()
            return make_layout_from_text(s[start:pos])
        return value

    return element()


_handles.register(_, ScaledBasis, parse_value)


# ------------------------------------------------------------- tuple.h

def _tuple_out(fn, *args):
    return value_of(out_call(fn, *args))


def _int_out(fn, *args):
    return out_call(fn, *args, out_type=c_int64).value


def _bool_out(fn, *args):
    return bool(out_call(fn, *args, out_type=c_int).value)


def tuple_rank(t):
    return check(capi.cl_tuple_rank(Tuple(t)))


def tuple_depth(t):
    return check(capi.cl_tuple_depth(Tuple(t)))


def tuple_get(t, path):
    path = (c_int64 * len(path))(*path)
    return _tuple_out(capi.cl_tuple_get, Tuple(t), path, len(path))


def tuple_flatten(t):
    return _tuple_out(capi.cl_tuple_flatten, Tuple(t))


def tuple_unflatten(t, profile):
    return _tuple_out(capi.cl_tuple_unflatten, Tuple(t), Tuple(profile))


def product(t):
    """CuTe's product: the product of all leaves (1 for ())."""
    return _int_out(capi.cl_tuple_product, Tuple(t))


def tuple_sum(t):
    """CuTe's sum: the sum of all leaves (0 for ())."""
    return _int_out(capi.cl_tuple_sum, Tuple(t))


def inner_product(a, b):
    """CuTe's inner_product: sum of a_i * b_i over congruent int tuples."""
    return _int_out(capi.cl_tuple_inner_product, Tuple(a), Tuple(b))


def congruent(a, b):
    """a and b have the same tree structure."""
    return _bool_out(capi.cl_tuple_congruent, Tuple(a), Tuple(b))


def weakly_congruent(a, b):
    """a's structure is a prefix of b's."""
    return _bool_out(capi.cl_tuple_weakly_congruent, Tuple(a), Tuple(b))


def compatible(a, b):
    """Every coordinate of shape a is one of shape b."""
    return _bool_out(capi.cl_tuple_compatible, Tuple(a), Tuple(b))


def elem_less(a, b):
    """CuTe's elem_less: is coordinate a inside shape b, mode by mode?"""
    return _bool_out(capi.cl_elem_less, Tuple(a), Tuple(b))


def shape_div(a, b):
    """CuTe's shape_div (each step needs one to divide the other)."""
    return _tuple_out(capi.cl_tuple_shape_div, Tuple(a), Tuple(b))


def ceil_div(a, b):
    """CuTe's ceil_div of int tuples."""
    return _tuple_out(capi.cl_tuple_ceil_div, Tuple(a), Tuple(b))


def elem_scale(a, b):
    """CuTe's elem_scale: each leaf of a times the product of b's mode there."""
    return _tuple_out(capi.cl_tuple_elem_scale, Tuple(a), Tuple(b))


def prefix_product(a):
    """The exclusive prefix products of a, congruent with a."""
    return _tuple_out(capi.cl_tuple_prefix_product, Tuple(a))


def compact_col_major(shape, current=None):
    """Compact column-major (LayoutLeft) strides of a shape, starting from
    `current` (CuTe's two-argument form) when given."""
    if current is None:
        return _tuple_out(capi.cl_compact_col_major, Tuple(shape))
    return _tuple_out(capi.cl_compact_col_major_from, Tuple(shape), Tuple(current))


def compact_row_major(shape, current=None):
    """Compact row-major (LayoutRight) strides of a shape, starting from
    `current` (CuTe's two-argument form) when given."""
    if current is None:
        return _tuple_out(capi.cl_compact_row_major, Tuple(shape))
    return _tuple_out(capi.cl_compact_row_major_from, Tuple(shape), Tuple(current))


def compact_order(shape, order):
    """Compact strides of a shape in the order of `order`."""
    return _tuple_out(capi.cl_compact_order, Tuple(shape), Tuple(order))


def idx2crd(idx, shape, stride=None):
    """CuTe's idx2crd(idx, shape) or idx2crd(idx, shape, stride)."""
    if stride is None:
        return _tuple_out(capi.cl_idx2crd, Tuple(idx), Tuple(shape))
    return _tuple_out(capi.cl_idx2crd_strided, Tuple(idx), Tuple(shape), Tuple(stride))


def crd2idx_tuple(crd, shape, stride=None):
    if stride is None:
        return _int_out(capi.cl_crd2idx_shape, Tuple(crd), Tuple(shape))
    return _int_out(capi.cl_crd2idx, Tuple(crd), Tuple(shape), Tuple(stride))


def crd2crd(crd, src_shape, dst_shape):
    """CuTe's crd2crd(crd, src_shape, dst_shape)."""
    return _tuple_out(capi.cl_crd2crd, Tuple(crd), Tuple(src_shape), Tuple(dst_shape))



# ------------------------------------------ the rest of int_tuple.hpp

def tuple_max(t):
    """CuTe's max over the leaves of t."""
    return _int_out(capi.cl_tuple_max, Tuple(t))


def tuple_min(t):
    """CuTe's min over the leaves of t."""
    return _int_out(capi.cl_tuple_min, Tuple(t))


def gcd(t):
    """CuTe's gcd over the leaves of t (its sign rules: gcd((4,-6)) is -2)."""
    return _int_out(capi.cl_tuple_gcd, Tuple(t))


def product_each(t):
    """CuTe's product_each: the tuple of the products of t's elements."""
    return _tuple_out(capi.cl_tuple_product_each, Tuple(t))


def product_like(t, guide):
    """CuTe's product_like: congruent with guide, each leaf the product of t's subtree there."""
    return _tuple_out(capi.cl_tuple_product_like, Tuple(t), Tuple(guide))


def round_up(a, b):
    """CuTe's round_up: a rounded up to a multiple of b, mode by mode."""
    return _tuple_out(capi.cl_tuple_round_up, Tuple(a), Tuple(b))


def tuple_filter_zeros(a, b=None):
    """CuTe's filter_zeros(a, b) on int tuples: b with the subtrees at a's 0
    leaves replaced by 1s; filter_zeros(t) is filter_zeros(t, t)."""
    a = Tuple(a)
    return _tuple_out(capi.cl_tuple_filter_zeros, a, a if b is None else Tuple(b))


def evenly_divides(shape, tiler):
    """CuTe's evenly_divides: does the tiler tile the shape without a remainder?"""
    return _bool_out(capi.cl_evenly_divides, Tuple(shape), Tuple(tiler))


def lex_less(a, b):
    """CuTe's lex_less: a before b, comparing the first elements first."""
    return _bool_out(capi.cl_lex_less, Tuple(a), Tuple(b))


def colex_less(a, b):
    """CuTe's colex_less: a before b, comparing the last elements first."""
    return _bool_out(capi.cl_colex_less, Tuple(a), Tuple(b))


def common_refinement(a, b):
    """The whitepaper's common_refinement of two shapes of equal size."""
    return _tuple_out(capi.cl_common_refinement, Tuple(a), Tuple(b))


def common_coarsening(a, b):
    """The whitepaper's common_coarsening of two shapes of equal size."""
    return _tuple_out(capi.cl_common_coarsening, Tuple(a), Tuple(b))


def tuple_slice(crd, t):
    """slice(crd, t) of tuples: t's elements at crd's `_` positions, flattened."""
    return _tuple_out(capi.cl_tuple_slice, Tuple(crd), Tuple(t))


def tuple_dice(crd, t):
    """dice(crd, t) of tuples: t's elements at crd's integer positions, flattened."""
    return _tuple_out(capi.cl_tuple_dice, Tuple(crd), Tuple(t))
