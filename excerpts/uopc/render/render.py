def render(call: UOp) -> str:
    """The C source of a CALL: the prelude, then one function with one statement per node."""
    _check_call(call)
    body = call.src[0]
    names: dict[UOp, str] = {}  # node -> the C text that stands for its value or address
    declarations: list[str] = []
    stack_bytes = 0  # scratch declared on the stack so far
    statements: list[str] = []
    counter = 0
    for u in body.toposort():
        op = u.op
        if op is Ops.CONST:
            names[u] = literal(u)
        elif op is Ops.PARAM:
            names[u] = f"p{u.arg.slot}"
        elif op is Ops.ALLOC:
            names[u] = f"a{u.arg.slot}"
            declaration, stack_bytes = _declare_alloc(u, stack_bytes)
            declarations.append(declaration)
        elif op is Ops.AFTER:
            names[u] = names[u.src[0]]  # the same pointer; its other srcs only fixed the order
        elif op is Ops.STORE:
            statements.append(f"  *{names[u.src[0]]} = {names[u.src[1]]};")
        elif op is not Ops.SINK:
            # v<k> counts the INDEX, LOAD and ALU nodes only (a STORE has no value to name)
            names[u] = name = f"v{counter}"
            counter += 1
            statements.append(_statement(u, name, names))
    lines = [_signature(call), *declarations, *statements]
    if body.dtype is not VOID:
        lines.append(f"  return {names[body]};")
    lines.append("}")
    return PRELUDE + "\n" + "\n".join(lines) + "\n"


