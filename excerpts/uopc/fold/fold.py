@rule("const fold", UPat(tuple(ALU), name="u"), FOLD)
def const_fold(u):
    # op(c1, c2, ...) -> const(eval_op(op, c1, c2, ...)); the result has u's own dtype
    for src in u.src:
        if src.op is not Ops.CONST:
            return None
    return UOp.const(eval_op(u.op, u.dtype, [s.arg for s in u.src], u.arg))


