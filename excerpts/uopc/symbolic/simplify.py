default = fold + matcher(SYM)  # compiled unless UOPC_MATCHER=plain
fast = default + matcher(FAST)


def simplify(root: UOp, fast_math: bool = False) -> UOp:
    """Rewrite root with the strict rules (and the fast-math rules on request)."""
    return graph_rewrite(root, fast if fast_math else default)


