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
        if not node.src:  # a leaf: nothing to rebuild
            rebuilt = node
        else:
            if state == FIRST_VISIT:
                unfinished = [src for src in node.src if src not in final]
                if unfinished:
                    stack.append((node, SRCS_DONE, None))
                    stack.extend([(src, FIRST_VISIT, None) for src in reversed(unfinished)])
                    continue
            # every src is finished: rebuild the node over their final forms
            new_src = tuple([final[s] for s in node.src])
            rebuilt = node if new_src == node.src else node.replace_src(new_src)
            if rebuilt in final:  # met before, under another name
                final[node] = final[rebuilt]
                continue
        # then ask about it; a node of an op no rule looks at is its own answer (still a step)
        replacement = None if rebuilt.op in quiet else ask(rebuilt, ctx)
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
    return final[root]


