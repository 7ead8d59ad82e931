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


