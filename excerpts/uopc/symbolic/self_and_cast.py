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


