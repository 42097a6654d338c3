# SPDX-License-Identifier: BSD-3-Clause
"""Redistribution on GPUs, under torchrun (one process a GPU, NCCL):
random pairs of distributions of every family, every element size from 1
to 16 bytes, each checked against the global tensor after gathering every
rank's destination buffer; the pairs take in turn the C executor
(libcutelayout-nccl, where it is built) exchanging in 1, 3 and 16 chunks
(of at least one byte, so that pieces are cut everywhere) and torch alone
with strided copies and with index tensors.  Not part of `meson test` (it needs several
GPUs); run as

    torchrun --nproc_per_node=2 tests/dist/gpu_redistribute.py [PAIRS]

with the build's Python package on PYTHONPATH and CUTELAYOUT_LIBRARY set.
Prints one line per pair and 'gpu-redistribute: N pairs OK' at the end;
exits 1 at the first wrong element."""
import os
import random
import sys

import torch
import torch.distributed as tdist

from cutelayout.dist import Dist, Redistribution, nccl_available

DTYPES = [torch.uint8, torch.bfloat16, torch.float32, torch.float64, torch.complex128]  # 1, 2, 4, 8, 16 bytes


def families(P, shape):
    out = ['dist(%s, %d, %s)' % (shape, P, p) for p in
           ('Shard(0)', 'Shard(1)', 'Replicate', 'StridedShard(0,2)', 'BlockCyclic(0,2)', 'BlockCyclic(1,3)')]
    if P % 2 == 0 and P >= 4:
        out += ['dist(%s, (2,%d), %s)' % (shape, P // 2, p) for p in
                ('Shard(0), Shard(1)', 'Shard(1), Shard(0)', 'Shard(0), Replicate', 'BlockCyclic(0,2), BlockCyclic(1,1)')]
    else:
        out += ['dist(%s, (%d,1), Shard(0), Shard(1))' % (shape, P), 'dist(%s, (1,%d), Replicate, Shard(1))' % (shape, P)]
    return out


def local_of(d, values, rank, device):
    """Rank `rank`'s buffer of distribution d over the global values (flat,
    colexicographic), by the distribution's own locate."""
    buf = torch.zeros(d.local_size, dtype=values.dtype)
    idx, off = [], []
    for i in range(d.size):
        for k in range(d.replicas):
            r, o = d.locate(i, k)
            if r == rank:
                idx.append(i)
                off.append(o)
    buf[torch.tensor(off, dtype=torch.int64)] = values[torch.tensor(idx, dtype=torch.int64)]
    return buf.to(device)


def main():
    pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    tdist.init_process_group('nccl')
    rank, P = tdist.get_rank(), tdist.get_world_size()
    torch.cuda.set_device(rank)
    device = torch.device('cuda', rank)
    rng = random.Random(29)  # the same pairs on every rank
    checked = 0
    ways = (['chunks 1', 'chunks 3', 'chunks 16'] if nccl_available() else []) + ['strided', 'indices']
    for n in range(pairs):
        shape = '(%d,%d)' % (rng.randint(1, 40), rng.randint(1, 40))
        fam = families(P, shape)
        a, b = rng.choice(fam), rng.choice(fam)
        dtype = DTYPES[n % len(DTYPES)]
        src, dst = Dist(a), Dist(b)
        g = torch.Generator().manual_seed(n)
        values = (torch.randint(1, 250, (src.size,), generator=g)).to(dtype)
        # The C executor in chunks, then torch's strided copies and index tensors.
        way = ways[n % len(ways)]
        if way.startswith('chunks'):
            os.environ['CUTELAYOUT_NCCL_CHUNKS'] = way.split()[1]
            os.environ['CUTELAYOUT_NCCL_CHUNK_BYTES'] = '1'
        redistribution = Redistribution(src, dst, dtype, device, max_pieces=0 if way == 'indices' else 256,
                                        executor='nccl' if way.startswith('chunks') else 'torch')
        out = redistribution(local_of(src, values, rank, device))
        gathered = [torch.empty_like(out) for _ in range(P)]
        tdist.all_gather(gathered, out)
        gathered = [x.cpu() for x in gathered]
        for i in range(dst.size):
            for k in range(dst.replicas):
                r, o = dst.locate(i, k)
                if gathered[r][o] != values[i]:
                    print('rank %d: %s -> %s, %s: element %d replica %d wrong' % (rank, a, b, dtype, i, k), flush=True)
                    sys.exit(1)
        checked += 1
        if rank == 0:
            print('%-48s -> %-48s %-16s %-9s ok%s' % (a, b, str(dtype), way,
                                                 ' (all_to_all)' if redistribution.plan.all_to_all else ''),
                  flush=True)
    # Ranks that planned different redistributions fail before moving data.
    other = Dist('dist((8,8), %d, Shard(%d))' % (P, rank % 2))
    try:
        Redistribution(Dist('dist((8,8), %d, Shard(0))' % P), other, torch.float32, device)
        refused = False
    except RuntimeError:
        refused = True
    if P > 1 and not refused:
        print('rank %d: different plans were not refused' % rank, flush=True)
        sys.exit(1)
    tdist.barrier()
    if rank == 0:
        print('gpu-redistribute: %d pairs OK on %d GPUs (%s), ways %s' % (checked, P, torch.cuda.get_device_name(0),
                                                                      ', '.join(ways)), flush=True)
    tdist.destroy_process_group()


if __name__ == '__main__':
    main()
