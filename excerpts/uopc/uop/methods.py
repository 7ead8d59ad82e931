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

