"""Scalar types, the pointer type and the integer limits.

Relies on nothing. Invariant: the four `DType` objects are singletons, compared by identity,
and a `Ptr` is a value (equal when base and size are equal) so that it can be part of a
hash-consing key.
"""

from dataclasses import dataclass

INT_MIN = -(2**31)
INT_MAX = 2**31 - 1


# --8<-- [start:dtype]
class DType:
    """A scalar type: `name` for messages and the text format, `kind`, and `c` for C."""

    __slots__ = ("name", "kind", "c")

    def __init__(self, name: str, kind: str, c: str):
        self.name, self.kind, self.c = name, kind, c

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__


BOOL = DType("bool", "bool", "bool")
I32 = DType("i32", "int", "int32_t")
F32 = DType("f32", "float", "float")
VOID = DType("void", "void", "void")
VALUE_DTYPES = (BOOL, I32, F32)
# --8<-- [end:dtype]


@dataclass(frozen=True, slots=True)
class Ptr:
    """A pointer to `size` consecutive elements of the value dtype `base`."""

    base: DType
    size: int

    def __str__(self) -> str:
        return f"ptr<{self.base},{self.size}>"


def dtype_of_value(v) -> DType:
    """The dtype of a Python constant; bool is tested first because bool is a subclass of int."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return I32
    if isinstance(v, float):
        return F32
    raise TypeError(f"no dtype for a value of type {type(v).__name__}")
