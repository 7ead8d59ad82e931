@classmethod
def _build(cls, op, src, arg, dtype, bucket, key) -> "UOp":
    """A new node with a checked dtype, entered in its bucket of the table."""
    node = object.__new__(cls)
    _set(node, "op", op)
    _set(node, "src", src)
    _set(node, "arg", arg)
    _set(node, "dtype", dtype)
    _set(node, "id", next(_ids))
    _set(node, "_range", None)
    ref = bucket[key] = _Ref(node, bucket.forget)
    ref.key = key
    return node

