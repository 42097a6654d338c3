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
from ._atoms import CopyAtom, MmaAtom, TiledCopy, TiledMMA
from ._algebra import (append, blocked_product, coalesce, coalesce_z, complement, composition, composition_mode,
                       coprofile, coshape, cosize, crd2idx, depth, dice, domain_distribute, domain_offset, downcast,
                       filter, filter_zeros, flat_divide, flat_product, flatten, get, greatest_common_domain, group,
                       layout_add, left_inverse, logical_divide, logical_divide_mode, logical_product,
                       logical_product_mode, make_composed_layout, make_fragment_like, make_identity_layout,
                       make_layout, make_layout_like, make_ordered_layout, max_alignment, max_common_layout,
                       max_common_vector, nullspace, prepend, raked_product, rank, recast_layout, replace,
                       right_inverse, select, shape, size, slice, slice_and_offset, stride, take, tile_to_shape,
                       tile_unzip, tiled_divide, tiled_product, unflatten, upcast, zip, zipped_divide,
                       zipped_divide_mode, zipped_product)
from ._banks import bank_conflicts, bank_report, smem_wavefronts, swizzle_search
from ._coord import CoordTensor, make_coord_tensor, make_identity_tensor
from ._cuda import CudaTensor, cuda_copy, cuda_copy_explain, cuda_copy_many
from ._explain import Explanation, Step, explain
from ._ffi import ERRORS as _ERRORS, CuteLayoutError, capi, library
from ._layout import (CompiledLayout, ComposedLayout, Layout, LayoutLeft, LayoutRight, Odometer, Swizzle,
                      make_swizzle, parse)
from ._picture import Panel, Picture, draw, draw_panels, print1D, print1d, print_layout
from ._tensor import (ComposedTensor, Tensor, copy, copy_explain, copy_plan, inner_partition, local_partition, local_tile, make_tensor_like,
                      outer_partition, recast)
from ._values import (E, ScaledBasis, _, ceil_div, colex_less, common_coarsening, common_refinement,
                      compact_col_major, compact_order, compact_row_major, compatible, congruent, crd2crd, elem_less,
                      elem_scale, evenly_divides, gcd, idx2crd, inner_product, lex_less, prefix_product, product,
                      product_each, product_like, round_up, shape_div, weakly_congruent)
from ._values import tuple_max as max  # noqa: A001 (CuTe's name)
from ._values import tuple_min as min  # noqa: A001 (CuTe's name)
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


# The names `from cutelayout import *` gives: not filter, sum, max, min, zip,
# slice and copy, which would hide Python's built-ins and the copy module, nor _ (the
# interpreter's last value): `from cutelayout import _`.
__all__ = sorted({name for name in globals() if not name.startswith('_')} -
                 {'filter', 'sum', 'max', 'min', 'zip', 'slice', 'copy', 'library', 'capi'})
