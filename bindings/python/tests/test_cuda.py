# SPDX-License-Identifier: BSD-3-Clause
"""cuda_copy between PyTorch CUDA tensors through the CUDA module (skipped
without PyTorch, a GPU or libcutelayout-cuda): permuted copies of every
element size checked against PyTorch's own, views reused on a stream, and
the errors."""
import unittest
from ctypes import c_char_p, c_int

import cutelayout as cl
from cutelayout import CuteLayoutError
from cutelayout._cuda import _cuda_library
from cutelayout._ffi import load_companion


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
        _cuda_library()
    except OSError:
        return None
    return torch


class TestCompanionLibraries(unittest.TestCase):
    """How libcutelayout-cuda and -nccl are found (runs without a GPU)."""

    def test_missing_library_says_how_to_get_it(self):
        with self.assertRaises(OSError) as caught:
            load_companion('cutelayout-nowhere', 'CUTELAYOUT_NOWHERE_LIBRARY', 'build it with -Dnowhere=enabled', [])
        text = str(caught.exception)
        for part in ('libcutelayout-nowhere not found', '-Dnowhere=enabled', 'CUTELAYOUT_NOWHERE_LIBRARY'):
            self.assertIn(part, text)

    def test_found_library_is_declared(self):
        # The core library itself, named by the variable, stands in for a
        # companion: its functions get the declared types.
        import os
        from cutelayout._ffi import library
        os.environ['CUTELAYOUT_STANDIN_LIBRARY'] = library._name
        try:
            lib = load_companion('cutelayout-standin', 'CUTELAYOUT_STANDIN_LIBRARY', '',
                                 [('cl_status_string', c_char_p, [c_int])])
        finally:
            del os.environ['CUTELAYOUT_STANDIN_LIBRARY']
        self.assertEqual(lib.cl_status_string(0), b'success')


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

    def test_copy_many(self):
        torch = self.torch
        xs = [torch.randn(n, n + 3, device='cuda').to(dtype) for n, dtype in
              zip(range(1, 60), [torch.float32, torch.float16, torch.int8, torch.float64] * 15)]
        outs = [torch.empty(x.t().shape, device='cuda', dtype=x.dtype) for x in xs]
        cl.cuda_copy_many(list(zip(outs, [x.t() for x in xs])))
        torch.cuda.synchronize()
        for x, out in zip(xs, outs):
            self.assertTrue(torch.equal(out, x.t()), x.shape)
        cl.cuda_copy_many([])
        a = torch.zeros(8, device='cuda')
        with self.assertRaises(CuteLayoutError) as cm:
            cl.cuda_copy_many([(a, torch.ones(8, device='cuda')), (a, torch.zeros(9, device='cuda'))])
        self.assertEqual(cm.exception.status, -7)  # CL_E_DOMAIN: sizes differ
        self.assertIn('pair 1', str(cm.exception))
        torch.cuda.synchronize()
        self.assertEqual(int(a.sum()), 0)  # nothing queued

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
