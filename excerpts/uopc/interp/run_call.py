class _Run:
    """What the PARAMs of one run read: the call's arguments and the caller's entries."""

    def __init__(self, call, buffers):
        self.call, self.buffers = call, buffers


# op -> function of (node, values so far, run); the value ops are evaluate's.
RUN = {
    **EVALUATE,
    Ops.PARAM: lambda node, values, run: _argument(run, node.arg.slot, node.dtype),
    Ops.ALLOC: lambda node, values, run: [None] * node.dtype.size,  # fresh, unwritten
    Ops.INDEX: lambda node, values, run: (values[node.src[0]], values[node.src[1]]),
    Ops.AFTER: lambda node, values, run: values[node.src[0]],  # only fixes the order
    Ops.LOAD: _load,
    Ops.STORE: _store,
    Ops.SINK: lambda node, values, run: None,
}

# Both orders put every node after its srcs: a src is built, and so numbered, before its user.
ORDERS = {
    "id": lambda body: sorted(body.toposort(), key=lambda node: node.id),
    "dfs": lambda body: body.toposort(),  # the order of the C statements
}


def run_call(call, buffers: list, order: str = "id"):
    """Run call's body; buffers[i] is the list for pointer argument i, updated in place.

    Returns the body's value, or None for a body without one (a SINK of stores).
    """
    if not isinstance(order, str) or order not in ORDERS:
        raise ValueError(f"unknown order {order!r}: use 'id' or 'dfs'")
    if call.op is not Ops.CALL:
        raise ValueError(f"run_call needs a CALL, got {call.op.name}")
    body, run, values = call.src[0], _Run(call, buffers), {}
    for node in ORDERS[order](body):
        values[node] = RUN.get(node.op, _refuse)(node, values, run)
    return values[body] if body.dtype in VALUE_DTYPES else None


