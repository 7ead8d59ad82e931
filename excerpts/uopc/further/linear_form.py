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


def term(base: UOp, k: int) -> UOp:
    # x*1 -> x and x*-1 -> -x here already, so the strict rules meet the form they leave
    k = wrap32(k)
    return base if k == 1 else -base if k == -1 else base * const(k)


def gather(terms: dict, constant: int) -> UOp:
    """The sum again: the terms with a coefficient other than 0, by age, the constant last."""
    parts = [term(base, k) for base, k in sorted(terms.items(), key=lambda t: t[0].id) if wrap32(k)]
    if wrap32(constant) or not parts:
        parts.append(const(wrap32(constant)))
    result = parts[0]
    for part in parts[1:]:
        result = result + part
    return result


