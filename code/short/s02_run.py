"""Step 2: the interpreter runs a graph on the values given for its params."""

from uopc import F32, Ops, ParamArg, UOp
from uopc.interp import evaluate

x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
y = UOp(Ops.PARAM, arg=ParamArg(1, F32))

for a, b, expected in [(1.5, 2.25, 3.75), (1e8, 1.0, 1e8)]:  # float32 has no room for the 1
    value = evaluate(x + y, {0: a, 1: b})
    print(f"x = {a}, y = {b}: x + y = {value}")
    if value != expected:
        raise SystemExit(f"expected {expected}")
