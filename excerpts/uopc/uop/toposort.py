def toposort(self, skip=None) -> list["UOp"]:
    """Every node under self once, srcs first: the post-order of a left-to-right DFS."""
    order: list[UOp] = []
    seen: set[UOp] = set()
    stack: list[tuple[UOp, bool]] = [(self, False)]
    while stack:
        node, srcs_done = stack.pop()
        if srcs_done:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        if skip is not None and skip(node):
            continue
        stack.append((node, True))
        # pushed in reverse so that the first src is visited first
        stack.extend([(s, False) for s in reversed(node.src) if s not in seen])
    return order

