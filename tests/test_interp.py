"""Tests of uopc.interp: `evaluate` on values (wrap, float32 rounding, calls, input checks) and
`run_call` on memory (the two orders, the two memory errors, scratch, scalar arguments).

Expected values are worked out by hand from the value contract, not computed with eval_op.
"""

import ast
import math
import random
from pathlib import Path

import pytest

from book.protocol import size
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, CallArg, Ops, ParamArg, Ptr, UOp, UOpError
from uopc.builder import Builder, make_call
from uopc.interp import evaluate, run_call
from uopc.ranges import param_bounds
from uopc.semantics import same
from uopc.symbolic import simplify
from uopc.textfmt import dumps
from verify import generators as common


def param(slot, dtype, vmin=None, vmax=None):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype, vmin, vmax))


def buffer(slot, dtype, size):
    return UOp(Ops.BUFFER, (), ParamArg(slot, Ptr(dtype, size)))


X, Y = param(0, F32), param(1, F32)
I, J = param(0, I32), param(1, I32)
B = param(2, BOOL)
RELU = (X * Y + 1.0).max(0.0)

# ---------------------------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------------------------

EVALUATE = [
    (lambda: I + 1, {0: INT_MAX}, INT_MIN),  # wraps like int32_t with -fwrapv
    (lambda: X + 1.0, {0: 1e8}, 100000000.0),  # float32 spacing is 8 near 1e8: the 1 is lost
    (lambda: X + Y, {0: 1.5, 1: 2.25}, 3.75),
    (lambda: X, {0: 0.1}, 0.10000000149011612),  # an input is rounded to float32 on entry
    (lambda: X, {0: 3}, 3.0),  # an int given for an f32 becomes a float
    (lambda: B, {2: 1}, True),  # a bool param takes bool(v)
    (lambda: I * I, {0: 46341}, -2147479015),
    (lambda: -I, {0: INT_MIN}, INT_MIN),
    (lambda: I // J, {0: 7, 1: 0}, 0),  # every op is total: x // 0 is 0
    (lambda: I % J, {0: 7, 1: 0}, 7),  # x % 0 is x
    (lambda: I // J, {0: -7, 1: 2}, -4),  # rounded toward minus infinity
    (lambda: I % J, {0: -7, 1: 2}, 1),  # with the divisor's sign
    (lambda: I // J, {0: INT_MIN, 1: -1}, INT_MIN),
    (lambda: RELU, {0: 2.0, 1: 3.0}, 7.0),
    (lambda: RELU, {0: -2.0, 1: 3.0}, 0.0),
    (lambda: RELU, {0: math.nan, 1: 3.0}, 0.0),  # max(nan, 0.0) is 0.0
    (lambda: RELU, {0: math.inf, 1: 0.0}, 0.0),
    (lambda: X + 0.0, {0: -0.0}, 0.0),
    (lambda: X * UOp(Ops.RECIP, (Y,)), {0: 7.0, 1: 3.0}, 2.3333334922790527),
    (lambda: X.cast(I32), {0: 3e9}, INT_MAX),  # saturating cast
    (lambda: X.cast(I32), {0: math.nan}, 0),
    (lambda: X.cast(BOOL), {0: math.nan}, True),
    (lambda: I.cast(F32), {0: 16777217}, 16777216.0),
    (lambda: I.lt(J), {0: 1, 1: 2}, True),
    (lambda: X.ne(X), {0: math.nan}, True),
    (lambda: B.where(I, J), {0: 1, 1: 2, 2: False}, 2),
    (lambda: B * B.ne(True), {2: True}, False),
    (lambda: UOp.const(2.5), {}, 2.5),
    # Hole found by the planted bug "interp: float input not rounded to f32": `same` compares
    # float32 bits, so the 0.1 case above passes unrounded too. 2**24 + 1 is no float32: it
    # enters as 2**24, and 2**24 + 1 rounds back to 2**24 (ties to even), not to 2**24 + 2.
    (lambda: X + Y, {0: 16777217.0, 1: 1.0}, 16777216.0),
]


@pytest.mark.parametrize("make, env, expected", EVALUATE)
def test_evaluate(make, env, expected):
    assert same(evaluate(make(), env), expected)


def call(body, args, name="f"):
    return UOp(Ops.CALL, (body, *args), CallArg(name))


CALLS = [
    (lambda: call(RELU, [UOp.const(2.0), UOp.const(3.0)], "relu"), {}, 7.0),
    (lambda: call(X + Y, [UOp.const(0.0), UOp.const(0.0)], "add"), {}, 0.0),
    # the body's x is the caller's x too (one node); inside the call it is the argument
    (lambda: call(X * Y + 1.0, [Y, UOp.const(3.0)]) + X, {0: 10.0, 1: 2.0}, 17.0),
    (lambda: call(I + 1, [J * 2]), {1: 5}, 11),
]


@pytest.mark.parametrize("make, env, expected", CALLS)
def test_evaluate_call(make, env, expected):
    assert same(evaluate(make(), env), expected)


def test_evaluate_memory_is_refused():
    p = param(0, Ptr(F32, 2))
    load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (p, UOp.const(0))),))
    with pytest.raises(ValueError, match="use run_call"):
        evaluate(load, {0: [1.0, 2.0]})


@pytest.mark.parametrize(
    "env, error, text",
    [
        ({0: 2**31}, ValueError, "slot 0: 2147483648 does not fit in int32"),
        ({0: INT_MIN - 1}, ValueError, "slot 0: -2147483649 does not fit in int32"),
        ({0: 1.5}, TypeError, ""),  # never truncated silently
        ({}, KeyError, "0"),
    ],
)
def test_evaluate_bad_inputs(env, error, text):
    with pytest.raises(error) as info:
        evaluate(I + 1, env)
    assert text in str(info.value)


@pytest.mark.parametrize("value", ["false", None, [0], 0.0, 2], ids=repr)
def test_a_bool_input_is_a_bool(value):
    # as the runtime takes it (issue 31): True, False, 0 or 1; bool("false") was True
    flag = UOp(Ops.PARAM, (), ParamArg(0, BOOL))
    with pytest.raises(TypeError, match="slot 0: a bool wants True, False, 0 or 1, got "):
        evaluate(flag, {0: value})
    assert [evaluate(flag, {0: v}) for v in (True, False, 1, 0)] == [True, False, True, False]


# A call's arguments and the ranges its PARAMs declare (issue 31). p in [0, 15] makes p < 16
# always true, so simplify folds the body to 1; called with 100 the interpreter gave 0.
P_0_15 = param(0, I32, 0, 15)
BODY_0_15 = P_0_15.lt(16).cast(I32)


def test_the_call_that_simplify_changed_is_refused():
    with pytest.raises(UOpError, match="^CALL: argument 0 is 100, beyond"):
        UOp(Ops.CALL, (BODY_0_15, UOp.const(100)), CallArg("f"))
    for value in (0, 15):  # at the bounds: built, and the same value before and after simplify
        call = UOp(Ops.CALL, (BODY_0_15, UOp.const(value)), CallArg("f"))
        assert evaluate(call, {}) == evaluate(simplify(call), {}) == 1


def random_argument(r):
    """A constant of the usual integer mix, or an outer param (slot 5) with a random range."""
    if r.random() < 0.5:
        value = common.rand_value(r, I32)
        return UOp.const(value), (value, value)
    bounds = common.random_range(r)
    return param(5, I32, *bounds), bounds


def test_a_call_is_refused_or_keeps_its_value_through_simplify():
    """Random bodies with a declared i32 range, called with constants or outer params: a call
    is built exactly when the argument's range lies inside the declared one, and then evaluate
    gives the same value before and after simplify (which trusts the declared range)."""
    r, built, refused = random.Random(3100), 0, 0
    for _ in range(300):
        body, params = common.gen_program(r, ranges=True)
        declared = [param_bounds(p.arg) for p in params if p.arg.slot == 0]
        low, high = declared[0] if declared else (INT_MIN, INT_MAX)
        argument, (lo, hi) = random_argument(r)
        others = [UOp.const(common.rand_value(r, dtype)) for dtype in (F32, BOOL)]
        try:
            call = UOp(Ops.CALL, (body, argument, *others), CallArg("f"))
        except UOpError as error:
            assert not low <= lo <= hi <= high, error
            assert f"beyond [{low}, {high}] declared by PARAM slot 0" in str(error)
            refused += 1
            continue
        assert low <= lo <= hi <= high, f"built with an argument in [{lo}, {hi}]"
        env = {5: r.randint(lo, hi)}  # the outer param's value, inside its own range
        assert same(evaluate(call, env), evaluate(simplify(call), env)), dumps(call)
        built += 1
    assert built > 100 and refused > 50, (built, refused)


CHAIN = size(20_000, 200_000)  # additions: far more than Python's recursion limit either way


@pytest.fixture(scope="module")
def chain():
    node = I
    for _ in range(CHAIN):
        node = node + 1
    return node


def test_chain_evaluate(chain):
    assert evaluate(chain, {0: 0}) == CHAIN
    assert evaluate(chain, {0: INT_MAX}) == INT_MIN + CHAIN - 1


# ---------------------------------------------------------------------------------------------
# run_call
# ---------------------------------------------------------------------------------------------


def racy():
    """buf[0] = 5.0; buf[1] = buf[0], with no AFTER between the store and the load."""
    p = param(0, Ptr(F32, 3))
    first = UOp(Ops.STORE, (UOp(Ops.INDEX, (p, UOp.const(0))), UOp.const(5.0)))
    load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (p, UOp.const(0))),))
    second = UOp(Ops.STORE, (UOp(Ops.INDEX, (p, UOp.const(1))), load))
    # a LOAD kept alive elsewhere would be older than the store and change the "id" order
    assert first.id < load.id, "the racy LOAD already existed"
    # the SINK lists the second store first, so the toposort reaches the load before the store
    return make_call(UOp.sink(second, first), [buffer(0, F32, 3)], "racy")


def ordered():
    builder = Builder()
    buf = builder.buffer(0, F32, 3)
    buf.store(0, 5.0)
    buf.store(1, buf.load(0))
    return make_call(builder.body(), [buffer(0, F32, 3)], "ordered")


@pytest.mark.parametrize(
    "make, order, expected",
    [
        (racy, "id", [5.0, 5.0, 0.0]),
        (racy, "dfs", [5.0, 1.0, 0.0]),  # the missing edge shows as a difference
        (ordered, "id", [5.0, 5.0, 0.0]),
        (ordered, "dfs", [5.0, 5.0, 0.0]),
    ],
)
def test_orders(make, order, expected):
    data = [1.0, 0.0, 0.0]
    assert run_call(make(), [data], order) is None
    assert data == expected


def test_default_order_is_id():
    data = [1.0, 0.0, 0.0]
    run_call(racy(), [data])
    assert data == [5.0, 5.0, 0.0]


@pytest.mark.parametrize("order", ["bfs", "ID", "", None, 0])
def test_bad_order(order):
    with pytest.raises(ValueError):
        run_call(ordered(), [[1.0, 0.0, 0.0]], order)


def unwritten_scratch():
    builder = Builder()
    scratch, out = builder.alloc(0, F32, 2), builder.buffer(0, F32, 2)
    out.store(0, scratch.load(1))
    return make_call(builder.body(), [buffer(0, F32, 2)], "scratch")


def out_of_range(index):
    builder = Builder()
    builder.buffer(0, F32, 2).store(index, 1.0)
    return make_call(builder.body(), [buffer(0, F32, 2)], "oob")


def out_of_range_load():
    builder = Builder()
    buf = builder.buffer(0, F32, 2)
    buf.store(0, buf.load(param(1, I32)))
    return make_call(builder.body(), [buffer(0, F32, 2), UOp.const(-1)], "oob_load")


@pytest.mark.parametrize(
    "make, message",
    [
        (unwritten_scratch, "read of memory that was never written"),
        (lambda: out_of_range(2), "index 2 is outside a buffer of 2"),
        (lambda: out_of_range(-1), "index -1 is outside a buffer of 2"),
        (out_of_range_load, "index -1 is outside a buffer of 2"),
    ],
)
def test_memory_errors(make, message):
    with pytest.raises(RuntimeError) as info:
        run_call(make(), [[0.0, 0.0]])
    assert str(info.value) == message


def test_unwritten_caller_memory_is_refused_too():
    builder = Builder()
    buf = builder.buffer(0, F32, 2)
    buf.store(0, buf.load(1))
    with pytest.raises(RuntimeError, match="never written"):
        run_call(make_call(builder.body(), [buffer(0, F32, 2)]), [[0.0, None]])


def scratch_round_trip():
    builder = Builder()
    scratch, out = builder.alloc(0, I32, 2), builder.buffer(0, I32, 2)
    scratch.store(1, out.load(0) * 10)
    out.store(1, scratch.load(1) + 1)
    return make_call(builder.body(), [buffer(0, I32, 2)], "scratch")


@pytest.mark.parametrize("order", ["id", "dfs"])
def test_scratch_is_fresh_in_every_run(order):
    call = scratch_round_trip()
    for start in (2, 7):
        data = [start, 0]
        run_call(call, [data], order)
        assert data == [start, start * 10 + 1]


def test_value_body_returns_its_value():
    builder = Builder()
    buf = builder.buffer(0, F32, 2)
    body = buf.load(0) + buf.load(1) * param(1, F32)
    assert run_call(call(body, [buffer(0, F32, 2), UOp.const(3.0)]), [[1.0, 2.0]]) == 7.0


def test_scalar_argument_that_is_not_a_constant_reads_its_entry():
    builder = Builder()
    buf = builder.buffer(0, I32, 3)
    buf.store(param(1, I32, 0, 2), 9)
    data = [0, 0, 0]
    run_call(make_call(builder.body(), [buffer(0, I32, 3), param(5, I32, 0, 2)]), [data, 2])
    assert data == [0, 0, 9]


def test_loaded_values_are_contract_values():
    builder = Builder()
    a, out = builder.buffer(0, F32, 1), builder.buffer(1, F32, 1)
    out.store(0, a.load(0))
    data = [0.0]
    run_call(make_call(builder.body(), [buffer(0, F32, 1), buffer(1, F32, 1)]), [[0.1], data])
    assert same(data[0], 0.10000000149011612)


@pytest.mark.parametrize(
    "buffers, message",
    [
        ([[0.0, 0.0, 0.0, 0.0]], "argument 0 is a list of 4, the buffer holds 3"),
        ([], "run_call has no entry for argument 0"),
    ],
)
def test_bad_buffers(buffers, message):
    with pytest.raises(ValueError) as info:
        run_call(ordered(), buffers)
    assert str(info.value) == message


def test_run_call_needs_a_call():
    with pytest.raises(ValueError, match="needs a CALL"):
        run_call(X + Y, [])


def test_run_call_refuses_a_pointer_body():
    # as render refuses it (issue 31): a C function returns no buffer
    pointer = UOp(Ops.PARAM, (), ParamArg(0, Ptr(F32, 3)))
    call = UOp(Ops.CALL, (pointer, UOp(Ops.BUFFER, (), ParamArg(0, Ptr(F32, 3)))), CallArg("p"))
    with pytest.raises(ValueError, match=r"a call cannot return a pointer \(PARAM body\)"):
        run_call(call, [[1.0, 2.0, 3.0]])


# ---------------------------------------------------------------------------------------------
# what the reference borrows from the package (chapter 9 lists it)
# ---------------------------------------------------------------------------------------------

# module of uopc -> the names uopc/interp.py imports from it; chapter 9 names each group, so a
# new import from the package is a change the chapter must say
BORROWED = {
    "dtypes": {"BOOL", "F32", "I32", "INT_MAX", "INT_MIN", "VALUE_DTYPES", "Ptr"},
    "ops": {"ALU", "Ops"},
    "semantics": {"eval_op", "f32"},
}


def test_interp_borrows_only_what_chapter_9_names():
    import uopc.interp

    tree = ast.parse(Path(uopc.interp.__file__).read_text(encoding="utf-8"))
    found: dict[str, set] = {}
    for node in ast.walk(tree):  # imports inside functions too
        if isinstance(node, ast.ImportFrom) and (node.level or "uopc" in (node.module or "")):
            module = (node.module or "").removeprefix("uopc.").removeprefix("uopc")
            found.setdefault(module, set()).update(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            assert not any(a.name.startswith("uopc") for a in node.names), ast.unparse(node)
    assert found == BORROWED
