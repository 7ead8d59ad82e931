CANONICAL_NAN = f32(math.nan)


def arg_key(arg):
    """The hash-consing key of an arg, immune to True == 1 == 1.0, 0.0 == -0.0 and nan != nan."""
    if arg is None:
        return None  # most nodes: tested first only because it is the common case
    if isinstance(arg, float):
        return ("f32", f32_bits(arg))  # one key per float32 pattern, one for every nan
    if isinstance(arg, bool | int):
        return (type(arg).__name__, arg)  # ("bool", True) differs from ("int", 1)
    return arg


