# ---- canonical order and ranges ------------------------------------------------------------


@rule(
    "canonical order",
    UPat(COMMUTATIVE, src=(var("a"), var("b")), name="u"),
    SYM,
)
def canonical_order(u, a, b):
    # b + a -> a + b: constants right, otherwise the older node first, so b+a meets a+b.
    # Float MAX does not commute (nan, signed zeros), so it keeps its order.
    if u.op is Ops.MAX and u.dtype is F32:
        return None
    if (a.op is Ops.CONST, a.id) > (b.op is Ops.CONST, b.id):
        return UOp(u.op, (b, a))
    return None


@rule("range is a point", UPat(tuple(ALU), dtype=(I32, BOOL), name="u"), SYM)
def range_is_a_point(u):
    # u -> c when vmin == vmax == c (ranges are sound): x%1, j<4 for j in [0,3], (i+k)*0
    vmin, vmax, _ = u.range
    if vmin == vmax:
        return const(bool(vmin) if u.dtype is BOOL else vmin)
    return None


@rule("max by range", UPat(Ops.MAX, dtype=(I32, BOOL), src=(var("a"), var("b"))), SYM)
def max_by_range(a, b):
    # max(a, b) -> a when a is never smaller than b, and the other way round
    if a.vmin >= b.vmax:
        return a
    return b if b.vmin >= a.vmax else None


