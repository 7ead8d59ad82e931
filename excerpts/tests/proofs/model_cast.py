def cast_z3(v, src, dst):
    """The contract's casts: truncation toward zero, saturation, nan to 0 (i32) or True."""
    if src is dst:
        return v
    if dst is BOOL:
        return v != 0 if src is I32 else z3.Not(fp_is_zero(v))  # nan is not zero: True
    if dst is F32:
        if src is BOOL:
            return z3.If(v, z3_const(1.0, F32, v.ctx), z3_const(0.0, F32, v.ctx))
        return fp_from_i32(rne(v), v, z3.Float32(v.ctx))
    if src is BOOL:
        return z3.If(v, bv32(1, v), bv32(0, v))
    big, small = (z3_const(limit, F32, v.ctx) for limit in (2147483648.0, -2147483648.0))
    truncated = fp_to_i32(z3.RTZ(v.ctx), v, z3.BitVecSort(32, v.ctx))
    low = z3.If(fp_leq(v, small), bv32(INT_MIN, v), truncated)
    high = z3.If(fp_geq(v, big), bv32(INT_MAX, v), low)
    return z3.If(fp_is_nan(v), bv32(0, v), high)


def same_z3(a, b, dtype):
    """`same` in z3: floats by IEEE bit pattern, all nans equal (z3 leaves a nan's bits open)."""
    if dtype is not F32:
        return a == b
    both_nan = z3.And(fp_is_nan(a), fp_is_nan(b))
    numbers = z3.And(z3.Not(fp_is_nan(a)), z3.Not(fp_is_nan(b)))
    return z3.Or(both_nan, z3.And(numbers, fp_bits(a) == fp_bits(b)))


