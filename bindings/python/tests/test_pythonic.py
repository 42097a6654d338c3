# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the Python package: the Python protocols (len, iter, call,
indexing and slicing, repr, ==, hash, pickle), exceptions, int tuples and
scaled bases, swizzles and composed layouts, compiled layouts, the odometer,
pictures, the C API namespace and `python3 -m cutelayout`."""
import copy
import ctypes
import importlib.util
import os
import pickle
import subprocess
import sys
import unittest

import cutelayout as cl
from cutelayout import E, ComposedLayout, Layout, Swizzle, _


if importlib.util.find_spec('numpy') is None and os.environ.get('CUTE_LAYOUT_REQUIRE_BINDINGS') == '1':
    raise SystemExit('numpy is not installed, and CUTE_LAYOUT_REQUIRE_BINDINGS=1 (Debian: apt install python3-numpy)')


class TestProtocols(unittest.TestCase):
    def test_len_iter_call(self):
        L = Layout('(2,(2,2)):(4,(2,1))')
        self.assertEqual(len(L), 8)
        self.assertEqual(list(L), [0, 4, 2, 6, 1, 5, 3, 7])
        self.assertEqual([L(i) for i in range(8)], list(L))
        self.assertEqual(L(1, (1, 0)), 6)
        self.assertEqual(L((1, (1, 0))), 6)
        with self.assertRaises(TypeError):
            L()

    def test_modes_and_slices(self):
        L = Layout('(2,(3,4)):(12,(1,3))')
        self.assertEqual(L[1], Layout('(3,4):(1,3)'))
        self.assertEqual(L[1, 1], Layout('4:3'))
        # ':' and None are CuTe's '_': a slice, as L(_, crd) in CuTe.
        self.assertEqual(L[:, 5], Layout('(2):(12)'))
        self.assertEqual(L[None, 5], L[:, 5])
        self.assertEqual(L[_, 5], L[:, 5])
        self.assertEqual(L(_, 5), L[:, 5])
        self.assertEqual(L[1, :], Layout('((3,4)):((1,3))'))
        self.assertEqual(L[1, (2, None)], Layout('(4):(3)'))
        self.assertEqual(L[:], L)
        with self.assertRaises(TypeError):
            L[0:1]

    def test_repr_round_trips(self):
        namespace = {'Layout': Layout, 'ComposedLayout': ComposedLayout, 'Swizzle': Swizzle, 'E': E}
        for value in [Layout('(2,(2,2)):(4,(2,1))'), Layout('8:1'), Layout('():()'),
                      ComposedLayout('Sw<3,3,3> o 0 o (8,8):(8,1)'), Swizzle(2, 4, -3),
                      cl.make_identity_layout((4, (2, 3))), 2 * E(1, 0)]:
            self.assertEqual(eval(repr(value), namespace), value, repr(value))  # noqa: S307 (the test's own text)

    def test_equality_and_hash(self):
        a, b = Layout('(2,4):(1,2)'), Layout((2, 4), (1, 2))
        self.assertEqual(a, b)
        self.assertEqual(hash(a), hash(b))
        self.assertNotEqual(a, Layout('(2,4):(4,1)'))
        self.assertNotEqual(a, '(2,4):(1,2)')
        self.assertEqual(len({a, b, Layout('8:1')}), 2)
        c = ComposedLayout('Sw<3,3,3> o 0 o (8,8):(8,1)')
        self.assertEqual({c: 1}[ComposedLayout(Swizzle(3, 3, 3), 0, Layout('(8,8):(8,1)'))], 1)
        self.assertEqual(len({Swizzle(3, 3, 3), Swizzle('Sw<3,3,3>'), Swizzle(2, 3, 3)}), 2)

    def test_pickle_and_copy(self):
        for value in [Layout('(2,(2,2)):(4,(2,1))'), ComposedLayout('Sw<2,0,2> o 3 o 16:1'), Swizzle(1, 2, 3),
                      cl.make_identity_layout((2, 2)), E(0), _, cl.LayoutRight]:
            again = pickle.loads(pickle.dumps(value))
            self.assertEqual(again, value) if value is not _ and value is not cl.LayoutRight \
                else self.assertIs(again, value)
            self.assertIs(copy.copy(value), value) if isinstance(value, Layout) else None
        self.assertEqual(copy.deepcopy([Layout('8:1')]), [Layout('8:1')])

    def test_immutable(self):
        with self.assertRaises(AttributeError):
            Swizzle(1, 2, 3).bits = 2
        with self.assertRaises(AttributeError):
            Layout('8:1').shape = 4


class TestErrors(unittest.TestCase):
    def test_each_status_has_its_class(self):
        cases = [
            (lambda: Layout('(2,4'), cl.ParseError, ValueError, -3),
            (lambda: Layout('4611686018427387904:1').cosize() and cl.composition('(4611686018427387904,4):(1,4611686018427387904)', '8:1'),
             cl.IntegerOverflowError, OverflowError, -4),
            (lambda: Layout('(2,4):(1,2)')((1, 2, 3)), cl.RankError, ValueError, -5),
            (lambda: cl.composition('(4,3):(3,1)', '2:6'), cl.DivisibilityError, ValueError, -6),
            (lambda: Layout('(2,4):(1,2)')[5], cl.DomainError, ValueError, -7),
            (lambda: cl.make_identity_layout((4, 8)).cosize() and cl.Layout('(2,2):(1@0,2)').coshape,
             cl.KindError, TypeError, -8),
            (lambda: cl.complement('(2,2):(1,1)', 8), cl.NotInjectiveError, ValueError, -9),
            (lambda: cl.print1d('2097152:1'), cl.LimitError, ValueError, -10),
            (lambda: ComposedLayout('Sw<1,1,1> o 0 o Sw<1,1,1>').size(), cl.UnsupportedError, ValueError, -11),
        ]
        for call, cls, builtin, status in cases:
            with self.assertRaises(cls, msg=cls.__name__) as cm:
                call()
            self.assertIsInstance(cm.exception, builtin)
            self.assertIsInstance(cm.exception, cl.CuteLayoutError)
            self.assertEqual(cm.exception.status, status)
            self.assertEqual(cm.exception.message, cl.status_string(status))
            self.assertNotEqual(cm.exception.detail, '', cls.__name__)
            self.assertEqual(cl.last_error(), cm.exception.detail)
            again = pickle.loads(pickle.dumps(cm.exception))
            self.assertEqual((type(again), again.status, again.detail), (cls, status, cm.exception.detail))

    def test_memory_error_class(self):
        self.assertTrue(issubclass(cl.OutOfMemoryError, MemoryError))
        self.assertTrue(issubclass(cl.BoundsError, IndexError))
        self.assertTrue(issubclass(cl.OverlapError, ValueError))

    def test_python_type_errors(self):
        with self.assertRaises(TypeError):
            Layout((2, 4.5))
        with self.assertRaises(TypeError):
            Layout((2, True))
        with self.assertRaises(TypeError):
            cl.composition(Layout('2:1'), 2.5)
        with self.assertRaises(TypeError):
            Layout('2:1', (1,))


class TestVersion(unittest.TestCase):
    def test_versions(self):
        expected = os.environ.get('CUTELAYOUT_EXPECTED_VERSION')
        if expected:
            self.assertEqual(cl.__version__, expected)
            self.assertEqual(cl.version(), expected)
        self.assertRegex(cl.__version__, r'^\d+\.\d+\.\d+$')
        major, minor, patch = (int(x) for x in cl.version().split('.'))
        self.assertEqual(cl.version_number(), major * 10000 + minor * 100 + patch)
        self.assertEqual(cl.abi_version()[0], cl.capi.CL_ABI_VERSION)

    def test_typed(self):
        self.assertTrue(os.path.isfile(os.path.join(os.path.dirname(cl.__file__), 'py.typed')))

    def test_star_import_keeps_builtins(self):
        namespace = {}
        exec('from cutelayout import *', namespace)  # noqa: S102 (the test's own text)
        for builtin in ('filter', 'sum', 'zip', 'slice', 'copy', '_'):
            self.assertNotIn(builtin, namespace)
        self.assertIn('composition', namespace)


class TestTuples(unittest.TestCase):
    def test_int_tuple_functions(self):
        self.assertEqual(cl.product((2, (3, 4))), 24)
        self.assertEqual(cl.product(()), 1)
        self.assertEqual(cl.sum((2, (3, 4))), 9)
        self.assertEqual(cl.inner_product((2, (3, 4)), (1, (2, 6))), 32)
        self.assertEqual(cl.size((2, (3, 4))), 24)
        self.assertEqual(cl.rank((2, (3, 4))), 2)
        self.assertEqual(cl.rank(7), 1)
        self.assertEqual(cl.depth((2, (3, 4))), 2)
        self.assertEqual(cl.depth(7), 0)
        self.assertEqual(cl.get((2, (3, 4)), 1, 0), 3)
        self.assertEqual(cl.flatten((2, (3, (4, 5)))), (2, 3, 4, 5))
        self.assertEqual(cl.unflatten((2, 3, 4), (1, (1, 1))), (2, (3, 4)))
        self.assertEqual(cl.shape_div((12, 8), 4), (3, 8))
        self.assertEqual(cl.ceil_div((7, 9), (2, 4)), (4, 3))
        self.assertEqual(cl.elem_scale((2, 3), (4, (2, 5))), (8, 30))
        self.assertEqual(cl.prefix_product((2, (3, 4), 5)), (1, (2, 6), 24))
        self.assertEqual(cl.compact_col_major((2, (3, 4))), (1, (2, 6)))
        self.assertEqual(cl.compact_row_major((2, 3, 4)), (12, 4, 1))
        self.assertEqual(cl.compact_order((2, 3, 4), (1, 2, 0)), (4, 8, 1))
        self.assertTrue(cl.congruent((1, (2, 3)), (4, (5, 6))))
        self.assertFalse(cl.congruent((1, 2), (1, (2, 3))))
        self.assertTrue(cl.weakly_congruent((1, 2), (1, (2, 3))))
        self.assertTrue(cl.compatible((2, 12), (2, (3, 4))))
        self.assertFalse(cl.compatible((2, 11), (2, (3, 4))))
        self.assertTrue(cl.elem_less((1, 2), (2, 3)))
        self.assertFalse(cl.elem_less((1, 3), (2, 3)))
        with self.assertRaises(cl.DivisibilityError):
            cl.shape_div(6, 4)

    def test_coordinates_by_definition(self):
        shape = (2, (3, 4))
        for i in range(24):
            crd = cl.idx2crd(i, shape)
            self.assertEqual(crd, (i % 2, ((i // 2) % 3, i // 6)))
            self.assertEqual(cl.crd2idx(crd, shape), i)
            self.assertEqual(cl.crd2idx(crd, shape, (1, (2, 6))), i)
            self.assertEqual(cl.crd2idx(crd, Layout(shape)), i)
            self.assertEqual(cl.crd2crd(crd, shape, 24), i)
        self.assertEqual(cl.idx2crd(7, (2, 4), (4, 1)), (1, 3))

    def test_text_values(self):
        self.assertEqual(cl.parse('(2,(3,_))'), (2, (3, _)))
        self.assertEqual(cl.parse('(2:1,4)'), (Layout('2:1'), 4))
        self.assertEqual(cl.parse('(1@0,2@0@1)'), (E(0), 2 * E(1, 0)))
        self.assertEqual(cl.parse(' 8 '), 8)
        self.assertEqual(cl.parse('Sw<1,2,3>'), Swizzle(1, 2, 3))
        self.assertEqual(cl.parse('Sw<1,2,3> o 2 o 8:1'), ComposedLayout('Sw<1,2,3> o 2 o 8:1'))
        self.assertEqual(cl.parse('-3'), -3)


class TestCoordinateLayouts(unittest.TestCase):
    def test_identity(self):
        I = cl.make_identity_layout((4, 8))
        self.assertEqual(str(I), '(4,8):(1@0,1@1)')
        self.assertEqual(I, Layout((4, 8), (E(0), E(1))))
        self.assertTrue(I.is_coordinate)
        self.assertFalse(Layout('8:1').is_coordinate)
        self.assertEqual(I.stride, (E(0), E(1)))
        self.assertEqual(I.coshape, (4, 8))
        for i in range(32):
            self.assertEqual(I(i), cl.idx2crd(i, (4, 8)))
        self.assertEqual(I((3, 5)), (3, 5))
        self.assertEqual(Layout('8:2@1')(3), 6 * E(1))
        self.assertEqual(str(2 * E(1, 0)), '2@0@1')
        S, offset = cl.slice_and_offset((2, _), I)
        self.assertEqual((S, offset), (Layout('(8):(1@1)'), (2, 0)))  # CuTe's 2@0 + 0@1, an arithmetic tuple
        with self.assertRaises(cl.KindError):
            I.cosize() and Layout('(4,8):(1@0,16)')(5)
        with self.assertRaises(ValueError):
            E()


class TestSwizzles(unittest.TestCase):
    def test_swizzle_by_definition(self):
        for b, m, s in [(3, 3, 3), (2, 4, 3), (1, 2, -2), (0, 4, 3), (3, 0, -4)]:
            sw = Swizzle(b, m, s)
            yyy, zzz = sw.masks
            self.assertEqual(yyy, ((1 << b) - 1) << (m + max(0, s)))
            self.assertEqual(zzz, ((1 << b) - 1) << (m - min(0, s)))
            for x in range(1024):
                moved = (x & yyy) >> s if s >= 0 else (x & yyy) << -s
                self.assertEqual(sw(x), x ^ moved, f'{sw}({x})')
            if b and s > 0:
                self.assertEqual(cl.make_swizzle(yyy, zzz), sw)
            self.assertEqual(sw.max_alignment(), 1 << m)
            self.assertEqual(Swizzle(str(sw)), sw)
        self.assertEqual(cl.make_swizzle(*Swizzle(3, 3, 3).masks), Swizzle(3, 3, 3))
        self.assertEqual(cl.upcast(Swizzle(3, 3, 3), 2), Swizzle(3, 2, 3))
        self.assertEqual(cl.downcast(Swizzle(3, 3, 3), 2), Swizzle(3, 4, 3))
        merged = cl.composition(Swizzle(1, 3, 3), Swizzle(1, 4, 3))
        self.assertEqual(merged.masks, (Swizzle(1, 3, 3).masks[0] ^ Swizzle(1, 4, 3).masks[0],
                                        Swizzle(1, 3, 3).masks[1] ^ Swizzle(1, 4, 3).masks[1]))
        with self.assertRaises(cl.DomainError):
            Swizzle(3, 3, 1)  # |S| < B
        with self.assertRaises(cl.ParseError):
            Swizzle('Sw<3,3>')

    def test_composed_by_definition(self):
        sw, inner = Swizzle(3, 3, 3), Layout('(8,8):(8,1)')
        for offset in (0, 5):
            C = cl.composition(sw, offset, inner)
            self.assertIsInstance(C, ComposedLayout)
            self.assertEqual((C.outer, C.offset, C.inner), (sw, offset, inner))
            self.assertEqual(list(C), [sw(offset + inner(i)) for i in range(64)])
            self.assertEqual(C((3, 5)), sw(offset + inner((3, 5))))
            self.assertEqual((C.size(), C.rank(), C.depth(), C.shape), (64, 2, 1, (8, 8)))
            self.assertEqual(list(C.indices()) if _has_numpy() else list(C), list(C))
        self.assertEqual(cl.composition(sw, inner), cl.composition(sw, 0, inner))
        # The identity swizzle gives the layout itself (CuTe's simplification),
        # but make_composed_layout never simplifies.
        self.assertEqual(cl.composition(Swizzle(0, 4, 3), 0, inner), inner)
        self.assertIsInstance(cl.make_composed_layout(Swizzle(0, 4, 3), 0, inner), ComposedLayout)
        outer_layout = ComposedLayout(Layout('64:2'), 1, inner)
        self.assertEqual(list(outer_layout), [2 * (1 + inner(i)) for i in range(64)])
        self.assertEqual(str(outer_layout), '64:2 o 1 o (8,8):(8,1)')

    def test_nested_composed(self):
        # CuTe's ComposedLayout nests: composition(L, right_inverse(L)) for a
        # swizzled L is Sw o 0 o (Sw o 0 o L'), the identity on its domain.
        L = ComposedLayout('Sw<1,0,2> o 0 o (4,4):(1,4)')
        R = cl.right_inverse(L)
        N = cl.composition(L, R)
        self.assertEqual(str(N), 'Sw<1,0,2> o 0 o Sw<1,0,2> o 0 o 16:1')
        self.assertEqual(list(N), list(range(16)))
        self.assertIsInstance(N.inner, ComposedLayout)
        self.assertEqual((N.outer, N.offset, str(N.inner)), (Swizzle(1, 0, 2), 0, 'Sw<1,0,2> o 0 o 16:1'))
        self.assertEqual(ComposedLayout(N.outer, N.offset, N.inner), N)
        left = ComposedLayout(L, 4, Layout('(2,2):(1,2)'))
        self.assertEqual(list(left), [L(4 + i) for i in range(4)])

    def test_algebra_on_composed_acts_on_the_inner_layout(self):
        C = ComposedLayout('Sw<3,3,3> o 0 o (8,8):(8,1)')
        B = C.inner
        for fn, arg in [(cl.logical_divide, (2, 4)), (cl.zipped_divide, (2, 4)), (cl.tiled_divide, (2, 4)),
                        (cl.flat_divide, (2, 4)), (cl.logical_product, Layout('2:1')),
                        (cl.zipped_product, Layout('2:1')), (cl.tiled_product, Layout('2:1')),
                        (cl.flat_product, Layout('2:1')), (cl.blocked_product, Layout('(2,2):(1,2)')),
                        (cl.raked_product, Layout('(2,2):(1,2)')), (cl.composition, (4, 8)),
                        (cl.coalesce, None), (cl.tile_to_shape, (16, 16))]:
            R = fn(C) if arg is None else fn(C, arg)
            expected = fn(B) if arg is None else fn(B, arg)
            self.assertEqual((R.outer, R.offset, R.inner), (C.outer, 0, expected), fn.__name__)
        for fn, args in [(cl.get, (1,)), (cl.take, (0, 1)), (cl.group, (0, 2)), (cl.flatten, ()), (cl.zip, ())]:
            R = fn(C, *args)
            self.assertEqual(R.inner, fn(B, *args), fn.__name__)
        self.assertEqual(C[1].inner, B[1])
        self.assertEqual(cl.complement(C, 128), cl.complement(B, 128))
        self.assertEqual(cl.make_fragment_like(C), cl.make_fragment_like(B))
        self.assertEqual(cl.nullspace(C), Layout('1:0'))
        self.assertEqual(cl.max_common_vector(C, B), 8)
        self.assertEqual(cl.max_common_vector(B, C), 8)
        self.assertEqual(cl.max_common_vector(C, C), 64)
        self.assertEqual(cl.max_common_layout(C, B).size(), 8)
        # CuTe moves the swizzle through the inverse of B; it is the inverse
        # where B maps the swizzle's bits as a linear map (here, 512:1).
        S = ComposedLayout('Sw<3,3,3> o 0 o 512:1')
        R = cl.right_inverse(S)
        self.assertEqual([S(R(i)) for i in range(R.size())], list(range(R.size())))
        L = cl.left_inverse(S)
        self.assertEqual([L(S(i)) for i in range(512)], list(range(512)))
        self.assertEqual(cl.right_inverse(C), ComposedLayout('Sw<3,0,3> o 0 o (8,8):(8,1)'))
        self.assertEqual(cl.upcast(C, 2).outer, Swizzle(3, 2, 3))
        self.assertEqual(cl.downcast(C, 2).outer, Swizzle(3, 4, 3))
        S, offset = cl.slice_and_offset((_, 3), C)
        self.assertEqual(len(S), 8)
        self.assertEqual(cl.slice((_, 3), C), S)
        self.assertIsNotNone(cl.filter(C, (1, 1)))
        # The product with a swizzled B: the swizzle acts on the copies of the
        # block as Sw acts on B.
        sw = Swizzle(1, 0, 1)
        P = cl.logical_product(Layout('2:1'), ComposedLayout(sw, 0, Layout('4:1')))
        self.assertEqual([P(a + 2 * b) for b in range(4) for a in range(2)],
                         [2 * sw(b) + a for b in range(4) for a in range(2)])
        for fn in (cl.zipped_product, cl.tiled_product, cl.flat_product):
            self.assertEqual(sorted(fn(Layout('2:1'), ComposedLayout(sw, 0, Layout('4:1')))), sorted(P))
        with self.assertRaises(cl.DomainError):
            cl.logical_product(Layout('2:1'), ComposedLayout('Sw<1,1,1> o 0 o 4:1'))
        self.assertEqual(cl.composition(Layout('64:1'), C), cl.composition(cl.composition(Layout('64:1'), C.outer),
                                                                        C.inner))
        self.assertEqual(list(cl.composition(C, ComposedLayout(Layout('64:1'), 0, Layout('64:1')))), list(C))
        W = cl.make_layout(Swizzle(2, 0, 2))
        self.assertEqual(list(W), [Swizzle(2, 0, 2)(i) for i in range(4)])  # CuTe: (M+B+|S|):1, literally
        self.assertEqual(cl.composition(Layout('(4,4):(4,1)'), Swizzle(1, 0, 2)).size(), 16)


class TestCompiledAndOdometer(unittest.TestCase):
    def test_compiled_layout(self):
        # (test_capi.py evaluates the bytes with compiled.h's cl_compiled_eval.)
        for text in ['(2,(2,2)):(4,(2,1))', '(3,5,7):(35,7,1)', '(4,8):(-1,4)', '7:0']:
            c = Layout(text).compile()
            self.assertEqual(c.size, Layout(text).size())
            self.assertEqual(len(bytes(c)), ctypes.sizeof(c.struct))
        self.assertEqual(ComposedLayout('Sw<3,3,3> o 4 o (8,8):(8,1)').compile().struct.swizzle_mask, 448)
        with self.assertRaises(cl.UnsupportedError):
            ComposedLayout('8:1 o 0 o 8:1').compile()
        with self.assertRaises(cl.KindError):
            cl.make_identity_layout((2, 2)).compile()

    def test_odometer(self):
        L = Layout('(2,(3,2)):(6,(1,3))')
        o = L.odometer()
        self.assertEqual(o.index, -1)
        self.assertEqual(next(o), 0)
        self.assertEqual(next(o), 6)
        self.assertEqual((o.index, o.coord), (1, (1, 0, 0)))
        self.assertEqual(o.next_batch(3), [1, 7, 2])
        self.assertEqual(list(o), list(L)[5:])
        self.assertEqual(o.next_batch(4), [])
        o.reset()
        self.assertEqual(list(o), list(L))

    @unittest.skipUnless(importlib.util.find_spec('numpy'), 'numpy is not installed')
    def test_indices(self):
        import numpy
        L = Layout('(4,(3,5)):(15,(5,1))')
        self.assertEqual(L.indices().tolist(), list(L))
        self.assertEqual(L.indices().dtype, numpy.int64)
        self.assertEqual(L.indices(3, 4).tolist(), [L(i) for i in range(3, 7)])
        self.assertEqual(Layout('0:1').indices().tolist(), [])


def _has_numpy():
    return importlib.util.find_spec('numpy') is not None


class TestPictures(unittest.TestCase):
    def test_svg(self):
        L = Layout('(4,(2,2)):(4,(2,1))')
        svg = cl.draw(L)
        self.assertTrue(svg.startswith('<?xml'))
        self.assertEqual(svg.count('<text class="cell"'), 16)
        self.assertEqual(L._repr_svg_(), svg)
        html = L._repr_html_()
        self.assertTrue(html.startswith('<div class="cutelayout"><svg'))
        self.assertNotIn('<?xml', html)
        self.assertIsNone(Layout('(2048,1024):(1,2048)')._repr_svg_())  # over CL_PICTURE_MAX_CELLS
        self.assertIsNone(Layout('(2048,1024):(1,2048)')._repr_html_())
        self.assertIn('<title>my title</title>', cl.draw(L, title='my title'))
        self.assertEqual(cl.draw(L, format='txt'), cl.print_layout(L))
        self.assertIn('\\begin{document}', cl.draw(L, format='tex'))
        self.assertIn('bank', cl.draw(L, colour='bank', element_bytes=4))
        with self.assertRaises(ValueError):
            cl.draw(L, format='png')
        with self.assertRaises(cl.DomainError):
            cl.draw(L, colour='thread')

    def test_tv(self):
        svg = cl.draw('((2,2),2):((1,4),2)', tv=(4, 2))
        self.assertEqual(svg.count('<text class="cell"'), 8)
        for label in ('T0V0', 'T1V0', 'T2V0', 'T3V1'):
            self.assertIn('>%s<' % label, svg)
        self.assertIn('T0V0', cl.draw(ComposedLayout('Sw<1,0,1> o 0 o (4,2):(1,4)'), tv=(4, 2), format='txt'))
        with self.assertRaises(cl.DomainError):
            cl.draw('(4,2):(1,4)', tv=(2, 2))  # an index outside the tile

    def test_map_and_panels(self):
        txt = cl.draw('(2,2):(1,2)', map=lambda i: 10 * i, format='txt')
        self.assertEqual([int(x) for x in txt.split() if x.isdigit() and int(x) >= 10], [20, 10, 30])
        with self.assertRaises(ZeroDivisionError):
            cl.draw('(2,2):(1,2)', map=lambda i: 1 // 0)
        A, B = Layout('(4,2):(2,1)'), Layout('(2,2):(2,1)')
        svg = cl.draw_panels(A, B, cl.Panel(cl.composition(A, B), title='A o B', highlight=3),
                             cl.Panel('(2,2):(2,1)', tv=(2, 2)), title='composition')
        self.assertEqual(svg.count('<g class="panel"'), 4)
        self.assertEqual(svg.count('<text class="cell"'), 8 + 4 + 4 + 4)
        self.assertIn('A o B', svg)
        with self.assertRaises(cl.DomainError):
            cl.draw_panels()
        with self.assertRaises(cl.DomainError):
            cl.draw_panels(cl.Panel(A, highlight=99))

    def test_console(self):
        self.assertEqual(cl.print1d('(2,2):(2,1)'), '0 2 1 3')
        self.assertEqual(cl.print1D(ComposedLayout('Sw<1,0,1> o 0 o 4:1')), '0 1 3 2')  # x ^ ((x & 2) >> 1)
        table = cl.print_layout('(2,2):(1,2)')
        self.assertTrue(table.startswith('(2,2):(1,2)\n'))
        self.assertIn('Sw<1,0,1>', cl.print_layout(ComposedLayout('Sw<1,0,1> o 0 o (2,2):(1,2)')))
        with self.assertRaises(cl.RankError):
            cl.print_layout('8:1')


class TestCApi(unittest.TestCase):
    def test_every_function_is_declared(self):
        from cutelayout import _capi
        for name in _capi.FUNCTIONS:
            fn = getattr(cl.capi, name)
            self.assertTrue(callable(fn), name)
        self.assertEqual(cl.capi.CL_E_PARSE, -3)
        self.assertIn('cl_composition', dir(cl.capi))
        with self.assertRaises(AttributeError):
            cl.capi.cl_no_such_function

    def test_raw_call(self):
        out = ctypes.c_void_p()
        self.assertEqual(cl.capi.cl_layout_parse(b'(2,4):(1,2)', ctypes.byref(out)), 0)
        self.assertEqual(cl.capi.cl_layout_size(out), 8)
        cl.capi.cl_layout_free(out)


class TestCommandLine(unittest.TestCase):
    def run_module(self, *args):
        return subprocess.run([sys.executable, '-m', 'cutelayout'] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True)

    def test_eval(self):
        r = self.run_module('eval', 'composition((6,2):(8,2),(4,3):(3,1))', 'size((2,(2,2)):(4,(2,1)))')
        self.assertEqual((r.returncode, r.stdout), (0, '((2,2),3):((24,2),8)\n8\n'), r.stderr)
        r = self.run_module('eval', 'composition((4,3):(3,1),2:6)')
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stdout.startswith('error: '))

    def test_draw(self):
        r = self.run_module('draw', '(2,2):(1,2)', '--format', 'txt')
        self.assertEqual((r.returncode, r.stdout.strip()), (0, cl.print_layout('(2,2):(1,2)').strip()))


if __name__ == '__main__':
    unittest.main(verbosity=2)
