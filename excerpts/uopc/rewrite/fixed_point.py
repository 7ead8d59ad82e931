def _rewrite_to_fixed_point(root, pm, ctx, limit):
    # the graph is measured only when the base is spent, so a small rewrite never pays for it
    scale_later = limit is None
    limit = BASE_LIMIT if limit is None else limit
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
            replacement = pm.rewrite(rebuilt, ctx)
            steps += 1  # counted after the question: the one that crosses the limit counts
            if steps > limit and scale_later:
                limit, scale_later = _limit_for(root), False
            if steps > limit:
                busiest = pm.fired.most_common(3)
                raise RewriteLimit(f"more than {limit} rewrite steps; busiest rules: {busiest}")
            if replacement is None:
                final[node] = final[rebuilt] = rebuilt
            else:
                stack.append((node, REPLACEMENT_DONE, (rebuilt, replacement)))
                stack.append((replacement, FIRST_VISIT, None))
        else:
            rebuilt, replacement = extra
            final[node] = final[rebuilt] = final[replacement]
    return final[root]


