@rule(
    "(x//c1)//c2",
    UPat(Ops.FLOORDIV, dtype=INT, src=(UPat(Ops.FLOORDIV, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def floordiv_floordiv(x, c1, c2):
    # (x//c1)//c2 -> x//(c1*c2) for positive divisors whose product fits
    if c1.arg > 0 and c2.arg > 0 and c1.arg * c2.arg <= INT_MAX:
        return x // const(c1.arg * c2.arg)
    return None


@rule(
    "(x%c1)%c2",
    UPat(Ops.FLOORMOD, dtype=INT, src=(UPat(Ops.FLOORMOD, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def floormod_floormod(x, c1, c2):
    # (x%c1)%c2 -> x%c2 when c2 divides c1 (both positive)
    if c1.arg > 0 and c2.arg > 0 and c1.arg % c2.arg == 0:
        return x % c2
    return None


