class UPat:
    """A pattern: every field that is given must hold for the node it matches."""

    __slots__ = ("op", "dtype", "src", "arg", "name", "arg_key", "op_set", "plain", "src_ops")

    def __init__(self, op=None, dtype=None, src=None, arg=ANY, name=None):
        self.op = _as_tuple(op)
        self.dtype = _as_tuple(dtype)
        self.src = None if src is None else tuple(src)
        self.arg = arg
        self.arg_key = None if arg is ANY else arg_key(arg)
        self.name = name
        # Speed only: a set for the op test, and a flag for a pattern that checks nothing but
        # binds a name, which match() handles without a call.
        self.op_set = None if op is None else frozenset(self.op)
        self.plain = op is None and dtype is None and src is None and arg is ANY
        # (position, ops) of every src that must have a given op: the matcher tests these
        # before it calls match(), since most attempts fail right there.
        self.src_ops = tuple(
            (position, pattern.op_set)
            for position, pattern in enumerate(self.src or ())
            if pattern.op_set is not None
        )

    @staticmethod
    def var(name=None, dtype=None) -> "UPat":
        return UPat(dtype=dtype, name=name)

    @staticmethod
    def cvar(name=None, dtype=None) -> "UPat":
        return UPat(Ops.CONST, dtype=dtype, name=name)

    def match(self, u: UOp, store: dict) -> bool:
        """Check op, dtype, arg, then srcs left to right, then the name binding."""
        if self.op_set is not None and u.op not in self.op_set:
            return False
        if self.dtype is not None and u.dtype not in self.dtype:
            return False
        if self.arg is not ANY and arg_key(u.arg) != self.arg_key:
            return False
        if self.src is not None:
            if len(u.src) != len(self.src):
                return False
            for pattern, src in zip(self.src, u.src, strict=True):
                if pattern.plain:
                    if pattern.name is not None and store.setdefault(pattern.name, src) is not src:
                        return False
                elif pattern.op_set is not None and src.op not in pattern.op_set:
                    return False  # the cheapest test, made here to save a call
                elif not pattern.match(src, store):
                    return False
        if self.name is not None:
            return store.setdefault(self.name, u) is u  # a name used twice binds one node
        return True

