# SPDX-License-Identifier: BSD-3-Clause
"""Tests of cutelayout.explain: every operation's explanation ends in what
the package's own function gives (the C test tests/test_explain.c replays
every step), its steps are well-formed, and failures and bad input say
why."""
import unittest

import cutelayout as cl
from cutelayout import Layout


class TestExplain(unittest.TestCase):
    def check(self, op, layout, arg, expected):
        e = cl.explain(op, layout, arg)
        self.assertEqual(e.status, 0)
        self.assertEqual(e.steps[-1].rule, 'result')
        self.assertEqual(e.result, expected)
        for step in e.steps:
            self.assertIsInstance(step, cl.Step)
            self.assertTrue(step.rule and step.sentence and step.expression)
            self.assertGreaterEqual(step.depth, 0)
            if step.layout is not None:
                self.assertEqual(str(step.layout), step.value)
        return e

    def test_operations_against_the_package(self):
        A, B = Layout('(6,2):(8,2)'), Layout('(4,3):(3,1)')
        self.check('composition', A, B, cl.composition(A, B))
        self.check('coalesce', '(2,(1,6)):(1,(7,2))', None, cl.coalesce('(2,(1,6)):(1,(7,2))'))
        self.check('complement', '(2,2):(1,6)', 24, cl.complement('(2,2):(1,6)', 24))
        self.check('right_inverse', '(2,4):(4,1)', None, cl.right_inverse('(2,4):(4,1)'))
        self.check('left_inverse', '(2,4):(4,1)', None, cl.left_inverse('(2,4):(4,1)'))
        self.check('zipped_divide', '(12,10):(1,12)', (8, 4), cl.zipped_divide('(12,10):(1,12)', (8, 4)))
        self.check('logical_product', '(2,2):(1,2)', '(2,3):(1,2)', cl.logical_product('(2,2):(1,2)', '(2,3):(1,2)'))
        self.check('raked_product', '(2,2):(1,2)', '(3,4):(1,3)', cl.raked_product('(2,2):(1,2)', '(3,4):(1,3)'))

    def test_call_text_and_str(self):
        e = cl.explain('zipped_divide(34:1,8:1)')
        self.assertEqual(str(e.result), '(8,5):(1,8)')
        self.assertTrue(str(e).startswith('zipped_divide(34:1,8:1)\n1 logical_divide: '))
        self.assertIn('34 is not a multiple of 8', str(e))
        self.assertIn('zipped_divide(34:1,8:1)', repr(e))
        self.assertEqual([s.rule for s in e.steps if s.depth == 0], ['logical_divide', 'zip', 'result'])

    def test_failure_is_explained(self):
        e = cl.explain('composition', '(4,6):(1,8)', '2:6')
        self.assertNotEqual(e.status, 0)
        self.assertIsNone(e.result)
        self.assertIsInstance(e.error, cl.DivisibilityError)
        self.assertEqual(e.steps[-1].rule, 'fails')
        self.assertEqual(e.steps[-1].value, '')
        self.assertIn('stride divisibility condition', e.steps[-1].sentence)

    def test_bad_input(self):
        with self.assertRaises(cl.DomainError):
            cl.explain('transpose', '4:1')
        with self.assertRaises(cl.DomainError):
            cl.explain('composition', '4:1')
        with self.assertRaises(cl.KindError):
            cl.explain('blocked_product', '4:1', 2)
        with self.assertRaises(cl.UnsupportedError):
            cl.explain('coalesce', cl.make_identity_layout((4, 2)))
        with self.assertRaises(ValueError):
            cl.explain('4:1')
        with self.assertRaises(ValueError):
            cl.explain('composition(4:1,2:1,3:1)')


if __name__ == '__main__':
    unittest.main()
