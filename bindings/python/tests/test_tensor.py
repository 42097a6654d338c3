# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the Python package: tensors over numpy arrays, DLPack objects
and library memory; element access, views, partitions, copy.  Skipped
without numpy (Debian: python3-numpy), except the parts that need none."""
import ctypes
import gc
import importlib.util
import os
import unittest

import cutelayout as cl
from cutelayout import Layout, Tensor, _

HAS_NUMPY = importlib.util.find_spec('numpy') is not None
if not HAS_NUMPY and os.environ.get('CUTE_LAYOUT_REQUIRE_BINDINGS') == '1':
    raise SystemExit('numpy is not installed, and CUTE_LAYOUT_REQUIRE_BINDINGS=1 (Debian: apt install python3-numpy)')
if HAS_NUMPY:
    import numpy as np
needs_numpy = unittest.skipUnless(HAS_NUMPY, 'numpy is not installed')


class TestLibraryMemory(unittest.TestCase):
    def test_zeros_store_load(self):
        T = Tensor.zeros('(2,3):(3,1)', 'int32')
        self.assertEqual((T.size(), T.rank(), len(T), T.dtype, T.elem_size), (6, 2, 6, 'int32', 4))
        self.assertEqual(list(T), [0] * 6)
        for i in range(6):
            T[i] = 10 * i - 20
        self.assertEqual(list(T), [10 * i - 20 for i in range(6)])
        self.assertEqual(T[(1, 2)], T(1, 2))
        self.assertEqual(T(1, 2), 10 * (1 + 2 * 2) - 20)
        T[(0, 1)] = 99
        self.assertEqual(T[2], 99)  # linear coordinate 2 is (0,1)
        self.assertEqual(T.load(2), 99)
        self.assertEqual(T.offset(2), 1)
        self.assertEqual(T.ptr(2) - T.ptr(0), 4)
        self.assertEqual(T.ptr((0, 1)), T.ptr(2))
        self.assertEqual(T.ptr(0, 1), T.ptr(2))
        self.assertEqual(T.offset_range, (0, 5))
        self.assertIsNotNone(T.extent)
        T.check_bounds()
        with self.assertRaises(cl.DomainError):
            T[6]
        with self.assertRaises(OverflowError):
            T[0] = 1 << 40

    def test_each_dtype_round_trips(self):
        for dtype, value in [('int8', -5), ('uint8', 250), ('int16', -3000), ('uint16', 60000), ('int64', -(1 << 40)),
                             ('uint64', (1 << 63) + 5), ('float16', 1.5), ('bfloat16', 3.25), ('float32', 0.25),
                             ('float64', 1e300)]:
            T = Tensor.zeros('4:1', dtype)
            T[3] = value
            self.assertEqual(T[3], value, dtype)
            self.assertEqual(T[0], 0, dtype)
        U = Tensor.zeros('4:1', None, elem_size=3)
        U[1] = b'abc'
        self.assertEqual((U.dtype, U[1], U[0]), (None, b'abc', b'\0\0\0'))

    def test_views_keep_the_memory_alive(self):
        T = Tensor.zeros('(4,4):(1,4)', 'float32')
        for i in range(16):
            T[i] = i
        column = T[:, 2]
        del T
        gc.collect()
        self.assertEqual(list(column), [8.0, 9.0, 10.0, 11.0])

    def test_views(self):
        T = Tensor.zeros('(4,6):(1,4)', 'int64')
        for i in range(24):
            T[i] = i
        self.assertEqual(list(T[:, 1]), [4, 5, 6, 7])
        self.assertEqual(list(T[2, :]), [2, 6, 10, 14, 18, 22])
        self.assertEqual(list(T.flatten()), list(range(24)))
        self.assertEqual(T.group(0, 2).rank(), 1)
        self.assertEqual(list(T.with_layout('6:4')), [0, 4, 8, 12, 16, 20])
        self.assertEqual(list(cl.composition(T, '(2,2):(1,4)')), [0, 1, 4, 5])
        self.assertEqual(list(cl.composition(T, (2, 3))), [0, 1, 4, 5, 8, 9])
        self.assertEqual(cl.logical_divide(T, (2, 3)).layout, cl.logical_divide(T.layout, (2, 3)))
        self.assertEqual(cl.zipped_divide(T, (2, 3)).layout, cl.zipped_divide(T.layout, (2, 3)))
        self.assertEqual(list(cl.local_tile(T, (2, 3), (1, 1))), [T(2 + m, 3 + n) for n in range(3) for m in range(2)])
        self.assertEqual(list(cl.inner_partition(T, (2, 3), (1, 1))), list(cl.local_tile(T, (2, 3), (1, 1))))
        self.assertEqual(list(cl.outer_partition(T, (2, 3), (1, 2))),
                         [T(2 * m + 1, 3 * n + 2) for n in range(2) for m in range(2)])
        # CuTe: the thread at index 5 of (2,2):(1,2) owns T(1 + 2m, 2 + 2n).
        P = cl.local_partition(T, '(2,2):(1,2)', 3)
        self.assertEqual(list(P), [T(1 + 2 * m, 1 + 2 * n) for n in range(3) for m in range(2)])
        self.assertEqual(cl.size(T), 24)
        self.assertEqual(cl.rank(T), 2)
        self.assertEqual(cl.shape(T), (4, 6))
        self.assertEqual(cl.stride(T), (1, 4))
        self.assertEqual(cl.flatten(T).rank(), 2)
        self.assertEqual(cl.group(T, 0, 2).rank(), 1)
        like = cl.make_tensor_like(T)
        self.assertEqual((like.layout, list(like)), (Layout('(4,6):(1,4)'), [0] * 24))
        frag = cl.make_fragment_like(T)
        self.assertEqual(frag.size(), 24)
        with self.assertRaises(cl.BoundsError):
            T.with_layout('25:1')
        # 4 by 3: CuTe's divide pads the rest beyond the tensor's memory.
        with self.assertRaises(cl.BoundsError):
            cl.logical_divide(T, (3, 3))

    def test_fill_and_text(self):
        T = Tensor.zeros('(2,3):(3,1)', 'int32')
        T.fill(7)
        self.assertEqual(list(T), [7] * 6)
        T[:, 1] = 2
        self.assertEqual([T(m, 1) for m in range(2)], [2, 2])
        text = str(T)
        self.assertTrue(text.startswith('ptr[32b]('), text)
        self.assertIn('(2,3):(3,1)', text)
        body = T.to_text(header=False)
        self.assertEqual(body.split(), ['7', '2', '7', '7', '2', '7'])
        self.assertEqual(repr(T), "Tensor((2,3):(3,1), dtype='int32')")

    def test_copy_between_library_tensors(self):
        src = Tensor.zeros('(4,8):(1,4)', 'float64')
        for i in range(32):
            src[i] = i / 2
        dst = Tensor.zeros('(4,8):(8,1)', 'float64')
        cl.copy(dst, src)
        self.assertEqual(list(dst), list(src))
        for stores, threads in (('cached', 1), ('streaming', 1), ('auto', 3)):
            again = Tensor.zeros('(4,8):(8,1)', 'float64')
            cl.copy(again, src, stores=stores, threads=threads)
            self.assertEqual(list(again), list(src))
        with self.assertRaises(cl.DomainError):
            cl.copy(again, src, threads=cl.capi.CL_COPY_MAX_THREADS + 1)
        with self.assertRaises(ValueError):
            cl.copy(dst, src, stores='fast')
        with self.assertRaises(cl.OverlapError):
            cl.copy(src, src.with_layout('(4,8):(8,1)'))
        with self.assertRaises(cl.DomainError):
            cl.copy(dst, src[:, 0])
        self.assertIn('kernel', cl.copy_explain(dst, src))

    def test_from_address(self):
        buf = (ctypes.c_int32 * 8)(*range(8))
        T = Tensor.from_address(ctypes.addressof(buf), '(2,4):(4,1)', 'int32', owner=buf)
        self.assertEqual(list(T), [0, 4, 1, 5, 2, 6, 3, 7])
        B = Tensor.from_address(ctypes.addressof(buf), '8:1', 'int32', extent=(ctypes.addressof(buf), 32))
        self.assertEqual(B.extent, (ctypes.addressof(buf), 32))
        with self.assertRaises(cl.BoundsError):
            Tensor.from_address(ctypes.addressof(buf), '9:1', 'int32', extent=(ctypes.addressof(buf), 32))
        self.assertEqual(cl.recast(B, 'int16')[2], 1)  # little-endian halves of 0, 1, ...


@needs_numpy
class TestNumpy(unittest.TestCase):
    def test_view_of_an_array(self):
        a = np.arange(24, dtype=np.float32).reshape(4, 6)
        T = Tensor(a)
        self.assertEqual(T.layout, Layout('(4,6):(6,1)'))  # DLPack: mode k is dimension k
        self.assertEqual(T.dtype, 'float32')
        self.assertEqual(T[(2, 3)], a[2, 3])
        T[(2, 3)] = -1
        self.assertEqual(a[2, 3], -1)
        self.assertTrue(np.shares_memory(np.asarray(T), a))
        np.testing.assert_array_equal(T.numpy(), a)
        np.testing.assert_array_equal(T[:, 2].numpy(), a[:, 2])
        np.testing.assert_array_equal(np.asarray(Tensor(a[::2, 1::3])), a[::2, 1::3])

    def test_array_through_a_layout(self):
        a = np.arange(32, dtype=np.int64)
        T = Tensor(a, Layout('(4,8):(8,1)'))
        np.testing.assert_array_equal(T.numpy(), a.reshape(4, 8))
        self.assertEqual(list(Tensor(a, '(2,(2,2)):(1,(8,2))')), [0, 1, 8, 9, 2, 3, 10, 11])
        with self.assertRaises(cl.BoundsError):
            Tensor(a, '(4,9):(8,1)')
        with self.assertRaises(cl.BoundsError):
            Tensor(a[4:8], '8:1')

    def test_hierarchical_modes_gather(self):
        a = np.arange(16, dtype=np.int16)
        T = Tensor(a, '((2,2),4):((1,8),2)')
        # Mode 0 has two strides: no numpy view, a copy with one dimension per mode.
        expected = np.array([[T((m, n)) for n in range(4)] for m in range(4)], dtype=np.int16)
        np.testing.assert_array_equal(T.numpy(), expected)
        self.assertFalse(np.shares_memory(T.numpy(), a))

    def test_read_only_arrays(self):
        a = np.arange(6, dtype=np.int64)
        a.flags.writeable = False
        T = Tensor(a)
        self.assertFalse(T.writable)
        self.assertEqual(list(T), list(range(6)))
        with self.assertRaises(ValueError):
            T[0] = 1
        with self.assertRaises(ValueError):
            cl.copy(T, np.zeros(6, np.int64))
        out = np.zeros(6, np.int64)
        cl.copy(out, T)
        np.testing.assert_array_equal(out, a)

    def test_copy_is_elementwise(self):
        rng = np.random.default_rng(7)
        for shape in [(64, 64), (3, 5, 7), (1, 130), (33, 65)]:
            src = rng.standard_normal(shape).astype(np.float32)
            dst = np.zeros(shape[::-1], np.float32).T  # the same shape, transposed memory
            cl.copy(dst, src)
            np.testing.assert_array_equal(dst, src)
        a = np.arange(12, dtype=np.int32)
        b = np.zeros(12, np.int32)
        cl.copy(b, a[::-1])
        np.testing.assert_array_equal(b, a[::-1])
        cl.copy(b, np.broadcast_to(np.int32(5), (12,)))
        np.testing.assert_array_equal(b, 5)
        with self.assertRaises(cl.OverlapError):
            cl.copy(a[1:], a[:-1])
        with self.assertRaises(cl.KindError):
            cl.copy(np.zeros(12, np.float32), a)
        with self.assertRaises(cl.DomainError):
            cl.copy(np.zeros(11, np.int32), a)

    def test_partitions_of_an_array(self):
        a = np.arange(16 * 64, dtype=np.int32).reshape(16, 64)
        T = Tensor(a)
        # tensor.h: T (16,64), thr (2,16):(1,2), index 5 owns T(1 + 2m, 2 + 16n).
        np.testing.assert_array_equal(cl.local_partition(a, '(2,16):(1,2)', 5).numpy(), a[1::2, 2::16])
        np.testing.assert_array_equal(cl.local_tile(T, (8, 32), (1, 1)).numpy(), a[8:16, 32:64])
        r = cl.recast(np.arange(4, dtype=np.int32), 'int16').numpy()
        np.testing.assert_array_equal(r, np.arange(4, dtype=np.int32).view(np.int16))

    def test_indices_index_an_array(self):
        L = Layout('(4,(2,3)):(6,(3,1))')
        data = np.arange(24) * 10
        np.testing.assert_array_equal(data[L.indices()], [10 * L(i) for i in range(24)])


class FakeDLPack:
    """A producer of DLPack capsules over its own ctypes memory, as PyTorch or
    CuPy would be: the consumer must call the deleter exactly once, and only
    once it no longer views the memory."""
    deleted = []

    def __init__(self, values, device_type=1):
        self.memory = (ctypes.c_double * len(values))(*values)
        self.shape = (ctypes.c_int64 * 1)(len(values))
        self.device_type = device_type

    def __dlpack_device__(self):
        return (self.device_type, 0)

    def __dlpack__(self, stream=None):
        from cutelayout._tensor import _DLManagedTensor
        managed = _DLManagedTensor()
        managed.dl_tensor.data = ctypes.addressof(self.memory)
        managed.dl_tensor.device.device_type = self.device_type
        managed.dl_tensor.ndim = 1
        managed.dl_tensor.dtype.code, managed.dl_tensor.dtype.bits, managed.dl_tensor.dtype.lanes = 2, 64, 1
        managed.dl_tensor.shape = self.shape
        managed.dl_tensor.strides = None
        callback = type(managed.deleter)(FakeDLPack.deleted.append)
        managed.deleter = callback
        self.alive = (managed, callback)  # a real producer frees them in the deleter
        pyapi = ctypes.pythonapi
        pyapi.PyCapsule_New.restype = ctypes.py_object
        pyapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        self.address = ctypes.addressof(managed)
        return pyapi.PyCapsule_New(self.address, b'dltensor', None)


class TestDLPack(unittest.TestCase):
    def test_consumes_a_capsule_and_calls_its_deleter(self):
        FakeDLPack.deleted.clear()
        producer = FakeDLPack([1.5, 2.5, 3.5, 4.5])
        T = Tensor(producer)
        self.assertEqual((T.layout, T.dtype, list(T)), (Layout('(4):(1)'), 'float64', [1.5, 2.5, 3.5, 4.5]))
        view = T[(_,)].with_layout('2:2')
        self.assertEqual(list(view), [1.5, 3.5])
        del T
        gc.collect()
        self.assertEqual(FakeDLPack.deleted, [])  # the view still needs it
        del view
        gc.collect()
        self.assertEqual(FakeDLPack.deleted, [producer.address])

    def test_refuses_device_memory(self):
        FakeDLPack.deleted.clear()
        with self.assertRaises(cl.UnsupportedError) as cm:
            Tensor(FakeDLPack([1.0], device_type=2))  # kDLCUDA
        self.assertIn('device', cm.exception.detail)

    def test_rejects_what_is_not_an_array(self):
        with self.assertRaises(TypeError):
            Tensor([1, 2, 3])
        with self.assertRaises(TypeError):
            Tensor('8:1')

    @needs_numpy
    def test_numpy_through_dlpack(self):
        a = np.arange(6, dtype=np.uint16)
        T = Tensor(a)
        self.assertEqual(T.dtype, 'uint16')
        T[5] = 60000
        self.assertEqual(a[5], 60000)
        b = np.zeros(6, np.uint16)
        cl.copy(b, a)
        np.testing.assert_array_equal(a, b)


if __name__ == '__main__':
    unittest.main(verbosity=2)
