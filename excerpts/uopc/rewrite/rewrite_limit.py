# The default limit on questions to the matcher: a base that stops two rules undoing each other
# on a small graph in well under a second, plus an allowance per node of the input graph, so
# that a rule set without a loop finishes on any graph that fits in memory (the strict rules
# ask about 3 questions per node).
BASE_LIMIT = 100_000
LIMIT_PER_NODE = 100


def _limit_for(root: UOp) -> int:
    return BASE_LIMIT + LIMIT_PER_NODE * count_nodes(root)


def count_nodes(root: UOp) -> int:
    """len(root.toposort()), without putting the nodes in order (a third of the time)."""
    seen, stack = {root}, [root]
    while stack:
        for src in stack.pop().src:
            if src not in seen:
                seen.add(src)
                stack.append(src)
    return len(seen)


