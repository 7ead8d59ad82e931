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
