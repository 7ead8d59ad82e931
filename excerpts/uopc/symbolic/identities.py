# ---- identities ----------------------------------------------------------------------------


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


@rule("-(-x)", UPat(Ops.NEG, src=(UPat(Ops.NEG, src=(var("x"),)),)), SYM)
def neg_neg(x):
    return x  # -(-x) -> x: the sign flipped twice (and INT_MIN wraps to itself twice)


@rule(
    "-(x*c)", UPat(Ops.NEG, dtype=(I32, F32), src=(UPat(Ops.MUL, src=(var("x"), cvar("c"))),)), SYM
)
def neg_mul_const(x, c):
    # -(x*c) -> x*(-c): a ring identity for i32; float rounding is symmetric about zero
    return x * const(wrap32(-c.arg) if x.dtype is I32 else -c.arg)


@rule("x+(-x) (int)", UPat(Ops.ADD, dtype=INT, src=(var("x"), UPat(Ops.NEG, src=(var("x"),)))), SYM)
def add_own_negation(x):
    return const(0)  # x + (-x) -> 0 in the ring of i32 (not for floats: inf + -inf is nan)


@rule("max(x,x)", UPat(Ops.MAX, src=(var("x"), var("x"))), SYM)
def max_self(x):
    return x  # max(x, x) -> x: x > x is false, so MAX returns its second src, x, even for nan


@rule("x<x", UPat(Ops.CMPLT, src=(var("x"), var("x"))), SYM)
def less_than_self(x):
    return const(False)  # x < x -> False, also for nan


@rule("cast to own dtype", UPat(Ops.CAST, src=(var("x"),), name="u"), SYM)
def cast_to_own_dtype(u, x):
    return x if x.dtype is u.dtype else None  # cast(x, dtype of x) -> x


@rule("x*True (bool)", UPat(Ops.MUL, dtype=BOOL, src=(var("x"), cvar("c"))), SYM)
def and_true(x, c):
    return x if c.arg is True else None  # x AND True -> x (x AND False falls to ranges)


