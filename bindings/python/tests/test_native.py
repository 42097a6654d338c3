# SPDX-License-Identifier: BSD-3-Clause
"""The compiled floor (cutelayout._native, or its ctypes equivalent under
CUTELAYOUT_NO_EXTENSION=1) and the fixes of issue 24's user reports."""
import gc
import os
import pickle
import unittest
import weakref

import cutelayout as cl
from cutelayout import _handles

try:
    import numpy
except ImportError:
    numpy = None


class TestFloor(unittest.TestCase):
    def test_extension_in_use(self):
        # The build and the wheel build it; CUTELAYOUT_NO_EXTENSION asks for ctypes.
        if os.environ.get('CUTELAYOUT_NO_EXTENSION'):
            self.assertIsNone(_handles.native)
        elif os.environ.get('CUTELAYOUT_REQUIRE_EXTENSION'):
            self.assertIsNotNone(_handles.native)

    def test_eval_matches_definition(self):
        # L(i) == sum of coordinate * stride over the colexicographic coordinate of i.
        for shape, stride in [((4, 8), (8, 1)), ((2, (2, 2)), (4, (2, 1))), (6, -1), ((3, 5), (0, 3))]:
            L = cl.Layout(shape, stride)
            flat_shape, flat_stride = cl.flatten(shape), cl.flatten(stride)
            flat_shape = flat_shape if isinstance(flat_shape, tuple) else (flat_shape,)
            flat_stride = flat_stride if isinstance(flat_stride, tuple) else (flat_stride,)
            for i in range(L.size()):
                rest, want = i, 0
                for s, d in zip(flat_shape, flat_stride):
                    want += (rest % s) * d
                    rest //= s
                self.assertEqual(L(i), want)
                self.assertEqual(L(cl.idx2crd(i, shape)), want)

    def test_handles_round_trip(self):
        L = cl.Layout((4, 8), (8, 1))
        self.assertTrue(L._as_parameter_)  # an int, or a c_void_p on the ctypes floor
        copy = cl.Layout._adopt(cl.capi.cl_layout_copy and _copy_handle(L))
        self.assertEqual(copy, L)
        self.assertEqual(str(copy), '(4,8):(8,1)')
        self.assertEqual(cl.Layout(L), L)
        self.assertEqual(pickle.loads(pickle.dumps(L)), L)
        self.assertEqual(hash(cl.Layout('(4,8):(8,1)')), hash(L))
        self.assertNotEqual(L, cl.Layout((4, 8)))
        self.assertFalse(L == '(4,8):(8,1)')
        self.assertEqual(L.shape, (4, 8))
        self.assertEqual(L.stride, (8, 1))
        self.assertEqual((L.size(), L.cosize(), L.rank(), L.depth()), (32, 32, 2, 1))
        with self.assertRaises(ValueError):
            cl.Layout._adopt(0)

    @unittest.skipIf(_handles.native is None, 'the ctypes floor has no uninitialised state to check')
    def test_uninitialised(self):
        L = cl.Layout.__new__(cl.Layout)
        for call in (L.size, L.cosize, lambda: str(L), lambda: L.shape):
            with self.assertRaises(ValueError):
                call()

    def test_algebra_results_keep_the_class(self):
        A, B = cl.Layout((4, 8), (8, 1)), cl.Layout((2, 4), (1, 2))
        for f in (cl.composition, cl.logical_divide, cl.zipped_divide, cl.tiled_divide, cl.flat_divide,
                  cl.logical_product, cl.zipped_product, cl.tiled_product, cl.flat_product,
                  cl.blocked_product, cl.raked_product):
            R = f(A, B)
            self.assertIs(type(R), cl.Layout)
            self.assertEqual(R, f(str(A), str(B)))  # the ctypes path agrees
        R = cl.composition(A, B)
        for i in range(B.size()):
            self.assertEqual(R(i), A(B(i)))
        C = cl.complement(cl.Layout(4, 2), 32)
        self.assertEqual(str(C), '(2,4):(1,8)')
        self.assertEqual(cl.complement(cl.Layout(4, 2)), cl.complement('4:2'))
        self.assertEqual(str(cl.right_inverse(A)), '(8,4):(4,1)')
        self.assertEqual(str(cl.left_inverse(A)), '(8,4):(4,1)')
        self.assertEqual(str(cl.coalesce(cl.Layout((2, 4), (1, 2)))), '8:1')
        self.assertEqual(str(cl.filter(cl.Layout((2, 4), (0, 2)))), '4:2')
        self.assertEqual(str(cl.make_layout(A, B)), '((4,8),(2,4)):((8,1),(1,2))')
        with self.assertRaises(cl.DivisibilityError):
            cl.composition(cl.Layout((2, 3), (3, 1)), cl.Layout(2, 3))
        if _handles.native:
            with self.assertRaises(TypeError):
                _handles.native.composition(A, 'x')
            with self.assertRaises(TypeError):
                _handles.native.blocked_product(A, (2, 2))
            with self.assertRaises(TypeError):
                _handles.native.coalesce(A, B)

    def test_results_made_again_from_dropped_ones(self):
        # The extension reuses the objects of dropped results (a few dozen):
        # each comes back as a fresh Layout, with its own handle, value,
        # caches and weak references.
        A, B = cl.Layout((4, 8), (8, 1)), cl.Layout((2, 4), (1, 2))
        for k in range(200):
            R = cl.composition(A, B) if k % 2 else cl.complement(B, 64)
            ref = weakref.ref(R)
            self.assertEqual(str(R), '(2,(2,2)):(8,(16,1))' if k % 2 else '8:8')
            self.assertEqual(R.shape, (2, (2, 2)) if k % 2 else 8)
            self.assertIs(type(R), cl.Layout)
            del R
            self.assertIsNone(ref())
        kept = [cl.complement(cl.Layout(4, 2), 8 * n) for n in range(1, 100)]  # more than are kept aside
        self.assertEqual([str(L) for L in kept], [str(cl.complement('4:2', 8 * n)) for n in range(1, 100)])
        del kept
        self.assertEqual(sorted(str(cl.complement(cl.Layout(4, 2), 8 * n)) for n in (1, 2, 3)),
                         ['(2,2):(1,8)', '(2,3):(1,8)', '2:1'])

        if _handles.native:  # (the ctypes floor's results are Layouts)
            class Mine(cl.Layout):  # a __dict__: made anew each time, collected as usual
                pass
            M = cl.composition(Mine((4, 8), (8, 1)), B)
            M.note = 'mine'
            self.assertIs(type(M), Mine)
            self.assertEqual((M.note, str(M)), ('mine', '(2,(2,2)):(8,(16,1))'))
            self.assertTrue(gc.is_tracked(M))
            for wrong in (Mine, int, 'Layout'):
                with self.assertRaises(TypeError):
                    _handles.native.register(layout_class=wrong)

    def test_dispatch(self):
        # The algebra's functions take layouts in C and everything else in
        # the Python function they wrap, with the same answers.
        A = cl.Layout((4, 8), (8, 1))
        self.assertIn('composition', cl.composition.__doc__)
        self.assertEqual(cl.composition.__name__, 'composition')
        self.assertIn('composition', repr(cl.composition))
        self.assertEqual(cl.coalesce(A, profile=(1, 1)), cl.coalesce(A, (1, 1)))  # keywords: the Python path
        self.assertEqual(cl.complement(A, 64), cl.complement(str(A), 64))
        self.assertEqual(cl.complement(A, (8, 8)), cl.complement(A, 64))
        self.assertEqual(cl.complement(A), cl.complement(str(A)))
        self.assertIsInstance(cl.composition(cl.Swizzle(1, 1, 1), A), cl.ComposedLayout)
        if _handles.native:
            wrapped = cl.composition.__wrapped__
            self.assertEqual(wrapped(A, (2, 2)), cl.composition(A, (2, 2)))
            with self.assertRaises(ValueError):
                _handles.native.dispatch('no_such_function', len)
            with self.assertRaises(TypeError):
                _handles.native.dispatch('coalesce', 42)

    def test_shape_and_stride_are_stable(self):
        L = cl.Layout('((4,2),(4,8)):((1,64),(4,256))')
        self.assertEqual(L.shape, ((4, 2), (4, 8)))
        self.assertEqual(L.shape, L.shape)
        self.assertEqual(L.stride, ((1, 64), (4, 256)))
        self.assertEqual(cl.make_identity_layout((4, 8)).stride, (cl.E(0), cl.E(1)))

    def test_tiler_forms(self):
        A = cl.Layout((4, 8), (8, 1))
        self.assertEqual(str(cl.logical_divide(A, (cl.Layout(2, 1), None))), '((2,2),8):((8,16),1)')
        self.assertEqual(str(cl.composition(A, (2, 4))), '(2,4):(8,1)')

    # Layout(shape, stride) of flat int tuples makes its handle on first use
    # (the extension's layout_defer): every first use must find the same layout.
    FIRST_USES = {
        'str': str, 'repr': repr, 'hash': lambda L: hash(L) == hash(cl.Layout('(4,8):(8,1)')),
        'eq': lambda L: L == cl.Layout('(4,8):(8,1)'), 'eq_reflected': lambda L: cl.Layout('(4,8):(8,1)') == L,
        'eval': lambda L: L(13), 'eval_crd': lambda L: L(1, 2), 'slice': lambda L: str(L[:, 2]),
        'mode': lambda L: str(L[1]), 'size': len, 'cosize': cl.cosize, 'rank': cl.rank, 'depth': cl.depth,
        'shape': lambda L: L.shape, 'stride': lambda L: L.stride, 'coordinate': lambda L: L.is_coordinate,
        'ctypes': lambda L: str(cl.Layout._adopt(_copy_handle(L))), 'pickle': lambda L: str(pickle.loads(pickle.dumps(L))),
        'copy': lambda L: str(cl.Layout(L)), 'lhs': lambda L: str(cl.composition(L, cl.Layout((2, 4), (1, 2)))),
        'rhs': lambda L: str(cl.composition(cl.Layout(64, 2), L)), 'tiler_leaf': lambda L: str(cl.composition(cl.Layout(64, 1), (L,))),
        'complement': lambda L: str(cl.complement(L, 64)), 'concat': lambda L: str(cl.make_layout(L, L)),
        'coalesce': lambda L: str(cl.coalesce(L)), 'indices': lambda L: list(L.indices()),
    }

    def test_first_use_of_a_layout_made_from_tuples(self):
        for name, use in self.FIRST_USES.items():
            with self.subTest(first_use=name):
                self.assertEqual(use(cl.Layout((4, 8), (8, 1))), use(cl.Layout('(4,8):(8,1)')))

    def test_made_from_tuples_still_checked_when_made(self):
        for shape, stride, error in [((-2, 3), (1, 2), cl.DomainError), (('2', 3), (1, 2), TypeError),
                                     ((2, 3), (1,), ValueError), ((2, 3), (1, 'x'), TypeError),
                                     ((2, 3.0), (1, 2), TypeError), ((True, 3), (1, 2), TypeError),
                                     ((2 ** 64, 3), (1, 2), OverflowError), ((2, 3), (1, -2 ** 63 - 1), OverflowError)]:
            with self.subTest(shape=shape, stride=stride), self.assertRaises(error):
                cl.Layout(shape, stride)

    def test_remade_in_place(self):
        # __init__ again replaces the layout, deferred or not.
        L = cl.Layout((4, 8), (8, 1))
        L.__init__((2, 2), (1, 2))
        self.assertEqual((str(L), L(3)), ('(2,2):(1,2)', 3))
        L.__init__('8:2')
        self.assertEqual((str(L), L.shape), ('8:2', 8))
        L.__init__((3, 3), (3, 1))
        self.assertEqual((L.shape, L(1)), ((3, 3), 3))


def _copy_handle(layout):
    from ctypes import byref, c_void_p
    out = c_void_p()
    cl.capi.cl_layout_copy(layout, byref(out))
    return out


class TestReports(unittest.TestCase):
    """Issue 24's user reports, each one that failed before its fix."""

    def test_text_with_nul(self):
        with self.assertRaises(ValueError):
            cl.Layout('(4,8):(8,1)\x00junk')
        with self.assertRaises(ValueError):
            cl.product('(4,8)\x00,9')

    def test_negative_and_text_extents(self):
        # Every way of writing a negative extent is the library's DomainError
        # (CL_E_DOMAIN), whether or not the package saw it before the library.
        for bad in [(-2, 3), ((2, -1), 3), -4, '(-2,3):(1,2)']:
            with self.subTest(shape=bad), self.assertRaises(cl.DomainError) as caught:
                cl.Layout(bad)
            self.assertIn("negative extent", str(caught.exception))
        with self.assertRaises(cl.DomainError):
            cl.Layout((-2, 3), (1, 2))
        self.assertEqual(str(cl.Layout((2, 3), (-1, 2))), '(2,3):(-1,2)')  # strides may be negative
        for bad in [('2', 3), (2, 3.0), (True, 2), {2: 3}, b'(2,3)']:
            with self.assertRaises(TypeError):
                cl.Layout(bad)
        with self.assertRaises(TypeError):
            cl.Layout((2, 3), ('1', 2))
        with self.assertRaises(OverflowError):
            cl.Layout((2**64, 2))
        self.assertEqual(str(cl.Layout(())), '():()')

    def test_shape_where_a_layout_is_expected(self):
        self.assertEqual(cl.complement((4, 8)), cl.complement(cl.make_layout((4, 8))))
        self.assertEqual(cl.right_inverse((4, 8)), cl.right_inverse(cl.Layout((4, 8))))
        self.assertEqual(cl.logical_divide((4, 8), (2, 2)), cl.logical_divide(cl.Layout((4, 8)), (2, 2)))
        self.assertEqual(cl.coalesce(8), cl.Layout(8))

    def test_tile_to_shape_tags(self):
        block = cl.Layout((2, 2), (1, 2))
        self.assertEqual(str(cl.tile_to_shape(block, (4, 8), cl.LayoutRight)), '((2,2),(2,4)):((1,16),(2,4))')
        self.assertEqual(cl.tile_to_shape(block, (4, 8), cl.LayoutRight), cl.tile_to_shape(block, (4, 8), (1, 0)))
        self.assertEqual(cl.tile_to_shape(block, (4, 8), cl.LayoutLeft), cl.tile_to_shape(block, (4, 8)))

    def test_draw_is_a_picture(self):
        svg = cl.draw('(2,2):(1,2)')
        self.assertIsInstance(svg, str)
        self.assertIsInstance(svg, cl.Picture)
        self.assertEqual(svg._repr_svg_(), str(svg))
        self.assertIsNone(svg._repr_latex_())
        tex = cl.draw('(2,2):(1,2)', format='tex')
        self.assertEqual(tex._repr_latex_(), str(tex))
        self.assertIsNone(tex._repr_svg_())
        self.assertIsNone(cl.draw('(2,2):(1,2)', format='txt')._repr_svg_())

    @unittest.skipIf(numpy is None, 'numpy is not installed')
    def test_object_arrays_refused(self):
        a = numpy.array([object() for _ in range(8)], dtype=object)
        b = numpy.array([object() for _ in range(8)], dtype=object)
        with self.assertRaises(TypeError):
            cl.copy(b, a)
        with self.assertRaises(TypeError):
            cl.Tensor(a)
        with self.assertRaises(TypeError):
            cl.Tensor(numpy.zeros(4, dtype=[('x', 'i4'), ('o', 'O')]))
        self.assertEqual(cl.Tensor(numpy.zeros(4, dtype=[('x', 'i4'), ('y', 'f4')])).size(), 4)

    @unittest.skipIf(numpy is None, 'numpy is not installed')
    def test_copy_returns_dst_in_colexicographic_order(self):
        src = numpy.arange(32, dtype=numpy.int32).reshape(4, 8)
        dst = numpy.zeros((8, 4), dtype=numpy.int32)
        out = cl.copy(dst, src)
        self.assertIsInstance(out, cl.Tensor)
        for i in range(32):
            self.assertEqual(dst[i % 8, i // 8], src[i % 4, i // 4])
        self.assertIn('colexicographic', cl.copy.__doc__)
        self.assertIs(cl.copy(out, src), out)
        self.assertIs(cl.copy(out, src, threads=2), out)

    @unittest.skipIf(numpy is None, 'numpy is not installed')
    def test_large_tensor_summarised(self):
        t = cl.Tensor(numpy.zeros((1024, 1024), dtype=numpy.float32))
        text = str(t)
        self.assertLess(len(text), 2000)
        self.assertIn('...', text)
        self.assertIn('1048576 elements', text)
        small = cl.Tensor(numpy.zeros((4, 8), dtype=numpy.float32))
        self.assertEqual(str(small), small.to_text())


@unittest.skipIf(numpy is None, 'numpy is not installed')
class TestTensorElements(unittest.TestCase):
    """T[key] and T[key] = v: in the extension for int and float elements
    (the Python layer for the rest); the same answers and errors on either
    floor, the memory's as numpy sees it."""
    INTS = ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']

    def each_dtype(self):
        for name in self.INTS + ['float16', 'float32', 'float64']:
            a = numpy.zeros((3, 4), dtype=name)
            yield name, a, cl.Tensor(a)  # (3,4):(4,1): T[m, n] is a[m, n]

    def test_elements_are_the_memory(self):
        for name, a, T in self.each_dtype():
            a[...] = numpy.arange(12).reshape(3, 4)
            for m in range(3):
                for n in range(4):
                    self.assertEqual(T[m, n], a[m, n], name)
                    self.assertEqual(T[[m, n]], a[m, n], name)
                    self.assertEqual(T[m + 3 * n], a[m, n], name)  # colexicographic
                    self.assertIs(type(T[m, n]), float if name.startswith('float') else int)
            T[2, 1] = 7
            T[(0, 3)] = 5
            T[4] = 3  # (1, 1)
            self.assertEqual((a[2, 1], a[0, 3], a[1, 1]), (7, 5, 3), name)

    def test_int_limits(self):
        for name, a, T in self.each_dtype():
            if name not in self.INTS:
                continue
            info = numpy.iinfo(name)
            for value in (info.min, info.max, True):
                T[1] = value
                self.assertEqual(T[1], int(value), name)
                self.assertEqual(a[1, 0], value, name)
            for value in (info.min - 1, info.max + 1):
                with self.assertRaises(OverflowError, msg=name):
                    T[1] = value
            with self.assertRaises(TypeError, msg=name):
                T[1] = 1.5
            T[2] = numpy.int16(9)  # any integer (operator.index)
            self.assertEqual(a[2, 0], 9, name)

    def test_float_rounding_and_range(self):
        for name, a, T in self.each_dtype():
            if name in self.INTS:
                continue
            T[0] = 0.1
            self.assertEqual(T[0], float(numpy.array(0.1, dtype=name)), name)  # rounded as numpy rounds
            T[1] = 3  # an int
            self.assertEqual(a[1, 0], 3.0, name)
            T[2] = numpy.float32(0.5)
            self.assertEqual(T[2], 0.5, name)
            T[3] = float('inf')
            self.assertEqual(T[3], float('inf'), name)
            if name != 'float64':
                with self.assertRaises(OverflowError, msg=name):
                    T[0] = 1e300
            with self.assertRaises(OverflowError, msg=name):
                T[0] = 1 << 2000
            with self.assertRaises(TypeError, msg=name):
                T[0] = 'x'  # (struct.error before)

    def test_keys(self):
        a = numpy.arange(12, dtype=numpy.int32).reshape(3, 4)
        T = cl.Tensor(a)
        self.assertEqual(list(T[:, 1]), [1, 5, 9])  # a slice: a view
        self.assertEqual(T[numpy.int64(4)], a[1, 1])
        for key in (12, -1, (3, 0), (0, 4)):
            with self.assertRaises(cl.CuteLayoutError, msg=key):
                T[key]
            with self.assertRaises(cl.CuteLayoutError, msg=key):
                T[key] = 1
        for huge in (1 << 64, 1 << 70, -(1 << 63) - 1):  # not wrapped to an int64 (1 << 70 was element 0)
            with self.assertRaises(OverflowError):
                T[huge]
            with self.assertRaises(OverflowError):
                T[huge] = 1
            with self.assertRaises(OverflowError):
                T.offset(huge)
        with self.assertRaises(TypeError):
            T['1']
        with self.assertRaises(TypeError):
            T[(1, 'x')]
        T[:, 1] = 0
        self.assertEqual(list(a[:, 1]), [0, 0, 0])
        read_only = numpy.arange(4, dtype=numpy.float32)
        read_only.flags.writeable = False
        R = cl.Tensor(read_only)
        self.assertEqual(R[3], 3.0)
        with self.assertRaises(ValueError):
            R[3] = 1.0

    @unittest.skipIf(_handles.native is None, 'the ctypes floor reads every element itself')
    def test_which_elements_the_extension_reads(self):
        native = _handles.native
        T = cl.Tensor(numpy.arange(4, dtype=numpy.float32))
        self.assertEqual(native.tensor_load(T._as_parameter_, 2), 2.0)
        self.assertIsNone(native.tensor_store(T._as_parameter_, 2, 5.0))
        self.assertIs(native.tensor_load(T._as_parameter_, (slice(None),)), NotImplemented)
        self.assertIs(native.tensor_store(T._as_parameter_, 2, 'x'), NotImplemented)
        B = cl.Tensor.zeros('4:1', 'bfloat16')
        self.assertIs(native.tensor_load(B._as_parameter_, 0), NotImplemented)
        B[1] = 2.5
        self.assertEqual(B[1], 2.5)
        with self.assertRaises(TypeError):
            native.tensor_load(T._as_parameter_)
        with self.assertRaises(TypeError):
            native.tensor_store(T._as_parameter_, 1)


@unittest.skipIf(numpy is None, 'numpy is not installed')
class TestComposedTensors(unittest.TestCase):
    """Host tensors over composed (swizzled) layouts: element i is memory[C(i)]."""

    def setUp(self):
        self.C = cl.ComposedLayout('Sw<3,0,3> o 0 o (8,8):(8,1)')
        self.a = numpy.arange(64, dtype=numpy.int32)

    def test_elements(self):
        T = cl.Tensor(self.a, self.C)
        self.assertIsInstance(T, cl.ComposedTensor)
        self.assertEqual((len(T), T.size(), T.rank(), T.shape, T.dtype, T.elem_size), (64, 64, 2, (8, 8), 'int32', 4))
        for i in range(64):
            self.assertEqual(T[i], self.a[self.C(i)])
            self.assertEqual(T(i), T[i])
        for m in range(8):
            for n in range(8):
                self.assertEqual(T[m, n], self.a[self.C((m, n))])
        self.assertEqual(list(T.indices()), [self.C(i) for i in range(64)])
        self.assertEqual(list(self.C.indices()), [self.C(i) for i in range(64)])
        T[3] = -5
        self.assertEqual(self.a[self.C(3)], -5)
        T.fill(7)
        self.assertTrue((self.a == 7).all())
        with self.assertRaises(TypeError):
            T[:, 2]
        with self.assertRaises(TypeError):
            cl.ComposedTensor(self.a, '(8,8):(8,1)')
        self.assertIn('ComposedTensor', repr(T))
        self.assertIn('Sw<3,0,3>', str(T))

    def test_numpy_and_copies(self):
        T = cl.Tensor(self.a, self.C)
        array = numpy.asarray(T)
        self.assertEqual(array.shape, (8, 8))
        for m in range(8):
            for n in range(8):
                self.assertEqual(array[m, n], T[m, n])
        flat = numpy.zeros(64, dtype=numpy.int32)
        self.assertIsInstance(cl.copy(flat, T), cl.Tensor)
        self.assertEqual(list(flat), [T[i] for i in range(64)])
        D = cl.Tensor(numpy.zeros(64, dtype=numpy.int32), self.C)
        self.assertIs(cl.copy(D, T), D)
        self.assertEqual([D[i] for i in range(64)], [T[i] for i in range(64)])
        cl.copy(D, numpy.arange(64, dtype=numpy.int32).reshape(8, 8, order='F'))
        self.assertEqual([D[i] for i in range(64)], list(range(64)))
        with self.assertRaises(ValueError):
            cl.copy(D, numpy.zeros(32, dtype=numpy.int32))
        with self.assertRaises(ValueError):
            cl.copy(D, numpy.zeros(64, dtype=numpy.int64))
        read_only = numpy.zeros(64, dtype=numpy.int32)
        read_only.flags.writeable = False
        with self.assertRaises(ValueError):
            cl.copy(cl.Tensor(read_only, self.C), T)

    def test_bounds(self):
        small = cl.Tensor(numpy.arange(16, dtype=numpy.int32), self.C)
        with self.assertRaises(ValueError):
            small[63]
        with self.assertRaises(ValueError):
            numpy.asarray(small)
        with self.assertRaises(ValueError):
            cl.Tensor(numpy.arange(64, dtype=numpy.int32)[::-1], self.C)


if __name__ == '__main__':
    unittest.main(verbosity=2)
