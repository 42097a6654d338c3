# SPDX-License-Identifier: BSD-3-Clause
"""Why an operation of the layout algebra gives what it gives (explain.h):
the steps of its definition, each with its rule, a sentence with the
numbers, the intermediate value and an eval-language expression that
recomputes it.

    >>> e = explain("composition", "(6,2):(8,2)", "(4,3):(3,1)")
    >>> e.steps[-1].value
    '((2,2),3):((24,2),8)'
    >>> explain("complement((2,2):(1,6),24)").result
    Layout('(3,2):(2,12)')
"""
from ctypes import byref, c_void_p
from typing import NamedTuple, Optional

from ._ffi import capi, check, error_class, owned_string
from ._layout import Layout
from ._values import Tuple


class Step(NamedTuple):
    """One step: `rule`, `sentence`, `value` (canonical text, '' for a
    failing step), `expression` (eval language), `depth` (0 for the
    operation's own steps, deeper for the steps that explain a step) and
    `layout` (the value as a Layout, or None when it is not one)."""
    rule: str
    sentence: str
    value: str
    expression: str
    depth: int
    layout: Optional[Layout]


class Explanation:
    """The steps of one operation.  `status` is 0, or the failure status
    when the operation breaks a precondition (the last step, rule "fails",
    says where); `error` is then that failure as an exception (not raised).
    str() is the text `cute-layout explain` prints."""

    def __init__(self, steps, status, text):
        self.steps = steps
        self.status = status
        self.error = None if status == 0 else error_class(status)(status, steps[-1].sentence)
        self._text = text

    @property
    def result(self):
        """The operation's result (None when it fails)."""
        return self.steps[-1].layout if self.status == 0 else None

    def __str__(self):
        return self._text

    def __repr__(self):
        return '<Explanation of %s, %d steps>' % (self._text.split('\n', 1)[0], len(self.steps))


def _split_call(expr):
    """'name(a,b)' -> ('name', ['a', 'b']): the arguments as text, split at
    their top-level commas."""
    name, paren, rest = expr.strip().partition('(')
    if not paren or not rest.endswith(')') or not name.strip().isidentifier():
        raise ValueError('expected a call NAME(ARG,...), not %r' % expr)
    args, depth, start = [], 0, 0
    body = rest[:-1]
    for i, c in enumerate(body):
        depth += c in '(<'
        depth -= c in ')>'
        if c == ',' and depth == 0:
            args.append(body[start:i])
            start = i + 1
    args.append(body[start:])
    return name.strip(), [a.strip() for a in args]


def _read(handle):
    steps = []
    for i in range(capi.cl_explanation_count(handle)):
        borrowed = capi.cl_explanation_layout(handle, i)
        layout = None
        if borrowed:
            copy = c_void_p()
            check(capi.cl_layout_copy(borrowed, byref(copy)))
            layout = Layout._adopt(copy)
        steps.append(Step(capi.cl_explanation_rule(handle, i).decode(),
                          capi.cl_explanation_sentence(handle, i).decode(),
                          capi.cl_explanation_value(handle, i).decode(),
                          capi.cl_explanation_expression(handle, i).decode(),
                          capi.cl_explanation_depth(handle, i), layout))
    status = capi.cl_explanation_status(handle)
    return Explanation(steps, status if status < 0 else 0, owned_string(capi.cl_explanation_text, handle))


def explain(op, layout=None, arg=None):
    """The explanation of op(layout[, arg]) (op a name, layout a Layout or
    its text, arg a tiler, a cotarget or a layout), or of a call given as
    one text, explain("zipped_divide(34:1,8:1)"), whose arguments are
    literals."""
    if layout is None:
        op, args = _split_call(op)
        if len(args) > 2:
            raise ValueError('%s: at most two arguments' % op)
        layout, arg = args[0], (args[1] if len(args) == 2 else None)
    layout = layout if isinstance(layout, Layout) else Layout(layout)
    arg = None if arg is None else Tuple(arg)
    handle = c_void_p()
    check(capi.cl_explain(op.encode(), layout, arg, byref(handle)))
    try:
        return _read(handle)
    finally:
        capi.cl_explanation_free(handle)
