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
