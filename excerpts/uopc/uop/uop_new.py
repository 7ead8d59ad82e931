class UOp:
    """One node: op, srcs, arg, and the dtype the checker gave it (shape and space follow)."""

    __slots__ = ("op", "src", "arg", "dtype", "id", "_range", "__weakref__")
    table = TABLE  # every live node, held weakly (with ARG_TABLE): a node nothing uses goes away

    def __new__(cls, op, src=(), arg=None):
        src = tuple(src)
        if op is Ops.CONST:
            arg = normalise_const(arg)
        try:
            if arg is None:
                bucket, key = TABLE[op], src
            else:
                bucket, key = ARG_TABLE[op], (src, arg_key(arg)) if src else arg_key(arg)
            node = live_node(bucket, key, len(src))
        except (KeyError, TypeError):  # not an op, or an unhashable arg: the checker names it
            typecheck.infer(op, src, arg)
            raise UOpError(f"{op.name}: the arg must be hashable") from None
        if node is not None:
            return node  # built before: same object, no second check, no new id
        dtype = typecheck.infer(op, src, arg)
        with TABLE_LOCK:  # another thread may have built it since: look again, then build
            node = live_node(bucket, key, len(src))
            return node if node is not None else cls._build(op, src, arg, dtype, bucket, key)

