# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the Python package's coordinate tensors (CuTe's identity tensors
and CUTLASS's predication), the rest of CuTe's int-tuple and layout
functions, the whitepaper's algebra and the copy plan.  Expected values are
the headers' documented examples, CuTe's documentation
(0y_predication.md) and the functions' defining properties; each function
is also checked against `cute-layout eval`, the same library through the
tool's language, so the Python dispatch cannot pick the wrong C function."""
import itertools
import os
import subprocess
import unittest

import cutelayout as cl
from cutelayout import E, CoordTensor, Layout, _
from cutelayout._library import tool as tool_path


def tool_eval(expr):
    out = subprocess.run([tool_path(), 'eval', expr], capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError('%s: %s' % (expr, out.stderr.strip()))
    return out.stdout.strip()


class TestCoordTensors(unittest.TestCase):
    def test_identity_tensor(self):
        C = cl.make_identity_tensor((4, 8))
        self.assertIsInstance(C, CoordTensor)
        self.assertEqual(str(C), 'ArithTuple(0,0) o (4,8):(1@0,1@1)')
        self.assertEqual(C.origin, (0, 0))
        self.assertEqual(C.layout, Layout('(4,8):(1@0,1@1)'))
        self.assertEqual(len(C), 32)
        # Each element is its own coordinate.
        for m, n in itertools.product(range(4), range(8)):
            self.assertEqual(C(m, n), (m, n))
            self.assertEqual(C(m + 4 * n), (m, n))

    def test_predication(self):
        # 0y_predication.md: tiles of a 6x10 matrix by 4x4 tiles; the
        # coordinates of tile (1, 2) start at (4, 8), and elem_less against
        # the shape says which are inside.
        C = cl.make_identity_tensor((6, 10))
        tile = cl.local_tile(C, (4, 4), (1, 2))
        self.assertEqual(str(tile), str(tool_eval('local_tile(make_identity_tensor((6,10)),(4,4),(1,2))')))
        self.assertEqual(tile.origin, (4, 8))
        inside = [[cl.elem_less(tile(m, n), (6, 10)) for n in range(4)] for m in range(4)]
        self.assertEqual(inside, [[m + 4 < 6 and n + 8 < 10 for n in range(4)] for m in range(4)])

    def test_partition_and_slice(self):
        C = cl.make_identity_tensor((8, 8))
        part = cl.local_partition(C, Layout('(2,4):(4,1)'), 5)
        self.assertEqual(str(part), tool_eval('local_partition(make_identity_tensor((8,8)),(2,4):(4,1),5)'))
        # Thread 5 of a (2,4):(4,1) thread layout is at (1, 1): it owns every
        # second row from 1 and every fourth column from 1.
        owned = {part(i) for i in range(len(part))}
        self.assertEqual(owned, {(m, n) for m in range(1, 8, 2) for n in range(1, 8, 4)})
        row = C[2, :]
        self.assertEqual(row.origin, (2, 0))
        self.assertEqual([row(j) for j in range(8)], [(2, j) for j in range(8)])
        outer = cl.outer_partition(C, (2, 2), (1, 0))
        self.assertEqual(str(outer), tool_eval('outer_partition(make_identity_tensor((8,8)),(2,2),(1,0))'))

    def test_with_layout_and_coord_tensor(self):
        C = cl.make_identity_tensor((4, 6))
        D = C.with_layout(cl.logical_divide(C.layout, (2, 3)))
        self.assertEqual(D.origin, C.origin)
        self.assertEqual(D.layout, cl.logical_divide(C.layout, (2, 3)))
        T = cl.make_coord_tensor(Layout('(2,3):(1,2)'))
        self.assertEqual(T.origin, 0)
        self.assertEqual([T(i) for i in range(6)], list(range(6)))
        self.assertEqual(str(CoordTensor((1, 2), '(2,2):(1@0,1@1)')(1, 1)), '(2, 3)')

    def test_pictures(self):
        svg = cl.draw(cl.make_identity_tensor((2, 3)))
        self.assertIn('<svg', svg)
        self.assertIn('(1,2)', svg)
        self.assertEqual(svg, cl.make_identity_tensor((2, 3))._repr_svg_())
        with self.assertRaises(ValueError):
            cl.draw(cl.make_identity_tensor((2, 3)), tv=(2, 2))

    def test_errors(self):
        with self.assertRaises(cl.CuteLayoutError):
            cl.make_identity_tensor((_, 2))
        with self.assertRaises(cl.RankError):
            cl.make_identity_tensor((4, 8))[1, 2, 3]
        with self.assertRaises(TypeError):
            cl.local_tile(cl.Tensor.zeros('4:1', 'float32'), 2, 0, proj=(1,))


class TestIntTuples(unittest.TestCase):
    def test_reductions(self):
        self.assertEqual(cl.max((3, (7, 2))), 7)
        self.assertEqual(cl.min((3, (7, 2))), 2)
        self.assertEqual(cl.gcd((12, (18, 30))), 6)
        self.assertEqual(cl.gcd((4, -6)), -2)  # tuple.h: CuTe's sign rule
        with self.assertRaises(cl.DomainError):
            cl.max(())

    def test_shapes(self):
        self.assertEqual(cl.product_each(((2, 3), 4, (5, (1, 2)))), (6, 4, 10))
        self.assertEqual(cl.product_each(6), (6,))
        self.assertEqual(cl.product_like(((2, 3), (4, 5)), (0, 0)), (6, 20))
        self.assertEqual(cl.round_up((7, 9), (4, 3)), (8, 9))
        self.assertEqual(cl.filter_zeros((0, 3), (4, 5)), (1, 5))
        self.assertEqual(cl.filter_zeros((0, 3)), (1, 3))
        self.assertTrue(cl.evenly_divides((8, 6), (4, 3)))
        self.assertFalse(cl.evenly_divides((8, 6), (3, 3)))

    def test_orders(self):
        pairs = [((0, 1), (1, 0)), ((1, 0), (0, 1)), ((1, 1), (1, 1)), ((0, 2), (1, 2))]
        for a, b in pairs:
            self.assertEqual(cl.lex_less(a, b), a < b)
            self.assertEqual(cl.colex_less(a, b), a[::-1] < b[::-1])

    def test_compact_from(self):
        self.assertEqual(cl.compact_col_major((2, 3), 5), (5, 10))
        self.assertEqual(cl.compact_row_major((2, 3), 5), (15, 5))
        self.assertEqual(cl.compact_col_major((2, 3)), (1, 2))

    def test_refinement(self):
        # CuTe's answers (tests/cute_more.tsv).
        self.assertEqual(cl.common_refinement(((2, 3), 20), (6, (4, 5))), ((2, 3), (4, 5)))
        self.assertEqual(cl.common_refinement(30, (2, 15)), (2, 15))
        self.assertEqual(cl.common_coarsening((4, (3, 5)), ((2, 2), 15)), (4, 15))
        with self.assertRaises(cl.DomainError):
            cl.common_refinement((6, 4), (2, 12))

    def test_slice_and_dice(self):
        self.assertEqual(cl.slice((_, 1, _), (4, 5, 6)), (4, 6))
        self.assertEqual(cl.dice((_, 1, _), (4, 5, 6)), (5,))


class TestLayoutFunctions(unittest.TestCase):
    def test_dice_domain_offset(self):
        L = Layout('(2,(3,4)):(12,(1,3))')
        self.assertEqual(cl.dice((1, _), L), Layout('(2):(12)'))
        self.assertEqual(cl.dice((1, _), L), cl.parse(tool_eval('dice((1,_),(2,(3,4)):(12,(1,3)))')))
        layout, offset = cl.domain_offset((1, (2, 1)), L)
        self.assertEqual(layout, L)
        self.assertEqual(offset, L((1, (2, 1))))

    def test_modes(self):
        L = Layout('(2,3):(1,2)')
        self.assertEqual(cl.replace(L, 1, Layout('5:7')), Layout('(2,5):(1,7)'))
        self.assertEqual(cl.append(L, None, 4), Layout('(2,3,1,1):(1,2,0,0)'))
        self.assertEqual(cl.prepend(L, Layout('4:9'), 3), Layout('(4,2,3):(9,1,2)'))
        self.assertEqual(cl.append(L, Layout('4:9')), Layout('(2,3,4):(1,2,9)'))
        with self.assertRaises(cl.DomainError):
            cl.append(L, None, 1)
        self.assertEqual(cl.coprofile(L), 0)
        self.assertEqual(cl.coprofile(cl.make_identity_layout((4, 8))), (0, 0))

    def test_alignment_and_casts(self):
        self.assertEqual(cl.max_alignment(Layout('(4,8):(1,4)')), 32)
        self.assertEqual(cl.max_alignment(Layout('(4,8):(1,8)')), 4)  # runs of 4
        self.assertEqual(cl.recast_layout(Layout('(4,8):(1,4)'), 16, 32), cl.upcast(Layout('(4,8):(1,4)'), 2))
        self.assertEqual(cl.domain_distribute((15, 14), 6), Layout('(3,2):(1,15)'))  # algebra.h's example
        L = Layout('(8,6):(1,8)')
        self.assertEqual(cl.tile_unzip(cl.logical_divide(L, (2, 3)), (2, 3)), cl.zipped_divide(L, (2, 3)))
        S = cl.parse('Sw<1,1,1> o 0 o (8,8):(1,8)')
        self.assertEqual(str(cl.tile_unzip(cl.logical_divide(S, (2, 4)), (2, 4))),
                         tool_eval('tile_unzip(logical_divide(Sw<1,1,1> o 0 o (8,8):(1,8),(2,4)),(2,4))'))
        self.assertEqual(cl.max_alignment(S), int(tool_eval('max_alignment(Sw<1,1,1> o 0 o (8,8):(1,8))')))

    def test_whitepaper(self):
        # algebra.h's examples.
        self.assertEqual(cl.layout_add('(4,3):(1,4)', '(4,3):(3,1)'), Layout('(4,3):(4,5)'))
        self.assertEqual(cl.greatest_common_domain((5, 3, 4), (10, 6)), Layout('(5,2):(1,30)'))
        self.assertEqual(cl.composition_mode('(4,6):(1,4)', Layout('3:2'), 1), Layout('(4,3):(1,8)'))
        for name, b in (('logical_divide', '3:2'), ('zipped_divide', '3:2'), ('logical_product', '2:1')):
            got = getattr(cl, name + '_mode')('(4,6):(1,4)', Layout(b), (1,))
            self.assertEqual(str(got), tool_eval('%s[1]((4,6):(1,4),%s)' % (name, b)), name)
        # The mode's operation, on that mode alone.
        self.assertEqual(cl.logical_divide_mode('(4,6):(1,4)', Layout('3:2'), 1)[1],
                         cl.logical_divide(Layout('6:4'), Layout('3:2')))
        L = Layout('((2,2),3):((1,0),2)')
        z = cl.coalesce_z(L)
        self.assertEqual(str(z), tool_eval('coalesce_z(((2,2),3):((1,0),2))'))
        self.assertEqual(str(cl.coalesce_z(L, mode=0)), tool_eval('coalesce_z[0](((2,2),3):((1,0),2))'))
        self.assertEqual(str(cl.coalesce(L, mode=0)), tool_eval('coalesce[0](((2,2),3):((1,0),2))'))
        self.assertEqual(str(cl.coalesce_z(L, (1, 1))), tool_eval('coalesce_z(((2,2),3):((1,0),2),(1,1))'))
        with self.assertRaises(cl.DomainError):
            cl.layout_add('4:1', '8:1')


class TestCopyPlan(unittest.TestCase):
    def test_plans(self):
        src = cl.Tensor.zeros('(64,64):(1,64)', 'float32')
        dst = cl.Tensor.zeros('(64,64):(64,1)', 'float32')
        plan = cl.copy_plan(dst, src)
        self.assertEqual(plan['kernel'], 'transpose')
        self.assertEqual(plan['elem_size'], 4)
        self.assertIn('transpose', cl.copy_explain(dst, src))
        self.assertFalse(plan['gathered'])
        gathered = cl.copy_plan(cl.Tensor.zeros('(100,30):(1,100)', 'uint8'),
                                cl.Tensor.zeros('(100,30):(61,2)', 'uint8'))
        self.assertTrue(gathered['gathered'])
        self.assertEqual(gathered['src_stride'][gathered['dst_run']], 2)
        same = cl.copy_plan(cl.Tensor.zeros('256:1', 'float32'), cl.Tensor.zeros('(16,16):(1,16)', 'float32'))
        self.assertEqual(same['kernel'], 'memcpy')
        with self.assertRaises(ValueError):
            cl.copy_plan(dst, src, stores='sometimes')
        with self.assertRaises(cl.CuteLayoutError):
            cl.copy_plan(dst, cl.Tensor.zeros('8:1', 'float32'))


if __name__ == '__main__':
    unittest.main(verbosity=2)
