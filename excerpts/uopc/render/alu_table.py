def _mul(u, a, b):
    return f"{a} && {b}" if u.dtype is BOOL else f"{a} * {b}"


# op -> C expression from the node and the C names of its srcs
ALU_EXPR = {
    Ops.CAST: _cast,
    Ops.NEG: lambda u, a: f"-{a}",  # -v0; a negative literal is bracketed, so never `--`
    Ops.RECIP: lambda u, a: f"1.0f / {a}",  # 1.0f / v0
    Ops.EXP2: lambda u, a: f"exp2f({a})",
    Ops.LOG2: lambda u, a: f"log2f({a})",
    Ops.ADD: lambda u, a, b: f"{a} + {b}",  # wraps for ints thanks to -fwrapv
    Ops.MUL: _mul,
    Ops.MAX: _max,
    Ops.CMPLT: _cmplt,
    Ops.CMPNE: lambda u, a, b: f"{a} != {b}",
    Ops.FLOORDIV: _floordiv,
    Ops.FLOORMOD: _floormod,
    Ops.WHERE: lambda u, c, a, b: f"{c} ? {a} : {b}",  # both branches were already computed
}
assert set(ALU_EXPR) == set(ALU), "every ALU op needs a C expression"
