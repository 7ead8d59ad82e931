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

