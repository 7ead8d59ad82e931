"""A front end for memory programs: loads and stores in program order, AFTER edges added for you.

Relies on `uop` for the nodes (and on `ops`, `dtypes` for the names). Invariant, per buffer:
every access is ordered after the accesses it must follow, whatever the element index.
  - read after write: a load indexes the version made by the last store;
  - write after read: a store's pointer waits for every load since the previous store;
  - write after write: a store's pointer comes from the previous store's version.
A buffer that is never written gets no AFTER at all, so equal loads of it are one node.
"""

from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, Ptr
from .ops import Ops
from .ranges import param_bounds
from .uop import CallArg, ParamArg, UOp


def _index(i) -> UOp:
    return i if isinstance(i, UOp) else UOp.const(i)


# --8<-- [start:mem]
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


# --8<-- [end:mem]


# --8<-- [start:builder]
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


# --8<-- [end:builder]


# The zero of each scalar dtype: a placeholder argument where the range allows it.
ZERO = {BOOL: False, I32: 0, F32: 0.0}


def placeholders(body: UOp, dtypes) -> list[UOp]:
    """For each slot s, a constant of dtypes[s] that the body's PARAMs of slot s accept: 0 if
    their declared ranges allow it, else the nearest bound. (The checker refuses an argument
    that may leave a declared range, so a zero does not do for a PARAM declared [1, 10].)"""
    bounds = {}  # slot -> (low, high), the ranges of every PARAM of that slot at once
    for u in body.toposort():
        if u.op is Ops.PARAM and u.dtype is I32:
            low, high = bounds.get(u.arg.slot, (INT_MIN, INT_MAX))
            declared = param_bounds(u.arg)
            bounds[u.arg.slot] = max(low, declared[0]), min(high, declared[1])
    args = []
    for slot, dtype in enumerate(dtypes):
        low, high = bounds.get(slot, (INT_MIN, INT_MAX))
        args.append(UOp.const(min(max(0, low), high) if dtype is I32 else ZERO[dtype]))
    return args


def signature_call(body: UOp, dtypes, name: str = "f") -> UOp:
    """A CALL of body made only for its C signature, the values coming at run time: argument s
    is a placeholder constant of dtypes[s]. The one helper for every such call (tests, demos,
    the generators' compiled runs)."""
    return UOp(Ops.CALL, (body, *placeholders(body, dtypes)), CallArg(name))
