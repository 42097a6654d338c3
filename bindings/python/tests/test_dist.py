# SPDX-License-Identifier: BSD-3-Clause
"""Tests of cutelayout.dist: the module's examples, distributions against
DTensor's rule for Shard, plans run on simulated ranks (every element
arrives, in the order both sides list), and the errors."""
import ctypes
import doctest
import unittest

import cutelayout
import cutelayout.dist as dist
from cutelayout import Layout
from cutelayout.dist import Dist, Plan, placements


def simulate(src, dst):
    """Every rank's plan run on Python lists: the destination buffers."""
    P = src.ranks
    src_buf = [[None] * src.local_size for _ in range(P)]
    for i in range(src.size):
        for k in range(src.replicas):
            r, o = src.locate(i, k)
            src_buf[r][o] = i
    dst_buf = [[None] * dst.local_size for _ in range(P)]
    plans = [Plan(src, dst, 4, r) for r in range(P)]
    for s in range(P):
        for q in range(P):
            wire = [src_buf[s][o] for o in plans[s].offsets(q, 'send')]
            into = plans[q].offsets(s, 'recv')
            assert len(wire) == len(into)
            for o, v in zip(into, wire):
                dst_buf[q][o] = v
    return dst_buf, plans


class TestDist(unittest.TestCase):
    def test_examples(self):
        failed, _ = doctest.testmod(dist)
        self.assertEqual(failed, 0)

    def test_shard_as_dtensor(self):
        # torch.chunk's rule: blocks of ceil(n / P), the last ones short.
        for n in range(1, 12):
            for P in (1, 2, 4):
                d = Dist('dist(%d, %d, Shard(0))' % (n, P))
                block = -(-n // P)
                self.assertEqual([d.locate(i) for i in range(n)], [(i // block, i % block) for i in range(n)])

    def test_views(self):
        d = placements((6, 10), (2, 2), ('Shard', 0), ('Replicate',))
        self.assertEqual(d.ranks, 4)
        self.assertEqual(d.replicas, 2)
        self.assertEqual(d.size, 60)
        self.assertEqual(d.shape, (6, 10))
        self.assertEqual(d.local_size, 30)
        self.assertEqual(str(Dist(str(d))), str(d))
        self.assertEqual(repr(d), 'Dist(%r)' % str(d))
        self.assertIsInstance(d.layout, Layout)
        self.assertEqual(d.layout.rank(), 3)
        self.assertEqual(str(placements(8, 2, ('BlockCyclic', 0, 2))), str(Dist('dist(8, 2, BlockCyclic(0,2))')))
        self.assertEqual(str(placements(8, 2, ('StridedShard', 0, 2))), str(Dist('dist(8, 2, StridedShard(0,2))')))

    def test_plans(self):
        texts = ['dist((6,10), 4, Shard(0))', 'dist((6,10), 4, Shard(1))', 'dist((6,10), (2,2), Shard(0), Shard(1))',
                 'dist((6,10), (2,2), Replicate, Shard(1))', 'dist((6,10), 4, BlockCyclic(1,3))',
                 'dist((6,10), 4, Replicate)']
        for a in texts:
            for b in texts:
                src, dst = Dist(a), Dist(b)
                out, plans = simulate(src, dst)
                for i in range(dst.size):
                    for k in range(dst.replicas):
                        r, o = dst.locate(i, k)
                        self.assertEqual(out[r][o], i, '%s -> %s' % (a, b))
                self.assertEqual(len({p.hash for p in plans}), 1)
                self.assertEqual([p.rank for p in plans], list(range(4)))
                self.assertTrue(all(p.ranks == 4 and p.elem_size == 4 for p in plans))
        p = Plan(Dist(texts[0]), Dist(texts[1]), 2, 0)
        self.assertFalse(p.all_to_all)  # 6 rows over 4 ranks: uneven
        p = Plan(Dist('dist((8,8), 4, Shard(0))'), Dist('dist((8,8), 4, Shard(1))'), 2, 0)
        self.assertTrue(p.all_to_all)
        self.assertEqual(p.count(1, 'recv'), (4, 1))

    def test_errors(self):
        with self.assertRaises(cutelayout.ParseError):
            Dist('dist(8, 2, Foo)')
        with self.assertRaises(cutelayout.NotInjectiveError):
            Dist('dist(8, 2, 4, 8:0)')
        with self.assertRaises(cutelayout.BoundsError):
            Dist('dist(8, 2, 4, 8:2)')
        with self.assertRaises(cutelayout.UnsupportedError):
            Dist('dist(8, (2,2), Shard(0), BlockCyclic(0,2))')
        with self.assertRaises(ValueError):
            placements(8, 2, ('Sharded', 0))
        a, b = Dist('dist((8,8), 2, Shard(0))'), Dist('dist((8,4), 2, Shard(0))')
        with self.assertRaises(cutelayout.RankError):
            Plan(a, b, 4, 0)
        with self.assertRaises(cutelayout.DomainError):
            Plan(a, a, 4, 2)
        with self.assertRaises(cutelayout.DomainError):
            a.locate(64)
        p = Plan(a, a, 4, 0)
        with self.assertRaises(ValueError):
            p.count(0, 'sideways')
        with self.assertRaises(cutelayout.DomainError):
            p.pieces(5, 'recv')

    def test_nccl_library(self):
        # The C executor's library: loaded where it is built, its argument
        # checks answered without a GPU; a clear OSError where it is missing.
        if not dist.nccl_available():
            saved, dist._nccl = dist._nccl, None
            with self.assertRaisesRegex(OSError, 'libcutelayout-nccl not found'):
                dist._nccl_library()
            dist._nccl = saved
            return
        lib = dist._nccl_library()
        self.assertIs(lib, dist._nccl_library())
        self.assertEqual(lib.cl_nccl_exec_staging_bytes(None), 0)
        plan = Plan(Dist('dist((4,4), 2, Shard(0))'), Dist('dist((4,4), 2, Shard(1))'), 4, 0)
        out = ctypes.c_void_p()
        with self.assertRaisesRegex(cutelayout.NullArgumentError, "'comm'"):
            cutelayout._ffi.check(lib.cl_nccl_exec_new(plan, None, ctypes.byref(out)))
        with self.assertRaises(cutelayout.NullArgumentError):
            cutelayout._ffi.check(lib.cl_nccl_exec_run(None, None, None, None))
        lib.cl_nccl_exec_free(None)


if __name__ == '__main__':
    unittest.main()
