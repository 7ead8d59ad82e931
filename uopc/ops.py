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
