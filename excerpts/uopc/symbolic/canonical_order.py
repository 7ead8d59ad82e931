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


