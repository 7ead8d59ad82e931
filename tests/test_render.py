"""Unit cases of the C writer (`uopc.render`), then every op compiled and checked on real C.

The text cases pin the C that §13 of the spec prescribes. The compiled cases run each op, one
C function per op and dtype, on the special values, and compare with `semantics.eval_op` under
`same` (bit for bit; EXP2 and LOG2 within one ulp): the contract is the reference, never the
renderer itself.
"""

import itertools
import math
import random
import shutil
import struct

import pytest

from book.protocol import size
from uopc import BOOL, F32, I32, INT_MAX, INT_MIN, CallArg, Ops, ParamArg, Ptr, UOp, runtime
from uopc.builder import signature_call
from uopc.interp import evaluate
from uopc.render import PRELUDE, literal, render
from uopc.semantics import eval_op, f32, f32_bits, same
from verify.generators import buffer, load, ptr_param, store

needs_clang = pytest.mark.skipif(shutil.which(runtime.CC) is None, reason="clang is not installed")

ZERO = {BOOL: False, I32: 0, F32: 0.0}
FLT_MAX = struct.unpack("<f", b"\xff\xff\x7f\x7f")[0]


def param(slot, dtype, vmin=None, vmax=None):
    return UOp(Ops.PARAM, (), ParamArg(slot, dtype, vmin, vmax))


def value_call(body, *arg_dtypes, name="f"):
    """A CALL of body with one placeholder argument per scalar parameter (values come at run
    time)."""
    return signature_call(body, arg_dtypes, name)


def function_lines(call):
    """The rendered function without the prelude and the blank line after it."""
    source = render(call)
    assert source.startswith(PRELUDE + "\n") and source.endswith("}\n")
    return source[len(PRELUDE) + 1 :].splitlines()


# ---------------------------------------------------------------------------------------------
# literal
# ---------------------------------------------------------------------------------------------

LITERALS = [
    (True, "true"),
    (False, "false"),
    (0, "0"),
    (7, "7"),
    (-5, "(-5)"),
    (INT_MAX, "2147483647"),
    (-2147483647, "(-2147483647)"),
    (INT_MIN, "(-2147483647 - 1)"),
    (1.0, "1.0f"),
    (0.0, "0.0f"),
    (-0.0, "(-0.0f)"),
    (-1.5, "(-1.5f)"),
    (0.5, "0.5f"),
    (100.0, "100.0f"),
    (16777216.0, "16777216.0f"),
    (0.1, "0.100000001f"),
    (1e10, "1e+10f"),
    (-1e10, "(-1e+10f)"),
    (2.0**-149, "1.40129846e-45f"),
    (2.0**-126, "1.17549435e-38f"),
    (FLT_MAX, "3.40282347e+38f"),
    (math.nan, "NAN"),
    (math.inf, "INFINITY"),
    (-math.inf, "(-INFINITY)"),
]


@pytest.mark.parametrize("value, text", LITERALS, ids=[t for _, t in LITERALS])
def test_literal(value, text):
    assert literal(UOp.const(value)) == text


@pytest.mark.parametrize("node", [param(0, F32), None, 1.0], ids=["PARAM", "None", "float"])
def test_literal_refuses_anything_but_a_const(node):
    with pytest.raises(TypeError, match="CONST"):
        literal(node)


# ---------------------------------------------------------------------------------------------
# statements
# ---------------------------------------------------------------------------------------------

x, y = param(0, F32), param(1, F32)
i, j = param(0, I32), param(1, I32)
i_small, j_small = param(0, I32, 0, 100), param(1, I32, 1, 10)
flag, k = param(0, BOOL), param(1, I32)
shared = x * y

# (case, call, the function's lines after the signature, without the closing brace)
STATEMENTS = [
    ("relu", value_call((x * y + 1.0).max(0.0), F32, F32), [
        "  float v0 = p0 * p1;", "  float v1 = v0 + 1.0f;",
        "  float v2 = (v1 - 0.0f > 0.0f) ? v1 : 0.0f;", "  return v2;"]),
    ("sub", value_call(x - y, F32, F32), [
        "  float v0 = -p1;", "  float v1 = p0 + v0;", "  return v1;"]),
    ("floordiv", value_call(i // j, I32, I32), [
        "  int32_t v0 = floordiv_i32(p0, p1);", "  return v0;"]),
    ("floordiv bounded", value_call(i_small // j_small, I32, I32), [
        "  int32_t v0 = p0 / p1;", "  return v0;"]),
    ("floormod", value_call(i % j, I32, I32), [
        "  int32_t v0 = floormod_i32(p0, p1);", "  return v0;"]),
    ("floormod bounded", value_call(i_small % j_small, I32, I32), [
        "  int32_t v0 = p0 % p1;", "  return v0;"]),
    ("divisor may be 0", value_call(i_small // param(1, I32, 0, 10), I32, I32), [
        "  int32_t v0 = floordiv_i32(p0, p1);", "  return v0;"]),
    ("dividend may be negative", value_call(param(0, I32, -1, 9) % 4, I32), [
        "  int32_t v0 = floormod_i32(p0, 4);", "  return v0;"]),
    ("shared node, one line", value_call(shared + shared, F32, F32), [
        "  float v0 = p0 * p1;", "  float v1 = v0 + v0;", "  return v1;"]),
    ("where runs both arms", value_call(flag.where(k // 3, k * 2), BOOL, I32), [
        "  int32_t v0 = floordiv_i32(p1, 3);", "  int32_t v1 = p1 * 2;",
        "  int32_t v2 = p0 ? v0 : v1;", "  return v2;"]),
    ("negative literal", value_call(i - (-5), I32), [
        "  int32_t v0 = -(-5);", "  int32_t v1 = p0 + v0;", "  return v1;"]),
    ("bool mul and max", value_call((flag * flag).max(flag), BOOL), [
        "  bool v0 = p0 && p0;", "  bool v1 = v0 || p0;", "  return v1;"]),
    ("recip exp2 log2", value_call(UOp(Ops.LOG2, (UOp(Ops.EXP2, (UOp(Ops.RECIP, (x,)),)),)), F32), [
        "  float v0 = 1.0f / p0;", "  float v1 = exp2f(v0);", "  float v2 = log2f(v1);",
        "  return v2;"]),
    ("compare", value_call(x.lt(y).ne(True), F32, F32), [
        "  bool v0 = p0 - p1 < 0.0f;", "  bool v1 = v0 != true;", "  return v1;"]),
    ("cast f32 -> i32", value_call(x.cast(I32), F32), [
        "  int32_t v0 = f32_to_i32(p0);", "  return v0;"]),
    ("cast f32 -> bool", value_call(x.cast(BOOL), F32), [
        "  bool v0 = (p0 != 0.0f);", "  return v0;"]),
    ("cast i32 -> bool", value_call(i.cast(BOOL), I32), [
        "  bool v0 = (p0 != 0);", "  return v0;"]),
    ("cast i32 -> f32", value_call(i.cast(F32), I32), [
        "  float v0 = ((float)p0);", "  return v0;"]),
    ("cast bool -> i32", value_call(flag.cast(I32), BOOL), [
        "  int32_t v0 = ((int32_t)p0);", "  return v0;"]),
    ("cast to itself", value_call(x.cast(F32), F32), [
        "  float v0 = p0;", "  return v0;"]),
    ("constant body", value_call(UOp.const(-2.5)), [
        "  return (-2.5f);"]),
]  # fmt: skip


@pytest.mark.parametrize("case, call, lines", STATEMENTS, ids=[c for c, _, _ in STATEMENTS])
def test_statements(case, call, lines):
    assert function_lines(call)[1:] == [*lines, "}"]


@pytest.mark.parametrize(
    "call, signature",
    [
        (value_call(x + y, F32, F32, name="add"), "float add(float p0, float p1) {"),
        (value_call(UOp.const(1)), "int32_t f(void) {"),
        (value_call(flag, BOOL, F32, I32), "bool f(bool p0, float p1, int32_t p2) {"),
    ],
    ids=["add", "no arguments", "unused arguments still appear"],
)
def test_signature(call, signature):
    assert function_lines(call)[0] == signature


def test_memory_body_with_scratch():
    """`out[0] = (scratch[0] = in[0] * 2, scratch[0])`: ALLOC is a local array, AFTER is free."""
    source, out, scratch = (
        ptr_param(0, 3),
        ptr_param(1, 3),
        UOp(Ops.ALLOC, (), ParamArg(3, Ptr(F32, 4))),
    )
    first = store(scratch, 0, load(source, 0) * 2.0)
    again = load(UOp(Ops.AFTER, (scratch, first)), 0)
    call = UOp(Ops.CALL, (UOp.sink(store(out, 0, again)), buffer(0, 3), buffer(1, 3)), CallArg("k"))
    assert function_lines(call) == [
        "void k(float *p0, float *p1) {",
        "  float a3[4];",
        "  float *v0 = p1 + 0;",
        "  float *v1 = a3 + 0;",
        "  float *v2 = p0 + 0;",
        "  float v3 = *v2;",
        "  float v4 = v3 * 2.0f;",
        "  *v1 = v4;",
        "  float *v5 = a3 + 0;",
        "  float v6 = *v5;",
        "  *v0 = v6;",
        "}",
    ]


def test_prelude():
    lines = PRELUDE.splitlines()
    assert lines[:4] == [f"#include <{h}.h>" for h in ("stdint", "stdbool", "math", "float")]
    assert (
        '_Static_assert(FLT_EVAL_METHOD == 0, "float ops must round to float32 after every '
        'operation");' in lines
    )
    for helper in ("floordiv_i32(int32_t a, int32_t b)", "floormod_i32(int32_t a, int32_t b)"):
        assert f"static inline int32_t {helper} {{" in lines
    assert "static inline int32_t f32_to_i32(float x) {" in lines
    assert PRELUDE.endswith("\n")


@pytest.mark.parametrize(
    "node, op_name",
    [(x + y, "ADD"), (x, "PARAM"), (UOp.const(1), "CONST")],
    ids=["ADD", "PARAM", "CONST"],
)
def test_render_refuses_a_non_call(node, op_name):
    with pytest.raises(TypeError, match=f"render needs a CALL, got {op_name}"):
        render(node)


def test_render_refuses_a_name_c_cannot_spell():
    with pytest.raises(ValueError, match="not a C identifier"):
        render(value_call(x, F32, name="my kernel"))


def test_deep_chain_renders():
    """200,000 additions, 400,001 nodes (20,000 at quick sizes): far deeper than Python's
    recursion limit."""
    n = size(20_000, 200_000)
    chain = param(0, I32)
    for k in range(n):
        chain = chain + k
    lines = function_lines(value_call(chain, I32))
    assert len(lines) == 1 + n + 2
    assert lines[-2:] == [f"  return v{n - 1};", "}"]


# ---------------------------------------------------------------------------------------------
# compiled: every op against the contract
# ---------------------------------------------------------------------------------------------

RANDOM = random.Random(20240917)  # a fixed seed: the same inputs every run
FLOAT_SPECIALS = [f32(v) for v in [
    0.0, -0.0, math.inf, -math.inf, math.nan, FLT_MAX, -FLT_MAX, 2.0**-126, -(2.0**-126),
    2.0**-149, -(2.0**-149), 16777216.0, 16777217.0, 16777218.0, 1.0, -1.0, 1.0 + 2.0**-23,
    0.5, -0.5, 0.75, 1.5, -2.5, 2.0, 3.0, 7.0, 0.1, 100.0, 128.0, -150.0, 1e10, -1e10,
    2147483648.0, -2147483648.0, 2147483520.0, -2147483520.0,
    *(RANDOM.uniform(-100.0, 100.0) for _ in range(6)),
    *(struct.unpack("<f", struct.pack("<I", RANDOM.getrandbits(31)))[0] for _ in range(4)),
]]  # fmt: skip
INT_SPECIALS = [
    0, 1, -1, 2, -2, 3, -3, 7, -7, 10, INT_MIN, INT_MAX, INT_MIN + 1, INT_MAX - 1,
    2**30, -(2**30), 16777216, 16777217, -16777217, 46341, 65536,
    *(RANDOM.randint(-1000, 1000) for _ in range(4)),
]  # fmt: skip
SPECIALS = {F32: FLOAT_SPECIALS, I32: INT_SPECIALS, BOOL: [False, True]}
INEXACT = (Ops.EXP2, Ops.LOG2)  # library functions: C and Python may differ in the last bit

# (op, dtypes of the srcs, arg): each case is one C function, run on every combination of specials
OP_CASES = [
    *((op, (F32,), None) for op in (Ops.NEG, Ops.RECIP, Ops.EXP2, Ops.LOG2)),
    (Ops.NEG, (I32,), None),
    *((Ops.ADD, (d, d), None) for d in (I32, F32)),
    *((op, (d, d), None) for op in (Ops.MUL, Ops.MAX, Ops.CMPLT, Ops.CMPNE) for d in SPECIALS),
    *((op, (I32, I32), None) for op in (Ops.FLOORDIV, Ops.FLOORMOD)),
    *((Ops.WHERE, (BOOL, d, d), None) for d in SPECIALS),
    *((Ops.CAST, (source,), target) for source in SPECIALS for target in SPECIALS),
]


def case_id(case):
    op, dtypes, arg = case
    return f"{op.name.lower()}-{'-'.join(d.name for d in dtypes)}" + (f"-to-{arg}" if arg else "")


def ordered(value):
    """The float32 bit pattern as an integer that grows with the value (both zeros are 0)."""
    bits = f32_bits(value)
    return bits if bits < 0x80000000 else -(bits & 0x7FFFFFFF)


def agrees(op, expected, got):
    if op in INEXACT and not (math.isnan(expected) or math.isnan(got)):
        return isinstance(got, float) and abs(ordered(expected) - ordered(got)) <= 1
    return same(expected, got)


@needs_clang
@pytest.mark.parametrize("case", OP_CASES, ids=[case_id(c) for c in OP_CASES])
def test_op_compiled_matches_contract(case):
    op, dtypes, arg = case
    node = UOp(op, tuple(param(slot, d) for slot, d in enumerate(dtypes)), arg)
    program = runtime.Program(value_call(node, *dtypes, name=case_id(case).replace("-", "_")))
    wrong = []
    for values in itertools.product(*(SPECIALS[d] for d in dtypes)):
        expected, got = eval_op(op, node.dtype, values), program(*values)
        if not agrees(op, expected, got):
            wrong.append(f"{op.name}{values}: contract {expected!r}, C {got!r}")
    assert not wrong, f"{len(wrong)} differences, first: " + "; ".join(wrong[:5])


@needs_clang
def test_plain_division_agrees_on_its_domain():
    """x in [0,100], y in [1,10] renders C's / and %; every pair still gives floor semantics."""
    for op in (Ops.FLOORDIV, Ops.FLOORMOD):
        program = runtime.Program(value_call(UOp(op, (i_small, j_small)), I32, I32))
        assert " / p1;" in program.source or " % p1;" in program.source
        for a, b in itertools.product(range(0, 101), range(1, 11)):
            assert program(a, b) == eval_op(op, I32, (a, b)), (op, a, b)


@needs_clang
@pytest.mark.parametrize("dtype", [F32, I32, BOOL], ids=str)
def test_literals_compile_to_their_values(dtype):
    """Every special value written as a literal and stored: C must read back the same value."""
    values = SPECIALS[dtype]
    out = ptr_param(0, len(values), dtype)
    body = UOp.sink(*(store(out, k, UOp.const(v)) for k, v in enumerate(values)))
    call = UOp(Ops.CALL, (body, buffer(0, len(values), dtype)), CallArg("literals"))
    [result] = runtime.execute(call)
    assert [same(want, got) for want, got in zip(values, result.tolist(), strict=True)] == [
        True
    ] * len(values)


@needs_clang
def test_ops_on_literal_operands():
    """The ops again with literal operands, which clang folds at compile time (with our flags)."""
    cases = [(op, d) for op, dtypes, _ in OP_CASES if len(dtypes) == 2 for d in dtypes[:1]]
    results = []
    for op, dtype in cases:
        for a, b in itertools.product(SPECIALS[dtype][:14], repeat=2):
            results.append((op, dtype, a, b, UOp(op, (UOp.const(a), UOp.const(b)))))
    for dtype in (F32, I32, BOOL):
        chosen = [r for r in results if r[4].dtype is dtype]
        out = ptr_param(0, len(chosen), dtype)
        body = UOp.sink(*(store(out, k, r[4]) for k, r in enumerate(chosen)))
        call = UOp(Ops.CALL, (body, buffer(0, len(chosen), dtype)), CallArg("folded"))
        [got] = runtime.execute(call)
        for (op, src_dtype, a, b, node), value in zip(chosen, got.tolist(), strict=True):
            expected = eval_op(op, node.dtype, (a, b))
            assert same(expected, value), (op.name, src_dtype, a, b, expected, value)


# Nested float MAX and its WHERE forms: clang 14 at -O1 and above, given `(a > b) ? a : b` and
# `(x < 0.0f) ? 0.0f : x`, folds max(max(0.0, x), 0.0) to max(0.0, x), which gives -0.0 at
# x = -0.0 (the contract: 0.0); "where, two tie sides" is the same fold through CMPLT and WHERE.
# The renderer's `_max` and `_cmplt` are what stop it.
F_ZERO = UOp.const(0.0)


def _where_two_tie_sides(x):
    inner = x.lt(F_ZERO).where(0.0, x)  # x at a tie: -0.0 stays -0.0
    return F_ZERO.lt(inner).where(inner, 0.0)  # 0.0 at a tie


NESTED_MAX = [
    ("max(max(0,x),0)", lambda x: F_ZERO.max(x).max(0.0)),
    ("max(max(x,0),0)", lambda x: x.max(0.0).max(0.0)),
    ("where form", lambda x: x.lt(F_ZERO).where(0.0, x).lt(F_ZERO).where(0.0, x)),
    ("where, two tie sides", _where_two_tie_sides),
]


@needs_clang
@pytest.mark.parametrize("case, build", NESTED_MAX, ids=[c for c, _ in NESTED_MAX])
def test_nested_float_max_is_not_folded(case, build):
    x = param(0, F32)
    program = runtime.Program(value_call(build(x), F32, name="nested"))
    for value in (-0.0, 0.0, math.nan, -1.0, 2.5, -math.inf):
        assert same(program(value), evaluate(build(x), {0: value})), (case, value)
