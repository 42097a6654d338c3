#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The `algebra` workloads of cute-layout-bench, timed with pycute.

pycute is the Python reference implementation that ships with CUTLASS
(python/pycute).  Run it from a CUTLASS checkout, not part of this project:

    PYTHONPATH=/path/to/cutlass/python python3 bench/pycute_algebra.py

Each line gives the median time of one call, in cute-layout-bench's format
with no ratio: compare it with `cute-layout-bench algebra`.  pycute has no
blocked_product or raked_product; they are built here from pycute's own
logical_product the way CuTe defines them (the two modes of the product zipped
mode by mode), so their figures are those of that composition.
"""
import statistics
import timeit

from pycute import (Layout, coalesce, complement, composition, logical_divide,
                    logical_product, make_layout, right_inverse)


def zip_modes(first, second):
    """((first_0, second_0), (first_1, second_1), ...) of two rank-R layouts."""
    return make_layout(*(make_layout(first[i], second[i]) for i in range(len(first))))


def blocked_product(block, tiler):
    product = logical_product(block, tiler)
    return zip_modes(product[0], product[1])


def raked_product(block, tiler):
    product = logical_product(block, tiler)
    return zip_modes(product[1], product[0])


L = Layout
# The same inputs as bench/bench_algebra.c, in the same order.
WORKLOADS = [
    ("composition-doc", lambda a, b: composition(a, b), L((6, 2), (8, 2)), L((4, 3), (3, 1))),
    ("composition-doc2", lambda a, b: composition(a, b), L(20, 2), L((5, 4), (4, 1))),
    ("composition-gemm", lambda a, b: composition(a, b), L((128, 64), (64, 1)), L(((32, 4), (8, 2)), ((4, 512), (1, 32)))),
    ("complement-doc", lambda a, b: complement(a, b), L((2, 2), (1, 6)), 24),
    ("complement-gemm", lambda a, b: complement(a, b), L(((4, 8), (2, 4)), ((1, 32), (4, 256))), 4096),
    ("logical_divide-doc", lambda a, b: logical_divide(a, b), L((4, 2, 3), (2, 1, 8)), L(4, 2)),
    ("logical_divide-gemm", lambda a, b: logical_divide(a, b), L((128, 128), (1, 128)), (L(32, 1), L(16, 1))),
    ("logical_product-doc", lambda a, b: logical_product(a, b), L((2, 2), (4, 1)), L(6, 1)),
    ("logical_product-gemm", lambda a, b: logical_product(a, b), L((8, 8), (8, 1)), L((4, 16), (16, 1))),
    ("blocked_product-doc", blocked_product, L((2, 5), (5, 1)), L((3, 4), (1, 3))),
    ("raked_product-doc", raked_product, L((2, 5), (5, 1)), L((3, 4), (1, 3))),
    ("right_inverse-doc", lambda a, b: right_inverse(a), L((4, 8), (8, 1)), None),
    ("right_inverse-gemm", lambda a, b: right_inverse(a), L(((8, 4), (4, 2)), ((4, 128), (1, 32))), None),
    ("coalesce-doc", lambda a, b: coalesce(a), L((2, (1, 6)), (1, (6, 2))), None),
    ("coalesce-hier", lambda a, b: coalesce(a), L(((4, 8), (2, (2, 4))), ((2, 16), (1, (8, 128)))), None),
]


def main():
    for name, fn, a, b in WORKLOADS:
        calls = 2000
        runs = timeit.repeat(lambda: fn(a, b), number=calls, repeat=15)
        ns = statistics.median(runs) / calls * 1e9
        print(f"algebra/{name}  {ns:.0f} ns  pycute  -> {fn(a, b)}")


if __name__ == "__main__":
    main()
