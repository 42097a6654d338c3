# SPDX-License-Identifier: BSD-3-Clause
"""cutelayout: NVIDIA CuTe's layout algebra from Python, on the C library
libcutelayout (through ctypes: no compiled extension).

    >>> from cutelayout import Layout, composition, logical_divide
    >>> L = Layout("(2,4):(1,2)")
    >>> L(3), L.size(), L.cosize(), str(L)
    (3, 8, 8, '(2,4):(1,2)')
    >>> L((1, 2)), L(1, 2)             # a hierarchical coordinate
    (5, 5)
    >>> L[:, 2]                        # CuTe's slice L(_, 2)
    Layout('(2):(1)')
    >>> composition(Layout("20:2"), Layout("(5,4):(4,1)"))
    Layout('(5,4):(8,2)')
    >>> logical_divide("(4,2,3):(2,1,8)", "4:2")
    Layout('((2,2),(2,3)):((4,1),(2,8))')

Values: a Layout, a ComposedLayout (`Sw<3,3,3> o 0 o (8,8):(8,1)`), a
Swizzle, a Tensor (memory through a layout), and int tuples as Python ints
and tuples, with `_` (or None) for CuTe's underscore and E(i) for its scaled
bases.  Functions take objects or their text, and have CuTe's names and
argument order.  Coordinates and indices are 0-based, as in CuTe.

Failures raise a CuteLayoutError subclass that also derives from ValueError
(a broken precondition: DivisibilityError, RankError, ParseError, ...),
OverflowError (IntegerOverflowError) or MemoryError (OutOfMemoryError); it
carries the status code and the library's message (`status`, `message`,
`detail`).

`capi` is the C API itself, every function of the headers as a ctypes
function, for the rare call without a Python spelling.
"""
from . import _capi
from ._algebra import (append, blocked_product, coalesce, complement, composition, coshape, cosize, crd2idx, depth,
                       downcast, filter, filter_zeros, flat_divide, flat_product, flatten, get, group, left_inverse,
                       logical_divide, logical_product, make_composed_layout, make_fragment_like,
                       make_identity_layout, make_layout, make_layout_like, make_ordered_layout, max_common_layout,
                       max_common_vector, nullspace, prepend, rank, raked_product, right_inverse, select, shape, size,
                       slice, slice_and_offset, stride, take, tile_to_shape, tiled_divide, tiled_product, unflatten,
                       upcast, zip, zipped_divide, zipped_product)
from ._ffi import ERRORS as _ERRORS, CuteLayoutError, capi, library
from ._layout import (CompiledLayout, ComposedLayout, Layout, LayoutLeft, LayoutRight, Odometer, Swizzle,
                      make_swizzle, parse)
from ._picture import Panel, draw, draw_panels, print1D, print1d, print_layout
from ._tensor import (Tensor, copy, copy_explain, inner_partition, local_partition, local_tile, make_tensor_like,
                      outer_partition, recast)
from ._values import (E, ScaledBasis, _, ceil_div, compact_col_major, compact_order, compact_row_major, compatible,
                      congruent, crd2crd, elem_less, elem_scale, idx2crd, inner_product, prefix_product, product,
                      shape_div, weakly_congruent)
from ._values import tuple_sum as sum  # noqa: A001 (CuTe's name)

globals().update((cls.__name__, cls) for cls in _ERRORS.values())

__version__ = _capi.CONSTANTS['CUTELAYOUT_VERSION_STRING']


def version():
    """The loaded library's version, "MAJOR.MINOR.PATCH"."""
    return capi.cl_version_string().decode()


def version_number():
    """The loaded library's version as MAJOR*10000 + MINOR*100 + PATCH."""
    return capi.cl_version_number()


def abi_version():
    """(major, minor) of the ABI the loaded library implements."""
    return capi.cl_abi_version(), capi.cl_abi_minor()


def status_string(status):
    """The library's message for a status code."""
    return capi.cl_status_string(status).decode()


def last_error():
    """The detail message of this thread's last failed library call."""
    return capi.cl_last_error().decode(errors='replace')


# The names `from cutelayout import *` gives: not filter, sum, zip, slice and
# copy, which would hide Python's built-ins and the copy module, nor _ (the
# interpreter's last value): `from cutelayout import _`.
__all__ = sorted({name for name in globals() if not name.startswith('_')} -
                 {'filter', 'sum', 'zip', 'slice', 'copy', 'library', 'capi'})
