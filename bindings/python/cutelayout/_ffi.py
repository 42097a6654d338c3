# SPDX-License-Identifier: BSD-3-Clause
"""The C API through ctypes: every function of _capi.FUNCTIONS, declared from
its C types, the structs of the headers, and the status codes as exceptions.

`capi.cl_composition` is the C function itself (argtypes and restype set);
a function the loaded library lacks (an older library) raises
NotImplementedError when called.  The rest of the package is written on
top of this namespace; it is also public, as `cutelayout.capi`, for the
rare call that has no Python spelling."""
import ctypes
import os
from ctypes import POINTER, c_char_p, c_double, c_int, c_int32, c_int64, c_size_t, c_uint, c_uint8, c_uint16, \
    c_uint64, c_void_p

from . import _capi, _library

# ------------------------------------------------------------------ structs
# The headers' structs, field for field (tests/test_capi.py compares their
# members with _capi.STRUCTS and their sizes and offsets with the C
# compiler's).  C enums are ints.


class cl_swizzle_t(ctypes.Structure):
    _fields_ = [('bits', c_int32), ('base', c_int32), ('shift', c_int32)]


class cl_fn(ctypes.Structure):
    _fields_ = [('kind', c_int), ('swizzle', cl_swizzle_t), ('layout', c_void_p)]


class cl_layout_fn_t(ctypes.Structure):
    _fields_ = [('fn', cl_fn), ('composed', c_void_p)]


class cl_smem_access_t(ctypes.Structure):
    _fields_ = [('tv', c_void_p), ('bits', c_int64), ('op', c_int), ('vector_bits', c_int64), ('matrices', c_int64)]


class cl_smem_choice_t(ctypes.Structure):
    _fields_ = [('swizzle', cl_swizzle_t), ('leading', c_int64), ('padding', c_int64), ('wavefronts', c_int64),
                ('ideal', c_int64), ('cosize', c_int64)]


class cl_bank_instruction_t(ctypes.Structure):
    _fields_ = [('warp', c_int64), ('index', c_int64), ('bytes', c_int64), ('wavefronts', c_int64), ('ideal', c_int64)]


class cl_placement_t(ctypes.Structure):
    _fields_ = [('kind', c_int), ('dim', c_int64), ('param', c_int64)]


cl_index_map_fn = ctypes.CFUNCTYPE(c_int, c_void_p, c_int64, POINTER(c_int64))


class cl_picture_options(ctypes.Structure):
    _fields_ = [('size', c_size_t), ('format', c_int), ('title', c_char_p), ('map', cl_index_map_fn),
                ('map_ctx', c_void_p), ('colour', c_int), ('element_bytes', c_int64), ('marks', POINTER(c_int64)),
                ('mark_count', c_int64), ('arrangement', c_int)]


class cl_picture_panel(ctypes.Structure):
    _fields_ = [('layout', c_void_p), ('composed', c_void_p), ('title', c_char_p), ('tile_rows', c_int64),
                ('tile_cols', c_int64), ('highlight', c_int64)]


class cl_tensor_desc(ctypes.Structure):
    _fields_ = [('struct_size', c_size_t), ('data', c_void_p), ('elem_size', c_size_t), ('dtype', c_int),
                ('extent_base', c_void_p), ('extent_bytes', c_size_t)]


class cl_copy_options_t(ctypes.Structure):
    _fields_ = [('struct_size', c_size_t), ('stores', c_int), ('threads', c_int), ('pool', c_void_p)]


_PLAN_MODES = _capi.CONSTANTS['CL_COPY_PLAN_MAX_MODES']


class cl_copy_plan_t(ctypes.Structure):
    _fields_ = [('struct_size', c_size_t), ('kernel', c_int), ('flags', c_uint), ('elem_size', c_int64),
                ('vector', c_int64), ('dst_offset', c_int64), ('src_offset', c_int64), ('rank', c_int64),
                ('dst_run', c_int64), ('src_run', c_int64), ('extent', c_int64 * _PLAN_MODES),
                ('dst_stride', c_int64 * _PLAN_MODES), ('src_stride', c_int64 * _PLAN_MODES),
                ('dst_tail_rank', c_int64), ('src_tail_rank', c_int64),
                ('dst_tail_extent', c_int64 * _PLAN_MODES), ('dst_tail_stride', c_int64 * _PLAN_MODES),
                ('src_tail_extent', c_int64 * _PLAN_MODES), ('src_tail_stride', c_int64 * _PLAN_MODES)]


_COMPILED_TERMS = _capi.CONSTANTS['CL_COMPILED_MAX_MODES'] - 1


class cl_compiled_term_t(ctypes.Structure):
    _fields_ = [('magic', c_uint64), ('coef', c_uint64)]


class cl_compiled_layout_t(ctypes.Structure):
    _fields_ = [('size', c_int64), ('d0', c_uint64), ('offset', c_int64), ('swizzle_mask', c_uint64),
                ('swizzle_shr', c_uint8), ('swizzle_shl', c_uint8), ('nterms', c_uint8),
                ('shift', c_uint8 * _COMPILED_TERMS), ('form', c_uint8), ('index32', c_uint8),
                ('term', cl_compiled_term_t * _COMPILED_TERMS)]


class cl_dldevice(ctypes.Structure):
    _fields_ = [('device_type', c_int32), ('device_id', c_int32)]


class cl_dldatatype(ctypes.Structure):
    _fields_ = [('code', c_uint8), ('bits', c_uint8), ('lanes', c_uint16)]


class cl_dltensor_t(ctypes.Structure):
    _fields_ = [('data', c_void_p), ('device', cl_dldevice), ('ndim', c_int32), ('dtype', cl_dldatatype),
                ('shape', POINTER(c_int64)), ('strides', POINTER(c_int64)), ('byte_offset', c_uint64)]


class cl_allocator(ctypes.Structure):
    _fields_ = [('alloc', ctypes.CFUNCTYPE(c_void_p, c_void_p, c_size_t)),
                ('realloc', ctypes.CFUNCTYPE(c_void_p, c_void_p, c_void_p, c_size_t)),
                ('free', ctypes.CFUNCTYPE(None, c_void_p, c_void_p)), ('ctx', c_void_p)]


cl_tensor_apply_fn = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_int64)
cl_tensor_transform_fn = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_void_p)

STRUCTS = {name: value for name, value in globals().items()
           if isinstance(value, type) and issubclass(value, ctypes.Structure)}

# ------------------------------------------------------------------- types

# Opaque handles travel as void pointers.
_HANDLES = ('cl_layout_t', 'cl_tuple_t', 'cl_composed_t', 'cl_tensor_t', 'cl_odometer_t', 'cl_coord_tensor_t', 'cl_copy_pool_t',
            'cl_explanation_t', 'cl_bank_report_t', 'cl_mma_atom_t', 'cl_copy_atom_t', 'cl_tiled_mma_t', 'cl_tiled_copy_t',
            'cl_dist_t', 'cl_dist_plan_t')
_SCALARS = {
    'void': None, 'int': c_int, 'unsigned': c_uint, 'int64_t': c_int64, 'size_t': c_size_t, 'double': c_double,
    'cl_status': c_int, 'cl_kind': c_int, 'cl_dtype': c_int, 'cl_copy_kernel_t': c_int, 'int32_t': c_int32,
    'cl_mma_operand': c_int, 'cl_copy_side': c_int, 'cl_copy_kind': c_int, 'cl_atom_family': c_int, 'cl_smem_op': c_int,
    'cl_dist_direction': c_int, 'cl_placement_kind': c_int, 'uint64_t': ctypes.c_uint64,
    'char': ctypes.c_char, 'void *': c_void_p, 'FILE': c_void_p,
    'cl_tensor_apply_fn': cl_tensor_apply_fn, 'cl_tensor_transform_fn': cl_tensor_transform_fn,
    'cl_index_map_fn': cl_index_map_fn,
}
_SCALARS.update((name, c_void_p) for name in _HANDLES)
_SCALARS.update(STRUCTS)


def ctype(c_type, result=False):
    """The ctypes type of a C type as the headers spell it ('const
    cl_layout_t *const *'), or KeyError for one this module does not know."""
    base = c_type.replace('const ', '').replace('*const', '*').strip()
    stars = base.count('*')
    base = base.replace('*', '').strip()
    if base == 'char' and stars == 1:
        # Text results and text arguments are C strings; buffers to write
        # are ctypes buffers, which c_void_p passes as they are.
        return c_char_p if result or c_type.startswith('const') else c_void_p
    t = _SCALARS[base]
    if base in _HANDLES or base in ('FILE', 'void', 'char'):
        t = c_void_p
        stars -= 1
    for _ in range(stars):
        t = POINTER(t)
    return t


class _CApi:
    """Attribute access to the C functions (declared on first use) and the
    constants of the headers."""

    def __init__(self, library):
        self._library = library

    def __getattr__(self, name):
        if name in _capi.CONSTANTS:
            value = _capi.CONSTANTS[name]
        elif name in _capi.FUNCTIONS:
            ret, params = _capi.FUNCTIONS[name]
            value = getattr(self._library, name, None)
            if value is None:
                value = _missing(name)
            else:
                value.restype = ctype(ret, result=True)
                value.argtypes = [ctype(p) for p in params]
        else:
            raise AttributeError('the C API has no %r' % name)
        setattr(self, name, value)
        return value

    def __dir__(self):
        return sorted(set(_capi.FUNCTIONS) | set(_capi.CONSTANTS))


def load_companion(stem, env, how_to_build, declarations):
    """A library built beside libcutelayout (libcutelayout-cuda, -nccl):
    from $ENV when it is set, else beside libcutelayout (installed, or the
    build tree's folder named after the part), else by the system's search;
    each (name, restype, argtypes) of DECLARATIONS declared on it. OSError
    saying how to get it when it is missing."""
    name = 'lib%s.so.%d' % (stem, _library.ABI_VERSION)
    core = os.path.dirname(getattr(library, '_name', '') or '')
    paths = [os.environ.get(env)]
    if os.path.isabs(core):
        paths += [os.path.join(core, name), os.path.join(core, '..', stem.split('-')[-1], name)]
    lib, errors = None, []
    for path in [p for p in paths if p and os.path.exists(p)] + [name]:
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            errors.append(str(e))
    if lib is None:
        raise OSError('lib%s not found: %s or set %s to its path (%s)' % (stem, how_to_build, env, '; '.join(errors)))
    for fn, restype, argtypes in declarations:
        f = getattr(lib, fn)
        f.restype, f.argtypes = restype, argtypes
    return lib


def _missing(name):
    def call(*args):
        raise NotImplementedError('the loaded libcutelayout has no %s: it is older than this package' % name)
    call.__name__ = name
    return call


library = _library.load()
capi = _CApi(library)

if capi.cl_abi_version() != _library.ABI_VERSION or capi.cl_abi_minor() < _library.ABI_MINOR:
    raise ImportError('libcutelayout implements ABI %d.%d, this package needs %d.%d or a later minor'
                      % (capi.cl_abi_version(), capi.cl_abi_minor(), _library.ABI_VERSION, _library.ABI_MINOR))

# ------------------------------------------------------------------ errors


class CuteLayoutError(Exception):
    """A failed library call: `status` is the cl_status code (a negative int),
    `message` its cl_status_string() text, `detail` the cl_last_error() text
    (e.g. "column 7: expected ',' or ')'"), possibly empty.  Each status has
    its own subclass, which also derives from the built-in exception that
    says the same: ValueError for a broken precondition, OverflowError,
    MemoryError."""

    def __init__(self, status, detail=''):
        self.status = status
        self.message = capi.cl_status_string(status).decode()
        self.detail = detail
        super().__init__(self.message + (': ' + detail if detail else ''))

    def __reduce__(self):
        return (error_class(self.status), (self.status, self.detail))


def _error(name, *bases, doc):
    return type(name, (CuteLayoutError,) + bases, {'__doc__': doc, '__module__': 'cutelayout'})


# One class per status (common.h), named after it.
ERRORS = {
    'CL_E_NULL': _error('NullArgumentError', ValueError, doc='A required argument was missing (NULL).'),
    'CL_E_NOMEM': _error('OutOfMemoryError', MemoryError, doc='The library could not allocate memory.'),
    'CL_E_PARSE': _error('ParseError', ValueError, doc='Malformed text; the detail names the column.'),
    'CL_E_OVERFLOW': _error('IntegerOverflowError', OverflowError, doc='A result does not fit in int64_t.'),
    'CL_E_RANK': _error('RankError', ValueError, doc='Ranks or profiles do not match (CuTe: "Mismatched Ranks").'),
    'CL_E_DIVISIBILITY': _error('DivisibilityError', ValueError,
                                doc='A divisibility condition of the algebra is violated.'),
    'CL_E_DOMAIN': _error('DomainError', ValueError, doc="An argument is outside the function's domain."),
    'CL_E_TYPE': _error('KindError', ValueError, TypeError,
                        doc='A value of the wrong kind (a tuple where an integer is required, ...).'),
    'CL_E_NOT_INJECTIVE': _error('NotInjectiveError', ValueError, doc='The layout is not injective.'),
    'CL_E_LIMIT': _error('LimitError', ValueError, doc='A rank, depth or size limit of the library is exceeded.'),
    'CL_E_UNSUPPORTED': _error('UnsupportedError', ValueError, doc='An input the library (or CuTe) does not support.'),
    'CL_E_BOUNDS': _error('BoundsError', ValueError, IndexError, doc="A tensor access outside its memory."),
    'CL_E_OVERLAP': _error('OverlapError', ValueError, doc='Source and destination of a copy overlap.'),
    'CL_E_ABI': _error('AbiError', ValueError, doc='A struct or library of another ABI.'),
}
_BY_STATUS = {_capi.CONSTANTS[name]: cls for name, cls in ERRORS.items()}
_UNKNOWN = _error('UnknownStatusError', ValueError, doc='A status this package does not know (a newer library).')


def error_class(status):
    return _BY_STATUS.get(status, _UNKNOWN)


def negative_extent_error(extent):
    """The library's error for a negative extent, for checks made before it sees the shape."""
    status = _capi.CONSTANTS['CL_E_DOMAIN']
    return error_class(status)(status, "a layout's shape has the negative extent %d; "
                                       "a shape's extents are integers >= 0" % extent)


def check(status):
    """Raises the exception of a failure status; returns a success value."""
    if status < 0:
        # Read the thread-local detail at once: the next call may replace it.
        raise error_class(status)(status, capi.cl_last_error().decode(errors='replace'))
    return status


# ----------------------------------------------------------------- handles

class Owned:
    """An object that owns a C handle, `_as_parameter_` (so ctypes passes
    the object itself), which its class's `_free` releases when the object
    goes.  (`_free` is looked up on the class, not in a module: module globals
    may already be gone when the interpreter shuts down.)"""
    __slots__ = ()
    _free = None

    def __del__(self):
        handle = getattr(self, '_as_parameter_', None)
        if handle:
            type(self)._free(handle)
            self._as_parameter_ = None


# ------------------------------------------------------------------- calls

def out_call(fn, *args, out_type=c_void_p):
    """fn(*args, &out) for a function whose last parameter is its result;
    the value of out."""
    out = out_type()
    check(fn(*args, ctypes.byref(out)))
    return out


def snprintf_text(fn, *args):
    """The text of an snprintf-style function fn(*args, buf, cap)."""
    need = check(fn(*args, None, 0))
    buf = ctypes.create_string_buffer(need + 1)
    check(fn(*args, buf, need + 1))
    return buf.raw[:need].decode()


def owned_string(fn, *args):
    """The text of a function returning a fresh `char *` through its last
    parameter (freed with cl_string_free)."""
    out = out_call(fn, *args)
    try:
        return ctypes.string_at(out.value).decode()
    finally:
        capi.cl_string_free(out)
