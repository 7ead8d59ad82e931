CONST_FAMILIES = {bool: "const bool", int: "const int", float: "const f32"}


def table_key(op, src, arg):
    """Where a node lives in the table: a family (a sub-table) and the key inside it.

    This is the key (op, src, arg key) split in two so that most nodes need no key object
    of their own: an ALU node is found by its src tuple, a constant by its value (a float
    by its bits), a param by its ParamArg. Families keep True, 1 and 1.0 apart.
    """
    if arg is None:
        return op, src
    if op is Ops.CONST and not src and type(arg) in CONST_FAMILIES:
        family = CONST_FAMILIES[type(arg)]
        return family, f32_bits(arg) if type(arg) is float else arg
    key = _param_key(arg) if type(arg) is ParamArg else arg_key(arg)
    return op, (src, key) if src else key


def _param_key(arg: ParamArg) -> tuple:
    """A ParamArg with the types of its numbers, so ParamArg(True, ...) never finds slot 1."""
    size = arg.dtype.size if isinstance(arg.dtype, Ptr) else None
    return (arg, *(type(v) for v in (arg.slot, arg.vmin, arg.vmax, size)))


