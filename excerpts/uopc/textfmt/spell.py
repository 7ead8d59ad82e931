def spell_value(value) -> str:
    """A constant as the text writes it: true/false, decimal, or the shortest repr of the double.

    The repr of the stored double (0.10000000149011612, -0.0, nan, inf) reads back with float()
    to the same float32, so the constant comes back as the same node.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _param_fields(u) -> list:
    arg = u.arg
    if isinstance(arg.dtype, Ptr):  # dtype names the element type, size the length
        fields = [("dtype", arg.dtype.base), ("slot", arg.slot), ("size", arg.dtype.size)]
    else:
        fields = [("dtype", arg.dtype), ("slot", arg.slot)]
    bounds = [("min", arg.vmin), ("max", arg.vmax)]
    return fields + [(key, bound) for key, bound in bounds if bound is not None]


def _call_fields(u) -> list:
    name = u.arg.name
    # a name with a space or a line break would not read back as one token
    if not isinstance(name, str) or any(c in name for c in " \n"):
        raise ValueError(f"a call name must be a str without spaces or line breaks, got {name!r}")
    return [("name", name)]


FIELD_WRITERS = {
    Ops.CONST: lambda u: [("dtype", u.dtype), ("value", spell_value(u.arg))],
    **{op: _param_fields for op in PARAM_OPS},
    Ops.CAST: lambda u: [("dtype", u.arg)],
    Ops.CALL: _call_fields,
}
