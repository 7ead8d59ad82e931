class Builder:
    """The buffers of one body, in the order they were made."""

    def __init__(self):
        self.mems: list[Mem] = []

    def _mem(self, op, slot: int, dtype, size: int) -> Mem:
        mem = Mem(UOp(op, (), ParamArg(slot, Ptr(dtype, size))))
        self.mems.append(mem)
        return mem

    def buffer(self, slot: int, dtype, size: int) -> Mem:
        """A caller's buffer: a pointer PARAM, bound to the call's argument `slot`."""
        return self._mem(Ops.PARAM, slot, dtype, size)

    def alloc(self, slot: int, dtype, size: int) -> Mem:
        """Scratch memory for one call, undefined until written; the slot tells arrays apart."""
        return self._mem(Ops.ALLOC, slot, dtype, size)

    def body(self) -> UOp:
        """A SINK of each written buffer's last store (earlier stores hang off its AFTER chain)."""
        return UOp.sink(*[mem.last for mem in self.mems if mem.last is not None])


def make_call(body: UOp, args, name: str = "kernel") -> UOp:
    """The CALL of body; a pointer PARAM takes a BUFFER with the same ParamArg."""
    return UOp(Ops.CALL, (body, *args), CallArg(name))


