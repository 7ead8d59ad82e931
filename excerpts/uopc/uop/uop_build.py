@classmethod
def _build(cls, op, src, arg, dtype, bucket, key) -> "UOp":
    """A new node with a checked dtype, entered in its bucket of the table."""
    node = object.__new__(cls)
    # UOp.__setattr__ refuses every assignment, so the fields are set past it, once
    object.__setattr__(node, "op", op)
    object.__setattr__(node, "src", src)
    object.__setattr__(node, "arg", arg)
    object.__setattr__(node, "dtype", dtype)
    object.__setattr__(node, "id", next(_ids))
    object.__setattr__(node, "_range", None)  # filled by range analysis on first use
    ref = bucket[key] = _Ref(node, bucket.forget)
    ref.key = key
    return node

