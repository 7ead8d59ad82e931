def run_call(call, buffers: list, order: str = "id"):
    """Run call's body; buffers[i] is the list for pointer argument i, updated in place.

    Returns the body's value, or None for a body without one (a SINK of stores).
    """
    if not isinstance(order, str) or order not in ORDERS:
        raise ValueError(f"unknown order {order!r}: use 'id' or 'dfs'")
    if call.op is not Ops.CALL:
        raise ValueError(f"run_call needs a CALL, got {call.op.name}")
    if isinstance(call.src[0].dtype, Ptr):  # as render refuses it: C returns no buffer
        raise ValueError(f"a call cannot return a pointer ({call.src[0].op.name} body)")
    body, run, values = call.src[0], _Run(call, buffers), {}
    for node in ORDERS[order](body):
        values[node] = RUN.get(node.op, _refuse)(node, values, run)
    return values[body] if body.dtype in VALUE_DTYPES else None


