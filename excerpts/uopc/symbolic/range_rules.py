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


