@rule("param -> argument", UPat(Ops.PARAM, name="p"), SUBST)
def param_to_argument(p, ctx):
    # PARAM(slot) -> ctx[slot], for scalar params only (pointers stay: memory is not inlined)
    if isinstance(p.arg.dtype, DType) and p.arg.slot < len(ctx):
        return ctx[p.arg.slot]
    return None


def substitute(body: UOp, args) -> UOp:
    """The body with every PARAM replaced by its argument, all at once.

    One bottom-up pass over the original body: a replacement is never visited again, so
    f(P1, c) over P0 + P1 gives P1 + c (a repeated rewrite would give c + c).
    """
    mapped: dict[UOp, UOp] = {}
    for node in body.toposort():
        if node.op is Ops.PARAM:
            # the one rule of SUBST, called directly: a matcher would only test the op again
            mapped[node] = param_to_argument(node, ctx=args) or node
        else:
            new_src = tuple(mapped[s] for s in node.src)
            mapped[node] = node if new_src == node.src else UOp(node.op, new_src, node.arg)
    return mapped[body]


