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


