# SPDX-License-Identifier: BSD-3-Clause
"""Tensors (tensor.h): a pointer and a layout, over numpy arrays, any object
with __dlpack__ (PyTorch CPU tensors, ...), or memory the library allocates.

A Tensor never copies the memory it views and keeps the object that owns it
alive.  Every tensor made from Python carries the extent of that memory, so
the library refuses (BoundsError) any view or access that would leave it."""
import ctypes
import operator
import struct
import sys
import weakref
from ctypes import byref, c_double, c_int64, c_void_p, sizeof

from . import _algebra
from ._ffi import Owned, capi, check, cl_copy_options_t, cl_copy_plan_t, cl_dltensor_t, cl_tensor_desc, out_call, snprintf_text
from ._coord import CoordTensor
from ._handles import native
from ._layout import ComposedLayout, Layout, _as_fn, _path
from ._values import Tuple, has_underscore

# --------------------------------------------------------------- dtypes


def dtype_code(dtype):
    """The cl_dtype of a name ('float32', a numpy dtype, ...); CL_DTYPE_NONE for None."""
    if dtype is None:
        return capi.CL_DTYPE_NONE
    name = getattr(dtype, 'name', None) or str(dtype)
    code = ctypes.c_int()
    check(capi.cl_dtype_parse(name.encode(), byref(code)))
    return code.value


def dtype_name(code):
    name = capi.cl_dtype_name(code)
    return None if code == capi.CL_DTYPE_NONE or name is None else name.decode()


_INTS = {capi.CL_DTYPE_INT8: True, capi.CL_DTYPE_INT16: True, capi.CL_DTYPE_INT32: True, capi.CL_DTYPE_INT64: True,
         capi.CL_DTYPE_UINT8: False, capi.CL_DTYPE_UINT16: False, capi.CL_DTYPE_UINT32: False,
         capi.CL_DTYPE_UINT64: False}
_FLOATS = {capi.CL_DTYPE_FLOAT16: 'e', capi.CL_DTYPE_FLOAT32: 'f', capi.CL_DTYPE_FLOAT64: 'd'}


def _pack_real(code, fmt, value):
    """struct's bytes of a real number, with Python's errors: OverflowError
    for an int past a double or a value past the format, TypeError for
    anything that is no real number (struct says struct.error)."""
    if isinstance(value, int):
        value = float(value)
    try:
        return struct.pack('=' + fmt, value)
    except struct.error:
        raise TypeError('a %s element is a real number, not %s' % (dtype_name(code), type(value).__name__)) from None


def _encode(code, size, value):
    """The bytes of one element of type code (size bytes) holding value."""
    if code in _INTS:
        return operator.index(value).to_bytes(size, sys.byteorder, signed=_INTS[code])
    if code in _FLOATS:
        return _pack_real(code, _FLOATS[code], value)
    if code == capi.CL_DTYPE_BFLOAT16:
        bits = struct.unpack('=I', _pack_real(code, 'f', value))[0]
        bits += 0x7FFF + ((bits >> 16) & 1)  # round to nearest even
        return struct.pack('=H', (bits >> 16) & 0xFFFF)
    value = bytes(value)
    if len(value) != size:
        raise ValueError('an untyped element is %d bytes' % size)
    return value


def _linear(i):
    """A linear coordinate for the C API's int64_t (ctypes would silently
    wrap a larger int: T[1 << 70] read element 0)."""
    i = operator.index(i)
    if not -2**63 <= i < 2**63:
        raise OverflowError('%r does not fit in a 64-bit integer' % (i,))
    return i


# --------------------------------------------------------------- DLPack

class _DLManagedTensor(ctypes.Structure):
    _fields_ = [('dl_tensor', cl_dltensor_t), ('manager_ctx', c_void_p),
                ('deleter', ctypes.CFUNCTYPE(None, c_void_p))]


_pyapi = ctypes.PyDLL(None, handle=ctypes.pythonapi._handle)
_pyapi.PyCapsule_IsValid.restype = ctypes.c_int
_pyapi.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
_pyapi.PyCapsule_GetPointer.restype = c_void_p
_pyapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_pyapi.PyCapsule_SetName.restype = ctypes.c_int
_pyapi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
# The name a consumer gives a capsule it took (the DLPack protocol); it must
# outlive the capsule, so it is a module constant.
_USED = ctypes.c_char_p(b'used_dltensor')


class _DLPackOwner:
    """Owns a consumed DLManagedTensor: calls its deleter when the last tensor
    viewing it is gone."""

    def __init__(self, address, source):
        self.source = source
        self.managed = _DLManagedTensor.from_address(address)
        deleter = self.managed.deleter
        if deleter:
            weakref.finalize(self, deleter, address)


def _from_dlpack(obj):
    """(a tensor handle of obj's DLPack description, its owner)."""
    capsule = obj.__dlpack__()
    if not _pyapi.PyCapsule_IsValid(capsule, b'dltensor'):
        raise ValueError('__dlpack__ did not give an unused "dltensor" capsule')
    address = _pyapi.PyCapsule_GetPointer(capsule, b'dltensor')
    managed = _DLManagedTensor.from_address(address)
    handle = out_call(capi.cl_tensor_from_dlpack, byref(managed.dl_tensor))
    _pyapi.PyCapsule_SetName(capsule, _USED)  # ours now: the capsule will not delete it
    return handle, _DLPackOwner(address, obj)


def _from_array_interface(obj):
    """(a tensor handle of a numpy array's memory, the array): for arrays
    that do not export DLPack (read-only ones, with numpy < 2)."""
    import numpy
    array = numpy.asarray(obj)
    info = array.__array_interface__
    kind, itemsize = array.dtype.kind, array.dtype.itemsize
    if array.dtype.hasobject:
        # Its elements are pointers to Python objects, which a copy of bytes
        # would duplicate without their references.
        raise TypeError('an array of Python objects (dtype %s) has no plain elements to view' % array.dtype)
    if not array.dtype.isnative:
        raise ValueError('an array of non-native byte order')
    strides = array.strides
    if any(s % itemsize for s in strides):
        raise ValueError('an array whose strides are not whole elements')
    shape = (c_int64 * max(array.ndim, 1))(*array.shape)
    steps = (c_int64 * max(array.ndim, 1))(*(s // itemsize for s in strides))
    dl = cl_dltensor_t()
    dl.data = info['data'][0]
    dl.device.device_type = 1  # kDLCPU
    dl.ndim = array.ndim
    dl.dtype.code = {'i': 0, 'u': 1, 'f': 2, 'c': 5, 'b': 6}.get(kind, 3)
    dl.dtype.bits, dl.dtype.lanes = (itemsize * 8, 1) if itemsize * 8 <= 255 else (8, itemsize)
    dl.shape, dl.strides = shape, steps
    return out_call(capi.cl_tensor_from_dlpack, byref(dl)), array


def _offset_range(handle):
    lo, hi = c_int64(), c_int64()
    check(capi.cl_tensor_offset_range(handle, byref(lo), byref(hi)))
    return lo.value, hi.value


def _describe(handle):
    desc = cl_tensor_desc(sizeof(cl_tensor_desc))
    check(capi.cl_tensor_describe(handle, byref(desc)))
    return desc


# --------------------------------------------------------------- Tensor

class Tensor(Owned):
    """CuTe's Tensor on the host: memory seen through a layout.

        Tensor(array)                  a view of a numpy array or any object
                                       with __dlpack__: mode k is dimension k
        Tensor(array, layout)          the array's memory through `layout`
                                       (offset 0 = the array's element at
                                       offset 0), bounds-checked
        Tensor.zeros(layout, dtype)    memory the library allocates

    T[i], T[crd] and T(i) read an element, T[i] = v writes one; T[:, 2] is the
    view CuTe calls tensor(_, 2); numpy.asarray(T) is a view where each mode
    has one stride (else a copy); copy(dst, src) is the library's fast copy."""
    __slots__ = ('_as_parameter_', '_owner', 'writable', '__weakref__')

    def __new__(cls, obj=None, layout=None):
        # Memory through a composed (swizzled) layout: a ComposedTensor.
        if cls is Tensor and layout is not None and isinstance(_as_fn(layout), ComposedLayout):
            return ComposedTensor(obj, layout)
        return super().__new__(cls)

    def __init__(self, obj, layout=None):
        if isinstance(obj, Tensor):
            handle, owner, writable = out_call(capi.cl_tensor_copy_handle, obj), obj._owner, obj.writable
        else:
            handle, owner, writable = self._import(obj)
        self._set(handle, owner, writable)
        if layout is not None or not isinstance(obj, Tensor):
            self._set(self._bounded(layout), owner, writable)

    @staticmethod
    def _import(obj):
        if hasattr(obj, '__dlpack__'):
            try:
                handle, owner = _from_dlpack(obj)
                return handle, owner, True
            except (BufferError, TypeError):
                if not hasattr(obj, '__array_interface__'):
                    raise
        if hasattr(obj, '__array_interface__') or hasattr(obj, '__array__'):
            handle, array = _from_array_interface(obj)
            return handle, array, bool(array.flags.writeable)
        raise TypeError('expected a numpy array or an object with __dlpack__, got %r' % (type(obj).__name__,))

    def _bounded(self, layout):
        """A new handle of this memory through layout (or this tensor's own)
        with the tensor's extent, or without one (a tensor just imported)
        the extent of the memory it views."""
        desc = _describe(self)
        if not desc.extent_base and self.size():
            lo, hi = _offset_range(self)
            desc.extent_base = (desc.data or 0) + lo * desc.elem_size
            desc.extent_bytes = (hi - lo + 1) * desc.elem_size
        layout = Layout(self.layout if layout is None else _as_fn(layout))
        return out_call(capi.cl_tensor_create, byref(desc), layout)

    def _set(self, handle, owner, writable):
        old = getattr(self, '_as_parameter_', None)
        self._as_parameter_, self._owner, self.writable = handle, owner, writable
        if old:
            capi.cl_tensor_free(old)

    def _view(self, handle):
        """A Tensor for a new view handle of this tensor's memory."""
        t = Tensor.__new__(Tensor)
        t._set(handle, self._owner, self.writable)
        return t

    @classmethod
    def zeros(cls, layout, dtype='float32', elem_size=0):
        """A tensor owning zeroed memory for every offset `layout` reaches
        (dtype None with elem_size: untyped elements)."""
        t = cls.__new__(cls)
        handle = out_call(capi.cl_tensor_alloc, _as_fn(layout), elem_size, dtype_code(dtype))
        t._set(handle, None, True)
        t._owner = t  # views keep the owning tensor alive
        return t

    @classmethod
    def from_address(cls, address, layout, dtype=None, elem_size=0, extent=None, owner=None):
        """A view of raw memory at `address` (an int) through layout, as C
        code makes one: the caller vouches for the memory unless
        extent=(base, bytes) bounds it.  owner: an object to keep alive."""
        desc = cl_tensor_desc(sizeof(cl_tensor_desc), address, elem_size, dtype_code(dtype))
        if extent is not None:
            desc.extent_base, desc.extent_bytes = extent
        t = cls.__new__(cls)
        t._set(out_call(capi.cl_tensor_create, byref(desc), _as_fn(layout)), owner, True)
        return t

    _free = capi.cl_tensor_free

    # ---- queries
    @property
    def layout(self):
        return Layout._adopt(out_call(capi.cl_layout_copy, c_void_p(capi.cl_tensor_layout(self))))

    @property
    def shape(self):
        return self.layout.shape

    @property
    def stride(self):
        return self.layout.stride

    @property
    def dtype(self):
        """The element type's name ('float32', ...), or None for untyped elements."""
        return dtype_name(capi.cl_tensor_dtype(self))

    @property
    def elem_size(self):
        return capi.cl_tensor_elem_size(self)

    @property
    def data_ptr(self):
        """The address of the element at offset 0."""
        return capi.cl_tensor_data(self) or 0

    def size(self):
        return check(capi.cl_tensor_size(self))

    def rank(self):
        return check(capi.cl_tensor_rank(self))

    def depth(self):
        return self.layout.depth()

    @property
    def offset_range(self):
        """(lo, hi): the smallest and largest element offsets the layout reaches."""
        return _offset_range(self)

    @property
    def extent(self):
        """(base address, bytes) of the memory the tensor must stay in, or None."""
        desc = _describe(self)
        return (desc.extent_base, desc.extent_bytes) if desc.extent_base else None

    def check_bounds(self):
        """BoundsError unless every element lies inside the extent."""
        check(capi.cl_tensor_check_bounds(self))

    def __len__(self):
        return self.size()

    def __iter__(self):
        return (self[i] for i in range(self.size()))

    def __repr__(self):
        return 'Tensor(%s, dtype=%r)' % (self.layout, self.dtype)

    # Above this many elements, str() summarises as numpy does (its
    # default threshold): the first and last elements of each mode.
    SUMMARY_THRESHOLD = 1000

    def __str__(self):
        """CuTe's print_tensor; for more than SUMMARY_THRESHOLD elements, its
        header line and numpy's summary of the elements (to_text() prints
        them all)."""
        if self.size() <= self.SUMMARY_THRESHOLD:
            return self.to_text()
        import numpy
        header = 'Tensor %s, %s, %d elements (summarised; to_text() prints them all):' % (
            self.layout, self.dtype, self.size())
        with numpy.printoptions(threshold=self.SUMMARY_THRESHOLD, edgeitems=3):
            return header + '\n' + numpy.array2string(numpy.asarray(self))

    def to_text(self, header=True):
        """CuTe's print_tensor, with or without its first line."""
        return snprintf_text(capi.cl_print_tensor, self, 0 if header else capi.CL_PRINT_NO_HEADER)

    # ---- elements
    def offset(self, i):
        """The element offset layout(i) of linear coordinate i."""
        return out_call(capi.cl_tensor_offset, self, _linear(i), out_type=c_int64).value

    def ptr(self, *crd):
        """The address of element i, of element crd, or of element (c0, c1, ...)
        with one linear coordinate per mode (CuTe's tensor(c0, c1, ...))."""
        if len(crd) == 1 and not isinstance(crd[0], (tuple, list)):
            return out_call(capi.cl_tensor_ptr, self, _linear(crd[0])).value or 0
        if len(crd) == 1:
            return out_call(capi.cl_tensor_ptr_coord, self, Tuple(crd[0])).value or 0
        return out_call(capi.cl_tensor_ptr_at, self, *_path(crd)).value or 0

    def _read(self, fn, *where):
        buf = ctypes.create_string_buffer(self.elem_size)
        check(fn(self, *where, buf))
        code = capi.cl_tensor_dtype(self)
        if code in _INTS:
            return int.from_bytes(buf.raw, sys.byteorder, signed=_INTS[code])
        if code in _FLOATS:
            return struct.unpack('=' + _FLOATS[code], buf.raw)[0]
        return buf.raw

    def load(self, i):
        """Element i (an int, a float, or bytes for untyped elements)."""
        code = capi.cl_tensor_dtype(self)
        if code == capi.CL_DTYPE_BFLOAT16:
            return out_call(capi.cl_tensor_load_f64, self, _linear(i), out_type=c_double).value
        return self._read(capi.cl_tensor_load, _linear(i))

    def __getitem__(self, key):
        """T[i] or T[crd]: an element; T[:, 2], T[None, 2]: a view."""
        if native is not None:  # the extension reads int and float elements
            value = native.tensor_load(self._as_parameter_, key)
            if value is not NotImplemented:
                return value
        if has_underscore(key):
            return self.slice(key)
        if isinstance(key, (tuple, list)):
            if capi.cl_tensor_dtype(self) == capi.CL_DTYPE_BFLOAT16:
                return _read_bf16(self.ptr(key))
            return self._read(capi.cl_tensor_load_coord, Tuple(key))
        return self.load(key)

    def __call__(self, *crd):
        return self[crd[0] if len(crd) == 1 else crd]

    def __setitem__(self, key, value):
        """T[i] = v or T[crd] = v writes an element; T[:, 2] = v fills the view
        with v, or copies an array or tensor of its size into it."""
        self._check_writable()
        if native is not None and native.tensor_store(self._as_parameter_, key, value) is None:
            return  # the extension wrote an int or float element
        if has_underscore(key):
            view = self.slice(key)
            if isinstance(value, Tensor) or hasattr(value, '__dlpack__') or hasattr(value, '__array_interface__'):
                copy(view, value)
            else:
                view.fill(value)
            return
        data = _encode(capi.cl_tensor_dtype(self), self.elem_size, value)
        if isinstance(key, (tuple, list)):
            check(capi.cl_tensor_store_coord(self, Tuple(key), data))
        else:
            check(capi.cl_tensor_store(self, _linear(key), data))

    def _check_writable(self):
        if not self.writable:
            raise ValueError('the tensor views read-only memory')

    def fill(self, value):
        """Every element = value."""
        self._check_writable()
        check(capi.cl_tensor_fill(self, _encode(capi.cl_tensor_dtype(self), self.elem_size, value)))

    # ---- views
    def slice(self, crd):
        """CuTe's tensor(crd) with underscores: the view over the `_` modes."""
        return self._view(out_call(capi.cl_tensor_slice, self, Tuple(crd)))

    def with_layout(self, layout):
        """The same memory through another layout (make_tensor(data(T), layout))."""
        return self._view(out_call(capi.cl_tensor_with_layout, self, _as_fn(layout)))

    def flatten(self):
        return self._view(out_call(capi.cl_tensor_flatten, self))

    def group(self, begin, end):
        return self._view(out_call(capi.cl_tensor_group, self, begin, end))

    def compose(self, tiler):
        """composition(T, tiler): the layout composed with a Layout or a tiler."""
        tiler = _algebra._operand(tiler)
        if isinstance(tiler, Layout):
            return self._view(out_call(capi.cl_tensor_compose_layout, self, tiler))
        return self._view(out_call(capi.cl_tensor_compose, self, _algebra._tiler(tiler)))

    def logical_divide(self, tiler):
        return self._view(out_call(capi.cl_tensor_logical_divide, self, _algebra._tiler(tiler)))

    def zipped_divide(self, tiler):
        return self._view(out_call(capi.cl_tensor_zipped_divide, self, _algebra._tiler(tiler)))

    def inner_partition(self, tiler, coord):
        """The tile of zipped_divide(T, tiler) that coord picks."""
        return self._view(out_call(capi.cl_inner_partition, self, _algebra._tiler(tiler), Tuple(coord)))

    def local_tile(self, tiler, coord):
        """CuTe's local_tile: the tile at coord, e.g. tiler (32,64), coord (i,j)."""
        return self._view(out_call(capi.cl_local_tile, self, _algebra._tiler(tiler), Tuple(coord)))

    def outer_partition(self, tiler, coord):
        """The elements at position coord of every tile."""
        return self._view(out_call(capi.cl_outer_partition, self, _algebra._tiler(tiler), Tuple(coord)))

    def local_partition(self, thr_layout, index):
        """The elements thread `index` owns when T is tiled by thr_layout."""
        return self._view(out_call(capi.cl_local_partition, self, _as_fn(thr_layout), operator.index(index)))

    def recast(self, dtype=None, elem_size=0):
        """CuTe's recast<New>(T): the same memory as elements of another type."""
        return self._view(out_call(capi.cl_tensor_recast, self, elem_size, dtype_code(dtype)))

    def make_tensor_like(self):
        """A new tensor owning memory like T's (compact, in T's stride order)."""
        return _owning(out_call(capi.cl_make_tensor_like, self))

    def make_fragment_like(self):
        """make_tensor_like with mode 0 column-major."""
        return _owning(out_call(capi.cl_make_fragment_like_tensor, self))

    # ---- numpy
    def numpy(self):
        """A numpy array of the elements, dimension k = mode k (each mode read
        with its linear coordinate): a view of the memory where each mode has
        one extent and stride, otherwise a copy."""
        import numpy
        return numpy.asarray(self)

    def __array__(self, dtype=None, copy=None):
        import numpy
        try:
            array = numpy.asarray(_ArrayView(self))
        except ValueError:
            # A mode that no single stride describes: gather into a compact
            # column-major array whose dimensions are the modes' sizes.
            sizes = tuple(self.layout.get(k).size() for k in range(self.rank()))
            array = numpy.zeros(sizes, dtype=self._numpy_dtype(), order='F')
            check(capi.cl_tensor_copy(Tensor(array.reshape(-1, order='F'), Layout(self.shape)), self))
        return array if dtype is None else array.astype(dtype, copy=False)

    def _numpy_dtype(self):
        import numpy
        name = self.dtype
        if name is None or name == 'bfloat16':
            return numpy.dtype('V%d' % self.elem_size)
        return numpy.dtype(name)


class ComposedTensor:
    """Memory through a composed layout, CuTe's swizzled shared-memory
    tensors on the host: Tensor(array, ComposedLayout) or
    ComposedTensor(array, "Sw<3,3,3> o 0 o (8,8):(8,1)").  Element i is the
    memory's element C(i) (offsets from the array's element 0, each checked
    against the array's extent: BoundsError).

    T[i], T[crd], T(i) read, T[i] = v and T[crd] = v write, numpy.asarray(T)
    gathers the elements (dimension k = mode k), copy(dst, src) takes it on
    either side (a gather and a scatter through numpy), len(T) is the size."""
    __slots__ = ('layout', '_memory', '__weakref__')

    def __init__(self, obj, layout):
        self.layout = _as_fn(layout)
        if not isinstance(self.layout, ComposedLayout):
            raise TypeError('a ComposedTensor takes a composed layout, got %r' % (layout,))
        memory = obj if isinstance(obj, Tensor) else Tensor(obj)
        lo, hi = memory.offset_range
        if lo < 0:
            raise ValueError('a ComposedTensor views memory from its element 0 on (the array has negative strides)')
        # The memory as one flat mode from element 0: offsets are C(i).
        self._memory = memory.with_layout(Layout(hi + 1))

    @property
    def shape(self):
        return self.layout.shape

    @property
    def dtype(self):
        return self._memory.dtype

    @property
    def elem_size(self):
        return self._memory.elem_size

    @property
    def writable(self):
        return self._memory.writable

    def size(self):
        return self.layout.size()

    def rank(self):
        return self.layout.rank()

    def __len__(self):
        return self.size()

    def __iter__(self):
        return (self[i] for i in range(self.size()))

    def __repr__(self):
        return 'ComposedTensor(%s, dtype=%r)' % (self.layout, self.dtype)

    def __str__(self):
        import numpy
        with numpy.printoptions(threshold=Tensor.SUMMARY_THRESHOLD, edgeitems=3):
            return 'ComposedTensor %s, %s:\n%s' % (self.layout, self.dtype, numpy.array2string(numpy.asarray(self)))

    def offset(self, key):
        """The memory offset of element i or crd: C(i)."""
        return self.layout(key)

    def __getitem__(self, key):
        if has_underscore(key):
            raise TypeError('a ComposedTensor has no slices; index it element by element')
        return self._memory[self.layout(key)]

    def __call__(self, *crd):
        return self[crd[0] if len(crd) == 1 else crd]

    def __setitem__(self, key, value):
        if has_underscore(key):
            raise TypeError('a ComposedTensor has no slices; index it element by element')
        self._memory[self.layout(key)] = value

    def fill(self, value):
        for i in range(self.size()):
            self[i] = value

    def indices(self):
        """Every C(i) as a numpy int64 array."""
        return self.layout.indices()

    def _flat(self):
        """(the memory as a 1-D numpy view, every C(i)), bounds-checked."""
        import numpy
        memory = numpy.asarray(self._memory)
        indices = self.layout.indices()
        if indices.size and (indices.min() < 0 or indices.max() >= memory.size):
            check(capi.CL_E_BOUNDS)  # raises BoundsError
        return memory, indices

    def __array__(self, dtype=None, copy=None):
        memory, indices = self._flat()
        sizes = tuple(self.layout.get(k).size() for k in range(self.rank())) or (1,)
        array = memory[indices].reshape(sizes, order='F')
        return array if dtype is None else array.astype(dtype, copy=False)

    def numpy(self):
        import numpy
        return numpy.asarray(self)


def _copy_composed(dst, src):
    """copy() where a side is a ComposedTensor: dst(i) = src(i), through
    numpy (a gather of src, a scatter into dst)."""
    import numpy
    if dst.size() != src.size():
        raise ValueError('copy: the tensors have %d and %d elements' % (dst.size(), src.size()))
    if dst.elem_size != src.elem_size:
        raise ValueError('copy: elements of %d and %d bytes' % (dst.elem_size, src.elem_size))
    values = numpy.asarray(src).reshape(-1, order='F') if isinstance(src, ComposedTensor) else \
        numpy.asarray(_flat_view(src))
    if isinstance(dst, ComposedTensor):
        if not dst.writable:
            raise ValueError('the tensor views read-only memory')
        memory, indices = dst._flat()
        memory[indices] = values.view(memory.dtype)
    else:
        dst._check_writable()
        check(capi.cl_tensor_copy(dst, Tensor(numpy.ascontiguousarray(values))))
    return dst


def _flat_view(tensor):
    """A Tensor's elements in linear-coordinate order, as a 1-D numpy array."""
    import numpy
    out = numpy.empty(tensor.size(), dtype=tensor._numpy_dtype())
    check(capi.cl_tensor_copy(Tensor(out), tensor))
    return out


def _read_bf16(address):
    bits = ctypes.c_uint16.from_address(address).value
    return struct.unpack('=f', struct.pack('=I', bits << 16))[0]


def _owning(handle):
    t = Tensor.__new__(Tensor)
    t._set(handle, None, True)
    t._owner = t
    return t


class _ArrayView:
    """The __array_interface__ of a tensor whose modes each have one extent and
    stride (cl_tensor_to_dlpack); keeps the tensor alive as the array's base."""

    def __init__(self, tensor):
        self.tensor = tensor
        n = max(tensor.rank(), 1)
        shape, strides = (c_int64 * n)(), (c_int64 * n)()
        dl = cl_dltensor_t()
        try:
            check(capi.cl_tensor_to_dlpack(tensor, byref(dl), shape, strides, n))
        except Exception as e:
            raise ValueError(str(e)) from None
        size = tensor.elem_size
        dtype = tensor._numpy_dtype()
        self.__array_interface__ = {
            'version': 3, 'typestr': dtype.str, 'descr': dtype.descr,
            'shape': tuple(shape[:dl.ndim]), 'strides': tuple(s * size for s in strides[:dl.ndim]),
            'data': (dl.data or 0, not tensor.writable),
        }


def as_tensor(x):
    return x if isinstance(x, (Tensor, ComposedTensor)) else Tensor(x)


_STORES = {'auto': capi.CL_COPY_STORES_AUTO, 'cached': capi.CL_COPY_STORES_CACHED,
           'streaming': capi.CL_COPY_STORES_STREAMING}


def copy(dst, src, stores='auto', threads=1):
    """dst(i) = src(i) for every linear coordinate i < size, and returns dst
    (as a Tensor).  Elements pair by linear coordinate, that is by their
    coordinates in CuTe's colexicographic order (the first mode fastest),
    not by numpy's row-major order: copying between a (4,8) array and a
    (8,4) array pairs a[i % 4, i // 4] with b[i % 8, i // 8].  The library's
    fast copy: the two layouts coalesced jointly, contiguous runs memcpy'd,
    transposes through vector registers.  dst and src are Tensors, numpy
    arrays or objects with __dlpack__ of the same size and element size
    (arrays of Python objects are refused: TypeError); src may broadcast
    (stride 0).  stores: 'auto', 'cached' or 'streaming' (non-temporal
    stores); threads: split the copy between that many threads.
    OverlapError when they share memory."""
    dst, src = as_tensor(dst), as_tensor(src)
    if isinstance(dst, ComposedTensor) or isinstance(src, ComposedTensor):
        return _copy_composed(dst, src)
    dst._check_writable()
    if stores == 'auto' and threads == 1:
        check(capi.cl_tensor_copy(dst, src))
        return dst
    if stores not in _STORES:
        raise ValueError('stores must be one of %s' % ', '.join(_STORES))
    options = cl_copy_options_t(sizeof(cl_copy_options_t), _STORES[stores], operator.index(threads))
    check(capi.cl_tensor_copy_ex(dst, src, byref(options)))
    return dst


_KERNELS = {0: 'none', 1: 'memcpy', 2: 'strided', 3: 'transpose'}


def copy_plan(dst, src, stores='auto', threads=1):
    """The plan copy(dst, src, stores, threads) would run (cl_tensor_copy_plan),
    as a dict: 'kernel' ('none', 'memcpy', 'strided', 'transpose'),
    'streaming', 'staged', 'prefetch', 'gathered' (a transpose whose source
    run takes every other element), 'elem_size', 'vector', the offsets,
    the joint modes' 'extent', 'dst_stride' and 'src_stride' (in elements),
    a transpose's 'dst_run' and 'src_run', and the unrefined tails."""
    dst, src = as_tensor(dst), as_tensor(src)
    if stores not in _STORES:
        raise ValueError('stores must be one of %s' % ', '.join(_STORES))
    options = cl_copy_options_t(sizeof(cl_copy_options_t), _STORES[stores], operator.index(threads))
    plan = cl_copy_plan_t()
    plan.struct_size = sizeof(cl_copy_plan_t)
    check(capi.cl_tensor_copy_plan(dst, src, byref(options), byref(plan)))
    modes = lambda a, n: list(a[:n])  # noqa: E731
    return {'kernel': _KERNELS[plan.kernel],
            'streaming': bool(plan.flags & capi.CL_COPY_PLAN_STREAMING),
            'staged': bool(plan.flags & capi.CL_COPY_PLAN_STAGED),
            'prefetch': bool(plan.flags & capi.CL_COPY_PLAN_PREFETCH),
            'gathered': bool(plan.flags & capi.CL_COPY_PLAN_GATHERED),
            'elem_size': plan.elem_size, 'vector': plan.vector,
            'dst_offset': plan.dst_offset, 'src_offset': plan.src_offset,
            'extent': modes(plan.extent, plan.rank), 'dst_stride': modes(plan.dst_stride, plan.rank),
            'src_stride': modes(plan.src_stride, plan.rank), 'dst_run': plan.dst_run, 'src_run': plan.src_run,
            'dst_tail': list(zip(modes(plan.dst_tail_extent, plan.dst_tail_rank),
                                 modes(plan.dst_tail_stride, plan.dst_tail_rank))),
            'src_tail': list(zip(modes(plan.src_tail_extent, plan.src_tail_rank),
                                 modes(plan.src_tail_stride, plan.src_tail_rank)))}


def copy_explain(dst, src):
    """One line describing the plan copy(dst, src) would use."""
    return snprintf_text(capi.cl_tensor_copy_explain, as_tensor(dst), as_tensor(src))


def local_partition(tensor, thr_layout, index, proj=None):
    """CuTe's local_partition(T, thr_layout, index[, proj]) (proj: coordinate tensors)."""
    if isinstance(tensor, CoordTensor):
        return tensor.local_partition(thr_layout, index, proj)
    if proj is not None:
        raise TypeError('local_partition takes a projection for coordinate tensors only')
    return as_tensor(tensor).local_partition(thr_layout, index)


def local_tile(tensor, tiler, coord, proj=None):
    """CuTe's local_tile(T, tiler, coord[, proj]) (proj: coordinate tensors)."""
    if isinstance(tensor, CoordTensor):
        return tensor.local_tile(tiler, coord, proj)
    if proj is not None:
        raise TypeError('local_tile takes a projection for coordinate tensors only')
    return as_tensor(tensor).local_tile(tiler, coord)


def inner_partition(tensor, tiler, coord):
    """CuTe's inner_partition(T, tiler, coord)."""
    if isinstance(tensor, CoordTensor):
        return tensor.local_tile(tiler, coord)
    return as_tensor(tensor).inner_partition(tiler, coord)


def outer_partition(tensor, tiler, coord):
    """CuTe's outer_partition(T, tiler, coord)."""
    if isinstance(tensor, CoordTensor):
        return tensor.outer_partition(tiler, coord)
    return as_tensor(tensor).outer_partition(tiler, coord)


def make_tensor_like(tensor):
    """CuTe's make_tensor_like(T)."""
    return as_tensor(tensor).make_tensor_like()


def recast(tensor, dtype=None, elem_size=0):
    """CuTe's recast<New>(T)."""
    return as_tensor(tensor).recast(dtype, elem_size)


_algebra.TENSOR_TYPES = (Tensor,)
