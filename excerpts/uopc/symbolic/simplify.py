default = fold + PatternMatcher(SYM)
fast = default + PatternMatcher(FAST)


def simplify(root: UOp, fast_math: bool = False) -> UOp:
    """Rewrite root with the strict rules (and the fast-math rules on request)."""
    return graph_rewrite(root, fast if fast_math else default)


