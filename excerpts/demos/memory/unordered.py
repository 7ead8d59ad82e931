def at(p: UOp, i: int) -> UOp:
    return UOp(Ops.INDEX, (p, UOp.const(i)))


def read(p: UOp, i: int) -> UOp:
    return UOp(Ops.LOAD, (at(p, i),))


def write(p: UOp, i: int, value) -> UOp:
    return UOp(Ops.STORE, (at(p, i), value if isinstance(value, UOp) else UOp.const(value)))


# Each program by hand, every access on p itself: no AFTER, so nothing orders the two accesses
# of the hazard. A SINK's srcs carry no order; each is listed so that "dfs" meets them badly.
def raw_unordered(p: UOp) -> UOp:  # p[0] = 5.0; p[1] = p[0]
    five = write(p, 0, 5.0)
    copy = write(p, 1, read(p, 0))  # should read the 5.0
    return UOp.sink(copy, five)


def war_unordered(p: UOp) -> UOp:  # v = p[0]; p[0] = 7.0; p[1] = v
    v = read(p, 0)  # should read the old p[0]
    seven = write(p, 0, 7.0)
    return UOp.sink(seven, write(p, 1, v))


def waw_unordered(p: UOp) -> UOp:  # p[0] = 1.0; p[0] = 2.0
    one = write(p, 0, 1.0)
    two = write(p, 0, 2.0)  # should be the one that stays
    return UOp.sink(two, one)


