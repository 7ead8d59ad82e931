# ---- the contract in z3 terms --------------------------------------------------------------
# Every claim gets a z3 context of its own (see Context), so the helpers below take the
# context from their operands. RNE, round to nearest with ties to even, is every float op's.
def rne(t):
    return z3.RNE(t.ctx)


def z3_const(value, dtype, zc):
    """A z3 numeral, in the z3 context zc, for a Python value of dtype."""
    if dtype is BOOL:
        return z3.BoolVal(value, zc)
    if dtype is I32:
        return z3.BitVecVal(value, 32, zc)
    sort = z3.Float32(zc)
    if math.isnan(value):
        return z3.fpNaN(sort)
    if math.isinf(value):
        return z3.fpInfinity(sort, value < 0)
    if value == 0.0:  # spelled out: the sign of zero is what several claims are about
        return z3.fpZero(sort, math.copysign(1.0, value) < 0)
    return z3.FPVal(value, None, sort, zc)


def bv32(value, t):
    return z3.BitVecVal(value, 32, t.ctx)


def _with_context(fn):
    # z3's fp functions build in the global context unless given `ctx`, and mixing contexts
    # crashes the process: take the context from the last argument
    return lambda *args: fn(*args, ctx=args[-1].ctx)


fp_add, fp_mul, fp_div, fp_neg = map(_with_context, (z3.fpAdd, z3.fpMul, z3.fpDiv, z3.fpNeg))
fp_lt, fp_gt, fp_leq, fp_geq, fp_eq = map(
    _with_context, (z3.fpLT, z3.fpGT, z3.fpLEQ, z3.fpGEQ, z3.fpEQ)
)
fp_is_nan, fp_is_zero, fp_bits = map(_with_context, (z3.fpIsNaN, z3.fpIsZero, z3.fpToIEEEBV))
fp_from_i32, fp_to_i32 = map(_with_context, (z3.fpSignedToFP, z3.fpToSBV))


