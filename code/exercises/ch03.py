"""Chapter 3 · What every op means: the answers to exercises 3.1-3.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch03.
"""

import itertools
import math
import random
from fractions import Fraction

import numpy as np

from uopc import F32, I32, Ops, UOp
from uopc.interp import evaluate
from uopc.runtime import Program
from uopc.semantics import eval_op, f32, f32_bits, same
from uopc.symbolic import simplify
from verify.generators import SPECIAL_FLOAT, param

from answers import check, exercise, out
from shared import call_of, function_lines, sign


@exercise("ch03", "3.1", "FLOORDIV and FLOORMOD of (-8, 3)")
def ex_3_1():
    q = eval_op(Ops.FLOORDIV, I32, [-8, 3])
    r = eval_op(Ops.FLOORMOD, I32, [-8, 3])
    check(q == math.floor(Fraction(-8, 3)), f"q = {q}")
    check(r == -8 - 3 * math.floor(Fraction(-8, 3)), f"r = {r}")
    check(3 * q + r == -8 and 0 <= r < 3, f"3q + r = {3 * q + r}")
    out(f"q = {q} (floor of -2.67), r = {r}; 3*{q} + {r} = -8")


@exercise("ch03", "3.2", "the ternary max of 0.0 and -0.0, both ways")
def ex_3_2():
    first = eval_op(Ops.MAX, F32, [0.0, -0.0])
    second = eval_op(Ops.MAX, F32, [-0.0, 0.0])
    check(same(first, -0.0) and same(second, 0.0), f"{first}, {second}")
    check(sign(first) != sign(second), "the two results have the same sign")
    fmax = Program(call_of(param(0, F32).max(param(1, F32)), [UOp.const(0.0)] * 2, "max_of"))
    check(same(fmax(0.0, -0.0), first) and same(fmax(-0.0, 0.0), second), "C's max differs")
    a, b = param(0, F32), param(1, F32)
    check(simplify(a.max(b)) is a.max(b) and simplify(b.max(a)) is b.max(a), "kept as written")
    check(simplify(a.max(b)) is not simplify(b.max(a)), "float max(a,b) and max(b,a) merged")
    n, m = param(0, I32), param(1, I32)
    check(simplify(n.max(m)) is simplify(m.max(n)), "int max is reordered (it commutes)")
    out(f"max(0.0, -0.0) = {first}, max(-0.0, 0.0) = {second}: each the second argument")
    out("simplify keeps f32 max(a, b) and max(b, a) apart; for i32 it makes them one node")


@exercise("ch03", "3.3", "WHERE(x != 0, 100 // x, 0)")
def ex_3_3():
    x = param(0, I32)
    guarded = x.ne(0).where(UOp.const(100) // x, 0)
    compiled = Program(call_of(guarded, [UOp.const(0)], "guarded"))
    for value in (0, 7, -3):
        by_hand = 100 // value if value != 0 else 0
        interpreted, from_c = evaluate(guarded, {0: value}), compiled(value)
        check(interpreted == from_c == by_hand, f"x = {value}: {interpreted}, {from_c}")
        out(f"x = {value}: {interpreted} (C {from_c}, by hand {by_hand})")
    check(evaluate(UOp.const(100) // x, {0: 0}) == 0, "the untaken 100 // 0 is computed as 0")
    statements = function_lines(compiled.source, "guarded")[1:-1]
    check(any("floordiv_i32(100, p0)" in line for line in statements[:-2]), "no unguarded divide")
    out("the C computes floordiv_i32(100, p0) before it selects: the helper makes x = 0 safe")


@exercise("ch03", "3.4", "a * recip(b) against a / b")
def ex_3_4():
    a, b = param(0, F32), param(1, F32)
    quotient = a * UOp(Ops.RECIP, (b,))
    ours = evaluate(quotient, {0: 7.0, 1: 3.0})
    numpy_value = float(np.float32(7.0) / np.float32(3.0))
    check(ours == f32(7.0 * f32(1.0 / 3.0)), "two roundings: 1/3, then the product")
    check(numpy_value == f32(7.0 / 3.0), "NumPy divides with one rounding")
    divide = Program(call_of(quotient, [UOp.const(0.0)] * 2, "divide"))
    check(same(divide(7.0, 3.0), ours), f"C gives {divide(7.0, 3.0)} for 7/3")
    out(f"7/3: a*recip(b) = {ours}, NumPy a/b = {numpy_value}, equal: {ours == numpy_value}")
    r = random.Random(34)
    tries, found, pair = 0, None, None
    while found is None:  # a seeded search for a pair where the two roundings show
        tries += 1
        pair = (f32(r.uniform(1.0, 100.0)), f32(r.uniform(1.0, 100.0)))
        value = evaluate(quotient, dict(enumerate(pair)))
        if value != float(np.float32(pair[0]) / np.float32(pair[1])):
            found = value
    compiled = divide(*pair)
    check(found != f32(pair[0] / pair[1]), "the pair found gives the correctly rounded quotient")
    check(same(compiled, found), f"C gives {compiled}, the interpreter {found}")
    out(
        f"seeded search, draw {tries}: {pair[0]!r} / {pair[1]!r}: a*recip(b) = {found}, "
        f"a/b = {f32(pair[0] / pair[1])}"
    )


@exercise("ch03", "3.5", "a <= b against not (b < a)")
def ex_3_5():
    a, b = param(0, F32), param(1, F32)
    not_less = b.lt(a).ne(True)  # not (b < a), in ops the contract has
    floats = sorted({f32_bits(v): f32(v) for v in SPECIAL_FLOAT}.items())  # float32s, no repeats
    pairs = list(itertools.product([v for _, v in floats], repeat=2))
    differ = [(p, q) for p, q in pairs if (p <= q) != evaluate(not_less, {0: p, 1: q})]
    check(differ, "no special pair tells them apart")
    check(all(math.isnan(p) or math.isnan(q) for p, q in differ), "a difference without nan")
    p, q = differ[0]
    check(bool(np.less_equal(np.float32(p), np.float32(q))) == (p <= q), "NumPy's <= agrees")
    ordinary = [(p, q) for p, q in pairs if not (math.isnan(p) or math.isnan(q))]
    r = random.Random(35)
    ordinary += [(f32(r.uniform(-1e6, 1e6)), f32(r.uniform(-1e6, 1e6))) for _ in range(500)]
    check(all((p <= q) == evaluate(not_less, {0: p, 1: q}) for p, q in ordinary), "finite")
    out(
        f"first special pair that differs: a = {p}, b = {q}: a <= b is {p <= q}, "
        f"not (b < a) is {evaluate(not_less, {0: p, 1: q})}"
    )
    out(
        f"{len(differ)} of {len(pairs)} special pairs differ, each with a nan; "
        f"{len(ordinary)} pairs without nan all agree"
    )
