"""The short path's "Try it" answers (programs.md §3.14), one per step, S1-S14.

Each step's collapsed answer quotes its block (`try-sN`), except step 14's, which shows the
tinygrad demo's block with the same answer. Appendix A does not show them; they are asserted like
every exercise.

Run by code/exercises/solutions.py with the others, or alone: solutions.py try-it.
"""

import itertools
import math

import numpy as np
import z3

from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, Ops, ParamArg, Ptr, UOp
from uopc.builder import Builder, make_call
from uopc.interp import evaluate, run_call
from uopc.render import render
from uopc.runtime import Buffer, Program
from uopc.semantics import f32, f32_bits, same, wrap32
from uopc.symbolic import simplify
from uopc.textfmt import dumps, loads
from verify.generators import SPECIAL_FLOAT, SPECIAL_INT, param

from answers import check, exercise, out, out_machine
from shared import (
    call_of,
    disagreements,
    function_lines,
    model_i32,
    relu_parts,
    tinygrad_facts,
    tree_size,
    z3_find,
)


@exercise("try-it", "S1", "x * y instead of x + y in the text")
def try_s01():
    x, y = param(0, F32), param(1, F32)
    zero = UOp.const(0.0)
    added = dumps(call_of(x + y, [zero, zero], "add")).splitlines()
    multiplied = dumps(call_of(x * y, [zero, zero], "add")).splitlines()
    changed = [(a, m) for a, m in zip(added, multiplied, strict=True) if a != m]
    check(len(added) == len(multiplied), "the two texts have the same number of lines")
    check(changed == [("%2 = add %0, %1", "%2 = mul %0, %1")], f"changed lines: {changed}")
    edited = "\n".join(added).replace("%2 = add", "%2 = mul") + "\n"
    check(loads(edited) is call_of(x * y, [zero, zero], "add"), "the edited text is x * y")
    out(f"only one line changes: {changed[0][0]!r} becomes {changed[0][1]!r}")


@exercise("try-it", "S2", "16777216.0 + 1.0 and 16777218.0 + 1.0 in float32")
def try_s02():
    x, y = param(0, F32), param(1, F32)
    for a, want in ((16777216.0, 16777216.0), (16777218.0, 16777220.0)):
        got = evaluate(x + y, {0: a, 1: 1.0})
        by_numpy = float(np.float32(a) + np.float32(1.0))
        spacing = float(np.spacing(np.float32(a)))
        check(same(got, by_numpy), f"{a} + 1.0: interpreter {got}, NumPy {by_numpy}")
        check(got == want, f"{a} + 1.0 gave {got}, the book says {want}")
        # the exact sum lies halfway between two floats: the tie goes to the even significand
        check(abs((a + 1.0) - got) == spacing / 2, f"{a} + 1.0 is not a tie")
        check(f32_bits(got) % 2 == 0, f"{got} does not have an even significand")
        out(f"{a} + 1.0 = {got}: spacing {spacing} there, a tie, rounded to the even neighbour")


@exercise("try-it", "S3", "the C of x - y")
def try_s03():
    x, y = param(0, F32), param(1, F32)
    zero = UOp.const(0.0)
    lines = function_lines(render(call_of(x - y, [zero, zero], "sub")), "sub")
    body = lines[1:-1]
    check(body == ["  float v0 = -p1;", "  float v1 = p0 + v0;", "  return v1;"], f"{body}")
    subtract = Program(call_of(x - y, [zero, zero], "sub"))
    pairs = list(itertools.product(SPECIAL_FLOAT, repeat=2))
    check(all(same(subtract(a, b), evaluate(x - y, {0: a, 1: b})) for a, b in pairs), "C x - y")
    out("no SUB op: " + " ".join(line.strip() for line in body))


@exercise("try-it", "S4", "add(3.4e38, 3.4e38), compiled and interpreted")
def try_s04():
    x, y = param(0, F32), param(1, F32)
    zero = UOp.const(0.0)
    compiled = Program(call_of(x + y, [zero, zero], "add"))(3.4e38, 3.4e38)
    interpreted = evaluate(x + y, {0: 3.4e38, 1: 3.4e38})
    check(compiled == interpreted == math.inf, f"C {compiled}, interpreter {interpreted}")
    with np.errstate(over="ignore"):
        check(np.float32(3.4e38) + np.float32(3.4e38) == np.inf, "NumPy's float32 sum")
    largest = float(np.finfo(np.float32).max)
    check(3.4e38 < largest < 2 * f32(3.4e38), "the sum is past the largest float32")
    out(f"C {compiled}, interpreter {interpreted}: past the largest float32, {largest:.5g}")


@exercise("try-it", "S5", "p = p + p, 30 times")
def try_s05():
    p = param(0, F32)
    for _ in range(30):
        p = p + p
    nodes, tree = len(p.toposort()), tree_size(p)
    check(nodes == 31, f"{nodes} nodes")
    check(tree == 2**31 - 1, f"tree size {tree}")
    out(f"{nodes} nodes; as a tree {tree:,} = 2**31 - 1")


@exercise("try-it", "S6", "simplify(x * 0) for an i32 x")
def try_s06():
    x = param(0, I32)
    lines = dumps(simplify(x * 0)).splitlines()
    check(lines[1:] == ["%0 = const : dtype=i32 value=0"], f"{lines}")
    check(all(evaluate(x * 0, {0: v}) == 0 for v in SPECIAL_INT), "x * 0 is not always 0")
    out(f"one node: {lines[1]}")


@exercise("try-it", "S7", "does strict simplify rewrite x * 1.0?")
def try_s07():
    x = param(0, F32)
    rewritten = simplify(x * 1.0) is x
    checked, bad = disagreements(x * 1.0, x, [x], seed=7)
    check(rewritten, "strict simplify keeps x * 1.0")
    check(not bad, f"x * 1.0 differs from x at {bad[:3]}")
    out(f"yes, to x; x * 1.0 is x bit for bit on {checked} inputs (nan and both zeros included)")


@exercise("try-it", "S8", "INT_MIN - 1")
def try_s08():
    x = param(0, I32)
    interpreted = evaluate(x - 1, {0: INT_MIN})
    compiled = Program(call_of(x - 1, [UOp.const(0)], "dec"))(INT_MIN)
    check(interpreted == compiled == 2147483647, f"interpreter {interpreted}, C {compiled}")
    check(interpreted == wrap32(INT_MIN - 1), "the wrap of the exact difference")
    out(f"interpreter {interpreted}, C {compiled}")


@exercise("try-it", "S9", "(i*4 + j)//4 with j in [0, 4]")
def try_s09():
    i, j = param(0, I32, 0, 15), param(1, I32, 0, 4)
    e = (i * 4 + j) // 4
    values = [evaluate(e, {0: a, 1: b}) for a in range(16) for b in range(5)]
    check((e.vmin, e.vmax) == (0, 16), f"range [{e.vmin}, {e.vmax}]")
    check((min(values), max(values)) == (0, 16), "the range is the true one")
    check(simplify(e) is not i, "simplify gave i, which is wrong at i = 15, j = 4")
    out(f"range [{e.vmin}, {e.vmax}]; simplify(e) is i: {simplify(e) is i}")


@exercise("try-it", "S10", "add3 with * instead of +")
def try_s10():
    kernel = Builder()
    a, b, result = (kernel.buffer(slot, F32, 3) for slot in range(3))
    for k in range(3):
        result.store(k, a.load(k) * b.load(k))
    args = [UOp(Ops.BUFFER, (), ParamArg(slot, Ptr(F32, 3))) for slot in range(3)]
    call = make_call(kernel.body(), args, "mul3")
    lists = [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0], [0.0] * 3]
    run_call(call, lists)
    buffers = [Buffer(F32, 3).copyin(values) for values in lists[:2]] + [Buffer(F32, 3)]
    Program(call)(*buffers)
    products = [p * q for p, q in zip(lists[0], lists[1], strict=True)]
    check(lists[2] == buffers[2].tolist() == products == [10.0, 40.0, 90.0], f"{lists[2]}")
    out(f"interpreter {lists[2]}, C {buffers[2].tolist()}")


@exercise("try-it", "S11", "the racy program storing 7.0")
def try_s11():
    arg = UOp(Ops.BUFFER, (), ParamArg(0, Ptr(F32, 3)))
    buf = UOp(Ops.PARAM, (), ParamArg(0, Ptr(F32, 3)))
    store = UOp(Ops.STORE, (UOp(Ops.INDEX, (buf, UOp.const(0))), UOp.const(7.0)))
    load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (buf, UOp.const(0))),))
    copy = UOp(Ops.STORE, (UOp(Ops.INDEX, (buf, UOp.const(1))), load))
    racy = make_call(UOp.sink(copy, store), [arg], "racy")
    kernel = Builder()
    mem = kernel.buffer(0, F32, 3)
    mem.store(0, 7.0)
    mem.store(1, mem.load(0))
    ordered = make_call(kernel.body(), [arg], "ordered")
    results = {}
    for call in (racy, ordered):
        for order in ("id", "dfs"):
            data = [1.0, 0.0, 0.0]
            run_call(call, [data], order)
            results[call.arg.name, order] = data
        name = call.arg.name
        out(f"{name}: order id {results[name, 'id']}, order dfs {results[name, 'dfs']}")
    check(results["racy", "id"] == [7.0, 7.0, 0.0], f"{results}")
    check(results["racy", "dfs"] == [7.0, 1.0, 0.0], f"{results}")
    check(results["ordered", "id"] == results["ordered", "dfs"] == [7.0, 7.0, 0.0], f"{results}")


@exercise("try-it", "S12", "inputs at which the fast rule y * 0.0 -> 0.0 is wrong")
def try_s12():
    y = param(1, F32)
    program = (UOp.const(-0.0) * y).cast(BOOL)  # the kind of case Step 12 finds
    fast = simplify(program, fast_math=True)
    for value in (math.inf, math.nan):
        strict_value, fast_value = evaluate(program, {1: value}), evaluate(fast, {1: value})
        check(strict_value is True and fast_value is False, f"y = {value}: {strict_value}")
        out(f"cast(-0.0 * y, bool) at y = {value}: {strict_value}; fast math gives {fast_value}")
    check(math.isnan(evaluate(y * 0.0, {1: math.inf})), "inf * 0 is nan")
    check(evaluate(simplify(program), {1: math.inf}) is True, "strict simplify changes the value")
    # The other half: a negative finite y gives -0.0, which the fast rule turns into 0.0.
    product, fast_product = y * 0.0, simplify(y * 0.0, fast_math=True)
    for value in (-3.0, -1e-45, -3.4e38):
        exact, rewritten = evaluate(product, {1: value}), evaluate(fast_product, {1: value})
        check(same(exact, -0.0) and same(rewritten, 0.0), f"y = {value}: {exact}, {rewritten}")
        out(f"y * 0.0 at y = {value}: {exact}; fast math gives {rewritten}")


@exercise("try-it", "S13", "x - x == 0, x*2 == x + x and x + 1 > x in z3")
def try_s13():
    bv, x = z3.BitVec("x", 32), param(0, I32)
    for name, claim, lhs, rhs in (
        ("x - x == 0", bv - bv == 0, x - x, UOp.const(0)),
        ("x*2 == x + x", bv * 2 == bv + bv, x * 2, x + x),
    ):
        check(z3_find(z3.Not(claim)) is None, f"z3 refutes {name}")
        checked, bad = disagreements(lhs, rhs, [x], seed=13)
        check(not bad, f"{name} fails at {bad[:3]}")
        out(f"{name}: proved; holds on {checked} sampled inputs")
    model = z3_find(z3.Not(bv + 1 > bv))  # signed >
    check(model is not None, "z3 proves x + 1 > x")
    value = model_i32(model, bv)
    check(value == INT_MAX, f"the counterexample is {value}")  # the only one there is
    greater = evaluate(x.lt(x + 1), {0: value})
    check(greater is False, "the contract agrees that x + 1 > x is false there")
    out(f"x + 1 > x: false at x = {value} (the contract: {greater})")


@exercise("try-it", "S14", "relu(nan) here and in tinygrad")
def try_s14():
    x, y, body, _ = relu_parts()
    ours = evaluate(body, {0: math.nan, 1: 1.0})
    check(same(ours, 0.0), f"our relu(nan) is {ours}")
    out(f"ours: {ours}")
    facts = tinygrad_facts()
    out_machine(f"tinygrad {facts['version']}: relu(x*y+1) at x = nan gives {facts['relu_nan']}")
