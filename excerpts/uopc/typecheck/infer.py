
# ops whose arg means something; every other op takes none (an arg would make x + x with an
# arg a second node for the same computation)
_TAKES_ARG = (Ops.CONST, Ops.PARAM, Ops.BUFFER, Ops.ALLOC, Ops.CALL, Ops.CAST)


def infer(op, src, arg):
    """Type check a would-be node: its dtype (shape and space follow from it), or UOpError
    naming the op."""
    if not isinstance(op, Ops):
        raise UOpError(f"unknown op {op}")
    for position, s in enumerate(src):
        if not isinstance(getattr(s, "op", None), Ops):  # only a node carries an op
            _fail(op, f"src {position} must be a UOp, got {type(s).__name__}")
    if arg is not None and op not in _TAKES_ARG:
        _fail(op, "takes no arg")
    return _CHECKS[op](op, src, arg)


