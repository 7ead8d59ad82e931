def _statement(u: UOp, name: str, names: dict) -> str:
    """The one C statement of an INDEX, LOAD or ALU node, whose value is called `name`."""
    operands = [names[s] for s in u.src]
    if u.op is Ops.INDEX:
        return f"  {u.dtype.base.c} *{name} = {operands[0]} + {operands[1]};"
    if u.op is Ops.LOAD:
        return f"  {u.dtype.c} {name} = *{operands[0]};"
    if u.op in ALU_EXPR:
        return f"  {u.dtype.c} {name} = {ALU_EXPR[u.op](u, *operands)};"
    raise ValueError(f"render: no C for a {u.op.name} inside a call body")


