class UOp:
    """One node: op, srcs, arg, and the dtype the checker gave it (shape and space follow)."""

    __slots__ = ("op", "src", "arg", "dtype", "id", "_range", "__weakref__")
    table = TABLE  # every live node, held weakly: a node nothing uses goes away

    def __new__(cls, op, src=(), arg=None):
        src = tuple(src)
        if op is Ops.CONST:
            arg = normalise_const(arg)
        key = (op, src, arg_key(arg))
        try:
            ref = TABLE.get(key)
        except TypeError:  # an unhashable arg: let the checker name any other problem first
            infer(op, src, arg)
            raise UOpError(f"{op.name}: the arg must be hashable") from None
        node = None if ref is None else ref()
        if node is not None:
            return node  # built before: same object, no second check, no new id
        node = object.__new__(cls)
        _set(node, "op", op)
        _set(node, "src", src)
        _set(node, "arg", arg)
        _set(node, "dtype", infer(op, src, arg))
        _set(node, "id", next(_ids))
        _set(node, "_range", None)
        ref = TABLE[key] = _Ref(node, _forget)
        ref.key = key
        return node

