"""The twins of the node's constructor path: the checker, the rebuild, the fields, the ranges.

Relies on `ops`, `dtypes`, `typecheck`, `ranges` and `uop`. Each function here stands in for
the plain function of the same name (`speed.install` lists which) and returns what it returns,
only sooner for the commonest case; every other case is handed to the plain function itself,
kept here under the name `plain_...`, so a mistake planted in a plain function still reaches
every node that takes the longer way. tests/test_shortcuts.py holds each twin equal to its
plain function over random graphs, every op and every pair of dtypes.
"""

import enum
import math
import types

from .. import ranges, typecheck
from ..dtypes import BOOL, I32, INT_MAX, INT_MIN, VALUE_DTYPES
from ..ops import ALU, Ops
from ..ranges import _RANGES, range_of
from ..ranges import fill_ranges as plain_fill_ranges
from ..typecheck import _ALU_CHECKS, UOpError, _check_binary
from ..typecheck import infer as plain_infer
from ..uop import (
    ARG_TABLE,
    CANONICAL_NAN,
    TABLE,
    TABLE_LOCK,
    ParamArg,
    Ptr,
    UOp,
    _ids,
    _Ref,
    arg_key,
    f32,
    f32_bits,
    normalise_const,
)
from .inline import same_code

# ---------------------------------------------------------------------------------------------
# Tables by an op's value
# ---------------------------------------------------------------------------------------------

# Every dict keyed by an op hashes the op, and Enum's __hash__ is Python code (it hashes the
# member's name), called on nearly every node the rewrite meets. An op's value is a small int
# kept on the member itself, so a list indexed by it answers the same question without the call.
CONST, SIZE = Ops.CONST, max(op._value_ for op in Ops) + 1


def by_value(table: dict) -> list:
    """The entries of a dict keyed by ops, as a list indexed by each op's value (None where
    the dict has no entry): the very same objects, so the list and the dict agree."""
    rows = [None] * SIZE
    for op, entry in table.items():
        rows[op._value_] = entry
    return rows


BUCKETS, ARG_BUCKETS = by_value(TABLE), by_value(ARG_TABLE)  # the plain table's own buckets
ROWS = by_value(_RANGES)  # the plain table's own rows, so a slip in a row reaches every node
IS_ALU = by_value({op: True for op in ALU})

# ---------------------------------------------------------------------------------------------
# The checker: typecheck.infer
# ---------------------------------------------------------------------------------------------


class _Value:
    """A stand-in src that has only a dtype: all that _check_binary reads."""

    def __init__(self, dtype):
        self.dtype = dtype


def _binary_dtypes() -> dict:
    """(op's value, dtype of src 0, dtype of src 1) -> the node's dtype, for every binary op and
    pair of value dtypes that _check_binary accepts: the checker's own answers, asked once."""
    table = {}
    for op, check in _ALU_CHECKS.items():
        if check is not _check_binary:
            continue
        for first in VALUE_DTYPES:
            for second in VALUE_DTYPES:
                try:
                    dtype = check(op, (_Value(first), _Value(second)), None)
                    table[op._value_, first, second] = dtype
                except UOpError:
                    pass  # refused: left to infer, which raises the same error
    return table


BINARY_DTYPES = _binary_dtypes()


def infer(op, src, arg):
    """typecheck.infer, sooner for the two commonest new nodes: an int constant that fits
    int32, and a binary op without arg over two nodes, whose dtype is looked up in the
    checker's own answers (BINARY_DTYPES); the rest goes to the plain checker."""
    if op is CONST:
        if type(arg) is int and not src and INT_MIN <= arg <= INT_MAX:
            return I32
    elif arg is None and len(src) == 2 and op.__class__ is Ops:  # (another enum has values)
        first, second = src
        if isinstance(first, UOp) and isinstance(second, UOp):
            dtype = BINARY_DTYPES.get((op._value_, first.dtype, second.dtype))
            if dtype is not None:
                return dtype
    return plain_infer(op, src, arg)


# ---------------------------------------------------------------------------------------------
# The node's constructor, its fields and its rebuild: UOp.__new__, UOp._build, UOp.replace_src
# ---------------------------------------------------------------------------------------------


def new(cls, op, src=(), arg=None):
    """UOp.__new__: the same steps, with the bucket found by the op's value; anything that is
    not an op goes the plain way, to the plain error. A constant that is an int and already
    built is found without the calls of normalise_const and arg_key, while they are written as
    uop.py's (INT_KEYS)."""
    if src.__class__ is not tuple:  # (tuple() of a tuple is that tuple: the call is skipped)
        src = tuple(src)
    if op is CONST:
        if arg.__class__ is int and INT_KEYS and not src:
            ref = CONST_ARGS.get(("int", arg))  # arg_key(arg), normalise_const(arg) being arg
            if ref is not None:
                node = ref()
                if node is not None and not node.src:
                    return node
        arg = normalise_const(arg)
    try:
        if op.__class__ is not Ops:  # another enum's member has a _value_ too
            raise TypeError
        if arg is None:
            bucket, key = BUCKETS[op._value_], src
        else:
            bucket, key = ARG_BUCKETS[op._value_], (src, arg_key(arg)) if src else arg_key(arg)
        ref = bucket.get(key)
    except (TypeError, AttributeError):  # not an op, or an unhashable arg: the checker names it
        plain_infer(op, src, arg)
        raise UOpError(f"{op.name}: the arg must be hashable") from None
    if ref is not None:
        node = ref()
        # (a src tuple as an arg could pass for a key of the other kind: the length tells; a
        # key that is the srcs themselves cannot)
        if node is not None and (arg is None or len(node.src) == len(src)):
            return node
    # the checker through its module: its twin when installed, the plain one when left out
    dtype = typecheck.infer(op, src, arg)
    # build_once's steps written out (a call fewer for every new node)
    _lock()
    try:
        ref = bucket.get(key)
        if ref is not None:
            node = ref()
            if node is not None and len(node.src) == len(src):
                return node
        return cls._build(op, src, arg, dtype, bucket, key)
    finally:
        _unlock()


_lock, _unlock = TABLE_LOCK.acquire, TABLE_LOCK.release  # (`with` costs twice as much)
CONST_ARGS = ARG_BUCKETS[CONST._value_]


# normalise_const and arg_key as uop.py writes them (compared with them: same_code). For an int
# (its type int itself), the first gives it back and the second gives ("int", value).
def _normalise_const(value):
    if isinstance(value, float):
        return CANONICAL_NAN if math.isnan(value) else f32(value)
    return value


def _arg_key(arg):
    if arg is None:
        return None
    if isinstance(arg, float):
        return ("f32", f32_bits(arg))
    if isinstance(arg, bool | int):
        return (type(arg).__name__, arg)
    if isinstance(arg, ParamArg):
        size = arg.dtype.size if isinstance(arg.dtype, Ptr) else None
        return (arg, *(type(v) for v in (arg.slot, arg.vmin, arg.vmax, size)))
    return arg


def int_keys(plain_normalise, plain_arg_key) -> bool:
    """Whether new may find an int constant by ("int", value): the plain functions it would call
    are written as the two above (one changed in uop.py, a planted bug say, is called)."""
    return same_code(plain_normalise, _normalise_const) and same_code(plain_arg_key, _arg_key)


INT_KEYS = int_keys(normalise_const, arg_key)


def build_once(cls, op, src, arg, dtype, bucket, key) -> UOp:
    """The plain constructor's last step: under the table's lock, look again, then build."""
    _lock()
    try:
        ref = bucket.get(key)
        node = None if ref is None else ref()
        if node is not None and len(node.src) == len(src):
            return node
        return cls._build(op, src, arg, dtype, bucket, key)
    finally:
        _unlock()


# A node refuses assignment (UOp.__setattr__), so the plain _build sets each field through
# object.__setattr__, which searches the class for the name on every call; the setters of the
# slots themselves, looked up once here, skip that search.
FIELD_SETTERS = {name: UOp.__dict__[name].__set__ for name in UOp.__slots__[:-1]}
_set_op, _set_src, _set_arg, _set_dtype, _set_id, _set_range = FIELD_SETTERS.values()
_new_object = object.__new__


def _build(cls, op, src, arg, dtype, bucket, key) -> UOp:
    """UOp._build: a new node with a checked dtype, entered in its bucket of the table (the
    weak reference calls `forget` below when the node is freed)."""
    node = _new_object(cls)
    _set_op(node, op)
    _set_src(node, src)
    _set_arg(node, arg)
    _set_dtype(node, dtype)
    _set_id(node, next(_ids))
    _set_range(node, None)
    value = op._value_  # (the bucket's callback found by the op's value: a call of id fewer)
    if BUCKETS[value] is bucket:
        forget_here = FORGET_BY_VALUE[value]
    elif ARG_BUCKETS[value] is bucket:
        forget_here = ARG_FORGET_BY_VALUE[value]
    else:
        forget_here = FORGET[id(bucket)]
    ref = bucket[key] = _Ref(node, forget_here)
    ref.key = key
    return node


def forget(ref: _Ref, bucket: dict) -> None:
    """uop._forget(bucket, ref), the steps it takes when a node is freed, with the lock taken
    through its methods (a freed node pays for `with` as a new one does: see build_once)."""
    if _lock is None or _unlock is None:  # Python is shutting down and cleared this module
        return
    _lock()
    try:
        key = ref.key
        if bucket.get(key) is ref:  # not replaced since by a newer node with that key
            del bucket[key]
    finally:
        _unlock()


def forget_in(bucket: dict):
    """The callback of bucket's references: forget itself, its bucket bound as a default, as
    the plain bucket makes its own (a function called directly: quicker than a partial)."""
    return types.FunctionType(forget.__code__, forget.__globals__, "forget", (bucket,))


# each bucket's callback, made once: id of the bucket -> callback, and by the op's value
FORGET = {id(b): forget_in(b) for b in (*TABLE.values(), *ARG_TABLE.values())}
FORGET_BY_VALUE = [None if b is None else FORGET[id(b)] for b in BUCKETS]
ARG_FORGET_BY_VALUE = [None if b is None else FORGET[id(b)] for b in ARG_BUCKETS]


def replace_src(self, src: tuple) -> UOp:
    """UOp.replace_src: this node's op and arg over new srcs. The dtype of a node without arg
    that computes a value depends on its srcs' dtypes alone, so when those are unchanged the
    node's own dtype is right again and the check is not run."""
    op = self.op
    if self.arg is not None or not IS_ALU[op._value_]:
        return UOp(op, src, self.arg)
    old = self.src
    if len(src) == 2 == len(old):  # the commonest case, without the loop
        if src[0].dtype is not old[0].dtype or src[1].dtype is not old[1].dtype:
            return UOp(op, src, None)
    elif len(src) == 1 == len(old):  # the next commonest (NEG), without the loop either
        if src[0].dtype is not old[0].dtype:
            return UOp(op, src, None)
    else:
        for new, was in zip(src, old, strict=True):
            if new.dtype is not was.dtype:
                return UOp(op, src, None)
    bucket = BUCKETS[op._value_]
    ref = bucket.get(src)
    node = None if ref is None else ref()
    if node is not None:
        return node
    return build_once(UOp, op, src, None, self.dtype, bucket, src)


# Calling the class, UOp(op, src, arg), runs type.__call__, which finds __new__ on the class,
# calls it with a tuple of the arguments and then runs object.__init__, which does nothing for
# a UOp; calling UOp.__new__ (the one installed: the twin above or the plain one) skips that.
# (UOp.const has no such twin: the rules' modules bind their name `const` to UOp.const when
# they are imported, after install, so that a twin there would stay in place without it.)


def _binary(self, op, other) -> UOp:
    """UOp._binary: UOp(op, (self, self._operand(other))), without the class call."""
    return UOp.__new__(UOp, op, (self, self._operand(other)))


# ---------------------------------------------------------------------------------------------
# The ranges: ranges.fill_ranges
# ---------------------------------------------------------------------------------------------


def _leaf_range(u):
    """The triple of a leaf, cached: an int constant's at once, any other leaf's by range_of."""
    triple = (u.arg, u.arg, True) if type(u.arg) is int and u.op is Ops.CONST else range_of(u)
    _set_range(u, triple)
    return triple


def fill_ranges(u) -> None:
    """ranges.fill_ranges, sooner for an i32 or bool node whose srcs have their triples or are
    leaves: its row of the plain table _RANGES (ROWS) is called at once, without the walk and the
    lists of fill_ranges and range_of (the rewrite asks for the range of nearly every node it
    meets, and most are such a node); everything else goes to the plain fill_ranges."""
    if u.dtype is I32 or u.dtype is BOOL:
        src = u.src
        if len(src) == 2:  # the commonest case, without the loop
            a, b = src
            first, second = a._range, b._range
            if first is None and not a.src:
                first = _leaf_range(a)
            if second is None and not b.src:  # most often a new int constant: _leaf_range's
                arg = b.arg
                if type(arg) is int and b.op is CONST:
                    second = (arg, arg, True)
                    _set_range(b, second)
                else:
                    second = _leaf_range(b)
            if first is not None and second is not None:
                _set_range(u, ROWS[u.op._value_](u, (first, second), first[2] and second[2]))
                return
        else:
            triples = []
            safe = True  # as range_of works it out: each src's flag joined by `and`
            for s in src:
                triple = s._range
                if triple is None:
                    if s.src:
                        break  # a src with srcs of its own and no triple: the walk's case
                    triple = _leaf_range(s)
                triples.append(triple)
                safe = safe and triple[2]
            else:
                _set_range(u, ROWS[u.op._value_](u, triples, safe))
                return
    plain_fill_ranges(u)


def node_range(self) -> tuple:
    """UOp.range (a property): the cached triple, or, when it is missing and the ranges' twin
    is installed, that twin's commonest case written in (an i32 or bool node of two srcs whose
    triples are known, or the second a new int constant), so a call fewer; anything else goes
    to ranges.fill_ranges, the twin or the plain function, as the plain property does."""
    triple = self._range
    if triple is not None:
        return triple
    if ranges.fill_ranges is fill_ranges and (self.dtype is I32 or self.dtype is BOOL):
        src = self.src
        if len(src) == 2:
            a, b = src
            first, second = a._range, b._range
            if second is None and not b.src and type(b.arg) is int and b.op is CONST:
                second = (b.arg, b.arg, True)  # as _leaf_range gives it
                _set_range(b, second)
            if first is not None and second is not None:
                triple = ROWS[self.op._value_](self, (first, second), first[2] and second[2])
                _set_range(self, triple)
                return triple
    ranges.fill_ranges(self)
    return self._range


# ---------------------------------------------------------------------------------------------
# The op names: the class of Ops
# ---------------------------------------------------------------------------------------------


def lean_enum_type():
    """EnumType without the __getattr__ fallback of Python 3.11, or None on a later Python.

    In 3.11, EnumType (the class of every Enum) defines __getattr__, a fallback for a member
    missing from the class's dict, and a class whose metaclass has one is read slowly: each
    `Ops.CONST` costs several times an attribute of a plain class, and the rules and the
    constructor read such names on nearly every node. This copy keeps all of EnumType's methods
    but that fallback (every member of Ops is in its dict, so it never served) and the four
    that only build or guard a class; tests/test_ops.py checks that Ops still behaves as an Enum
    wherever the project uses it."""
    if "__getattr__" not in vars(enum.EnumType):
        return None
    kept = {
        name: value
        for name, value in vars(enum.EnumType).items()
        if name not in ("__getattr__", "__setattr__", "__delattr__", "__new__", "__prepare__")
    }
    return type("LeanEnumType", (type,), {**kept, "__module__": __name__})


LEAN_ENUM_TYPE = lean_enum_type()
