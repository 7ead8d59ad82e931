_RANGES = {
    Ops.CONST: lambda u, srcs, safe: (int(u.arg), int(u.arg), True),
    Ops.PARAM: _range_param,
    Ops.LOAD: lambda u, srcs, safe: BOOL_RANGE if u.dtype is BOOL else (*FULL, True),
    Ops.CAST: _range_cast,
    Ops.NEG: lambda u, srcs, safe: _fit(-srcs[0][1], -srcs[0][0], safe),
    Ops.ADD: lambda u, srcs, safe: _fit(srcs[0][0] + srcs[1][0], srcs[0][1] + srcs[1][1], safe),
    Ops.MUL: _range_mul,
    Ops.MAX: lambda u, srcs, safe: (
        max(srcs[0][0], srcs[1][0]),
        max(srcs[0][1], srcs[1][1]),
        safe,
    ),
    Ops.CMPLT: _range_cmplt,
    Ops.CMPNE: _range_cmpne,
    Ops.WHERE: _range_where,
    Ops.FLOORDIV: _range_floordiv,
    Ops.FLOORMOD: _range_floormod,
    Ops.CALL: _range_call,
}


def fill_ranges(u: UOp) -> None:
    """Cache the triple of u and of every node under it that has none yet, srcs first.

    An iterative walk that stops at cached triples: a node is computed once all its srcs
    have theirs, so usually only u itself and a new constant or two are visited."""
    stack = [u]
    while stack:
        node = stack[-1]
        missing = [src for src in node.src if src._range is None]
        if missing:
            stack.extend(missing)  # computed first; node comes back to the top after them
            continue
        stack.pop()
        if node._range is None:  # a node shared by two users may be pushed twice
            _set(node, "_range", range_of(node))




def range_of(u):
    """The (vmin, vmax, safe) triple of u; every src's triple must already be cached."""
    srcs = [s._range for s in u.src]
    safe = True
    for triple in srcs:
        safe = safe and triple[2]
    if u.dtype is not I32 and u.dtype is not BOOL:  # i32 and bool nodes are always values
        # no bounds for floats and places; a float computed from a wrapping int is not exact
        return UNBOUNDED if safe or u.dtype is not F32 else (-math.inf, math.inf, False)
    return _RANGES[u.op](u, srcs, safe)


