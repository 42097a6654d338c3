# SPDX-License-Identifier: BSD-3-Clause
"""Random and hostile arguments for every entry point of the compiled
extension and the Python calls on it: random nested tuples, wrong types,
huge integers, text with NULs, deep nesting.  Each call must return a value
or raise an ordinary exception (TypeError, ValueError, OverflowError,
IndexError, RecursionError, the package's errors); nothing may crash.  Run
under ASan/UBSan (a -Db_sanitize build, where the suite preloads the
runtimes), it also checks that no path reads or writes out of bounds; and
the same rounds run again must not grow the process (a leaked handle or
reference per call would).

    test_fuzz.py [--seed N] [--rounds N]"""
import argparse
import ctypes
import gc
import os
import random
import sys

import cutelayout as cl
from cutelayout import _handles, pycute

# (ctypes.ArgumentError: a ctypes call's refusal of an argument of the wrong
# kind, on the paths the extension does not take.)
ALLOWED = (TypeError, ValueError, OverflowError, IndexError, RecursionError, cl.CuteLayoutError, ZeroDivisionError,
           NotImplementedError, ctypes.ArgumentError, BufferError)
HUGE = [2**31, 2**63 - 1, -2**63, 2**63, 2**64, -2**64, 10**30]


def value(rng, depth=0):
    """A random argument: mostly int tuples (sometimes valid shapes),
    sometimes anything."""
    r = rng.random()
    if r < 0.45 or depth > 4:
        return rng.choice([0, 1, 2, 3, 4, 8, -1, -2, 16]) if rng.random() < 0.95 else rng.choice(HUGE)
    if r < 0.8:
        return tuple(value(rng, depth + 1) for _ in range(rng.randint(0, 4)))
    return rng.choice([None, cl._, '_', 'x', '4:1', '(2,2):(1,2)\x00junk', '\x00', '', 2.5, True, b'(2,3)', [1, 2],
                       {1: 2}, object(), slice(None), slice(1, 2), cl.E(0), 3 * cl.E(1, 0), cl.Layout('4:2'),
                       cl.LayoutRight, cl.Swizzle(1, 1, 1), (2**70,), ((((((((1,),),),),),),),)])


def layout(rng):
    """A random Layout, or None when the random value is none."""
    try:
        if rng.random() < 0.5:
            return cl.Layout(value(rng))
        return cl.Layout(value(rng), value(rng))
    except ALLOWED:
        return None


def deep(n):
    t = 1
    for _ in range(n):
        t = (t,)
    return t


def calls(rng, a, b, x, y):
    """Each entry point with random arguments (a, b: layouts or None; x, y: values)."""
    native = _handles.native
    yield lambda: cl.Layout(x)
    yield lambda: cl.Layout(x, y)
    yield lambda: cl.Layout(x, cl.LayoutRight)
    yield lambda: _handles.Tuple(x).value()
    yield lambda: cl.product(x)
    yield lambda: cl.flatten(x)
    yield lambda: cl.shape_div(x, y)
    yield lambda: cl.idx2crd(x, y)
    yield lambda: pycute.Layout(x, y)
    yield lambda: pycute.prefix_product(x)
    yield lambda: pycute.crd2idx(x, y)
    if native is not None:
        yield lambda: native.tuple_value(x)
        yield lambda: native.composition(x, y)
        yield lambda: native.complement(x)
        yield lambda: native.concat(x, y)
        if not isinstance(x, int):  # (an int is taken as an address, which no fuzzer may invent)
            yield lambda: native.Layout._adopt(x)
            yield lambda: native.Tuple.adopt(x)
    if a is None:
        return
    yield lambda: a(x)
    yield lambda: a(x, y)
    yield lambda: a[x]
    yield lambda: a.slice(x)
    yield lambda: cl.composition(a, x)
    yield lambda: cl.logical_divide(a, x)
    yield lambda: cl.zipped_divide(a, x)
    yield lambda: cl.logical_product(a, x)
    yield lambda: cl.complement(a, x)
    yield lambda: cl.tile_to_shape(a, x, y)
    yield lambda: cl.coalesce(a, x)
    yield lambda: (a.shape, a.stride, str(a), hash(a), a.size(), a.cosize(), a.rank(), a.depth())
    yield lambda: pycute.Layout(a)(x)
    if a.size() < 4096:
        yield lambda: a.indices()
        if native is not None:
            out = bytearray(8 * rng.randint(0, 40)) if rng.random() < 0.5 else memoryview(bytearray(12)).cast('i')
            yield lambda: native.eval_into(a._as_parameter_, 0, x, out)
            yield lambda: native.eval_into(a._as_parameter_, 0, 0, memoryview(out).cast('q')
                                           if len(out) % 8 == 0 and isinstance(out, bytearray) else out)
            yield lambda: native.eval_into(a._as_parameter_, 0, 0, b'read-only')
    if a.size() < 4096 and not a.is_coordinate:
        # elements of a tensor through a: random keys and values, every dtype
        dtype = rng.choice(['int8', 'uint16', 'int32', 'uint64', 'int64', 'float16', 'bfloat16', 'float32', 'float64',
                            None])
        try:
            t = cl.Tensor.zeros(a, dtype, elem_size=0 if dtype else 3)
        except ALLOWED:
            t = None
        if t is not None:
            yield lambda: t[x]
            yield lambda: t.__setitem__(x, y)
            yield lambda: t.__setitem__(rng.randrange(max(a.size(), 1)), y)
            if native is not None:
                yield lambda: native.tensor_load(t._as_parameter_, x)
                yield lambda: native.tensor_store(t._as_parameter_, x, y)
    if b is None:
        return
    for name in ('composition', 'logical_divide', 'zipped_divide', 'tiled_divide', 'flat_divide', 'logical_product',
                 'zipped_product', 'tiled_product', 'flat_product', 'blocked_product', 'raked_product'):
        yield lambda name=name: getattr(cl, name)(a, b)
    yield lambda: cl.make_layout(a, b)
    yield lambda: cl.right_inverse(a)
    yield lambda: cl.left_inverse(b)
    yield lambda: a == b


def fuzz(rng, rounds):
    """(calls that returned, calls that raised) over `rounds` random rounds."""
    ok = failed = 0
    for _ in range(rounds):
        a, b, x, y = layout(rng), layout(rng), value(rng), value(rng)
        for call in calls(rng, a, b, x, y):
            try:
                call()
                ok += 1
            except ALLOWED:
                failed += 1
    return ok, failed


def resident_bytes():
    with open('/proc/self/statm') as f:
        return int(f.read().split()[1]) * 4096


def leak_calls():
    """Each entry point once, on good and on bad arguments."""
    A, B = cl.Layout((4, 8), (8, 1)), cl.Layout((2, 4), (1, 2))
    native = _handles.native
    good = [lambda: cl.Layout((4, 8), (8, 1)), lambda: cl.Layout('(4,8):(8,1)'), lambda: cl.Layout(A),
            lambda: A(13), lambda: A((1, 2)), lambda: A(1, 2), lambda: cl.Layout((2, 3)).shape,
            lambda: cl.make_identity_layout((2, 3)).stride, lambda: str(A), lambda: hash(cl.Layout(A)),
            lambda: cl.composition(A, B), lambda: cl.composition(A, (cl.Layout(2, 1), None)),
            lambda: cl.complement(B, 64), lambda: cl.complement(B), lambda: cl.complement(B, (8, 8)),
            lambda: cl.logical_divide(A, (2, 2)), lambda: cl.blocked_product(B, A), lambda: cl.make_layout(A, B),
            lambda: cl.right_inverse(A), lambda: cl.coalesce(A), lambda: _handles.Tuple(((1, 2), cl.E(0))).value(),
            lambda: A[:, 2], lambda: A.indices(), lambda: pycute.Layout((4, 8), (8, 1))[1]]
    bad = [lambda: cl.Layout(('2', 3)), lambda: cl.Layout((-1, 2)), lambda: cl.Layout('(2,2):(1,2)\x00'),
           lambda: cl.Layout((2, 2), (1, 2, 3)), lambda: cl.Layout(((2, 'x'), 2)), lambda: A((9, 9)),
           lambda: cl.composition(cl.Layout((2, 3), (3, 1)), cl.Layout(2, 3)), lambda: cl.Layout((2**64, 2)),
           lambda: cl.complement(cl.Layout((4, 4), (8, 8)))]
    if native is not None:
        buffer = bytearray(8 * 32)
        T = cl.Tensor.zeros(A, 'float32')
        good += [lambda: native.tuple_value(((1, 2), 3)), lambda: native.eval_into(A._as_parameter_, 0, 0, buffer),
                 lambda: T[5], lambda: T[(1, 2)], lambda: T.__setitem__(5, 2.5), lambda: T.__setitem__((1, 2), 1)]
        bad += [lambda: T[99], lambda: T[(1, 9)], lambda: T.__setitem__((9, 1), 1.0), lambda: T[(1, 'x')],
                lambda: T[2**70]]
        bad += [lambda: native.composition(A, 'x'), lambda: native.eval_into(A._as_parameter_, 0, 5, buffer),
                lambda: native.Layout._adopt('x')]
    return good + bad


def growth(calls, times=2000):
    """How much the process grows, after a warm-up, when each call runs
    `times` times: a handle or a reference leaked by one of them grows it by
    `times` times its size (a hundred bytes or so)."""
    def run():
        for call in calls:
            for _ in range(times):
                try:
                    call()
                except ALLOWED:
                    pass
        gc.collect()
    run()
    start = resident_bytes()
    run()
    return resident_bytes() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seed', type=int, default=24)
    ap.add_argument('--rounds', type=int, default=3000)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    # Nesting deeper than the interpreter's recursion limit: RecursionError.
    for call in (lambda: cl.Layout(deep(100000)), lambda: cl.Layout('4:1')(deep(100000)),
                 lambda: _handles.Tuple(deep(100000))):
        try:
            call()
        except ALLOWED:
            pass
    ok, failed = fuzz(rng, args.rounds)
    print('%d calls returned, %d raised an ordinary exception (seed %d, extension %s)'
          % (ok, failed, args.seed, 'on' if _handles.native else 'off'))
    if os.path.exists('/proc/self/statm') and not os.environ.get('LD_PRELOAD'):  # (not under ASan's allocator)
        calls = leak_calls()
        grown = growth(calls)
        print('the process grew by %d bytes over %d calls of %d entry points' % (grown, 2000 * len(calls), len(calls)))
        if grown > 64 << 10:
            print('FAIL: a leak (2000 calls of one entry point leaking 32 bytes each grow it by 64 KiB)')
            return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
