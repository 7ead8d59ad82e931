

@rule("x*1", UPat(Ops.MUL, dtype=(I32, F32), src=(var("x"), cvar("c"))), SYM)
def mul_one(x, c):
    return x if c.arg == 1 else None  # x*1 -> x, exact even for nan and both zeros


@rule("x*-1", UPat(Ops.MUL, dtype=(I32, F32), src=(var("x"), cvar("c"))), SYM)
def mul_minus_one(x, c):
    return -x if c.arg == -1 else None  # x*-1 -> -x: the same wrap; float negation is exact


@rule("x+(-0.0) (float)", UPat(Ops.ADD, dtype=FLT, src=(var("x"), cvar("c"))), SYM)
def add_minus_zero(x, c):
    # x + (-0.0) -> x. Not x + 0.0: at x = -0.0 that gives +0.0. Test the sign, not == 0.0.
    return x if c.arg == 0.0 and math.copysign(1.0, c.arg) < 0 else None


@rule("x+0 (int)", UPat(Ops.ADD, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def add_zero(x, c):
    return x if c.arg == 0 else None  # x + 0 -> x


