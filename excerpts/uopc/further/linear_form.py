def linear_form(d: UOp):
    """d as ({base: coefficient}, constant), or None past 2*MAX_TERMS nodes walked.

    ADD splits, NEG flips the sign and x*c scales by c; every other node is a base. The
    coefficients are Python ints, wrapped to i32 only when the sum is built again."""
    terms, constant, walked, stack = {}, 0, 0, [(d, 1)]
    while stack:
        node, k = stack.pop()
        walked += 1
        if walked > 2 * MAX_TERMS:
            return None
        if node.op is Ops.ADD:
            stack.extend((s, k) for s in reversed(node.src))
        elif node.op is Ops.NEG:
            stack.append((node.src[0], -k))
        elif node.op is Ops.MUL and node.src[1].op is Ops.CONST:
            stack.append((node.src[0], k * node.src[1].arg))
        elif node.op is Ops.CONST:
            constant += k * node.arg
        else:
            terms[node] = terms.get(node, 0) + k
    return terms, constant


