@rule(
    "(x*c1)*c2 (float)",
    UPat(Ops.MUL, dtype=FLT, src=(UPat(Ops.MUL, src=(var("x"), cvar("c1"))), cvar("c2"))),
    FAST,
)
def fast_regroup(x, c1, c2):
    return x * const(c1.arg * c2.arg)  # two roundings become one: the last bit may change


@rule(
    "x*recip(x)", UPat(Ops.MUL, dtype=FLT, src=(var("x"), UPat(Ops.RECIP, src=(var("x"),)))), FAST
)
def fast_mul_recip(x):
    return const(1.0)  # wrong for nan, 0, ±inf, and in the last bit for some x


@rule(
    "x+(-x) (float)", UPat(Ops.ADD, dtype=FLT, src=(var("x"), UPat(Ops.NEG, src=(var("x"),)))), FAST
)
def fast_add_negation(x):
    return const(0.0)  # wrong for nan and ±inf (inf + -inf is nan)


