def match(self, u: UOp, store: dict) -> bool:
    """Check op, dtype, arg, then srcs left to right, then the name binding.

    Recursive, unlike every walk over a graph: a pattern is only a few levels deep."""
    if self.op is not None and u.op not in self.op:
        return False
    if self.dtype is not None and u.dtype not in self.dtype:
        return False
    if self.arg is not ANY and arg_key(u.arg) != self.arg_key:
        return False
    if self.src is not None:
        if len(u.src) != len(self.src):
            return False
        for pattern, src in zip(self.src, u.src, strict=True):
            if not pattern.match(src, store):
                return False
    if self.name is not None:
        return store.setdefault(self.name, u) is u  # a name used twice binds one node
    return True

