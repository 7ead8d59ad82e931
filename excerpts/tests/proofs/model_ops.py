def floordiv_bv(a, b):
    # bvsdiv truncates and wraps INT_MIN / -1 to INT_MIN, as the contract does; a non-zero
    # remainder whose sign differs from the divisor's moves the quotient one step down
    q, r = a / b, z3.SRem(a, b)
    down = z3.And(r != 0, (r < 0) != (b < 0))
    return z3.If(b == 0, bv32(0, a), z3.If(down, q - 1, q))


def floormod_bv(a, b):
    # the remainder takes the divisor's sign; a zero divisor gives a (so a == b*(a//b) + a%b)
    r = z3.SRem(a, b)
    up = z3.And(r != 0, (r < 0) != (b < 0))
    return z3.If(b == 0, a, z3.If(up, r + b, r))


# One line per op and kind of the sources' dtype, as in the contract's tables.
MODEL = {
    "int": {
        Ops.ADD: lambda a, b: a + b,  # bit-vector arithmetic wraps modulo 2**32
        Ops.MUL: lambda a, b: a * b,
        Ops.NEG: lambda a: -a,  # -INT_MIN is INT_MIN
        Ops.MAX: lambda a, b: z3.If(a > b, a, b),  # a signed comparison
        Ops.CMPLT: lambda a, b: a < b,
        Ops.CMPNE: lambda a, b: a != b,
        Ops.FLOORDIV: floordiv_bv,
        Ops.FLOORMOD: floormod_bv,
    },
    "float": {
        Ops.ADD: lambda a, b: fp_add(rne(a), a, b),
        Ops.MUL: lambda a, b: fp_mul(rne(a), a, b),
        Ops.NEG: fp_neg,  # flips the sign bit, of zeros too
        Ops.MAX: lambda a, b: z3.If(fp_gt(a, b), a, b),  # nan in a gives b, nan in b gives b
        Ops.RECIP: lambda a: fp_div(rne(a), z3_const(1.0, F32, a.ctx), a),
        Ops.CMPLT: fp_lt,  # false with nan
        Ops.CMPNE: lambda a, b: z3.Not(fp_eq(a, b)),  # true with nan; 0.0 != -0.0 is false
    },
    "bool": {
        Ops.MUL: z3.And,
        Ops.MAX: z3.Or,
        Ops.CMPLT: lambda a, b: z3.And(z3.Not(a), b),  # False < True
        Ops.CMPNE: z3.Xor,
    },
}


