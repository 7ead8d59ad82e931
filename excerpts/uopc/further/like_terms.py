# ---- combining like terms ------------------------------------------------------------------


@rule("x+x", UPat(Ops.ADD, dtype=INT, src=(var("x"), var("x"))), FURTHER)
def add_self(x):
    # x + x -> x*2: one node more in this graph, but the factor 2 is now visible to the rules
    # that look for constant factors ((i+i)%2 -> 0 when i+i cannot wrap); a ring identity
    return x * const(2)


@rule("like terms", UPat((Ops.ADD, Ops.NEG, Ops.MUL), dtype=INT, name="d"), FURTHER)
def like_terms(d):
    # x*c1 + x*c2 -> x*(c1+c2), x*c + x -> x*(c+1), -(x*4 + 8) -> x*-4 + -8: the terms over one
    # base gather into one; exact in the ring of i32, so no guard
    if d.op is Ops.MUL and d.src[1].op is not Ops.CONST:
        return None
    form = linear_form(d)
    if form is None:
        return None
    terms, constant = form
    return smaller(gather(terms, constant), d)


