def _signature(call: UOp) -> str:
    """`float add(float p0, float p1) {`: one parameter per argument position, used or not."""
    params = []
    for position, argument in enumerate(call.src[1:]):
        dtype = argument.dtype
        if isinstance(dtype, Ptr):
            params.append(f"{dtype.base.c} *p{position}")
        else:
            params.append(f"{dtype.c} p{position}")
    body = call.src[0]
    ret = "void" if body.dtype is VOID else body.dtype.c
    return f"{ret} {call.arg.name}({', '.join(params) or 'void'}) {{"


