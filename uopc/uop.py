"""The node: `UOp`, the key of its arg, hash consing and the operators.

Relies on `ops`, `dtypes`, `semantics`, `typecheck` (the checker `infer`, the args and
`UOpError`) and `ranges` (the analysis behind `vmin`, `vmax` and `safe`, read in chapter 6);
neither of those two knows the node's class, so the imports run one way. Read in this order:
the key of an arg, the table, the node, the operators. Invariants: any two live nodes with the
same op, the same src objects and the same arg key are one object; a node's fields never change
after it is built (only its range cache is filled later); every node was type checked when it
was built; every walk over a graph is iterative, because graphs are far deeper than Python's
recursion limit.

The node calls the checker and the range analysis through their modules (`typecheck.infer`,
`ranges.fill_ranges`), so that the speed overlay (`uopc/speed`) can put a tested twin in their
place; nothing here knows whether it did.
"""

import functools
import itertools
import math
import threading
import weakref

from . import ranges, typecheck
from .dtypes import F32, VOID, Ptr
from .ops import Ops
from .semantics import f32, f32_bits
from .typecheck import ALU_SPACE, MEM_SPACE, CallArg, ParamArg, UOpError

__all__ = ["ALU_SPACE", "MEM_SPACE", "CallArg", "ParamArg", "UOp", "UOpError", "arg_key"]


# --8<-- [start:arg_key]
CANONICAL_NAN = f32(math.nan)


def normalise_const(value):
    """A float constant is stored as its float32 value, and every nan as one nan."""
    if isinstance(value, float):
        return CANONICAL_NAN if math.isnan(value) else f32(value)
    return value


def arg_key(arg):
    """The arg as the table and the patterns compare it: immune to True == 1 == 1.0,
    0.0 == -0.0 and nan != nan, which Python's own equality would get wrong."""
    if arg is None:
        return None  # most nodes: tested first only because it is the common case
    if isinstance(arg, float):
        return ("f32", f32_bits(arg))  # one key per float32 pattern, one for every nan
    if isinstance(arg, bool | int):
        return (type(arg).__name__, arg)  # ("bool", True) differs from ("int", 1)
    if isinstance(arg, ParamArg):
        # ParamArg(True, i32) == ParamArg(1, i32) too: the types of its numbers keep them
        # apart, so that the ill-typed one reaches the type checker instead of the table
        size = arg.dtype.size if isinstance(arg.dtype, Ptr) else None
        return (arg, *(type(v) for v in (arg.slot, arg.vmin, arg.vmax, size)))
    return arg  # None, CallArg, a DType: equality is already right


# --8<-- [end:arg_key]


# --8<-- [start:buckets]
class _Ref(weakref.ref):
    """A weak reference that remembers its key, so that its callback can drop its entry:
    what weakref.WeakValueDictionary does inside, with one reference per node and no more."""

    __slots__ = ("key",)


def _forget(bucket: dict, ref: _Ref) -> None:
    """Called when a node is freed: its entry goes at once, and with it the table's hold on
    the key (for most nodes, the node's own src tuple). Under the table's lock (below), so that
    another thread cannot enter a newer node with that key between the test and the delete."""
    with TABLE_LOCK:
        if bucket.get(ref.key) is ref:  # not replaced since by a newer node with that key
            del bucket[ref.key]


class _Bucket(dict):
    """The live nodes of one op, by key, each held weakly. `forget` (the callback of their
    references) is made once per bucket, so a reference needs to remember only its key."""

    def __init__(self):
        super().__init__()
        self.forget = functools.partial(_forget, self)


# --8<-- [end:buckets]


# --8<-- [start:table]
# Two buckets per op, so that the key can be the node's own src tuple: one tuple
# (op, src, arg key) per node, as a single table would need, was a sixth of a graph's memory.
TABLE: dict = {op: _Bucket() for op in Ops}  # nodes without arg (most), by their src
ARG_TABLE: dict = {op: _Bucket() for op in Ops}  # the others, by arg key or (src, arg key)
# --8<-- [end:table]


# --8<-- [start:table_lock]
# One thread at a time enters a new node or removes a freed one: two threads that miss the same
# key at once would otherwise both build a node, and two live nodes would hold one structure.
# Reentrant, because a node may be freed, and its entry removed, by the thread holding the lock.
TABLE_LOCK = threading.RLock()


def live_node(bucket: dict, key, size: int):
    """The live node entered under key in bucket, or None. (A src tuple as an arg could pass
    for a key of the other kind: the number of srcs, size, tells them apart.)"""
    ref = bucket.get(key)
    node = None if ref is None else ref()
    return node if node is not None and len(node.src) == size else None


# --8<-- [end:table_lock]


# ---------------------------------------------------------------------------------------------
# The node
# ---------------------------------------------------------------------------------------------

_ids = itertools.count()


# --8<-- [start:uop_new]
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

    # --8<-- [end:uop_new]

    # --8<-- [start:uop_build]
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

    # --8<-- [end:uop_build]

    def replace_src(self, src: tuple) -> "UOp":
        """This node's op and arg over new srcs (the rewrite engine rebuilds a node so each
        time one of its srcs changes)."""
        return UOp(self.op, src, self.arg)

    @property
    def shape(self) -> tuple:
        """() for a value, (size,) for a pointer: a function of the dtype alone."""
        return (self.dtype.size,) if isinstance(self.dtype, Ptr) else ()

    @property
    def space(self):
        """ALU for a value, MEM for a pointer, None for STORE and SINK (void)."""
        if isinstance(self.dtype, Ptr):
            return MEM_SPACE
        return None if self.dtype is VOID else ALU_SPACE

    @staticmethod
    def live_nodes() -> list["UOp"]:
        """Every node alive now (for tests and the memory figures)."""
        buckets = [*TABLE.values(), *ARG_TABLE.values()]
        refs = [ref for bucket in buckets for ref in list(bucket.values())]
        nodes = (ref() for ref in refs)
        return [node for node in nodes if node is not None]

    def __setattr__(self, name, value):
        raise AttributeError(f"a UOp never changes after it is built (tried to set {name})")

    def __delattr__(self, name):
        raise AttributeError(f"a UOp never changes after it is built (tried to delete {name})")

    def __repr__(self) -> str:
        return f"<{self.op.name} {self.dtype} #{self.id}>"

    # --8<-- [start:toposort]
    def toposort(self, skip=None) -> list["UOp"]:
        """Every node under self once, srcs first: the post-order of a left-to-right DFS."""
        order: list[UOp] = []
        seen: set[UOp] = set()
        stack: list[tuple[UOp, bool]] = [(self, False)]
        while stack:
            node, srcs_done = stack.pop()
            if srcs_done:
                order.append(node)
                continue
            if node in seen:
                continue
            seen.add(node)
            if skip is not None and skip(node):
                continue
            stack.append((node, True))
            # pushed in reverse so that the first src is visited first
            stack.extend([(s, False) for s in reversed(node.src) if s not in seen])
        return order

    # --8<-- [end:toposort]

    # Convenience constructors and operators -------------------------------------------------
    # --8<-- [start:operand]
    @staticmethod
    def const(value) -> "UOp":
        return UOp(Ops.CONST, (), value)

    @staticmethod
    def sink(*stores) -> "UOp":
        return UOp(Ops.SINK, stores)

    def _operand(self, other) -> "UOp":
        """A plain number on the right becomes a constant of the left side's type."""
        if isinstance(other, UOp):
            return other
        if self.dtype is F32 and isinstance(other, int) and not isinstance(other, bool):
            other = float(other)
        return UOp.const(other)

    def _binary(self, op, other) -> "UOp":
        return UOp(op, (self, self._operand(other)))

    # --8<-- [end:operand]
    # --8<-- [start:arithmetic]
    def __add__(self, other):
        return self._binary(Ops.ADD, other)

    def __mul__(self, other):
        return self._binary(Ops.MUL, other)

    def __neg__(self):
        return UOp(Ops.NEG, (self,))

    def __sub__(self, other):  # there is no SUB: a - b is a + (-b), which is exact
        return self + (-self._operand(other))

    def __floordiv__(self, other):
        return self._binary(Ops.FLOORDIV, other)

    def __mod__(self, other):
        return self._binary(Ops.FLOORMOD, other)

    def __radd__(self, other):
        return self._operand(other) + self

    def __rmul__(self, other):
        return self._operand(other) * self

    # --8<-- [end:arithmetic]
    # --8<-- [start:methods]
    def lt(self, other):
        return self._binary(Ops.CMPLT, other)

    def ne(self, other):
        return self._binary(Ops.CMPNE, other)

    def max(self, other):
        return self._binary(Ops.MAX, other)

    def where(self, if_true, if_false):
        if_true = if_true if isinstance(if_true, UOp) else UOp.const(if_true)
        return UOp(Ops.WHERE, (self, if_true, if_true._operand(if_false)))

    def cast(self, dtype):
        return UOp(Ops.CAST, (self,), dtype)

    # --8<-- [end:methods]

    # --8<-- [start:range_properties]
    # Range analysis (section 6.4) -----------------------------------------------------------
    @property
    def vmin(self):
        return self.range[0]

    @property
    def vmax(self):
        return self.range[1]

    @property
    def safe(self) -> bool:
        return self.range[2]

    @property
    def range(self) -> tuple:
        """(vmin, vmax, safe), computed on first use and cached: every missing triple under
        self is filled in, srcs first (ranges.fill_ranges)."""
        if self._range is None:
            ranges.fill_ranges(self)
        return self._range

    # --8<-- [end:range_properties]
