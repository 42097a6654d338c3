# SPDX-License-Identifier: BSD-3-Clause
"""Copies between CUDA tensors through the CUDA module libcutelayout-cuda
(cuda.h): cuda_copy(dst, src) between any two tensors of device memory with
__dlpack__ (PyTorch, CuPy), planned from the joint modes of their layouts.

The module is loaded on first use, from $CUTELAYOUT_CUDA_LIBRARY when it is
set, else beside libcutelayout (installed, or the build tree's cuda/), else
by the system's search; without it (no GPU build) the functions raise
OSError saying so."""
import ctypes
from ctypes import byref, c_char_p, c_int, c_int64, c_size_t, c_void_p

from ._ffi import Owned, capi, check, cl_dltensor_t, load_companion, snprintf_text

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, c_char_p]
_KDL_CUDA, _KDL_CUDA_MANAGED = 2, 13
_cuda = None


class _DLManagedTensor(ctypes.Structure):
    # DLPack's unversioned DLManagedTensor, what a 'dltensor' capsule holds.
    _fields_ = [('dl_tensor', cl_dltensor_t), ('manager_ctx', c_void_p), ('deleter', c_void_p)]


def _cuda_library():
    """libcutelayout-cuda, loaded and declared on first use."""
    global _cuda
    if _cuda is None:
        _cuda = load_companion('cutelayout-cuda', 'CUTELAYOUT_CUDA_LIBRARY',
                               'build cute-layout with CUDA (-Dcuda=enabled)', [
            ('cl_cuda_tensor_from_dlpack', c_int, [ctypes.POINTER(cl_dltensor_t), ctypes.POINTER(c_void_p)]),
            ('cl_cuda_tensor_copy', c_int, [c_void_p, c_void_p, c_void_p]),
            ('cl_cuda_tensor_copy_batched', c_int,
             [ctypes.POINTER(c_void_p), ctypes.POINTER(c_void_p), c_size_t, c_void_p]),
            ('cl_cuda_tensor_copy_explain', c_int64, [c_void_p, c_void_p, c_char_p, c_size_t])])
    return _cuda


class CudaTensor(Owned):
    """A view (cl_tensor_t) of a CUDA tensor that has __dlpack__ (a PyTorch
    or CuPy tensor, ...): its pointer, strides and element type, for
    cuda_copy.  Holds the DLPack capsule, and so the memory, while it lives.
    `stream` (an int cudaStream_t, None for the legacy default stream) is the
    stream the view will be used on, which the producer synchronises with."""
    __slots__ = ('_as_parameter_', '_capsule')
    _free = capi.cl_tensor_free

    def __init__(self, obj, stream=None):
        lib = _cuda_library()
        on_gpu = obj.__dlpack_device__()[0] in (_KDL_CUDA, _KDL_CUDA_MANAGED)
        # DLPack's stream for CUDA: 1 is the legacy default stream.
        self._capsule = obj.__dlpack__(stream=stream or 1) if on_gpu else obj.__dlpack__()
        managed = _DLManagedTensor.from_address(_capsule_pointer(self._capsule, b'dltensor'))
        handle = c_void_p()
        check(lib.cl_cuda_tensor_from_dlpack(byref(managed.dl_tensor), byref(handle)))
        self._as_parameter_ = handle


def cuda_copy(dst, src, stream=None):
    """dst(i) = src(i) for every i on the GPU (cl_cuda_tensor_copy): e.g.
    src = x.permute(3, 1, 0, 2) and dst a contiguous tensor of its shape.
    dst and src are CudaTensor views or objects with __dlpack__ of equal size
    and element size; queued on `stream` (an int cudaStream_t, e.g.
    torch.cuda.current_stream().cuda_stream; None for the legacy default
    stream) and returns at once.  Raises CuteLayoutError on a bad copy."""
    lib = _cuda_library()
    d = dst if isinstance(dst, CudaTensor) else CudaTensor(dst, stream)
    s = src if isinstance(src, CudaTensor) else CudaTensor(src, stream)
    check(lib.cl_cuda_tensor_copy(d, s, stream or None))


def cuda_copy_many(pairs, stream=None):
    """dst(i) = src(i) for every (dst, src) in pairs, in one kernel launch per
    40 pairs (cl_cuda_tensor_copy_batched): many small copies, e.g. a model's
    per-layer tensors, for the cost of about one.  Each pair as cuda_copy
    takes it; every pair is checked before anything is queued (the error
    names the first bad pair)."""
    lib = _cuda_library()
    views = [(d if isinstance(d, CudaTensor) else CudaTensor(d, stream),
              s if isinstance(s, CudaTensor) else CudaTensor(s, stream)) for d, s in pairs]
    n = len(views)
    dsts = (c_void_p * max(n, 1))(*[d._as_parameter_.value for d, _ in views])
    srcs = (c_void_p * max(n, 1))(*[s._as_parameter_.value for _, s in views])
    check(lib.cl_cuda_tensor_copy_batched(dsts, srcs, n, stream or None))


def cuda_copy_explain(dst, src):
    """One line describing the plan cuda_copy(dst, src) would use."""
    lib = _cuda_library()
    d = dst if isinstance(dst, CudaTensor) else CudaTensor(dst)
    s = src if isinstance(src, CudaTensor) else CudaTensor(src)
    return snprintf_text(lib.cl_cuda_tensor_copy_explain, d, s)
