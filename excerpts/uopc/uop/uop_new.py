class UOp:
    """One node: op, srcs, arg, and the dtype the checker gave it (shape and space follow)."""

    __slots__ = ("op", "src", "arg", "dtype", "id", "_range", "__weakref__")
    table = WeakTable()  # every live node; weak, so a node nothing uses goes away

    def __new__(cls, op, src=(), arg=None):
        if src.__class__ is not tuple:
            src = tuple(src)
        if op is Ops.CONST:
            arg = normalise_const(arg)
        # most nodes have no arg; their key is their src tuple (table_key, inlined for speed)
        family, key = (op, src) if arg is None else table_key(op, src, arg)
        try:
            node = UOp.table.get(family, key)
            if node is None and arg is not None:
                hash(key)  # an unhashable arg fails here even when its shelf is still empty
        except TypeError:  # an unhashable arg: let the checker say what is wrong with it
            infer(op, src, arg)
            raise UOpError(f"{op.name}: the arg must be hashable") from None
        if node is not None:
            return node  # built before: same object, no second check, no new id
        dtype = infer(op, src, arg)[0]
        node = object.__new__(cls)
        _set(node, "op", op)
        _set(node, "src", src)
        _set(node, "arg", arg)
        _set(node, "dtype", dtype)
        _set(node, "id", next(_ids))
        _set(node, "_range", None)
        try:
            UOp.table.put(family, key, node)
        except TypeError:  # an unhashable arg of a node that is otherwise well typed
            raise UOpError(f"{op.name}: the arg must be hashable") from None
        return node

