def _is_scalar_value(u: UOp) -> bool:
    return isinstance(u.dtype, DType) and u.space == ALU_SPACE


@rule("inline call", UPat(Ops.CALL, name="c"), INLINE)
def inline_call(c):
    # call(body, a0, a1, ...) -> body[P0 := a0, P1 := a1, ...] for value calls on values
    args = c.src[1:]
    if c.dtype in VALUE_DTYPES and all(_is_scalar_value(a) for a in args):
        return substitute(c.src[0], args)
    return None


fold = PatternMatcher(FOLD + INLINE)
