def quotient(term: UOp, c: int):
    """term // c when term is visibly a multiple of c (a constant, or y * k with c | k)."""
    if term.op is Ops.CONST and term.arg % c == 0:
        return const(term.arg // c)
    if term.op is Ops.MUL and term.src[1].op is Ops.CONST and term.src[1].arg % c == 0:
        return term.src[0] * const(term.src[1].arg // c)
    return None


def total(terms: list[UOp]) -> UOp:
    result = terms[0]
    for term in terms[1:]:
        result = result + term
    return result


