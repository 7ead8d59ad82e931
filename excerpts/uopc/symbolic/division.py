# ---- division and remainder ----------------------------------------------------------------


@rule("x//c trivial", UPat(Ops.FLOORDIV, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def floordiv_trivial(x, c):
    # x//1 -> x; x//-1 -> -x (INT_MIN // -1 and -INT_MIN are both INT_MIN); x//0 -> 0
    if c.arg == 1:
        return x
    if c.arg == -1:
        return -x
    return const(0) if c.arg == 0 else None


@rule("x%c trivial", UPat(Ops.FLOORMOD, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def floormod_trivial(x, c):
    # x%0 -> x (the contract); x%1 and x%-1 -> 0
    if c.arg == 0:
        return x
    return const(0) if c.arg in (1, -1) else None


@rule("x%c inside one bucket", UPat(Ops.FLOORMOD, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def floormod_one_bucket(x, c):
    # x%c -> x - k*c when x//c is k over x's whole range (x in [8,11]: x%4 -> x-8)
    if c.arg == 0 or x.vmin // c.arg != x.vmax // c.arg:
        return None
    k = x.vmin // c.arg
    return x if k == 0 else x + const(wrap32(-k * c.arg))


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


