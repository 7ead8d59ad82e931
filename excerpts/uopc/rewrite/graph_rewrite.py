FIRST_VISIT, SRCS_DONE, REPLACEMENT_DONE = 0, 1, 2


@collector_paused  # speed only: see collector_paused in uopc/uop.py
def graph_rewrite(root: UOp, pm: PatternMatcher, ctx=None, limit: int | None = None) -> UOp:
    """Rewrite bottom-up to a fixed point: srcs first, then the node, then its replacement.

    `limit` caps the questions asked of the matcher; None scales it with root's graph."""
    # speed only: a compiled matcher brings a quicker walk that asks the same questions in the
    # same order (walk in uopc/compiled.py); the plain matcher walks as below
    walk = getattr(pm, "walk", _rewrite_to_fixed_point)
    return walk(root, pm, ctx, limit)


