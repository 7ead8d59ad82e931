def literal(u: UOp) -> str:
    """The C text of a CONST: a literal C reads as exactly the constant's value and dtype."""
    if not isinstance(u, UOp) or u.op is not Ops.CONST:
        raise TypeError(f"literal needs a CONST node, got {_describe(u)}")
    value = u.arg
    if u.dtype is BOOL:
        return "true" if value else "false"
    if u.dtype is I32:
        if value == INT_MIN:
            return "(-2147483647 - 1)"  # 2147483648 does not fit an int, so -2147483648 is a long
        return f"({value})" if value < 0 else str(value)  # so NEG writes -(-5), never --5
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INFINITY" if value > 0 else "(-INFINITY)"
    text = f"{value:.9g}"  # C's %.9g: nine significant digits identify every float32
    if "." not in text and "e" not in text:
        text += ".0"  # `1f` is not C; `1.0f` is
    text += "f"  # without the suffix C reads a double, and the op would run in double
    return f"({text})" if text.startswith("-") else text


