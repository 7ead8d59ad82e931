def infix(node, names=None) -> str:
    """A fully bracketed one-line expression of the graph under node.

    It prints the tree, so a shared node is written at each use. The pieces go through an
    explicit stack into one list joined at the end: linear in the length of the text, where
    joining strings bottom-up would copy a chain's growing prefix once per node.
    """
    names = names or {}
    out, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
        else:
            stack.extend(reversed(infix_pieces(item, names)))
    return "".join(out)


