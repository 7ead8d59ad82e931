# Over mathematical integers z3's div is Euclidean; floor division by a negative divisor is the
# Euclidean quotient of the negated operands. The remainder is the contract's own formula
# a - b*(a//b), which z3 handles far better than its `mod` when the divisor is symbolic.
def floordiv_int(a, b):
    return z3.If(b == 0, 0, z3.If(b > 0, a / b, (-a) / (-b)))


def floormod_int(a, b):
    return z3.If(b == 0, a, a - b * floordiv_int(a, b))


# Where the hypotheses make the divisor positive, Euclidean division is floor division as it
# stands; leaving out the case split is what lets z3 settle claims with symbolic divisors.
def floordiv_pos(a, b):
    return a / b


def floormod_pos(a, b):
    return a - b * (a / b)


def in_i32(v):
    """v (an integer or a 64-bit bit vector) lies in the int32 range."""
    return z3.And(v >= INT_MIN, v <= INT_MAX)


