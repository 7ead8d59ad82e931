"""Step 7: x + 0.0 -> x looks free, but it changes the sign of a zero."""

import math

import numpy as np

from uopc import F32, Ops, ParamArg, UOp
from uopc.interp import evaluate
from uopc.symbolic import simplify

x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
verdicts = (
    simplify(x + 0.0) is x,
    simplify(x + UOp.const(-0.0)) is x,
    simplify(x + 0.0, fast_math=True) is x,
)
print("strict simplify(x + 0.0) is x:   ", verdicts[0])
print("strict simplify(x + (-0.0)) is x:", verdicts[1])
print("fast math simplify(x + 0.0) is x:", verdicts[2])

value = evaluate(x + 0.0, {0: -0.0})
print(f"x + 0.0 at x = -0.0: {value}, sign {math.copysign(1.0, value)}")
print(f"the rewritten x:     {-0.0}, sign {math.copysign(1.0, -0.0)}")
with np.errstate(divide="ignore"):
    one = np.float32(1.0)
    print("float32 1/+0.0 =", one / np.float32(0.0), " 1/-0.0 =", one / np.float32(-0.0))
if verdicts != (False, True, True) or math.copysign(1.0, value) != 1.0:
    raise SystemExit("only -0.0 is the float identity of +")
