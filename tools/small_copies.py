#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Copies under 1 MiB on the GPU: cute-layout's against PyTorch's.

    python3 tools/small_copies.py [--runs N]   GPU time (events) and host cost per call
    python3 tools/small_copies.py --ncu        a few copies of each, in NVTX ranges
                                                "<workload>/ours" and "<workload>/torch",
                                                for ncu (tools/gpu_small_check.sh)

GPU time: n copies queued behind torch.cuda._sleep (so the host never makes
the GPU wait), events around them, divided by n; medians of the runs,
alternating ours and PyTorch's.  Host cost: seconds per call of a loop of
calls that do not wait for the GPU.  Each workload: x.permute(p) of a fresh
row-major x into a contiguous tensor (out.copy_(x.permute(p)) for PyTorch)."""
import argparse
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bindings', 'python'))
import cutelayout as cl  # noqa: E402

# The GPU-time loop is the bench's own (queued behind a sleep, timed by events).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'bench'))
from gpu_vs_torch import timed  # noqa: E402

WORKLOADS = [
    ('transpose-32x32-f32', torch.float32, (32, 32), (1, 0)),
    ('transpose-32x32-f16', torch.float16, (32, 32), (1, 0)),
    ('transpose-128x128-f32', torch.float32, (128, 128), (1, 0)),
    ('transpose-128x128-f16', torch.float16, (128, 128), (1, 0)),
    ('permute-rank6-5000-f32', torch.float32, (2, 5, 2, 5, 5, 10), (5, 3, 1, 0, 2, 4)),
    ('permute-96x80x3-201-u8', torch.uint8, (96, 80, 3), (2, 0, 1)),
    ('nchw2nhwc-1x64x32x32-f32', torch.float32, (1, 64, 32, 32), (0, 2, 3, 1)),
    ('nchw2nhwc-4x64x32x32-u8', torch.uint8, (4, 64, 32, 32), (0, 2, 3, 1)),
    ('transpose-511x127-f32', torch.float32, (511, 127), (1, 0)),
    ('transpose-512x512-f32', torch.float32, (512, 512), (1, 0)),
    ('transpose-1024x1024-u8', torch.uint8, (1024, 1024), (1, 0)),
    ('nchw2nhwc-4x64x32x32-f32', torch.float32, (4, 64, 32, 32), (0, 2, 3, 1)),
    ('permute-64x64x64-201-f32', torch.float32, (64, 64, 64), (2, 0, 1)),
    ('contiguous-16384-f32', torch.float32, (16384,), (0,)),
]
PAIRS = 64  # buffers each run rotates through (about what a model's layers have)


def make(dtype, shape, perm):
    x = (torch.randn(shape, device='cuda') * 100).to(dtype)
    v = x.permute(perm)
    return v, torch.empty(v.shape, device='cuda', dtype=dtype)


def host_cost(queue, n, stream):
    with torch.cuda.stream(stream):
        t0 = time.perf_counter()
        for k in range(n):
            queue(k)
        t1 = time.perf_counter()
    stream.synchronize()
    return (t1 - t0) / n


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--runs', type=int, default=15)
    parser.add_argument('--ncu', action='store_true')
    args = parser.parse_args()
    stream = torch.cuda.Stream()
    s = stream.cuda_stream
    print('%s, PyTorch %s' % (torch.cuda.get_device_name(), torch.__version__))
    for name, dtype, shape, perm in WORKLOADS:
        made = [make(dtype, shape, perm) for _ in range(PAIRS)]
        views = [m[0] for m in made]
        outs = [m[1] for m in made]
        src = [cl.CudaTensor(v, s) for v in views]
        dst = [cl.CudaTensor(o, s) for o in outs]

        def ours(k):
            cl.cuda_copy(dst[k % PAIRS], src[k % PAIRS], s)

        def theirs(k):
            outs[k % PAIRS].copy_(views[k % PAIRS])

        with torch.cuda.stream(stream):
            outs[0].zero_()
            ours(0)
        stream.synchronize()
        if not torch.equal(outs[0], views[0]):
            sys.exit('small_copies: cute-layout\'s copy of %s is wrong' % name)
        if args.ncu:
            for tag, op in (('ours', ours), ('torch', theirs)):
                torch.cuda.nvtx.range_push('%s/%s' % (name, tag))
                with torch.cuda.stream(stream):
                    for k in range(3):
                        op(k)
                stream.synchronize()
                torch.cuda.nvtx.range_pop()
            continue
        nbytes = outs[0].numel() * outs[0].element_size()
        for op in (ours, theirs):
            timed(op, 20, stream)
        t_ours, t_torch = [], []
        for _ in range(args.runs):
            t_ours.append(timed(ours, 200, stream))
            t_torch.append(timed(theirs, 200, stream))
        h_ours = statistics.median(host_cost(ours, 2000, stream) for _ in range(5))
        h_torch = statistics.median(host_cost(theirs, 2000, stream) for _ in range(5))
        mo, mt = statistics.median(t_ours), statistics.median(t_torch)
        q = statistics.quantiles(t_ours, n=10)
        print('small/%s  %d B  gpu us: ours %.2f (p10 %.2f p90 %.2f) torch %.2f  ratio torch/ours %.2f  '
              'host us: ours %.2f torch %.2f  plan: %s' %
              (name, nbytes, mo * 1e6, q[0] * 1e6, q[-1] * 1e6, mt * 1e6, mt / mo, h_ours * 1e6, h_torch * 1e6,
               cl.cuda_copy_explain(dst[0], src[0])), flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
