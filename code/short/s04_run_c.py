"""Step 4: clang compiles the C, and the compiled function agrees with the interpreter."""

import math

from uopc import F32, CallArg, Ops, ParamArg, UOp
from uopc.interp import evaluate
from uopc.runtime import Program
from uopc.semantics import same

x = UOp(Ops.PARAM, arg=ParamArg(0, F32))
y = UOp(Ops.PARAM, arg=ParamArg(1, F32))
zero = UOp.const(0.0)
add = Program(UOp(Ops.CALL, (x + y, zero, zero), CallArg("add")))

agree = True
for a, b in [(1.5, 2.25), (1e8, 1.0), (-0.0, 0.0), (math.inf, -math.inf)]:
    compiled, interpreted = add(a, b), evaluate(x + y, {0: a, 1: b})
    agree = agree and same(compiled, interpreted)
    print(f"add({a}, {b}): C {compiled}, interpreter {interpreted}")
if not agree:
    raise SystemExit("the compiled result and the interpreter disagree")
