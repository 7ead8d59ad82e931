_CHECKS = {
    Ops.CONST: _check_const,
    Ops.PARAM: _check_param,
    Ops.BUFFER: _check_param,
    Ops.ALLOC: _check_param,
    Ops.CALL: _check_call,
    Ops.INDEX: _check_index,
    Ops.LOAD: _check_load,
    Ops.STORE: _check_store,
    Ops.AFTER: _check_after,
    Ops.SINK: _check_sink,
    **{op: _check_alu for op in ALU},
}


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


