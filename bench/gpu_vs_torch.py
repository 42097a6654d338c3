#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""PyTorch's permute copy against cute-layout's, on the GPU, in one process.

    python3 bench/gpu_vs_torch.py [--runs N]

For the workloads of `cute-layout-bench gpu` that PyTorch can express (x a
row-major tensor; its x.permute(p) copied into a contiguous tensor: out.copy_
(x.permute(p))), then for the families of `gpu-random` that issue 27 names
(odd extents, a bf16 rank-3 permutation, 3-channel uint8 images both ways, a
strided slice copied transposed into a column slice, copies under 1 MiB),
times PyTorch's copy, cute-layout's cl_cuda_tensor_copy of
the same views through the Python binding (bindings/python, DLPack), and
PyTorch's contiguous device-to-device copy of the same bytes, alternately in
the same run.  GB/s counts the bytes read plus the bytes written; each timed
run queues its copies behind torch.cuda._sleep, so that the events time the
GPU's work.  Medians of the runs; the spread (10th and 90th percentiles) goes
to standard error.  Lines in cute-layout-bench's format:

    gpu/<workload>  <GB/s> GB/s  <ratio>x torch      cute-layout, and its ratio to PyTorch
    torch/<workload>  <GB/s> GB/s  <ratio>x torch-d2d   PyTorch, and its ratio to a D2D copy

The library is found as the binding finds it (CUTELAYOUT_LIBRARY,
CUTELAYOUT_CUDA_LIBRARY, else the system's libraries)."""
import argparse
import os
import statistics
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bindings', 'python'))
import cutelayout as cl  # noqa: E402

WORKLOADS = [
    ('transpose-4096', (4096, 4096), (1, 0)),
    ('transpose-16384', (16384, 16384), (1, 0)),
    ('permute-64^4-3102', (64, 64, 64, 64), (3, 1, 0, 2)),
    ('permute-128^4-3102', (128, 128, 128, 128), (3, 1, 0, 2)),
    ('permute-64^4-0213', (64, 64, 64, 64), (0, 2, 1, 3)),
    ('permute-128^3-201', (128, 128, 128), (2, 0, 1)),
    # logical_divide of a column-major 4096x4096 (stored as the row-major
    # transpose) by 32x32 tiles, to the row-major layout of the divided shape.
    ('ldiv-tiles-4096', (128, 32, 128, 32), (3, 2, 1, 0)),
]
ROTATE_BYTES = 256 << 20  # buffers of one round of timing, beyond the L2 cache


def timed(queue, n, stream):
    """Seconds per call of queue(k), k < n, queued behind a sleep."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(stream):
        torch.cuda._sleep(20_000_000)  # cycles: ~10 ms, longer than queueing n calls takes
        start.record()
        for k in range(n):
            queue(k)
        stop.record()
    stop.synchronize()
    return start.elapsed_time(stop) * 1e-3 / n


def compare(ops, runs, stream):
    """Median seconds of each op, alternating run by run, and their runs."""
    for op in ops:
        timed(op, 3, stream)
    once = timed(ops[0], 4, stream)
    n = int(min(200, max(4, 0.002 / once)))
    times = [[] for _ in ops]
    for _ in range(runs):
        for t, op in zip(times, ops):
            t.append(timed(op, n, stream))
    return times


def spread(bytes_moved, t):
    q = statistics.quantiles(t, n=10)
    return '%.1f GB/s (runs p10 %.1f, p90 %.1f)' % (bytes_moved / statistics.median(t) * 1e-9,
                                                      bytes_moved / q[-1] * 1e-9, bytes_moved / q[0] * 1e-9)


def report(group, name, gbps, ratio, baseline):
    print('%s/%s  %.1f GB/s  %.2fx %s' % (group, name, gbps, ratio, baseline), flush=True)


def permuted(shape, perm, dtype):
    """x.permute(perm) of a fresh row-major x, and a contiguous tensor of its shape."""
    x = (torch.randn(shape, device='cuda') * 100).to(dtype)
    v = x.permute(perm)
    return v, torch.empty(v.shape, device='cuda', dtype=dtype)


def sliced_into_columns(m, n, dtype):
    """A[::2, :].t() of an (2m, n) matrix, into every other column of an (n, 2m + 3) one."""
    a = torch.randn(2 * m, n, device='cuda').to(dtype)
    wide = torch.empty(n, 2 * m + 3, device='cuda', dtype=dtype)
    return a[::2, :].t(), wide[:, 1:2 * m + 1:2]


# The families off the fixed workloads: (name, dtype, maker of (src, dst)).
FAMILIES = [
    ('transpose-4001x3999', torch.float32, lambda d: permuted((4001, 3999), (1, 0), d)),
    ('permute-517x131x997-210', torch.bfloat16, lambda d: permuted((517, 131, 997), (2, 1, 0), d)),
    ('image-nchw2nhwc-64x3x509x511', torch.uint8, lambda d: permuted((64, 3, 509, 511), (0, 2, 3, 1), d)),
    ('image-nhwc2nchw-64x509x511x3', torch.uint8, lambda d: permuted((64, 509, 511, 3), (0, 3, 1, 2), d)),
    ('slice-t-into-columns-3001x2999', torch.float32, lambda d: sliced_into_columns(3001, 2999, d)),
    ('small-transpose-32x32', torch.float32, lambda d: permuted((32, 32), (1, 0), d)),
    ('small-permute-rank6-5000', torch.float32, lambda d: permuted((2, 5, 2, 5, 5, 10), (5, 3, 1, 0, 2, 4), d)),
    ('small-permute-96x80x3-u8', torch.uint8, lambda d: permuted((96, 80, 3), (2, 0, 1), d)),
]


def workload(tag, make, runs, stream):
    """Times cute-layout's copy dst <- src, PyTorch's dst.copy_(src) and a
    contiguous D2D copy of dst's bytes, for the (src, dst) pairs make() gives."""
    src0, dst0 = make()
    nbytes = dst0.numel() * dst0.element_size()
    pairs = max(1, min(64, -(-ROTATE_BYTES // (2 * max(nbytes, 1)))))
    made = [(src0, dst0)] + [make() for _ in range(pairs - 1)]
    views = [m[0] for m in made]
    outs = [m[1] for m in made]
    s = stream.cuda_stream
    dst = [cl.CudaTensor(o, s) for o in outs]
    src = [cl.CudaTensor(v, s) for v in views]
    flat_in = [torch.empty(nbytes, dtype=torch.uint8, device='cuda') for _ in range(pairs)]
    flat_out = [torch.empty(nbytes, dtype=torch.uint8, device='cuda') for _ in range(pairs)]

    def ours(k):
        cl.cuda_copy(dst[k % pairs], src[k % pairs], s)

    def theirs(k):
        outs[k % pairs].copy_(views[k % pairs])

    def d2d(k):
        flat_out[k % pairs].copy_(flat_in[k % pairs])

    with torch.cuda.stream(stream):
        outs[0].zero_()
        ours(0)
    stream.synchronize()
    if not torch.equal(outs[0], views[0]):
        sys.exit('gpu_vs_torch: cute-layout\'s copy of %s is wrong' % tag)
    t_ours, t_torch, t_d2d = compare([ours, theirs, d2d], runs, stream)
    moved = 2.0 * nbytes
    m_ours, m_torch, m_d2d = (statistics.median(t) for t in (t_ours, t_torch, t_d2d))
    ratios = sorted(b / a for a, b in zip(t_ours, t_torch))
    report('gpu', tag, moved / m_ours * 1e-9, statistics.median(ratios), 'torch')
    report('torch', tag, moved / m_torch * 1e-9, m_d2d / m_torch, 'torch-d2d')
    print('%s: cute-layout %s; torch %s; torch d2d %s; cute-layout/d2d %.2f; GPU time per copy: cute-layout %.2f us, '
          'torch %.2f us' % (tag, spread(moved, t_ours), spread(moved, t_torch), spread(moved, t_d2d), m_d2d / m_ours,
                             m_ours * 1e6, m_torch * 1e6), file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--runs', type=int, default=15, help='timed runs per figure (default 15)')
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print('gpu_vs_torch: skipped, no GPU')
        return 0
    print('gpu_vs_torch: %s, PyTorch %s' % (torch.cuda.get_device_name(), torch.__version__), file=sys.stderr)
    stream = torch.cuda.Stream()
    for dtype in (torch.float32, torch.float16):
        for name, shape, perm in WORKLOADS:
            tag = name + ('-f32' if dtype == torch.float32 else '-f16')
            workload(tag, lambda: permuted(shape, perm, dtype), args.runs, stream)
            torch.cuda.empty_cache()
    for name, dtype, make in FAMILIES:
        workload(name + '-' + str(dtype).split('.')[-1], lambda: make(dtype), args.runs, stream)
        torch.cuda.empty_cache()
    return 0


if __name__ == '__main__':
    sys.exit(main())
