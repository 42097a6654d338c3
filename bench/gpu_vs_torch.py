#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""PyTorch's permute copy against cute-layout's, on the GPU, in one process.

    python3 bench/gpu_vs_torch.py [--runs N]

For the workloads of `cute-layout-bench gpu` that PyTorch can express (x a
row-major tensor; its x.permute(p) copied into a contiguous tensor: out.copy_
(x.permute(p))), times PyTorch's copy, cute-layout's cl_cuda_tensor_copy of
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


def workload(name, shape, perm, dtype, runs, stream):
    elems = 1
    for n in shape:
        elems *= n
    nbytes = elems * torch.tensor([], dtype=dtype).element_size()
    pairs = max(1, min(64, -(-ROTATE_BYTES // (2 * nbytes))))
    xs = [torch.randn(shape, device='cuda').to(dtype) for _ in range(pairs)]
    views = [x.permute(perm) for x in xs]
    outs = [torch.empty(v.shape, device='cuda', dtype=dtype) for v in views]
    s = stream.cuda_stream
    dst = [cl.CudaTensor(o, s) for o in outs]
    src = [cl.CudaTensor(v, s) for v in views]
    flat_in, flat_out = [x.view(-1) for x in xs], [o.view(-1) for o in outs]

    def ours(k):
        cl.cuda_copy(dst[k % pairs], src[k % pairs], s)

    def theirs(k):
        outs[k % pairs].copy_(views[k % pairs])

    def d2d(k):
        flat_out[k % pairs].copy_(flat_in[k % pairs])

    with torch.cuda.stream(stream):
        for o in outs:
            o.fill_(float('nan'))
        ours(0)
    stream.synchronize()
    if not torch.equal(outs[0], views[0].contiguous()):
        sys.exit('gpu_vs_torch: cute-layout\'s copy of %s is wrong' % name)
    t_ours, t_torch, t_d2d = compare([ours, theirs, d2d], runs, stream)
    moved = 2.0 * nbytes
    m_ours, m_torch, m_d2d = (statistics.median(t) for t in (t_ours, t_torch, t_d2d))
    ratios = sorted(b / a for a, b in zip(t_ours, t_torch))
    tag = name + ('-f32' if dtype == torch.float32 else '-f16')
    report('gpu', tag, moved / m_ours * 1e-9, statistics.median(ratios), 'torch')
    report('torch', tag, moved / m_torch * 1e-9, m_d2d / m_torch, 'torch-d2d')
    print('%s: cute-layout %s; torch %s; torch d2d %s; cute-layout/d2d %.2f' % (
        tag, spread(moved, t_ours), spread(moved, t_torch), spread(moved, t_d2d), m_d2d / m_ours), file=sys.stderr)


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
            workload(name, shape, perm, dtype, args.runs, stream)
            torch.cuda.empty_cache()
    return 0


if __name__ == '__main__':
    sys.exit(main())
