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


