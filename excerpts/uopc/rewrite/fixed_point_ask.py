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
