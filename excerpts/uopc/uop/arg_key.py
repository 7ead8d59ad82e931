CANONICAL_NAN = f32(math.nan)


def normalise_const(value):
    """A float constant is stored as its float32 value, and every nan as one nan."""
    if isinstance(value, float):
        return CANONICAL_NAN if math.isnan(value) else f32(value)
    return value


def arg_key(arg):
    """The arg as the table and the patterns compare it: immune to True == 1 == 1.0,
    0.0 == -0.0 and nan != nan, which Python's own equality would get wrong."""
    if arg is None:
        return None  # most nodes: tested first only because it is the common case
    if isinstance(arg, float):
        return ("f32", f32_bits(arg))  # one key per float32 pattern, one for every nan
    if isinstance(arg, bool | int):
        return (type(arg).__name__, arg)  # ("bool", True) differs from ("int", 1)
    if isinstance(arg, ParamArg):
        # ParamArg(True, i32) == ParamArg(1, i32) too: the types of its numbers keep them
        # apart, so that the ill-typed one reaches the type checker instead of the table
        size = arg.dtype.size if isinstance(arg.dtype, Ptr) else None
        return (arg, *(type(v) for v in (arg.slot, arg.vmin, arg.vmax, size)))
    return arg  # None, CallArg, a DType: equality is already right


