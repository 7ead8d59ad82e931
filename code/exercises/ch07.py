"""Chapter 7 · Patterns and rules: the answers to exercises 7.1-7.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch07.
"""

import itertools
import math

import numpy as np

from uopc import F32, I32, Ops, UOp
from uopc.interp import evaluate
from uopc.rewrite import PatternMatcher, UPat, graph_rewrite, rule
from uopc.runtime import Program
from uopc.semantics import same
from uopc.symbolic import SYM, simplify
from uopc.textfmt import infix
from verify.generators import SPECIAL_FLOAT, SPECIAL_INT, param

from answers import check, exercise, out
from shared import call_of, fresh_matcher


@exercise("ch07", "7.1", "a MUL(x, x) rule that records its calls and declines")
def ex_7_1():
    calls, rules = [], []

    @rule("spy", UPat(Ops.MUL, src=(UPat.var("x"), UPat.var("x"))), rules)
    def spy(x):
        calls.append(x)
        return None

    matcher = PatternMatcher(rules)
    a, b = param(0, I32), param(1, I32)
    results = [matcher.rewrite(a * a), matcher.rewrite(a * b)]
    check(results == [None, None], f"rewrite returned {results}")
    check(len(calls) == 1 and calls[0] is a, "the function was called other than once, for a*a")
    check(not matcher.fired, f"fired is {dict(matcher.fired)}")
    out("called once, for a*a, with x bound to a; rewrite returned None both times; fired empty")


@exercise("ch07", "7.2", "the max(x,x) rule")
def ex_7_2():
    (found,) = [r for r in SYM if r.name == "max(x,x)"]
    names = [pattern.name for pattern in found.pat.src]
    check(names == ["x", "x"], f"source names {names}")
    a, b = param(0, I32), param(1, I32)
    check(found.pat.match(a.max(a), {}), "does not match a.max(a)")
    check(not found.pat.match(a.max(b), {}), "matches a.max(b)")
    check(simplify(a.max(a)) is a and simplify(a.max(b)) is a.max(b), "simplify disagrees")
    out(f"sources named {names}: it matches a.max(a) and not a.max(b)")


@exercise("ch07", "7.3", "ADD(var x, var y) on a+b and on a+a")
def ex_7_3():
    pattern = UPat(Ops.ADD, src=(UPat.var("x"), UPat.var("y")))
    a, b = param(0, I32), param(1, I32)
    names = {0: "a", 1: "b"}
    for node in (a + b, a + a):
        store = {}
        check(pattern.match(node, store), f"no match on {infix(node, names)}")
        shown = {key: infix(value, names) for key, value in store.items()}
        out(f"{infix(node, names)}: {shown}")
        if node is a + a:
            check(store["x"] is store["y"] is a, "on a+a both names do not hold a")
        else:
            check(store["x"] is a and store["y"] is b, "on a+b the names do not hold a and b")


@exercise("ch07", "7.4", "a - a")
def ex_7_4():
    a = param(0, I32)
    matcher = fresh_matcher()
    result = graph_rewrite(a - a, matcher)
    check(result is UOp.const(0), f"got {infix(result)}")
    check(matcher.fired == {"x+(-x) (int)": 1}, f"fired {dict(matcher.fired)}")
    check(all(evaluate(a - a, {0: v}) == 0 for v in SPECIAL_INT), "a - a is not always 0")
    out(f"simplify gives {result.arg}; fired: {dict(matcher.fired)}")


@exercise("ch07", "7.5", "x * recip(x) and 1.0")
def ex_7_5():
    x = param(0, F32)
    product = x * UOp(Ops.RECIP, (x,))
    specials = [v for v in SPECIAL_FLOAT if not same(evaluate(product, {0: v}), 1.0)]
    check(any(math.isnan(v) for v in specials) and 0.0 in specials, "nan and 0 are in the list")
    finite = next(float(n) for n in itertools.count(1) if evaluate(product, {0: n}) != 1.0)
    value = evaluate(product, {0: finite})
    by_numpy = float(np.float32(finite) * (np.float32(1.0) / np.float32(finite)))
    check(same(value, by_numpy) and value != 1.0, f"x = {finite}: {value}, NumPy {by_numpy}")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        by_numpy = [float(np.float32(v) * (np.float32(1.0) / np.float32(v))) for v in SPECIAL_FLOAT]
    numpy_list = [v for v, p in zip(SPECIAL_FLOAT, by_numpy, strict=True) if not same(p, 1.0)]
    check(len(numpy_list) == len(specials), f"NumPy finds {len(numpy_list)} specials")
    compiled = Program(call_of(product, [UOp.const(0.0)], "self_ratio"))(finite)
    check(same(compiled, value), f"C gives {compiled} at {finite}")
    fast = simplify(product, fast_math=True)
    check(fast is UOp.const(1.0), "fast math does not rewrite x * recip(x) to 1.0")
    shown = ", ".join(f"{v!r} -> {evaluate(product, {0: v})!r}" for v in specials[:6])
    out(f"{len(specials)} special values give something else, e.g. {shown}")
    out(f"the first integer that does: x = {finite} gives {value}")
