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


