"""The type checker: the rules every node passes when it is built, and the args nodes carry.

Relies on `ops` and `dtypes` only: it comes before the node's class (`uop`, which calls `infer`
on every new node), so it reads a would-be node's srcs through their fields and knows a src for
a node by its op. One function per group of ops returns the would-be node's dtype or raises
`UOpError` naming the op; `infer` dispatches through the table `_CHECKS`. Invariant: a check
reads only the op, the srcs (nodes already checked) and the arg, and changes nothing (but a
weak cache of call bodies that passed), so a node that fails leaves no trace.
"""

import weakref
from dataclasses import dataclass

from .dtypes import BOOL, F32, I32, INT_MAX, INT_MIN, VALUE_DTYPES, VOID, DType, Ptr, dtype_of_value
from .ops import ALU, Ops

ALU_SPACE = "ALU"  # where values live
MEM_SPACE = "MEM"  # where pointers live


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


# body -> its PARAMs, for bodies that passed: many CALLs of one body walk it once, not once
# each (16,000 calls took minutes). Held weakly, so an entry goes with its body and a body
# built again later (a new node, maybe at the same address) is walked again.
_BODY_PARAMS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _body_params(op, body) -> tuple:
    """The PARAMs of a call's body in toposort order, after checking what a body may hold."""
    params = _BODY_PARAMS.get(body)
    if params is None:
        params = _BODY_PARAMS[body] = _walk_body(op, body)
    return params


def _walk_body(op, body) -> tuple:
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
    return tuple(params)


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


# --8<-- [start:checks]
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
# --8<-- [end:checks]

# --8<-- [start:infer]

# ops whose arg means something; every other op takes none (an arg would make x + x with an
# arg a second node for the same computation)
_TAKES_ARG = (Ops.CONST, Ops.PARAM, Ops.BUFFER, Ops.ALLOC, Ops.CALL, Ops.CAST)


def infer(op, src, arg):
    """Type check a would-be node: its dtype (shape and space follow from it), or UOpError
    naming the op."""
    if not isinstance(op, Ops):
        raise UOpError(f"unknown op {op}")
    for position, s in enumerate(src):
        if not isinstance(getattr(s, "op", None), Ops):  # only a node carries an op
            _fail(op, f"src {position} must be a UOp, got {type(s).__name__}")
    if arg is not None and op not in _TAKES_ARG:
        _fail(op, "takes no arg")
    return _CHECKS[op](op, src, arg)


# --8<-- [end:infer]
