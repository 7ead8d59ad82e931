@rule("(x*c)*y", UPat(Ops.MUL, dtype=INT, src=(var("a"), var("b"))), FURTHER)
def constant_out(a, b):
    # (x*c)*y -> (x*y)*c and (-x)*y -> -(x*y): the constant factor or the sign moves to the
    # top of the product, where the division, modulo and like-terms rules see it; a ring identity
    for inner, other in ((a, b), (b, a)):
        if other.op is Ops.CONST:
            return None
        if inner.op is Ops.MUL and inner.src[1].op is Ops.CONST:
            return (inner.src[0] * other) * inner.src[1]
        if inner.op is Ops.NEG:
            return -(inner.src[0] * other)
    return None


