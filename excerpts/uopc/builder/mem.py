class Mem:
    """One buffer: `base` its pointer, `version` the pointer the next access uses,
    `readers` the loads since the last store, `last` the latest store."""

    def __init__(self, base: UOp):
        self.base, self.version = base, base
        self.readers: list[UOp] = []
        self.last: UOp | None = None

    def load(self, i) -> UOp:
        """LOAD(INDEX(version, i)): after the last store to this buffer (read after write)."""
        load = UOp(Ops.LOAD, (UOp(Ops.INDEX, (self.version, _index(i))),))
        self.readers.append(load)
        return load

    def store(self, i, v) -> UOp:
        """STORE(INDEX(pointer, i), v), the pointer after every load since the last store."""
        value = v if isinstance(v, UOp) else UOp.const(v)  # no conversion: 5 is an i32
        pointer = UOp(Ops.AFTER, (self.version, *self.readers)) if self.readers else self.version
        store = UOp(Ops.STORE, (UOp(Ops.INDEX, (pointer, _index(i))), value))
        self.version = UOp(Ops.AFTER, (pointer, store))  # later accesses come after this store
        self.readers, self.last = [], store
        return store


