"""Chapter 9 · Running programs by folding: the answers to exercises 9.1-9.5.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch09.
"""

import numpy as np

from uopc import F32, I32, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import evaluate, run_call
from uopc.rewrite import graph_rewrite
from uopc.runtime import Program
from uopc.semantics import floordiv, same
from uopc.symbolic import simplify
from uopc.textfmt import infix
from verify.generators import SPECIAL_FLOAT, param

from answers import check, exercise, out
from shared import Tracer, call_of, fresh_matcher, relu_parts


@exercise("ch09", "9.1", "folding (2+3)*(10//4)")
def ex_9_1():
    tracer = Tracer(fresh_matcher().rules)
    result = graph_rewrite((UOp.const(2) + 3) * (UOp.const(10) // 4), tracer)
    steps = [(infix(before), infix(after), name) for before, after, name in tracer.steps]
    predicted = [  # sources first, left to right, then the product
        ("(2 + 3)", "5", "const fold"),
        ("(10 // 4)", "2", "const fold"),
        ("(5 * 2)", "10", "const fold"),
    ]
    check(result is UOp.const((2 + 3) * (10 // 4)), f"got {infix(result)}")
    check(steps == predicted, f"steps {steps}")
    check(evaluate((UOp.const(2) + 3) * (UOp.const(10) // 4), {}) == result.arg, "evaluate")
    out(
        f"{result.arg} (Python: (2+3)*(10//4) = {(2 + 3) * (10 // 4)}); folds: "
        + ", ".join(f"{before} -> {after}" for before, after, _ in steps)
    )


@exercise("ch09", "9.2", "relu called with 1.0 and 3.0")
def ex_9_2():
    x, y, body, call = relu_parts()
    folded = simplify(call_of(body, [UOp.const(1.0), UOp.const(3.0)], "relu"))
    compiled, interpreted = Program(call)(1.0, 3.0), evaluate(body, {0: 1.0, 1: 3.0})
    check(folded.op is Ops.CONST and len(folded.toposort()) == 1, "not one constant")
    check(same(folded.arg, compiled) and same(folded.arg, interpreted), f"{folded.arg}")
    check(folded.arg == max(1.0 * 3.0 + 1.0, 0.0), "not max(1*3 + 1, 0) = 4.0")
    out(f"one CONST {folded.arg}; compiled relu {compiled}, evaluate {interpreted}")


@exercise("ch09", "9.3", "x // y called with y = 0")
def ex_9_3():
    x, y, z = param(0, I32), param(1, I32), param(2, I32)
    body = x // y
    constant = simplify(call_of(body, [UOp.const(17), UOp.const(0)], "div"))
    check(constant is UOp.const(floordiv(17, 0)), f"div(17, 0) folds to {infix(constant)}")
    partial = simplify(call_of(body, [z, UOp.const(0)], "div"))
    check(partial is UOp.const(0), f"div(z, 0) becomes {infix(partial)}")
    compiled = Program(call_of(body, [UOp.const(0), UOp.const(0)], "div"))(17, 0)
    check(compiled == evaluate(body, {0: 17, 1: 0}) == 0, f"C gives {compiled}")
    out(f"div(17, 0) folds to {constant.arg}, div(z, 0) to {partial.arg}; C and evaluate: 0")


@exercise("ch09", "9.4", "x * 0 for an int x in [0, 100] and for a float x")
def ex_9_4():
    n, f = param(0, I32, 0, 100), param(1, F32)
    check(simplify(n * 0) is UOp.const(0), "the int product does not fold")
    check(simplify(f * 0.0) is f * 0.0, "the float product is rewritten")
    bad = [v for v in SPECIAL_FLOAT if not same(evaluate(f * 0.0, {1: v}), 0.0)]
    with np.errstate(invalid="ignore"):  # inf * 0 is nan, which is the point
        products = [float(np.float32(v) * np.float32(0.0)) for v in SPECIAL_FLOAT]
    by_numpy = [
        v for v, product in zip(SPECIAL_FLOAT, products, strict=True) if not same(product, 0.0)
    ]
    check(bad and all(map(same, bad, by_numpy)) and len(bad) == len(by_numpy), f"{bad}")
    out("the int x*0 folds to 0; the float x*0.0 stays")
    out(
        "inputs where x*0.0 is not +0.0: "
        + ", ".join(f"{v!r} -> {evaluate(f * 0.0, {1: v})!r}" for v in bad)
    )


@exercise("ch09", "9.5", "a CALL whose body stores")
def ex_9_5():
    kernel = Builder()
    kernel.buffer(0, F32, 2).store(0, 1.0)
    call = make_call(kernel.body(), [UOp(Ops.BUFFER, (), ParamArg(0, Ptr(F32, 2)))], "store")
    matcher = fresh_matcher()
    result = graph_rewrite(call, matcher)
    check(result.op is Ops.CALL, f"the root became {result.op.name}")
    check(matcher.fired["inline call"] == 0, "inline call fired on a memory call")
    data = [0.0, 0.0]
    run_call(result, [data])
    check(data == [1.0, 0.0], f"the simplified call stores {data}")
    out("after simplify the root is still the CALL; inline call did not fire; it still stores")
