def fill_ranges(u) -> None:
    """Cache the triple of u and of every node under it that has none yet, srcs first.

    An iterative walk that stops at cached triples: a node is computed once all its srcs
    have theirs, so usually only u itself and a new constant or two are visited."""
    stack = [u]
    while stack:
        node = stack[-1]
        missing = [src for src in node.src if src._range is None]
        if missing:
            stack.extend(missing)  # computed first; node comes back to the top after them
            continue
        stack.pop()
        if node._range is None:  # a node shared by two users may be pushed twice
            _set(node, "_range", range_of(node))


