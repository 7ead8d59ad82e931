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

