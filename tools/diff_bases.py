#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Differential check of scaled-basis (coordinate) layouts against CuTe C++.

    tools/diff_bases.py --cutlass /path/to/cutlass [--tool build/src/cli/cute-layout] [--seed N]

Generates random coordinate layouts (flat and nested shapes, strides k@i
and E<i,j>, which CuTe prints 1@j@i) and identity tensors, puts each through
coalesce, the divides, composition with an integer layout, slicing,
evaluation, local_tile and local_partition, compiles one CuTe program that
prints CuTe's answers (every integer static), runs the same expressions
through `cute-layout eval -`, and reports every line where they differ
(exit 1).  Only operations CuTe compiles are generated: a static_assert
would stop the whole program.  Needs g++ and a CUDA include directory
(cute's headers include cuda's); not run by the test suite, which has no
CUTLASS.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))


def layout_ops(rng, exprs):
    """Coordinate layouts through coalesce, the divides, slicing, evaluation and composition."""
    def basis(scale, mode):
        return ('Int<%d>{}*E<%d>{}' % (scale, mode) if scale != 1 else 'E<%d>{}' % mode, '%d@%d' % (scale, mode))
    for k in range(160):
        a, b = rng.choice([2,4,8]), rng.choice([2,4,8,6])
        sa, sb = rng.choice([1,2]), rng.choice([1,2,4])
        ma, mb = rng.choice([(0,1),(1,0),(0,0),(1,1)])
        nested = rng.random() < 0.3
        ca, ta = basis(sa, ma); cb, tb = basis(sb, mb)
        if nested and a >= 4:
            a1 = 2; a2 = a // 2
            cshape = 'make_shape(make_shape(Int<%d>{},Int<%d>{}),Int<%d>{})' % (a1, a2, b)
            cb2, tb2 = basis(sa*a1, ma)
            cstride = 'make_stride(make_stride(%s,%s),%s)' % (ca, cb2, cb)
            text = '((%d,%d),%d):((%s,%s),%s)' % (a1, a2, b, ta, tb2, tb)
        else:
            cshape = 'make_shape(Int<%d>{},Int<%d>{})' % (a, b)
            cstride = 'make_stride(%s,%s)' % (ca, cb)
            text = '(%d,%d):(%s,%s)' % (a, b, ta, tb)
        L = 'make_layout(%s,%s)' % (cshape, cstride)
        t1 = rng.choice([d for d in [1,2,4,8] if a % d == 0]); t2 = rng.choice([d for d in [1,2,3,4] if b % d == 0])
        tiler_c = 'make_tile(Layout<Int<%d>,Int<1>>{},Layout<Int<%d>,Int<1>>{})' % (t1, t2)
        tiler_t = '(%d:1,%d:1)' % (t1, t2)
        op = k % 8
        if op == 0: exprs.append(('coalesce(%s)' % L, 'coalesce(%s)' % text))
        elif op == 1: exprs.append(('logical_divide(%s,%s)' % (L, tiler_c), 'logical_divide(%s,%s)' % (text, tiler_t)))
        elif op == 2: exprs.append(('zipped_divide(%s,%s)' % (L, tiler_c), 'zipped_divide(%s,%s)' % (text, tiler_t)))
        elif op == 3: exprs.append(('tiled_divide(%s,%s)' % (L, tiler_c), 'tiled_divide(%s,%s)' % (text, tiler_t)))
        elif op == 4: exprs.append(('flat_divide(%s,%s)' % (L, tiler_c), 'flat_divide(%s,%s)' % (text, tiler_t)))
        elif op == 5:
            n = rng.randrange(b)
            exprs.append(('slice(make_coord(_,Int<%d>{}),%s)' % (n, L), 'slice((_,%d),%s)' % (n, text)))
        elif op == 6:
            i = rng.randrange(a*b)
            exprs.append(('%s(Int<%d>{})' % (L, i), 'crd2idx(%d,%s)' % (i, text)))
        else:
            # composition with an integer layout inside the domain: (t1,t2):(1,a)
            B_c = 'make_layout(make_shape(Int<%d>{},Int<%d>{}),make_stride(Int<1>{},Int<%d>{}))' % (t1, t2, a)
            exprs.append(('composition(%s,%s)' % (L, B_c), 'composition(%s,(%d,%d):(1,%d))' % (text, t1, t2, a)))


def tensor_ops(rng, exprs):
    """Identity tensors tiled and partitioned, and nested bases (E<0,1> prints 1@1@0)."""
    for k in range(120):
        M, N = rng.choice([4,8,6,12]), rng.choice([4,8,10,16])
        tm = rng.choice([d for d in [2,4] if True]); tn = rng.choice([2,4,8])
        bm, bn = rng.randrange((M+tm-1)//tm), rng.randrange((N+tn-1)//tn)
        I = 'make_identity_tensor(make_shape(Int<%d>{},Int<%d>{}))' % (M, N)
        It = 'make_identity_tensor((%d,%d))' % (M, N)
        op = k % 4
        if op == 0:
            exprs.append(('local_tile(%s,make_shape(Int<%d>{},Int<%d>{}),make_coord(Int<%d>{},Int<%d>{}))' % (I, tm, tn, bm, bn),
                          'local_tile(%s,(%d,%d),(%d,%d))' % (It, tm, tn, bm, bn)))
        elif op == 1:
            tid = rng.randrange(8)
            exprs.append(('local_partition(%s,Layout<Shape<_2,_4>,Stride<_4,_1>>{},Int<%d>{})' % (I, tid),
                          'local_partition(%s,(2,4):(4,1),%d)' % (It, tid)))
        elif op == 2:
            # nested bases E<i,j>
            exprs.append(('make_layout(make_shape(Int<%d>{},Int<%d>{}),make_stride(E<0,1>{},Int<2>{}*E<1>{}))' % (M, N),
                          '(%d,%d):(1@1@0,2@1)' % (M, N)))
            L = 'make_layout(make_shape(Int<%d>{},Int<%d>{}),make_stride(E<0,1>{},Int<2>{}*E<1>{}))' % (M, N)
            i = rng.randrange(M*N)
            exprs.append(('%s(Int<%d>{})' % (L, i), 'crd2idx(%d,(%d,%d):(1@1@0,2@1))' % (i, M, N)))
            exprs.append(('coalesce(%s)' % L, 'coalesce((%d,%d):(1@1@0,2@1))' % (M, N)))
        else:
            exprs.append(('zipped_divide(make_identity_layout(make_shape(Int<%d>{},Int<%d>{})),make_shape(Int<%d>{},Int<%d>{}))' % (M, N, tm, tn) if M % tm == 0 and N % tn == 0 else 'coalesce(make_identity_layout(make_shape(Int<%d>{},Int<%d>{})))' % (M,N),
                          'zipped_divide(make_identity_layout((%d,%d)),(%d,%d))' % (M, N, tm, tn) if M % tm == 0 and N % tn == 0 else 'coalesce(make_identity_layout((%d,%d)))' % (M,N)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--cutlass', required=True)
    ap.add_argument('--cuda-include', default='/usr/local/cuda/include')
    ap.add_argument('--tool', default=os.path.join(ROOT, 'build', 'src', 'cli', 'cute-layout'))
    ap.add_argument('--seed', type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    exprs = []
    layout_ops(rng, exprs)
    tensor_ops(rng, exprs)
    with tempfile.TemporaryDirectory() as work:
        src, exe = os.path.join(work, 'oracle.cpp'), os.path.join(work, 'oracle')
        with open(src, 'w') as f:
            f.write('#include <cute/tensor.hpp>\nusing namespace cute;\nint main() {\n')
            f.writelines('  print(%s); print("\\n");\n' % c for c, _ in exprs)
            f.write('}\n')
        subprocess.run(['g++', '-std=c++17', '-O0', '-I' + os.path.join(args.cutlass, 'include'),
                        '-I' + os.path.join(args.cuda_include, 'cccl'), '-I' + args.cuda_include, src, '-o', exe],
                       check=True)
        cute = subprocess.run([exe], capture_output=True, text=True, check=True).stdout.replace('_', '').splitlines()
    ours = subprocess.run([args.tool, 'eval', '-'], input=''.join(t + '\n' for _, t in exprs),
                          capture_output=True, text=True).stdout.splitlines()
    bad = [(t, c, o) for (_, t), c, o in zip(exprs, cute, ours) if c != o]
    for t, c, o in bad:
        print('%s\n  CuTe:        %s\n  cute-layout: %s' % (t, c, o))
    print('%d expressions, %d differ' % (len(exprs), len(bad)))
    return 1 if bad or len(ours) != len(exprs) else 0


if __name__ == '__main__':
    sys.exit(main())
