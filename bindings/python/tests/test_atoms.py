# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the Python package's atoms: each wrapper against `cute-layout
eval` (the same library through the tool's language, whose answers
tests/cute_atoms.tsv checks against CuTe), and the error paths."""
import subprocess
import unittest

import cutelayout as cl
from cutelayout import CopyAtom, Layout, MmaAtom, TiledCopy, TiledMMA
from cutelayout import _atoms
from cutelayout._library import tool as tool_path

MMA = 'make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0),(_,_,_))'
COPY = 'make_tiled_copy_A(copy_atom(SM75_U32x4_LDSM_N,half_t),%s)' % MMA


def tool_eval(expr):
    out = subprocess.run([tool_path(), 'eval', expr], capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError('%s: %s' % (expr, out.stdout.strip()))
    return out.stdout.strip()


class TestAtoms(unittest.TestCase):
    def test_mma_atom(self):
        a = MmaAtom('SM80_16x8x16_F32F16F16F32_TN')
        self.assertEqual(str(a), 'SM80_16x8x16_F32F16F16F32_TN')
        self.assertEqual(repr(a), "MmaAtom('SM80_16x8x16_F32F16F16F32_TN')")
        self.assertEqual(a.shape_mnk(), (16, 8, 16))
        self.assertEqual(str(a.thr_id()), tool_eval('thr_id(SM80_16x8x16_F32F16F16F32_TN)'))
        for x in 'ABC':
            self.assertEqual(str(a.layout_tv(x)), tool_eval('layout%s_TV(SM80_16x8x16_F32F16F16F32_TN)' % x))
        self.assertEqual(a.value_bits('A'), 16)
        self.assertEqual(a.value_bits('C'), 32)
        with self.assertRaises(cl.CuteLayoutError):
            MmaAtom('SM80_16x8x16_F32F16F16F32_TM')

    def test_tiled_mma(self):
        m = TiledMMA('SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)')
        self.assertEqual(str(m), MMA)
        self.assertEqual(repr(m), '<%s>' % MMA)
        self.assertEqual(str(m.atom()), 'SM80_16x8x16_F32F16F16F32_TN')
        self.assertEqual(m.size(), 128)
        self.assertEqual(m.tile_shape(), (32, 16, 16))
        self.assertEqual(str(m.thr_layout_vmnk()), tool_eval('thr_layout_vmnk(%s)' % MMA))
        for x in 'ABC':
            self.assertEqual(str(m.layout_tv(x)), tool_eval('layout%s_TV(%s)' % (x, MMA)))
            layout, offset = m.partition(x, 37, '(64,32):(1,64)')
            self.assertEqual('(%s,%d)' % (layout, offset), tool_eval('partition_%s(%s,37,(64,32):(1,64))' % (x, MMA)))
        self.assertEqual(m.thrfrg('C', Layout('(32,32):(1,32)')).size(), 1024)
        p = TiledMMA(MmaAtom('SM80_16x8x16_F32F16F16F32_TN'), (2, 2, 1), (None, 32, None))
        self.assertEqual(p.tile_shape(), (32, 32, 16))
        with self.assertRaises(cl.RankError):
            TiledMMA('SM80_16x8x16_F32F16F16F32_TN', '(2,2,1,1):(1,2,0,0)')
        with self.assertRaises(cl.CuteLayoutError):
            m.partition('A', 128, '(64,32):(1,64)')

    def test_tensor_partitions_are_views(self):
        m = TiledMMA('SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)')
        t = cl.Tensor.zeros('(32,16):(1,32)')
        part = m.partition('C', 5, t)
        layout, offset = m.partition('C', 5, '(32,16):(1,32)')
        self.assertEqual(str(part.layout), str(layout))

    def test_copy_atom(self):
        c = CopyAtom('SM75_U32x4_LDSM_N', 'half_t')
        self.assertEqual(str(c), 'copy_atom(SM75_U32x4_LDSM_N,half_t)')
        self.assertEqual(repr(c), 'CopyAtom<copy_atom(SM75_U32x4_LDSM_N,half_t)>')
        self.assertEqual(c.kind(), 'ldmatrix')
        self.assertEqual(c.value_bits(), 16)
        self.assertEqual(c.access_bits('D'), 128)
        self.assertEqual(str(c.thr_id()), '32:1')
        self.assertEqual(str(c.layout('D')), '(32,(2,4)):(2,(1,64))')
        self.assertEqual(str(c.layout('D', in_bits=True)), '(32,(32,4)):(32,(1,1024))')
        with self.assertRaises(cl.CuteLayoutError):
            CopyAtom('SM75_U32x4_LDSM_N', 'uint128_t')

    def test_tiled_copy(self):
        m = TiledMMA('SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)')
        c = TiledCopy.for_mma(CopyAtom('SM75_U32x4_LDSM_N', 'half_t'), m, 'A')
        self.assertEqual(str(c), COPY)
        self.assertEqual(repr(c), '<%s>' % COPY)
        self.assertEqual(c.size(), 128)
        self.assertEqual(c.tiler_mn(), (32, 16))
        self.assertEqual(str(c.atom()), 'copy_atom(SM75_U32x4_LDSM_N,half_t)')
        self.assertEqual(str(c.layout_tv()), tool_eval('layoutA_TV(%s)' % MMA))
        for side in 'SD':
            self.assertEqual(str(c.side_tv(side)), tool_eval('layout%s_TV(%s)' % (side, COPY)))
            layout, offset = c.partition(side, 9, '(64,32):(32,1)')
            self.assertEqual('(%s,%d)' % (layout, offset), tool_eval('partition_%s(%s,9,(64,32):(32,1))' % (side, COPY)))
        self.assertEqual(c.tidfrg('S', '(32,16):(1,32)').size(), 1024)
        u = TiledCopy(CopyAtom('UniversalCopy<uint128_t>', 'half_t'), '(32,8):(8,1)', '(1,8):(0,1)')
        self.assertEqual(u.tiler_mn(), (32, 64))
        t = cl.Tensor.zeros('(64,64):(64,1)', 'uint16')
        self.assertEqual(u.partition('S', 3, t).size(), 16)
        self.assertEqual(str(u.retile('(8,2,2):(1,8,16)')),
                         tool_eval('retile(%s,(8,2,2):(1,8,16))' % u))

    def test_composed_partitions(self):
        """Swizzled tensors: the composed layout (or the plain layout it
        decays to) and the offset, as the tool gives them."""
        m = TiledMMA('SM80_16x8x16_F32F16F16F32_TN', '(2,2,1):(1,2,0)')
        for operand, thr, text in [('A', 5, 'Sw<3,3,3> o 0 o (64,64):(64,1)'),
                                   ('C', 37, 'Sw<2,3,3> o 0 o (64,64):(1,64)')]:
            part, offset = m.partition(operand, thr, cl.ComposedLayout(text))
            self.assertEqual('(%s,%d)' % (part, offset), tool_eval('partition_%s(%s,%d,%s)' % (operand, m, thr, text)))
        c = TiledCopy(CopyAtom('SM75_U32x4_LDSM_N', 'half_t'), '(32,1):(1,0)', '(1,8):(0,1)')
        part, offset = c.partition('S', 7, cl.ComposedLayout('Sw<3,3,3> o 0 o (32,64):(64,1)'))
        self.assertIsInstance(part, cl.ComposedLayout)
        self.assertEqual('(%s,%d)' % (part, offset), tool_eval('partition_S(%s,7,Sw<3,3,3> o 0 o (32,64):(64,1))' % c))
        u = TiledCopy(CopyAtom('UniversalCopy<uint64_t>', 'half_t'), '(32,8):(8,1)', '(1,4):(0,1)')
        frag = 'Sw<3,3,3> o 0 o (8,2,2):(1,64,128)'
        layout, offset = u.retile(cl.ComposedLayout(frag))
        self.assertEqual((str(layout), offset), (tool_eval('retile(%s,%s)' % (u, frag)), 0))
        with self.assertRaises(cl.CuteLayoutError):
            m.partition('A', 128, cl.ComposedLayout('Sw<3,3,3> o 0 o (64,64):(64,1)'))

    def test_catalog(self):
        self.assertIn('SM80_16x8x16_F32F16F16F32_TN', _atoms.catalog('mma'))
        self.assertIn('SM75_U32x4_LDSM_N', _atoms.catalog('copy'))
        self.assertIn('half_t', _atoms.catalog('type'))
        self.assertEqual(len(_atoms.catalog('smem')), 8)
        self.assertEqual(_atoms.type_bits('float_e4m3_t'), 8)
        (b, m, s), layout = _atoms.gmma_smem_atom('GMMA::Layout_K_SW128_Atom<half_t>')
        self.assertEqual(((b, m, s), str(layout)), ((3, 3, 3), '(8,64):(64,1)'))


    def test_pictures_are_the_tools(self):
        # A tiled MMA as print_latex lays it out, a tiled copy side by side:
        # the very document `cute-layout draw` writes, in every format.
        mma = TiledMMA('SM80_16x8x16_F32F16F16F32_TN', (2, 2, 1))
        copy = TiledCopy.for_mma(CopyAtom('SM75_U32x4_LDSM_N', 'half_t'), mma, 'A')
        for value, expr in [(mma, MMA), (copy, COPY), (MmaAtom('SM70_8x8x4_F32F16F16F32_NT'),
                                                       'SM70_8x8x4_F32F16F16F32_NT')]:
            for fmt in ['svg', 'tex', 'txt']:
                want = subprocess.run([tool_path(), 'draw', expr, '--format', fmt], capture_output=True,
                                      text=True, check=True).stdout
                self.assertEqual(cl.draw(value, format=fmt), want, '%s %s' % (expr, fmt))
        svg = cl.draw(mma)
        self.assertIn('data-rows="16" data-cols="16"', svg)  # B, K x N
        self.assertIn('drawn transposed', svg)
        with self.assertRaises(ValueError):
            cl.draw(mma, tv=(4, 4))
        with self.assertRaises(ValueError):
            cl.draw_panels(Layout('(2,2):(1,2)'), arrangement='diagonal')
        with self.assertRaises(cl.CuteLayoutError):
            cl.draw_panels(Layout('(2,2):(1,2)'), arrangement='mma')

if __name__ == '__main__':
    unittest.main()
