def _rewrite_to_fixed_point(root, pm, ctx, limit):
    # the graph is measured only when the base is spent, so a small rewrite never pays for it
    scale_later = limit is None
    limit = BASE_LIMIT if limit is None else limit
    final: dict[UOp, UOp] = {}  # every node finished so far -> its final form
    steps = 0
    ask, quiet = pm.rewrite, pm.quiet
    stack = [(root, FIRST_VISIT, None)]
    while stack:
        node, state, extra = stack.pop()
        if state == REPLACEMENT_DONE:
            rebuilt, replacement = extra
            final[node] = final[rebuilt] = final[replacement]
            continue
        if node in final:
            continue
