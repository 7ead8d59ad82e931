@rule("(a*c1+b)//c2", UPat(Ops.FLOORDIV, dtype=INT, src=(var("d"), cvar("c"))), SYM)
def split_floordiv(d, c):
    # (c*q + r)//c -> q + r//c, exact when nothing wraps
    parts = split(d, c.arg)
    if parts is None:
        return None
    q, r = parts
    return q if r is None else q + r // c


@rule("(a*c1+b)%c2", UPat(Ops.FLOORMOD, dtype=INT, src=(var("d"), cvar("c"))), SYM)
def split_floormod(d, c):
    # (c*q + r)%c -> r%c, exact when nothing wraps
    parts = split(d, c.arg)
    if parts is None:
        return None
    q, r = parts
    return const(0) if r is None else r % c


