# SPDX-License-Identifier: BSD-3-Clause
"""cutelayout: NVIDIA CuTe's layout algebra from Python, through ctypes on the
C library libcutelayout.so (no compilation, no dependencies).

    >>> from cutelayout import Layout, composition, logical_divide
    >>> L = Layout("(2,4):(1,2)")
    >>> L(3), L.size(), L.cosize(), str(L)
    (3, 8, 8, '(2,4):(1,2)')
    >>> L((1, 2))                      # a hierarchical coordinate
    5
    >>> str(composition(Layout("20:2"), Layout("(5,4):(4,1)")))
    '(5,4):(8,2)'
    >>> str(logical_divide(Layout("(4,2,3):(2,1,8)"), Layout("4:2")))
    '((2,2),(2,3)):((4,1),(2,8))'

Coordinates and indices are 0-based, as in CuTe.  Failures raise CuteLayoutError,
which carries the library's status code and its detail message
(cl_last_error()).

The library is found, in this order, at:
  1. $CUTELAYOUT_LIBRARY, a path, when it is set (and then only there);
  2. libcutelayout.so.<ABI major> beside this file;
  3. the library directory this file was configured with: the build tree's
     src/ for the copy meson writes to <build>/bindings/python/, the
     installed libdir for the copy `meson install` puts in Python's path
     (relative to this file, so a moved prefix or a DESTDIR still works);
  4. the system's search (LD_LIBRARY_PATH, ldconfig's cache, ctypes.util.find_library);
  5. the libdir that `pkg-config --variable=libdir cute-layout` reports
     (a prefix under /usr/local before `ldconfig` has run, or one under
     $HOME named by PKG_CONFIG_PATH).

On a GPU, cuda_copy(dst, src) copies between CUDA tensors of any strides
(PyTorch, CuPy, anything with __dlpack__) through the CUDA module
libcutelayout-cuda, loaded on first use from $CUTELAYOUT_CUDA_LIBRARY when it
is set, else beside libcutelayout (installed, or the build tree's cuda/),
else by the system's search.
"""
import ctypes
import ctypes.util
import os
import shutil
import subprocess

# `filter` is left out of __all__ so that `import *` does not hide the builtin.
__all__ = ['Layout', 'CuteLayoutError', 'size', 'cosize', 'rank', 'depth', 'version',
           'composition', 'complement', 'right_inverse', 'left_inverse', 'coalesce', 'filter_zeros',
           'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide',
           'logical_product', 'zipped_product', 'tiled_product', 'flat_product',
           'blocked_product', 'raked_product', 'tile_to_shape', 'upcast', 'downcast',
           'max_common_vector', 'max_common_layout', 'nullspace', 'CudaTensor', 'cuda_copy']

# The ABI this module was written against (CL_ABI_VERSION / CL_ABI_MINOR).
ABI_VERSION = 1
ABI_MINOR = 0

_SONAME = 'libcutelayout.so.%d' % ABI_VERSION
# Meson replaces this with the library's directory relative to this file's
# (bindings/meson.build); in the source tree it stays as it is.
_CONFIGURED_LIBDIR = '@LIBDIR_FROM_MODULE@'


def _pkg_config_libdir():
    pkg_config = shutil.which('pkg-config') or shutil.which('pkgconf')
    if pkg_config is None:
        return None
    try:
        out = subprocess.run([pkg_config, '--variable=libdir', 'cute-layout'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else None


def _candidates():
    """(where, what to load) in the order of the module's docstring; each
    `what` is a path, or a bare name for the dynamic linker's search."""
    here = os.path.dirname(os.path.abspath(__file__))
    yield 'beside the module', os.path.join(here, _SONAME)
    if not _CONFIGURED_LIBDIR.startswith('@'):
        yield 'the configured libdir', os.path.normpath(os.path.join(here, _CONFIGURED_LIBDIR, _SONAME))
    yield "the system's library path", _SONAME
    found = ctypes.util.find_library('cutelayout')
    if found:
        yield 'ctypes.util.find_library', found
    libdir = _pkg_config_libdir()
    if libdir:
        yield "pkg-config's libdir", os.path.join(libdir, _SONAME)


def _load():
    path = os.environ.get('CUTELAYOUT_LIBRARY')
    if path:
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            raise ImportError('cannot load CUTELAYOUT_LIBRARY=%s: %s' % (path, e)) from None
    tried = []
    for where, what in _candidates():
        if os.sep in what and not os.path.exists(what):
            tried.append('%s (%s)' % (what, where))
            continue
        try:
            return ctypes.CDLL(what)
        except OSError:
            tried.append('%s (%s)' % (what, where))
    raise ImportError('%s not found; tried %s.  Install cute-layout (`meson install -C build`, and '
                      '`sudo ldconfig` after installing under /usr/local), set PKG_CONFIG_PATH to the '
                      'pkgconfig directory of its prefix, or set CUTELAYOUT_LIBRARY to the path of '
                      '%s' % (_SONAME, ', '.join(tried), _SONAME))


library = _load()
_c = library

_status = ctypes.c_int  # cl_status is a C enum: an int
_handle = ctypes.c_void_p
_out_handle = ctypes.POINTER(ctypes.c_void_p)
_i64 = ctypes.c_int64


def _bind(name, restype, *argtypes):
    fn = getattr(_c, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)
    return fn


_bind('cl_abi_version', ctypes.c_int)
_bind('cl_abi_minor', ctypes.c_int)
if _c.cl_abi_version() != ABI_VERSION or _c.cl_abi_minor() < ABI_MINOR:
    raise ImportError('libcutelayout implements ABI %d.%d, this module needs %d.%d or a later minor'
                      % (_c.cl_abi_version(), _c.cl_abi_minor(), ABI_VERSION, ABI_MINOR))

_bind('cl_status_string', ctypes.c_char_p, ctypes.c_int)
_bind('cl_last_error', ctypes.c_char_p)
_bind('cl_version_string', ctypes.c_char_p)
_bind('cl_layout_parse', _status, ctypes.c_char_p, _out_handle)
_bind('cl_layout_format', _i64, _handle, ctypes.c_char_p, ctypes.c_size_t)
_bind('cl_layout_free', None, _handle)
_bind('cl_layout_copy', _status, _handle, _out_handle)
_bind('cl_layout_make', _status, _handle, _handle, _out_handle)
_bind('cl_layout_make_left', _status, _handle, _out_handle)
_bind('cl_layout_size_checked', _status, _handle, ctypes.POINTER(_i64))
_bind('cl_layout_cosize_checked', _status, _handle, ctypes.POINTER(_i64))
_bind('cl_layout_rank', _i64, _handle)
_bind('cl_layout_depth', _i64, _handle)
_bind('cl_layout_equal', ctypes.c_int, _handle, _handle)
_bind('cl_layout_eval', _status, _handle, _i64, ctypes.POINTER(_i64))
_bind('cl_layout_eval_coord', _status, _handle, _handle, ctypes.POINTER(_i64))
_bind('cl_layout_get', _status, _handle, ctypes.POINTER(_i64), _i64, _out_handle)
_bind('cl_layout_shape', _status, _handle, _out_handle)
_bind('cl_layout_stride', _status, _handle, _out_handle)
_bind('cl_tuple_parse', _status, ctypes.c_char_p, _out_handle)
_bind('cl_tuple_format', _i64, _handle, ctypes.c_char_p, ctypes.c_size_t)
_bind('cl_tuple_free', None, _handle)


class CuteLayoutError(Exception):
    """A failed library call: `status` is the cl_status code (a negative int),
    `message` its cl_status_string() text, `detail` the cl_last_error() text
    (e.g. "column 7: expected ',' or ')'"), possibly empty."""

    def __init__(self, status, detail=''):
        self.status = status
        self.message = _c.cl_status_string(status).decode()
        self.detail = detail
        super().__init__(self.message + (': ' + detail if detail else ''))


def _check(status):
    if status != 0:
        # Read the thread-local detail at once: the next call may replace it.
        raise CuteLayoutError(status, _c.cl_last_error().decode(errors='replace'))


def _format(fn, handle):
    """The text of a handle through a snprintf-style formatter."""
    need = fn(handle, None, 0)
    if need < 0:
        _check(need)
    buf = ctypes.create_string_buffer(need + 1)
    fn(handle, buf, need + 1)
    return buf.value.decode()


def _text(value):
    """Canonical text of an int, '_' or None (underscore), a Layout, or a nested
    tuple of those."""
    if value is None or value == '_':
        return '_'
    if isinstance(value, bool):
        raise TypeError('a coordinate or shape is made of integers, not booleans')
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (tuple, list)):
        return '(' + ','.join(_text(v) for v in value) + ')'
    if isinstance(value, Layout):  # a layout leaf of a tiler
        return str(value)
    raise TypeError('expected an int or a tuple of ints, got %r' % (value,))


def _parse_tuple(text):
    """A canonical int-tuple text, e.g. '(2,(3,4))', as Python ints and tuples."""
    pos = 0

    def value():
        nonlocal pos
        if text[pos] == '(':
            pos += 1
            items = []
            while text[pos] != ')':
                items.append(value())
                if text[pos] == ',':
                    pos += 1
            pos += 1
            return tuple(items)
        start = pos
        while pos < len(text) and text[pos] not in ',)':
            pos += 1
        return int(text[start:pos])

    return value()


class _Tuple:
    """An owned cl_tuple_t, freed when the block ends."""

    def __init__(self, value):
        self.handle = ctypes.c_void_p()
        _check(_c.cl_tuple_parse(_text(value).encode(), ctypes.byref(self.handle)))

    def __enter__(self):
        return self.handle

    def __exit__(self, *exc):
        _c.cl_tuple_free(self.handle)


class Layout:
    """CuTe's Layout: a function from coordinates to indices given by a shape
    and a congruent stride.

    Layout("(2,4):(1,2)")     from the canonical text
    Layout((2,4), (1,2))      from a shape and a stride (ints / nested tuples)
    Layout((2,4))             the compact column-major (LayoutLeft) layout

    A Layout is immutable; the handle it owns is freed with the object.
    """

    __slots__ = ('_handle',)

    def __init__(self, shape, stride=None):
        self._handle = ctypes.c_void_p()
        if isinstance(shape, str):
            if stride is not None:
                raise TypeError('Layout(text) takes no stride')
            _check(_c.cl_layout_parse(shape.encode(), ctypes.byref(self._handle)))
        elif stride is None:
            with _Tuple(shape) as s:
                _check(_c.cl_layout_make_left(s, ctypes.byref(self._handle)))
        else:
            with _Tuple(shape) as s, _Tuple(stride) as d:
                _check(_c.cl_layout_make(s, d, ctypes.byref(self._handle)))

    @classmethod
    def _adopt(cls, handle):
        """Wraps a handle the library just returned (ownership moves here)."""
        self = cls.__new__(cls)
        self._handle = handle
        return self

    def __del__(self, _free=_c.cl_layout_free):
        # _free is bound at definition time: module globals may already be
        # gone when the interpreter shuts down.
        handle = getattr(self, '_handle', None)
        if handle:
            _free(handle)
            self._handle = None

    @property
    def _as_parameter_(self):
        return self._handle

    def __call__(self, *coord):
        """L(i) for a linear coordinate i, or L(crd) / L(c0, c1, ...) for a
        (hierarchical) coordinate: the index CuTe's layout(...) returns."""
        index = _i64()
        if len(coord) == 1 and isinstance(coord[0], int) and not isinstance(coord[0], bool):
            _check(_c.cl_layout_eval(self, coord[0], ctypes.byref(index)))
        else:
            crd = coord[0] if len(coord) == 1 else coord
            with _Tuple(crd) as c:
                _check(_c.cl_layout_eval_coord(self, c, ctypes.byref(index)))
        return index.value

    def __getitem__(self, mode):
        """get<i>(L), or get<i,j,...>(L) for a tuple of mode indices."""
        path = mode if isinstance(mode, tuple) else (mode,)
        arr = (_i64 * len(path))(*path)
        out = ctypes.c_void_p()
        _check(_c.cl_layout_get(self, arr, len(path), ctypes.byref(out)))
        return Layout._adopt(out)

    def __str__(self):
        return _format(_c.cl_layout_format, self._handle)

    def __repr__(self):
        return 'Layout(%r)' % str(self)

    def __eq__(self, other):
        if not isinstance(other, Layout):
            return NotImplemented
        return bool(_c.cl_layout_equal(self, other))

    def __hash__(self):
        return hash(str(self))

    def __copy__(self):
        return self  # immutable

    def __deepcopy__(self, memo):
        return self

    def size(self):
        """The size of the domain: the product of the shape."""
        out = _i64()
        _check(_c.cl_layout_size_checked(self, ctypes.byref(out)))
        return out.value

    def cosize(self):
        """The size of the codomain: L(size-1) + 1."""
        out = _i64()
        _check(_c.cl_layout_cosize_checked(self, ctypes.byref(out)))
        return out.value

    def rank(self):
        """The number of top-level modes."""
        return _c.cl_layout_rank(self)

    def depth(self):
        """The nesting depth of the shape (0 for an integer shape)."""
        return _c.cl_layout_depth(self)

    def _tuple(self, fn):
        out = ctypes.c_void_p()
        _check(fn(self, ctypes.byref(out)))
        try:
            return _parse_tuple(_format(_c.cl_tuple_format, out))
        finally:
            _c.cl_tuple_free(out)

    @property
    def shape(self):
        """The shape as an int or a nested tuple of ints."""
        return self._tuple(_c.cl_layout_shape)

    @property
    def stride(self):
        """The stride as an int or a nested tuple of ints."""
        return self._tuple(_c.cl_layout_stride)


def size(layout):
    return layout.size()


def cosize(layout):
    return layout.cosize()


def rank(layout):
    return layout.rank()


def depth(layout):
    return layout.depth()


def version():
    """The library's version string, e.g. '0.1.0'."""
    return _c.cl_version_string().decode()


def _as_layout(x):
    return x if isinstance(x, Layout) else Layout(x)


# ---- the algebra (algebra.h) ----
# Bound when the loaded library has them; calling one it lacks raises
# NotImplementedError, so this module also works with an older library.

def _optional(name, restype, *argtypes):
    fn = getattr(_c, name, None)
    if fn is not None:
        fn.restype = restype
        fn.argtypes = list(argtypes)
    return fn


def _call(name, fn, *args):
    """Calls fn(*args, &out) and wraps the new layout it returns."""
    if fn is None:
        raise NotImplementedError('the loaded libcutelayout has no cl_' + name)
    out = ctypes.c_void_p()
    _check(fn(*args, ctypes.byref(out)))
    return Layout._adopt(out)


def _unary(name, doc):
    fn = _optional('cl_' + name, _status, _handle, _out_handle)

    def call(layout):
        return _call(name, fn, _as_layout(layout))

    call.__name__, call.__doc__ = name, doc
    return call


def _binary(name, doc):
    """A function of a layout and a layout (a Layout or its text), or of a
    layout and a tiler (an int, or a tuple of ints, Layouts and None for '_')."""
    plain = _optional('cl_' + name, _status, _handle, _handle, _out_handle)
    tiler = _optional('cl_%s_tiler' % name, _status, _handle, _handle, _out_handle)

    def call(a, b):
        a = _as_layout(a)
        if isinstance(b, (Layout, str)):
            return _call(name, plain, a, _as_layout(b))
        with _Tuple(b) as t:
            return _call(name + '_tiler', tiler, a, t)

    call.__name__, call.__doc__ = name, doc
    return call


composition = _binary('composition', """composition(A, B) = A o B: the layout R with R(c) == A(B(c)) for every
coordinate c of B.  B may be a tiler, composed with A mode by mode.  Raises
CuteLayoutError (CL_E_DIVISIBILITY) where CuTe's divisibility conditions fail.""")
logical_divide = _binary('logical_divide', """logical_divide(A, B) = composition(A, (B, complement(B, size(A)))): (tile, rest).""")
zipped_divide = _binary('zipped_divide', 'zipped_divide(A, B): ((tile modes...), (rest modes...)).')
tiled_divide = _binary('tiled_divide', 'tiled_divide(A, B): ((tile modes...), rest modes...).')
flat_divide = _binary('flat_divide', 'flat_divide(A, B): (tile modes..., rest modes...).')
logical_product = _binary('logical_product', """logical_product(A, B) = (A, composition(complement(A, size(A)*cosize(B)), B)).""")
zipped_product = _binary('zipped_product', 'zipped_product(A, B): the logical product arranged as zipped_divide.')
tiled_product = _binary('tiled_product', 'tiled_product(A, B): the logical product arranged as tiled_divide.')
flat_product = _binary('flat_product', 'flat_product(A, B): the logical product arranged as flat_divide.')
right_inverse = _unary('right_inverse', 'right_inverse(L): R with L(R(i)) == i for every i < size(R).')
left_inverse = _unary('left_inverse', 'left_inverse(L): R with R(L(i)) == i for every i < size(L).')
filter_zeros = _unary('filter_zeros', 'filter_zeros(L): stride-0 modes replaced by 1:0.')
nullspace = _unary('nullspace', 'nullspace(L): the layout R of the stride-0 modes, L(R(i)) == 0.')

_products = {name: _optional('cl_' + name, _status, _handle, _handle, _out_handle)
             for name in ('blocked_product', 'raked_product')}


def blocked_product(block, tiler):
    """blocked_product(A, B): the product with each mode of B repeating the block A."""
    return _call('blocked_product', _products['blocked_product'], _as_layout(block), _as_layout(tiler))


def raked_product(block, tiler):
    """raked_product(A, B): the product with the copies of A interleaved."""
    return _call('raked_product', _products['raked_product'], _as_layout(block), _as_layout(tiler))


_with_profile = {name: (_optional('cl_' + name, _status, _handle, _out_handle),
                        _optional('cl_%s_profile' % name, _status, _handle, _handle, _out_handle))
                 for name in ('coalesce', 'filter')}


def coalesce(layout, profile=None):
    """coalesce(L): the same function on [0, size(L)) with the fewest modes;
    coalesce(L, profile) keeps the modes of the profile (a tuple)."""
    plain, by_profile = _with_profile['coalesce']
    if profile is None:
        return _call('coalesce', plain, _as_layout(layout))
    with _Tuple(profile) as p:
        return _call('coalesce_profile', by_profile, _as_layout(layout), p)


def filter(layout, profile=None):  # noqa: A001 (CuTe's name)
    """filter(L): coalesce(filter_zeros(L)), the modes that reach new indices."""
    plain, by_profile = _with_profile['filter']
    if profile is None:
        return _call('filter', plain, _as_layout(layout))
    with _Tuple(profile) as p:
        return _call('filter_profile', by_profile, _as_layout(layout), p)


_complement = {
    'int': _optional('cl_complement', _status, _handle, _i64, _out_handle),
    'shape': _optional('cl_complement_shape', _status, _handle, _handle, _out_handle),
    'full': _optional('cl_complement_full', _status, _handle, _out_handle),
}


def complement(layout, cotarget=None):
    """complement(L, cotarget): the ordered layout C disjoint from L such that
    (L, C) covers [0, cotarget); cotarget is an int or a shape tuple and
    defaults to cosize(filter(L)).  CuteLayoutError (CL_E_NOT_INJECTIVE) where
    CuTe detects a non-injective L."""
    layout = _as_layout(layout)
    if cotarget is None:
        return _call('complement_full', _complement['full'], layout)
    if isinstance(cotarget, int):
        return _call('complement', _complement['int'], layout, cotarget)
    with _Tuple(cotarget) as t:
        return _call('complement_shape', _complement['shape'], layout, t)


_casts = {name: _optional('cl_' + name, _status, _handle, _i64, _out_handle) for name in ('upcast', 'downcast')}


def upcast(layout, n):
    """upcast<n>(L): L over elements n times larger."""
    return _call('upcast', _casts['upcast'], _as_layout(layout), n)


def downcast(layout, n):
    """downcast<n>(L): L over elements n times smaller."""
    return _call('downcast', _casts['downcast'], _as_layout(layout), n)


_tile_to_shape = _optional('cl_tile_to_shape', _status, _handle, _handle, _handle, _out_handle)


def tile_to_shape(block, shape, order=None):
    """tile_to_shape(L, shape, order=None): copies of L blocked to fill shape,
    in the given order of modes (column-major by default)."""
    with _Tuple(shape) as s:
        if order is None:
            return _call('tile_to_shape', _tile_to_shape, _as_layout(block), s, None)
        with _Tuple(order) as o:
            return _call('tile_to_shape', _tile_to_shape, _as_layout(block), s, o)


_max_common_vector = _optional('cl_max_common_vector', _status, _handle, _handle, ctypes.POINTER(_i64))
max_common_layout = _binary('max_common_layout', """max_common_layout(A, B): the layout R with A(R(i)) == i == B(R(i)) over the
longest common contiguous run.""")


def max_common_vector(a, b):
    """max_common_vector(A, B): how many elements A and B both map contiguously."""
    if _max_common_vector is None:
        raise NotImplementedError('the loaded libcutelayout has no cl_max_common_vector')
    out = _i64()
    _check(_max_common_vector(_as_layout(a), _as_layout(b), ctypes.byref(out)))
    return out.value


# ---- the GPU (the CUDA module, cuda.h) ----

class _DLDevice(ctypes.Structure):
    _fields_ = [('device_type', ctypes.c_int32), ('device_id', ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [('code', ctypes.c_uint8), ('bits', ctypes.c_uint8), ('lanes', ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [('data', ctypes.c_void_p), ('device', _DLDevice), ('ndim', ctypes.c_int32),
                ('dtype', _DLDataType), ('shape', ctypes.POINTER(_i64)), ('strides', ctypes.POINTER(_i64)),
                ('byte_offset', ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    # DLPack's unversioned DLManagedTensor, what a 'dltensor' capsule holds.
    _fields_ = [('dl_tensor', _DLTensor), ('manager_ctx', ctypes.c_void_p), ('deleter', ctypes.c_void_p)]


_bind('cl_tensor_free', None, _handle)
_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_cuda = None


def _cuda_library():
    """libcutelayout-cuda, loaded and bound on first use."""
    global _cuda
    if _cuda is None:
        name = 'libcutelayout-cuda.so.%d' % ABI_VERSION
        core = os.path.dirname(getattr(library, '_name', '') or '')
        paths = [os.environ.get('CUTELAYOUT_CUDA_LIBRARY')]
        if os.path.isabs(core):
            paths += [os.path.join(core, name), os.path.join(core, '..', 'cuda', name)]
        lib, errors = None, []
        for path in [p for p in paths if p and os.path.exists(p)] + [name]:
            try:
                lib = ctypes.CDLL(path)
                break
            except OSError as e:
                errors.append(str(e))
        if lib is None:
            raise OSError('libcutelayout-cuda not found: build cute-layout with CUDA or set '
                          'CUTELAYOUT_CUDA_LIBRARY to its path (%s)' % '; '.join(errors))
        for name, restype, argtypes in [
                ('cl_cuda_tensor_from_dlpack', _status, [ctypes.POINTER(_DLTensor), _out_handle]),
                ('cl_cuda_tensor_copy', _status, [_handle, _handle, ctypes.c_void_p]),
                ('cl_cuda_tensor_copy_explain', _i64, [_handle, _handle, ctypes.c_char_p, ctypes.c_size_t])]:
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = restype, argtypes
        _cuda = lib
    return _cuda


def _dlpack_stream(stream):
    # DLPack's stream argument for CUDA: 1 is the legacy default stream.
    return 1 if not stream else stream


class CudaTensor:
    """A view (cl_tensor_t) of a CUDA tensor that has __dlpack__ (a PyTorch
    or CuPy tensor, ...): its pointer, strides and element type, for
    cuda_copy.  Holds the DLPack capsule, and so the memory, while it lives.
    `stream` (an int cudaStream_t, None for the legacy default stream) is
    the stream the view will be used on, which the producer synchronises
    with."""

    def __init__(self, obj, stream=None):
        lib = _cuda_library()
        on_gpu = obj.__dlpack_device__()[0] in (2, 13)  # kDLCUDA, kDLCUDAManaged
        self._capsule = obj.__dlpack__(stream=_dlpack_stream(stream)) if on_gpu else obj.__dlpack__()
        managed = _DLManagedTensor.from_address(_capsule_pointer(self._capsule, b'dltensor'))
        handle = ctypes.c_void_p()
        _check(lib.cl_cuda_tensor_from_dlpack(ctypes.byref(managed.dl_tensor), ctypes.byref(handle)))
        self._as_parameter_ = handle

    def __del__(self, _free=_c.cl_tensor_free):
        if getattr(self, '_as_parameter_', None):
            _free(self._as_parameter_)
            self._as_parameter_ = None


def cuda_copy(dst, src, stream=None):
    """dst(i) = src(i) for every i on the GPU (cl_cuda_tensor_copy): e.g.
    src = x.permute(3, 1, 0, 2) and dst a contiguous tensor of its shape.
    dst and src are CudaTensor views or objects with __dlpack__ of equal
    size and element size; queued on `stream` (an int cudaStream_t, e.g.
    torch.cuda.current_stream().cuda_stream; None for the legacy default
    stream) and returns at once.  Raises CuteLayoutError on a bad copy."""
    lib = _cuda_library()
    d = dst if isinstance(dst, CudaTensor) else CudaTensor(dst, stream)
    s = src if isinstance(src, CudaTensor) else CudaTensor(src, stream)
    _check(lib.cl_cuda_tensor_copy(d, s, stream or None))
