#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The Python package (its compiled extension) against pycute, CUTLASS's pure
Python layout algebra, in the same process on the same small layouts: for
each operation the median time per call of each, and the ratio pycute /
cutelayout (above 1: cutelayout is faster) with its spread over the repeats.

    PYTHONPATH=<build>/bindings/python /usr/bin/python3 bench/python_vs_pycute.py \\
        --pycute /work/cutlass/python [--repeats 9] [--budget 0.02]

pycute is imported from --pycute, else $PYCUTE_PATH, else wherever Python
finds it; without it the bench says so and exits 77 (skipped).  Each repeat
times both sides back to back (timeit, a loop of about --budget seconds), so
a slow moment of the machine touches both; the times are the thread's CPU
time (time.thread_time), so that other processes' work on a shared machine
is not counted.  The ratio of a repeat is pycute's time over cutelayout's,
and the table gives the median ratio and the lowest and highest."""
import argparse
import os
import platform
import statistics
import sys
import time
import timeit


def processor():
    try:
        with open('/proc/cpuinfo') as f:
            for line in f:
                if line.startswith('model name'):
                    return line.split(':', 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or 'unknown processor'


def cases(cl, pc):
    """(name, cutelayout call, pycute call): the same operation on the same
    layouts, each a closure over values made beforehand."""
    a_cl, a_pc = cl.Layout((4, 8), (8, 1)), pc.Layout((4, 8), (8, 1))
    b_cl, b_pc = cl.Layout((2, 4), (1, 2)), pc.Layout((2, 4), (1, 2))
    t_cl, t_pc = cl.Layout(4, 2), pc.Layout(4, 2)
    big_cl, big_pc = cl.Layout(((4, 2), (4, 8)), ((1, 64), (4, 256))), pc.Layout(((4, 2), (4, 8)), ((1, 64), (4, 256)))
    tile_cl, tile_pc = (cl.Layout(2, 1), cl.Layout(4, 1)), (pc.Layout(2, 1), pc.Layout(4, 1))
    return [
        ('Layout((4,8),(8,1))', lambda: cl.Layout((4, 8), (8, 1)), lambda: pc.Layout((4, 8), (8, 1))),
        ('Layout((4,8))', lambda: cl.Layout((4, 8)), lambda: pc.Layout((4, 8))),
        # made and used once: a layout made from tuples builds its library handle on first use
        ('Layout((4,8),(8,1))(13)', lambda: cl.Layout((4, 8), (8, 1))(13), lambda: pc.Layout((4, 8), (8, 1))(13)),
        ('L(13)', lambda: a_cl(13), lambda: a_pc(13)),
        ('L((1,2))', lambda: a_cl((1, 2)), lambda: a_pc((1, 2))),
        ('L.shape', lambda: big_cl.shape, lambda: big_pc.shape),
        ('composition(A,B)', lambda: cl.composition(a_cl, b_cl), lambda: pc.composition(a_pc, b_pc)),
        ('composition(big,(2:1,4:1))', lambda: cl.composition(big_cl, tile_cl),
         lambda: pc.composition(big_pc, tile_pc)),
        ('complement(4:2,32)', lambda: cl.complement(t_cl, 32), lambda: pc.complement(t_pc, 32)),
        ('right_inverse(A)', lambda: cl.right_inverse(a_cl), lambda: pc.right_inverse(a_pc)),
        ('left_inverse(A)', lambda: cl.left_inverse(a_cl), lambda: pc.left_inverse(a_pc)),
        ('coalesce(big)', lambda: cl.coalesce(big_cl), lambda: pc.coalesce(big_pc)),
        ('logical_divide(A,4:2)', lambda: cl.logical_divide(a_cl, t_cl), lambda: pc.logical_divide(a_pc, t_pc)),
        ('zipped_divide(big,tiler)', lambda: cl.zipped_divide(big_cl, tile_cl),
         lambda: pc.zipped_divide(big_pc, tile_pc)),
        ('tiled_divide(big,tiler)', lambda: cl.tiled_divide(big_cl, tile_cl),
         lambda: pc.tiled_divide(big_pc, tile_pc)),
        ('logical_product(B,4:2)', lambda: cl.logical_product(b_cl, t_cl), lambda: pc.logical_product(b_pc, t_pc)),
        ('zipped_product(B,4:2)', lambda: cl.zipped_product(b_cl, t_cl), lambda: pc.zipped_product(b_pc, t_pc)),
        ('blocked_product(B,A)', lambda: cl.blocked_product(b_cl, a_cl), None),
    ]


# The thread's CPU time, not the wall clock: on a shared machine another
# process's work then does not count as either side's (what remains, the
# caches and the clock frequency they share, touches both sides of a repeat).
TIMER = time.thread_time


def per_call(fn, number):
    return timeit.Timer(fn, timer=TIMER).timeit(number=number) / number


def loops(fn, budget):
    """How many calls take about `budget` seconds."""
    n = 1
    while True:
        t = timeit.Timer(fn, timer=TIMER).timeit(number=n)
        if t > budget / 10 or n >= 1 << 24:
            return max(1, int(n * budget / max(t, 1e-9)))
        n *= 10


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--pycute', default=os.environ.get('PYCUTE_PATH'),
                        help='the directory holding pycute/ (CUTLASS: python/)')
    parser.add_argument('--repeats', type=int, default=9)
    parser.add_argument('--budget', type=float, default=0.02, help='seconds per timed loop')
    args = parser.parse_args()
    if args.pycute:
        sys.path.insert(0, args.pycute)
    try:
        import pycute as pc
    except ImportError:
        print('pycute not found (give --pycute or PYCUTE_PATH): skipped')
        return 77
    import cutelayout as cl
    from cutelayout import _handles
    print('cutelayout %s (%s) against pycute, Python %s, %s' % (
        cl.version(), 'compiled extension' if _handles.native else 'ctypes only', platform.python_version(),
        processor()))
    print('median of %d repeats of thread CPU time per call; ratio = pycute time / cutelayout time '
          '(min..max over the repeats)\n' % args.repeats)
    print('%-28s %12s %12s %9s %17s' % ('operation', 'cutelayout', 'pycute', 'ratio', 'spread'))
    for name, fast, slow in cases(cl, pc):
        n_fast = loops(fast, args.budget)
        n_slow = loops(slow, args.budget) if slow else 0
        t_fast, t_slow, ratios = [], [], []
        for _ in range(args.repeats):
            t_fast.append(per_call(fast, n_fast))
            if slow:
                t_slow.append(per_call(slow, n_slow))
                ratios.append(t_slow[-1] / t_fast[-1])
        f = statistics.median(t_fast)
        if not slow:
            print('%-28s %10.3f us %12s %9s %17s' % (name, f * 1e6, '(none)', '', ''))
            continue
        print('%-28s %10.3f us %9.3f us %8.1fx %8.1fx..%.1fx' % (name, f * 1e6, statistics.median(t_slow) * 1e6,
                                                              statistics.median(ratios), min(ratios), max(ratios)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
