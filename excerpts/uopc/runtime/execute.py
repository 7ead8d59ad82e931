def execute(call: UOp, buffers: dict | None = None, allow_alias: bool = False):
    """Run a call whose arguments are BUFFERs and constants.

    `buffers` maps an argument position to a Buffer or a list of values; every other BUFFER
    position gets a fresh zero-filled Buffer. Returns the value for a value body, else the list
    of Buffers by argument position (None at the constants).
    """
    _require_call("execute", call)
    buffers = {} if buffers is None else buffers
    arguments = call.src[1:]
    for position in buffers:
        if not (isinstance(position, int) and 0 <= position < len(arguments)):
            raise ValueError(f"execute: no argument at position {position!r}")
    values = [_argument(position, u, buffers) for position, u in enumerate(arguments)]
    result = Program(call)(*values, allow_alias=allow_alias)
    if call.src[0].dtype is not VOID:
        return result
    return [value if isinstance(value, Buffer) else None for value in values]


