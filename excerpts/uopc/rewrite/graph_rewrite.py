FIRST_VISIT, SRCS_DONE, REPLACEMENT_DONE = 0, 1, 2


def graph_rewrite(root: UOp, pm: PatternMatcher, ctx=None, limit: int = 1_000_000) -> UOp:
    """Rewrite bottom-up to a fixed point: srcs first, then the node, then its replacement."""
    # Nodes never form reference cycles (a src is always older than its user), so the cyclic
    # garbage collector has nothing to find here; pausing it removes its repeated scans of
    # every live node, which cost about a third of the time on large graphs.
    paused = gc.isenabled()
    gc.disable()
    try:
        return _rewrite_to_fixed_point(root, pm, ctx, limit)
    finally:
        if paused:
            gc.enable()


def _rewrite_to_fixed_point(root, pm, ctx, limit):
    final: dict[UOp, UOp] = {}  # every node finished so far -> its final form
    steps = 0
    stack = [(root, FIRST_VISIT, None)]
    while stack:
        node, state, extra = stack.pop()
        if state == FIRST_VISIT:
            if node in final:
                continue
            unfinished = [src for src in node.src if src not in final]
            if unfinished:
                stack.append((node, SRCS_DONE, None))
                stack.extend((src, FIRST_VISIT, None) for src in reversed(unfinished))
                continue
            state = SRCS_DONE  # every src is finished already: go on with this node now
        if state == SRCS_DONE:
            if node in final:
                continue
            new_src = tuple([final[s] for s in node.src])
            rebuilt = node if new_src == node.src else UOp(node.op, new_src, node.arg)
            if rebuilt in final:  # met before, under another name
                final[node] = final[rebuilt]
                continue
            steps += 1
            if steps > limit:
                busiest = pm.fired.most_common(3)
                raise RewriteLimit(f"more than {limit} rewrite steps; busiest rules: {busiest}")
            replacement = pm.rewrite(rebuilt, ctx)
            if replacement is None:
                final[node] = final[rebuilt] = rebuilt
            else:
                stack.append((node, REPLACEMENT_DONE, (rebuilt, replacement)))
                stack.append((replacement, FIRST_VISIT, None))
        else:
            rebuilt, replacement = extra
            final[node] = final[rebuilt] = final[replacement]
    return final[root]


