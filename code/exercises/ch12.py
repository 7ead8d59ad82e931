"""Chapter 12 · Rendering C: the answers to exercises 12.1-12.5.

12.4's table depends on the installed clang: its lines end in `(this machine)`.

Run by code/exercises/solutions.py with the others, or alone: solutions.py ch12.
"""

import ctypes
import math

from uopc import F32, I32, INT_MAX, INT_MIN, UOp
from uopc.builder import signature_call
from uopc.interp import evaluate
from uopc.render import literal, render
from uopc.runtime import Program
from uopc.semantics import floordiv, same
from verify.generators import SPECIAL_INT, param

from answers import check, exercise, out, out_machine
from shared import LEVELS, c_function, call_of, function_lines


@exercise("ch12", "12.1", "x // y with and without ranges")
def ex_12_1():
    plain_x, plain_y = param(0, I32), param(1, I32)
    ranged_x, ranged_y = param(0, I32, 0, 100), param(1, I32, 1, 10)
    zero = UOp.const(0)
    domain = [(a, b) for a in range(101) for b in range(1, 11)]
    for name, body, wanted in (
        ("no ranges", plain_x // plain_y, "floordiv_i32(p0, p1)"),
        ("x in [0,100], y in [1,10]", ranged_x // ranged_y, "p0 / p1"),
    ):
        call = signature_call(body, [I32, I32], "div")  # the values come at run time
        (statement,) = function_lines(render(call), "div")[1:2]
        check(statement == f"  int32_t v0 = {wanted};", f"{name}: {statement}")
        compiled = Program(call)
        check(all(compiled(a, b) == evaluate(body, {0: a, 1: b}) for a, b in domain), name)
        out(
            f"{name}: `{statement.strip()}`, and C equals the interpreter on all {len(domain)} "
            "inputs"
        )
    edges = [(a, b) for a in SPECIAL_INT for b in (0, -1, 1, 3, -3, INT_MIN, INT_MAX)]
    helper = Program(call_of(plain_x // plain_y, [zero, zero], "div"))
    check(all(helper(a, b) == floordiv(a, b) for a, b in edges), "the helper on edge values")
    out(f"the helper also matches the contract on {len(edges)} edge pairs (0, -1, INT_MIN, ...)")


@exercise("ch12", "12.2", "max(0.0, x)")
def ex_12_2():
    x = param(0, F32)
    body = UOp.const(0.0).max(x)
    call = call_of(body, [UOp.const(0.0)], "clamp")
    (statement,) = function_lines(render(call), "clamp")[1:2]
    check(statement == "  float v0 = (0.0f - p0 > 0.0f) ? 0.0f : p0;", f"{statement}")
    compiled, contract = Program(call)(math.nan), evaluate(body, {0: math.nan})
    check(same(compiled, contract) and math.isnan(contract), f"C {compiled}, contract {contract}")
    fmaxf = c_function(
        "#include <math.h>\nfloat fmax_zero(float x) { return fmaxf(0.0f, x); }\n",
        "fmax_zero",
        ctypes.c_float,
        [ctypes.c_float],
    )
    check(not same(fmaxf(math.nan), contract), f"fmaxf gives {fmaxf(math.nan)}")
    program = Program(call)
    for zero in (0.0, -0.0):
        check(same(program(zero), evaluate(body, {0: zero})), f"C at {zero}")
    out(
        f"`{statement.strip()}`; at nan: C {compiled}, contract {contract}, fmaxf "
        f"{fmaxf(math.nan)}; at -0.0 C and contract give {program(-0.0)}"
    )


@exercise("ch12", "12.3", "cast(x, I32) for a float x")
def ex_12_3():
    x = param(0, F32)
    call = call_of(x.cast(I32), [UOp.const(0.0)], "to_int")
    (statement,) = function_lines(render(call), "to_int")[1:2]
    check(statement == "  int32_t v0 = f32_to_i32(p0);", f"{statement}")
    compiled = Program(call)
    values = (1e10, -1e10, math.nan, -0.5)
    edges = (2147483520.0, 2147483648.0, -2147483648.0, math.inf, -math.inf)
    for v in (*values, *edges):
        check(compiled(v) == evaluate(x.cast(I32), {0: v}), f"at {v}: C {compiled(v)}")
    check([compiled(v) for v in values] == [INT_MAX, INT_MIN, 0, 0], "saturate, nan, truncate")
    out(f"`{statement.strip()}`: " + ", ".join(f"{v} -> {compiled(v)}" for v in values))
    out(
        "C equals the contract there and at the edges: "
        + ", ".join(f"{v} -> {compiled(v)}" for v in edges)
    )


OVERFLOW_C = "#include <stdint.h>\nint32_t grows(int32_t x) { return x + 1 > x; }\n"


@exercise("ch12", "12.4", "x + 1 > x at INT_MAX, by optimisation level")
def ex_12_4():
    x = param(0, I32)
    contract = int(evaluate(x.lt(x + 1), {0: INT_MAX}))
    table = {}
    for level in LEVELS:
        for wrap in (True, False):
            flags = [level, *(["-fwrapv"] if wrap else []), "-std=c11", "-shared", "-fPIC"]
            grows = c_function(OVERFLOW_C, "grows", ctypes.c_int32, [ctypes.c_int32], flags)
            table[level, wrap] = grows(INT_MAX)  # the input arrives at run time
    for level in LEVELS:
        check(table[level, True] == contract, f"{level} -fwrapv gives {table[level, True]}")
    out(f"the contract: {contract}; with -fwrapv every level gives {contract}")
    out_machine("level   -fwrapv   without")
    for level in LEVELS:
        out_machine(f"{level:<7} {table[level, True]:<9} {table[level, False]}")
    differ = [level for level in LEVELS if table[level, False] != contract]
    out_machine(f"levels that differ without -fwrapv: {', '.join(differ) or 'none'}")


@exercise("ch12", "12.5", "the constants -2147483647 and 2147483647")
def ex_12_5():
    for value, wanted in ((-2147483647, "(-2147483647)"), (2147483647, "2147483647")):
        text = literal(UOp.const(value))
        check(text == wanted, f"literal {text}")
        call = call_of(UOp.const(value), [], "constant")
        check(f"  return {wanted};" in render(call), "the literal is not returned as is")
        got = Program(call)()
        check(got == value, f"C returns {got}")
        out(f"{value}: literal {text}, C returns {got}")
    check(literal(UOp.const(INT_MIN)) == "(-2147483647 - 1)", "INT_MIN needs the trick")
    check(Program(call_of(UOp.const(INT_MIN), [], "constant"))() == INT_MIN, "INT_MIN in C")
    out(f"only INT_MIN needs {literal(UOp.const(INT_MIN))}")
