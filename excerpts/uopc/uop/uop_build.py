@classmethod
def _build(cls, op, src, arg, dtype, bucket, key) -> "UOp":
    """A new node with a checked dtype, entered in its bucket of the table."""
    node = object.__new__(cls)
    _set_op(node, op)  # each field through its slot's own setter: see FIELD_SETTERS
    _set_src(node, src)
    _set_arg(node, arg)
    _set_dtype(node, dtype)
    _set_id(node, next(_ids))
    _set_range(node, None)
    ref = bucket[key] = _Ref(node, bucket.forget)
    ref.key = key
    return node

