MAX_UNFOLDED = 4096  # past this many terms, a sum whose ADDs share a node is not split


def add_terms(d: UOp) -> list[UOp] | None:
    """The non-ADD leaves of the tree of ADDs under d, left to right (iteratively); None when
    shared ADDs would unfold to more than MAX_UNFOLDED terms.

    A shared ADD is listed at each use, so 60 lines of `%k = add %(k-1), %(k-1)` would unfold
    to 2**60 terms; a sum whose ADDs form a tree has one term more than ADDs, whatever its size."""
    terms, stack = [], [d]
    while stack:
        node = stack.pop()
        if node.op is Ops.ADD:
            stack.extend(reversed(node.src))
        else:
            terms.append(node)
            if len(terms) == MAX_UNFOLDED + 1 and shares_an_add(d):
                return None
    return terms


def shares_an_add(d: UOp) -> bool:
    """Whether some ADD under d (through ADDs only) is a src of more than one use."""
    adds = d.toposort(skip=lambda node: node.op is not Ops.ADD)
    uses = sum(1 for node in adds for s in node.src if s.op is Ops.ADD)
    return uses + 1 > len(adds)  # in a tree every ADD but d is used exactly once


