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
