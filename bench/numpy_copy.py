#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""numpy's copies of the `cute-layout-bench copy` workloads, against the
library's cl_tensor_copy on the same buffers, in one process.

    python3 bench/numpy_copy.py [--lib build/src/libcutelayout.so] [--rounds 11]

For each workload (bench/bench_copy.c has the same list) it times, round
after round in alternation: memcpy of the same bytes (numpy's copyto between
two contiguous arrays), numpy's ascontiguousarray of the permuted view (which
allocates its result, as a program would), numpy's copyto of the permuted
view into a preallocated array (the same traversal without the allocation),
and cl_tensor_copy between the same two buffers, called through ctypes.  It
prints, in cute-layout-bench's format, medians of the paired ratios:

    numpy/<workload>          GB/s of ascontiguousarray, its ratio to memcpy
    numpy/<workload>-copyto   GB/s of copyto, its ratio to memcpy
    copy/<workload>           GB/s of cl_tensor_copy, its ratio to copyto
                              (numpy's best) and, on a second line, to
                              ascontiguousarray

GB/s counts the bytes read plus the bytes written.  Needs python3-numpy.
"""
import argparse
import ctypes
import glob
import os
import statistics
import sys
import time

import numpy as np

DTYPES = {'u8': (np.uint8, 5), 'f16': (np.float16, 9), 'f32': (np.float32, 11), 'f64': (np.float64, 12)}


def find_library(path):
    if path:
        return path
    here = os.path.dirname(os.path.abspath(__file__))
    found = sorted(glob.glob(os.path.join(here, '..', 'build*', 'src', 'libcutelayout.so')))
    if not found:
        sys.exit('numpy_copy.py: no build*/src/libcutelayout.so; pass --lib')
    return found[0]


class Library:
    """The few C entry points the comparison needs."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        vp = ctypes.c_void_p
        lib.cl_layout_parse.argtypes = [ctypes.c_char_p, ctypes.POINTER(vp)]
        lib.cl_layout_free.argtypes = [vp]
        lib.cl_tensor_new_typed.argtypes = [vp, ctypes.c_int, vp, ctypes.POINTER(vp)]
        lib.cl_tensor_free.argtypes = [vp]
        lib.cl_tensor_copy.argtypes = [vp, vp]
        lib.cl_last_error.restype = ctypes.c_char_p
        self.lib = lib

    def check(self, status, what):
        if status != 0:
            sys.exit('numpy_copy.py: %s: %s' % (what, self.lib.cl_last_error().decode()))

    def tensor(self, array, dtype_code, layout):
        l, t = ctypes.c_void_p(), ctypes.c_void_p()
        self.check(self.lib.cl_layout_parse(layout.encode(), ctypes.byref(l)), layout)
        self.check(self.lib.cl_tensor_new_typed(array.ctypes.data, dtype_code, l, ctypes.byref(t)), layout)
        self.lib.cl_layout_free(l)
        return t


def workloads():
    """(name, dtype, source shape (row-major), axes of the permuted view,
    dst layout, src layout): the view is source.transpose(axes); the two
    layouts say the same copy in cute-layout's terms."""
    col, row = '(4096,4096):(1,4096)', '(4096,4096):(4096,1)'
    yield 'contig-4096x4096', 'f32', (4096, 4096), (0, 1), col, col
    for suffix, t in (('', 'f32'), ('-u8', 'u8'), ('-f16', 'f16'), ('-f64', 'f64')):
        yield 'transpose-4096x4096' + suffix, t, (4096, 4096), (1, 0), row, col
    yield 'transpose-4000x4000', 'f32', (4000, 4000), (1, 0), '(4000,4000):(4000,1)', '(4000,4000):(1,4000)'
    yield ('permute-64^4-3102', 'f32', (64, 64, 64, 64), (3, 1, 0, 2), '(64,64,64,64):(64,4096,1,262144)',
           '(64,64,64,64):(262144,4096,64,1)')
    for suffix, t in (('', 'f32'), ('-u8', 'u8'), ('-f16', 'f16'), ('-f64', 'f64')):
        yield ('permute-256^3-201' + suffix, t, (256, 256, 256), (2, 0, 1), '(256,256,256):(256,1,65536)',
               '(256,256,256):(65536,256,1)')
    # logical_divide(make_layout((4096,4096)),(32,32)) to row-major: the
    # source's memory is (j1, j0, i1, i0) row-major, the result (i0,i1,j0,j1).
    yield ('hier-ldiv32-rowmajor', 'f32', (128, 32, 128, 32), (3, 2, 1, 0),
           '((32,128),(32,128)):((524288,4096),(128,1))', '((32,128),(32,128)):((1,32),(4096,131072))')


def timed(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def report(group, name, gbps, ratio, baseline):
    print('%s/%s  %.3g GB/s  %.3gx %s' % (group, name, gbps, ratio, baseline), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--lib', help='path of libcutelayout.so (default: the first build*/src/ one)')
    ap.add_argument('--rounds', type=int, default=11)
    ap.add_argument('workload', nargs='*', help='names to run (default: all)')
    args = ap.parse_args()
    lib = Library(find_library(args.lib))
    for name, tname, shape, axes, dst_layout, src_layout in workloads():
        if args.workload and name not in args.workload:
            continue
        dtype, code = DTYPES[tname]
        src = (np.arange(np.prod(shape), dtype=np.uint64) * 7 % 2039).astype(dtype).reshape(shape)  # finite in float16
        view = src.transpose(axes)
        dst = np.empty(view.shape, dtype=dtype)
        flat = np.empty(src.size, dtype=dtype)
        ts, td = lib.tensor(src, code, src_layout), lib.tensor(dst, code, dst_layout)
        lib.check(lib.lib.cl_tensor_copy(td, ts), 'cl_tensor_copy')
        if not np.array_equal(dst, np.ascontiguousarray(view)):
            sys.exit('numpy_copy.py: cl_tensor_copy and numpy disagree on ' + name)
        runs = {'memcpy': [], 'ascontiguous': [], 'copyto': [], 'cute': []}
        for _ in range(args.rounds):
            runs['memcpy'].append(timed(lambda: np.copyto(flat, src.reshape(-1))))
            runs['ascontiguous'].append(timed(lambda: np.ascontiguousarray(view)))
            runs['copyto'].append(timed(lambda: np.copyto(dst, view)))
            runs['cute'].append(timed(lambda: lib.lib.cl_tensor_copy(td, ts)))
        lib.lib.cl_tensor_free(td)
        lib.lib.cl_tensor_free(ts)
        moved = 2.0 * src.nbytes * 1e-9

        def ratio(a, b):
            return statistics.median(x / y for x, y in zip(runs[a], runs[b]))

        def gbps(a):
            return moved / statistics.median(runs[a])

        # ascontiguousarray of an array already contiguous returns it, copying
        # nothing: no baseline for the contiguous workload.
        copies = not view.flags.c_contiguous
        if copies:
            report('numpy', name, gbps('ascontiguous'), ratio('memcpy', 'ascontiguous'), 'memcpy')
        report('numpy', name + '-copyto', gbps('copyto'), ratio('memcpy', 'copyto'), 'memcpy')
        report('copy', name, gbps('cute'), ratio('copyto', 'cute'), 'numpy-copyto')
        if copies:
            report('copy', name, gbps('cute'), ratio('ascontiguous', 'cute'), 'numpy-ascontiguousarray')


if __name__ == '__main__':
    main()
