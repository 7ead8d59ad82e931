def add_terms(d: UOp) -> list[UOp]:
    """The non-ADD leaves of the tree of ADDs under d, left to right (iteratively)."""
    terms, stack = [], [d]
    while stack:
        node = stack.pop()
        if node.op is Ops.ADD:
            stack.extend(reversed(node.src))
        else:
            terms.append(node)
    return terms


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


def split(d: UOp, c: int):
    """Write d as c*q + r: (q, r) or (q, None); None when that is not safe or not visible.

    The guard d.safe matters: without it (a*4 + b)//4 -> a + b//4 fails at
    a = 1073741824, b = -2147483648, where a*4 wraps.
    """
    if c <= 0 or not d.safe:
        return None
    quotients, rest = [], []
    for term in add_terms(d):
        q = quotient(term, c)
        (rest if q is None else quotients).append(term if q is None else q)
    if not quotients:
        return None
    r = total(rest) if rest else None
    if r is not None and not r.safe:
        return None
    return total(quotients), r


@rule("(a*c1+b)//c2", UPat(Ops.FLOORDIV, dtype=INT, src=(var("d"), cvar("c"))), SYM)
def split_floordiv(d, c):
    # (c*q + r)//c -> q + r//c, exact when nothing wraps
    parts = split(d, c.arg)
    if parts is None:
        return None
    q, r = parts
    return q if r is None else q + r // c


@rule("(a*c1+b)%c2", UPat(Ops.FLOORMOD, dtype=INT, src=(var("d"), cvar("c"))), SYM)
def split_floormod(d, c):
    # (c*q + r)%c -> r%c, exact when nothing wraps
    parts = split(d, c.arg)
    if parts is None:
        return None
    q, r = parts
    return const(0) if r is None else r % c


