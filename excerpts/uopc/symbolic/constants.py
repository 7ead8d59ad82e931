# ---- constants that gather -----------------------------------------------------------------


@rule(
    "(x+c1)+c2",
    UPat(Ops.ADD, dtype=INT, src=(UPat(Ops.ADD, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def add_add_const(x, c1, c2):
    return x + const(wrap32(c1.arg + c2.arg))  # (x+c1)+c2 -> x+(c1+c2): i32 + is a ring


@rule(
    "(x*c1)*c2",
    UPat(Ops.MUL, dtype=INT, src=(UPat(Ops.MUL, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def mul_mul_const(x, c1, c2):
    return x * const(wrap32(c1.arg * c2.arg))  # (x*c1)*c2 -> x*(c1*c2)


@rule(
    "(x+c1)*c2",
    UPat(Ops.MUL, dtype=INT, src=(UPat(Ops.ADD, src=(var("x"), cvar("c1"))), cvar("c2"))),
    SYM,
)
def distribute_const(x, c1, c2):
    # (x+c1)*c2 -> x*c2 + c1*c2; no factoring rule exists, so this cannot loop
    return x * c2 + const(wrap32(c1.arg * c2.arg))


