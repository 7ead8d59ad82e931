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


