# SPDX-License-Identifier: BSD-3-Clause
"""Tests of the Python package: layouts and the algebra.  They test the
`cutelayout` that Python imports: meson test puts the build tree's package
first on PYTHONPATH; the test python-pip runs them against a copy that pip
installed into a fresh virtual environment.  The Rust tests (bindings/rust)
and the Julia tests (bindings/julia) mirror these."""
import itertools
import os
import unittest

import cutelayout as cl
from cutelayout import CuteLayoutError, Layout

CL_E_PARSE = -3


def leaves(t):
    if isinstance(t, int):
        return [t]
    return [x for item in t for x in leaves(item)]


def by_definition(shape, stride, i):
    """layout(i) from the definition: split i colexicographically over the
    flattened shape (the last mode takes what is left) and take the inner
    product with the stride."""
    shape, stride = leaves(shape), leaves(stride)
    index = 0
    for k, (s, d) in enumerate(zip(shape, stride)):
        c = i if k == len(shape) - 1 else i % s
        i //= s
        index += c * d
    return index


def small_layouts():
    """Every layout with up to two modes of extent 1..3 and stride 0..4, and
    some nested ones."""
    for rank in (1, 2):
        for shape in itertools.product(range(1, 4), repeat=rank):
            for stride in itertools.product(range(0, 5), repeat=rank):
                yield shape, stride
    yield (2, (2, 2)), (4, (2, 1))
    yield ((2, 3), 4), ((1, 2), 6)
    yield (2, (3, (2, 2))), (12, (4, (2, 1)))


class TestLayout(unittest.TestCase):
    def test_text_round_trip(self):
        for text in ['8:1', '(2,4):(1,2)', '(2,(2,2)):(4,(2,1))', '((2,3),4):((1,2),6)', '(8):(1)']:
            self.assertEqual(str(Layout(text)), text)
        self.assertEqual(str(Layout(' ( 2 , 4 ) : ( 1 , 2 ) ')), '(2,4):(1,2)')
        self.assertEqual(repr(Layout('(2,4):(1,2)')), "Layout('(2,4):(1,2)')")

    def test_call_is_the_definition(self):
        for shape, stride in small_layouts():
            L = Layout(shape, stride)
            n = L.size()
            self.assertEqual([L(i) for i in range(n)],
                             [by_definition(shape, stride, i) for i in range(n)], str(L))

    def test_coordinates(self):
        L = Layout('(2,4):(1,2)')
        self.assertEqual(L(3), 3)
        self.assertEqual(L((1, 2)), 5)
        self.assertEqual(L(1, 2), 5)
        M = Layout('(2,(2,2)):(4,(2,1))')
        self.assertEqual([M(i) for i in range(8)], [0, 4, 2, 6, 1, 5, 3, 7])
        self.assertEqual(M((1, (1, 0))), 6)
        self.assertEqual(M((1, 3)), M(1 + 2 * 3))  # a mode's coordinate may be linear

    def test_queries(self):
        L = Layout('(2,(2,2)):(4,(2,1))')
        self.assertEqual((L.size(), L.cosize(), L.rank(), L.depth()), (8, 8, 2, 2))
        self.assertEqual((cl.size(L), cl.cosize(L), cl.rank(L), cl.depth(L)), (8, 8, 2, 2))
        self.assertEqual(L.shape, (2, (2, 2)))
        self.assertEqual(L.stride, (4, (2, 1)))
        self.assertEqual(str(L[1]), '(2,2):(2,1)')
        self.assertEqual(str(L[1, 0]), '2:2')
        S = Layout('8:2')
        self.assertEqual((S.size(), S.cosize(), S.rank(), S.depth(), S.shape), (8, 15, 1, 0, 8))

    def test_constructors(self):
        self.assertEqual(str(Layout((2, 4), (1, 2))), '(2,4):(1,2)')
        self.assertEqual(str(Layout((2, (3, 4)))), '(2,(3,4)):(1,(2,6))')  # LayoutLeft
        self.assertEqual(str(Layout(8, 2)), '8:2')
        self.assertEqual(Layout((2, 4), (1, 2)), Layout('(2,4):(1,2)'))
        self.assertNotEqual(Layout('(2,4):(1,2)'), Layout('(2,4):(4,1)'))
        self.assertEqual(len({Layout('8:1'), Layout('8:1'), Layout('8:2')}), 2)

    def test_errors_carry_status_and_detail(self):
        with self.assertRaises(cl.ParseError) as cm:
            Layout('(2,4):(1,2')
        self.assertIsInstance(cm.exception, ValueError)
        self.assertEqual(cm.exception.status, CL_E_PARSE)
        self.assertEqual(cm.exception.message, 'malformed text')
        self.assertIn('column', cm.exception.detail)
        self.assertIn(cm.exception.detail, str(cm.exception))
        for text in ['', '(2,4)', '(2,4):(1,2,3)', '(2,4):(1,a)', '((((2))', ')']:
            with self.assertRaises(CuteLayoutError, msg=text) as cm:
                Layout(text)
            self.assertLess(cm.exception.status, 0)
            self.assertNotEqual(cm.exception.detail, '')
        with self.assertRaises(CuteLayoutError):
            Layout((2, 4), (1, 2, 3))  # shape and stride not congruent
        with self.assertRaises(CuteLayoutError) as cm:
            Layout('(2,4):(1,2)')((1, 2, 3))  # coordinate of the wrong rank
        self.assertIn('rank', cm.exception.detail)
        with self.assertRaises(CuteLayoutError):
            Layout('(2,4):(1,2)')[5]
        with self.assertRaises(TypeError):
            Layout((2, 4.5))

    def test_version(self):
        expected = os.environ.get('CUTELAYOUT_EXPECTED_VERSION')
        if expected:
            self.assertEqual(cl.version(), expected)
        self.assertRegex(cl.version(), r'^\d+\.\d+\.\d+$')


class TestComposition(unittest.TestCase):
    def test_is_function_composition(self):
        # composition(A, B)(i) == A(B(i)) when CuTe's divisibility conditions
        # hold in their strong form (powers of two always do) and B's modes
        # address A without carries between them (a single mode, or B
        # compact).  Elsewhere CuTe's result -- which the library returns --
        # need not be A o B: e.g. A = (6,2):(8,2), B = 2:4 passes CuTe's weak
        # check, and a non-injective B = (2,2):(2,2) is composed mode by mode.
        As = [Layout('(4,8):(8,1)'), Layout('(2,(2,4)):(16,(1,4))'), Layout('32:3'), Layout('(8,4):(1,8)')]
        Bs = [Layout(s, d) for s in (1, 2, 4, 8) for d in (0, 1, 2, 4, 8)]
        for s0, s1 in itertools.product((1, 2, 4), repeat=2):
            Bs += [Layout((s0, s1), (1, s0)), Layout((s0, s1), (s1, 1)), Layout((s0, s1), (2, 2 * s0))]
        for A in As:
            for B in Bs:
                R = cl.composition(A, B)
                for i in range(B.size()):
                    self.assertEqual(R(i), A(B(i)), f'composition({A}, {B}) = {R} at {i}')

    def test_cute_examples(self):
        self.assertEqual(str(cl.composition(Layout('20:2'), Layout('(5,4):(4,1)'))), '(5,4):(8,2)')
        self.assertEqual(str(cl.composition(Layout('(10,2):(16,4)'), Layout('(5,4):(1,5)'))),
                         '(5,(2,2)):(16,(80,4))')
        self.assertEqual(str(cl.composition('(6,2):(8,2)', '(4,3):(3,1)')), '((2,2),3):((24,2),8)')
        self.assertEqual(str(cl.composition('(4,8):(8,1)', '4:2')), '(2,2):(16,1)')

    def test_tiler(self):
        # A tuple tiler composes mode by mode; '_' (None) keeps a mode.
        A = Layout('(12,(4,8)):(59,(13,1))')
        self.assertEqual(str(cl.composition(A, (3, 8))), str(cl.composition(A, (Layout('3:1'), Layout('8:1')))))
        self.assertEqual(cl.composition(A, (None, 8))[0], A[0])

    def test_divisibility_error(self):
        with self.assertRaises(CuteLayoutError) as cm:
            cl.composition('(4,3):(3,1)', '2:6')
        self.assertEqual(cm.exception.status, -6)  # CL_E_DIVISIBILITY
        self.assertNotEqual(cm.exception.detail, '')


class TestDivideProduct(unittest.TestCase):
    def test_cute_examples(self):
        self.assertEqual(str(cl.complement('(2,2):(1,6)')), '3:2')  # cotarget cosize(L)
        self.assertEqual(str(cl.complement(Layout('4:1'), 24)), '6:4')
        self.assertEqual(str(cl.complement(Layout('(2,2):(1,6)'), 24)), '(3,2):(2,12)')
        self.assertEqual(str(cl.logical_divide(Layout('(4,2,3):(2,1,8)'), Layout('4:2'))),
                         '((2,2),(2,3)):((4,1),(2,8))')
        self.assertEqual(str(cl.logical_product(Layout('(2,2):(4,1)'), Layout('6:1'))),
                         '((2,2),(2,3)):((4,1),(2,8))')

    def test_divide_then_product_cover(self):
        # (B, complement(B, n)) covers [0, n) exactly once when B's tile
        # divides n: logical_divide of a compact layout is then a bijection
        # onto [0, size(A)).
        A = Layout('(4,6):(1,4)')
        for b in ['2:1', '3:2', '(2,3):(1,8)', '4:3', '(2,2):(1,4)']:
            D = cl.logical_divide(A, b)
            self.assertEqual(sorted(D(i) for i in range(D.size())), list(range(24)), str(D))
        P = cl.logical_product(Layout('(2,2):(1,2)'), Layout('3:1'))
        self.assertEqual(sorted(P(i) for i in range(P.size())), list(range(12)))

    def test_complement_error(self):
        with self.assertRaises(CuteLayoutError) as cm:
            cl.complement(Layout('(2,2):(1,1)'), 8)  # not injective
        self.assertLess(cm.exception.status, 0)


def injective_layouts():
    """Small injective layouts: distinct values at every coordinate."""
    for shape, stride in small_layouts():
        L = Layout(shape, stride)
        values = list(L)
        if len(set(values)) == len(values):
            yield L


class TestAlgebraProperties(unittest.TestCase):
    """Each operation against its definition, over families of small layouts."""

    def test_coalesce_is_the_same_function(self):
        for shape, stride in small_layouts():
            L = Layout(shape, stride)
            C = cl.coalesce(L)
            self.assertEqual(list(C), list(L), f'coalesce({L}) = {C}')
            self.assertLessEqual(C.depth(), 1)
            P = cl.coalesce(L, (1,) * L.rank()) if L.rank() > 1 else C
            self.assertEqual(list(P), list(L))

    def test_filter(self):
        for shape, stride in small_layouts():
            L = Layout(shape, stride)
            self.assertEqual(sorted(set(cl.filter(L))), sorted(set(L)), str(L))
            Z = cl.filter_zeros(L)
            self.assertEqual(Z.stride, L.stride)
            self.assertEqual(sorted(set(Z)), sorted(set(L)))
        self.assertEqual(str(cl.filter('(2,(3,4)):(0,(1,0))')), '3:1')
        self.assertEqual(str(cl.filter_zeros('(2,(3,4)):(0,(1,0))')), '(1,(3,1)):(0,(1,0))')
        self.assertEqual(str(cl.filter('(2,3):(0,1)', (1, 1))), '(1,3):(0,1)')

    def test_inverses(self):
        for L in injective_layouts():
            R = cl.right_inverse(L)
            self.assertEqual([L(R(i)) for i in range(R.size())], list(range(R.size())), f'right_inverse({L}) = {R}')
            try:
                Li = cl.left_inverse(L)
            except cl.DivisibilityError:  # CuTe's condition: each stride a multiple of the size so far
                continue
            self.assertEqual([Li(L(i)) for i in range(L.size())], list(range(L.size())), f'{L}, {Li}')
        self.assertEqual(str(cl.right_inverse('(4,8):(8,1)')), '(8,4):(4,1)')

    def test_complement_covers(self):
        # (L, complement(L, n)) is a bijection onto [0, n) when L = s:d and
        # s*d divides n.
        for s in (1, 2, 3, 4):
            for d in (1, 2, 3, 4):
                for k in (1, 2, 3):
                    L = Layout(s, d)
                    n = s * d * k
                    C = cl.complement(L, n)
                    both = cl.make_layout(L, C)
                    self.assertEqual(sorted(both), list(range(n)), f'complement({L}, {n}) = {C}')
        self.assertEqual(str(cl.complement('4:2', (2, 24))), str(cl.complement('4:2', 48)))

    def test_divides_and_products_arrange_the_same_values(self):
        A = Layout('(8,6):(1,8)')
        for B in ['2:1', '4:2', '(2,3):(1,8)']:
            D = cl.logical_divide(A, B)
            self.assertEqual(D[0], cl.composition(A, B))
            for other in (cl.zipped_divide, cl.tiled_divide, cl.flat_divide):
                self.assertEqual(sorted(other(A, B)), sorted(D), other.__name__)
        self.assertEqual(str(cl.zipped_divide('(8,6):(1,8)', (2, 3))), '((2,3),(4,2)):((1,8),(2,24))')
        self.assertEqual(cl.flat_divide('(8,6):(1,8)', (2, 3)).rank(), 4)
        self.assertEqual(cl.tiled_divide('(8,6):(1,8)', (2, 3)).rank(), 3)
        block, tiler = Layout('(2,2):(1,2)'), Layout('(3,4):(1,3)')
        for product in (cl.logical_product, cl.zipped_product, cl.tiled_product, cl.flat_product,
                        cl.blocked_product, cl.raked_product):
            P = product(block, tiler)
            self.assertEqual(sorted(P), list(range(48)), product.__name__)
        self.assertEqual(cl.logical_product(block, tiler)[0], block)
        self.assertEqual(str(cl.blocked_product('(2,2):(1,2)', '(3,4):(1,3)')), '((2,3),(2,4)):((1,4),(2,12))')
        self.assertEqual(str(cl.raked_product('(2,2):(1,2)', '(3,4):(1,3)')), '((3,2),(4,2)):((4,1),(12,2))')  # blocked's modes, zipped the other way

    def test_tile_to_shape(self):
        T = cl.tile_to_shape('(2,2):(1,2)', (4, 6))
        self.assertEqual((T.size(), sorted(T)), (24, list(range(24))))
        self.assertEqual(cl.product(cl.shape(T)), 24)
        R = cl.tile_to_shape('(2,2):(1,2)', (4, 6), (1, 0))
        self.assertEqual(sorted(R), list(range(24)))
        self.assertNotEqual(R, T)
        with self.assertRaises(cl.DivisibilityError):
            cl.tile_to_shape('(3,2):(1,3)', (4, 6))

    def test_common_vector_nullspace_casts(self):
        self.assertEqual(cl.max_common_vector('(4,8):(1,4)', '32:1'), 32)
        self.assertEqual(cl.max_common_vector('(4,8):(8,1)', '(4,8):(1,4)'), 1)
        M = cl.max_common_layout('(4,8):(1,4)', '(4,8):(1,4)')
        self.assertEqual([M(i) for i in range(M.size())], list(range(32)))
        for L in ['(2,3,4):(0,1,0)', '(4,(2,2)):(1,(0,8))', '8:1']:
            N = cl.nullspace(L)
            self.assertEqual({Layout(L)(N(i)) for i in range(N.size())}, {0}, L)
        self.assertEqual(str(cl.upcast('(4,8):(1,4)', 4)), '(1,8):(1,1)')
        self.assertEqual(str(cl.downcast('(4,8):(1,4)', 2)), '(8,8):(1,8)')
        with self.assertRaises(cl.DivisibilityError):
            cl.upcast('(4,8):(1,3)', 2)

    def test_making(self):
        self.assertEqual(str(cl.make_layout((2, 4))), '(2,4):(1,2)')
        self.assertEqual(str(cl.make_layout((2, 4), cl.LayoutRight)), '(2,4):(4,1)')
        self.assertEqual(str(Layout((2, 4), cl.LayoutLeft)), '(2,4):(1,2)')
        self.assertEqual(str(cl.make_layout((2, 4), (3, 1))), '(2,4):(3,1)')
        self.assertEqual(str(cl.make_layout(Layout('2:1'), Layout('4:2'))), '(2,4):(1,2)')
        self.assertEqual(str(cl.make_layout(Layout('2:1'))), '(2):(1)')
        self.assertEqual(str(cl.make_layout()), '():()')
        self.assertEqual(str(cl.make_ordered_layout((2, 3, 4), (1, 2, 0))), '(2,3,4):(4,8,1)')
        self.assertEqual(str(cl.make_layout_like('(2,3):(3,1)')), '(2,3):(3,1)')
        self.assertEqual(str(cl.make_layout_like('(2,3):(9,1)')), '(2,3):(3,1)')
        F = cl.make_fragment_like('(2,3):(3,1)')
        self.assertEqual((F.shape, sorted(F)), ((2, (3,)), list(range(6))))

    def test_modes(self):
        L = Layout('(2,(3,4),5):(1,(2,6),24)')
        self.assertEqual(str(cl.flatten(L)), '(2,3,4,5):(1,2,6,24)')
        self.assertEqual(cl.unflatten(cl.flatten(L), L.shape), L)
        self.assertEqual(str(cl.group(L, 0, 2)), '((2,(3,4)),5):((1,(2,6)),24)')
        self.assertEqual(str(cl.take(L, 1, 3)), '((3,4),5):((2,6),24)')
        self.assertEqual(str(cl.select(L, 2, 0)), '(5,2):(24,1)')
        self.assertEqual(str(cl.append(Layout('2:1'), Layout('3:2'))), '(2,3):(1,2)')
        self.assertEqual(str(cl.append(Layout('2:1'))), '(2,1):(1,0)')
        self.assertEqual(str(cl.prepend(Layout('2:1'), Layout('3:2'))), '(3,2):(2,1)')
        self.assertEqual(str(cl.zip('((2,3),(4,5)):((1,2),(6,24))')), '((2,4),(3,5)):((1,6),(2,24))')
        self.assertEqual(cl.get(L, 1, 0), L[1, 0])
        with self.assertRaises(cl.DomainError):
            cl.take(L, 2, 9)

    def test_slice_and_offset(self):
        L = Layout('(2,(3,4)):(12,(1,3))')
        for crd in [(1, cl._), (cl._, (2, cl._)), (None, 5), (1, (2, 3))]:
            S, offset = cl.slice_and_offset(crd, L)
            self.assertEqual(S, cl.slice(crd, L))
            self.assertEqual(offset, L(tuple(0 if c is None or c is cl._ else c for c in crd))
                             if not isinstance(crd[1], tuple) else
                             L((crd[0] if isinstance(crd[0], int) else 0, tuple(c if isinstance(c, int) else 0
                                                                               for c in crd[1]))))
        S, offset = cl.slice_and_offset((1, None), L)
        self.assertEqual([offset + S(j) for j in range(S.size())], [L(1, j) for j in range(12)])


class TestDocs(unittest.TestCase):
    def test_module_docstring_examples(self):
        import doctest
        failures, tried = doctest.testmod(cl)
        self.assertGreater(tried, 0)
        self.assertEqual(failures, 0)


if __name__ == '__main__':
    unittest.main(verbosity=2)
