"""Unit cases for `uopc.semantics`: the value contract of spec §4, case by hand-picked case.

Every expected value here was worked out by hand from the spec (IEEE rounding for floats,
two's complement for ints), not produced by the code under test. Results are compared with
`exact`: same Python type and same double bit pattern (all nans alike), which is stricter than
`same`, so a helper that forgets to round to float32 cannot pass.
"""

import itertools
import math
import struct
from fractions import Fraction

import pytest

from uopc.dtypes import BOOL, F32, I32, INT_MAX, INT_MIN
from uopc.ops import ALU, Ops
from uopc.semantics import cast, eval_op, f32, f32_bits, floordiv, floormod, same, wrap32

NAN = math.nan
INF = math.inf
FMAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]  # largest float32, 3.4028235e38
TIE_TO_INF = 2.0**128 - 2.0**103  # halfway between FMAX and 2**128: rounds to inf
THIRD = 0.3333333432674408  # float32 nearest 1/3
TENTH = 0.10000000149011612  # float32 nearest 0.1
BIG = 1e20  # not a float32: 100000002004087734272.0 is
BIG32 = 100000002004087734272.0


def exact(a, b) -> bool:
    """Same Python type and same value bit for bit (so 0.0 and -0.0 differ; nans agree)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or struct.pack("<d", a) == struct.pack("<d", b)
    return a == b


def show(value):
    """A readable test id for one parametrized value."""
    return value.name if isinstance(value, Ops) else repr(value)


# ---------------------------------------------------------------------------------------------
# 4.1 helpers
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("x, want", [
    (0, 0),
    (-1, -1),
    (INT_MAX, INT_MAX),
    (INT_MIN, INT_MIN),
    (2**31, INT_MIN),
    (-(2**31) - 1, INT_MAX),
    (2**32, 0),
    (2**32 + 5, 5),
    (-(2**32) - 5, -5),
    (3 * 2**32 + 7, 7),
    (2**64 - 1, -1),
    (2500000000, -1794967296),
])  # fmt: skip
def test_wrap32(x, want):
    assert exact(wrap32(x), want)


@pytest.mark.parametrize("x, want", [
    (0.1, TENTH),                                   # rounds to nearest
    (1.0, 1.0),
    (1.0 + 2.0**-24, 1.0),                          # tie, to even (down)
    (1.0 + 3 * 2.0**-24, 1.0 + 2.0**-22),           # tie, to even (up)
    (1.0 + 2.0**-24 + 2.0**-40, 1.0 + 2.0**-23),    # just above the tie: up
    (-(1.0 + 2.0**-24), -1.0),
    (16777217.0, 16777216.0),                       # 2**24 + 1: tie, to even
    (16777219.0, 16777220.0),                       # 2**24 + 3: tie, to even
    (FMAX, FMAX),
    (math.nextafter(TIE_TO_INF, 0.0), FMAX),        # past FMAX but rounds down to it
    (TIE_TO_INF, INF),                              # tie past FMAX: overflow to inf
    (-TIE_TO_INF, -INF),
    (1e39, INF),
    (-1e39, -INF),
    (1e300, INF),
    (-1e300, -INF),
    (BIG, BIG32),
    (INF, INF),
    (-INF, -INF),
    (0.0, 0.0),
    (-0.0, -0.0),
    (2.0**-149, 2.0**-149),                         # smallest subnormal
    (2.0**-150, 0.0),                               # half of it: tie, to even (zero)
    (-(2.0**-150), -0.0),                           # underflow keeps the sign
    (2.0**-150 + 2.0**-170, 2.0**-149),
    (3 * 2.0**-150, 2.0**-148),                     # 1.5 ulp: tie, to even (up)
    (1e-50, 0.0),
    (NAN, NAN),
])  # fmt: skip
def test_f32(x, want):
    assert exact(f32(x), want)


@pytest.mark.parametrize("x, bits", [
    (1.0, 0x3F800000),
    (-2.0, 0xC0000000),
    (0.0, 0x00000000),
    (-0.0, 0x80000000),
    (INF, 0x7F800000),
    (-INF, 0xFF800000),
    (FMAX, 0x7F7FFFFF),
    (2.0**-149, 0x00000001),
    (0.1, 0x3DCCCCCD),                  # rounded first
    (1e39, 0x7F800000),                 # overflows to inf first
    (NAN, 0x7FC00000),
    (-NAN, 0x7FC00000),
    (struct.unpack("<d", struct.pack("<Q", 0x7FF0000000000001))[0], 0x7FC00000),  # payload nan
    (struct.unpack("<d", struct.pack("<Q", 0xFFF8000000000123))[0], 0x7FC00000),  # negative nan
])  # fmt: skip
def test_f32_bits(x, bits):
    assert f32_bits(x) == bits


FLOOR_CASES = [
    # a, b, floordiv, floormod
    (7, 2, 3, 1),
    (-7, 2, -4, 1),
    (7, -2, -4, -1),
    (-7, -2, 3, -1),
    (6, 3, 2, 0),
    (-6, 3, -2, 0),
    (0, 5, 0, 0),
    (1, INT_MAX, 0, 1),
    (-1, INT_MAX, -1, INT_MAX - 1),
    (7, 0, 0, 7),                       # zero divisor: x // 0 = 0, x % 0 = x
    (-7, 0, 0, -7),
    (0, 0, 0, 0),
    (INT_MIN, 0, 0, INT_MIN),
    (INT_MAX, 0, 0, INT_MAX),
    (INT_MIN, -1, INT_MIN, 0),          # the one quotient that wraps
    (INT_MIN, 1, INT_MIN, 0),
    (INT_MAX, -1, -INT_MAX, 0),
    (INT_MIN, 2, -(2**30), 0),
    (INT_MIN, INT_MAX, -2, INT_MAX - 1),
    (INT_MAX, INT_MIN, -1, -1),
    (INT_MIN, INT_MIN, 1, 0),
]  # fmt: skip


@pytest.mark.parametrize("a, b, quotient, remainder", FLOOR_CASES, ids=show)
def test_floordiv(a, b, quotient, remainder):
    assert exact(floordiv(a, b), quotient)


@pytest.mark.parametrize("a, b, quotient, remainder", FLOOR_CASES, ids=show)
def test_floormod(a, b, quotient, remainder):
    assert exact(floormod(a, b), remainder)


GRID = [INT_MIN, INT_MIN + 1, -(2**30), -7, -3, -2, -1, 0, 1, 2, 3, 7, 2**30, INT_MAX - 1, INT_MAX]


@pytest.mark.parametrize("a", GRID)
def test_floor_identity_over_grid(a):
    """a == b*floordiv(a,b) + floormod(a,b) (mod 2**32), b == 0 included; quotient is floor."""
    for b in GRID:
        q, r = floordiv(a, b), floormod(a, b)
        assert wrap32(b * q + r) == a, (a, b)
        assert INT_MIN <= q <= INT_MAX and INT_MIN <= r <= INT_MAX, (a, b)
        if b != 0:
            assert q == wrap32(math.floor(Fraction(a, b))), (a, b)
            assert (0 <= r < b) if b > 0 else (b < r <= 0), (a, b)
            if (a, b) != (INT_MIN, -1):
                assert b * q + r == a, (a, b)  # exact, not only modulo 2**32


# ---------------------------------------------------------------------------------------------
# 4.3 casts: (value, target, result)
# ---------------------------------------------------------------------------------------------

CAST_CASES = [
    # bool ->
    (True, BOOL, True),
    (False, BOOL, False),
    (True, I32, 1),
    (False, I32, 0),
    (True, F32, 1.0),
    (False, F32, 0.0),
    # i32 ->
    (0, BOOL, False),
    (5, BOOL, True),
    (-1, BOOL, True),
    (INT_MIN, BOOL, True),
    (7, I32, 7),
    (INT_MIN, I32, INT_MIN),
    (0, F32, 0.0),
    (-3, F32, -3.0),
    (16777216, F32, 16777216.0),
    (16777217, F32, 16777216.0),        # nearest float32, tie to even
    (16777219, F32, 16777220.0),
    (-16777217, F32, -16777216.0),
    (INT_MAX, F32, 2147483648.0),
    (INT_MIN, F32, -2147483648.0),
    # f32 ->
    (0.0, BOOL, False),
    (-0.0, BOOL, False),
    (0.5, BOOL, True),
    (-INF, BOOL, True),
    (NAN, BOOL, True),                  # nan != 0.0
    (2.9, I32, 2),                      # toward zero
    (-2.9, I32, -2),
    (-0.5, I32, 0),
    (-0.0, I32, 0),
    (NAN, I32, 0),
    (INF, I32, INT_MAX),                # saturates
    (-INF, I32, INT_MIN),
    (2147483648.0, I32, INT_MAX),
    (2147483520.0, I32, 2147483520),    # largest float32 below 2**31
    (-2147483648.0, I32, INT_MIN),
    (-2147483904.0, I32, INT_MIN),      # next float32 below -2**31
    (1e10, I32, INT_MAX),
    (-1e10, I32, INT_MIN),
    (FMAX, I32, INT_MAX),
    (1.5, F32, 1.5),
    (-0.0, F32, -0.0),
    (INF, F32, INF),
    (NAN, F32, NAN),
]  # fmt: skip


@pytest.mark.parametrize("value, dtype, want", CAST_CASES, ids=show)
def test_cast(value, dtype, want):
    assert exact(cast(value, dtype), want)


@pytest.mark.parametrize("value, dtype, want", CAST_CASES, ids=show)
def test_eval_op_cast(value, dtype, want):
    assert exact(eval_op(Ops.CAST, dtype, [value]), want)


# ---------------------------------------------------------------------------------------------
# 4.2 eval_op: (op, result dtype, srcs, result), every op and every dtype it accepts
# ---------------------------------------------------------------------------------------------

EVAL_CASES = [
    # ADD
    (Ops.ADD, I32, (1, 2), 3),
    (Ops.ADD, I32, (-5, 3), -2),
    (Ops.ADD, I32, (INT_MAX, 1), INT_MIN),
    (Ops.ADD, I32, (INT_MIN, -1), INT_MAX),
    (Ops.ADD, I32, (INT_MIN, INT_MIN), 0),
    (Ops.ADD, F32, (1.0, 2.0), 3.0),
    (Ops.ADD, F32, (1.0, 2.0**-24), 1.0),                   # tie, to even
    (Ops.ADD, F32, (1.0 + 2.0**-23, 2.0**-24), 1.0 + 2.0**-22),  # tie, to even
    (Ops.ADD, F32, (TENTH, TENTH), 0.20000000298023224),
    (Ops.ADD, F32, (FMAX, FMAX), INF),                       # overflow
    (Ops.ADD, F32, (-FMAX, -FMAX), -INF),
    (Ops.ADD, F32, (0.0, -0.0), 0.0),
    (Ops.ADD, F32, (-0.0, -0.0), -0.0),
    (Ops.ADD, F32, (INF, -INF), NAN),
    (Ops.ADD, F32, (NAN, 1.0), NAN),
    # MUL
    (Ops.MUL, I32, (3, 4), 12),
    (Ops.MUL, I32, (-3, 5), -15),
    (Ops.MUL, I32, (65536, 65536), 0),
    (Ops.MUL, I32, (46341, 46341), -2147479015),
    (Ops.MUL, I32, (INT_MIN, -1), INT_MIN),
    (Ops.MUL, I32, (INT_MAX, INT_MAX), 1),
    (Ops.MUL, F32, (1.5, 2.0), 3.0),
    (Ops.MUL, F32, (BIG32, BIG32), INF),
    (Ops.MUL, F32, (-BIG32, BIG32), -INF),
    (Ops.MUL, F32, (2.0**-100, 2.0**-100), 0.0),             # underflow
    (Ops.MUL, F32, (-(2.0**-100), 2.0**-100), -0.0),
    (Ops.MUL, F32, (-1.0, 0.0), -0.0),
    (Ops.MUL, F32, (0.0, INF), NAN),
    (Ops.MUL, F32, (TENTH, 3.0), 0.30000001192092896),       # rounded once
    (Ops.MUL, F32, (7.0, THIRD), 2.3333334922790527),
    (Ops.MUL, BOOL, (True, True), True),
    (Ops.MUL, BOOL, (True, False), False),
    (Ops.MUL, BOOL, (False, True), False),
    (Ops.MUL, BOOL, (False, False), False),
    # MAX
    (Ops.MAX, I32, (3, -5), 3),
    (Ops.MAX, I32, (-5, 3), 3),
    (Ops.MAX, I32, (INT_MIN, INT_MAX), INT_MAX),
    (Ops.MAX, F32, (1.0, 2.0), 2.0),
    (Ops.MAX, F32, (2.0, 1.0), 2.0),
    (Ops.MAX, F32, (NAN, 1.0), 1.0),                         # nan in a gives b
    (Ops.MAX, F32, (1.0, NAN), NAN),                         # nan in b gives nan
    (Ops.MAX, F32, (0.0, -0.0), -0.0),
    (Ops.MAX, F32, (-0.0, 0.0), 0.0),
    (Ops.MAX, F32, (-INF, -FMAX), -FMAX),
    (Ops.MAX, BOOL, (False, False), False),                  # OR
    (Ops.MAX, BOOL, (False, True), True),
    (Ops.MAX, BOOL, (True, False), True),
    (Ops.MAX, BOOL, (True, True), True),
    # CMPLT
    (Ops.CMPLT, BOOL, (1, 2), True),
    (Ops.CMPLT, BOOL, (2, 1), False),
    (Ops.CMPLT, BOOL, (2, 2), False),
    (Ops.CMPLT, BOOL, (INT_MIN, INT_MAX), True),
    (Ops.CMPLT, BOOL, (1.0, 2.0), True),
    (Ops.CMPLT, BOOL, (NAN, 1.0), False),
    (Ops.CMPLT, BOOL, (1.0, NAN), False),
    (Ops.CMPLT, BOOL, (-0.0, 0.0), False),
    (Ops.CMPLT, BOOL, (-INF, INF), True),
    (Ops.CMPLT, BOOL, (False, True), True),                  # False below True
    (Ops.CMPLT, BOOL, (True, False), False),
    (Ops.CMPLT, BOOL, (True, True), False),
    (Ops.CMPLT, BOOL, (False, False), False),
    # CMPNE
    (Ops.CMPNE, BOOL, (1, 1), False),
    (Ops.CMPNE, BOOL, (1, 2), True),
    (Ops.CMPNE, BOOL, (1.0, 1.0), False),
    (Ops.CMPNE, BOOL, (1.0, 2.0), True),
    (Ops.CMPNE, BOOL, (0.0, -0.0), False),
    (Ops.CMPNE, BOOL, (NAN, NAN), True),                     # true with nan
    (Ops.CMPNE, BOOL, (NAN, 1.0), True),
    (Ops.CMPNE, BOOL, (False, False), False),                # XOR
    (Ops.CMPNE, BOOL, (False, True), True),
    (Ops.CMPNE, BOOL, (True, False), True),
    (Ops.CMPNE, BOOL, (True, True), False),
    # NEG
    (Ops.NEG, I32, (5,), -5),
    (Ops.NEG, I32, (0,), 0),
    (Ops.NEG, I32, (INT_MAX,), -INT_MAX),
    (Ops.NEG, I32, (INT_MIN,), INT_MIN),                     # -INT_MIN wraps
    (Ops.NEG, F32, (1.5,), -1.5),
    (Ops.NEG, F32, (0.0,), -0.0),                            # flips the sign bit
    (Ops.NEG, F32, (-0.0,), 0.0),
    (Ops.NEG, F32, (INF,), -INF),
    (Ops.NEG, F32, (NAN,), NAN),
    # FLOORDIV, FLOORMOD (more in FLOOR_CASES)
    (Ops.FLOORDIV, I32, (-7, 2), -4),
    (Ops.FLOORDIV, I32, (7, 0), 0),
    (Ops.FLOORDIV, I32, (INT_MIN, -1), INT_MIN),
    (Ops.FLOORMOD, I32, (-7, 2), 1),
    (Ops.FLOORMOD, I32, (7, -2), -1),
    (Ops.FLOORMOD, I32, (7, 0), 7),
    (Ops.FLOORMOD, I32, (INT_MIN, -1), 0),
    # RECIP
    (Ops.RECIP, F32, (2.0,), 0.5),
    (Ops.RECIP, F32, (3.0,), THIRD),
    (Ops.RECIP, F32, (-4.0,), -0.25),
    (Ops.RECIP, F32, (0.0,), INF),
    (Ops.RECIP, F32, (-0.0,), -INF),
    (Ops.RECIP, F32, (INF,), 0.0),
    (Ops.RECIP, F32, (-INF,), -0.0),
    (Ops.RECIP, F32, (NAN,), NAN),
    (Ops.RECIP, F32, (2.0**-149,), INF),                     # 2**149 overflows float32
    (Ops.RECIP, F32, (FMAX,), 2.0**-128),                    # a subnormal result
    # EXP2
    (Ops.EXP2, F32, (0.0,), 1.0),
    (Ops.EXP2, F32, (3.0,), 8.0),
    (Ops.EXP2, F32, (-1.0,), 0.5),
    (Ops.EXP2, F32, (127.0,), 2.0**127),
    (Ops.EXP2, F32, (128.0,), INF),                          # finite double, float32 overflow
    (Ops.EXP2, F32, (1024.0,), INF),                         # Python raises OverflowError here
    (Ops.EXP2, F32, (FMAX,), INF),
    (Ops.EXP2, F32, (INF,), INF),
    (Ops.EXP2, F32, (-INF,), 0.0),
    (Ops.EXP2, F32, (-149.0,), 2.0**-149),
    (Ops.EXP2, F32, (-150.0,), 0.0),                         # tie, to even (zero)
    (Ops.EXP2, F32, (-FMAX,), 0.0),
    (Ops.EXP2, F32, (NAN,), NAN),
    # LOG2
    (Ops.LOG2, F32, (8.0,), 3.0),
    (Ops.LOG2, F32, (1.0,), 0.0),
    (Ops.LOG2, F32, (0.5,), -1.0),
    (Ops.LOG2, F32, (2.0**-149,), -149.0),
    (Ops.LOG2, F32, (0.0,), -INF),                           # Python raises ValueError here
    (Ops.LOG2, F32, (-0.0,), -INF),
    (Ops.LOG2, F32, (-1.0,), NAN),
    (Ops.LOG2, F32, (-INF,), NAN),
    (Ops.LOG2, F32, (-(2.0**-149),), NAN),
    (Ops.LOG2, F32, (INF,), INF),
    (Ops.LOG2, F32, (NAN,), NAN),
    # CAST (more in CAST_CASES)
    (Ops.CAST, F32, (16777217,), 16777216.0),
    (Ops.CAST, I32, (NAN,), 0),
    # WHERE
    (Ops.WHERE, I32, (True, 1, 2), 1),
    (Ops.WHERE, I32, (False, 1, 2), 2),
    (Ops.WHERE, F32, (True, 0.0, -0.0), 0.0),
    (Ops.WHERE, F32, (False, 0.0, -0.0), -0.0),
    (Ops.WHERE, F32, (False, 1.0, NAN), NAN),
    (Ops.WHERE, BOOL, (True, False, True), False),
    (Ops.WHERE, BOOL, (False, False, True), True),
]  # fmt: skip


@pytest.mark.parametrize("op, dtype, vals, want", EVAL_CASES, ids=show)
def test_eval_op(op, dtype, vals, want):
    assert exact(eval_op(op, dtype, list(vals)), want)


@pytest.mark.parametrize("op", sorted(ALU, key=lambda op: op.value), ids=lambda op: op.name)
def test_every_alu_op_has_cases(op):
    assert any(case[0] is op for case in EVAL_CASES)


def test_eval_op_takes_an_unused_arg():
    assert exact(eval_op(Ops.ADD, I32, [1, 2], arg="ignored"), 3)


@pytest.mark.parametrize("x", [0.0, 1.0, -2.5, INF])
def test_neg_flips_the_sign_bit(x):
    assert math.copysign(1.0, eval_op(Ops.NEG, F32, [x])) == -math.copysign(1.0, x)


def test_division_is_two_roundings():
    """a / b is MUL(a, RECIP(b)): 7/3 gives 2.3333334922790527, not the rounded quotient."""
    quotient = eval_op(Ops.MUL, F32, [7.0, eval_op(Ops.RECIP, F32, [3.0])])
    assert exact(quotient, 2.3333334922790527)
    assert not exact(quotient, f32(7.0 / 3.0))


def test_eval_op_on_load_names_the_op():
    with pytest.raises(ValueError) as info:
        eval_op(Ops.LOAD, F32, [1.0])
    assert str(info.value) == "no semantics for Ops.LOAD"


NON_ALU = [op for op in Ops if op not in ALU]


def test_there_are_ten_non_alu_ops():
    assert len(NON_ALU) == 10


@pytest.mark.parametrize("op", NON_ALU, ids=lambda op: op.name)
@pytest.mark.parametrize("dtype", [BOOL, I32, F32], ids=str)
def test_eval_op_refuses_non_alu_ops(op, dtype):
    with pytest.raises(ValueError) as info:
        eval_op(op, dtype, [])
    assert str(info.value) == f"no semantics for Ops.{op.name}"


# ---------------------------------------------------------------------------------------------
# Totality: no op raises on any combination of special inputs (spec §4.4)
# ---------------------------------------------------------------------------------------------

SPECIAL_INT = [0, 1, -1, 2, -7, 2**30, INT_MIN, INT_MAX, INT_MIN + 1, INT_MAX - 1]
SPECIAL_FLOAT = [0.0, -0.0, 1.0, -1.5, INF, -INF, NAN, FMAX, -FMAX, 2.0**-149, 2.0**-126, 128.0]
TOTALITY = [
    (Ops.ADD, I32, SPECIAL_INT, 2), (Ops.MUL, I32, SPECIAL_INT, 2),
    (Ops.MAX, I32, SPECIAL_INT, 2), (Ops.NEG, I32, SPECIAL_INT, 1),
    (Ops.FLOORDIV, I32, SPECIAL_INT, 2), (Ops.FLOORMOD, I32, SPECIAL_INT, 2),
    (Ops.ADD, F32, SPECIAL_FLOAT, 2), (Ops.MUL, F32, SPECIAL_FLOAT, 2),
    (Ops.MAX, F32, SPECIAL_FLOAT, 2), (Ops.NEG, F32, SPECIAL_FLOAT, 1),
    (Ops.RECIP, F32, SPECIAL_FLOAT, 1), (Ops.EXP2, F32, SPECIAL_FLOAT, 1),
    (Ops.LOG2, F32, SPECIAL_FLOAT, 1),
]  # fmt: skip


@pytest.mark.parametrize("op, dtype, inputs, arity", TOTALITY, ids=show)
def test_total_and_typed(op, dtype, inputs, arity):
    for vals in itertools.product(inputs, repeat=arity):
        result = eval_op(op, dtype, list(vals))
        if dtype is I32:
            assert type(result) is int and INT_MIN <= result <= INT_MAX, vals
        else:
            assert type(result) is float and (math.isnan(result) or f32(result) == result), vals


# ---------------------------------------------------------------------------------------------
# 4.5 same
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a, b, want", [
    (0.0, -0.0, False),                 # the zeros differ
    (-0.0, 0.0, False),
    (-0.0, -0.0, True),
    (NAN, NAN, True),                   # all nans are equal
    (NAN, -NAN, True),
    (NAN, 1.0, False),
    (1.0, NAN, False),
    (NAN, INF, False),
    (1.0, 1.0, True),
    (1.0, 2.0, False),
    (INF, INF, True),
    (INF, -INF, False),
    (0.1, TENTH, True),                 # compared as float32 bit patterns
    (True, True, True),
    (False, False, True),
    (True, False, False),
    (True, 1, False),                   # bool vs int differ
    (1, True, False),
    (False, 0, False),
    (0, False, False),
    (1, 1, True),
    (INT_MIN, INT_MIN, True),
    (5, 6, False),
    (1, 1.0, False),                    # int vs float differ
    (1.0, 1, False),
    (0, 0.0, False),
    (True, 1.0, False),
    (1.0, True, False),
])  # fmt: skip
def test_same(a, b, want):
    assert same(a, b) is want
