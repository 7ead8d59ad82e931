"""The numbers a machine really has: int32 wrapping, float32 bits, rounding, specials, division.

    python demos/number_facts.py

Uses the contract's helpers (`wrap32`, `f32`, `floordiv`, `floormod`, `cast` from
`uopc.semantics`), `struct` for bit patterns and NumPy where a line names it. Seven quoted
blocks, each after a marker line `@@ block NAME` that the book build strips: wrap, bits,
rounding, specials, division, casts, and casts-hardware. The last holds the one line that
depends on the machine (what the CPU gives for a cast C leaves undefined), marked
`(this machine)`; every other line is the same on every run. A printed claim that turns out
false makes the program exit with a non-zero status.
"""

from _common import MACHINE, block, claim, finish

import math
import struct
import sys
from decimal import Decimal

import numpy as np

from uopc import F32, I32, INT_MIN
from uopc.semantics import cast, f32, floordiv, floormod, wrap32


def bits32(x: float) -> int:
    """The float32 pattern of x as struct writes it (nan keeps whatever payload it has)."""
    return struct.unpack("<I", struct.pack("<f", x))[0]


def short(x: float) -> str:
    """The shortest text that reads back as the same float32 (NumPy's float32 printing)."""
    return str(np.float32(x))


# ---------------------------------------------------------------------------------------------


def show_wrap():
    block("wrap")
    print(f"{'value':>12}  {'wrap32':>12}  32-bit pattern")
    values = [2147483647, 2147483648, -2147483649, 2**32 + 5, 46341**2]
    for value in values:
        print(f"{value:>12}  {wrap32(value):>12}  0x{value % 2**32:08x}")
    as_numpy = np.array(values, dtype=np.int64).astype(np.int32).tolist()  # keeps the low 32 bits
    agrees = as_numpy == [wrap32(value) for value in values]
    print(f"NumPy int32 gives the same: {agrees}")
    claim(agrees, "wrap: NumPy agrees")


def show_bits():
    block("bits")
    print(f"{'value':>8}  sign  exponent  fraction (23 bits)")
    for value in (1.0, 0.15625, -2.5, 0.1, 0.0, -0.0, math.inf, math.nan, 2.0**-149):
        pattern = bits32(value)
        sign, exponent, fraction = pattern >> 31, (pattern >> 23) & 0xFF, pattern & 0x7FFFFF
        print(f"{short(value):>8}  {sign:>4}  {exponent:08b}  {fraction:023b}")
    tenth = f32(0.1)
    print(f"float32 0.1 written as a double: {tenth!r}")
    print(f"Python's 0.1 to 30 decimals: {0.1:.30f}")
    print(f"the exact value of float32 0.1, to 30 places: {Decimal(tenth):.30f}")
    claim(Decimal(tenth) == Decimal("0.100000001490116119384765625"), "bits: float32 0.1")


def show_rounding():
    block("rounding")
    python_sum, float32_sum = 0.1 + 0.2, f32(f32(0.1) + f32(0.2))
    print(f"Python 0.1 + 0.2 = {python_sum!r} ({python_sum:.9g} with %.9g)")
    print(f"float32 0.1 + 0.2 = {float32_sum!r} ({float32_sum:.9g} with %.9g)")
    print(f"float32 2**24 + 1 = {f32(2**24 + 1)}, 2**24 + 2 = {f32(2**24 + 2)}")
    gaps = {x: float(np.spacing(np.float32(x))) for x in (1.0, 1e6, 1e10, 1e8)}
    print(f"gap between floats at 1.0: {gaps[1.0]!r}, at 1e6: {gaps[1e6]}, at 1e10: {gaps[1e10]}")
    big = f32(1e8)
    lost = f32(f32(big + 1.0) - big)
    print(f"float32 (1e8 + 1) - 1e8 = {lost}; the gap at 1e8 is {gaps[1e8]}")
    left, right = f32(f32(big - big) + 1.0), f32(big + f32(-big + 1.0))
    print(f"float32 (1e8 + -1e8) + 1 = {left}, but 1e8 + (-1e8 + 1) = {right}")
    claim((lost, left, right) == (0.0, 1.0, 0.0), "rounding: the groupings differ")


def show_specials():
    block("specials")
    nan = math.nan
    for other in (nan, 1.0):
        tests = {
            "==": nan == other,
            "!=": nan != other,
            "<": nan < other,
            "<=": nan <= other,
            ">": nan > other,
            ">=": nan >= other,
        }
        print(f"nan against {other}: " + ", ".join(f"{op} {value}" for op, value in tests.items()))
    with np.errstate(divide="ignore"):  # Python's own 1/0.0 raises ZeroDivisionError
        plus = float(np.float32(1.0) / np.float32(0.0))
        minus = float(np.float32(1.0) / np.float32(-0.0))
    print(f"0.0 == -0.0: {0.0 == -0.0}; yet in float32 1/0.0 = {plus} and 1/-0.0 = {minus}")
    print(f"copysign(1.0, -0.0) = {math.copysign(1.0, -0.0)}")
    claim((plus, minus) == (math.inf, -math.inf), "specials: the two zeros differ")
    print(f"Python: max(nan, 1) = {max(nan, 1.0)}, max(1, nan) = {max(1.0, nan)}")

    def ternary(a, b):
        return a if a > b else b  # the contract's MAX

    swapped = f"max(nan, 1) = {ternary(nan, 1.0)}, max(1, nan) = {ternary(1.0, nan)}"
    print(f"the ternary a if a > b else b: {swapped}")
    print(f"inf - inf = {math.inf - math.inf}, 0 * inf = {0.0 * math.inf}")


def show_division():
    block("division")
    a, b = -7, 2
    print(f"(-7, 2) truncated, as C does: {int(a / b)} remainder {math.fmod(a, b)} (math.fmod)")
    print(f"(-7, 2) floored, as Python does: {a // b} remainder {a % b}")
    print(f"(-7, 2) by the contract: floordiv {floordiv(a, b)}, floormod {floormod(a, b)}")
    print(f"Python 7 // -2 = {7 // -2}, 7 % -2 = {7 % -2} (the remainder takes the divisor's sign)")
    pairs = [(a, b) for a in range(-20, 21) for b in range(-5, 6) if b != 0]
    identity = all(a == b * floordiv(a, b) + floormod(a, b) for a, b in pairs)
    where = "for a in [-20,20], b in [-5,5], b != 0"
    print(f"a == b*(a//b) + a%b {where}: {len(pairs)} pairs, {identity}")
    claim(len(pairs) == 410 and identity, "division: the identity")
    print(f"the contract: 7 // 0 = {floordiv(7, 0)}, 7 % 0 = {floormod(7, 0)}")
    quotient = floordiv(INT_MIN, -1)
    print(f"the contract: INT_MIN // -1 = {quotient} (the true {-INT_MIN} wraps)")
    claim(quotient == INT_MIN, "division: INT_MIN // -1")


CAST_INPUTS = (3.99, -3.99, 1e10, -1e10, math.nan, math.inf, 2147483520.0, 2147483648.0)
CAST_EXPECTED = (3, -3, 2147483647, -2147483648, 0, 2147483647, 2147483520, 2147483647)


def show_casts():
    block("casts")
    print("f32 -> i32 under the contract (toward zero, saturating, nan to 0):")
    results = []
    for value in CAST_INPUTS:
        results.append(cast(f32(value), I32))
        print(f"  {value!r:>14} -> {results[-1]}")
    claim(tuple(results) == CAST_EXPECTED, "casts: the contract's f32 -> i32")
    print(f"i32 -> f32 of 16777217 = {cast(16777217, F32)} (the nearest float32)")
    block("casts-hardware")
    with np.errstate(invalid="ignore"):  # NumPy warns: the cast is undefined in C
        raw = np.float32(2**31).astype(np.int32)
    print("a cast C leaves undefined, as the hardware does it through NumPy:")
    print(f"float32(2**31).astype(int32) = {raw} {MACHINE}")


def main() -> int:
    show_wrap()
    show_bits()
    show_rounding()
    show_specials()
    show_division()
    show_casts()
    return finish()


if __name__ == "__main__":
    sys.exit(main())
