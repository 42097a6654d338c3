# SPDX-License-Identifier: BSD-3-Clause
"""Redistribution of an N x N bf16 tensor over the GPUs of one host, under
torchrun: each redistribution by DTensor where it can express it, by a
hand-written all_to_all_single (the packing a programmer would write), by
cute-layout's C executor (cutelayout.dist.Redistribution with
executor='nccl': libcutelayout-nccl on a communicator of its own, pieces
contiguous on a side moved in place, the rest packed by the CUDA copy
kernels), by cute-layout on torch alone (executor='torch': the plan's pieces
packed by strided copies, or through index tensors, one all_to_all_single,
unpacked the same way), and, as the floor, one all_to_all_single of a
contiguous buffer of the same bytes without any packing.  On 4 GPUs also a
2x2 mesh's [Shard(0),Shard(1)] -> [Shard(1),Shard(0)].

    torchrun --nproc_per_node=4 bench/dist_vs_dtensor.py [N] [REPEATS]

DIST_BENCH_CASES=s01,replicate,blockcyclic,mesh picks the cases (all by
default; the all_to_all floor and DTensor's Shard(0)->Shard(1) always run).
DIST_BENCH_PROFILE=FILE profiles the C executor's Shard(0)->Shard(1) and the
floor on rank 0 (torch.profiler): their GPU kernels' times, and FILE a
Chrome trace of both.  Each cute-layout row of Shard(0)->Shard(1) also gets
the host time of one call (from the call to its return, the GPU not
waited for), printed below the table.

DIST_BENCH_CHUNKS=1,2,8 adds rows of the C executor exchanging in that many
chunks (CUTELAYOUT_NCCL_CHUNKS; docs/distributed.md).

GB/s per GPU = bytes of the local source shard / time; each time the median
of REPEATS timed runs (CUDA events, after warm-ups), its spread the min and
max, on rank 0 (each run ends in a barrier, so every rank waits for the
slowest).  Plans and index tensors are made once, outside the timing.
Every result is checked against the DTensor or hand-written result first."""
import os
import statistics
import sys
import time

import torch
import torch.distributed as tdist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard

from cutelayout.dist import Dist, Redistribution, nccl_available


def timed(fn, repeats):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        tdist.barrier()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return statistics.median(times), min(times), max(times)


def host_time(fn, repeats):
    """Median microseconds one call takes on the host (nothing waited for)."""
    torch.cuda.synchronize()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e6)
        torch.cuda.synchronize()
    return statistics.median(times)


def profile(fns, path, rank):
    """GPU kernels of each (name, fn), 5 calls each, on rank 0; a trace."""
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile
    with torch_profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for name, fn in fns:
            for _ in range(5):
                tdist.barrier()
                torch.cuda.synchronize()
                with torch.profiler.record_function(name):
                    fn()
                torch.cuda.synchronize()
    if rank == 0:
        print(prof.key_averages().table(sort_by='cuda_time_total', row_limit=25))
        prof.export_chrome_trace(path)


def rowmajor_local(d, local):
    """The cute-layout buffer of a torch local tensor: our placements store
    the local block row-major, padded to the same size on every rank."""
    buf = torch.zeros(d.local_size, dtype=local.dtype, device=local.device)
    buf[:local.numel()] = local.reshape(-1)
    return buf


def main():
    N = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    tdist.init_process_group('nccl')
    rank, P = tdist.get_rank(), tdist.get_world_size()
    torch.cuda.set_device(rank)
    dev = torch.device('cuda', rank)
    mesh = init_device_mesh('cuda', (P,))
    dtype = torch.bfloat16
    g = torch.Generator(device='cpu').manual_seed(0)
    full = torch.randn(N, N, generator=g).to(dtype).to(dev)
    shard_bytes = N * N // P * 2
    rows = []
    hosts = []
    cases = os.environ.get('DIST_BENCH_CASES', 's01,replicate,blockcyclic,mesh').split(',')

    def report(name, ms):
        med, lo, hi = ms
        rows.append((name, shard_bytes / (med * 1e-3) / 1e9, med, lo, hi))

    # The floor: one all_to_all_single of the local shard's bytes, already packed.
    flat_in = torch.empty(N * N // P, dtype=dtype, device=dev)
    flat_out = torch.empty_like(flat_in)
    floor_fn = lambda: tdist.all_to_all_single(flat_out, flat_in)
    report('all_to_all_single, contiguous (floor)', timed(floor_fn, repeats))
    hosts.append(('all_to_all_single, contiguous (floor)', host_time(floor_fn, repeats)))

    # ---- Shard(0) -> Shard(1)
    s0 = DTensor.from_local(full.chunk(P, 0)[rank].contiguous(), mesh, [Shard(0)])
    expect = s0.redistribute(mesh, [Shard(1)]).to_local()
    report('Shard(0)->Shard(1) DTensor', timed(lambda: s0.redistribute(mesh, [Shard(1)]), repeats))
    local = s0.to_local()
    recv = torch.empty(P, N // P, N // P, dtype=dtype, device=dev)

    def by_hand():
        send = local.reshape(N // P, P, N // P).permute(1, 0, 2).contiguous()
        tdist.all_to_all_single(recv, send)
        return recv.reshape(N, N // P)
    assert torch.equal(by_hand(), expect)
    report('Shard(0)->Shard(1) transpose + all_to_all_single', timed(by_hand, repeats))
    src, dst = Dist('dist((%d,%d), %d, Shard(0))' % (N, N, P)), Dist('dist((%d,%d), %d, Shard(1))' % (N, N, P))
    src_buf = rowmajor_local(src, local)
    out = torch.empty(dst.local_size, dtype=dtype, device=dev)
    # The C executor with its default number of chunks, and with others
    # (CUTELAYOUT_NCCL_CHUNKS, read when an executor is made); torch alone.
    chunks = [c for c in os.environ.get('DIST_BENCH_CHUNKS', '').split(',') if c]
    executors = (['default'] + chunks if nccl_available() else []) + ['torch']
    label = {'default': 'cute-layout', 'torch': 'cute-layout on torch'}
    label.update({c: 'cute-layout, %s chunks' % c for c in chunks})

    def redistribution(a, b, ex, **kw):
        os.environ.pop('CUTELAYOUT_NCCL_CHUNKS', None)
        if ex not in ('default', 'torch'):
            os.environ['CUTELAYOUT_NCCL_CHUNKS'] = ex
        return Redistribution(a, b, dtype, dev, executor='torch' if ex == 'torch' else 'nccl', **kw)
    for ex in executors if 's01' in cases else []:
        move = redistribution(src, dst, ex)
        out.fill_(0)
        assert torch.equal(move(src_buf, out).reshape(N, N // P), expect), ex
        report('Shard(0)->Shard(1) %s' % label[ex], timed(lambda: move(src_buf, out), repeats))
        hosts.append(('Shard(0)->Shard(1) %s' % label[ex], host_time(lambda: move(src_buf, out), repeats)))
        if ex == 'default' and os.environ.get('DIST_BENCH_PROFILE'):
            profile([('floor', floor_fn), ('cute-layout', lambda: move(src_buf, out))],
                    os.environ['DIST_BENCH_PROFILE'], rank)
    if 's01' in cases:
        move_i = Redistribution(src, dst, dtype, dev, max_pieces=0, executor='torch')
        assert torch.equal(move_i(src_buf, out).reshape(N, N // P), expect)
        report('Shard(0)->Shard(1) cute-layout on torch, index tensors', timed(lambda: move_i(src_buf, out), repeats))

    # ---- Shard(0) -> Replicate (an all-gather)
    if 'replicate' in cases:
        expect = s0.redistribute(mesh, [Replicate()]).to_local()
        report('Shard(0)->Replicate DTensor', timed(lambda: s0.redistribute(mesh, [Replicate()]), repeats))
        rep = Dist('dist((%d,%d), %d, Replicate)' % (N, N, P))
        out_r = torch.empty(rep.local_size, dtype=dtype, device=dev)
        for ex in executors:
            move_r = redistribution(src, rep, ex)
            out_r.fill_(0)
            assert torch.equal(move_r(src_buf, out_r).reshape(N, N), expect), ex
            report('Shard(0)->Replicate %s' % label[ex], timed(lambda: move_r(src_buf, out_r), repeats))
        del out_r

    # ---- block-cyclic (ScaLAPACK, blocks of 64 rows) -> Shard(0): DTensor cannot express it
    if 'blockcyclic' in cases:
        bc = Dist('dist((%d,%d), %d, BlockCyclic(0,64))' % (N, N, P))
        bc_rows = torch.arange(N, device=dev).reshape(-1, P, 64)[:, rank, :].reshape(-1)  # rows this rank holds
        bc_buf = rowmajor_local(bc, full[bc_rows])
        out_b = torch.empty(src.local_size, dtype=dtype, device=dev)
        for ex in executors:
            move_b = redistribution(bc, src, ex)
            out_b.fill_(0)
            assert torch.equal(move_b(bc_buf, out_b).reshape(N // P, N), full.chunk(P, 0)[rank]), ex
            report('BlockCyclic(0,64)->Shard(0) %s (DTensor cannot)' % label[ex], timed(lambda: move_b(bc_buf, out_b), repeats))

    # ---- a 2x2 mesh: [Shard(0), Shard(1)] -> [Shard(1), Shard(0)]
    if P == 4 and 'mesh' in cases:
        mesh2 = init_device_mesh('cuda', (2, 2))
        i, j = rank // 2, rank % 2
        block = full.chunk(2, 0)[i].chunk(2, 1)[j].contiguous()
        m0 = DTensor.from_local(block, mesh2, [Shard(0), Shard(1)])
        want = full.chunk(2, 0)[j].chunk(2, 1)[i]
        assert torch.equal(m0.redistribute(mesh2, [Shard(1), Shard(0)]).to_local(), want)
        report('2x2 mesh [S(0),S(1)]->[S(1),S(0)] DTensor', timed(lambda: m0.redistribute(mesh2, [Shard(1), Shard(0)]), repeats))
        ma = Dist('dist((%d,%d), (2,2), Shard(0), Shard(1))' % (N, N))
        mb = Dist('dist((%d,%d), (2,2), Shard(1), Shard(0))' % (N, N))
        m_buf = rowmajor_local(ma, block)
        out_m = torch.empty(mb.local_size, dtype=dtype, device=dev)
        for ex in executors:
            move_m = redistribution(ma, mb, ex)
            out_m.fill_(0)
            assert torch.equal(move_m(m_buf, out_m).reshape(N // 2, N // 2), want), ex
            report('2x2 mesh [S(0),S(1)]->[S(1),S(0)] %s' % label[ex], timed(lambda: move_m(m_buf, out_m), repeats))

    if rank == 0:
        print('%d x %d bf16 over %d x %s; GB/s per GPU = local shard bytes (%d MB) / median time; %d runs' %
              (N, N, P, torch.cuda.get_device_name(0), shard_bytes >> 20, repeats))
        print('| redistribution | GB/s per GPU | median ms | min ms | max ms |')
        print('|---|---:|---:|---:|---:|')
        for name, gbs, med, lo, hi in rows:
            print('| %s | %.1f | %.3f | %.3f | %.3f |' % (name, gbs, med, lo, hi))
        times = {name: med for name, _, med, _, _ in rows}
        floor = times['all_to_all_single, contiguous (floor)']
        for name, med in times.items():
            if 'cute-layout' not in name:
                continue
            for case, against, what in [
                    ('Shard(0)->Shard(1)', floor, 'x the all_to_all floor (target <= 1.15)'),
                    ('BlockCyclic(0,64)->Shard(0)', floor, 'x the all_to_all floor (target <= 1.3)'),
                    ('Shard(0)->Replicate', times.get('Shard(0)->Replicate DTensor'), 'x DTensor'),
                    ('2x2 mesh', times.get('2x2 mesh [S(0),S(1)]->[S(1),S(0)] DTensor'), 'x DTensor (target <= 0.5)')]:
                if name.startswith(case) and against:
                    print('ratio: %s %.3f %s' % (name, med / against, what))
        for name, us in hosts:
            print('host: %s %.1f us a call' % (name, us))
    tdist.destroy_process_group()


if __name__ == '__main__':
    main()
