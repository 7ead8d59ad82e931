"""Chapter 11 · Simplifying integers: the answers to exercises 11.1-11.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch11.
"""

import math
from fractions import Fraction

import numpy as np
import z3

from uopc import I32, INT_MAX, UOp
from uopc.interp import evaluate
from uopc.rewrite import graph_rewrite
from uopc.semantics import floordiv, wrap32
from uopc.symbolic import simplify
from uopc.textfmt import infix
from verify.generators import param

from answers import check, exercise, out, out_machine
from shared import correct_on_all_points, fresh_matcher, model_i32, z3_find, z3_floordiv


@exercise("ch11", "11.1", "(i*8+j)//8 with j in [0, 7] and in [0, 8]")
def ex_11_1():
    i = param(0, I32, 0, 15)
    for top in (7, 8):
        j = param(1, I32, 0, top)
        e = (i * 8 + j) // 8
        result = simplify(e)
        check(correct_on_all_points(e, result, [i, j]), f"j in [0, {top}]: wrong result")
        check((result is i) == (top == 7), f"j in [0, {top}]: result is i: {result is i}")
        check(result is (i if top == 7 else i + j // 8), f"j in [0, {top}]: {infix(result)}")
        out(
            f"j in [0, {top}]: {infix(result, {0: 'i', 1: 'j'})}, is i: {result is i}; "
            "equal to the original on every input"
        )


@exercise("ch11", "11.2", "nested floor divisions over x in [-50, 50]")
def ex_11_2():
    xs = range(-50, 51)

    def nested(c1, c2, c):
        holds = all(floordiv(floordiv(x, c1), c2) == floordiv(x, c) for x in xs)
        exact = all(
            math.floor(Fraction(math.floor(Fraction(x, c1)), c2)) == math.floor(Fraction(x, c))
            for x in xs
        )
        check(holds == exact, f"({c1}, {c2}): the contract and exact fractions disagree")
        return holds

    for c1, c2, c in ((2, 3, 6), (-2, 3, -6)):
        holds = nested(c1, c2, c)
        check(holds, f"(x//{c1})//{c2} differs from x//{c}")
        out(f"(x//{c1})//{c2} == x//{c} for every x: {holds}")
    differ = [x for x in xs if floordiv(floordiv(x, 2), -3) != floordiv(x, -6)]
    by_numpy = [
        x for x in xs if np.floor_divide(np.floor_divide(x, 2), -3) != np.floor_divide(x, -6)
    ]
    check(differ and differ == by_numpy, f"{differ} against NumPy {by_numpy}")
    check(not nested(2, -3, -6), "(x//2)//-3 == x//-6 everywhere")
    x = param(0, I32)
    check(simplify((x // -2) // 3) is (x // -2) // 3, "the rule fires for a negative divisor")
    check(simplify((x // 2) // 3) is x // 6, "the rule does not fire for (x//2)//3")
    out(f"(x//2)//-3 differs from x//-6 at {len(differ)} values: {differ}")
    out("the rule (x//c1)//c2 fires only for positive divisors, narrower than the truth")


@exercise("ch11", "11.3", "(a*4+b)//4 with a in [0, T]")
def ex_11_3():
    def fires(top) -> bool:
        a, b = param(0, I32, 0, top), param(1, I32, 0, 3)
        return simplify((a * 4 + b) // 4) is a

    bound = (INT_MAX - 3) // 4  # the largest top at which a*4 + b <= INT_MAX
    for top in (15, 1000, 2**28, bound, bound + 1, 2**30):
        check(fires(top) == (4 * top + 3 <= INT_MAX), f"T = {top}: fires {fires(top)}")
        out(f"T = {top:,}: split fires: {fires(top)}")
    low, high = 1, INT_MAX  # fires at low, not at high (at T = 0, a is the constant 0)
    check(fires(low) and not fires(high), "the search does not start between a yes and a no")
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fires(middle) else (low, middle)
    check(low == bound, f"search {low}, bound {bound}")
    out(f"largest T found by search: {low:,} = (INT_MAX - 3) // 4")


@exercise("ch11", "11.4", "(i*3)%3 with i in [0, 1000] and with no range")
def ex_11_4():
    i = param(0, I32, 0, 1000)
    matcher = fresh_matcher()
    result = graph_rewrite((i * 3) % 3, matcher)
    check(result is UOp.const(0), f"got {infix(result)}")
    check(all(evaluate((i * 3) % 3, {0: v}) == 0 for v in range(1001)), "a nonzero remainder")
    check(matcher.fired == {"(a*c1+b)%c2": 1}, f"fired {dict(matcher.fired)}")
    out(f"i in [0, 1000]: the constant 0, right on all 1001 inputs; fired: {dict(matcher.fired)}")
    x = param(0, I32)
    check(simplify((x * 3) % 3) is (x * 3) % 3, "rewritten with no range")
    wrap = INT_MAX // 3 + 1  # the first i at which i*3 leaves int32
    remainder = evaluate((x * 3) % 3, {0: wrap})
    by_numpy = int((np.array([wrap], dtype=np.int32) * np.int32(3))[0]) % 3
    check(remainder == by_numpy == (wrap32(wrap * 3)) % 3 and remainder != 0, f"{remainder}")
    out(
        f"no range: not rewritten; at i = {wrap:,}, i*3 wraps to {wrap32(wrap * 3):,} "
        f"and the remainder is {remainder}"
    )


@exercise("ch11", "11.5", "z3: (x*3)//3 -> x with 32-bit floor division")
def ex_11_5():
    bx, x = z3.BitVec("x", 32), param(0, I32)
    model = z3_find(z3_floordiv(bx * 3, z3.BitVecVal(3, 32)) != bx)
    check(model is not None, "z3 proves (x*3)//3 == x")
    value = model_i32(model, bx)
    got = evaluate((x * 3) // 3, {0: value})
    check(got != value, f"the contract gives {got} at {value}")
    out_machine(f"false: z3's x = {value}, where (x*3)//3 = {got}")
    safe = z3.And(bx >= -(INT_MAX // 3), bx <= INT_MAX // 3)
    check(z3_find(safe, z3_floordiv(bx * 3, z3.BitVecVal(3, 32)) != bx) is None, "guarded")
    samples = range(-(INT_MAX // 3), INT_MAX // 3 + 1, 1_000_003)
    check(all(evaluate((x * 3) // 3, {0: v}) == v for v in samples), "guarded sample")
    out(f"with |x| <= INT_MAX // 3 (no wrap): proved; {len(samples)} sampled inputs agree")
