"""Constant folding, parameter substitution and call inlining, one case a line."""

import math

import pytest

from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, CallArg, Ops, ParamArg, Ptr, UOp
from uopc.fold import FOLD, INLINE, SUBST, fold, substitute
from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher, graph_rewrite
from uopc.symbolic import simplify

C = UOp.const
x = UOp(Ops.PARAM, (), ParamArg(0, F32))
y = UOp(Ops.PARAM, (), ParamArg(1, F32))
n = UOp(Ops.PARAM, (), ParamArg(0, I32))
m = UOp(Ops.PARAM, (), ParamArg(1, I32))
z = UOp(Ops.PARAM, (), ParamArg(5, F32))
relu_body = (x * y + 1.0).max(0.0)


def call(body, *args, name="f"):
    return UOp(Ops.CALL, (body, *args), CallArg(name))


FOLDS = [
    (lambda: C(2) + 3, C(5)),
    (lambda: C(INT_MAX) + 1, C(INT_MIN)),
    (lambda: C(7) // 0, C(0)),
    (lambda: C(7) % 0, C(7)),
    (lambda: C(INT_MIN) // -1, C(INT_MIN)),
    (lambda: C(1.0).lt(C(2.0)), C(True)),  # CMPLT folds to a bool
    (lambda: C(3.7).cast(I32), C(3)),  # CAST folds to its target
    (lambda: C(math.nan).cast(I32), C(0)),
    (lambda: C(16777217).cast(F32), C(16777216.0)),
    (lambda: C(1e8) + C(1.0), C(100000000.0)),
    (lambda: C(-0.0) + C(0.0), C(0.0)),
    (lambda: C(0.0).max(C(-0.0)), C(-0.0)),
    (lambda: UOp(Ops.RECIP, (C(-0.0),)), C(-math.inf)),
    (lambda: C(True).where(C(1.5), C(2.5)), C(1.5)),
    (lambda: C(True) * C(False), C(False)),
]


@pytest.mark.parametrize("build, expected", FOLDS)
def test_const_fold(build, expected):
    pm = PatternMatcher(FOLD)
    assert graph_rewrite(build(), pm) is expected
    assert pm.fired["const fold"] == 1


def test_fold_leaves_non_constants():
    assert graph_rewrite(n + 3, PatternMatcher(FOLD)) is n + 3


CALLS = [
    (lambda: call(relu_body, C(2.0), C(3.0)), C(7.0)),
    (lambda: call(relu_body, C(math.nan), C(3.0)), C(0.0)),
    (lambda: call(relu_body, C(math.inf), C(0.0)), C(0.0)),
    (lambda: call(n + m, C(2), C(3)), C(5)),
]


@pytest.mark.parametrize("build, expected", CALLS)
def test_call_with_constants_folds_to_one_constant(build, expected):
    assert simplify(build()) is expected


def test_partial_evaluation():
    specialised = simplify(call(relu_body, z, C(3.0)))
    assert specialised is (z * 3.0 + 1.0).max(0.0)
    assert len(specialised.toposort()) == 7
    assert len(simplify(call(relu_body, z, C(0.0))).toposort()) == 6  # z*0.0 stays


def test_substitution_is_simultaneous():
    # f(P1, c) over P0 + P1: P0 := P1 and P1 := c at once, giving P1 + c (not c + c)
    assert substitute(n + m, (m, C(4))) is m + 4
    assert simplify(call(n + m, m, C(4))) is m + 4
    assert simplify(call(n + m * 2, m, n)) is m + n * 2  # a swap neither loops nor doubles


def test_inlining_agrees_with_evaluating_the_call():
    """Second catcher for the planted bug "interp: call body sees the caller's env": the call
    evaluated as a call, and the call inlined, give one value (the body sees its arguments)."""
    f_of = call(n + m * 2, m, C(5))  # f(m, 5) over P0 + P1*2 is m + 10
    env = {0: 100, 1: 7}
    assert evaluate(f_of, env) == 17 == evaluate(graph_rewrite(f_of, fold), env)


def test_folding_and_the_interpreter_round_a_float_input_alike():
    """Second catcher for the planted bug "interp: float input not rounded to f32": 2**24 + 1
    is no float32; as a constant argument and as an input it is 2**24, so the sum is 2**24."""
    folded = simplify(call(x + y, C(16777217.0), C(1.0)))
    assert folded is C(16777216.0)
    assert evaluate(x + y, {0: 16777217.0, 1: 1.0}) == folded.arg


def test_subst_rule_replaces_scalar_params_only():
    pointer = UOp(Ops.PARAM, (), ParamArg(0, Ptr(F32, 4)))
    pm = PatternMatcher(SUBST)
    assert pm.rewrite(n, ctx=(C(9),)) is C(9)
    assert pm.rewrite(pointer, ctx=(C(9),)) is None
    assert pm.rewrite(m, ctx=(C(9),)) is None  # slot 1 has no argument here


def test_memory_call_is_not_inlined():
    pointer = UOp(Ops.PARAM, (), ParamArg(0, Ptr(F32, 2)))
    index = UOp(Ops.INDEX, (pointer, C(0)))
    store = UOp(Ops.STORE, (index, C(1.0)))
    buffer = UOp(Ops.BUFFER, (), ParamArg(0, Ptr(F32, 2)))
    kernel = call(UOp.sink(store), buffer)
    assert graph_rewrite(kernel, fold) is kernel


def test_value_call_with_bool_result_inlines():
    b = UOp(Ops.PARAM, (), ParamArg(0, BOOL))
    assert simplify(call(b.ne(C(True)), C(False))) is C(True)


def test_rule_lists():
    assert [r.name for r in FOLD + SUBST + INLINE] == [
        "const fold",
        "param -> argument",
        "inline call",
    ]
    assert [r.name for r in fold.rules] == ["const fold", "inline call"]
