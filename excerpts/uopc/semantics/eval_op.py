def eval_op(op, dtype, vals, arg=None):
    """Apply op to the Python values vals; dtype is the result's (for CAST the target)."""
    if op is Ops.CAST:
        return cast(vals[0], dtype)
    if op in ANY_DTYPE_CONTRACT:
        return ANY_DTYPE_CONTRACT[op](*vals)
    fn = CONTRACT_BY_KIND.get(dtype.kind, {}).get(op) if hasattr(dtype, "kind") else None
    if fn is None:
        raise ValueError(f"no semantics for {op}")
    return fn(*vals)


