@rule("x%c inside one bucket", UPat(Ops.FLOORMOD, dtype=INT, src=(var("x"), cvar("c"))), SYM)
def floormod_one_bucket(x, c):
    # x%c -> x - k*c when x//c is k over x's whole range (x in [8,11]: x%4 -> x-8)
    if c.arg == 0 or x.vmin // c.arg != x.vmax // c.arg:
        return None
    k = x.vmin // c.arg
    return x if k == 0 else x + const(wrap32(-k * c.arg))


