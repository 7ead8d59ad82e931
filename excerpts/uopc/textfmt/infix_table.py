BINARY = {
    Ops.ADD: " + ",
    Ops.MUL: " * ",
    Ops.FLOORDIV: " // ",
    Ops.FLOORMOD: " % ",
    Ops.CMPLT: " < ",
    Ops.CMPNE: " != ",
}
# The name a parameter gets when the caller gives none for its slot (the C renderer's).
DEFAULT_NAMES = {Ops.PARAM: "p", Ops.BUFFER: "b", Ops.ALLOC: "a"}


def _function_form(name: str, srcs) -> list:
    pieces = [f"{name}("]
    for position, src in enumerate(srcs):
        pieces += [", ", src] if position else [src]
    return pieces + [")"]


def _param_form(u, names: dict) -> list:
    # a parameter by the name its caller gives for the slot, else the C renderer's name
    return [names.get(u.arg.slot, f"{DEFAULT_NAMES[u.op]}{u.arg.slot}")]


# op -> function of (node, names) giving the text as strings and src nodes in their places
INFIX_FORMS = {
    **{op: lambda u, names: ["(", u.src[0], BINARY[u.op], u.src[1], ")"] for op in BINARY},
    **{op: _param_form for op in DEFAULT_NAMES},
    Ops.CONST: lambda u, names: [repr(u.arg)],  # as Python prints it: 5, 3.0, True, -0.0
    Ops.CAST: lambda u, names: ["cast(", u.src[0], f", {u.arg})"],
    Ops.CALL: lambda u, names: _function_form(u.arg.name, u.src[1:]),  # body not printed
}


def _op_form(u, names: dict) -> list:
    return _function_form(u.op.name.lower(), u.src)  # max(a, b), where(c, a, b), neg(a), ...


def infix_pieces(u, names: dict) -> list:
    return INFIX_FORMS.get(u.op, _op_form)(u, names)


