"""Chapter 10 · Simplifying floats: the answers to exercises 10.1-10.5.

Every z3 verdict is checked against the contract: a counterexample must make the two sides
differ under `evaluate`, a proof must hold on the special values and a seeded sample.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch10.
"""

import itertools
import math

import numpy as np
import z3

from uopc import F32, UOp
from uopc.interp import evaluate
from uopc.runtime import Program
from uopc.semantics import same
from uopc.symbolic import simplify
from uopc.textfmt import infix
from verify.generators import SPECIAL_FLOAT, param

from answers import check, exercise, out, out_machine
from shared import (
    FP32,
    RNE,
    bits_to_f32,
    call_of,
    disagreements,
    model_f32,
    sample_values,
    z3_f32,
    z3_find,
    z3_same,
)


@exercise("ch10", "10.1", "z3: x*2.0 against x+x in float32")
def ex_10_1():
    fx, x = z3.FP("x", FP32), param(0, F32)
    model = z3_find(z3.Not(z3_same(z3.fpMul(RNE, fx, z3_f32(2.0)), z3.fpAdd(RNE, fx, fx))))
    check(model is None, "z3 finds x with x*2.0 != x+x")
    checked, bad = disagreements(x * 2.0, x + x, [x], seed=101)
    check(not bad, f"x*2.0 != x+x at {bad[:3]}")
    zero = UOp.const(0.0)
    doubled, added = (Program(call_of(e, [zero], n)) for e, n in ((x * 2.0, "dbl"), (x + x, "add")))
    check(all(same(doubled(v), added(v)) for v in SPECIAL_FLOAT), "in C they differ")
    out(f"proved: x*2.0 and x+x have the same bits (nans alike); {checked} inputs agree")


@exercise("ch10", "10.2", "x, y with -(x-y) != y-x")
def ex_10_2():
    x, y = param(0, F32), param(1, F32)
    lhs, rhs = -(x - y), y - x
    pairs = itertools.product(SPECIAL_FLOAT, repeat=2)
    a, b = next(
        (p, q)
        for p, q in pairs
        if not same(evaluate(lhs, {0: p, 1: q}), evaluate(rhs, {0: p, 1: q}))
    )
    left, right = evaluate(lhs, {0: a, 1: b}), evaluate(rhs, {0: a, 1: b})
    fa, fb = np.float32(a), np.float32(b)
    check(same(left, float(-(fa + -fb))) and same(right, float(fb + -fa)), "NumPy disagrees")
    check(not same(left, right), "the contract gives equal values")
    zero = UOp.const(0.0)
    compiled = [Program(call_of(e, [zero, zero], n))(a, b) for e, n in ((lhs, "l"), (rhs, "r"))]
    check(same(compiled[0], left) and same(compiled[1], right), f"C gives {compiled}")
    out(f"x = {a}, y = {b}: -(x-y) = {left}, y-x = {right} (NumPy and C agree)")


@exercise("ch10", "10.3", "is x*x >= 0 always true?")
def ex_10_3():
    fx, x = z3.FP("x", FP32), param(0, F32)
    model = z3_find(z3.Not(z3.fpGEQ(z3.fpMul(RNE, fx, fx), z3_f32(0.0))))
    check(model is not None, "z3 proves x*x >= 0 with nan allowed")
    value = model_f32(model, fx)
    square = evaluate(x * x, {0: value})
    check(not square >= 0.0, f"the contract gives {square} >= 0 at {value}")
    out_machine(f"with nan allowed: false, z3's x = {value}, x*x = {square}")
    no_nan = z3_find(z3.Not(z3.fpIsNaN(fx)), z3.Not(z3.fpGEQ(z3.fpMul(RNE, fx, fx), z3_f32(0.0))))
    check(no_nan is None, "z3 finds a non-nan x with x*x < 0")
    samples = [v for v in (*SPECIAL_FLOAT, *sample_values(F32, 103, 500)) if not math.isnan(v)]
    check(all(evaluate(x * x, {0: v}) >= 0.0 for v in samples), "a negative square")
    out(f"with nan excluded: true (proved; {len(samples)} sampled inputs agree)")


@exercise("ch10", "10.4", "(x*3.0)*5.0 against x*15.0, and z3 on (x*2.0)*3.0")
def ex_10_4():
    x = param(0, F32)
    lhs, rhs = (x * 3.0) * 5.0, x * 15.0
    bits = 0x3F800000  # enumerate the float32s upward from 1.0
    while same(evaluate(lhs, {0: bits_to_f32(bits)}), evaluate(rhs, {0: bits_to_f32(bits)})):
        bits += 1
    value = bits_to_f32(bits)
    left, right = evaluate(lhs, {0: value}), evaluate(rhs, {0: value})
    fx = np.float32(value)
    check(not same(left, right), "the contract gives equal values")
    check(same(left, float((fx * np.float32(3.0)) * np.float32(5.0))), "NumPy disagrees (lhs)")
    check(same(right, float(fx * np.float32(15.0))), "NumPy disagrees (rhs)")
    out(f"x = {value!r} ({bits - 0x3F800000} floats above 1.0): {left!r} against {right!r}")
    zx = z3.FP("x", FP32)
    regrouped = z3.fpMul(RNE, z3.fpMul(RNE, zx, z3_f32(2.0)), z3_f32(3.0))
    model = z3_find(z3.Not(z3_same(regrouped, z3.fpMul(RNE, zx, z3_f32(6.0)))))
    check(model is None, "z3 refutes (x*2.0)*3.0 -> x*6.0")
    checked, bad = disagreements((x * 2.0) * 3.0, x * 6.0, [x], seed=104)
    check(not bad, f"(x*2.0)*3.0 != x*6.0 at {bad[:3]}")
    out(f"z3: (x*2.0)*3.0 -> x*6.0 is proved (doubling is exact); {checked} inputs agree")


@exercise("ch10", "10.5", "simplify(x + 0.0), strict and fast")
def ex_10_5():
    x = param(0, F32)
    strict, fast = simplify(x + 0.0), simplify(x + 0.0, fast_math=True)
    check(strict is x + 0.0, "strict rewrites x + 0.0")
    check(fast is x, "fast math keeps x + 0.0")
    at_zero = (evaluate(strict, {0: -0.0}), evaluate(fast, {0: -0.0}))
    check(not same(*at_zero), "the two agree at -0.0")
    out(
        f"strict: {infix(strict, {0: 'x'})}; fast math: {infix(fast, {0: 'x'})}; "
        f"at x = -0.0 they give {at_zero[0]} and {at_zero[1]}"
    )
