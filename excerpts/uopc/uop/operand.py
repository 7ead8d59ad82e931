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

