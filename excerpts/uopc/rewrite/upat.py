class UPat:
    """A pattern: every field that is given must hold for the node it matches."""

    __slots__ = ("op", "dtype", "src", "arg", "arg_key", "name")

    def __init__(self, op=None, dtype=None, src=None, arg=ANY, name=None):
        self.op = _as_tuple(op)
        self.dtype = _as_tuple(dtype)
        self.src = None if src is None else tuple(src)
        self.arg = arg
        self.arg_key = None if arg is ANY else arg_key(arg)  # compared as the table compares
        self.name = name

    @staticmethod
    def var(name=None, dtype=None) -> "UPat":
        return UPat(dtype=dtype, name=name)

    @staticmethod
    def cvar(name=None, dtype=None) -> "UPat":
        return UPat(Ops.CONST, dtype=dtype, name=name)

