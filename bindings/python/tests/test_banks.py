# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the Python package's bank-conflict functions (_banks.py): the
counts the C tests derive by hand, the report's lanes against the layouts
evaluated, the search against `cute-layout eval`, and the errors."""
import subprocess
import unittest

import cutelayout as cl
from cutelayout import ComposedLayout, Layout
from cutelayout._library import tool as tool_path


def tool_eval(expr):
    out = subprocess.run([tool_path(), 'eval', expr], capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError('%s: %s' % (expr, out.stdout.strip()))
    return out.stdout.strip()


ROWS = "((8,4),8):((1,64),8)"


class TestBanks(unittest.TestCase):
    def test_counts(self):
        self.assertEqual(cl.bank_conflicts(ROWS, "(8,64):(64,1)", 16, op="ldmatrix"), (32, 4))
        self.assertEqual(cl.bank_conflicts(ROWS, "Sw<3,3,3> o 0 o (8,64):(64,1)", 16, op="ldmatrix"), (4, 4))
        self.assertEqual(cl.bank_conflicts("(32,4):(4,1)", "4096:1", 32, vector_bits=32), (16, 4))
        for tv, smem in [("(32,1):(33,0)", "4096:1"), ("(32,2):(64,1)", "4096:1"), (ROWS, "(8,64):(64,1)")]:
            w, i = cl.bank_conflicts(tv, Layout(smem), 16)
            self.assertEqual(tool_eval('bank_conflicts(%s,%s,16)' % (tv, smem)), '(%d,%d)' % (w, i))

    def test_wavefronts(self):
        self.assertEqual(cl.smem_wavefronts("ld", [4 * 32 * l for l in range(32)], 4), (32, 1))
        self.assertEqual(cl.smem_wavefronts("ld", [256] * 32, 16), (2, 2))
        self.assertEqual(cl.smem_wavefronts("cp.async", [256] * 32, 16), (32, 4))
        self.assertEqual(cl.smem_wavefronts("st", [-1] * 32, 16), (0, 0))

    def test_report(self):
        tv, smem = Layout("((4,8,3),(2,4)):((2,64,8),(1,16))"), cl.parse("Sw<2,1,3> o 0 o (32,24):(1,32)")
        report = cl.bank_report(tv, smem, 16, op="st")
        self.assertEqual(len(report), 12)
        self.assertEqual(sum(i.wavefronts for i in report), cl.bank_conflicts(tv, smem, 16, op="st")[0])
        for ins in report:
            self.assertEqual(ins.bytes, 4)
            for lane in range(32):
                tile = tv(32 * ins.warp + lane + 96 * 2 * ins.index)
                self.assertEqual(ins.tile[lane], tile)
                self.assertEqual(ins.offset[lane], smem(tile))

    def test_search(self):
        found = cl.swizzle_search("(8,64):(64,1)", 16, ROWS, op="ldmatrix")
        self.assertIsInstance(found, ComposedLayout)
        self.assertEqual(str(found), "Sw<3,3,3> o 0 o (8,64):(64,1)")
        self.assertEqual(str(found), tool_eval("swizzle_search((8,64):(64,1),16,%s)" % ROWS))
        cp, ld = "((8,16),(8,8)):((1024,1),(128,16))", "((16,2,2,2),(8,4,4)):((1,1024,16,0),(128,32,2048))"
        gemm = cl.swizzle_search("(128,64):(64,1)", 16, (cp, "cp.async"), (ld, "ldmatrix"))
        self.assertEqual(str(gemm), "Sw<3,3,3> o 0 o (128,64):(64,1)")

    def test_search_padding(self):
        column, mixed = "(32,1):(32,0)", "((2,2,2,2,2),1):((33,1,4,8,16),0)"
        padded = cl.swizzle_search("(32,32):(32,1)", 32, column, mixed, padding=True)
        self.assertIsInstance(padded, cl.Layout)
        self.assertEqual(str(padded), "(32,32):(33,1)")
        self.assertEqual(str(padded), tool_eval("swizzle_search_padded((32,32):(32,1),32,%s,%s)" % (column, mixed)))
        self.assertEqual(cl.bank_conflicts(column, padded, 32), (1, 1))
        swizzled = cl.swizzle_search("(32,32):(32,1)", 32, column, mixed)
        self.assertGreater(sum(cl.bank_conflicts(tv, swizzled, 32)[0] for tv in (column, mixed)), 2)
        found = cl.swizzle_search("(8,64):(64,1)", 16, ROWS, op="ldmatrix", padding=True)
        self.assertEqual(str(found), "Sw<3,3,3> o 0 o (8,64):(64,1)")
        with self.assertRaises(cl.DomainError):
            cl.swizzle_search("64:1", 32, padding=True)

    def test_tiled_copy(self):
        mma = cl.TiledMMA("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", (32, 32, 16))
        copy = cl.TiledCopy.for_mma(cl.CopyAtom("SM75_U32x4_LDSM_N", "half_t"), mma, "A")
        self.assertEqual(cl.bank_conflicts(copy, "(32,16):(16,1)"), (32, 16))
        self.assertEqual(cl.bank_conflicts(copy, cl.parse("Sw<3,3,3> o 0 o (32,16):(64,1)")), (16, 16))

    def test_errors(self):
        with self.assertRaises(cl.DomainError):
            cl.bank_conflicts("(32,1):(1,0)", "64:1", 12)
        with self.assertRaises(cl.RankError):
            cl.bank_conflicts("32:1", "64:1", 32)
        with self.assertRaises(ValueError):
            cl.bank_conflicts("(32,1):(1,0)", "64:1", 32, op="lds")
        with self.assertRaises(ValueError):
            cl.smem_wavefronts("ld", [0] * 31, 4)
        with self.assertRaises(TypeError):
            cl.bank_conflicts("Sw<1,1,1> o 0 o 8:1", "64:1", 32)
        with self.assertRaises(TypeError):
            cl.swizzle_search("Sw<1,1,1> o 0 o 8:1", 32, "(32,1):(1,0)")
        with self.assertRaises(cl.DomainError):
            cl.swizzle_search("64:1", 32)


if __name__ == '__main__':
    unittest.main()
