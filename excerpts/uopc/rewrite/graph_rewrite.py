FIRST_VISIT, SRCS_DONE, REPLACEMENT_DONE = 0, 1, 2


def graph_rewrite(root: UOp, pm: PatternMatcher, ctx=None, limit: int | None = None) -> UOp:
    """Rewrite bottom-up to a fixed point: srcs first, then the node, then its replacement.

    `limit` caps the questions asked of the matcher; None scales it with root's graph."""
    # Nodes never form reference cycles (a src is always older than its user), so the cyclic
    # garbage collector has nothing to find here; pausing it removes its repeated scans of
    # every live node, which cost about a third of the time on large graphs.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _rewrite_to_fixed_point(root, pm, ctx, limit)
    finally:
        if paused:
            gc.enable()


