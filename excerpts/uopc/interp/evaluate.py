# op -> function of (node, values so far, env); an op not listed is memory and is refused.
EVALUATE = {
    Ops.CONST: lambda node, values, env: node.arg,
    Ops.PARAM: _param,
    Ops.CALL: _call,
    **{op: _alu for op in ALU},
}


def evaluate(root, env: dict):
    """The value of root with env mapping each PARAM slot to a Python value."""
    values = {}
    for node in outer_nodes(root):
        values[node] = EVALUATE.get(node.op, _refuse)(node, values, env)
    return values[root]


def outer_nodes(root) -> list:
    """root's toposort without the nodes reached only through a CALL's body.

    A body's PARAM may be the very node the caller also uses (hash consing), with another
    value, so a body is run apart by `_call`, never in the caller's walk.
    """
    order = root.toposort()
    if all(node.op is not Ops.CALL for node in order):
        return order
    wanted = {root}
    for node in reversed(order):  # every user of a node comes before it in this order
        if node in wanted:
            wanted.update(node.src[1:] if node.op is Ops.CALL else node.src)
    return [node for node in order if node in wanted]


