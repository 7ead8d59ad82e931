@dataclass(frozen=True)
class Case:
    """One op on one dtype: `srcs` the input dtypes, `out` the result's (for CAST the target)."""

    op: Ops
    srcs: tuple[DType, ...]
    out: DType

    @property
    def name(self) -> str:
        """`add_i32`, `where_f32`, `cast_f32_i32`: also the C function's name after `ref_`."""
        if self.op is Ops.CAST:
            return f"cast_{self.srcs[0]}_{self.out}"
        return f"{self.op.name.lower()}_{self.srcs[-1]}"


def binary(op, dtype, out=None):
    return Case(op, (dtype, dtype), out or dtype)


CASES = (
    *(binary(op, d) for d in (I32, F32) for op in (Ops.ADD, Ops.MUL, Ops.MAX)),
    *(binary(op, d, BOOL) for d in (I32, F32, BOOL) for op in (Ops.CMPLT, Ops.CMPNE)),
    binary(Ops.MUL, BOOL),  # AND
    binary(Ops.MAX, BOOL),  # OR
    Case(Ops.NEG, (I32,), I32),
    Case(Ops.NEG, (F32,), F32),
    binary(Ops.FLOORDIV, I32),
    binary(Ops.FLOORMOD, I32),
    Case(Ops.RECIP, (F32,), F32),
    Case(Ops.EXP2, (F32,), F32),
    Case(Ops.LOG2, (F32,), F32),
    *(Case(Ops.WHERE, (BOOL, d, d), d) for d in (BOOL, I32, F32)),
    *(Case(Ops.CAST, (a,), b) for a in (BOOL, I32, F32) for b in (BOOL, I32, F32) if a is not b),
)
