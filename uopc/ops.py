"""The operation set of uopc: 23 ops, the ALU group of 13 that compute values, and the
commutative ones.

Relies on nothing. Invariant: the order of the members is the book's order, so anything that
iterates over `Ops` (the matcher's per-op index, the text format) is deterministic.
"""

import enum


# --8<-- [start:ops]
class Ops(enum.Enum):
    # leaves and calls
    CONST = enum.auto()
    PARAM = enum.auto()
    CALL = enum.auto()
    # one source
    CAST = enum.auto()
    NEG = enum.auto()
    RECIP = enum.auto()
    EXP2 = enum.auto()
    LOG2 = enum.auto()
    # two sources
    ADD = enum.auto()
    MUL = enum.auto()
    MAX = enum.auto()
    CMPLT = enum.auto()
    CMPNE = enum.auto()
    FLOORDIV = enum.auto()
    FLOORMOD = enum.auto()
    # three sources
    WHERE = enum.auto()
    # memory
    BUFFER = enum.auto()
    ALLOC = enum.auto()
    INDEX = enum.auto()
    LOAD = enum.auto()
    STORE = enum.auto()
    AFTER = enum.auto()
    SINK = enum.auto()


# The ops that compute a value from values: everything folding and the rules work on.
# A tuple, so that iterating over it gives the same order in every run.
ALU = (
    Ops.CAST, Ops.NEG, Ops.RECIP, Ops.EXP2, Ops.LOG2,
    Ops.ADD, Ops.MUL, Ops.MAX, Ops.CMPLT, Ops.CMPNE,
    Ops.FLOORDIV, Ops.FLOORMOD, Ops.WHERE,
)  # fmt: skip

# The binary ops whose srcs may be swapped: canonical order sorts their srcs. Float MAX is
# not quite commutative (nan, signed zeros), which the rule that uses this set checks.
COMMUTATIVE = (Ops.ADD, Ops.MUL, Ops.CMPNE, Ops.MAX)
# --8<-- [end:ops]

# Speed only: members are singletons compared by identity, so the identity hash is right, and
# it is computed in C; Enum's own __hash__ is Python code, and every table lookup hashes an op.
Ops.__hash__ = object.__hash__


# Speed only: in Python 3.11 EnumType, the class of every Enum, defines __getattr__ (a fallback,
# deprecated since, for a member missing from the class's dict), and a class whose metaclass
# has one is read slowly: each `Ops.CONST` took about 70 ns against about 15 for an attribute of
# a plain class, and the rules and the node's constructor read such names on nearly every node.
# Ops is given a metaclass with all of EnumType's methods but that fallback (every member of Ops
# is in its dict, so it never served) and the three that only build or guard the class; the
# Pythons that dropped the fallback keep Ops as it is. tests/test_ops.py checks that Ops still
# behaves as an Enum wherever the project uses it.
def _without_getattr_fallback(enum_class) -> None:
    meta = type(enum_class)
    if "__getattr__" not in vars(enum.EnumType):
        return
    kept = {
        name: value
        for name, value in vars(meta).items()
        if name not in ("__getattr__", "__setattr__", "__delattr__", "__new__", "__prepare__")
    }
    enum_class.__class__ = type("LeanEnumType", (type,), {**kept, "__module__": __name__})


_without_getattr_fallback(Ops)
