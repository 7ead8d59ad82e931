# After the strict rules: each node meets the book's rules first, so they fire where they
# always did, and the further rules (which walk whole sums) see only the canonical forms that
# the strict rules leave, and only when none of those fired.
further = default + PatternMatcher(FURTHER)
further_fast = further + PatternMatcher(FAST)


def simplify_further(root: UOp, fast_math: bool = False) -> UOp:
    """Rewrite root with the strict rules and the further rules (and the fast-math rules on
    request)."""
    return graph_rewrite(root, further_fast if fast_math else further)


