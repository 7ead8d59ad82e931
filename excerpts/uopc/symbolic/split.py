def split(d: UOp, c: int):
    """Write d as c*q + r: (q, r) or (q, None); None when that is not safe or not visible.

    The guard d.safe matters: without it (a*4 + b)//4 -> a + b//4 fails at
    a = 1073741824, b = -2147483648, where a*4 wraps.
    """
    if c <= 0 or not d.safe:
        return None
    terms = add_terms(d)
    if terms is None:
        return None
    quotients, rest = [], []
    for term in terms:
        q = quotient(term, c)
        if q is None:
            rest.append(term)
        else:
            quotients.append(q)
    if not quotients:
        return None
    r = total(rest) if rest else None
    if r is not None and not r.safe:
        return None
    return total(quotients), r


