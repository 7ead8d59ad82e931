"""The value contract: the one place that says what every op computes.

Relies on `ops` and `dtypes`. Invariant: every op is total (it returns a value for every input
and never raises), so WHERE may evaluate both branches and folding can never move an error.
Folding, the interpreter and the proofs' models all follow this file; the compiled C is tested
against it bit for bit (EXP2 and LOG2 within one ulp).
"""

import math
import struct

from .dtypes import BOOL, F32, INT_MAX, INT_MIN
from .ops import Ops

CANONICAL_NAN_BITS = 0x7FC00000


# --8<-- [start:helpers]
def wrap32(x: int) -> int:
    """The int32 congruent to x modulo 2**32 (two's complement wrap-around)."""
    return (x + 2**31) % 2**32 - 2**31


def f32(x: float) -> float:
    """The float32 nearest to the double x (ties to even), overflow to a signed infinity."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:  # struct refuses magnitudes past the float32 range
        return math.copysign(math.inf, x)


def f32_bits(x: float) -> int:
    """The float32 bit pattern of x; every nan gives the one canonical pattern."""
    if math.isnan(x):
        return CANONICAL_NAN_BITS
    return struct.unpack("<I", struct.pack("<f", f32(x)))[0]


def floordiv(a: int, b: int) -> int:
    """Quotient rounded toward minus infinity; 0 for a zero divisor; INT_MIN // -1 wraps."""
    return 0 if b == 0 else wrap32(a // b)


def floormod(a: int, b: int) -> int:
    """Remainder with the divisor's sign; a for a zero divisor, so a == b*(a//b) + a%b."""
    return a if b == 0 else a - b * (a // b)


# --8<-- [end:helpers]


# --8<-- [start:cast]
def cast(v, dtype):
    """Convert v to dtype; float to int truncates, saturates, and sends nan to 0."""
    if dtype is BOOL:
        return v != 0  # nan != 0 is True
    if dtype is F32:
        return f32(float(v))
    if isinstance(v, float):
        if math.isnan(v):
            return 0
        if v >= 2147483648.0:
            return INT_MAX
        if v <= -2147483648.0:
            return INT_MIN
        return int(v)  # int() truncates toward zero
    return int(v)


# --8<-- [end:cast]


def _fmax(a: float, b: float) -> float:
    # `a > b` is false when either is nan, so nan in a gives b and nan in b gives nan (b);
    # equal zeros also give b: max(0.0, -0.0) is -0.0.
    return a if a > b else b


def _recip(a: float) -> float:
    if a == 0.0:
        return math.copysign(math.inf, a)
    return f32(1.0 / a)  # 1/±inf is ±0.0 and 1/nan is nan in Python already


def _exp2(a: float) -> float:
    try:
        return f32(math.exp2(a))
    except OverflowError:
        return math.inf


def _log2(a: float) -> float:
    if a == 0.0:
        return -math.inf
    if a < 0.0:
        return math.nan
    return f32(math.log2(a))  # log2(inf) is inf and log2(nan) is nan


# --8<-- [start:contract]
# One contract line per op and dtype kind: (op, kind) -> function of the source values.
INT_CONTRACT = {
    Ops.ADD: lambda a, b: wrap32(a + b),
    Ops.MUL: lambda a, b: wrap32(a * b),
    Ops.MAX: lambda a, b: a if a > b else b,
    Ops.NEG: lambda a: wrap32(-a),  # -INT_MIN is INT_MIN
    Ops.FLOORDIV: floordiv,
    Ops.FLOORMOD: floormod,
}
FLOAT_CONTRACT = {
    Ops.ADD: lambda a, b: f32(a + b),  # rounded to double, then to f32: same as rounding once
    Ops.MUL: lambda a, b: f32(a * b),
    Ops.MAX: _fmax,
    Ops.NEG: lambda a: -a,  # flips the sign bit, also of zeros and nan
    Ops.RECIP: _recip,
    Ops.EXP2: _exp2,
    Ops.LOG2: _log2,
}
BOOL_CONTRACT = {
    Ops.MUL: lambda a, b: a and b,  # AND
    Ops.MAX: lambda a, b: a or b,  # OR
}
ANY_DTYPE_CONTRACT = {
    Ops.CMPLT: lambda a, b: a < b,  # false with nan; False < True for bools
    Ops.CMPNE: lambda a, b: a != b,  # true with nan; XOR for bools
    Ops.WHERE: lambda c, a, b: a if c else b,
}
CONTRACT_BY_KIND = {"int": INT_CONTRACT, "float": FLOAT_CONTRACT, "bool": BOOL_CONTRACT}
# --8<-- [end:contract]


# --8<-- [start:eval_op]
def eval_op(op, dtype, vals, arg=None):
    """Apply op to the Python values vals; dtype is the result's (for CAST the target)."""
    if op is Ops.CAST:
        return cast(vals[0], dtype)
    if op in ANY_DTYPE_CONTRACT:
        return ANY_DTYPE_CONTRACT[op](*vals)
    fn = CONTRACT_BY_KIND.get(dtype.kind, {}).get(op) if hasattr(dtype, "kind") else None
    if fn is None:
        raise ValueError(f"no semantics for {op}")
    return fn(*vals)


# --8<-- [end:eval_op]


# --8<-- [start:same]
def same(a, b) -> bool:
    """The equality of every test: floats by float32 bits with all nans equal, else by kind."""
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, float) and isinstance(b, float)):
            return False
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return f32_bits(a) == f32_bits(b)
    return isinstance(a, bool) == isinstance(b, bool) and a == b


# --8<-- [end:same]
