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
