# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the ctypes binding (python3 test_cutelayout.py; meson test runs it
with CUTELAYOUT_LIBRARY pointing at the freshly built library).  The Rust
tests (bindings/rust) and the Julia example (bindings/julia) mirror these."""
import itertools
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cutelayout as cl  # noqa: E402
from cutelayout import CuteLayoutError, Layout  # noqa: E402

CL_E_PARSE = -3


def leaves(t):
    if isinstance(t, int):
        return [t]
    return [x for item in t for x in leaves(item)]


def by_definition(shape, stride, i):
    """layout(i) from the definition: split i colexicographically over the
    flattened shape (the last mode takes what is left) and take the inner
    product with the stride."""
    shape, stride = leaves(shape), leaves(stride)
    index = 0
    for k, (s, d) in enumerate(zip(shape, stride)):
        c = i if k == len(shape) - 1 else i % s
        i //= s
        index += c * d
    return index


def small_layouts():
    """Every layout with up to two modes of extent 1..3 and stride 0..4, and
    some nested ones."""
    for rank in (1, 2):
        for shape in itertools.product(range(1, 4), repeat=rank):
            for stride in itertools.product(range(0, 5), repeat=rank):
                yield shape, stride
    yield (2, (2, 2)), (4, (2, 1))
    yield ((2, 3), 4), ((1, 2), 6)
    yield (2, (3, (2, 2))), (12, (4, (2, 1)))


class TestLayout(unittest.TestCase):
    def test_text_round_trip(self):
        for text in ['8:1', '(2,4):(1,2)', '(2,(2,2)):(4,(2,1))', '((2,3),4):((1,2),6)', '(8):(1)']:
            self.assertEqual(str(Layout(text)), text)
        self.assertEqual(str(Layout(' ( 2 , 4 ) : ( 1 , 2 ) ')), '(2,4):(1,2)')
        self.assertEqual(repr(Layout('(2,4):(1,2)')), "Layout('(2,4):(1,2)')")

    def test_call_is_the_definition(self):
        for shape, stride in small_layouts():
            L = Layout(shape, stride)
            n = L.size()
            self.assertEqual([L(i) for i in range(n)],
                             [by_definition(shape, stride, i) for i in range(n)], str(L))

    def test_coordinates(self):
        L = Layout('(2,4):(1,2)')
        self.assertEqual(L(3), 3)
        self.assertEqual(L((1, 2)), 5)
        self.assertEqual(L(1, 2), 5)
        M = Layout('(2,(2,2)):(4,(2,1))')
        self.assertEqual([M(i) for i in range(8)], [0, 4, 2, 6, 1, 5, 3, 7])
        self.assertEqual(M((1, (1, 0))), 6)
        self.assertEqual(M((1, 3)), M(1 + 2 * 3))  # a mode's coordinate may be linear

    def test_queries(self):
        L = Layout('(2,(2,2)):(4,(2,1))')
        self.assertEqual((L.size(), L.cosize(), L.rank(), L.depth()), (8, 8, 2, 2))
        self.assertEqual((cl.size(L), cl.cosize(L), cl.rank(L), cl.depth(L)), (8, 8, 2, 2))
        self.assertEqual(L.shape, (2, (2, 2)))
        self.assertEqual(L.stride, (4, (2, 1)))
        self.assertEqual(str(L[1]), '(2,2):(2,1)')
        self.assertEqual(str(L[1, 0]), '2:2')
        S = Layout('8:2')
        self.assertEqual((S.size(), S.cosize(), S.rank(), S.depth(), S.shape), (8, 15, 1, 0, 8))

    def test_constructors(self):
        self.assertEqual(str(Layout((2, 4), (1, 2))), '(2,4):(1,2)')
        self.assertEqual(str(Layout((2, (3, 4)))), '(2,(3,4)):(1,(2,6))')  # LayoutLeft
        self.assertEqual(str(Layout(8, 2)), '8:2')
        self.assertEqual(Layout((2, 4), (1, 2)), Layout('(2,4):(1,2)'))
        self.assertNotEqual(Layout('(2,4):(1,2)'), Layout('(2,4):(4,1)'))
        self.assertEqual(len({Layout('8:1'), Layout('8:1'), Layout('8:2')}), 2)

    def test_errors_carry_status_and_detail(self):
        with self.assertRaises(CuteLayoutError) as cm:
            Layout('(2,4):(1,2')
        self.assertEqual(cm.exception.status, CL_E_PARSE)
        self.assertEqual(cm.exception.message, 'malformed text')
        self.assertIn('column', cm.exception.detail)
        self.assertIn(cm.exception.detail, str(cm.exception))
        for text in ['', '(2,4)', '(2,4):(1,2,3)', '(2,4):(1,a)', '((((2))', ')']:
            with self.assertRaises(CuteLayoutError, msg=text) as cm:
                Layout(text)
            self.assertLess(cm.exception.status, 0)
            self.assertNotEqual(cm.exception.detail, '')
        with self.assertRaises(CuteLayoutError):
            Layout((2, 4), (1, 2, 3))  # shape and stride not congruent
        with self.assertRaises(CuteLayoutError) as cm:
            Layout('(2,4):(1,2)')((1, 2, 3))  # coordinate of the wrong rank
        self.assertIn('rank', cm.exception.detail)
        with self.assertRaises(CuteLayoutError):
            Layout('(2,4):(1,2)')[5]
        with self.assertRaises(TypeError):
            Layout((2, 4.5))

    def test_version(self):
        expected = os.environ.get('CUTELAYOUT_EXPECTED_VERSION')
        if expected:
            self.assertEqual(cl.version(), expected)
        self.assertRegex(cl.version(), r'^\d+\.\d+\.\d+$')


class TestComposition(unittest.TestCase):
    def test_is_function_composition(self):
        # composition(A, B)(i) == A(B(i)) when CuTe's divisibility conditions
        # hold in their strong form (powers of two always do) and B's modes
        # address A without carries between them (a single mode, or B
        # compact).  Elsewhere CuTe's result -- which the library returns --
        # need not be A o B: e.g. A = (6,2):(8,2), B = 2:4 passes CuTe's weak
        # check, and a non-injective B = (2,2):(2,2) is composed mode by mode.
        As = [Layout('(4,8):(8,1)'), Layout('(2,(2,4)):(16,(1,4))'), Layout('32:3'), Layout('(8,4):(1,8)')]
        Bs = [Layout(s, d) for s in (1, 2, 4, 8) for d in (0, 1, 2, 4, 8)]
        for s0, s1 in itertools.product((1, 2, 4), repeat=2):
            Bs += [Layout((s0, s1), (1, s0)), Layout((s0, s1), (s1, 1)), Layout((s0, s1), (2, 2 * s0))]
        for A in As:
            for B in Bs:
                R = cl.composition(A, B)
                for i in range(B.size()):
                    self.assertEqual(R(i), A(B(i)), f'composition({A}, {B}) = {R} at {i}')

    def test_cute_examples(self):
        self.assertEqual(str(cl.composition(Layout('20:2'), Layout('(5,4):(4,1)'))), '(5,4):(8,2)')
        self.assertEqual(str(cl.composition(Layout('(10,2):(16,4)'), Layout('(5,4):(1,5)'))),
                         '(5,(2,2)):(16,(80,4))')
        self.assertEqual(str(cl.composition('(6,2):(8,2)', '(4,3):(3,1)')), '((2,2),3):((24,2),8)')
        self.assertEqual(str(cl.composition('(4,8):(8,1)', '4:2')), '(2,2):(16,1)')

    def test_tiler(self):
        # A tuple tiler composes mode by mode; '_' (None) keeps a mode.
        A = Layout('(12,(4,8)):(59,(13,1))')
        self.assertEqual(str(cl.composition(A, (3, 8))), str(cl.composition(A, (Layout('3:1'), Layout('8:1')))))
        self.assertEqual(cl.composition(A, (None, 8))[0], A[0])

    def test_divisibility_error(self):
        with self.assertRaises(CuteLayoutError) as cm:
            cl.composition('(4,3):(3,1)', '2:6')
        self.assertEqual(cm.exception.status, -6)  # CL_E_DIVISIBILITY
        self.assertNotEqual(cm.exception.detail, '')


class TestDivideProduct(unittest.TestCase):
    def test_cute_examples(self):
        self.assertEqual(str(cl.complement('(2,2):(1,6)')), '3:2')  # cotarget cosize(L)
        self.assertEqual(str(cl.complement(Layout('4:1'), 24)), '6:4')
        self.assertEqual(str(cl.complement(Layout('(2,2):(1,6)'), 24)), '(3,2):(2,12)')
        self.assertEqual(str(cl.logical_divide(Layout('(4,2,3):(2,1,8)'), Layout('4:2'))),
                         '((2,2),(2,3)):((4,1),(2,8))')
        self.assertEqual(str(cl.logical_product(Layout('(2,2):(4,1)'), Layout('6:1'))),
                         '((2,2),(2,3)):((4,1),(2,8))')

    def test_divide_then_product_cover(self):
        # (B, complement(B, n)) covers [0, n) exactly once when B's tile
        # divides n: logical_divide of a compact layout is then a bijection
        # onto [0, size(A)).
        A = Layout('(4,6):(1,4)')
        for b in ['2:1', '3:2', '(2,3):(1,8)', '4:3', '(2,2):(1,4)']:
            D = cl.logical_divide(A, b)
            self.assertEqual(sorted(D(i) for i in range(D.size())), list(range(24)), str(D))
        P = cl.logical_product(Layout('(2,2):(1,2)'), Layout('3:1'))
        self.assertEqual(sorted(P(i) for i in range(P.size())), list(range(12)))

    def test_complement_error(self):
        with self.assertRaises(CuteLayoutError) as cm:
            cl.complement(Layout('(2,2):(1,1)'), 8)  # not injective
        self.assertLess(cm.exception.status, 0)


def _torch_cuda():
    """PyTorch when it is installed and sees a GPU, and the CUDA module is
    there; else None."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    try:
        cl._cuda_library()
    except OSError:
        return None
    return torch


class TestCuda(unittest.TestCase):
    """cuda_copy between PyTorch CUDA tensors (skipped without PyTorch, a GPU
    or libcutelayout-cuda)."""

    def setUp(self):
        self.torch = _torch_cuda()
        if self.torch is None:
            self.skipTest('no PyTorch with a GPU, or no libcutelayout-cuda')

    def test_permute_copies(self):
        torch = self.torch
        for dtype in (torch.float32, torch.float16, torch.int8, torch.float64):
            for shape, perm in [((64, 96), (1, 0)), ((5, 6, 7, 8), (3, 1, 0, 2)), ((9, 10, 11), (2, 0, 1)),
                                ((4, 33, 17), (0, 2, 1))]:
                x = (torch.randn(shape, device='cuda') * 100).to(dtype)
                xp = x.permute(perm)
                out = torch.empty(xp.shape, device='cuda', dtype=dtype)
                cl.cuda_copy(out, xp)
                torch.cuda.synchronize()
                self.assertTrue(torch.equal(out, xp.contiguous()), (dtype, shape, perm))

    def test_views_and_streams(self):
        torch = self.torch
        x = torch.randn(128, 256, device='cuda')
        stream = torch.cuda.Stream()
        src = cl.CudaTensor(x[::2, 3:200].t(), stream.cuda_stream)
        out = torch.zeros(197, 64, device='cuda')
        dst = cl.CudaTensor(out, stream.cuda_stream)
        for _ in range(3):  # the views are reused
            cl.cuda_copy(dst, src, stream.cuda_stream)
        stream.synchronize()
        self.assertTrue(torch.equal(out, x[::2, 3:200].t()))

    def test_errors(self):
        torch = self.torch
        a = torch.zeros(8, device='cuda')
        with self.assertRaises(CuteLayoutError) as cm:
            cl.cuda_copy(a, torch.zeros(9, device='cuda'))
        self.assertEqual(cm.exception.status, -7)  # CL_E_DOMAIN: sizes differ
        with self.assertRaises(CuteLayoutError) as cm:
            cl.cuda_copy(a, a)
        self.assertEqual(cm.exception.status, -13)  # CL_E_OVERLAP
        with self.assertRaises(CuteLayoutError) as cm:
            cl.CudaTensor(torch.zeros(8))  # host memory
        self.assertEqual(cm.exception.status, -11)  # CL_E_UNSUPPORTED


class TestDocs(unittest.TestCase):
    def test_module_docstring_examples(self):
        import doctest
        failures, tried = doctest.testmod(cl)
        self.assertGreater(tried, 0)
        self.assertEqual(failures, 0)


if __name__ == '__main__':
    unittest.main(verbosity=2)
