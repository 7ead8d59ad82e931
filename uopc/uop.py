"""The node: `UOp`, hash consing, the operators, the type checker and range analysis.

Relies on `ops`, `dtypes` and `semantics`. Read in this order: the node and its key, the table,
the operators, the type checker, the ranges. Invariants: any two live nodes with the same op,
the same src objects and the same arg key are one object; a node's fields never change after
it is built (only its range cache is filled later); every node was type checked when it was
built; every walk over a graph is iterative, because graphs are far deeper than Python's
recursion limit.
"""

import itertools
import math
import weakref
from dataclasses import dataclass

from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VALUE_DTYPES, VOID, DType, Ptr, dtype_of_value
from .ops import ALU, Ops
from .semantics import f32, f32_bits

ALU_SPACE = "ALU"
MEM_SPACE = "MEM"


class UOpError(TypeError):
    """A node that breaks a type rule; the message starts with the op's upper-case name."""


# --8<-- [start:args]
@dataclass(frozen=True, slots=True)
class ParamArg:
    """The arg of PARAM, BUFFER and ALLOC; vmin/vmax are bounds the caller promises."""

    slot: int
    dtype: object  # a value DType, or a Ptr
    vmin: int | None = None
    vmax: int | None = None

    def __post_init__(self):
        # Refused here, where bounds are first written down: a bound outside int32, or
        # min > max, would otherwise surface much later as a strange range.
        for bound in (self.vmin, self.vmax):
            if type(bound) is int and not INT_MIN <= bound <= INT_MAX:
                raise ValueError(f"a PARAM bound must fit in int32, got {bound}")
        if type(self.vmin) is int and type(self.vmax) is int and self.vmin > self.vmax:
            raise ValueError(f"a PARAM's min {self.vmin} is greater than its max {self.vmax}")


@dataclass(frozen=True, slots=True)
class CallArg:
    """The arg of CALL: the name the C function gets."""

    name: str


# --8<-- [end:args]


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


# --8<-- [start:table]
class _Ref(weakref.ref):
    """A weak reference that remembers its key, so that its callback can drop its entry.

    This is what weakref.WeakValueDictionary does, but its references are made by Python
    code; with it, building the 100,000-add chain and simplifying the benchmark's 300 index
    expressions took 5 to 8% more cpu time than with this C-built reference type."""

    __slots__ = ("key",)


TABLE: dict = {}  # (op, src, arg key) -> a weak reference to the live node with that key


def _forget(ref: _Ref) -> None:
    """Called when a node is freed: its entry goes at once, and with it the key's hold on
    the node's srcs."""
    if TABLE.get(ref.key) is ref:  # not replaced since by a newer node with that key
        del TABLE[ref.key]


# --8<-- [end:table]


# ---------------------------------------------------------------------------------------------
# The node
# ---------------------------------------------------------------------------------------------

_set = object.__setattr__
_ids = itertools.count()


# --8<-- [start:uop_new]
class UOp:
    """One node: op, srcs, arg, and the dtype the checker gave it (shape and space follow)."""

    __slots__ = ("op", "src", "arg", "dtype", "id", "_range", "__weakref__")
    table = TABLE  # every live node, held weakly: a node nothing uses goes away

    def __new__(cls, op, src=(), arg=None):
        src = tuple(src)
        if op is Ops.CONST:
            arg = normalise_const(arg)
        key = (op, src, arg_key(arg))
        try:
            ref = TABLE.get(key)
        except TypeError:  # an unhashable arg: let the checker name any other problem first
            infer(op, src, arg)
            raise UOpError(f"{op.name}: the arg must be hashable") from None
        node = None if ref is None else ref()
        if node is not None:
            return node  # built before: same object, no second check, no new id
        node = object.__new__(cls)
        _set(node, "op", op)
        _set(node, "src", src)
        _set(node, "arg", arg)
        _set(node, "dtype", infer(op, src, arg))
        _set(node, "id", next(_ids))
        _set(node, "_range", None)
        ref = TABLE[key] = _Ref(node, _forget)
        ref.key = key
        return node

    # --8<-- [end:uop_new]

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
        nodes = (ref() for ref in list(TABLE.values()))
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
            stack.extend((s, False) for s in reversed(node.src) if s not in seen)
        return order

    # --8<-- [end:toposort]

    # --8<-- [start:operators]
    # Convenience constructors and operators -------------------------------------------------
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

    # --8<-- [end:operators]

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
        self is filled in, srcs first, by one iterative walk."""
        if self._range is None:
            fill_ranges(self)
        return self._range

    # --8<-- [end:range_properties]


# ---------------------------------------------------------------------------------------------
# The type checker: one function per group of ops, each returning the new node's dtype.
# ---------------------------------------------------------------------------------------------


def _fail(op, problem):
    raise UOpError(f"{op.name}: {problem}")


def _is_value(u) -> bool:
    return isinstance(u.dtype, DType) and u.dtype is not VOID and u.space == ALU_SPACE


def _check_const(op, src, arg):
    if src:
        _fail(op, "takes no srcs")
    if not isinstance(arg, bool | int | float):
        _fail(op, "value must be a bool, int or float")
    if isinstance(arg, int) and not isinstance(arg, bool) and not INT_MIN <= arg <= INT_MAX:
        _fail(op, f"{arg} does not fit in int32")
    return dtype_of_value(arg)


def _check_param(op, src, arg):
    if src:
        _fail(op, "takes no srcs")
    if not isinstance(arg, ParamArg):
        _fail(op, "arg must be a ParamArg")
    if type(arg.slot) is not int or arg.slot < 0:  # bool is an int to isinstance
        _fail(op, "the slot must be a non-negative int")
    if any(bound is not None and type(bound) is not int for bound in (arg.vmin, arg.vmax)):
        _fail(op, "vmin and vmax must be ints or None")
    if arg.dtype is not I32 and (arg.vmin, arg.vmax) != (None, None):
        # only an int has a range; a bound on anything else would be accepted and ignored
        _fail(op, f"min and max apply only to an i32 parameter, not {arg.dtype}")
    if op is Ops.PARAM and isinstance(arg.dtype, DType):
        if arg.dtype not in VALUE_DTYPES:
            _fail(op, "a scalar param must be bool, i32 or f32")
        return arg.dtype
    if not isinstance(arg.dtype, Ptr) or arg.dtype.base not in VALUE_DTYPES:
        _fail(op, "needs a pointer dtype")
    if type(arg.dtype.size) is not int or arg.dtype.size <= 0:
        _fail(op, "size must be positive")
    return arg.dtype


# Elements of scratch (ALLOC) one call may hold in all, as much as one array may (textfmt's
# MAX_ELEMENTS): each array alone is bounded, but 32 arrays of 2**24 floats made the compiled
# call abort inside glibc (no room for its thread-local data).
MAX_SCRATCH_ELEMENTS = 2**24


def _body_params(op, body) -> list:
    """The PARAMs of a call's body in toposort order, after checking what a body may hold."""
    params, allocs = [], {}
    for node in body.toposort():
        if node.op in (Ops.CALL, Ops.BUFFER):
            _fail(
                op, "a body may not contain a CALL or a BUFFER (global buffers come in as params)"
            )
        if node.op is Ops.PARAM:
            params.append(node)
        # the slot names the scratch array in C: two arrays with one name do not compile
        if node.op is Ops.ALLOC and allocs.setdefault(node.arg.slot, node) is not node:
            _fail(op, f"two ALLOCs use slot {node.arg.slot}")
    scratch = sum(alloc.dtype.size for alloc in allocs.values())
    if scratch > MAX_SCRATCH_ELEMENTS:
        _fail(
            op,
            f"its scratch arrays hold {scratch:,} elements together, "
            f"above the limit of {MAX_SCRATCH_ELEMENTS:,}",
        )
    return params


def _check_call(op, src, arg):
    if not src or not isinstance(arg, CallArg):
        _fail(op, "needs a body and a CallArg")
    body, args = src[0], src[1:]
    for param in _body_params(op, body):
        slot, wanted = param.arg.slot, param.arg.dtype
        if not 0 <= slot < len(args):
            _fail(op, f"PARAM slot {slot} has no argument")
        given = args[slot]
        # equal dtypes mean equal shapes too: a shape is a function of the dtype
        if given.dtype != wanted:
            _fail(op, f"argument {slot} has dtype {given.dtype}, the body wants {wanted}")
    if any(a.dtype is VOID for a in args):
        _fail(op, "an argument must have a value")
    return body.dtype


def _check_alu(op, src, arg):
    if not src:
        _fail(op, "needs at least one src")
    for s in src:
        if not isinstance(s.dtype, DType) or s.dtype is VOID:  # a value: in ALU space
            _fail(op, f"every src must be a value in ALU space, got {s.op.name} in {s.space}")
    # no shape check: every value has shape (), so the srcs' shapes always agree here
    return _ALU_CHECKS[op](op, src, arg)


def _check_cast(op, src, arg):
    if len(src) != 1 or arg not in VALUE_DTYPES:
        _fail(op, "needs one src and a value dtype as arg")
    return arg


def _check_where(op, src, arg):
    if len(src) != 3 or src[0].dtype is not BOOL:
        _fail(op, "needs a bool condition and two values")
    if src[1].dtype is not src[2].dtype:
        _fail(op, "both branches must have the same dtype")
    return src[1].dtype


def _check_neg(op, src, arg):
    if len(src) != 1 or src[0].dtype not in (I32, F32):
        _fail(op, "needs one int or float")
    return src[0].dtype


def _check_float_unary(op, src, arg):
    if len(src) != 1 or src[0].dtype is not F32:
        _fail(op, "needs one float")
    return F32


def _check_binary(op, src, arg):
    if len(src) != 2 or src[1].dtype is not src[0].dtype:
        _fail(op, "needs two srcs of the same dtype")
    if op is Ops.ADD and src[0].dtype is BOOL:
        _fail(op, "ADD is not defined on bool (CMPNE is xor)")
    if op in (Ops.FLOORDIV, Ops.FLOORMOD) and src[0].dtype is not I32:
        _fail(op, "needs ints")
    return BOOL if op in (Ops.CMPLT, Ops.CMPNE) else src[0].dtype


_ALU_CHECKS = {
    Ops.CAST: _check_cast,
    Ops.NEG: _check_neg,
    Ops.RECIP: _check_float_unary,
    Ops.EXP2: _check_float_unary,
    Ops.LOG2: _check_float_unary,
    Ops.ADD: _check_binary,
    Ops.MUL: _check_binary,
    Ops.MAX: _check_binary,
    Ops.CMPLT: _check_binary,
    Ops.CMPNE: _check_binary,
    Ops.FLOORDIV: _check_binary,
    Ops.FLOORMOD: _check_binary,
    Ops.WHERE: _check_where,
}


def _is_pointer(u) -> bool:
    return isinstance(u.dtype, Ptr) and u.space == MEM_SPACE


def _check_index(op, src, arg):
    if len(src) != 2:
        _fail(op, "needs a pointer and an index")
    if not _is_pointer(src[0]) or src[0].op is Ops.INDEX:
        _fail(op, "src[0] must be a buffer-like pointer")
    if src[1].dtype is not I32 or src[1].space != ALU_SPACE or src[1].shape != ():
        _fail(op, "the index must be a scalar i32")
    return src[0].dtype


def _check_load(op, src, arg):
    if len(src) != 1 or src[0].op is not Ops.INDEX:
        _fail(op, "needs one INDEX")
    return src[0].dtype.base


def _check_store(op, src, arg):
    if len(src) != 2 or src[0].op is not Ops.INDEX:
        _fail(op, "needs an INDEX and a value")
    value = src[1]
    if not _is_value(value) or value.shape != () or value.dtype is not src[0].dtype.base:
        _fail(op, "the stored value must be a scalar of the element dtype")
    return VOID


def _check_after(op, src, arg):
    if not src or not _is_pointer(src[0]):
        _fail(op, "src[0] must be a pointer")
    if any(s.op not in (Ops.STORE, Ops.LOAD) for s in src[1:]):
        _fail(op, "the other srcs must be STOREs or LOADs")
    return src[0].dtype


def _check_sink(op, src, arg):
    if not src or any(s.op is not Ops.STORE for s in src):
        _fail(op, "needs one or more STOREs")
    return VOID


# --8<-- [start:infer]
_CHECKS = {
    Ops.CONST: _check_const,
    Ops.PARAM: _check_param,
    Ops.BUFFER: _check_param,
    Ops.ALLOC: _check_param,
    Ops.CALL: _check_call,
    Ops.INDEX: _check_index,
    Ops.LOAD: _check_load,
    Ops.STORE: _check_store,
    Ops.AFTER: _check_after,
    Ops.SINK: _check_sink,
    **{op: _check_alu for op in ALU},
}


# ops whose arg means something; every other op takes none (an arg would make x + x with an
# arg a second node for the same computation)
_TAKES_ARG = (Ops.CONST, Ops.PARAM, Ops.BUFFER, Ops.ALLOC, Ops.CALL, Ops.CAST)


def infer(op, src, arg):
    """Type check a would-be node: its dtype (shape and space follow from it), or UOpError
    naming the op."""
    if not isinstance(op, Ops):
        raise UOpError(f"unknown op {op}")
    for position, s in enumerate(src):
        if not isinstance(s, UOp):
            _fail(op, f"src {position} must be a UOp, got {type(s).__name__}")
    if arg is not None and op not in _TAKES_ARG:
        _fail(op, "takes no arg")
    return _CHECKS[op](op, src, arg)


# --8<-- [end:infer]


# ---------------------------------------------------------------------------------------------
# Ranges: (vmin, vmax, safe) of a node from its op, arg and the cached triples of its srcs.
# ---------------------------------------------------------------------------------------------

FULL = (INT_MIN, INT_MAX)
UNBOUNDED = (-math.inf, math.inf, True)
BOOL_RANGE = (0, 1, True)


# --8<-- [start:fit]
def _fit(lo, hi, safe):
    """The exact bounds if they fit int32; otherwise the op may wrap, so anything goes."""
    if INT_MIN <= lo and hi <= INT_MAX:
        return (lo, hi, safe)
    return (INT_MIN, INT_MAX, False)


# --8<-- [end:fit]


def _range_param(u, srcs, safe):
    if u.dtype is BOOL:
        return BOOL_RANGE
    lo, hi = u.arg.vmin, u.arg.vmax
    return (INT_MIN if lo is None else lo, INT_MAX if hi is None else hi, True)


# Beyond the book's table: every row below carries S, the safety of the srcs, where the table
# wrote True (comparisons, casts, WHERE with a known condition). A comparison over a product
# that wraps is computed from the wrapped value, so its value can differ from the exact one;
# keeping S makes "safe means the wrapped value is the exact value" true of every node.
def _range_cast(u, srcs, safe):
    src = u.src[0]
    if u.dtype is BOOL:
        if src.dtype is F32:
            return (0, 1, safe)
        lo, hi, _ = srcs[0]
        if lo == hi == 0:
            return (0, 0, safe)
        return (0, 1, safe) if lo <= 0 <= hi else (1, 1, safe)
    if src.dtype is F32:
        return (INT_MIN, INT_MAX, safe)
    return (srcs[0][0], srcs[0][1], safe)  # from bool or i32: the same values


# --8<-- [start:range_mul]
def _range_mul(u, srcs, safe):
    (lo1, hi1, _), (lo2, hi2, _) = srcs
    products = (lo1 * lo2, lo1 * hi2, hi1 * lo2, hi1 * hi2)
    return _fit(min(products), max(products), safe)


# --8<-- [end:range_mul]


def _range_cmplt(u, srcs, safe):
    if u.src[0].dtype is F32:
        return (0, 1, safe)
    (lo1, hi1, _), (lo2, hi2, _) = srcs
    if hi1 < lo2:
        return (1, 1, safe)
    return (0, 0, safe) if lo1 >= hi2 else (0, 1, safe)


def _range_cmpne(u, srcs, safe):
    if u.src[0].dtype is F32:
        return (0, 1, safe)
    (lo1, hi1, _), (lo2, hi2, _) = srcs
    if hi1 < lo2 or hi2 < lo1:
        return (1, 1, safe)
    return (0, 0, safe) if lo1 == hi1 == lo2 == hi2 else (0, 1, safe)


def _range_where(u, srcs, safe):
    condition, if_true, if_false = srcs
    # a known condition picks one branch; the other branch's safety does not matter
    if condition[0] == condition[1] == 1:
        return (if_true[0], if_true[1], condition[2] and if_true[2])
    if condition[0] == condition[1] == 0:
        return (if_false[0], if_false[1], condition[2] and if_false[2])
    return (min(if_true[0], if_false[0]), max(if_true[1], if_false[1]), safe)


def _range_floordiv(u, srcs, safe):
    (lo, hi, _), (dlo, dhi, _) = srcs
    if dlo <= 0 <= dhi:
        # beyond the book's table: INT_MIN // -1 wraps, so the quotient is not always exact
        return (INT_MIN, INT_MAX, safe and not (lo == INT_MIN and dlo <= -1))
    if dlo == dhi:
        c = dlo
        if c == -1:
            return _fit(-hi, -lo, safe)
        return (min(lo // c, hi // c), max(lo // c, hi // c), safe)
    m = max(abs(lo), abs(hi))
    return _fit(-m, m, safe)


# --8<-- [start:range_floormod]
def _range_floormod(u, srcs, safe):
    (lo, hi, _), (dlo, dhi, _) = srcs
    if dlo <= 0 <= dhi:
        return (INT_MIN, INT_MAX, safe)
    if dlo == dhi:
        c = dlo
        if lo // c == hi // c:
            k = lo // c
            return (lo - k * c, hi - k * c, safe)  # exact: x%4 for x in [9,10] is [1,2]
        return (0, c - 1, safe) if c > 0 else (c + 1, 0, safe)
    return (0, dhi - 1, safe) if dlo > 0 else (dlo + 1, 0, safe)


# --8<-- [end:range_floormod]


def _range_call(u, srcs, safe):
    return BOOL_RANGE if u.dtype is BOOL else (INT_MIN, INT_MAX, False)


# --8<-- [start:range_table]
_RANGES = {
    Ops.CONST: lambda u, srcs, safe: (int(u.arg), int(u.arg), True),
    Ops.PARAM: _range_param,
    Ops.LOAD: lambda u, srcs, safe: BOOL_RANGE if u.dtype is BOOL else (*FULL, True),
    Ops.CAST: _range_cast,
    Ops.NEG: lambda u, srcs, safe: _fit(-srcs[0][1], -srcs[0][0], safe),
    Ops.ADD: lambda u, srcs, safe: _fit(srcs[0][0] + srcs[1][0], srcs[0][1] + srcs[1][1], safe),
    Ops.MUL: _range_mul,
    Ops.MAX: lambda u, srcs, safe: (
        max(srcs[0][0], srcs[1][0]),
        max(srcs[0][1], srcs[1][1]),
        safe,
    ),
    Ops.CMPLT: _range_cmplt,
    Ops.CMPNE: _range_cmpne,
    Ops.WHERE: _range_where,
    Ops.FLOORDIV: _range_floordiv,
    Ops.FLOORMOD: _range_floormod,
    Ops.CALL: _range_call,
}
# --8<-- [end:range_table]


# --8<-- [start:fill_ranges]
def fill_ranges(u: UOp) -> None:
    """Cache the triple of u and of every node under it that has none yet, srcs first.

    An iterative walk that stops at cached triples: a node is computed once all its srcs
    have theirs, so usually only u itself and a new constant or two are visited."""
    stack = [u]
    while stack:
        node = stack[-1]
        missing = [src for src in node.src if src._range is None]
        if missing:
            stack.extend(missing)  # computed first; node comes back to the top after them
            continue
        stack.pop()
        if node._range is None:  # a node shared by two users may be pushed twice
            _set(node, "_range", range_of(node))


# --8<-- [end:fill_ranges]


# --8<-- [start:range_of]
def range_of(u):
    """The (vmin, vmax, safe) triple of u; every src's triple must already be cached."""
    srcs = [s._range for s in u.src]
    safe = True
    for triple in srcs:
        safe = safe and triple[2]
    if u.dtype is not I32 and u.dtype is not BOOL:  # i32 and bool nodes are always values
        # no bounds for floats and places; a float computed from a wrapping int is not exact
        return UNBOUNDED if safe or u.dtype is not F32 else (-math.inf, math.inf, False)
    return _RANGES[u.op](u, srcs, safe)


# --8<-- [end:range_of]
